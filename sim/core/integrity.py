"""Results integrity: a run folder is checked before anything reads it.

``verify_chunk`` checks that a chunk holds the run's games: the game's columns, the run's player
count, bots and options, the game indices of its range and each game's chance seed
``seed_for(run seed, game, 0)``; ``read_manifest`` reads a folder's ``manifest.json``.
``sim/verify.py`` (``verify_run``, ``verify_runs``) checks a whole folder with them against the
registered games; each problem is one ``UserError`` line naming the file and what is wrong
with it.

Also here: the limits every command-line number is checked against (``MAX_*``), stale temporary
file clean-up (``clean_stale_tmp``) and the report folder's atomic replacement
(``report_tmp_folder``, ``swap_into``).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import sys
import time
from contextlib import contextmanager
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


@contextmanager
def _stderr_muted():
    """Send what is written to file descriptor 2 meanwhile to nowhere: the Parquet reader's
    native code prints a panic's backtrace there before Python sees the error, and a damaged
    chunk must end as one line."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):
        yield
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _parquet(path: Path, fn):
    """``fn(path)`` of a Parquet reader; any error of the reader (an exception, or a panic of
    its native code, which Python raises as a BaseException) is one UserError naming the
    file."""
    try:
        with _stderr_muted():
            return fn(path)
    except (KeyboardInterrupt, SystemExit, GeneratorExit, MemoryError):
        raise
    except BaseException as e:  # noqa: BLE001 - any reader error is a damaged file
        msg = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
        raise UserError(f"{path}: unreadable Parquet chunk ({msg}); delete it and rerun the "
                        "run's simulate command to play it again") from None


def _read(path: Path, columns: list[str] | None = None):
    import polars as pl

    return _parquet(path, lambda q: pl.read_parquet(q, columns=columns))


def _schema(path: Path) -> list[str]:
    import polars as pl

    return _parquet(path, lambda q: list(pl.read_parquet_schema(q)))


# ---- a chunk's own record of its run (Parquet key-value metadata) ----------------------------
META_RUN = "boardsim.run"        # JSON: the run's identity and engine version
META_CHUNK = "boardsim.chunk"    # "<table>/<k>": which file of the run it is
META_DIGEST = "boardsim.digest"  # the content checksum (frame_digest)


def chunk_identity(identity: dict[str, Any], engine_version: str) -> dict[str, Any]:
    """What every chunk of a run records: the manifest's identity (game, n_games, players,
    strategies, seating, seed, options, chunk_size, overrides) and the engine version."""
    return {"overrides": {}, **identity, "engine_version": engine_version}


def frame_digest(df) -> str:
    """A checksum of a chunk table's content (column names and values, nulls included),
    independent of the Parquet encoding: a flipped bit that changes a value read back changes
    it. blake2b, 128 bits, hex."""
    import hashlib

    import polars as pl

    h = hashlib.blake2b(digest_size=16)
    for name in df.columns:
        col = df[name]
        h.update(name.encode() + b"\0")
        h.update(np.asarray(col.is_null().to_numpy(), np.uint8).tobytes())
        if col.dtype == pl.Utf8:
            h.update(b"s" + col.fill_null("").str.join("\x00").item().encode())
        elif isinstance(col.dtype, pl.List):
            h.update(b"l" + col.list.len().fill_null(0).to_numpy().astype(np.int64).tobytes())
            h.update(col.explode().fill_null(0).to_numpy().tobytes())
        else:
            v = col.fill_null(0).to_numpy()
            h.update(b"n" + str(v.dtype).encode() + v.tobytes())
    return h.hexdigest()


def chunk_metadata(ident: dict[str, Any], table: str, k: int, df) -> dict[str, str]:
    """The key-value metadata written into chunk ``k`` of ``table``."""
    return {META_RUN: json.dumps(ident, sort_keys=True), META_CHUNK: f"{table}/{k}",
            META_DIGEST: frame_digest(df)}


def _metadata(path: Path) -> dict[str, str]:
    import polars as pl

    return _parquet(path, lambda q: dict(pl.read_parquet_metadata(q)))


