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

from sim.core.contract import implements, meta_hooks
from sim.core.rng import rand_below, shuffle
from sim.little_town.constants import (
    A_ACT,
    A_BUILD,
    A_BUY_FISH,
    A_BUY_WHEAT,
    A_END,
    A_FEED_FISH,
    A_FEED_WHEAT,
    A_GATHER,
    A_PAWN,
    A_PICK,
    A_SITE,
    A_STARVE,
    B_CASTLE,
    B_CATHEDRAL,
    B_PAWNSHOP,
    B_RESIDENCE,
    B_WATCHTOWER,
    BD_BIRD,
    BD_COST,
    BD_COSTC,
    BD_COUNT,
    BD_IN,
    BD_INC,
    BD_KIND,
    BD_OUT,
    BD_OUTC,
    BD_OUTVP,
    BD_VP,
    C_BUY,
    C_CASTLE_VP,
    C_CATH_VP,
    C_COIN_TOTAL,
    C_COINS_PER_VP,
    C_FEE,
    C_MARKET_SIZE,
    C_PC,
    C_START_COINS,
    C_SUPPLY,
    C_UNFED,
    C_WT_VP,
    CE_BLD,
    CE_OWN,
    CE_WRK,
    END_END,
    EOR_FEED,
    EOR_NONE,
    EOR_RES,
    EOR_SPECIALS,
    G_ACT_TWO_TYPES,
    G_ACTS_IN_TURN,
    G_COINS_EQ,
    G_COINS_GE,
    G_CONNECTED,
    G_FEED_ALL_WITH,
    G_FOOD_HELD,
    G_GATHER_IN_TURN,
    G_MORE_BLD,
    G_OWN_SET,
    G_SPEND_GATHERED,
    G_TERRAIN_TRIO,
    G_VP_ACTS_IN_TURN,
    GD_BANG,
    GD_KIND,
    GD_NEED,
    GD_PARAM,
    GD_SET,
    GD_VP,
    GE_BOARD,
    GE_N,
    GE_NBR,
    GE_TCNT,
    GE_TERR,
    K_P,
    K_X,
    M_BANK,
    M_BANK_MIN,
    M_CUR,
    M_DDECK_N,
    M_DEC,
    M_DRAFT_ROUND,
    M_END,
    M_EOR_IDX,
    M_EOR_STAGE,
    M_FEED_FISH,
    M_FEED_LEFT,
    M_FEED_WHEAT,
    M_FIRST,
    M_GDECK_N,
    M_GDISC_N,
    M_HOUSES,
    M_NGOALS,
    M_NLEGAL,
    M_NP,
    M_PENDING,
    M_PHASE,
    M_ROUND,
    M_START,
    M_SUPPLY,
    M_TURN,
    M_TURNS_TOTAL,
    M_WORKERS,
    MAXP,
    MK_LOC,
    MK_MARKET,
    MK_START,
    MV_BEGINNER,
    MV_DRAFT,
    MV_ONE_OF_TWO,
    MV_RANDOM,
    N_META,
    NB,
    NCARD,
    NCELL,
    NDRAFT,
    NUM_ACTIONS,
    O_BANGCHECK,
    O_BANGREDRAW,
    O_BANK,
    O_CASTLE,
    O_CATH_OWN,
    O_FIRST,
    O_G5_PAWN,
    O_GIB,
    O_GOAL7,
    O_MARKET,
    O_OPTGATHER,
    O_PAWN_DIFFER,
    O_RES_FEES,
    O_RES_GATHER,
    O_ROUNDS,
    O_SIDE,
    O_TIP,
    O_WT_BLOCK,
    OFFSETS,
    P_ACTS,
    P_CELL,
    P_GATH,
    P_GN,
    P_GT,
    P_SEAT,
    P_USED,
    P_VPACTS,
    PAIRS,
    PH_ACT,
    PH_DRAFT,
    PH_FEED,
    PH_OVER,
    PH_RES,
    PH_SITE,
    PH_TURN,
    PL_DDECK,
    PL_GDECK,
    PL_GDISC,
    SB_ACT_OTH,
    SB_ACT_OWN,
    SB_BROUND,
    SB_BUILT,
    SB_DHAND,
    SB_N,
    SB_PICK,
    SE_COINS,
    SE_CUBES,
    SE_GDIRTY,
    SE_GDONE,
    SE_GOALS,
    SE_HOUSES,
    SE_LAST_START,
    SE_N,
    SE_ONSITE,
    SE_PICKS,
    SE_SCORE,
    SE_STATS,
    SE_WUSED,
    ST_ACTIVATIONS,
    ST_BUILDS,
    ST_CUBES_BOUGHT,
    ST_FEES_EARNED,
    ST_FEES_PAID,
    ST_FOOD_BOUGHT,
    ST_GATHERED,
    ST_PLACEMENTS,
    ST_UNFED,
    ST_VP_ACT,
    ST_VP_BUILD,
    ST_VP_CASTLE,
    ST_VP_CATH,
    ST_VP_COINS,
    ST_VP_GOAL,
    ST_VP_UNFED,
    ST_VP_WT,
    T_F,
    T_G,
    T_L,
    T_M,
)


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
    geo = np.zeros((NCELL, GE_N), np.int64)
    for cell in range(NCELL):
        r, c = divmod(cell, 9)
        for k, (dr, dc) in enumerate(OFFSETS):
            rr, cc = r + dr, c + dc
            geo[cell, GE_NBR + k] = rr * 9 + cc if (0 <= rr < 6 and 0 <= cc < 9) else -1
    geo[:, GE_BOARD] = arrays["boards"][0]
    geo[:, GE_BOARD + 1] = arrays["boards"][1]
    s = LittleTownState(
        meta=np.zeros(N_META, np.int64),
        rng=np.zeros(1, np.uint64),
        opts=opts.astype(np.int64).copy(),
        bdata=arrays["bdata"].astype(np.int64).copy(),
        gdata=arrays["gdata"].astype(np.int64).copy(),
        geo=geo,
        consts=arrays["consts"].astype(np.int64).copy(),
        cells=-np.ones((3, NCELL), np.int64),
        seat=np.zeros((MAXP, SE_N), np.int64),
        sb=np.zeros((MAXP, SB_N, NB), np.int64),
        piles=np.zeros((3, NDRAFT), np.int64),
        mkt=np.zeros((3, NB), np.int64),
        scratch=np.zeros(NUM_ACTIONS, np.int32),
    )
    set_side(s.geo, int(s.opts[O_SIDE]))
    return s


