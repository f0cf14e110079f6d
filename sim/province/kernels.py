"""Province kernels: setup, legal actions and action effects over ``ProvinceState``.

The whole integer state (counters, options, component data, coins, workers, structures, goals,
statistics) is ONE flat int64 array ``x`` with fixed block offsets (``X_*`` in constants.py),
plus the generator ``rng``. Kernels take ``x`` (and ``rng``) directly: with a single array,
numba emits no per-access reference counting, which made a many-array layout 5x slower.
Every function is ``@njit(cache=True)`` and works in place; the Python API in ``game.py``
copies before applying. Rules: shared/rules/province.md (cited as §); exact encoding and
procedures: docs/games/province.md (cited as docs §).

Performance note (see also the one in sim/go_town/kernels.py). The per-decision kernels
(``legal_bits`` and its helpers, ``apply_inplace``, the bots' ``plan_bot``/``best_move``) are
compiled with ``_nrt=False``: numba's reference counting of the array arguments was about half
of the run time even with the flat layout, and without it numba refuses any allocation in
them (``init_x``, once per game, too: its scratch is a stack array, ``sim.core.stack``).
``apply_inplace`` and the bit-set kernels are ``forceinline=True`` into the batch loop. The
legal actions are computed as two bit sets (``legal_bits``); the random bot of the batch loop
draws the k-th legal action from them without listing (``count_legal``/``nth_legal``), the
API and ``plan_bot`` list them (``list_legal``) in the same ascending order. The MOVE effect
and the submask deposit are written without data-dependent branches (the random choices made
them mispredict). Effect,
2 players, one core (AMD Zen 5, CPU time): random 24,000 -> 103,000 games/s, greedy 49,000 ->
124,000.
"""

from typing import NamedTuple

import numpy as np
from numba import njit, types

from sim.core.bits import lowest_bit, popcount
from sim.core.contract import implements, meta_hooks
from sim.core.rng import next_u64, rand_below, shuffle
from sim.core.stack import stack_array
from sim.province import constants as K


class ProvinceState(NamedTuple):
    """Province state (dict form: docs/games/province.md §10).

    x    int64[N_X]   the flat state; blocks at the offsets X_* of constants.py:
                      meta [21] (slots M_*: current, first, phase, turn, decisions, labor,
                      per-turn counters, ships, Lender holder/turn, goal n/next, trigger,
                      last turn, end reason, winner code, supply-dry flag), options [17]
                      (O_*), constants [15] (C_*), structure data [8, 5] (labor, coins,
                      vp_first, vp_copy, prereq), goal data [9, 2] (condition, threshold),
                      coins [2], worker positions [11] (0 C, 1 A, 2 B, -1 off), sailors hired
                      [2], owned [2, 8], built turn [2, 8], first builder [8], goal stack [9]
                      (top first), goal results [9] (-2 pending, -1 removed, 0/1 claimed),
                      stats [2, 3] (coins missed, Lender takes, Lender steals)
    rng  uint64[1]    SplitMix64 state
    """

    x: np.ndarray
    rng: np.ndarray


def alloc_state(opts: np.ndarray, sdata: np.ndarray, gdata: np.ndarray,
                consts: np.ndarray) -> ProvinceState:
    """A zeroed state holding the given option codes and data arrays (copied)."""
    x = np.zeros(K.N_X, np.int64)
    x[K.X_OPTS: K.X_OPTS + len(opts)] = opts
    x[K.X_CONSTS: K.X_CONSTS + len(consts)] = consts
    x[K.X_SD: K.X_SD + K.NS * K.NSCOL] = np.asarray(sdata, np.int64).reshape(-1)
    x[K.X_GD: K.X_GD + K.MAXG * 2] = np.asarray(gdata, np.int64).reshape(-1)
    x[K.X_POS: K.X_POS + K.NW] = -1
    x[K.X_BT: K.X_BT + 2 * K.NS] = -1
    x[K.X_FB: K.X_FB + K.NS] = -1
    x[K.X_GR: K.X_GR + K.MAXG] = -2
    return ProvinceState(x=x, rng=np.zeros(1, np.uint64))


