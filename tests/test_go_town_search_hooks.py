"""Go Town's hooks for the rollout search (strategies/go_town/bots.py, session 11):
``allowed`` (no full-hand END_TURN where the playout bot plays a card) and ``plausible`` (a
determinization whose rival holds what ``attacker`` would have played on its last turn is
redrawn)."""

import numpy as np

import sim
from sim.go_town import constants as K
from strategies.go_town import bots


def _state(turn):
    game = sim.get_game("go-town")
    s = game.new_state(2, 5)
    s.meta[K.M_TURN] = turn
    s.meta[K.M_CUR] = 0
    s.hands[:] = 0
    return game, s


def _attacker_row():
    codes, params = bots.params_matrix(["attacker"])
    return params, 0


def test_allowed_vetoes_only_a_full_hand_pass_against_a_card_play():
    _, s = _state(5)
    s.hands[0, 1] = 1
    s.hands[0, 8] = 1
    s.hands[0, 2] = 6  # 8 cards: the hand limit
    assert not bots.allowed(s, np.int32(K.A_END), np.int32(1))
    assert bots.allowed(s, np.int32(K.A_END), np.int32(K.A_END))
    assert bots.allowed(s, np.int32(1), np.int32(K.A_END))
    s.hands[0, 2] = 5  # 7 cards: it draws next turn, so a pass changes the position
    assert bots.allowed(s, np.int32(K.A_END), np.int32(1))


def test_plausible_rejects_a_rival_hand_attacker_would_have_played():
    params, k = _attacker_row()
    _, s = _state(4)
    s.hands[1, 2] = 2
    s.hands[1, 3] = 2  # 4 cards, no pair summing to 9, no special card
    assert bots.plausible(s, np.int64(0), params, k)
    s.hands[1, K.MILK] = 1
    assert not bots.plausible(s, np.int64(0), params, k)
    s.hands[1, K.MILK] = 0
    s.hands[1, 7] = 1  # 2 + 7: a floor attacker builds
    assert not bots.plausible(s, np.int64(0), params, k)
    # refill_to (3) cards or fewer: some may have been drawn after its END_TURN
    s.hands[1, :] = 0
    s.hands[1, 2] = 1
    s.hands[1, 7] = 1
    s.hands[1, K.THIEF] = 1
    assert bots.plausible(s, np.int64(0), params, k)
    # before the rival's first turn nothing is known
    _, s = _state(1)
    s.hands[1, K.DONUT] = 1
    s.hands[1, 2] = 4
    assert bots.plausible(s, np.int64(0), params, k)
