"""Province scripted bots (spec §9.1), numba functions of (state, legal actions, rng, params).

Two kernels: ``random_bot`` (uniform over the legal actions) and ``plan_bot``, a one-turn
planner whose behaviour is a parameter vector (data). In the work phase it scores every move
set by the best end-of-turn plan it allows (one build, reached through the Union or by grinding, and Grind of the
leftover labor), minus a denial term (the VP the opponent could build next turn from the positions the
move leaves), plus the face-up goal if the plan claims it; it may first take the Lender token if
borrowing raises that score enough. In the spending phase it builds the planned structure (using
the Union to reach it), repays the Lender, grinds leftover labor, hires sailors, then ends the
turn. The named strategies are parameter vectors, so a designer can add one without code.
"""

import numpy as np
from numba import njit

from sim.core.game import StrategySpec
from sim.core.rng import rand_below
from sim.province import constants as K
from sim.province.kernels import (
    ProvinceState,
    access_b,
    borrowing,
    cst,
    movable_mask_b,
    opt,
    owned_count,
    owns,
    sd,
    supply_of,
)
from strategies import common

# parameter slots of plan_bot
PARAM_NAMES = (
    "w_vp",           # value of one VP from a build
    "b_lender", "b_bank", "b_camp", "b_village", "b_mill", "b_smithy", "b_union", "b_harbor",
    "copy_factor",    # multiplier of the structure bonus for a 0-VP copy
    "w_coin",         # value of a coin held at the end of the turn
    "w_deny",         # weight of the VP the opponent could build next turn (subtracted)
    "w_goal",         # value of claiming the face-up goal token this turn
    "borrow_min",     # take the Lender when borrowing raises the turn's value by >= this
    "steal_ok",       # 1: may take the token from an opponent who holds it
    "repay_reserve",  # repay when coins >= repay cost + this (-1: only once the end is triggered)
    "hire",           # 1: hire a sailor whenever legal
    "grind",          # 1: grind leftover labor
    "w_struct",       # value of any build (progress to the 7-structure end, tie-break)
    "coin_cap",       # coins above this are worth a tenth of ``w_coin`` (no hoarding)
    "late_guard",     # no borrowing once the end is near: <= this many goals or types left
)
N_PARAMS = len(PARAM_NAMES)
(P_VP, P_B0, P_COPY, P_COIN, P_DENY, P_GOAL, P_BORROW, P_STEAL, P_REPAY, P_HIRE, P_GRIND,
 P_STRUCT, P_CAP, P_LATE) = (0, 1, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)


def _params(**kw) -> tuple:
    return common.param_vector(PARAM_NAMES, dict(w_vp=10, copy_factor=1, w_coin=0.3, borrow_min=1e9, repay_reserve=0, grind=1,
                w_struct=1, coin_cap=8), **kw)


_GREEDY = dict(b_lender=1, b_bank=1, b_camp=2, b_village=1, b_mill=2, b_smithy=1, b_union=1,
               b_harbor=1)
# code 0: random_bot; code 1: plan_bot with the vector below
STRATEGIES = {
    "random": StrategySpec("random", 0, "uniform over the legal actions (spec §9.1 bot 1)"),
    "greedy": StrategySpec(
        "greedy", 1,
        "spec §9.1 bot 2: the move set that makes the most valuable build affordable now; "
        "unbuilt types first, then the unlockers Camp and Mill, then anything; grinds leftovers",
        _params(**_GREEDY, w_coin=0.3), PARAM_NAMES),
    "denial": StrategySpec(
        "denial", 1,
        "spec §9.1 bot 3: greedy, but scores each move set minus the VP the opponent could "
        "build next turn from the positions it leaves (stacks that starve them)",
        _params(**_GREEDY, w_coin=0.3, w_deny=6), PARAM_NAMES),
    "engine": StrategySpec(
        "engine", 1,
        "spec §9.1 bot 4: rushes Camp then Village and Mill then Smithy for extra workers and "
        "labor, then takes the 2-VP structures; hires sailors",
        _params(b_lender=0, b_bank=2, b_camp=14, b_village=14, b_mill=14, b_smithy=12,
                b_union=1, b_harbor=6, copy_factor=1, w_coin=0.2, hire=1), PARAM_NAMES),
    "lender": StrategySpec(
        "lender", 1,
        "spec §9.1 bot 5: builds the Lender early, borrows when the opponent's structures "
        "raise this turn's value by 0.8 VP (not when one goal token or one structure type is "
        "left), steals the token, repays when coins >= 3 + 2",
        _params(**dict(_GREEDY, b_lender=12, b_bank=4), w_coin=0.3, borrow_min=8, steal_ok=1,
                repay_reserve=2, late_guard=1), PARAM_NAMES),
    "sniper": StrategySpec(
        "sniper", 1,
        "spec §9.1 bot 6: greedy, but claiming the face-up goal token this turn is worth 2.5 VP",
        _params(**_GREEDY, w_coin=0.3, w_goal=25), PARAM_NAMES),
}
for _name, _spec in STRATEGIES.items():
    assert _spec.code == 0 or len(_spec.params) == N_PARAMS, _name


