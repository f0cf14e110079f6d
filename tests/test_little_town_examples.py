"""The spec's worked examples (shared/rules/little_town.md §9) and contract checks
(docs/games/little_town.md) run on the engine through ``state_from_dict`` positions.

Cells are ``9*row + col``; seat 0 plays first unless a test says otherwise.
"""

import json

import numpy as np
import pytest

import sim
from sim.core.errors import UserError
from sim.little_town.constants import (
    A_ACT,
    A_BUILD,
    A_BUY_FISH,
    A_BUY_WHEAT,
    A_END,
    A_FEED_FISH,
    A_FEED_WHEAT,
    A_GATHER,
    A_PAWN,
    A_PICK,
    A_SITE,
    A_STARVE,
)

GAME = sim.get_game("little-town")
WOOD, STONE, FISH, WHEAT = range(4)
# building ids (docs §1.1)
WHEAT_FIELD, WORKSHOP, TAVERN, BAKERY = 0, 1, 2, 3
QUARRY, PAWNSHOP, WELL, RESTAURANT = 5, 17, 18, 19
CATHEDRAL, RESIDENCE, CASTLE, WATCHTOWER = 21, 22, 23, 24
NEVER = 17  # goal card 17 cannot be completed under the default options (docs §1.2)


def cell(r, c):
    return 9 * r + c


def base(n=2, **options):
    """A fresh round-1 position: beginner market, seat 0 first, every goal slot card 17."""
    opts = {"market": "beginner", "first_player": "seat0", **options}
    d = GAME.state_to_dict(GAME.new_state(n, 0, opts))
    for pl in d["players"]:
        pl["goals"] = [[NEVER, 0] for _ in pl["goals"]]
    return d


def give(d, p, res, k):
    """Move ``k`` cubes of ``res`` from the supply to seat ``p``."""
    d["supply"][res] -= k
    d["players"][p]["cubes"][res] += k


def set_coins(d, p, k):
    d["bank"] += d["players"][p]["coins"] - k
    d["players"][p]["coins"] = k


def set_score(d, p, v):
    d["players"][p]["score"] = v
    d["players"][p]["stats"]["vp_build"] = v  # keeps the score equal to the sum of its parts


def all_workers_used(d):
    """Every worker of every seat is on the construction site (a position after the turns)."""
    w = d["data"]["per_count"][str(d["n_players"])][0]
    for pl in d["players"]:
        pl["workers_used"] = w
        pl["on_site"] = w


def place_worker(d, at, p):
    """One of seat p's used workers stands on cell ``at`` instead of the construction site."""
    d["worker"][at] = p
    d["players"][p]["on_site"] -= 1


def put(d, b, at, p):
    """Building ``b`` owned by seat ``p`` at cell ``at`` (taken from the market)."""
    d["building"][at] = b
    d["owner"][at] = p
    d["players"][p]["houses"] -= 1
    if d["market"][b] > 0:
        d["market"][b] -= 1


def state(d):
    return GAME.position_from_dict(json.loads(json.dumps(d)))


def play(s, *actions):
    for a in actions:
        assert a in GAME.legal_actions(s).tolist(), (a, GAME.legal_actions(s).tolist())
        s = GAME.apply_action(s, a)
        GAME.check_invariants(s)
    return s


def cubes(s, p):
    return GAME.state_to_dict(s)["players"][p]["cubes"]


def player(s, p):
    return GAME.state_to_dict(s)["players"][p]


# ---- T1-T3: gathering (§6.3 step 2) ---------------------------------------------------------
@pytest.mark.parametrize("side,at,want", [
    ("A", cell(4, 5), [1, 0, 2, 0]),  # T1: the seed's example, 2 fish + 1 wood
    ("A", cell(1, 1), [1, 1, 1, 0]),  # T2: three resource types
    ("B", cell(1, 3), [1, 2, 0, 0]),  # T3: the two-cell mountain counts twice
])
def test_gathering(side, at, want):
    s = state(base(board_side=side))
    s = play(s, at)  # nothing to activate: GATHER and END are forced
    assert cubes(s, 0) == want
    d = GAME.state_to_dict(s)
    assert d["current"] == 1 and d["phase"] == "turn" and d["worker"][at] == 0
    assert d["supply"] == [15 - x for x in want]


