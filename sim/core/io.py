"""Atomic file writes: a file is either absent, the old version or complete, never half written.

``write_atomic(path, data)`` and ``atomic_path(path)`` write to a temporary name in the same
folder (so the rename stays on one file system), flush it to disk (``fsync``) and rename it
over ``path`` with ``os.replace`` (atomic on POSIX and Windows). The temporary name is hidden
(``.<name>.<host>.<pid>-<random>.tmp``, ``tmp_name``), unique per call (threads of one process
and workers on other machines writing into a shared folder never collide), removed if the write
fails, and tells ``sim.core.integrity.clean_stale_tmp`` whose it was when a kill left it. Every
writer of results, reports and charts uses them (sim/runner.py, analysis/).
"""

from __future__ import annotations

import os
import re
import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

__all__ = ["atomic_path", "host_tag", "tmp_name", "write_atomic"]

P = TypeVar("P", str, Path)


def host_tag() -> str:
    """This machine's name as it appears in temporary file names (letters, digits, '-')."""
    return re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname())[:40] or "host"


def tmp_name(path: str | os.PathLike) -> str:
    """A fresh temporary name beside ``path``: ``.<name>.<host>.<pid>-<random>.tmp``."""
    folder, name = os.path.split(os.path.abspath(os.fspath(path)))
    return os.path.join(folder, f".{name}.{host_tag()}.{os.getpid()}-{uuid.uuid4().hex[:12]}.tmp")


def _fsync(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[str]:
    """Yield a temporary file name next to ``path`` for a writer that takes a file name
    (``fig.savefig``, ``df.write_parquet``); when the block ends without an error, fsync that
    file and rename it to ``path``; on an error, remove it and re-raise. Creates the folder of
    ``path`` if needed.

    Example: ``with atomic_path("out/a.png") as tmp: fig.savefig(tmp, format="png")``.
    """
    target = os.fspath(path)
    folder, name = os.path.split(os.path.abspath(target))
    os.makedirs(folder, exist_ok=True)
    tmp = tmp_name(target)
    try:
        yield tmp
        _fsync(tmp)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.remove(tmp)
        except FileNotFoundError:
            pass
        raise


def write_atomic(path: P, data: str | bytes) -> P:
    """Write ``data`` (``str``, written as UTF-8, or ``bytes``) to ``path`` atomically: to a
    temporary name in the same folder, fsync, ``os.replace``. Creates the folder if needed.
    Returns ``path`` unchanged (str or Path, as given)."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            f.write(raw)
    return path


# ---- whole folders ------------------------------------------------------------------------
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
_renameat2 = None


def _libc_renameat2():
    """glibc's ``renameat2`` (Linux 3.15+, glibc 2.28+), or None."""
    global _renameat2
    if _renameat2 is None:
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            fn = libc.renameat2
            fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                           ctypes.c_uint]
            fn.restype = ctypes.c_int
            _renameat2 = fn
        except (OSError, AttributeError):
            _renameat2 = False
    return _renameat2 or None


def exchange_folders(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Swap the folders ``a`` and ``b`` in one atomic step (Linux ``renameat2`` with
    ``RENAME_EXCHANGE``): a reader of either name sees the old folder or the new one, never
    neither. Returns False where the system or the file system cannot (then nothing changed);
    raises OSError on any other failure."""
    import ctypes

    fn = _libc_renameat2()
    if fn is None:
        return False
    rc = fn(_AT_FDCWD, os.fsencode(os.fspath(a)), _AT_FDCWD, os.fsencode(os.fspath(b)),
            _RENAME_EXCHANGE)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: not supported here
        return False
    raise OSError(err, os.strerror(err), os.fspath(b))


def fsync_dir(path: str | os.PathLike) -> None:
    """fsync a folder (its entries: a rename into it is durable); ignored where unsupported."""
    try:
        fd = os.open(os.fspath(path), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
