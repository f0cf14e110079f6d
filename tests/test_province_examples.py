"""The spec's worked examples (shared/rules/province.md §8) and key rulings, on the engine.

Positions are built with ``state_from_dict`` (docs/games/province.md §10); every expected value
is the spec's or follows from the contract's procedures. Action ids: docs §5.
"""

import copy
import json

import numpy as np
import pytest

from sim.core.errors import UserError
from sim.core.seating import seat_matrix
from sim.province.game import Province

GAME = Province()
END, GRIND, UNION, HIRE, TAKE, REPAY = 0, 264, 265, 266, 267, 268
NAMES = ["Lender", "Bank", "Camp", "Village", "Mill", "Smithy", "Union", "Harbor"]
B = {n: 256 + i for i, n in enumerate(NAMES)}  # BUILD ids
C, A_, B_ = 0, 1, 2  # spaces


def base(**kw) -> dict:
    """The start of a default game (P0 to act, work phase), goal stack forced to ``stack``."""
    d = GAME.state_to_dict(GAME.new_state(2, 0))
    d["goals"]["stack"] = kw.pop("stack", ["Hoard", "Crew", "Rival", "Dynasty", "Seafarer"])
    d["goals"]["result"] = [-2] * len(d["goals"]["stack"])
    for k, v in kw.items():
        d[k] = v
    return d


def own(d, p, names, first=True, turn=1):
    for n in names:
        k = NAMES.index(n)
        d["owned"][p].append(n)
        d["owned"][p].sort(key=NAMES.index)
        d["built_turn"][p][k] = turn
        if first:
            d["first_builder"][k] = p
    if "Camp" in names and d["workers"]["yellow"] < 0:
        d["workers"]["yellow"] = 1
    if "Village" in names and d["workers"]["orange"] < 0:
        d["workers"]["orange"] = 1


def set_coins(d, c0, c1):
    d["coins"] = [c0, c1]
    d["supply"] = d["options"]["coin_total"] - c0 - c1


def st(d):
    s = GAME.position_from_dict(json.loads(json.dumps(d)))
    GAME.check_invariants(s)
    return s


def play(s, *actions):
    for a in actions:
        s = GAME.apply_action(s, a)
        GAME.check_invariants(s)
    return s


def D(s):
    return GAME.state_to_dict(s)


# ---- E1: work phase ---------------------------------------------------------------------------
def test_e1_all_three_greens():
    s = play(st(base()), 0b111)
    d = D(s)
    assert d["labor"] == 2 and d["coins"] == [3, 3] and d["supply"] == 29
    assert d["workers"]["green"] == [A_, B_, C]
    assert d["phase"] == "spend" and d["this_turn"]["moved"] == 3


def test_e1b_coin_denial_line():
    s = play(st(base()), 0b100)
    d = D(s)
    assert d["labor"] == 0 and d["coins"] == [3, 3] and d["supply"] == 29
    assert d["workers"]["green"] == [C, A_, C]
    s = play(s, END)
    assert D(s)["current"] == 1 and GAME.legal_actions(s).tolist() == list(range(1, 8))
    d = D(play(s, 0b111))
    assert d["labor"] == 3 and d["coins"] == [3, 3] and d["supply"] == 29
    assert d["workers"]["green"] == [A_, B_, A_]


def test_e1c_empty_move_set_is_illegal():
    s = st(base())
    assert 0 not in GAME.legal_actions(s).tolist()
    with pytest.raises(UserError):
        GAME.apply_action(s, 0)


# ---- E2: first versus second copy ------------------------------------------------------------
def test_e2_first_and_second_lender():
    s = play(st(base()), 0b111, B["Lender"])
    d = D(s)
    assert d["labor"] == 0 and d["coins"] == [1, 3] and d["supply"] == 31
    assert d["owned"][0] == ["Lender"] and d["first_builder"][0] == 0
    assert GAME.scores(s).tolist() == [1, 0]
    # a second structure in the same turn is illegal (no BUILD ids at all)
    assert not any(256 <= a < 264 for a in GAME.legal_actions(s).tolist())
    # P1 (seat 1) builds a Lender copy: 2 L + 2 C, 0 VP
    d = D(play(s, END))
    d["phase"], d["labor"] = "spend", 2
    s = play(st(d), B["Lender"])
    d = D(s)
    assert d["coins"] == [1, 1] and d["labor"] == 0 and d["first_builder"][0] == 0
    assert GAME.scores(s).tolist() == [1, 0]
    assert TAKE in GAME.legal_actions(s).tolist()  # P2 can now borrow (§5.6)
    # P1 never gets a second Lender
    d = D(play(s, END))
    d["phase"], d["labor"], d["coins"], d["supply"] = "spend", 9, [9, 1], 25
    assert B["Lender"] not in GAME.legal_actions(st(d)).tolist()


