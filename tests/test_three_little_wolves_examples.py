"""The spec's worked examples (shared/rules/three_little_wolves.md §6) run on the engine, with
exact values, from positions built with ``state_from_dict`` (docs/games/three_little_wolves.md
§9); plus the flow rules the examples do not cover (pig tokens, pig effects, the two-player end,
scoring options) and the batch interface.
"""

import json

import numpy as np
import pytest

from sim.core.errors import UserError
from sim.three_little_wolves import data
from sim.three_little_wolves.constants import (
    A_BASE,
    A_COMMIT,
    A_DDISC,
    A_DFLOOR,
    A_DNEW,
    A_PASS,
    A_PIGTIE,
    A_PLACE,
    A_WOLF,
)
from sim.three_little_wolves.game import ThreeLittleWolves

G = ThreeLittleWolves()
NAMES = data.card_names(data.CARD_SETS["cards_v1"])
ID = {n: i for i, n in enumerate(NAMES)}


def FLOOR(card, k):
    return 4 * ID[card] + k


def NEW(card):
    return 4 * ID[card] + 3


def BASE(card, h):
    return A_BASE + 3 * ID[card] + h


def WOLF(card):
    return A_WOLF + ID[card]


def PLACE(value, owner, house):
    return A_PLACE + 12 * (value - 3) + 3 * owner + house


def house(colour, floors, basements=(), pig=0, wolves=()):
    return {"colour": colour, "floors": list(floors), "basements": list(basements),
            "pig": pig, "wolves": [list(w) for w in wolves]}


def mk(n, houses=None, hands=None, deck=(), current=0, options=None, fill=True, **over):
    """A position: ``houses`` per owner (2p: 3 owners), ``hands`` per seat, ``deck`` bottom
    first; cards placed nowhere else go to the discard pile (pig cards too) if ``fill``."""
    d = G.state_to_dict(G.new_state(n, 0, options))
    n_own = n if n >= 3 else 3
    d["houses"] = houses if houses is not None else [[] for _ in range(n_own)]
    d["hands"] = hands if hands is not None else [[] for _ in range(n)]
    d["deck"] = list(deck)
    d["discard"] = []
    d["current"] = current
    d["turn_player"] = current
    d.update(over)
    if fill:
        used = set(d["deck"]) | set(d["pigs_revealed"])
        for h in d["hands"]:
            used |= set(h)
        for row in d["houses"]:
            for hd in row:
                used |= set(hd["floors"]) | set(hd["basements"])
        d["discard"] = [c for c in NAMES if c not in used]
    return G.position_from_dict(json.loads(json.dumps(d)))


def legal(s):
    return G.legal_actions(s).tolist()


def dct(s):
    return G.state_to_dict(s)


def turn_back(s, p):
    """The same position with seat ``p`` to play again (to chain build examples)."""
    d = dct(s)
    d.update(current=p, turn_player=p, phase="play", stage="normal")
    return G.position_from_dict(d)


# ---------------------------------------------------------------------------------------------
# E1 legal builds
def test_e1_legal_builds():
    s = mk(3, houses=[[house("R", ["R4"])], [], []],
           hands=[["R9", "Y2", "W6"], ["G1"], ["G2"]])
    assert FLOOR("W6", 0) in legal(s)
    s = G.apply_action(s, FLOOR("W6", 0))
    h0 = dct(s)["houses"][0][0]
    assert h0["floors"] == ["R4", "W6"] and h0["colour"] == "R"
    s = turn_back(s, 0)
    assert FLOOR("R9", 0) in legal(s)
    s = G.apply_action(s, FLOOR("R9", 0))
    assert dct(s)["houses"][0][0]["floors"] == ["R4", "W6", "R9"]
    assert int(s.hs[0, 0, 5]) == 3  # cached height (H_HT)
    s = turn_back(s, 0)
    assert NEW("Y2") in legal(s)
    s = G.apply_action(s, NEW("Y2"))
    assert dct(s)["houses"][0][1] == house("Y", ["Y2"])