def test_gathering_is_capped_by_the_supply():
    d = base()
    give(d, 1, FISH, 14)  # one fish left
    s = play(state(d), cell(4, 5))
    assert cubes(s, 0) == [1, 0, 1, 0]


# ---- T4: activation order, fees and interleaving (§6.3, §6.5) ------------------------------
def test_t4_activation_with_fee_and_interleaving():
    d = base()
    put(d, BAKERY, cell(2, 2), 0)  # Red = seat 0
    put(d, WHEAT_FIELD, cell(2, 1), 1)  # White = seat 1
    d["current"] = 1
    d["turn"] = 1
    d["players"][0]["workers_used"] = 1
    d["worker"][cell(5, 8)] = 0
    s = state(d)
    s = play(s, cell(1, 1))
    legal = GAME.legal_actions(s).tolist()
    # slot 6 = (2,1) Wheat Field, slot 7 = (2,2) Bakery: the Bakery is not payable yet
    assert A_ACT + 6 in legal and A_ACT + 7 not in legal and A_GATHER in legal
    assert A_END not in legal  # gathering is mandatory (A2)
    s = play(s, A_ACT + 6)
    assert cubes(s, 1) == [0, 0, 0, 1]
    s = play(s, A_ACT + 7)  # then GATHER and END are forced (docs §4, L2)
    assert player(s, 1)["stats"]["fees_paid"] == 1 and player(s, 0)["stats"]["fees_earned"] == 1
    p1 = player(s, 1)
    assert p1["coins"] == 6 and p1["cubes"] == [1, 1, 1, 0]
    assert player(s, 0)["coins"] == 4
    assert player(s, 0)["act_by_others"][BAKERY] == 1 and p1["act_own"][WHEAT_FIELD] == 1
    assert GAME.state_to_dict(s)["current"] == 0


# ---- T6, T7: feeding (§6.8 step 2) ----------------------------------------------------------
def feeding_position(n, p, coins, fish=0, wheat=0, score=0):
    d = base(n)
    all_workers_used(d)
    d["phase"] = "feed"
    d["current"] = p
    d["turn"] = n * d["data"]["per_count"][str(n)][0]
    d["eor"] = {"stage": "feed", "index": p}
    d["feed"] = {"left": d["data"]["per_count"][str(n)][0], "fish": 0, "wheat": 0}
    set_coins(d, p, coins)
    give(d, p, FISH, fish)
    give(d, p, WHEAT, wheat)
    set_score(d, p, score)
    return d


def test_t6_feeding_shortfall_costs_3():
    s = state(feeding_position(2, 0, coins=2, fish=1, wheat=3))
    assert GAME.legal_actions(s).tolist() == [A_FEED_FISH, A_FEED_WHEAT]
    s = play(s, A_FEED_FISH)  # 3 wheat left: the rest is forced, then STARVE (2 coins)
    p0 = player(s, 0)
    assert p0["score"] == -3 and p0["cubes"] == [0, 0, 0, 0] and p0["coins"] == 2
    assert p0["stats"]["unfed"] == 1 and p0["stats"]["vp_unfed"] == -3
    assert GAME.state_to_dict(s)["current"] == 1  # seat 1 feeds next


def test_t6_feeding_with_three_coins_buys_a_fish():
    s = state(feeding_position(2, 0, coins=3, fish=1, wheat=3))
    s = play(s, A_FEED_FISH)  # then FEED wheat forced until no food
    assert GAME.legal_actions(s).tolist() == [A_BUY_FISH, A_BUY_WHEAT, A_STARVE]
    s = play(s, A_BUY_FISH)
    p0 = player(s, 0)
    assert p0["score"] == 0 and p0["coins"] == 0 and p0["stats"]["food_bought"] == 1


def test_t7_negative_score():
    s = state(feeding_position(3, 0, coins=0, score=2))
    assert GAME.legal_actions(s).tolist() == [A_STARVE]
    s = play(s, A_STARVE)
    assert player(s, 0)["score"] == 2 - 12


def test_feed_all_with_fish_goal_6():
    d = feeding_position(2, 0, coins=3, fish=4, wheat=3)
    d["players"][0]["goals"][0] = [6, 0]
    s = state(d)
    s = play(s, A_FEED_FISH, A_FEED_FISH, A_FEED_FISH, A_FEED_FISH)  # 5th: wheat, forced
    assert player(s, 0)["goals"][0] == [6, 0] and player(s, 0)["cubes"] == [0, 0, 0, 2]
    d["players"][0]["cubes"] = [0, 0, 5, 3]
    d["supply"][FISH] -= 1
    s = play(state(d), *[A_FEED_FISH] * 5)
    assert player(s, 0)["goals"][0] == [6, 1] and player(s, 0)["score"] == 2


