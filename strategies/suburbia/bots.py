"""Suburbia scripted bots (spec §9), as numba functions of (state arrays, legal actions, rng,
params).

Two kernels behind one dispatcher (``choose_arrays``): code 0 is ``random`` (uniform over the
legal actions); code 1 is the *valued* bot. The valued bot looks one decision ahead: for every
legal action (and, for a tile, every legal cell) it estimates the change of the active seat's
Income, Reputation, Population and money the placement would bring (the tile's immediate effect,
its own records, the reactions of the seat's own tiles, the red lines it would cross) and scores

    value = w_inc(t) * R * dInc + w_rep(t) * R * dRep + w_pop * dPop + w_money * d$
            + affinity(tile classes) + goal_w * d(goal chances) - redline_w * lines crossed
            + fut_w * (expected later firings of the tile's own records)

where ``R`` is the expected number of turns the seat still plays (this one included), ``t`` the
progress of the game (0 at the start, 1 at the end) and ``w_inc(t)``, ``w_rep(t)`` move linearly
from their early to their late value ("income first, reputation later", spec §9). After a basic
tile or an investment it discards the cheapest tile, or, with ``deny_w > 0``, the tile the next
seat would value most (spec §9 hate-discarding). The named strategies are parameter vectors
(data), so a designer can add one without touching code. The estimate ignores the clamp order
inside a placement and the other seats' reactions: it is a bot's heuristic, not the rules.

Play patterns (issue #13): the income floor (``floor_w``): the value also loses ``w_pop`` per
dollar of Income the seat could not pay over its remaining income steps (each missing dollar
costs a population, spec §5.2), so it neither buys what drives Income where it cannot be paid
nor spends the money it will owe; the private goal: it keeps the offer with the larger
``goal_prior_<goal> x bonus`` (the measured chance of achieving it) and pursues it with weight
``goal_w + priv_w`` (public goals with ``goal_w``); no investment marker on a Lake unless
``invest_lake``; actions and cells within ``near_tie`` of the best are drawn at random from the
bot generator.
"""

import math
from pathlib import Path

import numpy as np
from numba import njit

from sim.core.bits import lowest_bit
from sim.core.game import StrategySpec
from sim.core.rng import rand_below
from sim.suburbia import constants as K
from sim.suburbia.kernels import (
    KT_RB,
    PD_KBITS,
    SuburbiaState,
    count_adj,
    count_kinds,
    derived_arrays,
    frontier_list,
    goal_measure,
    lake_bonus_pd,
    listeners_of,
    record_count,
    waterfront_count,
)
from strategies import common

PARAM_NAMES = (
    "w_inc_early",   # 0  weight of +1 Income per remaining turn, at the start
    "w_inc_late",    # 1  ... at the end
    "w_rep_early",   # 2  weight of +1 Reputation per remaining turn, at the start
    "w_rep_late",    # 3
    "w_pop",         # 4  weight of +1 Population now
    "w_money",       # 5  weight of +$1 at the start
    "goal_w",        # 6  weight of the change of goal chances (0 = ignores goals)
    "deny_w",        # 7  weight of the next seat's value of a tile when discarding (0 = cheapest)
    "aff_R",         # 8  bonus for placing a Residential tile
    "aff_C",         # 9  Commercial
    "aff_I",         # 10 Industrial
    "aff_V",         # 11 Civic
    "aff_lake",      # 12 a Lake
    "aff_airport",   # 13 an airport
    "aff_school",    # 14 a school
    "invest_w",      # 15 extra weight of an investment's future doubling (x its replay value)
    "redline_w",     # 16 extra penalty per red line crossed
    "w_money_late",  # 17 weight of +$1 at the end (w_money is the weight at the start)
    "fut_w",         # 18 weight of the expected future firings of the tile's own records
    "floor_w",       # 19 income floor: weight (x w_pop) of the population the seat would lose
                     #    to unpaid income over its remaining turns (1 pop per $ short)
    "priv_w",        # 20 extra weight of the change of its chance at its private goal
    "invest_lake",   # 21 1: may put an investment marker on a Lake; 0: never
    "near_tie",      # 22 actions (and cells) within this value of the best are ties, drawn at
                     #    random
    *[f"goal_prior_{i}" for i in range(K.NG)],  # 23.. chance of achieving goal i when kept
                                                #    (the private goal kept: prior x bonus)
)
N_PARAMS = len(PARAM_NAMES)
I_FLOOR, I_PRIV, I_INV_LAKE, I_NEAR, I_PRIOR = 19, 20, 21, 22, 23
assert PARAM_NAMES[I_FLOOR] == "floor_w" and PARAM_NAMES[I_PRIOR] == "goal_prior_0"

# chance that greedy achieves each private goal it keeps and pursues (goal ids of
# sim/suburbia/data.py): the mean over 2, 3 and 4 players of 2,000 greedy mirror games each
# (docs/bots.md); data, not code
GOAL_PRIOR = (0.24, 0.50, 0.32, 0.51, 0.62, 0.56, 0.46, 0.35, 0.32, 0.53,
              0.33, 0.58, 0.44, 0.46, 0.28, 0.31, 0.42, 0.32, 0.34, 0.41)
_BASE = dict(w_inc_early=1.0, w_inc_late=1.0, w_rep_early=0.3, w_rep_late=1.0, w_pop=1.0,
             w_money=0.6, w_money_late=0.2, invest_w=0.0, redline_w=0.0, fut_w=1.0,
             floor_w=1.0, priv_w=1.0, invest_lake=0.0, near_tie=0.02,
             **{f"goal_prior_{i}": GOAL_PRIOR[i] for i in range(K.NG)})


def _params(**kw) -> tuple:
    return common.param_vector(PARAM_NAMES, _BASE, **kw)


STRATEGIES = {
    "random": StrategySpec("random", 0, "uniform over the legal actions"),
    "greedy": StrategySpec(
        "greedy", 1,
        "one decision ahead on Income, Reputation, Population and money; reputation weighs "
        "more late (spec §9 policy 1); keeps an income floor; keeps and pursues the private "
        "goal it is likelier to achieve; discards the cheapest tile",
        _params(), PARAM_NAMES),
    "goal-greedy": StrategySpec(
        "goal-greedy", 1,
        "greedy plus the change of its chances at its public and private goals (spec §9 "
        "policy 2); keeps the private goal it is likelier to achieve",
        _params(goal_w=1.0), PARAM_NAMES),
    "denier": StrategySpec(
        "denier", 1,
        "greedy, but after a basic tile or an investment discards what the next seat wants "
        "most, surcharge permitting (spec §9 policy 3, the seed's hate-discarding tip)",
        _params(deny_w=0.6), PARAM_NAMES),
    "residential-civic": StrategySpec(
        "residential-civic", 1,
        "archetype: Residential, Civic and schools, Lakes beside the start tiles, reputation "
        "early (spec §9, boardgame.business primer)",
        _params(aff_R=1.5, aff_V=1.5, aff_school=1.0, aff_lake=1.0, w_rep_early=0.5,
                goal_w=0.5), PARAM_NAMES),
    "industrial-airports": StrategySpec(
        "industrial-airports", 1,
        "archetype: Industrial tiles and airports, income first (spec §9)",
        _params(aff_I=1.5, aff_airport=3.0, w_inc_early=1.2, goal_w=0.5), PARAM_NAMES),
    "commercial": StrategySpec(
        "commercial", 1,
        "archetype: Commercial tiles with Condominiums/Apartments beside them (spec §9)",
        _params(aff_C=1.5, aff_R=0.5, w_inc_early=1.2, goal_w=0.5), PARAM_NAMES),
}
for _name, _spec in STRATEGIES.items():
    assert _spec.code == 0 or len(_spec.params) == N_PARAMS, _name

