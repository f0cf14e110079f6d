"""Tests of the plain-Python Province reference (tests/reference/province.py) on its own.

Positions are built with ``from_dict`` from a blank state dict (``blank``), following the
worked examples E1..E9 of the rules spec (shared/rules/province.md, section 8) and the
contract docs/games/province.md. The position tests only use the small API
(from_dict / to_dict / legal_actions / apply / is_terminal / scores) through ``game(d)``,
so the same tests can later run on the engine.
"""

import copy
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.reference.province import (  # noqa: E402
    DEFAULT_DATA,
    DEFAULT_OPTIONS,
    NUM_ACTIONS,
    RECON_TWEAKS,
    ProvinceRef,
    Rng,
    action_to_string,
    play_random_game,
    seed_for,
)

RNG0 = "0x00000000000000a5"
NAMES = ["Lender", "Bank", "Camp", "Village", "Mill", "Smithy", "Union", "Harbor"]
LENDER, BANK, CAMP, VILLAGE, MILL, SMITHY, UNION, HARBOR = range(8)
END, BUILD, GRIND, UNION_A, HIRE, TAKE, REPAY = 0, 256, 264, 265, 266, 267, 268
# a stack nothing in most tests meets: Seafarer (a sailor), Dynasty (an arrow), ...
QUIET_STACK = ["Seafarer", "Dynasty", "Crew", "Hoard", "Rival"]

# the implementation the position tests run on (the engine can be swapped in later)
IMPL = {"cls": ProvinceRef}


def game(d):
    return IMPL["cls"].from_dict(copy.deepcopy(d))


def blank(stack=None, **options):
    """Seat 0 to play, turn 1, work phase, greens on C/A/B, coins 2/3, nothing built."""
    d = ProvinceRef(2, 0).to_dict()
    opts = dict(DEFAULT_OPTIONS)
    opts.update(options)
    stack = list(QUIET_STACK if stack is None else stack)
    d.update({
        "options": opts,
        "data": copy.deepcopy(DEFAULT_DATA),
        "rng": RNG0,
        "first_player": 0,
        "current": 0,
        "phase": "work",
        "turn": 1,
        "decisions": 0,
        "coins": [2, 3],
        "supply": opts["coin_total"] - 5,
        "labor": 0,
        "workers": {"green": [0, 1, 2], "yellow": -1, "orange": -1,
                    "sailors": [[-1, -1, -1], [-1, -1, -1]]},
        "owned": [[], []],
        "first_builder": [-1] * 8,
        "built_turn": [[-1] * 8, [-1] * 8],
        "ships": "none",
        "lender": {"holder": -1, "taken_turn": -1},
        "goals": {"stack": stack, "next": 0, "result": [-2] * len(stack)},
        "this_turn": {"labor_gained": 0, "moved": 0, "grinds": 0, "built": False,
                      "hired": False},
        "end_trigger": "none",
        "last_turn": False,
        "end_reason": "none",
        "winners": [],
        "stats": {"supply_ran_dry": False, "coins_missed": [0, 0],
                  "lender_takes": [0, 0], "lender_steals": [0, 0]},
    })
    return d


def set_coins(d, c0, c1):
    d["coins"] = [c0, c1]
    d["supply"] = d["options"]["coin_total"] - c0 - c1
    return d


def own(d, p, *names, turn=0):
    """Seat p owns the named structures (first builder if nobody had it)."""
    for name in names:
        k = NAMES.index(name)
        if name not in d["owned"][p]:
            d["owned"][p].append(name)
        d["owned"][p].sort(key=NAMES.index)
        if d["first_builder"][k] == -1:
            d["first_builder"][k] = p
        d["built_turn"][p][k] = turn
        if name == "Camp" and d["workers"]["yellow"] == -1:
            d["workers"]["yellow"] = 1
        if name == "Village" and d["workers"]["orange"] == -1:
            d["workers"]["orange"] = 1
    return d


def spend(d, labor=0, moved=1, gained=None):
    d["phase"] = "spend"
    d["labor"] = labor
    d["this_turn"]["moved"] = moved
    d["this_turn"]["labor_gained"] = labor if gained is None else gained
    return d


def flip_rng(ships, first=None):
    """An rng state whose next two rand_below(2) give a + b == ships (and a == first)."""
    for s in range(1, 1000):
        r = Rng(s)
        a = r.rand_below(2)
        b = r.rand_below(2)
        if a + b == ships and (first is None or a == first):
            return "0x%016x" % s, "0x%016x" % r.state
    raise AssertionError("no state found")


def masks_of(movable):
    return [m for m in range(1, 256) if m & ~movable == 0]


# ------------------------------------------------------------------ constants / setup


