"""Little Town kernels: setup, legal actions and action effects.

Every function here is ``@njit(cache=True)`` and works in place on the arrays of the state. The
hot functions take the arrays themselves (taking a NamedTuple apart costs a reference-count
operation per array, which dominated the run time); the few ``*_state`` wrappers at the end
take the ``LittleTownState`` for the Python API. The full argument list of a kernel is
``meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt`` (the state's
fields in order). Rules: shared/rules/little_town.md (cited as §); encoding and procedures:
docs/games/little_town.md (cited as "doc N").
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.contract import implements, register
from sim.core.rng import next_u64, rand_below, shuffle
from sim.little_town import constants as K


class LittleTownState(NamedTuple):
    """Little Town state: plain numpy arrays (dict form: docs/games/little_town.md §11).

    meta     int64[48]      scalars, the current placement and the supply (slots M_*, P_*)
    rng      uint64[1]      SplitMix64 state
    opts     int64[18]      encoded rule options (slots O_*)
    bdata    int64[25, 20]  building table (columns BD_*; component data)
    gdata    int64[19, 30]  goal table, row = card (columns GD_*, building set from GD_SET)
    geo      int64[54, 15]  terrain in play, neighbours, terrain cubes around, boards A/B (GE_*)
    consts   int64[26]      constants (C_*) and the per-count table (C_PC)
    cells    int64[3, 54]   building, owner, worker per cell (-1 none)
    seat     int64[4, 37]   per seat: coins, score, houses, workers ..., cubes, goals, stats
    sb       int64[4, 6, 25] per seat and building: built, round built, activations, pick,
                            draft hand
    piles    int64[3, 24]   goal deck, goal discard, draft tile pile (bottom first)
    mkt      int64[3, 25]   market, market at the start, a cell holding each building
    scratch  int32[272]     legal-action buffer (internal)
    """

    meta: np.ndarray
    rng: np.ndarray
    opts: np.ndarray
    bdata: np.ndarray
    gdata: np.ndarray
    geo: np.ndarray
    consts: np.ndarray
    cells: np.ndarray
    seat: np.ndarray
    sb: np.ndarray
    piles: np.ndarray
    mkt: np.ndarray
    scratch: np.ndarray


def alloc_state(opts: np.ndarray, arrays: dict[str, np.ndarray]) -> LittleTownState:
    """Empty state arrays for the option array and the data arrays (``data.arrays_from_data``)."""
    geo = np.zeros((K.NCELL, K.GE_N), np.int64)
    for cell in range(K.NCELL):
        r, c = divmod(cell, 9)
        for k, (dr, dc) in enumerate(K.OFFSETS):
            rr, cc = r + dr, c + dc
            geo[cell, K.GE_NBR + k] = rr * 9 + cc if (0 <= rr < 6 and 0 <= cc < 9) else -1
    geo[:, K.GE_BOARD] = arrays["boards"][0]
    geo[:, K.GE_BOARD + 1] = arrays["boards"][1]
    s = LittleTownState(
        meta=np.zeros(K.N_META, np.int64),
        rng=np.zeros(1, np.uint64),
        opts=opts.astype(np.int64).copy(),
        bdata=arrays["bdata"].astype(np.int64).copy(),
        gdata=arrays["gdata"].astype(np.int64).copy(),
        geo=geo,
        consts=arrays["consts"].astype(np.int64).copy(),
        cells=-np.ones((3, K.NCELL), np.int64),
        seat=np.zeros((K.MAXP, K.SE_N), np.int64),
        sb=np.zeros((K.MAXP, K.SB_N, K.NB), np.int64),
        piles=np.zeros((3, K.NDRAFT), np.int64),
        mkt=np.zeros((3, K.NB), np.int64),
        scratch=np.zeros(K.NUM_ACTIONS, np.int32),
    )
    set_side(s.geo, int(s.opts[K.O_SIDE]))
    return s


@njit(cache=True, _nrt=False)
def set_side(geo, side):
    """Terrain of the side in play and the cubes each cell gathers (§2.1: each cell counts)."""
    for cell in range(K.NCELL):
        geo[cell, K.GE_TERR] = geo[cell, K.GE_BOARD + side]
    for cell in range(K.NCELL):
        for t in range(4):
            geo[cell, K.GE_TCNT + t] = 0
        for k in range(8):
            x = geo[cell, K.GE_NBR + k]
            if x < 0:
                continue
            ty = geo[x, K.GE_TERR]
            if ty == K.T_F:
                geo[cell, K.GE_TCNT] += 1
            elif ty == K.T_M:
                geo[cell, K.GE_TCNT + 1] += 1
            elif ty == K.T_L:
                geo[cell, K.GE_TCNT + 2] += 1


# ---------------------------------------------------------------------------------------------
# payments (§6.6; doc 5, L3)
@njit(cache=True, _nrt=False)
def can_pay4(meta, seat, c, n0, n1, n2, n3, k, buy):
    """True if seat ``c`` can pay cubes (n0..n3) and ``k`` coins, buying only missing cubes
    (the supply must hold every missing cube)."""
    miss = 0
    m = n0 - seat[c, K.SE_CUBES]
    if m > 0:
        if meta[K.M_SUPPLY] < m:
            return False
        miss += m
    m = n1 - seat[c, K.SE_CUBES + 1]
    if m > 0:
        if meta[K.M_SUPPLY + 1] < m:
            return False
        miss += m
    m = n2 - seat[c, K.SE_CUBES + 2]
    if m > 0:
        if meta[K.M_SUPPLY + 2] < m:
            return False
        miss += m
    m = n3 - seat[c, K.SE_CUBES + 3]
    if m > 0:
        if meta[K.M_SUPPLY + 3] < m:
            return False
        miss += m
    return seat[c, K.SE_COINS] >= k + buy * miss


@njit(cache=True, _nrt=False)
def _pay1(meta, seat, c, t, need):
    """Pay ``need`` cubes of type t, own cubes first; return the number bought."""
    have = seat[c, K.SE_CUBES + t]
    own = need if need < have else have
    seat[c, K.SE_CUBES + t] = have - own
    meta[K.M_SUPPLY + t] += own
    return need - own


@njit(cache=True, _nrt=False)
def pay4(meta, seat, c, n0, n1, n2, n3, k, buy):
    """Pay (doc 5 "paying"): own cubes to the supply, missing cubes bought, coins to the bank."""
    miss = _pay1(meta, seat, c, 0, n0)
    miss += _pay1(meta, seat, c, 1, n1)
    miss += _pay1(meta, seat, c, 2, n2)
    miss += _pay1(meta, seat, c, 3, n3)
    total = k + buy * miss
    seat[c, K.SE_COINS] -= total
    meta[K.M_BANK] += total
    seat[c, K.SE_STATS + K.ST_CUBES_BOUGHT] += miss


@njit(cache=True, _nrt=False)
def bank_take(meta, opts, amount):
    """Coins paid out by the bank (A4; capped at the bank when coin_bank = limited)."""
    if opts[K.O_BANK] == 1:
        b = meta[K.M_BANK]
        if b < 0:
            b = 0
        if amount > b:
            amount = b
    meta[K.M_BANK] -= amount
    if meta[K.M_BANK] < meta[K.M_BANK_MIN]:
        meta[K.M_BANK_MIN] = meta[K.M_BANK]
    return amount


# ---------------------------------------------------------------------------------------------
# goals (§5, §6.7, doc 8)
@njit(cache=True, _nrt=False)
def claim(meta, gdata, seat, p, j):
    card = seat[p, K.SE_GOALS + j]
    seat[p, K.SE_GDONE + j] = meta[K.M_ROUND]
    v = gdata[card, K.GD_VP]
    seat[p, K.SE_SCORE] += v
    seat[p, K.SE_STATS + K.ST_VP_GOAL] += v


@njit(cache=True, _nrt=False)
def own_count_in_set(cells, gdata, card, p):
    n = 0
    for cell in range(K.NCELL):
        if cells[K.CE_OWN, cell] == p and gdata[card, K.GD_SET + cells[K.CE_BLD, cell]] == 1:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def connected3(cells, geo, p):
    """Goal 1: some own building has >= 2 own orthogonal neighbours (doc 8.1)."""
    for cell in range(K.NCELL):
        if cells[K.CE_OWN, cell] != p:
            continue
        d = 0
        for k in (1, 3, 4, 6):
            x = geo[cell, K.GE_NBR + k]
            if x >= 0 and cells[K.CE_OWN, x] == p:
                d += 1
        if d >= 2:
            return True
    return False


@njit(cache=True, _nrt=False)
def terrain_trio(cells, geo, p):
    """Goal 4: three distinct own buildings next to a lake, a mountain and a forest.

    Counts own buildings by the set of terrains around them (bit 1 lake, 2 mountain, 4 forest)
    and applies Hall's condition for the three roles (no allocation)."""
    cnt0 = cnt1 = cnt2 = cnt3 = cnt4 = cnt5 = cnt6 = cnt7 = 0
    for cell in range(K.NCELL):
        if cells[K.CE_OWN, cell] != p:
            continue
        m = 0
        for k in range(8):
            x = geo[cell, K.GE_NBR + k]
            if x < 0:
                continue
            t = geo[x, K.GE_TERR]
            if t == K.T_L:
                m |= 1
            elif t == K.T_M:
                m |= 2
            elif t == K.T_F:
                m |= 4
        if m == 1:
            cnt1 += 1
        elif m == 2:
            cnt2 += 1
        elif m == 3:
            cnt3 += 1
        elif m == 4:
            cnt4 += 1
        elif m == 5:
            cnt5 += 1
        elif m == 6:
            cnt6 += 1
        elif m == 7:
            cnt7 += 1
        else:
            cnt0 += 1
    cm = (0, cnt1, cnt2, cnt3, cnt4, cnt5, cnt6, cnt7)
    for roles in range(1, 8):  # every non-empty subset of roles needs that many buildings
        k = (roles & 1) + ((roles >> 1) & 1) + ((roles >> 2) & 1)
        have = 0
        for m in range(1, 8):
            if m & roles:
                have += cm[m]
        if have < k:
            return False
    return True


