"""The boardsim command line: bad input gives one line on stderr and exit code 2."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def boardsim(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "analysis.cli", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, env=env, timeout=300)


@pytest.mark.parametrize("args,msg", [
    (["simulate", "chess"], "error: unknown game 'chess'; allowed: go-town"),
    (["simulate", "go-town", "-s", "genius"], "error: unknown strategy 'genius' for go-town; allowed: random, greedy, attacker, thief-first, defender"),
    (["simulate", "go-town", "-o", "target_floors=6"], "error: option target_floors: bad value 6; allowed: 4, 5"),
    (["simulate", "go-town", "-o", "warp=1"], "error: unknown option 'warp'; allowed: target_floors,"),
    (["simulate", "go-town", "-o", "target_floors"], "error: bad option 'target_floors'; expected name=value"),
    (["simulate", "go-town", "-p", "7"], "error: go-town: players must be 2..4, got 7"),
    (["simulate", "go-town", "-n", "0"], "error: -n (games) must be in 1..1,000,000,000, got 0"),
    (["simulate", "go-town", "-n", "-5"], "error: -n (games) must be in 1..1,000,000,000, got -5"),
    (["replay", "nowhere"], "error: 'nowhere' is neither a results folder nor a game id"),
    (["report", "/"], "error: / is not a boardsim results folder"),
])
def test_bad_input_one_line_exit_2(args, msg):
    r = boardsim(*args)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(msg), r.stderr


def test_foreign_and_unwritable_out(tmp_path):
    (tmp_path / "notes.txt").write_text("keep me")
    r = boardsim("simulate", "go-town", "-n", "10", "--out", str(tmp_path))
    assert r.returncode == 2 and "not a boardsim results folder" in r.stderr
    assert (tmp_path / "notes.txt").read_text() == "keep me"
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = boardsim("simulate", "go-town", "-n", "10", "--out", str(blocker / "sub"))
    assert r.returncode == 2 and "not writable" in r.stderr, r.stderr


def test_simulate_report_replay(tmp_path):
    out = tmp_path / "run"
    r = boardsim("simulate", "go-town", "-n", "3000", "-p", "3", "-s",
                 "greedy,attacker,random", "--seating", "rotate", "--seed", "4", "--out",
                 str(out))
    assert r.returncode == 0, r.stderr
    assert f"results: {out}" in r.stdout
    # the same command again resumes: nothing to do, same files
    stamp = (out / "games" / "chunk-000000.parquet").stat().st_mtime_ns
    r = boardsim("simulate", "go-town", "-n", "3000", "-p", "3", "-s",
                 "greedy,attacker,random", "--seating", "rotate", "--seed", "4", "--out",
                 str(out))
    assert r.returncode == 0
    assert (out / "games" / "chunk-000000.parquet").stat().st_mtime_ns == stamp
    r = boardsim("replay", str(out), "--index", "5", "-q")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    # rotate seating: game 5 shifts [greedy, attacker, random] by 5 mod 3
    assert lines[0] == ("Go Town: game 5 of run seed 4; seats: P0=random, P1=greedy, "
                        "P2=attacker")
    import polars as pl

    seats = pl.read_parquet(out / "seats" / "*.parquet").filter(pl.col("game") == 5).sort("seat")
    assert lines[-1].startswith(f"result: scores {seats['score'].to_list()}")
    r = boardsim("report", str(out), "--out", str(tmp_path / "rep"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "rep" / "report.md").exists()
    assert (tmp_path / "rep" / "report.html").exists()


def test_games_lists_options():
    r = boardsim("games")
    assert r.returncode == 0
    assert "go-town  (Go Town, 2-4 players, 208 actions)" in r.stdout
    assert "target_floors = 5  [4, 5]  §1.4, D1" in r.stdout
    assert ("  imperfect information, sampled chance; hidden: the cards in the rivals' hands; "
            "the order of the draw pile; results: target\n") in r.stdout


def test_run_writes_reports_and_the_cross_game_index(tmp_path):
    import json

    r = boardsim("run", "--only", "go-town", "--scale", "0.001", "--jobs", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.rstrip().endswith("index: reports/index.html and reports/README.md")
    reports = tmp_path / "reports"
    s = json.loads((reports / "go-town" / "summary.json").read_text())
    assert (s["game"], s["games_played"], s["players"], s["seeds"]) == (
        "go-town", 1200, [2, 3, 4], [1])  # 3 main runs of 200 + 30 option runs of 20
    assert [f["players"] for f in s["first_seat"]] == [2, 3, 4]
    md = (reports / "README.md").read_text()
    assert "| [Go Town](go-town/report.md) (`go-town`) | 1,200 | 2, 3, 4 | 2p: " in md
    html = (reports / "index.html").read_text()
    assert '<a href="go-town/report.html">Go Town</a>' in html
    report = (reports / "go-town" / "report.md").read_text()
    assert "## Sample size" in report
    # the 3-player main run's component effects (EFFECTS_GAMES x 0.001 games per arm: 80) sit
    # in its run folder, recorded for that run, and the verdict ranks the card types by them
    import sim
    from sim.core.integrity import MIN_RUN_GAMES

    n_fx = max(MIN_RUN_GAMES, int(sim.get_game("go-town").EFFECTS_GAMES[3] * 0.001))
    fx = json.loads((reports / "_runs" / "go-town" / "p3-pool-n200" / "effects" /
                     "effects.json").read_text())
    assert (fx["n"], fx["players"], fx["seed"], fx["run"]["players"]) == (n_fx, 3, 1, 3)
    verdict = report[:report.index("**Contents**")]
    assert "| Strongest card types, 3p | **" in verdict and "Denial, paired" in verdict
    assert "Components (3p): paired intervention on common seeds" in verdict
    # the associations (no effects at 2p and 4p) fold into one labelled bullet, no 3p part
    assoc = next(ln for ln in verdict.splitlines()
                 if ln.startswith("- **Association, special card**"))
    assert "not an effect" in assoc and "2p **" in assoc and "3p **" not in assoc
    assert "| Highest association" not in verdict
    assert (reports / "go-town" / "effects_3p.png").is_file()
    assert f"go-town p3-pool: component effects ({n_fx} games per arm)" in r.stdout
