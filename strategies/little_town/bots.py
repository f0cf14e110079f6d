"""Little Town scripted bots (spec §10), numba functions of (state, legal actions, rng, params).

Two kernels: ``random_bot`` (uniform over the legal actions, draft picks included) and
``plan_bot``, a one-decision-ahead evaluator: every legal action gets a value in victory-point
equivalents from the parameter vector (cube and coin values, a premium on food while the coming
feeding is not covered, the future worth of a building per remaining round, where to site it,
progress on its own goal cards) and the best is played (actions within ``near_tie`` of the best
drawn at random from the bot generator). Draft picks use a random pick or a building value
table; both are parameters. The named strategies are parameter vectors (data), so a designer
can add one without touching code.

Play patterns (issue #13): the food reserve (``food_reserve``, ``food_per_turn``,
``reserve_coins``): an action that spends coins on cubes (or food cubes) so that the coming
feeding can no longer be covered by food held plus ``coins // buy price`` plus the food expected
from the seat's turns left in the round costs ``food_reserve`` VP per worker left unfed, and a
placement that brings food gains as much; cube outputs are capped at the supply (no Carpenter
paid for with no wood left); the Cathedral is worth ``cath_round`` per end of round to come and
the Residence ``res_round`` times the activations around its best site per end of round to come.
"""

from pathlib import Path

import numpy as np
from numba import njit

from sim.core.game import StrategySpec
from sim.core.rng import next_u64, rand_below
from sim.little_town import constants as K
from sim.little_town.kernels import LittleTownState
from strategies import common

# parameter slots of plan_bot
PARAM_NAMES = (
    "draft_mode",  # 0 random pick, 1 pick by the table below
    *[f"draft_value_{b}" for b in range(K.NB)],  # building value table (index = building id)
    "w_wood", "w_stone", "w_fish", "w_wheat",  # VP per cube held
    "w_coin",  # VP per coin held
    "food_short",  # extra VP per food cube while the next feeding is not covered
    "build_future",  # VP per remaining round for an activatable building of one's own
    "build_bias",  # flat VP added to every BUILD (builder > 0, gatherer < 0)
    "site_own_adj",  # siting: VP per own building among the 8 neighbours
    "site_traffic",  # siting: VP per terrain cube gathered by the free cells around
    "site_self_block",  # siting: VP lost per terrain cube the chosen cell itself would gather
    "goal_weight",  # multiplier of a goal card's VP for progress this decision
    "epsilon",  # probability of a uniformly random legal action
    "end_food_value",  # multiplier of food value in the last round once feeding is covered
    "food_reserve",  # VP per worker an action leaves unfeedable (food + coins / buy price)
    "cath_round",  # Cathedral: VP per end of round still to come (its workers' VP)
    "res_round",  # Residence: VP per end of round still to come, per unit of activation value
    "near_tie",  # actions within this value (VP) of the best are ties, drawn at random
    "food_per_turn",  # food reserve: food expected from each of the seat's turns left
    "reserve_coins",  # food reserve: share of coin prices (fees, coin inputs) it counts (1 all,
                      # 0 only the coins spent buying cubes)
    "food_compete",  # food reserve: rivals' placements left this round that each take a free
                     # fishing cell (0: every own turn left brings ``food_per_turn``)
)
N_PARAMS = len(PARAM_NAMES)
I_DRAFT_MODE = 0
I_DRAFT = 1
I_W = 1 + K.NB
I_COIN = I_W + 4
I_FOOD_SHORT = I_COIN + 1
I_FUTURE = I_FOOD_SHORT + 1
I_BUILD_BIAS = I_FUTURE + 1
I_SITE_OWN = I_BUILD_BIAS + 1
I_SITE_TRAFFIC = I_SITE_OWN + 1
I_SITE_SELF = I_SITE_TRAFFIC + 1
I_GOAL = I_SITE_SELF + 1
I_EPS = I_GOAL + 1
I_END_FOOD = I_EPS + 1
I_RESERVE = I_END_FOOD + 1
I_CATH = I_RESERVE + 1
I_RES = I_CATH + 1
I_NEAR = I_RES + 1
I_FOOD_TURN = I_NEAR + 1
I_RES_COINS = I_FOOD_TURN + 1
I_COMPETE = I_RES_COINS + 1

# a building value table for drafts: build VP plus a rough worth of its effect (spec §10)
DEFAULT_DRAFT_TABLE = (
    0.0, 7.0, 9.0, 8.0, 6.0, 8.0, 6.0, 6.0, 9.0, 8.0, 7.0, 8.0, 7.0,
    9.0, 7.0, 6.0, 7.0, 5.0, 7.0, 8.0, 9.0, 10.0, 4.0, 8.0, 6.0,
)