@njit(cache=True, _nrt=False, forceinline=True)
def check_goals(meta, gdata, geo, cells, seat):
    """State check of every seat's unclaimed, non-event goals (doc 8.2). Goals that depend on
    a seat's buildings are re-evaluated only after that seat built (SE_GDIRTY)."""
    n = meta[K.M_NP]
    ng = meta[K.M_NGOALS]
    w = meta[K.M_WORKERS]
    ph = meta[K.M_PHASE]
    in_plc = ph == K.PH_ACT or ph == K.PH_RES
    for p in range(n):
        dirty = seat[p, K.SE_GDIRTY] == 1
        for j in range(ng):
            card = seat[p, K.SE_GOALS + j]
            if card == 0 or seat[p, K.SE_GDONE + j] != 0:
                continue
            kind = gdata[card, K.GD_KIND]
            par = gdata[card, K.GD_PARAM]
            ok = False
            if kind == K.G_FOOD_HELD:
                ok = seat[p, K.SE_CUBES + 2] + seat[p, K.SE_CUBES + 3] >= par * w
            elif kind == K.G_COINS_EQ:
                ok = seat[p, K.SE_COINS] == par
            elif kind == K.G_COINS_GE:
                ok = seat[p, K.SE_COINS] >= par
            elif kind == K.G_ACTS_IN_TURN:
                ok = in_plc and meta[K.P_SEAT] == p and meta[K.P_ACTS] >= par
            elif kind == K.G_VP_ACTS_IN_TURN:
                ok = in_plc and meta[K.P_SEAT] == p and meta[K.P_VPACTS] >= par
            elif kind == K.G_GATHER_IN_TURN:
                ok = in_plc and meta[K.P_SEAT] == p and meta[K.P_GN] >= par
            elif dirty:
                if kind == K.G_OWN_SET:
                    ok = own_count_in_set(cells, gdata, card, p) >= par
                elif kind == K.G_CONNECTED:
                    ok = connected3(cells, geo, p)
                elif kind == K.G_MORE_BLD:
                    nb_ = 0
                    for cell in range(K.NCELL):
                        if cells[K.CE_OWN, cell] == p:
                            nb_ += 1
                    ok = nb_ > w
                elif kind == K.G_TERRAIN_TRIO:
                    ok = terrain_trio(cells, geo, p)
            if ok:
                claim(meta, gdata, seat, p, j)
        seat[p, K.SE_GDIRTY] = 0


@njit(cache=True, _nrt=False)
def coins_event(meta, gdata, seat, p):
    """Payment check: the payer's coins_eq cards (doc 8.2)."""
    for j in range(meta[K.M_NGOALS]):
        card = seat[p, K.SE_GOALS + j]
        if card != 0 and seat[p, K.SE_GDONE + j] == 0 and gdata[card, K.GD_KIND] == K.G_COINS_EQ:
            if seat[p, K.SE_COINS] == gdata[card, K.GD_PARAM]:
                claim(meta, gdata, seat, p, j)


@njit(cache=True, _nrt=False)
def act_event(meta, gdata, seat, p, ntypes, spent_gathered):
    """Payment check of an activation: act_two_types and spend_gathered (doc 8.2)."""
    for j in range(meta[K.M_NGOALS]):
        card = seat[p, K.SE_GOALS + j]
        if card == 0 or seat[p, K.SE_GDONE + j] != 0:
            continue
        kind = gdata[card, K.GD_KIND]
        if kind == K.G_ACT_TWO_TYPES:
            if ntypes >= gdata[card, K.GD_PARAM]:
                claim(meta, gdata, seat, p, j)
        elif kind == K.G_SPEND_GATHERED:
            if spent_gathered:
                claim(meta, gdata, seat, p, j)


# ---------------------------------------------------------------------------------------------
# setup (§6.1, doc 3)
@njit(cache=True, _nrt=False)
def possible_in(mkt, row, gdata, opts, card):
    """Doc 3.1: is a (!) card achievable with the market in row ``row`` of ``mkt``
    (``K.MK_MARKET``: the market now; ``K.MK_START``: the market the (!) check saw)?"""
    if gdata[card, K.GD_BANG] == 0:
        return True
    cnt = 0
    for b in range(1, K.NB):
        if mkt[row, b] >= 1 and gdata[card, K.GD_SET + b] == 1:
            if (b == K.B_PAWNSHOP and gdata[card, K.GD_KIND] == K.G_ACT_TWO_TYPES
                    and opts[K.O_G5_PAWN] == 0):
                continue
            cnt += 1
    need = gdata[card, K.GD_NEED] if opts[K.O_BANGCHECK] == 0 else 1
    return cnt >= need


@njit(cache=True, _nrt=False)
def possible_goal(mkt, gdata, opts, card):
    """Doc 3.1: is a (!) card achievable with this market?"""
    return possible_in(mkt, K.MK_MARKET, gdata, opts, card)