# E2 illegal builds
def test_e2_illegal_builds():
    s = mk(3, houses=[[house("R", ["R4", "W6", "R9"]), house("Y", ["Y2", "Y5"]),
                       house("G", ["G8"])], [], []],
           hands=[["R7", "R10", "Y11", "W3", "W8"], ["G1"], ["G2"]])
    lg = set(legal(s))
    assert FLOOR("R7", 0) not in lg  # 7 < 9
    assert FLOOR("W8", 2) not in lg  # equal to the top
    assert NEW("R10") not in lg  # a second red house, and already 3 houses
    assert FLOOR("R10", 0) in lg
    assert FLOOR("Y11", 2) not in lg and FLOOR("Y11", 1) in lg  # colour mismatch
    assert not any(FLOOR("W3", k) in lg for k in range(4))
    assert {BASE("W3", 0), BASE("W3", 1), BASE("W3", 2)} <= lg
    s = G.apply_action(s, BASE("W3", 1))
    hy = dct(s)["houses"][0][1]
    assert hy["floors"] == ["Y2", "Y5"] and hy["basements"] == ["W3"]
    assert G.points(s)[0].shape == (3, 6) and int(s.hs[0, 1, 5]) == 3


# E3 basements
def test_e3_basements():
    s = mk(3, houses=[[house("R", ["R5", "R8"])], [], []],
           hands=[["R1", "R2", "R3", "Y2", "W1"], ["G1"], ["G2"]])
    lg = set(legal(s))
    assert {BASE("R1", 0), BASE("R2", 0), BASE("R3", 0), BASE("W1", 0)} <= lg
    assert BASE("Y2", 0) not in lg
    s = G.apply_action(s, BASE("R2", 0))
    assert dct(s)["houses"][0][0]["basements"] == ["R2"] and int(s.hs[0, 0, 5]) == 3
    assert int(s.hs[0, 0, 3]) == 8  # top still 8
    s = turn_back(s, 0)
    lg = set(legal(s))
    assert BASE("R1", 0) not in lg  # below B2 with a smaller number
    assert BASE("R3", 0) in lg
    s = G.apply_action(s, BASE("R3", 0))
    assert dct(s)["houses"][0][0]["basements"] == ["R2", "R3"] and int(s.hs[0, 0, 5]) == 4
    s = turn_back(s, 0)
    lg = set(legal(s))
    assert BASE("W1", 0) not in lg and BASE("R1", 0) not in lg  # nothing below B3
    assert BASE("Y2", 0) not in lg
    # B3 gives two wolf slots: P1 then P2 place on it, a third is refused
    s = turn_back(s, 1)
    d = dct(s)
    d["hands"][1] = ["G1", "G4"]
    s = G.position_from_dict(d)
    s = G.apply_action(s, WOLF("G4"))
    assert PLACE(5, 0, 0) in legal(s)
    s = G.apply_action(s, PLACE(5, 0, 0))
    s = turn_back(s, 2)
    s = G.apply_action(s, WOLF("G2"))
    assert PLACE(3, 0, 0) in legal(s)
    s = G.apply_action(s, PLACE(3, 0, 0))
    assert dct(s)["houses"][0][0]["wolves"] == [[1, 5], [2, 3]]
    s = turn_back(s, 1)
    assert WOLF("G1") not in legal(s)  # the only house with a free slot is gone
    # a new player with no red house: R1 cannot start as a basement, it starts as a floor
    s2 = mk(3, hands=[["R1"], ["G1"], ["G2"]])
    assert legal(s2) == [NEW("R1")]


