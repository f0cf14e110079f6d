"""The Three Little Wolves scripted bots (spec §7), numba functions of (state, legal, rng, params).

Two kernels: ``random_bot`` (uniform over the legal actions) and ``scripted_bot``, a one-step
evaluator. For every legal action it computes the change of a position value ``V`` for the
deciding seat (the action is tried on the house it touches, evaluated, and undone) plus simple
per-action terms, and plays the best (ties uniformly at random). The batch loop calls their
array form ``choose_arrays`` (``scripted_arrays``) over the state's plain arrays, without
reference counting or allocation (performance note in sim/three_little_wolves/kernels.py);
``choose``/``scripted_bot`` are its entry points over a ``TLWState``.

``V(p)`` (spec §7.1 heuristics 2, 5, 7, 8): for each own house, the chance ``ps`` that it stands
times (house points + its pig token) plus the chance it falls times the penalties, the chance
``pb`` of its colour bonus times 3, the top mark (weighted by lateness), ``height`` weight times
its height, a penalty if it is the unique shortest of its colour; for each own wolf, ``ps`` of
its house times the wolf value plus the fall penalty. ``ps``/``pb`` blend a prior per standing
(unique shortest, tied shortest, above the shortest, unique tallest, tied tallest, lone,
unassigned) with the actual outcome as the game gets late (lateness ``L`` = share of the deck
drawn; 1 after the third pig).

Per-action terms: a floor's number gap (``gap``: play low, §7.1.1), a bonus for starting a
house, a cost for spending a basement card early (§7.1.4), a wolf-action bonus and the cost of
discarding a card that could still be built (§7.1.6). Forced discards and passes give away the
least useful card. Pig ties go to the house with the larger lead over its colour's shortest
rival (§3.7). In the 2p end, the committed card is the one with the best use.

The end of the game (``end_free``, ``end_terms``): once the seat has at least as many unused
wolves as turns left, a betting penalty is dropped (an unplaced wolf is lost); when nothing
follows (its last turn, or a committed card of the 2p end) giving up a buildable card costs
nothing, and on its last turn only the points the game will score count (no height, gap,
new-house or unique-shortest shaping). Before its last turn in the final stage a wolf action
gets ``wolf_first`` (wolf targets are contested, one's own builds are not). Actions within
``near_tie`` of the best are drawn at random from the bot generator. Dummy control
(``dummy_policy = holder_choice``): ``neutral`` plays the spec's neutral rule, ``hostile``
(§7.1.10) the placement that most lowers the opponent's value.

The named strategies are parameter vectors (data); ``greedy-2p`` is greedy with its weights
tuned for 2 players (``TUNED_2P``).
"""

from pathlib import Path

import numpy as np
from numba import njit

from sim.core.bits import lowest_bit, nonneg
from sim.core.game import StrategySpec
from sim.core.rng import rand_below
from sim.three_little_wolves import constants as K
from sim.three_little_wolves.kernels import (
    TLWState,
    can_base,
    colour_stats,
    has_colour_o,
    n_houses,
    neutral_dummy_action,
    play_actions_into,
    put_base,
    put_floor,
    wolf_targets,
    wolf_values,
)
from strategies import common

PARAM_NAMES = (
    "p_umin",        # prior: a unique-shortest house stands
    "p_tmin",        # prior: a tied-shortest house stands
    "p_above",       # prior: a house above its colour's minimum stands
    "p_lone",        # prior: the only house of its colour stands
    "p_unassigned",  # prior: an all-white house stands (gets a colour)
    "p_umax",        # prior: a unique-tallest house keeps the bonus
    "p_tmax",        # prior: a tied-tallest house wins the bonus
    "p_lone_bonus",  # prior: a lone house wins the bonus
    "height",        # value per floor of own height
    "umin_pen",      # penalty per own house that is the unique shortest of its colour
    "gap",           # penalty per number skipped by a floor (start: number - 1)
    "new_house",     # bonus for starting a house
    "base_early",    # cost of spending a basement card while the game is early
    "wolf",          # bonus of a wolf action (discard + wolf)
    "card_keep",     # cost of discarding a card that could still be built
    "no_wolf",       # 1: never take a wolf action while another action is legal
    "hostile",       # 1: dummy control hostile to the opponent; 0: the neutral rule
    "max_houses",    # never start more houses than this
    "wolf_early",    # extra cost of a wolf action scaled by (1 - lateness): bet when informed
    "end_free",      # 1: no betting penalty when the seat has as many unused wolves as turns
                     #    left, no card-keeping cost when nothing follows (its last turn, or
                     #    the committed card of the 2p end); 0: the old bot
    "near_tie",      # actions within this value of the best are ties, drawn at random
    "wolf_first",    # end_free: bonus of a wolf action in the final stage before the last turn
)
N_PARAMS = len(PARAM_NAMES)
_BASE = dict(
    p_umin=0.35, p_tmin=0.75, p_above=0.9, p_lone=0.75, p_unassigned=0.4, p_umax=0.6,
    p_tmax=0.25, p_lone_bonus=0.4, height=0.3, umin_pen=0.0, gap=0.35, new_house=1.0,
    base_early=0.6, wolf=-1.0, card_keep=1.5, no_wolf=0, hostile=0, max_houses=3,
    wolf_early=6.0, end_free=1, near_tie=0.02, wolf_first=1.0,
)
# greedy-2p: greedy's weights tuned for 2 players by a random search over 2-player games
# against random (issue #13, docs/bots.md; two rounds of 2,000- to 8,000-game evaluations,
# the result validated on 40,000 other games); it plays lower, starts houses more readily,
# keeps buildable cards longer and bets later
TUNED_2P = dict(
    p_umin=0.588, p_tmin=0.537, p_above=0.734, p_lone=0.485, p_unassigned=0.7, p_umax=0.462,
    p_tmax=0.269, p_lone_bonus=0.34, height=0.314, umin_pen=0.074, gap=1.909, new_house=3.653,
    base_early=2.0, wolf=-2.737, card_keep=3.444, wolf_early=13.813, wolf_first=0.95,
)