def test_constants():
    assert NUM_ACTIONS == 269
    assert len(DEFAULT_OPTIONS) == 17
    assert [s["name"] for s in DEFAULT_DATA["structures"]] == NAMES
    assert [(s["labor"], s["coins"], s["vp_first"], s["vp_copy"])
            for s in DEFAULT_DATA["structures"]] == [
        (2, 2, 1, 0), (3, 5, 2, 0), (2, 1, 1, 0), (3, 3, 2, 0),
        (2, 2, 1, 0), (4, 2, 2, 0), (2, 3, 1, 0), (3, 3, 2, 0)]
    assert [s["prereq"] for s in DEFAULT_DATA["structures"]] == [
        None, "Lender", None, "Camp", None, "Mill", None, None]
    assert [(g["name"], g["threshold"]) for g in DEFAULT_DATA["goals"]] == [
        ("Hoard", 6), ("Hard Labor", 4), ("Township", 3), ("Crew", 4), ("Landmark", 2),
        ("Grindstone", 2), ("Seafarer", 1), ("Rival", 1), ("Dynasty", 1)]
    assert DEFAULT_DATA["constants"] == {
        "grind_labor": 2, "grind_coins": 1, "union_coins": 2, "union_labor": 1,
        "sailor_cost": 3, "lender_repay": 3, "lender_penalty": 2, "max_sailors": 3,
        "sailors_per_player": 3, "mill_labor": 1, "harbor_labor": 1, "harbor_coins": 1,
        "structure_tokens": 7, "goals_total": 9, "goals_drawn": 5}
    assert len(RECON_TWEAKS) == 29
    assert action_to_string(0) == "END_TURN"
    assert action_to_string(7) == "MOVE g0+g1+g2"
    assert action_to_string(0b100101000) == "INVALID(296)"
    assert action_to_string(263) == "BUILD Harbor"
    assert [action_to_string(a) for a in range(264, 269)] == [
        "GRIND", "UNION", "HIRE", "TAKE_LENDER", "REPAY_LENDER"]


@pytest.mark.parametrize("first_player", ["seat0", "random"])
@pytest.mark.parametrize("seed", [0, 1, 0xDEADBEEF, 2**64 - 1])
def test_setup_matches_manual_procedure(first_player, seed):
    g = ProvinceRef(2, seed, {"first_player": first_player, "p1_coins": 4, "p2_coins": 7})
    r = Rng(seed)
    order = list(range(9))
    r.shuffle(order)
    first = r.rand_below(2) if first_player == "random" else 0
    d = g.to_dict()
    assert d["rng"] == "0x%016x" % r.state
    assert d["goals"] == {"stack": [DEFAULT_DATA["goals"][i]["name"] for i in order[:5]],
                          "next": 0, "result": [-2] * 5}
    assert d["first_player"] == first and d["current"] == first
    assert d["coins"][first] == 4 and d["coins"][1 - first] == 7 and d["supply"] == 24
    assert (d["turn"], d["phase"], d["decisions"], d["labor"], d["ships"]) == (
        1, "work", 0, 0, "none")
    assert d["workers"]["green"] == [0, 1, 2]
    assert g.legal_actions() == [1, 2, 3, 4, 5, 6, 7]


def test_first_player_random_uses_both_seats():
    firsts = {ProvinceRef(2, seed_for(3, i), {"first_player": "random"}).to_dict()
              ["first_player"] for i in range(40)}
    assert firsts == {0, 1}


def test_bad_options_and_data_raise():
    for bad in [{"nope": 1}, {"coin_total": 30}, {"p1_coins": 11}, {"first_player": "seat1"},
                {"entry_space": "coin"}, {"lender_steal": 1}, {"max_turns": 9},
                {"recon_tweak": "Lender.labor+1"}, {"recon_tweak": "Bank.vp+1"},
                {"harbor_benefit": "nobody"}, {"smithy_effect": "x"}, {"final_turn": "x"}]:
        with pytest.raises(ValueError):
            ProvinceRef(2, 0, bad)
    with pytest.raises(ValueError):
        ProvinceRef(3, 0)
    with pytest.raises(ValueError):
        ProvinceRef(2, 0, data={"nonsense": 1})
    with pytest.raises(ValueError):
        ProvinceRef(2, 0, data={"constants": {"goals_drawn": 10}})
    with pytest.raises(ValueError):
        ProvinceRef(2, 0, data={"constants": {"no_such_constant": 1}})
    bad_goals = copy.deepcopy(DEFAULT_DATA["goals"])
    bad_goals[0]["condition"] = "be_happy"
    with pytest.raises(ValueError):
        ProvinceRef(2, 0, data={"goals": bad_goals})
    g = ProvinceRef(2, 0, {"max_turns": 10}, data={"constants": {"goals_drawn": 9}})
    assert len(g.to_dict()["goals"]["stack"]) == 9
    d = blank()
    d["supply"] = 31
    with pytest.raises(ValueError):
        ProvinceRef.from_dict(d)
    d = blank()
    del d["stats"]
    with pytest.raises(ValueError):
        ProvinceRef.from_dict(d)
    d = blank()
    d["workers"]["sailors"][0] = [-1, 1, -1]
    with pytest.raises(ValueError):
        ProvinceRef.from_dict(d)


def test_recon_tweak_and_data_replacement():
    g = ProvinceRef(2, 0, {"recon_tweak": "Bank.coins-1"})
    assert g.to_dict()["data"]["structures"][BANK]["coins"] == 4
    g = ProvinceRef(2, 0, {"recon_tweak": "Smithy.labor+1"})
    assert g.to_dict()["data"]["structures"][SMITHY]["labor"] == 5
    st = copy.deepcopy(DEFAULT_DATA["structures"])
    st[CAMP]["coins"] = 0
    g = ProvinceRef(2, 0, {"recon_tweak": "Camp.coins-1"}, data={"structures": st})
    d = g.to_dict()
    assert d["data"]["structures"][CAMP]["coins"] == 0          # floored at 0
    # state_from_dict uses the numbers as given and does not apply the tweak again
    g = ProvinceRef(2, 0, {"recon_tweak": "Union.labor-1"})
    d = g.to_dict()
    assert d["data"]["structures"][UNION]["labor"] == 1
    assert ProvinceRef.from_dict(d).to_dict()["data"]["structures"][UNION]["labor"] == 1
    g = ProvinceRef(2, 0, data={"constants": {"grind_labor": 3}})
    assert g.to_dict()["data"]["constants"]["grind_labor"] == 3


