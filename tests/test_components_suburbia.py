"""Suburbia component tables (sim/suburbia/components.py): the tables rebuild the game's exact
arrays, and an override of a tile's price or effect amounts changes the tracks after placing
it by exactly that amount (positions of tests/test_suburbia_examples.py, E4b)."""

import json

import numpy as np
import pytest

from sim.core.components import tunable_paths
from sim.core.errors import UserError
from sim.registry import get_game
from sim.suburbia.constants import A_BUY, A_PLACE, cell_id

GAME = get_game("suburbia")
START = [("Suburbs", 0, 0), ("Community Park", 0, 2), ("Heavy Factory", 0, 4)]
MARKET = ["Mint", "Farm", "Museum", "Hostel", "Landfill", "Freeway", "Parking Lot"]


def position(game, money, inc, rep, pop, extra):
    """2 players, seat 0 to act with the start borough plus ``extra`` (name, x, y)."""
    d = game.state_to_dict(game.new_state(2, 0))
    d["phase"], d["current"], d["turn"] = "action", 0, 1
    d["private_goals"] = [o[0] for o in d["goal_offers"]]
    d["market"] = list(MARKET)
    for p, q in enumerate(d["players"]):
        q["tiles"] = [{"tile": t, "x": x, "y": y, "turn": 0, "invested": False, "rl": 0}
                      for t, x, y in START]
        if p == 0:
            q["tiles"] += [{"tile": t, "x": x, "y": y, "turn": 1, "invested": False, "rl": 0}
                           for t, x, y in extra]
            q.update(money=money, income=inc, reputation=rep, population=pop, pop_high=pop)
    return game.position_from_dict(json.loads(json.dumps(d)))


def buy_parking_lot(game):
    """E4b: buy the Parking Lot (slot 6, no surcharge) and place it at (-1, 3), next to the
    Community Park (V) and an Office Building (C). Returns (money, income, rep, pop)."""
    s = position(game, 20, 2, 1, 5, [("Office Building", -1, 1)])
    s = game.apply_action(s, A_BUY + 6)
    s = game.apply_action(s, A_PLACE + cell_id(-1, 3))
    q = game.state_to_dict(s)["players"][0]
    return q["money"], q["income"], q["reputation"], q["population"]


def test_tables_rebuild_the_exact_arrays():
    again = GAME.from_document(GAME.component_document())
    for a in ("tiles", "goals", "lines", "consts"):
        assert np.array_equal(getattr(again, a), getattr(GAME, a)), a


def test_e4b_default():
    # after the action $8, Inc 6 (+1 immediate, +1 per adjacent C or V: 2, +1 the Office's
    # reaction), Rep 2; then the income step $14 and Pop 7
    assert buy_parking_lot(GAME) == (14, 6, 2, 7)


@pytest.mark.parametrize("path,value,expect", [
    ("tiles.parking_lot.immediate.income", 3, (16, 8, 2, 7)),   # +2 income
    ("tiles.parking_lot.effect.e1", 2, (16, 8, 2, 7)),          # 2 adjacent matches x +1
    ("tiles.parking_lot.effect.e1", -1, (10, 2, 2, 7)),          # 2 adjacent matches x -2
    ("tiles.parking_lot.price", 9, (17, 6, 2, 7)),                # $3 cheaper
    ("tiles.office_building.effect.e1", 0, (13, 5, 2, 7)),        # the Office no longer reacts
    # Rep 1 + 1 (Park) + 2: the reputation step then adds 4 population instead of 2
    ("tiles.parking_lot.immediate.reputation", 2, (14, 6, 4, 9)),
])
def test_override_changes_the_tracks_exactly(path, value, expect):
    var = GAME.with_overrides({path: value})
    assert buy_parking_lot(var) == expect
    assert buy_parking_lot(GAME) == (14, 6, 2, 7)  # the base game is untouched


def test_effect_rule_override():
    # the Parking Lot's record counts adjacent R instead of C V: (-1, 3) touches the Park
    # (0, 2), the Factory (0, 4) and the Office (-1, 1), no R: +0 income from the record
    var = GAME.with_overrides({"tiles.parking_lot.effect_rule.e1": "Inc adj R"})
    assert buy_parking_lot(var) == (12, 4, 2, 7)
    var = GAME.with_overrides({"tiles.parking_lot.effect_rule.e1": "Inc adj I"})
    assert buy_parking_lot(var) == (13, 5, 2, 7)  # the Heavy Factory


def test_refusals():
    with pytest.raises(UserError, match="allowed: Inc, Rep, Pop, \\$"):
        GAME.with_overrides({"tiles.freeway.effect_rule.e1": "Gold adj R"})
    with pytest.raises(UserError, match="allowed: adj, own"):
        GAME.with_overrides({"tiles.freeway.effect_rule.e1": "Rep near R"})
    with pytest.raises(UserError, match="unknown class"):
        GAME.with_overrides({"tiles.freeway.classes": "X"})
    with pytest.raises(UserError, match="no effect_rule"):
        GAME.with_overrides({"tiles.freeway.effect.e3": 2})
    with pytest.raises(UserError, match="rule option hoa_price"):
        GAME.with_overrides({"tiles.homeowners_association.price": 3})
    with pytest.raises(UserError, match="rule option recycling_plant_rep"):
        GAME.with_overrides({"tiles.recycling_plant.immediate.reputation": 3})
    with pytest.raises(UserError, match="allowed: most, fewest"):
        GAME.with_overrides({"goals.builder.direction": "many"})
    with pytest.raises(UserError, match="stack sizes"):
        GAME.with_overrides({"constants.stack_size.p4": 40})
    with pytest.raises(UserError, match="allowed: income, reputation, population, money"):
        GAME.with_overrides({"tiles.freeway.immediate.gold": 1})


def test_added_record_and_goal_bonus():
    var = GAME.with_overrides({"tiles.freeway.effect.e3": 2,
                               "tiles.freeway.effect_rule.e3": "$ every I",
                               "goals.Builder.bonus": 25, "red_lines.1.population": 13})
    doc = var.component_document()
    fw = next(r for r in doc["tiles"] if r["name"] == "Freeway")
    assert fw["effect"] == [-1, 1, 2] and fw["effect_rule"] == ["Rep adj R", "Inc adj C",
                                                                 "$ every I"]
    assert next(g for g in doc["goals"] if g["name"] == "Builder")["bonus"] == 25
    assert doc["red_lines"][0] == {"line": 1, "population": 13}
    assert var.overrides == {"goals.builder.bonus": 25, "red_lines.1.population": 13,
                             "tiles.freeway.effect.e3": 2, "tiles.freeway.effect_rule.e3":
                             "$ every I"}


def test_tunables_of_a_tile():
    doc, schema = GAME.component_document(), GAME.component_schema
    got = {p: (v, e) for p, v, e, _lo, _hi in tunable_paths(doc, schema, "tiles", "Freeway")}
    assert got == {"tiles.freeway.price": (5, -1), "tiles.freeway.effect.e1": (-1, 1),
                   "tiles.freeway.effect.e2": (1, 1)}
    got = {p: v for p, v, _e, _lo, _hi in tunable_paths(doc, schema, "tiles", "Suburbs")}
    assert got == {"tiles.suburbs.price": 3, "tiles.suburbs.immediate.population": 2}
