"""Batch runner: chunks of games per joblib task, one Parquet file per chunk and table.

A run folder holds ``manifest.json`` (the run's arguments and progress), ``games/`` and
``seats/`` (one ``chunk-NNNNNN.parquet`` each per chunk). Each chunk file is written under a
temporary name and renamed, so a chunk is either absent or complete; re-running the same
command resumes from the finished chunks, and a folder that belongs to another run is refused.
Game ``i`` of a run depends only on (seed, i), never on chunking, job count or backend.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa

import sim
from sim.core.ending import finished_mask
from sim.core.errors import UserError
from sim.core.game import check_budget
from sim.core.integrity import (
    MAX_CHUNK_SIZE,
    MAX_CHUNKS,
    MAX_GAMES,
    chance_seeds,
    check_chunk_identity,
    check_int,
    check_jobs,
    check_seed,
    chunk_files,
    chunk_identity,
    chunk_metadata,
    clean_stale_tmp,
    read_manifest,
    write_atomic_bytes,
)
from sim.core.io import atomic_path
from sim.core.seating import check_seating, seat_matrix
from sim.registry import get_game
from sim.verify import check_manifest, run_identity

MANIFEST = "manifest.json"
TABLES = ("games", "seats")
BACKENDS = ("threading", "loky", "sequential", "dask")
# the default: the compiled batch kernels release the GIL, so threads use every core without
# worker start-up or result transfer (BENCHMARKS.md, "Backends")
DEFAULT_BACKEND = "threading"


def _chunk_name(k: int) -> str:
    return f"chunk-{k:06d}.parquet"


def write_parquet_atomic(df: pl.DataFrame, path: Path,
                         metadata: dict[str, str] | None = None) -> None:
    """Write ``df`` to ``path`` atomically (sim/core/io.py), with the key-value ``metadata``
    (a chunk's record of its run, ``integrity.chunk_metadata``): on any error (a full disk)
    the temporary file is removed and ``path`` left as it was."""
    try:
        with atomic_path(path) as tmp:
            df.write_parquet(tmp, compression="zstd", statistics=True, metadata=metadata)
    except OSError as e:  # name the file being written, not its temporary name
        raise OSError(e.errno, e.strerror, str(path)) from None


def chunk_tables(game_id: str, first: int, count: int, seed: int, players: int,
                 strategies: list[str], seating: str, options: dict[str, Any],
                 overrides: dict[str, Any] | None = None, budget: int | None = None
                 ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Play games ``first .. first+count-1`` and return the (games, seats) tables
    (``budget``: the search bots' playouts per decision, None for their defaults)."""
    game = get_game(game_id, overrides)
    seats_idx = seat_matrix(seating, seed, first, count, players, len(strategies))
    res = game.run_chunk(first, count, seed, players, seats_idx, options, strategies,
                         budget=budget)
    idx = np.arange(first, first + count, dtype=np.int64)
    names = np.array(strategies, dtype=object)
    seat_names = names[seats_idx]
    seeds = chance_seeds(seed % 2**64, first, count)  # seed_for(seed, i, 0) of each game
    non_default = json.dumps(game.options.non_default(options), sort_keys=True)
    # column-wise, no Python loop per game (the threading backend shares one interpreter)
    won = res.win_share > 0
    n_winners = won.sum(axis=1).astype(np.int8)
    offsets = np.zeros(count + 1, np.int32)
    np.cumsum(n_winners, out=offsets[1:])
    winners = pl.from_arrow(pa.ListArray.from_arrays(
        pa.array(offsets), pa.array(np.nonzero(won)[1].astype(np.int8))))
    combos, which = np.unique(seats_idx, axis=0, return_inverse=True)
    combo_text = np.array([",".join(names[c]) for c in combos], dtype=object)
    games = pl.DataFrame({
        "game": idx,
        "seed": seeds,
        "players": np.full(count, players, np.int8),
        "options": pl.repeat(non_default, count, dtype=pl.Utf8, eager=True),
        "strategies": pl.Series(combo_text[which.ravel()].tolist(), dtype=pl.Utf8),
        "first_player": res.first_player.astype(np.int8),
        "turns": res.turns.astype(np.int32),
        "decisions": res.decisions.astype(np.int32),
        "action_hash": np.asarray(res.action_hash, dtype=np.uint64),
        "end_reason": pl.Series(res.end_reason.astype(np.int64)).replace_strict(
            dict(enumerate(game.end_reasons)), return_dtype=pl.Utf8),
        "n_winners": n_winners,
        "winners": pl.Series("winners", winners, dtype=pl.List(pl.Int8)),
    })
    # a game stopped at the limit or in a deadlock (Go Town) is neither a win nor a draw
    finished = finished_mask(game, np.asarray(res.end_reason))
    rank = res.rank.astype(np.int8).ravel()
    seats = {
        "game": np.repeat(idx, players),
        "players": np.full(count * players, players, np.int8),
        "seat": np.tile(np.arange(players, dtype=np.int8), count),
        "strategy": seat_names.ravel().astype(str),
        "score": res.score.astype(np.int32).ravel(),
        "rank": pl.Series("rank", rank, dtype=pl.Int8).set(
            pl.Series(np.repeat(~finished, players)), None),
        "win_share": res.win_share.astype(np.float64).ravel(),
    }
    for name, arr in res.seat_detail.items():
        seats[name] = arr.astype(np.int16).ravel()
    return games, pl.DataFrame(seats)


def _chunk_task(out: str, game_id: str, k: int, first: int, count: int, seed: int,
                players: int, strategies: list[str], seating: str,
                options: dict[str, Any], overrides: dict[str, Any] | None = None,
                budget: int | None = None,
                ident: dict[str, Any] | None = None) -> tuple[int, int, float]:
    """Play chunk ``k`` and write its two files; each records ``ident``, the run's identity
    and engine version (``integrity.chunk_identity``), its table and number, and a checksum of
    its content, so a chunk of another run, or a damaged one, is never read as this run's."""
    t0 = time.perf_counter()
    games, seats = chunk_tables(game_id, first, count, seed, players, strategies, seating,
                                options, overrides, budget)
    root = Path(out)
    ident = ident if ident is not None else chunk_identity(
        run_identity(game_id, first + count, players, strategies, seating, seed, options,
                     count, overrides, budget), get_game(game_id).version)
    # seats first, games last: a chunk counts as finished only when both exist
    write_parquet_atomic(seats, root / "seats" / _chunk_name(k),
                         chunk_metadata(ident, "seats", k, seats))
    write_parquet_atomic(games, root / "games" / _chunk_name(k),
                         chunk_metadata(ident, "games", k, games))
    return k, count, time.perf_counter() - t0


def _finished_chunks(root: Path, n_chunks: int) -> set[int]:
    """Chunks whose two files exist (one listing of each table folder, no loop over chunk
    numbers). Raises UserError on a chunk file outside the run's range."""
    found = [chunk_files(root, t) for t in TABLES]
    for files in found:
        extra = sorted(k for k in files if k >= n_chunks)
        if extra:
            raise UserError(f"{files[extra[0]]}: not a chunk of this run (it has {n_chunks} "
                            "chunks); remove it")
    return set(found[0]) & set(found[1])


def _prepare_folder(root: Path, identity: dict[str, Any]) -> dict[str, Any] | None:
    """Check ``root`` is new, empty, or this run's own folder; return its manifest if any."""
    if root.exists() and not root.is_dir():
        raise UserError(f"--out {root} exists and is not a folder")
    manifest_path = root / MANIFEST
    if manifest_path.exists():
        try:
            old = read_manifest(root)
            check_manifest(old, f"--out {root}")
        except UserError as e:
            raise UserError(f"{e}; choose another folder") from None
        old_id = {"overrides": {}, **old["identity"]}
        if old_id != identity:
            diff = sorted(k for k in set(old_id) | set(identity)
                          if old_id.get(k) != identity.get(k))
            raise UserError(
                f"--out {root} holds results of a different run (differs in: {', '.join(diff)});"
                " choose another folder"
            )
        return old
    if root.exists() and any(p.name not in TABLES for p in root.iterdir()):
        raise UserError(f"--out {root} is not empty and is not a boardsim results folder")
    for t in TABLES:
        if (root / t).exists() and not (root / t).is_dir():
            raise UserError(f"--out {root}: {t} is not a folder; choose another folder")
        if (root / t).is_dir():
            clean_stale_tmp(root)
            left = [p.name for p in (root / t).iterdir()]
            if left:
                raise UserError(f"--out {root} holds results ({t}/{left[0]}) but no {MANIFEST}:"
                                " results of an unknown run are never adopted; choose another "
                                "folder")
    try:
        for t in TABLES:
            (root / t).mkdir(parents=True, exist_ok=True)
        probe = root / ".write-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise UserError(f"--out {root} is not writable ({e.strerror})") from None
    return None


def validate(game_id: str, n_games: int, players: int, strategies: list[str], seating: str,
             options: dict[str, Any] | None, jobs: int, chunk_size: int, backend: str,
             overrides: dict[str, Any] | None = None):
    """Validate a run's arguments; return (game, resolved options). The game carries the
    canonical ``overrides`` (component data, validated). Raises UserError."""
    game = get_game(game_id, overrides)
    game.check_players(players)
    check_int("-n (games)", n_games, 1, MAX_GAMES)
    check_int("--chunk-size", chunk_size, 1, MAX_CHUNK_SIZE)
    if math.ceil(n_games / chunk_size) > MAX_CHUNKS:
        raise UserError(f"-n {n_games:,} in chunks of {chunk_size:,} makes more than "
                        f"{MAX_CHUNKS:,} chunks; use a larger --chunk-size")
    check_jobs(jobs)
    check_backend(backend)
    if not strategies:
        raise UserError(f"give at least one strategy; allowed: {', '.join(game.strategies)}")
    for s in strategies:
        game.strategy(s)
    check_seating(seating, len(strategies), players)
    return game, game.resolve_options(options)


def simulate(game_id: str, n_games: int, players: int, strategies: list[str], seed: int = 0,
             options: dict[str, Any] | None = None, jobs: int = 1, chunk_size: int = 10_000,
             out: str | os.PathLike | None = None, seating: str = "fixed",
             backend: str = DEFAULT_BACKEND, scheduler: str | None = None,
             progress: Callable[[int, int], None] | None = None,
             overrides: dict[str, Any] | None = None,
             strategies_source: str | None = None, role: str | None = None,
             budget: int | None = None) -> Path:
    """Run ``n_games`` games and write the results folder; return its path.

    Parameters: game id; number of games (> 0); players (the game's range); strategy names
    (one per seat, one for all, or a pool with ``seating="pool"``); run seed; rule options
    (name -> value, validated); ``jobs`` worker processes (-1 = all cores); ``chunk_size``
    games per task; ``out`` folder (default ``reports/_runs/<game>/<run name>``); seating
    ``fixed``/``rotate``/``pool``; joblib backend (``loky`` processes, ``threading``,
    ``sequential``, or ``dask``: joblib's dask backend on the dask.distributed scheduler at
    ``scheduler``, or on a local cluster of ``jobs`` worker processes started for the run);
    ``progress(done_games, total)`` callback; ``overrides``: component data changes
    ({path: value}, sim/core/components.py), recorded in the manifest and part of the run's
    identity, so results of different data never mix in one folder; ``strategies_source``:
    where the strategy list came from (e.g. "recommended mix"), recorded in the manifest;
    ``role``: the run's part in a report (a ``default_plan`` role such as "main" or
    "sweep:p2_coins=4"), recorded as ``"role"`` so that ``boardsim report`` reads it back.
    A finished run's manifest records ``distinct_games``, the number of distinct action
    sequences among its games (None for chunks written without the
    ``action_hash`` column). ``budget``: the search bots' playouts per decision (1..100,000;
    at least one strategy must be a search bot), recorded as ``"budget"`` in the manifest and
    part of the run's identity; None plays each search bot at its default.

    Raises UserError on bad input or a foreign/unwritable ``out``. Resumes an interrupted run.
    """
    game, resolved = validate(game_id, n_games, players, strategies, seating, options, jobs,
                              chunk_size, backend, overrides)
    check_backend(backend, scheduler)
    seed = check_seed(seed)
    budget = check_budget(game, list(strategies), budget)
    identity = run_identity(game.id, n_games, players, list(strategies), seating, seed,
                            resolved, chunk_size, game.overrides, budget)
    root = Path(out) if out is not None else default_out(identity)
    old = _prepare_folder(root, identity)
    clean_stale_tmp(root)
    n_chunks = math.ceil(n_games / chunk_size)
    if old is not None:
        # the run's own manifest: never rewritten while it holds (a finished run's stays as
        # it is; a missing chunk of it is played again, the same games)
        manifest = old
    else:
        manifest = {
            "identity": identity,
            **identity,
            "data_status": game.data_status,
            "boardsim_version": sim.__version__,
            "engine_version": game.version,
            "created": _now(),
            "n_chunks": n_chunks,
            "complete": False,
        }
        if strategies_source:
            manifest["strategies_source"] = strategies_source
        if role:  # the run's part in a report (default_plan), read by analysis.report
            manifest["role"] = role
        write_atomic_bytes(root / MANIFEST, json.dumps(manifest, indent=2).encode())
    done = _finished_chunks(root, n_chunks)
    if done and len(done) < n_chunks:
        _check_resume_columns(root, game, min(done))
    for k in sorted(done):  # every finished chunk records this run (its footer only)
        for t in TABLES:
            check_chunk_identity(manifest, t, k, root / t / _chunk_name(k))
    todo = [k for k in range(n_chunks) if k not in done]
    finished_games = sum(min(chunk_size, n_games - k * chunk_size) for k in done)
    if progress:
        progress(finished_games, n_games)
    ident = chunk_identity(manifest["identity"], manifest["engine_version"])
    tasks = [
        (str(root), game.id, k, k * chunk_size, min(chunk_size, n_games - k * chunk_size),
         seed, players, list(strategies), seating, resolved, game.overrides, budget, ident)
        for k in todo
    ]
    for _k, count, _dt in _execute(tasks, jobs, backend, scheduler):
        finished_games += count
        if progress:
            progress(finished_games, n_games)
    try:  # another process on the same folder may have finished it first
        done_by_other = bool(read_manifest(root).get("complete"))
    except UserError:
        done_by_other = False
    if not manifest.get("complete") and not done_by_other:
        manifest["complete"] = True
        manifest["finished"] = _now()
        manifest["distinct_games"] = distinct_games(root)
        write_atomic_bytes(root / MANIFEST, json.dumps(manifest, indent=2).encode())
    return root


def _check_resume_columns(root: Path, game, k: int) -> None:
    """Refuse to resume a run whose finished chunk ``k`` lacks seat columns this boardsim
    writes (a result column added since, e.g. the rule-hole columns of issue 16): its chunks
    would not stack into one table. One line naming the first missing column."""
    have = set(pl.read_parquet_schema(root / "seats" / _chunk_name(k)))
    lacking = [c for c in game.seat_detail if c not in have]
    if lacking:
        raise UserError(f"{root}: its chunks were written without the seat column "
                        f"{lacking[0]!r} ({len(lacking)} missing), which this boardsim records; "
                        "resuming would mix two layouts: run it again in a new folder")


def distinct_games(root: str | os.PathLike) -> int | None:
    """The number of distinct games (distinct ``action_hash`` values: 64-bit hashes of the
    action sequences) in the results folder ``root``; None if a chunk lacks the column."""
    files = sorted((Path(root) / "games").glob("chunk-*.parquet"))
    if not files:
        return 0
    if any("action_hash" not in pl.read_parquet_schema(f) for f in files):
        return None
    return int(pl.scan_parquet(files).select(pl.col("action_hash").n_unique()).collect().item())


def distinct_warning(manifest: dict[str, Any]) -> str | None:
    """A one-line warning when fewer than half the games of a finished run are distinct
    (``manifest["distinct_games"]`` against ``n_games``), else None."""
    d, n = manifest.get("distinct_games"), manifest.get("n_games")
    if not isinstance(d, int) or not isinstance(n, int) or n <= 0 or 2 * d >= n:
        return None
    return (f"warning: only {d:,} of the {n:,} games are distinct ({d / n:.1%}): the bots "
            "replay the same games, so the results rest on few different games and more games "
            "add little")


SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
_SCHEDULER_RE = re.compile(r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
                           r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}))"
                           r":(?P<port>[0-9]{1,5})/?")


