"""The batch runner: determinism across jobs and chunking, resume, refusal of foreign folders."""

import json
import os

import polars as pl
import pytest

import sim
from sim.core.errors import UserError
from sim.runner import simulate

STRATS = ["greedy", "attacker", "thief-first", "random"]


def _tables(root):
    g = pl.read_parquet(f"{root}/games/*.parquet").sort("game")
    s = pl.read_parquet(f"{root}/seats/*.parquet").sort("game", "seat")
    return g, s


def test_same_games_whatever_the_jobs_and_chunks(tmp_path):
    a = simulate("go-town", 3000, 4, STRATS, seed=11, jobs=1, chunk_size=3000,
                 out=tmp_path / "a", seating="rotate")
    b = simulate("go-town", 3000, 4, STRATS, seed=11, jobs=2, chunk_size=700,
                 out=tmp_path / "b", seating="rotate", backend="loky")
    c = simulate("go-town", 3000, 4, STRATS, seed=11, jobs=2, chunk_size=1000,
                 out=tmp_path / "c", seating="rotate", backend="threading")
    ga, sa = _tables(a)
    for other in (b, c):
        go, so = _tables(other)
        assert ga.equals(go)
        assert sa.equals(so)
    assert len(os.listdir(b / "games")) == 5
    m = json.loads((a / "manifest.json").read_text())
    assert m["complete"] is True and m["n_games"] == 3000


@pytest.mark.parametrize("game_id", sim.list_games())
def test_threads_play_the_same_games_for_every_game(tmp_path, game_id):
    """The default backend runs chunks in threads (the batch kernels release the GIL); every
    game must give the same tables as one sequential pass."""
    import sim

    game = sim.get_game(game_id)
    p = game.max_players
    strats = list(game.strategies)[:3]
    a = simulate(game_id, 240, p, strats, seed=4, jobs=1, chunk_size=240, out=tmp_path / "a",
                 seating="pool", backend="sequential")
    b = simulate(game_id, 240, p, strats, seed=4, jobs=2, chunk_size=40, out=tmp_path / "b",
                 seating="pool", backend="threading")
    (ga, sa), (gb, sb) = _tables(a), _tables(b)
    assert ga.equals(gb) and sa.equals(sb)


def test_tables_are_consistent(tmp_path):
    root = simulate("go-town", 2000, 3, ["greedy"], seed=5, out=tmp_path / "r")
    g, s = _tables(root)
    assert g.height == 2000 and s.height == 6000
    # a finished game has exactly one winner, whose share is 1 and rank 1
    fin = g.filter(pl.col("end_reason") == "target")
    assert (fin["n_winners"] == 1).all()
    per_game = s.group_by("game").agg(pl.col("win_share").sum(), (pl.col("rank") == 1).sum())
    joined = per_game.join(g.select("game", "end_reason"), on="game")
    assert (joined.filter(pl.col("end_reason") == "target")["win_share"] == 1.0).all()
    assert (joined.filter(pl.col("end_reason") == "target")["rank"] == 1).all()
    # the winner built the target number of floors
    won = s.filter(pl.col("rank") == 1)
    assert (won["score"] == 5).all()


def test_game_i_is_the_same_game_in_any_run(tmp_path):
    a = simulate("go-town", 50, 2, ["greedy", "random"], seed=3, out=tmp_path / "a")
    b = simulate("go-town", 30, 2, ["greedy", "random"], seed=3, out=tmp_path / "b",
                 chunk_size=7)
    ga, _ = _tables(a)
    gb, _ = _tables(b)
    assert ga.head(30).equals(gb)