# ------------------------------------------------------------------ worked examples


def test_e1_work_phase():
    g = game(blank())
    assert g.legal_actions() == [1, 2, 3, 4, 5, 6, 7]
    g.apply(7)
    d = g.to_dict()
    assert (d["labor"], d["coins"], d["supply"]) == (2, [3, 3], 29)
    assert d["workers"]["green"] == [1, 2, 0]
    assert d["this_turn"] == {"labor_gained": 2, "moved": 3, "grinds": 0, "built": False,
                              "hired": False}
    assert d["phase"] == "spend" and d["decisions"] == 1
    # Lender, Camp, Mill, Union affordable; Grind possible; no Lender token (nothing owned)
    assert g.legal_actions() == [0, 256, 258, 260, 262, 264]


def test_e1b_coin_denial():
    g = game(blank())
    g.apply(4)                      # only g3: B -> C
    d = g.to_dict()
    assert (d["labor"], d["coins"], d["supply"]) == (0, [3, 3], 29)
    assert d["workers"]["green"] == [0, 1, 0]
    assert g.legal_actions() == [0]
    g.apply(0)
    d = g.to_dict()
    assert (d["current"], d["turn"], d["phase"], d["ships"]) == (1, 2, "work", "none")
    assert d["rng"] == RNG0          # no Harbor: nothing drawn
    g.apply(7)
    d = g.to_dict()
    assert d["workers"]["green"] == [1, 2, 1]
    assert (d["labor"], d["coins"], d["supply"]) == (3, [3, 3], 29)


def test_e1c_empty_move_illegal():
    g = game(blank())
    for a in (0, 8, 16, 32, 256, 264, 267, 268, 300, -1):
        with pytest.raises(ValueError):
            g.apply(a)
    assert g.to_dict() == game(blank()).to_dict()


def test_e2_first_and_copy():
    g = game(blank())
    g.apply(7)
    g.apply(256)
    d = g.to_dict()
    assert (d["labor"], d["coins"], d["supply"]) == (0, [1, 3], 31)
    assert d["owned"] == [["Lender"], []]
    assert d["first_builder"][LENDER] == 0 and d["built_turn"][0][LENDER] == 1
    assert g.scores() == [1, 0]
    assert g.legal_actions() == [0, 267]            # no second build, may take the token
    # a second structure in the same turn is illegal even when affordable
    d2 = copy.deepcopy(d)
    d2["labor"] = 9
    set_coins(d2, 9, 3)
    assert game(d2).legal_actions() == [0, 264, 267]
    # later, P2 builds a Lender too: pays in full, scores nothing
    d = own(blank(), 0, "Lender", turn=1)
    d.update(current=1, turn=2)
    spend(d, labor=2)
    g = game(d)
    assert 256 in g.legal_actions()
    g.apply(256)
    d = g.to_dict()
    assert (d["labor"], d["coins"], d["supply"]) == (0, [2, 1], 32)
    assert d["owned"] == [["Lender"], ["Lender"]] and d["first_builder"][LENDER] == 0
    assert d["built_turn"][1][LENDER] == 2
    assert g.scores() == [1, 0]
    assert g.legal_actions() == [0, 267]            # P2 can now borrow


def test_e3_grinding():
    d = set_coins(spend(blank(), labor=5), 1, 24)
    g = game(d)
    assert g.to_dict()["supply"] == 10
    g.apply(264)
    g.apply(264)
    d = g.to_dict()
    assert (d["labor"], d["coins"], d["supply"], d["this_turn"]["grinds"]) == (
        1, [3, 24], 8, 2)
    assert 264 not in g.legal_actions()
    g.apply(0)
    d = g.to_dict()
    assert d["coins"][0] == 3 and d["labor"] == 0 and d["current"] == 1
    # supply empty: no Grind
    g = game(set_coins(spend(blank(), labor=4), 0, 35))
    assert g.legal_actions() == [0]


@pytest.mark.parametrize("coins", [8, 7])
def test_e5_claim_then_remove(coins):
    d = blank(stack=["Township", "Landmark", "Hoard"])
    own(d, 0, "Camp", "Harbor")
    own(d, 1, "Mill", "Smithy")
    spend(set_coins(d, coins, 3), labor=2)
    g = game(d)
    g.apply(256)                                    # the Lender, P1's 3rd structure
    d = g.to_dict()
    assert d["goals"] == {"stack": ["Township", "Landmark", "Hoard"], "next": 2,
                          "result": [0, -1, -2]}
    assert g.scores() == [5, 3]
    assert d["end_trigger"] == "none"
    g.apply(0)
    d = g.to_dict()
    if coins == 8:                                  # 6 coins at the end of the turn
        assert d["goals"]["result"] == [0, -1, 0] and d["goals"]["next"] == 3
        assert (d["phase"], d["end_trigger"], d["end_reason"], d["winners"]) == (
            "over", "goals", "goals", [0])
        assert (d["current"], d["turn"]) == (0, 1)
        assert g.scores() == [6, 3] and g.legal_actions() == []
    else:                                           # 5 coins: Hoard stays face up
        assert d["goals"]["result"] == [0, -1, -2] and d["goals"]["next"] == 2
        r = Rng(int(RNG0, 16))
        ships = r.rand_below(2) + r.rand_below(2)   # a Harbor exists: both ships flipped
        assert d["rng"] == "0x%016x" % r.state
        assert d["ships"] == ["white", "mixed", "black"][ships]
        assert (d["phase"], d["current"], d["turn"]) == ("work", 1, 2)
        assert (d["labor"], d["this_turn"]["labor_gained"]) == (1, 1)   # P2's Mill
        assert d["coins"] == [5, 3]                 # P2 has no Harbor: no flip income