_stack_goals = stack_array(types.int64, K.MAXG)


# ---------------------------------------------------------------------------------------------
# accessors and small helpers (docs §5 definitions)
@njit(cache=True)
def opt(x, o):
    return x[K.X_OPTS + o]


@njit(cache=True)
def cst(x, i):
    return x[K.X_CONSTS + i]


@njit(cache=True)
def sd(x, k, col):
    return x[K.X_SD + k * K.NSCOL + col]


@njit(cache=True)
def owns(x, p, k):
    return x[K.X_OWN + p * K.NS + k] == 1


@njit(cache=True)
def supply_of(x):
    """Coins in the supply (§2.3): coin_total - coins of both seats."""
    return x[K.X_OPTS + K.O_COIN_TOTAL] - x[K.X_COINS] - x[K.X_COINS + 1]


@njit(cache=True)
def owned_count(x, p):
    t = 0
    for k in range(K.NS):
        t += x[K.X_OWN + p * K.NS + k]
    return t


@njit(cache=True)
def gain_labor(x, v):
    """+v labor for the active seat, counted as gained (docs §4)."""
    x[K.M_LABOR] += v
    x[K.M_GAINED] += v


@njit(cache=True)
def gain_coins(x, p, v):
    """+v coins for ``p`` capped by the supply (§2.3, §6.5b); records misses and a dry supply."""
    sup = supply_of(x)
    got = v if v < sup else sup
    x[K.X_COINS + p] += got
    x[K.X_ST + p * K.NSTATS + K.ST_MISSED] += v - got
    if sup - got == 0:
        x[K.M_DRY] = 1


@njit(cache=True)
def borrowing(x, c):
    """True if ``c`` took the Lender token this turn (§5.6)."""
    return x[K.M_LHOLDER] == c and x[K.M_LTURN] == x[K.M_TURN]


@njit(cache=True)
def access_b(x, c, k, bor):
    """Own structure ``k``, or (if ``bor``) borrow the opponent's (§5.6, §5.8)."""
    if x[K.X_OWN + c * K.NS + k] == 1:
        return True
    if not bor or x[K.X_OWN + (1 - c) * K.NS + k] == 0:
        return False
    if (k == K.UNION or k == K.HARBOR) and x[K.X_OPTS + K.O_BHU] == 0:
        return False
    return True


@njit(cache=True)
def access(x, c, k):
    return access_b(x, c, k, borrowing(x, c))


@njit(cache=True)
def harbor_ok_own(x, p):
    """``p``'s own Harbor gives the flip benefit (§5.7, §6.5e)."""
    return owns(x, p, K.HARBOR) and (x[K.X_OPTS + K.O_HBEN] == 0 or x[K.X_FB + K.HARBOR] == p)


@njit(cache=True)
def harbor_ok(x, c):
    """``c`` gets the flip benefit (own or borrowed Harbor) this turn (§5.6, §5.7)."""
    if owns(x, c, K.HARBOR):
        return harbor_ok_own(x, c)
    o = 1 - c
    return (borrowing(x, c) and x[K.X_OPTS + K.O_BHU] == 1 and owns(x, o, K.HARBOR)
            and (x[K.X_OPTS + K.O_HBEN] == 0 or x[K.X_FB + K.HARBOR] == o))


@njit(cache=True)
def movable_mask_b(x, c, bor):
    """Worker-slot mask seat ``c`` may move with (hypothetical) borrowing ``bor`` (§5.8)."""
    m = 7
    if x[K.X_POS + K.W_YELLOW] >= 0 and access_b(x, c, K.CAMP, bor):
        m |= 8
    if x[K.X_POS + K.W_ORANGE] >= 0 and access_b(x, c, K.VILLAGE, bor):
        m |= 16
    return m | (((1 << x[K.X_HIRED + c]) - 1) << 5)  # hired sailors: bits 5, 6, 7


@njit(cache=True)
def movable_mask(x, c):
    """Worker-slot mask the active seat may move now (docs §5.1)."""
    return movable_mask_b(x, c, borrowing(x, c))