# ---- E3: grinding ---------------------------------------------------------------------------
def test_e3_grinding():
    d = base(phase="spend", labor=5)
    set_coins(d, 1, 24)
    assert d["supply"] == 10
    s = play(st(d), GRIND, GRIND)
    d = D(s)
    assert d["labor"] == 1 and d["coins"][0] == 3 and d["supply"] == 8
    assert d["this_turn"]["grinds"] == 2
    assert GRIND not in GAME.legal_actions(s).tolist()
    d = D(play(s, END))
    assert d["coins"][0] == 3 and d["current"] == 1 and d["labor"] == 0


def test_e3_supply_empty_blocks_grind():
    d = base(phase="spend", labor=4)
    set_coins(d, 5, 30)
    assert d["supply"] == 0
    assert GRIND not in GAME.legal_actions(st(d)).tolist()


# ---- E5: a goal claimed, the next removed ------------------------------------------------------
def _e5(coins0):
    d = base(stack=["Township", "Landmark", "Hoard"], phase="spend", labor=2, ships="mixed")
    own(d, 0, ["Camp", "Harbor"])
    own(d, 1, ["Mill", "Smithy"])
    set_coins(d, coins0, 3)
    return st(d)


def test_e5_claim_remove_then_hoard_ends_game():
    s = play(_e5(8), B["Lender"])
    d = D(s)
    assert d["goals"]["result"] == [0, -1, -2] and d["goals"]["next"] == 2
    assert GAME.scores(s).tolist() == [1 + 2 + 1 + 1, 1 + 2]
    assert d["end_trigger"] == "none" and d["coins"][0] == 6
    s = play(s, END)
    d = D(s)
    assert d["goals"]["result"] == [0, -1, 0]
    assert d["phase"] == "over" and d["end_reason"] == "goals" and d["winners"] == [0]
    assert GAME.scores(s).tolist() == [6, 3] and GAME.is_terminal(s)


def test_e5_hoard_not_met_play_continues():
    s = play(_e5(7), B["Lender"], END)
    d = D(s)
    assert d["goals"]["result"] == [0, -1, -2] and d["goals"]["next"] == 2
    assert d["phase"] == "work" and d["current"] == 1 and d["end_trigger"] == "none"


# ---- E7: Bank and supply exhaustion ------------------------------------------------------------
def test_e7_bank_capped_by_supply():
    d = base()
    own(d, 0, ["Lender", "Bank"])
    set_coins(d, 4, 30)
    assert d["supply"] == 1
    d = D(play(st(d), 0b100))  # green2 B -> C
    assert d["coins"] == [5, 30] and d["supply"] == 0
    assert d["stats"]["supply_ran_dry"] and d["stats"]["coins_missed"] == [1, 0]


def test_e7_two_workers_one_coin():
    d = base()
    d["workers"]["green"] = [B_, B_, A_]
    set_coins(d, 4, 30)
    d = D(play(st(d), 0b011))
    assert d["coins"] == [5, 30] and d["supply"] == 0 and d["labor"] == 0


def test_bank_doubles_coins():
    d = base()
    own(d, 0, ["Lender", "Bank"])
    d = D(play(st(d), 0b100))
    assert d["coins"] == [4, 3]


