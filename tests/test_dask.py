"""The dask backend: a LocalCluster of two worker processes gives the same games as loky, and
a worker killed during a run costs only its unfinished chunks."""

import os
import signal
import threading

import polars as pl
import pytest
from dask.distributed import Client, LocalCluster

from sim.core.errors import UserError
from sim.runner import simulate

ARGS = dict(game_id="go-town", n_games=6000, players=3, strategies=["greedy", "attacker",
            "random"], seed=21, chunk_size=500, seating="rotate")


def _seats(root):
    return pl.read_parquet(f"{root}/seats/*.parquet").sort("game", "seat")


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as c, Client(c) as client:
        yield c, client


def test_dask_cluster_gives_the_same_games_as_loky(tmp_path, cluster):
    c, _ = cluster
    a = simulate(**ARGS, out=tmp_path / "loky", jobs=2, backend="loky")
    b = simulate(**ARGS, out=tmp_path / "dask", backend="dask", scheduler=c.scheduler_address)
    assert _seats(a).equals(_seats(b))
    ga = pl.read_parquet(f"{a}/games/*.parquet").sort("game")
    gb = pl.read_parquet(f"{b}/games/*.parquet").sort("game")
    assert ga.equals(gb)


def test_a_killed_worker_costs_only_its_chunks(tmp_path, cluster):
    c, client = cluster
    pids = list(client.run(os.getpid).values())
    killed = threading.Event()

    def progress(done, total):
        if done > 0 and not killed.is_set():
            killed.set()
            os.kill(pids[0], signal.SIGKILL)  # the nanny restarts it; its tasks are redone

    root = simulate(**ARGS, out=tmp_path / "r", backend="dask",
                    scheduler=c.scheduler_address, progress=progress)
    assert killed.is_set()
    seats = _seats(root)
    assert seats["game"].n_unique() == 6000 and seats.height == 18000
    assert _seats(simulate(**ARGS, out=tmp_path / "ref", jobs=1)).equals(seats)


def test_unreachable_scheduler_is_a_clear_error(tmp_path):
    with pytest.raises(UserError, match="cannot reach the dask scheduler"):
        simulate(**{**ARGS, "n_games": 10}, out=tmp_path / "x", backend="dask",
                 scheduler="tcp://127.0.0.1:9")