@njit(cache=True, _nrt=False)
def set_side(geo, side):
    """Terrain of the side in play and the cubes each cell gathers (§2.1: each cell counts)."""
    for cell in range(NCELL):
        geo[cell, GE_TERR] = geo[cell, GE_BOARD + side]
    for cell in range(NCELL):
        for t in range(4):
            geo[cell, GE_TCNT + t] = 0
        for k in range(8):
            x = geo[cell, GE_NBR + k]
            if x < 0:
                continue
            ty = geo[x, GE_TERR]
            if ty == T_F:
                geo[cell, GE_TCNT] += 1
            elif ty == T_M:
                geo[cell, GE_TCNT + 1] += 1
            elif ty == T_L:
                geo[cell, GE_TCNT + 2] += 1


# ---------------------------------------------------------------------------------------------
# payments (§6.6; doc 5, L3)
@njit(cache=True, inline="always", _nrt=False)
def can_pay4(meta, seat, c, n0, n1, n2, n3, k, buy):
    """True if seat ``c`` can pay cubes (n0..n3) and ``k`` coins, buying only missing cubes
    (the supply must hold every missing cube)."""
    miss = 0
    m = n0 - seat[c, SE_CUBES]
    if m > 0:
        if meta[M_SUPPLY] < m:
            return False
        miss += m
    m = n1 - seat[c, SE_CUBES + 1]
    if m > 0:
        if meta[M_SUPPLY + 1] < m:
            return False
        miss += m
    m = n2 - seat[c, SE_CUBES + 2]
    if m > 0:
        if meta[M_SUPPLY + 2] < m:
            return False
        miss += m
    m = n3 - seat[c, SE_CUBES + 3]
    if m > 0:
        if meta[M_SUPPLY + 3] < m:
            return False
        miss += m
    return seat[c, SE_COINS] >= k + buy * miss


@njit(cache=True, inline="always", _nrt=False)
def _pay1(meta, seat, c, t, need):
    """Pay ``need`` cubes of type t, own cubes first; return the number bought."""
    have = seat[c, SE_CUBES + t]
    own = need if need < have else have
    seat[c, SE_CUBES + t] = have - own
    meta[M_SUPPLY + t] += own
    return need - own


@njit(cache=True, _nrt=False)
def pay4(meta, seat, c, n0, n1, n2, n3, k, buy):
    """Pay (doc 5 "paying"): own cubes to the supply, missing cubes bought, coins to the bank."""
    miss = _pay1(meta, seat, c, 0, n0)
    miss += _pay1(meta, seat, c, 1, n1)
    miss += _pay1(meta, seat, c, 2, n2)
    miss += _pay1(meta, seat, c, 3, n3)
    total = k + buy * miss
    seat[c, SE_COINS] -= total
    meta[M_BANK] += total
    seat[c, SE_STATS + ST_CUBES_BOUGHT] += miss


@njit(cache=True, inline="always", _nrt=False)
def bank_take(meta, opts, amount):
    """Coins paid out by the bank (A4; capped at the bank when coin_bank = limited)."""
    if opts[O_BANK] == 1:
        b = meta[M_BANK]
        if b < 0:
            b = 0
        if amount > b:
            amount = b
    meta[M_BANK] -= amount
    if meta[M_BANK] < meta[M_BANK_MIN]:
        meta[M_BANK_MIN] = meta[M_BANK]
    return amount


# ---------------------------------------------------------------------------------------------
# goals (§5, §6.7, doc 8)
@njit(cache=True, inline="always", _nrt=False)
def claim(meta, gdata, seat, p, j):
    card = seat[p, SE_GOALS + j]
    seat[p, SE_GDONE + j] = meta[M_ROUND]
    v = gdata[card, GD_VP]
    seat[p, SE_SCORE] += v
    seat[p, SE_STATS + ST_VP_GOAL] += v


