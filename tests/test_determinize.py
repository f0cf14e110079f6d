"""The determinization kernels (issue 14, item 2): every registered game, 2-4 players where
allowed, positions reached by random play from several seeds (early, middle, near the end).

For a seat ``p`` and a position ``A``:
- the information set: a state ``B`` that differs from ``A`` only in what ``p`` cannot see
  (``B = determinize(A, p, other seed)``, and a game's own direct change of hidden items) gives
  ``determinize(A, p, r) == determinize(B, p, r)`` array by array;
- the determinized state keeps ``p``'s view (``VIEWS[game]``: every public quantity and ``p``'s
  own hidden items, from the state dict), passes ``check_invariants``, and keeps the legal
  actions when ``p`` is the seat to act;
- it plays to the end by random play (Python interface and the compiled ``play_out``);
- the hidden part changes across seeds (a no-op determinize fails).
Each game's hidden items are listed in docs/games/<game>.md, "Hidden information and
determinization".
"""

import random

import numpy as np
import pytest

import sim
from sim.core.errors import UserError

GAMES = sim.list_games()
SEEDS = (1, 2, 3)
FRACTIONS = (0.0, 0.1, 0.5, 0.9)


# ---- each game's view of a seat: what determinize must keep ------------------------------------
def _go_town_view(d, seat):
    d = dict(d)
    d.pop("rng")
    d["deck"] = len(d["deck"])
    d["hands"] = [h if p == seat else sum(h.values()) for p, h in enumerate(d["hands"])]
    return d


def _go_town_swap(game, st, seat, rnd):
    """Move one card between two unknown places (a rival's hand, the pile), sizes kept."""
    s = game.copy_state(st)
    n = int(s.meta[0])
    rivals = [p for p in range(n) if p != seat and s.hands[p].sum() > 0]
    dn = int(s.meta[7])
    if not rivals or dn == 0:
        return None
    p = rnd.choice(rivals)
    k = int(rnd.choice(np.nonzero(s.hands[p])[0]))
    j = rnd.randrange(dn)
    s.hands[p, k] -= 1
    s.hands[p, s.deck[j]] += 1
    s.deck[j] = k
    return s


def _wolves_view(d, seat):
    d = dict(d)
    d.pop("rng")
    deck = d["deck"]
    zp = d["data"]["bottom_packet"] + 1
    # the deck's size, and (implied by what is public: the pigs revealed and the set-up) how
    # many pigs it holds and how many of them lie in the bottom packet
    d["deck"] = (len(deck), sum(c.startswith("PIG") for c in deck),
                 sum(c.startswith("PIG") for c in deck[:zp]))
    d["discard"] = len(d["discard"])
    public_commit = d["stage"] == "final2p" and d["round_step"] >= 2
    d["committed"] = [c if p == seat or public_commit else c is not None
                      for p, c in enumerate(d["committed"])]
    d["hands"] = [h if p == seat else (len(h), d["committed"][p] if public_commit else None)
                  for p, h in enumerate(d["hands"])]
    d["passing"] = [c if p == seat else c is not None for p, c in enumerate(d["passing"])]
    return d


def _wolves_swap(game, st, seat, rnd):
    """Swap a rival's hand card (not a revealed committed one) with a building card of the
    deck or of the face-down discard pile."""
    from sim.three_little_wolves import constants as K

    s = game.copy_state(st)
    n = int(s.meta[K.M_NP])
    if int(s.meta[K.M_STAGE]) == K.ST_FINAL2P:
        return None
    cand = [(p, i) for p in range(n) if p != seat for i in range(int(s.seat[p, K.S_HN]))]
    others = [("deck", j) for j in range(int(s.meta[K.M_DECKN])) if s.deck[j] < K.NBUILD]
    others += [("discard", c) for c in range(K.NBUILD) if s.discard[c]]
    if not cand or not others:
        return None
    p, i = rnd.choice(cand)
    where, j = rnd.choice(others)
    c = int(s.hands[p, i])
    if where == "deck":
        x = int(s.deck[j])
        s.deck[j] = c
    else:
        x = j
        s.discard[x] = 0
        s.discard[c] = 1
    hn = int(s.seat[p, K.S_HN])
    s.hands[p, :hn] = sorted([x] + [int(v) for v in s.hands[p, :hn] if v != c])
    return s


def _province_view(d, seat):
    d = dict(d)
    d.pop("rng")
    g = dict(d["goals"])
    g["stack"] = (g["stack"][: g["next"] + 1], len(g["stack"]))
    d["goals"] = g
    return d