_INPROC_RE = re.compile(r"inproc://[0-9A-Za-z.:\[\]-]+/[0-9]+/[0-9]+")


def check_scheduler(address: str) -> str:
    """A dask scheduler address, checked before dask sees it: ``[SCHEME://]HOST:PORT`` with
    SCHEME one of ``SCHEDULER_SCHEMES`` (default tcp) and PORT 1..65535, or an in-process
    cluster's ``inproc://HOST/PID/N``. Returns it; raises a
    one-line UserError naming the address and the form."""
    if isinstance(address, str) and _INPROC_RE.fullmatch(address):
        return address  # an in-process cluster's address (dask's LocalCluster(processes=False))
    m = _SCHEDULER_RE.fullmatch(address) if isinstance(address, str) else None
    ok = m is not None and (m["scheme"] is None or m["scheme"].lower() in SCHEDULER_SCHEMES) \
        and 1 <= int(m["port"]) <= 65535
    if not ok:
        shown = " ".join(str(address).split())
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise UserError(f"--scheduler {shown!r}: not a dask scheduler address; expected "
                        f"[SCHEME://]HOST:PORT, e.g. tcp://10.0.0.5:8786 (SCHEME one of "
                        f"{', '.join(SCHEDULER_SCHEMES)}; PORT 1..65535)")
    return address