_BASE = {
    "w_wood": 0.7, "w_stone": 1.0, "w_fish": 0.7, "w_wheat": 0.7, "w_coin": 0.34,
    "food_short": 1.6, "build_future": 1.0, "build_bias": 0.0, "site_own_adj": 0.3,
    "site_traffic": 0.3, "site_self_block": 0.3, "goal_weight": 1.0, "epsilon": 0.0,
    "end_food_value": 0.2, "food_reserve": 5.0, "cath_round": 2.0, "res_round": 0.8,
    "near_tie": 0.02, "food_per_turn": 1.5, "reserve_coins": 0.0, "food_compete": 0.0,
}


def _params(draft_mode=1.0, table=DEFAULT_DRAFT_TABLE, **kw) -> tuple:
    """The draft mode, the draft table (one value per building) and the named weights."""
    out = ((float(draft_mode),) + tuple(float(x) for x in table)
           + common.param_vector(PARAM_NAMES[1 + K.NB:], _BASE, **kw))
    assert len(out) == N_PARAMS
    return out


# code 0: random_bot; code 1: plan_bot with the vector below
STRATEGIES = {
    "random": StrategySpec("random", 0, "uniform over the legal actions (draft picks too)"),
    "greedy": StrategySpec(
        "greedy", 1,
        "one decision ahead: points now plus weighted cubes and coins, a food premium until "
        "the coming feeding is covered, future worth of buildings, progress on its goals; "
        "drafts by the building value table",
        _params(), PARAM_NAMES),
    "builder": StrategySpec(
        "builder", 1,
        "spec §10 builder: builds early and often, next to its own buildings, near busy "
        "gathering cells; drafts by the value table",
        _params(build_future=1.8, build_bias=2.0, site_own_adj=1.2, site_traffic=0.4,
                w_stone=1.2, w_wood=0.9, food_reserve=8.0, food_per_turn=1.0), PARAM_NAMES),
    "gatherer": StrategySpec(
        "gatherer", 1,
        "spec §10 feeder/gatherer: values cubes and food highly, keeps the next feeding "
        "covered, builds only for large immediate points; drafts by the value table",
        _params(build_future=0.8, build_bias=-1.0, w_wood=0.9, w_stone=1.1, w_fish=1.0,
                w_wheat=1.0, food_short=2.5, w_coin=0.4, food_per_turn=0.5), PARAM_NAMES),
    "greedy-draft-random": StrategySpec(
        "greedy-draft-random", 1, "greedy, with random draft picks", _params(draft_mode=0.0),
        PARAM_NAMES),
}
for _name, _spec in STRATEGIES.items():
    assert _spec.code == 0 or len(_spec.params) == N_PARAMS, _name


@njit(cache=True, _nrt=False)
def random_bot(legal, n, rng):
    return legal[rand_below(rng, n)]


@njit(cache=True, _nrt=False)
def _unit(rng):
    """Uniform float in [0, 1)."""
    return (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False)
def _cube_values(meta, opts, seat, c, p, wv):
    """VP value of one more cube of each type for seat ``c`` now (food premium, spec §10)."""
    for t in range(4):
        wv[t] = p[I_W + t]
    food = seat[c, K.SE_CUBES + 2] + seat[c, K.SE_CUBES + 3]
    last = meta[K.M_ROUND] >= opts[K.O_ROUNDS]
    if food < meta[K.M_WORKERS]:
        wv[2] += p[I_FOOD_SHORT]
        wv[3] += p[I_FOOD_SHORT]
    elif last:
        wv[2] *= p[I_END_FOOD]
        wv[3] *= p[I_END_FOOD]
    if last:
        wv[0] *= p[I_END_FOOD]
        wv[1] *= p[I_END_FOOD]


@njit(cache=True, _nrt=False)
def _pay_value(seat, c, wv, wcoin, buy, n0, n1, n2, n3, k):
    """VP worth given up by paying cubes n0..n3 (own first, missing bought) and k coins."""
    v = k * wcoin
    h = seat[c, K.SE_CUBES]
    v += n0 * wv[0] if n0 <= h else h * wv[0] + (n0 - h) * buy * wcoin
    h = seat[c, K.SE_CUBES + 1]
    v += n1 * wv[1] if n1 <= h else h * wv[1] + (n1 - h) * buy * wcoin
    h = seat[c, K.SE_CUBES + 2]
    v += n2 * wv[2] if n2 <= h else h * wv[2] + (n2 - h) * buy * wcoin
    h = seat[c, K.SE_CUBES + 3]
    v += n3 * wv[3] if n3 <= h else h * wv[3] + (n3 - h) * buy * wcoin
    return v


@njit(cache=True, _nrt=False)
def _own_paid(seat, c, t, need):
    """Own cubes of type ``t`` a payment of ``need`` of them uses (own first, spec L3)."""
    h = seat[c, K.SE_CUBES + t]
    return need if need <= h else h