@njit(cache=True, inline="always")
def random_bot(x, legal, n, rng):
    return legal[rand_below(rng, n)]


@njit(cache=True, inline="always")
def _goal_met(x, c, g, k, end_c, grinds, moved, gained):
    """Would the plan (build ``k`` or -1, end with ``end_c`` coins ...) meet goal ``g``?"""
    cond = x[K.X_GD + 2 * g]
    t = x[K.X_GD + 2 * g + 1]
    if cond == K.G_COINS_EOT:
        return end_c >= t
    if cond == K.G_LABOR_GAINED:
        return gained >= t
    if cond == K.G_MOVED:
        return moved >= t
    if cond == K.G_GRINDS:
        return grinds >= t
    if cond == K.G_STRUCTS:
        return owned_count(x, c) + (1 if k >= 0 else 0) >= t
    if cond == K.G_VP_FIRST:
        if k >= 0 and sd(x, k, K.S_VP1) >= t:
            return True
        for j in range(K.NS):
            if owns(x, c, j) and sd(x, j, K.S_VP1) >= t:
                return True
        return False
    if cond == K.G_COPY:
        return k >= 0 and x[K.X_FB + k] >= 0
    if cond == K.G_ARROWS:
        n = 0
        for j in range(K.NS):
            pre = sd(x, j, K.S_PRE)
            if pre >= 0 and (owns(x, c, j) or j == k) and (owns(x, c, pre) or pre == k):
                n += 1
        return n >= t
    return False


@njit(cache=True, inline="always")
def best_plan(x, c, lab, cn, moved, gained, bor, p, r):
    """Best end-of-turn plan from ``lab`` labor and ``cn`` coins: (value, structure or -1)."""
    o = 1 - c
    union_ok = access_b(x, c, K.UNION, bor)
    uc = cst(x, K.C_UNION_C)
    ul = cst(x, K.C_UNION_L)
    gl = cst(x, K.C_GRIND_L)
    gc = cst(x, K.C_GRIND_C)
    g = -1
    if x[K.M_GNEXT] < x[K.M_GN]:
        g = x[K.X_GS + x[K.M_GNEXT]]
    can_build = x[K.M_BUILT] == 0 and owned_count(x, c) < cst(x, K.C_TOKENS)
    best_v = -1e18
    best_k = -1
    for k in range(-1, K.NS):
        lab2 = lab
        cn2 = cn
        if k >= 0:
            if not can_build or owns(x, c, k):
                continue
            pre = sd(x, k, K.S_PRE)
            if pre >= 0 and not owns(x, c, pre) and not (
                    opt(x, K.O_BPREREQ) == 1 and access_b(x, c, pre, bor)):
                continue
            u = 0
            gr = 0
            need_l = sd(x, k, K.S_L)
            need_c = sd(x, k, K.S_C)
            if lab < need_l:  # Union coins into labor
                if not union_ok:
                    continue
                u = (need_l - lab + ul - 1) // ul
            elif cn < need_c and gc > 0:  # grind spare labor into coins
                gr = (need_c - cn + gc - 1) // gc
                if lab - gr * gl < need_l or gr * gc > opt(x, K.O_COIN_TOTAL) - cn - x[K.X_COINS + o]:
                    continue
            if cn - u * uc + gr * gc < need_c:
                continue
            lab2 = lab + u * ul - gr * gl - need_l
            cn2 = cn - u * uc + gr * gc - need_c
        ng = 0
        if p[r, P_GRIND] > 0:
            ng = lab2 // gl
            sup = opt(x, K.O_COIN_TOTAL) - cn2 - x[K.X_COINS + o]
            if gc > 0 and ng * gc > sup:
                ng = sup // gc
        end_c = cn2 + ng * gc
        if end_c > p[r, P_CAP]:
            v = p[r, P_COIN] * (p[r, P_CAP] + 0.1 * (end_c - p[r, P_CAP]))
        else:
            v = p[r, P_COIN] * end_c
        if k >= 0:
            v += p[r, P_STRUCT]
            if x[K.X_FB + k] < 0:
                v += p[r, P_VP] * sd(x, k, K.S_VP1) + p[r, P_B0 + k]
            else:
                v += p[r, P_VP] * sd(x, k, K.S_VP2) + p[r, P_B0 + k] * p[r, P_COPY]
        if g >= 0 and p[r, P_GOAL] != 0.0 and _goal_met(
                x, c, g, k, end_c, x[K.M_GRINDS] + ng, moved, gained):
            v += p[r, P_GOAL]
        if v > best_v:
            best_v = v
            best_k = k
    return best_v, best_k


