"""The spec's worked examples (shared/rules/suburbia.md §8, the seed's own among them) on the
engine, with their exact values, plus rule checks: red lines both ways, clamps, options.

Positions are built with ``state_from_dict`` (layout: docs/games/suburbia.md §12). Values after a
turn include the income and reputation steps of the acting seat (doc §5.4).
"""

import json

import numpy as np
import pytest

import sim
from sim.suburbia.constants import A_BASIC, A_BUY, A_DISCARD, A_INVEST, A_LAKE, A_PLACE, cell_id

GAME = sim.get_game("suburbia")
START = [("Suburbs", 0, 0), ("Community Park", 0, 2), ("Heavy Factory", 0, 4)]


def position(n=2, options=None, money=15, inc=0, rep=1, pop=2, extra=(), market=None,
             seat=0, others_extra=None):
    """A dict position: phase action, seat ``seat`` to act, start boroughs plus ``extra``
    tiles (name, x, y[, invested]) for the acting seat."""
    d = GAME.state_to_dict(GAME.new_state(n, 0, options))
    d["phase"] = "action"
    d["current"] = seat
    d["turn"] = 1 + seat
    if n > 1:
        d["private_goals"] = [o[0] for o in d["goal_offers"]]
    d["market"] = market or ["Mint", "Farm", "Museum", "Hostel", "Landfill", "Freeway", "Hotel"]
    for p, q in enumerate(d["players"]):
        q["tiles"] = [{"tile": t, "x": x, "y": y, "turn": 0, "invested": False, "rl": 0}
                      for t, x, y in START]
        ex = extra if p == seat else (others_extra or {}).get(p, ())
        for e in ex:
            name, x, y = e[:3]
            t = {"tile": name, "x": x, "y": y, "turn": 1, "invested": bool(e[3]) if len(e) > 3
                 else False, "rl": 0}
            if name == "Lake":
                t["from"] = "Freeway"
                t = {"tile": "Lake", "from": "Freeway", **{k: v for k, v in t.items()
                                                          if k not in ("tile", "from")}}
            q["tiles"].append(t)
        if p == seat:
            q.update(money=money, income=inc, reputation=rep, population=pop, pop_high=pop)
    return d


def play(d, *actions):
    s = GAME.position_from_dict(json.loads(json.dumps(d)))
    for a in actions:
        s = GAME.apply_action(s, a)
    return s


def place(x, y):
    return A_PLACE + cell_id(x, y)


def tracks(s, p=0):
    q = GAME.state_to_dict(s)["players"][p]
    return q["money"], q["income"], q["reputation"], q["population"]


# ---- E1 -------------------------------------------------------------------------------------
def test_e1_starting_values():
    for n in (1, 2, 3, 4):
        d = GAME.state_to_dict(GAME.new_state(n, 3))
        for q in d["players"]:
            assert (q["money"], q["income"], q["reputation"], q["population"]) == (15, 0, 1, 2)
            assert [(t["tile"], t["x"], t["y"]) for t in q["tiles"]] == START


def test_start_cells_are_the_seven_neighbours():
    s = play(position(market=["Mint", "Farm", "Museum", "Hostel", "Landfill", "Freeway",
                              "Convenience Store"]), A_BUY + 6)
    cells = sorted(tuple(map(int, GAME.action_to_string(s, a).split(" at ")[1].strip("()").split(",")))
                   for a in GAME.legal_actions(s))
    assert cells == sorted([(-1, 1), (-1, 3), (-1, 5), (0, 6), (1, 5), (1, 3), (1, 1)])


# ---- E2: 연우 buys an Office Building (seed) ---------------------------------------------------
def test_e2_office_building():
    mk = ["Mint", "Farm", "Museum", "Hostel", "Office Building", "Freeway", "Hotel"]
    d = position(money=15, inc=0, rep=0, pop=4, extra=[("Suburbs", 1, 5)], market=mk,
                 others_extra={1: [("Business Supply Store", 1, 1)]})
    d["players"][1]["income"] = 3
    s = play(d, A_BUY + 4)
    assert tracks(s)[0] == 4  # paid $9 + $2
    s = GAME.apply_action(s, place(1, 3))
    # after the action: $4, Inc 1, Rep 1, Pop 4; income step -> $5; reputation step -> Pop 5
    assert tracks(s) == (5, 1, 1, 5)
    assert tracks(s, 1)[1] == 4  # the Business Supply Store's owner gains +1 Income