def test_e7_bank_and_supply_exhaustion():
    d = own(blank(), 0, "Lender", "Bank")
    g = game(set_coins(d, 4, 30))
    assert g.to_dict()["supply"] == 1
    g.apply(4)                                      # g3: B -> C, Bank: 2 capped at 1
    d = g.to_dict()
    assert (d["coins"], d["supply"]) == ([5, 30], 0)
    assert d["stats"]["coins_missed"] == [1, 0] and d["stats"]["supply_ran_dry"] is True
    # no Bank, two workers onto C: +1 in total
    d = blank()
    d["workers"]["green"] = [2, 2, 0]
    g = game(set_coins(d, 4, 30))
    g.apply(3)
    d = g.to_dict()
    assert (d["coins"], d["supply"], d["labor"]) == ([5, 30], 0, 0)
    assert d["stats"]["coins_missed"] == [1, 0] and d["stats"]["supply_ran_dry"] is True
    # Bank with enough supply: 2 per worker
    g = game(own(blank(), 0, "Lender", "Bank"))
    g.apply(7)
    d = g.to_dict()
    assert (d["coins"], d["labor"], d["stats"]["coins_missed"]) == ([4, 3], 2, [0, 0])
    assert d["stats"]["supply_ran_dry"] is False


def e9_state(**options):
    d = blank(**options)
    own(d, 0, "Lender", "Bank", "Mill", "Smithy")
    own(d, 1, "Camp", "Village", "Union")
    d["lender"] = {"holder": 0, "taken_turn": 1}
    d["turn"] = 5
    d["first_player"] = 0
    return spend(set_coins(d, 6, 3), labor=6)


def test_e9_end_trigger_no_compensating_turn():
    g = game(e9_state())
    g.apply(256 + HARBOR)                           # the 8th type (P1 owns only 5)
    d = g.to_dict()
    assert d["end_trigger"] == "all_types" and d["phase"] == "spend"
    assert g.legal_actions() == [0, 264, 268]        # may still grind and repay
    g.apply(268)
    g.apply(264)
    assert g.scores() == [8, 4]
    g.apply(0)
    d = g.to_dict()
    assert (d["phase"], d["end_reason"], d["winners"], d["current"], d["turn"]) == (
        "over", "all_types", [0], 0, 5)
    assert (d["coins"], d["labor"]) == ([1, 3], 0)
    assert g.legal_actions() == [] and g.is_terminal()


def test_e9_variants():
    # the opponent gets one last turn
    g = game(e9_state(final_turn="opponent_last_turn"))
    g.apply(256 + HARBOR)
    g.apply(0)
    d = g.to_dict()
    assert (d["phase"], d["current"], d["turn"], d["last_turn"]) == ("work", 1, 6, True)
    assert d["ships"] != "none"
    g.apply(1)
    g.apply(0)
    d = g.to_dict()
    assert (d["phase"], d["end_reason"], d["current"], d["turn"]) == (
        "over", "all_types", 1, 6)
    assert d["winners"] == [0] and g.scores() == [6, 4]   # P1 kept the token: -2
    # without trigger 2 the game goes on
    g = game(e9_state(all_types_trigger=False))
    g.apply(256 + HARBOR)
    g.apply(0)
    d = g.to_dict()
    assert (d["end_trigger"], d["phase"], d["current"]) == ("none", "work", 1)


def test_seven_structures_trigger():
    d = blank()
    own(d, 0, "Lender", "Bank", "Camp", "Village", "Mill", "Smithy")
    d = spend(set_coins(d, 5, 3), labor=3)
    g = game(d)
    assert g.legal_actions() == [0, 262, 263, 264, 267]
    g.apply(262)                                    # Union: 7th structure
    d = g.to_dict()
    assert d["end_trigger"] == "seven_structures"
    assert 263 not in g.legal_actions()
    g.apply(0)
    assert g.to_dict()["end_reason"] == "seven_structures"
    assert g.scores() == [10, 0]
    # a seat with 7 structures cannot build more
    d = blank()
    own(d, 0, "Lender", "Bank", "Camp", "Village", "Mill", "Smithy", "Union")
    d["end_trigger"] = "seven_structures"
    g = game(spend(set_coins(d, 9, 3), labor=9))
    assert [a for a in g.legal_actions() if 256 <= a < 264] == []


# ------------------------------------------------------------------ workers and moves


def test_movable_masks():
    d = own(blank(), 0, "Camp", "Village")
    d["workers"]["sailors"] = [[1, 2, -1], [0, -1, -1]]
    g = game(d)
    assert g.legal_actions() == masks_of(0b1111111)
    g.apply(0b1111111)
    d = g.to_dict()
    # greens C,A,B -> A,B,C; yellow/orange A -> B; own sailors A -> B, B -> C
    assert d["workers"]["green"] == [1, 2, 0]
    assert (d["workers"]["yellow"], d["workers"]["orange"]) == (2, 2)
    assert d["workers"]["sailors"] == [[2, 0, -1], [0, -1, -1]]
    assert (d["labor"], d["coins"]) == (5, [4, 3])
    assert d["this_turn"]["moved"] == 7
    # seat 1: no Camp/Village; its own three sailors are slots 5..7
    d = own(blank(), 0, "Camp", "Village")
    d["workers"]["sailors"] = [[-1, -1, -1], [0, 0, 0]]
    d["current"] = 1
    g = game(d)
    assert g.legal_actions() == masks_of(0b11100111)
    g.apply(0b11100000)
    d = g.to_dict()
    assert d["workers"]["sailors"] == [[-1, -1, -1], [1, 1, 1]]
    assert (d["labor"], d["this_turn"]["labor_gained"]) == (3, 3)