@njit(cache=True, _nrt=False)
def finish_setup(meta, opts, gdata, seat, piles, mkt):
    """Doc 3: market_start, the (!) check, the first turn."""
    for b in range(K.NB):
        mkt[K.MK_START, b] = mkt[K.MK_MARKET, b]
    n = meta[K.M_NP]
    for i in range(n):
        p = (meta[K.M_START] + i) % n
        for j in range(meta[K.M_NGOALS]):
            replaced = 0
            while (not possible_goal(mkt, gdata, opts, seat[p, K.SE_GOALS + j])
                   and meta[K.M_GDECK_N] > 0 and (opts[K.O_BANGREDRAW] == 0 or replaced == 0)):
                piles[K.PL_GDISC, meta[K.M_GDISC_N]] = seat[p, K.SE_GOALS + j]
                meta[K.M_GDISC_N] += 1
                meta[K.M_GDECK_N] -= 1
                seat[p, K.SE_GOALS + j] = piles[K.PL_GDECK, meta[K.M_GDECK_N]]
                replaced += 1
    meta[K.M_PHASE] = K.PH_TURN
    meta[K.M_CUR] = meta[K.M_START]


@njit(cache=True, _nrt=False)
def deal_two(meta, piles, sb):
    """Doc 5.7: each seat from the first player draws two tiles from the pile."""
    n = meta[K.M_NP]
    for i in range(n):
        p = (meta[K.M_FIRST] + i) % n
        for _ in range(2):
            meta[K.M_DDECK_N] -= 1
            sb[p, K.SB_DHAND, piles[K.PL_DDECK, meta[K.M_DDECK_N]]] = 1


@njit(cache=True, _nrt=False)
def init_arrays(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt,
                out, n_players, seed):
    """Set up a new game (§6.1; doc 3 gives the exact order of chance)."""
    meta[:] = 0
    rng[0] = seed
    meta[K.M_NP] = n_players
    meta[K.M_WORKERS] = consts[K.C_PC + 3 * n_players]
    meta[K.M_HOUSES] = consts[K.C_PC + 3 * n_players + 1]
    meta[K.M_NGOALS] = consts[K.C_PC + 3 * n_players + 2]
    meta[K.M_ROUND] = 1
    meta[K.M_PENDING] = -1
    meta[K.M_EOR_STAGE] = K.EOR_NONE
    meta[K.P_SEAT] = -1
    meta[K.P_CELL] = -1
    bank = consts[K.C_COIN_TOTAL] - consts[K.C_START_COINS] * n_players
    meta[K.M_BANK] = bank
    meta[K.M_BANK_MIN] = bank
    for t in range(4):
        meta[K.M_SUPPLY + t] = consts[K.C_SUPPLY]
    cells[:, :] = -1
    seat[:, :] = 0
    sb[:, :, :] = 0
    piles[:, :] = 0
    mkt[:, :] = 0
    mkt[K.MK_LOC, :] = -1
    for p in range(K.MAXP):
        seat[p, K.SE_PICKS] = -1
        seat[p, K.SE_GDIRTY] = 1
    for p in range(n_players):
        seat[p, K.SE_COINS] = consts[K.C_START_COINS]
        seat[p, K.SE_HOUSES] = meta[K.M_HOUSES]
    mkt[K.MK_MARKET, 0] = bdata[0, K.BD_COUNT]
    mk = opts[K.O_MARKET]
    dd = piles[K.PL_DDECK]
    if mk == K.MV_RANDOM:
        for i in range(K.NDRAFT):
            dd[i] = i + 1
        shuffle(rng, dd, K.NDRAFT)
        for i in range(K.NDRAFT - consts[K.C_MARKET_SIZE], K.NDRAFT):
            mkt[K.MK_MARKET, dd[i]] = 1
        dd[:] = 0
    elif mk == K.MV_BEGINNER:
        for b in range(1, K.NB):
            if bdata[b, K.BD_BIRD] == 1:
                mkt[K.MK_MARKET, b] = 1
    gd = piles[K.PL_GDECK]
    ng = 0
    for card in range(1, K.NCARD):
        if card == 7 and opts[K.O_GOAL7] == 0:
            continue
        gd[ng] = card
        ng += 1
    shuffle(rng, gd, ng)
    for p in range(n_players):
        for j in range(meta[K.M_NGOALS]):
            ng -= 1
            seat[p, K.SE_GOALS + j] = gd[ng]
    meta[K.M_GDECK_N] = ng
    first = 0
    if opts[K.O_FIRST] == 0:
        first = rand_below(rng, n_players)
    meta[K.M_FIRST] = first
    meta[K.M_START] = first
    meta[K.M_CUR] = first
    seat[first, K.SE_LAST_START] = 1
    if mk == K.MV_DRAFT or mk == K.MV_ONE_OF_TWO:
        for i in range(K.NDRAFT):
            dd[i] = i + 1
        shuffle(rng, dd, K.NDRAFT)
        meta[K.M_DDECK_N] = K.NDRAFT
        if mk == K.MV_DRAFT:
            for k in range(K.NDRAFT):
                meta[K.M_DDECK_N] -= 1
                sb[(first + k) % n_players, K.SB_DHAND, dd[meta[K.M_DDECK_N]]] = 1
        else:
            deal_two(meta, piles, sb)
        meta[K.M_PHASE] = K.PH_DRAFT
    else:
        finish_setup(meta, opts, gdata, seat, piles, mkt)
    auto_forced(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, out)


# ---------------------------------------------------------------------------------------------
# legal actions (doc 5)
@njit(cache=True, _nrt=False, forceinline=True)
def free_cells(geo, cells, out, base):
    """``base + cell`` for every empty grass cell (no building, no worker) into ``out``
    ascending; return the count. Branch-free: each cell is written and the count advances
    only for a free one (``out`` has room for all 54)."""
    n = 0
    for cell in range(K.NCELL):
        out[n] = base + cell
        n += ((geo[cell, K.GE_TERR] == K.T_G) & (cells[K.CE_BLD, cell] < 0)
              & (cells[K.CE_WRK, cell] < 0))
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def affordable_builds(meta, bdata, consts, seat, mkt, c, out, n):
    """BUILD b for every building b in the market that seat ``c`` can pay (``can_pay4``, in
    branch-free form: a missing cube count is clamped at 0, so the supply test is vacuous for
    it) into ``out`` from ``n`` ascending; return the new count."""
    buy = consts[K.C_BUY]
    h0 = seat[c, K.SE_CUBES]
    h1 = seat[c, K.SE_CUBES + 1]
    h2 = seat[c, K.SE_CUBES + 2]
    h3 = seat[c, K.SE_CUBES + 3]
    s0 = meta[K.M_SUPPLY]
    s1 = meta[K.M_SUPPLY + 1]
    s2 = meta[K.M_SUPPLY + 2]
    s3 = meta[K.M_SUPPLY + 3]
    coins = seat[c, K.SE_COINS]
    for b in range(K.NB):
        m0 = max(bdata[b, K.BD_COST] - h0, 0)
        m1 = max(bdata[b, K.BD_COST + 1] - h1, 0)
        m2 = max(bdata[b, K.BD_COST + 2] - h2, 0)
        m3 = max(bdata[b, K.BD_COST + 3] - h3, 0)
        ok = ((mkt[K.MK_MARKET, b] >= 1) & (m0 <= s0) & (m1 <= s1) & (m2 <= s2) & (m3 <= s3)
              & (coins >= bdata[b, K.BD_COSTC] + buy * (m0 + m1 + m2 + m3)))
        out[n] = K.A_BUILD + b
        n += ok
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def legal_arrays(meta, opts, bdata, geo, consts, cells, seat, sb, mkt, out):
    """Legal action ids into ``out`` (int32[272]) ascending; return the count."""
    ph = meta[K.M_PHASE]
    if ph == K.PH_OVER:
        return 0
    c = meta[K.M_CUR]
    n = 0
    if ph == K.PH_TURN:
        n = free_cells(geo, cells, out, 0)
        if n > 0 and seat[c, K.SE_HOUSES] >= 1:
            n = affordable_builds(meta, bdata, consts, seat, mkt, c, out, n)
        return n
    if ph == K.PH_SITE:
        return free_cells(geo, cells, out, K.A_SITE)
    if ph == K.PH_ACT or ph == K.PH_RES:
        return legal_act(meta, opts, bdata, geo, consts, cells, seat, out, c, ph)
    if ph == K.PH_FEED:
        if seat[c, K.SE_CUBES + 2] >= 1:
            out[n] = K.A_FEED_FISH
            n += 1
        if seat[c, K.SE_CUBES + 3] >= 1:
            out[n] = K.A_FEED_WHEAT
            n += 1
        if n == 0:
            if seat[c, K.SE_COINS] >= consts[K.C_BUY]:
                if meta[K.M_SUPPLY + 2] >= 1:
                    out[n] = K.A_BUY_FISH
                    n += 1
                if meta[K.M_SUPPLY + 3] >= 1:
                    out[n] = K.A_BUY_WHEAT
                    n += 1
            out[n] = K.A_STARVE
            n += 1
        return n
    for b in range(1, K.NB):  # draft
        if sb[c, K.SB_DHAND, b] == 1:
            out[n] = K.A_PICK + b
            n += 1
    return n