# ---- T8, T11: end of game (§6.10) -----------------------------------------------------------
def last_feeding(n=3, **options):
    """Round 4, the last seat's feeding with only fish: applying FEED fish ends the game."""
    d = base(n, **options)
    w = d["data"]["per_count"][str(n)][0]
    d["round"] = 4
    last = n - 1
    d = {**d, **{k: v for k, v in feeding_position(n, last, coins=3, fish=w).items()
                 if k in ("phase", "current", "turn", "eor", "feed")}}
    d["supply"][FISH] -= w
    d["players"][last]["cubes"][FISH] += w
    all_workers_used(d)
    return d


def test_t8_coins_score_one_per_three():
    d = last_feeding()
    for p, k in enumerate((11, 2, 0)):
        set_coins(d, p, k)
    s = play(state(d), A_FEED_FISH)
    assert GAME.is_terminal(s)
    assert GAME.scores(s).tolist() == [3, 0, 0]
    assert GAME.winners(s) == [0] and GAME.ranks(s).tolist() == [1, 2, 2]


@pytest.mark.parametrize("block,vp", [(False, 8), (True, 6)])
def test_t11_watchtower(block, vp):
    d = last_feeding(watchtower_workers_block=block)
    for p in range(3):
        set_coins(d, p, 0)
    put(d, WATCHTOWER, cell(1, 1), 0)
    put(d, WELL, cell(1, 2), 1)
    place_worker(d, cell(2, 1), 2)  # ignored by default (A8)
    s = play(state(d), A_FEED_FISH)
    assert GAME.scores(s).tolist()[0] == vp
    assert player(s, 0)["stats"]["vp_watchtower"] == vp


@pytest.mark.parametrize("counts,vp", [("own", 8), ("all", 12)])
def test_castle(counts, vp):
    d = last_feeding(castle_counts=counts)
    for p in range(3):
        set_coins(d, p, 0)
    put(d, CASTLE, cell(2, 4), 0)
    put(d, WHEAT_FIELD, cell(1, 4), 0)
    put(d, WHEAT_FIELD, cell(3, 3), 0)
    put(d, WELL, cell(3, 5), 1)
    put(d, WHEAT_FIELD, cell(4, 4), 0)  # not adjacent
    s = play(state(d), A_FEED_FISH)
    assert player(s, 0)["stats"]["vp_castle"] == vp


def test_shared_win():
    d = last_feeding()
    for p, k in enumerate((3, 5, 0)):
        set_coins(d, p, k)
    s = play(state(d), A_FEED_FISH)
    assert GAME.scores(s).tolist() == [1, 1, 0]
    assert GAME.winners(s) == [0, 1] and GAME.ranks(s).tolist() == [1, 1, 3]


# ---- T9: goal completion timing (§6.7) ------------------------------------------------------
def test_t9_goal_claimed_the_moment_it_holds():
    d = base(3)
    d["round"] = 3
    d["players"][0]["goals"][0] = [2, 0]
    for at in (cell(1, 1), cell(1, 3), cell(3, 5), cell(4, 2)):
        put(d, WHEAT_FIELD, at, 0)
    give(d, 0, WOOD, 1)
    s = state(d)
    s = play(s, A_BUILD + WHEAT_FIELD, A_SITE + cell(2, 7))
    p0 = player(s, 0)
    assert p0["score"] == 6 and p0["goals"][0] == [2, 3]
    assert p0["stats"]["vp_build"] == 3 and p0["stats"]["vp_goal"] == 3


# ---- T15: build legality (§6.4) --------------------------------------------------------------
def test_t15_no_house_no_build():
    d = base()
    give(d, 0, STONE, 5)
    d["players"][0]["houses"] = 0
    legal = GAME.legal_actions(state(d)).tolist()
    assert not [a for a in legal if A_BUILD <= a < A_SITE]


