"""Parameter-row sweep in the recommended mix: each candidate's per-bot blunder rate and win
share at every player count, the rows overridden in place (``run_chunk(params=...)``: no
recompile), plus each changed bot's 2-player win share against ``random``.

``python -m tests.bot_audit.row_sweep GAME METRIC -n N --cand 'name:bot.param=v,bot.param=v' ...``
(``*.param`` sets it in every row). ``--audit N``: also the game's mix audit
(``python -m tests.bot_audit GAME --mix``, every row) over ``N`` games per player count with
each candidate's rows.

METRIC: a ``seat_detail`` column (a seat-game counts when it is > 0), e.g. Little Town's
``unfed``. Used to pick Little Town's food-reserve rows (docs/bots.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import time

import sim
from tests.bot_audit import _common
from tests.bot_audit._common import mirror_seats, mix_seats, rotated_seats


def parse_cand(text: str) -> tuple[str, dict]:
    name, _, body = text.partition(":")
    ov: dict = {}
    for item in filter(None, body.split(",")):
        key, _, val = item.partition("=")
        bot, _, param = key.partition(".")
        ov.setdefault(bot, {})[param] = float(val)
    return name, ov


def rows_with(game, names, ov):
    codes, params = game.bots.params_matrix(names)
    pn = list(game.bots.PARAM_NAMES)
    params = params[: len(names)].copy()
    for i, n in enumerate(names):
        base = n.split("@")[0]
        for bot in (base, "*"):
            for p, v in ov.get(bot, {}).items():
                params[i, pn.index(p)] = v
    return params


def audit_rows(game, a, cname, ov, players) -> None:
    """The mix audit's rows with the candidate's rows patched into the bot package's
    strategies (restored after)."""
    from tests.bot_audit.__main__ import MODULES

    mod = importlib.import_module(f"tests.bot_audit.{MODULES[a.game]}")
    strat = game.bots.STRATEGIES
    saved = dict(strat)
    pn = list(game.bots.PARAM_NAMES)
    try:
        for name, spec in saved.items():
            row = list(spec.params or ())
            if not row:
                continue
            for bot in (name, "*"):
                for p, v in ov.get(bot, {}).items():
                    row[pn.index(p)] = v
            strat[name] = dataclasses.replace(spec, params=tuple(row))
        for r in _common.mix_rows(a.game, mod.play, a.audit, players, a.seed, mod._rows):
            print(f"{cname:14s} {r.text()}", flush=True)
    finally:
        strat.clear()
        strat.update(saved)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("metric")
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("-p", "--players", type=int, nargs="*", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--vs-random", type=int, default=0)
    ap.add_argument("--cand", action="append", default=[])
    ap.add_argument("--audit", type=int, default=0, metavar="N")
    ap.add_argument("--speed", type=int, default=0, metavar="N",
                    help="also --speed-bot's mirror games per CPU second over N games")
    ap.add_argument("--speed-bot", default="greedy")
    a = ap.parse_args(argv)
    game = sim.get_game(a.game)
    players = a.players or list(range(game.min_players, game.max_players + 1))
    cands = [("base", {})] + [parse_cand(c) for c in a.cand]
    for cname, ov in cands:
        t0 = time.process_time()
        for p in players:
            names = list(game.recommended_mix(p))
            seats = mix_seats(a.n, p, len(names), a.seed)
            res = game.run_chunk(0, a.n, a.seed, p, seats, {}, names,
                                 params=rows_with(game, names, ov))
            m = res.seat_detail[a.metric] > 0
            parts = []
            for k, b in enumerate(names):
                mine = seats == k
                parts.append(f"{b} {100 * m[mine].mean():5.2f}% ws {res.win_share[mine].mean():.3f}"
                             f" sc {res.score[mine].mean():5.1f}")
            print(f"{cname:14s} {p}p  " + " | ".join(parts), flush=True)
        if a.vs_random:
            changed = set(game.recommended_mix(2)) if ("*" in ov or not ov) else set(ov)
            for b in sorted(changed):
                seats = rotated_seats(a.vs_random, 2, 2)
                res = game.run_chunk(0, a.vs_random, a.seed, 2, seats, {}, [b, "random"],
                                     params=rows_with(game, [b, "random"], ov))
                print(f"{cname:14s} {b} vs random 2p: {res.win_share[seats == 0].mean():.4f}",
                      flush=True)
        if a.speed:
            for p in players:
                seats = mirror_seats(a.speed, p)
                rows = rows_with(game, [a.speed_bot], ov)
                game.run_chunk(0, 20, a.seed, p, seats[:20], {}, [a.speed_bot], params=rows)
                c0 = time.process_time()
                game.run_chunk(0, a.speed, a.seed, p, seats, {}, [a.speed_bot], params=rows)
                print(f"{cname:14s} {p}p {a.speed_bot} mirror: "
                      f"{a.speed / (time.process_time() - c0):.0f} games per CPU s", flush=True)
        if a.audit:
            audit_rows(game, a, cname, ov, players)
        print(f"{cname:14s} {time.process_time() - t0:.1f} CPU s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