@njit(cache=True, _nrt=False)
def _short(meta, consts, seat, c, dcoins, dfood, slack):
    """Workers seat ``c`` could not feed at the coming feeding once its coins change by
    ``dcoins`` and its food cubes by ``dfood``: workers minus food held minus the food its coins
    buy (``coins // buy price``) minus ``slack`` (food still expected this round), at least
    0."""
    food = seat[c, K.SE_CUBES + 2] + seat[c, K.SE_CUBES + 3] + dfood
    coins = seat[c, K.SE_COINS] + dcoins
    nb = coins // consts[K.C_BUY] if coins > 0 else 0
    short = meta[K.M_WORKERS] - food - nb - slack
    return short if short > 0.0 else 0.0


@njit(cache=True, _nrt=False)
def _reserve_cost(meta, consts, seat, c, dcoins, dfood, p, fpt):
    """The food reserve: ``food_reserve`` VP per worker the change (``dcoins``, ``dfood``)
    leaves unfeedable at the coming feeding, counting ``fpt`` food (``_food_per_turn``) for
    each of the seat's turns left in the round after this one (0 for a change that does not
    make it worse)."""
    if p[I_RESERVE] == 0.0 or (dcoins >= 0 and dfood >= 0):
        return 0.0
    left = meta[K.M_WORKERS] - seat[c, K.SE_WUSED]
    if meta[K.M_PHASE] == K.PH_TURN:
        left -= 1
    elif meta[K.M_PHASE] == K.PH_RES:
        left = 0
    slack = fpt * left
    s1 = _short(meta, consts, seat, c, dcoins, dfood, slack)
    s0 = _short(meta, consts, seat, c, 0, 0, slack)
    return p[I_RESERVE] * (s1 - s0) if s1 > s0 else 0.0


@njit(cache=True, _nrt=False)
def _reserve_gain(meta, consts, seat, c, dfood, p, fpt):
    """The food reserve's side of a placement that brings ``dfood`` food: ``food_reserve`` VP
    per worker it makes feedable (slack as in ``_reserve_cost``; the placement is this turn)."""
    if p[I_RESERVE] == 0.0:
        return 0.0
    slack = fpt * (meta[K.M_WORKERS] - seat[c, K.SE_WUSED] - 1)
    s1 = _short(meta, consts, seat, c, 0, dfood, slack)
    s0 = _short(meta, consts, seat, c, 0, 0, slack)
    return p[I_RESERVE] * (s0 - s1)


@njit(cache=True, _nrt=False)
def _food_per_turn(meta, geo, cells, seat, c, p):
    """Food the seat expects from each of its turns left this round: ``food_per_turn``, and
    with ``food_compete`` > 0 that times the share of those turns that still find a free
    fishing cell (a grass cell with neither building nor worker that gathers fish) once the
    rivals' placements left this round have taken ``food_compete`` each (the reserve scales
    with the competition for food)."""
    fpt = p[I_FOOD_TURN]
    if p[I_COMPETE] == 0.0:
        return fpt
    left = meta[K.M_WORKERS] - seat[c, K.SE_WUSED]
    if left <= 0:
        return fpt
    rivals = 0
    for q in range(meta[K.M_NP]):
        if q != c:
            rivals += meta[K.M_WORKERS] - seat[q, K.SE_WUSED]
    free = 0
    for cell in range(K.NCELL):
        if (geo[cell, K.GE_TERR] == K.T_G and cells[K.CE_BLD, cell] < 0
                and cells[K.CE_WRK, cell] < 0 and geo[cell, K.GE_TCNT + 2] > 0):
            free += 1
    share = (free - p[I_COMPETE] * rivals) / left
    if share >= 1.0:
        return fpt
    return fpt * share if share > 0.0 else 0.0


@njit(cache=True, _nrt=False)
def _pay_flows(seat, c, buy, n0, n1, n2, n3, k, pk):
    """(coins change, food change) of paying cubes n0..n3 (own first, missing bought at
    ``buy`` coins each) and ``k`` coins, the coins counted only for ``pk`` of ``k`` (the food
    reserve weighs the coins spent on cubes, and coin prices only with ``reserve_coins``)."""
    miss = (n0 - _own_paid(seat, c, 0, n0) + n1 - _own_paid(seat, c, 1, n1)
            + n2 - _own_paid(seat, c, 2, n2) + n3 - _own_paid(seat, c, 3, n3))
    return (-(pk * k + buy * miss),
            -(_own_paid(seat, c, 2, n2) + _own_paid(seat, c, 3, n3)))


@njit(cache=True, _nrt=False)
def _out_cap(meta, seat, c, t, out, need):
    """Cubes of type ``t`` an output of ``out`` of them yields: the supply after a payment of
    ``need`` of them (own cubes return to the supply first) caps it (spec §3, A3)."""
    av = meta[K.M_SUPPLY + t] + _own_paid(seat, c, t, need)
    return out if out <= av else av


