"""Suburbia bots (issue #13): the income floor, the private goal, no marker on a Lake.

The positions are reached by random play (the random bot, unchanged) from fixed seeds at 3
players, so they stay the same when the scripted bots change.
"""

import sim
from sim.suburbia import constants as K
from strategies.suburbia.bots import crossings, shortfall
from tests.games import reach

GAME = sim.get_game("suburbia")


def _reach(n_players: int, seed: int, k: int):
    return reach(GAME, n_players, seed, k)


def test_no_investment_marker_on_a_lake():
    s = _reach(3, 0, 36)  # the old greedy put a marker on its Lake (action 20, tile 3)
    c = GAME.current_player(s)
    assert s.meta[K.M_PHASE] == K.PH_ACTION and 20 in GAME.legal_actions(s)
    assert s.tk[c, 3, K.K_KIND] == K.K_LAKE
    for bot in ("greedy", "goal-greedy", "denier", "residential-civic"):
        a = GAME.choose_action(s, bot, GAME.bot_rng(0))
        assert not (K.A_INVEST <= a < K.A_DISCARD and s.tk[c, a - K.A_INVEST, K.K_KIND]
                    == K.K_LAKE), (bot, GAME.action_to_string(s, a))


def test_income_floor_keeps_the_money_the_income_step_needs():
    s = _reach(3, 0, 77)  # $3, Income -1: the old greedy bought a Suburbs ($3) and could not pay
    c = GAME.current_player(s)
    assert (s.pl[c, K.P_MONEY], s.pl[c, K.P_INC]) == (3, -1)
    a = GAME.choose_action(s, "greedy", GAME.bot_rng(0))
    assert a == K.A_BASIC + 2, GAME.action_to_string(s, a)  # Heavy Factory: Income +1


def test_private_goal_kept_by_its_chance_times_its_bonus():
    d = GAME.state_to_dict(GAME.new_state(3, 0))
    assert d["phase"] == "goal" and d["current"] == 0
    d["goal_offers"][0] = ["Aquaphobian", "Builder"]  # 20 x 0.32 against 15 x 0.62
    s = GAME.state_from_dict(d)
    assert GAME.choose_action(s, "greedy", GAME.bot_rng(0)) == K.A_KEEP + 1  # the old: + 0


def test_shortfall_counts_red_lines_crossed_by_reputation():
    s = GAME.new_state(2, 1)
    # Income -1, $10, 10 income steps left: $0 short without red lines
    assert shortfall(10, -1, 0.0, 10.0, 1) == 0.0
    # Reputation 3 from population 12 over 10 steps (population 15, 18, ..., 39): lines 14, 21,
    # 28 and 34 are crossed at steps 1, 4, 6 and 8, lowering the Income of 9 + 6 + 4 + 2 steps
    assert crossings(s.opts, s.lines, s.consts, 3, 12, 10.0) == 21.0
    assert shortfall(10, -1, 21.0, 10.0, 1) == 21.0  # $31 owed, $10 held
    assert shortfall(10, -1, 100.0, 10.0, 1) == 40.0  # Income never below -5