# ---- E3: Homeowners Association, and 종신's denial (seed) -------------------------------------
def test_e3a_hoa_first_turn_four_players():
    mk = ["Mint", "Farm", "Museum", "Hostel", "Landfill", "Freeway", "Homeowners Association"]
    d = position(n=4, market=mk)
    s = play(d, A_BUY + 6, place(1, 5))
    # -$6 + $10 (4 Suburbs + itself), income 0; Pop 2 + 1; Factory -1 Rep (adjacent R) -> Rep 0
    assert tracks(s) == (19, 0, 0, 3)


def test_e3b_suburbs_then_discard_hoa():
    mk = ["Mint", "Farm", "Museum", "Homeowners Association", "Landfill", "Freeway", "Hotel"]
    d = position(n=2, market=mk, others_extra={1: [("Homeowners Association", 1, 1)]})
    m1 = d["players"][1]["money"]
    s = play(d, A_BASIC + 0, place(-1, 5))
    assert GAME.state_to_dict(s)["phase"] == "discard"
    assert tracks(s, 1)[0] == m1 + 2  # the opponent's HOA pays $2 for the Suburbs
    s = GAME.apply_action(s, A_DISCARD + 3)  # the HOA in the +$4 slot
    money, inc, rep, pop = tracks(s)
    assert money == 15 - 3 - 4 and pop == 2 + 2 + 0  # Rep 1 - 1 (Factory next to R) = 0
    assert GAME.state_to_dict(s)["discard"] == {"Homeowners Association": 1}


# ---- E4: 희열's three options (seed) -----------------------------------------------------------
def test_e4a_lake_five_neighbours():
    ex = [("Suburbs", 1, 1), ("Parking Lot", 1, 5), ("Convenience Store", 2, 2)]
    s = play(position(money=20, inc=2, rep=1, pop=5, extra=ex), A_LAKE + 6, place(1, 3))
    # $0 + 5 x $2 = $30 after the action; income +2 -> $32; tracks unchanged; Pop 5 + 1
    assert tracks(s) == (32, 2, 1, 6)


def test_e4b_parking_lot():
    mk = ["Mint", "Farm", "Museum", "Hostel", "Landfill", "Freeway", "Parking Lot"]
    s = play(position(money=20, inc=2, rep=1, pop=5, extra=[("Office Building", -1, 1)],
                      market=mk), A_BUY + 6, place(-1, 3))
    # after the action $8, Inc 6 (+1 +1 +1 own, +1 Office), Rep 2 (Park); then $14, Pop 7
    assert tracks(s) == (8 + 6, 6, 2, 7)


def test_e4c_community_park():
    ex = [("Suburbs", 1, 1), ("Parking Lot", 1, 5)]
    s = play(position(money=20, inc=2, rep=1, pop=5, extra=ex), A_BASIC + 1, place(1, 3))
    # after the placement: $16, Inc 2 (-1 own, +1 Parking Lot), Rep 3 (+3 own, -1 Factory)
    assert tracks(s)[:3] == (16, 2, 3)
    s = GAME.apply_action(s, A_DISCARD + 6)
    assert tracks(s) == (18, 2, 3, 8)


# ---- E7: negative reputation at population 0 ---------------------------------------------------
@pytest.mark.parametrize("rep_debt,money", [("pay_what_you_have", 0), ("all_or_nothing", 1)])
def test_e7_negative_reputation_at_zero(rep_debt, money):
    d = position(money=1, inc=0, rep=-3, pop=1, options={"rep_debt": rep_debt})
    d["phase"] = "discard"
    s = play(d, A_DISCARD + 6)
    assert tracks(s) == (money, 0, -3, 0)


def test_income_debt_costs_population():
    d = position(money=2, inc=-5, rep=0, pop=3)
    d["phase"] = "discard"
    s = play(d, A_DISCARD + 6)
    assert tracks(s) == (0, -5, 0, 0)  # pays $2, 3 missing -> Pop 3 -> 0, the rest forgiven


# ---- E8: Lakes --------------------------------------------------------------------------------
def test_e8_lakes():
    s = play(position(rep=0), A_LAKE + 6, place(1, 3))
    assert tracks(s)[0] == 19
    s = play(position(rep=0, extra=[("Lake", 1, 3)]), A_LAKE + 6, place(1, 5))
    assert tracks(s)[0] == 17  # Factory only: Lake-Lake pays nothing
    mk = ["Mint", "Farm", "Museum", "Hostel", "Landfill", "Freeway", "Convenience Store"]
    s = play(position(money=21, rep=0, extra=[("Lake", 1, 3), ("Lake", 1, 5)], market=mk),
             A_BUY + 6, place(2, 4))
    assert tracks(s)[:2] == (21 - 6 + 4 + 1, 1)  # net -$2, Inc +1 (then income +1)