def _province_swap(game, st, seat, rnd):
    """Put a token that is not in the stack (or another face-down one) in a face-down slot."""
    from sim.province import constants as K

    s = game.copy_state(st)
    x = s.x
    n, nxt = int(x[K.M_GN]), int(x[K.M_GNEXT])
    if nxt + 1 >= n:
        return None
    i = rnd.randrange(nxt + 1, n)
    stack = [int(v) for v in x[K.X_GS: K.X_GS + n]]
    out = [g for g in range(int(x[K.X_CONSTS + K.C_GOALS_TOTAL])) if g not in stack]
    if out:
        x[K.X_GS + i] = rnd.choice(out)
    else:
        j = rnd.randrange(nxt + 1, n)
        x[K.X_GS + i], x[K.X_GS + j] = x[K.X_GS + j], x[K.X_GS + i]
    return s


def _little_town_view(d, seat):
    d = dict(d)
    d.pop("rng")
    d["goal_deck"] = len(d["goal_deck"])
    n = d["n_players"]
    dr = dict(d["draft"])
    r = dr["round"]
    dr["deck"] = len(dr["deck"])
    # a rival's hand in the draft variant is known when the seat passed it on (k rounds ago
    # for the rival k seats on), but not which tile of it the rival picked this round
    known = [p == seat or (d["options"]["market"] == "draft" and (p - seat) % n <= r)
             for p in range(n)]
    dr["hands"] = [h if p == seat else (sorted(h + ([x] if x >= 0 else [])) if known[p]
                                         else len(h))
                   for p, (h, x) in enumerate(zip(dr["hands"], dr["picks"], strict=True))]
    dr["picks"] = [x if p == seat else x >= 0 for p, x in enumerate(dr["picks"])]
    d["draft"] = dr
    players = []
    for p, pl in enumerate(d["players"]):
        pl = dict(pl)
        if p != seat:
            pl["goals"] = [(c if done else None, done) for c, done in pl["goals"]]
            pl["pick"] = [x if x != r + 1 else 0 for x in pl["pick"]]
        players.append(pl)
    d["players"] = players
    assert len(players) == n
    return d


def _little_town_swap(game, st, seat, rnd):
    """Swap a rival's unclaimed goal card with a card of the goal deck."""
    from sim.little_town import constants as K

    n, ng = int(st.meta[K.M_NP]), int(st.meta[K.M_NGOALS])
    slots = [(p, j) for p in range(n) if p != seat for j in range(ng)
             if st.seat[p, K.SE_GOALS + j] and not st.seat[p, K.SE_GDONE + j]]
    gn = int(st.meta[K.M_GDECK_N])
    if not slots or gn == 0:
        return None
    s = game.copy_state(st)
    p, j = rnd.choice(slots)
    i = rnd.randrange(gn)
    a, b = int(s.seat[p, K.SE_GOALS + j]), int(s.piles[K.PL_GDECK, i])
    s.seat[p, K.SE_GOALS + j] = b
    s.piles[K.PL_GDECK, i] = a
    return s


def _suburbia_letters():
    from sim.suburbia import constants as K
    from sim.suburbia.data import TILE_NAMES

    tiles = sim.get_game("suburbia").new_state(2, 0).tiles
    return {TILE_NAMES[k]: int(tiles[k, K.T_STACK]) for k in range(1, K.NK)}


def _suburbia_view(d, seat):
    from sim.suburbia import constants as K

    d = dict(d)
    d.pop("rng")
    if d["phase"] == "over":
        return d
    letter = _suburbia_letters()
    pile = d["pile"]
    # the pile's size, each slot's letter, and whether the 1 More Round is still in it (at a
    # slot the set-up allows); the box: basic tiles, and how many tiles of each letter
    d["pile"] = (len(pile), [letter[k] if k != "1 More Round" else 0 for k in pile].count(0),
                 [letter[k] for k in pile if k != "1 More Round"])
    box = d["box"]
    d["box"] = ({k: v for k, v in box.items() if letter[k] == K.STACK_BASIC},
                {x: sum(v for k, v in box.items() if letter[k] == x)
                 for x in (K.STACK_A, K.STACK_B, K.STACK_C)})
    if d["goal_offers"]:
        d["goal_offers"] = [o if p == seat else len(o) for p, o in enumerate(d["goal_offers"])]
        d["private_goals"] = [g if p == seat else g is not None
                              for p, g in enumerate(d["private_goals"])]
    return d


