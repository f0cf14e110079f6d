"""Suburbia kernels: set-up, legal actions, the generic tile-effect interpreter, turn flow.

Every function here is ``@njit(cache=True)`` and works in place on the arrays of the state; the
Python API in ``game.py`` copies before applying. Rules: shared/rules/suburbia.md (cited as §);
encoding and the exact procedures: docs/games/suburbia.md (cited as doc §).

No tile has code of its own: each tile kind is a row of the ``tiles`` table (class bits, price,
immediate effect, up to three effect records of (stat, amount, scope, target mask)) and the
functions ``own_records`` (a tile's records counted at placement or replay) and ``react`` (a
tile's records reacting to a placement) interpret the records.

Performance (see also the performance note in sim/go_town/kernels.py): kernels take the plain
arrays they need (never the NamedTuple), index 2-D/3-D arrays directly and make no views. All
kernels but the entry points at the end are compiled with ``_nrt=False`` (no reference
counting, no allocation; ``init_arrays`` takes a scratch array for its shuffles), and the
per-decision ones (placement interpreter, turn flow, legal actions, apply) are
``forceinline=True``: before that, pushing the dozens of array-struct arguments of each call was
most of the time of a placement. Argument order, where present, is that of SuburbiaState, then
the derived arrays ``kt``, ``pd`` (section "Derived arrays" below): they let a placement visit
only the tiles that react, count tiles by kind bit sets, keep the legal cells as a bit set
(the random bot of the batch loop draws the k-th cell or action from bit sets without a list)
and skip red-line and Lake-bonus scans for boroughs without such tiles. Check them after a
change with a recomputation (``derive_player``) after every action of many games.
Effect, 4 players, random bots, one core (CPU time on the shared 2-core VM): ~9,000 games/s
before, ~83,000 after; the first compile of ``run_games`` takes ~30 s of CPU.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.bits import lowest_bit, popcount
from sim.core.contract import implements, register
from sim.core.rng import next_u64, rand_below
from sim.suburbia import constants as K

MAX_DECISIONS = 400
START_CELLS = (11, 56, 101)  # cell ids of (0,0), (0,2), (0,4)


class SuburbiaState(NamedTuple):
    """Suburbia state: plain numpy arrays (dict form: docs/games/suburbia.md §12).

    meta    int64[13]             n_players, current, phase, round, turn, decisions, last_round,
                                  end_reason, pile_n, pending kind, pending source, pending from,
                                  number of public goals
    rng     uint64[1]             SplitMix64 state
    opts    int64[23]             encoded rule options (slots O_* in constants.py)
    tiles   int64[53, 21]         tile table after option overrides (component data, doc §1.1)
    goals   int64[20, 4]          goal table (doc §1.3)
    lines   int64[64]             red-line values N ascending (doc §1.4)
    consts  int64[28]             set-up numbers (doc §1.5)
    geo     int64[1103, 8]        per cell: 6 neighbour ids (-1 outside), x, y
    pile    int64[96]             draw pile, bottom first; top = pile[pile_n - 1]
    market  int64[7]              kind per slot (0 empty), left (+$10) to right
    discard int64[53]             discard pile, counts per kind
    box     int64[53]             tiles set aside at set-up, counts per kind
    supply  int64[3]              Suburbs, Community Park, Heavy Factory left
    gpub    int64[4]              public goal ids (-1 unused)
    goffer  int64[4, 2]           private goal offers per seat (-1 none)
    gpriv   int64[4]              kept private goal per seat (-1 none)
    pl      int64[4, 12]          per seat: money, income, reputation, population, pop_high,
                                  redlines_up, redlines_down, goal_pop, money_pop, n_tiles,
                                  markers placed, bit set of the goals scored
    tk      int64[4, 24, 6]       per seat and placement index: kind, cell, turn, invested, rl,
                                  from (a Lake's source kind)
    grid    int64[4, 1103]        per seat and cell: tile index + 1 (0 empty)
    kc      int64[4, 53]          per seat: tiles of each kind in the borough (Lakes as kind 51)
    """

    meta: np.ndarray
    rng: np.ndarray
    opts: np.ndarray
    tiles: np.ndarray
    goals: np.ndarray
    lines: np.ndarray
    consts: np.ndarray
    geo: np.ndarray
    pile: np.ndarray
    market: np.ndarray
    discard: np.ndarray
    box: np.ndarray
    supply: np.ndarray
    gpub: np.ndarray
    goffer: np.ndarray
    gpriv: np.ndarray
    pl: np.ndarray
    tk: np.ndarray
    grid: np.ndarray
    kc: np.ndarray


def alloc_state(opts, tiles, goals, lines, consts, geo) -> SuburbiaState:
    """Empty state arrays for the given option and data arrays (copied)."""
    return SuburbiaState(
        meta=np.zeros(K.N_META, np.int64),
        rng=np.zeros(1, np.uint64),
        opts=opts.astype(np.int64).copy(),
        tiles=tiles.astype(np.int64).copy(),
        goals=goals.astype(np.int64).copy(),
        lines=lines.astype(np.int64).copy(),
        consts=consts.astype(np.int64).copy(),
        geo=geo.astype(np.int64).copy(),
        pile=np.zeros(K.MAXPILE, np.int64),
        market=np.zeros(K.NSLOTS, np.int64),
        discard=np.zeros(K.NK, np.int64),
        box=np.zeros(K.NK, np.int64),
        supply=np.zeros(3, np.int64),
        gpub=np.full(K.MAXP, -1, np.int64),
        goffer=np.full((K.MAXP, 2), -1, np.int64),
        gpriv=np.full(K.MAXP, -1, np.int64),
        pl=np.zeros((K.MAXP, K.NPL), np.int64),
        tk=np.zeros((K.MAXP, K.MAXT, K.NTK), np.int64),
        grid=np.zeros((K.MAXP, K.NCELLS), np.int64),
        kc=np.zeros((K.MAXP, K.NK), np.int64),
    )


def make_geo() -> np.ndarray:
    """``int64[NCELLS, NGEO]``: neighbours (doc §2 order, -1 outside the grid), x, y."""
    from sim.suburbia.constants import DIRS, cell_id, cell_xy

    geo = np.full((K.NCELLS, K.NGEO), -1, np.int64)
    for cid in range(K.NCELLS):
        x, y = cell_xy(cid)
        for d, (dx, dy) in enumerate(DIRS):
            geo[cid, d] = cell_id(x + dx, y + dy)
        geo[cid, 6] = x
        geo[cid, 7] = y
    return geo


# ---------------------------------------------------------------------------------------------
# Derived arrays (performance; not part of SuburbiaState)
#
# Two small arrays summarise the data and the boroughs so that the hot code of a placement can
# skip what cannot fire and count tiles without scanning all kinds. Neither is part of
# SuburbiaState: the batch loop keeps them across a chunk / a game, and every entry point below
# derives them afresh from the state (``derived_arrays``).
#
#   kt  int64[NK, NKT]   per tile kind, from the tile table and the options (``kind_tables``):
#       KT_M0  union of the target masks of its records that react to a placement next to it
#              (step 4: adj, lake_adj, own, every, after)
#       KT_M1  ... to a placement elsewhere in its borough (step 5: own, every, after)
#       KT_M2  ... to a placement in another borough (step 6: every, others, after if
#              after_scope = any_borough)
#       KT_FLAGS  F_REDLINE: it has a ``redline`` record; F_LAKEBONUS: a ``lakebonus`` record
#       KT_RB + r  bit set of the kinds (1..NK-1) matching the mask of its record r
#       KT_GB  (row g < number of goals) bit set of the kinds matching goal g's mask
#   pd  int64[MAXP, NPD]  per seat, kept by ``place_tile`` (``pd_add``):
#       PD_KBITS  bit k: the borough has a tile of kind k (kc[o, k] > 0)
#       PD_M0, PD_M1, PD_M2, PD_FLAGS  union of KT_M0, ... over the borough's tiles
#       PD_L0 + b, PD_L1 + b, PD_L2 + b  (class bit b < NCB) bit set of the tile indices u
#              whose KT_M0 (KT_M1, KT_M2) has bit b: the tiles that react in step 4 (5, 6)
#              to a placed tile whose class has bit b
#       PD_FR + w  word w of the bit set of the legal cells of a placement (the frontier: empty
#              cells next to the borough, within the borough width), cell id i at bit i % 64 of
#              word i // 64
#       PD_GM  scratch: the seat's (signed) measure of the goal being scored (``finish_game``)
#       PD_INVM  bit t: tile t may take an investment marker (not invested; not a Lake unless
#              invest_on_lake), whatever its price
#       PD_ADJ + t  (t < MAXT) bit set of the seat's tiles adjacent to its tile t
# A derived mask is a superset test only (a tile it does not rule out is interpreted as
# before), so skipping never changes which effects fire or their order.
KT_M0, KT_M1, KT_M2, KT_FLAGS, KT_RB = 0, 1, 2, 3, 4
KT_GB = KT_RB + K.MAXREC
NKT = KT_GB + 1
F_REDLINE, F_LAKEBONUS = 1, 2
NCB = 11  # class bits (R .. dealership, constants.py)
PD_KBITS, PD_M0, PD_M1, PD_M2, PD_FLAGS, PD_L0 = 0, 1, 2, 3, 4, 5
PD_L1 = PD_L0 + NCB
PD_L2 = PD_L1 + NCB
PD_FR = PD_L2 + NCB
NFW = (K.NCELLS + 63) // 64
PD_GM = PD_FR + NFW
PD_INVM = PD_GM + 1
PD_ADJ = PD_INVM + 1
NPD = PD_ADJ + K.MAXT


@njit(cache=True, _nrt=False)
def kinds_matching(tiles, mask):
    """Bit set of the kinds ``k`` in 1..NK-1 whose class matches ``mask``."""
    b = 0
    for k in range(1, K.NK):
        if (tiles[k, K.T_CLS] & mask) != 0:
            b |= 1 << k
    return b


@njit(cache=True, _nrt=False)
def kind_tables(opts, tiles, goals, kt):
    """Fill ``kt`` (derived arrays above) from the tile and goal tables and the options."""
    for k in range(K.NK):
        m0 = 0
        m1 = 0
        m2 = 0
        fl = 0
        for r in range(K.MAXREC):
            kt[k, KT_RB + r] = 0
        for r in range(tiles[k, K.T_NREC]):
            b = K.T_REC + 4 * r
            sc = tiles[k, b + 2]
            mask = tiles[k, b + 3]
            if (sc == K.SC_ADJ or sc == K.SC_LAKE_ADJ or sc == K.SC_OWN or sc == K.SC_EVERY
                    or sc == K.SC_AFTER):
                m0 |= mask
            if sc == K.SC_OWN or sc == K.SC_EVERY or sc == K.SC_AFTER:
                m1 |= mask
            if sc == K.SC_EVERY or sc == K.SC_OTHERS or (sc == K.SC_AFTER and opts[K.O_AFTER] == 0):
                m2 |= mask
            if sc == K.SC_REDLINE:
                fl |= F_REDLINE
            if sc == K.SC_LAKEBONUS:
                fl |= F_LAKEBONUS
            kt[k, KT_RB + r] = kinds_matching(tiles, mask)
        kt[k, KT_M0] = m0
        kt[k, KT_M1] = m1
        kt[k, KT_M2] = m2
        kt[k, KT_FLAGS] = fl
        kt[k, KT_GB] = kinds_matching(tiles, goals[k, K.G_MASK]) if k < goals.shape[0] else 0


@njit(cache=True, _nrt=False, forceinline=True)
def listeners_of(pd, o, cls):
    """(l0, l1): the bit sets of seat ``o``'s tiles 0-63 and 64-127 that listen to a tile of
    class mask ``cls`` (the union of the derived sets ``pd[o, PD_L0 + b]``/``PD_L1 + b`` over
    the bits ``b`` of ``cls``); int64 each."""
    l0 = 0
    l1 = 0
    cm = cls
    while cm != 0:
        b = lowest_bit(cm)
        l0 |= pd[o, PD_L0 + b]
        l1 |= pd[o, PD_L1 + b]
        cm &= cm - 1
    return l0, l1


@njit(cache=True, _nrt=False, forceinline=True)
def pd_add(opts, geo, grid, kt, pd, o, t, kind, cell):
    """Seat ``o``'s derived row after its tile ``t`` of ``kind`` was put on ``cell`` (grid
    set)."""
    pd[o, PD_KBITS] |= 1 << kind
    pd[o, PD_M0] |= kt[kind, KT_M0]
    pd[o, PD_M1] |= kt[kind, KT_M1]
    pd[o, PD_M2] |= kt[kind, KT_M2]
    pd[o, PD_FLAGS] |= kt[kind, KT_FLAGS]
    tb = 1 << t
    if kind != K.K_LAKE or opts[K.O_INV_LAKE] != 0:
        pd[o, PD_INVM] |= tb
    m = kt[kind, KT_M0]
    while m != 0:
        pd[o, PD_L0 + lowest_bit(m)] |= tb
        m &= m - 1
    m = kt[kind, KT_M1]
    while m != 0:
        pd[o, PD_L1 + lowest_bit(m)] |= tb
        m &= m - 1
    m = kt[kind, KT_M2]
    while m != 0:
        pd[o, PD_L2 + lowest_bit(m)] |= tb
        m &= m - 1
    pd[o, PD_FR + (cell >> 6)] &= ~(1 << (cell & 63))
    w = opts[K.O_WIDTH]
    half = (w - 1) // 2
    for d in range(6):
        nb = geo[cell, d]
        if nb < 0:
            continue
        v = grid[o, nb]
        if v != 0:
            pd[o, PD_ADJ + v - 1] |= tb
            pd[o, PD_ADJ + t] |= 1 << (v - 1)
            continue
        if w > 0 and abs(geo[nb, K.GEO_X]) > half:
            continue
        pd[o, PD_FR + (nb >> 6)] |= 1 << (nb & 63)


@njit(cache=True, _nrt=False)
def derive_player(opts, geo, pl, tk, grid, kt, pd, o):
    """Seat ``o``'s derived row ``pd[o]`` from its borough."""
    for j in range(NPD):
        pd[o, j] = 0
    for t in range(pl[o, K.P_NT]):
        pd_add(opts, geo, grid, kt, pd, o, t, tk[o, t, K.K_KIND], tk[o, t, K.K_CELL])
        if tk[o, t, K.K_INV] == 1:
            pd[o, PD_INVM] &= ~(1 << t)


