"""The games' conservation laws as they were written in plain numpy before they became the
compiled ``invariants`` kernels (sim/<game>/invariants.py): an independent reference that
tests/test_soak.py compares with the kernels on played and corrupted states. Each raises
AssertionError (or IndexError/ValueError on a value out of range) when a law is broken."""

from __future__ import annotations

import numpy as np

from sim.go_town import constants as GT
from sim.little_town import constants as LT
from sim.province import constants as PV
from sim.province.game import _Views
from sim.province.kernels import owned_count, workers_of
from sim.suburbia import constants as SB
from sim.three_little_wolves import constants as TW


def go_town(state) -> None:
    """The 54 cards (the data's counts) are all somewhere: deck, discard, hands, floors,
    dogs on floors, milkshakes in front of players."""
    n = int(state.meta[GT.M_NP])
    seen = np.zeros(GT.NT, np.int64)
    for k in state.deck[: state.meta[GT.M_DECKN]]:
        seen[k] += 1
    seen += state.discard + state.hands[:n].sum(axis=0)
    for p in range(n):
        for f in range(int(state.n_floors[p])):
            seen[state.floors[p, f, 0]] += 1
            seen[state.floors[p, f, 1]] += 1
            seen[GT.DOG] += state.dogs[p, f]
        seen[GT.MILK] += state.milk[p]
    assert (seen == state.counts).all(), f"cards not conserved: {seen - state.counts}"
    assert (state.n_floors[:n] >= 0).all() and (state.skips[:n] >= 0).all()


def little_town(state) -> None:
    """Conservation (docs §11): cubes per type and coins (supply/bank plus players),
    houses, workers, tiles; and the score equals the sum of its parts."""
    s = state
    n = int(s.meta[LT.M_NP])
    cubes = s.seat[:n, LT.SE_CUBES:LT.SE_CUBES + 4]
    supply = s.meta[LT.M_SUPPLY:LT.M_SUPPLY + 4]
    total = supply + cubes.sum(axis=0)
    assert (total == s.consts[LT.C_SUPPLY]).all(), f"cubes not conserved: {total}"
    assert (supply >= 0).all() and (cubes >= 0).all()
    coins = s.seat[:n, LT.SE_COINS]
    assert int(s.meta[LT.M_BANK]) + int(coins.sum()) == int(s.consts[LT.C_COIN_TOTAL]), \
        "coins not conserved"
    assert (coins >= 0).all(), "negative coins"
    owner, worker, building = s.cells[LT.CE_OWN], s.cells[LT.CE_WRK], s.cells[LT.CE_BLD]
    owned = np.array([(owner == p).sum() for p in range(n)])
    assert (owned + s.seat[:n, LT.SE_HOUSES] == s.meta[LT.M_HOUSES]).all(), "houses not conserved"
    on_board = np.array([(worker == p).sum() for p in range(n)])
    wused = s.seat[:n, LT.SE_WUSED]
    assert (on_board + s.seat[:n, LT.SE_ONSITE] == wused).all(), "workers not conserved"
    assert (wused <= s.meta[LT.M_WORKERS]).all()
    placed = np.array([(building == b).sum() for b in range(LT.NB)])
    if s.meta[LT.M_PENDING] >= 0:
        placed[s.meta[LT.M_PENDING]] += 1  # bought, not yet sited
    cnt = s.bdata[:, LT.BD_COUNT]
    market = s.mkt[LT.MK_MARKET]
    assert (placed + market <= cnt).all(), "tiles not conserved"
    assert placed[0] + market[0] == cnt[0], "wheat fields not conserved"
    assert ((building >= 0) == (owner >= 0)).all()
    parts = s.seat[:n, LT.SE_STATS + 9:LT.SE_STATS + LT.N_STATS].sum(axis=1)  # vp_build .. vp_unfed
    assert (parts == s.seat[:n, LT.SE_SCORE]).all(), "score is not the sum of its parts"


def three_little_wolves(state) -> None:
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