def _suburbia_swap(game, st, seat, rnd):
    """Swap two pile slots of one letter, or a pile tile with a box tile of its letter."""
    from sim.suburbia import constants as K

    s = game.copy_state(st)
    pn = int(s.meta[K.M_PILEN])
    if pn < 2 or int(s.meta[K.M_PHASE]) == K.PH_OVER:
        return None
    i = rnd.randrange(pn)
    k = int(s.pile[i])
    if k == K.K_OMR:
        return None
    st_k = int(s.tiles[k, K.T_STACK])
    box = [b for b in range(1, K.NK) if s.box[b] and int(s.tiles[b, K.T_STACK]) == st_k
           and b != k]
    if box and rnd.random() < 0.5:
        b = rnd.choice(box)
        s.box[b] -= 1
        s.box[k] += 1
        s.pile[i] = b
        return s
    same = [j for j in range(pn) if s.pile[j] != K.K_OMR
            and int(s.tiles[int(s.pile[j]), K.T_STACK]) == st_k]
    j = rnd.choice(same)
    s.pile[i], s.pile[j] = s.pile[j], s.pile[i]
    return s


VIEWS = {"go-town": _go_town_view, "three-little-wolves": _wolves_view,
         "province": _province_view, "little-town": _little_town_view,
         "suburbia": _suburbia_view}
SWAPS = {"go-town": _go_town_swap, "three-little-wolves": _wolves_swap,
         "province": _province_swap, "little-town": _little_town_swap,
         "suburbia": _suburbia_swap}


# ---- positions ---------------------------------------------------------------------------------
def _positions(gid):
    """(n_players, seed, state) reached by random play at each of FRACTIONS of a game."""
    game = sim.get_game(gid)
    out = []
    for n in range(game.min_players, game.max_players + 1):
        for seed in SEEDS:
            st = game.new_state(n, seed)
            rnd = random.Random(seed)
            trace = [st]
            while not game.is_terminal(st):
                legal = game.legal_actions(st)
                st = game.apply_action(st, int(legal[rnd.randrange(len(legal))]))
                trace.append(st)
            for f in FRACTIONS:
                out.append((n, seed, trace[min(int(f * len(trace)), len(trace) - 2)]))
    return out


_CACHE: dict = {}


def positions(gid):
    if gid not in _CACHE:
        _CACHE[gid] = _positions(gid)
    return _CACHE[gid]