@njit(cache=True, _nrt=False)
def _act_flows(meta, bdata, consts, seat, c, b, fee, pk):
    """(coins change, food change) of activating building ``b`` once (fee ``fee``)."""
    dc, df = _pay_flows(seat, c, consts[K.C_BUY], bdata[b, K.BD_IN], bdata[b, K.BD_IN + 1],
                        bdata[b, K.BD_IN + 2], bdata[b, K.BD_IN + 3], bdata[b, K.BD_INC] + fee,
                        pk)
    dc += bdata[b, K.BD_OUTC]
    df += (_out_cap(meta, seat, c, 2, bdata[b, K.BD_OUT + 2], bdata[b, K.BD_IN + 2])
           + _out_cap(meta, seat, c, 3, bdata[b, K.BD_OUT + 3], bdata[b, K.BD_IN + 3]))
    return dc, df


@njit(cache=True, _nrt=False)
def _act_value(meta, bdata, consts, seat, c, b, fee, wv, wcoin):
    """Net VP value of activating building ``b`` once (inputs and fee against outputs; cube
    outputs capped at the supply, so an exchange that would yield nothing is worth its
    payment, negative)."""
    if b == K.B_PAWNSHOP:
        # swap the two least valuable held cubes for two of the most valuable type
        best = 0.0
        for t in range(4):
            if wv[t] > best:
                best = wv[t]
        lo1 = 1e9
        lo2 = 1e9
        for t in range(4):
            for _ in range(min(seat[c, K.SE_CUBES + t], 2)):
                if wv[t] < lo1:
                    lo2 = lo1
                    lo1 = wv[t]
                elif wv[t] < lo2:
                    lo2 = wv[t]
        if lo2 > 1e8:
            return -1.0
        return 2 * best - lo1 - lo2 - fee * wcoin
    gain = bdata[b, K.BD_OUTVP] + bdata[b, K.BD_OUTC] * wcoin
    for t in range(4):
        if bdata[b, K.BD_OUT + t] > 0:
            gain += _out_cap(meta, seat, c, t, bdata[b, K.BD_OUT + t], bdata[b, K.BD_IN + t]) * wv[t]
    cost = _pay_value(seat, c, wv, wcoin, consts[K.C_BUY], bdata[b, K.BD_IN], bdata[b, K.BD_IN + 1],
                      bdata[b, K.BD_IN + 2], bdata[b, K.BD_IN + 3], bdata[b, K.BD_INC] + fee)
    return gain - cost


@njit(cache=True, _nrt=False)
def _affordable(meta, bdata, consts, seat, c, b, fee):
    buy = consts[K.C_BUY]
    miss = 0
    for t in range(4):
        m = bdata[b, K.BD_IN + t] - seat[c, K.SE_CUBES + t]
        if m > 0:
            if meta[K.M_SUPPLY + t] < m:
                return False
            miss += m
    return seat[c, K.SE_COINS] >= fee + bdata[b, K.BD_INC] + buy * miss


@njit(cache=True, _nrt=False)
def _goal_bonus_build(meta, gdata, cells, seat, c, b, nown, p):
    """Goal VP this seat would gain by owning one more building ``b`` (own-building goals)."""
    bonus = 0.0
    for j in range(meta[K.M_NGOALS]):
        card = seat[c, K.SE_GOALS + j]
        if card == 0 or seat[c, K.SE_GDONE + j] != 0:
            continue
        kind = gdata[card, K.GD_KIND]
        vp = gdata[card, K.GD_VP] * p[I_GOAL]
        if kind == K.G_OWN_SET and gdata[card, K.GD_SET + b] == 1:
            have = 0
            for cell in range(K.NCELL):
                if cells[K.CE_OWN, cell] == c and gdata[card, K.GD_SET + cells[K.CE_BLD, cell]] == 1:
                    have += 1
            if have + 1 >= gdata[card, K.GD_PARAM]:
                bonus += vp
            else:
                bonus += vp * 0.4
        elif kind == K.G_MORE_BLD:
            if nown + 1 > meta[K.M_WORKERS]:
                bonus += vp
            else:
                bonus += vp * 0.5 / (meta[K.M_WORKERS] + 1 - nown)
        elif kind == K.G_CONNECTED or kind == K.G_TERRAIN_TRIO:
            bonus += vp * 0.2
    return bonus