@njit(cache=True, _nrt=False)
def pair_counts(i):
    """Cube counts (wood, stone, fish, wheat) of Pawnshop pair ``i``."""
    a, b = K.PAIRS[i]
    n0 = (a == 0) + (b == 0)
    n1 = (a == 1) + (b == 1)
    n2 = (a == 2) + (b == 2)
    n3 = (a == 3) + (b == 3)
    return n0, n1, n2, n3


@njit(cache=True, _nrt=False, forceinline=True)
def legal_act(meta, opts, bdata, geo, consts, cells, seat, out, c, ph):
    """Doc 5.3-5.6: activations, Pawnshop exchanges, GATHER, END of a placement."""
    buy = consts[K.C_BUY]
    fee = consts[K.C_FEE]
    cell = meta[K.P_CELL]
    fee_ok = ph == K.PH_ACT or opts[K.O_RES_FEES] == 1
    n = 0
    pawn_fee = -1
    for k in range(8):
        x = geo[cell, K.GE_NBR + k]
        if x < 0 or meta[K.P_USED + k] != 0:
            continue
        b = cells[K.CE_BLD, x]
        if b < 0:
            continue
        kind = bdata[b, K.BD_KIND]
        if kind != K.K_P and kind != K.K_X:
            continue
        f = fee if (fee_ok and cells[K.CE_OWN, x] != c) else 0
        if b == K.B_PAWNSHOP:
            pawn_fee = f
            continue
        if can_pay4(meta, seat, c, bdata[b, K.BD_IN], bdata[b, K.BD_IN + 1], bdata[b, K.BD_IN + 2],
                    bdata[b, K.BD_IN + 3], bdata[b, K.BD_INC] + f, buy):
            out[n] = K.A_ACT + k
            n += 1
    if pawn_fee >= 0:
        differ = opts[K.O_PAWN_DIFFER] == 1
        for i in range(10):
            n0, n1, n2, n3 = pair_counts(i)
            if not can_pay4(meta, seat, c, n0, n1, n2, n3, pawn_fee, buy):
                continue
            for o in range(10):
                if differ and o == i:
                    continue
                out[n] = K.A_PAWN + i * 10 + o
                n += 1
    if meta[K.P_GATH] == 0:
        out[n] = K.A_GATHER
        n += 1
    if meta[K.P_GATH] == 1 or opts[K.O_OPTGATHER] == 1:
        out[n] = K.A_END
        n += 1
    return n


# ---------------------------------------------------------------------------------------------
# effects (doc 5, 7)
@njit(cache=True, _nrt=False)
def new_placement(meta, geo, p, cell, gather_possible):
    """Doc 5.1 / 7.1: a new placement (real or the Residence's virtual worker)."""
    clear_placement(meta)
    meta[K.P_SEAT] = p
    meta[K.P_CELL] = cell
    has = geo[cell, K.GE_TCNT] + geo[cell, K.GE_TCNT + 1] + geo[cell, K.GE_TCNT + 2] > 0
    meta[K.P_GATH] = 0 if (gather_possible and has) else 1


@njit(cache=True, _nrt=False)
def clear_placement(meta):
    for i in range(K.P_SEAT, K.P_USED + 8):
        meta[i] = 0
    meta[K.P_SEAT] = -1
    meta[K.P_CELL] = -1


@njit(cache=True, _nrt=False)
def do_activate(meta, opts, bdata, gdata, geo, consts, cells, seat, sb, c, k, pi, po):
    """Doc 5.3 (pi < 0: the building at slot k) and 5.4 (Pawnshop: input pair pi, output po)."""
    cell = meta[K.P_CELL]
    if pi >= 0:
        for kk in range(8):
            y = geo[cell, K.GE_NBR + kk]
            if y >= 0 and cells[K.CE_BLD, y] == K.B_PAWNSHOP:
                k = kk
                break
    x = geo[cell, K.GE_NBR + k]
    b = cells[K.CE_BLD, x]
    o = cells[K.CE_OWN, x]
    fee = 0
    if o != c and (meta[K.M_PHASE] == K.PH_ACT or opts[K.O_RES_FEES] == 1):
        fee = consts[K.C_FEE]
    # 1. fee to the owner
    if fee > 0:
        seat[c, K.SE_COINS] -= fee
        seat[o, K.SE_COINS] += fee
        seat[c, K.SE_STATS + K.ST_FEES_PAID] += fee
        seat[o, K.SE_STATS + K.ST_FEES_EARNED] += fee
    # 2. input
    if pi >= 0:
        n0, n1, n2, n3 = pair_counts(pi)
        inc = 0
    else:
        n0 = bdata[b, K.BD_IN]
        n1 = bdata[b, K.BD_IN + 1]
        n2 = bdata[b, K.BD_IN + 2]
        n3 = bdata[b, K.BD_IN + 3]
        inc = bdata[b, K.BD_INC]
    ntypes = (n0 > 0) + (n1 > 0) + (n2 > 0) + (n3 > 0)
    if pi >= 0 and opts[K.O_G5_PAWN] == 0:
        ntypes = 0
    spent = ((n0 > 0 and seat[c, K.SE_CUBES] > 0 and meta[K.P_GT] > 0)
             or (n1 > 0 and seat[c, K.SE_CUBES + 1] > 0 and meta[K.P_GT + 1] > 0)
             or (n2 > 0 and seat[c, K.SE_CUBES + 2] > 0 and meta[K.P_GT + 2] > 0)
             or (n3 > 0 and seat[c, K.SE_CUBES + 3] > 0 and meta[K.P_GT + 3] > 0))
    pay4(meta, seat, c, n0, n1, n2, n3, inc, consts[K.C_BUY])
    # 3. payment checks
    coins_event(meta, gdata, seat, c)
    act_event(meta, gdata, seat, c, ntypes, spent)
    # 4. outputs (A3: capped at the supply)
    gib = opts[K.O_GIB] == 1
    vp = 0
    if pi >= 0:
        a1, a2 = K.PAIRS[po]
        for t in (a1, a2):
            if meta[K.M_SUPPLY + t] >= 1:
                meta[K.M_SUPPLY + t] -= 1
                seat[c, K.SE_CUBES + t] += 1
                if gib:
                    meta[K.P_GN] += 1
                    meta[K.P_GT + t] += 1
    else:
        for t in range(4):
            g = bdata[b, K.BD_OUT + t]
            if g > meta[K.M_SUPPLY + t]:
                g = meta[K.M_SUPPLY + t]
            if g > 0:
                seat[c, K.SE_CUBES + t] += g
                meta[K.M_SUPPLY + t] -= g
                if gib:
                    meta[K.P_GN] += g
                    meta[K.P_GT + t] += g
        oc = bdata[b, K.BD_OUTC]
        if oc > 0:
            seat[c, K.SE_COINS] += bank_take(meta, opts, oc)
        vp = bdata[b, K.BD_OUTVP]
        seat[c, K.SE_SCORE] += vp
        seat[c, K.SE_STATS + K.ST_VP_ACT] += vp
    # 5. counters
    meta[K.P_USED + k] = 1
    meta[K.P_ACTS] += 1
    if vp > 0:
        meta[K.P_VPACTS] += 1
    seat[c, K.SE_STATS + K.ST_ACTIVATIONS] += 1
    if o == c:
        sb[c, K.SB_ACT_OWN, b] += 1
    else:
        sb[o, K.SB_ACT_OTH, b] += 1


