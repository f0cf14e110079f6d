"""The rollout search's candidate list (strategies/search.py, ``add_candidate``): the experts'
and the random candidates are appended in order, each action once."""

import numpy as np

from strategies import search


def test_add_candidate_keeps_order_and_drops_duplicates():
    cand = np.full(6, -1, np.int32)
    nc = 0
    for a in (7, 3, 7, 9, 3, 3, 0):
        nc = search.add_candidate(cand, nc, a)
    assert nc == 4
    assert cand.tolist() == [7, 3, 9, 0, -1, -1]


def test_add_candidate_on_a_full_prefix_returns_the_same_count():
    cand = np.array([5, 6, 0], np.int32)
    assert search.add_candidate(cand, 2, 6) == 2
    assert search.add_candidate(cand, 2, 5) == 2
    assert cand.tolist() == [5, 6, 0]
