"""Province component tables (sim/province/components.py): an override really changes the
engine's play (exact values in set positions)."""

import json

import pytest

from sim.core.components import tunable_paths
from sim.core.errors import UserError
from sim.registry import get_game

GAME = get_game("province")
NAMES = ["Lender", "Bank", "Camp", "Village", "Mill", "Smithy", "Union", "Harbor"]
BUILD = {n: 256 + i for i, n in enumerate(NAMES)}
END = 0


def spend_position(game, labor, coins, owned0=()):
    """P0 in the spend phase of turn 1 with ``labor`` and ``coins``; P0 owns ``owned0``."""
    d = game.state_to_dict(game.new_state(2, 0))
    d["phase"], d["labor"] = "spend", labor
    d["supply"] += d["coins"][0] - coins
    d["coins"][0] = coins
    d["goals"]["stack"] = ["Hoard", "Crew", "Rival", "Dynasty", "Seafarer"]
    d["goals"]["result"] = [-2] * 5
    for n in owned0:
        k = NAMES.index(n)
        d["owned"][0].append(n)
        d["built_turn"][0][k] = 0
        d["first_builder"][k] = 0
    d["owned"][0].sort(key=NAMES.index)
    s = game.position_from_dict(json.loads(json.dumps(d)))
    game.check_invariants(s)
    return s


def test_structure_cost_override_changes_legal_builds_and_payment():
    base = spend_position(GAME, 2, 2)
    assert BUILD["Lender"] in GAME.legal_actions(base).tolist()  # 2 labor + 2 coins
    dear = GAME.with_overrides({"structures.Lender.coins": 3})
    assert dear.overrides == {"structures.lender.coins": 3}
    s = spend_position(dear, 2, 2)
    assert BUILD["Lender"] not in dear.legal_actions(s).tolist()
    s = spend_position(dear, 2, 3)
    assert BUILD["Lender"] in dear.legal_actions(s).tolist()
    d = dear.state_to_dict(dear.apply_action(s, BUILD["Lender"]))
    assert d["coins"][0] == 0 and d["labor"] == 0 and d["owned"][0] == ["Lender"]
    # the default game pays 2 coins from the same 3
    d = GAME.state_to_dict(GAME.apply_action(spend_position(GAME, 2, 3), BUILD["Lender"]))
    assert d["coins"][0] == 1


def test_vp_override_changes_the_score():
    var = GAME.with_overrides({"structures.lender.vp_first": 4})
    s = var.apply_action(spend_position(var, 2, 2), BUILD["Lender"])
    assert var.scores(s).tolist() == [4, 0]
    s = GAME.apply_action(spend_position(GAME, 2, 2), BUILD["Lender"])
    assert GAME.scores(s).tolist() == [1, 0]


@pytest.mark.parametrize("income", [0, 1, 3])
def test_mill_income_override(income):
    """P0 owns a Mill; P0 ends the turn, P1 ends the next: P0's turn starts with the Mill's
    labor (the constant mill_labor, printed as structures.mill.labor_income)."""
    var = GAME.with_overrides({"structures.mill.labor_income": income})
    s = spend_position(var, 0, 2, owned0=["Mill"])
    s = var.apply_action(s, END)
    assert int(var.state_to_dict(s)["current"]) == 1
    s = var.apply_action(s, 0b001)  # P1 moves one worker
    s = var.apply_action(s, END)
    d = var.state_to_dict(s)
    assert d["current"] == 0 and d["phase"] == "work"
    assert d["labor"] == income and d["this_turn"]["labor_gained"] == income
    assert d["data"]["constants"]["mill_labor"] == income


def test_recon_tweak_applies_on_top_of_the_data():
    var = GAME.with_overrides({"structures.bank.coins": 4})
    d = var.state_to_dict(var.new_state(2, 0, {"recon_tweak": "Bank.coins-1"}))
    bank = next(r for r in d["data"]["structures"] if r["name"] == "Bank")
    assert bank["coins"] == 3
    # the printed data shows the numbers without the option
    assert next(r for r in var.component_document()["structures"]
                if r["name"] == "Bank")["coins"] == 4


def test_prereq_override_and_refusals():
    var = GAME.with_overrides({"structures.harbor.prereq": "union"})
    assert next(r for r in var.component_document()["structures"]
                if r["name"] == "Harbor")["prereq"] == "Union"
    s = spend_position(var, 9, 9)
    assert BUILD["Harbor"] not in var.legal_actions(s).tolist()
    assert BUILD["Harbor"] in GAME.legal_actions(spend_position(GAME, 9, 9)).tolist()
    with pytest.raises(UserError, match="allowed: none, Lender"):
        GAME.with_overrides({"structures.harbor.prereq": "castle"})
    with pytest.raises(UserError, match="loop"):
        GAME.with_overrides({"structures.lender.prereq": "bank"})
    with pytest.raises(UserError, match="allowed: coins_at_end_of_turn"):
        GAME.with_overrides({"goals.hoard.condition": "richest"})
    with pytest.raises(UserError, match="allowed:.*grind_coins"):
        GAME.with_overrides({"constants.mill_labor": 2})  # lives in structures.mill


def test_goal_threshold_override():
    var = GAME.with_overrides({"goals.hoard.threshold": 2})
    d = var.state_to_dict(var.new_state(2, 0))
    assert next(g for g in d["data"]["goals"] if g["name"] == "Hoard")["threshold"] == 2


def test_tunables_of_a_structure():
    doc, schema = GAME.component_document(), GAME.component_schema
    paths = {p: (v, e) for p, v, e, _lo, _hi in tunable_paths(doc, schema, "structures", "Union")}
    assert paths == {"structures.union.labor": (2, -1), "structures.union.coins": (3, -1),
                     "structures.union.vp_first": (1, 1), "structures.union.vp_copy": (0, 1),
                     "structures.union.trade_coins": (2, -1),
                     "structures.union.trade_labor": (1, 1)}