def test_smithy_doubles_labor_and_camp_entry():
    d = own(blank(), 0, "Mill", "Smithy")
    g = game(d)
    g.apply(7)
    d = g.to_dict()
    assert (d["labor"], d["coins"]) == (4, [3, 3])
    g.apply(256 + CAMP)
    assert g.to_dict()["workers"]["yellow"] == 1
    g = game(spend(blank(entry_space="labor_b"), labor=2))
    g.apply(256 + CAMP)
    d = g.to_dict()
    assert d["workers"]["yellow"] == 2 and d["coins"] == [1, 3]
    # the worker can first move on the next work phase; both Camp owners may move it
    g.apply(0)
    assert g.legal_actions() == masks_of(0b111)
    d = g.to_dict()
    own(d, 1, "Camp")
    d["phase"] = "work"
    assert game(d).legal_actions() == masks_of(0b1111)


# ------------------------------------------------------------------ Lender


def test_lender_borrow_mill_and_camp():
    d = own(blank(), 0, "Lender")
    own(d, 1, "Mill", "Camp")
    d["turn"] = 3
    g = game(d)
    assert g.legal_actions() == [1, 2, 3, 4, 5, 6, 7, 267]
    g.apply(267)
    d = g.to_dict()
    assert d["lender"] == {"holder": 0, "taken_turn": 3}
    assert (d["labor"], d["this_turn"]["labor_gained"]) == (1, 1)   # borrowed Mill pays now
    assert d["stats"]["lender_takes"] == [1, 0] and d["stats"]["lender_steals"] == [0, 0]
    assert g.legal_actions() == masks_of(0b1111)   # yellow borrowed; no repay this turn
    assert g.scores() == [-1, 2]
    g.apply(0b1000)
    d = g.to_dict()
    assert d["workers"]["yellow"] == 2 and d["labor"] == 2
    # a token held from an earlier turn gives nothing; repay, then take again
    d.update(turn=5, phase="work", labor=0)
    d["this_turn"].update(labor_gained=0, moved=0)
    set_coins(d, 3, 3)
    g = game(d)
    assert g.legal_actions() == masks_of(0b111) + [268]
    g.apply(268)
    d = g.to_dict()
    assert d["lender"] == {"holder": -1, "taken_turn": -1} and d["coins"] == [0, 3]
    assert g.legal_actions() == masks_of(0b111) + [267]
    g.apply(267)
    d = g.to_dict()
    assert d["lender"] == {"holder": 0, "taken_turn": 5} and d["labor"] == 1
    assert d["stats"]["lender_takes"] == [2, 0]


def test_lender_steal_and_options():
    d = own(blank(), 0, "Lender")
    own(d, 1, "Lender", "Bank")
    d["lender"] = {"holder": 1, "taken_turn": 2}
    d["turn"] = 3
    g = game(d)
    assert g.legal_actions()[-1] == 267
    g.apply(267)
    d2 = g.to_dict()
    assert d2["lender"] == {"holder": 0, "taken_turn": 3}
    assert d2["stats"]["lender_steals"] == [1, 0] and d2["stats"]["lender_takes"] == [1, 0]
    assert g.scores() == [-1, 2]
    g.apply(4)                                     # borrowed Bank: B -> C gives 2
    assert g.to_dict()["coins"] == [4, 3]
    d["options"]["lender_steal"] = False
    assert 267 not in game(d).legal_actions()


def test_borrowed_prereq_option():
    d = own(blank(), 0, "Lender")
    own(d, 1, "Camp")
    d["turn"] = 3
    d["lender"] = {"holder": 0, "taken_turn": 3}
    spend(set_coins(d, 5, 3), labor=3)
    assert 256 + VILLAGE not in game(d).legal_actions()
    d["options"]["borrowed_prereq"] = True
    g = game(d)
    assert 256 + VILLAGE in g.legal_actions()
    g.apply(256 + VILLAGE)
    d = g.to_dict()
    assert d["workers"]["orange"] == 1 and g.scores() == [1 + 2 - 2, 1]


def test_union():
    d = own(blank(), 0, "Union")
    g = game(spend(set_coins(d, 5, 3), labor=1, gained=1))
    assert g.legal_actions() == [0, 265]
    g.apply(265)
    g.apply(265)
    d = g.to_dict()
    assert (d["coins"], d["labor"], d["this_turn"]["labor_gained"]) == ([1, 3], 3, 1)
    assert g.legal_actions() == [0, 256 + CAMP, 264]
    # borrowed Union, and the option that forbids it
    d = own(blank(), 0, "Lender")
    own(d, 1, "Union")
    d["lender"] = {"holder": 0, "taken_turn": 1}
    d = spend(set_coins(d, 2, 3))
    assert game(d).legal_actions() == [0, 265]
    d["options"]["borrow_harbor_union"] = False
    assert game(d).legal_actions() == [0]


# ------------------------------------------------------------------ Harbor and sailors


@pytest.mark.parametrize("ships", [0, 1, 2])
def test_harbor_turn_start(ships):
    start, after = flip_rng(ships)
    d = own(blank(), 0, "Harbor")
    own(d, 1, "Harbor")
    d = spend(d)
    d["rng"] = start
    g = game(d)
    g.apply(0)                                      # seat 1's turn starts: flip
    d = g.to_dict()
    assert d["rng"] == after and d["ships"] == ["white", "mixed", "black"][ships]
    assert d["labor"] == (1 if ships == 0 else 0)
    assert d["coins"] == [2, 4 if ships == 2 else 3]
    # master only: seat 1 holds a copy and gets nothing
    d = own(blank(harbor_benefit="master_only"), 0, "Harbor")
    own(d, 1, "Harbor")
    d = spend(d)
    d["rng"] = start
    g = game(d)
    g.apply(0)
    d = g.to_dict()
    assert (d["labor"], d["coins"]) == (0, [2, 3])