@njit(cache=True, _nrt=False)
def own_count_in_set(cells, gdata, card, p):
    n = 0
    for cell in range(NCELL):
        if cells[CE_OWN, cell] == p and gdata[card, GD_SET + cells[CE_BLD, cell]] == 1:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def connected3(cells, geo, p):
    """Goal 1: some own building has >= 2 own orthogonal neighbours (doc 8.1)."""
    for cell in range(NCELL):
        if cells[CE_OWN, cell] != p:
            continue
        d = 0
        for k in (1, 3, 4, 6):
            x = geo[cell, GE_NBR + k]
            if x >= 0 and cells[CE_OWN, x] == p:
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
    for cell in range(NCELL):
        if cells[CE_OWN, cell] != p:
            continue
        m = 0
        for k in range(8):
            x = geo[cell, GE_NBR + k]
            if x < 0:
                continue
            t = geo[x, GE_TERR]
            if t == T_L:
                m |= 1
            elif t == T_M:
                m |= 2
            elif t == T_F:
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
    n = meta[M_NP]
    ng = meta[M_NGOALS]
    w = meta[M_WORKERS]
    ph = meta[M_PHASE]
    in_plc = ph == PH_ACT or ph == PH_RES
    for p in range(n):
        dirty = seat[p, SE_GDIRTY] == 1
        for j in range(ng):
            card = seat[p, SE_GOALS + j]
            if card == 0 or seat[p, SE_GDONE + j] != 0:
                continue
            kind = gdata[card, GD_KIND]
            par = gdata[card, GD_PARAM]
            ok = False
            if kind == G_FOOD_HELD:
                ok = seat[p, SE_CUBES + 2] + seat[p, SE_CUBES + 3] >= par * w
            elif kind == G_COINS_EQ:
                ok = seat[p, SE_COINS] == par
            elif kind == G_COINS_GE:
                ok = seat[p, SE_COINS] >= par
            elif kind == G_ACTS_IN_TURN:
                ok = in_plc and meta[P_SEAT] == p and meta[P_ACTS] >= par
            elif kind == G_VP_ACTS_IN_TURN:
                ok = in_plc and meta[P_SEAT] == p and meta[P_VPACTS] >= par
            elif kind == G_GATHER_IN_TURN:
                ok = in_plc and meta[P_SEAT] == p and meta[P_GN] >= par
            elif dirty:
                if kind == G_OWN_SET:
                    ok = own_count_in_set(cells, gdata, card, p) >= par
                elif kind == G_CONNECTED:
                    ok = connected3(cells, geo, p)
                elif kind == G_MORE_BLD:
                    nb_ = 0
                    for cell in range(NCELL):
                        if cells[CE_OWN, cell] == p:
                            nb_ += 1
                    ok = nb_ > w
                elif kind == G_TERRAIN_TRIO:
                    ok = terrain_trio(cells, geo, p)
            if ok:
                claim(meta, gdata, seat, p, j)
        seat[p, SE_GDIRTY] = 0


@njit(cache=True, _nrt=False)
def coins_event(meta, gdata, seat, p):
    """Payment check: the payer's coins_eq cards (doc 8.2)."""
    for j in range(meta[M_NGOALS]):
        card = seat[p, SE_GOALS + j]
        if card != 0 and seat[p, SE_GDONE + j] == 0 and gdata[card, GD_KIND] == G_COINS_EQ:
            if seat[p, SE_COINS] == gdata[card, GD_PARAM]:
                claim(meta, gdata, seat, p, j)


@njit(cache=True, _nrt=False)
def act_event(meta, gdata, seat, p, ntypes, spent_gathered):
    """Payment check of an activation: act_two_types and spend_gathered (doc 8.2)."""
    for j in range(meta[M_NGOALS]):
        card = seat[p, SE_GOALS + j]
        if card == 0 or seat[p, SE_GDONE + j] != 0:
            continue
        kind = gdata[card, GD_KIND]
        if kind == G_ACT_TWO_TYPES:
            if ntypes >= gdata[card, GD_PARAM]:
                claim(meta, gdata, seat, p, j)
        elif kind == G_SPEND_GATHERED:
            if spent_gathered:
                claim(meta, gdata, seat, p, j)


# ---------------------------------------------------------------------------------------------
# setup (§6.1, doc 3)
@njit(cache=True, _nrt=False)
def possible_goal(mkt, gdata, opts, card):
    """Doc 3.1: is a (!) card achievable with this market?"""
    if gdata[card, GD_BANG] == 0:
        return True
    cnt = 0
    for b in range(1, NB):
        if mkt[MK_MARKET, b] >= 1 and gdata[card, GD_SET + b] == 1:
            if (b == B_PAWNSHOP and gdata[card, GD_KIND] == G_ACT_TWO_TYPES
                    and opts[O_G5_PAWN] == 0):
                continue
            cnt += 1
    need = gdata[card, GD_NEED] if opts[O_BANGCHECK] == 0 else 1
    return cnt >= need


@njit(cache=True, _nrt=False)
def finish_setup(meta, opts, gdata, seat, piles, mkt):
    """Doc 3: market_start, the (!) check, the first turn."""
    for b in range(NB):
        mkt[MK_START, b] = mkt[MK_MARKET, b]
    n = meta[M_NP]
    for i in range(n):
        p = (meta[M_START] + i) % n
        for j in range(meta[M_NGOALS]):
            replaced = 0
            while (not possible_goal(mkt, gdata, opts, seat[p, SE_GOALS + j])
                   and meta[M_GDECK_N] > 0 and (opts[O_BANGREDRAW] == 0 or replaced == 0)):
                piles[PL_GDISC, meta[M_GDISC_N]] = seat[p, SE_GOALS + j]
                meta[M_GDISC_N] += 1
                meta[M_GDECK_N] -= 1
                seat[p, SE_GOALS + j] = piles[PL_GDECK, meta[M_GDECK_N]]
                replaced += 1
    meta[M_PHASE] = PH_TURN
    meta[M_CUR] = meta[M_START]


@njit(cache=True, _nrt=False)
def deal_two(meta, piles, sb):
    """Doc 5.7: each seat from the first player draws two tiles from the pile."""
    n = meta[M_NP]
    for i in range(n):
        p = (meta[M_FIRST] + i) % n
        for _ in range(2):
            meta[M_DDECK_N] -= 1
            sb[p, SB_DHAND, piles[PL_DDECK, meta[M_DDECK_N]]] = 1


