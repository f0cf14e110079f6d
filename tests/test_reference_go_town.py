"""Tests of the plain-Python Go Town reference (tests/reference/go_town.py) on its own.

Positions are built with ``from_dict`` from a blank state dict (``blank``), following
the worked examples E1..E13 of the rules spec (shared/rules/go_town.md, section 7) and
the contract docs/games/go_town.md.
"""

import copy
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.reference.go_town import (  # noqa: E402
    CARD_NAMES,
    DEFAULT_DATA,
    DEFAULT_OPTIONS,
    MASK64,
    NUM_ACTIONS,
    GoTownRef,
    Rng,
    mix,
    play_random_game,
    seed_for,
    splitmix_next,
)

RNG0 = "0x00000000000000a5"


def blank(n, **options):
    """A state dict for n players: empty deck/discard/hands/buildings, seat 0 to play."""
    d = GoTownRef(n, 0).to_dict()
    opts = dict(DEFAULT_OPTIONS)
    opts.update(options)
    d.update({
        "options": opts,
        "rng": RNG0,
        "current": 0,
        "phase": "play",
        "turn": 1,
        "decisions": 0,
        "deck": [],
        "discard": {},
        "hands": [{} for _ in range(n)],
        "buildings": [[] for _ in range(n)],
        "pending_skips": [0] * n,
        "milk_in_front": [0] * n,
        "played": [{} for _ in range(n)],
        "winner": -1,
        "end_reason": "none",
    })
    return d


def fl(a, b, va=None, vb=None, dogs=0):
    """A floor dict; values default to the printed numbers."""
    va = int(a) if va is None else va
    vb = int(b) if vb is None else vb
    return {"cards": [a, b], "values": [va, vb], "dogs": dogs}


# the implementation the position tests run on; tests/test_go_town_examples.py swaps in the
# engine and runs the same tests again
IMPL = {"cls": GoTownRef}


def game(d):
    return IMPL["cls"].from_dict(copy.deepcopy(d))


# --------------------------------------------------------------------------- RNG


