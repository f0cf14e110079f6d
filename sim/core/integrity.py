"""Results integrity: a run folder is checked before anything reads it.

``verify_chunk`` checks that a chunk holds the run's games: the game's columns, the run's player
count, bots and options, the game indices of its range and each game's chance seed
``seed_for(run seed, game, 0)``; ``read_manifest`` reads a folder's ``manifest.json``.
``sim/verify.py`` (``verify_run``, ``verify_runs``) checks a whole folder with them against the
registered games; each problem is one ``UserError`` line naming the file and what is wrong
with it.

Also here: the limits every command-line number is checked against (``MAX_*``), stale temporary
file clean-up (``clean_stale_tmp``) and the report's temporary folder (``swap_into``).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

from sim.core import io
from sim.core.errors import UserError

MANIFEST = "manifest.json"
TABLES = ("games", "seats")
# limits of the command-line numbers (README, "Command line")
SEED_LIMIT = 2**64               # seeds are in [0, 2**64)
MAX_GAMES = 10**9                # -n, per run (and per arm or value of the lab tools)
MIN_RUN_GAMES = 20               # games of each run of `boardsim run` after --scale
MAX_CHUNK_SIZE = 100_000         # --chunk-size (a chunk's arrays are held in memory)
MAX_CHUNKS = 100_000             # chunks of one run (n / chunk size, rounded up)
MAX_JOBS = 64                    # --jobs (or -1: every core); each loky worker loads every engine
MAX_DATA_BYTES = 1 << 20         # a --data TOML file
STALE_TMP_SECONDS = 3600         # a temporary file of another machine is stale after this
_CHUNK_RE = re.compile(r"^chunk-(\d{6})\.parquet$")

GAMES_COLUMNS = ("game", "seed", "players", "options", "strategies", "first_player", "turns",
                 "decisions", "action_hash", "end_reason", "n_winners", "winners")
SEATS_COLUMNS = ("game", "players", "seat", "strategy", "score", "rank", "win_share")


# ---- command-line numbers ------------------------------------------------------------------
def check_int(name: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int if it is a whole number in ``lo..hi``; else UserError naming
    ``name``, the value and the range."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise UserError(f"{name} must be a whole number in {lo}..{hi}, got {value!r}")
    if not lo <= int(value) <= hi:
        raise UserError(f"{name} must be in {lo:,}..{hi:,}, got {int(value):,}")
    return int(value)


def check_seed(value: Any, name: str = "--seed") -> int:
    """A run seed: a whole number in ``[0, 2**64)``. Raises UserError."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not (
            0 <= int(value) < SEED_LIMIT):
        raise UserError(f"{name} must be a whole number in 0..2**64-1 "
                        f"(0..{SEED_LIMIT - 1}), got {value!r}")
    return int(value)


def check_jobs(jobs: Any) -> int:
    """``--jobs``: 1..MAX_JOBS, or -1 for every core. Raises UserError."""
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or not (
            jobs == -1 or 1 <= jobs <= MAX_JOBS):
        raise UserError(f"--jobs must be 1..{MAX_JOBS} or -1 (every core), got {jobs!r}")
    return int(jobs)


def check_scale(scale: Any) -> float:
    """``--scale``: a finite number > 0. Raises UserError."""
    try:
        x = float(scale)
    except (TypeError, ValueError):
        raise UserError(f"--scale must be a number > 0, got {scale!r}") from None
    if not math.isfinite(x) or x <= 0:
        raise UserError(f"--scale must be a finite number > 0, got {scale!r}")
    return x


# ---- the manifest ---------------------------------------------------------------------------
def _fail(where: str, what: str) -> UserError:
    return UserError(f"{where}: {what}")


def read_manifest(run_dir: str | os.PathLike) -> dict[str, Any]:
    """The JSON object of ``run_dir/manifest.json``. Raises UserError (missing, unreadable,
    not UTF-8 JSON, not an object)."""
    p = Path(run_dir) / MANIFEST
    if not Path(run_dir).is_dir():
        raise UserError(f"{run_dir} is not a boardsim results folder (not a folder)")
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{run_dir} is not a boardsim results folder (no {MANIFEST})") from None
    except OSError as e:
        raise UserError(f"{p}: unreadable ({e.strerror})") from None
    try:
        m = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise UserError(f"{p}: not a boardsim manifest ({type(e).__name__}: "
                        f"{str(e).splitlines()[0][:120]})") from None
    if not isinstance(m, dict):
        raise UserError(f"{p}: not a boardsim manifest (a JSON {_json_type(m)}, "
                        "expected an object)")
    return m