# ---- E9: investment doubling (seed) -------------------------------------------------------------
def test_e9_invest_in_park():
    s = play(position(), A_INVEST + 1)
    assert tracks(s)[:3] == (11, -1, 3)
    s = GAME.apply_action(s, A_DISCARD + 6)
    assert tracks(s) == (10, -1, 3, 5)
    d = GAME.state_to_dict(s)
    assert d["players"][0]["tiles"][1]["invested"] is True
    d2 = position(money=10, inc=-1, rep=3, pop=5, extra=[],
                  market=["Mint", "Farm", "Museum", "Hostel", "Landfill", "Freeway",
                          "Convenience Store"])
    d2["players"][0]["tiles"][1]["invested"] = True
    s = play(d2, A_BUY + 6, place(1, 3))
    # own +1 Inc -> 0; the invested Park reacts +1 x 2 Rep -> 5; Factory ignores Commercial
    assert tracks(s) == (4, 0, 5, 10)


# ---- E11: Fancy Restaurant "after" effect ---------------------------------------------------------
@pytest.mark.parametrize("invested,loss", [(False, 1), (True, 2)])
def test_e11_fancy_restaurant(invested, loss):
    mk = ["Mint", "Farm", "Museum", "Hostel", "Landfill", "Freeway", "Fast Food Restaurant"]
    others = {0: [("Fancy Restaurant", -1, 1, invested)], 2: [("Farm", 1, 1)]}
    d = position(n=3, seat=1, market=mk, extra=[("Suburbs", 1, 3)], others_extra=others, rep=0)
    d["players"][0]["income"] = 5
    d["players"][2]["income"] = 2
    s = play(d, A_BUY + 6, place(1, 1))
    # P1: +1 Inc; +3 Pop x 2 adjacent R; Park +1 Rep (adjacent C)
    assert tracks(s, 1) == (15 - 7 + 1, 1, 1, 2 + 6 + 1)
    assert tracks(s, 0)[1] == 5 - loss
    assert tracks(s, 2)[1] == 3  # Farm: +1 Income per restaurant anywhere


# ---- E14: the 1 More Round ------------------------------------------------------------------------
def test_e14_one_more_round():
    d = GAME.state_to_dict(GAME.new_state(4, 11))
    d["phase"] = "action"
    d["private_goals"] = [o[0] for o in d["goal_offers"]]
    d["round"], d["current"], d["turn"] = 9, 1, 34
    pile = [x for x in d["pile"] if x != "1 More Round"]
    d["pile"] = pile + ["1 More Round"]  # 1MR on top: drawn in seat 1's refill
    s = GAME.position_from_dict(d)
    rng = GAME.bot_rng(1)
    seen = []
    while not GAME.is_terminal(s):
        if GAME.state_to_dict(s)["phase"] == "action":
            seen.append((int(s.meta[3]), GAME.current_player(s)))
        s = GAME.apply_action(s, GAME.choose_action(s, "random", rng))
    d = GAME.state_to_dict(s)
    assert d["last_round"] == 10 and d["round"] == 10 and d["turn"] == 40
    assert seen[-1] == (10, 3) and seen[0] == (9, 1)
    # every seat played exactly 10 turns: 9 full rounds of 4 ... rounds 1..10
    assert sum(1 for r, _ in seen if r == 10) == 4


def test_solo_ends_when_1mr_drawn():
    d = GAME.state_to_dict(GAME.new_state(1, 2))
    pile = [x for x in d["pile"] if x != "1 More Round"]
    d["pile"] = pile + ["1 More Round"]
    s = play(d, A_LAKE + 6, place(1, 3))
    assert GAME.state_to_dict(s)["phase"] == "extra_discard"
    s = GAME.apply_action(s, A_DISCARD + 5)
    assert GAME.is_terminal(s)
    # $15 + $4 lake -> $19 (income 0), Pop 2 + 1 = 3; money -> 3 population, $4 left
    assert tracks(s) == (4, 0, 1, 6)
    assert GAME.winners(s) == [0]


# ---- red lines and clamps (spec §5.5, D1, D2) ----------------------------------------------------
@pytest.mark.parametrize("offset,pop,expect", [(0, 14, (1, 1)), (0, 13, (1, 1)), (0, 12, (2, 2)),
                                               (-1, 13, (1, 1)), (-1, 11, (2, 2))])