def test_splitmix_reference_vectors():
    r = Rng(0)
    assert [r.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    r = Rng(1234567)
    assert [r.next_u64() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423,
        4593380528125082431, 16408922859458223821]
    st, out = splitmix_next(0)
    assert st == 0x9E3779B97F4A7C15 and out == 0xE220A8397B1DCDAF
    assert mix(0) == 0xE220A8397B1DCDAF
    assert splitmix_next(MASK64)[0] == (MASK64 + 0x9E3779B97F4A7C15) & MASK64


def test_seed_for_composition():
    for rs, gi, st in [(0, 0, 0), (1, 2, 1), (12345, 999, 2), (MASK64, 7, 0)]:
        assert seed_for(rs, gi, st) == mix(mix(mix(rs) ^ gi) ^ st)
    assert seed_for(5, 3) == seed_for(5, 3, 0)
    assert seed_for(5, 3, 0) != seed_for(5, 3, 1)


def test_rand_below_and_shuffle():
    r = Rng(99)
    s = r.state
    x = r.rand_below(10)
    assert x == ((splitmix_next(s)[1] >> 32) * 10) >> 32
    assert all(0 <= r.rand_below(7) < 7 for _ in range(500))
    with pytest.raises(ValueError):
        r.rand_below(0)
    a = list(range(20))
    r1, r2 = Rng(5), Rng(5)
    b = list(a)
    r1.shuffle(b)
    assert sorted(b) == a and b != a
    # hand-rolled Fisher-Yates with the same generator
    c = list(a)
    for i in range(len(c) - 1, 0, -1):
        j = r2.rand_below(i + 1)
        c[i], c[j] = c[j], c[i]
    assert b == c and r1.state == r2.state


# ------------------------------------------------------------------ constants/setup


def test_constants():
    assert NUM_ACTIONS == 208
    assert CARD_NAMES[1:] == ["1", "2", "3", "4", "5", "6", "7", "8", "?", "DOG", "BONE",
                              "DRILL", "WRECK", "MILK", "DONUT", "THIEF", "MASTER"]
    assert len(DEFAULT_OPTIONS) == 21
    assert sum(DEFAULT_DATA["card_counts"].values()) == 54
    assert (DEFAULT_DATA["opening_hand"], DEFAULT_DATA["hand_limit"],
            DEFAULT_DATA["refill_to"]) == (5, 8, 3)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("first_player", ["seat0", "random"])
def test_setup_matches_manual_procedure(n, first_player):
    seed = 0xDEADBEEF + n
    g = GoTownRef(n, seed, {"first_player": first_player})
    r = Rng(seed)
    first = r.rand_below(n) if first_player == "random" else 0
    deck = []
    for k in range(1, 18):
        deck += [k] * DEFAULT_DATA["card_counts"][CARD_NAMES[k]]
    r.shuffle(deck)
    hands = [[0] * 18 for _ in range(n)]
    for p in range(n):
        for _ in range(5):
            hands[p][deck.pop()] += 1
    hands[first][deck.pop()] += 1   # first player's start-of-turn draw
    d = g.to_dict()
    assert d["rng"] == "0x%016x" % r.state
    assert d["current"] == first and d["turn"] == 1 and d["phase"] == "play"
    assert d["deck"] == [CARD_NAMES[k] for k in deck]
    assert len(d["deck"]) == 54 - 5 * n - 1
    for p in range(n):
        assert d["hands"][p] == {CARD_NAMES[k]: hands[p][k] for k in range(1, 18) if hands[p][k]}
        assert list(d["hands"][p]) == sorted(d["hands"][p], key=CARD_NAMES.index)


def test_bad_options_and_data_raise():
    with pytest.raises(ValueError):
        GoTownRef(2, 0, {"no_such_option": 1})
    with pytest.raises(ValueError):
        GoTownRef(2, 0, {"target_floors": 6})
    with pytest.raises(ValueError):
        GoTownRef(2, 0, {"win_check": "sometimes"})
    with pytest.raises(ValueError):
        GoTownRef(2, 0, {"dog_moves_up": 1})
    with pytest.raises(ValueError):
        GoTownRef(2, 0, {"max_turns": 5})
    with pytest.raises(ValueError):
        GoTownRef(2, 0, {"dogs_per_floor_max": 5})
    with pytest.raises(ValueError):
        GoTownRef(5, 0)
    with pytest.raises(ValueError):
        GoTownRef(2, 0, data={"card_counts": {"JOKER": 1}})
    with pytest.raises(ValueError):
        GoTownRef(2, 0, data={"nonsense": 1})
    g = GoTownRef(2, 0, {"max_turns": 10, "dogs_per_floor_max": 4}, data={"refill_to": 4})
    assert g.options["max_turns"] == 10 and g.data["refill_to"] == 4


# ------------------------------------------------------------------ worked examples


def test_e1_build_from_hand():
    d = blank(2)
    d["hands"][0] = {"2": 1, "5": 1, "7": 1, "8": 1, "DRILL": 1}
    g = game(d)
    assert g.legal_actions() == [0, 2]          # END_TURN, BUILD 2+7 (5+8 = 13: no)
    g.apply(2)
    d2 = g.to_dict()
    assert d2["buildings"][0] == [fl("2", "7")]
    assert d2["hands"][0] == {"5": 1, "8": 1, "DRILL": 1}
    assert d2["played"][0] == {"2": 1, "7": 1}
    assert d2["decisions"] == 1 and d2["phase"] == "play" and d2["current"] == 0
    assert g.scores() == [1, 0]
    with pytest.raises(ValueError):
        g.apply(4)                              # BUILD 4+5: no 4 in hand


def test_e1_question_marks():
    d = blank(2)
    d["hands"][0] = {"4": 2, "?": 2}
    g = game(d)
    assert g.legal_actions() == [0, 8]          # {4,4} and {?,?} illegal; ?+4 legal
    d["hands"][0] = {"5": 1, "?": 1}
    g = game(d)
    assert g.legal_actions() == [0, 9]
    g.apply(9)
    assert g.to_dict()["buildings"][0] == [fl("5", "?", 5, 4)]
    assert g.to_dict()["hands"][0] == {}


def test_e2_steal():
    d = blank(2)
    d["buildings"][1] = [fl("1", "8"), fl("3", "6")]
    d["hands"][0] = {"1": 1, "6": 1}
    g = game(d)
    assert g.legal_actions() == [0, 17]         # STEAL v1 s0 b0 (take the 3 with a 6)
    g.apply(17)
    d2 = g.to_dict()
    assert d2["buildings"][0] == [fl("6", "3")]
    assert d2["buildings"][1] == [fl("1", "8")]
    assert d2["discard"] == {"6": 1}
    assert d2["hands"][0] == {"1": 1}
    assert d2["played"][0] == {"6": 1}
    # alternative: a 3 takes the 6; a ? may never take the numbered 3
    d["hands"][0] = {"3": 1, "?": 1}
    g = game(d)
    assert g.legal_actions() == [0, 7, 19]      # BUILD ?+3, STEAL v1 s1 b0
    assert 18 not in g.legal_actions()
    g.apply(19)
    assert g.to_dict()["buildings"][0] == [fl("3", "6")]
    assert g.to_dict()["discard"] == {"3": 1}


def test_steal_question_mark_routes():
    d = blank(2)
    d["buildings"][1] = [fl("5", "?", 5, 4)]
    d["hands"][0] = {"5": 1, "?": 1}
    g = game(d)
    assert g.legal_actions() == [0, 9, 19, 20]
    g.apply(20)                                 # route A: ? takes the ?, new floor ?+?
    d2 = g.to_dict()
    assert d2["buildings"][0] == [fl("?", "?", 5, 4)]
    assert d2["buildings"][1] == []
    assert d2["discard"] == {"5": 1} and d2["hands"][0] == {"5": 1}
    g = game(d)
    g.apply(19)                                 # route B: the 5 takes the ?, keeps 4
    assert g.to_dict()["buildings"][0] == [fl("5", "?", 5, 4)]
    assert g.to_dict()["hands"][0] == {"?": 1}
    d["options"]["qm_steal_by_qm"] = False
    assert game(d).legal_actions() == [0, 9, 19]
    d["options"]["qm_steal_by_qm"] = True
    d["options"]["qm_steal_by_number"] = False
    assert game(d).legal_actions() == [0, 9, 20]
    # stealing from a ?+? floor with a number (value 5 slot needs a 4)
    d = blank(2)
    d["buildings"][1] = [fl("?", "?", 5, 4)]
    d["hands"][0] = {"4": 1}
    g = game(d)
    assert g.legal_actions() == [0, 17]
    g.apply(17)
    assert g.to_dict()["buildings"][0] == [fl("4", "?", 4, 5)]
    assert g.to_dict()["discard"] == {"?": 1}


def test_e3_bone_drill_steal():
    d = blank(2)
    d["buildings"][1] = [fl("2", "7"), fl("4", "5", dogs=1)]
    d["hands"][0] = {"1": 1, "7": 1, "BONE": 1, "DRILL": 1}
    d["deck"] = ["3", "4", "5"]
    g = game(d)
    assert g.legal_actions() == [0, 120]        # drill illegal: top floor guarded
    g.apply(120)                                # BONE p1 f1
    d2 = g.to_dict()
    assert d2["discard"] == {"DOG": 1, "BONE": 1}
    assert d2["buildings"][1][1]["dogs"] == 0
    assert g.legal_actions() == [0, 174]
    g.apply(174)                                # DRILL p1
    d2 = g.to_dict()
    assert d2["buildings"][1] == [fl("2", "7")]
    assert d2["discard"] == {"4": 1, "5": 1, "DOG": 1, "BONE": 1, "DRILL": 1}
    assert g.legal_actions() == [0, 17]
    g.apply(17)                                 # 7 takes the 2
    d2 = g.to_dict()
    assert d2["buildings"][0] == [fl("7", "2")]
    assert d2["buildings"][1] == []
    assert d2["hands"][0] == {"1": 1}
    assert sum(d2["discard"].values()) == 6
    assert d2["played"][0] == {"7": 1, "BONE": 1, "DRILL": 1}
    g.apply(0)                                  # END_TURN: draw 2 to reach 3
    d2 = g.to_dict()
    assert d2["hands"][0] == {"1": 1, "4": 1, "5": 1}
    assert d2["hands"][1] == {"3": 1}           # P1's start-of-turn draw
    assert d2["deck"] == []
    assert (d2["current"], d2["turn"], d2["decisions"]) == (1, 2, 4)


def test_e5_milkshake_skip():
    d = blank(3)
    d["hands"] = [{"2": 1, "MILK": 1}, {"5": 1}, {"6": 1}]
    d["deck"] = ["1", "2", "3", "4", "8", "7"]
    g = game(d)
    assert g.legal_actions() == [0, 182, 183]
    g.apply(182)
    d2 = g.to_dict()
    assert d2["pending_skips"] == [0, 1, 0] and d2["milk_in_front"] == [0, 1, 0]
    assert d2["discard"] == {}
    g.apply(0)
    d2 = g.to_dict()
    assert d2["hands"] == [{"2": 1, "7": 1, "8": 1}, {"5": 1}, {"4": 1, "6": 1}]
    assert d2["pending_skips"] == [0, 0, 0] and d2["milk_in_front"] == [0, 0, 0]
    assert d2["discard"] == {"MILK": 1}
    assert (d2["current"], d2["turn"]) == (2, 3)
    g.apply(0)
    d2 = g.to_dict()
    assert d2["hands"] == [{"2": 2, "7": 1, "8": 1}, {"5": 1}, {"3": 1, "4": 1, "6": 1}]
    assert (d2["current"], d2["turn"]) == (0, 4)


def test_e5_two_milkshakes_stack():
    d = blank(3)
    d["hands"] = [{"MILK": 2}, {}, {}]
    d["deck"] = ["1"] * 30
    g = game(d)
    g.apply(182)
    g.apply(182)
    assert g.to_dict()["pending_skips"] == [0, 2, 0]
    assert g.to_dict()["milk_in_front"] == [0, 2, 0]
    g.apply(0)
    d2 = g.to_dict()
    assert (d2["current"], d2["turn"]) == (2, 3)
    assert d2["pending_skips"] == [0, 1, 0] and d2["milk_in_front"] == [0, 1, 0]
    assert d2["discard"] == {"MILK": 1}
    g.apply(0)
    assert g.current == 0
    g.apply(0)
    d2 = g.to_dict()
    assert (d2["current"], d2["turn"]) == (2, 6)
    assert d2["pending_skips"] == [0, 0, 0] and d2["milk_in_front"] == [0, 0, 0]
    assert d2["discard"] == {"MILK": 2}
    assert d2["hands"][1] == {}                 # P1 never drew


def test_milk_options():
    d = blank(2, milk_discard="immediate")
    d["hands"][0] = {"MILK": 2}
    g = game(d)
    assert g.legal_actions() == [0, 182]        # not on self by default
    g.apply(182)
    d2 = g.to_dict()
    assert d2["milk_in_front"] == [0, 0] and d2["discard"] == {"MILK": 1}
    d = blank(2, skip_stacking="no_stack", milk_on_self=True)
    d["hands"][0] = {"MILK": 2}
    g = game(d)
    assert g.legal_actions() == [0, 181, 182]
    g.apply(182)
    assert g.legal_actions() == [0, 181]        # P1 already owes a skip


def test_e6_donut_truck():
    d = blank(4)
    d["hands"][0] = {"DONUT": 1}
    d["deck"] = ["1"] * 10
    g = game(d)
    assert g.legal_actions() == [0, 189]
    g.apply(189)
    d2 = g.to_dict()
    assert d2["pending_skips"] == [0, 1, 1, 1]
    assert d2["discard"] == {"DONUT": 1} and d2["played"][0] == {"DONUT": 1}
    g.apply(0)
    d2 = g.to_dict()
    assert (d2["current"], d2["turn"]) == (0, 5)
    assert d2["hands"] == [{"1": 4}, {}, {}, {}]
    assert d2["pending_skips"] == [0, 0, 0, 0]
    assert len(d2["deck"]) == 6


def test_e6_donut_scope_all():
    d = blank(4, donut_scope="all")
    d["hands"][0] = {"DONUT": 1}
    d["deck"] = ["1"] * 10
    g = game(d)
    g.apply(189)
    assert g.to_dict()["pending_skips"] == [1, 1, 1, 1]
    g.apply(0)
    d2 = g.to_dict()
    assert (d2["current"], d2["turn"]) == (1, 6)
    assert d2["hands"] == [{"1": 3}, {"1": 1}, {}, {}]
    assert d2["pending_skips"] == [0, 0, 0, 0]


def test_donut_no_stack():
    d = blank(3, skip_stacking="no_stack")
    d["hands"][0] = {"DONUT": 1}
    d["pending_skips"] = [0, 1, 1]
    assert game(d).legal_actions() == [0]
    d["pending_skips"] = [0, 2, 0]
    g = game(d)
    assert g.legal_actions() == [0, 189]
    g.apply(189)
    assert g.to_dict()["pending_skips"] == [0, 2, 1]


@pytest.mark.parametrize("timing", ["lazy", "eager"])
def test_e7_reshuffle(timing):
    d = blank(2, reshuffle_timing=timing)
    d["deck"] = ["8"]
    d["discard"] = {"3": 2, "5": 1, "DOG": 1, "MILK": 1, "THIEF": 1}
    d["hands"] = [{"2": 1}, {"1": 8}]
    g = game(d)
    g.apply(0)
    r = Rng(int(RNG0, 16))
    pile = [3, 3, 5, 10, 14, 16]
    r.shuffle(pile)
    drawn = pile.pop()
    d2 = g.to_dict()
    hand = {"2": 1, "8": 1}
    hand[CARD_NAMES[drawn]] = hand.get(CARD_NAMES[drawn], 0) + 1
    assert d2["hands"][0] == dict(sorted(hand.items(), key=lambda kv: CARD_NAMES.index(kv[0])))
    assert d2["deck"] == [CARD_NAMES[k] for k in pile]
    assert len(d2["deck"]) == 5 and d2["discard"] == {}
    assert d2["rng"] == "0x%016x" % r.state
    assert d2["hands"][1] == {"1": 8}           # P1 holds 8: no draw
    assert (d2["current"], d2["turn"]) == (1, 2)


def test_eager_reshuffles_when_pile_hits_zero():
    d = blank(2, reshuffle_timing="eager")
    d["deck"] = ["8", "1"]
    d["discard"] = {"4": 1, "6": 1}
    d["hands"] = [{"2": 2}, {"1": 8}]
    g = game(d)
    g.apply(0)                                  # P0 has 2: draws the 1; deck keeps the 8
    d2 = g.to_dict()
    assert d2["deck"] == ["8"] and d2["discard"] == {"4": 1, "6": 1}
    d["hands"] = [{"2": 1}, {"1": 8}]
    g = game(d)
    g.apply(0)                                  # draws 1 and 8 -> empty -> reshuffle now
    d2 = g.to_dict()
    assert d2["hands"][0] == {"1": 1, "2": 1, "8": 1}
    assert sorted(d2["deck"]) == ["4", "6"] and d2["discard"] == {}
    d["options"]["reshuffle_timing"] = "lazy"
    g = game(d)
    g.apply(0)
    d2 = g.to_dict()
    assert d2["deck"] == [] and d2["discard"] == {"4": 1, "6": 1}
    assert d2["rng"] == RNG0


def test_draws_from_two_empty_piles_are_lost():
    d = blank(2)
    d["hands"] = [{}, {}]
    g = game(d)
    g.apply(0)
    d2 = g.to_dict()
    assert d2["hands"] == [{}, {}] and d2["current"] == 1 and d2["rng"] == RNG0


def test_e9_mid_turn_win():
    d = blank(2)
    d["buildings"][0] = [fl("1", "8"), fl("2", "7"), fl("4", "5"), fl("1", "8")]
    d["hands"][0] = {"3": 1, "6": 1, "WRECK": 1, "MILK": 1}
    d["deck"] = ["1", "2", "3"]
    g = game(d)
    g.apply(3)
    d2 = g.to_dict()
    assert g.is_terminal() and g.winner == 0
    assert (d2["phase"], d2["winner"], d2["end_reason"]) == ("over", 0, "target")
    assert d2["hands"][0] == {"WRECK": 1, "MILK": 1}   # no refill
    assert d2["deck"] == ["1", "2", "3"] and d2["decisions"] == 1
    assert g.legal_actions() == [] and g.scores() == [5, 0]
    with pytest.raises(ValueError):
        g.apply(0)


def test_e9_short_game_and_end_of_turn_check():
    d = blank(2, target_floors=4)
    d["buildings"][0] = [fl("1", "8"), fl("2", "7"), fl("4", "5")]
    d["hands"][0] = {"3": 1, "6": 1}
    g = game(d)
    g.apply(3)
    assert g.is_terminal() and g.winner == 0 and g.end_reason == "target"
    d = blank(2, win_check="end_of_turn")
    d["buildings"][0] = [fl("1", "8"), fl("2", "7"), fl("4", "5"), fl("1", "8")]
    d["hands"][0] = {"3": 1, "6": 1}
    d["deck"] = ["1", "2", "3"]
    g = game(d)
    g.apply(3)
    assert not g.is_terminal() and g.legal_actions() == [0]
    g.apply(0)
    d2 = g.to_dict()
    assert (d2["phase"], d2["winner"], d2["end_reason"]) == ("over", 0, "target")
    assert d2["hands"][0] == {} and d2["current"] == 0


def test_e12_thief():
    d = blank(3)
    d["hands"] = [{"6": 1, "THIEF": 1}, {}, {"4": 1, "?": 1, "DOG": 1}]
    seen = set()
    for i in range(60):
        d["rng"] = "0x%016x" % seed_for(77, i)
        g = game(d)
        assert g.legal_actions() == [0, 187]    # P1 has no cards
        g.apply(187)
        d2 = g.to_dict()
        # exact: r = rand_below(3) walks 4, ?, DOG in type order
        r = Rng(seed_for(77, i)).rand_below(3)
        taken = ["4", "?", "DOG"][r]
        seen.add(taken)
        assert sum(d2["hands"][2].values()) == 2 and taken not in d2["hands"][2]
        assert d2["hands"][0] == dict(sorted({"6": 1, taken: 1}.items(),
                                             key=lambda kv: CARD_NAMES.index(kv[0])))
        assert d2["discard"] == {"THIEF": 1}
        if taken == "?":
            assert 10 in g.legal_actions()      # BUILD ?+6 in the same turn
            g.apply(10)
            assert g.to_dict()["buildings"][0] == [fl("6", "?", 6, 3)]
    assert seen == {"4", "?", "DOG"}


def test_master_thief_order_and_cap_gain():
    d = blank(4, hand_limit_mode="cap_gain")
    d["hands"] = [{"1": 6, "MASTER": 1}, {"2": 1}, {}, {"3": 1}]
    g = game(d)
    assert g.legal_actions() == [0, 190]
    g.apply(190)
    d2 = g.to_dict()
    assert d2["hands"][0] == {"1": 6, "2": 1, "3": 1}
    assert d2["hands"][1:] == [{}, {}, {}]
    # cap_gain: 8 cards incl. MASTER -> takes from P1 only (then 8 in hand)
    d["hands"] = [{"1": 7, "MASTER": 1}, {"2": 1}, {}, {"3": 1}]
    g = game(d)
    g.apply(190)
    d2 = g.to_dict()
    assert d2["hands"][0] == {"1": 7, "2": 1} and d2["hands"][3] == {"3": 1}
    # cap_gain: 9 cards incl. THIEF/MASTER -> neither is legal
    d["hands"] = [{"1": 7, "THIEF": 1, "MASTER": 1}, {"2": 1}, {}, {"3": 1}]
    assert game(d).legal_actions() == [0]
    d["options"]["hand_limit_mode"] = "draw_only"
    assert game(d).legal_actions() == [0, 186, 188, 190]


def test_e13_dead_plays():
    d = blank(3)
    d["hands"][0] = {"DOG": 1, "BONE": 1, "DRILL": 1, "WRECK": 1, "THIEF": 1, "MASTER": 1}
    g = game(d)
    assert g.legal_actions() == [0]
    d["options"]["allow_dead_plays"] = True
    g = game(d)
    assert g.legal_actions() == [0, 200, 201, 202, 203, 206, 207]
    g.apply(201)
    d2 = g.to_dict()
    assert d2["discard"] == {"BONE": 1} and d2["played"][0] == {"BONE": 1}
    assert d2["current"] == 0 and d2["phase"] == "play"
    # with a target the card is no longer a dead play
    d["buildings"][1] = [fl("1", "8", dogs=1)]
    d["hands"][1] = {"5": 1}
    g = game(d)
    # BONE p1 f0, WRECK p1, THIEF p1, MASTER; DOG (no own floor) and DRILL (guarded
    # top floor) stay dead plays
    assert g.legal_actions() == [0, 119, 178, 186, 190, 200, 202]


def test_dogs_placement_moves_and_wreck():
    d = blank(2)
    d["buildings"][0] = [fl("1", "8"), fl("2", "7"), fl("3", "6")]
    d["hands"][0] = {"DOG": 2, "4": 1, "5": 1}
    g = game(d)
    assert g.legal_actions() == [0, 4, 29, 30, 31]
    g.apply(31)
    assert g.legal_actions() == [0, 4, 29, 30]  # one dog per floor
    d["options"]["dog_placement"] = "top_only"
    assert game(d).legal_actions() == [0, 4, 31]
    d["options"]["dog_placement"] = "any_own_floor"
    d["options"]["dog_moves_up"] = True
    g = game(d)
    g.apply(31)
    g.apply(4)
    assert [f["dogs"] for f in g.to_dict()["buildings"][0]] == [0, 0, 0, 1]
    d["options"]["dog_moves_up"] = False
    g = game(d)
    g.apply(31)
    g.apply(4)
    assert [f["dogs"] for f in g.to_dict()["buildings"][0]] == [0, 0, 1, 0]
    # wrecking ball on a guarded top floor discards the dog with the cards
    d = blank(2)
    d["buildings"][1] = [fl("1", "8"), fl("3", "6", dogs=1)]
    d["hands"][0] = {"WRECK": 1, "DRILL": 1}
    g = game(d)
    assert g.legal_actions() == [0, 178]
    g.apply(178)
    d2 = g.to_dict()
    assert d2["buildings"][1] == [fl("1", "8")]
    assert d2["discard"] == {"3": 1, "6": 1, "DOG": 1, "WRECK": 1}
    assert g.legal_actions() == [0, 174]


def test_discard_to_8_phase():
    d = blank(2, hand_limit_mode="discard_to_8")
    d["hands"] = [{"1": 5, "2": 3, "DOG": 2}, {}]
    d["deck"] = ["3"]
    g = game(d)
    g.apply(0)
    assert g.phase == "discard" and g.current == 0
    assert g.legal_actions() == [191, 192, 200]
    g.apply(200)
    assert g.phase == "discard" and g.legal_actions() == [191, 192, 200]
    g.apply(191)
    d2 = g.to_dict()
    assert d2["phase"] == "play" and d2["current"] == 1
    assert d2["hands"] == [{"1": 4, "2": 3, "DOG": 1}, {"3": 1}]
    assert d2["discard"] == {"1": 1, "DOG": 1} and d2["played"][0] == {}
    assert d2["decisions"] == 3


def test_max_turns_limit():
    d = blank(2, max_turns=10)
    # each seat could build (so the game is not a deadlock) but ends its turn
    d["hands"] = [{"1": 1, "8": 1}, {"2": 1, "7": 1}]
    g = game(d)
    for _ in range(9):
        g.apply(0)
    assert g.turn == 10 and not g.is_terminal()
    g.apply(0)
    d2 = g.to_dict()
    assert (d2["phase"], d2["end_reason"], d2["winner"]) == ("over", "limit", -1)
    assert d2["turn"] == 10 and d2["current"] == 1 and d2["decisions"] == 10


def _stuck_hands(d):
    """Seat 0 holds 1s and 2s, seat 1 3s and 4s (8 cards each, the hand limit: no draw); no
    building anywhere: nobody can build, steal or play a special card."""
    d["hands"] = [{"1": 4, "2": 4}, {"3": 4, "4": 4}]
    d["deck"] = ["DOG", "5", "6"]
    return d


def test_deadlock_ends_the_game():
    g = game(_stuck_hands(blank(2)))
    assert g.legal_actions() == [0] and not g.is_terminal()
    g.apply(0)  # seat 1's turn begins: 8 cards, no draw, only END_TURN for either seat
    d2 = g.to_dict()
    assert (d2["phase"], d2["end_reason"], d2["winner"]) == ("over", "deadlock", -1)
    assert d2["turn"] == 2 and d2["current"] == 1 and d2["decisions"] == 1
    assert d2["deck"] == ["DOG", "5", "6"] and g.legal_actions() == []


def test_deadlock_needs_every_seat_stuck():
    d = _stuck_hands(blank(2))
    d["hands"][0] = {"1": 4, "2": 3, "MILK": 1}  # seat 0 could still milkshake seat 1
    g = game(d)
    g.apply(0)
    assert not g.is_terminal() and g.to_dict()["end_reason"] == "none"
    d = _stuck_hands(blank(2))
    d["hands"][1] = {"3": 4, "4": 3}  # seat 1 draws the 6 (7 < 8 cards) and may build 3+6
    g = game(d)
    g.apply(0)
    assert not g.is_terminal() and sum(g.to_dict()["hands"][1].values()) == 8
    d = _stuck_hands(blank(2, allow_dead_plays=True))
    d["hands"][1] = {"3": 4, "4": 3, "DRILL": 1}  # D14: the drill may be played for nothing
    g = game(d)
    g.apply(0)
    assert not g.is_terminal()


# ------------------------------------------------------------------ random games


def card_totals(d):
    tot = {}

    def add(name, k=1):
        tot[name] = tot.get(name, 0) + k

    for name in d["deck"]:
        add(name)
    for name, k in d["discard"].items():
        add(name, k)
    for h in d["hands"]:
        for name, k in h.items():
            add(name, k)
    for b in d["buildings"]:
        for f in b:
            add(f["cards"][0])
            add(f["cards"][1])
            add("DOG", f["dogs"])
    add("MILK", sum(d["milk_in_front"]))
    return {k: v for k, v in tot.items() if v}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_card_conservation(n):
    expected = dict(DEFAULT_DATA["card_counts"])
    for i in range(200):
        g = GoTownRef(n, seed_for(2024, i))
        rnd = random.Random(i)
        k = 0
        while not g.is_terminal():
            la = g.legal_actions()
            assert la == sorted(set(la)) and la and all(0 <= a < NUM_ACTIONS for a in la)
            g.apply(rnd.choice(la))
            k += 1
            if i < 10 or g.is_terminal():
                assert card_totals(g.to_dict()) == expected
        assert g.end_reason in ("target", "limit", "deadlock")
        if g.end_reason == "target":
            assert g.scores()[g.winner] == 5
            assert g.to_dict()["current"] == g.winner
        assert g.decisions == k


def test_to_dict_layout():
    g = play_random_game(3, 11, bot_seed=3)
    d = g.to_dict()
    assert list(d) == ["game", "n_players", "options", "data", "rng", "current", "phase",
                       "turn", "decisions", "deck", "discard", "hands", "buildings",
                       "pending_skips", "milk_in_front", "played", "winner", "end_reason"]
    assert list(d["options"]) == list(DEFAULT_OPTIONS)
    assert d["rng"].startswith("0x") and len(d["rng"]) == 18 and d["rng"] == d["rng"].lower()
    for counts in [d["discard"], *d["hands"], *d["played"]]:
        assert all(v > 0 for v in counts.values())
        assert list(counts) == sorted(counts, key=CARD_NAMES.index)
    with pytest.raises(ValueError):
        bad = dict(d)
        del bad["turn"]
        GoTownRef.from_dict(bad)


@pytest.mark.parametrize("options", [
    {"target_floors": 4},
    {"win_check": "end_of_turn"},
    {"hand_limit_mode": "discard_to_8"},
    {"hand_limit_mode": "cap_gain"},
    {"donut_scope": "all"},
    {"reshuffle_timing": "eager"},
    {"allow_dead_plays": True, "skip_stacking": "no_stack", "skip_means": "no_play_but_refill"},
    {"dog_moves_up": True, "dogs_per_floor_max": 2, "dog_on_others": True, "bone_on_own": True,
     "destroy_self_allowed": True, "milk_on_self": True, "bone_target": "top_only",
     "dog_placement": "top_only", "milk_discard": "immediate", "first_player": "random"},
])
def test_option_variants_play_to_the_end(options):
    target = options.get("target_floors", 5)
    expected = dict(DEFAULT_DATA["card_counts"])
    for i in range(100):
        n = 2 + i % 3
        g = play_random_game(n, seed_for(31, i), options, bot_seed=i)
        assert g.is_terminal() and g.legal_actions() == []
        assert card_totals(g.to_dict()) == expected
        if g.end_reason == "target":
            assert g.scores()[g.winner] >= target
            if options.get("win_check", "immediate") == "immediate":
                assert g.scores()[g.winner] == target