def _json_type(v: Any) -> str:
    return {list: "array", type(None): "null", str: "string", bool: "boolean", int: "number",
            float: "number"}.get(type(v), type(v).__name__)


# ---- the chunks -------------------------------------------------------------------------------
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        z = x + _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        return z ^ (z >> np.uint64(31))


def chance_seeds(run_seed: int, first: int, count: int) -> np.ndarray:
    """``seed_for(run_seed, first + i, 0)`` for ``i < count`` (numpy, ``uint64[count]``)."""
    base = _mix(np.array([run_seed], np.uint64))[0]
    idx = np.arange(first, first + count, dtype=np.uint64)
    return _mix(_mix(idx ^ base) ^ np.uint64(0))


def chunk_files(root: Path, table: str) -> dict[int, Path]:
    """``k -> path`` of the ``chunk-*.parquet`` files of one table folder. Raises UserError on
    a file that the report's pattern would read but is not a chunk name."""
    d = root / table
    out: dict[int, Path] = {}
    if not d.is_dir():
        return out
    for p in d.iterdir():
        if p.name.startswith(".") and p.name.endswith(".tmp"):
            continue
        mt = _CHUNK_RE.match(p.name)
        if mt is None:
            if p.name.startswith("chunk-") or p.suffix == ".parquet":
                raise UserError(f"{p}: not a chunk of this run (unexpected file name); "
                                "remove it")
            continue
        out[int(mt.group(1))] = p
    return out


def _read(path: Path, columns: list[str] | None = None):
    import polars as pl

    try:
        return pl.read_parquet(path, columns=columns)
    except Exception as e:  # noqa: BLE001 - any reader error is a damaged file
        msg = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
        raise UserError(f"{path}: unreadable Parquet chunk ({msg}); delete it and rerun the "
                        "run's simulate command to play it again") from None


def _schema(path: Path) -> list[str]:
    import polars as pl

    try:
        return list(pl.read_parquet_schema(path))
    except Exception as e:  # noqa: BLE001
        msg = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
        raise UserError(f"{path}: unreadable Parquet chunk ({msg}); delete it and rerun the "
                        "run's simulate command to play it again") from None


def verify_chunk(m: dict[str, Any], game, k: int, games_path: Path, seats_path: Path) -> None:
    """Check chunk ``k`` of the run of manifest ``m``: the game's columns, ``count`` games of
    indices ``first..first+count-1`` with their chance seeds, the run's players, options and
    bots. Raises UserError naming the file."""
    first = k * m["chunk_size"]
    count = min(m["chunk_size"], m["n_games"] - first)
    p = m["players"]
    want_g = list(GAMES_COLUMNS)
    want_s = list(SEATS_COLUMNS) + list(game.seat_detail)
    for path, want in ((games_path, want_g), (seats_path, want_s)):
        cols = _schema(path)
        if cols != want:
            other = sorted(set(cols) ^ set(want))[:4]
            raise UserError(f"{path}: not a chunk of this {game.id} run (columns differ: "
                            f"{', '.join(other) or 'order'})")
    g = _read(games_path, ["game", "seed", "players", "options"])
    idx = np.arange(first, first + count, dtype=np.int64)
    if g.height != count or not np.array_equal(g["game"].to_numpy(), idx):
        raise UserError(f"{games_path}: holds games other than {first}..{first + count - 1} "
                        f"of this run ({g.height} rows)")
    if not (g["players"] == p).all():
        raise UserError(f"{games_path}: games of another player count than {p}")
    if not np.array_equal(g["seed"].to_numpy().astype(np.uint64),
                          chance_seeds(m["seed"], first, count)):
        raise UserError(f"{games_path}: games of another run seed than {m['seed']}")
    nd = json.dumps(game.options.non_default(m["options"]), sort_keys=True)
    if not (g["options"] == nd).all():
        raise UserError(f"{games_path}: games of other rule options than the manifest's")
    s = _read(seats_path, ["game", "players", "seat", "strategy"])
    if s.height != count * p or not np.array_equal(s["game"].to_numpy(), np.repeat(idx, p)) \
            or not np.array_equal(s["seat"].to_numpy(), np.tile(np.arange(p), count)):
        raise UserError(f"{seats_path}: holds seats other than those of games "
                        f"{first}..{first + count - 1} of {p} players")
    if not (s["players"] == p).all():
        raise UserError(f"{seats_path}: seats of another player count than {p}")
    bad = set(s["strategy"].unique().to_list()) - set(m["strategies"])
    if bad:
        raise UserError(f"{seats_path}: bots not in this run: {', '.join(sorted(bad))}")