@njit(cache=True)
def derived_arrays(s):
    """``(kt, pd)`` of the state ``s``, derived afresh (for the entry points)."""
    kt = np.zeros((K.NK, NKT), np.int64)
    pd = np.zeros((K.MAXP, NPD), np.int64)
    kind_tables(s.opts, s.tiles, s.goals, kt)
    for o in range(s.meta[K.M_NP]):
        derive_player(s.opts, s.geo, s.pl, s.tk, s.grid, kt, pd, o)
    return kt, pd


@njit(cache=True, _nrt=False, forceinline=True)
def count_kinds(kc, o, bits):
    """Tiles of seat ``o`` of the kinds in the bit set ``bits``."""
    n = 0
    while bits != 0:
        n += kc[o, lowest_bit(bits)]
        bits &= bits - 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def frontier_count(pd, c):
    """Number of legal cells of a placement by seat ``c``."""
    n = 0
    for w in range(NFW):
        n += popcount(pd[c, PD_FR + w])
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def frontier_nth(pd, c, k):
    """The ``k``-th (from 0, ascending) legal cell of a placement by seat ``c``."""
    for w in range(NFW):
        m = pd[c, PD_FR + w]
        n = popcount(m)
        if k < n:
            for _ in range(k):
                m &= m - 1
            return (w << 6) + lowest_bit(m)
        k -= n
    return -1


@njit(cache=True, _nrt=False)
def frontier_list(pd, c, buf, start):
    """Legal cells of seat ``c`` written ascending into ``buf[start:]``; returns how many
    (the same list as ``frontier``)."""
    n = 0
    for w in range(NFW):
        m = pd[c, PD_FR + w]
        while m != 0:
            buf[start + n] = (w << 6) + lowest_bit(m)
            n += 1
            m &= m - 1
    return n


# ---------------------------------------------------------------------------------------------
# tracks (doc §8)
@njit(cache=True, _nrt=False, forceinline=True)
def add_track(opts, pl, o, slot, d):
    """Income/Reputation change with the clamp of D13 (doc §8.1)."""
    v = pl[o, slot] + d
    if opts[K.O_CLAMP] == 0:
        if v > 15:
            v = 15
        elif v < -5:
            v = -5
    pl[o, slot] = v