def _params(**kw) -> tuple:
    return common.param_vector(PARAM_NAMES, _BASE, **kw)


STRATEGIES = {
    "random": StrategySpec("random", 0, "uniform over the legal actions"),
    "greedy": StrategySpec(
        "greedy", 1,
        "one decision ahead: values height, unique maxima and minima per colour, wolves on "
        "likely-standing houses (bets later in the game); plays low; neutral dummy control",
        _params(), PARAM_NAMES,
    ),
    "greedy-2p": StrategySpec(
        "greedy-2p", 1,
        "greedy with its weights tuned on 2-player games (against random): plays lower, keeps "
        "buildable cards longer and bets later; meant for 2 players (at 3-4 it leaves more "
        "wolves unplaced than greedy)",
        _params(**TUNED_2P), PARAM_NAMES,
    ),
    "cautious": StrategySpec(
        "cautious", 1,
        "spec §7.1.2-4 cautious builder: a heavy penalty on any own house that is the unique "
        "shortest of its colour, values height more, keeps basement cards for late height, "
        "rarely bets wolves",
        _params(p_umin=0.1, umin_pen=4.0, height=0.45, new_house=0.0, wolf=-2.0,
                base_early=1.0), PARAM_NAMES,
    ),
    "wolf-bettor": StrategySpec(
        "wolf-bettor", 1,
        "spec §7.1.5-6 wolf-heavy bettor: bets its wolves early on the safest rival houses",
        _params(wolf=3.0, wolf_early=0.0, card_keep=0.5), PARAM_NAMES,
    ),
    "no-wolf": StrategySpec(
        "no-wolf", 1,
        "greedy with wolf actions forbidden (a wolf only when nothing else is legal, and the "
        "compulsory house-effect wolf): the restricted-play baseline of the wolf-value study",
        _params(no_wolf=1), PARAM_NAMES,
    ),
    "hostile": StrategySpec(
        "hostile", 1,
        "greedy, with hostile dummy control (2p, dummy_policy=holder_choice): builds the dummy's "
        "houses against the opponent (spec §7.1.10)",
        _params(hostile=1), PARAM_NAMES,
    ),
}
for _name, _spec in STRATEGIES.items():
    assert _spec.code == 0 or len(_spec.params) == N_PARAMS, _name


@njit(cache=True)
def random_bot(s, legal, n, rng):
    return legal[rand_below(rng, n)]


# ---------------------------------------------------------------------------------------------
# The kernels below take the state's plain arrays and ``params``/``r`` (the parameter matrix
# and the bot's row) and are compiled without reference counting (performance note in
# sim/three_little_wolves/kernels.py); their scratch (``vals``, ``cst``, ``buf``, ``pv``) is
# allocated by the caller: ``scratch`` gives a set.
def scratch() -> tuple[np.ndarray, ...]:
    """Scratch of ``choose_arrays``: vals, cst (colour statistics), buf, pv, rel, relp."""
    return (np.empty(K.NUM_ACTIONS, np.float64), np.empty((3, 5), np.int64),
            np.empty(K.NUM_ACTIONS, np.int32), np.empty(K.NUM_ACTIONS, np.float64),
            np.empty((16, 5), np.int64), np.empty((16, 3), np.float64))


@njit(cache=True, _nrt=False, forceinline=True)
def lateness(meta, opts):
    """0 at the start of the deck, 1 after the third pig (share of the deck drawn)."""
    if meta[K.M_STAGE] != K.ST_NORMAL:
        return 1.0
    d0 = K.NCARD - opts[K.O_HAND] * meta[K.M_NP]
    L = 1.0 - meta[K.M_DECKN] / d0
    if meta[K.M_NPIGS] == 2 and meta[K.M_DECKN] <= 6:
        L = max(L, 0.9)
    return L