# scratch layout of ``work`` (float64[WORK]) and ``cells`` (int64[CELLS]) buffers
CV = 256  # w[16:16 + CV]: the cells' values (at most MAXF cells are valued)
NACT = 64  # at most 41 action-step actions (7 buys, 3 basic tiles, 7 Lakes, 24 investments)
NGM = 32  # goal margins: 2 per goal slot (at most 4 public goals and the private one), then
#           the slots' current values from GMV on, the last measure change valued per slot
#           (``goal_delta``) from GDM on and its chance from GDV on
GMV = 10
GDM = 16
GDV = 21
# w[0..15]: deltas and memos (best_cell, score_delta, future_value); w[16:16 + CV]: the
# cells' values; then the actions' values, the goal margins and the match fractions
FR = 16 + CV + NACT + NGM
# the action step's memo (one decision, seat to act): for each distinct class of the tiles it
# values, the deltas its own neighbouring tiles' adjacency records give a tile of that class on
# each frontier cell, and the deltas of its tiles listening anywhere in the borough; for each
# distinct mask of the tiles' own adjacency records, the matching neighbours of each frontier
# cell. ``w[MC]``/``w[MC + 1]``: classes/masks memoised (reset per decision); their keys at
# ``MCK``/``MMK``; values at ``ML + (j * MAXF + i) * 4 + stat``, ``MLB + 4 * j + stat`` and
# ``MN + j * MAXF + i`` (slot ``j``, cell ``i``). All the deltas are integers, so summing them
# in another order gives the same float64 values as ``cell_delta``. The memo of an action step
# serves the placement step that follows it (the same seat and borough): ``w[MKEY]`` holds the
# decision number of that placement step and ``w[MKEY + 1]`` the seat (``memo_open``);
# ``w[MIL]``, ``w[MIL + 1]``: ``first_line`` of the seat's population and that line's value.
NMEMO = 16            # classes (and masks) memoised per decision; more: computed without memo
MAXF = 6 * K.MAXT     # frontier cells at most (6 per tile)
NFB = (MAXF + 63) // 64  # int64 words of a bit set over the frontier cells
# in ``cells`` after the frontier: per class slot and per mask slot, the bit set of the cells
# whose memoised deltas may not all be zero (the only cells a tile's value can differ on); then
# per cell id, its index in the frontier list (valid where ``cells[index]`` is that cell); then
# per tile of the seat, the indices of its neighbours in the frontier list
CBL = MAXF
CBN = CBL + NFB * NMEMO
CMAP = CBN + NFB * NMEMO
CNB = CMAP + K.NCELLS  # per tile t of the seat: at CNB + 8t its frontier neighbours' count,
#                        then their indices in the frontier list (``memo_open``)
CELLS = CNB + 8 * K.MAXT
MC = FR + 3 * K.NK
MCK = MC + 2
MMK = MCK + NMEMO
MLB = MMK + NMEMO
ML = MLB + 4 * NMEMO
MN = ML + 4 * NMEMO * MAXF
MKEY = MN + NMEMO * MAXF
MIL = MKEY + 2  # the seat's first red line at or above its population, and that line
WORK = MKEY + 4
assert MAXF <= CV


# ---------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def remaining_turns(meta, consts, c):
    """Expected turns seat ``c`` still plays, this one included (1MR position unknown)."""
    np_ = meta[K.M_NP]
    if meta[K.M_LAST] >= 0:
        if np_ == 1:
            return 1.0
        return float(meta[K.M_LAST] - meta[K.M_ROUND] + 1)
    E = consts[K.C_EXTRA_C]
    M = consts[K.C_BLOCK1 + np_ - 1]
    above = meta[K.M_PILEN] - (E + M + 1)
    if above >= 0:
        draws = above + M / 2.0
    else:
        draws = (meta[K.M_PILEN] - E - 1) / 2.0
        if draws < 0:
            draws = 0.0
    if np_ == 1:
        return draws / 2.0 + 0.5
    return draws / np_ + 1.5


@njit(cache=True, _nrt=False)
def first_line(opts, lines, consts, p):
    """Index of the first red line at or above population ``p`` (the lines ascend:
    ``sim.suburbia.data.lines_array``)."""
    off = opts[K.O_RL_OFFSET]
    lo = 0
    hi = consts[K.C_NLINES]
    while lo < hi:
        mid = (lo + hi) >> 1
        if lines[mid] + off < p:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, _nrt=False)
def next_line(opts, lines, consts, p):
    """(index, value): ``first_line`` of population ``p`` and that red line's value (1e18
    if there is none)."""
    il = first_line(opts, lines, consts, p)
    return il, float(lines[il] + opts[K.O_RL_OFFSET]) if il < consts[K.C_NLINES] else 1e18


@njit(cache=True, _nrt=False)
def lines_crossed(opts, lines, consts, i0, q):
    """Red lines L with ``p <= L < q``, ``i0`` the index of the first line at or above ``p``
    (``first_line``)."""
    off = opts[K.O_RL_OFFSET]
    n = 0
    for i in range(i0, consts[K.C_NLINES]):
        if lines[i] + off >= q:
            break
        n += 1
    return n


@njit(cache=True, _nrt=False)
def redline_sums(tiles, pl, tk, o):
    """(Income, Reputation) seat ``o``'s own ``redline`` records give per red line crossed
    (invested tiles twice)."""
    rI = 0
    rR = 0
    for t in range(pl[o, K.P_NT]):
        k = tk[o, t, K.K_KIND]
        for r in range(tiles[k, K.T_NREC]):
            b = K.T_REC + 4 * r
            if tiles[k, b + 2] == K.SC_REDLINE:
                amt = tiles[k, b + 1] * (2 if tk[o, t, K.K_INV] == 1 else 1)
                if tiles[k, b] == K.S_INC:
                    rI += amt
                elif tiles[k, b] == K.S_REP:
                    rR += amt
    return rI, rR


@njit(cache=True, _nrt=False)
def clampd(v, d):
    w = v + d
    if w > 15:
        w = 15
    elif w < -5:
        w = -5
    return w - v


# the classes of the affinity parameters aff_R .. aff_school (PARAM_NAMES 8-14)
AFF_CLS = (K.R, K.C, K.I, K.V, K.LAKEB, K.AIRPORT, K.SCHOOL)


@njit(cache=True, _nrt=False)
def affinity(p, k, cls):
    """Sum of the affinity parameters of row ``p[k]`` whose class ``cls`` matches."""
    a = 0.0
    for j in range(len(AFF_CLS)):
        a += p[k, 8 + j] * ((cls & AFF_CLS[j]) != 0)  # (adding 0.0 for the others: no branch)
    return a