@njit(cache=True, _nrt=False)
def clamp_all(pl, np_):
    """Clamp every seat's income and reputation to [-5, 15] (D13 end_of_resolution)."""
    for o in range(np_):
        for s in (K.P_INC, K.P_REP):
            if pl[o, s] > 15:
                pl[o, s] = 15
            elif pl[o, s] < -5:
                pl[o, s] = -5


@njit(cache=True, _nrt=False, forceinline=True)
def add_money(pl, o, d):
    v = pl[o, K.P_MONEY] + d
    pl[o, K.P_MONEY] = v if v > 0 else 0


@njit(cache=True, _nrt=False, forceinline=True)
def rl_counter(opts, pl, o):
    """``redlines_up - redlines_down`` (the latter only under redline_tiles_down=reverse)."""
    if opts[K.O_RL_TILES_DOWN] == 1:
        return pl[o, K.P_RLUP] - pl[o, K.P_RLDOWN]
    return pl[o, K.P_RLUP]


@njit(cache=True, _nrt=False)
def redline_tiles(opts, tiles, pl, tk, o, sign):
    """Fire every ``redline`` record of seat ``o`` (placement order) once, times ``sign``."""
    for t in range(pl[o, K.P_NT]):
        k = tk[o, t, K.K_KIND]
        for r in range(tiles[k, K.T_NREC]):
            b = K.T_REC + 4 * r
            if tiles[k, b + 2] == K.SC_REDLINE:
                amt = sign * tiles[k, b + 1] * (2 if tk[o, t, K.K_INV] == 1 else 1)
                st = tiles[k, b]
                if st == K.S_INC:
                    add_track(opts, pl, o, K.P_INC, amt)
                elif st == K.S_REP:
                    add_track(opts, pl, o, K.P_REP, amt)
                elif st == K.S_MONEY:
                    add_money(pl, o, amt)


@njit(cache=True, _nrt=False, forceinline=True)
def pop_change(opts, tiles, lines, consts, pl, tk, pd, np_, o, d):
    """Population change with red lines both ways (spec §5.5, D1, D2, D14; doc §8.2).

    ``lines[:n]`` is ascending (data.lines_array), so the scans stop at the first line past
    the change."""
    p = pl[o, K.P_POP]
    q = p + d
    if q < 0:
        q = 0
    if opts[K.O_POP_MAX] > 0 and q > opts[K.O_POP_MAX]:
        q = opts[K.O_POP_MAX]
    pl[o, K.P_POP] = q
    pen = opts[K.O_SOLO_PEN] if np_ == 1 else 1
    off = opts[K.O_RL_OFFSET]
    nl = consts[K.C_NLINES]
    if q > p:
        lo = p
        if opts[K.O_RL_DOWN] == 0 and pl[o, K.P_HIGH] > lo:
            lo = pl[o, K.P_HIGH]
        for i in range(nl):
            L = lines[i] + off
            if L >= q:
                break
            if lo <= L:
                add_track(opts, pl, o, K.P_INC, -pen)
                add_track(opts, pl, o, K.P_REP, -pen)
                pl[o, K.P_RLUP] += 1
                if pd[o, PD_FLAGS] & F_REDLINE:
                    redline_tiles(opts, tiles, pl, tk, o, 1)
        if q > pl[o, K.P_HIGH]:
            pl[o, K.P_HIGH] = q
    elif q < p and opts[K.O_RL_DOWN] == 1:
        for i in range(nl - 1, -1, -1):
            L = lines[i] + off
            if L < q:
                break
            if L < p:
                add_track(opts, pl, o, K.P_INC, pen)
                add_track(opts, pl, o, K.P_REP, pen)
                pl[o, K.P_RLDOWN] += 1
                if opts[K.O_RL_TILES_DOWN] == 1 and (pd[o, PD_FLAGS] & F_REDLINE):
                    redline_tiles(opts, tiles, pl, tk, o, -1)


@njit(cache=True, _nrt=False, forceinline=True)
def fire(opts, tiles, lines, consts, pl, tk, pd, np_, o, stat, amt):
    """One change of ``amt`` to ``stat`` of seat ``o`` (doc §8.1)."""
    if amt == 0:
        return
    if stat == K.S_INC:
        add_track(opts, pl, o, K.P_INC, amt)
    elif stat == K.S_REP:
        add_track(opts, pl, o, K.P_REP, amt)
    elif stat == K.S_POP:
        pop_change(opts, tiles, lines, consts, pl, tk, pd, np_, o, amt)
    else:
        add_money(pl, o, amt)


# ---------------------------------------------------------------------------------------------
# counting (doc §1.2)
@njit(cache=True, _nrt=False)
def count_borough(tiles, kc, o, mask):
    """Tiles of seat ``o``'s borough whose class matches ``mask``."""
    n = 0
    for k in range(1, K.NK):
        if kc[o, k] > 0 and (tiles[k, K.T_CLS] & mask) != 0:
            n += kc[o, k]
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def count_adj(tiles, geo, tk, grid, o, cell, mask):
    """Tiles of seat ``o`` adjacent to ``cell`` whose class matches ``mask``."""
    n = 0
    for d in range(6):
        nb = geo[cell, d]
        if nb >= 0:
            u = grid[o, nb]
            if u > 0 and (tiles[tk[o, u - 1, K.K_KIND], K.T_CLS] & mask) != 0:
                n += 1
    return n


@njit(cache=True, _nrt=False)
def is_adj(geo, a, b):
    for d in range(6):
        if geo[a, d] == b:
            return True
    return False


@njit(cache=True, _nrt=False)
def lake_bonus(tiles, pl, tk, o):
    """Sum of ``amount x m`` over seat ``o``'s ``lakebonus`` records (doc §1.2)."""
    b = 0
    for t in range(pl[o, K.P_NT]):
        k = tk[o, t, K.K_KIND]
        for r in range(tiles[k, K.T_NREC]):
            base = K.T_REC + 4 * r
            if tiles[k, base + 2] == K.SC_LAKEBONUS:
                b += tiles[k, base + 1] * (2 if tk[o, t, K.K_INV] == 1 else 1)
    return b


@njit(cache=True, _nrt=False, forceinline=True)
def lake_bonus_pd(tiles, pl, tk, pd, o):
    """``lake_bonus`` (0 without a ``lakebonus`` tile: derived flags)."""
    if (pd[o, PD_FLAGS] & F_LAKEBONUS) == 0:
        return 0
    return lake_bonus(tiles, pl, tk, o)


@njit(cache=True, _nrt=False)
def waterfront_count(opts, geo, pl, tk, grid, o, self_t):
    """One-off count of a ``lakebonus`` record (option waterfront, D9; doc §1.2)."""
    mode = opts[K.O_WATERFRONT]
    if mode == 2:
        return 0
    n = 0
    for t in range(pl[o, K.P_NT]):
        if t == self_t or tk[o, t, K.K_KIND] == K.K_LAKE:
            continue
        cell = tk[o, t, K.K_CELL]
        lakes = 0
        for d in range(6):
            nb = geo[cell, d]
            if nb >= 0:
                u = grid[o, nb]
                if u > 0 and tk[o, u - 1, K.K_KIND] == K.K_LAKE:
                    lakes += 1
        if mode == 0:
            n += lakes
        elif lakes > 0:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def count_after(opts, tiles, pl, tk, np_, o, turn, mask):
    """Tiles placed after ``turn`` matching ``mask`` (any borough, or ``o``'s: D8)."""
    n = 0
    for q in range(np_):
        if opts[K.O_AFTER] == 1 and q != o:
            continue
        for u in range(pl[q, K.P_NT]):
            if tk[q, u, K.K_TURN] > turn and (tiles[tk[q, u, K.K_KIND], K.T_CLS] & mask) != 0:
                n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def record_count(opts, tiles, geo, pl, tk, grid, kc, kt, pd, np_, o, t, r, replay):
    """Count of record ``r`` of seat ``o``'s tile ``t`` at placement / at a replay (doc §1.2)."""
    k = tk[o, t, K.K_KIND]
    base = K.T_REC + 4 * r
    scope = tiles[k, base + 2]
    mask = tiles[k, base + 3]
    selfm = 0
    if opts[K.O_SELF] == 0 and (tiles[k, K.T_CLS] & mask) != 0:
        selfm = 1
    if scope == K.SC_ADJ or scope == K.SC_LAKE_ADJ:
        return count_adj(tiles, geo, tk, grid, o, tk[o, t, K.K_CELL], mask)
    kb = kt[k, KT_RB + r]  # the kinds matching ``mask``
    if scope == K.SC_OWN:
        return count_kinds(kc, o, pd[o, PD_KBITS] & kb) - selfm
    if scope == K.SC_EVERY:
        n = 0
        for q in range(np_):
            n += count_kinds(kc, q, pd[q, PD_KBITS] & kb)
        return n - selfm
    if scope == K.SC_OTHERS:
        n = 0
        for q in range(np_):
            if q != o:
                n += count_kinds(kc, q, pd[q, PD_KBITS] & kb)
        return n
    if scope == K.SC_AFTER:
        if not replay:
            return 0
        return count_after(opts, tiles, pl, tk, np_, o, tk[o, t, K.K_TURN], mask)
    if scope == K.SC_REDLINE:
        if not replay:
            return 0
        return rl_counter(opts, pl, o) - tk[o, t, K.K_RL]
    if scope == K.SC_LAKEBONUS:
        return waterfront_count(opts, geo, pl, tk, grid, o, t)
    return 0