@njit(cache=True, _nrt=False, forceinline=True)
def house_probs(c, ht, cnt, mn, cmn, mx, cmx, lone_coll, lone_bonus,
                p_umin, p_tmin, p_above, p_lone, p_unas, p_umax, p_tmax, p_lbonus, L):
    """(stand probability, bonus probability, unique shortest) of a house of colour ``c`` and
    height ``ht``; (cnt, mn, cmn, mx, cmx) are its colour's statistics. Scalars only."""
    umin = False
    bprior = 0.0
    bactual = 0.0
    if c == K.UNASSIGNED:
        prior = p_unas
        actual = 0.0
    elif cnt == 1:
        prior = p_lone
        actual = 0.0 if lone_coll else 1.0
        bprior = p_lbonus
        bactual = 1.0 if lone_bonus else 0.0
    else:
        if ht == mn and cmn == 1:
            prior = p_umin
            actual = 0.0
            umin = True
        elif ht == mn:
            prior = p_tmin
            actual = 1.0
        else:
            prior = p_above
            actual = 1.0
        if ht == mx and cmx == 1:
            bprior = p_umax
            bactual = 1.0
        elif ht == mx:
            bprior = p_tmax
    ps = (1.0 - L) * prior + L * actual
    pb = (1.0 - L) * bprior + L * bactual
    return ps, pb, umin


@njit(cache=True, _nrt=False, forceinline=True)
def probs(opts, c, ht, cnt, mn, cmn, mx, cmx, prm, r, L):
    """``house_probs`` with the options and the parameters ``prm[r]``."""
    return house_probs(c, ht, cnt, mn, cmn, mx, cmx, opts[K.O_LONE_COLLAPSES] == 1,
                       opts[K.O_LONE_BONUS] == 1, prm[r, 0], prm[r, 1], prm[r, 2], prm[r, 3],
                       prm[r, 4], prm[r, 5], prm[r, 6], prm[r, 7], L)


@njit(cache=True, _nrt=False, forceinline=True)
def probs_of(opts, hs, cst, o, h, prm, r, L):
    """``house_probs`` of house (o, h) over the colour statistics ``cst``."""
    c = hs[o, h, K.H_COL]
    cc = c if c < 3 else 0
    return probs(opts, c, hs[o, h, K.H_HT], cst[cc, 0], cst[cc, 1], cst[cc, 2], cst[cc, 3],
                 cst[cc, 4], prm, r, L)


@njit(cache=True, _nrt=False, forceinline=True)
def counts_for(hs, o, h, p):
    """True if house (o, h) enters V(p): it exists and p owns it or has a wolf on it."""
    if hs[o, h, K.H_NF] == 0:
        return False
    nw = hs[o, h, K.H_NW]
    return o == p or (nw >= 1 and hs[o, h, K.H_W0S] == p) or (nw >= 2 and hs[o, h, K.H_W1S] == p)


@njit(cache=True, _nrt=False, forceinline=True)
def house_terms(v, opts, cards, consts, hs, hf, o, h, p, ps, pb, umin, prm, r, L, sh=1.0):
    """``v`` plus the terms of V(p) from house (o, h), whose stand and bonus probabilities are
    ``ps``/``pb`` (``umin``: it is the unique shortest of its colour), in this order: p's
    wolves on it, then, if p owns it, house and pig points, bonus, top mark, height, penalty.
    ``sh`` multiplies the shaping terms (height, unique-shortest penalty): 0 when nothing
    follows (``end_terms``)."""
    cp = consts[K.C_COLLAPSE_PTS]
    nw = hs[o, h, K.H_NW]
    for w in range(nw):
        if hs[o, h, K.H_W0S + 2 * w] == p:
            v += ps * hs[o, h, K.H_W0V + 2 * w] + (1.0 - ps) * cp
    if o == p:
        pig = hs[o, h, K.H_PIG]
        v += ps * (consts[K.C_HOUSE_PTS] + pig) + (1.0 - ps) * (cp + (cp if pig > 0 else 0))
        v += pb * consts[K.C_BONUS_PTS]
        mark = cards[hf[o, h, hs[o, h, K.H_NF] - 1], K.K_MARK]
        if opts[K.O_MARKS_COLLAPSED] == 1:
            v += L * mark
        else:
            v += L * ps * mark
        v += sh * prm[r, 8] * hs[o, h, K.H_HT]
        if umin:
            v -= sh * prm[r, 9]
    return v