@njit(cache=True)
def workers_of(x, p):
    """Workers ``p`` can move without borrowing (§5.10 tie-break)."""
    w = 3 + x[K.X_HIRED + p]
    if owns(x, p, K.CAMP) and x[K.X_POS + K.W_YELLOW] >= 0:
        w += 1
    if owns(x, p, K.VILLAGE) and x[K.X_POS + K.W_ORANGE] >= 0:
        w += 1
    return w


@njit(cache=True)
def arrows_of(x, p):
    n = 0
    for k in range(K.NS):
        pre = sd(x, k, K.S_PRE)
        if pre >= 0 and owns(x, p, k) and owns(x, p, pre):
            n += 1
    return n


@njit(cache=True)
def score_of(x, p):
    """VP of ``p`` (§5.10): structures, goal tokens, minus the Lender penalty."""
    v = 0
    for k in range(K.NS):
        if owns(x, p, k):
            v += sd(x, k, K.S_VP1) if x[K.X_FB + k] == p else sd(x, k, K.S_VP2)
    for i in range(x[K.M_GN]):
        if x[K.X_GR + i] == p:
            v += 1
    if x[K.M_LHOLDER] == p:
        v -= cst(x, K.C_PENALTY)
    return v


# ---------------------------------------------------------------------------------------------
# goals (§4.1; docs §6)
@njit(cache=True)
def meets(x, p, g, c, rival, eot):
    """Does seat ``p`` meet goal ``g`` now? ``c`` active seat; ``rival``/``eot`` the context."""
    cond = x[K.X_GD + 2 * g]
    t = x[K.X_GD + 2 * g + 1]
    act = p == c
    if cond == K.G_COINS_EOT:
        return act and eot and x[K.X_COINS + c] >= t
    if cond == K.G_LABOR_GAINED:
        return act and x[K.M_GAINED] >= t
    if cond == K.G_STRUCTS:
        return owned_count(x, p) >= t
    if cond == K.G_MOVED:
        return act and x[K.M_MOVED] >= t
    if cond == K.G_VP_FIRST:
        for k in range(K.NS):
            if owns(x, p, k) and sd(x, k, K.S_VP1) >= t:
                return True
        return False
    if cond == K.G_GRINDS:
        return act and x[K.M_GRINDS] >= t
    if cond == K.G_SAILORS:
        return x[K.X_HIRED + p] >= t
    if cond == K.G_COPY:
        return act and rival
    if cond == K.G_ARROWS:
        return arrows_of(x, p) >= t
    return False


@njit(cache=True)
def reveal_loop(x, c, eot):
    """Resolve newly revealed goal tokens until one stays face up (§4.1 reveal procedure)."""
    while x[K.M_GNEXT] < x[K.M_GN]:
        i = x[K.M_GNEXT]
        g = x[K.X_GS + i]
        a = meets(x, c, g, c, False, eot)
        b = meets(x, 1 - c, g, c, False, eot)
        if a and b:
            x[K.X_GR + i] = -1
        elif a:
            x[K.X_GR + i] = c
        elif b:
            x[K.X_GR + i] = 1 - c
        else:
            return
        x[K.M_GNEXT] = i + 1


@njit(cache=True)
def check_goals(x, c, rival, eot):
    """The active seat claims the face-up goal if it meets it, then reveals (§4.1; docs §6)."""
    i = x[K.M_GNEXT]
    if i >= x[K.M_GN]:
        return
    if not meets(x, c, x[K.X_GS + i], c, rival, eot):
        return
    x[K.X_GR + i] = c
    x[K.M_GNEXT] = i + 1
    reveal_loop(x, c, eot)


