"""Every seat-game of the Three Little Wolves that ends with an unused wolf, classified (issue
#27: "greedy ends with an unused wolf in under 2% of seat-games, or the note shows with
playouts that using it would have lost").

``python -m tests.bot_audit.wolves_unused [-n N] [-p P ...] [--reps R] [--seed S]`` plays ``N``
games of the recommended mix (pool seating, the games ``boardsim simulate`` plays) at each
player count and prints, per bot, its seat-games ending with at least one unused wolf split
into:

- ``never declined``: at no decision of the seat was a WOLF action legal while it played
  something else (whenever a wolf had a target the seat placed one; the wolves left never
  had a target again);
- ``declined, wolf not better``: the seat's *last* decision that declined a legal wolf (its last
  chance to place one: no later decision of the seat offered a wolf it passed up) was played
  out ``R`` times after the chosen action and after every legal WOLF action, the j-th playout
  of every branch from the same bot generator state (common random numbers); no wolf
  reached a higher mean win share **and** none a higher mean score than the chosen action;
- ``blunder (win share)``: the best wolf's mean win share is higher than the chosen action's
  (using the wolf would have won more often): the blunder class;
- ``blunder (score only)``: no wolf wins more often, but one scores more on average.

The playouts continue from the true state (the deck order included): hindsight, so they find
at least as many blunders as a seat that cannot see the deck could have avoided.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import sim
from sim.core import contract
from sim.core.rng import mix
from sim.three_little_wolves import constants as K
from strategies import common
from tests.bot_audit import _common

GAME = "three-little-wolves"
(S_UNUSED, S_SNAP, S_BLUNDER_WIN, S_BLUNDER_SCORE, S_WIN, S_NWOLF) = range(6)
NS = 6


@njit(cache=True)
def _finish(s, seat_idx, g, codes, params, legal, r0, seat, sc):
    """Play ``s`` to its end with the game's bots (generator state ``r0``); return (score, win
    share) of ``seat``."""
    r = np.empty(1, np.uint64)
    r[0] = r0
    while not contract.is_over(s):
        n = contract.legal_actions_into(s, legal)
        k = seat_idx[g, contract.current_seat(s)]
        contract.apply_inplace(s, common.bot_choose(codes[k], params, k, s, legal, n, r))
    contract.scores_into(s, sc)
    v = sc[seat]
    contract.win_shares_into(s, sc)
    return v, sc[seat]


@njit(cache=True)
def _snap(q0, q1, q2, q3, c):
    if c == 0:
        return q0
    if c == 1:
        return q1
    if c == 2:
        return q2
    return q3


@njit(cache=True)
def _branch(q, s2, a, reps, r_snap, seat_idx, g, codes, params, leg2, c, sc):
    """Mean (score, win share) of seat ``c`` over ``reps`` playouts after action ``a`` in ``q``."""
    ms = 0.0
    mw = 0.0
    for j in range(reps):
        contract.copy_into(q, s2)
        contract.apply_inplace(s2, a)
        v, w = _finish(s2, seat_idx, g, codes, params, leg2, mix(r_snap ^ np.uint64(j + 1)), c,
                       sc)
        ms += v
        mw += w
    return ms / reps, mw / reps


@njit(cache=True)
def _play(s, s2, q0, q1, q2, q3, first, n_games, run_seed, n_players, seat_idx, codes, params,
          reps, out, hashes, cf_reps):
    """Play games ``first ..`` and fill ``out[g, p, :]`` (columns S_*). At each decision of a
    seat that declines a legal wolf, the state before it is kept (one per seat, the last one
    wins); at the end, a seat left with an unused wolf has its last declined wolf played out
    (see the module docstring)."""
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    leg2 = np.empty(K.NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    sc = np.zeros(4, np.float64)
    r_snap = np.zeros(4, np.uint64)
    a_snap = np.zeros(4, np.int64)
    has = np.zeros(4, np.bool_)
    for g in range(n_games):
        h = _common.start_game(s, first, g, reps, run_seed, n_players, brng, out)
        has[:] = False
        while not contract.is_over(s):
            n, c, a = _common.bot_move(s, g, seat_idx, codes, params, legal, brng)
            if s.meta[K.M_PHASE] == K.PH_PLAY and not (K.A_WOLF <= a < K.A_PLACE):
                for i in range(n):
                    if K.A_WOLF <= legal[i] < K.A_PLACE:
                        contract.copy_into(s, _snap(q0, q1, q2, q3, c))
                        r_snap[c] = brng[0]
                        a_snap[c] = a
                        has[c] = True
                        break
            contract.apply_inplace(s, a)
            h = mix(h ^ np.uint64(a + 1))
        hashes[g] = h
        contract.win_shares_into(s, sc)
        for p in range(n_players):
            out[g, p, S_WIN] = np.int64(round(1000.0 * sc[p]))
        for p in range(n_players):
            u = 0
            for v in range(3):
                if s.seat[p, K.S_WU + v] == 0:
                    u += 1
            out[g, p, S_UNUSED] = u
            if u == 0 or not has[p]:
                continue
            out[g, p, S_SNAP] = 1
            q = _snap(q0, q1, q2, q3, p)
            cs, cw = _branch(q, s2, a_snap[p], cf_reps, r_snap[p], seat_idx, g, codes, params,
                             leg2, p, sc)
            n = contract.legal_actions_into(q, legal)
            bs = -1e18
            bw = -1.0
            for i in range(n):
                if K.A_WOLF <= legal[i] < K.A_PLACE:
                    out[g, p, S_NWOLF] += 1
                    ws, ww = _branch(q, s2, legal[i], cf_reps, r_snap[p], seat_idx, g, codes,
                                     params, leg2, p, sc)
                    bs = max(bs, ws)
                    bw = max(bw, ww)
            if bw > cw + 1e-9:
                out[g, p, S_BLUNDER_WIN] = 1
            if bs > cs + 1e-9:
                out[g, p, S_BLUNDER_SCORE] = 1


def play(n_players, names, seats, seed, cf_reps):
    return _common.play_loop(GAME, _play, NS, n_players, names, seats, seed, 1, None,
                             copies=6, extra=(cf_reps,))


def classify(out: np.ndarray) -> dict:
    """Counts of one bot's seat-games (``out[seat-games, NS]``)."""
    unused = out[:, S_UNUSED] > 0
    snap = unused & (out[:, S_SNAP] > 0)
    bw = snap & (out[:, S_BLUNDER_WIN] > 0)
    bs = snap & (out[:, S_BLUNDER_SCORE] > 0) & ~bw
    return dict(seat_games=len(out), unused=int(unused.sum()),
                never_declined=int((unused & ~snap).sum()),
                not_better=int((snap & ~bw & ~bs).sum()), blunder_win=int(bw.sum()),
                blunder_score_only=int(bs.sum()), win=float(out[:, S_WIN].mean() / 1000.0))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--games", type=int, default=2000)
    ap.add_argument("-p", "--players", type=int, nargs="*", default=[2, 3, 4])
    ap.add_argument("--reps", type=int, default=16, help="playouts per branch (default 16)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    game = sim.get_game(GAME)
    for p in a.players:
        t0 = time.process_time()
        names = game.recommended_mix(p)
        seats = _common.mix_seats(a.games, p, len(names), a.seed)
        out, _ = play(p, names, seats, a.seed, a.reps)
        for k, b in enumerate(names):
            c = classify(out[seats == k])
            sg = c["seat_games"]

            def pct(x, sg=sg):
                return f"{100 * x / sg:.2f}% ({x})"
            print(f"{p}p {b:12s} seat-games {sg}: unused wolf {pct(c['unused'])} = never declined "
                  f"{pct(c['never_declined'])} + declined, wolf not better {pct(c['not_better'])}"
                  f" + blunder (win share) {pct(c['blunder_win'])} + blunder (score only) "
                  f"{pct(c['blunder_score_only'])}; win share {c['win']:.3f}", flush=True)
        print(f"# {p}p: {a.games} games, {a.reps} playouts per branch, "
              f"{time.process_time() - t0:.0f} CPU s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