@njit(cache=True, _nrt=False, forceinline=True)
def immediate(opts, tiles, lines, consts, pl, tk, pd, np_, o, k):
    """The immediate effect of kind ``k`` for seat ``o``: Inc, Rep, Pop, $ in this order."""
    for s in range(4):
        v = tiles[k, K.T_IMM + s]
        if v != 0:
            fire(opts, tiles, lines, consts, pl, tk, pd, np_, o, s, v)


@njit(cache=True, _nrt=False, forceinline=True)
def own_records(opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, np_, o, t, replay):
    """Step 3 of a placement / the replay of an investment: each record of tile ``t`` once."""
    k = tk[o, t, K.K_KIND]
    for r in range(tiles[k, K.T_NREC]):
        cnt = record_count(opts, tiles, geo, pl, tk, grid, kc, kt, pd, np_, o, t, r, replay)
        if cnt != 0:
            base = K.T_REC + 4 * r
            amt = tiles[k, base + 1]
            if tiles[k, base + 2] == K.SC_LAKE_ADJ:
                amt += lake_bonus_pd(tiles, pl, tk, pd, o)
            fire(opts, tiles, lines, consts, pl, tk, pd, np_, o, tiles[k, base], amt * cnt)


@njit(cache=True, _nrt=False, forceinline=True)
def react(opts, tiles, lines, consts, pl, tk, pd, np_, o, u, cls, mode):
    """Records of seat ``o``'s tile ``u`` reacting to a placed tile of class ``cls``.

    mode 0: ``u`` is adjacent, same borough (step 4); 1: not adjacent, same borough (step 5);
    2: another seat's borough (step 6). spec §5.3-5.4, doc §6.
    """
    k = tk[o, u, K.K_KIND]
    nr = tiles[k, K.T_NREC]
    for r in range(nr):
        base = K.T_REC + 4 * r
        if (tiles[k, base + 3] & cls) == 0:
            continue
        scope = tiles[k, base + 2]
        ok = False
        if mode == 0:
            ok = (scope == K.SC_ADJ or scope == K.SC_LAKE_ADJ or scope == K.SC_OWN
                  or scope == K.SC_EVERY or scope == K.SC_AFTER)
        elif mode == 1:
            ok = scope == K.SC_OWN or scope == K.SC_EVERY or scope == K.SC_AFTER
        else:
            ok = scope == K.SC_EVERY or scope == K.SC_OTHERS or (
                scope == K.SC_AFTER and opts[K.O_AFTER] == 0)
        if not ok:
            continue
        amt = tiles[k, base + 1]
        if scope == K.SC_LAKE_ADJ:
            amt += lake_bonus_pd(tiles, pl, tk, pd, o)
        if tk[o, u, K.K_INV] == 1:
            amt *= 2
        fire(opts, tiles, lines, consts, pl, tk, pd, np_, o, tiles[k, base], amt)


@njit(cache=True, _nrt=False, forceinline=True)
def place_tile(meta, opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, c, kind, cell,
               frm):
    """Place ``kind`` on ``cell`` for seat ``c`` and resolve it (spec §5.3, doc §6)."""
    np_ = meta[K.M_NP]
    t = pl[c, K.P_NT]
    tk[c, t, K.K_KIND] = kind
    tk[c, t, K.K_CELL] = cell
    tk[c, t, K.K_TURN] = meta[K.M_TURN]
    tk[c, t, K.K_INV] = 0
    tk[c, t, K.K_RL] = rl_counter(opts, pl, c)
    tk[c, t, K.K_FROM] = frm
    grid[c, cell] = t + 1
    kc[c, kind] += 1
    pl[c, K.P_NT] = t + 1
    pd_add(opts, geo, grid, kt, pd, c, t, kind, cell)
    immediate(opts, tiles, lines, consts, pl, tk, pd, np_, c, kind)             # step 2
    own_records(opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, np_, c, t,
                False)                                                           # step 3
    if opts[K.O_REACTIONS] == 0:
        return
    cls = tiles[kind, K.T_CLS]
    # the derived listener sets give, in ascending order, exactly the tiles whose ``react``
    # can fire (a record of the step's scopes whose mask matches ``cls``); the others are
    # skipped without changing anything
    if (pd[c, PD_M0] & cls) != 0:
        adj = 0  # bit u: own tile u is adjacent to ``cell``
        for d in range(6):
            nb = geo[cell, d]
            if nb >= 0:
                v = grid[c, nb]
                if v > 0:
                    adj |= 1 << (v - 1)
        l0, l1 = listeners_of(pd, c, cls)
        before = (1 << t) - 1  # the tiles placed before this one
        m = l0 & adj & before
        while m != 0:                                                            # step 4
            react(opts, tiles, lines, consts, pl, tk, pd, np_, c, lowest_bit(m), cls, 0)
            m &= m - 1
        m = l1 & ~adj & before
        while m != 0:                                                            # step 5
            react(opts, tiles, lines, consts, pl, tk, pd, np_, c, lowest_bit(m), cls, 1)
            m &= m - 1
    for i in range(1, np_):                                                      # step 6
        o = (c + i) % np_
        if (pd[o, PD_M2] & cls) == 0:
            continue
        m = 0
        cm = cls
        while cm != 0:
            m |= pd[o, PD_L2 + lowest_bit(cm)]
            cm &= cm - 1
        while m != 0:
            react(opts, tiles, lines, consts, pl, tk, pd, np_, o, lowest_bit(m), cls, 2)
            m &= m - 1


@njit(cache=True, _nrt=False)
def invest(meta, opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, c, t):
    """Investment marker on seat ``c``'s tile ``t`` (spec §5.6, D12; doc §7). Price paid here."""
    np_ = meta[K.M_NP]
    k = tk[c, t, K.K_KIND]
    pl[c, K.P_MONEY] -= tiles[k, K.T_PRICE]
    if opts[K.O_REPLAY] == 1:
        immediate(opts, tiles, lines, consts, pl, tk, pd, np_, c, k)
        own_records(opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, np_, c, t, True)
    tk[c, t, K.K_INV] = 1
    pd[c, PD_INVM] &= ~(1 << t)
    pl[c, K.P_NINV] += 1


# ---------------------------------------------------------------------------------------------
# placement cells (doc §2)
@njit(cache=True, _nrt=False)
def frontier(opts, geo, pl, tk, grid, c, buf, start):
    """Legal cells of seat ``c`` written ascending into ``buf[start:]``; returns how many."""
    n = 0
    w = opts[K.O_WIDTH]
    half = (w - 1) // 2
    for t in range(pl[c, K.P_NT]):
        cell = tk[c, t, K.K_CELL]
        for d in range(6):
            nb = geo[cell, d]
            if nb < 0 or grid[c, nb] != 0:
                continue
            if w > 0 and abs(geo[nb, K.GEO_X]) > half:
                continue
            j = 0
            while j < n and buf[start + j] < nb:
                j += 1
            if j < n and buf[start + j] == nb:
                continue
            i = n
            while i > j:
                buf[start + i] = buf[start + i - 1]
                i -= 1
            buf[start + j] = nb
            n += 1
    return n