# ---- E9: end trigger, no compensating turn -----------------------------------------------------
def _seven_types(final_turn="finish_turn"):
    """P0: Lender, Camp, Mill, Smithy (first); P1: Bank, Village, Union (first), Lender and
    Camp (copies). Seven types built, the Harbor is missing; P0 to spend 5 labor, 10 coins."""
    d = base(phase="spend", labor=5, stack=["Hoard", "Crew"], turn=9)
    d["options"]["final_turn"] = final_turn
    own(d, 0, ["Lender", "Camp", "Mill", "Smithy"])
    own(d, 1, ["Bank", "Village", "Union"])
    own(d, 1, ["Lender", "Camp"], first=False)
    d["lender"] = {"holder": 0, "taken_turn": 7}
    set_coins(d, 10, 3)
    return st(d)


def test_e9_eighth_type_finishes_the_turn_only():
    s = play(_seven_types(), B["Harbor"])
    d = D(s)
    assert d["end_trigger"] == "all_types" and d["phase"] == "spend"
    legal = GAME.legal_actions(s).tolist()
    assert GRIND in legal and REPAY in legal
    s = play(s, GRIND, REPAY)
    assert D(s)["lender"]["holder"] == -1
    s = play(s, END)
    d = D(s)
    assert d["phase"] == "over" and d["end_reason"] == "all_types" and d["turn"] == 9
    assert GAME.legal_actions(s).tolist() == []
    # P0: Lender 1 + Camp 1 + Mill 1 + Smithy 2 + Harbor 2; P1: Bank 2 + Village 2 + Union 1
    assert GAME.scores(s).tolist() == [7, 5] and d["winners"] == [0]


def test_final_turn_option_gives_opponent_one_turn():
    s = play(_seven_types("opponent_last_turn"), B["Harbor"], END)
    d = D(s)
    assert d["phase"] == "work" and d["current"] == 1 and d["last_turn"] and d["turn"] == 10
    s = play(s, 0b111, END)
    d = D(s)
    assert d["phase"] == "over" and d["end_reason"] == "all_types" and d["turn"] == 10
    assert d["goals"]["result"] == [0, -2]  # Hoard: P0 ended its turn with 7 coins
    assert GAME.scores(s).tolist() == [7 + 1 - 2, 5]


# ---- Lender (§5.6, §6.3) -----------------------------------------------------------------------
def test_borrowed_mill_pays_at_once_and_yellow_becomes_movable():
    d = base()
    own(d, 0, ["Lender"])
    own(d, 1, ["Camp", "Mill"])
    s = st(d)
    assert GAME.legal_actions(s).tolist() == list(range(1, 8)) + [TAKE]
    s = play(s, TAKE)
    d = D(s)
    assert d["labor"] == 1 and d["this_turn"]["labor_gained"] == 1
    assert d["lender"] == {"holder": 0, "taken_turn": 1}
    legal = GAME.legal_actions(s).tolist()
    assert legal == list(range(1, 16))  # yellow (slot 3) is movable, no second take, no repay
    assert GAME.scores(s).tolist() == [1 - 2, 2]


def test_steal_moves_the_debt():
    d = base()
    own(d, 0, ["Lender"])
    own(d, 1, ["Lender"], first=False)
    d["lender"] = {"holder": 1, "taken_turn": 0}
    s = play(st(d), TAKE)
    d = D(s)
    assert d["lender"]["holder"] == 0 and d["stats"]["lender_steals"] == [1, 0]
    assert GAME.scores(s).tolist() == [1 - 2, 0]
    d["options"]["lender_steal"] = False
    d["lender"] = {"holder": 1, "taken_turn": 0}
    assert TAKE not in GAME.legal_actions(st(d)).tolist()


def test_repay_then_take_again_same_turn():
    d = base()
    own(d, 0, ["Lender"])
    d["lender"] = {"holder": 0, "taken_turn": 0}
    set_coins(d, 3, 3)
    s = st(d)
    assert GAME.legal_actions(s).tolist()[-1] == REPAY
    s = play(s, REPAY)
    assert D(s)["coins"][0] == 0 and D(s)["lender"]["holder"] == -1
    s = play(s, TAKE)
    assert REPAY not in GAME.legal_actions(s).tolist() and TAKE not in GAME.legal_actions(s).tolist()


# ---- Goals (§4.1) ------------------------------------------------------------------------------
def test_rival_is_an_event_goal():
    d = base(phase="spend", labor=2, stack=["Rival", "Crew"])
    own(d, 1, ["Camp"])
    s = play(st(d), B["Camp"])
    d = D(s)
    assert d["goals"]["result"] == [0, -2] and d["goals"]["next"] == 1
    assert GAME.scores(s).tolist() == [1, 1]