@njit(cache=True, inline="always")
def opp_best_vp(x, c, m, cn_after):
    """VP the opponent could build next turn after ``c`` moves mask ``m`` (own access only)."""
    o = 1 - c
    if owned_count(x, o) >= cst(x, K.C_TOKENS):
        return 0
    la = 0
    ca = 0
    for w in range(K.W_SAILOR0 + 6):
        q = x[K.X_POS + w]
        if q < 0:
            continue
        if w < K.W_SAILOR0:
            mine = (m >> w) & 1 == 1
        else:
            mine = (w - K.W_SAILOR0) // 3 == c and (m >> (5 + (w - K.W_SAILOR0) % 3)) & 1 == 1
        if mine:
            q = (q + 1) % 3
        if w == K.W_YELLOW and not owns(x, o, K.CAMP):
            continue
        if w == K.W_ORANGE and not owns(x, o, K.VILLAGE):
            continue
        if w >= K.W_SAILOR0 and (w - K.W_SAILOR0) // 3 != o:
            continue
        if (q + 1) % 3 == K.SP_COIN:
            ca += 2 if owns(x, o, K.BANK) else 1
        else:
            la += 2 if (owns(x, o, K.SMITHY) and opt(x, K.O_SMITHY) == 0) else 1
    if owns(x, o, K.MILL):
        la += cst(x, K.C_MILL)
    sup = opt(x, K.O_COIN_TOTAL) - cn_after - x[K.X_COINS + o]
    oc = x[K.X_COINS + o] + (ca if ca < sup else sup)
    best = 0
    uok = owns(x, o, K.UNION)
    for k in range(K.NS):
        if owns(x, o, k):
            continue
        pre = sd(x, k, K.S_PRE)
        if pre >= 0 and not owns(x, o, pre):
            continue
        u = 0
        if la < sd(x, k, K.S_L):
            if not uok:
                continue
            u = (sd(x, k, K.S_L) - la + cst(x, K.C_UNION_L) - 1) // cst(x, K.C_UNION_L)
        if oc - u * cst(x, K.C_UNION_C) < sd(x, k, K.S_C):
            continue
        v = sd(x, k, K.S_VP1) if x[K.X_FB + k] < 0 else sd(x, k, K.S_VP2)
        if v > best:
            best = v
    return best


@njit(cache=True, _nrt=False)
def best_move(x, c, mv, bor, lab0, cn0, p, r):
    """Best move mask among the non-empty submasks of ``mv``: (value, mask)."""
    cy = 2 if access_b(x, c, K.BANK, bor) else 1
    ly = 2 if (opt(x, K.O_SMITHY) == 0 and access_b(x, c, K.SMITHY, bor)) else 1
    sup = supply_of(x) - (cn0 - x[K.X_COINS + c])
    best_v = -1e18
    best_m = 0
    sub = 0
    while True:
        sub = (sub - mv) & mv
        if sub == 0:
            break
        lab = lab0
        cg = 0
        cnt = 0
        gain = 0
        for i in range(8):
            if (sub >> i) & 1 == 0:
                continue
            w = i if i < 5 else K.W_SAILOR0 + 3 * c + (i - 5)
            cnt += 1
            if (x[K.X_POS + w] + 1) % 3 == K.SP_COIN:
                cg += cy
            else:
                lab += ly
                gain += ly
        cn = cn0 + (cg if cg < sup else sup)
        v, _k = best_plan(x, c, lab, cn, x[K.M_MOVED] + cnt, x[K.M_GAINED] + gain, bor, p, r)
        if p[r, P_DENY] != 0.0:
            v -= p[r, P_DENY] * opp_best_vp(x, c, sub, cn)
        if v > best_v:
            best_v = v
            best_m = sub
    return best_v, best_m