def check_backend(backend: str, scheduler: str | None = None) -> None:
    """Refuse an unknown ``backend`` (allowed: ``BACKENDS``), a ``scheduler`` without the
    dask backend, or one that is not a scheduler address (``check_scheduler``): one-line
    UserError."""
    if backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    if scheduler is not None and scheduler != "" and backend != "dask":
        raise UserError("--scheduler needs --backend dask")
    if scheduler is not None:
        check_scheduler(scheduler)


class Executor:
    """The runner's execution layer: map a task function over argument tuples with one of
    ``BACKENDS`` (joblib ``threading``/``loky``/``sequential``, or ``dask``: joblib's dask
    backend on the dask.distributed scheduler at ``scheduler``, or on a local cluster of
    ``jobs`` worker processes started when the executor is entered and closed on exit).

    Use as a context manager; ``map(fn, tasks)`` yields ``fn(*t)`` for each tuple as it
    finishes (any order), any number of times while the executor is open (so a caller with
    many small batches, ``boardsim tune``, starts a dask cluster once). ``fn`` and its
    arguments must be picklable for ``loky`` and ``dask`` (a module-level function). Raises
    UserError on an unknown backend or an unreachable scheduler.
    """

    def __init__(self, jobs: int = 1, backend: str = DEFAULT_BACKEND,
                 scheduler: str | None = None):
        check_backend(backend, scheduler)
        self.jobs, self.backend, self.scheduler = jobs, backend, scheduler
        self._stack = None

    def __enter__(self) -> Executor:
        import contextlib

        self._stack = contextlib.ExitStack()
        if self.backend == "dask":
            self._open_dask(self._stack)
        return self

    def _open_dask(self, stack) -> None:
        from dask.distributed import Client, LocalCluster
        from joblib import parallel_config

        if self.scheduler:
            try:
                stack.enter_context(Client(self.scheduler, timeout="5s"))
            except (OSError, TimeoutError, ValueError) as e:
                stack.close()
                raise UserError(f"cannot reach the dask scheduler at {self.scheduler} ({e})"
                                ) from None
        else:
            n = os.cpu_count() if self.jobs == -1 else self.jobs
            cluster = stack.enter_context(LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None))
            stack.enter_context(Client(cluster))
        stack.enter_context(parallel_config(backend="dask", wait_for_workers_timeout=60))

    def __exit__(self, *exc) -> None:
        if self._stack is not None:
            self._stack.close()
            self._stack = None

    def map(self, fn: Callable, tasks: list[tuple]):
        """Yield ``fn(*t)`` for every tuple of ``tasks`` as it finishes (any order)."""
        if not tasks:
            return
        from joblib import Parallel, delayed

        if self.backend == "dask":
            if self._stack is None:
                raise RuntimeError("Executor.map with the dask backend outside `with`")
            par = Parallel(n_jobs=-1, return_as="generator_unordered")
        elif self.backend == "sequential" or self.jobs == 1 or len(tasks) == 1:
            for t in tasks:
                yield fn(*t)
            return
        else:
            par = Parallel(n_jobs=self.jobs, backend=self.backend,
                           return_as="generator_unordered")
        yield from par(delayed(fn)(*t) for t in tasks)