# E5 wolf placement legality
def test_e5_wolf_legality():
    s = mk(3, houses=[
        [house("G", ["G6", "G8", "G12"], ["G3"], wolves=[[2, 4]])],
        [house("R", ["R5"], wolves=[[2, 3]])],
        [house("Y", ["Y4"])]],
        hands=[["W9"], ["W10"], ["W11"]], current=0)
    s = G.apply_action(s, WOLF("W9"))
    lg = legal(s)
    assert PLACE(3, 1, 0) not in lg  # P1's red holds P2's wolf, no B3
    assert PLACE(3, 0, 0) not in lg  # own house
    assert lg == [PLACE(v, 2, 0) for v in (3, 4, 5)]
    s = turn_back(mk(3, houses=dct(s)["houses"], hands=[["W9"], ["W10"], ["W11"]]), 1)
    s = G.apply_action(s, WOLF("W10"))
    assert PLACE(5, 0, 0) in legal(s)  # second slot of the B3 house
    s = G.apply_action(s, PLACE(5, 0, 0))
    s = turn_back(s, 2)
    # B3 house full, P1's red full, the yellow is P2's own: no wolf action
    assert legal(s) == [FLOOR("W11", 0), NEW("W11")]
    # all three wolves used: no wolf action
    s3 = mk(3, houses=[[], [house("R", ["R5"])], []], hands=[["W9"], [], []],
            wolves_left=[[], [3, 4, 5], [3, 4, 5]])
    assert WOLF("W9") not in legal(s3)
    # 2p: a wolf on the dummy's house is legal
    s2 = mk(2, houses=[[], [], [house("R", ["R6"])]], hands=[["W9"], ["W8"]])
    s2 = G.apply_action(s2, WOLF("W9"))
    assert legal(s2) == [PLACE(v, 2, 0) for v in (3, 4, 5)]


# E6 end-phase turn count
def test_e6_end_phase_turns():
    hands = [["R1", "R2", "R3", "R4", "R5"], ["Y1", "Y2", "Y3", "Y4", "Y5"],
             ["G1", "G2", "G3", "G4", "G5"], ["W1", "W2", "W3", "W4", "W5"]]
    s = mk(4, hands=hands, deck=["R9", "R10", "PIG3"], current=2,
           pigs_revealed=["PIG1", "PIG2"], pig_tokens_left=[4], pig_tokens_lost=[2, 3])
    s = G.apply_action(s, NEW("G1"))  # P2 plays, draws the third pig
    d = dct(s)
    assert d["stage"] == "final" and d["final_left"] == 8 and d["deck"] == ["R9", "R10"]
    assert d["houses"][2][0]["pig"] == 4 and d["pig_tokens_left"] == []
    assert d["hands"][2] == ["G2", "G3", "G4", "G5"]  # no replacement draw
    assert d["cards_under_last_pig"] == 2
    order = []
    while not G.is_terminal(s):
        order.append(G.current_player(s))
        s = G.apply_action(s, legal(s)[0])
    assert order == [3, 0, 1, 2, 3, 0, 1, 2]
    d = dct(s)
    assert d["deck"] == ["R9", "R10"] and d["end_reason"] == "scored"
    assert [len(h) for h in d["hands"]] == [3, 3, 2, 3]


# E8 tie-break
def _e8(b_shared):
    if not b_shared:
        b_houses = [house("R", ["R8", "R9", "R10", "R12"]), house("Y", ["Y8", "Y9", "Y10"])]
        b_wolves = {("A", "R"): 3, ("A", "Y"): 4}
        c_yellow = house("Y", ["Y1"], wolves=[[0, 3]])
        tokens = {"pig_tokens_left": [2, 3, 4]}
    else:
        b_houses = [house("R", ["R8", "R9", "R10"]), house("Y", ["Y8", "Y9", "Y10"], pig=4)]
        b_wolves = {("A", "R"): 5, ("A", "Y"): 4}
        c_yellow = house("Y", ["Y1"], ["Y3"], wolves=[[0, 3], [1, 3]])
        tokens = {"pig_tokens_left": [2, 3]}
    b_houses[0]["wolves"] = [[0, 5]]
    b_houses[1]["wolves"] = [[0, 4]]
    a_houses = [house("R", ["R4", "R5", "R6"], wolves=[[1, b_wolves[("A", "R")]]]),
                house("Y", ["Y4", "Y5", "Y6"], wolves=[[1, b_wolves[("A", "Y")]]]),
                house("G", ["G4", "G5", "G6"])]
    c_houses = [house("R", ["R1", "R2", "R3"]), c_yellow, house("G", ["G1", "G2", "G3"])]
    used_b = sorted(b_wolves.values()) + ([3] if b_shared else [])
    return mk(3, houses=[a_houses, b_houses, c_houses], stage="over", phase="over",
              current=-1, end_reason="scored",
              wolves_left=[[], [v for v in (3, 4, 5) if v not in used_b], [3, 4, 5]],
              **tokens)