def test_hard_labor_and_crew_per_turn():
    d = base(stack=["Crew", "Hard Labor", "Hoard"])
    own(d, 0, ["Camp", "Mill"])
    s = st(d)
    d = D(s)
    d["labor"], d["this_turn"]["labor_gained"] = 1, 1  # the Mill income of this turn
    s = play(st(d), 0b1111)  # 4 workers: 3 labor + 1 coin, plus the Mill = 4 gained
    d = D(s)
    assert d["this_turn"]["moved"] == 4 and d["this_turn"]["labor_gained"] == 4
    assert d["goals"]["result"] == [0, 0, -2] and d["goals"]["next"] == 2


# ---- Harbor (§5.7) -----------------------------------------------------------------------------
def test_harbor_flip_draw_and_hire():
    d = base(turn=3)
    own(d, 1, ["Harbor"])
    d["phase"], d["current"], d["labor"] = "spend", 1, 0
    set_coins(d, 2, 5)
    s = st(d)
    rng = np.array([int(d["rng"], 16)], np.uint64)
    from sim.core.rng import rand_below
    a, b = int(rand_below(rng, 2)), int(rand_below(rng, 2))
    s = play(s, END)  # P0's turn start: a Harbor exists, so the ships are flipped
    d = D(s)
    assert d["ships"] == ["white", "mixed", "black"][a + b]
    assert d["rng"] == "0x%016x" % int(rng[0])
    # P1 hires on a mixed flip
    d["current"], d["phase"], d["ships"] = 1, "spend", "mixed"
    s = play(st(d), HIRE)
    d = D(s)
    assert d["workers"]["sailors"][1] == [1, -1, -1] and d["coins"][1] == 2
    assert HIRE not in GAME.legal_actions(s).tolist()


# ---- Setup chance order, tie-breaks, conservation ----------------------------------------------
def test_setup_goal_draw_order():
    seed = 12345
    s = GAME.new_state(2, seed)
    rng = np.array([seed], np.uint64)
    from sim.core.rng import shuffle
    order = np.arange(9, dtype=np.int64)
    shuffle(rng, order, 9)
    names = [g[0] for g in __import__("sim.province.data", fromlist=["GOALS"]).GOALS]
    assert D(s)["goals"]["stack"] == [names[i] for i in order[:5]]
    assert D(s)["rng"] == "0x%016x" % int(rng[0])


def test_tie_break_structures_then_workers():
    d = base(phase="spend", stack=["Hoard"])
    own(d, 0, ["Mill"])
    own(d, 1, ["Lender"])
    d["goals"]["result"] = [-1]
    d["goals"]["next"] = 1
    d["end_trigger"] = "goals"
    s = play(st(d), END)
    assert D(s)["winners"] == [0, 1]  # 1 VP each, 1 structure each, 3 workers each
    d["owned"][1] = ["Lender", "Camp"]
    d["built_turn"][1][2] = 1
    d["first_builder"][2] = 1
    d["workers"]["yellow"] = 1
    s = play(st(d), END)
    assert GAME.scores(s).tolist() == [1, 2] and D(s)["winners"] == [1]


def test_chunk_coin_conservation_and_detail():
    n = 300
    seats = seat_matrix("fixed", 5, 0, n, 2, 2)
    r = GAME.run_chunk(0, n, 5, 2, seats, GAME.resolve_options({}), ["greedy", "random"])
    assert (r.seat_detail["coins_end"].sum(axis=1) <= 35).all()
    assert set(np.unique(r.seat_detail["built_lender"])) <= {0, 1, 2}
    assert ((r.seat_detail["goalin_hoard"] == 0) | (r.seat_detail["goalin_hoard"] == 1)).all()
    assert (r.win_share.sum(axis=1)[r.end_reason != 4] == 1).all()


def test_state_dict_round_trip_and_copy():
    s = play(st(base()), 0b101)
    d = D(s)
    assert D(GAME.state_from_dict(copy.deepcopy(d))) == d
    bad = copy.deepcopy(d)
    bad["supply"] += 1
    with pytest.raises(UserError):
        GAME.state_from_dict(bad)
