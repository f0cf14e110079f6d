"""Tests of the plain-Python Little Town reference (tests/reference/little_town.py) on its own.

Positions are built with ``from_dict`` from a blank state dict (``blank``), following the
worked examples T1..T15 of the rules spec (shared/rules/little_town.md, section 9) and the
contract docs/games/little_town.md. Cells are written ``C(row, col)`` = 9*row + col.
"""

import copy
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.reference.little_town import (  # noqa: E402
    DEFAULT_DATA,
    DEFAULT_OPTIONS,
    NUM_ACTIONS,
    LittleTownRef,
    Rng,
    action_to_string,
    play_random_game,
    seed_for,
)

RNG0 = "0x00000000000000a5"

# action ids (contract section 5)
GATHER, END = 241, 242
FEED_FISH, FEED_WHEAT, BUY_FISH, BUY_WHEAT, STARVE = 243, 244, 245, 246, 247
# building ids
WHEAT, WORKSHOP, TAVERN, BAKERY, BREWERY, QUARRY, CARPENTER, GROCERY, CHURCH = range(9)
WAREHOUSE, MARKET, FOUNTAIN, BARN, BOOKSTORE, GOLD_MINE, FISHMONGER, PIER = range(9, 17)
PAWNSHOP, WELL, RESTAURANT, STATUE, CATHEDRAL, RESIDENCE, CASTLE, WATCHTOWER = range(17, 25)
BIRDS = [1, 3, 5, 7, 8, 9, 12, 14, 17, 18, 20, 23]
DECK17 = [c for c in range(1, 19) if c != 7]
NEVER = 17   # goal card 17 cannot be completed under the default options


def C(r, c):
    return 9 * r + c


def PLACE(r, c):
    return C(r, c)


def BUILD(b):
    return 54 + b


def SITE(r, c):
    return 79 + C(r, c)


def ACT(k):
    return 133 + k


def PAWN(i, o):
    return 141 + 10 * i + o


def PICK(b):
    return 247 + b


def blank(n, **options):
    """A state dict for n players in round 1, seat 0 to play its first turn (start player 0).

    Empty board, beginner market, full supply, 3 coins each, every goal slot holding card 17
    (never completed under the default options, so no goal interferes unless a test sets one).
    ``game`` settles the supply, the bank and the score parts after a test edits the dict."""
    g = LittleTownRef(n, 0, {"market": "beginner", "first_player": "seat0"})
    d = g.to_dict()
    opts = dict(DEFAULT_OPTIONS)
    opts.update({"market": "beginner", "first_player": "seat0"})
    opts.update(options)
    d["options"] = opts
    d["rng"] = RNG0
    for pl in d["players"]:
        pl["goals"] = [[NEVER, 0] for _ in pl["goals"]]
    return d


def settle(d):
    """Make a hand-edited position consistent: the supply holds every cube no seat holds, the
    bank every coin no seat holds, each score equals the sum of its parts (the difference goes
    to ``vp_build``) and each worker on the board counts as used."""
    pl = d["players"]
    cs = d["data"]["consts"]
    d["supply"] = [cs["supply_per_resource"] - sum(p["cubes"][t] for p in pl) for t in range(4)]
    d["bank"] = cs["coin_total"] - sum(p["coins"] for p in pl)
    d["bank_min"] = min(d["bank_min"], d["bank"])
    for i, p in enumerate(pl):
        st = p["stats"]
        rest = sum(st[k] for k in ("vp_act", "vp_goal", "vp_cathedral", "vp_castle",
                                   "vp_watchtower", "vp_coins", "vp_unfed"))
        st["vp_build"] = p["score"] - rest
        on_board = sum(1 for x in d["worker"] if x == i)
        p["workers_used"] = max(p["workers_used"], on_board + p["on_site"])
    return d


def put(d, r, c, b, p):
    """Put building b owned by seat p on (r, c)."""
    cell = C(r, c)
    d["building"][cell] = b
    d["owner"][cell] = p
    d["players"][p]["houses"] -= 1
    d["players"][p]["built"][b] += 1


def set_goal(d, p, card, slot=0):
    d["players"][p]["goals"][slot] = [card, 0]


def feed_position(d, p, left=None):
    """Seat p is feeding (eor feed stage), start player 0."""
    n = d["n_players"]
    w = d["data"]["per_count"][str(n)][0]
    d["phase"] = "feed"
    d["current"] = p
    d["eor"] = {"stage": "feed", "index": (p - d["start_player"]) % n}
    d["feed"] = {"left": w if left is None else left, "fish": 0, "wheat": 0}
    d["turn"] = n * w
    return d


# the implementation the position tests run on; a later engine test can swap in the engine
IMPL = {"cls": LittleTownRef}


def game(d):
    return IMPL["cls"].from_dict(settle(copy.deepcopy(d)))


def P(g, p):
    return g.to_dict()["players"][p]


# --------------------------------------------------------------------------- data


def test_constants_and_data():
    assert NUM_ACTIONS == 272
    assert list(DEFAULT_OPTIONS) == [
        "market", "board_side", "first_player", "rounds", "three_player_tip", "goal7",
        "bang_check", "bang_redraw", "optional_gather", "coin_bank", "cathedral_counts_own",
        "residence_gathers_terrain", "residence_pays_fees", "castle_counts",
        "watchtower_workers_block", "pawnshop_must_differ", "goal5_counts_pawnshop",
        "gather_includes_buildings"]
    bl = DEFAULT_DATA["buildings"]
    assert len(bl) == 25 and sum(r["count"] for r in bl) == 29
    assert [b for b in range(25) if bl[b]["bird"]] == BIRDS
    assert [r["vp"] for r in bl] == [3, 5, 7, 4, 4, 5, 4, 4, 8, 8, 6, 5, 6, 8, 4, 4, 5, 5, 4, 7,
                                     10, 11, 2, 0, 0]
    assert "".join(r["kind"] for r in bl) == "PXPXXXXXXXXXXPPXPXPXNRREE"
    assert bl[RESIDENCE]["cost_coins"] == 6 and bl[RESIDENCE]["cost"] == [0, 0, 0, 0]
    assert bl[MARKET]["input"] == [1, 1, 1, 1] and bl[MARKET]["output_vp"] == 7
    gl = DEFAULT_DATA["goals"]
    assert [r["card"] for r in gl] == list(range(1, 19))
    assert sum(r["vp"] for r in gl if r["card"] != 7) == 41
    assert DEFAULT_DATA["per_count"] == {"2": [5, 7, 4], "3": [4, 6, 3], "4": [3, 6, 2]}
    for side in "AB":
        s = "".join(DEFAULT_DATA["boards"][side])
        assert (s.count("G"), s.count("F"), s.count("M"), s.count("L")) == (39, 6, 4, 5)


def test_action_names():
    assert action_to_string(PLACE(4, 5)) == "PLACE (4,5)"
    assert action_to_string(BUILD(CASTLE)) == "BUILD Castle"
    assert action_to_string(SITE(0, 1)) == "SITE (0,1)"
    assert action_to_string(ACT(7)) == "ACTIVATE slot7"
    assert action_to_string(PAWN(1, 7)) == "PAWN wood+stone -> fish+fish"
    assert action_to_string(PICK(24)) == "PICK Watchtower"
    assert action_to_string(STARVE) == "STARVE"
    assert action_to_string(272).startswith("INVALID")


def test_bad_options_and_data_raise():
    for bad in ({"no_such_option": 1}, {"market": "snake"}, {"board_side": "C"},
                {"rounds": 5}, {"rounds": True}, {"optional_gather": 1},
                {"castle_counts": "some"}):
        with pytest.raises(ValueError):
            LittleTownRef(2, 0, bad)
    with pytest.raises(ValueError):
        LittleTownRef(5, 0)
    with pytest.raises(ValueError):
        LittleTownRef(2, 0, data={"nonsense": 1})
    with pytest.raises(ValueError):
        LittleTownRef(2, 0, data={"consts": {"fee": -1}})
    g = LittleTownRef(2, 0, data={"consts": {"fee": 2}})
    assert g.to_dict()["data"]["consts"]["fee"] == 2
    d = g.to_dict()
    del d["bank_min"]
    with pytest.raises(ValueError):
        LittleTownRef.from_dict(d)