@njit(cache=True, _nrt=False)
def init_arrays(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt,
                out, n_players, seed):
    """Set up a new game (§6.1; doc 3 gives the exact order of chance)."""
    meta[:] = 0
    rng[0] = seed
    meta[M_NP] = n_players
    meta[M_WORKERS] = consts[C_PC + 3 * n_players]
    meta[M_HOUSES] = consts[C_PC + 3 * n_players + 1]
    meta[M_NGOALS] = consts[C_PC + 3 * n_players + 2]
    meta[M_ROUND] = 1
    meta[M_PENDING] = -1
    meta[M_EOR_STAGE] = EOR_NONE
    meta[P_SEAT] = -1
    meta[P_CELL] = -1
    bank = consts[C_COIN_TOTAL] - consts[C_START_COINS] * n_players
    meta[M_BANK] = bank
    meta[M_BANK_MIN] = bank
    for t in range(4):
        meta[M_SUPPLY + t] = consts[C_SUPPLY]
    cells[:, :] = -1
    seat[:, :] = 0
    sb[:, :, :] = 0
    piles[:, :] = 0
    mkt[:, :] = 0
    mkt[MK_LOC, :] = -1
    for p in range(MAXP):
        seat[p, SE_PICKS] = -1
        seat[p, SE_GDIRTY] = 1
    for p in range(n_players):
        seat[p, SE_COINS] = consts[C_START_COINS]
        seat[p, SE_HOUSES] = meta[M_HOUSES]
    mkt[MK_MARKET, 0] = bdata[0, BD_COUNT]
    mk = opts[O_MARKET]
    dd = piles[PL_DDECK]
    if mk == MV_RANDOM:
        for i in range(NDRAFT):
            dd[i] = i + 1
        shuffle(rng, dd, NDRAFT)
        for i in range(NDRAFT - consts[C_MARKET_SIZE], NDRAFT):
            mkt[MK_MARKET, dd[i]] = 1
        dd[:] = 0
    elif mk == MV_BEGINNER:
        for b in range(1, NB):
            if bdata[b, BD_BIRD] == 1:
                mkt[MK_MARKET, b] = 1
    gd = piles[PL_GDECK]
    ng = 0
    for card in range(1, NCARD):
        if card == 7 and opts[O_GOAL7] == 0:
            continue
        gd[ng] = card
        ng += 1
    shuffle(rng, gd, ng)
    for p in range(n_players):
        for j in range(meta[M_NGOALS]):
            ng -= 1
            seat[p, SE_GOALS + j] = gd[ng]
    meta[M_GDECK_N] = ng
    first = 0
    if opts[O_FIRST] == 0:
        first = rand_below(rng, n_players)
    meta[M_FIRST] = first
    meta[M_START] = first
    meta[M_CUR] = first
    seat[first, SE_LAST_START] = 1
    if mk == MV_DRAFT or mk == MV_ONE_OF_TWO:
        for i in range(NDRAFT):
            dd[i] = i + 1
        shuffle(rng, dd, NDRAFT)
        meta[M_DDECK_N] = NDRAFT
        if mk == MV_DRAFT:
            for k in range(NDRAFT):
                meta[M_DDECK_N] -= 1
                sb[(first + k) % n_players, SB_DHAND, dd[meta[M_DDECK_N]]] = 1
        else:
            deal_two(meta, piles, sb)
        meta[M_PHASE] = PH_DRAFT
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
    for cell in range(NCELL):
        out[n] = base + cell
        n += ((geo[cell, GE_TERR] == T_G) & (cells[CE_BLD, cell] < 0)
              & (cells[CE_WRK, cell] < 0))
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def affordable_builds(meta, bdata, consts, seat, mkt, c, out, n):
    """BUILD b for every building b in the market that seat ``c`` can pay (``can_pay4``, in
    branch-free form: a missing cube count is clamped at 0, so the supply test is vacuous for
    it) into ``out`` from ``n`` ascending; return the new count."""
    buy = consts[C_BUY]
    h0 = seat[c, SE_CUBES]
    h1 = seat[c, SE_CUBES + 1]
    h2 = seat[c, SE_CUBES + 2]
    h3 = seat[c, SE_CUBES + 3]
    s0 = meta[M_SUPPLY]
    s1 = meta[M_SUPPLY + 1]
    s2 = meta[M_SUPPLY + 2]
    s3 = meta[M_SUPPLY + 3]
    coins = seat[c, SE_COINS]
    for b in range(NB):
        m0 = max(bdata[b, BD_COST] - h0, 0)
        m1 = max(bdata[b, BD_COST + 1] - h1, 0)
        m2 = max(bdata[b, BD_COST + 2] - h2, 0)
        m3 = max(bdata[b, BD_COST + 3] - h3, 0)
        ok = ((mkt[MK_MARKET, b] >= 1) & (m0 <= s0) & (m1 <= s1) & (m2 <= s2) & (m3 <= s3)
              & (coins >= bdata[b, BD_COSTC] + buy * (m0 + m1 + m2 + m3)))
        out[n] = A_BUILD + b
        n += ok
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def legal_arrays(meta, opts, bdata, geo, consts, cells, seat, sb, mkt, out):
    """Legal action ids into ``out`` (int32[272]) ascending; return the count."""
    ph = meta[M_PHASE]
    if ph == PH_OVER:
        return 0
    c = meta[M_CUR]
    n = 0
    if ph == PH_TURN:
        n = free_cells(geo, cells, out, 0)
        if n > 0 and seat[c, SE_HOUSES] >= 1:
            n = affordable_builds(meta, bdata, consts, seat, mkt, c, out, n)
        return n
    if ph == PH_SITE:
        return free_cells(geo, cells, out, A_SITE)
    if ph == PH_ACT or ph == PH_RES:
        return legal_act(meta, opts, bdata, geo, consts, cells, seat, out, c, ph)
    if ph == PH_FEED:
        if seat[c, SE_CUBES + 2] >= 1:
            out[n] = A_FEED_FISH
            n += 1
        if seat[c, SE_CUBES + 3] >= 1:
            out[n] = A_FEED_WHEAT
            n += 1
        if n == 0:
            if seat[c, SE_COINS] >= consts[C_BUY]:
                if meta[M_SUPPLY + 2] >= 1:
                    out[n] = A_BUY_FISH
                    n += 1
                if meta[M_SUPPLY + 3] >= 1:
                    out[n] = A_BUY_WHEAT
                    n += 1
            out[n] = A_STARVE
            n += 1
        return n
    for b in range(1, NB):  # draft
        if sb[c, SB_DHAND, b] == 1:
            out[n] = A_PICK + b
            n += 1
    return n