def _eq(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


# ---- the tests ---------------------------------------------------------------------------------
@pytest.mark.parametrize("gid", GAMES)
def test_registered_and_python_entry(gid):
    game = sim.get_game(gid)
    st = game.new_state(game.min_players, 5)
    before = game.copy_state(st)
    d = game.determinize(st, 0, 7)
    assert _eq(before, st), "determinize changed the state it was given"
    assert _eq(d, game.determinize(st, 0, 7))
    for bad in (-1, game.min_players, 1.0, True, "0"):
        with pytest.raises(UserError, match="seat must be"):
            game.determinize(st, bad, 1)
    with pytest.raises(UserError, match="seed must be"):
        game.determinize(st, 0, "1")


@pytest.mark.parametrize("gid", GAMES)
def test_information_set(gid):
    """Two states ``seat`` cannot tell apart give the same determinization."""
    game = sim.get_game(gid)
    rnd = random.Random(11)
    swaps = 0
    for n, seed, st in positions(gid):
        for seat in range(n):
            r = 1000 * seed + seat
            a = game.determinize(st, seat, r)
            b_states = [game.determinize(st, seat, r + 1), game.determinize(st, seat, r + 2)]
            swap = SWAPS[gid](game, st, seat, rnd)
            if swap is not None:
                game.check_invariants(swap)
                b_states.append(swap)
                swaps += 1
            for b in b_states:
                assert VIEWS[gid](game.state_to_dict(b), seat) == \
                    VIEWS[gid](game.state_to_dict(st), seat)
                assert _eq(a, game.determinize(b, seat, r)), (n, seed, seat)
    assert swaps > 0, "the direct change of hidden items was never tried"


@pytest.mark.parametrize("gid", GAMES)
def test_keeps_view_invariants_and_legal_actions(gid):
    game = sim.get_game(gid)
    for n, seed, st in positions(gid):
        view = {seat: VIEWS[gid](game.state_to_dict(st), seat) for seat in range(n)}
        cur = game.current_player(st)
        for seat in range(n):
            d = game.determinize(st, seat, 77 * seed + seat)
            game.check_invariants(d)
            assert VIEWS[gid](game.state_to_dict(d), seat) == view[seat], (n, seed, seat)
            assert game.is_terminal(d) == game.is_terminal(st)
            assert game.current_player(d) == cur
            if seat == cur:
                assert np.array_equal(game.legal_actions(d), game.legal_actions(st))
            # the dict round trip holds (the state is a legal position)
            assert game.state_to_dict(game.state_from_dict(game.state_to_dict(d))) == \
                game.state_to_dict(d)


@pytest.mark.parametrize("gid", GAMES)
def test_determinized_states_play_to_the_end(gid):
    from strategies import common

    game = sim.get_game(gid)
    codes, params = game.bots.params_matrix(["random"])
    for i, (n, seed, st) in enumerate(positions(gid)):
        seat = i % n
        d = game.determinize(st, seat, seed + 31 * i)
        rnd = random.Random(i)
        steps = 0
        while not game.is_terminal(d):
            legal = game.legal_actions(d)
            d = game.apply_action(d, int(legal[rnd.randrange(len(legal))]))
            steps += 1
            assert steps <= game.max_game_length({})
        game.check_invariants(d)
        # the compiled playout over the contract from a determinized state
        d2 = game.determinize(st, seat, seed + 31 * i)
        legal = np.empty(game.num_actions, np.int32)
        common.play_out(d2, codes, params, np.zeros(4, np.int64), legal, game.bot_rng(i),
                        game.max_game_length({}))
        assert game.is_terminal(d2)
        game.check_invariants(d2)


@pytest.mark.parametrize("gid", GAMES)
def test_hidden_part_changes_with_the_seed(gid):
    """Over a handful of seeds the determinized states differ (beyond the chance generator)
    in positions with hidden items; and the chance generator is always reseeded."""
    game = sim.get_game(gid)
    changed = 0
    tried = 0
    for n, seed, st in positions(gid):
        if game.is_terminal(st):
            continue
        for seat in range(n):
            ds = [game.determinize(st, seat, r) for r in range(6)]
            assert len({int(d.rng[0]) if hasattr(d, "rng") else 0 for d in ds}) == 6
            dicts = []
            for d in ds:
                dd = game.state_to_dict(d)
                dd.pop("rng", None)
                dicts.append(repr(dd))
            tried += 1
            changed += len(set(dicts)) > 1
    assert tried > 0
    # most positions have something hidden (a rival's hand, the deck order, ...)
    assert changed >= tried // 2, (changed, tried)


# rule options whose hidden information differs (the draft variants, the 2-player dummy
# placed by its holder, smaller hands, the eager reshuffle)
OPTION_CASES = [(gid, {}) for gid in GAMES] + [
    (g, o) for g, o in [("little-town", {"market": "draft"}),
                        ("little-town", {"market": "one-of-two"}),
                        ("little-town", {"bang_redraw": "once"}),
                        ("three-little-wolves", {"dummy_policy": "holder_choice"}),
                        ("three-little-wolves", {"hand_size": 4}),
                        ("go-town", {"reshuffle_timing": "eager"}),
                        ("suburbia", {"omr_replacement": False})] if g in GAMES]


@pytest.mark.parametrize("gid,options", OPTION_CASES,
                         ids=[f"{g}-{','.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
                              for g, o in OPTION_CASES])
def test_every_position_of_a_game(gid, options):
    """Every position of one random game per player count (every phase the game reaches):
    the seat to act and one rival keep their views, the invariants hold, and the information
    set holds for ``B = determinize(A, seat, other seed)``."""
    game = sim.get_game(gid)
    for n in range(game.min_players, game.max_players + 1):
        st = game.new_state(n, 100 + n, options)
        rnd = random.Random(n)
        i = 0
        while not game.is_terminal(st):
            cur = game.current_player(st)
            for seat in (cur, (cur + 1 + i) % n):
                a = game.determinize(st, seat, i)
                game.check_invariants(a)
                assert VIEWS[gid](game.state_to_dict(a), seat) == \
                    VIEWS[gid](game.state_to_dict(st), seat), (n, i, seat)
                b = game.determinize(st, seat, i + 1)
                assert _eq(game.determinize(b, seat, 5), game.determinize(st, seat, 5))
                if seat == cur:
                    assert np.array_equal(game.legal_actions(a), game.legal_actions(st))
            legal = game.legal_actions(st)
            st = game.apply_action(st, int(legal[rnd.randrange(len(legal))]))
            i += 1