@njit(cache=True, _nrt=False)
def _build_value(meta, opts, bdata, gdata, consts, cells, seat, c, b, nown, p, wv, res_v,
                 fpt):
    """BUILD b: its VP, future worth, goal progress, minus what the payment gives up and the
    food reserve's cost. The Cathedral is worth ``cath_round`` per end of round to come, the
    Residence ``res_round`` times ``res_v`` (the activations around its best site,
    ``_res_site``) per end of round to come (spec §4: both act at each end of round, the
    round they are built included)."""
    rounds_left = opts[K.O_ROUNDS] - meta[K.M_ROUND] + 1
    kind = bdata[b, K.BD_KIND]
    v = bdata[b, K.BD_VP] + p[I_BUILD_BIAS]
    if kind == K.K_P or kind == K.K_X:
        v += p[I_FUTURE] * (rounds_left - 0.5)
    elif kind == K.K_R:
        if b == K.B_CATHEDRAL:
            v += p[I_CATH] * rounds_left
        elif b == K.B_RESIDENCE:
            v += p[I_RES] * rounds_left * res_v
    elif kind == K.K_E:
        if b == K.B_CASTLE:
            v += 8.0
        elif b == K.B_WATCHTOWER:
            v += 9.0
    v += _goal_bonus_build(meta, gdata, cells, seat, c, b, nown, p)
    v -= _pay_value(seat, c, wv, p[I_COIN], consts[K.C_BUY], bdata[b, K.BD_COST],
                    bdata[b, K.BD_COST + 1], bdata[b, K.BD_COST + 2], bdata[b, K.BD_COST + 3],
                    bdata[b, K.BD_COSTC])
    dc, df = _pay_flows(seat, c, consts[K.C_BUY], bdata[b, K.BD_COST], bdata[b, K.BD_COST + 1],
                        bdata[b, K.BD_COST + 2], bdata[b, K.BD_COST + 3], bdata[b, K.BD_COSTC],
                        1.0)
    if meta[K.M_WORKERS] - seat[c, K.SE_WUSED] > 1:
        # a food building can feed this round: one activation on a later turn
        df += bdata[b, K.BD_OUT + 2] + bdata[b, K.BD_OUT + 3]
    return v - _reserve_cost(meta, consts, seat, c, dc, df, p, fpt)


@njit(cache=True, _nrt=False)
def _place_value(meta, bdata, gdata, consts, geo, cells, seat, c, cell, p, wv, actv_own,
                 actv_other, fpt):
    """PLACE cell: the terrain cubes it gathers and the positive activations around it, and
    the food reserve's gain from the food they bring (``_reserve_gain``)."""
    v = 0.0
    df = 0
    for t in range(3):
        g = geo[cell, K.GE_TCNT + t]
        if g > meta[K.M_SUPPLY + t]:
            g = meta[K.M_SUPPLY + t]
        v += g * wv[t]
        if t == 2:
            df += g
    nact = 0
    nvp = 0
    for k in range(8):
        x = geo[cell, K.GE_NBR + k]
        if x < 0:
            continue
        b = cells[K.CE_BLD, x]
        if b < 0:
            continue
        a = actv_own[b] if cells[K.CE_OWN, x] == c else actv_other[b]
        if a > 0:
            v += a
            nact += 1
            if bdata[b, K.BD_OUTVP] > 0:
                nvp += 1
            df += (bdata[b, K.BD_OUT + 2] + bdata[b, K.BD_OUT + 3] - bdata[b, K.BD_IN + 2]
                   - bdata[b, K.BD_IN + 3])
    if nact >= 2:
        for j in range(meta[K.M_NGOALS]):
            card = seat[c, K.SE_GOALS + j]
            if card == 0 or seat[c, K.SE_GDONE + j] != 0:
                continue
            kind = gdata[card, K.GD_KIND]
            if kind == K.G_ACTS_IN_TURN and nact >= gdata[card, K.GD_PARAM]:
                v += gdata[card, K.GD_VP] * p[I_GOAL]
            elif kind == K.G_VP_ACTS_IN_TURN and nvp >= gdata[card, K.GD_PARAM]:
                v += gdata[card, K.GD_VP] * p[I_GOAL]
    if df > 0:
        v += _reserve_gain(meta, consts, seat, c, df, p, fpt)
    return v


@njit(cache=True, _nrt=False)
def _actv_fill(meta, bdata, consts, seat, mkt, c, wv, wcoin, actv_own, actv_other):
    """Value of one activation of each building type on the board by seat ``c``: of its own
    (``actv_own``, no fee) and of another seat's (``actv_other``, with the fee); -1 where it
    cannot pay or the type is not on the board."""
    fee = consts[K.C_FEE]
    for b in range(K.NB):
        kind = bdata[b, K.BD_KIND]
        actv_own[b] = -1.0
        actv_other[b] = -1.0
        # only buildings on the board are read (no effect on the values)
        if (kind == K.K_P or kind == K.K_X) and mkt[K.MK_LOC, b] >= 0:
            if _affordable(meta, bdata, consts, seat, c, b, 0):
                actv_own[b] = _act_value(meta, bdata, consts, seat, c, b, 0, wv, wcoin)
            if _affordable(meta, bdata, consts, seat, c, b, fee):
                actv_other[b] = _act_value(meta, bdata, consts, seat, c, b, fee, wv, wcoin)


@njit(cache=True, _nrt=False)
def _res_cell(opts, geo, cells, c, cell, actv_own, actv_other):
    """The positive activations a Residence of seat ``c`` on ``cell`` would make at an end of
    round (its neighbours; another seat's building pays its fee with residence_pays_fees)."""
    v = 0.0
    for k in range(8):
        x = geo[cell, K.GE_NBR + k]
        if x < 0:
            continue
        b = cells[K.CE_BLD, x]
        if b < 0:
            continue
        a = actv_own[b] if (cells[K.CE_OWN, x] == c or opts[K.O_RES_FEES] == 0) \
            else actv_other[b]
        if a > 0:
            v += a
    return v