def test_hire_sailors():
    d = own(blank(), 0, "Harbor")
    d.update(ships="mixed")
    g = game(spend(d))
    assert g.legal_actions() == [0]                 # 2 coins
    d = set_coins(d, 3, 3)
    g = game(d)
    assert g.legal_actions() == [0, 266]
    g.apply(266)
    d2 = g.to_dict()
    assert d2["workers"]["sailors"][0] == [1, -1, -1] and d2["coins"] == [0, 3]
    assert d2["this_turn"]["hired"] is True
    assert g.legal_actions() == [0]
    # one per turn, 3 on the cycle at most, in order, entry space labor_b
    d = own(blank(entry_space="labor_b"), 0, "Harbor")
    d.update(ships="mixed")
    d["workers"]["sailors"] = [[0, -1, -1], [1, 1, -1]]
    g = game(spend(set_coins(d, 9, 3)))
    assert 266 not in g.legal_actions()
    d["workers"]["sailors"] = [[0, -1, -1], [1, -1, -1]]
    g = game(spend(set_coins(d, 9, 3)))
    g.apply(266)
    assert g.to_dict()["workers"]["sailors"] == [[0, 2, -1], [1, -1, -1]]
    # not on a white or black flip, unless sailor_needs_mixed = false
    d = own(blank(), 0, "Harbor")
    d.update(ships="white")
    d = spend(set_coins(d, 9, 3))
    assert 266 not in game(d).legal_actions()
    d["options"]["sailor_needs_mixed"] = False
    assert 266 in game(d).legal_actions()


def test_borrowed_harbor():
    for ships, labor, coins in [("white", 1, 2), ("mixed", 0, 2), ("black", 0, 3)]:
        d = own(blank(), 0, "Lender")
        own(d, 1, "Harbor")
        d.update(ships=ships, turn=3)
        d = spend(d)
        g = game(d)
        g.apply(267)
        d2 = g.to_dict()
        assert (d2["labor"], d2["coins"][0]) == (labor, coins)
        d["options"]["borrow_harbor_union"] = False
        g = game(d)
        g.apply(267)
        d2 = g.to_dict()
        assert (d2["labor"], d2["coins"][0]) == (0, 2)
    d = own(blank(), 0, "Lender")
    own(d, 1, "Harbor")
    d.update(ships="mixed", turn=3)
    g = game(spend(set_coins(d, 3, 3)))
    g.apply(267)
    assert g.legal_actions() == [0, 266]
    g.apply(266)
    assert g.to_dict()["workers"]["sailors"] == [[1, -1, -1], [-1, -1, -1]]


# ------------------------------------------------------------------ goals


def test_rival_goal_only_on_copy():
    d = own(blank(stack=["Rival", "Dynasty"]), 0, "Camp")
    d = spend(set_coins(d, 2, 3), labor=4)
    g = game(d)
    g.apply(256 + MILL)                             # a first build: no Rival
    assert g.to_dict()["goals"]["next"] == 0
    d["current"] = 1
    g = game(d)
    g.apply(256 + CAMP)                             # a copy
    d2 = g.to_dict()
    assert d2["goals"] == {"stack": ["Rival", "Dynasty"], "next": 1, "result": [1, -2]}
    assert g.scores() == [1, 1]


def test_reveal_gives_the_other_seat_a_state_goal():
    d = own(blank(stack=["Township", "Dynasty", "Crew"]), 0, "Camp", "Union")
    own(d, 1, "Mill", "Smithy")
    g = game(spend(d, labor=2))
    g.apply(256 + LENDER)
    d = g.to_dict()
    assert d["goals"]["result"] == [0, 1, -2] and d["goals"]["next"] == 2
    assert g.scores() == [4, 4]


def test_per_turn_goals():
    # Crew: 4 workers moved in one turn
    d = own(blank(stack=["Crew", "Seafarer"]), 0, "Camp")
    g = game(d)
    g.apply(0b0111)
    assert g.to_dict()["goals"]["next"] == 0
    g = game(d)
    g.apply(0b1111)
    assert g.to_dict()["goals"]["result"] == [0, -2]
    # Hard Labor: Mill income at turn start + 3 from moves; Union labor does not count
    d = own(blank(stack=["Hard Labor", "Seafarer"]), 1, "Mill", "Union")
    d["workers"]["green"] = [0, 0, 0]
    d = spend(set_coins(d, 2, 9))
    g = game(d)
    g.apply(0)
    assert g.to_dict()["this_turn"]["labor_gained"] == 1
    g.apply(7)
    d2 = g.to_dict()
    assert d2["this_turn"]["labor_gained"] == 4 and d2["goals"]["result"] == [1, -2]
    # Grindstone: the second grind of a turn
    d = spend(blank(stack=["Grindstone", "Seafarer"]), labor=4)
    g = game(d)
    g.apply(264)
    assert g.to_dict()["goals"]["next"] == 0
    g.apply(264)
    assert g.to_dict()["goals"]["result"] == [0, -2]
    # Hoard only at the end of the turn, for the active seat
    d = spend(set_coins(blank(stack=["Hoard", "Seafarer"]), 6, 9))
    g = game(d)
    assert g.to_dict()["goals"]["next"] == 0
    g.apply(0)
    assert g.to_dict()["goals"]["result"] == [0, -2]


