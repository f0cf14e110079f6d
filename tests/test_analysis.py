"""analysis: exact values on small synthetic run folders written with the runner's schema.

Run A (2 players, strategies greedy/random, 110 games):
  G1  40 x "greedy,random": seat 0 wins 30, seat 1 wins 10; the winner played a DRILL
  G2  40 x "random,greedy": seat 0 wins 20, seat 1 wins 10, 10 shared wins (both seats)
  G3  20 x "greedy,greedy": seat 0 wins 10, seat 1 wins 10; the loser played a DRILL
  G4  10 x "greedy,random": stopped at the limit (every seat "played" 5 DRILLs: must not count)
  => seat 0: 65/100, seat 1: 35/100, 10 limit games; greedy 65/120, random 35/80.
Run B (3 players, "greedy,random,random", first player drawn at random, 30 games):
  for first player f = 0, 1, 2: 10 games where the player moving first wins 6, second 3,
  third 1  => turn order 18/30, 9/30, 3/30 but every seat 10/30.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps
from statsmodels.stats.proportion import confint_proportions_2indep

from analysis import queries as q
from analysis.report import write_report
from analysis.stats import (
    cluster_difference,
    difference_half_width,
    equal_rates_pvalue,
    games_for_units,
    n_for_difference,
    n_for_mean,
    n_for_rate,
    newcombe_difference,
    rate_half_width,
    wilson_interval,
    z_value,
)

CARDS = ["1", "?", "DOG", "DRILL"]
STATUS = "confirmed: synthetic test data"

GAME_SCHEMA = {
    "game": pl.Int64, "seed": pl.UInt64, "players": pl.Int8, "options": pl.Utf8,
    "strategies": pl.Utf8, "first_player": pl.Int8, "turns": pl.Int32, "decisions": pl.Int32,
    "end_reason": pl.Utf8, "n_winners": pl.Int8, "winners": pl.List(pl.Int8),
}
SEAT_SCHEMA = {
    "game": pl.Int64, "players": pl.Int8, "seat": pl.Int8, "strategy": pl.Utf8,
    "score": pl.Int32, "rank": pl.Int8, "win_share": pl.Float64,
    **{f"played_{c}": pl.Int16 for c in CARDS},
}


def _game(strats, winners, *, first=0, limit=False, turns=20, drill=(), score_loser=2):
    return {"strats": strats, "winners": list(winners), "first": first, "limit": limit,
            "turns": turns, "drill": dict(drill), "score_loser": score_loser}


def write_run(root, players, specs, *, seed, strategies, seating, options="{}", chunks=2):
    """Write a run folder: manifest.json, games/ and seats/ split into ``chunks`` files."""
    games, seats = [], []
    for i, g in enumerate(specs):
        k = len(g["winners"])
        games.append({
            "game": i, "seed": 1000 + i, "players": players, "options": options,
            "strategies": ",".join(g["strats"]), "first_player": g["first"],
            "turns": g["turns"], "decisions": 3 * g["turns"],
            "end_reason": (g["limit"] if isinstance(g["limit"], str)
                           else "limit" if g["limit"] else "target"),
            "n_winners": k, "winners": g["winners"],
        })
        for s in range(players):
            won = s in g["winners"]
            row = {
                "game": i, "players": players, "seat": s, "strategy": g["strats"][s],
                "score": 4 if g["limit"] else (5 if won else g["score_loser"]),
                "rank": None if g["limit"] else (1 if won else 2),
                "win_share": 1.0 / k if won else 0.0,
                "played_1": 0, "played_?": 0 if g["limit"] else 1, "played_DOG": 0,
                "played_DRILL": g["drill"].get(s, 0),
            }
            seats.append(row)
    gdf = pl.DataFrame(games, schema=GAME_SCHEMA)
    sdf = pl.DataFrame(seats, schema=SEAT_SCHEMA)
    for t in ("games", "seats"):
        os.makedirs(root / t)
    cut = [round(len(specs) * j / chunks) for j in range(chunks + 1)]
    for j in range(chunks):
        gdf.slice(cut[j], cut[j + 1] - cut[j]).write_parquet(
            root / "games" / f"chunk-{j:06d}.parquet")
        part = sdf.filter(pl.col("game").is_between(cut[j], cut[j + 1] - 1))
        part.write_parquet(root / "seats" / f"chunk-{j:06d}.parquet")
    manifest = {
        "game": "go-town", "n_games": len(specs), "players": players, "strategies": strategies,
        "seating": seating, "seed": seed, "options": {"first_player": "seat0"},
        "chunk_size": 64, "data_status": STATUS, "boardsim_version": "9.9.9", "complete": True,
    }
    (root / "manifest.json").write_text(json.dumps(manifest))
    return str(root)


@pytest.fixture
def run_a(tmp_path):
    gr, rg, gg = ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy")
    specs = (
        [_game(gr, [0], drill={0: 1}) for _ in range(30)]
        + [_game(gr, [1], drill={1: 1}) for _ in range(10)]
        + [_game(rg, [0], turns=30) for _ in range(20)]
        + [_game(rg, [1], turns=30) for _ in range(10)]
        + [_game(rg, [0, 1], turns=30) for _ in range(10)]
        + [_game(gg, [0], turns=40, drill={1: 1}, score_loser=3) for _ in range(10)]
        + [_game(gg, [1], turns=40, drill={0: 1}, score_loser=3) for _ in range(10)]
        + [_game(gr, [], limit=True, turns=1000, drill={0: 5, 1: 5}) for _ in range(10)]
    )
    return write_run(tmp_path / "run_a", 2, specs, seed=11, strategies=["greedy", "random"],
                     seating="rotate")


@pytest.fixture
def run_b(tmp_path):
    specs = []
    for f in range(3):
        for pos, count in ((0, 6), (1, 3), (2, 1)):
            specs += [_game(("greedy", "random", "random"), [(f + pos) % 3], first=f)
                      for _ in range(count)]
    return write_run(tmp_path / "run_b", 3, specs, seed=12, strategies=["greedy", "random"],
                     seating="fixed", options='{"first_player": "random"}', chunks=3)


def _row(df: pl.DataFrame, **keys) -> dict:
    sel = df
    for k, v in keys.items():
        sel = sel.filter(pl.col(k) == v)
    assert len(sel) == 1, (keys, sel)
    return sel.row(0, named=True)


def _wilson(s, n, z=1.959963984540054):
    """Wilson bounds by hand (closed form)."""
    p = s / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


# ---------------------------------------------------------------- stats -------------------
def test_wilson_matches_hand_values():
    lo, hi = wilson_interval(np.array([50, 65, 0, 7]), np.array([100, 100, 10, 0]))
    assert isinstance(lo, np.ndarray) and lo.shape == (4,)
    assert round(lo[0], 4) == 0.4038 and round(hi[0], 4) == 0.5962
    assert round(lo[1], 4) == 0.5525 and round(hi[1], 4) == 0.7364
    assert lo[1] == pytest.approx(_wilson(65, 100)[0], abs=1e-12)
    assert hi[1] == pytest.approx(_wilson(65, 100)[1], abs=1e-12)
    assert lo[2] == 0.0 and hi[2] == pytest.approx(_wilson(0, 10)[1], abs=1e-12)
    assert np.isnan(lo[3]) and np.isnan(hi[3])  # n = 0: no estimate
    lo, hi = wilson_interval(10.5, 20)  # fractional (shared) wins are accepted
    assert (lo[0], hi[0]) == pytest.approx(_wilson(10.5, 20), abs=1e-12)


def test_newcombe_difference_by_hand():
    d, lo, hi = newcombe_difference([40, 5], [60, 0], [60, 5], [140, 10])
    p1, p2 = 40 / 60, 60 / 140
    (l1, u1), (l2, u2) = _wilson(40, 60), _wilson(60, 140)
    assert d[0] == pytest.approx(5 / 21, abs=1e-12)
    assert lo[0] == pytest.approx(d[0] - math.hypot(p1 - l1, u2 - p2), abs=1e-9)
    assert hi[0] == pytest.approx(d[0] + math.hypot(u1 - p1, p2 - l2), abs=1e-9)
    assert (round(lo[0], 4), round(hi[0], 4)) == (0.0872, 0.3703)
    ref = confint_proportions_2indep(40, 60, 60, 140, method="newcomb")
    assert (lo[0], hi[0]) == pytest.approx(ref, abs=1e-12)
    assert np.isnan(d[1]) and np.isnan(lo[1]) and np.isnan(hi[1])


def test_equal_rates_pvalue():
    assert equal_rates_pvalue([50, 50], 100) == pytest.approx(1.0)
    assert equal_rates_pvalue([65, 35], 100) == pytest.approx(0.002699796, abs=1e-8)
    assert math.isnan(equal_rates_pvalue([0, 0], 0))


def test_sample_size_for_a_rate():
    z = 1.959963984540054
    assert z_value() == pytest.approx(z, abs=1e-12)
    assert z_value(0.10) == pytest.approx(1.6448536269514722, abs=1e-12)
    n = n_for_rate(np.array([0.5, 0.25, 1 / 3, 0.65, 0.0, 1.0]))
    assert n.shape == (6,) and n.dtype == np.float64
    # ceil(z^2 p (1 - p) / 0.01^2): 9603.65 -> 9604, 7202.74 -> 7203, 8536.58 -> 8537, ...
    assert n.tolist() == [9604.0, 7203.0, 8537.0, 8740.0, 0.0, 0.0]
    assert n_for_rate(0.5, d=0.02).tolist() == [2401.0]  # a quarter for twice the difference
    assert n_for_rate(0.5, d=0.01, alpha=0.10).tolist() == [6764.0]
    # the requirement is the smallest n whose half-width is at most 1 point
    for p in (0.5, 0.25, 0.65, 0.1):
        k = n_for_rate(p)[0]
        assert rate_half_width(p, k)[0] <= 0.01 < rate_half_width(p, k - 1)[0]
    hw = rate_half_width([0.5, 0.65, 0.5], [100, 100, 0])
    assert hw[0] == pytest.approx(z * 0.05, abs=1e-15)  # 0.098 = ±9.8 points
    assert round(hw[1] * 100, 1) == 9.3
    assert np.isnan(hw[2])


def test_sample_size_for_a_difference_and_a_mean():
    z2 = 1.959963984540054 ** 2
    # equal groups, both rates 50%: z^2 (0.25 / 0.5 + 0.25 / 0.5) / 1e-4 = 38414.59 -> 38415
    assert n_for_difference(0.5, 7, 0.5, 7).tolist() == [38415.0]
    # a 20/80 split: z^2 (0.24 / 0.2 + 0.24 / 0.8) / 1e-4 = 57621.88 -> 57622 seat-games
    assert n_for_difference(0.6, 20, 0.4, 80).tolist() == [57622.0]
    assert n_for_difference(0.6, 200, 0.4, 800).tolist() == [57622.0]  # only the split counts
    # the component DRILL of run A: 40/60 vs 60/140 -> 41895 seat-games
    assert n_for_difference(40 / 60, 60, 60 / 140, 140).tolist() == [41895.0]
    assert np.isnan(n_for_difference([0.5], [0], [0.5], [10])).all()
    need = n_for_difference(0.6, 20, 0.4, 80)[0]
    assert difference_half_width(0.6, 0.2 * need, 0.4, 0.8 * need)[0] <= 0.01
    assert difference_half_width(0.6, 0.2 * (need - 1), 0.4, 0.8 * (need - 1))[0] > 0.01
    hw = difference_half_width([0.5, 0.5], [100, 0], [0.3, 0.3], [200, 200])
    assert hw[0] == pytest.approx(math.sqrt(z2 * (0.25 / 100 + 0.21 / 200)), abs=1e-15)
    assert round(hw[0], 6) == 0.116778 and np.isnan(hw[1])
    # mean: ceil((z sd / d)^2)
    assert n_for_mean([10.0, 1.0, float("nan")]).tolist()[:2] == [385.0, 4.0]
    assert np.isnan(n_for_mean(float("nan"))[0])
    assert n_for_mean(10.0, d=2.0).tolist() == [97.0]
    # seat-games -> games at the run's own rate: 1000 * 200 / 600 = 333.3 -> 334
    assert games_for_units(1000, 600, 200).tolist() == [334.0]
    assert games_for_units(9604, 100, 100).tolist() == [9604.0]
    assert np.isnan(games_for_units(10, 0, 5)[0])


# ---------------------------------------------------------------- queries -----------------
def test_seat_win_rates_exclude_limit_and_split_shared_wins(run_a, run_b):
    games, seats = q.scan_runs([run_a, run_b])
    df = q.seat_win_rates(seats)
    assert df.height == 5
    s0, s1 = _row(df, players=2, seat=0), _row(df, players=2, seat=1)
    assert (s0["n"], s0["wins"], s0["n_limit"]) == (100, 65.0, 10)  # 30 + 20 + 10 + 10/2
    assert (s1["n"], s1["wins"], s1["n_limit"]) == (100, 35.0, 10)
    assert s0["win_rate"] == 0.65 and s0["parity"] == 0.5
    assert (s0["lo"], s0["hi"]) == pytest.approx(_wilson(65, 100), abs=1e-12)
    assert (round(s1["lo"], 4), round(s1["hi"], 4)) == (0.2636, 0.4475)
    for seat in range(3):
        r = _row(df, players=3, seat=seat)
        assert (r["n"], r["wins"], r["n_limit"]) == (30, 10.0, 0)


def test_turn_order_uses_first_player(run_a, run_b):
    games, _ = q.scan_runs([run_a, run_b])
    df = q.turn_order_win_rates(games)
    assert [_row(df, players=3, position=k)["wins"] for k in range(3)] == [18.0, 9.0, 3.0]
    first = _row(df, players=3, position=0)
    assert first["n"] == 30 and first["win_rate"] == 0.6
    assert (first["lo"], first["hi"]) == pytest.approx(_wilson(18, 30), abs=1e-12)
    two = _row(df, players=2, position=0)  # first player is always seat 0 in run A
    assert (two["n"], two["wins"], two["n_limit"]) == (100, 65.0, 10)


def test_strategy_rates_and_matchups(run_a, run_b):
    games, seats = q.scan_runs([run_a, run_b])
    st = q.strategy_win_rates(seats)
    assert _row(st, players=2, strategy="greedy")["n"] == 120
    assert _row(st, players=2, strategy="greedy")["wins"] == 65.0
    assert _row(st, players=2, strategy="random")["wins"] == 35.0
    assert _row(st, players=2, strategy="random")["n_limit"] == 10
    assert _row(st, players=3, strategy="random")["n"] == 60
    mm = q.matchup_matrix(games)
    gr = _row(mm, players=2, strategy="greedy", opponent="random")
    assert (gr["n"], gr["wins"]) == (80, 45.0)  # 30 + 10 + 10/2
    assert (gr["lo"], gr["hi"]) == pytest.approx(_wilson(45, 80), abs=1e-12)
    rg = _row(mm, players=2, strategy="random", opponent="greedy")
    assert (rg["n"], rg["wins"], rg["win_rate"]) == (80, 35.0, 0.4375)
    gg = _row(mm, players=2, strategy="greedy", opponent="greedy")
    assert (gg["n"], gg["wins"]) == (40, 20.0)
    assert mm.filter((pl.col("players") == 2) & (pl.col("strategy") == "random")
                     & (pl.col("opponent") == "random")).is_empty()
    # 3 players: win rate of the row bot in games where another seat plays the column bot
    assert (_row(mm, players=3, strategy="greedy", opponent="random")["wins"],
            _row(mm, players=3, strategy="greedy", opponent="random")["n"]) == (10.0, 30)
    assert _row(mm, players=3, strategy="random", opponent="greedy")["wins"] == 20.0
    assert _row(mm, players=3, strategy="random", opponent="random")["n"] == 60
    assert mm.filter((pl.col("players") == 3) & (pl.col("opponent") == "greedy")
                     & (pl.col("strategy") == "greedy")).is_empty()


def test_balance_and_completion(run_a, run_b):
    games, seats = q.scan_runs([run_a, run_b])
    b = q.balance(seats, games)
    two, three = _row(b, players=2), _row(b, players=3)
    assert two["balance"] == pytest.approx(0.70, abs=1e-12)
    assert (two["best_position"], two["worst_position"], two["n"]) == (0, 1, 100)
    # run B: the first player rotates, so every seat wins 10 of 30 (Balance 1.0 by seat
    # number), but by turn order the first player wins 18, the second 9, the third 3
    assert three["balance"] == pytest.approx(1 - (18 - 3) / 30, abs=1e-12)
    assert (three["best_position"], three["worst_position"]) == (0, 2)
    assert three["p_equal"] == pytest.approx(sps.chisquare([18, 9, 3]).pvalue, abs=1e-12)
    # Ludii's multi-player Balance: rank-based partial wins (winner 1, the two rank-2 seats
    # 0.5): position 0 0.6 + 0.4 * 0.5 = 0.8, position 2 0.1 + 0.9 * 0.5 = 0.55
    assert three["balance_rank"] == pytest.approx(1 - (0.8 - 0.55), abs=1e-12)
    with pytest.raises(ValueError, match="turn order"):
        q.balance(seats)
    c = q.completion(games)
    r = _row(c, players=2)
    assert (r["n"], r["finished"], r["limit"], r["draws"], r["shared"]) == (110, 100, 10, 0, 10)
    assert r["limit_rate"] == pytest.approx(10 / 110, abs=1e-12)
    assert (r["limit_lo"], r["limit_hi"]) == pytest.approx(_wilson(10, 110), abs=1e-12)
    assert _row(c, players=3)["limit"] == 0


def test_score_and_length_distributions(run_a):
    games, seats = q.scan_runs([run_a])
    sc = _row(q.score_distribution(seats), players=2)
    sample = np.array([5] * 110 + [2] * 70 + [3] * 20, float)  # limit games (score 4) left out
    assert sc["n"] == 200 and sc["mean"] == 3.75
    assert sc["sd"] == pytest.approx(sample.std(ddof=1), abs=1e-12)
    assert [sc[f"q{k:02d}"] for k in (5, 25, 50, 75, 95)] == [2.0, 2.0, 5.0, 5.0, 5.0]
    ln = q.length_distribution(games)
    t = _row(ln, players=2, measure="turns")
    turns = np.array([20] * 40 + [30] * 40 + [40] * 20, float)
    assert (t["n"], t["mean"], t["q50"]) == (100, 28.0, 30.0)
    assert [t[f"q{k:02d}"] for k in (5, 25, 50, 75, 95)] == pytest.approx(
        np.quantile(turns, [0.05, 0.25, 0.5, 0.75, 0.95]).tolist(), abs=1e-12)
    assert _row(ln, players=2, measure="decisions")["mean"] == 84.0
    counts = q.length_counts(games)
    assert _row(counts, players=2, turns=1000)["count"] == 10
    assert _row(counts, players=2, turns=1000)["finished"] is False


def test_component_impact(run_a):
    _, seats = q.scan_runs([run_a])
    ci = q.component_impact(seats)
    assert ci.height == len(CARDS)
    top = ci.row(0, named=True)
    assert top["component"] == "DRILL" and top["column"] == "played_DRILL"
    assert (top["n_with"], top["wins_with"], top["n_without"], top["wins_without"]) == (
        60, 40.0, 140, 60.0)
    assert top["diff"] == pytest.approx(5 / 21, abs=1e-12)
    # the interval is clustered by game (issue 15): equal to analysis.stats.
    # cluster_difference on the seat rows, and wider than the independent (Newcombe) one,
    # (0.0872, 0.3703), since a holder's win is the other seat's loss
    rows = (seats.filter(pl.col("rank").is_not_null()).select("game", "win_share",
                                                              "played_DRILL").collect())
    want = cluster_difference(rows["win_share"].to_numpy(),
                              rows["played_DRILL"].to_numpy() > 0, rows["game"].to_numpy())
    assert (top["lo"], top["hi"], top["p"]) == pytest.approx(
        (want["lo"], want["hi"], want["p"]), rel=1e-9)
    assert top["hi"] - top["lo"] > 0.3703 - 0.0872
    assert top["games"] == 100
    # never used (DOG, 1) or always used (?): no comparison, sorted last
    for name in ("1", "?", "DOG"):
        r = _row(ci, component=name)
        assert r["diff"] is None
    assert _row(ci, component="?")["n_without"] == 0


# ---------------------------------------------------------------- report ------------------
def test_write_report(run_a, run_b, tmp_path):
    out = tmp_path / "report"
    res = write_report([run_a, run_b], str(out), game_title="Go Town")
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    assert res["markdown"] == str(out / "report.md") and res["html"] == str(out / "report.html")
    assert md.startswith("# Balance report: Go Town\n\n## Verdict\n")
    head = md[md.index("## Runs and settings"): md.index("## Notes on method")]
    for line in (
        "**Games:** 110 + 30 = 140 in total (2 runs)",
        "**Run seeds:** 11, 12",
        "**Bot mix / seating:** run 1: greedy, random (rotate); run 2: greedy, random (fixed)",
        "**Rule options differing from defaults:** run 1: defaults; run 2: first_player=random",
        f"**Component data status:** {STATUS}",
        "**boardsim version:** 9.9.9",
        "**Date:** ",
        "Seat 1 = the first seat, which is seat 0 in the data files",
    ):
        assert line in head, line
    assert ("Seat 1 wins 65.0% [55.3, 73.6] of 2-player games against a parity of 50%: "
            "an advantage of +15.0 points") in md
    assert ("The first player wins 60.0% [42.3, 75.4] of 3-player games against a parity "
            "of 33.3%") in md
    assert "seats that played **DRILL** win 66.7% vs 42.9%" in md
    assert "difference +23.8 [6.6, 41.0]" in md  # clustered by game (Newcombe: [8.7, 37.0])
    assert "association, not causation" in md
    assert "| 2 | Seat 1 | 100 | 65 | 65.0% | [55.3, 73.6] | 50% | 10 |" in md
    assert "| 2 | 110 | 100 | 0 | 10 | 10 | 9.09% | [5.01, 15.93] |" in md  # 10 shared wins
    for key in ("seat_win_rates", "game_length", "matchups", "component_impact",
                "turn_order_win_rates", "ladder"):
        name = os.path.basename(res[key])
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({name})" in md
        assert f'src="{name}"' not in html
    assert html.count("data:image/png;base64,") == 8  # 2 in the verdict, 1 the ladder
    assert "<table>" in html and "<strong>DRILL</strong>" in html
    assert "Seat 1 wins 65.0% [55.3, 73.6] of 2-player games" in html
    assert "Seat 1 wins 65.0% [55.3, 73.6] of 2-player games" in res["summary"]
    assert not [f for f in os.listdir(out) if "tmp" in f]
    # header: no overrides in these manifests
    assert "**Component data overrides:** component data as printed (both runs)" in head
    # sample size: rows with exact requirements (see test_sample_size_*)
    size = md[md.index("## Sample size"): md.index("## Notes on method")]
    for row in (
        "| 2 | Seat 1 win rate | 65.0% [55.3, 73.6] | finished games | 100 | 8,740 | ±9.3 | "
        "8,740 | 100 | **no** |",
        "| 2 | `greedy` win rate | 54.2% [45.3, 62.8] | seat-games | 120 | 9,537 | ±8.9 | "
        "7,948 | 100 | **no** |",
        "| 2 | `greedy` minus `random` | +10.4 [-3.7, 23.9] | seat-games | 200 | 39,529 | "
        "±14.1 | 19,765 | 100 | **no** |",
        # clustered by game: independent N = 41,895 (±14.5) times the design effect
        # (h_c / h)^2 = (0.1720 / 0.1447)^2 = 1.41 (checked below)
        "| 2 | **DRILL**: played minus not | +23.8 [6.6, 41.0] | seat-games, clustered by game "
        "(design effect 1.41) | 200 | 59,198 | ±17.2 | 29,599 | 100 | **no** |",
        "| 2 | Mean score (score points) | 3.75 (sd 1.41) | seat-games | 200 | 8 | ±0.20 | "
        "4 | 100 | yes |",
        "| 3 | First player's win rate (turn order) | 60.0% [42.3, 75.4] | finished games | 30 "
        "| 9,220 | ±17.5 | 9,220 | 30 | **no** |",
    ):
        assert row in size, row
    drill = q.component_impact(q.scan_runs([str(run_a)])[1]).row(0, named=True)
    h_c = max(drill["diff"] - drill["lo"], drill["hi"] - drill["diff"])
    h = float(difference_half_width(40 / 60, 60, 60 / 140, 140)[0])
    assert (round(h, 4), round(h_c, 4)) == (0.1447, 0.1720)
    assert math.ceil(41_895 * (h_c / h) ** 2) == 59_198 and math.ceil(59_198 / 2) == 29_599
    # the first seat is fixed at 2 players: no separate turn-order row there
    assert "| 2 | First player's win rate" not in size
    assert ("2 players: the largest requirement is **29,599** finished games (**DRILL**: "
            "played minus not); the run has 100 (0.34% of it)") in size
    assert "the two groups together need N = ⌈1.96²·(p₁(1−p₁)/r + p₂(1−p₂)/(1−r))/d²⌉" in md
    # every headline claim gets its warning
    heads = md[md.index("## Headline answers"): md.index("## Seat win rates")]
    assert heads.count("⚠") == 5
    assert ("n = 100 finished games. ⚠ **Too few games for 1-point resolution:** this run "
            "resolves ±9.3 points; ±1 point needs about 8,740 finished 2-player games (100 in "
            "the run).") in heads
    assert ("parity 50%; `greedy` and `random` are indistinguishable (overlapping 95% "
            "intervals). ⚠ **Direction not established at this sample size:** the interval of "
            "the difference `greedy` minus `random`, +10.4 [-3.7, 23.9] points, includes 0"
            ) in heads
    assert "n = 60 vs 140 seat-games). ⚠ **Too few games for 1-point resolution:**" in heads
    assert "⚠ <strong>Direction not established" in html
    assert ("Highest win rate (indistinguishable from the lowest) at 2 players: greedy 54.2% "
            "[45.3, 62.8]. [too few games to tell best from worst]") in res["summary"]
    summ = json.loads((out / "summary.json").read_text())
    assert res["summary_json"] == str(out / "summary.json")
    assert (summ["game"], summ["title"], summ["games_played"]) == ("go-town", "Go Town", 140)
    assert summ["players"] == [2, 3] and summ["seeds"] == [11, 12]
    assert summ["data_status"] == STATUS and summ["overrides"] == {}
    assert summ["bot_mix"] == "greedy, random (rotate); greedy, random (fixed)"
    f2, f3 = summ["first_seat"]
    assert (f2["players"], f2["who"], f2["n"], f2["win_rate"]) == (2, "Seat 1", 100, 0.65)
    assert (f2["lo"], f2["hi"]) == pytest.approx(_wilson(65, 100), abs=1e-12)
    assert f2["games_for_1_point"] == 8740
    assert (f3["who"], f3["n"], f3["win_rate"]) == ("The first player", 30, 0.6)
    # Go Town's game-specific answers (analysis/games/go_town): deadlocks and length in rounds
    # (the deadlocks are the verdict's rule-hole row; their answer is folded, in full)
    assert len(summ["answers"]) == 1 and len(summ["headlines"]) == 7
    assert summ["answers"][0].startswith("**Length in rounds**")
    assert ("**Deadlocks (a rule hole):** 2p 0.00% [0.00, 3.37] (0 of 110); 3p 0.00% [0.00, "
            "11.35]") in md[md.index("## Game-specific answers in full"):]
    assert [r["folder"] for r in summ["runs"]] == ["run_a", "run_b"]


def test_sample_size_warnings_only_where_due(tmp_path):
    """A 2-player run large enough for 1 point (seat 1 wins 11,000 of 20,000: 9,508 needed)
    and a small 3-player run at parity (99 of 297 for each turn-order position)."""
    big = write_run(tmp_path / "big", 2,
                    [_game(("greedy", "greedy"), [0]) for _ in range(11_000)]
                    + [_game(("greedy", "greedy"), [1]) for _ in range(9_000)],
                    seed=1, strategies=["greedy"], seating="fixed")
    small = write_run(tmp_path / "small", 3,
                      [_game(("greedy", "random", "random"), [(f + pos) % 3], first=f)
                       for f in range(3) for pos in range(3) for _ in range(33)],
                      seed=2, strategies=["greedy", "random"], seating="fixed")
    res = write_report([big, small], str(tmp_path / "rep"), game_title="Go Town")
    md = open(res["markdown"]).read()
    heads = md[md.index("## Headline answers"): md.index("## Seat win rates")]
    two = next(x for x in heads.splitlines() if "of 2-player games" in x)
    assert two.startswith("- Seat 1 wins 55.0% [54.3, 55.7] of 2-player games")
    assert "⚠" not in two  # 20,000 finished games >= 9,508 needed
    three = next(x for x in heads.splitlines() if "of 3-player games" in x)
    assert "consistent with parity" in three
    assert three.endswith("±1 point needs about 8,537 finished 3-player games (297 in the "
                          "run), so an advantage or disadvantage smaller than that cannot be "
                          "ruled out.")
    assert "| 2 | Seat 1 win rate | 55.0% [54.3, 55.7] | finished games | 20,000 | 9,508 | " \
        "±0.7 | 9,508 | 20,000 | yes |" in md
    assert "2 players: every seat played `greedy` (mirror matches)" in heads


def test_write_report_refuses_mixed_games(run_a, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    for t in ("games", "seats"):
        (other / t).mkdir()
    m = json.loads((tmp_path / "run_a" / "manifest.json").read_text())
    (other / "manifest.json").write_text(json.dumps({**m, "game": "province"}))
    with pytest.raises(ValueError, match="different games"):
        write_report([run_a, str(other)], str(tmp_path / "out"))


def test_clustered_differences_any_grouping(run_a):
    """Seat 1 vs seat 2 of the 2-player fixture: 65 - 35 wins of 100 finished games; the two
    seats of a game are perfectly anti-correlated, so the clustered interval is that of the
    per-game difference (issue 15)."""
    _, seats = q.scan_runs([run_a])
    df = q.clustered_differences(seats, {"seat 1": pl.col("seat") == 0})
    r = _row(df, group="seat 1")
    assert (r["n_with"], r["wins_with"], r["n_without"], r["wins_without"], r["games"]) == (
        100, 65.0, 100, 35.0, 100)
    assert r["diff"] == pytest.approx(0.30, abs=1e-12)
    rows = seats.filter(pl.col("rank").is_not_null()).collect()
    want = cluster_difference(rows["win_share"].to_numpy(), rows["seat"].to_numpy() == 0,
                              rows["game"].to_numpy())
    assert (r["lo"], r["hi"]) == pytest.approx((want["lo"], want["hi"]), rel=1e-9)
    # among: only the games greedy played in seat 1 (30 + 10 of them finished)
    sub = q.clustered_differences(seats, {"seat 1": pl.col("seat") == 0},
                                  among=pl.col("strategy").is_in(["greedy", "random"])
                                  & (pl.col("game") < 40))
    assert _row(sub, group="seat 1")["games"] == 40
