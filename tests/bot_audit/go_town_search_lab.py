"""Go Town, 2 players: a laboratory for the ``search`` bot's algorithm (session 11).

Plays a variant of ``search``'s rollout policy improvement (strategies/search.py,
``rollout_choose``) against ``attacker``, seats alternated game by game, with every knob of the
variant as data (``--set name=value``, ``KNOBS``) so configurations need no recompile. What
lands is then written into strategies/search.py and confirmed with ``search_strength``.

    python -m tests.bot_audit.go_town_search_lab -n 400 --seed S [--set knob=value ...]
        [--mirror]

Knobs: ``budget`` (playouts per decision), ``perfect`` (1: clairvoyant, skip ``determinize``
and play out copies of the true state: an upper bound, not a fair player), ``max_len``
(decisions per playout, 0 none), ``n_random`` (random legal candidates; -1 every legal action),
``mode`` (0: sequential halving as ``rollout_choose``; 1: racing with a z-test switch;
2: sequential halving with the playout bot's pick kept and a final z-test switch), ``z``,
``drop``, ``batch`` (racing: every ``batch`` determinizations drop a candidate ``drop``
standard errors below the playout bot's pick), ``ms``/``mw`` (margin scale and weight of
``seat_reward``), ``bias``; ``perfect`` 2: the rival's hand as it is, the deck order
resampled (what knowing the hand is worth); ``infer`` (determinizations redrawn until the
rival's sampled hand is consistent with ``attacker`` having ended its turn with it): 1 no
MILK/DONUT/THIEF/MASTER, 2 the same for hands above ``refill_to`` only, 3 also no buildable
pair (unless attacker's hold rule), 4 = 3 for hands above ``refill_to`` only (what
strategies/go_town/bots.py ``plausible`` ships), 5 = 4 plus no card that steals the searcher's
unguarded top floor now; 6 = 4 plus no DOG while its own top floor is unguarded and no WRECK
while the searcher has 2+ floors (session 12); 7 = 4 plus the oracle test ``_oracle_ok`` (the
rival's sampled hand in the recorded state of its last END_TURN: not a fair player, a bound on
what history-aware inference is worth).

Session 13 knobs (the playouts): ``depth`` (a playout stops after that many seat turns and is
scored by ``_reward``: with ``eval`` 0 by ``seat_reward``'s margin, ``ms`` floors a full
margin; with ``eval`` 1 by ``_evaluate``, a logistic of ``e_floor``/``e_guard``/``e_hand``/
``e_pair``/``e_skip``/``e_base``), ``pme``/``popp`` (the row of ``ROWS`` playing the searcher's /
the rival's seat in the playouts; -1 the playout bot, attacker; 7 attacker with session
15's hold rule), ``eps`` (each playout decision
a uniformly random legal action with this chance), ``pnoise`` (row 6 is attacker with its
``noise`` set to this: a randomised attacker for ``pme``/``popp`` 6).

Session 12 knobs: ``allow`` (1: the shipped ``allowed`` veto of strategies/go_town/bots.py on
the candidates; 0, the default, as session 11's lab), ``veto_end`` (1: no END_TURN candidate
where attacker plays a card), ``end_pen`` (subtracted from an END_TURN candidate's mean when it
is not attacker's pick), ``prune`` (1: only actions attacker ranks above ``min_pr``, END_TURN
and the experts' picks), ``plan2`` (1: each card play also as the turn plan "play it, then
END_TURN"), ``stop_z``/``stop_min``/``stop_every`` (the last halving round between two
candidates stops once their paired mean difference is ``stop_z`` standard errors from 0, checked
every ``stop_every`` determinizations from ``stop_min``), ``eq_eps`` (it also stops once the
difference is within +-``eq_eps`` at 2 standard errors). The summary line adds the END_TURN
switches (``endsw``), candidates per searched decision and playout decisions per game (a cost
measure independent of the machine's load), and a second line the switches by attacker's pick.

Session 14 knobs: ``known`` (1: the cards the searcher saw go into the rival's hand, taken
from its own hand by the rival's THIEF or MASTER and neither played nor taken back since, stay
in the rival's determinized hand, ``_det_known``; ``_track`` keeps the counts per seat from
what that seat sees; the summary's ``known/search`` is the share of searched decisions with such
knowledge and ``bad`` counts tracked cards the rival does not hold: 0 or a tracking bug),
``infer`` 8 (``_kept_ok``: a random subset of the rival's sampled hand as large as its hand at
its last END_TURN, less the cards the searcher took since, must pass the ``infer`` 4 test: every
hand size, refills included), ``plans``/``plan_len`` (``plans`` > 0: a search in phase play is
over the searcher's complete turn plans, ``_enum_plans``: every order of its plays up to
END_TURN, a THIEF/MASTER or ``plan_len`` plays, transpositions merged, attacker's own line
first, at most ``plans`` of them; sequential halving over the plans, each applied to the
determinization and played out from its end; the first play of the best plan is played).
``--out FILE.npy`` saves the per-game rows for paired differences; the summary also gives the
share of searched decisions after a reshuffle of the pile (``reshuffled/search``).

Session 15 knobs (a policy-iteration step: the searcher's own seat in the playouts plays a
rule fitted to the search's choices): ``pme``/``popp`` 7 (``attacker`` with the hold rule of
``--hold RULE.json``, ``{category of attacker's pick: {feature: weight}}`` over ``CATS`` and
``HF_NAMES``: END_TURN instead of the card when the weighted sum is above 0, never with a full
hand; ``_pi_hold``), ``hbias`` (added to that sum), ``hstoch`` (1: hold with the logistic
probability of the sum instead). The fitted rules of BENCHMARKS.md "session 15" are in
tests/bot_audit/go_town_hold/ (``rule_a`` fitted on the baseline's choices, ``rule_b`` on
``rule_a``'s search, ``rule_c`` on ``rule_b``'s, ``rule_k5b`` one weight per feature for every
category).
Session 16 knobs (lead): ``psw`` (policy switching, Chang, Givan and Chong 2004: with ``psw``
2 or 3 the determinizations take the searcher's own-seat playout policy in turn, 0 the playout
row, 1 it with the hold rule and ``hbias``, 2 the hold rule with ``psb2``; a candidate is valued
by its best policy's mean), ``vcat`` (a bit mask over ``_cat`` of attacker's pick: no END_TURN
candidate where attacker plays a card of a set category, e.g. 3584 THIEF, DONUT and MASTER,
224 BONE, DRILL and WRECK).
``--log FILE.npy`` saves one row of ``LOG_COLS`` per decision of the lab search in phase play
(the searcher's features, attacker's pick, the search's pick and its value margin), the input
of tests/bot_audit/go_town_hold_fit.py, which fits the rule.

Session 16 knobs (helper, branch gts-s16): ``bsw`` (1, with ``pme`` 7: the build switch of ``--build RULE.json``, the
same shape as ``--hold``: where the playout row plays a card that is no build and the rule's
sum for its category is above 0, the searcher's seat plays the legal build ``attacker`` ranks
highest; ``_pi_build``), ``hj`` (``infer`` 9: how many of the rival's last END_TURN states are
tested, at most 6) and ``tries`` (determinizations drawn at most before the last is kept,
200); ``infer`` 10 (``_now_ok``: ``infer`` 4 plus a random subset of the rival's sampled
hand, as large as its hand at its last END_TURN less the cards taken since, tested with
``attacker``'s full priorities in the board now: the one-number-per-seat version of ``infer``
9 that a state-free bot could use). The log's last columns (``dv_end``, ``n_end``, ``n_a0``) give the END_TURN candidate's
mean playout value less attacker's pick's and their playouts, the input of the hold fit's
``--value``.

Session 17 knobs: ``infer`` 11 (``infer`` 4 plus strategies/go_town/bots.py ``history_ok``,
the test over the rival's END_TURN records in the engine's ``memo``); ``infer`` 12
(the compact history test alone, without ``infer`` 4's test of the hand now); ``tries`` < 0:
``|tries|`` tries, each determinizing the previous try's state again instead of a fresh copy
(the same draws, less CPU: what the shipped search does). The summary adds ``compact-test
misses`` (the rival's true hand, in a random order, failing the ``infer`` 11 test: expected,
since the order decides which cards count as held since a record), ``tries/playout`` and
``capped`` (determinizations that reached the cap).

Game ``i``: chance ``seed_for(seed, i, 0)``, the attacker's generator ``seed_for(seed, i, 1)``,
the search's ``seed_for(seed, i, 2)``; the search sits in seat ``i % 2``. A game nobody wins
counts 0. CPU: process time of the games (after a warm-up game).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit
from statsmodels.stats.proportion import proportion_confint

import sim
from sim.core import contract
from sim.core.rng import next_u64, rand_below, seed_for, shuffle
from sim.go_town import constants as K
from sim.go_town.kernels import (
    apply_arrays,
    count_legal,
    derive_hands,
    derived_arrays,
    legal_bits,
    list_legal,
    nth_legal,
)
from strategies import common, search
from strategies.go_town.bots import (
    _hold,
    _leader,
    _priority,
    allowed,
    choose_arrays,
    history_ok,
)

KNOBS = ("budget", "perfect", "max_len", "n_random", "mode", "z", "drop", "batch", "ms", "mw",
         "bias", "eval", "e_floor", "e_guard", "e_pair", "e_skip", "e_hand", "e_base", "infer",
         "allow", "veto_end", "end_pen", "prune", "min_pr", "stop_z", "stop_min",
         "stop_every", "plan2", "eq_eps", "depth", "pme", "popp", "eps", "pnoise", "known", "plans", "plan_len",
         "hbias", "hstoch", "psw", "psb2", "vcat", "bsw", "hj", "tries")
DEFAULTS = dict(budget=1000, perfect=0, max_len=2000, n_random=64, mode=0, z=2.0, drop=3.0,
                batch=8, ms=10.0, mw=0.1, bias=0.0, eval=0, e_floor=1.0, e_guard=0.0,
                e_pair=0.0, e_skip=0.0, e_hand=0.0, e_base=0.0, infer=0, allow=0,
                veto_end=0, end_pen=0.0, prune=0, min_pr=0.0, stop_z=0.0, stop_min=64,
                stop_every=16, plan2=0, eq_eps=0.0, depth=0, pme=-1, popp=-1, eps=0.0,
                pnoise=-1.0, known=0, plans=0, plan_len=6, hbias=0.0, hstoch=0,
                psw=0, psb2=2.0, vcat=0, bsw=0, hj=6, tries=200)
(C_BUDGET, C_PERFECT, C_MAXLEN, C_NRAND, C_MODE, C_Z, C_DROP, C_BATCH, C_MS, C_MW, C_BIAS,
 C_EVAL, C_EFLOOR, C_EGUARD, C_EPAIR, C_ESKIP, C_EHAND, C_EBASE, C_INFER, C_ALLOW, C_VETO_END,
 C_END_PEN, C_PRUNE, C_MIN_PR, C_STOP_Z, C_STOP_MIN, C_STOP_EVERY,
 C_PLAN2, C_EQ_EPS, C_DEPTH, C_PME, C_POPP, C_EPS, C_PNOISE, C_KNOWN, C_PLANS,
 C_PLAN_LEN, C_HBIAS, C_HSTOCH, C_PSW, C_PSB2, C_VCAT, C_BSW, C_HJ, C_TRIES) = range(
    len(KNOBS))
# rows of the lab's parameter matrix (``pme``/``popp`` pick one; -1: the playout row)
ROWS = ("search", "attacker", "greedy-tuned", "greedy", "thief-first", "defender",
        "attacker")  # the last: attacker with noise ``pnoise`` (row 6)
# stats
S_DEC, S_SEARCHED, S_PLAYOUTS, S_SWITCH, S_PDEC, S_ENDSW, S_NCAND, S_KNOWN, S_KCARDS, S_BAD, S_PLANS, S_RESH = range(12)
HJ = 6  # infer 9: the rival's END_TURN states kept (the most recent)
H0 = 8  # infer 9: snapok[H0 + j] its hand size then, snapok[H0 + HJ + j] cards it lost since
R0 = H0 + 2 * HJ + 1  # snapok[R0]: tries < 0 (no copy between tries); [R0 + 1]: tries; [R0 + 2]: capped


@njit(cache=True)
def _keep_best(alive, lo, keep, n_alive, val):
    """Sequential halving's cut: ``alive[lo:keep]`` become the best of ``alive[lo:n_alive]``
    by ``val`` (per candidate), in order; ties keep the earlier one (a selection sort, as
    strategies/search.py ``rollout_choose``)."""
    for i in range(lo, keep):
        bi = i
        bv = -1e300
        for j in range(i, n_alive):
            v = val[alive[j]]
            if v > bv:
                bv = v
                bi = j
        t = alive[i]
        alive[i] = alive[bi]
        alive[bi] = t


@njit(cache=True)
def _hand_known(det, rng):
    """perfect 2: the rival's hand as it is (known), the draw pile reshuffled and the chance
    generator reseeded (the deck order unknown)."""
    shuffle(rng, det.deck, det.meta[K.M_DECKN])
    det.rng[0] = next_u64(rng)


@njit(cache=True)
def _consistent(det, me, infer, params, prow):
    """infer 1: the rival (attacker) ends no turn holding a MILK, DONUT, THIEF or MASTER (it
    plays each whenever legal at 2 players); infer 2: the same, only when its hand holds more
    than ``refill_to`` cards (no card of it can be a refill drawn after its END_TURN)."""
    if infer == 0 or det.meta[K.M_TURN] < 2:
        return True
    r = 1 - me
    if infer == 2:
        h = 0
        for k in range(1, K.NT):
            h += det.hands[r, k]
        if h <= 3:
            return True
    if (det.hands[r, K.MILK] + det.hands[r, K.DONUT] + det.hands[r, K.THIEF]
            + det.hands[r, K.MASTER]) > 0:
        return False
    if infer >= 3:
        if infer >= 4:
            h = 0
            for k in range(1, K.NT):
                h += det.hands[r, k]
            if h <= 3:
                return True
        pair = False
        nums = 0
        for lo in range(1, 5):
            if det.hands[r, lo] > 0 and det.hands[r, 9 - lo] > 0:
                pair = True
            nums += det.hands[r, lo] + det.hands[r, 9 - lo]
        if det.hands[r, K.QM] > 0 and nums > 0:
            pair = True
        if pair and not _hold(r, det.n_floors[r], det.opts[K.O_TARGET], 2, det.hands,
                              det.dogs, det.n_floors, params, prow):
            return False
        if infer == 6:
            # the rival's own top floor unguarded now: it was at its END_TURN too (unless the
            # searcher boned it this turn), and attacker guards its top floor with any DOG
            fr = det.n_floors[r]
            if fr >= 1 and det.dogs[r, fr - 1] == 0 and det.hands[r, K.DOG] > 0:
                return False
            # the searcher has 2+ floors now: it had a floor at the rival's END_TURN (unless
            # it built two this turn), and attacker wrecks any floor it cannot steal
            if det.n_floors[me] >= 2 and det.hands[r, K.WRECK] > 0:
                return False
        if infer == 5:
            f = det.n_floors[me] - 1
            if f >= 0 and det.dogs[me, f] == 0:
                for slot in range(2):
                    w = det.values[me, f, slot]
                    if det.hands[r, 9 - w] > 0:
                        return False
                    if det.floors[me, f, slot] == K.QM and det.hands[r, K.QM] > 0:
                        return False
    return True


@njit(cache=True)
def _kept_ok(det, me, kept, params, prow, lrng, hx):
    """infer 8 (session 14): of the rival's sampled hand, ``kept`` cards (a uniformly random
    subset: which of its cards it held at its last END_TURN, the rest drawn since, is not
    seen) must be a hand ``attacker`` ends a turn with: no MILK, DONUT, THIEF or MASTER and no
    buildable pair unless attacker's hold rule keeps it (the rule tested on the subset, the
    board now). Any hand size (infer 4 tests only hands above ``refill_to``, whole)."""
    if kept <= 0 or det.meta[K.M_TURN] < 2:
        return True
    r = 1 - me
    h = 0
    for k in range(1, K.NT):
        h += det.hands[r, k]
    if kept > h:
        kept = h
    for k in range(K.NT):
        hx[0, k] = det.hands[me, k]
        hx[1, k] = 0
    # draw ``kept`` of the ``h`` cards without replacement
    rem = h
    for _ in range(kept):
        x = rand_below(lrng, rem)
        for k in range(1, K.NT):
            left = det.hands[r, k] - hx[1, k]
            if x < left:
                hx[1, k] += 1
                break
            x -= left
        rem -= 1
    if hx[1, K.MILK] + hx[1, K.DONUT] + hx[1, K.THIEF] + hx[1, K.MASTER] > 0:
        return False
    pair = False
    nums = 0
    for lo in range(1, 5):
        if hx[1, lo] > 0 and hx[1, 9 - lo] > 0:
            pair = True
        nums += hx[1, lo] + hx[1, 9 - lo]
    if hx[1, K.QM] > 0 and nums > 0:
        pair = True
    if pair:
        # _hold reads hands[c]: row 1 of hx stands for the rival (seat index 1 of hx)
        hh = np.zeros((2, K.NT), np.int64)
        for k in range(K.NT):
            hh[r, k] = hx[1, k]
            hh[me, k] = det.hands[me, k]
        if not _hold(r, det.n_floors[r], det.opts[K.O_TARGET], 2, hh, det.dogs, det.n_floors,
                     params, prow):
            return False
    return True


@njit(cache=True)
def _history_ok(det, me, snap, snapok, x, buf, pr, params, prow, lrng, perm):
    """infer 9 (session 14, a fair test): the rival's sampled hand against each of its last
    ``HJ`` END_TURN states (``snap[1 + j]``, as the searcher saw them): the cards it has held
    since END_TURN j number at least its hand then less the cards it lost since (played,
    discarded, taken by the searcher); a random order of the sampled hand (oldest first) gives
    those cards, nested across j, and with them as its hand in state j ``attacker`` must rank no
    action above END_TURN (nor play a card with a full hand)."""
    r = 1 - me
    h = _shuffled_hand(det, r, lrng, perm)
    nsn = min(snapok[5], snapok[7])
    for jj in range(nsn):
        j = (snapok[6] - 1 - jj) % HJ  # the most recent first
        m = snapok[H0 + j] - snapok[H0 + HJ + j]
        if m > h:
            m = h
        if m <= 0:
            continue
        contract.copy_into(snap[1 + j], x)
        if not _idle_with(x, r, perm, m, buf, pr, params, prow):
            return False
    return True


@njit(cache=True)
def _shuffled_hand(det, r, lrng, perm):
    """Seat ``r``'s hand in ``det`` as card types in ``perm``, in a random order from ``lrng``;
    returns its size (infer 9 and 10)."""
    h = 0
    for k in range(1, K.NT):
        for _ in range(det.hands[r, k]):
            perm[h] = k
            h += 1
    shuffle(lrng, perm, h)
    return h


@njit(cache=True)
def _idle_with(x, r, perm, m, buf, pr, params, prow):
    """With the first ``m`` cards of ``perm`` as seat ``r``'s hand in ``x`` (set in place), does
    ``attacker`` rank no legal action above END_TURN (infer 9 and 10)?"""
    for k in range(K.NT):
        x.hands[r, k] = 0
    for i in range(m):
        x.hands[r, perm[i]] += 1
    n = contract.legal_actions_into(x, buf)
    if n <= 1:
        return True
    _prios(x, buf, n, params, prow, pr)
    for i in range(n):
        if buf[i] != K.A_END and pr[i] > 0.0:
            return False
    return True


@njit(cache=True)
def _now_ok(s, det, me, kept, x, buf, pr, params, prow, lrng, perm):
    """infer 10 (session 16, what a state-free bot could test with one public number per
    seat in the state: the rival's hand size at its last END_TURN less the cards taken from it
    since): a random ``kept`` of the rival's sampled cards, as its hand in the board *now*
    with the rival to move, give ``attacker`` no action it ranks above END_TURN. The board now
    is the board of the rival's END_TURN at the searcher's first decision of its turn; later in
    the turn the searcher's own plays have changed it (an approximation)."""
    if kept <= 0 or det.meta[K.M_TURN] < 2 or det.meta[K.M_PHASE] != K.PH_PLAY:
        return True
    r = 1 - me
    h = _shuffled_hand(det, r, lrng, perm)
    m = min(kept, h)
    contract.copy_into(s, x)
    x.meta[K.M_CUR] = r
    return _idle_with(x, r, perm, m, buf, pr, params, prow)