def test_goals_resolved_at_setup_reveal():
    goals = [{"name": "Free", "condition": "structures_owned", "threshold": 0},
             {"name": "Also free", "condition": "structures_owned", "threshold": 0},
             {"name": "Rich", "condition": "coins_at_end_of_turn", "threshold": 6}]
    data = {"goals": goals, "constants": {"goals_total": 3, "goals_drawn": 2}}
    seen = set()
    for seed in range(20):
        g = ProvinceRef(2, seed, data=data)
        r = Rng(seed)
        order = [0, 1, 2]
        r.shuffle(order)
        stack = order[:2]
        lead = 0
        while lead < 2 and stack[lead] != 2:
            lead += 1
        d = g.to_dict()
        assert d["goals"] == {"stack": [goals[i]["name"] for i in stack], "next": lead,
                              "result": [-1] * lead + [-2] * (2 - lead)}
        assert d["end_trigger"] == ("goals" if lead == 2 else "none")
        seen.add(lead)
        if lead == 2:
            g.apply(1)
            g.apply(0)
            assert g.to_dict()["end_reason"] == "goals"
    assert seen == {0, 1, 2}


# ------------------------------------------------------------------ end / scores


def test_tie_breaks():
    d = blank(stack=["Seafarer"])
    own(d, 0, "Camp")
    own(d, 1, "Mill")
    d["goals"] = {"stack": ["Seafarer"], "next": 1, "result": [-1]}
    d["end_trigger"] = "goals"
    g = game(spend(d))
    assert g.scores() == [1, 1]
    g.apply(0)
    assert g.to_dict()["winners"] == [0]           # 4 workers against 3
    d["options"]["worker_tiebreak"] = False
    g = game(spend(d))
    g.apply(0)
    assert g.to_dict()["winners"] == [0, 1]
    d["options"]["worker_tiebreak"] = True
    d["workers"]["sailors"][1] = [0, -1, -1]
    g = game(spend(d))
    g.apply(0)
    assert g.to_dict()["winners"] == [0, 1]
    d["workers"]["sailors"][1] = [0, 1, -1]
    g = game(spend(d))
    g.apply(0)
    assert g.to_dict()["winners"] == [1]
    # equal scores 2 - 2: more structures (seat 1) beats more workers (seat 0)
    d["workers"]["sailors"][1] = [-1, -1, -1]
    own(d, 1, "Union")
    d["goals"]["result"] = [0]
    g = game(spend(d))
    assert g.scores() == [2, 2]
    g.apply(0)
    assert g.to_dict()["winners"] == [1]


def test_max_turns_limit():
    d = blank(max_turns=10)
    d["turn"] = 9
    g = game(d)
    g.apply(1)
    g.apply(0)
    d2 = g.to_dict()
    assert (d2["turn"], d2["current"], d2["phase"]) == (10, 1, "work")
    g.apply(1)
    g.apply(0)
    d2 = g.to_dict()
    assert (d2["phase"], d2["end_reason"], d2["winners"], d2["turn"], d2["current"]) == (
        "over", "limit", [], 10, 1)
    assert d2["decisions"] == 4 and g.legal_actions() == []
    # the decision safety net: max_turns * 128
    d = blank(max_turns=10)
    d["decisions"] = 1279
    g = game(d)
    g.apply(1)
    d2 = g.to_dict()
    assert (d2["phase"], d2["end_reason"], d2["decisions"], d2["winners"]) == (
        "over", "limit", 1280, [])


def test_income_on_build_turn_and_turn_labor_smithy():
    d = spend(blank(), labor=2)
    g = game(d)
    g.apply(256 + MILL)
    assert g.to_dict()["labor"] == 0
    d["options"]["income_on_build_turn"] = True
    g = game(d)
    g.apply(256 + MILL)
    d2 = g.to_dict()
    assert (d2["labor"], d2["this_turn"]["labor_gained"]) == (1, 3)
    # Smithy as +1 labor per turn: at turn start, on the build turn, and when borrowed
    d = own(blank(smithy_effect="turn_labor"), 1, "Mill", "Smithy")
    g = game(spend(d))
    g.apply(0)
    assert g.to_dict()["labor"] == 2
    g.apply(7)
    assert g.to_dict()["labor"] == 4                # no doubling under turn_labor
    d = own(blank(smithy_effect="turn_labor"), 0, "Lender")
    own(d, 1, "Mill", "Smithy")
    g = game(d)
    g.apply(267)
    assert g.to_dict()["labor"] == 2
    d = own(blank(smithy_effect="turn_labor", income_on_build_turn=True), 0, "Mill")
    g = game(spend(d, labor=4))
    g.apply(256 + SMITHY)
    assert g.to_dict()["labor"] == 1


# ------------------------------------------------------------------ random games