# --------------------------------------------------------------------------- setup


def manual_setup(n, seed, options):
    """Contract section 3, written out again step by step."""
    o = dict(DEFAULT_OPTIONS)
    o.update(options)
    r = Rng(seed)
    market = [0] * 25
    market[0] = 5
    if o["market"] == "random":
        t = list(range(1, 25))
        r.shuffle(t)
        for b in t[12:]:
            market[b] = 1
    elif o["market"] == "beginner":
        for b in BIRDS:
            market[b] = 1
    deck = [c for c in range(1, 19) if not (c == 7 and o["goal7"] == "omit")]
    r.shuffle(deck)
    ng = {2: 4, 3: 3, 4: 2}[n]
    goals = [[[deck.pop(), 0] for _ in range(ng)] for _ in range(n)]
    first = r.rand_below(n) if o["first_player"] == "random" else 0
    hands = [[] for _ in range(n)]
    tiles = []
    if o["market"] == "draft":
        tiles = list(range(1, 25))
        r.shuffle(tiles)
        for k in range(24):
            hands[(first + k) % n].append(tiles.pop())
    elif o["market"] == "one-of-two":
        tiles = list(range(1, 25))
        r.shuffle(tiles)
        for i in range(n):
            hands[(first + i) % n] += [tiles.pop(), tiles.pop()]
    return {"market": market, "goals": goals, "deck": deck, "first": first,
            "hands": [sorted(h) for h in hands], "tiles": tiles, "rng": r.state}


def manual_bang(goals, deck, market, start, options):
    """Contract 3.1 written out again: returns (goals, deck, discard)."""
    o = dict(DEFAULT_OPTIONS)
    o.update(options)
    rows = {r["card"]: r for r in DEFAULT_DATA["goals"]}
    goals = [[list(s) for s in gs] for gs in goals]
    deck = list(deck)
    discard = []

    def possible(card):
        row = rows[card]
        if not row["bang"]:
            return True
        s = [b for b in row["set"]
             if not (card == 5 and b == 17 and not o["goal5_counts_pawnshop"])]
        need = row["need"] if o["bang_check"] == "need_count" else 1
        return len([b for b in s if b >= 1 and market[b] >= 1]) >= need

    n = len(goals)
    for i in range(n):
        p = (start + i) % n
        for j in range(len(goals[p])):
            k = 0
            while not possible(goals[p][j][0]) and deck and (o["bang_redraw"] == "repeat" or k == 0):
                discard.append(goals[p][j][0])
                goals[p][j] = [deck.pop(), 0]
                k += 1
    return goals, deck, discard