@njit(cache=True, _nrt=False, forceinline=True)
def seat_value(opts, cards, consts, hs, hf, cst, n_own, p, prm, r, L):
    """Heuristic value ``V`` of seat ``p`` (module docstring) over the colour statistics
    ``cst`` (``colour_stats``) of the houses as they are: the terms of each house that counts,
    in house order."""
    v = 0.0
    for o in range(n_own):
        for h in range(K.MAXH):
            if counts_for(hs, o, h, p):
                ps, pb, umin = probs_of(opts, hs, cst, o, h, prm, r, L)
                v = house_terms(v, opts, cards, consts, hs, hf, o, h, p, ps, pb, umin, prm, r, L)
    return v


@njit(cache=True, _nrt=False, forceinline=True)
def position_value(meta, opts, cards, consts, hs, hf, cst, p, prm, r, L):
    """Heuristic value ``V`` of seat ``p``; ``cst`` int64[3, 5] scratch."""
    n_own = meta[K.M_NOWN]
    colour_stats(hs, n_own, cst)
    return seat_value(opts, cards, consts, hs, hf, cst, n_own, p, prm, r, L)


@njit(cache=True, _nrt=False, forceinline=True)
def card_live(opts, cards, hs, p, c):
    """True if card ``c`` could still be built by seat ``p`` (on a house, new, or basement)."""
    col = cards[c, K.K_COL]
    k = cards[c, K.K_NUM]
    nh = n_houses(hs, p)
    if nh < K.MAXH and (col == K.W or not has_colour_o(hs, p, col)):
        return True
    for h in range(nh):
        hc = hs[p, h, K.H_COL]
        if col == K.W or hc == col or (hc == K.UNASSIGNED and not has_colour_o(hs, p, col)):
            if k > hs[p, h, K.H_TOP]:
                return True
        if k <= 3 and can_base(hs, cards, opts, p, h, c):
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def card_cost(opts, cards, hs, p, c, prm, r):
    """Cost of giving up card ``c`` (discard, wolf, pass): live cards cost more, low cards and
    basement cards more than high ones."""
    if card_live(opts, cards, hs, p, c):
        return prm[r, 14] + 0.05 * (13 - cards[c, K.K_NUM])
    return 0.0


@njit(cache=True, _nrt=False, forceinline=True)
def live_cost(cards, live, c, prm, r):
    """``card_cost`` of card ``c`` where bit c of ``live`` tells whether it is live."""
    if (live >> c) & 1 == 1:
        return prm[r, 14] + 0.05 * (13 - cards[c, K.K_NUM])
    return 0.0


@njit(cache=True, _nrt=False, forceinline=True)
def place_value(consts, ps, v, kb=0.05):
    """Change of V from putting wolf ``v`` on a house that stands with probability ``ps``."""
    val = consts[K.C_WOLF + v]
    # keep the big wolves for safe houses: a small cost ``kb`` per point of the face used
    return ps * val + (1.0 - ps) * consts[K.C_COLLAPSE_PTS] - kb * val


@njit(cache=True, _nrt=False, forceinline=True)
def best_place(meta, opts, consts, seat, hs, cst, p, prm, r, L, kb=0.05):
    """Best PLACE value change for seat ``p`` over its legal (value, target) pairs (statistics
    ``cst`` filled; the maximum does not depend on the order of the pairs)."""
    targets = wolf_targets(hs, opts, meta[K.M_NOWN], p)
    vs = wolf_values(seat, opts, p)
    best = -1e18
    while targets != 0:
        t = lowest_bit(targets)
        targets &= targets - 1
        o = t // 3
        h = t - 3 * o
        ps, _pb, _u = probs_of(opts, hs, cst, o, h, prm, r, L)
        m = vs
        while m != 0:
            x = place_value(consts, ps, lowest_bit(m), kb)
            m &= m - 1
            if x > best:
                best = x
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def stats_without(hs, n_own, col, p, g, row, j):
    """``row[j]`` = the statistics (as ``colour_stats``) of colour ``col`` without house
    (p, g)."""
    cnt = 0
    mn = 1 << 30
    cmn = 0
    mx = -1
    cmx = 0
    for o in range(n_own):
        for h in range(K.MAXH):
            if hs[o, h, K.H_NF] == 0 or hs[o, h, K.H_COL] != col or (o == p and h == g):
                continue
            ht = hs[o, h, K.H_HT]
            cnt += 1
            if ht < mn:
                mn = ht
                cmn = 1
            elif ht == mn:
                cmn += 1
            if ht > mx:
                mx = ht
                cmx = 1
            elif ht == mx:
                cmx += 1
    row[j, 0] = cnt
    row[j, 1] = mn
    row[j, 2] = cmn
    row[j, 3] = mx
    row[j, 4] = cmx