@njit(cache=True, _nrt=False)
def crossings(opts, lines, consts, rep, pop, Rt):
    """Income steps lost to red lines over ``Rt`` income steps: the population rising by
    ``rep`` a turn (spec §5.5) crosses line L at reputation step j (this turn's is 1), and each
    crossing lowers the Income of the ``Rt - j`` steps after it."""
    if rep <= 0:
        return 0.0
    top = pop + rep * (Rt - 1.0)
    off = opts[K.O_RL_OFFSET]
    lost = 0.0
    for i in range(first_line(opts, lines, consts, pop), consts[K.C_NLINES]):
        L = lines[i] + off
        if L >= top:
            break
        # floor((L - pop) / rep): integer-valued floats (L >= pop, rep > 0), so the same value
        # as the floor division ``//`` without its fmod call
        lost += Rt - (math.floor((L - pop) / rep) + 1)
    return lost


@njit(cache=True, _nrt=False)
def shortfall(money, inc, lost, Rt, pen):
    """Dollars a seat with ``money`` and Income ``inc`` cannot pay over its ``Rt`` remaining
    income steps (spec §5.2 step 2: each missing dollar costs 1 population), its Income
    falling by ``pen`` for each of the ``lost`` steps after a red line (``crossings``), down to
    -5."""
    total = inc * Rt - pen * lost
    if total < -5.0 * Rt:
        total = -5.0 * Rt
    s = -total - money
    return s if s > 0.0 else 0.0


@njit(cache=True, _nrt=False)
def floor_now(opts, lines, consts, pl, np_, o, Rt):
    """``shortfall`` of seat ``o`` as it stands (the income floor's reference)."""
    pen = opts[K.O_SOLO_PEN] if np_ == 1 else 1
    lost = crossings(opts, lines, consts, pl[o, K.P_REP], pl[o, K.P_POP], Rt)
    return shortfall(pl[o, K.P_MONEY], pl[o, K.P_INC], lost, Rt, pen)


@njit(cache=True, _nrt=False)
def score_delta(opts, lines, consts, pl, tiles, tk, np_, o, dI, dR, dP, dM, p, kr, wI, wR,
                wM, Rt, cost, fl, s0, il, w):
    """Value of the raw deltas for seat ``o`` with red lines and clamps applied (approx.), after
    paying ``cost``; with ``fl`` (``floor_w``, 0: none) minus the population its unpaid income
    would cost over
    its ``Rt`` remaining income steps (the income floor, ``shortfall``), as a change from
    ``s0`` (``floor_now``); ``il`` the index of the first red line at or above the seat's
    population (``first_line``). ``w[8..10]`` memoise the last ``crossings`` (population,
    reputation, result), ``w[11..13]`` the seat's ``redline_sums`` (valid when w[13] = 1; the
    caller clears w[8] and w[13] for a new seat or position)."""
    pen = opts[K.O_SOLO_PEN] if np_ == 1 else 1
    pop = pl[o, K.P_POP]
    q = pop + dP
    if q < 0:
        q = 0
    L = lines_crossed(opts, lines, consts, il, q) if q > pop else 0
    if L > 0:
        dI -= L * pen
        dR -= L * pen
        # redline records of own tiles (``redline_sums``, memoised in w[11..12])
        if w[13] != 1.0:
            rI, rR = redline_sums(tiles, pl, tk, o)
            w[11] = rI
            w[12] = rR
            w[13] = 1.0
        dI += L * w[11]
        dR += L * w[12]
    eI = clampd(pl[o, K.P_INC], dI)
    eR = clampd(pl[o, K.P_REP], dR)
    v = wI * eI + wR * eR + p[kr, 4] * (q - pop) + wM * dM - p[kr, 16] * L
    if fl > 0.0:
        m1 = pl[o, K.P_MONEY] - cost + dM
        if m1 < 0:
            m1 = 0
        if m1 < 5.0 * Rt:  # else it pays Income -5 to the end
            r1 = pl[o, K.P_REP] + eR
            if w[8] != q or w[9] != r1:
                w[8] = q
                w[9] = r1
                w[10] = crossings(opts, lines, consts, r1, q, Rt)
            s1 = shortfall(m1, pl[o, K.P_INC] + eI, w[10], Rt, pen)
        else:
            s1 = 0.0
        v -= fl * p[kr, 4] * (s1 - s0)
    return v


@njit(cache=True, _nrt=False, forceinline=True)
def cell_value(opts, lines, consts, pl, tiles, tk, np_, o, dI, dR, dP, dM, p, kr, wI, wR, wM, Rt,
               cost, fl, s0, il, w, nxt):
    """``score_delta`` of these arguments; without the income floor (``fl`` 0) and with the
    population staying at or below ``nxt`` (the next red line at or above it: none crossed),
    its expression is evaluated here, without the call (the same value)."""
    pop = pl[o, K.P_POP]
    if fl == 0.0 and pop + dP <= nxt:
        q = pop + dP
        if q < 0:
            q = 0
        eI = clampd(pl[o, K.P_INC], dI)
        eR = clampd(pl[o, K.P_REP], dR)
        return wI * eI + wR * eR + p[kr, 4] * (q - pop) + wM * dM - p[kr, 16] * 0
    return score_delta(opts, lines, consts, pl, tiles, tk, np_, o, dI, dR, dP, dM, p, kr, wI, wR,
                       wM, Rt, cost, fl, s0, il, w)


@njit(cache=True, _nrt=False)
def kind_base(opts, tiles, geo, pl, tk, grid, kc, kt, pd, np_, o, kind, w):
    """Cell-independent deltas of placing ``kind`` for seat ``o`` into ``w[0..3]`` (Inc, Rep,
    Pop, $): immediate, own/every/others/lakebonus records, own listeners."""
    kind_own(tiles, kc, kt, pd, np_, opts, geo, pl, tk, grid, o, kind, w)
    cls = tiles[kind, K.T_CLS]
    # own tiles listening to the placement anywhere in the borough
    for t in range(pl[o, K.P_NT]):
        k = tk[o, t, K.K_KIND]
        m = 2 if tk[o, t, K.K_INV] == 1 else 1
        for r in range(tiles[k, K.T_NREC]):
            b = K.T_REC + 4 * r
            scope = tiles[k, b + 2]
            if (tiles[k, b + 3] & cls) == 0:
                continue
            if scope == K.SC_OWN or scope == K.SC_EVERY or scope == K.SC_AFTER:
                w[tiles[k, b]] += tiles[k, b + 1] * m


@njit(cache=True, _nrt=False, forceinline=True)
def kind_own(tiles, kc, kt, pd, np_, opts, geo, pl, tk, grid, o, kind, w):
    """``kind_base`` without the listeners: the immediate effect and the tile's own
    own/every/others/lakebonus records into ``w[0..3]``."""
    for s in range(4):
        w[s] = tiles[kind, K.T_IMM + s]
    cls = tiles[kind, K.T_CLS]
    for r in range(tiles[kind, K.T_NREC]):
        b = K.T_REC + 4 * r
        scope = tiles[kind, b + 2]
        mask = tiles[kind, b + 3]
        selfm = 1 if (opts[K.O_SELF] == 1 and (cls & mask) != 0) else 0
        cnt = 0
        # the borough counts of ``count_borough`` from the derived bit sets (the kinds the
        # record's mask matches, the kinds each borough holds: the same integers)
        kb = kt[kind, KT_RB + r]
        if scope == K.SC_OWN:
            cnt = count_kinds(kc, o, pd[o, PD_KBITS] & kb) + selfm
        elif scope == K.SC_EVERY:
            for q in range(np_):
                cnt += count_kinds(kc, q, pd[q, PD_KBITS] & kb)
            cnt += selfm
        elif scope == K.SC_OTHERS:
            for q in range(np_):
                if q != o:
                    cnt += count_kinds(kc, q, pd[q, PD_KBITS] & kb)
        elif scope == K.SC_LAKEBONUS:
            cnt = waterfront_count(opts, geo, pl, tk, grid, o, -1)
        w[tiles[kind, b]] += tiles[kind, b + 1] * cnt