def test_t15_missing_stone_bought_with_coins():
    d = base()
    give(d, 0, WOOD, 2)
    set_coins(d, 0, 6)
    s = state(d)
    assert A_BUILD + WORKSHOP in GAME.legal_actions(s).tolist()
    s = play(s, A_BUILD + WORKSHOP, A_SITE + cell(2, 4))
    p0 = player(s, 0)
    assert p0["coins"] == 0 and p0["cubes"] == [2, 0, 0, 0] and p0["score"] == 5
    assert p0["stats"]["cubes_bought"] == 2


def test_missing_cube_needs_the_supply():
    d = base()
    set_coins(d, 0, 6)
    give(d, 1, STONE, 14)  # one stone left: the Workshop needs two bought
    assert A_BUILD + WORKSHOP not in GAME.legal_actions(state(d)).tolist()


def test_zero_coins_goal_12_at_payment():
    d = base()
    give(d, 0, WOOD, 2)
    set_coins(d, 0, 6)
    d["players"][0]["goals"][0] = [12, 0]
    s = play(state(d), A_BUILD + WORKSHOP)
    assert player(s, 0)["goals"][0] == [12, 1] and player(s, 0)["score"] == 3


# ---- setup: the (!) check (§6.1 step 9) and drafts ------------------------------------------
def test_impossible_goal_is_replaced():
    # beginner market: no Restaurant, Market; Pawnshop present -> card 5 possible only with A13
    for seed in range(40):
        for opt in (True, False):
            s = GAME.new_state(4, seed, {"market": "beginner", "goal5_counts_pawnshop": opt})
            d = GAME.state_to_dict(s)
            held = [g for pl in d["players"] for g, _ in pl["goals"]]
            assert 7 not in held + d["goal_deck"] + d["goal_discard"]
            if not opt:
                assert 5 not in held
                if 5 in d["goal_discard"]:
                    return
    raise AssertionError("no seed discarded card 5")


def test_draft_market():
    s = GAME.new_state(3, 4, {"market": "draft", "first_player": "seat0"})
    d = GAME.state_to_dict(s)
    assert d["phase"] == "draft" and [len(h) for h in d["draft"]["hands"]] == [8, 8, 8]
    picks = []
    for _ in range(12):
        d = GAME.state_to_dict(s)
        p = d["current"]
        b = d["draft"]["hands"][p][0]
        picks.append((p, b))
        s = play(s, A_PICK + b)
    d = GAME.state_to_dict(s)
    assert d["phase"] == "turn"
    assert sum(d["market"][1:]) == 12 and d["market"][0] == 5
    assert d["market_start"] == d["market"]
    assert [p for p, _ in picks] == [0, 1, 2] * 4
    for k, (p, b) in enumerate(picks):
        assert d["players"][p]["pick"][b] == k // 3 + 1


def test_one_of_two_market():
    s = GAME.new_state(4, 9, {"market": "one-of-two", "first_player": "seat0"})
    for _ in range(12):
        d = GAME.state_to_dict(s)
        assert len(d["draft"]["hands"][d["current"]]) == 2
        s = play(s, A_PICK + d["draft"]["hands"][d["current"]][1])
    d = GAME.state_to_dict(s)
    assert d["phase"] == "turn" and sum(d["market"][1:]) == 12 and d["draft"]["deck"] == []


# ---- end of round: clock buildings, Residence, 3-player tip (§6.8, §6.9) --------------------
def end_of_round(n=2, **options):
    """The last turn of round 1 is about to end: seat n-1 is in phase act with END legal."""
    d = base(n, **options)
    w = d["data"]["per_count"][str(n)][0]
    d["turn"] = n * w - 1
    d["current"] = n - 1
    all_workers_used(d)
    d["phase"] = "act"
    d["placement"] = {"seat": n - 1, "cell": cell(3, 4), "gathered": 1, "used": [0] * 8,
                      "acts": 0, "vp_acts": 0, "gathered_n": 0, "gathered_types": [0] * 4}
    place_worker(d, cell(3, 4), n - 1)
    return d


def test_cathedral_counts_adjacent_workers():
    for own, vp in ((True, 3), (False, 2)):
        d = end_of_round(cathedral_counts_own=own)
        put(d, CATHEDRAL, cell(3, 3), 0)
        place_worker(d, cell(2, 3), 0)
        place_worker(d, cell(4, 2), 1)
        for p in range(2):
            give(d, p, FISH, 5)
        s = play(state(d), A_END)  # feeding is forced: only fish held
        assert player(s, 0)["stats"]["vp_cathedral"] == vp
        dd = GAME.state_to_dict(s)
        assert dd["round"] == 2 and dd["start_player"] == 1 and dd["current"] == 1
        assert all(x == -1 for x in dd["worker"])