@njit(cache=True, _nrt=False)
def do_gather(meta, geo, seat, c):
    """Doc 5.5 (§6.3 step 2): every terrain cell counts, capped at the supply."""
    cell = meta[K.P_CELL]
    got = 0
    for t in range(3):
        g = geo[cell, K.GE_TCNT + t]
        if g > meta[K.M_SUPPLY + t]:
            g = meta[K.M_SUPPLY + t]
        seat[c, K.SE_CUBES + t] += g
        meta[K.M_SUPPLY + t] -= g
        meta[K.P_GT + t] += g
        got += g
    meta[K.P_GN] += got
    seat[c, K.SE_STATS + K.ST_GATHERED] += got
    meta[K.P_GATH] = 1


@njit(cache=True, _nrt=False)
def end_turn(meta, opts, geo, consts, cells, seat, mkt):
    """Doc 4: the next turn, or the end of the round."""
    meta[K.M_TURN] += 1
    meta[K.M_TURNS_TOTAL] += 1
    n = meta[K.M_NP]
    if meta[K.M_TURN] == n * meta[K.M_WORKERS]:
        meta[K.M_EOR_STAGE] = K.EOR_SPECIALS
        meta[K.M_EOR_IDX] = 0
        continue_eor(meta, opts, geo, consts, cells, seat, mkt)
    else:
        meta[K.M_CUR] = (meta[K.M_CUR] + 1) % n
        meta[K.M_PHASE] = K.PH_TURN


@njit(cache=True, _nrt=False)
def continue_eor(meta, opts, geo, consts, cells, seat, mkt):
    """Doc 7 (§6.8): clock buildings in start-player order, then feeding."""
    n = meta[K.M_NP]
    while True:
        st = meta[K.M_EOR_STAGE]
        if st == K.EOR_SPECIALS:
            if meta[K.M_EOR_IDX] == n:
                meta[K.M_EOR_STAGE] = K.EOR_FEED
                meta[K.M_EOR_IDX] = 0
                continue
            p = (meta[K.M_START] + meta[K.M_EOR_IDX]) % n
            cc = mkt[K.MK_LOC, K.B_CATHEDRAL]
            if cc >= 0 and cells[K.CE_OWN, cc] == p:
                w = 0
                own_ok = opts[K.O_CATH_OWN] == 1
                for k in range(8):
                    x = geo[cc, K.GE_NBR + k]
                    if x >= 0 and cells[K.CE_WRK, x] >= 0 and (own_ok or cells[K.CE_WRK, x] != p):
                        w += 1
                v = consts[K.C_CATH_VP] * w
                seat[p, K.SE_SCORE] += v
                seat[p, K.SE_STATS + K.ST_VP_CATH] += v
            rc = mkt[K.MK_LOC, K.B_RESIDENCE]
            if rc >= 0 and cells[K.CE_OWN, rc] == p:
                meta[K.M_EOR_STAGE] = K.EOR_RES
                meta[K.M_PHASE] = K.PH_RES
                meta[K.M_CUR] = p
                new_placement(meta, geo, p, rc, opts[K.O_RES_GATHER] == 1)
                return
            meta[K.M_EOR_IDX] += 1
            continue
        if st == K.EOR_FEED:
            if meta[K.M_EOR_IDX] == n:
                finish_round(meta, opts, geo, consts, cells, seat, mkt)
                return
            p = (meta[K.M_START] + meta[K.M_EOR_IDX]) % n
            meta[K.M_PHASE] = K.PH_FEED
            meta[K.M_CUR] = p
            meta[K.M_FEED_LEFT] = meta[K.M_WORKERS]
            meta[K.M_FEED_FISH] = 0
            meta[K.M_FEED_WHEAT] = 0
            return
        return


@njit(cache=True, _nrt=False)
def finish_round(meta, opts, geo, consts, cells, seat, mkt):
    """Doc 7.3 (§6.8 step 3, §6.9): workers home, the next start player, or the game's end."""
    n = meta[K.M_NP]
    if meta[K.M_ROUND] >= opts[K.O_ROUNDS]:
        end_game(meta, opts, geo, consts, cells, seat, mkt)
        return
    meta[K.M_EOR_STAGE] = K.EOR_NONE
    meta[K.M_EOR_IDX] = 0
    for cell in range(K.NCELL):
        cells[K.CE_WRK, cell] = -1
    for p in range(n):
        seat[p, K.SE_WUSED] = 0
        seat[p, K.SE_ONSITE] = 0
    start = meta[K.M_START]
    if n == 3 and opts[K.O_TIP] == 1 and meta[K.M_ROUND] == 3:
        m = min(seat[0, K.SE_SCORE], min(seat[1, K.SE_SCORE], seat[2, K.SE_SCORE]))
        cnt = 0
        for p in range(3):
            if seat[p, K.SE_SCORE] == m:
                cnt += 1
        if cnt == 3:
            ns = (start + 1) % 3
        else:
            ns = -1
            for i in range(1, 4):
                p = (start + i) % 3
                if seat[p, K.SE_SCORE] != m:
                    continue
                if ns < 0 or seat[p, K.SE_LAST_START] < seat[ns, K.SE_LAST_START]:
                    ns = p
    else:
        ns = (start + 1) % n
    meta[K.M_ROUND] += 1
    meta[K.M_START] = ns
    seat[ns, K.SE_LAST_START] = meta[K.M_ROUND]
    meta[K.M_TURN] = 0
    meta[K.M_CUR] = ns
    meta[K.M_PHASE] = K.PH_TURN