@njit(cache=True, _nrt=False)
def _res_site(opts, geo, cells, c, actv_own, actv_other):
    """``_res_cell`` of the best free grass cell (0 if none)."""
    best = 0.0
    for cell in range(K.NCELL):
        if geo[cell, K.GE_TERR] != K.T_G or cells[K.CE_BLD, cell] >= 0 \
                or cells[K.CE_WRK, cell] >= 0:
            continue
        v = _res_cell(opts, geo, cells, c, cell, actv_own, actv_other)
        if v > best:
            best = v
    return best


@njit(cache=True, _nrt=False)
def _site_value(meta, gdata, geo, cells, seat, c, cell, b, p, gmask):
    """SITE: where to put building ``b`` (spec §10: own cluster, busy cells, Castle/Watchtower)."""
    own = 0
    ortho = 0
    traffic = 0
    empty = 0
    lake = 0
    mount = 0
    forest = 0
    for k in range(8):
        x = geo[cell, K.GE_NBR + k]
        if x < 0:
            continue
        if cells[K.CE_OWN, x] == c:
            own += 1
            if k == 1 or k == 3 or k == 4 or k == 6:
                ortho += 1
        t = geo[x, K.GE_TERR]
        if t == K.T_G and cells[K.CE_BLD, x] < 0:
            empty += 1
            traffic += geo[x, K.GE_TCNT] + geo[x, K.GE_TCNT + 1] + geo[x, K.GE_TCNT + 2]
        elif t == K.T_L:
            lake = 1
        elif t == K.T_M:
            mount = 1
        elif t == K.T_F:
            forest = 1
    v = (p[I_SITE_OWN] * own + p[I_SITE_TRAFFIC] * traffic
         - p[I_SITE_SELF] * (geo[cell, K.GE_TCNT] + geo[cell, K.GE_TCNT + 1] + geo[cell, K.GE_TCNT + 2]))
    if b == K.B_CASTLE:
        v += 4.0 * own
    elif b == K.B_WATCHTOWER:
        v += 2.0 * empty
    elif b == K.B_CATHEDRAL:
        v += 0.5 * traffic
    while gmask != 0:  # the seat's open goal cards in slot order (_site_goal_mask)
        if gmask & 1:
            v += 0.5 * ortho * p[I_GOAL]
        elif gmask & 2:
            v += 0.3 * (lake + mount + forest) * p[I_GOAL]
        gmask >>= 2
    return v


@njit(cache=True, _nrt=False)
def _site_goal_mask(meta, gdata, seat, c):
    """Seat ``c``'s open goal cards that _site_value scores, two bits per slot j in order:
    bit 2j a connected card, bit 2j+1 a terrain-trio card."""
    m = 0
    for j in range(meta[K.M_NGOALS]):
        card = seat[c, K.SE_GOALS + j]
        if card == 0 or seat[c, K.SE_GDONE + j] != 0:
            continue
        kind = gdata[card, K.GD_KIND]
        if kind == K.G_CONNECTED:
            m |= 1 << (2 * j)
        elif kind == K.G_TERRAIN_TRIO:
            m |= 2 << (2 * j)
    return m


@njit(cache=True, _nrt=False)
def _turn_goal_bonus(meta, bdata, gdata, seat, c, b, p):
    """Per-turn goals (cards 15, 16) and card 13 this activation would complete."""
    v = 0.0
    if meta[K.P_SEAT] != c:
        return v
    for j in range(meta[K.M_NGOALS]):
        card = seat[c, K.SE_GOALS + j]
        if card == 0 or seat[c, K.SE_GDONE + j] != 0:
            continue
        kind = gdata[card, K.GD_KIND]
        if kind == K.G_ACTS_IN_TURN and meta[K.P_ACTS] + 1 >= gdata[card, K.GD_PARAM]:
            v += gdata[card, K.GD_VP] * p[I_GOAL]
        elif (kind == K.G_VP_ACTS_IN_TURN and bdata[b, K.BD_OUTVP] > 0
              and meta[K.P_VPACTS] + 1 >= gdata[card, K.GD_PARAM]):
            v += gdata[card, K.GD_VP] * p[I_GOAL]
        elif kind == K.G_COINS_GE and seat[c, K.SE_COINS] + bdata[b, K.BD_OUTC] >= gdata[card, K.GD_PARAM]:
            v += gdata[card, K.GD_VP] * p[I_GOAL] * 0.5
    return v