@njit(cache=True)
def _oracle_ok(det, me, snap, x, buf, pr, params, prow):
    """infer 7 (not a fair player's test: it needs the board at the rival's last END_TURN,
    which the state does not record): the sampled rival hand, put into the recorded state
    at which the rival (attacker) chose END_TURN, gives attacker no action it ranks above
    END_TURN (nor, with a full hand, any card play). Only when that hand held 3+ cards (no
    refill after it); a card the searcher took since makes the tested hand a subset."""
    r = 1 - me
    h_end = 0
    for k in range(1, K.NT):
        h_end += snap[0].hands[r, k]
    if h_end < snap[0].consts[K.C_REFILL]:
        return True
    contract.copy_into(snap[0], x)
    for k in range(K.NT):
        x.hands[r, k] = det.hands[r, k]
    n = contract.legal_actions_into(x, buf)
    if n <= 1:
        return True
    _prios(x, buf, n, params, prow, pr)
    h = 0
    for k in range(1, K.NT):
        h += x.hands[r, k]
    for i in range(n):
        if buf[i] != K.A_END and (pr[i] > 0.0 or h >= x.consts[K.C_LIMIT]):
            return False
    return True


@njit(cache=True)
def _det_known(s, me, rng, kn):
    """``known`` 1 (session 14): ``determinize`` at 2 players with the cards ``kn[k]`` the
    searcher saw go into the rival's hand (taken from its own hand by the rival's THIEF or
    MASTER, not played or taken back since) kept in the rival's sampled hand: the rest of the
    hand and the pile are the other unknown cards, shuffled and dealt as ``determinize`` does
    (the exact conditional distribution under a uniform prior)."""
    r = 1 - me
    nk = 0
    for k in range(1, K.NT):
        nk += kn[k]
    if nk == 0:
        search.determinize(s, me, rng)
        return
    deck = s.deck
    hands = s.hands
    dn = s.meta[K.M_DECKN]
    sz = 0
    for k in range(1, K.NT):
        sz += hands[r, k]
    for j in range(dn):
        hands[r, deck[j]] += 1
    m = 0
    for k in range(1, K.NT):
        c = hands[r, k] - kn[k]
        for _ in range(c):
            deck[m] = k
            m += 1
        hands[r, k] = kn[k]
    shuffle(rng, deck, m)
    for _ in range(sz - nk):
        m -= 1
        hands[r, deck[m]] += 1
    for j in range(m, deck.shape[0]):
        deck[j] = 0
    s.rng[0] = next_u64(rng)


