"""Issue 13: the rating ladder in every report (analysis/report/ladder_section.py), on synthetic
run folders whose order is known (no simulation): three bots of known strength, games stopped at
the length limit and mirror games counted apart, the weighted fit equal to the fit on every
game, orderings only where intervals separate."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from analysis import queries as q
from analysis.report import write_report
from analysis.report.ladder_section import ladder_fits, outcome_counts
from analysis.results.ladder import fit_ratings, pairwise
from tests.test_analysis import _game, write_run


def _pair_games(a: str, b: str, a_wins: int, n: int) -> list[dict]:
    """``n`` games of ``a`` against ``b`` in each seat order, ``a`` winning ``a_wins`` of each
    order's ``n``."""
    out = []
    for i in range(n):
        out.append(_game((a, b), [0] if i < a_wins else [1]))
        out.append(_game((b, a), [1] if i < a_wins else [0]))
    return out


def _specs() -> list[dict]:
    games = (_pair_games("strong", "middle", 70, 100) + _pair_games("strong", "weak", 90, 100)
             + _pair_games("middle", "weak", 70, 100))
    games += [_game(("strong", "weak"), [], limit=True) for _ in range(7)]   # left out
    games += [_game(("middle", "middle"), [0]) for _ in range(5)]            # no comparison
    return games


def _toy_run(tmp_path, specs, strategies=("strong", "middle", "weak")):
    run = write_run(tmp_path / "run", 2, specs, seed=3, strategies=list(strategies),
                    seating="pool")
    m = json.loads(open(f"{run}/manifest.json").read())
    m["game"] = "toy-ladder"   # no report extension
    open(f"{run}/manifest.json", "w").write(json.dumps(m))
    return run


def test_outcome_counts_aggregate_games_by_bots_and_ranks(tmp_path):
    run = _toy_run(tmp_path, _specs())
    _, seats = q.scan_runs([run])
    oc = outcome_counts(seats)
    assert oc["games"].sum() == 612
    got = {(r["bots"], r["ranks"]): r["games"] for r in oc.iter_rows(named=True)}
    assert got[("strong,middle", "1,2")] == 70
    assert got[("strong,middle", "2,1")] == 30
    assert got[("middle,strong", "2,1")] == 70
    assert got[("strong,weak", "0,0")] == 7          # limit games: no ranks
    assert got[("middle,middle", "1,2")] == 5


def test_known_order_and_the_games_left_out(tmp_path):
    run = _toy_run(tmp_path, _specs())
    _, seats = q.scan_runs([run])
    (f,) = ladder_fits(seats)
    assert f.players == 2
    assert (f.games, f.limit_games, f.rated_games, f.mirror_games) == (612, 7, 600, 5)
    assert f.limit_seats == {"middle": 0, "strong": 7, "weak": 7}
    assert f.seat_games == {"middle": 410, "strong": 407, "weak": 407}
    t = f.ratings.table
    assert t["strategy"].to_list() == ["strong", "middle", "weak"]
    assert f.ratings.comparisons == 600 and f.ratings.clusters == 600
    h = {(a, b): (s, n) for a, b, s, n in f.ratings.h2h.iter_rows()}
    assert h[("strong", "middle")] == (pytest.approx(0.7, abs=1e-12), 200)
    assert h[("strong", "weak")] == (pytest.approx(0.9, abs=1e-12), 200)
    assert h[("weak", "middle")] == (pytest.approx(0.3, abs=1e-12), 200)
    # every interval clear of the next one: strong > middle > weak
    lo, hi = t["lo"].to_list(), t["hi"].to_list()
    assert lo[0] > hi[1] and lo[1] > hi[2]
    assert abs(t["rating"].sum()) < 1e-9


def test_weighted_fit_equals_the_fit_on_every_game(tmp_path):
    """Aggregating games by outcome changes nothing: same ratings, same clustered
    covariance as one row set per game, clustered by game."""
    specs = _specs()
    run = _toy_run(tmp_path, specs)
    _, seats = q.scan_runs([run])
    (f,) = ladder_fits(seats)
    names = ["middle", "strong", "weak"]
    idx = {b: i for i, b in enumerate(names)}
    bots = np.array([[idx[b] for b in g["strats"]] for g in specs], np.int64)
    rank = np.array([[0, 0] if g["limit"] else [1 if s in g["winners"] else 2 for s in (0, 1)]
                     for g in specs], np.int64)
    pairs = pairwise(bots, rank, np.arange(len(specs))).filter(pl.col("a") != pl.col("b"))
    direct = fit_ratings(pairs, names, 2)
    assert direct.table["strategy"].to_list() == f.ratings.table["strategy"].to_list()
    for col in ("rating", "se", "lo", "hi", "score"):
        assert np.allclose(direct.table[col].to_numpy(), f.ratings.table[col].to_numpy(),
                           rtol=0, atol=1e-9), col
    assert np.allclose(direct.cov, f.ratings.cov, rtol=0, atol=1e-12)
    assert np.allclose(direct.seat["effect"].to_numpy(), f.ratings.seat["effect"].to_numpy(),
                       atol=1e-9)


def test_report_has_the_ladder_with_its_chart(tmp_path):
    run = _toy_run(tmp_path, _specs())
    out = tmp_path / "rep"
    res = write_report([run], str(out), "Toy")
    md = (out / "report.md").read_text()
    sec = md[md.index("## Rating ladder"):]
    sec = sec[: sec.index("\n## ", 5)]
    assert ("`strong` +0.96 [+0.80, +1.13], `middle` +0.00 [-0.15, +0.15], `weak` -0.96 "
            "[-1.13, -0.80] (`strong` > `middle`, `strong` > `weak`, `middle` > `weak`)") in sec
    assert "**2 players:**" in sec and "612 games: 600 rated (600 comparisons in 600 games)" in sec
    assert ("7 unfinished (stopped at the length limit or in a deadlock: 1.14%; seat-games "
            "per bot: `strong` 7, `weak` 7)") in sec
    assert "5 finished with one bot in every seat" in sec
    assert "**`random` is not on this ladder:**" in sec
    assert res["ladder"].endswith("ladder.png") and (out / "ladder.png").stat().st_size > 1000
    html = (out / "report.html").read_text()
    assert "Rating ladder: each bot" in html and "data:image/png;base64" in html
    # folded: after the verdict, among the reference sections
    assert md.index("## Rating ladder") > md.index("**Contents**")


def test_equal_bots_are_not_ordered_and_random_is_not_flagged(tmp_path):
    specs = _pair_games("random", "greedy", 50, 100)
    run = _toy_run(tmp_path, specs, strategies=("random", "greedy"))
    out = tmp_path / "rep"
    write_report([run], str(out), "Toy")
    md = (out / "report.md").read_text()
    sec = md[md.index("## Rating ladder"):]
    assert "no two separated: overlapping 95% intervals" in sec
    assert " > " not in sec[: sec.index("\n## ", 5)]
    assert "is not on this ladder" not in sec
    (f,) = ladder_fits(q.scan_runs([run])[1])
    assert np.allclose(f.ratings.table["rating"].to_numpy(), 0, atol=1e-9)


def test_one_bot_has_no_ladder(tmp_path):
    run = _toy_run(tmp_path, [_game(("greedy", "greedy"), [i % 2]) for i in range(20)],
                   strategies=("greedy",))
    out = tmp_path / "rep"
    res = write_report([run], str(out), "Toy")
    md = (out / "report.md").read_text()
    assert "**2 players:** no ladder (one bot only; 20 games)." in md
    assert (out / "ladder.png").exists() and res["ladder"]