# ---------------------------------------------------------------------------------------------
# end of game (§5.9, §5.10; docs §7, §8)
@njit(cache=True)
def check_end(x):
    """Record the first end trigger that holds (docs §7), and (for the results only) the seat
    whose turn set it in ``M_TSEAT``."""
    if x[K.M_TRIG] != K.END_NONE:
        return
    tok = cst(x, K.C_TOKENS)
    if owned_count(x, 0) >= tok or owned_count(x, 1) >= tok:
        x[K.M_TRIG] = K.END_SEVEN
    elif opt(x, K.O_ALLTYPES) == 1 and all_types_built(x):
        x[K.M_TRIG] = K.END_ALLTYPES
    elif x[K.M_GNEXT] >= x[K.M_GN]:
        x[K.M_TRIG] = K.END_GOALS
    if x[K.M_TRIG] != K.END_NONE:
        x[K.M_TSEAT] = x[K.M_CUR] + 1


@njit(cache=True)
def all_types_built(x):
    """Every structure type has a first builder (the all-types end trigger, §6.4)."""
    for k in range(K.NS):
        if x[K.X_FB + k] < 0:
            return False
    return True


@njit(cache=True)
def finish(x, reason):
    """End the game with ``reason``; winners by VP, structures, workers (§5.10)."""
    x[K.M_PHASE] = K.PH_OVER
    x[K.M_END] = reason
    if reason == K.END_LIMIT:
        x[K.M_WIN] = K.WIN_NONE
        return
    v0 = score_of(x, 0)
    v1 = score_of(x, 1)
    if v0 == v1:
        v0 = owned_count(x, 0)
        v1 = owned_count(x, 1)
    if v0 == v1 and opt(x, K.O_WTIE) == 1:
        v0 = workers_of(x, 0)
        v1 = workers_of(x, 1)
    if v0 > v1:
        x[K.M_WIN] = 0
    elif v1 > v0:
        x[K.M_WIN] = 1
    else:
        x[K.M_WIN] = K.WIN_DRAW


# ---------------------------------------------------------------------------------------------
# turn flow (§5.2; docs §4)
@njit(cache=True)
def begin_turn(x, rng, p):
    """Turn start: limit, counters, ship flip, own turn-start incomes, goal check (§5.2 step 0)."""
    if x[K.M_TURN] >= opt(x, K.O_MAXTURNS):
        finish(x, K.END_LIMIT)
        return
    x[K.M_TURN] += 1
    x[K.M_CUR] = p
    x[K.M_PHASE] = K.PH_WORK
    x[K.M_LABOR] = 0
    x[K.M_GAINED] = 0
    x[K.M_MOVED] = 0
    x[K.M_GRINDS] = 0
    x[K.M_BUILT] = 0
    x[K.M_HIRED_T] = 0
    if x[K.X_FB + K.HARBOR] >= 0:  # §5.7: the Harbor Master flips both ships
        a = rand_below(rng, 2)
        b = rand_below(rng, 2)
        x[K.M_SHIPS] = a + b
    else:
        x[K.M_SHIPS] = -1
    if owns(x, p, K.MILL):
        gain_labor(x, cst(x, K.C_MILL))
    if opt(x, K.O_SMITHY) == 1 and owns(x, p, K.SMITHY):
        gain_labor(x, 1)
    if harbor_ok_own(x, p):
        sh = x[K.M_SHIPS]
        if sh == 0:
            gain_labor(x, cst(x, K.C_HARBOR_L))
        elif sh == 2:
            gain_coins(x, p, cst(x, K.C_HARBOR_C))
    check_goals(x, p, False, False)
    check_end(x)


