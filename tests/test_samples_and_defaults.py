"""Games are samples (the action hash and the distinct-game count of a run) and competent
defaults (each game's recommended mix, used by ``boardsim simulate`` without --strategies;
the main job plays ``random`` only in runs labelled as random baselines)."""

import json
from pathlib import Path

import numpy as np
import pytest

import sim
from sim import runner
from sim.core.rng import ACTION_HASH_START, action_hash_py, fold_action
from tests import inproc

ROOT = Path(__file__).resolve().parents[1]
GAMES = sim.list_games()


def _boardsim(*args, cwd=None):
    return inproc.boardsim(*args, cwd=cwd or ROOT)  # in this process (tests/inproc.py)


def test_python_hash_equals_the_compiled_fold():
    rnd = np.random.default_rng(3)
    for length in (0, 1, 2, 17, 300):
        actions = rnd.integers(0, 5000, length).tolist()
        h = ACTION_HASH_START
        for a in actions:
            h = fold_action(np.uint64(h), np.int64(a))
        assert int(h) == action_hash_py(actions)
    assert action_hash_py([]) == 0
    # order matters, and so does length
    assert action_hash_py([1, 2]) != action_hash_py([2, 1])
    assert action_hash_py([0]) != action_hash_py([0, 0])
    # one action: the SplitMix64 output of state 1 (its published first output for seed 1)
    assert action_hash_py([1]) == 0x910A2DEC89025CC1
    assert action_hash_py([3, 1, 4]) == 0x30C70C257D24C20C


@pytest.mark.parametrize("gid", GAMES)
def test_recommended_mix_is_competent(gid):
    game = sim.get_game(gid)
    mix = game.bots.RECOMMENDED_MIX
    assert mix and "random" not in mix and len(set(mix)) == len(mix)
    assert all(name in game.strategies for name in mix)
    for p in range(game.min_players, game.max_players + 1):  # the mix at each player count
        m = game.recommended_mix(p)
        assert m and "random" not in m and len(set(m)) == len(m)
        assert all(name in game.strategies for name in m)


def test_the_wolves_two_player_mix_adds_greedy_2p():
    game = sim.get_game("three-little-wolves")
    assert game.recommended_mix(2) == ["greedy", "greedy-2p", "cautious", "wolf-bettor"]
    assert game.recommended_mix(3) == game.recommended_mix(4) == list(game.bots.RECOMMENDED_MIX)
    assert game.recommended_mix() == list(game.bots.RECOMMENDED_MIX)
    p2 = [pl for pl in game.default_plan() if pl["name"] == "p2-pool"][0]
    assert p2["strategies"] == game.recommended_mix(2)


@pytest.mark.parametrize("gid", GAMES)
def test_main_job_plays_random_only_in_labelled_baselines(gid):
    for plan in sim.get_game(gid).default_plan():
        if "random" in plan["strategies"]:
            assert "random-baseline" in plan.get("role", ""), plan["name"]


def test_simulate_without_strategies_plays_the_recommended_mix(tmp_path):
    out = tmp_path / "run"
    r = _boardsim("simulate", "go-town", "-n", "300", "-p", "3", "--out", str(out))
    assert r.returncode == 0, r.stderr
    mix = sim.get_game("go-town").bots.RECOMMENDED_MIX
    assert r.stdout.splitlines()[0] == (
        f"strategies: the recommended mix of go-town ({', '.join(mix)}), --seating pool "
        "(give --strategies to choose)")
    m = json.loads((out / "manifest.json").read_text())
    assert m["strategies_source"] == "recommended mix"
    assert m["strategies"] == list(mix) and m["seating"] == "pool"
    assert m["distinct_games"] == 300
    assert "warning" not in r.stderr
    import polars as pl

    g = pl.read_parquet(out / "games" / "*.parquet")
    assert g["action_hash"].dtype == pl.UInt64 and g["action_hash"].n_unique() == 300


def test_all_random_run_warns(tmp_path):
    out = tmp_path / "run"
    r = _boardsim("simulate", "go-town", "-n", "50", "-s", "random", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().splitlines() == [
        "warning: every seat is played by `random`; random play says little about the game "
        "(omit --strategies for the game's recommended mix)"]
    m = json.loads((out / "manifest.json").read_text())
    assert m["strategies_source"] == "command line"


def test_identical_games_trigger_the_distinct_warning(tmp_path, monkeypatch, capsys):
    """A fixture run whose every game has the same action sequence: the manifest counts 1
    distinct game, the command line prints the warning and the report shows it."""
    real_get_game = runner.get_game

    class Same:
        def __init__(self, game):
            self._game = game

        def __getattr__(self, name):
            return getattr(self._game, name)

        def run_chunk(self, *args, **kw):
            res = self._game.run_chunk(*args, **kw)
            res.action_hash[:] = np.uint64(12345)
            return res

    monkeypatch.setattr(runner, "get_game", lambda gid, ov=None: Same(real_get_game(gid, ov)))
    from analysis.cli import run_simulation

    root = run_simulation("go-town", 40, 2, ["greedy"], 1, {}, 1, 20, tmp_path / "r", "fixed",
                          "sequential")
    m = json.loads((root / "manifest.json").read_text())
    assert m["distinct_games"] == 1 and m["n_games"] == 40
    err = capsys.readouterr().err
    assert ("warning: only 1 of the 40 games are distinct (2.5%): the bots replay the same "
            "games, so the results rest on few different games and more games add little"
            ) in err
    from analysis.report import write_report

    write_report([str(root)], str(tmp_path / "rep"), "Go Town")
    md = (tmp_path / "rep" / "report.md").read_text()
    assert ("**Warning:** fewer than half the games are distinct (distinct action sequences) "
            "in run 1 (1 of 40): the bots replay") in md


def test_distinct_warning_threshold():
    assert runner.distinct_warning({"distinct_games": 50, "n_games": 100}) is None
    assert runner.distinct_warning({"distinct_games": 49, "n_games": 100}).startswith(
        "warning: only 49 of the 100 games are distinct (49.0%)")
    assert runner.distinct_warning({"distinct_games": None, "n_games": 100}) is None