@njit(cache=True, _nrt=False)
def _feed_choice(meta, gdata, seat, c, legal, n):
    """Feeding: keep the card-6/7 food if such a card is held, else eat the larger pile; buy
    rather than starve (3 coins are worth at most 1 VP, a hungry worker costs 3)."""
    want = -1
    for j in range(meta[K.M_NGOALS]):
        card = seat[c, K.SE_GOALS + j]
        if card != 0 and seat[c, K.SE_GDONE + j] == 0 and gdata[card, K.GD_KIND] == K.G_FEED_ALL_WITH:
            want = gdata[card, K.GD_PARAM]
    has_ff = False
    has_fw = False
    has_bf = False
    has_bw = False
    for i in range(n):
        a = legal[i]
        if a == K.A_FEED_FISH:
            has_ff = True
        elif a == K.A_FEED_WHEAT:
            has_fw = True
        elif a == K.A_BUY_FISH:
            has_bf = True
        elif a == K.A_BUY_WHEAT:
            has_bw = True
    if has_ff and has_fw:
        if want == 2 and seat[c, K.SE_CUBES + 2] >= meta[K.M_FEED_LEFT]:
            return K.A_FEED_FISH
        if want == 3 and seat[c, K.SE_CUBES + 3] >= meta[K.M_FEED_LEFT]:
            return K.A_FEED_WHEAT
        return K.A_FEED_FISH if seat[c, K.SE_CUBES + 2] >= seat[c, K.SE_CUBES + 3] else K.A_FEED_WHEAT
    if has_ff:
        return K.A_FEED_FISH
    if has_fw:
        return K.A_FEED_WHEAT
    if has_bf and (want != 3 or not has_bw):
        return K.A_BUY_FISH
    if has_bw:
        return K.A_BUY_WHEAT
    return K.A_STARVE


@njit(cache=True, _nrt=False, forceinline=True)
def plan_bot(p, meta, opts, bdata, gdata, geo, consts, cells, seat, mkt, legal, n, rng, fbuf):
    """One-decision-ahead evaluator over the parameter vector ``p`` (see PARAM_NAMES).
    ``fbuf``: float64[>= 272 + 4 + 2*25] work buffer (no allocation here)."""
    ph = meta[K.M_PHASE]
    c = meta[K.M_CUR]
    if p[I_EPS] > 0 and _unit(rng) < p[I_EPS]:
        return legal[rand_below(rng, n)]
    if ph == K.PH_FEED:
        return _feed_choice(meta, gdata, seat, c, legal, n)
    vals = fbuf[:n]
    if ph == K.PH_DRAFT:
        if p[I_DRAFT_MODE] < 0.5:
            return legal[rand_below(rng, n)]
        for i in range(n):
            vals[i] = p[I_DRAFT + legal[i] - K.A_PICK]
        return common.pick_near_best(vals, legal, n, rng, p[I_NEAR], 1e-12)
    wv = fbuf[K.NUM_ACTIONS:K.NUM_ACTIONS + 4]
    actv_own = fbuf[K.NUM_ACTIONS + 4:K.NUM_ACTIONS + 4 + K.NB]
    actv_other = fbuf[K.NUM_ACTIONS + 4 + K.NB:K.NUM_ACTIONS + 4 + 2 * K.NB]
    if ph == K.PH_SITE:
        b = meta[K.M_PENDING]
        gmask = _site_goal_mask(meta, gdata, seat, c)
        wres = 0.0
        if b == K.B_RESIDENCE:
            _cube_values(meta, opts, seat, c, p, wv)
            _actv_fill(meta, bdata, consts, seat, mkt, c, wv, p[I_COIN], actv_own, actv_other)
            wres = p[I_RES] * (opts[K.O_ROUNDS] - meta[K.M_ROUND] + 1)
        for i in range(n):
            cell = legal[i] - K.A_SITE
            vals[i] = _site_value(meta, gdata, geo, cells, seat, c, cell, b, p, gmask)
            if wres > 0.0:
                vals[i] += wres * _res_cell(opts, geo, cells, c, cell, actv_own, actv_other)
        return common.pick_near_best(vals, legal, n, rng, p[I_NEAR], 1e-12)
    _cube_values(meta, opts, seat, c, p, wv)
    wcoin = p[I_COIN]
    fee = consts[K.C_FEE]
    fpt = _food_per_turn(meta, geo, cells, seat, c, p)
    if ph == K.PH_ACT or ph == K.PH_RES:
        cell = meta[K.P_CELL]
        fee_ok = ph == K.PH_ACT or opts[K.O_RES_FEES] == 1
        for i in range(n):
            a = legal[i]
            if a == K.A_GATHER:
                vals[i] = 1000.0  # gathering first never hurts (spec §6.3 item 4)
            elif a == K.A_END:
                vals[i] = 0.0
            elif a < K.A_PAWN:
                x = geo[cell, K.GE_NBR + a - K.A_ACT]
                b = cells[K.CE_BLD, x]
                f = fee if (fee_ok and cells[K.CE_OWN, x] != c) else 0
                dc, df = _act_flows(meta, bdata, consts, seat, c, b, f, p[I_RES_COINS])
                vals[i] = (_act_value(meta, bdata, consts, seat, c, b, f, wv, wcoin)
                           + _turn_goal_bonus(meta, bdata, gdata, seat, c, b, p)
                           - _reserve_cost(meta, consts, seat, c, dc, df, p, fpt))
            else:
                j = a - K.A_PAWN
                pi = j // 10
                po = j % 10
                f = 0
                for k in range(8):
                    y = geo[cell, K.GE_NBR + k]
                    if y >= 0 and cells[K.CE_BLD, y] == K.B_PAWNSHOP and fee_ok \
                            and cells[K.CE_OWN, y] != c:
                        f = fee
                a1, a2 = K.PAIRS[po]
                b1, b2 = K.PAIRS[pi]
                n0 = (b1 == 0) + (b2 == 0)
                n1 = (b1 == 1) + (b2 == 1)
                n2 = (b1 == 2) + (b2 == 2)
                n3 = (b1 == 3) + (b2 == 3)
                nin = (n0, n1, n2, n3)
                if a1 == a2:
                    g1 = _out_cap(meta, seat, c, a1, 2, nin[a1])
                    gain = g1 * wv[a1]
                    dfo = g1 if a1 >= 2 else 0
                else:
                    g1 = _out_cap(meta, seat, c, a1, 1, nin[a1])
                    g2 = _out_cap(meta, seat, c, a2, 1, nin[a2])
                    gain = g1 * wv[a1] + g2 * wv[a2]
                    dfo = (g1 if a1 >= 2 else 0) + (g2 if a2 >= 2 else 0)
                cost = _pay_value(seat, c, wv, wcoin, consts[K.C_BUY], n0, n1, n2, n3, f)
                dc, df = _pay_flows(seat, c, consts[K.C_BUY], n0, n1, n2, n3, f, p[I_RES_COINS])
                vals[i] = (gain - cost - 0.05
                           - _reserve_cost(meta, consts, seat, c, dc, df + dfo, p, fpt))
        return common.pick_near_best(vals, legal, n, rng, p[I_NEAR], 1e-12)
    # phase turn: PLACE or BUILD
    _actv_fill(meta, bdata, consts, seat, mkt, c, wv, wcoin, actv_own, actv_other)
    res_v = 0.0
    i = n - 1
    while i >= 0 and legal[i] > K.A_BUILD + K.B_RESIDENCE:
        i -= 1
    if i >= 0 and legal[i] == K.A_BUILD + K.B_RESIDENCE:  # the Residence can be built
        res_v = _res_site(opts, geo, cells, c, actv_own, actv_other)
    nown = 0
    for x in range(K.NCELL):
        if cells[K.CE_OWN, x] == c:
            nown += 1
    for i in range(n):
        a = legal[i]
        if a < K.A_BUILD:
            vals[i] = _place_value(meta, bdata, gdata, consts, geo, cells, seat, c, a, p, wv,
                                   actv_own, actv_other, fpt)
        else:
            vals[i] = _build_value(meta, opts, bdata, gdata, consts, cells, seat, c, a - K.A_BUILD,
                                   nown, p, wv, res_v, fpt)
    return common.pick_near_best(vals, legal, n, rng, p[I_NEAR], 1e-12)