@njit(cache=True, _nrt=False)
def match_fractions(tiles, w):
    """``w[FR + 3k + r]``: the share of the A/B/C and basic tiles (by count) that record ``r``
    of kind ``k`` targets, for every kind (the tile table is the same for a whole chunk;
    ``w[14] = 1`` marks the table filled)."""
    for kind in range(K.NK):
        for r in range(tiles[kind, K.T_NREC]):
            mask = tiles[kind, K.T_REC + 4 * r + 3]
            num = 0.0
            den = 0.0
            for k in range(1, 51):
                den += tiles[k, K.T_COUNT]
                if (tiles[k, K.T_CLS] & mask) != 0:
                    num += tiles[k, K.T_COUNT]
            w[FR + 3 * kind + r] = num / den if den > 0 else 0.0
    w[14] = 1.0


@njit(cache=True, _nrt=False, forceinline=True)
def future_value(tiles, np_, kind, p, kr, wI, wR, wM, Rt, w):
    """Expected value of the later firings of ``kind``'s records (a rough per-turn rate of
    matching placements times the ``Rt`` remaining turns of the seat to act; Inc/Rep firings
    count for half the rest)."""
    if p[kr, 18] == 0.0:
        return 0.0
    if w[14] != 1.0:
        match_fractions(tiles, w)
    tot = 0.0
    for r in range(tiles[kind, K.T_NREC]):
        b = K.T_REC + 4 * r
        scope = tiles[kind, b + 2]
        frac = w[FR + 3 * kind + r]
        rate = 0.0
        if scope == K.SC_ADJ or scope == K.SC_LAKE_ADJ:
            rate = 0.3 * frac
        elif scope == K.SC_OWN:
            rate = frac
        elif scope == K.SC_EVERY or scope == K.SC_AFTER:
            rate = np_ * frac
        elif scope == K.SC_OTHERS:
            rate = (np_ - 1) * frac
        elif scope == K.SC_REDLINE:
            rate = 0.25
        elif scope == K.SC_LAKEBONUS:
            rate = 0.6
        amt = tiles[kind, b + 1]
        st = tiles[kind, b]
        if st == K.S_INC:
            per = amt * wI * 0.5
        elif st == K.S_REP:
            per = amt * wR * 0.5
        elif st == K.S_POP:
            per = amt * p[kr, 4]
        else:
            per = amt * wM
        tot += Rt * rate * per
    return p[kr, 18] * tot


@njit(cache=True, _nrt=False)
def cell_delta(tiles, geo, pl, tk, grid, o, kind, cell, w, lb):
    """Adjacency deltas of placing ``kind`` on ``cell`` added to ``w[4..7]`` (from w[0..3])."""
    for s in range(4):
        w[4 + s] = w[s]
    cls = tiles[kind, K.T_CLS]
    for r in range(tiles[kind, K.T_NREC]):
        b = K.T_REC + 4 * r
        scope = tiles[kind, b + 2]
        if scope == K.SC_ADJ or scope == K.SC_LAKE_ADJ:
            cnt = count_adj(tiles, geo, tk, grid, o, cell, tiles[kind, b + 3])
            amt = tiles[kind, b + 1]
            if scope == K.SC_LAKE_ADJ:
                amt += lb
            w[4 + tiles[kind, b]] += amt * cnt
    for d in range(6):
        nb = geo[cell, d]
        if nb < 0:
            continue
        u = grid[o, nb] - 1
        if u < 0:
            continue
        k = tk[o, u, K.K_KIND]
        m = 2 if tk[o, u, K.K_INV] == 1 else 1
        for r in range(tiles[k, K.T_NREC]):
            b = K.T_REC + 4 * r
            scope = tiles[k, b + 2]
            if (scope == K.SC_ADJ or scope == K.SC_LAKE_ADJ) and (tiles[k, b + 3] & cls) != 0:
                amt = tiles[k, b + 1]
                if scope == K.SC_LAKE_ADJ:
                    amt += lb
                w[4 + tiles[k, b]] += amt * m


@njit(cache=True, _nrt=False)
def memo_open(opts, lines, consts, geo, pl, tk, o, ncell, cells, w, key):
    """Start the decision memo of seat ``o`` over its frontier ``cells[:ncell]`` (``MC``): no
    class or mask memoised, each cell's index at ``cells[CMAP + cell]``, each tile's
    neighbours in the frontier at ``cells[CNB + 8t ..]`` (count, indices in the order of
    ``geo``); ``key`` (``MKEY``) the decision number of the placement step it may serve (0:
    none); the seat's next red line (``MIL``: ``first_line`` of its population, the line's
    value or 1e18 if none)."""
    w[MC] = 0.0
    w[MC + 1] = 0.0
    w[MKEY] = key
    w[MKEY + 1] = o
    w[MIL], w[MIL + 1] = next_line(opts, lines, consts, pl[o, K.P_POP])
    for i in range(ncell):
        cells[CMAP + cells[i]] = i
    for t in range(pl[o, K.P_NT]):
        cu = tk[o, t, K.K_CELL]
        q = CNB + 8 * t
        n = 0
        for d in range(6):
            nb = geo[cu, d]
            if nb >= 0:
                i, hit = frontier_index(cells, ncell, nb)
                cells[q + 1 + n] = i  # (kept when hit, overwritten otherwise: no branch)
                n += hit
        cells[q] = n


@njit(cache=True, _nrt=False, forceinline=True)
def frontier_index(cells, ncell, cell):
    """(i, hit): ``i`` the index of ``cell`` in the memo's frontier list ``cells[:ncell]``
    (``memo_open``) when ``hit`` is 1; with ``hit`` 0 (absent) ``i`` is some index below
    ``MAXF`` (adding ``hit`` times a value at ``i`` changes nothing: no branch)."""
    i = cells[CMAP + cell]
    return i, int((i < ncell) & (cells[i] == cell))


@njit(cache=True, _nrt=False, forceinline=True)
def memo_find(w, base, n, key):
    """Slot of ``key`` among the memo's keys ``w[base:base + n]``, -1 if absent."""
    for j in range(n):
        if w[base + j] == key:
            return j
    return -1


