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

from pathlib import Path

import numpy as np
from numba import njit, types

from sim.core.bits import lowest_bit
from sim.core.game import StrategySpec
from sim.core.rng import next_u64, rand_below
from sim.core.stack import stack_array
from sim.province import constants as K
from sim.province.kernels import (
    ProvinceState,
    access_b,
    apply_x,
    borrowing,
    cst,
    legal_x,
    movable_mask_b,
    opt,
    owned_count,
    owns,
    score_of,
    sd,
    supply_of,
    workers_of,
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
    "w_save",         # weight of the best build the turn's leftover coins make affordable next
    #                   turn (saving for a structure two turns away; 0: never look ahead)
    "end_lose",       # subtracted from a plan that ends the game while behind (a build that
    #                   does is never played while another action exists)
    "end_win",        # added to a plan that ends the game while ahead
    "debt_coin",      # value of each coin of the Lender repayment, counted against a borrow
    #                   (near the end the -2 VP penalty is counted instead)
    "noise",          # near-ties: work-phase moves within this value of the best are drawn
    #                   uniformly (from the bot generator; 0: the first best move)
    "stall_turns",    # the denial term is dropped once the game has played this many turns
    #                   per structure owned by both seats plus one (a stall: nobody builds;
    #                   0: never dropped)
    "move_guard",     # MOVE end guard: with at most this many goal tokens left, a worker MOVE
    #                   whose goal cascade would end the game with the seat losing is replaced
    #                   (0: no guard)
)
N_PARAMS = len(PARAM_NAMES)
(P_VP, P_B0, P_COPY, P_COIN, P_DENY, P_GOAL, P_BORROW, P_STEAL, P_REPAY, P_HIRE, P_GRIND,
 P_STRUCT, P_CAP, P_LATE, P_SAVE, P_END_LOSE, P_END_WIN, P_DEBT, P_NOISE, P_STALL,
 P_MGUARD) = (0, 1, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27)
assert P_MGUARD == N_PARAMS - 1


def _params(**kw) -> tuple:
    return common.param_vector(
        PARAM_NAMES, dict(w_vp=10, copy_factor=1, w_coin=0.3, borrow_min=1e9, repay_reserve=0,
                          grind=1, w_struct=1, coin_cap=8, w_save=0.4, end_lose=1000,
                          end_win=30, debt_coin=2.5, noise=0.5, stall_turns=4,
                          move_guard=3), **kw)


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


@njit(cache=True)
def random_bot(x, legal, n, rng):
    return legal[rand_below(rng, n)]


@njit(cache=True)
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


# Near-ties are drawn from a local 64-bit LCG seeded once per decision from the bot generator:
# writing the generator's array inside the planning loops would make the compiler reload every
# state read after each draw (it cannot tell the two arrays apart), a third of the bot's speed.
_LCG_A = np.uint64(6364136223846793005)
_LCG_C = np.uint64(1442695040888963407)


@njit(cache=True)
def _lcg(u):
    """The next state of the local generator ``u`` (uint64)."""
    return u * _LCG_A + _LCG_C


