"""Tests of the plain-Python Three Little Wolves reference on its own.

Positions are built with ``from_dict`` from a blank state dict (``blank``), following the
worked examples E1..E11 of the rules spec (shared/rules/three_little_wolves.md, section 6)
and the contract docs/games/three_little_wolves.md. The position tests use only
``from_dict``/``to_dict``/``legal_actions``/``apply``/``is_terminal``/``scores`` (and
``winners``/``ranks``/``results`` for scoring), so they can run on the engine by swapping
``IMPL["cls"]``.
"""

import copy
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.reference.three_little_wolves import (  # noqa: E402
    CARD_SETS,
    DEFAULT_DATA,
    DEFAULT_NAMES,
    DEFAULT_OPTIONS,
    NUM_ACTIONS,
    SEAT_DETAIL_COLUMNS,
    Rng,
    ThreeLittleWolvesRef,
    action_to_string,
    card_names,
    play_random_game,
    seed_for,
)

RNG0 = "0x00000000000000a5"

# the implementation the position tests run on (the engine can be swapped in)
IMPL = {"cls": ThreeLittleWolvesRef}


def game(d):
    return IMPL["cls"].from_dict(copy.deepcopy(d))


def cid(name):
    return DEFAULT_NAMES.index(name)


def FLOOR(name, k):          # k 0..2 own house, 3 new house
    return 4 * cid(name) + k


def BASE(name, h):
    return 224 + 3 * cid(name) + h


def WOLF(name):
    return 392 + cid(name)


def PLACE(v, o, h):
    return 448 + 12 * v + 3 * o + h


def DISCARD(name):
    return 484 + cid(name)


def PASS(name):
    return 540 + cid(name)


def PIG_TIE(h):
    return 596 + h


def DUMMY_FLOOR(h):
    return 599 + h


def DUMMY_NEW(c):
    return 602 + "RYG".index(c)


def DUMMY_BASE(h):
    return 605 + h


DUMMY_DISCARD = 608


def COMMIT(name):
    return 609 + cid(name)


def house(colour, floors, basements=(), pig=0, wolves=()):
    return {"colour": colour, "floors": list(floors), "basements": list(basements),
            "pig": pig, "wolves": [list(w) for w in wolves]}


def blank(n, **options):
    """A state dict for n players: empty deck/hands/houses, seat 0 to play, turn 1."""
    d = ThreeLittleWolvesRef(n, 0).to_dict()
    opts = dict(DEFAULT_OPTIONS)
    opts.update(options)
    d["options"] = opts
    d["data"]["suit"] = [list(r) for r in CARD_SETS[opts["card_set"]]]
    d.update({
        "rng": RNG0, "stage": "normal", "phase": "play", "current": 0, "turn_player": 0,
        "turn": 1, "decisions": 0, "deck": [], "hands": [[] for _ in range(n)],
        "discard": [], "houses": [[] for _ in range(3 if n == 2 else n)],
        "wolves_left": [[3, 4, 5] for _ in range(n)], "pigs_revealed": [],
        "pig_tokens_left": [2, 3, 4], "pig_tokens_lost": [],
        "mustache": 0 if n == 2 else -1, "drawer": -1, "pig_card": None, "effect_step": 0,
        "tie_houses": [], "passing": [None] * n, "final_left": 0, "round_step": 0,
        "committed": [None] * n, "dummy_card": None, "cards_under_last_pig": -1,
        "stats": [{"build": 0, "wolf": 0, "discard": 0} for _ in range(n)],
        "end_reason": "none",
    })
    return d


def height(h, suit=None, icon_top=True):
    """Height of a house dict by contract section 4 (default suit)."""
    suit = suit or CARD_SETS["cards_v1"]
    c = len(h["floors"]) + len(h["basements"])
    v = suit[cid(h["floors"][-1]) % 14][1]
    return c - 1 + v if (icon_top and v > 0) else c


# --------------------------------------------------------------------------- RNG / setup