def check_chunk_identity(m: dict[str, Any], table: str, k: int, path: Path
                         ) -> dict[str, str]:
    """Refuse chunk ``k`` of ``table`` unless it records this run (manifest ``m``): its run
    identity and engine version, its table and number. Reads only the file's footer. Returns
    its metadata. Raises UserError naming the file and what differs."""
    meta = _metadata(path)
    raw = meta.get(META_RUN)
    if raw is None:
        raise UserError(f"{path}: records no run identity (a chunk of an older boardsim, or "
                        "not one of boardsim's); play the run again in a new folder")
    try:
        had = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        had = None
    if not isinstance(had, dict):
        raise UserError(f"{path}: its run identity is unreadable; a damaged chunk: delete it "
                        "and rerun the run's simulate command to play it again")
    want = chunk_identity(m["identity"], m["engine_version"])
    if had != want:
        diff = sorted(x for x in set(had) | set(want) if had.get(x) != want.get(x))
        shown = "; ".join(f"{x}: chunk {_short(had.get(x))}, manifest {_short(want.get(x))}"
                          for x in diff[:3])
        raise UserError(f"{path}: a chunk of another run ({shown}); the chunks and "
                        f"{MANIFEST} must be of one run: remove the chunk, or use the run's own "
                        "folder")
    if meta.get(META_CHUNK) != f"{table}/{k}":
        first = k * m["chunk_size"]
        last = min(first + m["chunk_size"], m["n_games"]) - 1
        what = "games" if table == "games" else "seats of games"
        raise UserError(f"{path}: holds {what} other than {first}..{last} of this run (it "
                        f"records itself as {_short(meta.get(META_CHUNK))}); remove it and "
                        "rerun the run's simulate command to play it again")
    return meta


def _short(v: Any) -> str:
    text = json.dumps(v, sort_keys=True)
    return text if len(text) <= 40 else text[:37] + "..."


def verify_chunk(m: dict[str, Any], game, k: int, games_path: Path, seats_path: Path) -> None:
    """Check chunk ``k`` of the run of manifest ``m``: each file records this run
    (``check_chunk_identity``) and reads back whole with its checksum (``frame_digest``); the
    game's columns, ``count`` games of indices ``first..first+count-1`` with their chance seeds,
    the run's players, options and bots. Raises UserError naming the file."""
    first = k * m["chunk_size"]
    count = min(m["chunk_size"], m["n_games"] - first)
    p = m["players"]
    want_g = list(GAMES_COLUMNS)
    want_s = list(SEATS_COLUMNS) + list(game.seat_detail)
    frames = {}
    for table, path, want in (("games", games_path, want_g), ("seats", seats_path, want_s)):
        cols = _schema(path)
        if cols != want:
            other = sorted(set(cols) ^ set(want))[:4]
            raise UserError(f"{path}: not a chunk of this {game.id} run (columns differ: "
                            f"{', '.join(other) or 'order'})")
        meta = check_chunk_identity(m, table, k, path)
        df = _read(path)
        if frame_digest(df) != meta.get(META_DIGEST):
            raise UserError(f"{path}: damaged (what it reads back differs from its checksum); "
                            "delete it and rerun the run's simulate command to play it again")
        frames[table] = df
    g = frames["games"]
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
    s = frames["seats"]
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


REPORT_TMP_PREFIX = ".report-tmp-"  # the temporary folders of older boardsims, inside a report
REPORT_OLD_PREFIX = ".report-old-"
REPORT_FILES = ("report.md", "report.html", "summary.json")
_FOLDER_TMP = re.compile(r"^\.(?P<name>.+)\.report(?P<old>-old)?\.(?P<host>[A-Za-z0-9-]+)\."
                         r"(?P<pid>\d+)-[0-9a-f]+\.tmp$")


def _folder_tmp(out: Path, old: bool = False) -> Path:
    """A fresh hidden sibling of ``out``: ``.<name>.report[-old].<host>.<pid>-<random>.tmp``."""
    import uuid

    kind = "report-old" if old else "report"
    return out.parent / f".{out.name}.{kind}.{io.host_tag()}.{os.getpid()}-{uuid.uuid4().hex[:12]}.tmp"


def _stale(host: str, pid: str, path: Path) -> bool:
    try:
        age = time.time() - path.lstat().st_mtime
    except OSError:
        return False
    if host == io.host_tag():
        return not _pid_alive(int(pid)) or age > 30 * STALE_TMP_SECONDS
    return age > STALE_TMP_SECONDS