@njit(cache=True, _nrt=False)
def plan_bot(x, legal, n, rng, p, r):
    """One-turn planner over the parameter vector ``p[r]`` (``p`` float64[k, N_PARAMS], see
    PARAM_NAMES; rows are indexed in place, not sliced: no reference counting)."""
    c = x[K.M_CUR]
    coins = x[K.X_COINS + c]
    has_take = False
    has_repay = False
    for i in range(n):
        if legal[i] == K.A_TAKE:
            has_take = True
        elif legal[i] == K.A_REPAY:
            has_repay = True
    work = x[K.M_PHASE] == K.PH_WORK
    if has_repay and (x[K.M_TRIG] != 0 or (
            not work and p[r, P_REPAY] >= 0 and coins >= cst(x, K.C_REPAY) + p[r, P_REPAY])):
        return K.A_REPAY
    if work:
        bor = borrowing(x, c)
        mv = movable_mask_b(x, c, bor)
        v0, m0 = best_move(x, c, mv, bor, x[K.M_LABOR], coins, p, r)
        late = x[K.M_GN] - x[K.M_GNEXT] <= p[r, P_LATE]
        types = 0
        for k in range(K.NS):
            if x[K.X_FB + k] >= 0:
                types += 1
        late = late or K.NS - types <= p[r, P_LATE] or owned_count(x, 1 - c) >= cst(
            x, K.C_TOKENS) - p[r, P_LATE] or owned_count(x, c) >= cst(x, K.C_TOKENS) - p[r, P_LATE]
        if has_take and p[r, P_BORROW] < 1e8 and x[K.M_TRIG] == 0 and not late and (
                x[K.M_LHOLDER] == -1 or p[r, P_STEAL] > 0):
            # hypothetical borrow: access to the opponent's structures and their incomes now
            o = 1 - c
            lab = x[K.M_LABOR]
            cn = coins
            if owns(x, o, K.MILL) and not owns(x, c, K.MILL):
                lab += cst(x, K.C_MILL)
            if opt(x, K.O_SMITHY) == 1 and owns(x, o, K.SMITHY) and not owns(x, c, K.SMITHY):
                lab += 1
            if (owns(x, o, K.HARBOR) and not owns(x, c, K.HARBOR) and opt(x, K.O_BHU) == 1
                    and (opt(x, K.O_HBEN) == 0 or x[K.X_FB + K.HARBOR] == o)):
                if x[K.M_SHIPS] == 0:
                    lab += cst(x, K.C_HARBOR_L)
                elif x[K.M_SHIPS] == 2 and supply_of(x) > 0:
                    cn += cst(x, K.C_HARBOR_C)
            v1, _m1 = best_move(x, c, movable_mask_b(x, c, True), True, lab, cn, p, r)
            if v1 - v0 >= p[r, P_BORROW]:
                return K.A_TAKE
        return m0
    # spending phase
    if x[K.M_BUILT] == 0:
        _v, k = best_plan(x, c, x[K.M_LABOR], coins, x[K.M_MOVED], x[K.M_GAINED], borrowing(x, c), p, r)
        if k >= 0:
            for i in range(n):
                if legal[i] == K.A_BUILD + k:
                    return K.A_BUILD + k
            step = K.A_UNION if x[K.M_LABOR] < sd(x, k, K.S_L) else K.A_GRIND
            for i in range(n):
                if legal[i] == step:
                    return step
    has_grind = False
    has_hire = False
    for i in range(n):
        if legal[i] == K.A_GRIND:
            has_grind = True
        elif legal[i] == K.A_HIRE:
            has_hire = True
    if has_grind and p[r, P_GRIND] > 0:
        return K.A_GRIND
    if has_hire and p[r, P_HIRE] > 0:
        keep = False
        if x[K.M_GNEXT] < x[K.M_GN]:
            g = x[K.X_GS + x[K.M_GNEXT]]
            t = x[K.X_GD + 2 * g + 1]
            keep = (x[K.X_GD + 2 * g] == K.G_COINS_EOT and coins >= t
                    and coins - cst(x, K.C_SAILOR_COST) < t)
        if not keep:
            return K.A_HIRE
    return K.A_END


@njit(cache=True, inline="always")
def choose_x(code, params, r, x, legal, n, rng):
    """Dispatch: strategy ``code`` (0 random, 1 plan_bot) with parameter row ``params[r]``
    (``params`` float64[k, N_PARAMS])."""
    if code == 0:
        return random_bot(x, legal, n, rng)
    return plan_bot(x, legal, n, rng, params, r)


def params_matrix(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``int64[k]`` and parameter rows ``float64[k, N_PARAMS]`` of the named strategies."""
    return common.params_matrix(STRATEGIES, N_PARAMS, names)


@njit(cache=True)
def choose(code, params, k, s, legal, n, rng):
    """The action of bot ``code`` with parameter row ``params[k]`` in ``s`` (legal actions
    ``legal[:n]``); the one bot signature, docs/house-pattern.md §3."""
    return choose_x(code, params, k, s.x, legal, n, rng)


common.bots_for(ProvinceState, choose)
