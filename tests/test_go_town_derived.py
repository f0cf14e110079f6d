"""Go Town keeps derived arrays (hand sizes, hand masks, dog bits, board summary) beside the
state in its batch loop and updates them in ``apply_arrays`` (sim/go_town/kernels.py,
performance note). After every action they must equal a fresh derivation from the state."""

import numpy as np
import pytest

import sim
from sim.go_town.kernels import apply_arrays, derived_arrays

GAME = sim.get_game("go-town")


@pytest.mark.parametrize("players,options", [
    (2, {}), (3, {}), (4, {}), (4, {"donut_scope": "all"}), (3, {"first_player": "random"}),
])
def test_derived_arrays_stay_in_sync(players, options):
    rng = np.random.default_rng(players)
    checked = 0
    for seed in range(12):
        s = GAME.new_state(players, seed, options)
        steps = 0
        while not GAME.is_terminal(s) and steps < 3000:
            legal = GAME.legal_actions(s)
            a = int(legal[rng.integers(len(legal))])
            hn, hm, dogbits, board = derived_arrays(s)
            apply_arrays(s.meta, s.rng, s.opts, s.counts, s.consts, s.deck, s.discard, s.hands,
                         s.floors, s.values, s.dogs, s.n_floors, s.skips, s.milk, s.played, hn,
                         hm, dogbits, board, a)
            fresh = derived_arrays(s)
            for name, kept, new in zip(("hn", "hm", "dogbits", "board"),
                                       (hn, hm, dogbits, board), fresh):
                assert np.array_equal(kept, new), (seed, steps, name, kept, new)
            steps += 1
            checked += 1
    assert checked > 500