def test_e8_tiebreak():
    s = _e8(False)
    G.check_invariants(s)
    pts, tb, _ = G.points(s)
    assert pts.tolist() == [[12, 0, 0, 0, 8, 0], [8, 0, 3, 0, 7, 2], [8, -1, 0, 0, 0, 0]]
    assert G.scores(s).tolist() == [20, 20, 7] and tb.tolist() == [8, 7, 0]
    assert G.winners(s) == [0] and G.ranks(s).tolist() == [1, 2, 3]
    s = _e8(True)
    G.check_invariants(s)
    assert G.scores(s).tolist() == [20, 20, 7] and G.tiebreaks(s).tolist() == [8, 8, 0]
    assert G.winners(s) == [0, 1] and G.ranks(s).tolist() == [1, 1, 3]
    # tie-break on gross wolf points: A 9 (5 + 4) beats B 9? B: 5 + 4 -> 9; still shared
    d = dct(s)
    d["options"]["tiebreak_wolf_net"] = False
    s2 = G.position_from_dict(d)
    assert G.tiebreaks(s2).tolist() == [9, 9, 0] and G.winners(s2) == [0, 1]


# E10 setup invariants (property test)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_e10_setup(n):
    for seed in range(60):
        s = G.new_state(n, seed)
        d = dct(s)
        deck = d["deck"]
        assert len(deck) == 56 - 5 * n + 3
        bottom_pigs = [c for c in deck[:6] if c.startswith("PIG")]
        assert len(bottom_pigs) == 1
        assert len([c for c in deck[6:] if c.startswith("PIG")]) == 2
        G.check_invariants(s)
        if seed < 15:
            rng = np.array([seed], np.uint64)
            while not G.is_terminal(s):
                s = G.apply_action(s, G.choose_action(s, "random", rng))
            assert dct(s)["pigs_revealed"][2] == bottom_pigs[0]
            assert dct(s)["cards_under_last_pig"] == deck[:6].index(bottom_pigs[0])


# E11 2p dummy neutral placement
@pytest.mark.parametrize("card,houses,mustache", [
    ("R4", [house("R", ["R6"]), house("Y", ["Y9"])], 0),
    ("R2", [house("R", ["R6"], ["R2"]), house("Y", ["Y9"])], 0),
    ("W7", [house("R", ["R6", "W7"]), house("Y", ["Y9"])], 1),
    ("G1", [house("R", ["R6"]), house("Y", ["Y9"]), house("G", ["G1"])], 0),
])
def test_e11_dummy_neutral(card, houses, mustache):
    s = mk(2, houses=[[], [], [house("R", ["R6"]), house("Y", ["Y9"])]],
           hands=[["G5", "G6", "G7", "G8", "G9"], ["W1", "W2", "W3", "W4", "W5"]],
           deck=["Y12", card, "Y11"], current=1)
    s = G.apply_action(s, NEW("W1"))  # P1 plays, draws Y11; the dummy reveals the card
    d = dct(s)
    assert d["houses"][2] == houses and d["mustache"] == mustache
    assert (card in d["discard"]) == (card == "R4")
    assert d["current"] == 0 and d["turn_player"] == 0 and d["deck"] == ["Y12"]
    assert "Y11" in d["hands"][1]


def test_e11_dummy_holder_choice():
    s = mk(2, houses=[[], [], [house("R", ["R6"]), house("Y", ["Y9"])]],
           hands=[["G5", "G6"], ["W1", "W2"]], deck=["W7", "Y11"], current=1,
           options={"dummy_policy": "holder_choice"})
    s = G.apply_action(s, NEW("W1"))
    d = dct(s)
    assert d["phase"] == "dummy" and d["current"] == 0 and d["dummy_card"] == "W7"
    assert legal(s) == [A_DFLOOR + 0, A_DNEW + 2]  # on red (7 > 6), or start green
    s = G.apply_action(s, A_DNEW + 2)
    d = dct(s)
    assert d["houses"][2][2] == house("G", ["W7"]) and d["mustache"] == 1
    assert d["phase"] == "play" and d["current"] == 0
    # nothing legal: only the discard
    s = mk(2, houses=[[], [], [house("R", ["R6"]), house("Y", ["Y9"]), house("G", ["G8"])]],
           hands=[["G5"], ["W1", "W2"]], deck=["W5", "Y11"], current=1,
           options={"dummy_policy": "holder_choice"})
    s = G.apply_action(s, NEW("W1"))
    assert legal(s) == [A_DDISC]
    s = G.apply_action(s, A_DDISC)
    assert "W5" in dct(s)["discard"] and dct(s)["mustache"] == 0