@njit(cache=True, _nrt=False)
def listen_slot(tiles, tk, pd, o, cls, ncell, cells, w, lb):
    """Slot of class ``cls`` in the action step's memo (``MC``), filled on first use: the
    deltas of seat ``o``'s tiles listening anywhere in the borough (``kind_base``'s second
    part) and, per cell ``cells[i]`` (the frontier, ``memo_open``), those of its neighbouring
    tiles' adjacency records (``cell_delta``'s second part, ``lb`` its lake bonus), added tile
    by tile over the tiles the derived listener sets (kernels.py ``PD_L0``, ``PD_L1``:
    supersets) name for ``cls``. -1 when the memo is full."""
    nc = int(w[MC])
    for j in range(nc):
        if w[MCK + j] == cls:
            return j
    if nc >= NMEMO or ncell > MAXF:
        return -1
    j = nc
    w[MCK + j] = cls
    w[MC] = nc + 1
    l0, l1 = listeners_of(pd, o, cls)
    q = MLB + 4 * j
    for s in range(4):
        w[q + s] = 0.0
    while l1 != 0:
        t = lowest_bit(l1)
        l1 &= l1 - 1
        k = tk[o, t, K.K_KIND]
        m = 2 if tk[o, t, K.K_INV] == 1 else 1
        for r in range(tiles[k, K.T_NREC]):
            b = K.T_REC + 4 * r
            scope = tiles[k, b + 2]
            if (tiles[k, b + 3] & cls) == 0:
                continue
            if scope == K.SC_OWN or scope == K.SC_EVERY or scope == K.SC_AFTER:
                w[q + tiles[k, b]] += tiles[k, b + 1] * m
    q0 = ML + j * MAXF * 4
    for i in range(4 * ncell):
        w[q0 + i] = 0.0
    cb = CBL + NFB * j
    for f in range(NFB):
        cells[cb + f] = 0
    while l0 != 0:
        u = lowest_bit(l0)
        l0 &= l0 - 1
        k = tk[o, u, K.K_KIND]
        m = 2 if tk[o, u, K.K_INV] == 1 else 1
        e0 = e1 = e2 = e3 = 0
        for r in range(tiles[k, K.T_NREC]):
            b = K.T_REC + 4 * r
            scope = tiles[k, b + 2]
            if (scope == K.SC_ADJ or scope == K.SC_LAKE_ADJ) and (tiles[k, b + 3] & cls) != 0:
                amt = tiles[k, b + 1]
                if scope == K.SC_LAKE_ADJ:
                    amt += lb
                st = tiles[k, b]
                if st == 0:
                    e0 += amt * m
                elif st == 1:
                    e1 += amt * m
                elif st == 2:
                    e2 += amt * m
                else:
                    e3 += amt * m
        if e0 == 0 and e1 == 0 and e2 == 0 and e3 == 0:
            continue
        qn = CNB + 8 * u
        for x in range(cells[qn]):
            i = cells[qn + 1 + x]
            qi = q0 + 4 * i
            w[qi] += e0
            w[qi + 1] += e1
            w[qi + 2] += e2
            w[qi + 3] += e3
            # (a cell whose sums cancel to zero keeps its bit: valued, with the same value)
            cells[cb + (i >> 6)] |= 1 << (i & 63)
    return j


@njit(cache=True, _nrt=False)
def count_slot(tiles, pl, tk, o, mask, ncell, cells, w):
    """Slot of mask ``mask`` in the action step's memo (``MC``), filled on first use: per cell
    ``cells[i]`` (the frontier, ``memo_open``), seat ``o``'s neighbouring tiles matching
    ``mask`` (``count_adj``), counted from the matching tiles' side. -1 when the memo is
    full."""
    nm = int(w[MC + 1])
    for j in range(nm):
        if w[MMK + j] == mask:
            return j
    if nm >= NMEMO or ncell > MAXF:
        return -1
    j = nm
    w[MMK + j] = mask
    w[MC + 1] = nm + 1
    cb = CBN + NFB * j
    for f in range(NFB):
        cells[cb + f] = 0
    q0 = MN + j * MAXF
    for i in range(ncell):
        w[q0 + i] = 0.0
    for u in range(pl[o, K.P_NT]):
        if (tiles[tk[o, u, K.K_KIND], K.T_CLS] & mask) == 0:
            continue
        qn = CNB + 8 * u
        for x in range(cells[qn]):
            i = cells[qn + 1 + x]
            w[q0 + i] += 1.0
            cells[cb + (i >> 6)] |= 1 << (i & 63)
    return j


@njit(cache=True, _nrt=False, forceinline=True)
def add_stat(e0, e1, e2, e3, st, x):
    """The deltas (Inc, Rep, Pop, $) ``e0..e3`` with ``x`` added to stat ``st``."""
    if st == 0:
        return e0 + x, e1, e2, e3
    if st == 1:
        return e0, e1 + x, e2, e3
    if st == 2:
        return e0, e1, e2 + x, e3
    return e0, e1, e2, e3 + x


