"""Hostile input (issue #17): every case ends with one line naming the problem and exit code
2, leaves nothing half-written, and a report never counts a game twice or drops one silently.

Most cases call the command line in this process (``analysis.cli.main``); the cases that crashed a
kernel before run in a child process, so that a regression fails the test instead of killing
the suite.
"""

import errno
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import sim
from analysis import cli
from sim.core.errors import UserError
from sim.runner import simulate
from tests import games as H

ROOT = Path(__file__).resolve().parents[1]
HUGE = str(2**63 - 1)


def run_cli(capsys, *args) -> tuple[int, str, str]:
    """``boardsim ARGS`` in this process: (exit code, stdout, stderr)."""
    try:
        cli.main([str(a) for a in args])
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line(capsys, *args, contains: str = "") -> str:
    code, _out, err = run_cli(capsys, *args)
    lines = err.strip().splitlines()
    assert code == 2, (code, err)
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    assert contains in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def run_a(tmp_path_factory) -> Path:
    """A finished go-town run: 2,000 games in 4 chunks of 500."""
    root = tmp_path_factory.mktemp("runs") / "runA"
    simulate("go-town", 2000, 2, ["greedy", "random"], seed=3, chunk_size=500, out=root)
    return root


@pytest.fixture(scope="module")
def run_l(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("runs") / "runL"
    simulate("little-town", 500, 2, ["greedy"], seed=3, chunk_size=500, out=root)
    return root


def _copy(src: Path, tmp_path: Path, name: str = "copy") -> Path:
    dst = tmp_path / name
    shutil.copytree(src, dst)
    return dst


# ---- the number inputs ---------------------------------------------------------------
@pytest.mark.parametrize("args,contains", [
    (["simulate", "go-town", "--seed", "-1"], "--seed must be a whole number in 0..2**64-1"),
    (["simulate", "go-town", "--seed", str(2**64)], "--seed must be a whole number in 0..2**64-1"),
    (["replay", "go-town", "--seed", str(2**64)], "--seed must be a whole number"),
    (["compare", "go-town", "--set", "cards.dog.count=3", "--seed", "-1"], "--seed"),
    (["sweep", "go-town", "--param", "cards.dog.count=3,4", "--seed", str(2**64)], "--seed"),
    (["suggest", "go-town", "--seed", "-1"], "--seed"),
    (["run", "--scale", "0"], "--scale must be a finite number > 0, got 0.0"),
    (["run", "--scale", "-1"], "--scale must be a finite number > 0, got -1.0"),
    (["run", "--scale", "nan"], "--scale must be a finite number > 0, got nan"),
    (["run", "--scale", "inf"], "--scale must be a finite number > 0, got inf"),
    (["run", "--scale", "1e12", "--only", "go-town"], "games per run; at most 1,000,000,000"),
    (["run", "--scale", "0.00001", "--only", "little-town"],
     "the main job's reports need at least 20 per run"),
    (["simulate", "go-town", "--jobs", "100000"], "--jobs must be 1..64 or -1"),
    (["simulate", "go-town", "--jobs", "0"], "--jobs must be 1..64 or -1"),
    (["compare", "go-town", "--set", "cards.dog.count=3", "--jobs", "100000"], "--jobs"),
    (["simulate", "go-town", "-n", str(2**70)], "-n (games) must be in 1..1,000,000,000"),
    (["simulate", "go-town", "-n", "100000000", "--chunk-size", "1"], "use a larger --chunk-size"),
    (["simulate", "go-town", "--chunk-size", "0"], "--chunk-size must be in 1..100,000"),
    (["replay", "go-town", "--index", str(2**70)], "--index must be 0..999,999,999"),
    (["replay", "go-town", "--index", "-1"], "--index must be 0..999,999,999"),
    (["simulate", "go-town", "--set", f"cards.dog.count={HUGE}"],
     "cards.dog.count = 9223372036854775807: out of range; allowed 0..999"),
    (["simulate", "go-town", "--set", "cards.dog.count=" + "9" * 400], "cards.dog.count"),
    (["simulate", "little-town", "--set", "consts.market_size=1000"],
     "consts.market_size = 1000: out of range; allowed 0..24"),
    (["simulate", "little-town", "--set", "consts.market_size=100"], "allowed 0..24"),
    (["simulate", "little-town", "--set", "goals.1.set=" + ",".join(["3"] * 500)],
     "goals.1.set"),
    (["simulate", "suburbia", "--set", "tiles.suburbs.count=1000000"], "allowed 0..999"),
    (["simulate", "province", "--set", "constants.grind_labor=0"], "allowed 1..999"),
    (["simulate", "three-little-wolves", "--set", "components.wolf_values.²=3"], "unknown part"),
    (["suggest", "go-town", "--band", "nan"], "--band must be a number of points"),
])
def test_bad_numbers_one_line(capsys, args, contains):
    one_line(capsys, *args, contains=contains)


@pytest.mark.parametrize("args,contains", [
    (["simulate", "go-town", "-n", "abc"], "Invalid value for '-n' / '--games'"),
    (["simulate", "go-town", "--seed", "1.5"], "Invalid value for '--seed'"),
    (["run", "--scale", "much"], "Invalid value for '--scale'"),
    (["frobnicate"], "No such command 'frobnicate'"),
    (["simulate", "go-town", "--bogus"], "No such option: --bogus"),
    (["simulate"], "Missing argument 'GAME'"),
])
def test_usage_errors_are_one_line(capsys, args, contains):
    """Typer's usage errors (a malformed number, an unknown command or option) in our one-line
    format, not its boxed usage text."""
    line = one_line(capsys, *args)
    assert contains.lower() in line.lower(), line


def test_data_files(capsys, tmp_path):
    cases = {
        "binary.toml": (bytes(range(256)) * 4, "not UTF-8 text"),
        "utf16.toml": ("[cards.dog]\ncount = 5\n".encode("utf-16"), "not UTF-8 text"),
        "date.toml": (b"[cards.dog]\ncount = 1979-05-27\n", "a date; expected a number"),
        "big.toml": (b"[cards.dog]\ncount = 9223372036854775807\n", "out of range"),
        "bigger.toml": (b"[cards.dog]\ncount = 99999999999999999999999\n", "out of range"),
        "large.toml": (b"# " + b"x" * (1 << 20) + b"\n", "larger than 1,048,576 bytes"),
    }
    for name, (data, msg) in cases.items():
        (tmp_path / name).write_bytes(data)
        one_line(capsys, "simulate", "go-town", "-n", "10", "--data", tmp_path / name,
                 "--out", tmp_path / "o", contains=msg)
    one_line(capsys, "simulate", "go-town", "--data", "/dev/zero", contains="larger than")
    one_line(capsys, "simulate", "go-town", "--data", tmp_path, contains="a folder")
    assert not (tmp_path / "o").exists()


def test_folders_one_line(capsys, tmp_path):
    (tmp_path / "afile").write_text("x")
    one_line(capsys, "simulate", "go-town", "-n", "10", "--out", tmp_path / "afile",
             contains="exists and is not a folder")
    long = tmp_path / ("x" * 300)
    one_line(capsys, "simulate", "go-town", "-n", "10", "--out", long,
             contains="File name too long")
    one_line(capsys, "report", long, contains="File name too long")


# ---- the kernels never see an unchecked state ---------------------------------------------
_STATE_CASES = r'''
import json, sys
import sim
from sim.core.errors import UserError
cases = json.loads(sys.argv[1])
for gid, path, value, n in cases:
    g = sim.get_game(gid)
    s = g.new_state(n, 5)
    for _ in range(12):
        s = g.apply_action(s, int(g.legal_actions(s)[0]))
    d = g.state_to_dict(s)
    box = d
    for k in path[:-1]:
        box = box[k]
    box[path[-1]] = value
    try:
        s2 = g.state_from_dict(d)
    except UserError as e:
        assert "\n" not in str(e)
        print("refused", gid, path, str(e)[:100])
        continue
    g.legal_actions(s2)
    print("ACCEPTED", gid, path)
'''


def test_state_from_dict_refuses_what_crashed_the_kernels():
    """The issue's cases: out-of-range current players, building and card ids, wolf ids; each
    was accepted and then crashed a kernel (segfault)."""
    cases = [(gid, *case) for gid in sim.list_games()  # each game's, tests/games/<package>.py
             for case in H.hooks(sim.get_game(gid)).CRASH_CASES]
    assert len(cases) >= 12
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", _STATE_CASES, json.dumps(cases)],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert r.returncode == 0, f"exit {r.returncode} (a crash?)\n{r.stdout}\n{r.stderr}"
    assert r.stdout.count("refused") == len(cases), r.stdout
    assert "ACCEPTED" not in r.stdout


def test_state_error_names_field_value_and_range():
    g = sim.get_game("go-town")
    d = g.state_to_dict(g.new_state(3, 1))
    d["current"] = 7
    with pytest.raises(UserError, match=r"go-town state dict: current = 7: out of range; "
                                        r"allowed 0\.\.2"):
        g.state_from_dict(d)


def test_wolves_invariant_of_a_committed_card_in_the_discard():
    """2-player end phase: a wolf bet with the committed card discards it while the
    commitment is still recorded; check_invariants used to call that a broken invariant (13
    of 450 games). Game 9 of seed 0 (wolf-bettor vs no-wolf) reaches it at decision 42."""
    from sim.core.rng import seed_for_py
    from sim.three_little_wolves import constants as K

    g = sim.get_game("three-little-wolves")
    names = ["wolf-bettor", "no-wolf"]
    s = g.new_state(2, seed_for_py(0, 9, 0))
    rng = g.bot_rng(seed_for_py(0, 9, 1))
    met = False
    while not g.is_terminal(s):
        p = g.current_player(s)
        s = g.apply_action(s, g.choose_action(s, names[p], rng))
        g.check_invariants(s)
        for q in range(2):
            cm = int(s.seat[q, K.S_COMMIT])
            if cm >= 0 and cm not in s.hands[q, :s.seat[q, K.S_HN]].tolist():
                assert s.discard[cm] == 1
                met = True
    assert met


# ---- results integrity ------------------------------------------------------------------
def test_report_refuses_a_missing_chunk(capsys, run_a, tmp_path):
    r = _copy(run_a, tmp_path)
    (r / "games" / "chunk-000002.parquet").unlink()
    one_line(capsys, "report", r, "--out", tmp_path / "rep",
             contains="games/chunk-000002.parquet: missing (1 of 4 chunks missing)")
    assert not (tmp_path / "rep" / "report.md").exists()


def test_report_refuses_a_duplicated_chunk(capsys, run_a, tmp_path):
    r = _copy(run_a, tmp_path)
    for t in ("games", "seats"):  # a fifth chunk: games 500..999 again
        shutil.copy(r / t / "chunk-000001.parquet", r / t / "chunk-000004.parquet")
    one_line(capsys, "report", r, "--out", tmp_path / "rep",
             contains="chunk-000004.parquet: not a chunk of this run (it has 4 chunks")
    r2 = _copy(run_a, tmp_path, "copy2")  # a chunk copied over another
    shutil.copy(r2 / "games" / "chunk-000001.parquet", r2 / "games" / "chunk-000002.parquet")
    one_line(capsys, "report", r2, "--out", tmp_path / "rep",
             contains="holds games other than 1000..1499 of this run")
    r3 = _copy(run_a, tmp_path, "copy3")  # a copy under another name the glob would read
    shutil.copy(r3 / "games" / "chunk-000001.parquet", r3 / "games" / "chunk-000001 (1).parquet")
    one_line(capsys, "report", r3, "--out", tmp_path / "rep", contains="unexpected file name")


def test_report_refuses_the_same_games_twice(capsys, run_a, tmp_path):
    one_line(capsys, "report", run_a, run_a, "--out", tmp_path / "rep",
             contains="given twice")
    r = _copy(run_a, tmp_path)
    one_line(capsys, "report", run_a, r, "--out", tmp_path / "rep",
             contains="plays the same games as")


def test_report_refuses_a_chunk_of_another_game(capsys, run_a, run_l, tmp_path):
    r = _copy(run_a, tmp_path)
    for t in ("games", "seats"):
        shutil.copy(run_l / t / "chunk-000000.parquet", r / t / "chunk-000000.parquet")
    one_line(capsys, "report", r, "--out", tmp_path / "rep",
             contains="chunk-000000.parquet: a chunk of another run (engine_version")


def test_report_refuses_an_edited_manifest(capsys, run_a, tmp_path):
    r = _copy(run_a, tmp_path)
    m = json.loads((r / "manifest.json").read_text())
    m["game"] = "little-town"
    (r / "manifest.json").write_text(json.dumps(m))
    one_line(capsys, "report", r, "--out", tmp_path / "rep", contains="manifest.json")
    m["identity"]["game"] = "little-town"  # consistently edited: the chunks tell
    m["options"] = m["identity"]["options"] = sim.get_game("little-town").resolve_options({})
    m["engine_version"] = sim.get_game("little-town").version  # the version check passes
    (r / "manifest.json").write_text(json.dumps(m))
    one_line(capsys, "report", r, "--out", tmp_path / "rep",
             contains="chunk-000000.parquet: a chunk of another run (engine_version")


_GT_VERSION = sim.get_game("go-town").version  # a manifest that passes the version check


@pytest.mark.parametrize("text,contains", [
    ("[]", "not a boardsim manifest (a JSON array"),
    ("null", "not a boardsim manifest (a JSON null"),
    ('{"game": "go-town", "engine_version": "%s"}' % _GT_VERSION, "key 'identity' missing"),
    ("{", "not a boardsim manifest (JSONDecodeError"),
    ('{"game": "go-town", "engine_version": "%s", "identity": {}, "n_games": "x"}' % _GT_VERSION,
     "n_games must be a whole number, got 'x'"),
])
def test_report_refuses_a_malformed_manifest(capsys, run_a, tmp_path, text, contains):
    r = _copy(run_a, tmp_path)
    (r / "manifest.json").write_text(text)
    one_line(capsys, "report", r, "--out", tmp_path / "rep", contains=contains)
    one_line(capsys, "replay", r, contains=contains)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty"])
def test_report_refuses_a_damaged_chunk(capsys, run_a, tmp_path, damage):
    r = _copy(run_a, tmp_path)
    p = r / "seats" / "chunk-000001.parquet"
    data = p.read_bytes()
    p.write_bytes({"garbage": b"garbage" * 10, "truncated": data[: len(data) // 2],
                   "empty": b""}[damage])
    one_line(capsys, "report", r, "--out", tmp_path / "rep",
             contains="seats/chunk-000001.parquet: unreadable Parquet chunk")


def test_a_folder_without_manifest_is_never_adopted(capsys, run_a, tmp_path):
    r = _copy(run_a, tmp_path)
    (r / "manifest.json").unlink()
    before = sorted(p.name for p in (r / "games").iterdir())
    one_line(capsys, "simulate", "go-town", "-n", "2000", "-s", "greedy,random", "--seed", "3",
             "--chunk-size", "500", "--out", r, contains="but no manifest.json")
    assert not (r / "manifest.json").exists()
    assert sorted(p.name for p in (r / "games").iterdir()) == before


def test_a_finished_manifest_is_never_rewritten(capsys, run_a, tmp_path):
    r = _copy(run_a, tmp_path)
    m = r / "manifest.json"
    text, stamp = m.read_text(), m.stat().st_mtime_ns
    time.sleep(0.01)
    args = ["simulate", "go-town", "-n", "2000", "-s", "greedy,random", "--seed", "3",
            "--chunk-size", "500", "--out", r]
    code, _out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert m.read_text() == text and m.stat().st_mtime_ns == stamp
    # a lost chunk of a finished run is played again (the same games); the manifest stays
    g3 = (r / "games" / "chunk-000003.parquet").read_bytes()
    (r / "games" / "chunk-000003.parquet").unlink()
    code, _out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert m.read_text() == text and m.stat().st_mtime_ns == stamp
    import polars as pl

    assert pl.read_parquet(r / "games" / "chunk-000003.parquet").equals(
        pl.read_parquet(__import__("io").BytesIO(g3)))


def test_stale_temporary_files_are_removed(capsys, run_a, tmp_path):
    import socket

    from sim.core.integrity import clean_stale_tmp, tmp_name

    r = _copy(run_a, tmp_path)
    host = tmp_name(Path("x")).name.split(".")[2]
    assert host and socket.gethostname()
    dead = r / "games" / f".chunk-000001.parquet.{host}.{2**22 + 12345}.tmp"
    old = r / "seats" / ".chunk-000002.parquet.otherhost.77.tmp"
    mine = r / "games" / f".chunk-000003.parquet.{host}.{os.getpid()}.tmp"
    recent_other = r / "games" / ".chunk-000000.parquet.otherhost.78.tmp"
    for p in (dead, old, mine, recent_other):
        p.write_bytes(b"partial")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    assert clean_stale_tmp(r) == 2
    assert not dead.exists() and not old.exists()
    assert mine.exists() and recent_other.exists()  # a live writer's, another machine's


def test_full_disk_during_simulate_is_one_line_and_leaves_no_tmp(capsys, tmp_path,
                                                                  monkeypatch):
    import polars as pl

    real = pl.DataFrame.write_parquet

    def full(self, path, *a, **k):
        real(self, path, *a, **k)
        if "chunk-000001" in str(path):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(pl.DataFrame, "write_parquet", full)
    out = tmp_path / "r"
    line = one_line(capsys, "simulate", "go-town", "-n", "200", "--chunk-size", "50",
                    "--out", out, "--backend", "sequential", contains="No space left on device")
    assert "chunk-000001" in line
    left = [p.name for t in ("games", "seats") for p in (out / t).iterdir()
            if p.name.endswith(".tmp")]
    assert left == []
    assert json.loads((out / "manifest.json").read_text())["complete"] is False


def test_failed_report_leaves_the_old_report_whole(capsys, run_a, tmp_path, monkeypatch):
    rep = tmp_path / "rep"
    code, _out, err = run_cli(capsys, "report", run_a, "--out", rep)
    assert code == 0, err
    (rep / "compare").mkdir()  # a lab tool's folder beside the report stays
    before = {p.name: p.read_bytes() for p in rep.iterdir() if p.is_file()}
    import analysis.report.writer as ar

    real = ar.write_atomic

    def full(path, text):
        if str(path).endswith("summary.json"):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, text)

    monkeypatch.setattr(ar, "write_atomic", full)
    one_line(capsys, "report", run_a, "--out", rep, contains="No space left on device")
    after = {p.name: p.read_bytes() for p in rep.iterdir() if p.is_file()}
    assert after == before
    assert sorted(p.name for p in rep.iterdir() if p.is_dir()) == ["compare"]


def test_a_lost_worker_is_one_line(capsys, monkeypatch):
    class TerminatedWorkerError(Exception):
        pass

    def boom(*a, **k):
        raise TerminatedWorkerError("A worker process managed by the executor was "
                                    "unexpectedly terminated (SIGKILL)")

    monkeypatch.setattr("sim.runner.simulate", boom)
    one_line(capsys, "simulate", "go-town", "-n", "10", "--backend", "loky",
             contains="a worker process died")


# ---- names are plain text ------------------------------------------------------------------
def test_markup_in_folder_and_manifest_strings_is_escaped(capsys, run_a, tmp_path):
    r = _copy(run_a, tmp_path, "run_<b>x|`y`*z*")
    m = json.loads((r / "manifest.json").read_text())
    m["data_status"] = "<script>alert(1)</script> [link](http://x)"
    (r / "manifest.json").write_text(json.dumps(m))
    rep = tmp_path / "rep"
    code, _out, err = run_cli(capsys, "report", r, "--out", rep)
    assert code == 0, err
    md = (rep / "report.md").read_text()
    assert r"run\_\<b\>x\|\`y\`\*z\*" in md
    assert r"\<script\>alert(1)\</script\> \[link\](http://x)" in md
    assert "\\<script\\>" in md and "<b>" not in md.replace("\\<b\\>", "")
    page = (rep / "report.html").read_text()
    assert "run_&lt;b&gt;x|`y`*z*" in page and "<script>" not in page
    from analysis.index import write_index

    s = json.loads((rep / "summary.json").read_text())
    s["title"] = "<img src=x onerror=alert(1)>"
    (rep / "summary.json").write_text(json.dumps(s))
    write_index(str(tmp_path))
    readme = (tmp_path / "README.md").read_text()
    import re

    assert not re.search(r"(?<!\\)<img", readme)
    assert r"\<img src=x onerror=alert(1)\>" in readme


def test_chart_labels_are_plain_text(tmp_path):
    """A label with ``$`` is text, not matplotlib mathtext (which failed on it)."""
    import matplotlib.pyplot as plt

    cli._plain_text_charts()
    fig, ax = plt.subplots()
    ax.set_title("bot $\\frac{1}{$ x_ ^")
    ax.bar(["a$b$", "$\\bad{"], [1, 2])
    fig.savefig(tmp_path / "c.png")
    plt.close(fig)
    assert (tmp_path / "c.png").stat().st_size > 0


# ---- the soak --------------------------------------------------------------------------------
# the compiled soak's own tests (a planted violation, its replay command, the games replayed
# exactly): tests/test_soak.py


def test_soak_command(capsys):
    code, out, err = run_cli(capsys, "soak", "province", "-n", "4", "--seed", "1")
    assert code == 0, err
    assert out.startswith("soak province: 4 games, ") and "0 violation(s)" in out
    one_line(capsys, "soak", "province", "-n", "0", contains="-n (games) must be in")
    one_line(capsys, "soak", "province", "--seed", "-3", contains="--seed")
    one_line(capsys, "soak", "province", "--first", str(10**9 - 1), "-n", "2",
             contains="--first + -n must be at most 1,000,000,000")


def test_ladder_bounds_every_number(capsys, tmp_path):
    """ladder's -n had no upper bound (-n 2**70 started 2**70 games a table), --jobs none
    (100,000 threads) and --seed none."""
    out = tmp_path / "lad"
    one_line(capsys, "ladder", "go-town", "-n", str(2**70), "--out", out,
             contains="-n (games per table) must be in 1..1,000,000,000")
    one_line(capsys, "ladder", "go-town", "-n", "10", "--jobs", "100000", "--out", out,
             contains="--jobs must be 1..64 or -1")
    one_line(capsys, "ladder", "go-town", "-n", "10", "--seed", "-1", "--out", out,
             contains="--seed must be a whole number in 0..2**64-1")
    assert not out.exists()


def test_compare_checks_the_variant_before_the_baseline_plays(capsys, tmp_path):
    """A bad variant override used to be found only after the baseline's games had run and
    been written."""
    out = tmp_path / "cmp"
    one_line(capsys, "compare", "go-town", "--set-variant", "nosuch=1", "-n", "50", "--out", out,
             contains="nosuch")
    one_line(capsys, "compare", "go-town", "--option-variant", "target_floors=999", "-n", "50",
             "--out", out, contains="target_floors")
    assert not out.exists()


def test_simulate_validates_before_its_first_line(capsys, tmp_path):
    """The "strategies: the recommended mix" line used to come before a later refusal."""
    code, out, err = run_cli(capsys, "simulate", "go-town", "-p", "9", "--out", tmp_path / "r")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (out, err)
    code, out, err = run_cli(capsys, "simulate", "go-town", "--seed", "-1", "--out",
                             tmp_path / "r")
    assert code == 2 and out == "" and "--seed" in err, (out, err)


def test_state_dict_round_trip_still_accepted():
    """The checks refuse nothing real play produces (every game, mid-game and finished)."""
    for gid in sim.list_games():
        g = sim.get_game(gid)
        for n in range(g.min_players, g.max_players + 1):
            s = g.new_state(n, 11)
            rnd = np.random.default_rng(n)
            while not g.is_terminal(s):
                d = json.loads(json.dumps(g.state_to_dict(s)))
                g.state_from_dict(d)
                legal = g.legal_actions(s)
                s = g.apply_action(s, int(legal[rnd.integers(len(legal))]))
            g.state_from_dict(json.loads(json.dumps(g.state_to_dict(s))))


def test_stale_report_temporary_files_are_removed(capsys, run_a, tmp_path):
    rep = tmp_path / "rep"
    rep.mkdir()
    dead = rep / f"report.md.tmp-{2**22 + 999}"
    dead.write_text("partial")
    (rep / f".report-tmp-{2**22 + 998}").mkdir()  # a killed report's folder
    code, _out, err = run_cli(capsys, "report", run_a, "--out", rep)
    assert code == 0, err
    assert sorted(p.name for p in rep.iterdir() if not p.name.endswith(".png")) == [
        "report.html", "report.md", "summary.json"]


def test_replay_index_out_of_the_run(capsys, run_a):
    one_line(capsys, "replay", run_a, "--index", str(2**70), contains="--index must be 0..1999")
    one_line(capsys, "replay", run_a, "--index", "2000", contains="--index must be 0..1999")


# ---- issue 29: the failing command lines, and hostile ones over every command ----------------
def test_issue_29_command_lines(capsys, tmp_path, monkeypatch):
    """The command lines of issue 29 that hung, crashed with a traceback or were accepted
    without a word: each one line, exit 2 (the two tune ones: tests/test_tune.py; the bit-
    flipped chunk: tests/test_foreign_data.py)."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "o"
    many = ",".join(str(i) for i in range(5000))
    one_line(capsys, "sweep", "go-town", "--param", f"cards.dog.count={many}", "-n", "10",
             "--out", out, contains="--param cards.dog.count: 5,000 values; at most 50")
    for addr in ("not a url at all", "file:///etc/passwd"):
        one_line(capsys, "simulate", "go-town", "-n", "10", "--backend", "dask", "--scheduler",
                 addr, "--out", out, contains="not a dask scheduler address")
        one_line(capsys, "tune", "go-town", "--backend", "dask", "--scheduler", addr,
                 "--out", out, contains="not a dask scheduler address")
    one_line(capsys, "compare-setups", "little-town", "--setups", "", "-n", "10", "--out", out,
             contains="--setups is empty")
    one_line(capsys, "simulate", "go-town", "-n", "10", "--seating", "", "--out", out,
             contains="--seating is empty; allowed: fixed, rotate, pool")
    one_line(capsys, "simulate", "go-town", "-n", "10", "-o", "max_turns= 10", "--out", out,
             contains="no space around '='")
    one_line(capsys, "sweep", "go-town", "--param", "cards.dog.count=2,3", "--param",
             "cards.dog.count=4,5", "-n", "10", "--out", out,
             contains="--param cards.dog.count given twice")
    assert not out.exists()


def _hostile_cases() -> list[tuple[str, list[str]]]:
    """(name, argv) of command lines each refused before anything runs: a valid, tiny base
    command of each command line with one hostile item added. ``RUN``, ``OUT`` and ``FILE``
    are replaced by a finished run, a fresh folder and an existing file."""
    bad_seed = ["-1", str(2**64), "1e3", "abc", "", "0x10", "1.5"]
    bad_jobs = ["0", "-2", "65", "9" * 30, "x", ""]
    bad_n = ["0", "-5", str(2**70), "1e3", "", "nan", "x"]
    bad_players = ["0", "1", "99", "-1", "x", ""]
    bad_strats = ["nosuch", "greedy,nosuch", "greedy;random", "GREEDY", "greedy random"]
    bad_opts = ["nosuch=1", "max_turns=abc", "max_turns=", "=5", "max_turns= 10",
                "max_turns=5", "max_turns=1e9", "max_turns=20,max_turns=30", "noequals",
                "target_floors=999"]
    bad_sets = ["nosuch.x=1", "cards.dog.count=-1", "cards.dog.count=", "cards.dog.count=1000",
                "cards=1", "=1", "cards.dog.count=abc", "cards.dog.count=1.5", "noequals"]
    bad_out = ["FILE", "OUT/" + "x" * 300]
    bad_game = ["nosuch", "", "GO-TOWN", "../etc", "go-town "]
    cases: list[tuple[str, list[str]]] = []

    def add(cmd: str, base: list[str], opt: str | None, values: list[str]) -> None:
        for v in values:
            args = [*base, v] if opt is None else [*base, opt, v]
            cases.append((f"{cmd} {opt or 'arg'}={v[:20]!r}", args))

    sim_base = ["simulate", "go-town", "-n", "4", "--out", "OUT"]
    add("simulate", ["simulate", "-n", "4", "--out", "OUT"], None, bad_game)
    add("simulate", sim_base, "--seed", bad_seed)
    add("simulate", sim_base, "--jobs", bad_jobs)
    add("simulate", ["simulate", "go-town", "--out", "OUT"], "-n", bad_n)
    add("simulate", sim_base, "-p", bad_players)
    add("simulate", sim_base, "-s", bad_strats)
    add("simulate", sim_base, "-o", bad_opts)
    add("simulate", sim_base, "--set", bad_sets)
    add("simulate", sim_base, "--seating", ["", "nosuch", "POOL"])
    add("simulate", sim_base, "--backend", ["", "nosuch", "Threading"])
    add("simulate", sim_base, "--chunk-size", ["0", "100001", "-1", "x"])
    add("simulate", sim_base, "--data", ["OUT/none.toml", "OUT"])
    add("simulate", ["simulate", "go-town", "-n", "4"], "--out", bad_out)
    add("simulate", [*sim_base, "--backend", "dask"], "--scheduler",
        ["not a url", "file:///etc/passwd", "http://h:80", "tcp://h:0", "h", ""])
    add("simulate", sim_base, "--scheduler", ["tcp://127.0.0.1:8786"])  # without dask
    rep_base = ["report", "RUN", "--out", "OUT"]
    add("report", ["report", "--out", "OUT"], None, ["OUT/none", "FILE", ""])
    add("report", rep_base, "--out", ["FILE"])
    add("report", ["report", "RUN", "RUN", "--out", "OUT"], "--bogus", ["1"])
    replay_base = ["replay", "go-town", "-q", "-s", "greedy"]
    add("replay", ["replay", "-q"], None, bad_game + ["OUT/none"])
    add("replay", replay_base, "--index", ["-1", str(2**70), "x", ""])
    add("replay", ["replay", "RUN", "-q"], "--index", ["-1", "2000", "x"])
    add("replay", replay_base, "--seed", bad_seed)
    add("replay", replay_base, "-p", bad_players)
    add("replay", ["replay", "go-town", "-q"], "-s", bad_strats)
    add("replay", replay_base, "-o", bad_opts)
    lad = ["ladder", "go-town", "-n", "4", "-p", "2", "-s", "greedy,random", "--out", "OUT"]
    add("ladder", ["ladder", "-n", "4", "--out", "OUT"], None, bad_game)
    add("ladder", lad, "--seed", bad_seed)
    add("ladder", lad, "--jobs", bad_jobs)
    add("ladder", ["ladder", "go-town", "-p", "2", "-s", "greedy,random", "--out", "OUT"], "-n",
        bad_n)
    add("ladder", ["ladder", "go-town", "-n", "4", "-s", "greedy,random", "--out", "OUT"], "-p",
        ["0", "99", "x", "2,x", "-1"])
    add("ladder", ["ladder", "go-town", "-n", "4", "-p", "2", "--out", "OUT"], "-s",
        ["nosuch", "greedy,nosuch", "greedy"])
    add("ladder", lad, "-o", bad_opts)
    cs = ["compare-setups", "little-town", "-n", "4", "-p", "2", "--jobs", "1", "--out", "OUT"]
    add("compare-setups", [*cs[:1], *cs[2:]], None, ["go-town", "nosuch", ""])
    add("compare-setups", cs, "--setups", ["", ",", "random", "nosuch,draft", "random,RANDOM"])
    add("compare-setups", [*cs, "--setups", "random,draft"], "--seed", bad_seed)
    add("compare-setups", [*cs, "--setups", "random,draft"], "--jobs", bad_jobs)
    add("compare-setups", ["compare-setups", "little-town", "-p", "2", "--setups",
                           "random,draft", "--out", "OUT"], "-n", bad_n)
    add("compare-setups", ["compare-setups", "little-town", "-n", "4", "--setups",
                           "random,draft", "--out", "OUT"], "-p", bad_players)
    add("compare-setups", [*cs, "--setups", "random,draft"], "-s", bad_strats)
    add("data", ["data"], None, bad_game)
    add("data", ["data", "go-town"], "--table", ["nosuch", ""])
    add("data", ["data", "go-town"], "--set", bad_sets)
    add("data", ["data", "go-town"], "--data", ["OUT/none.toml"])
    cmp_base = ["compare", "go-town", "--set", "cards.dog.count=3", "-n", "4", "--jobs", "1",
                "--out", "OUT"]
    add("compare", ["compare", "go-town", "-n", "4", "--out", "OUT"], "--set-variant",
        bad_sets)
    add("compare", ["compare", "go-town", "-n", "4", "--out", "OUT"], "--option-variant",
        bad_opts)
    add("compare", cmp_base, "--set-baseline", bad_sets)
    add("compare", cmp_base, "--seed", bad_seed)
    add("compare", cmp_base, "--jobs", bad_jobs)
    add("compare", cmp_base[:4] + ["--out", "OUT"], "-n", bad_n)
    add("compare", cmp_base, "-p", bad_players)
    add("compare", cmp_base, "-s", bad_strats)
    add("compare", ["compare", "go-town", "-n", "4", "--out", "OUT"], "--variant",
        ["OUT/none.toml", "OUT"])
    sw = ["sweep", "go-town", "-n", "4", "--jobs", "1", "--out", "OUT"]
    add("sweep", sw, "--param", ["cards.dog.count", "cards.dog.count=", "nosuch=1,2",
                                 "cards.dog.count=1,x", "cards.dog.count=1,1",
                                 "cards.dog.count=-1,2", "max_turns=5,20", "=1,2",
                                 "cards.dog.count=" + ",".join(map(str, range(51)))])
    add("sweep", [*sw, "--param", "cards.dog.count=2,3"], "--seed", bad_seed)
    add("sweep", [*sw, "--param", "cards.dog.count=2,3"], "--jobs", bad_jobs)
    add("sweep", ["sweep", "go-town", "--param", "cards.dog.count=2,3", "--out", "OUT"], "-n",
        bad_n)
    add("sweep", [*sw, "--param", "cards.dog.count=2,3"], "-s", bad_strats)
    add("sweep", [*sw, "--param", "cards.dog.count=2,3"], "-p", bad_players)
    add("sweep", [*sw, "--param", "cards.dog.count=2,3", "--param", "max_turns=20,30"],
        "--param", ["target_floors=3,4"])
    sug = ["suggest", "go-town", "-n", "4", "--jobs", "1", "--out", "OUT"]
    add("suggest", sug, "--band", ["0", "-1", "101", "nan", "inf", "x", ""])
    add("suggest", sug, "--limit", ["0", "1001", "-1", "x"])
    add("suggest", sug, "--max-step", ["0", "1001", "x"])
    add("suggest", sug, "--max-games", ["1", "0", str(2**70), "x"])
    add("suggest", sug, "--center", ["", "mean", "MEDIAN"])
    add("suggest", sug, "--seed", bad_seed)
    add("suggest", sug, "--jobs", bad_jobs)
    add("suggest", ["suggest", "go-town", "--out", "OUT"], "-n", bad_n)
    add("suggest", sug, "-p", bad_players)
    add("suggest", sug, "-s", bad_strats)
    add("suggest", sug, "--alt-strategies", ["nosuch"])
    add("suggest", sug, "--set", bad_sets)
    fx = ["effects", "go-town", "-n", "4", "--out", "OUT"]
    add("effects", fx, "--arm", ["", "nosuch", "NUDGE"])
    add("effects", fx, "--family", ["nosuch"])
    add("effects", fx, "--step", ["0", "-1", "x", str(2**70)])
    add("effects", fx, "--seed", bad_seed)
    add("effects", fx, "--jobs", bad_jobs)
    add("effects", ["effects", "go-town", "--out", "OUT"], "-n", bad_n)
    add("effects", fx, "-p", bad_players)
    add("effects", fx, "-s", bad_strats)
    add("effects", fx, "-o", bad_opts)
    ti = ["tiers", "go-town", "-n", "2", "--scripted-games", "4", "--out", "OUT"]
    add("tiers", ti, "--budget", ["0", "-1", "x", str(2**70)])
    add("tiers", ti, "--scripted-games", ["0", "-1", "x", str(2**70)])
    add("tiers", ti, "--seating", ["", "nosuch"])
    add("tiers", ti, "--seed", bad_seed)
    add("tiers", ti, "--jobs", bad_jobs)
    add("tiers", ["tiers", "go-town", "--scripted-games", "4", "--out", "OUT"], "-n", bad_n)
    add("tiers", ti, "-p", bad_players)
    add("tiers", ti, "-s", bad_strats)
    add("tiers", ti, "-o", bad_opts)
    tu = ["tune", "go-town", "--target", "first_seat=50+-2", "--param", "cards.dog.count",
          "--trials", "1", "-n", "4", "--jobs", "1", "--out", "OUT"]
    add("tune", tu, "--target", ["", "nosuch=1", "first_seat=", "first_seat=abc",
                                 "first_seat=50+-", "balance>=x", "length=16..13"])
    add("tune", tu, "--seed", bad_seed)
    add("tune", tu, "--jobs", bad_jobs)
    add("tune", tu, "--budget", ["", "0", "-1m", "x", "10y", "1e9h"])
    add("tune", tu, "--sampler", ["", "grid"])
    add("tune", tu, "--backend", ["", "nosuch"])
    add("tune", tu, "-p", ["x", "99", "0"])
    add("tune", tu, "-s", bad_strats)
    add("tune", tu, "--targets", ["OUT/none.toml", "OUT"])
    soak_base = ["soak", "province", "-n", "2", "-q"]
    add("soak", ["soak", "-n", "2", "-q"], None, bad_game)
    add("soak", ["soak", "province", "-q"], "-n", bad_n)
    add("soak", soak_base, "--seed", bad_seed)
    add("soak", soak_base, "--jobs", bad_jobs)
    add("soak", soak_base, "-p", bad_players)
    add("soak", soak_base, "-s", bad_strats)
    add("soak", soak_base, "--first", ["-1", str(10**9), "x"])
    add("run", ["run", "--only", "go-town"], "--scale", ["0", "-1", "nan", "inf", "x", ""])
    add("run", ["run", "--scale", "0.5"], "--only", ["nosuch", "go-town,nosuch"])
    add("run", ["run", "--only", "go-town", "--scale", "0.5"], "--jobs", bad_jobs)
    add("games", ["games"], None, ["--bogus", "extra"])
    return cases


HOSTILE = _hostile_cases()


def test_at_least_250_hostile_command_lines():
    assert len(HOSTILE) >= 250 and len({tuple(a) for _n, a in HOSTILE}) == len(HOSTILE)


@pytest.mark.parametrize("args", [a for _n, a in HOSTILE], ids=[n for n, _a in HOSTILE])
def test_hostile_command_line(capsys, request, tmp_path, monkeypatch, args):
    """Exit 2, one line ``error: ...``, no traceback, nothing written."""
    monkeypatch.chdir(tmp_path)  # a case that ran would write reports/ here, not in the repo
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "o"
    run = request.getfixturevalue("run_a") if "RUN" in args else None
    subst = {"RUN": str(run), "OUT": str(out), "FILE": str(tmp_path / "afile")}
    argv = []
    for a in args:
        for k, v in subst.items():
            if a == k or a.startswith(k + "/"):
                a = v + a[len(k):]
        argv.append(a)
    one_line(capsys, *argv)
    assert not out.exists() or not any(out.iterdir())
    assert not (tmp_path / "reports").exists()