@njit(cache=True, _nrt=False, forceinline=True)
def choose_arrays(code, params, meta, opts, bdata, gdata, geo, consts, cells, seat, mkt, legal, n,
                  rng, fbuf):
    """Dispatch: strategy ``code`` (0 random, 1 plan_bot) with ``params`` (float64[N_PARAMS])
    on the state's arrays; ``legal[:n]`` are the legal ids."""
    if code == 0:
        return random_bot(legal, n, rng)
    return plan_bot(params, meta, opts, bdata, gdata, geo, consts, cells, seat, mkt, legal, n,
                    rng, fbuf)


FBUF_SIZE = 512


@njit(cache=True)
def choose_scripted(code, params, k, s, legal, n, rng):
    """The action of bot ``code`` with parameter row ``params[k]`` in ``s`` (legal actions
    ``legal[:n]``); the one bot signature, docs/house-pattern.md §3."""
    fbuf = np.empty(FBUF_SIZE, np.float64)
    return choose_arrays(code, params[k], s.meta, s.opts, s.bdata, s.gdata, s.geo, s.consts,
                         s.cells, s.seat, s.mkt, legal, n, rng, fbuf)


def params_matrix(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``int64[k]`` and parameter rows ``float64[k, N_PARAMS]`` of the named strategies."""
    return common.params_matrix(STRATEGIES, N_PARAMS, names)


# the one bot entry point ``choose`` (docs/house-pattern.md §3) and the search bot ``mcts``
# the rows tuned by self-play (``boardsim train-bot``), data in this package's tuned.json
common.add_tuned(STRATEGIES, Path(__file__).parent)
choose = common.install_bots(LittleTownState, STRATEGIES, N_PARAMS, choose_scripted, K.NUM_ACTIONS,
                             playout="greedy", budget=100,
                             search_values=dict(budget=96))
