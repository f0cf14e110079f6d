"""``python -m tests.bot_audit GAME [-n N] [-p P ...]``: each bot's blunder rates (see
tests/bot_audit/__init__.py)."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time

from tests.bot_audit import _common
from tests.bot_audit._common import speed, win_vs_random

MODULES = {"suburbia": "suburbia", "little-town": "little_town",
           "three-little-wolves": "three_little_wolves"}
# Go Town and Province audits have their own entry point (main(n, players, seed, only))
OWN_MAIN = {"go-town": "go_town", "province": "province"}
ALIASES = {**{k: k for k in MODULES}, **{v: k for k, v in MODULES.items()}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", help="suburbia, little-town, three-little-wolves or all")
    ap.add_argument("-n", "--games", type=int, default=10000,
                    help="games per bot and player count (default 10000)")
    ap.add_argument("-p", "--players", type=int, nargs="*", default=None,
                    help="player counts (default: every count of the game)")
    ap.add_argument("--bots", default=None, help="comma-separated bots (default: the game's)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-blunders", action="store_true")
    ap.add_argument("--mix", action="store_true",
                    help="the blunders in the game's recommended mix (pool seating, the games "
                         "the studies play), each bot over its own seat-games, not in mirrors")
    ap.add_argument("--winrate", type=int, default=0, metavar="N",
                    help="also N 2-player games of each bot against random, seats rotated")
    ap.add_argument("--distinct", type=int, default=0, metavar="DEALS",
                    help="also the share of distinct greedy mirror games: DEALS deals x 20 "
                         "bot seeds")
    ap.add_argument("--speed", type=int, default=0, metavar="N",
                    help="also greedy games/s per core over N games (median of 3)")
    ap.add_argument("--json", default=None, help="write the rows to this file")
    ap.add_argument("--only", default=None,
                    help="Go Town, Province: comma-separated section names (default: all)")
    a = ap.parse_args(argv)
    if a.game in OWN_MAIN or a.game.replace("_", "-") in OWN_MAIN:
        mod = importlib.import_module(f"tests.bot_audit.{OWN_MAIN[a.game.replace('_', '-')]}")
        mod.main(a.games, a.players, a.seed, set(a.only.split(",")) if a.only else None)
        return 0
    if a.game == "all":
        games = list(MODULES)
    elif a.game in ALIASES:
        games = [ALIASES[a.game]]
    else:
        print(f"unknown game {a.game!r}; allowed: {', '.join([*OWN_MAIN, *MODULES])}, all",
              file=sys.stderr)
        return 2
    rows = []
    for gid in games:
        mod = importlib.import_module(f"tests.bot_audit.{MODULES[gid]}")
        players = a.players or mod.PLAYERS
        bots = a.bots.split(",") if a.bots else list(mod.BOTS)
        t0 = time.perf_counter()
        new = []
        if a.mix:
            new += _common.mix_rows(gid, mod.play, a.games, players, a.seed, mod._rows,
                                    a.bots.split(",") if a.bots else None)
        elif not a.skip_blunders:
            new += mod.audit(a.games, players, bots, a.seed)
        if a.distinct:
            new += _common.distinct(gid, mod.play, players, deals=a.distinct, seed=a.seed)
        if a.winrate:
            for bot in bots:
                if bot != "random":
                    new += win_vs_random(gid, bot, a.winrate, a.seed)
        if a.speed:
            for p in players:
                new.append(speed(gid, p, a.speed))
        for r in new:
            print(r.text(), flush=True)
        print(f"# {gid}: {time.perf_counter() - t0:.1f} s", flush=True)
        rows += new
    if a.json:
        with open(a.json, "w") as f:
            json.dump([dict(game=r.game, players=r.players, bot=r.bot, metric=r.metric,
                            num=r.num, den=r.den, value=r.value) for r in rows], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