@njit(cache=True, _nrt=False, forceinline=True)
def end_terms(meta, seat, p, prm, r, L):
    """(betting term, card keeping free, last turn) of seat ``p``'s play decision now.

    The betting term of a WOLF action is ``wolf - wolf_early * (1 - L)``; with ``end_free`` a
    penalty (a negative term) is dropped once the seat has at least as many unused wolves as
    turns left (a wolf not placed then is lost), and the cost of giving up a buildable card is
    dropped when nothing follows: the seat's last turn (the second lap of the 3-4p final
    stage, the last card of the 2p end) or a committed card of the 2p end (used whatever is
    chosen). In the normal stage of 3-4 players the turns left are estimated from the deck
    (the betting penalty only). On the last turn the shaping terms (height, unique-shortest penalty, number
    gap, new house) are dropped too: only the points the game will score count."""
    w_bet = prm[r, 13] - prm[r, 18] * (1.0 - L)
    if prm[r, 19] <= 0:
        return w_bet, False, False
    st = meta[K.M_STAGE]
    np_ = meta[K.M_NP]
    if st == K.ST_FINAL:
        left = 1 if meta[K.M_FLEFT] <= np_ else 2
    elif st == K.ST_FINAL2P:
        left = seat[p, K.S_HN]
    elif np_ >= 3:
        # normal stage: the expected turns left (a draw per turn until the third pig, about
        # 3 cards above the deck's bottom, then two final turns each)
        left = (meta[K.M_DECKN] - 3) // np_ + 2
        if left < 2:
            left = 2
    else:
        return w_bet, False, False
    unused = 0
    for v in range(3):
        if seat[p, K.S_WU + v] == 0:
            unused += 1
    if unused >= left and w_bet < 0.0:
        w_bet = 0.0
    if st != K.ST_NORMAL and left >= 2 and unused >= 1:
        # wolf targets are contested, one's own builds are not: bet first
        w_bet += prm[r, 21]
    if st == K.ST_NORMAL:
        return w_bet, False, False
    return w_bet, left == 1 or st == K.ST_FINAL2P, left == 1