def test_rng_is_the_go_town_splitmix():
    r = Rng(0)
    assert [r.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_constants_and_names():
    assert NUM_ACTIONS == 665
    assert len(DEFAULT_OPTIONS) == 20
    assert DEFAULT_NAMES[:14] == ["R1", "R2", "R3", "R4", "R5", "R5*", "R6", "R7", "R8", "R9",
                                  "R9*", "R10", "R11", "R12"]
    assert DEFAULT_NAMES[42:] == ["W1", "W2", "W3", "W4", "W5", "W5*", "W6", "W7", "W8", "W9",
                                  "W9*", "W10", "W11", "W12", "PIG1", "PIG2", "PIG3"]
    assert len(set(DEFAULT_NAMES)) == 59
    for cs in CARD_SETS.values():
        assert card_names(cs) == DEFAULT_NAMES
    assert CARD_SETS["cards_v1"][5] == [5, 2, 0] and CARD_SETS["cards_v0"][5] == [5, 0, 0]
    assert CARD_SETS["cards_v2"][10] == [9, 3, 0] and CARD_SETS["cards_v1"][10] == [9, 2, 0]
    assert [r[2] for r in CARD_SETS["cards_v1"]] == [0] * 7 + [-2, 0, 0, 0, 0, 3, 2]
    suit = [[1, 0, 0]] * 3 + [[4 + i, 0, 0] for i in range(11)]
    assert card_names(suit)[:4] == ["R1", "R1*", "R1**", "R4"]
    assert DEFAULT_DATA["bottom_packet"] == 5 and DEFAULT_DATA["pig_tokens"] == [2, 3, 4]


def test_action_encoding_literal_ids():
    assert FLOOR("R1", 0) == 0 and FLOOR("W12", 3) == 223
    assert BASE("R1", 0) == 224 and BASE("W12", 2) == 391
    assert WOLF("R1") == 392 and WOLF("W12") == 447
    assert PLACE(0, 0, 0) == 448 and PLACE(2, 3, 2) == 483
    assert DISCARD("R1") == 484 and DISCARD("W12") == 539
    assert PASS("R1") == 540 and PASS("W12") == 595
    assert COMMIT("R1") == 609 and COMMIT("W12") == 664
    assert action_to_string(FLOOR("Y5*", 3)) == "FLOOR Y5* new"
    assert action_to_string(PLACE(2, 1, 0)) == "PLACE v2 o1 h0"
    assert action_to_string(608) == "DUMMY_DISCARD"


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("hand_size", [4, 5])
def test_setup_matches_manual_procedure(n, hand_size):
    seed = 0xC0FFEE + 17 * n + hand_size
    g = ThreeLittleWolvesRef(n, seed, {"hand_size": hand_size})
    r = Rng(seed)
    P = list(range(56))
    r.shuffle(P)
    hands = []
    for _ in range(n):
        hands.append(sorted(P.pop() for _ in range(hand_size)))
    K = [P.pop() for _ in range(5)]
    j = r.rand_below(3)
    K.append(56 + j)
    r.shuffle(K)
    U = P + [56 + i for i in range(3) if i != j]
    r.shuffle(U)
    deck = K + U
    d = g.to_dict()
    assert d["rng"] == "0x%016x" % r.state
    assert d["deck"] == [DEFAULT_NAMES[c] for c in deck]
    assert len(d["deck"]) == 56 - hand_size * n + 3
    assert d["hands"] == [[DEFAULT_NAMES[c] for c in h] for h in hands]
    assert (d["stage"], d["phase"], d["current"], d["turn_player"], d["turn"]) == (
        "normal", "play", 0, 0, 1)
    assert d["mustache"] == (0 if n == 2 else -1)
    assert d["wolves_left"] == [[3, 4, 5]] * n and d["pig_tokens_left"] == [2, 3, 4]
    assert d["houses"] == [[] for _ in range(3 if n == 2 else n)]
    assert d["cards_under_last_pig"] == -1 and d["end_reason"] == "none"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_e10_setup_invariants(n):
    for i in range(60):
        g = ThreeLittleWolvesRef(n, seed_for(10, i))
        d = g.to_dict()
        deck = d["deck"]
        assert len(deck) == 59 - 5 * n
        bottom = [x for x in deck[:6] if x.startswith("PIG")]
        assert len(bottom) == 1
        assert sum(x.startswith("PIG") for x in deck[6:]) == 2
        rnd = random.Random(i)
        while not g.is_terminal():
            g.apply(rnd.choice(g.legal_actions()))
        d = g.to_dict()
        assert d["pigs_revealed"][2] == bottom[0]
        assert 0 <= d["cards_under_last_pig"] <= 5
        assert d["cards_under_last_pig"] == deck.index(bottom[0])


def test_bad_options_and_data_raise():
    for bad in ({"nope": 1}, {"hand_size": 6}, {"card_set": "cards_v9"},
                {"variant_kids": 1}, {"dummy_policy": "holder_greedy"}):
        with pytest.raises(ValueError):
            ThreeLittleWolvesRef(2, 0, bad)
    with pytest.raises(ValueError):
        ThreeLittleWolvesRef(5, 0)
    with pytest.raises(ValueError):
        ThreeLittleWolvesRef(2, 0, data={"suit": [[1, 0, 0]] * 13})
    with pytest.raises(ValueError):
        ThreeLittleWolvesRef(2, 0, data={"nonsense": 1})
    g = ThreeLittleWolvesRef(3, 0, {"card_set": "cards_v2"})
    assert g.to_dict()["data"]["suit"][10] == [9, 3, 0]


# ------------------------------------------------------------------ worked examples


def test_e1_legal_builds():
    d = blank(3)
    d["houses"][0] = [house("R", ["R4"])]
    d["hands"][0] = ["R9", "Y2", "W6"]
    d["deck"] = ["G1", "G2", "G3"]
    g = game(d)
    assert g.legal_actions() == [FLOOR("R9", 0), FLOOR("Y2", 3), FLOOR("W6", 0),
                                 FLOOR("W6", 3)] == [36, 63, 192, 195]
    g.apply(192)
    d2 = g.to_dict()
    assert d2["houses"][0] == [house("R", ["R4", "W6"])]
    assert d2["hands"][0] == ["R9", "Y2", "G3"]
    assert (d2["current"], d2["turn_player"], d2["turn"], d2["decisions"]) == (1, 1, 2, 1)
    assert d2["stats"][0] == {"build": 1, "wolf": 0, "discard": 0}
    d["houses"][0] = d2["houses"][0]
    d["hands"][0] = ["R9", "Y2"]
    g = game(d)
    assert g.legal_actions() == [FLOOR("R9", 0), FLOOR("Y2", 3)]
    g.apply(FLOOR("R9", 0))
    h = g.to_dict()["houses"][0][0]
    assert h == house("R", ["R4", "W6", "R9"]) and height(h) == 3
    d["houses"][0] = [h]
    d["hands"][0] = ["Y2"]
    g = game(d)
    g.apply(FLOOR("Y2", 3))
    assert g.to_dict()["houses"][0] == [h, house("Y", ["Y2"])]


def test_e2_illegal_builds():
    d = blank(3)
    d["houses"][0] = [house("R", ["R4", "W6", "R9"]), house("Y", ["Y2", "Y5"]),
                      house("G", ["G8"])]
    d["hands"][0] = ["R7", "R10", "Y11", "W3", "W8"]
    d["deck"] = ["G1", "G2"]
    g = game(d)
    la = g.legal_actions()
    assert la == [44, 105, 201, 356, 357, 358]
    assert la == [FLOOR("R10", 0), FLOOR("Y11", 1), FLOOR("W8", 1), BASE("W3", 0),
                  BASE("W3", 1), BASE("W3", 2)]
    for a in (FLOOR("R7", 0), FLOOR("W8", 2), FLOOR("R10", 3), FLOOR("Y11", 2),
              FLOOR("W3", 0), FLOOR("W3", 1), FLOOR("W3", 2)):
        assert a not in la
        with pytest.raises(ValueError):
            game(d).apply(a)
    g.apply(BASE("W3", 1))
    yh = g.to_dict()["houses"][0][1]
    assert yh == house("Y", ["Y2", "Y5"], ["W3"]) and height(yh) == 3


def test_e3_basements():
    d = blank(3)
    d["houses"][0] = [house("R", ["R5", "R8"])]
    d["hands"][0] = ["R1", "R2", "R3", "Y2", "W1"]
    d["deck"] = ["G1", "G2"]
    g = game(d)
    assert g.legal_actions() == [FLOOR("Y2", 3), FLOOR("W1", 3), BASE("R1", 0), BASE("R2", 0),
                                 BASE("R3", 0), BASE("W1", 0)] == [63, 171, 224, 227, 230, 350]
    assert BASE("Y2", 0) not in g.legal_actions()
    g.apply(BASE("R2", 0))
    h = g.to_dict()["houses"][0][0]
    assert h == house("R", ["R5", "R8"], ["R2"]) and height(h) == 3
    d["houses"][0] = [h]
    d["hands"][0] = ["R1", "R3", "Y2", "W1"]
    g = game(d)
    la = g.legal_actions()
    assert BASE("R1", 0) not in la and BASE("W1", 0) not in la
    assert la == [FLOOR("Y2", 3), FLOOR("W1", 3), BASE("R3", 0)]
    g.apply(BASE("R3", 0))
    h = g.to_dict()["houses"][0][0]
    assert h == house("R", ["R5", "R8"], ["R2", "R3"]) and height(h) == 4
    # after B3 nothing goes below; the B3 house holds two wolves (E5)
    d["houses"][0] = [h]
    d["hands"][0] = ["R1", "W1", "W2"]
    g = game(d)
    assert g.legal_actions() == [FLOOR("W1", 3), FLOOR("W2", 3)]
    # a brand-new player: R1 starts a house as a floor, never as a basement
    d = blank(3)
    d["hands"][0] = ["R1"]
    d["deck"] = ["G1"]
    g = game(d)
    assert g.legal_actions() == [FLOOR("R1", 3)] == [3]
    g.apply(3)
    assert g.to_dict()["houses"][0] == [house("R", ["R1"])]


def test_e5_wolf_placement():
    d = blank(3)
    d["houses"][0] = [house("G", ["G6", "G8", "G12"], ["G3"], wolves=[[2, 5]])]
    d["houses"][1] = [house("R", ["R4"], wolves=[[2, 3]])]
    d["wolves_left"] = [[3, 4, 5], [3, 4, 5], [4]]
    d["current"] = d["turn_player"] = 1
    d["hands"][1] = ["R1"]
    d["deck"] = ["Y1"]
    g = game(d)
    assert g.legal_actions() == [BASE("R1", 0), WOLF("R1")] == [224, 392]
    g.apply(392)
    d2 = g.to_dict()
    assert (d2["phase"], d2["current"]) == ("wolf", 1)
    assert d2["discard"] == ["R1"] and d2["hands"][1] == []
    assert d2["stats"][1] == {"build": 0, "wolf": 1, "discard": 0}
    assert g.legal_actions() == [PLACE(0, 0, 0), PLACE(1, 0, 0), PLACE(2, 0, 0)] == [
        448, 460, 472]
    g.apply(472)
    d2 = g.to_dict()
    assert d2["houses"][0][0]["wolves"] == [[2, 5], [1, 5]]
    assert d2["wolves_left"][1] == [3, 4]
    assert d2["hands"][1] == ["Y1"] and (d2["current"], d2["phase"]) == (2, "play")
    # a third wolf is illegal; P1's red is closed (one wolf, no B3); no own houses
    d3 = copy.deepcopy(d2)
    d3["hands"][2] = ["W9"]
    g = game(d3)
    assert g.legal_actions() == [FLOOR("W9", 3)]
    # P0 may not place on P1's full red house; with P2 owning a house P0 may
    d = blank(3)
    d["houses"][1] = [house("R", ["R4"], wolves=[[2, 3]])]
    d["hands"][0] = ["R12"]
    assert game(d).legal_actions() == [FLOOR("R12", 3)]
    d["houses"][2] = [house("Y", ["Y4"])]
    assert game(d).legal_actions() == [FLOOR("R12", 3), WOLF("R12")]
    d["wolves_left"][0] = []
    assert game(d).legal_actions() == [FLOOR("R12", 3)]
    # 2p: the dummy's houses are legal targets
    d = blank(2)
    d["houses"][2] = [house("G", ["G4"])]
    d["hands"][0] = ["R12"]
    d["phase"] = "wolf"
    assert game(d).legal_actions() == [PLACE(0, 2, 0), PLACE(1, 2, 0), PLACE(2, 2, 0)]


def test_wolf_rule_options():
    d = blank(3)
    d["houses"][1] = [house("G", ["G6"], ["G3"], wolves=[[0, 4]]), house("R", ["R4"], ["R2"])]
    d["wolves_left"][0] = [3, 5]
    d["phase"] = "wolf"
    d["hands"][0] = ["Y1"]
    assert game(d).legal_actions() == [PLACE(0, 1, 0), PLACE(0, 1, 1), PLACE(2, 1, 0),
                                       PLACE(2, 1, 1)]
    d["options"]["b3_same_player"] = False
    assert game(d).legal_actions() == [PLACE(0, 1, 1), PLACE(2, 1, 1)]
    d["options"]["wolf_order_free"] = False
    assert game(d).legal_actions() == [PLACE(0, 1, 1)]
    d["options"].update(b3_same_player=True, wolf_order_free=True,
                        wolf_two_slot_rule="any_basement")
    d["houses"][1][1]["wolves"] = [[2, 3]]
    assert game(d).legal_actions() == [PLACE(0, 1, 0), PLACE(0, 1, 1), PLACE(2, 1, 0),
                                       PLACE(2, 1, 1)]
    d["options"]["wolf_two_slot_rule"] = "B3"
    assert game(d).legal_actions() == [PLACE(0, 1, 0), PLACE(2, 1, 0)]
    # kids variant: own houses only
    d = blank(3, variant_kids=True)
    d["houses"][0] = [house("Y", ["Y4"])]
    d["houses"][1] = [house("G", ["G6"])]
    d["hands"][0] = ["R12"]
    assert game(d).legal_actions() == [FLOOR("R12", 3), WOLF("R12")]
    g = game(d)
    g.apply(WOLF("R12"))
    assert g.legal_actions() == [PLACE(0, 0, 0), PLACE(1, 0, 0), PLACE(2, 0, 0)]


def test_e6_end_phase_turn_count():
    d = blank(4)
    d["houses"] = [[house("R", ["R1", "R2", "R3"], pig=2)], [house("Y", ["Y1", "Y2"], pig=3)],
                   [house("G", ["G4"])], [house("R", ["R9"])]]
    d["pigs_revealed"] = ["PIG1", "PIG2"]
    d["pig_tokens_left"] = [4]
    d["hands"] = [["W1", "W2"], ["W3", "W4"], ["G5", "W5", "W6"], ["W7", "W8"]]
    d["deck"] = ["Y11", "Y12", "PIG3"]
    d["current"] = d["turn_player"] = 2
    d["turn"] = 30
    g = game(d)
    g.apply(FLOOR("G5", 0))
    d2 = g.to_dict()
    assert d2["houses"][2][0] == house("G", ["G4", "G5"], pig=4)
    assert d2["pig_tokens_left"] == [] and d2["pigs_revealed"] == ["PIG1", "PIG2", "PIG3"]
    assert d2["deck"] == ["Y11", "Y12"] and d2["cards_under_last_pig"] == 2
    assert d2["hands"][2] == ["W5", "W6"]          # no replacement draw
    assert (d2["stage"], d2["final_left"], d2["drawer"], d2["pig_card"]) == (
        "final", 8, -1, None)
    order = []
    while not g.is_terminal():
        d2 = g.to_dict()
        if d2["phase"] == "play":
            order.append(d2["current"])
            assert d2["turn_player"] == d2["current"] and d2["turn"] == 31 + len(order) - 1
        g.apply(g.legal_actions()[0])
    assert order == [3, 0, 1, 2, 3, 0, 1, 2]
    d2 = g.to_dict()
    assert (d2["stage"], d2["phase"], d2["current"], d2["end_reason"]) == (
        "over", "over", -1, "scored")
    assert d2["deck"] == ["Y11", "Y12"] and d2["turn"] == 38 and d2["final_left"] == 0
    assert d2["hands"] == [[], [], [], []]


def _e8_state(shared=False):
    d = blank(3)
    d["stage"] = d["phase"] = "over"
    d["current"] = -1
    d["end_reason"] = "scored"
    d["houses"] = [
        [house("R", ["R1", "R2"], wolves=[[1, 3]]), house("Y", ["Y1", "Y2"], wolves=[[1, 4]]),
         house("G", ["G1", "G2"])],
        [house("R", ["R3", "R10" if shared else "R11"]),
         house("Y", ["Y5", "Y6" if shared else "Y7"]), house("G", ["G3", "G4"],
                                                             wolves=[[0, 4]])],
        [house("R", ["R4", "R5", "R6"], wolves=[[0, 5]]), house("Y", ["Y8"], wolves=[[0, 3]])],
    ]
    d["wolves_left"] = [[], [5], [3, 4, 5]]
    if shared:
        d["houses"][0][1]["wolves"] = [[1, 5]]
        d["wolves_left"][1] = [4]
    return d


def test_e8_tie_break():
    g = game(_e8_state())
    assert g.is_terminal() and g.legal_actions() == []
    assert g.scores() == [20, 20, 6]
    assert g.winners() == [0]
    assert g.ranks() == [1, 2, 3]
    g = game(_e8_state(shared=True))
    assert g.scores() == [20, 20, 6]
    assert g.winners() == [0, 1]
    assert g.ranks() == [1, 1, 3]
    # tie-break on standing wolf values instead: A 9 beats B 8
    d = _e8_state(shared=True)
    d["options"]["tiebreak_wolf_net"] = False
    g = game(d)
    assert g.winners() == [0] and g.ranks() == [1, 2, 3]


def test_e8_results_detail():
    g = ThreeLittleWolvesRef.from_dict(_e8_state())
    r = g.results()
    sd = r["seat_detail"]
    assert list(sd) == list(SEAT_DETAIL_COLUMNS)
    assert sd["pts_houses"] == [12, 12, 4]
    assert sd["pts_collapses"] == [0, 0, -1]
    assert sd["pts_bonuses"] == [0, 0, 3]
    assert sd["pts_pigs"] == [0, 0, 0]
    assert sd["pts_wolves"] == [8, 7, 0]
    assert sd["pts_marks"] == [0, 1, 0]
    assert sd["houses_built"] == [3, 3, 2] and sd["houses_collapsed"] == [0, 0, 1]
    assert sd["houses_saved_by_tie"] == [2, 2, 0]      # red and green minima shared
    assert sd["bonus_lost_to_tie"] == [2, 2, 0]        # yellow and green maxima shared
    assert sd["wolves_placed"] == [3, 2, 0] and sd["wolves_standing"] == [2, 2, 0]
    assert r["win_share"] == [1.0, 0.0, 0.0] and r["tiebreak"] == [8, 7, 0]
    for p in range(3):
        assert sum(sd[k][p] for k in SEAT_DETAIL_COLUMNS[:6]) == r["scores"][p]


def _dummy_turn_state(dummy_card, dummy_houses, mustache=0, **options):
    """2p: B (seat 1) to play Y1 as a new house; B draws Y12, the dummy reveals dummy_card."""
    d = blank(2, **options)
    d["houses"][2] = dummy_houses
    d["hands"] = [["G12"], ["Y1"]]
    d["current"] = d["turn_player"] = 1
    d["mustache"] = mustache
    d["turn"] = 8
    d["deck"] = ["W12", dummy_card, "Y12"]
    return d


def test_e11_dummy_neutral_placement():
    houses = [house("R", ["R6"]), house("Y", ["Y9"])]
    steps = [
        ("R4", [house("R", ["R6"]), house("Y", ["Y9"])], ["R4"], 0),
        ("R2", [house("R", ["R6"], ["R2"]), house("Y", ["Y9"])], [], 0),
        ("W7", [house("R", ["R6", "W7"]), house("Y", ["Y9"])], [], 1),
        ("G1", [house("R", ["R6"]), house("Y", ["Y9"]), house("G", ["G1"])], [], 0),
    ]
    for card, after, discard, mustache in steps:
        g = game(_dummy_turn_state(card, houses))
        g.apply(FLOOR("Y1", 3))
        d2 = g.to_dict()
        assert d2["houses"][2] == after
        assert d2["discard"] == discard and d2["mustache"] == mustache
        assert d2["hands"][1] == ["Y12"] and d2["deck"] == ["W12"]
        assert (d2["current"], d2["turn_player"], d2["turn"], d2["phase"]) == (0, 0, 9, "play")
    # chained as in the example: R2 goes below, then W7 on red above it
    d = _dummy_turn_state("R2", houses)
    d["deck"] = ["G1", "W6", "W5", "W7", "W4", "W3", "R2", "Y12"]
    d["hands"][0] = ["G12", "W11", "W10"]
    d["hands"][1] = ["Y1", "W9", "W8"]
    g = game(d)
    g.apply(FLOOR("Y1", 3))
    d2 = g.to_dict()
    assert d2["houses"][2] == [house("R", ["R6"], ["R2"]), house("Y", ["Y9"])]
    assert (d2["current"], d2["mustache"]) == (0, 0)
    g.apply(FLOOR("G12", 3))
    g.apply(FLOOR("Y12", 0))
    d2 = g.to_dict()
    assert d2["houses"][2] == [house("R", ["R6", "W7"], ["R2"]), house("Y", ["Y9"])]
    assert (d2["current"], d2["mustache"], d2["turn"]) == (0, 1, 11)
    assert d2["hands"][1] == ["W4", "W8", "W9"]
    assert d2["deck"] == ["G1", "W6", "W5"]


def test_dummy_neutral_white_rules():
    # smallest positive gap (ties R < Y < G), then first missing colour, then basement
    for card, houses, after in [
        ("W10", [house("Y", ["Y8"]), house("R", ["R8"])],
         [house("Y", ["Y8"]), house("R", ["R8", "W10"])]),
        ("W10", [house("G", ["G9"]), house("R", ["R7"])],
         [house("G", ["G9", "W10"]), house("R", ["R7"])]),
        ("W3", [house("Y", ["Y8"]), house("R", ["R8"])],
         [house("Y", ["Y8"]), house("R", ["R8"]), house("G", ["W3"])]),
        ("W3", [house("Y", ["Y8"], ["Y1"]), house("G", ["G8"]), house("R", ["R8", "R9"])],
         [house("Y", ["Y8"], ["Y1"]), house("G", ["G8"], ["W3"]), house("R", ["R8", "R9"])]),
        ("W3", [house("Y", ["Y8"]), house("G", ["G8"]), house("R", ["R8"])],
         [house("Y", ["Y8"]), house("G", ["G8"]), house("R", ["R8"], ["W3"])]),
        ("W9", [house("Y", ["Y9"]), house("G", ["G10"]), house("R", ["R12"])],
         [house("Y", ["Y9"]), house("G", ["G10"]), house("R", ["R12"])]),
    ]:
        g = game(_dummy_turn_state(card, houses))
        g.apply(FLOOR("Y1", 3))
        d2 = g.to_dict()
        assert d2["houses"][2] == after, card
        placed = after != houses
        assert d2["mustache"] == (1 if placed else 0)
        assert d2["discard"] == ([] if placed else [card])


def test_dummy_holder_choice():
    houses = [house("R", ["R6"]), house("Y", ["Y9"])]
    g = game(_dummy_turn_state("W7", houses, dummy_policy="holder_choice"))
    g.apply(FLOOR("Y1", 3))
    d2 = g.to_dict()
    assert (d2["phase"], d2["current"], d2["turn_player"], d2["dummy_card"]) == (
        "dummy", 0, 2, "W7")
    assert d2["deck"] == ["W12"] and d2["hands"][1] == ["Y12"]
    assert g.legal_actions() == [DUMMY_FLOOR(0), DUMMY_NEW("G")] == [599, 604]
    g.apply(604)
    d2 = g.to_dict()
    assert d2["houses"][2] == houses + [house("G", ["W7"])]
    assert d2["dummy_card"] is None and d2["mustache"] == 1
    assert (d2["phase"], d2["current"], d2["turn_player"], d2["turn"]) == ("play", 0, 0, 9)
    g = game(_dummy_turn_state("R4", houses, mustache=1, dummy_policy="holder_choice"))
    g.apply(FLOOR("Y1", 3))
    assert g.to_dict()["current"] == 1 and g.legal_actions() == [DUMMY_DISCARD]
    g.apply(DUMMY_DISCARD)
    d2 = g.to_dict()
    assert d2["discard"] == ["R4"] and d2["mustache"] == 1 and d2["current"] == 0
    houses = [house("R", ["R6"], ["R1"]), house("Y", ["Y9"])]
    g = game(_dummy_turn_state("W2", houses, dummy_policy="holder_choice"))
    g.apply(FLOOR("Y1", 3))
    assert g.legal_actions() == [DUMMY_NEW("G"), DUMMY_BASE(0), DUMMY_BASE(1)]
    g.apply(DUMMY_BASE(0))
    assert g.to_dict()["houses"][2][0] == house("R", ["R6"], ["R1", "W2"])
    g = game(_dummy_turn_state("R7", houses, dummy_policy="holder_choice"))
    g.apply(FLOOR("Y1", 3))
    assert g.legal_actions() == [DUMMY_FLOOR(0)]


# ------------------------------------------------------------------ building rules


def test_slot_model_and_unassigned_houses():
    d = blank(3)
    d["houses"][0] = [house("-", ["W4"]), house("R", ["R5"])]
    d["hands"][0] = ["R9"]
    d["deck"] = ["G1"]
    assert game(d).legal_actions() == [FLOOR("R9", 1)] == [37]
    d["hands"][0] = ["Y9"]
    g = game(d)
    assert g.legal_actions() == [FLOOR("Y9", 0), FLOOR("Y9", 3)] == [92, 95]
    g.apply(92)
    assert g.to_dict()["houses"][0][0] == house("Y", ["W4", "Y9"])
    d["hands"][0] = ["W9"]
    assert game(d).legal_actions() == [FLOOR("W9", 0), FLOOR("W9", 1), FLOOR("W9", 3)]
    g = game(d)
    g.apply(FLOOR("W9", 3))
    assert g.to_dict()["houses"][0][2] == house("-", ["W9"])


def test_coloured_basement_unassigned_option():
    d = blank(3)
    d["houses"][0] = [house("-", ["W5", "W6"])]
    d["hands"][0] = ["R2"]
    d["deck"] = ["G1"]
    assert game(d).legal_actions() == [FLOOR("R2", 3)] == [7]
    d["options"]["coloured_basement_unassigned"] = True
    g = game(d)
    assert g.legal_actions() == [7, 227]
    g.apply(227)
    assert g.to_dict()["houses"][0] == [house("R", ["W5", "W6"], ["R2"])]
    d["houses"][0].append(house("R", ["R9"]))
    assert game(d).legal_actions() == [BASE("R2", 1)] == [228]


def test_forced_and_pure_discard():
    d = blank(3)
    d["houses"][0] = [house("R", ["R8"], ["R3"]), house("Y", ["Y9"]), house("G", ["G10"])]
    d["hands"][0] = ["R1", "Y7"]
    d["deck"] = ["G1"]
    g = game(d)
    assert g.legal_actions() == [DISCARD("R1"), DISCARD("Y7")] == [484, 505]
    g.apply(505)
    d2 = g.to_dict()
    assert d2["discard"] == ["Y7"] and d2["stats"][0] == {"build": 0, "wolf": 0, "discard": 1}
    assert d2["hands"][0] == ["R1", "G1"]
    d["options"]["pure_discard_allowed"] = True
    assert game(d).legal_actions() == [484, 505]
    d["hands"][0] = ["R1", "Y10"]
    assert game(d).legal_actions() == [FLOOR("Y10", 1), DISCARD("R1"), DISCARD("Y10")] == [
        101, 484, 509]
    d["options"]["pure_discard_allowed"] = False
    assert game(d).legal_actions() == [101]


# ------------------------------------------------------------------ pig cards


def _pig_priority_state(**options):
    d = blank(3, **options)
    d["houses"] = [[house("R", ["R4", "R5"])], [house("Y", ["Y4", "Y5"])],
                   [house("G", ["G4", "G5"])]]
    d["hands"] = [["R1", "R2"], ["Y1", "W12"], ["G1", "G2"]]
    d["current"] = d["turn_player"] = 1
    d["deck"] = ["G12", "PIG1"]
    return d


def test_pig_token_tie_drawer_first_and_last():
    g = game(_pig_priority_state())
    assert g.legal_actions() == [FLOOR("W12", 0), FLOOR("W12", 3), BASE("Y1", 0), WOLF("Y1"),
                                 WOLF("W12")] == [220, 223, 266, 406, 447]
    g.apply(223)                                        # new unassigned house [W12]
    d2 = g.to_dict()
    assert [[h["pig"] for h in hl] for hl in d2["houses"]] == [[0], [2, 0], [0]]
    assert d2["pig_tokens_left"] == [3, 4] and d2["pigs_revealed"] == ["PIG1"]
    assert (d2["phase"], d2["current"], d2["drawer"], d2["pig_card"], d2["effect_step"]) == (
        "pass", 1, 1, "PIG1", 0)
    g = game(_pig_priority_state(pig_tie_drawer_first=False))
    g.apply(223)
    d2 = g.to_dict()
    assert [[h["pig"] for h in hl] for hl in d2["houses"]] == [[0], [0, 0], [2]]


def test_pass_effect_left_right():
    for pig, hands in (("PIG1", [["R2", "G2"], ["R1", "G12"], ["Y1", "G1"]]),
                       ("PIG2", [["R2", "Y1"], ["G2", "G12"], ["R1", "G1"]])):
        d = _pig_priority_state()
        d["deck"] = ["G12", pig]
        g = game(d)
        g.apply(223)
        assert g.legal_actions() == [PASS("Y1")] == [554]
        g.apply(554)
        d2 = g.to_dict()
        assert d2["passing"] == [None, "Y1", None] and d2["hands"][1] == []
        assert (d2["phase"], d2["current"], d2["effect_step"]) == ("pass", 2, 1)
        assert g.legal_actions() == [568, 569]
        g.apply(PASS("G2"))
        assert g.to_dict()["current"] == 0 and g.legal_actions() == [540, 541]
        g.apply(PASS("R1"))
        d2 = g.to_dict()
        assert d2["hands"] == hands, pig
        assert d2["passing"] == [None, None, None] and d2["deck"] == []
        assert (d2["phase"], d2["current"], d2["turn_player"], d2["turn"]) == ("play", 2, 2, 2)
        assert (d2["drawer"], d2["pig_card"], d2["effect_step"]) == (-1, None, 0)
        assert d2["decisions"] == 4


def test_pass_effect_two_players_and_empty_hand():
    d = blank(2)
    d["hands"] = [["R1", "R2"], ["Y1", "Y2"]]
    d["deck"] = ["G9", "G8", "PIG2"]
    g = game(d)
    g.apply(FLOOR("R1", 3))
    d2 = g.to_dict()
    assert d2["houses"][0][0]["pig"] == 2
    assert (d2["phase"], d2["current"]) == ("pass", 0)
    g.apply(PASS("R2"))
    g.apply(PASS("Y2"))
    d2 = g.to_dict()
    assert d2["hands"] == [["Y2", "G8"], ["R2", "Y1"]]
    assert (d2["current"], d2["turn"], d2["deck"]) == (1, 2, ["G9"])
    # a seat with an empty hand is skipped
    d = blank(3)
    d["hands"] = [["R1"], [], ["Y1"]]
    d["deck"] = ["G9", "PIG1"]
    g = game(d)
    g.apply(FLOOR("R1", 3))
    assert g.to_dict()["current"] == 2
    g.apply(PASS("Y1"))
    d2 = g.to_dict()
    assert d2["hands"] == [["Y1", "G9"], [], []] and d2["current"] == 1


def _house_effect_state():
    d = blank(3)
    d["houses"] = [[house("R", ["R4"], wolves=[[2, 5]])], [house("Y", ["Y4"], wolves=[[2, 4]])],
                   [house("G", ["G4"]), house("Y", ["Y5"])]]
    d["wolves_left"] = [[3, 4, 5], [3, 4, 5], [3]]
    d["hands"] = [["R5", "W1"], ["W2"], ["W3"]]
    d["deck"] = ["G12", "PIG3"]
    return d


def test_house_effect_drawer_first_compulsory():
    g = game(_house_effect_state())
    g.apply(FLOOR("R5", 0))
    d2 = g.to_dict()
    assert d2["houses"][0][0]["pig"] == 2
    assert (d2["phase"], d2["current"], d2["drawer"], d2["pig_card"]) == (
        "house", 0, 0, "PIG3")
    assert g.legal_actions() == [PLACE(v, 2, h) for v in range(3) for h in range(2)]
    g.apply(PLACE(2, 2, 1))
    d2 = g.to_dict()
    assert (d2["phase"], d2["current"], d2["effect_step"]) == ("house", 1, 1)
    assert g.legal_actions() == [PLACE(0, 2, 0), PLACE(1, 2, 0), PLACE(2, 2, 0)]
    g.apply(PLACE(0, 2, 0))
    d2 = g.to_dict()                                  # P2 has no target: skipped
    assert d2["houses"][2] == [house("G", ["G4"], wolves=[[1, 3]]),
                               house("Y", ["Y5"], wolves=[[0, 5]])]
    assert d2["wolves_left"] == [[3, 4], [4, 5], [3]]
    assert d2["hands"][0] == ["G12", "W1"] and d2["deck"] == []
    assert (d2["phase"], d2["current"], d2["turn"], d2["drawer"]) == ("play", 1, 2, -1)
    assert d2["stats"][0] == {"build": 1, "wolf": 0, "discard": 0}
    assert d2["stats"][1] == {"build": 0, "wolf": 0, "discard": 0}
    # the kids variant applies no effect (the token is still placed)
    d = _house_effect_state()
    d["options"]["variant_kids"] = True
    g = game(d)
    g.apply(FLOOR("R5", 0))
    d2 = g.to_dict()
    assert d2["houses"][0][0]["pig"] == 2 and d2["current"] == 1 and d2["hands"][0] == [
        "G12", "W1"]
    d["options"]["kids_pig_tokens"] = False
    g = game(d)
    g.apply(FLOOR("R5", 0))
    d2 = g.to_dict()
    assert d2["houses"][0][0]["pig"] == 0
    assert d2["pig_tokens_left"] == [3, 4] and d2["pig_tokens_lost"] == [2]


def test_same_owner_pig_tie():
    d = blank(3)
    d["houses"][0] = [house("-", ["W4", "W5"]), house("R", ["R4", "R5"])]
    d["hands"] = [["G12"], ["Y2"], ["Y3"]]
    d["deck"] = ["G9", "PIG1"]
    g = game(d)
    assert g.legal_actions() == [FLOOR("G12", 0), FLOOR("G12", 3)] == [164, 167]
    g.apply(167)
    d2 = g.to_dict()
    assert (d2["phase"], d2["current"], d2["tie_houses"], d2["drawer"], d2["pig_card"]) == (
        "pig_tie", 0, [0, 1], 0, "PIG1")
    assert g.legal_actions() == [596, 597]
    g.apply(PIG_TIE(0))
    d2 = g.to_dict()
    assert [h["pig"] for h in d2["houses"][0]] == [2, 0, 0]
    assert d2["tie_houses"] == [] and d2["pig_tokens_left"] == [3, 4]
    assert (d2["phase"], d2["current"]) == ("pass", 1)          # P0's hand is empty
    d["options"]["pig_same_owner_tie"] = "colour_order"
    g = game(d)
    g.apply(167)
    d2 = g.to_dict()
    assert [h["pig"] for h in d2["houses"][0]] == [0, 2, 0]
    assert (d2["phase"], d2["current"]) == ("pass", 1)


def test_dummy_pig_drawer_is_mustache():
    def state(mustache, **options):
        d = blank(2, **options)
        d["houses"] = [[house("R", ["R4", "R5"])], [house("Y", ["Y4", "Y5"])],
                       [house("G", ["G4", "G5"]), house("R", ["R6", "R7"])]]
        d["hands"] = [["W1", "W2"], ["Y12", "W3"]]
        d["current"] = d["turn_player"] = 1
        d["mustache"] = mustache
        d["deck"] = ["R12", "G9", "PIG1", "G12"]
        return d

    def pigs(g):
        return [[h["pig"] for h in hl] for hl in g.to_dict()["houses"]]

    g = game(state(1))
    g.apply(FLOOR("W3", 3))                  # B: new house; the dummy reveals PIG1
    assert pigs(g) == [[0], [2, 0], [0, 0]]
    d2 = g.to_dict()
    assert (d2["phase"], d2["current"], d2["drawer"], d2["turn_player"]) == ("pass", 1, 1, 2)
    g = game(state(0))
    g.apply(FLOOR("W3", 3))
    assert pigs(g) == [[2], [0, 0], [0, 0]]
    assert g.to_dict()["current"] == 0
    g = game(state(1, pig_tie_drawer_first=False))
    g.apply(FLOOR("W3", 3))
    assert pigs(g) == [[0], [0, 0], [0, 2]]   # dummy: R before G
    g = game(state(1, pig_tie_drawer_first=False, dummy_gets_pig_tokens=False))
    g.apply(FLOOR("W3", 3))
    assert pigs(g) == [[2], [0, 0], [0, 0]]
    # finish the pass; the dummy then reveals G9: on top of its green house
    g = game(state(1))
    g.apply(FLOOR("W3", 3))
    g.apply(PASS("Y12"))
    g.apply(PASS("W1"))
    d2 = g.to_dict()
    assert d2["hands"] == [["Y12", "W2"], ["G12", "W1"]]
    assert d2["houses"][2][0] == house("G", ["G4", "G5", "G9"])
    assert (d2["current"], d2["turn_player"], d2["deck"]) == (0, 0, ["R12"])


def test_pig_token_lost_or_kept():
    for mode, left, lost in (("lost", [3, 4], [2]), ("kept", [2, 3, 4], [])):
        d = blank(3, pure_discard_allowed=True, unplaced_pig_token=mode)
        d["hands"] = [["R1", "R2"], ["Y1"], ["G1"]]
        d["deck"] = ["G9", "PIG1"]
        g = game(d)
        g.apply(DISCARD("R1"))
        d2 = g.to_dict()
        assert d2["pig_tokens_left"] == left and d2["pig_tokens_lost"] == lost
        assert (d2["phase"], d2["current"]) == ("pass", 0)
    for mode, token in (("lost", 3), ("kept", 2)):
        d = blank(3, unplaced_pig_token=mode)
        d["houses"][0] = [house("R", ["R1"])]
        d["pigs_revealed"] = ["PIG1"]
        d["pig_tokens_left"] = [3, 4] if mode == "lost" else [2, 3, 4]
        d["pig_tokens_lost"] = [2] if mode == "lost" else []
        d["hands"] = [["R2"], ["Y1"], ["G1"]]
        d["deck"] = ["G9", "PIG2"]
        g = game(d)
        assert g.legal_actions() == [FLOOR("R2", 0), BASE("R2", 0)] == [4, 227]
        g.apply(4)
        d2 = g.to_dict()
        assert d2["houses"][0][0]["pig"] == token
        assert sorted(d2["pig_tokens_left"] + [token] + d2["pig_tokens_lost"]) == [2, 3, 4]


def test_two_player_end():
    d = blank(2)
    d["hands"] = [["R4", "R6", "R8"], ["Y4", "Y6"]]
    d["pigs_revealed"] = ["PIG1", "PIG2"]
    d["pig_tokens_left"] = [4]
    d["pig_tokens_lost"] = [2, 3]
    d["deck"] = ["G1", "W7", "PIG3"]
    d["turn"] = 5
    g = game(d)
    g.apply(FLOOR("R4", 3))
    d2 = g.to_dict()
    assert d2["houses"][0] == [house("R", ["R4"], pig=4)]
    assert (d2["stage"], d2["phase"], d2["current"], d2["round_step"]) == (
        "final2p", "commit", 0, 0)
    assert d2["cards_under_last_pig"] == 2 and d2["deck"] == ["G1", "W7"]
    assert g.legal_actions() == [COMMIT("R6"), COMMIT("R8")] == [615, 617]
    g.apply(617)
    d2 = g.to_dict()
    assert d2["committed"] == ["R8", None] and d2["hands"][0] == ["R6", "R8"]
    assert (d2["current"], d2["round_step"], d2["turn"]) == (1, 1, 5)
    g.apply(COMMIT("Y4"))
    d2 = g.to_dict()
    assert (d2["phase"], d2["current"], d2["turn_player"], d2["turn"], d2["round_step"]) == (
        "play", 0, 0, 6, 2)
    assert g.legal_actions() == [FLOOR("R8", 0)] == [32]
    g.apply(32)
    d2 = g.to_dict()
    assert (d2["current"], d2["turn"], d2["round_step"]) == (1, 7, 3)
    assert d2["committed"] == [None, "Y4"]
    assert g.legal_actions() == [FLOOR("Y4", 3), WOLF("Y4")] == [71, 409]
    g.apply(71)                      # then the dummy takes W7 (new red), mustache -> 1
    d2 = g.to_dict()
    assert d2["houses"][2] == [house("R", ["W7"])]
    assert d2["mustache"] == 1 and d2["deck"] == ["G1"]
    assert (d2["phase"], d2["current"], d2["turn_player"], d2["round_step"]) == (
        "commit", 1, 2, 0)
    g.apply(COMMIT("Y6"))
    g.apply(COMMIT("R6"))
    d2 = g.to_dict()
    assert (d2["current"], d2["turn"]) == (1, 8)
    g.apply(FLOOR("Y6", 0))
    assert g.to_dict()["current"] == 0
    assert g.legal_actions() == [WOLF("R6")]
    g.apply(WOLF("R6"))
    assert g.legal_actions() == [451, 454, 463, 466, 475, 478]
    g.apply(PLACE(2, 2, 0))
    d2 = g.to_dict()
    assert g.is_terminal() and d2["end_reason"] == "scored"
    assert d2["houses"] == [[house("R", ["R4", "R8"], pig=4)], [house("Y", ["Y4", "Y6"])],
                            [house("R", ["W7"], wolves=[[0, 5]]), house("G", ["G1"])]]
    assert d2["mustache"] == 0 and d2["deck"] == [] and d2["turn"] == 9
    assert d2["stats"] == [{"build": 2, "wolf": 1, "discard": 0},
                           {"build": 2, "wolf": 0, "discard": 0}]
    assert g.scores() == [10, 7]
    assert g.winners() == [0]


def test_two_player_end_sit_out_and_white_pass():
    d = blank(2)
    d["hands"] = [["R4", "R6"], ["Y4", "Y6", "Y8"]]
    d["pigs_revealed"] = ["PIG1", "PIG2"]
    d["pig_tokens_left"] = [4]
    d["pig_tokens_lost"] = [2, 3]
    d["deck"] = ["W7", "PIG3"]
    g = game(d)
    g.apply(FLOOR("R4", 3))
    seq = []
    while not g.is_terminal():
        d2 = g.to_dict()
        seq.append((d2["phase"], d2["current"], d2["mustache"]))
        g.apply(g.legal_actions()[0])
    assert seq == [("commit", 0, 0), ("commit", 1, 0), ("play", 0, 0), ("play", 1, 0),
                   ("commit", 1, 1), ("play", 1, 1), ("commit", 1, 0), ("play", 1, 0)]
    assert g.to_dict()["hands"] == [[], []]
    d["options"]["final2p_white_pass"] = True
    g = game(d)
    g.apply(FLOOR("R4", 3))
    seq = []
    while not g.is_terminal():
        d2 = g.to_dict()
        seq.append((d2["phase"], d2["current"], d2["mustache"]))
        g.apply(g.legal_actions()[0])
    assert seq == [("commit", 0, 0), ("commit", 1, 0), ("play", 0, 0), ("play", 1, 0),
                   ("commit", 1, 0), ("play", 1, 0), ("commit", 1, 1), ("play", 1, 1)]


def test_empty_deck_draws_are_skipped():
    d = blank(2)
    d["hands"] = [["R1", "R2"], ["Y1", "Y2"]]
    g = game(d)
    g.apply(FLOOR("R1", 3))
    d2 = g.to_dict()
    assert (d2["current"], d2["turn"], d2["hands"][0]) == (1, 2, ["R2"])
    g.apply(FLOOR("Y1", 3))
    d2 = g.to_dict()                          # the dummy's reveal is skipped too
    assert (d2["current"], d2["turn_player"], d2["turn"], d2["houses"][2]) == (0, 0, 3, [])


def test_decision_limit():
    d = blank(3)
    d["hands"][0] = ["R1"]
    d["deck"] = ["G1", "G2"]
    d["decisions"] = 255
    g = game(d)
    g.apply(FLOOR("R1", 3))
    d2 = g.to_dict()
    assert (d2["stage"], d2["phase"], d2["current"], d2["end_reason"], d2["decisions"]) == (
        "over", "over", -1, "limit", 256)
    assert g.is_terminal() and g.legal_actions() == []


# ------------------------------------------------------------------ scoring


def _score_state(houses, **options):
    d = blank(3, **options)
    d["stage"] = d["phase"] = "over"
    d["current"] = -1
    d["end_reason"] = "scored"
    d["houses"] = houses
    return d


def test_icon_height_and_marks():
    houses = [[house("R", ["R1", "R5*"])], [house("R", ["R2", "R3", "R4"])],
              [house("R", ["R6", "R7"])]]
    g = game(_score_state(houses))
    assert g.scores() == [4, 4, -3]
    r = ThreeLittleWolvesRef.from_dict(_score_state(houses)).results()
    assert r["seat_detail"]["bonus_lost_to_tie"] == [1, 1, 0]
    assert r["seat_detail"]["houses_saved_by_tie"] == [0, 0, 0]
    g = game(_score_state(houses, marks_on_collapsed=False))
    assert g.scores() == [4, 4, -1]
    g = game(_score_state(houses, height_rule="card_count"))
    assert g.scores() == [4, 7, 2]
    r = ThreeLittleWolvesRef.from_dict(_score_state(houses, height_rule="card_count")).results()
    assert r["seat_detail"]["houses_saved_by_tie"] == [1, 0, 1]
    assert r["seat_detail"]["bonus_lost_to_tie"] == [0, 0, 0]
    # card set v0: R5* has no icon; v2: W9* counts 3
    d = _score_state(houses, card_set="cards_v0")
    assert game(d).scores() == [4, 7, 2]
    houses = [[house("Y", ["Y1", "W9*"])], [house("Y", ["Y2", "Y3", "Y4"])], []]
    assert game(_score_state(houses)).scores() == [4, 4, 0]
    assert game(_score_state(houses, card_set="cards_v2")).scores() == [7, -1, 0]


def test_lone_houses_unassigned_pigs_and_wolves():
    houses = [[house("Y", ["Y10", "Y11"], pig=3)], [house("-", ["W4", "W5"], pig=2,
                                                          wolves=[[0, 4]])], []]
    assert game(_score_state(houses)).scores() == [4 + 3 + 3 + 3 - 1, -1 - 1, 0]
    assert game(_score_state(houses, lone_house_collapses=True)).scores() == [
        -1 + 3 - 1 + 3 - 1, -2, 0]
    assert game(_score_state(houses, lone_house_collapses=True,
                             lone_house_bonus=False)).scores() == [-1 - 1 + 3 - 1, -2, 0]
    assert game(_score_state(houses, lone_house_bonus=False)).scores() == [4 + 3 + 3 - 1, -2, 0]
    # the dummy's bonus is not awarded; its houses score for nobody; its wolves' placers do
    d = blank(2)
    d["stage"] = d["phase"] = "over"
    d["current"] = -1
    d["houses"] = [[house("G", ["G1", "G2"], wolves=[[1, 3]])], [house("R", ["R9"])],
                   [house("G", ["G5", "G6", "G7"], pig=4, wolves=[[0, 5]]),
                    house("R", ["R10", "R11"], wolves=[[0, 3]])]]
    g = game(d)
    assert g.scores() == [-1 + 5 + 3, -1 - 1]
    assert g.winners() == [0]


def test_scores_while_running_equal_final_formula():
    g = play_random_game(3, 77, bot_seed=1)
    r = g.results()
    assert r["scores"] == g.scores()
    sd = r["seat_detail"]
    for p in range(3):
        assert sum(sd[k][p] for k in SEAT_DETAIL_COLUMNS[:6]) == r["scores"][p]
    assert sd["cards_under_last_pig"] == [g.to_dict()["cards_under_last_pig"]] * 3


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("n", [2, 3, 4])
def test_conservation_over_random_games(n):
    for i in range(100):
        g = ThreeLittleWolvesRef(n, seed_for(2024, i))
        rnd = random.Random(i)
        k = 0
        while not g.is_terminal():
            la = g.legal_actions()
            assert la and la == sorted(set(la)) and all(0 <= a < NUM_ACTIONS for a in la)
            if i < 20:
                g.check_invariants()
            g.apply(rnd.choice(la))
            k += 1
        g.check_invariants()
        d = g.to_dict()
        assert d["end_reason"] == "scored" and d["decisions"] == k and k < 256
        assert len(d["pigs_revealed"]) == 3 and d["drawer"] == -1 and d["pig_card"] is None
        uses = sum(s["build"] + s["wolf"] + s["discard"] for s in d["stats"])
        assert uses == d["turn"]
        if n == 2:
            assert d["hands"] == [[], []]
        else:
            assert sum(len(h) for h in d["hands"]) == n * 3 - 1
            assert len(d["deck"]) == d["cards_under_last_pig"]
        r = g.results()
        assert sum(r["win_share"]) == pytest.approx(1.0)
        assert min(r["rank"]) == 1


def test_to_dict_layout():
    g = play_random_game(2, 11, bot_seed=3)
    d = g.to_dict()
    assert list(d) == ["game", "n_players", "options", "data", "rng", "stage", "phase",
                       "current", "turn_player", "turn", "decisions", "deck", "hands",
                       "discard", "houses", "wolves_left", "pigs_revealed",
                       "pig_tokens_left", "pig_tokens_lost", "mustache", "drawer",
                       "pig_card", "effect_step", "tie_houses", "passing", "final_left",
                       "round_step", "committed", "dummy_card", "cards_under_last_pig",
                       "stats", "end_reason"]
    assert list(d["options"]) == list(DEFAULT_OPTIONS)
    assert list(d["data"]) == list(DEFAULT_DATA)
    assert d["rng"].startswith("0x") and len(d["rng"]) == 18
    assert len(d["houses"]) == 3
    assert d["discard"] == sorted(d["discard"], key=DEFAULT_NAMES.index)
    for hl in d["houses"]:
        for h in hl:
            assert list(h) == ["colour", "floors", "basements", "pig", "wolves"]
    bad = dict(d)
    del bad["turn_player"]
    with pytest.raises(ValueError):
        ThreeLittleWolvesRef.from_dict(bad)


@pytest.mark.parametrize("options", [
    {"card_set": "cards_v0"},
    {"card_set": "cards_v2"},
    {"variant_kids": True},
    {"variant_kids": True, "kids_pig_tokens": False},
    {"hand_size": 4},
    {"wolf_order_free": False},
    {"wolf_two_slot_rule": "any_basement"},
    {"b3_same_player": False},
    {"coloured_basement_unassigned": True},
    {"pure_discard_allowed": True},
    {"pig_tie_drawer_first": False},
    {"pig_same_owner_tie": "colour_order"},
    {"unplaced_pig_token": "kept"},
    {"dummy_gets_pig_tokens": False},
    {"dummy_policy": "holder_choice"},
    {"final2p_white_pass": True},
    {"height_rule": "card_count"},
    {"lone_house_collapses": True},
    {"lone_house_bonus": False},
    {"marks_on_collapsed": False},
    {"tiebreak_wolf_net": False},
])
def test_option_variants_play_to_the_end(options):
    for i in range(60):
        n = 2 + i % 3
        g = play_random_game(n, seed_for(31, i), options, bot_seed=i)
        assert g.is_terminal() and g.legal_actions() == []
        g.check_invariants()
        d = g.to_dict()
        assert d["end_reason"] == "scored"
        for k, v in options.items():
            assert d["options"][k] == v
        if options.get("variant_kids"):
            for o, hl in enumerate(d["houses"]):
                for h in hl:
                    assert all(s == o for s, _v in h["wolves"])
        if options == {"variant_kids": True, "kids_pig_tokens": False}:
            assert d["pig_tokens_lost"] == [2, 3, 4]