@njit(cache=True, _nrt=False)
def pair_counts(i):
    """Cube counts (wood, stone, fish, wheat) of Pawnshop pair ``i``."""
    a, b = PAIRS[i]
    n0 = (a == 0) + (b == 0)
    n1 = (a == 1) + (b == 1)
    n2 = (a == 2) + (b == 2)
    n3 = (a == 3) + (b == 3)
    return n0, n1, n2, n3


@njit(cache=True, _nrt=False, forceinline=True)
def legal_act(meta, opts, bdata, geo, consts, cells, seat, out, c, ph):
    """Doc 5.3-5.6: activations, Pawnshop exchanges, GATHER, END of a placement."""
    buy = consts[C_BUY]
    fee = consts[C_FEE]
    cell = meta[P_CELL]
    fee_ok = ph == PH_ACT or opts[O_RES_FEES] == 1
    n = 0
    pawn_fee = -1
    for k in range(8):
        x = geo[cell, GE_NBR + k]
        if x < 0 or meta[P_USED + k] != 0:
            continue
        b = cells[CE_BLD, x]
        if b < 0:
            continue
        kind = bdata[b, BD_KIND]
        if kind != K_P and kind != K_X:
            continue
        f = fee if (fee_ok and cells[CE_OWN, x] != c) else 0
        if b == B_PAWNSHOP:
            pawn_fee = f
            continue
        if can_pay4(meta, seat, c, bdata[b, BD_IN], bdata[b, BD_IN + 1], bdata[b, BD_IN + 2],
                    bdata[b, BD_IN + 3], bdata[b, BD_INC] + f, buy):
            out[n] = A_ACT + k
            n += 1
    if pawn_fee >= 0:
        differ = opts[O_PAWN_DIFFER] == 1
        for i in range(10):
            n0, n1, n2, n3 = pair_counts(i)
            if not can_pay4(meta, seat, c, n0, n1, n2, n3, pawn_fee, buy):
                continue
            for o in range(10):
                if differ and o == i:
                    continue
                out[n] = A_PAWN + i * 10 + o
                n += 1
    if meta[P_GATH] == 0:
        out[n] = A_GATHER
        n += 1
    if meta[P_GATH] == 1 or opts[O_OPTGATHER] == 1:
        out[n] = A_END
        n += 1
    return n


# ---------------------------------------------------------------------------------------------
# effects (doc 5, 7)
@njit(cache=True, _nrt=False)
def new_placement(meta, geo, p, cell, gather_possible):
    """Doc 5.1 / 7.1: a new placement (real or the Residence's virtual worker)."""
    clear_placement(meta)
    meta[P_SEAT] = p
    meta[P_CELL] = cell
    has = geo[cell, GE_TCNT] + geo[cell, GE_TCNT + 1] + geo[cell, GE_TCNT + 2] > 0
    meta[P_GATH] = 0 if (gather_possible and has) else 1


@njit(cache=True, _nrt=False)
def clear_placement(meta):
    for i in range(P_SEAT, P_USED + 8):
        meta[i] = 0
    meta[P_SEAT] = -1
    meta[P_CELL] = -1


@njit(cache=True, _nrt=False)
def do_activate(meta, opts, bdata, gdata, geo, consts, cells, seat, sb, c, k, pi, po):
    """Doc 5.3 (pi < 0: the building at slot k) and 5.4 (Pawnshop: input pair pi, output po)."""
    cell = meta[P_CELL]
    if pi >= 0:
        for kk in range(8):
            y = geo[cell, GE_NBR + kk]
            if y >= 0 and cells[CE_BLD, y] == B_PAWNSHOP:
                k = kk
                break
    x = geo[cell, GE_NBR + k]
    b = cells[CE_BLD, x]
    o = cells[CE_OWN, x]
    fee = 0
    if o != c and (meta[M_PHASE] == PH_ACT or opts[O_RES_FEES] == 1):
        fee = consts[C_FEE]
    # 1. fee to the owner
    if fee > 0:
        seat[c, SE_COINS] -= fee
        seat[o, SE_COINS] += fee
        seat[c, SE_STATS + ST_FEES_PAID] += fee
        seat[o, SE_STATS + ST_FEES_EARNED] += fee
    # 2. input
    if pi >= 0:
        n0, n1, n2, n3 = pair_counts(pi)
        inc = 0
    else:
        n0 = bdata[b, BD_IN]
        n1 = bdata[b, BD_IN + 1]
        n2 = bdata[b, BD_IN + 2]
        n3 = bdata[b, BD_IN + 3]
        inc = bdata[b, BD_INC]
    ntypes = (n0 > 0) + (n1 > 0) + (n2 > 0) + (n3 > 0)
    if pi >= 0 and opts[O_G5_PAWN] == 0:
        ntypes = 0
    spent = ((n0 > 0 and seat[c, SE_CUBES] > 0 and meta[P_GT] > 0)
             or (n1 > 0 and seat[c, SE_CUBES + 1] > 0 and meta[P_GT + 1] > 0)
             or (n2 > 0 and seat[c, SE_CUBES + 2] > 0 and meta[P_GT + 2] > 0)
             or (n3 > 0 and seat[c, SE_CUBES + 3] > 0 and meta[P_GT + 3] > 0))
    pay4(meta, seat, c, n0, n1, n2, n3, inc, consts[C_BUY])
    # 3. payment checks
    coins_event(meta, gdata, seat, c)
    act_event(meta, gdata, seat, c, ntypes, spent)
    # 4. outputs (A3: capped at the supply)
    gib = opts[O_GIB] == 1
    vp = 0
    if pi >= 0:
        a1, a2 = PAIRS[po]
        for t in (a1, a2):
            if meta[M_SUPPLY + t] >= 1:
                meta[M_SUPPLY + t] -= 1
                seat[c, SE_CUBES + t] += 1
                if gib:
                    meta[P_GN] += 1
                    meta[P_GT + t] += 1
    else:
        for t in range(4):
            g = bdata[b, BD_OUT + t]
            if g > meta[M_SUPPLY + t]:
                g = meta[M_SUPPLY + t]
            if g > 0:
                seat[c, SE_CUBES + t] += g
                meta[M_SUPPLY + t] -= g
                if gib:
                    meta[P_GN] += g
                    meta[P_GT + t] += g
        oc = bdata[b, BD_OUTC]
        if oc > 0:
            seat[c, SE_COINS] += bank_take(meta, opts, oc)
        vp = bdata[b, BD_OUTVP]
        seat[c, SE_SCORE] += vp
        seat[c, SE_STATS + ST_VP_ACT] += vp
    # 5. counters
    meta[P_USED + k] = 1
    meta[P_ACTS] += 1
    if vp > 0:
        meta[P_VPACTS] += 1
    seat[c, SE_STATS + ST_ACTIVATIONS] += 1
    if o == c:
        sb[c, SB_ACT_OWN, b] += 1
    else:
        sb[o, SB_ACT_OTH, b] += 1