# ---------------------------------------------------------------------------------------------
# market (spec §5.2 step 4; doc §5.6)
@njit(cache=True, _nrt=False, forceinline=True)
def refill(meta, opts, pile, market):
    """Slide the market right, then fill the empty slots from the pile (1MR handling)."""
    j = K.NSLOTS - 1
    for i in range(K.NSLOTS - 1, -1, -1):
        if market[i] != 0:
            v = market[i]
            market[i] = 0
            market[j] = v
            j -= 1
    e = j + 1
    i = 0
    while i < e:
        n = meta[K.M_PILEN]
        if n == 0:
            return
        k = pile[n - 1]
        pile[n - 1] = 0
        meta[K.M_PILEN] = n - 1
        if k == K.K_OMR:
            if meta[K.M_NP] == 1:
                meta[K.M_LAST] = meta[K.M_ROUND]
            elif meta[K.M_LAST] < 0:
                meta[K.M_LAST] = meta[K.M_ROUND] + 1
            if opts[K.O_OMR_REPL] == 0:
                return
            continue
        market[e - 1 - i] = k
        i += 1


@njit(cache=True, _nrt=False, forceinline=True)
def can_discard(consts, pl, market, c):
    for s in range(K.NSLOTS):
        if market[s] != 0 and consts[K.C_SUR0 + s] <= pl[c, K.P_MONEY]:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# goals and the end (spec §4, §5.7; doc §11)
@njit(cache=True, _nrt=False)
def largest_group(tiles, pl, tk, pd, o, mask):
    """Largest connected set of seat ``o``'s tiles matching ``mask`` (bit-set flood fill over
    the derived adjacency ``pd[o, PD_ADJ + t]``)."""
    rest = 0  # matching tiles not yet in a group
    for t in range(pl[o, K.P_NT]):
        if (tiles[tk[o, t, K.K_KIND], K.T_CLS] & mask) != 0:
            rest |= 1 << t
    best = 0
    while rest != 0:
        group = rest & -rest
        front = group
        while front != 0:
            nbrs = 0
            while front != 0:
                nbrs |= pd[o, PD_ADJ + lowest_bit(front)]
                front &= front - 1
            front = nbrs & rest & ~group
            group |= front
        size = popcount(group)
        if size > best:
            best = size
        rest &= ~group
    return best


@njit(cache=True, _nrt=False)
def goal_measure(tiles, goals, geo, pl, tk, grid, kc, kt, pd, o, g):
    """The value goal ``g`` measures for seat ``o`` (doc §1.3)."""
    m = goals[g, K.G_MEASURE]
    mask = goals[g, K.G_MASK]
    if m == K.GM_COUNT:
        return count_kinds(kc, o, pd[o, PD_KBITS] & kt[g, KT_GB])
    if m == K.GM_GROUP:
        return largest_group(tiles, pl, tk, pd, o, mask)
    if m == K.GM_MONEY:
        return pl[o, K.P_MONEY]
    if m == K.GM_INCOME:
        return pl[o, K.P_INC]
    if m == K.GM_REP:
        return pl[o, K.P_REP]
    if m == K.GM_INVEST:
        return pl[o, K.P_NINV]
    return 0


@njit(cache=True, _nrt=False)
def goal_status(tiles, goals, geo, pl, tk, grid, kc, kt, pd, np_, o, g):
    """2 if seat ``o`` is strictly best at goal ``g``, 1 if tied best, 0 otherwise."""
    d = goals[g, K.G_DIR]
    mine = d * goal_measure(tiles, goals, geo, pl, tk, grid, kc, kt, pd, o, g)
    tied = False
    for q in range(np_):
        if q == o:
            continue
        v = d * goal_measure(tiles, goals, geo, pl, tk, grid, kc, kt, pd, q, g)
        if v > mine:
            return 0
        if v == mine:
            tied = True
    return 1 if tied else 2


@njit(cache=True, _nrt=False)
def goal_measures(tiles, goals, geo, pl, tk, grid, kc, kt, pd, np_, g):
    """Every seat's signed measure of goal ``g`` into ``pd[q, PD_GM]`` (for ``status_pd``)."""
    d = goals[g, K.G_DIR]
    for q in range(np_):
        pd[q, PD_GM] = d * goal_measure(tiles, goals, geo, pl, tk, grid, kc, kt, pd, q, g)


@njit(cache=True, _nrt=False)
def status_pd(pd, np_, o):
    """``goal_status`` of seat ``o`` from the measures left by ``goal_measures``."""
    mine = pd[o, PD_GM]
    tied = False
    for q in range(np_):
        if q == o:
            continue
        v = pd[q, PD_GM]
        if v > mine:
            return 0
        if v == mine:
            tied = True
    return 1 if tied else 2


@njit(cache=True, _nrt=False)
def finish_game(meta, opts, tiles, goals, geo, gpub, gpriv, pl, tk, grid, kc, kt, pd):
    """Goals, money conversion (spec §5.7; doc §11). Ranking is done by the callers.

    No goal measure changes while the goals are scored, so each goal's measures are taken
    once (``goal_measures``) and every seat's status read from them."""
    np_ = meta[K.M_NP]
    meta[K.M_PHASE] = K.PH_OVER
    meta[K.M_END] = K.END_END
    if np_ >= 2:
        for i in range(meta[K.M_NPUB]):
            g = gpub[i]
            goal_measures(tiles, goals, geo, pl, tk, grid, kc, kt, pd, np_, g)
            for o in range(np_):
                if status_pd(pd, np_, o) == 2:
                    pl[o, K.P_GOALPOP] += goals[g, K.G_BONUS]
                    pl[o, K.P_GOALBITS] |= 1 << g
        for o in range(np_):
            g = gpriv[o]
            if g < 0:
                continue
            goal_measures(tiles, goals, geo, pl, tk, grid, kc, kt, pd, np_, g)
            st = status_pd(pd, np_, o)
            if st == 2 or (st == 1 and opts[K.O_PRIV_TIES] == 1):
                pl[o, K.P_GOALPOP] += goals[g, K.G_BONUS]
                pl[o, K.P_GOALBITS] |= 1 << g
    for o in range(np_):
        pl[o, K.P_POP] += pl[o, K.P_GOALPOP]
        mp = pl[o, K.P_MONEY] // 5
        pl[o, K.P_MONEYPOP] = mp
        pl[o, K.P_POP] += mp
        pl[o, K.P_MONEY] -= 5 * mp


# ---------------------------------------------------------------------------------------------
# turn flow (spec §5.2; doc §5)
@njit(cache=True, _nrt=False, forceinline=True)
def begin_turn(meta, s):
    meta[K.M_TURN] += 1
    meta[K.M_CUR] = s
    meta[K.M_PHASE] = K.PH_ACTION


@njit(cache=True, _nrt=False, forceinline=True)
def end_turn(meta, opts, tiles, goals, geo, gpub, gpriv, pl, tk, grid, kc, kt, pd):
    """End of the active seat's turn (after the refill): next seat, next round or the end."""
    c = meta[K.M_CUR]
    np_ = meta[K.M_NP]
    if np_ == 1:
        if meta[K.M_LAST] >= 0:
            finish_game(meta, opts, tiles, goals, geo, gpub, gpriv, pl, tk, grid, kc, kt, pd)
            return
        meta[K.M_ROUND] += 1
        begin_turn(meta, 0)
    elif c == np_ - 1:
        if meta[K.M_LAST] >= 0 and meta[K.M_ROUND] == meta[K.M_LAST]:
            finish_game(meta, opts, tiles, goals, geo, gpub, gpriv, pl, tk, grid, kc, kt, pd)
            return
        meta[K.M_ROUND] += 1
        begin_turn(meta, 0)
    else:
        begin_turn(meta, c + 1)