@njit(cache=True, _nrt=False)
def best_cell(opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, np_, o, kind, ncell,
              cells, w, p, kr, wI, wR, wM, Rt, cost, s0, each, memo):
    """(best value, best cell) of placing ``kind`` for seat ``o`` over ``cells[:ncell]``
    after paying ``cost``; ``s0`` its ``floor_now``. The income floor is valued at every cell
    (``each``: the placement step, which leaves the value of cell ``cells[i]`` in
    ``w[16 + i]``) or only at the best cell without it (the value of an action: faster, and
    the floor rarely moves the best cell). The cell-independent deltas (Inc, Rep, Pop, $) are
    left in ``w[0..3]``. A cell whose deltas equal the previous cell's gets that cell's value
    without ``score_delta`` (a function of the deltas alone here: the same value). With
    ``memo`` (``cells`` the seat's frontier, ``memo_open``) the neighbours' and listeners'
    deltas come from the decision's memo (``listen_slot``, ``count_slot``): the same values,
    computed once per class and mask. ``score_delta``'s memo ``w[8..13]`` is the caller's to
    clear (once per seat and position)."""
    lb = lake_bonus_pd(tiles, pl, tk, pd, o)
    jl = -1
    ok = memo
    ja = jb = jc = -1  # memo slots of the kind's adjacency records (up to 3), their stats
    sa = sb = sc = 0   # and amounts
    aa = ab = ac = 0
    if memo:
        jl = memo_find(w, MCK, int(w[MC]), tiles[kind, K.T_CLS])
        if jl < 0:
            jl = listen_slot(tiles, tk, pd, o, tiles[kind, K.T_CLS], ncell, cells, w, lb)
        ok = jl >= 0
        for r in range(tiles[kind, K.T_NREC]):
            b = K.T_REC + 4 * r
            scope = tiles[kind, b + 2]
            if scope == K.SC_ADJ or scope == K.SC_LAKE_ADJ:
                j = memo_find(w, MMK, int(w[MC + 1]), tiles[kind, b + 3])
                if j < 0:
                    j = count_slot(tiles, pl, tk, o, tiles[kind, b + 3], ncell, cells, w)
                if j < 0:
                    ok = False
                amt = tiles[kind, b + 1]
                if scope == K.SC_LAKE_ADJ:
                    amt += lb
                if r == 0:
                    ja, sa, aa = j, tiles[kind, b], amt
                elif r == 1:
                    jb, sb, ab = j, tiles[kind, b], amt
                else:
                    jc, sc, ac = j, tiles[kind, b], amt
    if ok:
        kind_own(tiles, kc, kt, pd, np_, opts, geo, pl, tk, grid, o, kind, w)
        q = MLB + 4 * jl
        for s in range(4):
            w[s] += w[q + s]
    else:
        kind_base(opts, tiles, geo, pl, tk, grid, kc, kt, pd, np_, o, kind, w)
    fl = p[kr, I_FLOOR]
    fe = fl if each else 0.0
    # the next red line at or above the population (``cell_value``; the memo's, ``MIL``)
    if memo:
        il = int(w[MIL])
        nxt = w[MIL + 1]
    else:
        il, nxt = next_line(opts, lines, consts, pl[o, K.P_POP])
    best = -1e18
    bc = -1
    d0 = d1 = d2 = d3 = math.nan  # the previous cell's deltas (none yet)
    v = 0.0
    be0 = be1 = be2 = be3 = 0.0  # the best cell's deltas
    c0 = c1 = c2 = c3 = 0.0
    if ok:
        # the cells where a memoised delta may not be zero (bit sets ``m``), in ascending order;
        # every other cell has the deltas w[0..3] and one value, ``vz``. The action step values
        # only the first of those (the others come later: never strictly better), so both steps
        # find the same best value and first best cell as the loop over every cell below.
        b0 = w[0]
        b1 = w[1]
        b2 = w[2]
        b3 = w[3]
        ql = ML + jl * MAXF * 4
        qa = MN + ja * MAXF
        qb = MN + jb * MAXF
        qc = MN + jc * MAXF
        vz = 0.0
        z = False  # (each) vz computed; (not each) the first such cell taken
        for f in range(NFB):
            lo = 64 * f
            if lo >= ncell:
                break
            m = cells[CBL + NFB * jl + f]
            if ja >= 0:
                m |= cells[CBN + NFB * ja + f]
            if jb >= 0:
                m |= cells[CBN + NFB * jb + f]
            if jc >= 0:
                m |= cells[CBN + NFB * jc + f]
            inw = (1 << (ncell - lo)) - 1 if ncell - lo < 64 else -1  # this word's cells
            if each:
                it = inw
            else:
                it = m
                if not z and (~m & inw) != 0:
                    free = ~m & inw
                    it |= free & -free
                    m |= free & -free
                    z = True
            while it != 0:
                bit = it & -it
                it ^= bit
                i = lo + lowest_bit(bit)
                if (m & bit) != 0:
                    q = ql + 4 * i
                    e0 = b0 + w[q]
                    e1 = b1 + w[q + 1]
                    e2 = b2 + w[q + 2]
                    e3 = b3 + w[q + 3]
                    if ja >= 0:
                        e0, e1, e2, e3 = add_stat(e0, e1, e2, e3, sa, aa * w[qa + i])
                    if jb >= 0:
                        e0, e1, e2, e3 = add_stat(e0, e1, e2, e3, sb, ab * w[qb + i])
                    if jc >= 0:
                        e0, e1, e2, e3 = add_stat(e0, e1, e2, e3, sc, ac * w[qc + i])
                    if e0 != d0 or e1 != d1 or e2 != d2 or e3 != d3:
                        d0 = e0
                        d1 = e1
                        d2 = e2
                        d3 = e3
                        v = cell_value(opts, lines, consts, pl, tiles, tk, np_, o, e0, e1, e2,
                                       e3, p, kr, wI, wR, wM, Rt, cost, fe, s0, il, w, nxt)
                    vi = v
                    c0, c1, c2, c3 = d0, d1, d2, d3
                else:  # (each) a cell without memoised deltas
                    if not z:
                        vz = cell_value(opts, lines, consts, pl, tiles, tk, np_, o, b0, b1, b2,
                                        b3, p, kr, wI, wR, wM, Rt, cost, fe, s0, il, w, nxt)
                        z = True
                    vi = vz
                    c0, c1, c2, c3 = b0, b1, b2, b3
                if each:
                    w[16 + i] = vi
                if vi > best:
                    best = vi
                    bc = cells[i]
                    be0, be1, be2, be3 = c0, c1, c2, c3
        ncell = 0  # (the loop below has nothing left to do)
    for i in range(ncell):
        cell_delta(tiles, geo, pl, tk, grid, o, kind, cells[i], w, lb)
        if w[4] != d0 or w[5] != d1 or w[6] != d2 or w[7] != d3:
            d0 = w[4]
            d1 = w[5]
            d2 = w[6]
            d3 = w[7]
            v = cell_value(opts, lines, consts, pl, tiles, tk, np_, o, d0, d1, d2, d3, p, kr,
                           wI, wR, wM, Rt, cost, fe, s0, il, w, nxt)
        w[16 + i] = v
        if v > best:
            best = v
            bc = cells[i]
    if fl > 0.0 and not each and bc >= 0:
        if not ok:
            cell_delta(tiles, geo, pl, tk, grid, o, kind, bc, w, lb)
            be0, be1, be2, be3 = w[4], w[5], w[6], w[7]
        # (with the memo: the best cell's deltas kept by the loop, the same integers as
        # ``cell_delta``)
        best = score_delta(opts, lines, consts, pl, tiles, tk, np_, o, be0, be1, be2, be3, p, kr,
                           wI, wR, wM, Rt, cost, fl, s0, il, w)
    return best, bc


@njit(cache=True, _nrt=False)
def pick_near(vals, n, rng, near):
    """Index of one of ``vals[:n]`` within ``max(near, 1e-9)`` of the best, uniformly at
    random from the bot generator (one draw per candidate after the first)."""
    best = vals[0]
    for i in range(1, n):
        if vals[i] > best:
            best = vals[i]
    lo = best - (near if near > 1e-9 else 1e-9)
    j = 0
    ties = 0
    for i in range(n):
        if vals[i] >= lo:
            ties += 1
            if ties == 1 or rand_below(rng, ties) == 0:
                j = i
    return j


@njit(cache=True, _nrt=False)
def goal_value(tiles, goals, geo, pl, tk, grid, kc, kt, pd, np_, o, g, dmeasure):
    """Bonus-weighted chance (logistic in the margin) that seat ``o`` wins goal ``g`` if its
    measure changes by ``dmeasure``."""
    d = goals[g, K.G_DIR]
    mine = d * (goal_measure(tiles, goals, geo, pl, tk, grid, kc, kt, pd, o, g) + dmeasure)
    best = -1e9
    for q in range(np_):
        if q != o:
            v = d * goal_measure(tiles, goals, geo, pl, tk, grid, kc, kt, pd, q, g)
            if v > best:
                best = v
    margin = mine - best - 0.5
    return goals[g, K.G_BONUS] / (1.0 + math.exp(-margin))


@njit(cache=True, _nrt=False)
def goal_margins(tiles, goals, geo, pl, tk, grid, kc, kt, pd, gpub, gpriv, meta, o, wpub, wpriv,
                 gm):
    """For goal slot i (the public goals, then seat ``o``'s private goal): ``gm[2i]`` its
    measure for ``o`` and ``gm[2i + 1]`` the best signed measure of the other seats (the
    inputs of ``goal_value``, the same for every action of a decision), and ``gm[GMV + i]``
    the slot's bonus-weighted chance as it stands (``goal_delta`` subtracts it). A slot whose
    weight (``wpub`` for the public goals, ``wpriv`` for the private one) is 0 is skipped, as
    ``goal_delta`` skips it."""
    np_ = meta[K.M_NP]
    for i in range(meta[K.M_NPUB] + 1):
        gm[GDM + i] = math.nan  # no change valued yet (goal_delta)
        g = gpub[i] if i < meta[K.M_NPUB] else gpriv[o]
        if g < 0 or (wpub if i < meta[K.M_NPUB] else wpriv) == 0.0:
            continue
        d = goals[g, K.G_DIR]
        gm[2 * i] = goal_measure(tiles, goals, geo, pl, tk, grid, kc, kt, pd, o, g)
        best = -1e9
        for q in range(np_):
            if q != o:
                v = d * goal_measure(tiles, goals, geo, pl, tk, grid, kc, kt, pd, q, g)
                if v > best:
                    best = v
        gm[2 * i + 1] = best
        b = goals[g, K.G_BONUS]
        gm[GMV + i] = b / (1.0 + math.exp(-(d * gm[2 * i] - gm[2 * i + 1] - 0.5)))