@njit(cache=True, _nrt=False)
def end_game(meta, opts, geo, consts, cells, seat, mkt):
    """Doc 7.4 (§6.10): Castle, Watchtower, 1 VP per 3 coins."""
    n = meta[K.M_NP]
    cc = mkt[K.MK_LOC, K.B_CASTLE]
    if cc >= 0:
        o = cells[K.CE_OWN, cc]
        w = 0
        for k in range(8):
            x = geo[cc, K.GE_NBR + k]
            if x >= 0 and cells[K.CE_BLD, x] >= 0 and (opts[K.O_CASTLE] == 1 or cells[K.CE_OWN, x] == o):
                w += 1
        v = consts[K.C_CASTLE_VP] * w
        seat[o, K.SE_SCORE] += v
        seat[o, K.SE_STATS + K.ST_VP_CASTLE] += v
    wc = mkt[K.MK_LOC, K.B_WATCHTOWER]
    if wc >= 0:
        o = cells[K.CE_OWN, wc]
        w = 0
        for k in range(8):
            x = geo[wc, K.GE_NBR + k]
            if (x >= 0 and geo[x, K.GE_TERR] == K.T_G and cells[K.CE_BLD, x] < 0
                    and (opts[K.O_WT_BLOCK] == 0 or cells[K.CE_WRK, x] < 0)):
                w += 1
        v = consts[K.C_WT_VP] * w
        seat[o, K.SE_SCORE] += v
        seat[o, K.SE_STATS + K.ST_VP_WT] += v
    for p in range(n):
        v = seat[p, K.SE_COINS] // consts[K.C_COINS_PER_VP]
        seat[p, K.SE_SCORE] += v
        seat[p, K.SE_STATS + K.ST_VP_COINS] += v
    meta[K.M_PHASE] = K.PH_OVER
    meta[K.M_END] = K.END_END


@njit(cache=True, _nrt=False)
def finish_feeding(meta, opts, gdata, geo, consts, cells, seat, mkt, c):
    """Doc 7.2: feed_all_with cards, then the next seat."""
    w = meta[K.M_WORKERS]
    for j in range(meta[K.M_NGOALS]):
        card = seat[c, K.SE_GOALS + j]
        if card == 0 or seat[c, K.SE_GDONE + j] != 0 or gdata[card, K.GD_KIND] != K.G_FEED_ALL_WITH:
            continue
        par = gdata[card, K.GD_PARAM]
        if (par == 2 and meta[K.M_FEED_FISH] == w) or (par == 3 and meta[K.M_FEED_WHEAT] == w):
            claim(meta, gdata, seat, c, j)
    meta[K.M_FEED_LEFT] = 0
    meta[K.M_FEED_FISH] = 0
    meta[K.M_FEED_WHEAT] = 0
    meta[K.M_EOR_IDX] += 1
    continue_eor(meta, opts, geo, consts, cells, seat, mkt)


@njit(cache=True, _nrt=False)
def draft_pick(meta, opts, gdata, consts, seat, sb, piles, mkt, c, b):
    """Doc 5.7: a pick; when every seat picked: reveal, pass or discard, deal, or finish."""
    n = meta[K.M_NP]
    seat[c, K.SE_PICKS] = b
    sb[c, K.SB_DHAND, b] = 0
    sb[c, K.SB_PICK, b] = meta[K.M_DRAFT_ROUND] + 1
    if c != (meta[K.M_FIRST] + n - 1) % n:
        meta[K.M_CUR] = (c + 1) % n
        return
    for p in range(n):
        mkt[K.MK_MARKET, seat[p, K.SE_PICKS]] = 1
        seat[p, K.SE_PICKS] = -1
    meta[K.M_DRAFT_ROUND] += 1
    if opts[K.O_MARKET] == K.MV_DRAFT:
        for bb in range(K.NB):
            last = sb[n - 1, K.SB_DHAND, bb]
            for p in range(n - 1, 0, -1):
                sb[p, K.SB_DHAND, bb] = sb[p - 1, K.SB_DHAND, bb]
            sb[0, K.SB_DHAND, bb] = last
    else:
        sb[:, K.SB_DHAND, :] = 0
    if meta[K.M_DRAFT_ROUND] * n >= consts[K.C_MARKET_SIZE]:
        sb[:, K.SB_DHAND, :] = 0
        finish_setup(meta, opts, gdata, seat, piles, mkt)
        return
    if opts[K.O_MARKET] == K.MV_ONE_OF_TWO:
        deal_two(meta, piles, sb)
    meta[K.M_CUR] = meta[K.M_FIRST]


@njit(cache=True, _nrt=False, forceinline=True)
def step(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, a):
    """Apply one action (chosen or forced) with its goal checks and continuation (doc 5-8)."""
    c = meta[K.M_CUR]
    if a < K.A_BUILD:  # PLACE
        cells[K.CE_WRK, a] = c
        seat[c, K.SE_WUSED] += 1
        seat[c, K.SE_STATS + K.ST_PLACEMENTS] += 1
        new_placement(meta, geo, c, a, True)
        meta[K.M_PHASE] = K.PH_ACT
        check_goals(meta, gdata, geo, cells, seat)
    elif a < K.A_SITE:  # BUILD
        b = a - K.A_BUILD
        seat[c, K.SE_WUSED] += 1
        seat[c, K.SE_ONSITE] += 1
        pay4(meta, seat, c, bdata[b, K.BD_COST], bdata[b, K.BD_COST + 1], bdata[b, K.BD_COST + 2],
             bdata[b, K.BD_COST + 3], bdata[b, K.BD_COSTC], consts[K.C_BUY])
        mkt[K.MK_MARKET, b] -= 1
        meta[K.M_PENDING] = b
        coins_event(meta, gdata, seat, c)
        meta[K.M_PHASE] = K.PH_SITE
        check_goals(meta, gdata, geo, cells, seat)
    elif a < K.A_ACT:  # SITE
        cell = a - K.A_SITE
        b = meta[K.M_PENDING]
        cells[K.CE_BLD, cell] = b
        cells[K.CE_OWN, cell] = c
        mkt[K.MK_LOC, b] = cell
        seat[c, K.SE_HOUSES] -= 1
        v = bdata[b, K.BD_VP]
        seat[c, K.SE_SCORE] += v
        seat[c, K.SE_STATS + K.ST_VP_BUILD] += v
        sb[c, K.SB_BUILT, b] += 1
        if sb[c, K.SB_BROUND, b] == 0:
            sb[c, K.SB_BROUND, b] = meta[K.M_ROUND]
        seat[c, K.SE_STATS + K.ST_BUILDS] += 1
        meta[K.M_PENDING] = -1
        seat[c, K.SE_GDIRTY] = 1
        check_goals(meta, gdata, geo, cells, seat)
        end_turn(meta, opts, geo, consts, cells, seat, mkt)
    elif a < K.A_PAWN:  # ACTIVATE
        do_activate(meta, opts, bdata, gdata, geo, consts, cells, seat, sb, c, a - K.A_ACT, -1, -1)
        check_goals(meta, gdata, geo, cells, seat)
    elif a < K.A_GATHER:  # PAWN
        i = a - K.A_PAWN
        do_activate(meta, opts, bdata, gdata, geo, consts, cells, seat, sb, c, 0, i // 10,
                    i % 10)
        check_goals(meta, gdata, geo, cells, seat)
    elif a == K.A_GATHER:
        do_gather(meta, geo, seat, c)
        check_goals(meta, gdata, geo, cells, seat)
    elif a == K.A_END:
        clear_placement(meta)
        check_goals(meta, gdata, geo, cells, seat)
        if meta[K.M_PHASE] == K.PH_ACT:
            end_turn(meta, opts, geo, consts, cells, seat, mkt)
        else:
            meta[K.M_EOR_STAGE] = K.EOR_SPECIALS
            meta[K.M_EOR_IDX] += 1
            continue_eor(meta, opts, geo, consts, cells, seat, mkt)
    elif a <= K.A_STARVE:  # feeding (doc 7.2)
        if a == K.A_FEED_FISH or a == K.A_FEED_WHEAT:
            t = 2 if a == K.A_FEED_FISH else 3
            seat[c, K.SE_CUBES + t] -= 1
            meta[K.M_SUPPLY + t] += 1
            meta[K.M_FEED_LEFT] -= 1
            meta[K.M_FEED_FISH + t - 2] += 1
        elif a == K.A_BUY_FISH or a == K.A_BUY_WHEAT:
            t = 2 if a == K.A_BUY_FISH else 3
            buy = consts[K.C_BUY]
            seat[c, K.SE_COINS] -= buy
            meta[K.M_BANK] += buy
            seat[c, K.SE_STATS + K.ST_CUBES_BOUGHT] += 1
            seat[c, K.SE_STATS + K.ST_FOOD_BOUGHT] += 1
            meta[K.M_FEED_LEFT] -= 1
            meta[K.M_FEED_FISH + t - 2] += 1
            coins_event(meta, gdata, seat, c)
        else:
            u = meta[K.M_FEED_LEFT]
            v = consts[K.C_UNFED] * u
            seat[c, K.SE_SCORE] -= v
            seat[c, K.SE_STATS + K.ST_UNFED] += u
            seat[c, K.SE_STATS + K.ST_VP_UNFED] -= v
            meta[K.M_FEED_LEFT] = 0
        check_goals(meta, gdata, geo, cells, seat)
        if meta[K.M_FEED_LEFT] == 0:
            finish_feeding(meta, opts, gdata, geo, consts, cells, seat, mkt, c)
    else:  # PICK
        check_goals(meta, gdata, geo, cells, seat)
        draft_pick(meta, opts, gdata, consts, seat, sb, piles, mkt, c, a - K.A_PICK)


