"""Compile every game's engines once, one process per game in parallel, before the test workers
start (tests/conftest.py runs it on the xdist controller; ``python -m tests.warm [GAME ...]``
runs it by hand). The test workers then load the compiled versions from numba's disk cache
instead of each compiling the same engines.

Each process plays its game through the paths the suite compiles: the Python interface (every
entry point of sim/core/entry.py), every bot's decision (``choose_action``, the search bot
included), the batch loop (``run_chunk``) at every player count, the compiled soak, the
determinization and the invariants. A version the suite needs and this misses is compiled by
the first worker that needs it, as before: the warm-up only makes the start cheaper.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def warm_game(gid: str) -> tuple[str, float, float, list[str]]:
    """Compile game ``gid``'s engines (loads them when cached). Returns ``(gid, wall seconds,
    CPU seconds, failures)``: each path is warmed on its own, so one that fails (reported by
    its tests as it would have been) does not keep the others from compiling."""
    t0, c0 = time.perf_counter(), time.process_time()
    import numpy as np

    import sim
    from sim.soak import soak

    game = sim.get_game(gid)
    pool = list(game.pool_strategies)
    names = list(game.strategies)
    failures: list[str] = []

    def step(what, fn, *args):
        try:
            return fn(*args)
        except Exception as e:  # noqa: BLE001
            failures.append(f"{what}: {type(e).__name__}: {e}")
            return None

    def chunk(n):
        idx = (np.arange(n, dtype=np.int64).reshape(1, n) + n) % len(pool)
        game.run_chunk(0, 1, 7, n, idx, {}, pool)

    for n in range(game.min_players, game.max_players + 1):
        step(f"run_chunk {n}p", chunk, n)

    def play():
        rng = game.bot_rng(1)
        s = game.new_state(game.min_players, seed=3)
        seen = 0
        while not game.is_terminal(s):
            legal = game.legal_actions(s)
            seat = game.current_player(s)
            a = int(legal[0])
            if seen < len(names):
                a = step(f"choose_action {names[seen]}", game.choose_action, s, names[seen],
                         rng)
                a = int(legal[0]) if a is None else a
                seen += 1
            if seen == 1:
                step("determinize", game.determinize, s, seat, 5)
                step("check_invariants", game.check_invariants, s)
                step("dict round trip", lambda st=s: game.state_from_dict(game.state_to_dict(st)))
            s = game.apply_action(s, a)
        for f in (game.scores, game.win_shares, game.winners, game.ranks, game.copy_state,
                  game.check_invariants):
            step(f.__name__, f, s)

    step("play", play)

    def generic_playout():  # the compiled playout over the kernel contract (common.play_out)
        from strategies import common

        codes, params = game.bots.params_matrix(names)
        s = game.new_state(game.min_players, seed=5)
        legal = np.empty(game.num_actions, np.int32)
        common.play_out(s, codes, params, np.zeros(4, np.int64), legal, game.bot_rng(2),
                        game.max_game_length({}))

    step("common.play_out", generic_playout)
    def pairing_traces():  # the effects study's traces (strategies/trace.py), per watch dtype
        from analysis.lab import effects
        from analysis.lab.pairing import first_reached, trace, watch_for

        if not effects.FAMILIES.get(game.id):  # a game without component families
            return
        comps = effects.components_for(game)
        n = min(3, game.max_players)
        mix = list(game.bots.RECOMMENDED_MIX)
        idx = np.zeros((1, n), np.int64)
        empty = game._alloc(game.resolve_options({}))
        seen = set()
        for c in comps:
            w = watch_for(game, c)
            key = str(getattr(empty, w.field).dtype) if w.field else None
            if key not in seen:
                seen.add(key)
                trace(game, w, 0, 1, 1, n, idx, mix)
        if hasattr(game.bots, "first_reached"):  # the seat a removal reaches first
            first_reached(game, game.with_overrides({comps[0].path: comps[0].new}), 0, 1, 1,
                          n, idx, mix)

    step("pairing traces", pairing_traces)
    if game.keeps_derived:
        s = game.new_state(game.min_players, seed=4)
        step("apply_checking_derived", game.apply_checking_derived, s,
             int(game.legal_actions(s)[0]))
    step("soak", soak, gid, 2, game.min_players)
    return gid, time.perf_counter() - t0, time.process_time() - c0, failures


def warm(games: list[str] | None = None, jobs: int | None = None, log=print) -> None:
    """Warm every game of ``games`` (default: every registered game), one process each, at most
    ``jobs`` at once (default: one per game). A game whose warm-up fails is reported and
    skipped: its tests compile (and fail) as they would have."""
    import sim

    games = games or sim.list_games()
    t0 = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")  # fresh interpreters: nothing inherited
    with ProcessPoolExecutor(max_workers=jobs or len(games), mp_context=ctx) as ex:
        futures = {ex.submit(warm_game, g): g for g in games}
        for fut, g in futures.items():
            try:
                gid, wall, cpu, failures = fut.result()
                log(f"warm-up: {gid} compiled in {wall:.0f} s ({cpu:.0f} s CPU)")
                for f in failures:
                    log(f"warm-up: {gid}: {f} (left to its tests)")
            except Exception as e:  # noqa: BLE001 (the tests report it properly)
                log(f"warm-up: {g} failed ({type(e).__name__}: {e}); its tests compile it")
    log(f"warm-up: {len(games)} games in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    os.environ.setdefault("MPLBACKEND", "Agg")
    warm(sys.argv[1:] or None)
