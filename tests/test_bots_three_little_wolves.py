"""The Three Little Wolves bots (issue #13): a free wolf is placed on the last turn.

The positions are reached by random play (the random bot, which these changes leave alone)
from fixed seeds, so they stay the same when the scripted bots change; in each, the old greedy
built instead of placing its last wolf on its last turn, though the wolf scores one point
more.
"""

import numpy as np
import pytest

import sim
from sim.three_little_wolves import constants as K
from strategies.three_little_wolves.bots import end_terms, params_matrix
from tests.games import reach

GAME = sim.get_game("three-little-wolves")


def _reach(n_players: int, seed: int, k: int):
    """The state after ``k`` random decisions of game ``seed`` (bot generator ``seed``)."""
    return reach(GAME, n_players, seed, k)


# (seed, decisions): 4 players, final stage, the seat's last turn, a WOLF legal and scoring one
# point more than the best build; the old greedy built (actions 217, 350, 90, 29, 89)
LAST_TURNS = [(84, 56), (364, 57), (421, 55), (648, 53), (707, 55)]


@pytest.mark.parametrize("seed,k", LAST_TURNS)
def test_greedy_places_a_free_wolf_on_its_last_turn(seed, k):
    s = _reach(4, seed, k)
    c = GAME.current_player(s)
    assert s.meta[K.M_STAGE] == K.ST_FINAL and s.meta[K.M_FLEFT] <= 4  # its last turn
    assert s.meta[K.M_PHASE] == K.PH_PLAY
    for bot_seed in range(5):
        a = GAME.choose_action(s, "greedy", GAME.bot_rng(bot_seed))
        assert K.A_WOLF <= a < K.A_PLACE, (seed, k, bot_seed, GAME.action_to_string(s, a))
    # and the wolf goes on a house (phase wolf: a PLACE of this seat)
    t = GAME.apply_action(s, a)
    assert t.meta[K.M_PHASE] == K.PH_WOLF and GAME.current_player(t) == c


def test_end_terms_drop_the_penalties_when_nothing_follows():
    codes, params = params_matrix(["greedy"])
    meta = np.zeros(K.N_META, np.int64)
    seat = np.zeros((4, K.N_SEATF), np.int64)
    meta[K.M_NP] = 4
    meta[K.M_STAGE] = K.ST_FINAL
    seat[0, K.S_WU] = 1  # wolves 4 and 5 unused
    seat[0, K.S_HN] = 3
    meta[K.M_FLEFT] = 3  # second lap: its last turn
    assert end_terms(meta, seat, 0, params, 0, 1.0) == (0.0, True, True)
    meta[K.M_FLEFT] = 6  # first lap: two turns left, two wolves: no penalty, wolf first
    w_bet, keep_free, last = end_terms(meta, seat, 0, params, 0, 1.0)
    assert (w_bet, keep_free, last) == (params[0, 21], False, False)
    seat[0, K.S_WU + 1] = 1  # one wolf, two turns: the penalty stays (plus wolf first)
    w_bet, keep_free, last = end_terms(meta, seat, 0, params, 0, 1.0)
    assert w_bet == params[0, 13] + params[0, 21] and not keep_free and not last
    meta[K.M_STAGE] = K.ST_NORMAL  # normal stage: only the betting term may change
    meta[K.M_DECKN] = 30
    assert end_terms(meta, seat, 0, params, 0, 0.5) == (params[0, 13] - params[0, 18] * 0.5,
                                                        False, False)