@njit(cache=True, _nrt=False, forceinline=True)
def auto_forced(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, out):
    """Doc 4 (L2): apply forced moves; leave the legal list in ``out`` and its length in
    meta[M_NLEGAL]."""
    while True:
        n = legal_arrays(meta, opts, bdata, geo, consts, cells, seat, sb, mkt, out)
        if n == 1:
            step(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, out[0])
            continue
        meta[K.M_NLEGAL] = n
        return


@njit(cache=True, _nrt=False, forceinline=True)
def apply_arrays(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, out,
                 a):
    """A chosen action: count it, apply it, then the forced moves (doc 4)."""
    meta[K.M_DEC] += 1
    step(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, a)
    auto_forced(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, out)


# ---------------------------------------------------------------------------------------------
# NamedTuple wrappers for the Python API (not on the hot path)
@njit(cache=True, _nrt=False)
def init_state(s, n_players, seed):
    """New game on state ``s`` (§6.1; doc 3)."""
    init_arrays(s.meta, s.rng, s.opts, s.bdata, s.gdata, s.geo, s.consts, s.cells, s.seat, s.sb,
                s.piles, s.mkt, s.scratch, n_players, seed)


@njit(cache=True, _nrt=False)
def legal_into(s, out):
    """Legal action ids of ``s`` into ``out`` (int32[272]); return the count."""
    return legal_arrays(s.meta, s.opts, s.bdata, s.geo, s.consts, s.cells, s.seat, s.sb, s.mkt,
                        out)


@njit(cache=True, _nrt=False)
def apply_inplace(s, a):
    """Apply the chosen action ``a`` to ``s`` in place (no legality check)."""
    apply_arrays(s.meta, s.rng, s.opts, s.bdata, s.gdata, s.geo, s.consts, s.cells, s.seat, s.sb,
                 s.piles, s.mkt, s.scratch, np.int32(a))


@njit(cache=True, _nrt=False)
def is_legal(s, a):
    n = legal_into(s, s.scratch)
    for i in range(n):
        if s.scratch[i] == a:
            return True
    return False


@njit(cache=True, _nrt=False)
def recompute_derived(s):
    """Internal caches after ``state_from_dict``: side terrain, building cells, goal flags."""
    set_side(s.geo, s.opts[K.O_SIDE])
    s.mkt[K.MK_LOC, :] = -1
    for cell in range(K.NCELL):
        if s.cells[K.CE_BLD, cell] >= 0:
            s.mkt[K.MK_LOC, s.cells[K.CE_BLD, cell]] = cell
    for p in range(K.MAXP):
        s.seat[p, K.SE_GDIRTY] = 1


# ---------------------------------------------------------------------------------------------
# The kernel contract (sim/core/contract.py, docs/house-pattern.md): the three wrappers above
# and these; copy_into and chance_rng are the contract's defaults.
legal_actions_into = legal_into
register(LittleTownState, init_state=init_state, legal_actions_into=legal_into,
         apply_inplace=apply_inplace,
         meta=dict(field="meta", phase=K.M_PHASE, over=K.PH_OVER, current=K.M_CUR,
                   n_players=K.M_NP))


@implements(LittleTownState, "scores_into")
@njit(cache=True)
def scores_into(s, out):
    """The score track per seat (spec §6.4; may be negative)."""
    for p in range(s.meta[K.M_NP]):
        out[p] = s.seat[p, K.SE_SCORE]


@implements(LittleTownState, "win_shares_into")
@njit(cache=True)
def win_shares_into(s, out):
    """1/k for each of the k seats with the highest score once the game is over (shared
    wins, spec §6.4), else 0."""
    n = s.meta[K.M_NP]
    best = s.seat[0, K.SE_SCORE]
    for p in range(1, n):
        best = max(best, s.seat[p, K.SE_SCORE])
    k = 0
    for p in range(n):
        k += s.seat[p, K.SE_SCORE] == best
    over = s.meta[K.M_PHASE] == K.PH_OVER
    for p in range(n):
        out[p] = 1.0 / k if over and s.seat[p, K.SE_SCORE] == best else 0.0


# ---------------------------------------------------------------------------------------------
# Determinization (the search bot's information sets; doc 13)
@njit(cache=True, _nrt=False)
def goal_holds_now(meta, gdata, geo, cells, seat, p, card):
    """True if ``card``'s condition holds for seat ``p`` now and is checked after every action
    (doc 8.2, the state check; event-only kinds: False): a rival holding such a card
    unclaimed would have claimed it at the last check."""
    kind = gdata[card, K.GD_KIND]
    par = gdata[card, K.GD_PARAM]
    w = meta[K.M_WORKERS]
    ph = meta[K.M_PHASE]
    in_plc = (ph == K.PH_ACT or ph == K.PH_RES) and meta[K.P_SEAT] == p
    if kind == K.G_FOOD_HELD:
        return seat[p, K.SE_CUBES + 2] + seat[p, K.SE_CUBES + 3] >= par * w
    if kind == K.G_COINS_EQ:
        return seat[p, K.SE_COINS] == par
    if kind == K.G_COINS_GE:
        return seat[p, K.SE_COINS] >= par
    if kind == K.G_ACTS_IN_TURN:
        return in_plc and meta[K.P_ACTS] >= par
    if kind == K.G_VP_ACTS_IN_TURN:
        return in_plc and meta[K.P_VPACTS] >= par
    if kind == K.G_GATHER_IN_TURN:
        return in_plc and meta[K.P_GN] >= par
    if kind == K.G_OWN_SET:
        return own_count_in_set(cells, gdata, card, p) >= par
    if kind == K.G_CONNECTED:
        return connected3(cells, geo, p)
    if kind == K.G_MORE_BLD:
        nb_ = 0
        for cell in range(K.NCELL):
            if cells[K.CE_OWN, cell] == p:
                nb_ += 1
        return nb_ > w
    if kind == K.G_TERRAIN_TRIO:
        return terrain_trio(cells, geo, p)
    return False


