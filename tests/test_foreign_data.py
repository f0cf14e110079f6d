"""Runs refuse foreign data (issue 29): every chunk records its run (identity, engine version,
table and number, a checksum of its content, in its Parquet metadata); ``simulate`` (resume),
``report`` and ``replay`` check it against the manifest and refuse a mismatch with one line
naming the chunk; ``replay`` refuses a game whose chunk is missing or damaged; a manifest's
overrides and strategies must match what its chunks record."""

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from analysis.cli import main as cli_main
from sim.runner import simulate


def run_cli(capsys, *args) -> tuple[int, str, str]:
    try:
        cli_main([str(a) for a in args])
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
    assert contains in lines[0], lines[0]
    return lines[0]


ARGS = dict(n_games=800, players=2, chunk_size=200)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two finished go-town runs that differ only in their seed (4 chunks of 200), and a pool
    run of two bots."""
    base = tmp_path_factory.mktemp("foreign")
    a, b, pool = base / "seed3", base / "seed4", base / "pool"
    simulate("go-town", strategies=["greedy", "random"], seed=3, out=a, **ARGS)
    simulate("go-town", strategies=["greedy", "random"], seed=4, out=b, **ARGS)
    simulate("go-town", strategies=["greedy", "random"], seed=3, out=pool, seating="pool",
             **ARGS)
    return a, b, pool


def _copy(src: Path, tmp_path: Path, name: str = "copy") -> Path:
    dst = tmp_path / name
    shutil.copytree(src, dst)
    return dst


def _edit_manifest(run: Path, **fields) -> None:
    m = json.loads((run / "manifest.json").read_text())
    for k, v in fields.items():
        m[k] = v
        if k in m["identity"] or k == "overrides":
            m["identity"][k] = v
    (run / "manifest.json").write_text(json.dumps(m))


def test_every_chunk_records_its_run(runs):
    a, _b, _pool = runs
    m = json.loads((a / "manifest.json").read_text())
    for t in ("games", "seats"):
        meta = pl.read_parquet_metadata(a / t / "chunk-000002.parquet")
        ident = json.loads(meta["boardsim.run"])
        assert ident == {"overrides": {}, **m["identity"],
                         "engine_version": m["engine_version"]}
        assert ident["seed"] == 3 and ident["strategies"] == ["greedy", "random"]
        assert meta["boardsim.chunk"] == f"{t}/2"
        assert len(meta["boardsim.digest"]) == 32


def test_resume_refuses_a_foreign_seats_chunk(capsys, runs, tmp_path):
    """An unfinished run whose folder holds a seats chunk of another seed's run: the resume
    used to finish and mix the two runs."""
    a, b, _pool = runs
    r = _copy(a, tmp_path)
    for t in ("games", "seats"):  # interrupted: chunk 3 never written
        (r / t / "chunk-000003.parquet").unlink()
    _edit_manifest(r, complete=False)
    shutil.copy(b / "seats" / "chunk-000001.parquet", r / "seats" / "chunk-000001.parquet")
    line = one_line(capsys, "simulate", "go-town", "-n", 800, "-p", 2, "-s", "greedy,random",
                    "--seed", 3, "--chunk-size", 200, "--out", r,
                    contains="seats/chunk-000001.parquet: a chunk of another run (seed: "
                             "chunk 4, manifest 3)")
    assert line
    assert not (r / "games" / "chunk-000003.parquet").exists()  # nothing played
    assert json.loads((r / "manifest.json").read_text())["complete"] is False


def test_report_refuses_a_foreign_chunk(capsys, runs, tmp_path):
    a, b, _pool = runs
    r = _copy(a, tmp_path)
    shutil.copy(b / "seats" / "chunk-000002.parquet", r / "seats" / "chunk-000002.parquet")
    one_line(capsys, "report", r, "--out", tmp_path / "rep",
             contains="seats/chunk-000002.parquet: a chunk of another run (seed: chunk 4, "
                      "manifest 3)")
    assert not (tmp_path / "rep").exists()


def test_report_refuses_a_forged_manifest(capsys, runs, tmp_path):
    """Overrides or a strategy list the chunks do not record, though the manifest is
    consistent in itself (its identity edited too)."""
    a, _b, pool = runs
    r = _copy(a, tmp_path, "overrides")
    _edit_manifest(r, overrides={"cards.dog.count": 5})
    one_line(capsys, "report", r, "--out", tmp_path / "rep",
             contains="games/chunk-000000.parquet: a chunk of another run (overrides: chunk "
                      '{}, manifest {"cards.dog.count": 5})')
    r = _copy(pool, tmp_path, "superset")  # a pool of three where the games had two
    _edit_manifest(r, strategies=["greedy", "random", "attacker"])
    one_line(capsys, "report", r, "--out", tmp_path / "rep",
             contains="games/chunk-000000.parquet: a chunk of another run (strategies: chunk "
                      '["greedy", "random"], manifest ["greedy", "random", "attacker"])')
    one_line(capsys, "replay", r, "--index", 5, contains="a chunk of another run (strategies")
    assert not (tmp_path / "rep").exists()


def test_a_bit_flipped_chunk_is_named(capsys, runs, tmp_path):
    """A flipped bit in a chunk: refused by name (the checks ``report`` runs first), never a
    polars error; a flip that passes changed nothing the run reads back. Byte positions over
    the whole file in steps; then ``report`` itself on one flip."""
    from sim.core.errors import UserError
    from sim.verify import verify_run

    a, _b, _pool = runs
    r = _copy(a, tmp_path)
    p = r / "seats" / "chunk-000001.parquet"
    data = p.read_bytes()
    whole = pl.read_parquet(p)
    refused = 0
    for pos in range(4, len(data) - 4, max(1, len(data) // 97)):
        flipped = bytearray(data)
        flipped[pos] ^= 0x10
        p.write_bytes(bytes(flipped))
        try:
            verify_run(r)
        except UserError as e:
            assert "\n" not in str(e) and str(e).startswith(str(p)), (pos, str(e))
            refused += 1
            continue
        assert pl.read_parquet(p).equals(whole), pos
    assert refused > 40
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x10
    p.write_bytes(bytes(flipped))
    one_line(capsys, "report", r, "--out", tmp_path / "rep",
             contains="seats/chunk-000001.parquet: ")


def test_replay_refuses_a_missing_or_damaged_chunk(capsys, runs, tmp_path):
    a, _b, _pool = runs
    r = _copy(a, tmp_path)
    code, out, err = run_cli(capsys, "replay", r, "--index", 450, "-q")
    assert code == 0 and out.startswith("Go Town: game 450 of run seed 3"), err
    (r / "games" / "chunk-000002.parquet").unlink()
    one_line(capsys, "replay", r, "--index", 450,
             contains="games/chunk-000002.parquet: missing; game 450 of this run")
    (r / "seats" / "chunk-000001.parquet").write_bytes(b"garbage" * 30)
    one_line(capsys, "replay", r, "--index", 250,
             contains="seats/chunk-000001.parquet: unreadable Parquet chunk")
    code, out, err = run_cli(capsys, "replay", r, "--index", 50, "-q")  # chunk 0 is whole
    assert code == 0, err


def test_a_chunk_copied_over_another_of_its_run_is_refused(capsys, runs, tmp_path):
    a, _b, _pool = runs
    r = _copy(a, tmp_path)
    shutil.copy(r / "seats" / "chunk-000001.parquet", r / "seats" / "chunk-000002.parquet")
    one_line(capsys, "report", r, "--out", tmp_path / "rep",
             contains="seats/chunk-000002.parquet: holds seats of games other than 400..599 "
                      "of this run")