@njit(cache=True, _nrt=False, forceinline=True)
def play_values(meta, opts, cards, consts, seat, hs, hf, cst, p, legal, n, prm, r, L, vals,
                rel, relp):
    """Values of phase-play actions ``legal[:n]`` for seat ``p`` into ``vals``: ``V`` of the
    position now and after each FLOOR/BASEMENT (the house is changed, evaluated and restored),
    plus the per-action terms.

    ``V`` after a FLOOR/BASEMENT on house (p, h) equals ``position_value`` of that position,
    computed incrementally: only the statistics of the house's new colour change (those
    without the house, ``stats_without``, plus the house), so only the probabilities of the
    houses of that colour and of the house itself are computed again; the others are those of
    the position now. The terms are added in the same order as ``seat_value`` (the same
    floating-point sum), starting from the partial sum of the position now before the first
    house whose terms change. Scratch: ``rel`` int64[>= 16, 5] (the houses that count and, rows
    13 to 15, the statistics without each house of p), ``relp`` float64[>= 13, 3] (their
    probabilities and the partial sums before them).
    """
    n_own = meta[K.M_NOWN]
    w_bet, keep_free, last = end_terms(meta, seat, p, prm, r, L)
    sh = 0.0 if last else 1.0  # nothing follows: only the points the game will score count
    w_gap = prm[r, 10] * sh
    w_new = prm[r, 11] * sh
    w_base = prm[r, 12]
    max_h = prm[r, 17]
    icons = opts[K.O_HEIGHT] == 0
    colour_stats(hs, n_own, cst)
    # the houses that count for p now, in house order, and p's next house slot (a new house)
    nrel = 0
    base = 0.0
    for o in range(n_own):
        for h in range(K.MAXH):
            slot = o == p and hs[o, h, K.H_NF] == 0 and (h == 0 or hs[o, h - 1, K.H_NF] > 0)
            if slot:
                rel[nrel, 0] = o
                rel[nrel, 1] = h
                rel[nrel, 2] = -1
                relp[nrel, 2] = base
                nrel += 1
            elif counts_for(hs, o, h, p):
                ps, pb, umin = probs_of(opts, hs, cst, o, h, prm, r, L)
                rel[nrel, 0] = o
                rel[nrel, 1] = h
                rel[nrel, 2] = hs[o, h, K.H_COL]
                rel[nrel, 3] = 1 if umin else 0
                relp[nrel, 0] = ps
                relp[nrel, 1] = pb
                relp[nrel, 2] = base
                base = house_terms(base, opts, cards, consts, hs, hf, o, h, p, ps, pb, umin,
                                   prm, r, L, sh)
                nrel += 1
    have = 0  # bit h: rel[13 + h] holds the statistics without house (p, h)
    any_other = False
    any_wolf = False
    live = 0  # bit c: card c has a FLOOR or BASEMENT among the legal actions (``card_live``)
    for i in range(n):
        a = legal[i]
        if a >= K.A_WOLF:
            if a < K.A_PLACE:
                any_wolf = True
            else:
                any_other = True
            continue
        any_other = True
        live |= 1 << (a // 4 if a < K.A_BASE else (a - K.A_BASE) // 3)
        if a < K.A_BASE:
            c = a // 4
            h = a % 4
            k = cards[c, K.K_NUM]
            if h == 3:
                h = 0
                while h < K.MAXH and hs[p, h, K.H_NF] > 0:
                    h += 1
                if h + 1 > max_h:
                    vals[i] = -1e9
                    continue
                extra = w_new - w_gap * (k - 1)
                nf = 0
                nb = 0
                hs[p, h, K.H_PIG] = 0
                hs[p, h, K.H_NW] = 0
            else:
                extra = -w_gap * (k - hs[p, h, K.H_TOP] - 1)
                nf = hs[p, h, K.H_NF]
                nb = hs[p, h, K.H_NB]
            col = hs[p, h, K.H_COL]
            top = hs[p, h, K.H_TOP]
            ht = hs[p, h, K.H_HT]
            cc = cards[c, K.K_COL]
            if nf == 0:
                hs[p, h, K.H_NB] = 0
                hs[p, h, K.H_COL] = K.UNASSIGNED if cc == K.W else cc
            elif cc != K.W and col == K.UNASSIGNED:
                hs[p, h, K.H_COL] = cc
            hf[p, h, nf] = c
            hs[p, h, K.H_NF] = nf + 1
            hs[p, h, K.H_TOP] = k
            icon = cards[c, K.K_ICON] if icons else 0
            hs[p, h, K.H_HT] = nf + 1 + nb + (icon - 1 if icon > 0 else 0)
        else:
            j = a - K.A_BASE
            c = j // 3
            h = j % 3
            col = hs[p, h, K.H_COL]
            nf = hs[p, h, K.H_NF]
            top = hs[p, h, K.H_TOP]
            ht = hs[p, h, K.H_HT]
            cc = cards[c, K.K_COL]
            if cc != K.W and col == K.UNASSIGNED:
                hs[p, h, K.H_COL] = cc
            hs[p, h, K.H_HT] = ht + 1
            extra = -w_base * (1.0 - L)
        # statistics of the house's colour now (the other colours' are unchanged)
        c2 = hs[p, h, K.H_COL]
        ht2 = hs[p, h, K.H_HT]
        cnt = mn = cmn = mx = cmx = 0
        if c2 != K.UNASSIGNED:
            if nf > 0 and col == c2:
                if (have >> h) & 1 == 0:
                    have |= 1 << h
                    stats_without(hs, n_own, c2, p, h, rel, 13 + h)
                cnt = rel[13 + h, 0]
                mn = rel[13 + h, 1]
                cmn = rel[13 + h, 2]
                mx = rel[13 + h, 3]
                cmx = rel[13 + h, 4]
            else:
                cnt = cst[c2, 0]
                mn = cst[c2, 1]
                cmn = cst[c2, 2]
                mx = cst[c2, 3]
                cmx = cst[c2, 4]
            cnt += 1
            if ht2 < mn:
                mn = ht2
                cmn = 1
            elif ht2 == mn:
                cmn += 1
            if ht2 > mx:
                mx = ht2
                cmx = 1
            elif ht2 == mx:
                cmx += 1
        # the houses before the first one whose probabilities change add up as now
        q0 = 0
        while not ((rel[q0, 0] == p and rel[q0, 1] == h)
                   or (c2 != K.UNASSIGNED and rel[q0, 2] == c2)):
            q0 += 1
        v = relp[q0, 2]
        for q in range(q0, nrel):
            o = rel[q, 0]
            g = rel[q, 1]
            if o == p and g == h:
                ps, pb, umin = probs(opts, c2, ht2, cnt, mn, cmn, mx, cmx, prm, r, L)
            elif hs[o, g, K.H_NF] == 0:
                continue  # p's next house slot, still empty
            elif c2 != K.UNASSIGNED and rel[q, 2] == c2:
                ps, pb, umin = probs(opts, c2, hs[o, g, K.H_HT], cnt, mn, cmn, mx, cmx, prm, r, L)
            else:
                ps = relp[q, 0]
                pb = relp[q, 1]
                umin = rel[q, 3] == 1
            v = house_terms(v, opts, cards, consts, hs, hf, o, g, p, ps, pb, umin, prm, r, L,
                            sh)
        vals[i] = v + extra
        hs[p, h, K.H_COL] = col
        hs[p, h, K.H_NF] = nf
        hs[p, h, K.H_TOP] = top
        hs[p, h, K.H_HT] = ht
    wolf_v = -1e18
    if any_wolf:
        wolf_v = base + best_place(meta, opts, consts, seat, hs, cst, p, prm, r, L,
                                   0.05 * sh) + w_bet
    for i in range(n):
        a = legal[i]
        if a < K.A_WOLF:
            continue
        if a < K.A_PLACE:
            c = a - K.A_WOLF
            vals[i] = wolf_v - (0.0 if keep_free else live_cost(cards, live, c, prm, r))
            if prm[r, 15] > 0 and any_other:
                vals[i] = -1e15
        else:
            c = a - K.A_DISC
            vals[i] = base - (0.0 if keep_free else live_cost(cards, live, c, prm, r)) - 0.5


@njit(cache=True, _nrt=False, forceinline=True)
def dummy_margin(meta, opts, cards, consts, hs, hf, cst, p, prm, r, L):
    """V(p) - V(opponent) (2p)."""
    return (position_value(meta, opts, cards, consts, hs, hf, cst, p, prm, r, L)
            - position_value(meta, opts, cards, consts, hs, hf, cst, 1 - p, prm, r, L))


@njit(cache=True, _nrt=False)
def dummy_value(meta, opts, cards, consts, hs, hf, hb, cst, p, a, x, prm, r, L):
    """Hostile dummy control: V(p) - V(opponent) after DUMMY_* action ``a`` with card ``x``."""
    if a == K.A_DDISC:
        return dummy_margin(meta, opts, cards, consts, hs, hf, cst, p, prm, r, L)
    if a >= K.A_DBASE:
        h = a - K.A_DBASE
        nb = hs[K.DUMMY, h, K.H_NB]
        lb = hs[K.DUMMY, h, K.H_LB]
        b3 = hs[K.DUMMY, h, K.H_B3]
        ht = hs[K.DUMMY, h, K.H_HT]
        put_base(hs, hf, hb, cards, opts, K.DUMMY, h, x)
        v = dummy_margin(meta, opts, cards, consts, hs, hf, cst, p, prm, r, L)
        hs[K.DUMMY, h, K.H_NB] = nb
        hs[K.DUMMY, h, K.H_LB] = lb
        hs[K.DUMMY, h, K.H_B3] = b3
        hs[K.DUMMY, h, K.H_HT] = ht
        return v
    if a >= K.A_DNEW:
        h = n_houses(hs, K.DUMMY)
        put_floor(hs, hf, cards, opts, K.DUMMY, h, x)
        hs[K.DUMMY, h, K.H_COL] = a - K.A_DNEW
        v = dummy_margin(meta, opts, cards, consts, hs, hf, cst, p, prm, r, L)
        hs[K.DUMMY, h, K.H_NF] = 0
        return v
    h = a - K.A_DFLOOR
    col = hs[K.DUMMY, h, K.H_COL]
    nf = hs[K.DUMMY, h, K.H_NF]
    top = hs[K.DUMMY, h, K.H_TOP]
    ht = hs[K.DUMMY, h, K.H_HT]
    put_floor(hs, hf, cards, opts, K.DUMMY, h, x)
    v = dummy_margin(meta, opts, cards, consts, hs, hf, cst, p, prm, r, L)
    hs[K.DUMMY, h, K.H_COL] = col
    hs[K.DUMMY, h, K.H_NF] = nf
    hs[K.DUMMY, h, K.H_TOP] = top
    hs[K.DUMMY, h, K.H_HT] = ht
    return v


@njit(cache=True, _nrt=False)
def commit_values(meta, opts, cards, consts, hands, seat, hs, hf, cst, p, legal, n, prm, r, L,
                  vals, buf, pv, rel, relp):
    """Phase commit (2p end): each card's value is that of its best play now."""
    m = play_actions_into(opts, cards, hands, seat, hs, meta[K.M_NOWN], p, -1, buf, 0)
    play_values(meta, opts, cards, consts, seat, hs, hf, cst, p, buf, m, prm, r, L, pv, rel,
                relp)
    for i in range(n):
        c = legal[i] - K.A_COMMIT
        best = -1e18
        for j in range(m):
            a = buf[j]
            if a < K.A_BASE:
                cj = a // 4
            elif a < K.A_WOLF:
                cj = (a - K.A_BASE) // 3
            elif a < K.A_PLACE:
                cj = a - K.A_WOLF
            else:
                cj = a - K.A_DISC
            if cj == c and pv[j] > best:
                best = pv[j]
        vals[i] = best


@njit(cache=True, _nrt=False)
def pigtie_values(meta, hs, p, legal, n, vals):
    """Phase pig_tie: the lead of each offered house over its colour's shortest rival."""
    for i in range(n):
        h = legal[i] - K.A_PIGTIE
        c = hs[p, h, K.H_COL]
        lead = -100.0
        if c != K.UNASSIGNED:
            lowest = 1 << 30
            for o in range(meta[K.M_NOWN]):
                if o == p:
                    continue
                for g in range(K.MAXH):
                    if hs[o, g, K.H_NF] > 0 and hs[o, g, K.H_COL] == c:
                        lowest = min(lowest, hs[o, g, K.H_HT])
            lead = 50.0 if lowest == 1 << 30 else float(hs[p, h, K.H_HT] - lowest)
        vals[i] = lead


@njit(cache=True, _nrt=False, forceinline=True)
def scripted_arrays(meta, opts, cards, consts, hands, seat, hs, hf, hb, legal, n, rng, prm, r,
                    vals, cst, buf, pv, rel, relp):
    """One-step evaluator with the parameters ``prm[r]`` (float64[N_PARAMS] rows)."""
    if n == 1:
        return legal[0]
    p = nonneg(meta[K.M_CUR])
    ph = meta[K.M_PHASE]
    L = lateness(meta, opts)
    if ph == K.PH_PLAY:
        play_values(meta, opts, cards, consts, seat, hs, hf, cst, p, legal, n, prm, r, L, vals,
                    rel, relp)
    elif ph == K.PH_PASS:
        for i in range(n):
            vals[i] = -card_cost(opts, cards, hs, p, legal[i] - K.A_PASS, prm, r)
    elif ph == K.PH_PIGTIE:
        pigtie_values(meta, hs, p, legal, n, vals)
    elif ph == K.PH_COMMIT:
        commit_values(meta, opts, cards, consts, hands, seat, hs, hf, cst, p, legal, n, prm, r,
                      L, vals, buf, pv, rel, relp)
    elif ph == K.PH_DUMMY:
        x = meta[K.M_DCARD]
        if prm[r, 16] == 0:
            return neutral_dummy_action(opts, cards, hs, x)
        for i in range(n):
            vals[i] = dummy_value(meta, opts, cards, consts, hs, hf, hb, cst, p, legal[i], x,
                                  prm, r, L)
    else:  # PH_WOLF, PH_HOUSE: PLACE ids (each target's ``ps`` computed once)
        colour_stats(hs, meta[K.M_NOWN], cst)
        done = 0
        for i in range(n):
            j = legal[i] - K.A_PLACE
            t = j % 12
            if (done >> t) & 1 == 0:
                done |= 1 << t
                ps, _pb, _u = probs_of(opts, hs, cst, t // 3, t % 3, prm, r, L)
                relp[t, 0] = ps
            vals[i] = place_value(consts, relp[t, 0], j // 12)
    return common.pick_near_best(vals, legal, n, rng, prm[r, 20], 1e-9)


@njit(cache=True, _nrt=False, forceinline=True)
def choose_arrays(code, meta, opts, cards, consts, hands, seat, hs, hf, hb, legal, n, rng, prm,
                  r, vals, cst, buf, pv, rel, relp):
    """Dispatch: strategy ``code`` (0 random, 1 scripted) with the parameters ``prm[r]``."""
    if code == 0:
        return legal[rand_below(rng, n)]
    return scripted_arrays(meta, opts, cards, consts, hands, seat, hs, hf, hb, legal, n, rng,
                           prm, r, vals, cst, buf, pv, rel, relp)


@njit(cache=True)
def choose_scripted(code, params, k, s, legal, n, rng):
    """The action of bot ``code`` with parameter row ``params[k]`` in ``s`` (legal actions
    ``legal[:n]``); the one bot signature, docs/house-pattern.md §3."""
    if code == 0:
        return random_bot(s, legal, n, rng)
    vals = np.empty(K.NUM_ACTIONS, np.float64)
    cst = np.empty((3, 5), np.int64)
    buf = np.empty(K.NUM_ACTIONS, np.int32)
    pv = np.empty(K.NUM_ACTIONS, np.float64)
    rel = np.empty((16, 5), np.int64)
    relp = np.empty((16, 3), np.float64)
    return scripted_arrays(s.meta, s.opts, s.cards, s.consts, s.hands, s.seat, s.hs, s.hf, s.hb,
                           legal, n, rng, params, k, vals, cst, buf, pv, rel, relp)


def params_matrix(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``int64[k]`` and parameter rows ``float64[k, N_PARAMS]`` of the named strategies."""
    return common.params_matrix(STRATEGIES, N_PARAMS, names)


# the one bot entry point ``choose`` (docs/house-pattern.md §3) and the search bot ``mcts``
# the rows tuned by self-play (``boardsim train-bot``), data in this package's tuned.json
common.add_tuned(STRATEGIES, Path(__file__).parent)
choose = common.install_bots(TLWState, STRATEGIES, N_PARAMS, choose_scripted, K.NUM_ACTIONS,
                             playout="greedy-2p", budget=1200,
                             search_values=dict(budget=400, n_random=64, bias=0.05))