@njit(cache=True, _nrt=False)
def init_x(x, rng, seed):
    """Set up a new game in ``x``/``rng`` (§5.1; docs §3, §4). ``seed``: uint64.

    Options and data must already be in ``x`` (see ``alloc_state``). No allocation and no
    reference counting (the goal order is shuffled in a stack array of ``MAXG``; the data's
    ``goals_total`` is at most ``MAXG``)."""
    for i in range(K.X_COINS, x.shape[0]):
        x[i] = 0
    for i in range(K.X_OPTS):
        x[i] = 0
    for i in range(K.NW):
        x[K.X_POS + i] = -1
    for i in range(2 * K.NS):
        x[K.X_BT + i] = -1
    for i in range(K.NS):
        x[K.X_FB + i] = -1
    for i in range(K.MAXG):
        x[K.X_GR + i] = -2
    rng[0] = seed
    ng = cst(x, K.C_GOALS_TOTAL)
    order = _stack_goals()
    for i in range(ng):
        order[i] = i
    shuffle(rng, order, ng)
    nd = cst(x, K.C_GOALS_DRAWN)
    for i in range(nd):
        x[K.X_GS + i] = order[i]
    x[K.M_GN] = nd
    first = 0
    if opt(x, K.O_FIRST) == 1:
        first = rand_below(rng, 2)
    x[K.M_FIRST] = first
    x[K.M_CUR] = first
    x[K.X_POS] = 0
    x[K.X_POS + 1] = 1
    x[K.X_POS + 2] = 2
    x[K.X_COINS + first] = opt(x, K.O_P1_COINS)
    x[K.X_COINS + 1 - first] = opt(x, K.O_P2_COINS)
    x[K.M_LHOLDER] = -1
    x[K.M_LTURN] = -1
    x[K.M_SHIPS] = -1
    x[K.M_WIN] = K.WIN_NONE
    reveal_loop(x, first, False)
    begin_turn(x, rng, first)


# ---------------------------------------------------------------------------------------------
# legal actions (docs §5)
@njit(cache=True)
def can_take(x, c):
    h = x[K.M_LHOLDER]
    if not owns(x, c, 0) or h == c:
        return False
    return h == -1 or opt(x, K.O_STEAL) == 1


@njit(cache=True)
def can_repay(x, c):
    return (x[K.M_LHOLDER] == c and x[K.M_LTURN] != x[K.M_TURN]
            and x[K.X_COINS + c] >= cst(x, K.C_REPAY))


@njit(cache=True)
def can_build(x, c, k):
    """BUILD ``k`` is legal, given that ``c`` has built nothing this turn and owns fewer than
    ``structure_tokens`` structures (checked once by the caller)."""
    if owns(x, c, k):
        return False
    if x[K.M_LABOR] < sd(x, k, K.S_L) or x[K.X_COINS + c] < sd(x, k, K.S_C):
        return False
    pre = sd(x, k, K.S_PRE)
    if pre >= 0 and not owns(x, c, pre):
        if opt(x, K.O_BPREREQ) == 0 or not access(x, c, pre):
            return False
    return True


@njit(cache=True)
def can_hire(x, c):
    if x[K.M_HIRED_T] == 1 or not harbor_ok(x, c):
        return False
    if opt(x, K.O_SMIXED) == 1 and x[K.M_SHIPS] != 1:
        return False
    return (x[K.X_HIRED] + x[K.X_HIRED + 1] < cst(x, K.C_MAX_SAILORS)
            and x[K.X_HIRED + c] < cst(x, K.C_SAILORS_PP)
            and x[K.X_COINS + c] >= cst(x, K.C_SAILOR_COST))


# The legal actions as two bit sets (``legal_bits``): ``mv``, the movable-worker mask of the
# work phase (0 in the spending phase), whose non-empty submasks in ascending order are the
# MOVE actions (the i-th, from 1, is the low bits of i deposited at the set bits of ``mv``),
# and ``lo``, the other actions: bit 0 END_TURN, bit 1 + k BUILD k, 9 GRIND, 10 UNION, 11 HIRE,
# 12 TAKE_LENDER, 13 REPAY_LENDER, i.e. bit j >= 1 is action id 255 + j. The ascending action
# ids are the MOVE actions, then the set bits of ``lo`` in order. The random bot of the batch
# loop draws the k-th of them (``nth_legal``) without listing them; ``legal_actions_into``
# lists them.
L_BUILD0, L_GRIND, L_UNION, L_HIRE, L_TAKE, L_REPAY = 1, 9, 10, 11, 12, 13


@njit(cache=True, _nrt=False, forceinline=True)
def deposit(v, m):
    """The low bits of ``v`` placed at the set bits of ``m`` < 256 (the ``v``-th submask)."""
    r = 0
    j = 0
    for i in range(8):  # unrolled, no branches (the masks have bits 0..7 only)
        b = (m >> i) & 1
        r |= ((v >> j) & b) << i
        j += b
    return r