def test_red_line_up(offset, pop, expect):
    d = position(money=10, inc=2, rep=2, pop=pop, options={"red_line_offset": offset})
    d["phase"] = "discard"
    s = play(d, A_DISCARD + 6)  # reputation +2: pop -> pop + 2
    assert tracks(s)[1:3] == expect


@pytest.mark.parametrize("down,expect", [(True, (1, -1, 13)), (False, (0, -2, 13))])
def test_red_line_down(down, expect):
    d = position(money=10, inc=0, rep=-2, pop=15, options={"red_line_down": down})
    d["players"][0]["redlines_up"] = 1
    d["phase"] = "discard"
    s = play(d, A_DISCARD + 6)
    assert tracks(s)[1:] == expect


def test_casino_fires_on_red_line_and_clamp():
    # Casino owned; income 15 at the clamp; crossing one line: Inc -1 then Casino +1 -> 15
    d = position(money=30, inc=15, rep=3, pop=13, extra=[("Casino", -1, 1)])
    d["phase"] = "discard"
    s = play(d, A_DISCARD + 6)
    assert tracks(s) == (45, 15, 2, 16)
    d["options"]["clamp_timing"] = "end_of_resolution"
    s = play(d, A_DISCARD + 6)
    assert tracks(s) == (45, 15, 2, 16)


def test_tracks_clamped():
    mk = ["Mint", "Farm", "Museum", "Hostel", "Landfill", "Freeway", "New Car Dealership"]
    s = play(position(money=20, inc=13, rep=0, market=mk), A_BUY + 6, place(-1, 5))
    assert tracks(s)[1] == 15


def test_waterfront_pairs_and_lake_bonus():
    mk = ["Mint", "Farm", "Museum", "Hostel", "Landfill", "Freeway", "Waterfront Realty"]
    ex = [("Lake", 1, 3)]  # touches Park and Factory: 2 pairs
    s = play(position(money=20, rep=0, extra=ex, market=mk), A_BUY + 6, place(2, 2))
    # -6; one-off 2 x 2 pairs = 4; the Lake pays (2 + 2) for the Realty next to it = 4
    assert tracks(s)[0] == 20 - 6 + 4 + 4
    s = play(position(money=20, rep=0, extra=ex, market=mk,
                      options={"waterfront": "future_only"}), A_BUY + 6, place(2, 2))
    assert tracks(s)[0] == 20 - 6 + 4


def test_goals_strict_best_and_money_conversion():
    d = position(n=2)
    d["public_goals"] = ["Builder", "Billionaire"]
    d["private_goals"] = ["Investor", "Miser"]
    d["players"][0]["tiles"].append({"tile": "Suburbs", "x": 1, "y": 1, "turn": 3,
                                     "invested": False, "rl": 0})
    d["players"][1].update(money=15, income=0)
    d["round"], d["last_round"], d["current"], d["turn"] = 5, 5, 1, 10
    d["players"][0].update(money=23, income=2, population=20)
    # seat 1 discards (after a basic) and ends the game: it gains its income (0) and rep (1)
    d["phase"] = "discard"
    s = play(d, A_DISCARD + 6)
    out = GAME.state_to_dict(s)
    p0, p1 = out["players"]
    # Builder: P0 has 2 R vs 1 -> +15; Billionaire: $23 vs $15 -> +10; Investor 2 vs 0 -> +15;
    # Miser (P1: income 0 < 2) -> +15
    assert p0["goals_scored"] == ["Billionaire", "Builder", "Investor"]
    assert p0["goal_pop"] == 40 and p0["money_pop"] == 4 and p0["money"] == 3
    assert p0["population"] == 20 + 40 + 4
    assert p1["goals_scored"] == ["Miser"] and p1["population"] == 2 + 1 + 15 + 3
    assert GAME.winners(s) == [0]


def test_tie_break_and_shared_win():
    from sim.suburbia.game import _ranks_batch
    keys = np.array([[[30, 2, 1, 3], [30, 2, 1, 4], [29, 9, 9, 4]]])
    assert _ranks_batch(keys, True).tolist() == [[2, 1, 3]]
    assert _ranks_batch(keys, False).tolist() == [[1, 1, 3]]


def test_valued_bot_beats_random():
    names = ["random", "greedy"]
    seats = np.array([[0, 1], [1, 0]] * 20, np.int64)
    res = GAME.run_chunk(0, 40, 9, 2, seats, GAME.resolve_options({}), names)
    greedy_share = res.win_share[seats == 1].mean()
    assert greedy_share > 0.8