@njit(cache=True, _nrt=False)
def possible_at_start(mkt, gdata, opts, card):
    """``possible_goal`` against the market the (!) check saw (doc 3.1, market_start)."""
    return possible_in(mkt, K.MK_START, gdata, opts, card)


@njit(cache=True, _nrt=False)
def determinize_goals(s, seat, rng):
    """The rivals' unclaimed goal cards and the goal deck (doc 13)."""
    meta = s.meta
    seat_ = s.seat
    gd = s.piles[K.PL_GDECK]
    n = meta[K.M_NP]
    ng = meta[K.M_NGOALS]
    gn = meta[K.M_GDECK_N]
    pool = 0  # bit c: goal card c is unknown to ``seat``
    for i in range(gn):
        pool |= 1 << gd[i]
    for p in range(n):
        if p == seat:
            continue
        for j in range(ng):
            c = seat_[p, K.SE_GOALS + j]
            if c != 0 and seat_[p, K.SE_GDONE + j] == 0:
                pool |= 1 << c
    m = 0
    for c in range(1, K.NCARD):
        if (pool >> c) & 1:
            gd[m] = c
            m += 1
    shuffle(rng, gd, m)
    checked = meta[K.M_PHASE] != K.PH_DRAFT and meta[K.M_DEC] > 0
    bang = meta[K.M_PHASE] != K.PH_DRAFT and s.opts[K.O_BANGREDRAW] == 0
    for p in range(n):
        if p == seat:
            continue
        for j in range(ng):
            if seat_[p, K.SE_GOALS + j] == 0 or seat_[p, K.SE_GDONE + j] != 0:
                continue
            # the first card from the top this rival can hold unclaimed; else the top card
            i = m - 1
            while i >= 0:
                c = gd[i]
                ok = not (bang and not possible_at_start(s.mkt, s.gdata, s.opts, c))
                if ok and checked:
                    ok = not goal_holds_now(meta, s.gdata, s.geo, s.cells, seat_, p, c)
                if ok:
                    break
                i -= 1
            if i < 0:
                i = m - 1
            c = gd[i]
            gd[i] = gd[m - 1]
            gd[m - 1] = c
            m -= 1
            seat_[p, K.SE_GOALS + j] = c
    for i in range(m, gd.shape[0]):
        gd[i] = 0


@njit(cache=True, _nrt=False)
def determinize_draft(s, seat, rng):
    """The draft of the market variants (doc 13): the rivals' draft hands and this round's
    picks not yet revealed, and (one-of-two) the tile pile."""
    meta = s.meta
    sb = s.sb
    sa = s.seat
    dd = s.piles[K.PL_DDECK]
    n = meta[K.M_NP]
    r = meta[K.M_DRAFT_ROUND]
    draft = s.opts[K.O_MARKET] == K.MV_DRAFT
    dn = meta[K.M_DDECK_N] if not draft else 0
    pool = 0  # bit b: tile b is unknown to ``seat``
    if draft:
        for k in range(1, n):
            q = (seat + k) % n
            if k <= r:
                # seat passed this hand to q k rounds ago: known, but not which tile q picked
                # this round (if it picked)
                pk = sa[q, K.SE_PICKS]
                if pk >= 0:
                    cnt = 1
                    for b in range(1, K.NB):
                        cnt += sb[q, K.SB_DHAND, b]
                    x = rand_below(rng, cnt)
                    new = pk
                    for b in range(1, K.NB):
                        if sb[q, K.SB_DHAND, b] == 1 or b == pk:
                            if x == 0:
                                new = b
                                break
                            x -= 1
                    sb[q, K.SB_DHAND, pk] = 1
                    sb[q, K.SB_PICK, pk] = 0
                    sb[q, K.SB_DHAND, new] = 0
                    sb[q, K.SB_PICK, new] = r + 1
                    sa[q, K.SE_PICKS] = new
                continue
            for b in range(1, K.NB):
                if sb[q, K.SB_DHAND, b] == 1:
                    pool |= 1 << b
            if sa[q, K.SE_PICKS] >= 0:
                pool |= 1 << sa[q, K.SE_PICKS]
    else:
        # every tile not in the market, not in the seat's hand and not its pick: the rivals'
        # hands and picks, the pile and the tiles out of the game (not recorded)
        for b in range(1, K.NB):
            if s.mkt[K.MK_MARKET, b] == 0 and sb[seat, K.SB_DHAND, b] == 0 \
                    and sa[seat, K.SE_PICKS] != b:
                pool |= 1 << b
    m = 0
    for b in range(1, K.NB):
        if (pool >> b) & 1:
            dd[m] = b
            m += 1
    shuffle(rng, dd, m)
    for k in range(1, n):
        q = (seat + k) % n
        if draft and k <= r:
            continue
        hn = 0
        for b in range(1, K.NB):
            hn += sb[q, K.SB_DHAND, b]
            sb[q, K.SB_DHAND, b] = 0
        for _ in range(hn):
            m -= 1
            sb[q, K.SB_DHAND, dd[m]] = 1
        pk = sa[q, K.SE_PICKS]
        if pk >= 0:
            m -= 1
            sb[q, K.SB_PICK, pk] = 0
            sb[q, K.SB_PICK, dd[m]] = r + 1
            sa[q, K.SE_PICKS] = dd[m]
    # the pile: the next dn tiles from the top, in the shuffled order; the rest out of the game
    for i in range(dn):
        dd[i] = dd[m - dn + i]
    for i in range(dn, dd.shape[0]):
        dd[i] = 0


@implements(LittleTownState, "determinize")
@njit(cache=True, _nrt=False)
def determinize(s, seat, rng):
    """Resample, in place, what ``seat`` cannot see (doc 13), from the searcher's generator
    ``rng`` (uint64[1]); reseed the chance generator ``s.rng`` from ``rng``.

    The rivals' unclaimed goal cards and the goal deck: the unknown cards in ascending order,
    shuffled, then each rival slot (seat order, slot order) takes the first card from the top
    that it could hold unclaimed (a (!) card possible with the market the (!) check saw; a
    card whose condition does not hold now, since the state check after the last action
    would have claimed it), the rest is the deck. In the draft variants, during the draft,
    the rivals' hands and picks not yet revealed (and the one-of-two pile) likewise. The
    draft pile's array slots beyond the pile are zeroed (they held the set-up's deal order),
    and the cached legal list is recomputed. No allocation: the decks' arrays are the
    scratch.
    """
    determinize_goals(s, seat, rng)
    if s.meta[K.M_PHASE] == K.PH_DRAFT:
        determinize_draft(s, seat, rng)
    else:
        dd = s.piles[K.PL_DDECK]
        for i in range(s.meta[K.M_DDECK_N], dd.shape[0]):
            dd[i] = 0
    # the batch loop's cached legal list (``scratch``, meta[M_NLEGAL]) of the new position;
    # the rest of the buffer (lists of earlier positions) zeroed
    nl = legal_into(s, s.scratch)
    s.meta[K.M_NLEGAL] = nl
    for i in range(nl, s.scratch.shape[0]):
        s.scratch[i] = 0
    s.rng[0] = next_u64(rng)