@njit(cache=True, _nrt=False)
def do_gather(meta, geo, seat, c):
    """Doc 5.5 (§6.3 step 2): every terrain cell counts, capped at the supply."""
    cell = meta[P_CELL]
    got = 0
    for t in range(3):
        g = geo[cell, GE_TCNT + t]
        if g > meta[M_SUPPLY + t]:
            g = meta[M_SUPPLY + t]
        seat[c, SE_CUBES + t] += g
        meta[M_SUPPLY + t] -= g
        meta[P_GT + t] += g
        got += g
    meta[P_GN] += got
    seat[c, SE_STATS + ST_GATHERED] += got
    meta[P_GATH] = 1


@njit(cache=True, _nrt=False)
def end_turn(meta, opts, geo, consts, cells, seat, mkt):
    """Doc 4: the next turn, or the end of the round."""
    meta[M_TURN] += 1
    meta[M_TURNS_TOTAL] += 1
    n = meta[M_NP]
    if meta[M_TURN] == n * meta[M_WORKERS]:
        meta[M_EOR_STAGE] = EOR_SPECIALS
        meta[M_EOR_IDX] = 0
        continue_eor(meta, opts, geo, consts, cells, seat, mkt)
    else:
        meta[M_CUR] = (meta[M_CUR] + 1) % n
        meta[M_PHASE] = PH_TURN


@njit(cache=True, _nrt=False)
def continue_eor(meta, opts, geo, consts, cells, seat, mkt):
    """Doc 7 (§6.8): clock buildings in start-player order, then feeding."""
    n = meta[M_NP]
    while True:
        st = meta[M_EOR_STAGE]
        if st == EOR_SPECIALS:
            if meta[M_EOR_IDX] == n:
                meta[M_EOR_STAGE] = EOR_FEED
                meta[M_EOR_IDX] = 0
                continue
            p = (meta[M_START] + meta[M_EOR_IDX]) % n
            cc = mkt[MK_LOC, B_CATHEDRAL]
            if cc >= 0 and cells[CE_OWN, cc] == p:
                w = 0
                own_ok = opts[O_CATH_OWN] == 1
                for k in range(8):
                    x = geo[cc, GE_NBR + k]
                    if x >= 0 and cells[CE_WRK, x] >= 0 and (own_ok or cells[CE_WRK, x] != p):
                        w += 1
                v = consts[C_CATH_VP] * w
                seat[p, SE_SCORE] += v
                seat[p, SE_STATS + ST_VP_CATH] += v
            rc = mkt[MK_LOC, B_RESIDENCE]
            if rc >= 0 and cells[CE_OWN, rc] == p:
                meta[M_EOR_STAGE] = EOR_RES
                meta[M_PHASE] = PH_RES
                meta[M_CUR] = p
                new_placement(meta, geo, p, rc, opts[O_RES_GATHER] == 1)
                return
            meta[M_EOR_IDX] += 1
            continue
        if st == EOR_FEED:
            if meta[M_EOR_IDX] == n:
                finish_round(meta, opts, geo, consts, cells, seat, mkt)
                return
            p = (meta[M_START] + meta[M_EOR_IDX]) % n
            meta[M_PHASE] = PH_FEED
            meta[M_CUR] = p
            meta[M_FEED_LEFT] = meta[M_WORKERS]
            meta[M_FEED_FISH] = 0
            meta[M_FEED_WHEAT] = 0
            return
        return


@njit(cache=True, _nrt=False)
def finish_round(meta, opts, geo, consts, cells, seat, mkt):
    """Doc 7.3 (§6.8 step 3, §6.9): workers home, the next start player, or the game's end."""
    n = meta[M_NP]
    if meta[M_ROUND] >= opts[O_ROUNDS]:
        end_game(meta, opts, geo, consts, cells, seat, mkt)
        return
    meta[M_EOR_STAGE] = EOR_NONE
    meta[M_EOR_IDX] = 0
    for cell in range(NCELL):
        cells[CE_WRK, cell] = -1
    for p in range(n):
        seat[p, SE_WUSED] = 0
        seat[p, SE_ONSITE] = 0
    start = meta[M_START]
    if n == 3 and opts[O_TIP] == 1 and meta[M_ROUND] == 3:
        m = min(seat[0, SE_SCORE], min(seat[1, SE_SCORE], seat[2, SE_SCORE]))
        cnt = 0
        for p in range(3):
            if seat[p, SE_SCORE] == m:
                cnt += 1
        if cnt == 3:
            ns = (start + 1) % 3
        else:
            ns = -1
            for i in range(1, 4):
                p = (start + i) % 3
                if seat[p, SE_SCORE] != m:
                    continue
                if ns < 0 or seat[p, SE_LAST_START] < seat[ns, SE_LAST_START]:
                    ns = p
    else:
        ns = (start + 1) % n
    meta[M_ROUND] += 1
    meta[M_START] = ns
    seat[ns, SE_LAST_START] = meta[M_ROUND]
    meta[M_TURN] = 0
    meta[M_CUR] = ns
    meta[M_PHASE] = PH_TURN


