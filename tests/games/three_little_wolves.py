"""The Three Little Wolves's hooks for the generic suites (what each one is for: tests/games/__init__.py)."""

from __future__ import annotations

import numpy as np

from sim.three_little_wolves import constants as TW

EFFECT_FAMILIES = {"card marks", "floor icons", "scoring numbers"}
CRASH_CASES = [(["current"], 7, 3), (["wolves_left", 0], [3, 4, 99], 2),
               (["deck", 0], "X99", 2)]
BENCH_SCALE = 0.5
DETERMINIZE_OPTIONS = [{"dummy_policy": "holder_choice"}, {"hand_size": 4}]


def view(d, seat):
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


def swap(game, st, seat, rnd):
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


def invariants(state) -> None:
    """Conservation (doc §9): each of the 59 cards in exactly one place; each wolf unused or
    on one house; pig tokens placed + left + lost = the three tokens; houses well formed."""
    meta = state.meta
    n = int(meta[TW.M_NP])
    n_own = int(meta[TW.M_NOWN])
    seen = np.zeros(TW.NCARD, np.int64)
    for c in state.deck[: meta[TW.M_DECKN]]:
        seen[c] += 1
    for p in range(n):
        for c in state.hands[p, : state.seat[p, TW.S_HN]]:
            seen[c] += 1
        if state.seat[p, TW.S_PASS] >= 0:
            seen[state.seat[p, TW.S_PASS]] += 1
        hand = state.hands[p, : state.seat[p, TW.S_HN]]
        assert (np.diff(hand) > 0).all(), "hand not ascending"
        cm = state.seat[p, TW.S_COMMIT]
        # a committed card is in the hand until played; a wolf bet with it in the 2-player
        # end phase (spec §5.4) discards it while the commitment is still recorded
        assert cm < 0 or cm in hand or state.discard[cm], \
            "committed card neither in hand nor discarded"
    seen += state.discard
    for c in state.pigs[: meta[TW.M_NPIGS]]:
        seen[c] += 1
    if meta[TW.M_DCARD] >= 0:
        seen[meta[TW.M_DCARD]] += 1
    wolves = np.zeros((4, 3), np.int64)
    placed_tokens = []
    cards, hs, hf, hb = state.cards, state.hs, state.hf, state.hb
    for o in range(n_own):
        colours = []
        for h in range(TW.MAXH):
            nf = int(hs[o, h, TW.H_NF])
            if nf == 0:
                assert all(hs[o, g, TW.H_NF] == 0 for g in range(h, TW.MAXH)), "house gap"
                break
            fl = hf[o, h, :nf]
            bs = hb[o, h, : hs[o, h, TW.H_NB]]
            for c in list(fl) + list(bs):
                seen[c] += 1
            assert (np.diff(cards[fl, TW.K_NUM]) > 0).all(), "floors not ascending"
            assert (np.diff(cards[bs, TW.K_NUM]) > 0).all(), "basements not ascending"
            assert all(cards[bs, TW.K_NUM] <= 3), "basement above 3"
            col = int(hs[o, h, TW.H_COL])
            cols = set(int(x) for x in cards[list(fl) + list(bs), TW.K_COL]) - {3}
            if col == TW.UNASSIGNED:
                assert not cols, "unassigned house with coloured cards"
            else:
                assert cols <= {col}, "house with cards of another colour"
                colours.append(col)
            if hs[o, h, TW.H_PIG]:
                placed_tokens.append(int(hs[o, h, TW.H_PIG]))
            for w in range(int(hs[o, h, TW.H_NW])):
                q = int(hs[o, h, TW.H_W0S + 2 * w])
                v = list(state.consts[TW.C_WOLF:TW.C_WOLF + 3]).index(hs[o, h, TW.H_W0V + 2 * w])
                wolves[q, v] += 1
        assert len(colours) == len(set(colours)), "two houses of one colour"
    assert (seen == 1).all(), f"cards not conserved: {np.nonzero(seen != 1)[0].tolist()}"
    for p in range(n):
        for v in range(3):
            assert wolves[p, v] == state.seat[p, TW.S_WU + v], "wolf not conserved"
    toks = sorted(placed_tokens + [int(state.consts[TW.C_TOKEN + t]) for t in range(3)
                                   if state.tokens[t] != TW.T_PLACED])
    assert toks == sorted(int(x) for x in state.consts[TW.C_TOKEN:TW.C_TOKEN + 3]), \
        "pig tokens not conserved"
