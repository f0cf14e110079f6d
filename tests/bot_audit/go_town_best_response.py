"""Go Town, 2 players: what does a best response to a *known-random* rival reach with only its
own seat's information? (issue #13, "best scripted bot beats random in 95% of 2-player games").

A flat Monte Carlo bot plays against ``random``. At each of its decisions with more than one
legal action it draws ``rollouts`` determinizations of the state from its own seat's point of
view (``contract.determinize``, the search bot's: the deck order, the rival's hand (its size
kept) and the chance generator resampled from what the seat can see; docs/games/go_town.md
section 10) and plays every legal action out on each of them, its own later moves by a
scripted policy (default ``attacker``) and the rival's by ``random`` (the rival's true policy),
and takes the action with the best mean win share. All actions are played out on the same
determinizations with the same playout generator (common random numbers: each action's
difference with the policy's own choice is a paired estimate). The policy's choice is the
default: ``--z Z`` switches away from it only on a paired gain above ``Z`` standard errors
(0: any strictly better mean), since with many near-equal actions the plain maximum of noisy
means mostly picks the luckiest one. ``--drop D`` races the actions: every ``--batch``
determinizations an action more than ``D`` standard errors below the policy's choice is
dropped, so ``rollouts`` can be large where a few actions stay close. ``--depth 2`` also decides
the seat's *next* decision inside each playout by the same flat Monte Carlo (``--rollouts2``
determinizations of that playout state, again from the seat's view only; plain maximum, ties
to the policy), the later ones by the policy. ``--perfect`` plays out copies
of the true state instead (the bound of ``go_town_bound``: it sees the deck and the rival's
hand).

What it measures: one (or two) steps of policy improvement over the policy, against the right
model of the rival. It is a *lower* bound on what the best seat-information player reaches
(a longer search or a better policy could do better) and, with ``--perfect``, a probe of what a
player who sees everything reaches. Note that ``contract.determinize`` treats every unseen
card alike: it does not use what a THIEF revealed (a card the rival took from this seat) nor
what the rival's legal plays imply about its hand.

Game ``i``: chance ``seed_for(seed, i, 0)``, the rival's generator ``seed_for(seed, i, 1)``,
the Monte Carlo's ``seed_for(seed, i, 2)``; the Monte Carlo bot sits in seat ``i % 2``. The same
deals are also played by the policy itself in that seat (same chance and rival seeds: the same
deal and deck, the rival's moves diverge once the play does). A game nobody wins (a rules
deadlock, end reason ``deadlock``, or the length limit) counts as a loss and is also reported
apart. Intervals: Wilson 95% (``analysis.stats.wilson_interval``).

Usage: ``python -m tests.bot_audit.go_town_best_response [-n GAMES] [-r ROLLOUTS] [--seed S]
[--policy BOT] [--z Z] [--drop D] [--batch B] [--depth 1|2] [--rollouts2 R2] [--perfect]
[--first I] [--save FILE.npz]``; ``--merge A.npz B.npz ...`` summarizes saved runs together.
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np
from numba import njit

import sim
from analysis.stats import wilson_interval
from sim.core import contract
from sim.core.rng import next_u64, seed_for
from sim.go_town import constants as K
from strategies import common

# outcome codes of a game (out[g, 0])
WON, LOST, DEADLOCK, LIMIT = 0, 1, 2, 3
# per-decision record columns (rec[g, j, :])
R_TURN, R_N, R_MC, R_POL, R_VMC, R_VPOL = range(6)
N_REC = 6


@njit(cache=True)
def _best(vals, legal, n, p):
    """The index of the best value among ``vals[:n]``; ties go to the policy's action ``p``
    (a switch needs a strictly better estimate: the rollout algorithm's rule, so equal
    estimates, e.g. every action winning every playout, keep the policy's play)."""
    b = 0
    for i in range(n):
        if legal[i] == p:
            b = i
    for i in range(n):
        if vals[i] > vals[b]:
            b = i
    return b


@njit(cache=True)
def _finish(s, codes, params, rows, legal, rng, maxd, me, depth2, k2, det2, tmp2, legal3,
            drng):
    """Play ``s`` to its end in place: ``me``'s first decision with more than one legal action
    by flat Monte Carlo over ``k2`` determinizations (when ``depth2``), the rest by the bots of
    ``rows``. ``det2``, ``tmp2``: scratch states of the inner level."""
    d = 0
    if depth2:
        vals = np.zeros(legal.shape[0])
        crng = np.empty(1, np.uint64)
        while not contract.is_over(s) and d < maxd:
            n = contract.legal_actions_into(s, legal)
            c = contract.current_seat(s)
            if c == me and n > 1:
                _values(s, det2, tmp2, legal, n, me, codes, params, rows, legal3, drng, k2,
                        maxd - d, False, vals)
                crng[0] = drng[0]
                b = _best(vals, legal, n, common.bot_choose(codes[rows[me]], params, rows[me], s,
                                                            legal, n, crng))
                contract.apply_inplace(s, legal[b])
                d += 1
                break
            k = rows[c]
            contract.apply_inplace(s, common.bot_choose(codes[k], params, k, s, legal, n, rng))
            d += 1
    common.play_out(s, codes, params, rows, legal, rng, maxd - d)


@njit(cache=True)
def _values(s, det, tmp, legal, n, me, codes, params, rows, legal2, drng, k_roll, maxd,
            perfect, vals):
    """``vals[i]``: mean win share of seat ``me`` over ``k_roll`` playouts after ``legal[i]``,
    each from a determinization of ``s`` for ``me`` (a copy of ``s`` when ``perfect``), every
    action on the same determinizations with the same playout generator."""
    prng = np.empty(1, np.uint64)
    ws = np.zeros(2)
    for i in range(n):
        vals[i] = 0.0
    for _ in range(k_roll):
        contract.copy_into(s, det)
        if not perfect:
            contract.determinize(det, me, drng)
        pseed = next_u64(drng)
        for i in range(n):
            contract.copy_into(det, tmp)
            contract.apply_inplace(tmp, legal[i])
            prng[0] = pseed
            common.play_out(tmp, codes, params, rows, legal2, prng, maxd - 1)
            if contract.is_over(tmp):
                contract.win_shares_into(tmp, ws)
                vals[i] += ws[me]
    for i in range(n):
        vals[i] /= k_roll


@njit(cache=True)
def _choose(s, det, tmp, legal, n, me, codes, params, rows, legal2, drng, k_roll, maxd,
            perfect, pi, z, drop, batch, vals, cnt):
    """The top-level decision: index into ``legal[:n]``. Every legal action is played out on
    up to ``k_roll`` determinizations of ``s`` for ``me`` (copies of ``s`` when ``perfect``),
    the same ones for every action, with the same playout generator (paired). ``pi`` is the
    index of the policy's own choice, always played out. Racing (``drop > 0``): after each
    ``batch`` determinizations an action whose paired difference with the policy's action
    lies more than ``drop`` standard errors below 0 is dropped; when only the policy's
    action is left, the search stops. Decision: the action with the best mean among those
    whose paired gain over the policy's action exceeds ``z`` standard errors (``z`` 0: any
    strictly better mean), else the policy's action. ``vals[i]``: the mean win share of
    ``legal[i]``, ``cnt[i]`` its playouts."""
    prng = np.empty(1, np.uint64)
    ws = np.zeros(2)
    w = np.zeros(n)
    dsum = np.zeros(n)
    dsq = np.zeros(n)
    alive = np.ones(n, np.bool_)
    for i in range(n):
        vals[i] = 0.0
        cnt[i] = 0
    n_alive = n
    r = 0
    while r < k_roll and n_alive > 1:
        contract.copy_into(s, det)
        if not perfect:
            contract.determinize(det, me, drng)
        pseed = next_u64(drng)
        for i in range(n):
            if not alive[i]:
                continue
            contract.copy_into(det, tmp)
            contract.apply_inplace(tmp, legal[i])
            prng[0] = pseed
            common.play_out(tmp, codes, params, rows, legal2, prng, maxd - 1)
            w[i] = 0.0
            if contract.is_over(tmp):
                contract.win_shares_into(tmp, ws)
                w[i] = ws[me]
            vals[i] += w[i]
            cnt[i] += 1
        for i in range(n):
            if alive[i]:
                x = w[i] - w[pi]
                dsum[i] += x
                dsq[i] += x * x
        r += 1
        if drop > 0 and r % batch == 0:
            for i in range(n):
                if alive[i] and i != pi:
                    m = dsum[i] / r
                    var = (dsq[i] / r - m * m) / (r - 1)
                    se = np.sqrt(var) if var > 0 else 0.0
                    if m + drop * se < 0:
                        alive[i] = False
                        n_alive -= 1
    for i in range(n):
        if cnt[i] > 0:
            vals[i] /= cnt[i]
    b = pi
    for i in range(n):
        if not alive[i] or i == pi or cnt[i] < 2:
            continue
        m = dsum[i] / cnt[i]
        var = (dsq[i] / cnt[i] - m * m) / (cnt[i] - 1)
        se = np.sqrt(var) if var > 0 else 0.0
        if m > 0 and m > z * se and vals[i] > vals[b]:
            b = i
    return b


@njit(cache=True)
def _values2(s, det, tmp, legal, n, me, codes, params, rows, legal2, legal3, drng, k_roll, k2,
             maxd, det2, tmp2, vals):
    """As ``_values`` (never perfect), the seat's next decision in each playout by ``_finish``
    with ``k2`` determinizations."""
    prng = np.empty(1, np.uint64)
    ws = np.zeros(2)
    for i in range(n):
        vals[i] = 0.0
    for _ in range(k_roll):
        contract.copy_into(s, det)
        contract.determinize(det, me, drng)
        pseed = next_u64(drng)
        for i in range(n):
            contract.copy_into(det, tmp)
            contract.apply_inplace(tmp, legal[i])
            prng[0] = pseed
            _finish(tmp, codes, params, rows, legal2, prng, maxd - 1, me, True, k2, det2, tmp2,
                    legal3, drng)
            if contract.is_over(tmp):
                contract.win_shares_into(tmp, ws)
                vals[i] += ws[me]
    for i in range(n):
        vals[i] /= k_roll


@njit(cache=True)
def play(s, det, tmp, det2, tmp2, seed, first, n_games, codes, params, k_roll, k2, depth, perfect,
         z, drop, batch, maxd, out, rec):
    """Play games ``first .. first + n_games - 1``. Row 0 of ``codes``/``params`` is the
    policy, row 1 ``random``. ``out[g]``: (Monte Carlo's outcome, the policy's outcome on the
    same deal, the Monte Carlo's decisions with a choice, of them where it differs from the
    policy's choice); outcome codes WON, LOST, DEADLOCK, LIMIT. ``rec[g, j]``: decision j of
    game g (turn, legal count, Monte Carlo action, policy action, their values x 1e6)."""
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    legal2 = np.empty(K.NUM_ACTIONS, np.int32)
    legal3 = np.empty(K.NUM_ACTIONS, np.int32)
    vals = np.zeros(K.NUM_ACTIONS)
    cnt = np.zeros(K.NUM_ACTIONS, np.int64)
    plays = 0
    brng = np.empty(1, np.uint64)
    drng = np.empty(1, np.uint64)
    crng = np.empty(1, np.uint64)
    ws = np.zeros(2)
    rows = np.zeros(2, np.int64)
    for g in range(n_games):
        gi = np.uint64(first + g)
        me = (first + g) % 2
        rows[me] = 0
        rows[1 - me] = 1
        for mode in range(2):  # 0: the Monte Carlo bot, 1: the policy on the same deal
            contract.init_state(s, 2, seed_for(seed, gi, np.uint64(0)))
            brng[0] = seed_for(seed, gi, np.uint64(1))
            drng[0] = seed_for(seed, gi, np.uint64(2))
            d = 0
            m = 0
            diff = 0
            while not contract.is_over(s) and d < maxd:
                n = contract.legal_actions_into(s, legal)
                c = contract.current_seat(s)
                if c != me:
                    a = legal[0] if n == 1 else common.bot_choose(codes[1], params, 1, s, legal,
                                                                  n, brng)
                elif mode == 1:
                    a = common.bot_choose(codes[0], params, 0, s, legal, n, brng)
                elif n == 1:
                    a = legal[0]
                else:
                    if depth == 2:
                        _values2(s, det, tmp, legal, n, me, codes, params, rows, legal2, legal3,
                                 drng, k_roll, k2, maxd - d, det2, tmp2, vals)
                    crng[0] = drng[0]  # the policy's choice here, from a scratch generator
                    p = common.bot_choose(codes[0], params, 0, s, legal, n, crng)
                    if depth == 2:
                        b = _best(vals, legal, n, p)
                    else:
                        pi = 0
                        for i in range(n):
                            if legal[i] == p:
                                pi = i
                        b = _choose(s, det, tmp, legal, n, me, codes, params, rows, legal2, drng,
                                    k_roll, maxd - d, perfect, pi, z, drop, batch, vals, cnt)
                        plays += cnt[:n].sum()
                    a = legal[b]
                    vp = 0.0
                    for i in range(n):
                        if legal[i] == p:
                            vp = vals[i]
                    if p != a:
                        diff += 1
                    if m < rec.shape[1]:
                        rec[g, m, R_TURN] = s.meta[K.M_TURN]
                        rec[g, m, R_N] = n
                        rec[g, m, R_MC] = a
                        rec[g, m, R_POL] = p
                        rec[g, m, R_VMC] = int(vals[b] * 1e6)
                        rec[g, m, R_VPOL] = int(vp * 1e6)
                    m += 1
                contract.apply_inplace(s, a)
                d += 1
            if contract.is_over(s):
                contract.win_shares_into(s, ws)
                if ws[me] > 0:
                    r = WON
                elif ws[1 - me] > 0:
                    r = LOST
                else:
                    r = DEADLOCK
            else:
                r = LIMIT
            out[g, mode] = r
            if mode == 0:
                out[g, 2] = m
                out[g, 3] = diff
    return plays


def run(games: int, rollouts: int, seed: int = 1, policy: str = "attacker", depth: int = 1,
        rollouts2: int = 8, perfect: bool = False, first: int = 0, max_rec: int = 400,
        z: float = 0.0, drop: float = 0.0, batch: int = 16):
    """Play the games (see the module docstring). Returns ``(out, rec)``: ``out`` int64[games,
    4] (Monte Carlo outcome, policy outcome on the same deal, decisions with a choice, of them
    where the policy chooses otherwise), ``rec`` int64[games, max_rec, 6] per decision (turn,
    legal count, Monte Carlo action, policy action, the two values x 1e6; zero rows unused),
    ``plays`` the top-level playouts (depth 1; 0 at depth 2). ``z``, ``drop``, ``batch``: the
    switch test and the racing of ``_choose`` (depth 1).
    Raises ValueError for ``depth`` not 1 or 2, or ``perfect`` with ``depth`` 2."""
    if depth not in (1, 2):
        raise ValueError(f"depth must be 1 or 2, not {depth}")
    if perfect and depth != 1:
        raise ValueError("--perfect plays depth 1 only")
    game = sim.get_game("go-town")
    s = game.new_state(2, 1)
    det = game.copy_state(s)
    tmp = game.copy_state(s)
    det2 = game.copy_state(s)
    tmp2 = game.copy_state(s)
    codes, params = game.bots.params_matrix([policy, "random"])
    out = np.zeros((games, 4), np.int64)
    rec = np.zeros((games, max_rec, N_REC), np.int64)
    plays = play(s, det, tmp, det2, tmp2, np.uint64(seed % 2**64), first, games, codes, params,
                 rollouts, rollouts2, depth, perfect, z, drop, batch, game.max_game_length(),
                 out, rec)
    return out, rec, plays


def _line(label: str, res: np.ndarray) -> str:
    n = len(res)
    w = int((res == WON).sum())
    dl = int((res == DEADLOCK).sum())
    lim = int((res == LIMIT).sum())
    lo, hi = (float(np.ravel(x)[0]) for x in wilson_interval(w, n))
    fin = n - dl - lim
    flo, fhi = (float(np.ravel(x)[0]) for x in wilson_interval(w, max(fin, 1)))
    return (f"{label}: wins {w}/{n} = {100 * w / n:.1f}% (Wilson 95% {100 * lo:.1f}-"
            f"{100 * hi:.1f}%); deadlocks {dl} ({100 * dl / n:.1f}%), limit {lim}; of "
            f"the {fin} finished games {100 * w / max(fin, 1):.1f}% ({100 * flo:.1f}-"
            f"{100 * fhi:.1f}%)")


def _summary(out: np.ndarray, policy: str) -> None:
    """Print the outcome lines of ``out`` (see ``run``) and the paired difference in win share
    with the policy on the same deals (points; normal 95% interval over the per-deal
    differences, each -1, 0 or 1)."""
    print("  " + _line("best response", out[:, 0]))
    print("  " + _line(f"{policy} on the same deals", out[:, 1]))
    d = (out[:, 0] == WON).astype(float) - (out[:, 1] == WON).astype(float)
    m = d.mean()
    se = d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else 0.0
    print(f"  best response minus {policy} on the same deals: {100 * m:+.2f} points "
          f"[{100 * (m - 1.96 * se):+.2f}, {100 * (m + 1.96 * se):+.2f}]")
    both = collections.Counter(zip(out[:, 0].tolist(), out[:, 1].tolist()))
    names = ("won", "lost", "deadlock", "limit")
    print("  (best response, policy) outcomes: " + ", ".join(
        f"{names[i]}/{names[j]} {c}" for (i, j), c in sorted(both.items())))
    dec = int(out[:, 2].sum())
    dif = int(out[:, 3].sum())
    print(f"  decisions with a choice {dec}, best response differs from {policy} in {dif} "
          f"({100 * dif / max(dec, 1):.1f}%)")


def main(argv=None) -> int:
    from tests.bot_audit.go_town_losses import kind

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--games", type=int, default=300)
    ap.add_argument("-r", "--rollouts", type=int, default=32)
    ap.add_argument("--rollouts2", type=int, default=8, help="determinizations of the inner "
                    "level (--depth 2)")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--perfect", action="store_true", help="play out the true state (sees the "
                    "deck and the rival's hand)")
    ap.add_argument("--policy", default="attacker", help="the playouts' bot in its own seat")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="first game index")
    ap.add_argument("--z", type=float, default=0.0, help="switch from the policy's action "
                    "only on a paired gain above z standard errors (0: any better mean)")
    ap.add_argument("--drop", type=float, default=0.0, help="racing: drop an action more than "
                    "this many standard errors below the policy's (0: no racing)")
    ap.add_argument("--batch", type=int, default=16, help="racing: determinizations between "
                    "drop tests")
    ap.add_argument("--save", default=None, help="write out and rec to this .npz")
    ap.add_argument("--merge", nargs="+", default=None, metavar="FILE.npz",
                    help="print the summary of earlier --save files together (no play)")
    a = ap.parse_args(argv)
    if a.merge:
        outs = [np.load(f)["out"] for f in a.merge]
        out = np.concatenate(outs)
        print(f"{len(out)} games merged from {len(outs)} files")
        _summary(out, a.policy)
        return 0
    t0 = time.process_time()
    out, rec, plays = run(a.games, a.rollouts, a.seed, a.policy, a.depth, a.rollouts2,
                          a.perfect, a.first, z=a.z, drop=a.drop, batch=a.batch)
    cpu = time.process_time() - t0
    info = "perfect information" if a.perfect else "seat information (determinized)"
    lvl = f"depth 2 ({a.rollouts2} inner)" if a.depth == 2 else "depth 1"
    print(f"Go Town, 2 players, vs random, games {a.first}-{a.first + a.games - 1} of seed "
          f"{a.seed}, seats alternated; flat Monte Carlo best response, {info}, {a.rollouts} "
          f"determinizations per action, {lvl}, playouts by {a.policy} (own seat) and random "
          f"(rival); switch test z {a.z}, racing drop {a.drop} every {a.batch}; {plays} top-level "
          f"playouts; {cpu:.0f} CPU-s")
    _summary(out, a.policy)
    fam: collections.Counter = collections.Counter()
    val: collections.Counter = collections.Counter()
    for g in range(a.games):
        for j in range(min(int(out[g, 2]), rec.shape[1])):
            r = rec[g, j]
            if r[R_MC] != r[R_POL]:
                key = (kind(int(r[R_POL])), kind(int(r[R_MC])))
                fam[key] += 1
                val[key] += (r[R_VMC] - r[R_VPOL]) / 1e6
    print(f"  where they differ, {a.policy} -> best response (decisions, summed estimated gain "
          "in win share; biased upwards by the max over noisy values):")
    for key, c in sorted(fam.items(), key=lambda kv: -val[kv[0]])[:15]:
        print(f"    {key[0]:8s} -> {key[1]:8s} {c:5d}  {val[key]:7.2f}")
    if a.save:
        np.savez_compressed(a.save, out=out, rec=rec)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