def map_tasks(fn: Callable, tasks: list[tuple], jobs: int = 1, backend: str = DEFAULT_BACKEND,
              scheduler: str | None = None):
    """``Executor(jobs, backend, scheduler).map(fn, tasks)`` in one call: yield ``fn(*t)``
    for every tuple as it finishes (any order); a dask cluster lives for this call only."""
    if not tasks:
        return
    with Executor(jobs, backend, scheduler) as ex:
        yield from ex.map(fn, tasks)


def _execute(tasks: list[tuple], jobs: int, backend: str, scheduler: str | None = None):
    """Run the chunk tasks (``_chunk_task``); yield each one's result as it finishes (any
    order). With dask a lost worker's chunks are recomputed by the scheduler (a chunk is
    written atomically, so a repeated chunk just replaces an identical file)."""
    yield from map_tasks(_chunk_task, tasks, jobs, backend, scheduler)


def default_out(identity: dict[str, Any]) -> Path:
    import hashlib

    h = hashlib.sha1(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:8]
    name = f"p{identity['players']}-n{identity['n_games']}-seed{identity['seed']}-{h}"
    return Path("reports") / "_runs" / identity["game"] / name


def load_manifest(run_dir: str | os.PathLike) -> dict[str, Any]:
    """The manifest of a results folder, checked (``sim.verify.check_manifest``: its shape,
    values, and this engine version). Raises UserError if it is not a results folder, is
    malformed, or was played by another engine version."""
    m = read_manifest(run_dir)
    check_manifest(m, str(Path(run_dir) / MANIFEST))
    return m


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")