def province(state) -> None:
    """Coins: both seats and the supply add up to ``coin_total``, none negative; workers,
    sailors, structures, first builders, the Lender and the goal stack are consistent."""
    v = _Views(state.x)
    m = v.meta
    total = int(v.opts[PV.O_COIN_TOTAL])
    coins = v.coins
    assert (coins >= 0).all() and coins.sum() <= total, f"coins {coins} vs supply {total}"
    assert m[PV.M_LABOR] >= 0, "negative labor"
    if m[PV.M_PHASE] == PV.PH_OVER:
        assert m[PV.M_END] != 0
    assert ((v.pos >= -1) & (v.pos <= 2)).all()
    assert (v.pos[:3] >= 0).all(), "greens always on the cycle"
    hired = v.hired
    cst = dict(zip(PV.CONST_NAMES, v.consts.tolist()))
    assert hired.sum() <= cst["max_sailors"] and (hired <= cst["sailors_per_player"]).all()
    for p in range(2):
        for k in range(3):
            on = v.pos[PV.W_SAILOR0 + 3 * p + k] >= 0
            assert on == (k < hired[p]), "sailors hired in order"
        assert owned_count(state.x, p) <= cst["structure_tokens"]
    for k in range(PV.NS):
        f = int(v.fb[k])
        own_any = bool(v.owned[:, k].any())
        assert (f >= 0) == own_any, f"first builder of {PV.STRUCT_NAMES[k]}"
        if f >= 0:
            assert v.owned[f, k] == 1
            if v.owned[1 - f, k]:
                assert v.bturn[1 - f, k] >= v.bturn[f, k]
        for p in range(2):
            assert (v.bturn[p, k] >= 0) == bool(v.owned[p, k])
    assert (v.pos[3] >= 0) == bool(v.owned[:, 2].any())
    assert (v.pos[4] >= 0) == bool(v.owned[:, 3].any())
    assert m[PV.M_LHOLDER] in (-1, 0, 1)
    if m[PV.M_LHOLDER] >= 0:
        assert v.owned[m[PV.M_LHOLDER], 0] == 1, "the holder owns a Lender"
    gn, nx = int(m[PV.M_GN]), int(m[PV.M_GNEXT])
    assert 0 <= nx <= gn
    assert all(int(r) in (-1, 0, 1) for r in v.gres[:nx])
    assert all(int(r) == -2 for r in v.gres[nx:gn])
    assert len(set(v.gstack[:gn].tolist())) == gn, "goal tokens drawn once"
    for p in range(2):
        assert workers_of(state.x, p) >= 3


def suburbia(state) -> None:
    """Tiles are conserved (pile, market, discard, box, supply, boroughs, Lakes' sources,
    pending, the 1MR set aside); tracks within their limits; boroughs consistent."""
    n = int(state.meta[SB.M_NP])
    seen = np.zeros(SB.NK, np.int64)
    for k in state.pile[: state.meta[SB.M_PILEN]]:
        seen[k] += 1
    for k in state.market:
        seen[k] += 1
    seen[0] = 0
    seen += state.discard + state.box
    seen[1:4] += state.supply
    for p in range(n):
        nt = int(state.pl[p, SB.P_NT])
        kc = np.zeros(SB.NK, np.int64)
        assert int((state.grid[p] > 0).sum()) == nt, "grid and tile list disagree"
        for t in range(nt):
            k = int(state.tk[p, t, SB.K_KIND])
            kc[k] += 1
            assert state.grid[p, state.tk[p, t, SB.K_CELL]] == t + 1
            if k == SB.K_LAKE:
                seen[state.tk[p, t, SB.K_FROM]] += 1
            else:
                seen[k] += 1
        assert (kc == state.kc[p]).all(), "kind counts out of date"
        assert int(state.tk[p, :nt, SB.K_INV].sum()) == int(state.pl[p, SB.P_NINV])
        assert state.pl[p, SB.P_NINV] <= state.consts[SB.C_INVEST]
        assert -5 <= state.pl[p, SB.P_INC] <= 15 and -5 <= state.pl[p, SB.P_REP] <= 15
        assert state.pl[p, SB.P_POP] >= 0 and state.pl[p, SB.P_MONEY] >= 0
    src = int(state.meta[SB.M_PSRC])
    if src in (SB.SRC_BUY, SB.SRC_BASIC):
        seen[state.meta[SB.M_PKIND]] += 1
    elif src == SB.SRC_LAKE:
        seen[state.meta[SB.M_PFROM]] += 1
    if SB.K_OMR not in state.pile[: state.meta[SB.M_PILEN]]:
        seen[SB.K_OMR] += 1
    counts = state.tiles[:, SB.T_COUNT].copy()
    counts[SB.K_LAKE] = 0
    counts[0] = 0
    seen[SB.K_LAKE] = 0
    assert (seen == counts).all(), f"tiles not conserved: {dict(enumerate((seen - counts).tolist()))}"
    ph = int(state.meta[SB.M_PHASE])
    if ph == SB.PH_ACTION:
        filled = state.market != 0
        assert not (filled[:-1] & ~filled[1:]).any(), "market not packed right"
    assert (src != SB.SRC_NONE) == (ph == SB.PH_PLACE)
    assert ph != SB.PH_DISCARD or src == SB.SRC_NONE
    assert ph != SB.PH_EXTRA or n == 1