# ---------------------------------------------------------------------------------------------
# pig tokens (§3.7.1) and pig effects (§3.7.2)
def _pig_position(pig, drawer=1, options=None, houses=None, pigs_revealed=()):
    hands = [["R1", "R2", "R3", "R4", "R5"], ["Y1", "Y2", "Y3", "Y4", "Y5"],
             ["G1", "G2", "G3", "G4", "G5"]]
    if houses is None:
        houses = [[house("R", ["R6", "R7"])], [house("Y", ["Y6", "Y7"])],
                  [house("G", ["G6", "G7"])]]
    left = [2, 3, 4][len(pigs_revealed):]
    return mk(3, houses=houses, hands=hands, deck=["W12", "W11", pig], current=drawer,
              options=options, pigs_revealed=list(pigs_revealed), pig_tokens_left=left,
              pig_tokens_lost=[2, 3, 4][: len(pigs_revealed)])


def test_pig_token_priority():
    for first, owner in ((True, 1), (False, 2)):
        s = _pig_position("PIG1", options={"pig_tie_drawer_first": first})
        s = G.apply_action(s, WOLF("Y5"))
        s = G.apply_action(s, PLACE(3, 0, 0))  # heights stay 2, 2, 2: a three-way tie
        d = dct(s)
        pigs = [d["houses"][o][0]["pig"] for o in range(3)]
        assert pigs == [2 if o == owner else 0 for o in range(3)], (first, pigs)
        assert d["pigs_revealed"] == ["PIG1"] and d["pig_tokens_left"] == [3, 4]


def test_pass_left_and_right():
    for pig, recv in (("PIG1", {0: "G", 1: "R", 2: "Y"}), ("PIG2", {0: "Y", 1: "G", 2: "R"})):
        s = _pig_position(pig)
        s = G.apply_action(s, WOLF("Y5"))
        s = G.apply_action(s, PLACE(3, 0, 0))
        d = dct(s)
        assert d["phase"] == "pass" and d["current"] == 1  # drawer first, 4 cards in hand
        assert d["hands"][1] == ["Y1", "Y2", "Y3", "Y4"]
        s = G.apply_action(s, A_PASS + ID["Y1"])
        assert dct(s)["current"] == 2 and dct(s)["passing"] == [None, "Y1", None]
        s = G.apply_action(s, A_PASS + ID["G1"])
        assert dct(s)["current"] == 0
        s = G.apply_action(s, A_PASS + ID["R1"])
        d = dct(s)
        got = {p: [c for c in d["hands"][p] if c[0] != "RYG"[p] and c[0] != "W"] for p in range(3)}
        for p in range(3):
            assert [c[0] for c in got[p]] == [recv[p]], (pig, p, d["hands"])
        # the drawer draws again: W11 (the deck top after the pig), P2 to play
        assert "W11" in d["hands"][1] and d["current"] == 2 and d["phase"] == "play"
        assert d["passing"] == [None, None, None]
        G.check_invariants(s)


def test_house_effect_order_and_compulsion():
    s = _pig_position("PIG3", houses=[[house("R", ["R6", "R7"])], [house("Y", ["Y6", "Y7"])],
                                      [house("G", ["G6", "G7"])]])
    s = G.apply_action(s, WOLF("Y5"))
    s = G.apply_action(s, PLACE(5, 0, 0))  # P1's wolf on P0's red
    d = dct(s)
    # P1's yellow is the pig tie winner (drawer first)
    assert d["houses"][1][0]["pig"] == 2
    assert d["phase"] == "house" and d["current"] == 1
    # P1: only free target is P2's green
    assert legal(s) == [PLACE(v, 2, 0) for v in (3, 4)]
    s = G.apply_action(s, PLACE(4, 2, 0))
    assert dct(s)["current"] == 2
    assert legal(s) == [PLACE(v, 1, 0) for v in (3, 4, 5)]  # P0's red is full
    s = G.apply_action(s, PLACE(3, 1, 0))
    # P0: every rival house holds a wolf -> skipped; the drawer draws again
    d = dct(s)
    assert d["phase"] == "play" and d["current"] == 2 and "W11" in d["hands"][1]
    G.check_invariants(s)