@njit(cache=True, _nrt=False)
def end_game(meta, opts, geo, consts, cells, seat, mkt):
    """Doc 7.4 (§6.10): Castle, Watchtower, 1 VP per 3 coins."""
    n = meta[M_NP]
    cc = mkt[MK_LOC, B_CASTLE]
    if cc >= 0:
        o = cells[CE_OWN, cc]
        w = 0
        for k in range(8):
            x = geo[cc, GE_NBR + k]
            if x >= 0 and cells[CE_BLD, x] >= 0 and (opts[O_CASTLE] == 1 or cells[CE_OWN, x] == o):
                w += 1
        v = consts[C_CASTLE_VP] * w
        seat[o, SE_SCORE] += v
        seat[o, SE_STATS + ST_VP_CASTLE] += v
    wc = mkt[MK_LOC, B_WATCHTOWER]
    if wc >= 0:
        o = cells[CE_OWN, wc]
        w = 0
        for k in range(8):
            x = geo[wc, GE_NBR + k]
            if (x >= 0 and geo[x, GE_TERR] == T_G and cells[CE_BLD, x] < 0
                    and (opts[O_WT_BLOCK] == 0 or cells[CE_WRK, x] < 0)):
                w += 1
        v = consts[C_WT_VP] * w
        seat[o, SE_SCORE] += v
        seat[o, SE_STATS + ST_VP_WT] += v
    for p in range(n):
        v = seat[p, SE_COINS] // consts[C_COINS_PER_VP]
        seat[p, SE_SCORE] += v
        seat[p, SE_STATS + ST_VP_COINS] += v
    meta[M_PHASE] = PH_OVER
    meta[M_END] = END_END


@njit(cache=True, _nrt=False)
def finish_feeding(meta, opts, gdata, geo, consts, cells, seat, mkt, c):
    """Doc 7.2: feed_all_with cards, then the next seat."""
    w = meta[M_WORKERS]
    for j in range(meta[M_NGOALS]):
        card = seat[c, SE_GOALS + j]
        if card == 0 or seat[c, SE_GDONE + j] != 0 or gdata[card, GD_KIND] != G_FEED_ALL_WITH:
            continue
        par = gdata[card, GD_PARAM]
        if (par == 2 and meta[M_FEED_FISH] == w) or (par == 3 and meta[M_FEED_WHEAT] == w):
            claim(meta, gdata, seat, c, j)
    meta[M_FEED_LEFT] = 0
    meta[M_FEED_FISH] = 0
    meta[M_FEED_WHEAT] = 0
    meta[M_EOR_IDX] += 1
    continue_eor(meta, opts, geo, consts, cells, seat, mkt)


@njit(cache=True, _nrt=False)
def draft_pick(meta, opts, gdata, consts, seat, sb, piles, mkt, c, b):
    """Doc 5.7: a pick; when every seat picked: reveal, pass or discard, deal, or finish."""
    n = meta[M_NP]
    seat[c, SE_PICKS] = b
    sb[c, SB_DHAND, b] = 0
    sb[c, SB_PICK, b] = meta[M_DRAFT_ROUND] + 1
    if c != (meta[M_FIRST] + n - 1) % n:
        meta[M_CUR] = (c + 1) % n
        return
    for p in range(n):
        mkt[MK_MARKET, seat[p, SE_PICKS]] = 1
        seat[p, SE_PICKS] = -1
    meta[M_DRAFT_ROUND] += 1
    if opts[O_MARKET] == MV_DRAFT:
        for bb in range(NB):
            last = sb[n - 1, SB_DHAND, bb]
            for p in range(n - 1, 0, -1):
                sb[p, SB_DHAND, bb] = sb[p - 1, SB_DHAND, bb]
            sb[0, SB_DHAND, bb] = last
    else:
        sb[:, SB_DHAND, :] = 0
    if meta[M_DRAFT_ROUND] * n >= consts[C_MARKET_SIZE]:
        sb[:, SB_DHAND, :] = 0
        finish_setup(meta, opts, gdata, seat, piles, mkt)
        return
    if opts[O_MARKET] == MV_ONE_OF_TWO:
        deal_two(meta, piles, sb)
    meta[M_CUR] = meta[M_FIRST]