def test_residence_activates_neighbours_and_pays_fees():
    d = end_of_round()
    put(d, RESIDENCE, cell(0, 4), 0)
    put(d, WELL, cell(1, 4), 1)
    put(d, TAVERN, cell(1, 5), 0)
    for p in range(2):
        give(d, p, FISH, 5)
    s = play(state(d), A_END)
    dd = GAME.state_to_dict(s)
    assert dd["phase"] == "residence" and dd["current"] == 0
    legal = GAME.legal_actions(s).tolist()
    assert legal == [A_ACT + 6, A_ACT + 7, A_END]  # Well below, Tavern below right
    s = play(s, A_ACT + 6, A_ACT + 7)  # END is then forced; feeding follows
    p0, p1 = player(s, 0), player(s, 1)
    assert p0["score"] == 5 and p0["coins"] == 2 and p1["coins"] == 4


def test_three_player_tip():
    d = end_of_round(3)
    d["round"] = 3
    d["start_player"] = 2
    d["last_start"] = [1, 2, 3]
    for p, sc in enumerate((5, 1, 1)):
        set_score(d, p, sc)
        give(d, p, FISH, 4)
    s = play(state(d), A_END)
    dd = GAME.state_to_dict(s)
    # seats 1 and 2 tie for lowest: seat 1 started longer ago
    assert dd["round"] == 4 and dd["start_player"] == 1 and dd["last_start"] == [1, 4, 3]
    d["options"]["three_player_tip"] = False
    dd = GAME.state_to_dict(play(state(d), A_END))
    assert dd["start_player"] == 0


# ---- the Pawnshop (A12) and per-turn goals ---------------------------------------------------
def test_pawnshop_pairs_and_goal_5():
    d = base()
    put(d, PAWNSHOP, cell(2, 2), 0)
    give(d, 0, WOOD, 1)
    give(d, 0, FISH, 1)
    d["players"][0]["goals"][0] = [5, 0]
    s = play(state(d), cell(1, 1))
    legal = GAME.legal_actions(s).tolist()
    pawn = [a for a in legal if A_PAWN <= a < A_GATHER]
    # input (wood, fish) = pair 2 with no purchase; pairs needing purchases cost 3 coins each
    assert A_PAWN + 2 * 10 + 2 not in pawn and A_PAWN + 2 * 10 + 9 in pawn
    s = play(s, A_PAWN + 2 * 10 + 9)  # wood+fish -> wheat+wheat; GATHER and END forced
    p0 = player(s, 0)
    assert p0["cubes"] == [1, 1, 1, 2] and p0["goals"][0] == [5, 1]


def test_acts_in_turn_goal_15():
    d = base()
    d["players"][0]["goals"][0] = [15, 0]
    for at in (cell(2, 2), cell(2, 3), cell(2, 4), cell(3, 2)):
        put(d, WHEAT_FIELD, at, 0)
    s = play(state(d), cell(3, 3))
    for a in (A_ACT + 1, A_ACT + 2, A_ACT + 0, A_ACT + 3):
        s = play(s, a)
    assert player(s, 0)["goals"][0] == [15, 1]
    assert player(s, 0)["cubes"][WHEAT] == 4


# ---- API contract -----------------------------------------------------------------------------
def test_illegal_action_is_refused():
    s = GAME.new_state(2, 1)
    with pytest.raises(UserError):
        GAME.apply_action(s, A_FEED_FISH)
    with pytest.raises(UserError):
        GAME.new_state(5, 1)
    with pytest.raises(UserError):
        GAME.new_state(2, 1, {"market": "chaos"})


def test_greedy_beats_random():
    from sim.core.seating import seat_matrix
    seats = seat_matrix("rotate", 1, 0, 300, 3, 3)
    res = GAME.run_chunk(0, 300, 1, 3, seats, GAME.resolve_options({}),
                         ["greedy", "random", "random"])
    idx = np.arange(300)
    greedy_seat = np.argmin(seats, axis=1)  # strategy 0 = greedy
    wins = res.win_share[idx, greedy_seat].sum()
    assert wins > 240