@njit(cache=True)
def _track(kn, hb, s, actor, a):
    """Update ``kn[q, k]``, the cards of type ``k`` seat ``q`` knows its rival holds, after
    ``actor`` played ``a`` (``hb``: both hands before). Everything used is what ``q`` sees: the
    rival's played or discarded cards (its action), the cards ``q`` lost to the rival's THIEF
    or MASTER (added), the cards ``q`` took from it (removed); refills add nothing."""
    for q in range(2):
        r = 1 - q
        take = actor == r and (a == K.A_MASTER or (K.A_THIEF <= a < K.A_DONUT
                                                   and a - K.A_THIEF == q))
        for k in range(1, K.NT):
            dq = s.hands[q, k] - hb[q, k]
            dr = s.hands[r, k] - hb[r, k]
            g = 0
            if take and dq < 0:
                g = -dq
            spent = g - dr
            if spent < 0:
                spent = 0
            v = kn[q, k] - spent
            if v < 0:
                v = 0
            kn[q, k] = v + g


@njit(cache=True)
def perfect3(s, me, snapok):
    """``perfect`` 3 (session 14, not a fair player): the rival's hand known exactly when it
    holds more than ``refill_to`` cards (the hands ``infer`` 4 tests), else sampled: what the
    hands inference can reach are worth at most (``snapok[4]`` carries the knob)."""
    if snapok[4] == 0:
        return False
    h = 0
    for k in range(1, K.NT):
        h += s.hands[1 - me, k]
    return h > s.consts[K.C_REFILL]


@njit(cache=True)
def _det(s, det, me, lrng, perfect, known, infer, params, prow, snap, snapok, x, buf, pr, kn):
    buf2 = np.zeros((2, K.NT), np.int64)
    perm = np.zeros(search.PLAUSIBLE_BUF, np.int64)
    if perfect3(s, me, snapok):
        known = True
    for it in range(snapok[H0 + 2 * HJ]):
        if it == 0 or snapok[R0] == 0:
            contract.copy_into(s, det)
        snapok[R0 + 1] += 1  # tries
        if it == snapok[H0 + 2 * HJ] - 1:
            snapok[R0 + 2] += 1  # the last try (the cap)
        if known:
            _hand_known(det, lrng)
            return
        if perfect:
            return
        _det_known(det, me, lrng, kn)
        if infer == 9:
            if _consistent(det, me, 4, params, prow) and _history_ok(
                    det, me, snap, snapok, x, buf, pr, params, prow, lrng, perm):
                return
            continue
        if infer == 12:  # the compact history alone (its newest record replaces infer 4)
            if history_ok(det, 1 - me, params, prow, lrng, perm):
                return
            continue
        if infer == 11:
            if _consistent(det, me, 4, params, prow) and history_ok(
                    det, 1 - me, params, prow, lrng, perm):
                return
            continue
        if infer == 10:
            if _consistent(det, me, 4, params, prow) and _now_ok(
                    s, det, me, snapok[2 + me], x, buf, pr, params, prow, lrng, perm):
                return
            continue
        if infer == 8:
            if _kept_ok(det, me, snapok[2 + me], params, prow, lrng, buf2):
                return
            continue
        if infer == 7:
            if _consistent(det, me, 4, params, prow) and (
                    snapok[0] == 0 or _oracle_ok(det, me, snap, x, buf, pr, params, prow)):
                return
        elif _consistent(det, me, infer, params, prow):
            return