def check_invariants(d):
    o, k = d["options"], d["data"]["constants"]
    assert d["supply"] == o["coin_total"] - sum(d["coins"]) >= 0
    assert min(d["coins"]) >= 0 and d["labor"] >= 0
    w = d["workers"]
    assert all(0 <= x <= 2 for x in w["green"])
    hired = [sum(1 for x in s if x >= 0) for s in w["sailors"]]
    assert sum(hired) <= k["max_sailors"]
    for p in (0, 1):
        assert all(x >= 0 for x in w["sailors"][p][:hired[p]])
        assert all(x == -1 for x in w["sailors"][p][hired[p]:])
        assert len(d["owned"][p]) <= k["structure_tokens"]
    for s in range(8):
        owners = [p for p in (0, 1) if NAMES[s] in d["owned"][p]]
        assert (d["first_builder"][s] >= 0) == bool(owners)
        if owners:
            assert d["first_builder"][s] in owners
        for p in (0, 1):
            assert (d["built_turn"][p][s] >= 0) == (p in owners)
    assert (w["yellow"] >= 0) == (d["first_builder"][CAMP] >= 0)
    assert (w["orange"] >= 0) == (d["first_builder"][VILLAGE] >= 0)
    lh = d["lender"]
    assert (lh["holder"] == -1) == (lh["taken_turn"] == -1)
    if lh["holder"] >= 0:
        assert "Lender" in d["owned"][lh["holder"]]
    gs = d["goals"]
    for i, r in enumerate(gs["result"]):
        assert (r != -2) == (i < gs["next"])
    if d["end_trigger"] == "none":
        assert gs["next"] < len(gs["stack"])
        assert all(len(x) < 7 for x in d["owned"])


def score_from_dict(d, p):
    st = d["data"]["structures"]
    s = 0
    for name in d["owned"][p]:
        k = NAMES.index(name)
        s += st[k]["vp_first"] if d["first_builder"][k] == p else st[k]["vp_copy"]
    s += d["goals"]["result"].count(p)
    s -= 2 * (d["lender"]["holder"] == p)
    return s


def test_conservation_over_random_games():
    reasons = set()
    for i in range(300):
        g = ProvinceRef(2, seed_for(2024, i), {"first_player": "random"})
        rnd = random.Random(i)
        k = 0
        prev_turn = 1
        while not g.is_terminal():
            la = g.legal_actions()
            assert la == sorted(set(la)) and la and all(0 <= a < NUM_ACTIONS for a in la)
            before = g.to_dict()
            a = rnd.choice(la)
            g.apply(a)
            k += 1
            d = g.to_dict()
            check_invariants(d)
            assert d["turn"] >= prev_turn
            prev_turn = d["turn"]
            assert g.scores() == [score_from_dict(d, 0), score_from_dict(d, 1)]
            if 1 <= a <= 255:
                # each moved worker pays exactly one unit (no Bank/Smithy) or is missed
                c = before["current"]
                gained = (d["labor"] - before["labor"] + d["coins"][c] - before["coins"][c]
                          + d["stats"]["coins_missed"][c] - before["stats"]["coins_missed"][c])
                assert gained >= bin(a).count("1")
                assert d["this_turn"]["moved"] == bin(a).count("1")
        d = g.to_dict()
        assert d["decisions"] == k and g.legal_actions() == []
        reasons.add(d["end_reason"])
        assert d["end_reason"] == d["end_trigger"] != "none"
        s = g.scores()
        if s[0] != s[1]:
            assert d["winners"] == [0 if s[0] > s[1] else 1]
    assert reasons == {"seven_structures", "goals", "all_types"}


def test_to_dict_layout():
    d = play_random_game(2, 11, bot_seed=3).to_dict()
    assert list(d) == ["game", "options", "data", "rng", "first_player", "current", "phase",
                       "turn", "decisions", "coins", "supply", "labor", "workers", "owned",
                       "first_builder", "built_turn", "ships", "lender", "goals",
                       "this_turn", "end_trigger", "last_turn", "end_reason", "winners",
                       "stats"]
    assert list(d["options"]) == list(DEFAULT_OPTIONS)
    assert list(d["data"]) == ["structures", "goals", "constants"]
    assert list(d["data"]["constants"]) == list(DEFAULT_DATA["constants"])
    assert d["rng"].startswith("0x") and len(d["rng"]) == 18 and d["rng"] == d["rng"].lower()
    for p in (0, 1):
        assert d["owned"][p] == sorted(d["owned"][p], key=NAMES.index)
    assert list(d["this_turn"]) == ["labor_gained", "moved", "grinds", "built", "hired"]
    assert list(d["stats"]) == ["supply_ran_dry", "coins_missed", "lender_takes",
                                "lender_steals"]


@pytest.mark.parametrize("options", [
    {"coin_total": 28},
    {"p1_coins": 0, "p2_coins": 10},
    {"first_player": "random"},
    {"entry_space": "labor_b"},
    {"lender_steal": False},
    {"borrowed_prereq": True},
    {"borrow_harbor_union": False},
    {"harbor_benefit": "master_only"},
    {"sailor_needs_mixed": False},
    {"income_on_build_turn": True},
    {"smithy_effect": "turn_labor"},
    {"all_types_trigger": False},
    {"final_turn": "opponent_last_turn"},
    {"worker_tiebreak": False},
    {"max_turns": 10},
    {"recon_tweak": "Bank.coins-1"},
    {"recon_tweak": "Harbor.labor+1"},
    {"recon_tweak": "Camp.coins-1"},
])
def test_option_variants_play_to_the_end(options):
    for i in range(60):
        g = play_random_game(2, seed_for(31, i), options, bot_seed=i)
        d = g.to_dict()
        assert g.is_terminal() and g.legal_actions() == [] and d["phase"] == "over"
        check_invariants(d)
        assert d["options"] == {**DEFAULT_OPTIONS, **options}
        if options.get("max_turns") == 10:
            assert d["turn"] <= 10
        if d["end_reason"] == "limit":
            assert d["winners"] == []
        else:
            assert d["end_reason"] == d["end_trigger"] and d["winners"]
        if options.get("final_turn") == "opponent_last_turn" and d["end_reason"] != "limit":
            assert d["last_turn"] is True
        if not options.get("all_types_trigger", True):
            assert d["end_reason"] != "all_types"