def test_pig_same_owner_tie_choice():
    houses = [[house("R", ["R6", "R7"]), house("G", ["G6", "G7"])], [house("Y", ["Y6"])],
              [house("G", ["G8"])]]
    s = _pig_position("PIG1", drawer=0, houses=houses)
    s = G.apply_action(s, WOLF("R5"))
    s = G.apply_action(s, PLACE(3, 1, 0))
    d = dct(s)
    assert d["phase"] == "pig_tie" and d["current"] == 0 and d["tie_houses"] == [0, 1]
    assert legal(s) == [A_PIGTIE, A_PIGTIE + 1]
    s = G.apply_action(s, A_PIGTIE + 1)
    assert dct(s)["houses"][0][1]["pig"] == 2 and dct(s)["phase"] == "pass"
    s = _pig_position("PIG1", drawer=0, houses=houses,
                      options={"pig_same_owner_tie": "colour_order"})
    s = G.apply_action(s, WOLF("R5"))
    s = G.apply_action(s, PLACE(3, 1, 0))
    assert dct(s)["houses"][0][0]["pig"] == 2 and dct(s)["phase"] == "pass"


def test_kids_variant_no_effect_own_wolves():
    s = _pig_position("PIG3", options={"variant_kids": True})
    s = G.apply_action(s, WOLF("Y5"))
    assert legal(s) == [PLACE(v, 1, 0) for v in (3, 4, 5)]  # own house only
    s = G.apply_action(s, PLACE(3, 1, 0))
    d = dct(s)
    assert d["houses"][1][0]["pig"] == 2  # token placed, effect skipped
    assert d["phase"] == "play" and d["current"] == 2 and "W11" in d["hands"][1]


def test_wolf_order_ascending():
    s = mk(3, houses=[[], [house("R", ["R5"])], []], hands=[["W9"], [], []],
           wolves_left=[[4, 5], [3, 4, 5], [3, 4, 5]], options={"wolf_order_free": False})
    s = G.apply_action(s, WOLF("W9"))
    assert legal(s) == [PLACE(4, 1, 0)]


# ---------------------------------------------------------------------------------------------
# the two-player end (§3.10.4)
def test_two_player_end_rounds():
    s = mk(2, houses=[[house("R", ["R4"])], [house("Y", ["Y4"])], [house("G", ["G4"])]],
           hands=[["R6", "R7", "R8", "R9", "R10"], ["Y6", "Y7", "Y8", "Y9"]],
           deck=["G9", "G8", "PIG2"], current=1, mustache=1,
           pigs_revealed=["PIG1", "PIG3"], pig_tokens_left=[4], pig_tokens_lost=[2, 3])
    s = G.apply_action(s, FLOOR("Y6", 0))  # P1 plays and draws the third pig
    d = dct(s)
    assert d["stage"] == "final2p" and d["phase"] == "commit" and d["current"] == 1
    assert d["houses"][1][0]["pig"] == 4  # P1's yellow is tallest (2); drawer first
    assert legal(s) == [A_COMMIT + ID[c] for c in ["Y7", "Y8", "Y9"]]
    s = G.apply_action(s, A_COMMIT + ID["Y9"])
    assert dct(s)["current"] == 0  # the other player commits
    s = G.apply_action(s, A_COMMIT + ID["R10"])
    d = dct(s)
    assert d["phase"] == "play" and d["current"] == 1 and d["committed"] == ["R10", "Y9"]
    assert legal(s) == [FLOOR("Y9", 0), WOLF("Y9")]  # only the committed card
    s = G.apply_action(s, FLOOR("Y9", 0))
    assert dct(s)["current"] == 0 and legal(s) == [FLOOR("R10", 0), WOLF("R10")]
    s = G.apply_action(s, FLOOR("R10", 0))
    d = dct(s)
    # the dummy's card: G8 on its green (8 > 4); the mustache passes to P0
    assert d["houses"][2][0]["floors"] == ["G4", "G8"] and d["deck"] == ["G9"]
    assert d["mustache"] == 0 and d["phase"] == "commit" and d["current"] == 0
    n = 0
    while not G.is_terminal(s):
        s = G.apply_action(s, legal(s)[0])
        n += 1
    d = dct(s)
    assert d["hands"] == [[], []] and d["deck"] == [] and d["end_reason"] == "scored"
    assert d["houses"][2][0]["floors"] == ["G4", "G8", "G9"]