@njit(cache=True)
def _prios(s, legal, n, params, prow, out):
    """``attacker``'s priority (no noise, no unstick) of each legal action ``legal[:n]``."""
    hn = np.empty(K.MAXP, np.int64)
    hm = np.empty(K.MAXP, np.int64)
    derive_hands(s.hands, hn, hm)
    c = s.meta[K.M_CUR]
    np_ = s.meta[K.M_NP]
    leader = _leader(hn, s.n_floors, np_, c)
    stealable = 0
    for i in range(n):
        a = legal[i]
        if K.A_STEAL <= a < K.A_DOG:
            stealable |= 1 << ((a - K.A_STEAL) // 4)
        out[i] = _priority(a, c, leader, s.n_floors[c], s.opts[K.O_TARGET], np_, s.opts,
                           s.counts, s.discard, s.hands, s.floors, s.values, s.dogs,
                           s.n_floors, s.skips, hn, stealable, params, prow)


CATS = ("end", "build", "buildq", "steal", "dog", "bone", "drill", "wreck", "milk", "thief",
        "donut", "master", "other")


@njit(cache=True)
def _cat(a):
    if a == K.A_END:
        return 0
    if a <= 4:
        return 1
    if a < K.A_STEAL:
        return 2
    if a < K.A_DOG:
        return 3
    if a < K.A_BONE:
        return 4
    if a < K.A_DRILL:
        return 5
    if a < K.A_WRECK:
        return 6
    if a < K.A_MILK:
        return 7
    if a < K.A_THIEF:
        return 8
    if a < K.A_DONUT:
        return 9
    if a == K.A_DONUT:
        return 10
    if a == K.A_MASTER:
        return 11
    return 12


@njit(cache=True)
def _admit(cfg, s, a, a0):
    """The lab's veto on a candidate ``a`` (the playout bot plays ``a0``)."""
    if cfg[C_ALLOW] != 0 and not allowed(s, a, a0):
        return False
    if (cfg[C_VETO_END] != 0 and a == K.A_END and a0 != K.A_END
            and s.meta[K.M_PHASE] == K.PH_PLAY):
        return False
    vc = int(cfg[C_VCAT])
    if (vc != 0 and a == K.A_END and a0 != K.A_END and s.meta[K.M_PHASE] == K.PH_PLAY
            and (vc >> _cat(a0)) & 1):
        return False
    return True


@njit(cache=True)
def _reward(w, me, cfg, ws, sc):
    if cfg[C_EVAL] == 0 or contract.is_over(w):
        return search.seat_reward(w, me, 2, cfg[C_MW], cfg[C_MS], ws, sc)
    return _evaluate(w, me, cfg)


@njit(cache=True)
def _evaluate(w, me, cfg):
    """``eval`` 1 (session 13): a truncated playout's value, a logistic of the seat's lead:
    ``e_floor`` x floors + ``e_guard`` x a dog on the top floor + ``e_hand`` x cards in hand +
    ``e_pair`` x buildable pairs in hand (and ``?``s) - ``e_skip`` x turns to skip + ``e_base``
    x floors^2 / target (closeness to the target), each the seat's minus the rival's; a
    finished game is scored by ``seat_reward`` as ever."""
    tgt = max(1, w.opts[K.O_TARGET])
    x = 0.0
    for q in range(2):
        sg = 1.0 if q == me else -1.0
        f = w.n_floors[q]
        g = 1.0 if f >= 1 and w.dogs[q, f - 1] > 0 else 0.0
        h = 0
        for k in range(1, K.NT):
            h += w.hands[q, k]
        pairs = 0
        for lo in range(1, 5):
            pairs += min(w.hands[q, lo], w.hands[q, 9 - lo])
        pairs += w.hands[q, K.QM]
        x += sg * (cfg[C_EFLOOR] * f + cfg[C_EGUARD] * g + cfg[C_EHAND] * h
                   + cfg[C_EPAIR] * pairs + cfg[C_EBASE] * f * f / tgt
                   - cfg[C_ESKIP] * w.skips[q])
    return 1.0 / (1.0 + np.exp(-x))


HF_NAMES = ("one", "my_fl", "op_fl", "my_dog", "op_dog", "my_h", "op_h", "deck10",
            "my_pairs", "my_qm", "my_dogs_h", "op_near", "me_near", "my_skip", "op_skip",
            "turn10")
NHF = len(HF_NAMES)


@njit(cache=True)
def _hold_feats(s, c, hn, x):
    """The hold rule's features for seat ``c`` at 2 players (``HF_NAMES``; the seat's view:
    its own hand, public counts and boards): 1; its floors; the rival's; a dog on its top
    floor; on the rival's; its cards in hand; the rival's; the draw pile / 10; the pairs it
    can build (as ``_hold`` counts them); its ?s; its DOGs; the rival one floor from the
    target; itself so; its turns to skip > 0; the rival's; the turn / 10."""
    r = 1 - c
    tgt = s.opts[K.O_TARGET]
    fc = s.n_floors[c]
    fr = s.n_floors[r]
    x[0] = 1.0
    x[1] = fc
    x[2] = fr
    x[3] = 1.0 if fc > 0 and s.dogs[c, fc - 1] > 0 else 0.0
    x[4] = 1.0 if fr > 0 and s.dogs[r, fr - 1] > 0 else 0.0
    x[5] = hn[c]
    x[6] = hn[r]
    x[7] = s.meta[K.M_DECKN] / 10.0
    pairs = 0
    left = 0
    for lo in range(1, 5):
        a = s.hands[c, lo]
        b = s.hands[c, 9 - lo]
        pairs += min(a, b)
        left += abs(a - b)
    pairs += min(s.hands[c, K.QM], left)
    x[8] = pairs
    x[9] = s.hands[c, K.QM]
    x[10] = s.hands[c, K.DOG]
    x[11] = 1.0 if fr >= tgt - 1 else 0.0
    x[12] = 1.0 if fc >= tgt - 1 else 0.0
    x[13] = 1.0 if s.skips[c] > 0 else 0.0
    x[14] = 1.0 if s.skips[r] > 0 else 0.0
    x[15] = s.meta[K.M_TURN] / 10.0


@njit(cache=True)
def _rule_sum(s, c, hn, hw, k, x):
    """A fitted rule's sum ``hw[k] . features`` for seat ``c`` (``_hold_feats`` into ``x``), or
    NaN where row ``k`` of ``hw`` is all zero (no rule for that category)."""
    nz = False
    for j in range(NHF):
        if hw[k, j] != 0.0:
            nz = True
    if not nz:
        return np.nan
    _hold_feats(s, c, hn, x)
    z = 0.0
    for j in range(NHF):
        z += hw[k, j] * x[j]
    return z


@njit(cache=True)
def _pi_hold(s, c, hn, a, hw, x, hb, hs, lrng):
    """Session 15's hold rule (``pme``/``popp`` 7): END_TURN instead of the card play ``a`` of
    the playout row when ``z = hw[_cat(a)] . features + hbias > 0`` (``hstoch`` 1: with
    probability ``1 / (1 + exp(-z))``), in phase play with a hand below the hand limit (never
    a full-hand pass, as ``allowed``)."""
    if a == K.A_END or s.meta[K.M_PHASE] != K.PH_PLAY or hn[c] >= s.consts[K.C_LIMIT]:
        return False
    z = _rule_sum(s, c, hn, hw, _cat(a), x)
    if np.isnan(z):
        return False
    z += hb
    if hs:
        return (next_u64(lrng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) < 1.0 / (
            1.0 + np.exp(-z))
    return z > 0.0


NB0 = 13  # hw[NB0 + _cat]: the build-switch rule (session 16, ``bsw``)


@njit(cache=True)
def _pi_build(s, c, hn, a, hw, x, legal, n, params, prow, pr):
    """Session 16's build switch (``bsw`` 1, with ``pme`` 7): where the playout row plays a
    card ``a`` that is no build and ``hw[NB0 + _cat(a)] . features > 0``, play instead the
    legal build ``attacker`` ranks highest (``a`` if none is legal)."""
    if a == K.A_END or a < K.A_STEAL or s.meta[K.M_PHASE] != K.PH_PLAY:
        return a
    has = False
    for i in range(n):
        if legal[i] != K.A_END and legal[i] < K.A_STEAL:
            has = True
            break
    if not has:
        return a
    z = _rule_sum(s, c, hn, hw, NB0 + _cat(a), x)
    if np.isnan(z) or z <= 0.0:
        return a
    _prios(s, legal, n, params, prow, pr)
    best = a
    bv = -1e300
    for i in range(n):
        b = legal[i]
        if b != K.A_END and b < K.A_STEAL and pr[i] > bv:
            bv = pr[i]
            best = b
    return best


@njit(cache=True)
def _playout(w, cfg, me, params, pcode, prow, lrng, max_len, hw):
    """The lab's playout: ``search.playout`` unless a session-13 knob asks for its own loop:
    ``depth`` seat turns at most (then ``_reward`` scores the truncated state), ``pme``/``popp``
    the rows playing the searcher's and the rival's seat, ``eps`` the chance of a uniformly
    random legal action at each decision."""
    depth = int(cfg[C_DEPTH])
    pme = int(cfg[C_PME])
    popp = int(cfg[C_POPP])
    eps = cfg[C_EPS]
    if depth <= 0 and pme < 0 and popp < 0 and eps <= 0.0:
        return search.playout(w, pcode, params, prow, lrng, max_len)
    # 7: the playout row (attacker) with the hold rule ``hw`` (session 15)
    hme = pme == 7
    hopp = popp == 7
    rme = prow if (pme < 0 or hme) else pme
    ropp = prow if (popp < 0 or hopp) else popp
    hx = np.zeros(NHF, np.float64)
    hb = cfg[C_HBIAS]
    hs = cfg[C_HSTOCH] != 0
    bsw = cfg[C_BSW] != 0
    pr = np.zeros(K.NUM_ACTIONS, np.float64)
    t0 = w.meta[K.M_TURN]
    # the loop of strategies/go_town/batch.py ``play_out_fast`` (derived arrays kept)
    hn, hm, dogbits, board = derived_arrays(w)
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    meta = w.meta
    d = 0
    while meta[K.M_PHASE] != K.PH_OVER and d < max_len:
        if depth > 0 and meta[K.M_TURN] - t0 >= depth:
            break
        lo, d0, d1, b0, b1, hi = legal_bits(meta, w.opts, w.consts, w.skips, hn, hm, board)
        if eps > 0.0 and (next_u64(lrng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) < eps:
            a = nth_legal(lo, d0, d1, b0, b1, hi,
                          rand_below(lrng, count_legal(lo, d0, d1, b0, b1, hi)))
        else:
            n = list_legal(lo, d0, d1, b0, b1, hi, legal)
            mine = meta[K.M_CUR] == me
            row = rme if mine else ropp
            a = choose_arrays(pcode, params, row, meta, w.opts, w.consts, w.counts, w.discard,
                              w.hands, w.floors, w.values, w.dogs, w.n_floors, w.skips, hn,
                              legal, n, lrng)
            if (hme if mine else hopp) and _pi_hold(w, meta[K.M_CUR], hn, a, hw, hx, hb,
                                                    hs, lrng):
                a = K.A_END
            elif bsw and mine and hme:
                a = _pi_build(w, meta[K.M_CUR], hn, a, hw, hx, legal, n, params, prow, pr)
        apply_arrays(meta, w.rng, w.opts, w.counts, w.consts, w.deck, w.discard, w.hands,
                     w.floors, w.values, w.dogs, w.n_floors, w.skips, w.milk, w.played, w.memo,
                     hn, hm, dogbits, board, np.int32(a), False)
        d += 1
    return d


@njit(cache=True)
def _mix(h, v):
    h ^= np.uint64(v) + np.uint64(0x9E3779B97F4A7C15) + (h << np.uint64(6)) + (h >> np.uint64(2))
    return h * np.uint64(0xBF58476D1CE4E5B9)


@njit(cache=True)
def _hash_state(w):
    """A 64-bit hash of what a turn plan changes (hands, buildings, skips, milkshakes, discard
    pile): two orders of the same plays that reach one state hash alike (transpositions)."""
    h = np.uint64(1469598103934665603)
    for x in w.hands.ravel():
        h = _mix(h, x)
    for x in w.floors.ravel():
        h = _mix(h, x)
    for x in w.values.ravel():
        h = _mix(h, x)
    for x in w.dogs.ravel():
        h = _mix(h, x)
    for x in w.n_floors:
        h = _mix(h, x)
    for x in w.skips:
        h = _mix(h, x)
    for x in w.milk:
        h = _mix(h, x)
    for x in w.discard:
        h = _mix(h, x)
    h = _mix(h, w.meta[K.M_PHASE])
    h = _mix(h, w.meta[K.M_CUR])
    return h


@njit(cache=True)
def _enum_plans(s, me, params, pcode, prow, rng, maxp, maxl, plans, plen):
    """``plans`` 1 (session 14): the searcher's complete turn plans from ``s`` (its own turn,
    phase play), depth first, ``attacker``'s pick first at every node (so plan 0 is attacker's
    own line): a plan ends with END_TURN, with a THIEF or MASTER (chance: the playout goes on
    from its outcome), with the game's end or after ``maxl`` plays. States reached twice (two
    orders of the same plays) are expanded once. Each node's candidates pass the ``allowed``
    veto against attacker's pick there. At most ``maxp`` plans; returns their count."""
    na = search.num_actions(s)
    stk = []
    for _ in range(maxl + 1):
        stk.append(search.clone(s))
    lg = np.empty((maxl + 1, na), np.int32)
    cnt = np.zeros(maxl + 1, np.int64)
    idx = np.zeros(maxl + 1, np.int64)
    a0s = np.zeros(maxl + 1, np.int64)
    path = np.zeros(maxl + 1, np.int32)
    seen = np.zeros(4096, np.uint64)
    nseen = 0
    np_ = 0
    contract.copy_into(s, stk[0])
    n = contract.legal_actions_into(stk[0], lg[0])
    a0 = search.scripted_choose(pcode, params, prow, stk[0], lg[0], n, rng)
    for i in range(n):
        if lg[0, i] == a0:
            lg[0, i] = lg[0, 0]
            lg[0, 0] = a0
    cnt[0] = n
    a0s[0] = a0
    d = 0
    while d >= 0 and np_ < maxp:
        if idx[d] >= cnt[d]:
            d -= 1
            continue
        a = lg[d, idx[d]]
        idx[d] += 1
        if not allowed(stk[d], a, a0s[d]):
            continue
        path[d] = a
        leaf = (a == K.A_END or a == K.A_MASTER or (K.A_THIEF <= a < K.A_DONUT)
                or d + 1 >= maxl)
        if not leaf:
            w = stk[d + 1]
            contract.copy_into(stk[d], w)
            contract.apply_inplace(w, a)
            if (contract.is_over(w) or contract.current_seat(w) != me
                    or w.meta[K.M_PHASE] != K.PH_PLAY):
                leaf = True
            else:
                hsh = _hash_state(w)
                dup = False
                for j in range(nseen):
                    if seen[j] == hsh:
                        dup = True
                        break
                if dup:
                    continue
                if nseen < seen.shape[0]:
                    seen[nseen] = hsh
                    nseen += 1
                m = contract.legal_actions_into(w, lg[d + 1])
                b0 = search.scripted_choose(pcode, params, prow, w, lg[d + 1], m, rng)
                for i in range(m):
                    if lg[d + 1, i] == b0:
                        lg[d + 1, i] = lg[d + 1, 0]
                        lg[d + 1, 0] = b0
                cnt[d + 1] = m
                idx[d + 1] = 0
                a0s[d + 1] = b0
                d += 1
                continue
        for j in range(d + 1):
            plans[np_, j] = path[j]
        plen[np_] = d + 1
        np_ += 1
    return np_


@njit(cache=True)
def _plan_choose(cfg, params, s, me, pcode, prow, max_len, rng, st, snap, snapok, kn, a0, hw):
    """Sequential halving over the turn plans of ``_enum_plans``: each plan is applied to a
    determinization and played out by attacker from the end of it; the first play of the best
    plan is returned."""
    maxp = max(1, int(cfg[C_PLANS]))
    maxl = max(1, int(cfg[C_PLAN_LEN]))
    budget = max(1, int(cfg[C_BUDGET]))
    infer = int(cfg[C_INFER])
    plans = np.zeros((maxp, maxl + 1), np.int32)
    plen = np.zeros(maxp, np.int64)
    nc = _enum_plans(s, me, params, pcode, prow, rng, maxp, maxl, plans, plen)
    st[S_PLANS] += nc
    # the plans' distinct first plays: one plan only means one choice
    first_same = True
    for i in range(1, nc):
        if plans[i, 0] != plans[0, 0]:
            first_same = False
    if nc <= 1 or first_same:
        return plans[0, 0] if nc >= 1 else a0
    st[S_SEARCHED] += 1
    st[S_NCAND] += nc
    det = search.clone(s)
    w = search.clone(s)
    ox = search.clone(s)
    obuf = np.empty(search.num_actions(s), np.int32)
    opr = np.zeros(search.num_actions(s), np.float64)
    ws = np.zeros(8, np.float64)
    sc = np.zeros(8, np.float64)
    tot = np.zeros(nc, np.float64)
    cnt = np.zeros(nc, np.float64)
    alive = np.arange(nc)
    n_alive = nc
    lrng = np.empty(1, np.uint64)
    used = 0
    rounds = 0
    c = 1
    while c < nc:
        c *= 2
        rounds += 1
    for _r in range(rounds):
        m = budget // (rounds * n_alive)
        if m < 1:
            m = 1
        for _j in range(m):
            lrng[0] = next_u64(rng)
            _det(s, det, me, lrng, False, False, infer, params, prow, snap, snapok, ox,
                 obuf, opr, kn)
            saved = lrng[0]
            for i in range(n_alive):
                ci = alive[i]
                contract.copy_into(det, w)
                lrng[0] = saved
                for j in range(plen[ci]):
                    if contract.is_over(w):
                        break
                    contract.apply_inplace(w, plans[ci, j])
                if not contract.is_over(w):
                    st[S_PDEC] += _playout(w, cfg, me, params, pcode, prow, lrng, max_len, hw)
                x = _reward(w, me, cfg, ws, sc)
                tot[ci] += x
                cnt[ci] += 1.0
                used += 1
        keep = (n_alive + 1) // 2
        _keep_best(alive, 0, keep, n_alive, tot / np.maximum(cnt, 1.0))
        n_alive = keep
        if n_alive == 1:
            break
    st[S_PLAYOUTS] += used
    a = plans[alive[0], 0]
    if a != a0:
        st[S_SWITCH] += 1
        if a == K.A_END:
            st[S_ENDSW] += 1
    return a


LOG_COLS = ("game", "seat", "a0", "pick", "searched", "my_fl", "op_fl", "my_dog", "op_dog",
            "my_h", "op_h", "deck", "disc", "turn", "my_skip", "op_skip", "plays", "dv", "nc",
            "can_steal") + tuple(f"h{k}" for k in range(K.NT)) + tuple(
                f"x_{nm}" for nm in HF_NAMES) + ("dv_end", "n_end", "n_a0")
ST_LOGN, ST_PLAYS, ST_GAME = 47, 46, 45  # st slots: log rows, plays this turn, game index


@njit(cache=True)
def _log(lg, st, s, a0, pick, searched, dv, nc, dv_end=0.0, n_end=0.0, n_a0=0.0):
    """``--log``: one row of ``LOG_COLS`` per decision of the lab search in phase play (the
    searcher's view only: its hand, public counts), for fitting a rule to its choices.
    Session 16: ``dv_end`` the END_TURN candidate's mean playout value less attacker's pick's,
    ``n_end``/``n_a0`` their playouts (``n_end`` 0: END_TURN was no candidate, or is the pick
    of attacker)."""
    i = int(st[ST_LOGN])
    if i >= lg.shape[0] or s.meta[K.M_PHASE] != K.PH_PLAY:
        return
    st[ST_LOGN] += 1
    me = s.meta[K.M_CUR]
    r = 1 - me
    lg[i, 0] = st[ST_GAME]
    lg[i, 1] = me
    lg[i, 2] = a0
    lg[i, 3] = pick
    lg[i, 4] = searched
    lg[i, 5] = s.n_floors[me]
    lg[i, 6] = s.n_floors[r]
    lg[i, 7] = 1.0 if s.n_floors[me] > 0 and s.dogs[me, s.n_floors[me] - 1] > 0 else 0.0
    lg[i, 8] = 1.0 if s.n_floors[r] > 0 and s.dogs[r, s.n_floors[r] - 1] > 0 else 0.0
    hm = 0
    hr = 0
    for k in range(1, K.NT):
        hm += s.hands[me, k]
        hr += s.hands[r, k]
        lg[i, 20 + k] = s.hands[me, k]
    lg[i, 9] = hm
    lg[i, 10] = hr
    lg[i, 11] = s.meta[K.M_DECKN]
    dsc = 0
    for k in range(1, K.NT):
        dsc += s.discard[k]
    lg[i, 12] = dsc
    lg[i, 13] = s.meta[K.M_TURN]
    lg[i, 14] = s.skips[me]
    lg[i, 15] = s.skips[r]
    lg[i, 16] = st[ST_PLAYS]
    lg[i, 17] = dv
    lg[i, 18] = nc
    lg[i, 19] = 0.0
    hn = np.zeros(K.MAXP, np.int64)
    hn[me] = hm
    hn[r] = hr
    x = np.zeros(NHF, np.float64)
    _hold_feats(s, me, hn, x)
    for j in range(NHF):
        lg[i, 20 + K.NT + j] = x[j]
    lg[i, 20 + K.NT + NHF] = dv_end
    lg[i, 21 + K.NT + NHF] = n_end
    lg[i, 22 + K.NT + NHF] = n_a0


@njit(cache=True)
def lab_choose(cfg, params, k, s, legal, n, rng, st, snap, snapok, kn_all, lg, hw):
    budget = max(1, int(cfg[C_BUDGET]))
    pcode = int(params[k, search.P_PCODE])
    prow = int(params[k, search.P_PROW])
    max_len = int(cfg[C_MAXLEN])
    if max_len <= 0:
        max_len = search.NO_CAP
    erow = int(params[k, search.P_EROW])
    nexp = int(params[k, search.P_NEXP])
    ecode = int(params[k, search.P_ECODE])
    nrand = int(cfg[C_NRAND])
    bias = cfg[C_BIAS]
    mode = int(cfg[C_MODE])
    perfect = cfg[C_PERFECT] == 1
    known = cfg[C_PERFECT] == 2
    infer = int(cfg[C_INFER])
    cand = np.empty(n, np.int32)
    a0 = search.scripted_choose(pcode, params, prow, s, legal, n, rng)
    cand[0] = a0
    nc = 1
    if cfg[C_PLANS] > 0 and s.meta[K.M_PHASE] == K.PH_PLAY:
        me = contract.current_seat(s)
        st[S_DEC] += 1
        kn = kn_all[me]
        if cfg[C_KNOWN] == 0:
            kn = np.zeros(K.NT, np.int64)
        return _plan_choose(cfg, params, s, me, pcode, prow, max_len, rng, st, snap, snapok,
                            kn, a0, hw)
    for e in range(nexp):
        a = search.scripted_choose(ecode, params, erow + e, s, legal, n, rng)
        if _admit(cfg, s, a, a0):
            nc = search.add_candidate(cand, nc, a)
    prune = int(cfg[C_PRUNE])
    pr = np.zeros(n, np.float64)
    if prune != 0 and s.meta[K.M_PHASE] == K.PH_PLAY:
        _prios(s, legal, n, params, prow, pr)
    else:
        prune = 0
    if nrand < 0:
        for i in range(n):
            if _admit(cfg, s, legal[i], a0) and (prune == 0 or legal[i] == K.A_END
                                                 or pr[i] > cfg[C_MIN_PR]):
                nc = search.add_candidate(cand, nc, legal[i])
    else:
        for _ in range(nrand):
            if nc >= n:
                break
            i = rand_below(rng, n)
            if _admit(cfg, s, legal[i], a0) and (prune == 0 or legal[i] == K.A_END
                                                 or pr[i] > cfg[C_MIN_PR]):
                nc = search.add_candidate(cand, nc, legal[i])
    st[S_DEC] += 1
    if nc == 1:
        _log(lg, st, s, a0, a0, 0, 0.0, 1)
        return a0
    st[S_NCAND] += nc
    pmode = np.zeros(2 * nc, np.int64)
    if cfg[C_PLAN2] != 0 and s.meta[K.M_PHASE] == K.PH_PLAY:
        # turn plans: each card play also as "play it, then end the turn" (mode 1)
        c2 = np.empty(2 * nc, np.int32)
        m2 = 0
        for i in range(nc):
            c2[m2] = cand[i]
            m2 += 1
        for i in range(nc):
            if cand[i] != K.A_END:
                c2[m2] = cand[i]
                pmode[m2] = 1
                m2 += 1
        cand = c2
        nc = m2
    st[S_SEARCHED] += 1
    me = contract.current_seat(s)
    kn = kn_all[me]
    nkn = 0
    for kk in range(1, K.NT):
        nkn += kn_all[me, kk]
    if snapok.shape[0] > 1 and snapok[1] != 0:
        st[S_RESH] += 1
    if nkn > 0:
        st[S_KNOWN] += 1
        st[S_KCARDS] += nkn
    if cfg[C_KNOWN] == 0:
        kn = np.zeros(K.NT, np.int64)
    det = search.clone(s)
    w = search.clone(s)
    ox = search.clone(s)
    obuf = np.empty(search.num_actions(s), np.int32)
    opr = np.zeros(search.num_actions(s), np.float64)
    ws = np.zeros(8, np.float64)
    sc = np.zeros(8, np.float64)
    tot = np.zeros(nc, np.float64)
    cnt = np.zeros(nc, np.float64)
    dsum = np.zeros(nc, np.float64)
    dsq = np.zeros(nc, np.float64)
    x = np.zeros(nc, np.float64)
    alive = np.arange(nc)
    n_alive = nc
    lrng = np.empty(1, np.uint64)
    used = 0
    if mode == 1:
        batch = max(1, int(cfg[C_BATCH]))
        r = 0
        while used < budget and n_alive > 1:
            lrng[0] = next_u64(rng)
            _det(s, det, me, lrng, perfect, known, infer, params, prow, snap, snapok, ox,
                 obuf, opr, kn)
            saved = lrng[0]
            for i in range(n_alive):
                ci = alive[i]
                contract.copy_into(det, w)
                lrng[0] = saved
                contract.apply_inplace(w, cand[ci])
                if not contract.is_over(w):
                    st[S_PDEC] += _playout(w, cfg, me, params, pcode, prow, lrng, max_len, hw)
                x[ci] = _reward(w, me, cfg, ws, sc)
                tot[ci] += x[ci]
                cnt[ci] += 1.0
                used += 1
            for i in range(n_alive):
                ci = alive[i]
                d = x[ci] - x[0]
                dsum[ci] += d
                dsq[ci] += d * d
            r += 1
            if r % batch == 0 and r >= 2:
                j = 0
                for i in range(n_alive):
                    ci = alive[i]
                    keep = True
                    if ci != 0:
                        m = dsum[ci] / r
                        var = (dsq[ci] / r - m * m) / (r - 1)
                        se = np.sqrt(var) if var > 0 else 0.0
                        if m + cfg[C_DROP] * se < 0 or (m < 0 and se == 0.0):
                            keep = False
                    if keep:
                        alive[j] = ci
                        j += 1
                n_alive = j
        st[S_PLAYOUTS] += used
        best = 0
        bv = tot[0] / cnt[0] + bias
        for i in range(n_alive):
            ci = alive[i]
            if ci == 0 or cnt[ci] < 2:
                continue
            m = dsum[ci] / cnt[ci]
            var = (dsq[ci] / cnt[ci] - m * m) / (cnt[ci] - 1)
            se = np.sqrt(var) if var > 0 else 0.0
            v = tot[ci] / cnt[ci]
            if m > 0 and m > cfg[C_Z] * se and v > bv:
                bv = v
                best = ci
        if best != 0:
            st[S_SWITCH] += 1
        return cand[best]
    # modes 0 and 2: sequential halving (mode 2 keeps candidate 0 alive and ends on a z-test)
    rounds = 0
    c = 1
    while c < nc:
        c *= 2
        rounds += 1
    stop_z = cfg[C_STOP_Z]
    stop_min = int(cfg[C_STOP_MIN])
    stop_every = max(1, int(cfg[C_STOP_EVERY]))
    # policy switching (``psw`` >= 2; Chang, Givan and Chong 2004, parallel rollout): the
    # determinizations take the searcher's own-seat playout policy in turn (0: the playout
    # row; 1: it with the hold rule, ``hbias``; 2: the hold rule with ``psb2``), and a
    # candidate is valued by its best policy's mean
    psw = int(cfg[C_PSW])
    npol = psw if psw >= 2 else 1
    cfgp = np.empty((npol, cfg.shape[0]), np.float64)
    for q in range(npol):
        cfgp[q, :] = cfg
        if psw >= 2:
            cfgp[q, C_PME] = -1.0 if q == 0 else 7.0
            cfgp[q, C_HBIAS] = cfg[C_HBIAS] if q == 1 else cfg[C_PSB2]
    tot2 = np.zeros((nc, npol), np.float64)
    cnt2 = np.zeros((nc, npol), np.float64)
    jdet = 0
    for _r in range(rounds):
        m = budget // (rounds * n_alive)
        if m < 1:
            m = 1
        pd = 0.0
        pq = 0.0
        for _j in range(m):
            lrng[0] = next_u64(rng)
            _det(s, det, me, lrng, perfect, known, infer, params, prow, snap, snapok, ox,
                 obuf, opr, kn)
            saved = lrng[0]
            pol = jdet % npol
            jdet += 1
            for i in range(n_alive):
                ci = alive[i]
                contract.copy_into(det, w)
                lrng[0] = saved
                contract.apply_inplace(w, cand[ci])
                if (pmode[ci] == 1 and not contract.is_over(w) and contract.current_seat(w) == me
                        and w.meta[K.M_PHASE] == K.PH_PLAY):
                    contract.apply_inplace(w, K.A_END)
                if not contract.is_over(w):
                    st[S_PDEC] += _playout(w, cfgp[pol], me, params, pcode, prow, lrng,
                                           max_len, hw)
                x[ci] = _reward(w, me, cfg, ws, sc)
                tot[ci] += x[ci]
                cnt[ci] += 1.0
                tot2[ci, pol] += x[ci]
                cnt2[ci, pol] += 1.0
                used += 1
            if (stop_z > 0 or cfg[C_EQ_EPS] > 0) and n_alive == 2 and mode == 0:
                d = x[alive[1]] - x[alive[0]]
                pd += d
                pq += d * d
                jj = _j + 1
                if jj >= stop_min and jj % stop_every == 0:
                    md = pd / jj
                    var = (pq / jj - md * md) / (jj - 1)
                    if stop_z > 0 and md * md > stop_z * stop_z * var:
                        break
                    if abs(md) + 2.0 * np.sqrt(max(var, 0.0)) < cfg[C_EQ_EPS]:
                        break
            if mode == 2:
                for i in range(n_alive):
                    ci = alive[i]
                    d = x[ci] - x[0]
                    dsum[ci] += d
                    dsq[ci] += d * d
        keep = (n_alive + 1) // 2
        if mode == 2:
            # candidate 0 stays at alive[0]; the rest compete for keep - 1 places
            for i in range(n_alive):
                if alive[i] == 0:
                    alive[i] = alive[0]
                    alive[0] = 0
            _keep_best(alive, 1, keep, n_alive, tot / np.maximum(cnt, 1.0))
            if keep < 2:
                keep = 2
            n_alive = keep
            if n_alive == 2 and _r >= rounds - 1:
                break
            continue
        val = tot / np.maximum(cnt, 1.0)
        if npol > 1:
            for ci in range(nc):
                bv2 = -1e300
                for q in range(npol):
                    if cnt2[ci, q] > 0:
                        bv2 = max(bv2, tot2[ci, q] / cnt2[ci, q])
                if bv2 > -1e300:
                    val[ci] = bv2
        val[0] += bias
        for j in range(1, nc):
            if cand[j] == K.A_END:
                val[j] -= cfg[C_END_PEN]
        _keep_best(alive, 0, keep, n_alive, val)
        n_alive = keep
        if n_alive == 1:
            break
    st[S_PLAYOUTS] += used
    if mode == 2:
        best = 0
        bv = tot[0] / cnt[0] + bias
        for i in range(n_alive):
            ci = alive[i]
            if ci == 0 or cnt[ci] < 2:
                continue
            # paired statistics accumulate only while both were alive: from the start for ci
            m = dsum[ci] / cnt[ci]
            var = (dsq[ci] / cnt[ci] - m * m) / (cnt[ci] - 1)
            se = np.sqrt(var) if var > 0 else 0.0
            v = tot[ci] / cnt[ci]
            if m > 0 and m > cfg[C_Z] * se and v > bv:
                bv = v
                best = ci
        if best != 0:
            st[S_SWITCH] += 1
        return cand[best]
    if cand[alive[0]] != a0:
        st[S_SWITCH] += 1
        if cand[alive[0]] == K.A_END:
            st[S_ENDSW] += 1
            st[16 + _cat(a0)] += 1
        else:
            st[32 + _cat(a0)] += 1
    b = alive[0]
    v0 = tot[0] / max(cnt[0], 1.0)
    dve = 0.0
    ne = 0.0
    if a0 != K.A_END:
        for i in range(nc):
            if cand[i] == K.A_END and pmode[i] == 0:
                dve = tot[i] / max(cnt[i], 1.0) - v0
                ne = cnt[i]
    _log(lg, st, s, a0, cand[b], 1, tot[b] / max(cnt[b], 1.0) - v0, nc, dve, ne, cnt[0])
    return cand[alive[0]]


@njit(cache=True)
def play(cfg, s, seed, first, n_games, codes, params, mirror, out, st, lg, hw):
    """Games ``first ..``: the lab search (row 0) in seat ``g % 2`` (every seat if
    ``mirror``), ``attacker`` (row 1) in the other. ``out[g]``: (the search seat's win share,
    1 if nobody won, decisions)."""
    legal = np.empty(search.num_actions(s), np.int32)
    brng = np.empty(1, np.uint64)
    srng = np.empty(1, np.uint64)
    ws = np.zeros(8, np.float64)
    maxd = 64000
    snap = [search.clone(s)]  # [0]: infer 7's state; [1 + j]: infer 9's END_TURN states
    for _ in range(HJ):
        snap.append(search.clone(s))
    # [1]: the pile was reshuffled this game; [2 + q]: cards q's rival has held since its last
    # END_TURN (its hand size then, less the cards q took from it since; infer 8); [4]:
    # perfect 3; [5]: END_TURN states recorded (infer 9), [6]: the next slot
    snapok = np.zeros(R0 + 3, np.int64)
    snapok[R0] = 1 if cfg[C_TRIES] < 0 else 0  # tries < 0: no copy between tries
    snapok[4] = 1 if cfg[C_PERFECT] == 3 else 0
    snapok[7] = min(HJ, max(1, int(cfg[C_HJ])))  # infer 9: END_TURN states tested
    snapok[H0 + 2 * HJ] = max(1, abs(int(cfg[C_TRIES])))  # determinizations drawn at most
    kn = np.zeros((2, K.NT), np.int64)
    hb = np.zeros((2, K.NT), np.int64)
    chk_rng = np.ones(1, np.uint64)
    chk_perm = np.zeros(search.PLAUSIBLE_BUF, np.int64)
    for g in range(n_games):
        gi = np.uint64(first + g)
        me = (first + g) % 2
        contract.init_state(s, 2, seed_for(seed, gi, np.uint64(0)))
        snapok[0] = 0
        snapok[1] = 0
        snapok[2] = 0
        snapok[3] = 0
        snapok[5] = 0
        snapok[6] = 0
        kn[:, :] = 0
        brng[0] = seed_for(seed, gi, np.uint64(1))
        srng[0] = seed_for(seed, gi, np.uint64(2))
        d = 0
        st[ST_GAME] = first + g
        plays = 0
        while not contract.is_over(s) and d < maxd:
            nl = contract.legal_actions_into(s, legal)
            c = contract.current_seat(s)
            st[ST_PLAYS] = plays
            t_before = s.meta[K.M_TURN]
            if nl == 1:
                a = legal[0]
            elif c == me or mirror:
                if cfg[C_INFER] >= 11 and not mirror:
                    # the true hand must pass the compact test (else the model is wrong)
                    st[48] += 1
                    if not history_ok(s, 1 - me, params, 1, chk_rng, chk_perm):
                        st[49] += 1
                a = lab_choose(cfg, params, 0, s, legal, nl, srng, st, snap, snapok, kn, lg, hw)
            else:
                a = common.bot_choose(codes[1], params, 1, s, legal, nl, brng)
            if c != me and a == K.A_END and s.meta[K.M_PHASE] == K.PH_PLAY:
                contract.copy_into(s, snap[0])  # the board at the rival's END_TURN (infer 7)
                j = snapok[6]
                contract.copy_into(s, snap[1 + j])  # infer 9 (what seat me saw, and hands)
                h0 = 0
                for kk in range(1, K.NT):
                    h0 += s.hands[c, kk]
                snapok[H0 + j] = h0
                snapok[H0 + HJ + j] = 0
                snapok[6] = (j + 1) % HJ
                snapok[5] += 1
                snapok[0] = 1
            for q in range(2):
                for kk in range(K.NT):
                    hb[q, kk] = s.hands[q, kk]
            dn0 = s.meta[K.M_DECKN]
            ph0 = s.meta[K.M_PHASE]
            if a == K.A_END and s.meta[K.M_PHASE] == K.PH_PLAY:
                h0 = 0
                for kk in range(1, K.NT):
                    h0 += s.hands[c, kk]
                snapok[2 + (1 - c)] = h0
            contract.apply_inplace(s, a)
            if s.meta[K.M_TURN] != t_before or contract.current_seat(s) != c:
                plays = 0
            else:
                plays += 1
            if s.meta[K.M_DECKN] > dn0:
                snapok[1] = 1
            _track(kn, hb, s, c, a)
            # infer 9: cards that left the rival's hand (its plays and discards, the
            # searcher's takes), added to every recorded END_TURN's count
            r9 = 1 - me
            lost9 = 0
            if c == r9:
                # its own plays: every card out; a THIEF/MASTER's gain and a refill come in
                if a != K.A_END or ph0 == K.PH_DISCARD:
                    lost9 = 1
                    if K.A_BUILD <= a < K.A_STEAL:
                        lost9 = 2
            else:
                for kk in range(1, K.NT):
                    dd = hb[r9, kk] - s.hands[r9, kk]
                    if dd > 0:
                        lost9 += dd
            if lost9 > 0:
                for j in range(HJ):
                    snapok[H0 + HJ + j] += lost9
            for q in range(2):
                # cards q took from its rival (its THIEF or MASTER): kept shrinks (a bound)
                if c == q:
                    lost = 0
                    for kk in range(1, K.NT):
                        dd = hb[1 - q, kk] - s.hands[1 - q, kk]
                        if dd > 0:
                            lost += dd
                    snapok[2 + q] = max(0, snapok[2 + q] - lost)
            for q in range(2):
                for kk in range(K.NT):
                    if kn[q, kk] > s.hands[1 - q, kk]:
                        st[S_BAD] += 1  # a "known" card the rival does not hold: a tracking bug
            d += 1
        contract.win_shares_into(s, ws)
        st[50] += snapok[R0 + 1]
        snapok[R0 + 1] = 0
        st[51] += snapok[R0 + 2]
        snapok[R0 + 2] = 0
        out[g, 0] = ws[me]
        out[g, 1] = 1.0 if ws[0] + ws[1] == 0.0 else 0.0
        out[g, 2] = d


def hold_weights(rule: dict | None, build: dict | None = None) -> np.ndarray:
    """The hold rule as the matrix ``hw[_cat, HF_NAMES]`` from ``{category: {feature:
    weight}}`` (``CATS``, ``HF_NAMES``); a category left out never holds. Rows ``NB0 +
    _cat`` hold the build-switch rule ``build`` (session 16, the same shape)."""
    hw = np.zeros((2 * len(CATS), NHF), np.float64)
    for what, rows, first in (("build", build, NB0), ("hold", rule, 0)):
        for cat, ws in (rows or {}).items():
            for f, v in ws.items():
                if cat not in CATS or f not in HF_NAMES:
                    print(f"error: {what} rule entry {cat!r}/{f!r}: categories "
                          f"{', '.join(CATS)}; features {', '.join(HF_NAMES)}")
                    raise SystemExit(2)
                hw[first + CATS.index(cat), HF_NAMES.index(f)] = float(v)
    return hw


def run(n: int, seed: int, values: dict, mirror: bool = False, chunk: int = 50,
        first: int = 0, quiet: bool = False, log: bool = False, rule: dict | None = None,
        build: dict | None = None):
    game = sim.get_game("go-town")
    codes, params = game.bots.params_matrix(list(ROWS))
    from strategies.go_town.bots import P_NOISE
    if float(values.get("pnoise", -1.0)) >= 0:
        params[6, P_NOISE] = float(values["pnoise"])
    cfg = np.array([float(values.get(k, DEFAULTS[k])) for k in KNOBS], np.float64)
    s = game.new_state(2, 1)
    st = np.zeros(52, np.float64)
    out = np.zeros((n, 3), np.float64)
    lg = np.zeros((max(1, n * 60) if log else 1, len(LOG_COLS)), np.float64)
    hw = hold_weights(rule, build)
    t0 = time.process_time()
    play(cfg, s, np.uint64(seed), 10**6, 1, codes, params, mirror, np.zeros((1, 3)), st, lg, hw)
    if not quiet:
        print(f"warm-up {time.process_time() - t0:.1f} CPU s", flush=True)
    st[:] = 0
    cpu = 0.0
    done = 0
    while done < n:
        m = min(chunk, n - done)
        t0 = time.process_time()
        play(cfg, s, np.uint64(seed), first + done, m, codes, params, mirror,
             out[done:done + m], st, lg, hw)
        cpu += time.process_time() - t0
        done += m
        if not quiet:
            print(f"  {done}: {out[:done, 0].mean():.3f}  {cpu / done:.3f} CPU s/game",
                  flush=True)
    if log:
        return out, st, cpu, lg[:int(st[ST_LOGN])]
    return out, st, cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--mirror", action="store_true")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--out", default="", help="save the per-game rows (win, unfinished, "
                    "decisions) as .npy, for paired differences")
    ap.add_argument("--log", default="", help="save one row of LOG_COLS per decision of the "
                    "lab search in phase play as .npy (session 15: fitting its hold rule)")
    ap.add_argument("--hold", default="", help="the hold rule of pme/popp 7 as JSON "
                    "{category: {feature: weight}} (CATS, HF_NAMES; session 15)")
    ap.add_argument("--build", default="", help="the build-switch rule of bsw 1 as JSON "
                    "{category: {feature: weight}} (session 16)")
    a = ap.parse_args(argv)
    values = {}
    for kv in a.set:
        key, v = kv.split("=")
        if key not in KNOBS:
            raise SystemExit(f"unknown knob {key}; allowed {KNOBS}")
        values[key] = float(v)
    rule = None
    if a.hold:
        import json
        with open(a.hold) as f:
            rule = json.load(f)
    build = None
    if a.build:
        import json
        with open(a.build) as f:
            build = json.load(f)
    res = run(a.n, a.seed, values, a.mirror, first=a.first, log=bool(a.log), rule=rule,
              build=build)
    out, st, cpu = res[:3]
    if a.out:
        np.save(a.out, out)
    if a.log:
        np.save(a.log, res[3])
    k = out[:, 0].sum()
    lo, hi = proportion_confint(k, a.n, method="wilson")
    cfg = " ".join(f"{k}={v:g}" for k, v in values.items())
    if a.hold:
        cfg += f" hold={a.hold}"
    if a.build:
        cfg += f" build={a.build}"
    print(f"LAB {cfg or 'defaults'} seed {a.seed} n {a.n}{' mirror' if a.mirror else ''}: "
          f"win {k / a.n:.3f} [{lo:.3f}, {hi:.3f}] unfinished {int(out[:, 1].sum())} "
          f"cpu/game {cpu / a.n:.3f} searched/dec {st[S_SEARCHED] / max(st[S_DEC], 1):.2f} "
          f"playouts/search {st[S_PLAYOUTS] / max(st[S_SEARCHED], 1):.0f} "
          f"switch {st[S_SWITCH] / max(st[S_SEARCHED], 1):.3f} "
          f"dec/game {st[S_DEC] / a.n:.1f} endsw {st[S_ENDSW] / max(st[S_SEARCHED], 1):.3f} "
          f"cand/search {st[S_NCAND] / max(st[S_SEARCHED], 1):.1f} "
          f"Mpdec/game {st[S_PDEC] / a.n / 1e6:.3f} "
          f"known/search {st[S_KNOWN] / max(st[S_SEARCHED], 1):.3f} "
          f"cards/known {st[S_KCARDS] / max(st[S_KNOWN], 1):.2f} bad {int(st[S_BAD])} plans/dec {st[S_PLANS] / max(st[S_DEC], 1):.2f} "
          f"reshuffled/search {st[S_RESH] / max(st[S_SEARCHED], 1):.3f} "
          f"compact-test misses {int(st[49])} of {int(st[48])} "
          f"tries/playout {st[50] / max(st[S_PLAYOUTS], 1):.2f} capped {int(st[51])}")

    sw_end = {c: int(st[16 + i]) for i, c in enumerate(CATS) if st[16 + i]}
    sw_other = {c: int(st[32 + i]) for i, c in enumerate(CATS) if st[32 + i]}
    print(f"   END-switches by attacker's pick {sw_end}; other switches by attacker's pick "
          f"{sw_other}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
