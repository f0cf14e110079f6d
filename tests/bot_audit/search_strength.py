"""Strength of the ``search`` bot heads-up (issue 27): ``search`` against one scripted bot,
seats alternated game by game (``seating rotate`` over the two names), or at 4 players
``search`` in one seat (rotated) against three bots of the recommended mix.

    python -m tests.bot_audit.search_strength GAME OPPONENT [-n N] [--seed S] [--budget B]
        [--set name=value ...] [--players 4] [--chunk C]

Prints the search bot's mean win share over the finished games (a shared win counts 1/k) with
its Wilson 95% interval. A game stopped at the length limit or in a rules deadlock has no
result: it is never a win, a loss or a length (the house rule, as ``boardsim tiers``), so it
is left out of the share and counted apart (with how many of them the search seat led); the
share over every game played, such games counted 0, is printed beside it. With ``--finished``
the run plays game indices 0, 1, ... until ``-n`` games have finished (the shortest prefix of
the run holding ``n`` finished games, at most ``2n`` played), else ``-n`` games are played.
Also turns per player and the process CPU seconds per game (one thread; after a first warm-up
game, so the compile is left out and printed apart).
``--set`` overrides a number of the search row (``search.PARAM_NAMES``, e.g. n_random=64).
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np
from statsmodels.stats.proportion import proportion_confint

import sim
from strategies import search


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("opponent", help="a bot name, or 'mix' for 4p: the recommended mix")
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=int, default=None)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=100)
    ap.add_argument("--mirror", action="store_true", help="search in every seat")
    ap.add_argument("--finished", action="store_true",
                    help="play until -n games have finished (a prefix of at most 2n games)")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--playout", default=None, help="another playout bot (a scripted bot name)")
    a = ap.parse_args(argv)
    game = sim.get_game(a.game)
    p = a.players
    if a.n < 1:
        raise SystemExit(f"error: -n must be at least 1, got {a.n}")
    cap = 2 * a.n if a.finished else a.n  # games that may be played
    if a.mirror:
        names = ["search"]
        seats_all = np.zeros((cap, p), np.int64)
    elif p == 2:
        names = ["search", a.opponent]
        seats_all = np.array([[g % 2, 1 - g % 2] for g in range(cap)], np.int64)
    else:
        mix = list(game.recommended_mix(p))
        names = ["search"] + mix
        # search in seat g % p; the other seats draw the mix in turn
        rows = []
        for g in range(cap):
            row = [0] * p
            others = [1 + (g + j) % len(mix) for j in range(p - 1)]
            for s in range(p):
                if s != g % p:
                    row[s] = others.pop(0)
            rows.append(row)
        seats_all = np.array(rows, np.int64)
    codes, rows = game.bots.params_matrix(names)
    prm = rows[:len(names)].copy()
    for kv in a.set:
        key, v = kv.split("=")
        prm[0, search.PARAM_NAMES.index(key)] = float(v)
    if a.playout:
        want = np.asarray(game.strategies[a.playout].params, np.float64)
        hit = [r for r in range(len(names), rows.shape[0])
               if codes[r] == game.strategies[a.playout].code and np.array_equal(rows[r], want)]
        if not hit:
            raise SystemExit(f"error: no row of {a.playout!r} in the search's matrix")
        prm[0, search.P_PROW] = hit[0]
    if a.budget is not None:
        prm[0, search.P_BUDGET] = a.budget
    print(f"{a.game} {p}p search vs {names[1:]} budget {prm[0, search.P_BUDGET]:g} "
          f"n_random {prm[0, search.P_NRAND]:g} bias {prm[0, search.P_BIAS]:g} "
          f"margin_w {prm[0, search.P_MW]:g} playout row {prm[0, search.P_PROW]:g} seed {a.seed}", flush=True)
    opts = game.resolve_options({})
    t0 = time.process_time()
    game.run_chunk(0, 1, 999_999, p, seats_all[:1], opts, names, params=prm)
    print(f"warm-up (compile or cache load + 1 game): {time.process_time() - t0:.1f} CPU s",
          flush=True)
    wins = 0.0
    unfinished = led = 0
    reasons: dict = {}
    turns = []
    first_wins = 0.0
    cpu = 0.0
    done = 0
    h = hashlib.sha256()
    counted = 0  # games toward -n: finished ones with --finished, else every game played
    while counted < a.n and done < cap:
        m = min(a.chunk, cap - done, a.n - counted)
        seats = seats_all[done:done + m]
        t0 = time.process_time()
        res = game.run_chunk(done, m, a.seed, p, seats, opts, names, params=prm)
        cpu += time.process_time() - t0
        for key in ("turns", "decisions", "win_share", "score", "action_hash"):
            h.update(np.ascontiguousarray(getattr(res, key)).astype(np.float64).tobytes())
        mine = seats == 0
        ws = res.win_share
        wins += float((ws * mine).sum()) / (p if a.mirror else 1)
        over = ws.sum(axis=1) > 0
        first = res.first_player
        first_wins += float(ws[np.arange(m), first].sum())
        for g in np.nonzero(~over)[0]:
            unfinished += 1
            r = game.end_reasons[int(res.end_reason[g])]
            reasons[r] = reasons.get(r, 0) + 1
            me = int(np.nonzero(mine[g])[0][0])
            if res.score[g, me] >= res.score[g].max():
                led += 1
        turns.extend((res.turns[over] / p).tolist())
        done += m
        fin = done - unfinished
        counted = fin if a.finished else done
        print(f"  {done} games ({fin} finished): win share {wins / max(fin, 1):.3f}, "
              f"unfinished {unfinished}, {cpu / done:.3f} CPU s/game", flush=True)
    fin = done - unfinished
    if fin == 0:
        print(f"RESULT {a.game}: no game of {done} finished ({reasons})")
        return 1
    lo, hi = proportion_confint(wins, fin, method="wilson")
    print(f"RESULT {a.game} {p}p vs {'+'.join(names[1:])} budget {prm[0, search.P_BUDGET]:g} "
          f"n {fin} finished of {done} played: search win share {wins / fin:.3f} "
          f"[{lo:.3f}, {hi:.3f}] (over all {done} played, unfinished as 0: {wins / done:.3f}); "
          f"unfinished {unfinished} {reasons} (search led or tied in {led}); first seat "
          f"{first_wins / fin:.3f}; turns/player {np.mean(turns):.2f}; {cpu / done:.3f} CPU "
          f"s/game; fingerprint {h.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
