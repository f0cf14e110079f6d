"""Fingerprints of ``run_chunk`` outputs: a refactor must change no game.

``python -m sim.fingerprint [--games N] [--only GAME] > before.txt`` prints one line per
configuration (game, player count, strategy set, one rule option changed from its default):
the SHA-256 of every output array of ``run_chunk`` (turns, decisions, end reasons, first
players, scores, ranks, win shares and every seat-detail column, in name order). Run it before
and after a change and ``diff`` the two files: any difference is a changed game.
"""

from __future__ import annotations

import argparse
import hashlib
import sys

import numpy as np

import sim


def _configs(game):
    names = game.pool_strategies  # the search bot is left out: see Game.pool_strategies
    for n in range(game.min_players, game.max_players + 1):
        for s in names:  # every bot in a mirror match, default rules
            yield n, [s], {}
        yield n, names, {}  # every bot, rotated over the seats
        for opt, values in game.conformance_values().items():
            for v in values:
                yield n, names, {opt: v}


def fingerprint(game, n_players, names, options, n_games, seed=12345):
    """SHA-256 hex of the outputs of one ``run_chunk`` call (strategies rotated by game)."""
    idx = np.array([[(g + p) % len(names) for p in range(n_players)] for g in range(n_games)],
                   np.int64)
    res = game.run_chunk(0, n_games, seed, n_players, idx, game.resolve_options(options), names)
    h = hashlib.sha256()
    for key in ("turns", "decisions", "end_reason", "first_player", "score", "rank",
                "win_share"):
        h.update(key.encode())
        h.update(np.ascontiguousarray(getattr(res, key)).astype(np.float64).tobytes())
    for key in sorted(res.seat_detail):
        h.update(key.encode())
        h.update(np.ascontiguousarray(res.seat_detail[key]).astype(np.float64).tobytes())
    return h.hexdigest()[:16]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--only", default=None)
    a = ap.parse_args(argv)
    for gid in sim.list_games():
        if a.only and gid != a.only:
            continue
        game = sim.get_game(gid)
        for n, names, opts in _configs(game):
            fp = fingerprint(game, n, names, opts, a.games)
            o = ",".join(f"{k}={v}" for k, v in opts.items()) or "default"
            print(f"{gid} {n}p {'+'.join(names)} {o} {fp}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
