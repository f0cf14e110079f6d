"""``make bench``: games/s per core, decisions/s, speedup against the plain-Python reference,
jobs=1 against jobs=2, and peak memory of a 1,000,000-game run. Prints a table and writes
reports/_bench/bench.json. Never run from the test suite.

The search bot's figures (``--search`` prints only them): decisions/s and playouts/s per core
at 2 players, beside the engine's games/s with its playout bot and with random bots.

Usage: python -m tests.bench [--quick] [--repeats 3] [--skip-million] [--search]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import sim
from sim.core.seating import seat_matrix
from tests import games as H


def _tree_rss_kb(pid: int) -> int:
    """Resident memory (kB) of ``pid`` and all its descendants, from /proc."""
    total = 0
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(d))
        except (OSError, IndexError, ValueError):
            continue
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
        stack.extend(children.get(p, []))
    return total


def peak_memory(cmd: list[str], env: dict | None = None) -> tuple[float, float, int]:
    """Run ``cmd``; return (wall seconds, peak total RSS of its process tree in MB, exit code)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    stop = threading.Event()

    def sample():
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, _tree_rss_kb(proc.pid))
            time.sleep(0.1)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    rc = proc.wait()
    stop.set()
    th.join()
    return time.perf_counter() - t0, peak / 1024, rc


def engine_rate(game, players: int, strategy: str, n: int, repeats: int) -> tuple[float, float]:
    """Median games/s and decisions/s of one core for ``n`` games, all seats ``strategy``."""
    seats = seat_matrix("fixed", 1, 0, n, players, 1)
    game.run_chunk(0, 50, 1, players, seats[:50], {}, [strategy])  # compile / load cache
    g_rates, d_rates = [], []
    for r in range(repeats):
        t0 = time.perf_counter()
        res = game.run_chunk(r * n, n, 1, players, seats, {}, [strategy])
        dt = time.perf_counter() - t0
        g_rates.append(n / dt)
        d_rates.append(res.decisions.sum() / dt)
    return statistics.median(g_rates), statistics.median(d_rates)