@njit(cache=True, _nrt=False, forceinline=True)
def income_rep_steps(meta, opts, tiles, lines, consts, pl, tk, pd, c):
    """Income step and reputation step of the active seat (spec §5.2, D19; doc §8.3)."""
    np_ = meta[K.M_NP]
    eor = opts[K.O_CLAMP] == 1
    if eor:
        clamp_all(pl, np_)
    i = pl[c, K.P_INC]
    if i > 0:
        pl[c, K.P_MONEY] += i
    elif i < 0:
        if pl[c, K.P_MONEY] >= -i:
            pl[c, K.P_MONEY] += i
        else:
            missing = -i - pl[c, K.P_MONEY]
            pl[c, K.P_MONEY] = 0
            loss = missing if missing < pl[c, K.P_POP] else pl[c, K.P_POP]
            pl[c, K.P_UNPAID] += loss  # recorded only (results, issue 16)
            pl[c, K.P_FORGIVEN] += missing - loss
            pop_change(opts, tiles, lines, consts, pl, tk, pd, np_, c, -loss)
    if eor:
        clamp_all(pl, np_)
    r = pl[c, K.P_REP]
    if r > 0:
        pop_change(opts, tiles, lines, consts, pl, tk, pd, np_, c, r)
    elif r < 0:
        if pl[c, K.P_POP] >= -r:
            pop_change(opts, tiles, lines, consts, pl, tk, pd, np_, c, r)
        else:
            below = -r - pl[c, K.P_POP]
            pop_change(opts, tiles, lines, consts, pl, tk, pd, np_, c, -pl[c, K.P_POP])
            if opts[K.O_REP_DEBT] == 0:
                pay = below if below < pl[c, K.P_MONEY] else pl[c, K.P_MONEY]
                pl[c, K.P_MONEY] -= pay
                pl[c, K.P_FORGIVEN] += below - pay  # recorded only (results, issue 16)
            elif pl[c, K.P_MONEY] >= below:
                pl[c, K.P_MONEY] -= below
            else:
                pl[c, K.P_FORGIVEN] += below  # recorded only (results, issue 16)
    if eor:
        clamp_all(pl, np_)


@njit(cache=True, _nrt=False, forceinline=True)
def action_over(meta, opts, tiles, goals, lines, consts, geo, pile, market, gpub, gpriv, pl, tk,
                grid, kc, kt, pd):
    """The action step is over: income, reputation, solo extra discard, refill, end of turn."""
    c = meta[K.M_CUR]
    income_rep_steps(meta, opts, tiles, lines, consts, pl, tk, pd, c)
    if meta[K.M_NP] == 1 and can_discard(consts, pl, market, c):
        meta[K.M_PHASE] = K.PH_EXTRA
        return
    refill(meta, opts, pile, market)
    end_turn(meta, opts, tiles, goals, geo, gpub, gpriv, pl, tk, grid, kc, kt, pd)


@njit(cache=True, _nrt=False, forceinline=True)
def discard_step(meta, opts, tiles, goals, lines, consts, geo, pile, market, gpub, gpriv, pl, tk,
                 grid, kc, kt, pd):
    if opts[K.O_CLAMP] == 1:
        clamp_all(pl, meta[K.M_NP])
    if can_discard(consts, pl, market, meta[K.M_CUR]):
        meta[K.M_PHASE] = K.PH_DISCARD
    else:
        action_over(meta, opts, tiles, goals, lines, consts, geo, pile, market, gpub, gpriv, pl,
                    tk, grid, kc, kt, pd)


# ---------------------------------------------------------------------------------------------
# set-up (spec §5.1; doc §4)
@njit(cache=True, _nrt=False)
def init_scratch_size(tiles):
    """Length of the ``work`` scratch array of ``init_arrays`` for this tile table."""
    n = 0
    for k in range(1, K.NK):
        n += tiles[k, K.T_COUNT]
    return 2 * n + K.NG + 2


@njit(cache=True, _nrt=False)
def _stack_list(tiles, stack, out, off):
    """The kinds of ``stack``, one entry per tile, ascending, into ``out[off:]``; the count."""
    i = off
    for k in range(1, K.NK):
        if tiles[k, K.T_STACK] == stack:
            for _ in range(tiles[k, K.T_COUNT]):
                out[i] = k
                i += 1
    return i - off


@njit(cache=True, _nrt=False)
def _shuffle_at(r, a, off, n):
    """``sim.core.rng.shuffle`` of ``a[off:off + n]`` (the same draws)."""
    for i in range(n - 1, 0, -1):
        j = rand_below(r, i + 1)
        t = a[off + i]
        a[off + i] = a[off + j]
        a[off + j] = t


@njit(cache=True, _nrt=False)
def init_arrays(meta, rng, opts, tiles, goals, lines, consts, geo, pile, market, discard, box,
                supply, gpub, goffer, gpriv, pl, tk, grid, kc, kt, pd, work, n_players, seed):
    """``init_state`` on the state's arrays (doc §4): stacks, market, goals, boroughs; and the
    seats' derived rows ``pd`` (``kt``: the kind tables of the state's data and options).

    ``grid`` must be zero outside the cells of the tiles listed in ``tk``/``pl`` (a new state,
    or the state a game left): only those cells are cleared. ``work``: scratch of at least
    ``init_scratch_size(tiles)`` entries."""
    for p in range(K.MAXP):
        for t in range(pl[p, K.P_NT]):
            grid[p, tk[p, t, K.K_CELL]] = 0
        for j in range(K.NPL):
            pl[p, j] = 0
        for t in range(K.MAXT):
            for j in range(K.NTK):
                tk[p, t, j] = 0
        for k in range(K.NK):
            kc[p, k] = 0
        gpub[p] = -1
        gpriv[p] = -1
        goffer[p, 0] = -1
        goffer[p, 1] = -1
    for j in range(K.N_META):
        meta[j] = 0
    for i in range(K.MAXPILE):
        pile[i] = 0
    for i in range(K.NSLOTS):
        market[i] = 0
    for k in range(K.NK):
        discard[k] = 0
        box[k] = 0
    rng[0] = seed
    n = n_players
    meta[K.M_NP] = n
    meta[K.M_LAST] = -1
    meta[K.M_ROUND] = 1
    S = consts[K.C_STACK1 + n - 1]
    M = consts[K.C_BLOCK1 + n - 1]
    E = consts[K.C_EXTRA_C]
    # work: stack A at a, B at b, C at cc, the 1MR block, the goal order
    a = 0
    na = _stack_list(tiles, K.STACK_A, work, a)
    _shuffle_at(rng, work, a, na)
    b = a + na
    nb = _stack_list(tiles, K.STACK_B, work, b)
    _shuffle_at(rng, work, b, nb)
    cc = b + nb
    nc = _stack_list(tiles, K.STACK_C, work, cc)
    _shuffle_at(rng, work, cc, nc)
    block = cc + nc
    for i in range(M):
        work[block + i] = work[cc + i]
    work[block + M] = K.K_OMR
    _shuffle_at(rng, work, block, M + 1)
    for i in range(S, na):
        box[work[a + i]] += 1
    for i in range(S, nb):
        box[work[b + i]] += 1
    for i in range(S + E, nc):
        box[work[cc + i]] += 1
    m = 0
    for i in range(S, S + E):
        pile[m] = work[cc + i]
        m += 1
    for i in range(M + 1):
        pile[m] = work[block + i]
        m += 1
    for i in range(M, S):
        pile[m] = work[cc + i]
        m += 1
    for i in range(S):
        pile[m] = work[b + i]
        m += 1
    for i in range(S):
        pile[m] = work[a + i]
        m += 1
    for i in range(K.NSLOTS):
        market[K.NSLOTS - 1 - i] = pile[m - 1]
        pile[m - 1] = 0
        m -= 1
    meta[K.M_PILEN] = m
    if n >= 2:
        g = block + M + 1
        for i in range(K.NG):
            work[g + i] = i
        _shuffle_at(rng, work, g, K.NG)
        P = consts[K.C_PUB1 + n - 1]
        for i in range(P):
            gpub[i] = work[g + i]
        meta[K.M_NPUB] = P
        for s in range(n):
            goffer[s, 0] = work[g + P + 2 * s]
            goffer[s, 1] = work[g + P + 2 * s + 1]
    for j in range(3):
        k = K.K_SUBURBS + j  # K_SUBURBS, K_PARK, K_FACTORY
        supply[j] = consts[K.C_SUPPLY]
        box[k] = tiles[k, K.T_COUNT] - consts[K.C_SUPPLY] - n
    for p in range(n):
        for j in range(3):
            k = K.K_SUBURBS + j
            cell = START_CELLS[j]
            tk[p, j, K.K_KIND] = k
            tk[p, j, K.K_CELL] = cell
            grid[p, cell] = j + 1
            kc[p, k] += 1
        pl[p, K.P_NT] = 3
        pl[p, K.P_MONEY] = consts[K.C_MONEY]
        pl[p, K.P_INC] = consts[K.C_INC]
        pl[p, K.P_REP] = consts[K.C_REP]
        pl[p, K.P_POP] = consts[K.C_POP]
        pl[p, K.P_HIGH] = consts[K.C_POP]
        derive_player(opts, geo, pl, tk, grid, kt, pd, p)
    if n >= 2:
        meta[K.M_PHASE] = K.PH_GOAL
        meta[K.M_CUR] = 0
    else:
        begin_turn(meta, 0)