@pytest.mark.parametrize("market", ["random", "beginner"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_matches_manual_procedure(n, market):
    replaced = 0
    for i in range(40):
        seed = seed_for(77, i)
        opts = {"market": market}
        if i % 3 == 1:
            opts.update({"bang_check": "any_listed", "goal7": "feed_wheat"})
        if i % 3 == 2:
            opts.update({"bang_redraw": "once", "goal5_counts_pawnshop": False})
        m = manual_setup(n, seed, opts)
        goals, deck, discard = manual_bang(m["goals"], m["deck"], m["market"], m["first"], opts)
        replaced += len(discard)
        d = LittleTownRef(n, seed, opts).to_dict()
        assert d["rng"] == "0x%016x" % m["rng"]
        assert d["market"] == m["market"] and d["market_start"] == m["market"]
        assert sum(d["market"][1:]) == 12
        assert [p["goals"] for p in d["players"]] == goals
        assert d["goal_deck"] == deck and d["goal_discard"] == discard
        assert d["first_player"] == d["start_player"] == d["current"] == m["first"]
        assert d["last_start"] == [1 if p == m["first"] else 0 for p in range(n)]
        assert d["phase"] == "turn" and d["round"] == 1 and d["turn"] == 0
        assert d["decisions"] == 0 and d["turns_total"] == 0
        assert d["bank"] == d["bank_min"] == 40 - 3 * n and d["supply"] == [15] * 4
        assert d["draft"] == {"deck": [], "hands": [[] for _ in range(n)],
                              "picks": [-1] * n, "round": 0}
        for p in d["players"]:
            assert (p["coins"], p["cubes"], p["score"]) == (3, [0] * 4, 0)
            assert p["houses"] == {2: 7, 3: 6, 4: 6}[n]
    if market == "random":
        assert replaced > 0   # the (!) check really happened in some of these games


@pytest.mark.parametrize("market", ["draft", "one-of-two"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_draft_setup_matches_manual_procedure(n, market):
    for i in range(10):
        seed = seed_for(78, i)
        m = manual_setup(n, seed, {"market": market})
        d = LittleTownRef(n, seed, {"market": market}).to_dict()
        assert d["rng"] == "0x%016x" % m["rng"]
        assert d["phase"] == "draft" and d["current"] == m["first"]
        assert d["market"] == [5] + [0] * 24 and d["market_start"] == [0] * 25
        assert d["draft"] == {"deck": m["tiles"], "hands": m["hands"], "picks": [-1] * n,
                              "round": 0}
        assert [p["goals"] for p in d["players"]] == m["goals"]   # no (!) check yet
        assert d["goal_deck"] == m["deck"] and d["goal_discard"] == []
        size = 24 // n if market == "draft" else 2
        assert all(len(h) == size for h in d["draft"]["hands"])


def test_beginner_market():
    d = LittleTownRef(3, 5, {"market": "beginner"}).to_dict()
    assert [b for b in range(25) if d["market"][b]] == [0] + BIRDS
    assert d["market"][0] == 5


def test_draft_flow_two_players():
    g = LittleTownRef(2, 1234, {"market": "draft", "first_player": "seat0"})
    d0 = g.to_dict()
    h0, h1 = d0["draft"]["hands"]
    assert g.legal_actions() == [PICK(b) for b in h0]
    g.apply(PICK(h0[0]))
    d = g.to_dict()
    assert d["current"] == 1 and d["draft"]["picks"] == [h0[0], -1]
    assert d["market"] == d0["market"] and d["players"][0]["pick"][h0[0]] == 1
    assert g.legal_actions() == [PICK(b) for b in h1]
    g.apply(PICK(h1[-1]))
    d = g.to_dict()
    assert d["draft"]["round"] == 1 and d["draft"]["picks"] == [-1, -1]
    assert d["market"][h0[0]] == 1 and d["market"][h1[-1]] == 1 and sum(d["market"][1:]) == 2
    # hands pass to seat p + 1
    assert d["draft"]["hands"] == [h1[:-1], h0[1:]]
    assert d["current"] == 0 and d["players"][1]["pick"][h1[-1]] == 1
    rnd = random.Random(3)
    while g.to_dict()["phase"] == "draft":
        g.apply(rnd.choice(g.legal_actions()))
    d = g.to_dict()
    assert d["decisions"] == 12 and d["phase"] == "turn" and d["current"] == 0
    assert sum(d["market"][1:]) == 12 and d["market_start"] == d["market"]
    assert d["draft"]["hands"] == [[], []] and d["draft"]["round"] == 6
    for p in range(2):
        assert sorted(x for x in d["players"][p]["pick"] if x) == [1, 2, 3, 4, 5, 6]
    picked = [b for b in range(1, 25) if any(d["players"][p]["pick"][b] for p in range(2))]
    assert picked == [b for b in range(1, 25) if d["market"][b]]


def test_draft_hands_pass_to_the_next_seat():
    seed = next(s for s in range(100)
                if LittleTownRef(3, s, {"market": "draft"}).to_dict()["first_player"] == 2)
    g = LittleTownRef(3, seed, {"market": "draft"})
    h = g.to_dict()["draft"]["hands"]
    assert [len(x) for x in h] == [8, 8, 8]
    picks = {}
    for p in (2, 0, 1):
        assert g.to_dict()["current"] == p
        picks[p] = h[p][p]
        g.apply(PICK(picks[p]))
    d = g.to_dict()
    assert d["current"] == 2 and d["draft"]["round"] == 1
    rest = [[b for b in h[p] if b != picks[p]] for p in range(3)]
    assert d["draft"]["hands"] == [rest[2], rest[0], rest[1]]
    assert [b for b in range(1, 25) if d["market"][b]] == sorted(picks.values())


def test_one_of_two_flow_three_players():
    # a seed whose first player is seat 1, so picks run 1, 2, 0
    seed = next(s for s in range(100)
                if LittleTownRef(3, s, {"market": "one-of-two"}).to_dict()["first_player"] == 1)
    g = LittleTownRef(3, seed, {"market": "one-of-two"})
    d = g.to_dict()
    assert d["current"] == 1 and len(d["draft"]["deck"]) == 18
    order = []
    for rnd_ in range(4):
        d = g.to_dict()
        deck = d["draft"]["deck"]
        for p in (1, 2, 0):
            d = g.to_dict()
            assert d["current"] == p
            order.append(p)
            g.apply(g.legal_actions()[1])   # the higher tile of the pair
        d = g.to_dict()
        if rnd_ < 3:
            # the unpicked tiles are gone; two new tiles each, dealt from seat 1 on
            assert d["draft"]["deck"] == deck[:-6]
            assert d["draft"]["hands"] == [sorted(deck[-6:-4]), sorted(deck[-2:]),
                                           sorted(deck[-4:-2])]
    d = g.to_dict()
    assert d["phase"] == "turn" and d["current"] == 1 and d["draft"]["deck"] == []
    assert sum(d["market"][1:]) == 12 and d["decisions"] == 12
    assert d["draft"]["hands"] == [[], [], []]


def test_bang_check_after_the_draft():
    """The (!) check runs once the drafted market is complete (A21), from the start player."""
    for i in range(30):
        seed = seed_for(5, i)
        opts = {"market": "one-of-two", "bang_check": "need_count"}
        g = LittleTownRef(4, seed, opts)
        d0 = g.to_dict()
        rnd = random.Random(i)
        while g.to_dict()["phase"] == "draft":
            g.apply(rnd.choice(g.legal_actions()))
        d = g.to_dict()
        goals, deck, discard = manual_bang([p["goals"] for p in d0["players"]], d0["goal_deck"],
                                           d["market"], d["start_player"], opts)
        assert [p["goals"] for p in d["players"]] == goals
        assert d["goal_deck"] == deck and d["goal_discard"] == discard


def test_bang_check_empty_deck_keeps_card():
    """L7: when the goal deck runs out the impossible card is kept."""
    data = copy.deepcopy(DEFAULT_DATA)
    for row in data["goals"]:
        row["bang"] = True
        row["set"] = []
        row["need"] = 1
    seed = 99
    m = manual_setup(2, seed, {})
    g = LittleTownRef(2, seed, data=data)
    d = g.to_dict()
    # every card impossible: the first slot of the start player eats the whole deck
    p = m["first"]
    dealt = m["goals"]
    assert d["goal_deck"] == []
    assert d["goal_discard"] == [dealt[p][0][0]] + m["deck"][::-1][:-1]
    assert d["players"][p]["goals"][0] == [m["deck"][0], 0]
    assert d["players"][p]["goals"][1:] == dealt[p][1:]
    assert d["players"][1 - p]["goals"] == dealt[1 - p]
    # once: only one redraw per slot
    g = LittleTownRef(2, seed, {"bang_redraw": "once"}, data=data)
    d = g.to_dict()
    assert len(d["goal_discard"]) == 8 and len(d["goal_deck"]) == 1


def test_bang_check_need_count_versus_any_listed():
    """Card 16 needs two VP buildings of its set with need_count, one with any_listed (L6)."""
    g = LittleTownRef(2, 0, {"market": "beginner"})
    g.market = [5] + [0] * 24
    g.market[WELL] = 1              # one VP building of card 16's set, nothing of card 8's
    assert (g._possible(16), g._possible(8), g._possible(2)) == (False, False, True)
    g.options["bang_check"] = "any_listed"
    assert (g._possible(16), g._possible(8)) == (True, False)
    g.market[PAWNSHOP] = 1
    assert g._possible(5) is True
    g.options["goal5_counts_pawnshop"] = False
    assert g._possible(5) is False


# ------------------------------------------------------------ worked examples (spec §9)


def test_t1_gathering_seed_example():
    g = game(blank(2))
    g.apply(PLACE(4, 5))          # GATHER and END are forced
    d = g.to_dict()
    assert d["players"][0]["cubes"] == [1, 0, 2, 0]
    assert d["supply"] == [14, 15, 13, 15]
    assert d["worker"][C(4, 5)] == 0 and d["players"][0]["workers_used"] == 1
    assert d["players"][0]["stats"]["gathered"] == 3 and d["players"][0]["stats"]["placements"] == 1
    assert (d["current"], d["phase"], d["turn"], d["turns_total"], d["decisions"]) == \
        (1, "turn", 1, 1, 1)
    assert d["placement"]["cell"] == -1


def test_t2_three_resource_types():
    g = game(blank(2))
    g.apply(PLACE(1, 1))
    assert P(g, 0)["cubes"] == [1, 1, 1, 0]


def test_t3_two_cell_mountain_side_b():
    g = game(blank(2, board_side="B"))
    g.apply(PLACE(1, 3))
    assert P(g, 0)["cubes"] == [1, 2, 0, 0]


def test_gather_capped_by_supply():
    d = blank(2)
    d["players"][1]["cubes"] = [0, 0, 14, 0]     # the supply keeps 1 fish
    g = game(d)
    g.apply(PLACE(4, 5))
    assert P(g, 0)["cubes"] == [1, 0, 1, 0] and g.to_dict()["supply"][2] == 0


def test_t4_activation_with_fee_and_interleaving():
    d = blank(2)
    put(d, 2, 2, BAKERY, 1)         # Red = seat 1
    put(d, 2, 1, WHEAT, 0)          # White = seat 0
    g = game(d)
    g.apply(PLACE(1, 1))
    # slot 6 = (2,1) Wheat Field, slot 7 = (2,2) Bakery: the Bakery needs 1 + 3 coins
    assert g.legal_actions() == [ACT(6), GATHER]
    g.apply(ACT(6))
    assert P(g, 0)["cubes"] == [0, 0, 0, 1]
    assert g.legal_actions() == [ACT(7), GATHER]
    g.apply(ACT(7))                 # GATHER and END are then forced
    d = g.to_dict()
    assert d["players"][0]["coins"] == 6 and d["players"][0]["cubes"] == [1, 1, 1, 0]
    assert d["players"][1]["coins"] == 4
    assert d["bank"] == 34 - 4 and d["bank_min"] == 30
    assert d["supply"] == [14, 14, 14, 15]
    s0, s1 = d["players"][0]["stats"], d["players"][1]["stats"]
    assert (s0["activations"], s0["fees_paid"], s1["fees_earned"]) == (2, 1, 1)
    assert d["players"][0]["act_own"][WHEAT] == 1
    assert d["players"][1]["act_by_others"][BAKERY] == 1
    assert d["decisions"] == 3 and d["current"] == 1 and d["phase"] == "turn"


def test_t6_feeding_shortfall():
    d = feed_position(blank(2), 0)
    d["players"][0].update({"cubes": [0, 0, 1, 3], "coins": 2})
    d["players"][1]["cubes"] = [0, 0, 3, 3]
    g = game(d)
    assert g.legal_actions() == [FEED_FISH, FEED_WHEAT]
    g.apply(FEED_FISH)              # three wheat then STARVE are forced
    d = g.to_dict()
    p0 = d["players"][0]
    assert (p0["score"], p0["coins"], p0["cubes"]) == (-3, 2, [0, 0, 0, 0])
    assert (p0["stats"]["unfed"], p0["stats"]["vp_unfed"]) == (1, -3)
    assert d["supply"] == [15, 15, 12, 12] and d["bank"] == 35
    assert (d["phase"], d["current"], d["eor"], d["decisions"]) == \
        ("feed", 1, {"stage": "feed", "index": 1}, 1)
    assert d["feed"] == {"left": 5, "fish": 0, "wheat": 0}

    d = feed_position(blank(2), 0)
    d["players"][0].update({"cubes": [0, 0, 1, 3], "coins": 3})
    d["players"][1]["cubes"] = [0, 0, 3, 3]
    g = game(d)
    g.apply(FEED_WHEAT)
    g.apply(FEED_WHEAT)
    g.apply(FEED_WHEAT)             # then FEED fish is forced
    assert g.legal_actions() == [BUY_FISH, BUY_WHEAT, STARVE]
    g.apply(BUY_FISH)
    d = g.to_dict()
    p0 = d["players"][0]
    assert (p0["score"], p0["coins"], p0["cubes"]) == (0, 0, [0, 0, 0, 0])
    assert (p0["stats"]["food_bought"], p0["stats"]["cubes_bought"]) == (1, 1)
    assert d["bank"] == 34 + 3 and d["supply"] == [15, 15, 12, 12]
    assert d["current"] == 1


def test_t7_negative_score_forced_starve():
    d = feed_position(blank(3), 0, left=1)
    d["players"][0]["cubes"] = [0, 0, 1, 1]
    d["players"][1].update({"score": 2, "coins": 0, "cubes": [0, 0, 0, 0]})
    d["players"][2]["cubes"] = [0, 0, 4, 4]
    g = game(d)
    g.apply(FEED_FISH)              # seat 1 can only STARVE: forced
    d = g.to_dict()
    assert d["players"][1]["score"] == 2 - 12 and d["players"][1]["stats"]["unfed"] == 4
    assert d["current"] == 2 and d["decisions"] == 1


def end_position(n=2, **options):
    """Last feeding of the last round: seat n-1 feeds one worker with fish or wheat."""
    d = blank(n, **options)
    d["round"] = d["options"]["rounds"]
    feed_position(d, n - 1, left=1)
    d["players"][n - 1]["cubes"] = [0, 0, 1, 1]
    return d


def test_t8_end_game_coins():
    d = end_position(3)
    for p, c in enumerate([11, 2, 0]):
        d["players"][p]["coins"] = c
    g = game(d)
    g.apply(FEED_FISH)
    d = g.to_dict()
    assert g.is_terminal() and d["phase"] == "over" and d["end_reason"] == "end"
    assert g.scores() == [3, 0, 0]
    assert [p["stats"]["vp_coins"] for p in d["players"]] == [3, 0, 0]
    assert d["current"] == 2 and g.legal_actions() == []


@pytest.mark.parametrize("block, vp", [(False, 8), (True, 6)])
def test_t11_watchtower(block, vp):
    d = end_position(2, watchtower_workers_block=block)
    put(d, 1, 1, WATCHTOWER, 0)
    put(d, 1, 2, WHEAT, 1)
    d["worker"][C(0, 1)] = 1        # round-4 workers stay on the board
    d["players"][0]["coins"] = 0
    d["players"][1]["coins"] = 0
    g = game(d)
    g.apply(FEED_WHEAT)
    assert g.scores() == [vp, 0]
    assert P(g, 0)["stats"]["vp_watchtower"] == vp


def test_t9_goal_completion_timing():
    d = blank(3)
    d["round"] = 3
    d["turn"] = 1
    d["current"] = 1                 # White = seat 1
    for r, c in [(1, 1), (1, 3), (1, 5), (1, 7)]:
        put(d, r, c, WELL if c == 1 else WHEAT, 1)
    set_goal(d, 1, 2)
    d["players"][1]["cubes"] = [1, 0, 0, 0]
    d["players"][1]["score"] = 10
    g = game(d)
    g.apply(BUILD(WHEAT))
    d = g.to_dict()
    assert d["phase"] == "site" and d["pending"] == WHEAT and d["market"][WHEAT] == 4
    assert d["players"][1]["on_site"] == 1 and d["players"][1]["workers_used"] == 1
    g.apply(SITE(3, 4))
    d = g.to_dict()
    p1 = d["players"][1]
    assert p1["score"] == 16 and p1["goals"][0] == [2, 3]
    # vp_build: the 10 VP of the position (settle) + 3
    assert (p1["stats"]["vp_build"], p1["stats"]["vp_goal"], p1["stats"]["builds"]) == (13, 3, 1)
    assert p1["built"][WHEAT] == 4 and p1["built_round"][WHEAT] == 3 and p1["houses"] == 1
    assert d["building"][C(3, 4)] == WHEAT and d["owner"][C(3, 4)] == 1
    assert (d["current"], d["turn"], d["pending"]) == (2, 2, -1)


def test_t15_build_legality():
    d = blank(2)
    d["market"][WORKSHOP] = 1
    d["players"][0].update({"cubes": [2, 0, 0, 0], "coins": 6})
    g = game(d)
    assert BUILD(WORKSHOP) in g.legal_actions()
    g.apply(BUILD(WORKSHOP))
    d = g.to_dict()
    p0 = d["players"][0]
    assert (p0["coins"], p0["cubes"], p0["stats"]["cubes_bought"]) == (0, [2, 0, 0, 0], 2)
    assert d["supply"] == [13, 15, 15, 15] and d["bank"] == 31 + 6
    g.apply(SITE(2, 2))
    assert P(g, 0)["score"] == 5
    # no house left: no BUILD at all
    d = blank(2)
    d["players"][0].update({"cubes": [9, 9, 0, 0], "coins": 9, "houses": 0})
    assert all(a < 54 for a in game(d).legal_actions())
    # one coin short, or the supply lacks a missing cube
    d = blank(2)
    d["market"][WORKSHOP] = 1
    d["players"][0].update({"cubes": [2, 0, 0, 0], "coins": 5})
    assert BUILD(WORKSHOP) not in game(d).legal_actions()
    d["players"][0]["coins"] = 6
    d["players"][1]["cubes"] = [0, 14, 0, 0]     # the supply keeps 1 stone
    assert BUILD(WORKSHOP) not in game(d).legal_actions()
    d["players"][0]["cubes"] = [2, 1, 0, 0]
    d["players"][1]["cubes"] = [0, 13, 0, 0]     # one stone held, one in the supply
    assert BUILD(WORKSHOP) in game(d).legal_actions()


def test_build_list_and_residence_cost():
    d = blank(2)
    d["players"][0].update({"coins": 6, "cubes": [1, 0, 0, 0]})
    d["market"][RESIDENCE] = 1
    g = game(d)
    builds = [a - 54 for a in g.legal_actions() if 54 <= a < 79]
    # 6 coins buy at most 2 missing cubes; the own wood counts first
    assert builds == [WHEAT, WORKSHOP, BAKERY, QUARRY, GROCERY, GOLD_MINE, PAWNSHOP, WELL,
                      RESIDENCE]
    g.apply(BUILD(RESIDENCE))
    assert P(g, 0)["coins"] == 0 and g.to_dict()["bank"] == 31 + 6


def test_place_list():
    d = blank(2)
    put(d, 1, 1, WHEAT, 1)
    d["worker"][C(2, 2)] = 1
    g = game(d)
    board = "".join(DEFAULT_DATA["boards"]["A"])
    places = [a for a in g.legal_actions() if a < 54]
    assert places == [c for c in range(54) if board[c] == "G" and c not in (C(1, 1), C(2, 2))]
    assert len(places) == 37


# ------------------------------------------------------------------- activations


def test_activation_once_and_interleaved_gather():
    d = blank(2)
    put(d, 4, 4, PIER, 0)
    g = game(d)
    g.apply(PLACE(4, 5))            # slot 3 = (4,4)
    assert g.legal_actions() == [ACT(3), GATHER]
    g.apply(GATHER)
    assert g.legal_actions() == [ACT(3), END]
    g.apply(ACT(3))                 # END is forced
    d = g.to_dict()
    assert d["players"][0]["cubes"] == [1, 0, 4, 0] and d["current"] == 1


def test_unactivatable_buildings_and_zero_coins():
    d = blank(2)
    for (r, c), b in zip([(1, 3), (1, 4), (1, 5), (2, 3), (2, 5), (3, 3), (3, 4)],
                         [STATUE, CATHEDRAL, RESIDENCE, CASTLE, WATCHTOWER, WELL, PAWNSHOP]):
        put(d, r, c, b, 1)
    d["players"][0]["coins"] = 0
    d["players"][0]["cubes"] = [2, 2, 2, 2]
    g = game(d)
    g.apply(PLACE(2, 4))            # nothing usable: only END, forced
    d = g.to_dict()
    assert d["current"] == 1 and d["decisions"] == 1 and d["players"][0]["cubes"] == [2, 2, 2, 2]
    d = blank(2)
    put(d, 3, 3, WELL, 1)
    d["players"][0]["coins"] = 1
    g = game(d)
    g.apply(PLACE(2, 4))
    assert g.legal_actions() == [ACT(5), END]


def test_bought_input_and_transient_zero_coins_goal():
    d = blank(2)
    put(d, 2, 3, BAKERY, 0)
    set_goal(d, 0, 12)
    g = game(d)
    g.apply(PLACE(2, 4))            # slot 3 = (2,3)
    assert g.legal_actions() == [ACT(3), END]
    g.apply(ACT(3))                 # buys the wheat with 3 coins: 0 coins, then +4
    d = g.to_dict()
    p0 = d["players"][0]
    assert p0["coins"] == 4 and p0["goals"][0] == [12, 1] and p0["score"] == 3
    assert p0["cubes"] == [0, 0, 0, 0] and p0["stats"]["cubes_bought"] == 1
    assert d["supply"] == [15] * 4 and d["bank"] == 34 + 3 - 4


@pytest.mark.parametrize("bank_mode, coins, bank, bank_min", [
    ("unlimited", 5, -1, -1), ("limited", 4, 0, 0)])
def test_coin_bank(bank_mode, coins, bank, bank_min):
    d = blank(2, coin_bank=bank_mode)
    put(d, 2, 3, GOLD_MINE, 0)
    d["players"][1]["coins"] = 34 + 2            # the bank keeps 1 coin
    g = game(d)
    g.apply(PLACE(2, 4))
    g.apply(ACT(3))
    d = g.to_dict()
    assert (d["players"][0]["coins"], d["bank"], d["bank_min"]) == (coins, bank, bank_min)


def test_output_capped_by_supply():
    d = blank(2)
    put(d, 2, 3, PIER, 0)
    d["players"][1]["cubes"][2] = 14             # the supply keeps 1 fish
    g = game(d)
    g.apply(PLACE(2, 4))
    g.apply(ACT(3))
    assert P(g, 0)["cubes"] == [0, 0, 1, 0] and g.to_dict()["supply"][2] == 0


def test_church_and_market_inputs():
    d = blank(2)
    put(d, 2, 3, CHURCH, 1)
    put(d, 2, 5, MARKET, 0)
    d["players"][0].update({"coins": 7, "cubes": [1, 1, 1, 0]})
    g = game(d)
    g.apply(PLACE(2, 4))            # Church slot 3 (1 fee + 3), Market slot 4 (buys wheat)
    assert g.legal_actions() == [ACT(3), ACT(4), END]
    g.apply(ACT(4))
    d = g.to_dict()
    assert d["players"][0]["coins"] == 4 and d["players"][0]["score"] == 7
    assert g.legal_actions() == [ACT(3), END]
    g.apply(ACT(3))                 # 1 fee to seat 1, 3 coins to the bank
    d = g.to_dict()
    assert d["players"][0]["score"] == 12 and d["players"][0]["coins"] == 0
    assert d["players"][1]["coins"] == 4 and d["bank"] == 30 + 3 + 3
    assert d["players"][0]["stats"]["vp_act"] == 12


# --------------------------------------------------------------------------- pawnshop


def pawn_position(**options):
    d = blank(2, **options)
    put(d, 2, 3, PAWNSHOP, 1)
    d["players"][0].update({"coins": 1, "cubes": [1, 1, 0, 0]})
    return d


def test_pawnshop_legal_list_and_effect():
    g = game(pawn_position())
    g.apply(PLACE(2, 4))
    assert g.legal_actions() == [PAWN(1, o) for o in range(10) if o != 1] + [END]
    g.apply(PAWN(1, 7))
    d = g.to_dict()
    assert d["players"][0]["cubes"] == [0, 0, 2, 0] and d["players"][0]["coins"] == 0
    assert d["players"][1]["coins"] == 4 and d["players"][1]["act_by_others"][PAWNSHOP] == 1
    assert d["supply"] == [15, 15, 13, 15] and d["current"] == 1   # END forced
    # pawnshop_must_differ = false allows the same pair back
    g = game(pawn_position(pawnshop_must_differ=False))
    g.apply(PLACE(2, 4))
    assert g.legal_actions() == [PAWN(1, o) for o in range(10)] + [END]


def test_pawnshop_bought_inputs_and_capped_outputs():
    d = pawn_position()
    d["players"][0].update({"coins": 4, "cubes": [1, 0, 0, 0]})   # fee 1 + one bought cube
    d["players"][1]["cubes"] = [0, 0, 15, 0]     # no fish in the supply
    g = game(d)
    g.apply(PLACE(2, 4))
    la = g.legal_actions()
    # pairs with one wood + one bought cube (not fish: none in the supply)
    assert la == [PAWN(i, o) for i in (0, 1, 3) for o in range(10) if o != i] + [END]
    g.apply(PAWN(3, 8))              # pay wood + bought wheat; (fish, wheat): only the wheat
    d = g.to_dict()
    assert d["players"][0]["cubes"] == [0, 0, 0, 1] and d["players"][0]["coins"] == 0
    assert d["players"][0]["stats"]["cubes_bought"] == 1


@pytest.mark.parametrize("counts, claimed", [(True, 1), (False, 0)])
def test_goal5_pawnshop_option(counts, claimed):
    d = pawn_position(goal5_counts_pawnshop=counts)
    set_goal(d, 0, 5)
    g = game(d)
    g.apply(PLACE(2, 4))
    g.apply(PAWN(1, 7))
    assert P(g, 0)["goals"][0] == [5, claimed] and P(g, 0)["score"] == 2 * claimed


# ------------------------------------------------------------------------------ goals


def test_goal1_connected():
    d = blank(2)
    put(d, 1, 1, WHEAT, 0)
    put(d, 2, 2, WHEAT, 0)          # diagonal: not connected
    set_goal(d, 0, 1)
    d["players"][0]["cubes"] = [2, 0, 0, 0]
    g = game(d)
    g.apply(BUILD(WHEAT))
    g.apply(SITE(3, 3))
    assert P(g, 0)["goals"][0] == [1, 0]
    d["players"][0]["cubes"] = [1, 0, 0, 0]
    g = game(d)
    g.apply(BUILD(WHEAT))
    g.apply(SITE(1, 2))             # (1,1)-(1,2)-(2,2): (1,2) has two side neighbours
    assert P(g, 0)["goals"][0] == [1, 1] and P(g, 0)["score"] == 3 + 3


def test_goal3_food_held():
    d = blank(2)
    set_goal(d, 0, 3)
    d["players"][0]["cubes"] = [0, 0, 5, 4]
    g = game(d)
    g.apply(PLACE(2, 1))            # +1 wood, +1 fish: 10 food = 2 x 5 workers
    assert P(g, 0)["goals"][0] == [3, 1] and P(g, 0)["score"] == 3


def test_goal4_terrain_trio_needs_distinct_buildings():
    d = blank(2)
    put(d, 1, 1, WELL, 0)            # next to M, F and L
    put(d, 4, 7, WHEAT, 0)           # next to F and L
    set_goal(d, 0, 4)
    d["players"][0]["cubes"] = [1, 0, 0, 0]
    g = game(d)
    assert P(g, 0)["goals"][0] == [4, 0]
    g.apply(BUILD(WHEAT))
    g.apply(SITE(3, 4))              # no terrain: still nothing
    assert P(g, 0)["goals"][0] == [4, 0]
    d["players"][0]["cubes"] = [1, 0, 0, 0]
    g = game(d)
    g.apply(BUILD(WHEAT))
    g.apply(SITE(1, 7))              # next to M only: L (4,7), M (1,7), F (1,1)
    assert P(g, 0)["goals"][0] == [4, 1]


def test_goal5_restaurant():
    d = blank(2)
    put(d, 2, 3, RESTAURANT, 0)
    set_goal(d, 0, 5)
    d["players"][0].update({"cubes": [0, 0, 1, 0], "coins": 3})   # the wheat is bought
    g = game(d)
    g.apply(PLACE(2, 4))
    g.apply(ACT(3))
    p0 = P(g, 0)
    assert p0["goals"][0] == [5, 1] and p0["score"] == 4 + 2 and p0["coins"] == 0


@pytest.mark.parametrize("last, claimed", [(BUY_FISH, 1), (BUY_WHEAT, 0), (STARVE, 0)])
def test_goal6_feed_all_with_fish(last, claimed):
    d = feed_position(blank(2), 0)
    set_goal(d, 0, 6)
    d["players"][0].update({"cubes": [0, 0, 4, 0], "coins": 3})
    d["players"][1]["cubes"] = [0, 0, 3, 3]
    g = game(d)
    assert g.legal_actions() == [FEED_FISH]
    g.apply(FEED_FISH)               # three more forced
    assert g.legal_actions() == [BUY_FISH, BUY_WHEAT, STARVE]
    g.apply(last)
    p0 = P(g, 0)
    assert p0["goals"][0] == [6, claimed]
    assert p0["score"] == 2 * claimed - (3 if last == STARVE else 0)
    assert g.to_dict()["feed"] == {"left": 5, "fish": 0, "wheat": 0}


def test_goal7_feed_wheat_placeholder():
    d = feed_position(blank(2, goal7="feed_wheat"), 0)
    set_goal(d, 0, 7)
    d["players"][0]["cubes"] = [0, 0, 0, 6]
    d["players"][1]["cubes"] = [0, 0, 3, 3]
    g = game(d)
    g.apply(FEED_WHEAT)
    assert P(g, 0)["goals"][0] == [7, 1] and P(g, 0)["cubes"] == [0, 0, 0, 1]


def test_goal8_9_own_sets():
    d = blank(2)
    d["market"][PIER] = 1
    d["market"][QUARRY] = 1
    set_goal(d, 0, 8, 0)
    set_goal(d, 0, 9, 1)
    put(d, 0, 1, BAKERY, 0)
    d["players"][0]["cubes"] = [6, 0, 0, 0]
    g = game(d)
    assert P(g, 0)["goals"][1] == [9, 0]      # one coin building is not enough
    g.apply(BUILD(PIER))
    g.apply(SITE(3, 3))
    assert P(g, 0)["goals"][:2] == [[8, 1], [9, 0]]
    d = g.to_dict()
    d.update({"current": 0, "turn": 0})
    g = game(d)
    g.apply(BUILD(QUARRY))
    g.apply(SITE(3, 5))
    assert P(g, 0)["goals"][:2] == [[8, 1], [9, 1]]
    assert P(g, 0)["score"] == 5 + 2 + 5 + 3


def test_goal13_coins_ge():
    d = blank(2)
    put(d, 2, 3, GOLD_MINE, 0)
    set_goal(d, 0, 13)
    d["players"][0]["coins"] = 4
    g = game(d)
    g.apply(PLACE(2, 4))
    g.apply(ACT(3))
    assert P(g, 0)["goals"][0] == [13, 1] and P(g, 0)["coins"] == 6


@pytest.mark.parametrize("gather_first, claimed", [(True, 1), (False, 0)])
def test_goal14_spend_gathered(gather_first, claimed):
    d = blank(2)
    put(d, 4, 1, WORKSHOP, 0)        # (4,1) is grass, next to the forest (5,1)/(5,2)
    set_goal(d, 0, 14)
    d["players"][0]["cubes"] = [2, 0, 0, 0]
    g = game(d)
    g.apply(PLACE(4, 2))             # slot 3 = (4,1); gathers 2 wood from (5,1), (5,2)
    assert g.legal_actions() == [ACT(3), GATHER]
    if gather_first:
        g.apply(GATHER)
        g.apply(ACT(3))
    else:
        g.apply(ACT(3))
    assert P(g, 0)["goals"][0] == [14, claimed]
    assert P(g, 0)["cubes"] == [2, 0, 0, 0] and P(g, 0)["score"] == 3 + 2 * claimed


def test_goal15_four_activations():
    d = blank(2)
    for r, c in [(1, 3), (1, 4), (1, 5), (2, 3)]:
        put(d, r, c, WHEAT, 0)
    set_goal(d, 0, 15)
    g = game(d)
    g.apply(PLACE(2, 4))
    assert g.legal_actions() == [ACT(0), ACT(1), ACT(2), ACT(3), END]
    for k in (2, 0, 3):
        g.apply(ACT(k))
        assert P(g, 0)["goals"][0] == [15, 0]
        assert g.to_dict()["placement"]["acts"] == [2, 0, 3].index(k) + 1
    g.apply(ACT(1))                  # END forced after the claim
    p0 = P(g, 0)
    assert p0["goals"][0] == [15, 1] and p0["score"] == 3 and p0["cubes"] == [0, 0, 0, 4]
    assert p0["act_own"][WHEAT] == 4 and g.to_dict()["placement"]["acts"] == 0


def test_goal16_two_vp_activations():
    d = blank(2)
    put(d, 2, 3, WELL, 0)
    put(d, 2, 5, TAVERN, 1)
    set_goal(d, 0, 16)
    g = game(d)
    g.apply(PLACE(2, 4))
    g.apply(ACT(4))
    assert g.to_dict()["placement"]["vp_acts"] == 1 and P(g, 0)["goals"][0] == [16, 0]
    g.apply(ACT(3))
    assert P(g, 0)["goals"][0] == [16, 1] and P(g, 0)["score"] == 3 + 2 + 2


@pytest.mark.parametrize("incl, claimed", [(True, 1), (False, 0)])
def test_goal17_gather_in_turn(incl, claimed):
    d = blank(2, gather_includes_buildings=incl)
    put(d, 4, 4, PIER, 0)
    d["players"][0]["goals"] = [[17, 0], [6, 0], [6, 0], [6, 0]]
    g = game(d)
    g.apply(PLACE(4, 5))
    g.apply(GATHER)
    assert g.to_dict()["placement"]["gathered_n"] == 3
    g.apply(ACT(3))
    assert P(g, 0)["goals"][0] == [17, claimed]
    assert P(g, 0)["stats"]["gathered"] == 3


def test_goal_of_other_seat_checked_after_every_action():
    """A state check covers every seat: seat 1's coins goal completes when seat 0 pays it a
    fee."""
    d = blank(2)
    put(d, 2, 3, WELL, 1)
    set_goal(d, 1, 13)
    d["players"][1]["coins"] = 5
    g = game(d)
    g.apply(PLACE(2, 4))
    g.apply(ACT(3))
    assert P(g, 1)["goals"][0] == [13, 1] and P(g, 1)["score"] == 2


def test_optional_gather():
    d = blank(2, optional_gather=True)
    g = game(d)
    g.apply(PLACE(4, 5))
    assert g.legal_actions() == [GATHER, END]
    g.apply(END)
    assert P(g, 0)["cubes"] == [0, 0, 0, 0] and g.to_dict()["current"] == 1


# ----------------------------------------------------------------- end of round


def last_turn_position(n=2, **options):
    """Seat (n-1) plays the last turn of round 1 (start player 0)."""
    d = blank(n, **options)
    w = d["data"]["per_count"][str(n)][0]
    d["turn"] = n * w - 1
    d["current"] = (n * w - 1) % n
    return d


def test_residence_end_of_round():
    d = last_turn_position()
    put(d, 3, 2, RESIDENCE, 1)
    put(d, 2, 2, WELL, 0)            # slot 1 of the Residence
    put(d, 3, 3, WHEAT, 1)           # slot 4
    d["players"][0]["cubes"] = [0, 0, 3, 3]
    g = game(d)
    g.apply(PLACE(2, 6))             # nothing there: END forced, then the round ends
    d = g.to_dict()
    assert (d["phase"], d["current"], d["eor"]) == ("residence", 1,
                                                    {"stage": "residence", "index": 1})
    assert d["placement"]["seat"] == 1 and d["placement"]["cell"] == C(3, 2)
    assert d["placement"]["gathered"] == 1
    assert g.legal_actions() == [ACT(1), ACT(4), END]
    g.apply(ACT(1))
    g.apply(ACT(4))                  # END forced
    d = g.to_dict()
    p1 = d["players"][1]
    assert (p1["score"], p1["coins"], p1["cubes"]) == (2, 2, [0, 0, 0, 1])
    assert d["players"][0]["coins"] == 4 and d["players"][0]["act_by_others"][WELL] == 1
    assert p1["stats"]["activations"] == 2 and p1["stats"]["placements"] == 1
    assert (d["phase"], d["current"], d["eor"]) == ("feed", 0, {"stage": "feed", "index": 0})
    assert d["placement"]["seat"] == -1


def test_residence_without_fees():
    d = last_turn_position(residence_pays_fees=False)
    put(d, 3, 2, RESIDENCE, 1)
    put(d, 2, 2, WELL, 0)
    d["players"][0]["cubes"] = [0, 0, 3, 3]
    d["players"][1]["coins"] = 0
    g = game(d)
    g.apply(PLACE(2, 6))
    assert g.legal_actions() == [ACT(1), END]
    g.apply(ACT(1))
    d = g.to_dict()
    assert d["players"][1]["coins"] == 0 and d["players"][1]["score"] == 2
    assert d["players"][0]["coins"] == 3


@pytest.mark.parametrize("gathers, cubes", [(False, [0, 0, 0, 0]), (True, [1, 0, 2, 0])])
def test_residence_gathers_terrain(gathers, cubes):
    d = last_turn_position(residence_gathers_terrain=gathers)
    put(d, 4, 5, RESIDENCE, 1)
    d["players"][0]["cubes"] = [0, 0, 3, 3]
    g = game(d)
    g.apply(PLACE(2, 6))             # the Residence resolution is forced either way
    d = g.to_dict()
    assert d["players"][1]["cubes"] == cubes and d["phase"] == "feed" and d["current"] == 0
    assert d["players"][1]["stats"]["gathered"] == sum(cubes)


@pytest.mark.parametrize("own, vp", [(True, 3), (False, 2)])
def test_cathedral(own, vp):
    d = last_turn_position(cathedral_counts_own=own)
    put(d, 1, 4, CATHEDRAL, 0)
    d["worker"][C(1, 3)] = 0
    d["worker"][C(1, 5)] = 1
    d["players"][0]["cubes"] = [0, 0, 3, 3]
    g = game(d)
    g.apply(PLACE(2, 4))             # seat 1's last worker, next to the Cathedral
    d = g.to_dict()
    assert d["players"][0]["score"] == vp and d["players"][0]["stats"]["vp_cathedral"] == vp
    assert d["phase"] == "feed" and d["current"] == 0


def test_round_change_and_feeding_order():
    d = last_turn_position(3)
    d["start_player"] = 1
    d["last_start"] = [0, 1, 0]
    d["current"] = 0                 # turn 11 of round 1 belongs to seat (1 + 11) mod 3 = 0
    d["worker"][C(1, 1)] = 1
    d["players"][1]["cubes"] = [0, 0, 2, 2]
    d["players"][0]["cubes"] = [0, 0, 0, 4]
    d["players"][2]["cubes"] = [0, 0, 2, 2]
    d["players"][0]["workers_used"] = 3
    g = game(d)
    g.apply(PLACE(2, 6))
    d = g.to_dict()
    assert (d["phase"], d["current"]) == ("feed", 1)       # feeding starts at the start player
    assert g.legal_actions() == [FEED_FISH, FEED_WHEAT]
    g.apply(FEED_FISH)
    g.apply(FEED_FISH)               # the two wheat are forced
    assert g.to_dict()["current"] == 2
    for a in (FEED_WHEAT, FEED_FISH, FEED_WHEAT):
        g.apply(a)                   # the last fish is forced, then seat 0's 4 wheat
    d = g.to_dict()
    assert (d["phase"], d["round"], d["start_player"], d["current"], d["turn"]) == \
        ("turn", 2, 2, 2, 0)
    assert d["last_start"] == [0, 1, 2]
    assert d["worker"] == [-1] * 54 and [p["workers_used"] for p in d["players"]] == [0, 0, 0]
    assert d["eor"] == {"stage": "none", "index": 0} and d["turns_total"] == 1
    assert [p["cubes"] for p in d["players"]] == [[0, 0, 0, 0]] * 3


@pytest.mark.parametrize("scores, start, last_start, tip, expected", [
    ([5, 3, 7], 2, [1, 2, 3], True, 1),
    ([3, 3, 7], 2, [1, 2, 3], True, 0),
    ([7, 3, 3], 2, [1, 2, 3], True, 1),
    ([4, 4, 4], 2, [1, 2, 3], True, 0),
    ([3, 9, 3], 1, [0, 3, 0], True, 2),
    ([9, 3, 3], 1, [3, 0, 0], True, 2),
    ([5, 3, 7], 2, [1, 2, 3], False, 0),
])
def test_three_player_tip(scores, start, last_start, tip, expected):
    d = blank(3, three_player_tip=tip)
    d["round"] = 3
    d["start_player"] = start
    d["last_start"] = last_start
    last = (start + 2) % 3
    feed_position(d, last, left=1)
    d["players"][last]["cubes"] = [0, 0, 1, 1]
    for p in range(3):
        d["players"][p]["score"] = scores[p]
    g = game(d)
    g.apply(FEED_FISH)
    d = g.to_dict()
    assert (d["round"], d["start_player"], d["current"], d["phase"]) == (4, expected, expected,
                                                                          "turn")
    ls = list(last_start)
    ls[expected] = 4
    assert d["last_start"] == ls


def test_two_player_rotation_and_three_rounds():
    d = end_position(2, rounds=3)
    assert d["round"] == 3
    g = game(d)
    g.apply(FEED_FISH)
    assert g.is_terminal()
    d = blank(2)
    feed_position(d, 1, left=1)
    d["players"][1]["cubes"] = [0, 0, 1, 1]
    g = game(d)
    g.apply(FEED_WHEAT)
    d = g.to_dict()
    assert (d["round"], d["start_player"], d["last_start"]) == (2, 1, [1, 2])


# ------------------------------------------------------------------ end of game


@pytest.mark.parametrize("mode, vp", [("own", 8), ("all", 12)])
def test_castle(mode, vp):
    d = end_position(2, castle_counts=mode)
    put(d, 2, 2, CASTLE, 0)
    put(d, 1, 2, WHEAT, 0)
    put(d, 2, 1, WELL, 0)
    put(d, 3, 3, WHEAT, 1)
    put(d, 4, 4, WHEAT, 0)           # not adjacent
    d["players"][0]["coins"] = 2
    g = game(d)
    g.apply(FEED_FISH)
    assert g.scores() == [vp, 1] and P(g, 0)["stats"]["vp_castle"] == vp


def test_no_goal_after_final_scoring():
    """A15: the coin conversion does not claim card 12 or 13."""
    d = end_position(2)
    set_goal(d, 0, 13)
    d["players"][0]["coins"] = 5
    g = game(d)
    g.apply(FEED_FISH)
    assert P(g, 0)["goals"][0] == [13, 0] and g.scores() == [1, 1]


# ----------------------------------------------------------- random games, invariants


def check_invariants(d, n):
    w, houses, ng = d["data"]["per_count"][str(n)]
    pl = d["players"]
    for t in range(4):
        assert d["supply"][t] + sum(p["cubes"][t] for p in pl) == 15
        assert d["supply"][t] >= 0 and all(p["cubes"][t] >= 0 for p in pl)
    assert d["bank"] + sum(p["coins"] for p in pl) == 40
    assert all(p["coins"] >= 0 for p in pl)
    assert d["bank_min"] <= d["bank"]
    vp_b = [r["vp"] for r in d["data"]["buildings"]]
    gvp = {r["card"]: r["vp"] for r in d["data"]["goals"]}
    for i, p in enumerate(pl):
        owned = [c for c in range(54) if d["owner"][c] == i]
        assert p["houses"] + len(owned) == houses
        assert sum(p["built"]) == len(owned) == p["stats"]["builds"]
        for b in range(25):
            assert p["built"][b] == sum(1 for c in owned if d["building"][c] == b)
        s = p["stats"]
        assert p["score"] == (s["vp_build"] + s["vp_act"] + s["vp_goal"] + s["vp_cathedral"]
                              + s["vp_castle"] + s["vp_watchtower"] + s["vp_coins"]
                              + s["vp_unfed"])
        assert s["vp_build"] == sum(p["built"][b] * vp_b[b] for b in range(25))
        assert s["vp_goal"] == sum(gvp[c] for c, r in p["goals"] if r)
        assert len(p["goals"]) == ng
        assert all(0 <= r <= d["round"] for c, r in p["goals"])
        on_board = sum(1 for c in range(54) if d["worker"][c] == i)
        assert on_board == p["workers_used"] - p["on_site"]
        assert p["workers_used"] <= w
        assert s["unfed"] * 3 == -s["vp_unfed"]
    assert sum(p["stats"]["fees_paid"] for p in pl) == sum(p["stats"]["fees_earned"] for p in pl)
    assert sum(p["stats"]["activations"] for p in pl) == \
        sum(sum(p["act_own"]) + sum(p["act_by_others"]) for p in pl)
    cards = [c for p in pl for c, _ in p["goals"]] + d["goal_deck"] + d["goal_discard"]
    full = list(range(1, 19)) if d["options"]["goal7"] == "feed_wheat" else DECK17
    assert sorted(cards) == full
    if d["phase"] != "draft":
        for b in range(25):
            pend = 1 if d["pending"] == b else 0
            assert d["market"][b] + pend + sum(p["built"][b] for p in pl) == d["market_start"][b]
        assert d["market_start"][0] == 5 and sum(d["market_start"][1:]) == 12
    for c in range(54):
        if d["building"][c] >= 0 or d["worker"][c] >= 0:
            assert "".join(d["data"]["boards"][d["options"]["board_side"]])[c] == "G"
        assert not (d["building"][c] >= 0 and d["worker"][c] >= 0)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_conservation_over_random_games(n):
    for i in range(100):
        market = ["random", "beginner", "draft", "one-of-two"][i % 4]
        side = "AB"[(i // 4) % 2]
        opts = {"market": market, "board_side": side}
        g = LittleTownRef(n, seed_for(2024, i), opts)
        rnd = random.Random(i)
        k = 0
        low = g.to_dict()["bank"]
        while not g.is_terminal():
            la = g.legal_actions()
            assert la == sorted(set(la)) and len(la) >= 2
            assert all(0 <= a < NUM_ACTIONS for a in la)
            g.apply(rnd.choice(la))
            k += 1
            d = g.to_dict()
            low = min(low, d["bank"])
            assert d["bank_min"] == low
            if i < 20 or g.is_terminal():
                check_invariants(d, n)
        d = g.to_dict()
        w = {2: 5, 3: 4, 4: 3}[n]
        assert d["decisions"] == k <= 1000
        assert d["end_reason"] == "end" and d["round"] == 4
        assert d["turns_total"] == 4 * n * w
        for p in d["players"]:
            assert p["stats"]["placements"] + p["stats"]["builds"] == 4 * w
            assert p["stats"]["vp_coins"] == p["coins"] // 3
            assert p["workers_used"] == w
        assert g.legal_actions() == []


def test_to_dict_layout():
    g = play_random_game(3, 11, {"market": "draft"}, bot_seed=3)
    d = g.to_dict()
    assert list(d) == ["game", "n_players", "options", "data", "rng", "phase", "current",
                       "round", "start_player", "first_player", "last_start", "turn",
                       "turns_total", "decisions", "end_reason", "supply", "bank", "bank_min",
                       "market", "market_start", "building", "owner", "worker", "pending",
                       "placement", "eor", "feed", "goal_deck", "goal_discard", "draft",
                       "players"]
    assert list(d["options"]) == list(DEFAULT_OPTIONS)
    assert d["data"] == DEFAULT_DATA
    assert d["rng"].startswith("0x") and len(d["rng"]) == 18 and d["rng"] == d["rng"].lower()
    assert list(d["placement"]) == ["seat", "cell", "gathered", "used", "acts", "vp_acts",
                                    "gathered_n", "gathered_types"]
    assert list(d["draft"]) == ["deck", "hands", "picks", "round"]
    assert list(d["players"][0]) == ["coins", "cubes", "score", "houses", "workers_used",
                                     "on_site", "goals", "built", "built_round", "act_own",
                                     "act_by_others", "pick", "stats"]
    assert list(d["players"][0]["stats"]) == [
        "placements", "builds", "activations", "gathered", "cubes_bought", "food_bought",
        "fees_paid", "fees_earned", "unfed", "vp_build", "vp_act", "vp_goal", "vp_cathedral",
        "vp_castle", "vp_watchtower", "vp_coins", "vp_unfed"]
    assert len(d["building"]) == len(d["owner"]) == len(d["worker"]) == 54
    assert sum(sum(1 for x in p["pick"] if x) for p in d["players"]) == 12
    bad = dict(d)
    del bad["turns_total"]
    with pytest.raises(ValueError):
        LittleTownRef.from_dict(bad)


def test_same_seed_same_game():
    a = play_random_game(4, 123, {"market": "one-of-two"}, bot_seed=9)
    b = play_random_game(4, 123, {"market": "one-of-two"}, bot_seed=9)
    assert a.to_dict() == b.to_dict()
    c = play_random_game(4, 124, {"market": "one-of-two"}, bot_seed=9)
    assert c.to_dict() != a.to_dict()
    assert LittleTownRef(3, 5).to_dict() == LittleTownRef(3, 5).to_dict()


def test_illegal_action_raises():
    g = LittleTownRef(2, 1)
    bad = next(a for a in range(NUM_ACTIONS) if a not in g.legal_actions())
    before = g.to_dict()
    with pytest.raises(ValueError):
        g.apply(bad)
    with pytest.raises(ValueError):
        g.apply(True)
    assert g.to_dict() == before


@pytest.mark.parametrize("market", ["random", "beginner", "draft", "one-of-two"])
@pytest.mark.parametrize("side", ["A", "B"])
def test_market_variants_and_board_sides_play_to_the_end(market, side):
    for i in range(60):
        n = 2 + i % 3
        g = play_random_game(n, seed_for(31, i), {"market": market, "board_side": side},
                             bot_seed=i)
        d = g.to_dict()
        assert g.is_terminal() and g.legal_actions() == [] and d["end_reason"] == "end"
        check_invariants(d, n)
        if market == "beginner":
            assert d["market_start"] == [5] + [1 if b in BIRDS else 0 for b in range(1, 25)]
        if market in ("draft", "one-of-two"):
            picked = [b for b in range(1, 25) if any(p["pick"][b] for p in d["players"])]
            assert picked == [b for b in range(1, 25) if d["market_start"][b]]
        else:
            assert all(x == 0 for p in d["players"] for x in p["pick"])


OPTION_SETS = [
    {"first_player": "seat0"},
    {"rounds": 3},
    {"three_player_tip": False},
    {"goal7": "feed_wheat"},
    {"bang_check": "any_listed", "bang_redraw": "once"},
    {"optional_gather": True},
    {"coin_bank": "limited"},
    {"cathedral_counts_own": False, "castle_counts": "all", "watchtower_workers_block": True},
    {"residence_gathers_terrain": True, "residence_pays_fees": False},
    {"pawnshop_must_differ": False, "goal5_counts_pawnshop": False},
    {"gather_includes_buildings": True},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_option_variants_play_to_the_end(options):
    rounds = options.get("rounds", 4)
    for i in range(60):
        n = 2 + i % 3
        opts = dict(options)
        opts["market"] = ["random", "beginner", "draft", "one-of-two"][i % 4]
        g = play_random_game(n, seed_for(41, i), opts, bot_seed=i)
        d = g.to_dict()
        assert g.is_terminal() and d["round"] == rounds and d["end_reason"] == "end"
        check_invariants(d, n)
        w = {2: 5, 3: 4, 4: 3}[n]
        assert d["turns_total"] == rounds * n * w
        if options.get("coin_bank") == "limited":
            assert d["bank_min"] >= 0
        if options.get("first_player") == "seat0":
            assert d["first_player"] == 0
