"""sim.core.io: the one atomic file write (temporary name in the same folder, fsync, rename)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sim.core.io import atomic_path, write_atomic


def test_write_atomic_text_and_bytes(tmp_path: Path):
    p = tmp_path / "sub" / "a.txt"
    assert write_atomic(p, "é|x\n") == p  # folder created, path returned as given
    assert p.read_bytes() == "é|x\n".encode()
    s = str(tmp_path / "b.bin")
    assert write_atomic(s, b"\x00\x01") == s
    assert Path(s).read_bytes() == b"\x00\x01"
    write_atomic(p, "new")  # replaces
    assert p.read_text() == "new"
    assert sorted(x.name for x in tmp_path.rglob("*")) == ["a.txt", "b.bin", "sub"]


def test_atomic_path_keeps_the_old_file_on_error(tmp_path: Path):
    p = tmp_path / "c.txt"
    p.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_path(p) as tmp:
            assert os.path.dirname(tmp) == str(tmp_path) and os.path.basename(tmp) != "c.txt"
            Path(tmp).write_text("half")
            raise RuntimeError("writer failed")
    assert p.read_text() == "old"
    assert [x.name for x in tmp_path.iterdir()] == ["c.txt"]  # temporary file removed


def test_temporary_names_are_unique_and_hidden(tmp_path: Path):
    with atomic_path(tmp_path / "d.png") as t1, atomic_path(tmp_path / "d.png") as t2:
        assert t1 != t2
        assert os.path.basename(t1).startswith(".d.png.") and t1.endswith(".tmp")
        Path(t1).write_bytes(b"1")
        Path(t2).write_bytes(b"2")
    assert (tmp_path / "d.png").read_bytes() == b"1"  # the outer block finished last


def test_file_mode_follows_the_umask(tmp_path: Path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "e.txt", "x")
    finally:
        os.umask(old)
    assert (tmp_path / "e.txt").stat().st_mode & 0o777 == 0o644