# ---------------------------------------------------------------------------------------------
# legal actions (doc §5.2)
@njit(cache=True, _nrt=False, forceinline=True)
def action_bits(tiles, consts, market, supply, pl, tk, pd, c):
    """The legal actions of seat ``c``'s action step as a bit set over action ids (< 64):
    buy, basic, Lake, invest; PASS alone when none."""
    money = pl[c, K.P_MONEY]
    bits = 0
    for s in range(K.NSLOTS):
        k = market[s]
        if k != 0:
            sur = consts[K.C_SUR0 + s]
            if tiles[k, K.T_PRICE] + sur <= money:
                bits |= 1 << (K.A_BUY + s)
            if sur <= money:
                bits |= 1 << (K.A_LAKE + s)
    for b in range(3):
        if supply[b] > 0 and tiles[b + 1, K.T_PRICE] <= money:
            bits |= 1 << (K.A_BASIC + b)
    if pl[c, K.P_NINV] < consts[K.C_INVEST]:
        m = pd[c, PD_INVM]
        while m != 0:
            t = lowest_bit(m)
            if tiles[tk[c, t, K.K_KIND], K.T_PRICE] <= money:
                bits |= 1 << (K.A_INVEST + t)
            m &= m - 1
    if bits == 0:
        bits = 1 << K.A_PASS
    return bits


@njit(cache=True, _nrt=False, forceinline=True)
def legal_actions_arrays(meta, opts, tiles, consts, market, supply, pl, tk, pd, out):
    """Legal action ids of the position into ``out`` (ascending); returns the count."""
    ph = meta[K.M_PHASE]
    if ph == K.PH_OVER:
        return 0
    c = meta[K.M_CUR]
    n = 0
    if ph == K.PH_GOAL:
        out[0] = K.A_KEEP
        out[1] = K.A_KEEP + 1
        return 2
    money = pl[c, K.P_MONEY]
    if ph == K.PH_ACTION:
        m = action_bits(tiles, consts, market, supply, pl, tk, pd, c)
        while m != 0:
            out[n] = lowest_bit(m)
            n += 1
            m &= m - 1
        return n
    if ph == K.PH_PLACE:
        m = frontier_list(pd, c, out, 0)
        for i in range(m):
            out[i] += K.A_PLACE
        return m
    for s in range(K.NSLOTS):  # discard, extra_discard
        if market[s] != 0 and consts[K.C_SUR0 + s] <= money:
            out[n] = K.A_DISCARD + s
            n += 1
    return n


# ---------------------------------------------------------------------------------------------
# applying an action (doc §5)
@njit(cache=True, _nrt=False, forceinline=True)
def apply_arrays(meta, rng, opts, tiles, goals, lines, consts, geo, pile, market, discard, box,
                 supply, gpub, goffer, gpriv, pl, tk, grid, kc, kt, pd, a):
    """Apply the legal action ``a`` in place (docs/games/suburbia.md §5-§8)."""
    c = meta[K.M_CUR]
    meta[K.M_DEC] += 1
    ph = meta[K.M_PHASE]
    if ph == K.PH_GOAL:
        gpriv[c] = goffer[c, a - K.A_KEEP]
        if c + 1 < meta[K.M_NP]:
            meta[K.M_CUR] = c + 1
        else:
            begin_turn(meta, 0)
    elif ph == K.PH_ACTION:
        if a < K.A_BASIC:
            s = a - K.A_BUY
            k = market[s]
            pl[c, K.P_MONEY] -= tiles[k, K.T_PRICE] + consts[K.C_SUR0 + s]
            market[s] = 0
            meta[K.M_PKIND] = k
            meta[K.M_PSRC] = K.SRC_BUY
            meta[K.M_PFROM] = 0
            meta[K.M_PHASE] = K.PH_PLACE
        elif a < K.A_LAKE:
            b = a - K.A_BASIC
            pl[c, K.P_MONEY] -= tiles[b + 1, K.T_PRICE]
            supply[b] -= 1
            meta[K.M_PKIND] = b + 1
            meta[K.M_PSRC] = K.SRC_BASIC
            meta[K.M_PFROM] = 0
            meta[K.M_PHASE] = K.PH_PLACE
        elif a < K.A_INVEST:
            s = a - K.A_LAKE
            k = market[s]
            pl[c, K.P_MONEY] -= consts[K.C_SUR0 + s]
            market[s] = 0
            meta[K.M_PKIND] = K.K_LAKE
            meta[K.M_PSRC] = K.SRC_LAKE
            meta[K.M_PFROM] = k
            meta[K.M_PHASE] = K.PH_PLACE
        elif a < K.A_DISCARD:
            invest(meta, opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, c,
                   a - K.A_INVEST)
            discard_step(meta, opts, tiles, goals, lines, consts, geo, pile, market, gpub, gpriv,
                         pl, tk, grid, kc, kt, pd)
        else:  # PASS
            action_over(meta, opts, tiles, goals, lines, consts, geo, pile, market, gpub, gpriv,
                        pl, tk, grid, kc, kt, pd)
    elif ph == K.PH_PLACE:
        kind = meta[K.M_PKIND]
        src = meta[K.M_PSRC]
        frm = meta[K.M_PFROM]
        meta[K.M_PKIND] = 0
        meta[K.M_PSRC] = K.SRC_NONE
        meta[K.M_PFROM] = 0
        place_tile(meta, opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, c, kind,
                   a - K.A_PLACE, frm)
        if src == K.SRC_BASIC:
            discard_step(meta, opts, tiles, goals, lines, consts, geo, pile, market, gpub, gpriv,
                         pl, tk, grid, kc, kt, pd)
        else:
            if opts[K.O_CLAMP] == 1:
                clamp_all(pl, meta[K.M_NP])
            action_over(meta, opts, tiles, goals, lines, consts, geo, pile, market, gpub, gpriv,
                        pl, tk, grid, kc, kt, pd)
    else:  # discard / extra_discard
        s = a - K.A_DISCARD
        pl[c, K.P_MONEY] -= consts[K.C_SUR0 + s]
        discard[market[s]] += 1
        market[s] = 0
        if ph == K.PH_DISCARD:
            action_over(meta, opts, tiles, goals, lines, consts, geo, pile, market, gpub, gpriv,
                        pl, tk, grid, kc, kt, pd)
        else:
            refill(meta, opts, pile, market)
            end_turn(meta, opts, tiles, goals, geo, gpub, gpriv, pl, tk, grid, kc, kt, pd)
    if meta[K.M_PHASE] != K.PH_OVER and meta[K.M_DEC] >= MAX_DECISIONS:
        meta[K.M_PHASE] = K.PH_OVER
        meta[K.M_END] = K.END_LIMIT


# ---------------------------------------------------------------------------------------------
# SuburbiaState entry points (the Python API in game.py); each unpacks the state once
@njit(cache=True)
def init_state(s, n_players, seed):
    """Set up a new game in the arrays of ``s`` (doc §4). ``seed``: uint64."""
    kt = np.zeros((K.NK, NKT), np.int64)
    pd = np.zeros((K.MAXP, NPD), np.int64)
    kind_tables(s.opts, s.tiles, s.goals, kt)
    work = np.empty(init_scratch_size(s.tiles), np.int64)
    init_arrays(s.meta, s.rng, s.opts, s.tiles, s.goals, s.lines, s.consts, s.geo, s.pile,
                s.market, s.discard, s.box, s.supply, s.gpub, s.goffer, s.gpriv, s.pl, s.tk,
                s.grid, s.kc, kt, pd, work, n_players, seed)


@njit(cache=True)
def legal_actions_into(s, out):
    """Legal action ids of ``s`` into ``out`` (int32[>= NUM_ACTIONS]) ascending; the count."""
    kt, pd = derived_arrays(s)
    return legal_actions_arrays(s.meta, s.opts, s.tiles, s.consts, s.market, s.supply, s.pl,
                                s.tk, pd, out)