def search_rate(game, players: int, n_positions: int, repeats: int) -> dict:
    """The search bot (``mcts`` at its default parameters) on one core, process time:
    decisions/s and playouts/s over ``n_positions`` positions (each with 2+ legal actions)
    taken evenly from games its playout bot plays against itself, median of ``repeats``;
    beside it, games/s of ``run_chunk`` with its playout bot and with ``random`` in every seat
    (the same clock), and the ratios. Keys: decisions_per_s, playouts_per_s, playout_bot,
    playout_games_per_s, random_games_per_s, random_over_playouts, bot_over_playouts."""
    spec = game.strategies["mcts"]
    values = dict(zip(spec.param_names, spec.params))  # the search bot's parameters, by name
    budget = int(values["budget"])
    playout = list(game.strategies)[int(values["playout"])]
    states = []
    for seed in range(3):
        st = game.new_state(players, seed)
        rng = game.bot_rng(seed)
        while not game.is_terminal(st):
            if len(game.legal_actions(st)) > 1:
                states.append(st)
            st = game.apply_action(st, game.choose_action(st, playout, rng))
    step = max(1, len(states) // n_positions)
    states = states[::step][:n_positions]
    game.choose_action(states[0], "mcts", game.bot_rng(0))  # compile / load the cache
    rates = []
    for r in range(repeats):
        rng = game.bot_rng(100 + r)
        t0 = time.process_time()
        for st in states:
            game.choose_action(st, "mcts", rng)
        rates.append(len(states) / (time.process_time() - t0))
    dec = statistics.median(rates)

    def games_per_s(name: str) -> float:
        n = 200
        seats = seat_matrix("fixed", 1, 0, n, players, 1)
        game.run_chunk(0, 5, 1, players, seats[:5], {}, [name])
        while True:
            t0 = time.process_time()
            game.run_chunk(0, n, 1, players, seats, {}, [name])
            dt = time.process_time() - t0
            if dt > 0.5 or n >= 200_000:
                return n / dt
            n *= 4
            seats = seat_matrix("fixed", 1, 0, n, players, 1)

    bot = games_per_s(playout)
    rnd = games_per_s("random")
    return {"decisions_per_s": dec, "playouts_per_s": dec * budget, "budget": budget,
            "playout_bot": playout, "playout_games_per_s": bot, "random_games_per_s": rnd,
            "random_over_playouts": rnd / (dec * budget), "bot_over_playouts":
            bot / (dec * budget)}


def reference_rate(game, players: int, seconds: float, repeats: int) -> float | None:
    """Median games/s of the game's plain-Python reference (tests/reference/<package>.py)
    with random bots, or None if it has none."""
    import importlib

    package = type(game).__module__.split(".")[1]
    try:
        ref = importlib.import_module(f"tests.reference.{package}")
    except ModuleNotFoundError:
        return None
    if not hasattr(ref, "play_random_game"):
        return None
    from tests.reference.go_town import seed_for

    rates = []
    for r in range(repeats):
        t0 = time.perf_counter()
        k = 0
        while time.perf_counter() - t0 < seconds:
            ref.play_random_game(players, seed_for(1, r * 100000 + k), bot_seed=k)
            k += 1
        rates.append(k / (time.perf_counter() - t0))
    return statistics.median(rates)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small counts (a smoke run)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip-million", action="store_true")
    ap.add_argument("--skip-jobs", action="store_true")
    ap.add_argument("--games", help="comma-separated game ids (default: all)")
    ap.add_argument("--backends", action="store_true",
                    help="only the backend comparison (loky vs threading, jobs 1 and 2)")
    ap.add_argument("--ten-million", action="store_true",
                    help="only the 10-million-game runs of go-town and little-town and their "
                         "reports: wall time and peak memory (about 15 minutes on 2 cores)")
    ap.add_argument("--search", action="store_true",
                    help="only the search bot's figures (decisions/s, playouts/s per core)")
    args = ap.parse_args()
    n = 20_000 if args.quick else 200_000
    if args.search:
        search_table(args.games.split(",") if args.games else sim.list_games(), args.quick,
                     args.repeats)
        return
    ap_games = args.games.split(",") if args.games else sim.list_games()
    if args.backends or args.ten_million:
        ap_games = []
    out: dict = {
        "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} cores, "
                   f"{platform.python_implementation()} {platform.python_version()}",
        "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                 text=True).stdout.strip(),
        "date": time.strftime("%Y-%m-%d"),
        "repeats": args.repeats,
        "engine": [],
        "reference": [],
    }
    print(f"boardsim bench  {out['machine']}  commit {out['commit']}  "
          f"(medians of {args.repeats})")
    print(f"{'game':20} {'bots':8} {'players':>7} {'games/s/core':>14} {'decisions/s':>14}")
    for gid in ap_games:
        game = sim.get_game(gid)
        scale = H.hooks(sim.get_game(gid)).BENCH_SCALE  # slower games play fewer
        for strategy in ("random", "greedy"):
            if strategy not in game.strategies:
                continue
            for p in range(game.min_players, game.max_players + 1):
                g, d = engine_rate(game, p, strategy, max(1000, int(n * scale)), args.repeats)
                out["engine"].append({"game": gid, "strategy": strategy, "players": p,
                                      "games_per_s": round(g), "decisions_per_s": round(d)})
                print(f"{gid:20} {strategy:8} {p:>7} {g:>14,.0f} {d:>14,.0f}")
        p = game.max_players
        ref = reference_rate(game, p, 2.0 if args.quick else 5.0, args.repeats)
        if ref is None:
            print(f"{gid}: no plain-Python reference yet")
            continue
        eng = next(e["games_per_s"] for e in out["engine"]
                   if e["game"] == gid and e["strategy"] == "random" and e["players"] == p)
        out["reference"].append({"game": gid, "players": p, "games_per_s": round(ref, 1),
                                 "speedup": round(eng / ref, 1)})
        print(f"{gid}: reference (plain Python, random, {p}p) {ref:,.1f} games/s -> engine "
              f"speedup {eng / ref:,.0f}x")
    out["search"] = search_table(ap_games, args.quick, args.repeats)
    if "go-town" not in ap_games:
        args.skip_million = True
        args.skip_jobs = not args.backends

    tmp = Path(tempfile.mkdtemp(prefix="boardsim-bench-"))
    env = dict(os.environ)
    cli = [sys.executable, "-m", "analysis.cli", "simulate", "go-town", "--players", "4",
           "--strategies", "greedy,greedy,random,attacker"]
    try:
        nj = 50_000 if args.quick else 400_000
        combos = [(b, j) for b in ("loky", "threading") for j in (1, 2)]
        for backend, jobs in () if args.skip_jobs else combos:
            if backend == "threading" and jobs == 1:
                continue  # one job runs in the calling process whatever the backend
            times, peaks = [], []
            for r in range(args.repeats):
                dt, pk, rc = peak_memory(cli + ["-n", str(nj), "--jobs", str(jobs), "--out",
                                                str(tmp / f"{backend}{jobs}-{r}"),
                                                "--backend", backend], env)
                assert rc == 0
                times.append(dt)
                peaks.append(pk)
            med = statistics.median(times)
            key = f"jobs{jobs}" if backend == "loky" else f"{backend}_jobs{jobs}"
            out[key] = {"games": nj, "backend": backend, "wall_s": round(med, 2),
                        "games_per_s": round(nj / med), "peak_rss_mb": round(max(peaks))}
            print(f"simulate {nj:,} games 4p greedy,greedy,random,attacker {backend} "
                  f"jobs={jobs}: {med:.1f} s wall, {nj / med:,.0f} games/s (incl. start-up and "
                  f"Parquet), peak {max(peaks):,.0f} MB")
        if args.ten_million:
            out["ten_million"] = ten_million(tmp, env)
        if not args.skip_million:
            n_m = 100_000 if args.quick else 1_000_000
            dt, peak, rc = peak_memory(cli + ["-n", str(n_m), "--jobs", "2", "--out",
                                              str(tmp / "million")], env)
            assert rc == 0
            out["million"] = {"games": n_m, "wall_s": round(dt, 1), "peak_rss_mb": round(peak)}
            print(f"simulate {n_m:,} games, jobs=2: {dt:.1f} s, peak memory of the process "
                  f"tree {peak:,.0f} MB")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    dest = Path("reports/_bench")
    dest.mkdir(parents=True, exist_ok=True)
    name = "bench-scale.json" if (args.backends or args.ten_million) else "bench.json"
    (dest / name).write_text(json.dumps(out, indent=2))
    print(f"written: {dest / name}")


def search_table(games: list[str], quick: bool, repeats: int) -> list[dict]:
    """Print and return ``search_rate`` at 2 players for every game with a search bot."""
    rows = []
    print(f"{'search bot (mcts), 2p':24} {'budget':>6} {'decisions/s':>12} {'playouts/s':>11} "
          f"{'playout bot':>14} {'its games/s':>12} {'random games/s':>15} {'rnd/pl':>7}")
    for gid in games:
        game = sim.get_game(gid)
        if "mcts" not in game.strategies:
            print(f"{gid:24} no search bot (no determinize registered)")
            continue
        r = search_rate(game, 2, 10 if quick else 40, repeats)
        rows.append({"game": gid, "players": 2, **{k: (round(v, 2) if isinstance(v, float)
                                                       else v) for k, v in r.items()}})
        print(f"{gid:24} {r['budget']:>6} {r['decisions_per_s']:>12,.1f} "
              f"{r['playouts_per_s']:>11,.0f} {r['playout_bot']:>14} "
              f"{r['playout_games_per_s']:>12,.0f} {r['random_games_per_s']:>15,.0f} "
              f"{r['random_over_playouts']:>7.2f}")
    return rows


def ten_million(tmp: Path, env: dict) -> list[dict]:
    """``boardsim simulate GAME -n 10000000 --jobs 2`` (default players and bots) and
    ``boardsim report`` over its results, for go-town and little-town: wall time and peak
    memory of each process tree."""
    rows = []
    for gid in ("go-town", "little-town"):
        run = tmp / f"ten-{gid}"
        cmd = [sys.executable, "-m", "analysis.cli", "simulate", gid, "-n", "10000000", "--jobs",
               "2", "--out", str(run)]
        dt, peak, rc = peak_memory(cmd, env)
        assert rc == 0, f"simulate {gid} failed"
        size = sum(f.stat().st_size for f in run.rglob("*.parquet")) / 2**20
        rows.append({"game": gid, "step": "simulate", "games": 10_000_000,
                     "wall_s": round(dt, 1), "peak_rss_mb": round(peak),
                     "parquet_mb": round(size)})
        print(f"{gid}: simulate 10,000,000 games jobs=2: {dt:.1f} s, peak {peak:,.0f} MB, "
              f"results {size:,.0f} MB")
        rcmd = [sys.executable, "-m", "analysis.cli", "report", str(run), "--out",
                str(tmp / f"report-{gid}")]
        dt, peak, rc = peak_memory(rcmd, env)
        assert rc == 0, f"report {gid} failed"
        rows.append({"game": gid, "step": "report", "games": 10_000_000,
                     "wall_s": round(dt, 1), "peak_rss_mb": round(peak)})
        print(f"{gid}: report over 10,000,000 games: {dt:.1f} s, peak {peak:,.0f} MB")
        shutil.rmtree(run, ignore_errors=True)
    return rows


if __name__ == "__main__":
    main()