@njit(cache=True, _nrt=False, forceinline=True)
def step(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, a):
    """Apply one action (chosen or forced) with its goal checks and continuation (doc 5-8)."""
    c = meta[M_CUR]
    if a < A_BUILD:  # PLACE
        cells[CE_WRK, a] = c
        seat[c, SE_WUSED] += 1
        seat[c, SE_STATS + ST_PLACEMENTS] += 1
        new_placement(meta, geo, c, a, True)
        meta[M_PHASE] = PH_ACT
        check_goals(meta, gdata, geo, cells, seat)
    elif a < A_SITE:  # BUILD
        b = a - A_BUILD
        seat[c, SE_WUSED] += 1
        seat[c, SE_ONSITE] += 1
        pay4(meta, seat, c, bdata[b, BD_COST], bdata[b, BD_COST + 1], bdata[b, BD_COST + 2],
             bdata[b, BD_COST + 3], bdata[b, BD_COSTC], consts[C_BUY])
        mkt[MK_MARKET, b] -= 1
        meta[M_PENDING] = b
        coins_event(meta, gdata, seat, c)
        meta[M_PHASE] = PH_SITE
        check_goals(meta, gdata, geo, cells, seat)
    elif a < A_ACT:  # SITE
        cell = a - A_SITE
        b = meta[M_PENDING]
        cells[CE_BLD, cell] = b
        cells[CE_OWN, cell] = c
        mkt[MK_LOC, b] = cell
        seat[c, SE_HOUSES] -= 1
        v = bdata[b, BD_VP]
        seat[c, SE_SCORE] += v
        seat[c, SE_STATS + ST_VP_BUILD] += v
        sb[c, SB_BUILT, b] += 1
        if sb[c, SB_BROUND, b] == 0:
            sb[c, SB_BROUND, b] = meta[M_ROUND]
        seat[c, SE_STATS + ST_BUILDS] += 1
        meta[M_PENDING] = -1
        seat[c, SE_GDIRTY] = 1
        check_goals(meta, gdata, geo, cells, seat)
        end_turn(meta, opts, geo, consts, cells, seat, mkt)
    elif a < A_PAWN:  # ACTIVATE
        do_activate(meta, opts, bdata, gdata, geo, consts, cells, seat, sb, c, a - A_ACT, -1, -1)
        check_goals(meta, gdata, geo, cells, seat)
    elif a < A_GATHER:  # PAWN
        i = a - A_PAWN
        do_activate(meta, opts, bdata, gdata, geo, consts, cells, seat, sb, c, 0, i // 10,
                    i % 10)
        check_goals(meta, gdata, geo, cells, seat)
    elif a == A_GATHER:
        do_gather(meta, geo, seat, c)
        check_goals(meta, gdata, geo, cells, seat)
    elif a == A_END:
        clear_placement(meta)
        check_goals(meta, gdata, geo, cells, seat)
        if meta[M_PHASE] == PH_ACT:
            end_turn(meta, opts, geo, consts, cells, seat, mkt)
        else:
            meta[M_EOR_STAGE] = EOR_SPECIALS
            meta[M_EOR_IDX] += 1
            continue_eor(meta, opts, geo, consts, cells, seat, mkt)
    elif a <= A_STARVE:  # feeding (doc 7.2)
        if a == A_FEED_FISH or a == A_FEED_WHEAT:
            t = 2 if a == A_FEED_FISH else 3
            seat[c, SE_CUBES + t] -= 1
            meta[M_SUPPLY + t] += 1
            meta[M_FEED_LEFT] -= 1
            meta[M_FEED_FISH + t - 2] += 1
        elif a == A_BUY_FISH or a == A_BUY_WHEAT:
            t = 2 if a == A_BUY_FISH else 3
            buy = consts[C_BUY]
            seat[c, SE_COINS] -= buy
            meta[M_BANK] += buy
            seat[c, SE_STATS + ST_CUBES_BOUGHT] += 1
            seat[c, SE_STATS + ST_FOOD_BOUGHT] += 1
            meta[M_FEED_LEFT] -= 1
            meta[M_FEED_FISH + t - 2] += 1
            coins_event(meta, gdata, seat, c)
        else:
            u = meta[M_FEED_LEFT]
            v = consts[C_UNFED] * u
            seat[c, SE_SCORE] -= v
            seat[c, SE_STATS + ST_UNFED] += u
            seat[c, SE_STATS + ST_VP_UNFED] -= v
            meta[M_FEED_LEFT] = 0
        check_goals(meta, gdata, geo, cells, seat)
        if meta[M_FEED_LEFT] == 0:
            finish_feeding(meta, opts, gdata, geo, consts, cells, seat, mkt, c)
    else:  # PICK
        check_goals(meta, gdata, geo, cells, seat)
        draft_pick(meta, opts, gdata, consts, seat, sb, piles, mkt, c, a - A_PICK)


@njit(cache=True, _nrt=False, forceinline=True)
def auto_forced(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, out):
    """Doc 4 (L2): apply forced moves; leave the legal list in ``out`` and its length in
    meta[M_NLEGAL]."""
    while True:
        n = legal_arrays(meta, opts, bdata, geo, consts, cells, seat, sb, mkt, out)
        if n == 1:
            step(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, out[0])
            continue
        meta[M_NLEGAL] = n
        return


@njit(cache=True, _nrt=False, forceinline=True)
def apply_arrays(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, out,
                 a):
    """A chosen action: count it, apply it, then the forced moves (doc 4)."""
    meta[M_DEC] += 1
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
                 s.piles, s.mkt, s.scratch, a)


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
    set_side(s.geo, s.opts[O_SIDE])
    s.mkt[MK_LOC, :] = -1
    for cell in range(NCELL):
        if s.cells[CE_BLD, cell] >= 0:
            s.mkt[MK_LOC, s.cells[CE_BLD, cell]] = cell
    for p in range(MAXP):
        s.seat[p, SE_GDIRTY] = 1


# ---------------------------------------------------------------------------------------------
# The kernel contract (sim/core/contract.py, docs/house-pattern.md): the three wrappers above
# and these; copy_into and chance_rng are the contract's defaults.
legal_actions_into = legal_into
implements(LittleTownState, "init_state")(init_state)
implements(LittleTownState, "legal_actions_into")(legal_into)
implements(LittleTownState, "apply_inplace")(apply_inplace)
meta_hooks(LittleTownState, "meta", phase=M_PHASE, over=PH_OVER, current=M_CUR, n_players=M_NP)





@implements(LittleTownState, "scores_into")
@njit(cache=True)
def scores_into(s, out):
    """The score track per seat (spec §6.4; may be negative)."""
    for p in range(s.meta[M_NP]):
        out[p] = s.seat[p, SE_SCORE]


@implements(LittleTownState, "win_shares_into")
@njit(cache=True)
def win_shares_into(s, out):
    """1/k for each of the k seats with the highest score once the game is over (shared
    wins, spec §6.4), else 0."""
    n = s.meta[M_NP]
    best = s.seat[0, SE_SCORE]
    for p in range(1, n):
        best = max(best, s.seat[p, SE_SCORE])
    k = 0
    for p in range(n):
        k += s.seat[p, SE_SCORE] == best
    over = s.meta[M_PHASE] == PH_OVER
    for p in range(n):
        out[p] = 1.0 / k if over and s.seat[p, SE_SCORE] == best else 0.0