@njit(cache=True, _nrt=False, forceinline=True)
def legal_bits(x):
    """The legal actions of ``x`` (not over) as the bit sets ``(mv, lo)`` described above."""
    c = x[K.M_CUR]
    mv = 0
    lo = 0
    if x[K.M_PHASE] == K.PH_WORK:
        mv = movable_mask(x, c)
    else:
        lo = 1
        if x[K.M_BUILT] == 0 and owned_count(x, c) < cst(x, K.C_TOKENS):
            for k in range(K.NS):
                if can_build(x, c, k):
                    lo |= 1 << (L_BUILD0 + k)
        if x[K.M_LABOR] >= cst(x, K.C_GRIND_L) and supply_of(x) >= 1:
            lo |= 1 << L_GRIND
        if x[K.X_COINS + c] >= cst(x, K.C_UNION_C) and access(x, c, K.UNION):
            lo |= 1 << L_UNION
        if can_hire(x, c):
            lo |= 1 << L_HIRE
    if can_take(x, c):
        lo |= 1 << L_TAKE
    if can_repay(x, c):
        lo |= 1 << L_REPAY
    return mv, lo


@njit(cache=True, _nrt=False, forceinline=True)
def count_legal(mv, lo):
    """Number of legal actions in the bit sets."""
    return (1 << popcount(mv)) - 1 + popcount(lo)


@njit(cache=True, _nrt=False, forceinline=True)
def nth_legal(mv, lo, k):
    """The ``k``-th (from 0) legal action id in ascending order (k < count_legal)."""
    cw = (1 << popcount(mv)) - 1
    if k < cw:
        return deposit(k + 1, mv)
    for _ in range(k - cw):
        lo &= lo - 1
    j = lowest_bit(lo)
    return 0 if j == 0 else 255 + j


@njit(cache=True, _nrt=False, forceinline=True)
def list_legal(mv, lo, out):
    """Write the legal action ids of the bit sets into ``out`` ascending; return count."""
    n = 0
    sub = 0
    while True:  # non-empty submasks of mv in ascending order
        sub = (sub - mv) & mv
        if sub == 0:
            break
        out[n] = sub
        n += 1
    while lo != 0:
        j = lowest_bit(lo)
        out[n] = 0 if j == 0 else 255 + j
        n += 1
        lo &= lo - 1
    return n


@njit(cache=True, _nrt=False)
def legal_x(x, out):
    """Write the legal action ids of ``x`` into ``out`` (int32[>= 269]) ascending; return count."""
    if x[K.M_PHASE] == K.PH_OVER:
        return 0
    mv, lo = legal_bits(x)
    return list_legal(mv, lo, out)


# ---------------------------------------------------------------------------------------------
# effects (docs §4, §5)
@njit(cache=True)
def do_move(x, c, m):
    """MOVE mask ``m``: each chosen worker one step clockwise, yields by landing space (§5.2.1)."""
    cy = 2 if access(x, c, K.BANK) else 1
    ly = 2 if (opt(x, K.O_SMITHY) == 0 and access(x, c, K.SMITHY)) else 1
    # without branches (the mask is random): unmoved workers are written back unchanged, and
    # the coins of all landings are taken at once (capping each landing by the supply in turn
    # gives the same total, misses and dry flag)
    cnt = 0
    ncoin = 0
    for i in range(8):
        b = (m >> i) & 1
        w = i if i < 5 else K.W_SAILOR0 + 3 * c + (i - 5)
        p = x[K.X_POS + w] + b
        p = 0 if p == 3 else p
        x[K.X_POS + w] = p
        cnt += b
        ncoin += b & (p == K.SP_COIN)
    if ncoin > 0:
        gain_coins(x, c, cy * ncoin)
    gain_labor(x, ly * (cnt - ncoin))
    x[K.M_MOVED] += cnt
    x[K.M_PHASE] = K.PH_SPEND