@njit(cache=True, _nrt=False)
def goal_delta(goals, gpub, gpriv, meta, o, cls, dI, dR, dM, dinv, wpub, wpriv, gm):
    """Weighted change of the seat's goal chances (``goal_value`` over the margins ``gm`` of
    ``goal_margins``) if it places a tile of class ``cls`` (0 = none) and its income,
    reputation, money and markers change by dI, dR, dM, dinv: ``wpub`` times that of each
    public goal plus ``wpriv`` times that of its private goal (a weight 0 skips the goal; the
    chance as it stands is ``gm[GMV + i]``; the chance after the last change valued per slot is
    kept in ``gm[GDV + i]``, reset by ``goal_margins``)."""
    tot = 0.0
    for i in range(meta[K.M_NPUB] + 1):
        if i < meta[K.M_NPUB]:
            g = gpub[i]
            wg = wpub
        else:
            g = gpriv[o]
            wg = wpriv
        if g < 0 or wg == 0.0:
            continue
        ms = goals[g, K.G_MEASURE]
        dm = 0.0
        if ms == K.GM_COUNT or ms == K.GM_GROUP:
            if (goals[g, K.G_MASK] & cls) != 0:
                dm = 1.0
        elif ms == K.GM_MONEY:
            dm = dM
        elif ms == K.GM_INCOME:
            dm = dI
        elif ms == K.GM_REP:
            dm = dR
        elif ms == K.GM_INVEST:
            dm = dinv
        if dm != 0.0:
            if gm[GDM + i] != dm:  # (else the chance of the last change, the same value)
                d = goals[g, K.G_DIR]
                b = goals[g, K.G_BONUS]
                m = gm[2 * i]
                best = gm[2 * i + 1]
                gm[GDM + i] = dm
                gm[GDV + i] = b / (1.0 + math.exp(-(d * (m + dm) - best - 0.5)))
            tot += wg * (gm[GDV + i] - gm[GMV + i])
    return tot


@njit(cache=True, _nrt=False)
def weights(meta, consts, p, kr, o):
    Rt = remaining_turns(meta, consts, o)
    total = 16.0 if meta[K.M_NP] >= 3 else 20.0
    t = 1.0 - Rt / total
    if t < 0.0:
        t = 0.0
    if t > 1.0:
        t = 1.0
    wI = (p[kr, 0] + (p[kr, 1] - p[kr, 0]) * t) * Rt
    wR = (p[kr, 2] + (p[kr, 3] - p[kr, 2]) * t) * Rt
    wM = p[kr, 5] + (p[kr, 17] - p[kr, 5]) * t
    return wI, wR, wM, Rt


@njit(cache=True, _nrt=False)
def next_seat_value(meta, opts, tiles, lines, consts, geo, market, pl, tk, grid, kc, kt, pd, s,
                    cells, w, p, kr):
    """What the next seat would gain by buying the tile in slot ``s`` (0 if it cannot pay)."""
    np_ = meta[K.M_NP]
    c = meta[K.M_CUR]
    o = (c + 1) % np_
    if o == c:
        return 0.0
    k = market[s]
    # after the refill the tile slides one slot right (cheaper by the surcharge difference)
    s2 = s + 1 if s + 1 < K.NSLOTS else s
    cost = tiles[k, K.T_PRICE] + consts[K.C_SUR0 + s2]
    if cost > pl[o, K.P_MONEY]:
        return 0.0
    n = frontier_list(pd, o, cells, 0)
    wI, wR, wM, Rt = weights(meta, consts, p, kr, o)
    s0 = floor_now(opts, lines, consts, pl, np_, o, Rt) if p[kr, I_FLOOR] > 0.0 else 0.0
    w[8] = -1.0  # nothing memoised (score_delta) for this seat
    w[13] = 0.0
    v, _cell = best_cell(opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, np_, o, k, n,
                         cells, w, p, kr, wI, wR, wM, Rt, cost, s0, False, False)
    v -= wM * cost
    return v if v > 0 else 0.0


@njit(cache=True, _nrt=False)
def choose_discard(meta, opts, tiles, lines, consts, geo, market, pl, tk, grid, kc, kt, pd, legal,
                   n, cells, w, p, kr):
    _wI, _wR, wM, _Rt = weights(meta, consts, p, kr, meta[K.M_CUR])
    best = legal[0]
    bv = -1e18
    for i in range(n):
        a = legal[i]
        s = a - K.A_DISCARD
        v = -wM * consts[K.C_SUR0 + s] + 1e-3 * s
        if p[kr, 7] > 0:
            v += p[kr, 7] * next_seat_value(meta, opts, tiles, lines, consts, geo, market, pl,
                                            tk, grid, kc, kt, pd, s, cells, w, p, kr)
        if v > bv:
            bv = v
            best = a
    return best


@njit(cache=True, _nrt=False)
def invest_value(meta, opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, gpub, gpriv,
                 goals, o, t, p, kr, wI, wR, wM, Rt, s0, w):
    """Value of an investment in tile ``t``: its replay (doc §7) times (1 + invest_w). Called
    in the action step, after ``memo_open`` (its ``MIL``)."""
    np_ = meta[K.M_NP]
    k = tk[o, t, K.K_KIND]
    dI = float(tiles[k, K.T_IMM + K.S_INC])
    dR = float(tiles[k, K.T_IMM + K.S_REP])
    dP = float(tiles[k, K.T_IMM + K.S_POP])
    dM = float(tiles[k, K.T_IMM + K.S_MONEY])
    lb = lake_bonus_pd(tiles, pl, tk, pd, o)
    for r in range(tiles[k, K.T_NREC]):
        b = K.T_REC + 4 * r
        cnt = record_count(opts, tiles, geo, pl, tk, grid, kc, kt, pd, np_, o, t, r, True)
        amt = tiles[k, b + 1]
        if tiles[k, b + 2] == K.SC_LAKE_ADJ:
            amt += lb
        st = tiles[k, b]
        if st == K.S_INC:
            dI += amt * cnt
        elif st == K.S_REP:
            dR += amt * cnt
        elif st == K.S_POP:
            dP += amt * cnt
        else:
            dM += amt * cnt
    il = int(w[MIL])  # (the action step's memo: first_line of the population)
    v = score_delta(opts, lines, consts, pl, tiles, tk, np_, o, dI, dR, dP, dM, p, kr, wI, wR,
                    wM, Rt, tiles[k, K.T_PRICE], p[kr, I_FLOOR], s0, il, w)
    v = v * (1.0 + p[kr, 15]) + future_value(tiles, meta[K.M_NP], k, p, kr, wI, wR, wM, Rt, w)
    return v - wM * tiles[k, K.T_PRICE]