# ---- temporary files and folders -------------------------------------------------------
def tmp_name(path: Path) -> Path:
    """The temporary name a file is written under before its rename (sim/core/io.py)."""
    return Path(io.tmp_name(path))


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def clean_stale_tmp(folder: Path) -> int:
    """Delete the temporary files (``.*.tmp``) of writes that were killed, in ``folder`` and its
    table folders: those of a process of this machine that is no longer running, and any older
    than STALE_TMP_SECONDS (another machine's). Returns how many were removed."""
    host = io.host_tag()
    removed = 0
    now = time.time()
    for d in (folder, *(folder / t for t in TABLES)):
        if not d.is_dir():
            continue
        for p in d.iterdir():
            if not (p.name.startswith(".") and p.name.endswith(".tmp") and p.is_file()):
                continue
            parts = p.name[:-4].rsplit(".", 2)
            stale = False
            try:
                age = now - p.stat().st_mtime
            except OSError:
                continue
            pid = parts[2].split("-")[0] if len(parts) == 3 else ""
            if pid.isdigit():  # ``.NAME.HOST.PID-RANDOM.tmp`` (sim/core/io.py) or ``.NAME.HOST.PID``
                stale = (parts[1] == host and not _pid_alive(int(pid))) or \
                    age > STALE_TMP_SECONDS
            elif len(parts) >= 2 and parts[-1].isdigit():  # the older ``.NAME.PID.tmp``
                stale = not _pid_alive(int(parts[-1])) or age > STALE_TMP_SECONDS
            if stale:
                try:
                    p.unlink()
                    removed += 1
                except OSError:
                    pass
    return removed


def write_atomic_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (``sim.core.io.write_atomic``): on any error the
    temporary file is removed and the old ``path`` is left as it was."""
    io.write_atomic(path, data)


_SUFFIX_TMP = re.compile(r"\.tmp-(\d+)$")


def clean_stale_report_tmp(folder: Path) -> int:
    """Delete the ``NAME.tmp-PID`` files (the reports' and the index's temporary names) in
    ``folder`` whose process is no longer running. Returns how many were removed."""
    removed = 0
    if not folder.is_dir():
        return 0
    for p in folder.iterdir():
        mt = _SUFFIX_TMP.search(p.name)
        if mt and p.is_file() and not _pid_alive(int(mt.group(1))):
            try:
                p.unlink()
                removed += 1
            except OSError:
                pass
    return removed


REPORT_TMP_PREFIX = ".report-tmp-"
REPORT_OLD_PREFIX = ".report-old-"


def report_tmp_folder(out: Path) -> Path:
    """A new temporary folder beside the report's files (inside ``out``, created), where a
    report is written before ``swap_into`` moves it into place. Cleans up the temporary
    folders of killed reports first."""
    out.mkdir(parents=True, exist_ok=True)
    clean_stale_report_tmp(out)
    for p in out.iterdir():
        if p.is_dir() and p.name.startswith((REPORT_TMP_PREFIX, REPORT_OLD_PREFIX)):
            pid = p.name.rsplit("-", 1)[-1]
            if not pid.isdigit() or not _pid_alive(int(pid)):
                shutil.rmtree(p, ignore_errors=True)
    tmp = out / f"{REPORT_TMP_PREFIX}{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    return tmp


REPORT_FILES = ("report.md", "report.html", "summary.json")


def swap_into(tmp: Path, out: Path) -> None:
    """Replace the report in ``out`` by the one written in ``tmp``: the old report's files
    (``report.md``, ``report.html``, ``summary.json``, ``*.png``, and any name the new report
    has) are moved aside first, then the new ones moved in, then the old ones deleted; other
    entries of ``out`` (the lab tools' sub-folders) stay. An interruption leaves either report
    whole, or none (never a mix); the aside folder is removed by the next report."""
    new = [p.name for p in tmp.iterdir()]
    old_dir = out / f"{REPORT_OLD_PREFIX}{os.getpid()}"
    shutil.rmtree(old_dir, ignore_errors=True)
    old_dir.mkdir()
    for p in list(out.iterdir()):
        if p.is_file() and (p.name in REPORT_FILES or p.suffix == ".png" or p.name in new):
            os.replace(p, old_dir / p.name)
    for name in new:
        os.replace(tmp / name, out / name)
    shutil.rmtree(old_dir, ignore_errors=True)
    shutil.rmtree(tmp, ignore_errors=True)