@njit(cache=True)
def _lcg_below(u, n):
    """An int in [0, n) from the local generator state ``u`` (its high 32 bits)."""
    return ((u >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32)


@njit(cache=True)
def _recip(d):
    """The multiplier of ``_div`` for the divisor ``d``: ``2**32 // d + 1`` for 0 < d < 4096,
    else 0 (``_div`` then divides)."""
    if 0 < d < 4096:
        return (1 << 32) // d + 1
    return 0


@njit(cache=True)
def recips(x):
    """``_recip`` of the Union's labor, the Grind's labor and the Grind's coins, the divisors of
    ``best_plan`` (once per decision: a division costs several multiplications)."""
    return _recip(cst(x, K.C_UNION_L)), _recip(cst(x, K.C_GRIND_L)), _recip(cst(x, K.C_GRIND_C))


@njit(cache=True)
def _div(a, d, m):
    """``a // d`` with ``m = _recip(d)``: a multiplication and a shift for 0 <= a < 2**20,
    exact there (the error ``a * (d * m - 2**32) / 2**32`` stays below 1/d as ``a * d <
    2**32``); Python's floor division otherwise (``m`` 0, or ``a`` out of that range)."""
    if m != 0 and 0 <= a < (1 << 20):
        return (a * m) >> 32
    return a // d


@njit(cache=True)
def _build_value(x, k, p, r):
    """Value of building ``k`` (its VP for a first build or a copy, its bonus, progress)."""
    if x[K.X_FB + k] < 0:
        return p[r, P_STRUCT] + p[r, P_VP] * sd(x, k, K.S_VP1) + p[r, P_B0 + k]
    return p[r, P_STRUCT] + p[r, P_VP] * sd(x, k, K.S_VP2) + p[r, P_B0 + k] * p[r, P_COPY]


@njit(cache=True)
def near_end(x, c):
    """Is the end trigger (docs §7) one build or one goal away for ``c``? The planner's cheap
    pre-check for its estimate (``may_end`` is the exact one)."""
    if x[K.M_TRIG] != K.END_NONE:
        return False
    if owned_count(x, c) + 1 >= cst(x, K.C_TOKENS) or x[K.M_GNEXT] + 1 >= x[K.M_GN]:
        return True
    if opt(x, K.O_ALLTYPES) == 1:
        left = 0
        for k in range(K.NS):
            left += x[K.X_FB + k] < 0
        return left <= 1
    return False


@njit(cache=True)
def _ahead(x, c, mine, theirs, my_structs, os_):
    """+1 if ``c`` with ``mine`` VP and ``my_structs`` structures beats the opponent's
    ``theirs`` VP and ``os_`` structures (tie-breaks of §5.10), -1 if it loses, 0 on a draw."""
    if mine != theirs:
        return 1 if mine > theirs else -1
    if my_structs != os_:
        return 1 if my_structs > os_ else -1
    if opt(x, K.O_WTIE) == 1:
        a = workers_of(x, c)
        b = workers_of(x, 1 - c)
        if a != b:
            return 1 if a > b else -1
    return 0


@njit(cache=True)
def end_info(x, c):
    """What ``best_plan`` reads near the end, the same for every plan of a decision: (``near_end(x,
    c)``, ``c``'s VP, the opponent's VP, ``c``'s structures, the opponent's structures, the
    number of structure types nobody has built; zeros when not near the end, where
    ``best_plan`` reads none of them)."""
    if not near_end(x, c):
        return False, 0, 0, 0, 0, 0
    left = 0
    for k in range(K.NS):
        left += x[K.X_FB + k] < 0
    return True, score_of(x, c), score_of(x, 1 - c), owned_count(x, c), owned_count(x, 1 - c), left


@njit(cache=True)
def best_plan(x, c, lab, cn, moved, gained, bor, p, r, fut, ei, cand, rcp):
    """Best end-of-turn plan from ``lab`` labor and ``cn`` coins: (value, structure or -1).

    ``fut``: (coins needed, value, structure) of the best and second-best build next turn
    (``future_targets``); ``ei``: ``end_info(x, c)``; ``cand``: ``candidates(x, c, bor)``;
    ``rcp``: ``recips(x)``, or (0, 0, 0) to divide.
    """
    r_ul, r_gl, r_gc = rcp
    ending, my_vp, opp_vp, owned, opp_owned, types_left = ei
    o = 1 - c
    union_ok = access_b(x, c, K.UNION, bor)
    uc = cst(x, K.C_UNION_C)
    ul = cst(x, K.C_UNION_L)
    gl = cst(x, K.C_GRIND_L)
    gc = cst(x, K.C_GRIND_C)
    g = -1
    if x[K.M_GNEXT] < x[K.M_GN]:
        g = x[K.X_GS + x[K.M_GNEXT]]
    n1, v1, j1, n2, v2, j2 = fut
    best_v = -1e18
    best_k = -1
    mm = (cand << 1) | 1  # bit 0: the plan without a build (k = -1); bit k + 1: build k
    while mm != 0:
        k = lowest_bit(mm) - 1  # ascending, as the plans were scored before
        mm &= mm - 1
        lab2 = lab
        cn2 = cn
        if k >= 0:
            u = 0
            gr = 0
            need_l = sd(x, k, K.S_L)
            need_c = sd(x, k, K.S_C)
            if lab < need_l:  # Union coins into labor
                if not union_ok:
                    continue
                u = _div(need_l - lab + ul - 1, ul, r_ul)
            elif cn < need_c and gc > 0:  # grind spare labor into coins
                gr = _div(need_c - cn + gc - 1, gc, r_gc)
                if lab - gr * gl < need_l or gr * gc > opt(x, K.O_COIN_TOTAL) - cn - x[K.X_COINS + o]:
                    continue
            if cn - u * uc + gr * gc < need_c:
                continue
            lab2 = lab + u * ul - gr * gl - need_l
            cn2 = cn - u * uc + gr * gc - need_c
        ng = 0
        if p[r, P_GRIND] > 0:
            ng = _div(lab2, gl, r_gl)
            sup = opt(x, K.O_COIN_TOTAL) - cn2 - x[K.X_COINS + o]
            if gc > 0 and ng * gc > sup:
                ng = _div(sup, gc, r_gc)
        end_c = cn2 + ng * gc
        if end_c > p[r, P_CAP]:
            v = p[r, P_COIN] * (p[r, P_CAP] + 0.1 * (end_c - p[r, P_CAP]))
        else:
            v = p[r, P_COIN] * end_c
        if k >= 0:
            v += _build_value(x, k, p, r)
        met = False
        if g >= 0 and (p[r, P_GOAL] != 0.0 or ending):
            met = _goal_met(x, c, g, k, end_c, x[K.M_GRINDS] + ng, moved, gained)
            if met:
                v += p[r, P_GOAL]
        trig = False
        if ending:
            # does this plan end the game (docs §7), and is the planner then ahead?
            ns = owned + (1 if k >= 0 else 0)
            trig = ns >= cst(x, K.C_TOKENS) or (met and x[K.M_GNEXT] + 1 >= x[K.M_GN])
            if not trig and opt(x, K.O_ALLTYPES) == 1:
                # every type built once this plan is played
                trig = types_left == 0 or (types_left == 1 and k >= 0 and x[K.X_FB + k] < 0)
            if trig:
                mine = my_vp + (1 if met else 0)
                if k >= 0:
                    mine += sd(x, k, K.S_VP1) if x[K.X_FB + k] < 0 else sd(x, k, K.S_VP2)
                if x[K.M_LHOLDER] == c and end_c >= cst(x, K.C_REPAY) and (
                        x[K.M_LTURN] != x[K.M_TURN]):
                    mine += cst(x, K.C_PENALTY)  # it repays before the end
                res = _ahead(x, c, mine, opp_vp, ns, opp_owned)
                if res < 0:
                    v -= p[r, P_END_LOSE]
                elif res > 0:
                    v += p[r, P_END_WIN]
        if not trig and p[r, P_SAVE] > 0.0:
            # the best build next turn that the coins kept make affordable
            if j1 >= 0 and j1 != k and end_c >= n1:
                v += p[r, P_SAVE] * v1
            elif j2 >= 0 and j2 != k and end_c >= n2:
                v += p[r, P_SAVE] * v2
        if v > best_v:
            best_v = v
            best_k = k
    return best_v, best_k


@njit(cache=True)
def candidates(x, c, bor):
    """Bit k: ``c`` may build structure ``k`` this turn, resources aside (not built yet this
    turn, a free token, not owned, its prerequisite owned or, under ``borrowed_prereq``,
    borrowed)."""
    if x[K.M_BUILT] != 0 or owned_count(x, c) >= cst(x, K.C_TOKENS):
        return 0
    m = 0
    for k in range(K.NS):
        if owns(x, c, k):
            continue
        pre = sd(x, k, K.S_PRE)
        if pre >= 0 and not owns(x, c, pre) and not (
                opt(x, K.O_BPREREQ) == 1 and access_b(x, c, pre, bor)):
            continue
        m |= 1 << k
    return m


@njit(cache=True)
def future_targets(x, c, p, r):
    """The two most valuable builds ``c`` could make next turn (prerequisites owned, a free
    token) as ``(coins needed at the end of this turn, value, structure)`` each, structure -1
    when there is none. Next turn's income is estimated from the workers ``c`` may move: each
    lands on the coin space one time in three (Bank, Smithy, Mill counted; Union converts)."""
    n1 = 1e9
    v1 = 0.0
    j1 = -1
    n2 = 1e9
    v2 = 0.0
    j2 = -1
    if p[r, P_SAVE] <= 0.0 or owned_count(x, c) + 1 >= cst(x, K.C_TOKENS):
        return n1, v1, j1, n2, v2, j2
    nw = workers_of(x, c)
    cy = 2.0 if owns(x, c, K.BANK) else 1.0
    ly = 2.0 if (opt(x, K.O_SMITHY) == 0 and owns(x, c, K.SMITHY)) else 1.0
    inc_c = nw * cy / 3.0
    inc_l = nw * 2.0 * ly / 3.0
    if owns(x, c, K.MILL):
        inc_l += cst(x, K.C_MILL)
    if opt(x, K.O_SMITHY) == 1 and owns(x, c, K.SMITHY):
        inc_l += 1.0
    uok = owns(x, c, K.UNION)
    for k in range(K.NS):
        if owns(x, c, k):
            continue
        pre = sd(x, k, K.S_PRE)
        if pre >= 0 and not owns(x, c, pre):
            continue
        short = sd(x, k, K.S_L) - inc_l
        u = 0.0
        if short > 0.0:
            if not uok:
                continue
            u = np.ceil(short / cst(x, K.C_UNION_L))
        need = sd(x, k, K.S_C) + u * cst(x, K.C_UNION_C) - inc_c
        v = _build_value(x, k, p, r)
        if v > v1:
            n2, v2, j2 = n1, v1, j1
            n1, v1, j1 = need, v, k
        elif v > v2:
            n2, v2, j2 = need, v, k
    return n1, v1, j1, n2, v2, j2


@njit(cache=True)
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


@njit(cache=True)
def _pick_bits(m, k, u):
    """``k`` of the set bits of ``m``, drawn uniformly (selection sampling) from the local
    generator ``u`` (the lowest ``k`` when ``u`` is 0): (mask, new ``u``)."""
    left = 0
    mm = m
    while mm != 0:
        left += 1
        mm &= mm - 1
    out = 0
    for i in range(8):
        if k == 0:
            break
        if (m >> i) & 1 == 0:
            continue
        if u == 0:
            take = True
        else:
            u = _lcg(u)
            take = _lcg_below(u, left) < k
        if take:
            out |= 1 << i
            k -= 1
        left -= 1
    return out, u


@njit(cache=True)
def _near_tie(v, best_v, noise, ties, u):
    """One move of value ``v`` against the best so far (``best_v``, ``ties`` moves within
    ``noise`` of it): a move better by more than ``noise`` is taken and starts a new tie set;
    one within ``noise`` joins the set and is taken with probability 1/ties (reservoir draw
    from the local generator ``u``). Returns (take?, new best value, ties, ``u``)."""
    if v > best_v + noise:
        return True, v, 1, u
    if noise > 0.0 and v >= best_v - noise:
        ties += 1
        u = _lcg(u)
        return _lcg_below(u, ties) == 0, (v if v > best_v else best_v), ties, u
    return False, best_v, ties, u


@njit(cache=True, _nrt=False)
def best_move(x, c, mv, bor, lab0, cn0, p, r, fut, ei, rng):
    """Best move mask among the non-empty submasks of ``mv``: (value, mask). Moves within
    ``noise`` of the best value are near-ties, one drawn uniformly (a local generator seeded
    with one draw from ``rng``).

    Without the denial term a move's value depends only on how many of its workers land on a
    labor space and how many on the coin space, so those pairs are scored, not the masks (the
    same values, far fewer plans), and the mask is then drawn among the workers of the chosen
    pair."""
    noise = p[r, P_NOISE]
    cy = 2 if access_b(x, c, K.BANK, bor) else 1
    ly = 2 if (opt(x, K.O_SMITHY) == 0 and access_b(x, c, K.SMITHY, bor)) else 1
    sup = supply_of(x) - (cn0 - x[K.X_COINS + c])
    best_v = -1e18
    best_m = 0
    ties = 1
    u = next_u64(rng) | np.uint64(1) if noise > 0.0 else np.uint64(0)
    cand = candidates(x, c, bor)
    rcp = recips(x)
    deny = p[r, P_DENY]
    if deny != 0.0 and p[r, P_STALL] > 0.0 and x[K.M_TURN] >= p[r, P_STALL] * (
            1 + owned_count(x, c) + owned_count(x, 1 - c)):
        deny = 0.0  # a stall: denying the opponent would keep both seats from building
    if deny == 0.0:
        lm = 0  # movable workers that land on a labor space
        cm = 0  # ... on the coin space
        for i in range(8):
            if (mv >> i) & 1 == 0:
                continue
            w = i if i < 5 else K.W_SAILOR0 + 3 * c + (i - 5)
            if (x[K.X_POS + w] + 1) % 3 == K.SP_COIN:
                cm |= 1 << i
            else:
                lm |= 1 << i
        n_l = 0
        mm = lm
        while mm != 0:
            n_l += 1
            mm &= mm - 1
        n_c = 0
        mm = cm
        while mm != 0:
            n_c += 1
            mm &= mm - 1
        best_l = 0
        best_c = 0
        for nl in range(n_l + 1):
            for nc in range(n_c + 1):
                if nl + nc == 0:
                    continue
                cg = nc * cy
                cn = cn0 + (cg if cg < sup else sup)
                v, _k = best_plan(x, c, lab0 + nl * ly, cn, x[K.M_MOVED] + nl + nc,
                                  x[K.M_GAINED] + nl * ly, bor, p, r, fut, ei, cand, rcp)
                take, best_v, ties, u = _near_tie(v, best_v, noise, ties, u)
                if take:
                    best_l = nl
                    best_c = nc
        a, u = _pick_bits(lm, best_l, u)
        b, u = _pick_bits(cm, best_c, u)
        return best_v, a | b
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
        v, _k = best_plan(x, c, lab, cn, x[K.M_MOVED] + cnt, x[K.M_GAINED] + gain, bor, p, r,
                          fut, ei, cand, rcp)
        v -= deny * opp_best_vp(x, c, sub, cn)
        take, best_v, ties, u = _near_tie(v, best_v, noise, ties, u)
        if take:
            best_m = sub
    return best_v, best_m


@njit(cache=True)
def may_end(x, c, a):
    """Could the spending action ``a`` (BUILD, GRIND or HIRE) of ``c`` set the end trigger, or,
    once it is set, change the final scores? Conservative (True when unsure) and cheap: a build
    of the last token or the last unbuilt type, or a claim of the face-up goal token after
    which every later token may resolve at once (docs §6, §7)."""
    trig = x[K.M_TRIG] != K.END_NONE
    if a < K.A_GRIND and not trig:
        k = a - K.A_BUILD
        if owned_count(x, c) + 1 >= cst(x, K.C_TOKENS):
            return True
        if opt(x, K.O_ALLTYPES) == 1 and x[K.X_FB + k] < 0:
            last = True
            for j in range(K.NS):
                if j != k and x[K.X_FB + j] < 0:
                    last = False
            if last:
                return True
    i = x[K.M_GNEXT]
    if i >= x[K.M_GN]:
        return False
    g = x[K.X_GS + i]
    cond = x[K.X_GD + 2 * g]
    if a == K.A_GRIND:
        claims = cond == K.G_GRINDS and x[K.M_GRINDS] + 1 >= x[K.X_GD + 2 * g + 1]
    elif a == K.A_HIRE:
        claims = cond == K.G_SAILORS
    else:
        claims = (cond == K.G_STRUCTS or cond == K.G_VP_FIRST or cond == K.G_COPY
                  or cond == K.G_ARROWS or (cond == K.G_LABOR_GAINED and opt(x, K.O_INCB) == 1))
    if not claims:
        return False
    if trig:
        return True
    incb = opt(x, K.O_INCB) == 1 and a < K.A_GRIND
    for j in range(i + 1, x[K.M_GN]):
        g = x[K.X_GS + j]
        cond = x[K.X_GD + 2 * g]
        t = x[K.X_GD + 2 * g + 1]
        if cond == K.G_COINS_EOT or cond == K.G_COPY:
            return False  # never met at a reveal (docs §6)
        if cond == K.G_LABOR_GAINED and x[K.M_GAINED] < t and not incb:
            return False
        if cond == K.G_MOVED and x[K.M_MOVED] < t:
            return False
        if cond == K.G_GRINDS and x[K.M_GRINDS] + (1 if a == K.A_GRIND else 0) < t:
            return False
    return True


_stack_x = stack_array(types.int64, K.N_X)
_stack_rng = stack_array(types.uint64, 1)


@njit(cache=True, _nrt=False)
def ends_losing(x, rng, a):
    """Would the active seat lose a game that ``a`` (then END_TURN) ends now? Played out on a
    copy of ``x`` (the generator copied too; it is only drawn from if the game goes on), on the
    stack: no allocation, no reference counting."""
    c = x[K.M_CUR]
    y = _stack_x()
    for i in range(K.N_X):
        y[i] = x[i]
    rr = _stack_rng()
    rr[0] = rng[0]
    apply_x(y, rr, np.int32(a))
    if y[K.M_PHASE] != K.PH_OVER and a != K.A_END:
        apply_x(y, rr, np.int32(K.A_END))
    if y[K.M_PHASE] != K.PH_OVER or y[K.M_END] == K.END_LIMIT:
        return False
    return y[K.M_WIN] != c and y[K.M_WIN] != K.WIN_DRAW


_stack_legal = stack_array(types.int32, K.NUM_ACTIONS)


@njit(cache=True, _nrt=False)
def move_ends_losing(x, rng, a, params, r):
    """Would the worker MOVE ``a`` of the active seat set the end trigger (a goal cascade that
    empties the stack) and the game then end this turn with the seat losing? Played out on a
    copy of ``x`` (and of the generator): the move, then the seat's own spending choices
    (``plan_bot`` with row ``params[r]``) until its turn ends. On the stack: no allocation."""
    c = x[K.M_CUR]
    y = _stack_x()
    for i in range(K.N_X):
        y[i] = x[i]
    rr = _stack_rng()
    rr[0] = rng[0]
    apply_x(y, rr, np.int32(a))
    if y[K.M_TRIG] == K.END_NONE:
        return False
    leg = _stack_legal()
    for _ in range(64):
        if y[K.M_PHASE] == K.PH_OVER or y[K.M_CUR] != c or y[K.M_PHASE] != K.PH_SPEND:
            break
        n = legal_x(y, leg)
        if n == 0:
            break
        apply_x(y, rr, np.int32(plan_bot(y, leg, n, rr, params, r, 0)))
    if y[K.M_PHASE] != K.PH_OVER or y[K.M_END] == K.END_LIMIT:
        return False
    return y[K.M_WIN] != c and y[K.M_WIN] != K.WIN_DRAW


@njit(cache=True, _nrt=False)
def safe_move(x, rng, a, legal, n, params, r):
    """The MOVE to play instead of ``a`` when ``a`` ends the game losing (``move_ends_losing``):
    the legal MOVE that moves the most workers without ending it so (the first such in
    ``legal``), else ``a``."""
    best = a
    best_k = -1
    for i in range(n):
        m = legal[i]
        if m <= K.A_MOVE or m >= K.A_BUILD or m == a:
            continue
        k = 0
        mm = m
        while mm != 0:
            k += 1
            mm &= mm - 1
        if k > best_k and not move_ends_losing(x, rng, np.int32(m), params, r):
            best = m
            best_k = k
    return best


@njit(cache=True)
def _late(x, c, p, r):
    """No borrowing this late: at most ``late_guard`` goal tokens or structure types left, or
    a seat within ``late_guard`` structures of the end."""
    if x[K.M_GN] - x[K.M_GNEXT] <= p[r, P_LATE]:
        return True
    types = 0
    for k in range(K.NS):
        if x[K.X_FB + k] >= 0:
            types += 1
    return K.NS - types <= p[r, P_LATE] or owned_count(x, 1 - c) >= cst(
        x, K.C_TOKENS) - p[r, P_LATE] or owned_count(x, c) >= cst(x, K.C_TOKENS) - p[r, P_LATE]


@njit(cache=True, _nrt=False)
def plan_bot(x, legal, n, rng, p, r, forbid):
    """One-turn planner over the parameter vector ``p[r]`` (``p`` float64[k, N_PARAMS], see
    PARAM_NAMES; rows are indexed in place, not sliced). ``forbid``: bit ``a - A_BUILD`` set
    for each BUILD, GRIND or HIRE action ``a`` it must not choose (see ``choose_x``)."""
    c = x[K.M_CUR]
    coins = x[K.X_COINS + c]
    # TAKE_LENDER and REPAY_LENDER are the two largest action ids: the last two listed
    has_repay = n > 0 and legal[n - 1] == K.A_REPAY
    has_take = n > 0 and (legal[n - 1] == K.A_TAKE or (n > 1 and legal[n - 2] == K.A_TAKE))
    work = x[K.M_PHASE] == K.PH_WORK
    if has_repay and (x[K.M_TRIG] != 0 or (
            not work and p[r, P_REPAY] >= 0 and coins >= cst(x, K.C_REPAY) + p[r, P_REPAY])):
        return K.A_REPAY
    if work:
        # what every plan of this decision reads, computed once
        ei = end_info(x, c)
        fut = future_targets(x, c, p, r)
        bor = borrowing(x, c)
        mv = movable_mask_b(x, c, bor)
        v0, m0 = best_move(x, c, mv, bor, x[K.M_LABOR], coins, p, r, fut, ei, rng)
        if has_take and p[r, P_BORROW] < 1e8 and x[K.M_TRIG] == 0 and not _late(
                x, c, p, r) and (x[K.M_LHOLDER] == -1 or p[r, P_STEAL] > 0):
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
            v1, _m1 = best_move(x, c, movable_mask_b(x, c, True), True, lab, cn, p, r, fut,
                                ei, rng)
            # the debt: the repayment's coins (twice over when taken from the opponent, who
            # is spared it), or the -2 VP penalty if the game may end before it is repaid
            debt = cst(x, K.C_REPAY) * p[r, P_DEBT]
            if x[K.M_LHOLDER] == o:
                debt += cst(x, K.C_REPAY) * p[r, P_DEBT]
            if ei[0]:  # near the end
                debt = cst(x, K.C_PENALTY) * p[r, P_VP]
            if v1 - v0 - debt >= p[r, P_BORROW]:
                return K.A_TAKE
        return m0
    # spending phase: the legal actions as a bit set (bit a - A_BUILD; END_TURN is not in it)
    lb = 0
    for i in range(n):
        if legal[i] >= K.A_BUILD:
            lb |= 1 << (legal[i] - K.A_BUILD)
    steps = (1 << (K.A_GRIND - K.A_BUILD)) | (1 << (K.A_UNION - K.A_BUILD))
    if x[K.M_BUILT] == 0 and (lb & (((1 << K.NS) - 1) | steps)) != 0:
        # (with no BUILD, GRIND or UNION legal the plan could change nothing)
        bor = borrowing(x, c)
        _v, k = best_plan(x, c, x[K.M_LABOR], coins, x[K.M_MOVED], x[K.M_GAINED], bor, p, r,
                          future_targets(x, c, p, r), end_info(x, c), candidates(x, c, bor),
                          (0, 0, 0))
        if k >= 0 and (forbid >> k) & 1 == 0:
            if (lb >> k) & 1 == 1:
                return K.A_BUILD + k
            step = K.A_UNION if x[K.M_LABOR] < sd(x, k, K.S_L) else K.A_GRIND
            if (lb >> (step - K.A_BUILD)) & 1 == 1:
                return step
    has_grind = (lb >> (K.A_GRIND - K.A_BUILD)) & 1 == 1
    has_hire = (lb >> (K.A_HIRE - K.A_BUILD)) & 1 == 1
    has_grind &= (forbid >> (K.A_GRIND - K.A_BUILD)) & 1 == 0
    has_hire &= (forbid >> (K.A_HIRE - K.A_BUILD)) & 1 == 0
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


@njit(cache=True, _nrt=False)
def choose_x(code, params, r, x, legal, n, rng):
    """Dispatch: strategy ``code`` (0 random, 1 plan_bot) with parameter row ``params[r]``
    (``params`` float64[k, N_PARAMS]).

    The planner never ends the game with a BUILD (nor a GRIND or HIRE that claims the last goal)
    that leaves it losing while END_TURN would not: near the end (``near_end``, or once the
    trigger is set: ``may_end``) such a choice is played out on a copy (``ends_losing``) and, if
    it loses, forbidden and the planner asked again. Nor with a worker MOVE whose goal cascade
    empties the stack: with at most ``move_guard`` goal tokens left, the chosen move is
    played out with the seat's spending after it (``move_ends_losing``) and, if the game then
    ends with the seat losing, replaced by a legal move that does not (``safe_move``).

    Compiled without reference counting and called, not inlined: inlined into a caller that
    counts references (the batch loop), its arguments cost four atomic increments and four
    decrements per decision, about a tenth of a greedy game's time."""
    if code == 0:
        return random_bot(x, legal, n, rng)
    forbid = 0
    for _ in range(K.NS + 2):
        a = plan_bot(x, legal, n, rng, params, r, forbid)
        if K.A_MOVE < a < K.A_BUILD:
            if (x[K.M_TRIG] == K.END_NONE and params[r, P_MGUARD] > 0.0
                    and x[K.M_GN] - x[K.M_GNEXT] <= params[r, P_MGUARD]
                    and move_ends_losing(x, rng, np.int32(a), params, r)):
                return safe_move(x, rng, a, legal, n, params, r)
            return a
        if (a < K.A_BUILD or a > K.A_HIRE or a == K.A_UNION or x[K.M_PHASE] != K.PH_SPEND
                or not may_end(x, x[K.M_CUR], a)):
            return a
        if not ends_losing(x, rng, a) or ends_losing(x, rng, K.A_END):
            return a
        forbid |= 1 << (a - K.A_BUILD)
    return K.A_END


def params_matrix(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``int64[k]`` and parameter rows ``float64[k, N_PARAMS]`` of the named strategies."""
    return common.params_matrix(STRATEGIES, N_PARAMS, names)


@njit(cache=True)
def choose_scripted(code, params, k, s, legal, n, rng):
    """The action of bot ``code`` with parameter row ``params[k]`` in ``s`` (legal actions
    ``legal[:n]``); the one bot signature, docs/house-pattern.md §3."""
    return choose_x(code, params, k, s.x, legal, n, rng)


# the one bot entry point ``choose`` (docs/house-pattern.md §3) and the search bot ``mcts``
# the rows tuned by self-play (``boardsim train-bot``), data in this package's tuned.json;
# ``search`` plays its playouts with ``greedy-tuned``, the ladder's top bot (heads-up against
# it 0.825 [0.785, 0.859] over 400 games against 0.623 with ``denial``'s playouts, and 0.804
# against ``denial``: BENCHMARKS.md, "session 11, Province search")
common.add_tuned(STRATEGIES, Path(__file__).parent)
choose = common.install_bots(ProvinceState, STRATEGIES, N_PARAMS, choose_scripted, K.NUM_ACTIONS,
                             playout="denial", budget=200,
                             search_values=dict(budget=96), search_playout="greedy-tuned")