# ---------------------------------------------------------------------------------------------
# scoring options (§3.12)
def _scoring(options=None):
    return mk(3, houses=[
        [house("R", ["R4", "R7"], pig=3), house("-", ["W2"])],
        [house("R", ["R5", "R6", "R12"])],
        [house("Y", ["Y11"])]], stage="over", phase="over", current=-1, end_reason="scored",
        pig_tokens_left=[2, 4], options=options)


def test_scoring_components_and_options():
    s = _scoring()
    pts = G.points(s)[0].tolist()
    # P0: red unique shortest -> collapses (-1, pig flipped -1, mark 7 = -2); white house -1
    assert pts[0] == [0, -2, 0, -1, 0, -2]
    # P1: red stands (+4), unique tallest (+3), mark 12 (+2)
    assert pts[1] == [4, 0, 3, 0, 0, 2]
    # P2: the lone yellow stands and wins the bonus; mark 11 (+3)
    assert pts[2] == [4, 0, 3, 0, 0, 3]
    s = _scoring({"lone_house_collapses": True, "lone_house_bonus": False,
                  "marks_on_collapsed": False})
    pts = G.points(s)[0].tolist()
    assert pts[0] == [0, -2, 0, -1, 0, 0] and pts[2] == [0, -1, 0, 0, 0, 0]
    s = _scoring({"height_rule": "card_count"})
    assert G.scores(s).tolist() == [-5, 9, 10]


def test_icon_height():
    s = mk(3, houses=[[house("R", ["R4", "R5*"])], [house("R", ["R6", "R7", "R8"])], []],
           stage="over", phase="over", current=-1, end_reason="scored")
    # R5* counts 2 floors: heights 3 and 3 -> tie, both stand, no bonus
    assert G.points(s)[0][:2, :3].tolist() == [[4, 0, 0], [4, 0, 0]]
    d = dct(s)
    d["options"]["card_set"] = "cards_v0"
    d["data"]["suit"] = [list(r) for r in data.CARD_SETS["cards_v0"]]
    s0 = G.position_from_dict(d)
    assert G.points(s0)[0][:2, :3].tolist() == [[0, -1, 0], [4, 0, 3]]


# ---------------------------------------------------------------------------------------------
# interface
def test_errors_and_strings():
    s = G.new_state(3, 5)
    with pytest.raises(UserError):
        G.apply_action(s, 664)
    with pytest.raises(UserError):
        G.new_state(5, 0)
    with pytest.raises(UserError):
        G.state_from_dict({"n_players": 3})
    assert "FLOOR" in G.action_to_string(s, int(legal(s)[0]))
    assert "P0 to act" in G.state_to_string(s)


def test_run_chunk_and_choose_action():
    opts = G.resolve_options({})
    names = ["random", "greedy", "cautious", "wolf-bettor", "no-wolf", "hostile"]
    seats = np.array([[0, 1, 2, 3], [4, 5, 1, 2]] * 20, np.int64)
    r = G.run_chunk(0, 40, 11, 4, seats, opts, names)
    assert r.score.shape == (40, 4) and (r.end_reason == 1).all()
    assert np.allclose(r.win_share.sum(axis=1), 1.0)
    comp = sum(r.seat_detail[f"pts_{k}"] for k in
               ("houses", "collapses", "bonuses", "pigs", "wolves", "marks"))
    assert (comp == r.score).all()
    nowolf = r.seat_detail["act_wolf"][1::2, 0]
    assert nowolf.sum() <= r.seat_detail["act_wolf"][0::2, 3].sum()
    # game i of a run is the same in any chunking
    r2 = G.run_chunk(10, 5, 11, 4, seats[10:15], opts, names)
    assert (r2.score == r.score[10:15]).all() and (r2.turns == r.turns[10:15]).all()