@njit(cache=True)
def do_build(x, c, k):
    """BUILD ``k`` (§5.3): pay, own, first-builder VP or copy, unlock workers. Returns copy?"""
    x[K.M_LABOR] -= sd(x, k, K.S_L)
    x[K.X_COINS + c] -= sd(x, k, K.S_C)
    x[K.X_OWN + c * K.NS + k] = 1
    x[K.X_BT + c * K.NS + k] = x[K.M_TURN]
    x[K.M_BUILT] = 1
    copy = x[K.X_FB + k] >= 0
    if not copy:
        x[K.X_FB + k] = c
    entry = 1 if opt(x, K.O_ENTRY) == 0 else 2
    if k == K.CAMP and x[K.X_POS + K.W_YELLOW] < 0:
        x[K.X_POS + K.W_YELLOW] = entry
    elif k == K.VILLAGE and x[K.X_POS + K.W_ORANGE] < 0:
        x[K.X_POS + K.W_ORANGE] = entry
    if opt(x, K.O_INCB) == 1:
        if k == K.MILL:
            gain_labor(x, cst(x, K.C_MILL))
        elif k == K.SMITHY and opt(x, K.O_SMITHY) == 1:
            gain_labor(x, 1)
    return copy


@njit(cache=True)
def do_take(x, c):
    """TAKE_LENDER (§5.6, §6.3): the token (and debt) moves to ``c``; borrowed incomes pay now."""
    o = 1 - c
    if x[K.M_LHOLDER] == o:
        x[K.X_ST + c * K.NSTATS + K.ST_STEALS] += 1
    x[K.M_LHOLDER] = c
    x[K.M_LTURN] = x[K.M_TURN]
    x[K.X_ST + c * K.NSTATS + K.ST_TAKES] += 1
    if owns(x, o, K.MILL) and not owns(x, c, K.MILL):
        gain_labor(x, cst(x, K.C_MILL))
    if opt(x, K.O_SMITHY) == 1 and owns(x, o, K.SMITHY) and not owns(x, c, K.SMITHY):
        gain_labor(x, 1)
    if (owns(x, o, K.HARBOR) and not owns(x, c, K.HARBOR) and opt(x, K.O_BHU) == 1
            and (opt(x, K.O_HBEN) == 0 or x[K.X_FB + K.HARBOR] == o)):
        sh = x[K.M_SHIPS]
        if sh == 0:
            gain_labor(x, cst(x, K.C_HARBOR_L))
        elif sh == 2:
            gain_coins(x, c, cst(x, K.C_HARBOR_C))


@njit(cache=True)
def end_turn(x, rng, c):
    """END_TURN (§5.2 step 3, §5.9): end-of-turn goals, discard labor, end or next turn."""
    check_goals(x, c, False, True)
    check_end(x)
    x[K.M_LABOR] = 0
    if x[K.M_TRIG] != K.END_NONE:
        if opt(x, K.O_FINAL) == 0 or x[K.M_LAST] == 1:
            finish(x, x[K.M_TRIG])
            return
        x[K.M_LAST] = 1
    begin_turn(x, rng, 1 - c)


@njit(cache=True, _nrt=False, forceinline=True)
def apply_x(x, rng, a):
    """Apply the legal action ``a`` to the state ``x``/``rng`` in place (docs §5)."""
    c = x[K.M_CUR]
    x[K.M_DEC] += 1
    if a == K.A_END:
        end_turn(x, rng, c)
    else:
        rival = False
        if a < K.A_BUILD:
            do_move(x, c, np.int32(a))
        elif a < K.A_GRIND:
            rival = do_build(x, c, a - K.A_BUILD)
        elif a == K.A_GRIND:
            x[K.M_LABOR] -= cst(x, K.C_GRIND_L)
            gain_coins(x, c, cst(x, K.C_GRIND_C))
            x[K.M_GRINDS] += 1
        elif a == K.A_UNION:
            x[K.X_COINS + c] -= cst(x, K.C_UNION_C)
            x[K.M_LABOR] += cst(x, K.C_UNION_L)
        elif a == K.A_HIRE:
            x[K.X_COINS + c] -= cst(x, K.C_SAILOR_COST)
            entry = 1 if opt(x, K.O_ENTRY) == 0 else 2
            x[K.X_POS + K.W_SAILOR0 + 3 * c + x[K.X_HIRED + c]] = entry
            x[K.X_HIRED + c] += 1
            x[K.M_HIRED_T] = 1
        elif a == K.A_TAKE:
            do_take(x, c)
        else:  # REPAY_LENDER
            x[K.X_COINS + c] -= cst(x, K.C_REPAY)
            x[K.M_LHOLDER] = -1
            x[K.M_LTURN] = -1
        check_goals(x, c, rival, False)
        check_end(x)
    if x[K.M_PHASE] != K.PH_OVER and x[K.M_DEC] >= opt(x, K.O_MAXTURNS) * K.DECISIONS_PER_TURN_CAP:
        finish(x, K.END_LIMIT)


