"""The search bot, written once for every game: single-observer information-set Monte Carlo
tree search (SO-ISMCTS, Cowling, Powley and Whitehouse 2012) over the kernel contract.

One tree per decision, keyed by action ids from the searching seat's point of view. Each
iteration starts from ``contract.determinize(copy, own seat, bot rng)``: everything the seat
cannot see (rivals' hands, the deck order, face-down tokens, the game's chance generator) is
resampled, so the bot never uses hidden information. The iteration then descends the tree by
UCB1 among the children whose action is legal in *this* determinization (each child counts
the iterations in which it was available, ``avail``, and UCB uses ``ln(avail)`` instead of the
parent's visits), expands one untried legal action, plays the game out with a playout bot
(``random`` or a scripted bot of the game, a parameter), and backs up each seat's reward to the
nodes that seat moved into. Chance inside the tree and the playout comes from the determinized
state's reseeded generator (open loop: a node stands for an action sequence, whatever chance
fell between). The decision is the most visited legal root child.

Reward of a finished playout for seat ``p``: its win share (``contract.win_shares_into``,
1/k for k winners) plus ``margin_w * clip((score_p - best rival score) / margin_scale, -1, 1)``
(the score margin as a tie-break, and the only signal of a game stopped at its length limit).
Multi-player games: each seat maximises its own reward (max^n backups).

Parameters (one row of the game's parameter matrix, the first ``len(PARAM_NAMES)`` columns;
the rest of the row is unused): see ``PARAM_NAMES``. ``playout`` is the index of the playout
bot in the game's ``STRATEGIES`` order; ``common.params_matrix`` appends that bot's row to the
matrix and writes its row and code into ``playout_row`` and ``playout_code``.

numba notes: ``choose`` (every game's bot entry point, installed by
``strategies.common.install_bots``) dispatches ``SEARCH_CODE`` to ``search_choose``; the
playouts call the game's scripted-only entry point (``scripted_choose``, registered with
``register``), never ``choose`` itself, so type inference does not recurse. Every call is a
typed overload resolved by the state's class (docs/house-pattern.md §2): the numba disk cache
keeps working.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from sim.core import contract
from sim.core.game import StrategySpec
from sim.core.rng import next_u64, rand_below

SEARCH_CODE = 9  # the search bot's code in every game's ``choose``

PARAM_NAMES = (
    "budget",        # playouts (iterations) per decision, >= 1
    "c_uct",         # UCB1 exploration constant (rewards are about 0..1)
    "playout",       # the playout bot: its index in the game's STRATEGIES (0 = random)
    "playout_row",   # resolved by common.params_matrix: the playout bot's row in the matrix
    "playout_code",  # resolved by common.params_matrix: the playout bot's code
    "margin_w",      # weight of the score margin in the reward (tie-break of the win share)
    "margin_scale",  # score margin (the game's own units) that counts as a full margin
    "algo",          # 0: SO-ISMCTS (``mcts``); 1: rollout policy improvement (``search``)
    "max_len",       # decisions per playout at most (0: no cap); a capped playout is scored
                     # by its score margin (a truncated playout)
    "expert_row",    # resolved by common.params_matrix: the first row of the expert bots
    "n_experts",     # resolved: how many expert rows follow (every scripted bot of the game)
    "expert_code",   # resolved: the experts' code
    "n_random",      # rollout improvement: random legal actions added to the candidates
    "bias",          # rollout improvement: added to the mean reward of the playout bot's pick
)
N_SEARCH = len(PARAM_NAMES)
(P_BUDGET, P_C, P_PLAYOUT, P_PROW, P_PCODE, P_MW, P_MS, P_ALGO, P_MAXLEN, P_EROW, P_NEXP,
 P_ECODE, P_NRAND, P_BIAS) = range(N_SEARCH)
NO_CAP = 1 << 40  # max_len 0: playouts run to the game's own end (its length limit)

# ---- the registry: the scripted-only bot entry point and the action count of each game ------
_SCRIPTED: dict[type, object] = {}
_NUM_ACTIONS: dict[type, int] = {}
_PLAYOUT: dict[type, object] = {}
_PLAUSIBLE: dict[type, object] = {}
_ALLOWED: dict[type, object] = {}
_PLAYOUT_SELF: dict[type, object] = {}
PLAUSIBLE_TRIES = 200  # determinizations drawn at most until one is plausible (then the last;
# 64 until session 17, when Go Town's test grew its END_TURN history: the lab's 200)
PLAUSIBLE_BUF = 128  # the scratch int64 array handed to the game's plausible test


def register(state_cls: type, choose_scripted, num_actions: int) -> None:
    """Register, for states of ``state_cls``, the game's scripted-only bot entry point
    ``choose_scripted(code, params, k, s, legal, n, rng)`` (every code but ``SEARCH_CODE``: the
    playouts' bots) and the game's action count (the size of the search's legal buffers)."""
    _SCRIPTED[state_cls] = choose_scripted
    _NUM_ACTIONS[state_cls] = int(num_actions)


def register_playout(state_cls: type, play_out_fast) -> None:
    """Register, for states of ``state_cls``, the game's own playout loop
    ``play_out_fast(s, code, params, k, rng, max_d)``: plays ``s`` in place with bot ``code``
    (row ``k``) in every seat, to its end or ``max_d`` decisions (whichever comes first), and
    returns the decisions taken, exactly as the generic
    loop over the contract would (the batch loop's body, with its derived arrays kept). A game
    without one gets the generic loop."""
    _PLAYOUT[state_cls] = play_out_fast


def register_plausible(state_cls: type, plausible_fn) -> None:
    """Register, for states of ``state_cls``, the game's test of a determinization against what
    the searching seat has seen its rivals do, with the playout bot as their model:
    ``plausible_fn(s, seat, params, k, rng, buf)`` (``s`` a determinization for ``seat``,
    ``params[k]`` the playout bot's row, ``rng`` the search's generator for the test's own
    draws, ``buf`` an int64 scratch array of ``PLAUSIBLE_BUF``) is False when a rival holds
    what that bot would have played on its observed turns (so it cannot hold it). It reads only
    ``s`` (the seat's view, the public record of the game and the sampled hidden items), never
    the true state, and changes nothing in it. ``search`` (``rollout_choose``) draws
    determinizations until one is plausible (at most ``PLAUSIBLE_TRIES``, then keeps the last):
    rejection sampling of the information set conditioned on the rivals' observed play. Each
    new try determinizes the previous try's state again (no copy of the state between tries),
    so such a game's ``determinize`` must depend only on what the seat sees and the generator
    (Go Town's does: tests/test_go_town_search_hooks.py). A game without one: every
    determinization is plausible (the same draws as before)."""
    _PLAUSIBLE[state_cls] = plausible_fn


def register_allowed(state_cls: type, allowed_fn) -> None:
    """Register, for states of ``state_cls``, the game's veto on the rollout search's
    candidates: ``allowed_fn(s, a, a0)`` is False when ``search`` must not play action ``a`` in
    ``s`` although the playout bot plays ``a0`` there (a pass that can stall the game forever:
    rollouts value a deferred move as the playout bot playing it later, so a search that
    defers at every decision is not seen to lose; Go Town's full-hand END_TURN). The playout
    bot's own pick is always a candidate. A game without one vetoes nothing."""
    _ALLOWED[state_cls] = allowed_fn


def register_playout_self(state_cls: type, play_out_self) -> None:
    """Register, for states of ``state_cls``, the rollout search's playout with the searching
    seat's own moves played by the game's own-seat policy: ``play_out_self(s, code, params, k,
    rng, max_d, me, ks)`` plays ``s`` in place as ``play_out_fast`` does (bot ``code``, row
    ``k``, in every seat) except that seat ``me``'s moves follow the game's rule on top of row
    ``k``, read from the search row ``ks``'s columns after ``N_SEARCH`` (its data; all zero:
    the same moves as row ``k``). A policy-iteration step: the search's own future moves in
    its playouts are closer to what it plays than the playout bot's (Go Town, session 15).
    ``search`` (``rollout_choose``) calls it for every playout; a game without one plays
    ``playout`` (the same draws and moves as before)."""
    _PLAYOUT_SELF[state_cls] = play_out_self


def playout_self(s, code, params, k, rng, max_d, me, ks):
    """The game's ``play_out_self`` where registered, else ``playout``; compiled code only."""
    raise NotImplementedError("compiled code only")


def _plain_playout(s, code, params, k, rng, max_d, me, ks):
    return playout(s, code, params, k, rng, max_d)


@overload(playout_self)
def _ov_playout_self(s, code, params, k, rng, max_d, me, ks):
    fn = _PLAYOUT_SELF.get(getattr(s, "instance_class", None))
    if fn is not None:
        return getattr(fn, "py_func", fn)
    return _plain_playout


def allowed(s, a, a0):
    """The game's ``allowed_fn`` where registered, else True; compiled code only."""
    raise NotImplementedError("compiled code only")


@overload(allowed)
def _ov_allowed(s, a, a0):
    fn = _ALLOWED.get(getattr(s, "instance_class", None))
    if fn is not None:
        return getattr(fn, "py_func", fn)
    return _always_allowed


def _always_allowed(s, a, a0):
    return True


def plausible(s, seat, params, k, rng, buf):
    """The game's ``plausible_fn`` where registered, else True; compiled code only."""
    raise NotImplementedError("compiled code only")


@overload(plausible)
def _ov_plausible(s, seat, params, k, rng, buf):
    fn = _PLAUSIBLE.get(getattr(s, "instance_class", None))
    if fn is not None:
        return getattr(fn, "py_func", fn)
    return _always_plausible


def _always_plausible(s, seat, params, k, rng, buf):
    return True


def playout(s, code, params, k, rng, max_d):
    """Play ``s`` in place with bot ``code`` in every seat, to its end or ``max_d`` decisions;
    compiled code only."""
    raise NotImplementedError("compiled code only")


def scripted_choose(code, params, k, s, legal, n, rng):
    """The action of the scripted bot ``code`` in ``s``; compiled code only."""
    raise NotImplementedError("compiled code only")


def num_actions(s):
    """The game's action count; compiled code only."""
    raise NotImplementedError("compiled code only")


def clone(s):
    """A new state with copies of every array of ``s``; compiled code only."""
    raise NotImplementedError("compiled code only")


def determinize(s, seat, rng):
    """``contract.determinize`` where the game registers it, else an error at run time (the
    search bot is then not listed: ``available``); compiled code only."""
    raise NotImplementedError("compiled code only")


def available(state_cls: type) -> bool:
    """True if the search bot can play states of ``state_cls``: the game registers the
    contract's ``determinize`` (the search never sees hidden information)."""
    return "determinize" in contract.registered(state_cls)


@overload(determinize)
def _ov_determinize(s, seat, rng):
    if available(getattr(s, "instance_class", None)):
        return _contract_determinize
    return _no_determinize


def _contract_determinize(s, seat, rng):
    contract.determinize(s, seat, rng)


def _no_determinize(s, seat, rng):
    raise RuntimeError("the search bot needs the game's determinize (sim/core/contract.py)")


@overload(scripted_choose)
def _ov_scripted_choose(code, params, k, s, legal, n, rng):
    fn = _SCRIPTED.get(getattr(s, "instance_class", None))
    return None if fn is None else getattr(fn, "py_func", fn)


@overload(playout)
def _ov_playout(s, code, params, k, rng, max_d):
    fn = _PLAYOUT.get(getattr(s, "instance_class", None))
    if fn is not None:
        return getattr(fn, "py_func", fn)
    if getattr(s, "instance_class", None) not in _SCRIPTED:
        return None
    return _generic_playout


def _generic_playout(s, code, params, k, rng, max_d):
    legal = np.empty(num_actions(s), np.int32)
    d = 0
    while not contract.is_over(s) and d < max_d:
        m = contract.legal_actions_into(s, legal)
        if code == 0:
            a = legal[rand_below(rng, m)]
        else:
            a = scripted_choose(code, params, k, s, legal, m, rng)
        contract.apply_inplace(s, a)
        d += 1
    return d


@overload(num_actions)
def _ov_num_actions(s):
    na = _NUM_ACTIONS.get(getattr(s, "instance_class", None))
    if na is None:
        return None
    ns: dict = {}
    exec(f"def num_actions(s):\n    return {int(na)}\n", ns)  # from an int only
    return ns["num_actions"]


@overload(clone)
def _ov_clone(s):
    cls = getattr(s, "instance_class", None)
    fields = getattr(s, "fields", None)
    if cls is None or fields is None:
        return None
    args = ", ".join(f"s.{f}.copy()" for f in fields)
    ns: dict = {"Cls": cls}
    exec(f"def clone(s):\n    return Cls({args})\n", ns)  # from the field names only
    return ns["clone"]


# ---- the search -------------------------------------------------------------------------------


@njit(cache=True)
def seat_reward(w, me, nseat, mw, ms, ws, sc):
    """The reward of seat ``me`` in the (finished or truncated) state ``w``: its win share plus
    ``mw`` x its clipped score margin over the best rival (in units of ``ms``); a state not over
    (a truncated playout, or a game stopped at its length limit, whose win shares are all 0)
    counts its margin only, as a win chance ``(1 + margin) / 2``."""
    contract.scores_into(w, sc)
    best_rival = -1e300
    for q in range(nseat):
        if q != me and sc[q] > best_rival:
            best_rival = sc[q]
    mg = (sc[me] - best_rival) / ms if nseat > 1 else sc[me] / ms
    mg = 1.0 if mg > 1.0 else (-1.0 if mg < -1.0 else mg)
    if contract.is_over(w):
        contract.win_shares_into(w, ws)
        return ws[me] + mw * mg
    return 0.5 * (1.0 + mg) + mw * mg


@njit(cache=True)
def add_candidate(cand, nc, a):
    """Append action ``a`` to the candidates ``cand[:nc]`` unless it is there already; returns
    the new count."""
    for i in range(nc):
        if cand[i] == a:
            return nc
    cand[nc] = a
    return nc + 1


@njit(cache=True, inline="always")  # inlined: not emitted again as a library of its own
def rollout_choose(params, k, s, legal, n, rng):
    """Rollout policy improvement over the scripted bots (``algo`` 1, the ``search`` bot;
    Tesauro and Galperin 1996, Bertsekas' rollout algorithm): the candidates are the actions
    the game's scripted bots (the experts) would take in ``s``, the playout bot's first, plus
    ``n_random`` random legal actions; each candidate's value is the mean reward of playouts
    that apply it and then let the playout bot play every seat, from determinizations of what
    the seat cannot see (``determinize``: hidden information stays hidden). Every candidate is
    played from the same determinizations with the same random stream (common random numbers),
    and the budget (``budget`` playouts in all) is spent by sequential halving (Karnin, Koren
    and Somekh 2013): ``ceil(log2 c)`` rounds, the better half kept after each. The playout
    bot's pick gets ``bias`` added to its mean (a prior: another candidate must be better by
    that much). A decision where the experts agree and no random candidate is asked for costs
    no playout. Every playout stops after ``max_len`` decisions (then it is scored by its
    margin): a decision costs at most ``budget x max_len`` bot moves. Two optional game hooks
    (both absent: the same draws and moves as without them): ``allowed`` vetoes candidates
    other than the playout bot's pick (``register_allowed``), and each determinization is
    redrawn until the game's ``plausible`` accepts it (``register_plausible``: the rivals'
    sampled hands conditioned on their observed play, the playout bot as their model). A third
    (``register_playout_self``) plays the searching seat's own moves in the playouts by the
    game's own-seat rule, with its data in this row after the search parameters."""
    budget = max(1, int(params[k, P_BUDGET]))
    pcode = int(params[k, P_PCODE])
    prow = int(params[k, P_PROW])
    mw = params[k, P_MW]
    ms = params[k, P_MS]
    if ms <= 0.0:
        ms = 1.0
    max_len = int(params[k, P_MAXLEN])
    if max_len <= 0:
        max_len = NO_CAP
    erow = int(params[k, P_EROW])
    nexp = int(params[k, P_NEXP])
    ecode = int(params[k, P_ECODE])
    nrand = int(params[k, P_NRAND])
    bias = params[k, P_BIAS]
    # the candidates: the playout bot's pick, the experts' picks, random legal actions
    cand = np.empty(n, np.int32)
    a0 = scripted_choose(pcode, params, prow, s, legal, n, rng)
    cand[0] = a0
    nc = 1
    for e in range(nexp):
        a = scripted_choose(ecode, params, erow + e, s, legal, n, rng)
        if allowed(s, a, a0):
            nc = add_candidate(cand, nc, a)
    for _ in range(nrand):
        if nc >= n:
            break
        a = legal[rand_below(rng, n)]
        if allowed(s, a, a0):
            nc = add_candidate(cand, nc, a)
    if nc == 1:
        return a0
    me = contract.current_seat(s)
    nseat = contract.n_seats(s)
    det = clone(s)
    w = clone(s)
    ws = np.zeros(8, np.float64)
    sc = np.zeros(8, np.float64)
    tot = np.zeros(nc, np.float64)
    cnt = np.zeros(nc, np.float64)
    alive = np.arange(nc)
    n_alive = nc
    rounds = 0
    c = 1
    while c < nc:
        c *= 2
        rounds += 1
    lrng = np.empty(1, np.uint64)
    pbuf = np.empty(PLAUSIBLE_BUF, np.int64)
    for _r in range(rounds):
        m = budget // (rounds * n_alive)
        if m < 1:
            m = 1
        for _j in range(m):
            lrng[0] = next_u64(rng)  # a fresh stream per playout, shared by the candidates
            contract.copy_into(s, det)
            for _t in range(PLAUSIBLE_TRIES):
                determinize(det, me, lrng)  # of det: the same draws as of a fresh copy of s
                if plausible(det, me, params, prow, lrng, pbuf):
                    break
            saved = lrng[0]
            for i in range(n_alive):
                ci = alive[i]
                contract.copy_into(det, w)
                lrng[0] = saved
                contract.apply_inplace(w, cand[ci])
                if not contract.is_over(w):
                    playout_self(w, pcode, params, prow, lrng, max_len, me, k)
                tot[ci] += seat_reward(w, me, nseat, mw, ms, ws, sc)
                cnt[ci] += 1.0
        # keep the better half (ties: the earlier candidate, the playout bot's pick first)
        keep = (n_alive + 1) // 2
        for i in range(keep):
            bi = i
            bv = -1e300
            for j in range(i, n_alive):
                cj = alive[j]
                v = tot[cj] / cnt[cj] + (bias if cj == 0 else 0.0)
                if v > bv:
                    bv = v
                    bi = j
            t = alive[i]
            alive[i] = alive[bi]
            alive[bi] = t
        n_alive = keep
        if n_alive == 1:
            break
    return cand[alive[0]]


@njit(cache=True, inline="always")  # inlined into ``choose`` (see ``choose``)
def search_choose(params, k, s, legal, n, rng):
    """The search bot's action in ``s`` with parameter row ``params[k]`` (``PARAM_NAMES``):
    one of ``legal[:n]`` (int32 ids). ``rng`` (uint64[1], the bot generator) drives the
    determinizations, the tree policy and the playout bots; ``s`` is never changed. Allocates
    its tree (``budget + 1`` nodes) and two state copies per decision."""
    if n <= 1:
        return legal[0]
    if params[k, P_ALGO] == 1.0:
        return rollout_choose(params, k, s, legal, n, rng)
    budget = max(1, int(params[k, P_BUDGET]))
    max_len = int(params[k, P_MAXLEN])
    if max_len <= 0:
        max_len = NO_CAP
    cexp = params[k, P_C]
    pcode = int(params[k, P_PCODE])
    prow = int(params[k, P_PROW])
    mw = params[k, P_MW]
    ms = params[k, P_MS]
    if ms <= 0.0:
        ms = 1.0
    me = contract.current_seat(s)
    nseat = contract.n_seats(s)
    na = num_actions(s)
    w = clone(s)
    lbuf = np.empty(na, np.int32)
    mark = np.zeros(na, np.int64)
    cap = budget + 1
    act = np.empty(cap, np.int32)
    first = np.empty(cap, np.int32)
    nxt = np.empty(cap, np.int32)
    mover = np.empty(cap, np.int32)
    vis = np.zeros(cap, np.float64)
    avail = np.zeros(cap, np.float64)
    rew = np.zeros(cap, np.float64)
    path = np.empty(cap + 1, np.int32)
    ws = np.zeros(8, np.float64)
    sc = np.zeros(8, np.float64)
    r = np.zeros(8, np.float64)
    first[0] = -1
    nxt[0] = -1
    act[0] = -1
    mover[0] = -1
    n_nodes = 1
    stamp = 0
    for _ in range(budget):
        contract.copy_into(s, w)
        determinize(w, me, rng)
        node = 0
        depth = 0
        path[0] = 0
        # selection and expansion
        while not contract.is_over(w):
            m = contract.legal_actions_into(w, lbuf)
            seat = contract.current_seat(w)
            stamp += 1
            for i in range(m):
                mark[lbuf[i]] = stamp
            best = -1
            bestv = -1e300
            tried = 0
            ch = first[node]
            while ch != -1:
                a = act[ch]
                if mark[a] == stamp:
                    mark[a] = -stamp  # legal here and already a child
                    tried += 1
                    avail[ch] += 1.0
                    v = rew[ch] / vis[ch] + cexp * np.sqrt(np.log(avail[ch]) / vis[ch])
                    if v > bestv:
                        bestv = v
                        best = ch
                ch = nxt[ch]
            if tried < m and n_nodes < cap:
                j = rand_below(rng, m - tried)
                a = lbuf[0]
                for i in range(m):
                    if mark[lbuf[i]] == stamp:
                        if j == 0:
                            a = lbuf[i]
                            break
                        j -= 1
                c = n_nodes
                n_nodes += 1
                act[c] = a
                mover[c] = seat
                first[c] = -1
                nxt[c] = first[node]
                first[node] = c
                vis[c] = 0.0
                avail[c] = 1.0
                rew[c] = 0.0
                contract.apply_inplace(w, a)
                depth += 1
                path[depth] = c
                break
            if best == -1:
                break  # the tree is full and no child is legal here: play out from here
            contract.apply_inplace(w, act[best])
            node = best
            depth += 1
            path[depth] = node
        # playout
        if not contract.is_over(w):
            playout(w, pcode, params, prow, rng, max_len)
        # rewards: win share, then the score margin over the best rival
        contract.win_shares_into(w, ws)
        contract.scores_into(w, sc)
        for p in range(nseat):
            best_rival = -1e300
            for q in range(nseat):
                if q != p and sc[q] > best_rival:
                    best_rival = sc[q]
            mg = (sc[p] - best_rival) / ms if nseat > 1 else sc[p] / ms
            mg = 1.0 if mg > 1.0 else (-1.0 if mg < -1.0 else mg)
            r[p] = ws[p] + mw * mg
        for d in range(1, depth + 1):
            c = path[d]
            vis[c] += 1.0
            rew[c] += r[mover[c]]
    # the most visited root child legal in the real state (ties: the earlier legal id)
    pick = legal[0]
    most = -1.0
    for i in range(n):
        ch = first[0]
        while ch != -1:
            if act[ch] == legal[i] and vis[ch] > most:
                most = vis[ch]
                pick = legal[i]
            ch = nxt[ch]
    return pick


# ---- the one bot entry point of every game -----------------------------------------------------


@njit(cache=True)
def choose(code, params, k, s, legal, n, rng):
    """The action of bot ``code`` with parameter row ``params[k]`` in ``s`` (legal actions
    ``legal[:n]``, int32): the one bot signature of every game, docs/house-pattern.md §3.
    ``SEARCH_CODE`` searches (``search_choose``); every other code is the game's scripted-only
    entry point registered with ``register`` (resolved by the state's class at compile time).
    ``rng`` is the bot generator (uint64[1]).

    ``search_choose`` and ``rollout_choose`` are inlined here at numba's IR level
    (``inline="always"``): as functions of their own, each would be compiled into a library of
    its own, and numba emits a library with everything it calls (the rules, the scripted bots,
    the playouts), so the search's chain emitted the same code three times (BENCHMARKS.md,
    session 15). The decisions are the same."""
    if code == SEARCH_CODE:
        return search_choose(params, k, s, legal, n, rng)
    return scripted_choose(code, params, k, s, legal, n, rng)


# the ``search`` bot's row (rollout policy improvement) before a game's own values
SEARCH_DEFAULTS = dict(algo=1.0, budget=64.0, max_len=2000.0, n_random=0.0, bias=0.0,
                       margin_w=0.1, margin_scale=10.0)
RESOLVED = ("playout", "playout_row", "playout_code", "expert_row", "n_experts", "expert_code")

# ---- the named strategy -------------------------------------------------------------------


def strategy(name: str, strategies: dict, n_params: int, playout: str, doc: str,
             extra: dict[str, float] | None = None, **values: float) -> StrategySpec:
    """The search bot as a named strategy of a game: its row of ``n_params`` numbers (the
    search parameters first, then ``extra``, the game's own numbers for its search hooks, by
    name in that order, zeros after), ``playout`` the name of a bot in ``strategies`` (which
    must already hold it). Raises KeyError for an unknown playout bot or parameter,
    ValueError when the game's rows are too short for the search parameters and ``extra``."""
    extra = dict(extra or {})
    if n_params < N_SEARCH + len(extra):
        raise ValueError(f"{n_params} parameter columns; the search bot needs "
                         f"{N_SEARCH + len(extra)}")
    names = list(strategies)
    if playout not in names:
        raise KeyError(f"unknown playout bot {playout!r}; allowed: {', '.join(names)}")
    base = dict(budget=200, c_uct=0.7, margin_w=0.1, margin_scale=10.0)
    settable = [p for p in PARAM_NAMES if p not in RESOLVED]
    for key, v in values.items():
        if key not in settable:
            raise KeyError(f"unknown search parameter {key!r}; allowed: {', '.join(settable)}")
        base[key] = float(v)
    row = [0.0] * n_params
    for i, key in enumerate(PARAM_NAMES):
        row[i] = float(base.get(key, 0.0))
    row[P_PLAYOUT] = float(names.index(playout))
    for i, v in enumerate(extra.values()):
        row[N_SEARCH + i] = float(v)
    return StrategySpec(name, SEARCH_CODE, doc, tuple(row), PARAM_NAMES + tuple(extra),
                        search=True)


def resolve_rows(strategies: dict, names, codes: np.ndarray,
                 params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``codes``/``params`` of ``names`` with the playout bot of every search row appended
    (once each) and its row and code written into the search row's ``playout_row`` and
    ``playout_code``; for a rollout-improvement row (``algo`` 1) the game's scripted bots (the
    experts: every strategy with the playout bot's code but the playout bot, in the game's
    order) appended too, their first row, count and code written into ``expert_row``,
    ``n_experts`` and ``expert_code``. Unchanged when no search bot is named."""
    order = list(strategies)
    extra: list[str] = []
    rows: dict[str, int] = {}

    def row_of(pname: str) -> int:
        if pname not in rows:
            rows[pname] = len(names) + len(extra)
            extra.append(pname)
        return rows[pname]

    for i, nm in enumerate(names):
        if strategies[nm].code != SEARCH_CODE:
            continue
        pname = order[int(params[i, P_PLAYOUT])]
        if strategies[pname].code == SEARCH_CODE:
            raise ValueError(f"search bot {nm!r}: its playout bot {pname!r} is a search bot")
        params[i, P_PROW] = row_of(pname)
        params[i, P_PCODE] = strategies[pname].code
        if params[i, P_ALGO] == 1.0:
            experts = [e for e in order if e != pname
                       and strategies[e].code == strategies[pname].code]
            block = tuple(experts)
            key = ("experts",) + block
            if key not in rows and experts:
                rows[key] = len(names) + len(extra)
                extra.extend(experts)
            params[i, P_EROW] = rows.get(key, 0)
            params[i, P_NEXP] = len(experts)
            params[i, P_ECODE] = strategies[pname].code
    if not extra:
        return codes, params
    ecodes = np.array([strategies[p].code for p in extra], dtype=np.int64)
    eparams = np.zeros((len(extra), params.shape[1]), np.float64)
    for j, p in enumerate(extra):
        if strategies[p].params:
            eparams[j] = strategies[p].params
    return np.concatenate([codes, ecodes]), np.concatenate([params, eparams])