def test_resume_after_interruption(tmp_path):
    root = tmp_path / "r"
    full = simulate("go-town", 2500, 2, ["greedy", "attacker"], seed=9, out=tmp_path / "full",
                    chunk_size=500)
    simulate("go-town", 2500, 2, ["greedy", "attacker"], seed=9, out=root, chunk_size=500)
    # interrupt: lose two finished chunks (one table of one, both of another) and leave a temp
    os.remove(root / "games" / "chunk-000001.parquet")
    os.remove(root / "games" / "chunk-000003.parquet")
    os.remove(root / "seats" / "chunk-000003.parquet")
    (root / "games" / ".chunk-000004.parquet.123.tmp").write_bytes(b"half")
    m = json.loads((root / "manifest.json").read_text())
    m["complete"] = False
    (root / "manifest.json").write_text(json.dumps(m))
    before = {p: os.stat(root / "games" / p).st_mtime_ns for p in ("chunk-000000.parquet",)}
    calls = []
    simulate("go-town", 2500, 2, ["greedy", "attacker"], seed=9, out=root, chunk_size=500,
             progress=lambda d, t: calls.append(d))
    assert calls[0] == 1500  # three chunks were kept
    assert os.stat(root / "games" / "chunk-000000.parquet").st_mtime_ns == before[
        "chunk-000000.parquet"]
    g1, s1 = _tables(full)
    g2, s2 = _tables(root)
    assert g1.equals(g2) and s1.equals(s2)
    assert json.loads((root / "manifest.json").read_text())["complete"] is True


def test_foreign_folders_are_refused_and_untouched(tmp_path):
    root = simulate("go-town", 100, 2, ["greedy"], seed=1, out=tmp_path / "r")
    stamp = os.stat(root / "games" / "chunk-000000.parquet").st_mtime_ns
    with pytest.raises(UserError, match="different run .*seed"):
        simulate("go-town", 100, 2, ["greedy"], seed=2, out=root)
    with pytest.raises(UserError, match="different run .*n_games"):
        simulate("go-town", 200, 2, ["greedy"], seed=1, out=root)
    assert os.stat(root / "games" / "chunk-000000.parquet").st_mtime_ns == stamp
    other = tmp_path / "mine"
    other.mkdir()
    (other / "thesis.txt").write_text("precious")
    with pytest.raises(UserError, match="not a boardsim results folder"):
        simulate("go-town", 10, 2, ["greedy"], out=other)
    assert (other / "thesis.txt").read_text() == "precious"


@pytest.mark.parametrize("kwargs,msg", [
    (dict(game_id="chess"), "unknown game 'chess'; allowed: go-town"),
    (dict(players=5), "players must be 2..4"),
    (dict(n_games=0), r"-n \(games\) must be in 1..1,000,000,000, got 0"),
    (dict(strategies=["genius"]), "unknown strategy 'genius' .*allowed: random, greedy"),
    (dict(options={"target_floors": 7}), "option target_floors: bad value 7; allowed: 4, 5"),
    (dict(options={"speed": 1}), "unknown option 'speed'"),
    (dict(strategies=["greedy", "random", "attacker"]), "one per seat"),
    (dict(seating="circle"), "unknown seating"),
    (dict(chunk_size=0), "--chunk-size must be in 1..100,000, got 0"),
    (dict(backend="mpi"), "unknown backend"),
])
def test_bad_arguments(tmp_path, kwargs, msg):
    args = dict(game_id="go-town", n_games=10, players=2, strategies=["greedy"],
                out=tmp_path / "x")
    args.update(kwargs)
    with pytest.raises(UserError, match=msg):
        simulate(**args)
    assert not (tmp_path / "x").exists()


def test_results_of_another_engine_version_are_refused(tmp_path):
    """A run records its game's engine version; resuming it, or reading it for a report or a
    replay, under another engine version is refused with one line."""
    from sim.runner import load_manifest

    out = tmp_path / "run"
    simulate("go-town", 20, 2, ["random"], seed=1, out=out)
    m = json.loads((out / "manifest.json").read_text())
    import sim

    version = sim.get_game("go-town").version
    assert m["engine_version"] == version
    assert load_manifest(out)["game"] == "go-town"
    m["engine_version"] = "0"
    (out / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(UserError, match=f"engine version 0; this boardsim plays version {version}"):
        simulate("go-town", 20, 2, ["random"], seed=1, out=out)
    with pytest.raises(UserError, match="engine version 0"):
        load_manifest(out)
    del m["engine_version"]
    (out / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(UserError, match="no engine version"):
        load_manifest(out)
