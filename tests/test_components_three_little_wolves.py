"""The Three Little Wolves component tables (sim/three_little_wolves/components.py): rows,
overrides and their exact effect on scoring."""

import numpy as np
import pytest

from sim.core.errors import UserError
from sim.registry import get_game
from sim.three_little_wolves import data

GAME = get_game("three-little-wolves")


def test_tables_match_the_data_module():
    doc = GAME.component_document()
    for name, rows in data.CARD_SETS.items():
        assert [(r["number"], r["icon"], r["mark"]) for r in doc[name]] == [tuple(x) for x in rows]
    assert [r["card"] for r in doc["cards_v1"]] == [
        "1", "2", "3", "4", "5", "5_2", "6", "7", "8", "9", "9_2", "10", "11", "12"]
    assert doc["components"] == data.COMPONENTS


def one_house(game, floors):
    """Seat 0 of a 3-player deal owns one red house of ``floors`` (cards taken from the deck
    and hands); its points as if the game ended now."""
    d = game.state_to_dict(game.new_state(3, 1))
    for c in floors:
        for h in d["hands"]:
            if c in h:
                h.remove(c)
        if c in d["deck"]:
            d["deck"].remove(c)
    d["houses"][0] = [{"colour": "R", "floors": list(floors), "basements": [], "pig": 0,
                       "wolves": []}]
    s = game.position_from_dict(d)
    game.check_invariants(s)
    return game.points(s)[0][0].tolist()  # houses, collapses, bonuses, pigs, wolves, marks


def test_mark_and_house_points_overrides_score_exactly():
    assert one_house(GAME, ["R6", "R7"]) == [4, 0, 3, 0, 0, -2]
    var = GAME.with_overrides({"cards_v1.7.mark": -5, "components.house_points": 5,
                               "components.bonus_points": 1})
    assert var.overrides == {"cards_v1.7.mark": -5, "components.bonus_points": 1,
                             "components.house_points": 5}
    assert one_house(var, ["R6", "R7"]) == [5, 0, 1, 0, 0, -5]
    # the mark belongs to card_set cards_v1 only: under cards_v0 the 7 keeps its -2
    var0 = GAME.with_overrides({"cards_v1.7.mark": -5})
    d = var0.state_to_dict(var0.new_state(3, 1, {"card_set": "cards_v0"}))
    assert d["data"]["suit"][7] == [7, 0, -2]


def test_house_points_scale_every_random_game():
    """Random play does not look at points: the same games, house points x 6/4."""
    var = GAME.with_overrides({"components.house_points": 6})
    seats = np.zeros((12, 3), np.int64)
    opts = GAME.resolve_options({})
    a = GAME.run_chunk(0, 12, 5, 3, seats, opts, ["random"])
    b = var.run_chunk(0, 12, 5, 3, seats, opts, ["random"])
    assert (a.decisions == b.decisions).all()
    standing = a.seat_detail["houses_built"] - a.seat_detail["houses_collapsed"]
    assert (a.seat_detail["pts_houses"] == 4 * standing).all()
    assert (b.seat_detail["pts_houses"] == 6 * standing).all()
    assert (b.score - a.score == 2 * standing).all()


def test_card_number_override_renames_the_cards_not_the_row():
    var = GAME.with_overrides({"cards_v1.12.number": 13})
    doc = var.component_document()
    assert doc["cards_v1"][-1] == {"card": "12", "number": 13, "icon": 0, "mark": 2}
    d = var.state_to_dict(var.new_state(2, 4))
    cards = set(d["deck"]) | {c for h in d["hands"] for c in h}
    assert "R13" in cards or "Y13" in cards or "G13" in cards or "W13" in cards
    assert not any(c[1:] == "12" for c in cards)


def test_refusals():
    with pytest.raises(UserError, match="allowed: NONE, LEFT, RIGHT, HOUSE"):
        GAME.with_overrides({"components.pig_effects.pig2": "UP"})
    with pytest.raises(UserError, match="distinct"):
        GAME.with_overrides({"components.wolf_values.wolf1": 4})
    with pytest.raises(UserError, match=r"icon = 12: out of range; allowed 0\.\.9"):
        GAME.with_overrides({"cards_v2.9_2.icon": 12})
    with pytest.raises(UserError, match="allowed: pig1, pig2, pig3"):
        GAME.with_overrides({"components.pig_effects.pig4": "LEFT"})
    var = GAME.with_overrides({"components.pig_effects.pig2": "house",
                               "components.collapse_points": -3})
    comp = var.component_document()["components"]
    assert comp["pig_effects"] == ["LEFT", "HOUSE", "HOUSE"] and comp["collapse_points"] == -3


def test_no_tunables_no_impact_links():
    schema = GAME.component_schema
    assert schema.tunables == () and schema.impact == ()