@njit(cache=True)
def apply_inplace(s, a):
    """Apply the legal action ``a`` to ``s`` in place (doc §5)."""
    kt, pd = derived_arrays(s)
    apply_arrays(s.meta, s.rng, s.opts, s.tiles, s.goals, s.lines, s.consts, s.geo, s.pile,
                 s.market, s.discard, s.box, s.supply, s.gpub, s.goffer, s.gpriv, s.pl, s.tk,
                 s.grid, s.kc, kt, pd, np.int32(a))


@njit(cache=True)
def goal_status_state(s, o, g):
    """2 strictly best, 1 tied best, 0 not best: seat ``o`` at goal ``g`` now."""
    kt, pd = derived_arrays(s)
    return goal_status(s.tiles, s.goals, s.geo, s.pl, s.tk, s.grid, s.kc, kt, pd, s.meta[K.M_NP],
                       o, g)


# ---------------------------------------------------------------------------------------------
# The kernel contract (sim/core/contract.py, docs/house-pattern.md): init_state,
# legal_actions_into and apply_inplace above, and these; copy_into and chance_rng are the
# contract's defaults.
register(SuburbiaState, init_state=init_state, legal_actions_into=legal_actions_into,
         apply_inplace=apply_inplace,
         meta=dict(field="meta", phase=K.M_PHASE, over=K.PH_OVER, current=K.M_CUR,
                   n_players=K.M_NP))


@implements(SuburbiaState, "scores_into")
@njit(cache=True)
def scores_into(s, out):
    """Population per seat (final population once over)."""
    for p in range(s.meta[K.M_NP]):
        out[p] = s.pl[p, K.P_POP]


@implements(SuburbiaState, "win_shares_into")
@njit(cache=True)
def win_shares_into(s, out):
    """1/k for each of the k seats first by (population, reputation, income[, money]) (§5.7,
    D17) of a finished game; all 0 while running or after a 'limit' stop."""
    n = s.meta[K.M_NP]
    m = 4 if s.opts[K.O_TIE] == 0 else 3
    k = 0
    best = 0
    for p in range(n):
        out[p] = 0.0
    if s.meta[K.M_PHASE] != K.PH_OVER or s.meta[K.M_END] != 1:
        return
    for p in range(1, n):
        if _key_cmp(s.pl, p, best, m) > 0:
            best = p
    for p in range(n):
        k += _key_cmp(s.pl, p, best, m) == 0
    for p in range(n):
        if _key_cmp(s.pl, p, best, m) == 0:
            out[p] = 1.0 / k


@njit(cache=True)
def _key_cmp(pl, p, q, m):
    """Sign of seat p's ranking key minus seat q's over its first ``m`` parts."""
    for j in range(m):
        col = K.P_POP if j == 0 else (K.P_REP if j == 1 else (K.P_INC if j == 2 else K.P_MONEY))
        if pl[p, col] != pl[q, col]:
            return 1 if pl[p, col] > pl[q, col] else -1
    return 0


@njit(cache=True)
def derived_step_ok(s, a):
    """Apply ``a`` keeping the derived arrays ``kt``/``pd`` as the batch loop does; True if they
    then equal a fresh derivation from the state (the conformance test)."""
    kt, pd = derived_arrays(s)
    apply_arrays(s.meta, s.rng, s.opts, s.tiles, s.goals, s.lines, s.consts, s.geo, s.pile,
                 s.market, s.discard, s.box, s.supply, s.gpub, s.goffer, s.gpriv, s.pl, s.tk,
                 s.grid, s.kc, kt, pd, np.int32(a))
    f_kt, f_pd = derived_arrays(s)
    pd[:, PD_GM] = 0  # scratch of the goal scoring (finish_game), not a derived value
    f_pd[:, PD_GM] = 0
    return (kt == f_kt).all() and (pd == f_pd).all()


# ---------------------------------------------------------------------------------------------
# Determinization (the search bot's information sets; doc §14)
@njit(cache=True, _nrt=False)
def _draw_kind(rng, box, tiles, stack, total):
    """A kind drawn uniformly from the ``total`` tiles of ``stack`` counted in ``box`` (kinds
    ascending); its count is decremented."""
    r = rand_below(rng, total)
    for k in range(1, K.NK):
        if tiles[k, K.T_STACK] == stack and k != K.K_OMR:
            if r < box[k]:
                box[k] -= 1
                return k
            r -= box[k]
    return 0


@njit(cache=True, _nrt=False)
def _draw_goal(rng, pool, left):
    """A goal id drawn uniformly from the bit set ``pool`` of ``left`` ids (ascending)."""
    r = rand_below(rng, left)
    for g in range(K.NG):
        if (pool >> g) & 1:
            if r == 0:
                return g
            r -= 1
    return -1


@implements(SuburbiaState, "determinize")
@njit(cache=True, _nrt=False)
def determinize(s, seat, rng):
    """Resample, in place, what ``seat`` cannot see (doc §14), from the searcher's generator
    ``rng`` (uint64[1]); reseed the chance generator ``s.rng`` from ``rng``.

    The pile: each slot of each stack's section (C at the bottom, then B, then A; sizes fixed
    by the set-up, doc §4) gets a tile drawn without replacement from the unknown tiles of its
    letter (that section's tiles and the letter's tiles in the box, counted by kind in
    ascending order); the 1 More Round tile, if not yet drawn, goes uniformly to a slot of
    the C section where the set-up can put it (the block, ``extra_c .. extra_c + omr_block``)
    and that is still in the pile. What is left is the box. The rivals' private goal offers
    (and the goal each kept) are drawn from the goals that are neither public nor ``seat``'s
    own offers; a rival that has kept a goal keeps its offer 0. A finished game (every goal
    revealed at scoring) is left as it is. No allocation: the box's counts are the scratch.
    """
    meta = s.meta
    tiles = s.tiles
    pile = s.pile
    box = s.box
    n = meta[K.M_NP]
    if meta[K.M_PHASE] == K.PH_OVER:
        s.rng[0] = next_u64(rng)
        return
    pn = meta[K.M_PILEN]
    S = s.consts[K.C_STACK1 + n - 1]
    M = s.consts[K.C_BLOCK1 + n - 1]
    E = s.consts[K.C_EXTRA_C]
    c_top = S + E + 1  # the C section is pile[0:c_top], B pile[c_top:c_top + S], A above
    b_top = c_top + S
    # the unknown tiles of each letter, counted in ``box``
    omr = False
    for i in range(pn):
        k = pile[i]
        if k == K.K_OMR:
            omr = True
        else:
            box[k] += 1
        pile[i] = 0
    na = 0
    nb = 0
    nc = 0
    for k in range(1, K.NK):
        st = tiles[k, K.T_STACK]
        if k == K.K_OMR:
            continue
        if st == K.STACK_A:
            na += box[k]
        elif st == K.STACK_B:
            nb += box[k]
        elif st == K.STACK_C:
            nc += box[k]
    o = -1
    if omr:
        o = E + rand_below(rng, min(E + M, pn - 1) - E + 1)
        pile[o] = K.K_OMR
    for i in range(pn):
        if i == o:
            continue
        if i < c_top:
            pile[i] = _draw_kind(rng, box, tiles, K.STACK_C, nc)
            nc -= 1
        elif i < b_top:
            pile[i] = _draw_kind(rng, box, tiles, K.STACK_B, nb)
            nb -= 1
        else:
            pile[i] = _draw_kind(rng, box, tiles, K.STACK_A, na)
            na -= 1
    for i in range(pn, pile.shape[0]):
        pile[i] = 0
    # the rivals' private goals
    if n >= 2:
        pool = (1 << K.NG) - 1
        for i in range(meta[K.M_NPUB]):
            pool &= ~(1 << s.gpub[i])
        pool &= ~(1 << s.goffer[seat, 0])
        pool &= ~(1 << s.goffer[seat, 1])
        left = 0
        for g in range(K.NG):
            left += (pool >> g) & 1
        for q in range(n):
            if q == seat or s.goffer[q, 0] < 0:
                continue
            for j in range(2):
                g = _draw_goal(rng, pool, left)
                pool &= ~(1 << g)
                left -= 1
                s.goffer[q, j] = g
            if s.gpriv[q] >= 0:
                s.gpriv[q] = s.goffer[q, 0]
    s.rng[0] = next_u64(rng)