def clean_report_leftovers(out: Path) -> list[str]:
    """Clear what killed reports of ``out`` left behind; return the names removed. The hidden
    sibling folders of a report being written (``.<name>.report.*.tmp``: a half-written new
    report, or the old one after the swap) of a process no longer running are deleted; when
    ``out`` itself is missing because a report was killed between the two renames of the
    fallback swap (``swap_into``), the old report put aside (``.<name>.report-old.*.tmp``) is
    moved back first. Inside ``out``: the temporary folders and files of older boardsims."""
    removed: list[str] = []
    parent = out.parent
    if parent.is_dir():
        asides = []
        for p in parent.iterdir():
            mt = _FOLDER_TMP.match(p.name)
            if mt is None or mt.group("name") != out.name or not p.is_dir():
                continue
            if not _stale(mt.group("host"), mt.group("pid"), p):
                continue
            if mt.group("old") and not out.exists():
                asides.append(p)
                continue
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p.name)
        asides.sort(key=lambda q: q.stat().st_mtime)
        if asides:
            os.rename(asides.pop(), out)  # the newest old report, whole: back in place
        for p in asides:
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p.name)
    if out.is_dir():
        clean_stale_report_tmp(out)
        for p in out.iterdir():
            if p.is_dir() and p.name.startswith((REPORT_TMP_PREFIX, REPORT_OLD_PREFIX)):
                pid = p.name.rsplit("-", 1)[-1]
                if not pid.isdigit() or not _pid_alive(int(pid)):
                    shutil.rmtree(p, ignore_errors=True)
                    removed.append(f"{out.name}/{p.name}")
    return removed


def report_tmp_folder(out: Path) -> Path:
    """A new hidden folder beside ``out`` (``.<name>.report.<host>.<pid>-<random>.tmp``, in
    ``out``'s parent, created), where a report is written whole before ``swap_into`` puts it
    in ``out``'s place. The leftovers of killed reports are cleared first
    (``clean_report_leftovers``)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    clean_report_leftovers(out)
    tmp = _folder_tmp(out)
    tmp.mkdir()
    return tmp


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _carried(p: Path, new: set[str]) -> bool:
    """An entry of the old report folder that the new one keeps: not a report file (``.md``,
    ``.html``, ``summary.json``, a chart ``.png``), not a name of the new report, not an older
    boardsim's temporary."""
    if p.name in new or p.name.startswith((REPORT_TMP_PREFIX, REPORT_OLD_PREFIX)):
        return False
    if p.is_file() and (p.name in REPORT_FILES or p.suffix == ".png"
                        or _SUFFIX_TMP.search(p.name) or (p.name.startswith(".")
                                                         and p.name.endswith(".tmp"))):
        return False
    return True


def swap_into(tmp: Path, out: Path) -> None:
    """Put the report written whole in ``tmp`` (``report_tmp_folder``) in ``out``'s place. The
    other entries of the old ``out`` (the lab tools' sub-folders) are first linked into
    ``tmp`` (hard links; copies where links fail); then the two folders are exchanged in one
    atomic rename (``sim.core.io.exchange_folders``) and the old one, now at ``tmp``, deleted.
    A kill at any moment leaves ``out`` the old report whole or the new one whole, never a mix;
    the next report clears the hidden folder left behind. Where the exchange is not supported,
    the old folder is renamed aside and the new one renamed in (a kill between the two leaves
    no ``out`` for a moment, and the next report moves the old one back before writing)."""
    if out.is_dir():
        new = {p.name for p in tmp.iterdir()}
        for p in out.iterdir():
            if _carried(p, new):
                if p.is_dir() and not p.is_symlink():
                    shutil.copytree(p, tmp / p.name, symlinks=True, copy_function=_link_or_copy)
                elif p.is_symlink():
                    os.symlink(os.readlink(p), tmp / p.name)
                else:
                    _link_or_copy(str(p), str(tmp / p.name))
    io.fsync_dir(tmp)
    if not out.exists():
        os.rename(tmp, out)
    elif io.exchange_folders(tmp, out):
        shutil.rmtree(tmp, ignore_errors=True)  # the old report
    else:
        aside = _folder_tmp(out, old=True)
        os.rename(out, aside)
        os.rename(tmp, out)
        shutil.rmtree(aside, ignore_errors=True)
    io.fsync_dir(out.parent)