@njit(cache=True, _nrt=False)
def valued_arrays(meta, opts, tiles, goals, lines, consts, geo, market, supply, gpub, goffer,
                  gpriv, pl, tk, grid, kc, kt, pd, legal, n, rng, p, kr, cells, w):
    """The valued bot (module docstring) with parameter row ``p[kr]``."""
    ph = meta[K.M_PHASE]
    o = meta[K.M_CUR]
    np_ = meta[K.M_NP]
    if ph == K.PH_GOAL:
        # keep the offer with the larger expected bonus: its chance (``goal_prior_*``) x bonus
        best = 0
        bv = -1e18
        for j in range(2):
            g = goffer[o, j]
            v = float(goals[g, K.G_BONUS]) * p[kr, I_PRIOR + g]
            if v > bv:
                bv = v
                best = j
        return K.A_KEEP + best
    if ph != K.PH_PLACE and ph != K.PH_ACTION:
        return choose_discard(meta, opts, tiles, lines, consts, geo, market, pl, tk, grid, kc,
                              kt, pd, legal, n, cells, w, p, kr)
    if ph == K.PH_ACTION and legal[0] == K.A_PASS:
        return K.A_PASS
    wI, wR, wM, Rt = weights(meta, consts, p, kr, o)
    s0 = floor_now(opts, lines, consts, pl, np_, o, Rt) if p[kr, I_FLOOR] > 0.0 else 0.0
    w[8] = -1.0  # nothing memoised (score_delta) for this seat and position
    w[13] = 0.0
    gw = p[kr, 6]
    gwp = gw + p[kr, I_PRIV]
    near = p[kr, I_NEAR]
    if ph == K.PH_PLACE:
        kind = meta[K.M_PKIND]
        ncell = 0
        for i in range(n):
            cells[i] = legal[i] - K.A_PLACE
            ncell += 1
        if w[MKEY] != meta[K.M_DEC] or w[MKEY + 1] != o:
            # not the step after this seat's action step (whose memo holds for the same
            # borough and frontier): a new memo
            memo_open(opts, lines, consts, geo, pl, tk, o, ncell, cells, w, 0.0)
        best_cell(opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, np_, o, kind, ncell,
                  cells, w, p, kr, wI, wR, wM, Rt, 0, s0, True, True)
        return K.A_PLACE + cells[pick_near(w[16:], ncell, rng, near)]
    ncell = frontier_list(pd, o, cells, 0)
    # a new memo for this decision (best_cell), kept for the placement step that may follow
    memo_open(opts, lines, consts, geo, pl, tk, o, ncell, cells, w, meta[K.M_DEC] + 1.0)
    lake_v = -1e18
    vals = w[16 + CV:16 + CV + n]  # after the cells' values (best_cell)
    gm = w[16 + CV + NACT:]
    if gwp > 0:
        goal_margins(tiles, goals, geo, pl, tk, grid, kc, kt, pd, gpub, gpriv, meta, o, gw,
                     gwp, gm)
    for i in range(n):
        a = legal[i]
        if a < K.A_LAKE:
            if a < K.A_BASIC:
                kind = market[a - K.A_BUY]
                cost = tiles[kind, K.T_PRICE] + consts[K.C_SUR0 + a - K.A_BUY]
            else:
                kind = a - K.A_BASIC + 1
                cost = tiles[kind, K.T_PRICE]
            v, _bc = best_cell(opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd, np_, o,
                               kind, ncell, cells, w, p, kr, wI, wR, wM, Rt, cost, s0, False,
                               True)
            cls = tiles[kind, K.T_CLS]
            v += affinity(p, kr, cls) - wM * cost
            v += future_value(tiles, np_, kind, p, kr, wI, wR, wM, Rt, w)
            if gwp > 0:
                # w[0..3]: the tile's cell-independent Inc, Rep, Pop, $ (best_cell)
                v += goal_delta(goals, gpub, gpriv, meta, o, cls, w[0], w[1], w[3] - cost, 0.0,
                                gw, gwp, gm)
        elif a < K.A_INVEST:
            s = a - K.A_LAKE
            if lake_v < -1e17:
                # one value for every slot (the surcharge is subtracted below; the income
                # floor counts the Lake as free)
                lake_v, _bc = best_cell(opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt, pd,
                                        np_, o, K.K_LAKE, ncell, cells, w, p, kr, wI, wR, wM,
                                        Rt, 0, s0, False, True)
                lake_v += affinity(p, kr, K.LAKEB)
                lake_v += future_value(tiles, np_, K.K_LAKE, p, kr, wI, wR, wM, Rt, w)
                if gwp > 0:
                    lake_v += goal_delta(goals, gpub, gpriv, meta, o, K.LAKEB, 0.0, 0.0, w[3],
                                         0.0, gw, gwp, gm)
            v = lake_v - wM * consts[K.C_SUR0 + s]
        else:
            t = a - K.A_INVEST
            if tk[o, t, K.K_KIND] == K.K_LAKE and p[kr, I_INV_LAKE] == 0.0:
                v = -1e17  # no marker on a Lake
            else:
                v = invest_value(meta, opts, tiles, lines, consts, geo, pl, tk, grid, kc, kt,
                                 pd, gpub, gpriv, goals, o, t, p, kr, wI, wR, wM, Rt, s0, w)
                if gwp > 0:
                    v += goal_delta(goals, gpub, gpriv, meta, o, 0, 0.0, 0.0,
                                    -float(tiles[tk[o, t, K.K_KIND], K.T_PRICE]), 1.0, gw, gwp,
                                    gm)
        vals[i] = v
    return legal[pick_near(vals, n, rng, near)]


@njit(cache=True, _nrt=False)
def choose_arrays(code, params, kr, meta, opts, tiles, goals, lines, consts, geo, market,
                  supply, gpub, goffer, gpriv, pl, tk, grid, kc, kt, pd, legal, n, rng, cells,
                  w):
    """Strategy ``code`` (0 random, 1 valued) with parameter row ``params[kr]``; the batch
    loop's entry point. ``cells`` int64[CELLS], ``w`` float64[WORK] scratch."""
    if code == 0:
        return legal[rand_below(rng, n)]
    return valued_arrays(meta, opts, tiles, goals, lines, consts, geo, market, supply, gpub,
                         goffer, gpriv, pl, tk, grid, kc, kt, pd, legal, n, rng, params, kr,
                         cells, w)


@njit(cache=True)
def choose_scripted(code, params, k, s, legal, n, rng):
    """The action of bot ``code`` with parameter row ``params[k]`` in ``s`` (legal actions
    ``legal[:n]``); the one bot signature, docs/house-pattern.md §3."""
    cells = np.zeros(CELLS, np.int64)
    w = np.zeros(WORK, np.float64)
    kt, pd = derived_arrays(s)
    return choose_arrays(code, params, k, s.meta, s.opts, s.tiles, s.goals, s.lines, s.consts,
                         s.geo, s.market, s.supply, s.gpub, s.goffer, s.gpriv, s.pl, s.tk,
                         s.grid, s.kc, kt, pd, legal, n, rng, cells, w)


def params_matrix(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``int64[k]`` and parameter rows ``float64[k, N_PARAMS]`` of the named strategies."""
    return common.params_matrix(STRATEGIES, N_PARAMS, names)


# the one bot entry point ``choose`` (docs/house-pattern.md §3) and the search bot ``mcts``
# the rows tuned by self-play (``boardsim train-bot``), data in this package's tuned.json
common.add_tuned(STRATEGIES, Path(__file__).parent)
choose = common.install_bots(SuburbiaState, STRATEGIES, N_PARAMS, choose_scripted, K.NUM_ACTIONS,
                             playout="commercial", budget=50,
                             search_values=dict(budget=32))
