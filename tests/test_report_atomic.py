"""A report folder is replaced whole (issue 29): ``boardsim report`` killed (SIGKILL) at several
moments while it overwrites an old report leaves the old report whole or the new one whole,
never a mix, and the next report clears the hidden folders a killed one left behind.

Each kill runs ``boardsim report`` in a child process whose file operations are wrapped so that
it kills itself at one chosen moment (after the k-th file of the new report, before or after the
swap, during the old report's removal, between the two renames of the fallback swap)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim.runner import simulate

ROOT = Path(__file__).resolve().parents[1]

CHILD = r'''
import os, signal, sys
import shutil
import analysis.report.writer as writer
import sim.core.io as sio
from analysis.cli import main

moment, run, rep = sys.argv[1], sys.argv[2], sys.argv[3]


def die():
    os.kill(os.getpid(), signal.SIGKILL)


if moment.startswith("write:"):  # after the k-th file of the new report is written
    k, real, n = int(moment.split(":")[1]), writer.write_atomic, [0]

    def write_atomic(path, text):
        r = real(path, text)
        n[0] += 1
        if n[0] == k:
            die()
        return r
    writer.write_atomic = write_atomic
elif moment in ("before-swap", "after-swap"):
    real_x = sio.exchange_folders

    def exchange_folders(a, b):
        if moment == "before-swap":
            die()
        ok = real_x(a, b)
        assert ok, "RENAME_EXCHANGE unsupported here"
        die()
    sio.exchange_folders = exchange_folders
elif moment == "removing-old":  # half of the old report deleted after the swap
    real_rm, real_x = shutil.rmtree, sio.exchange_folders

    def exchange_folders(a, b):
        ok = real_x(a, b)

        def rmtree(path, *a, **k):
            files = sorted(p for p in os.listdir(path) if os.path.isfile(os.path.join(path, p)))
            for f in files[: max(1, len(files) // 2)]:
                os.remove(os.path.join(path, f))
            die()
        shutil.rmtree = rmtree
        return ok
    sio.exchange_folders = exchange_folders
elif moment == "fallback-between":  # no RENAME_EXCHANGE: killed between the two renames
    sio.exchange_folders = lambda a, b: False
    real_rename = os.rename

    def rename(a, b):
        real_rename(a, b)
        if ".report-old." in os.fspath(b):
            die()
    os.rename = rename
main(["report", run, "--out", rep])
'''


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("atomic")
    old = base / "run-OLDGEN"
    new = base / "run-NEWGEN"
    simulate("go-town", 300, 2, ["greedy", "random"], seed=3, chunk_size=300, out=old)
    simulate("go-town", 300, 2, ["greedy", "random"], seed=4, chunk_size=300, out=new)
    return old, new


def _report(run: Path, rep: Path) -> None:
    from analysis.cli import main
    try:
        main(["report", str(run), "--out", str(rep)])
    except SystemExit as e:
        assert not e.code, e.code


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _generation(rep: Path, old: dict[str, bytes], new_names: set[str]) -> str:
    """'old' if ``rep`` is the old report byte for byte, 'new' if it is the whole new one;
    fails on anything else (a mix, a missing file, a hidden temporary inside)."""
    have = _files(rep)
    if have == old:
        return "old"
    assert set(have) == new_names, sorted(set(have) ^ new_names)
    for name in ("report.md", "report.html", "summary.json"):
        text = have[name].decode()
        assert "run-NEWGEN" in text and "run-OLDGEN" not in text, name
    json.loads(have["summary.json"])
    assert have["compare/kept.txt"] == b"a lab tool's file"
    return "new"


MOMENTS = ["write:1", "write:2", "write:3", "before-swap", "after-swap", "removing-old"]


def test_killed_report_leaves_one_whole_generation(runs, tmp_path):
    old_run, new_run = runs
    ref = tmp_path / "ref"
    _report(new_run, ref)
    (ref / "compare").mkdir()
    (ref / "compare" / "kept.txt").write_bytes(b"a lab tool's file")
    new_names = set(_files(ref))
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    # the old report, written once and copied into each moment's folder (the subject here is
    # the overwrite, not writing the old one)
    template = tmp_path / "old-report"
    _report(old_run, template)
    (template / "compare").mkdir()  # a lab tool's folder beside the report: kept by both
    (template / "compare" / "kept.txt").write_bytes(b"a lab tool's file")
    seen = []
    for moment in MOMENTS:
        rep = tmp_path / f"rep-{moment.replace(':', '')}"
        shutil.copytree(template, rep)
        old = _files(rep)
        r = subprocess.run([sys.executable, "-c", CHILD, moment, str(new_run), str(rep)],
                           env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert r.returncode == -9, (moment, r.returncode, r.stderr[-2000:])
        seen.append((moment, _generation(rep, old, new_names)))
        left = [p.name for p in tmp_path.iterdir() if p.name.startswith(f".{rep.name}.")]
        _report(new_run, rep)  # the next report: the hidden leftovers are gone
        assert _generation(rep, old, new_names) == "new"
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], (
            moment, left)
    # the kills fell on both sides of the swap
    assert {g for _m, g in seen} == {"old", "new"}, seen
    assert dict(seen)["before-swap"] == "old" and dict(seen)["after-swap"] == "new"


def test_killed_between_the_fallback_renames_the_old_report_comes_back(runs, tmp_path):
    """Without RENAME_EXCHANGE the swap is two renames; a kill between them leaves no report
    folder for a moment, and the next report (here its first step) moves the old one back."""
    from sim.core.integrity import clean_report_leftovers

    old_run, new_run = runs
    rep = tmp_path / "rep"
    _report(old_run, rep)
    (rep / "compare").mkdir()
    (rep / "compare" / "kept.txt").write_bytes(b"a lab tool's file")
    old = _files(rep)
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    r = subprocess.run([sys.executable, "-c", CHILD, "fallback-between", str(new_run),
                        str(rep)], env=env, cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == -9, r.stderr[-2000:]
    assert not rep.exists()
    removed = clean_report_leftovers(rep)
    assert _files(rep) == old
    assert len(removed) == 1 and ".rep.report." in removed[0]  # the new one, not swapped in
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_report_folder_that_holds_its_runs_or_the_cwd_is_refused(runs, tmp_path, capsys):
    from analysis.cli import main
    old_run, _new = runs
    for out in (old_run.parent, old_run):
        with pytest.raises(SystemExit) as e:
            main(["report", str(old_run), "--out", str(out)])
        assert e.value.code == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: --out ") and "holds the results folder" in err, err
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        with pytest.raises(SystemExit):
            main(["report", str(old_run), "--out", "."])
        assert "holds the current folder" in capsys.readouterr().err
    finally:
        os.chdir(cwd)
    assert (old_run / "manifest.json").is_file()
