"""``python -m tests.bot_audit GAME [-n N] [-p P ...]``: print the blunder rates of GAME's bots."""

from __future__ import annotations

import argparse
import sys

AUDITS = {"go-town": "tests.bot_audit.go_town", "province": "tests.bot_audit.province"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bot_audit", description=__doc__)
    ap.add_argument("game", help=f"one of: {', '.join(AUDITS)}")
    ap.add_argument("-n", "--games", type=int, default=10_000,
                    help="games per configuration and player count (default 10000)")
    ap.add_argument("-p", "--players", type=int, nargs="*", default=None,
                    help="player counts (default: every count the game allows)")
    ap.add_argument("-s", "--seed", type=int, default=1, help="run seed (default 1)")
    ap.add_argument("--only", default=None,
                    help="comma-separated section names to run (default: all)")
    a = ap.parse_args(argv)
    if a.game not in AUDITS:
        print(f"unknown game {a.game!r}; allowed: {', '.join(AUDITS)}", file=sys.stderr)
        return 2
    if a.games < 1:
        print("-n must be >= 1", file=sys.stderr)
        return 2
    import importlib

    mod = importlib.import_module(AUDITS[a.game])
    only = set(a.only.split(",")) if a.only else None
    mod.main(a.games, a.players, a.seed, only)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