# ---------------------------------------------------------------------------------------------
# The kernel contract (sim/core/contract.py, docs/house-pattern.md) over a ProvinceState; the
# flat array ``x`` and the generator ``rng`` stay the hot loop's layout. copy_into and
# chance_rng are the contract's defaults.
@implements(ProvinceState, "init_state")
@njit(cache=True)
def init_state(s, n_players, seed):
    """Set up a new game (§5.1); Province has 2 seats, ``n_players`` is checked by the caller."""
    init_x(s.x, s.rng, seed)


@implements(ProvinceState, "legal_actions_into")
@njit(cache=True)
def legal_actions_into(s, out):
    """Write the legal action ids of ``s`` into ``out`` (int32[>= 269]) ascending; the count."""
    return legal_x(s.x, out)


@implements(ProvinceState, "apply_inplace")
@njit(cache=True)
def apply_inplace(s, a):
    """Apply the legal action ``a`` to ``s`` in place (docs §5)."""
    apply_x(s.x, s.rng, np.int32(a))


meta_hooks(ProvinceState, "x", phase=K.M_PHASE, over=K.PH_OVER, current=K.M_CUR,
           fixed_players=2)





@implements(ProvinceState, "scores_into")
@njit(cache=True)
def scores_into(s, out):
    """VP per seat (docs §8; the current VP before the end)."""
    out[0] = score_of(s.x, 0)
    out[1] = score_of(s.x, 1)


@implements(ProvinceState, "win_shares_into")
@njit(cache=True)
def win_shares_into(s, out):
    """1 for the winner, 0.5 each for a draw; 0 before the end and in a 'limit' game."""
    w = s.x[K.M_WIN]
    out[0] = 0.0
    out[1] = 0.0
    if s.x[K.M_PHASE] != K.PH_OVER or w < 0:
        return
    if w == K.WIN_DRAW:
        out[0] = 0.5
        out[1] = 0.5
    else:
        out[w] = 1.0


# ---------------------------------------------------------------------------------------------
# Determinization (the search bot's information sets; docs §13)
@implements(ProvinceState, "determinize")
@njit(cache=True, _nrt=False)
def determinize(s, seat, rng):
    """Resample, in place, what ``seat`` cannot see: the face-down goal tokens of the stack
    (below the face-up one), drawn from the searcher's generator ``rng`` (uint64[1]) without
    replacement among the goal ids not yet revealed (ascending order, uniform); then reseed the
    chance generator ``s.rng`` (the ship flips) from ``rng``. Everything else is public and
    both seats see the same: ``seat`` does not change the result. No allocation (a bit mask
    of the ids already placed)."""
    x = s.x
    ng = cst(x, K.C_GOALS_TOTAL)
    n = x[K.M_GN]
    known = min(x[K.M_GNEXT] + 1, n)  # resolved tokens and the face-up one
    used = 0
    for i in range(known):
        used |= 1 << x[K.X_GS + i]
    left = ng - known
    for i in range(known, n):
        r = rand_below(rng, left)
        g = 0
        while True:
            if (used >> g) & 1 == 0:
                if r == 0:
                    break
                r -= 1
            g += 1
        x[K.X_GS + i] = g
        used |= 1 << g
        left -= 1
    s.rng[0] = next_u64(rng)

