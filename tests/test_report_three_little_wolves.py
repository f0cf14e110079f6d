"""The Three Little Wolves report extension (analysis/games/three_little_wolves/).

Synthetic run folders with the runner's schema and the game's seat detail columns, built so
that every asserted value can be worked out by hand (see each test), plus one end-to-end run
of the real game through every role of ``default_plan`` at a tiny scale.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import polars as pl
import pytest
from statsmodels.stats.multitest import multipletests

from analysis import queries as q
from analysis.games import three_little_wolves as tlw
from analysis.report import write_report
from analysis.stats import Z95, bh_adjust, newcombe_difference, wilson_interval
from tests.clustered import clustered_diff

Z = Z95
PTS = [f"pts_{c}" for c in tlw.COMPONENTS]
DETAIL = PTS + ["act_build", "act_wolf", "act_discard", "houses_built", "houses_collapsed",
                "houses_saved_by_tie", "bonus_lost_to_tie", "wolves_placed", "wolves_standing",
                "cards_under_last_pig"]
GAME_SCHEMA = {
    "game": pl.Int64, "seed": pl.UInt64, "players": pl.Int8, "options": pl.Utf8,
    "strategies": pl.Utf8, "first_player": pl.Int8, "turns": pl.Int32, "decisions": pl.Int32,
    "end_reason": pl.Utf8, "n_winners": pl.Int8, "winners": pl.List(pl.Int8),
}
SEAT_SCHEMA = {
    "game": pl.Int64, "players": pl.Int8, "seat": pl.Int8, "strategy": pl.Utf8,
    "score": pl.Int32, "rank": pl.Int8, "win_share": pl.Float64,
    **{c: pl.Int16 for c in DETAIL},
}


def seat(strategy="greedy", share=0.0, **detail):
    """One seat of a game: its strategy, win share and any detail columns (0 if not given);
    the score is the sum of the pts_* columns."""
    return {"strategy": strategy, "share": share, **detail}


def write_run(root, players, games, *, strategies, seating="pool", seed=1, options=None,
              turns=None):
    """``games``: list of (seats, finished); writes manifest, games/ and seats/ (2 chunks)."""
    g_rows, s_rows = [], []
    for i, (seats, finished) in enumerate(games):
        assert len(seats) == players
        winners = [k for k, s in enumerate(seats) if s["share"] > 0] if finished else []
        g_rows.append({
            "game": i, "seed": 100 + i, "players": players, "options": "{}",
            "strategies": ",".join(s["strategy"] for s in seats), "first_player": 0,
            "turns": (turns[i] if turns else 40), "decisions": 90,
            "end_reason": "scored" if finished else "limit", "n_winners": len(winners),
            "winners": winners,
        })
        scores = [sum(s.get(c, 0) for c in PTS) for s in seats]
        for k, s in enumerate(seats):
            better = sum(1 for j in range(players) if scores[j] > scores[k])
            s_rows.append({
                "game": i, "players": players, "seat": k, "strategy": s["strategy"],
                "score": scores[k], "rank": (1 + better) if finished else None,
                "win_share": s["share"] if finished else 0.0,
                **{c: s.get(c, 0) for c in DETAIL},
            })
    gdf = pl.DataFrame(g_rows, schema=GAME_SCHEMA)
    sdf = pl.DataFrame(s_rows, schema=SEAT_SCHEMA)
    os.makedirs(root / "games")
    os.makedirs(root / "seats")
    half = (len(games) + 1) // 2
    for j, (a, b) in enumerate(((0, half), (half, len(games)))):
        gdf.filter(pl.col("game").is_between(a, b - 1)).write_parquet(
            root / "games" / f"chunk-{j:06d}.parquet")
        sdf.filter(pl.col("game").is_between(a, b - 1)).write_parquet(
            root / "seats" / f"chunk-{j:06d}.parquet")
    manifest = {"game": "three-little-wolves", "n_games": len(games), "players": players,
                "strategies": strategies, "seating": seating, "seed": seed,
                "options": {"card_set": "cards_v1", **(options or {})}, "chunk_size": 10,
                "data_status": "synthetic", "boardsim_version": "9.9.9", "complete": True}
    (root / "manifest.json").write_text(json.dumps(manifest))
    return str(root)


def scan(*runs):
    return q.scan_runs(list(runs))


# ---------------------------------------------------------------- roles ------------------
def test_run_table_reads_roles_manifests_and_card_sets():
    manifests = [
        {"players": 3, "strategies": ["random", "greedy"], "options": {"card_set": "cards_v1"}},
        {"players": 3, "strategies": ["random"], "options": {"card_set": "cards_v2"}},
        {"players": 4, "strategies": ["greedy"], "options": {"card_set": "cards_v0"}},
        {"players": 4, "strategies": ["no-wolf", "greedy", "greedy", "greedy"],
         "options": {"card_set": "cards_v0"}},
        {"players": 2, "strategies": ["hostile", "greedy"]},
        {"players": 2, "strategies": ["x"]},
    ]
    roles = {0: "main", 1: "cards:cards_v2", 2: "wolf:allowed:cards_v0",
             3: "wolf:forbidden:cards_v0", 4: "dummy:hostile:cards_v2", 5: "setup:odd"}
    runs = tlw.run_table(manifests, roles)
    assert [r["kind"] for r in runs] == ["pool", "pool", "wolf", "wolf", "dummy", "other"]
    assert [r["arm"] for r in runs] == ["", "", "allowed", "forbidden", "hostile", ""]
    # the manifest wins; without options the role's last part, else the default
    assert [r["card_set"] for r in runs] == ["cards_v1", "cards_v2", "cards_v0", "cards_v0",
                                             "cards_v2", "cards_v1"]
    assert runs[3]["focal"] == "no-wolf" and runs[4]["focal"] == "hostile"
    assert tlw.pool_runs(runs) == {"cards_v1": [0], "cards_v2": [1]}
    assert tlw.study_pairs(runs, "wolf", "forbidden", "allowed") == [
        {"card_set": "cards_v0", "players": 4, "control_run": 3, "treated_run": 2}]
    assert tlw.study_pairs(runs, "dummy", "neutral", "hostile") == []  # one arm only


def test_default_plan_roles_are_complete():
    from sim.registry import get_game

    plan = get_game("three-little-wolves").default_plan()
    names = [e["name"] for e in plan]
    assert len(set(names)) == len(names)
    assert all("role" in e for e in plan)
    main = [e for e in plan if e["role"] == "main"]
    assert sorted(e["players"] for e in main) == [2, 3, 4]
    assert all("card_set" not in e.get("options", {}) for e in main)
    manifests = [{"players": e["players"], "strategies": e["strategies"],
                  "options": e.get("options", {})} for e in plan]
    runs = tlw.run_table(manifests, {i: e["role"] for i, e in enumerate(plan)})
    assert {cs for cs in tlw.pool_runs(runs)} == set(tlw.SETS)
    wolf = tlw.study_pairs(runs, "wolf", "forbidden", "allowed")
    assert {(r["card_set"], r["players"]) for r in wolf} == {
        (cs, p) for cs in tlw.SETS for p in (2, 3, 4)}
    dummy = tlw.study_pairs(runs, "dummy", "neutral", "hostile")
    assert {r["card_set"] for r in dummy} == set(tlw.SETS)
    for pr in wolf + dummy:
        a, b = plan[pr["control_run"]], plan[pr["treated_run"]]
        # same seeds and games, the same rules in both arms
        assert (a["seed"], a["n_games"], a["options"]) == (b["seed"], b["n_games"],
                                                           b["options"])
    for pr in wolf:
        assert plan[pr["control_run"]]["strategies"][0] == "no-wolf"
        assert plan[pr["control_run"]]["options"]["pure_discard_allowed"] is True
    for e in plan:  # an even number of whole chunks keeps both cores busy
        k, r = divmod(e["n_games"], e["chunk_size"])
        assert r == 0 and k % 2 == 0, e["name"]


# ---------------------------------------------------------------- score components -------
def test_score_components_means_shares_and_winners(tmp_path):
    # finished seat-games (score): g0 16/8, g1 5/16, g2 8/8 (shared win), g3 at the limit
    games = [
        ([seat(share=1, pts_houses=8, pts_collapses=-1, pts_bonuses=3, pts_pigs=2,
               pts_wolves=4),
          seat(pts_houses=4, pts_collapses=-2, pts_wolves=3, pts_marks=3)], True),
        ([seat(pts_houses=4, pts_pigs=3, pts_marks=-2),
          seat(share=1, pts_houses=8, pts_bonuses=3, pts_wolves=5)], True),
        ([seat(share=0.5, pts_houses=4, pts_wolves=4), seat(share=0.5, pts_houses=8)], True),
        ([seat(pts_houses=100), seat(pts_houses=100, pts_wolves=50)], False),
    ]
    run = write_run(tmp_path / "r", 2, games, strategies=["greedy"])
    _, seats = scan(run)
    df = tlw.score_components(seats)
    row = {r["component"]: r for r in df.iter_rows(named=True)}
    assert set(row) == {*tlw.COMPONENTS, "score"}
    h = row["houses"]
    assert h["n"] == 6 and h["mean"] == pytest.approx(6.0)
    sd = np.std([8, 4, 4, 8, 4, 8], ddof=1)
    assert h["sd"] == pytest.approx(sd)
    assert h["lo"] == pytest.approx(6 - Z * sd / math.sqrt(6))
    assert h["share"] == pytest.approx(36 / 61)
    assert row["wolves"]["share"] == pytest.approx(16 / 61)
    assert row["collapses"]["share"] == pytest.approx(-3 / 61)
    assert row["marks"]["mean"] == pytest.approx(1 / 6)
    assert row["score"]["share"] == pytest.approx(1.0)
    assert row["score"]["share_lo"] == pytest.approx(1.0)  # a ratio of a total to itself
    # winners: g0 seat 0 (8), g1 seat 1 (8), g2 both at 1/2 (4 and 8): 22 / 3
    assert h["winner_mean"] == pytest.approx(22 / 3)
    assert sum(row[c]["share"] for c in tlw.COMPONENTS) == pytest.approx(1.0)
    # the share interval: the linearised ratio estimator, by hand
    x = np.array([8, 4, 4, 8, 4, 8], float)
    s = np.array([16, 8, 5, 16, 8, 8], float)
    r = x.sum() / s.sum()
    se = math.sqrt(((x - r * s) ** 2).sum() / (6 * 5)) / s.mean()
    assert h["share_lo"] == pytest.approx(r - Z * se)
    assert h["share_hi"] == pytest.approx(r + Z * se)


# ---------------------------------------------------------------- paired study -----------
def _paired_runs(tmp_path):
    """Forbidden arm: seat g % 2 plays no-wolf; allowed arm: all greedy, same games.
    Focal seat's share allowed [1, 1, 0, 1, .5, 1], forbidden [0, 1, 0, 0, .5, 0] with game 5
    at the limit in the forbidden arm; scores allowed [20, 22, 15, 25, 18], forbidden
    [12, 22, 15, 16, 18]; wolf actions allowed [2, 0, 0, 3, 0], forbidden 0."""
    sa = [1, 1, 0, 1, 0.5, 1]
    sf = [0, 1, 0, 0, 0.5, 0]
    xa = [20, 22, 15, 25, 18, 30]
    xf = [12, 22, 15, 16, 18, 30]
    wa = [2, 0, 0, 3, 0, 1]
    allowed, forbidden = [], []
    for g in range(6):
        f = g % 2

        def pair(share, score, wolves, strat, f=f):
            focal = seat(strat, share, pts_houses=score, act_wolf=wolves)
            other = seat("greedy", 1 - share, pts_houses=17, act_wolf=2)
            return [focal, other] if f == 0 else [other, focal]

        allowed.append((pair(sa[g], xa[g], wa[g], "greedy"), True))
        forbidden.append((pair(sf[g], xf[g], 0, "no-wolf"), g != 5))
    ra = write_run(tmp_path / "allowed", 2, allowed, strategies=["greedy"], seating="fixed")
    rf = write_run(tmp_path / "forbidden", 2, forbidden, strategies=["no-wolf", "greedy"],
                   seating="rotate")
    return ra, rf


def test_paired_effect_by_hand(tmp_path):
    ra, rf = _paired_runs(tmp_path)
    _, seats = scan(ra, rf)
    e = tlw.paired_effect(seats, treated_run=0, control_run=1, focal_run=1,
                          focal_strategy="no-wolf")
    assert e["n"] == 5
    assert e["rate_t"] == pytest.approx(0.7) and e["rate_c"] == pytest.approx(0.3)
    lo, hi = wilson_interval(3.5, 5)
    assert (e["t_lo"], e["t_hi"]) == pytest.approx((lo[0], hi[0]))
    # d = [1, 0, 0, 1, 0]: mean .4, sample variance .3
    se = math.sqrt(0.3 / 5)
    assert e["diff"] == pytest.approx(0.4)
    assert e["se"] == pytest.approx(se)
    assert (e["lo"], e["hi"]) == pytest.approx((0.4 - Z * se, 0.4 + Z * se))
    assert e["p"] == pytest.approx(2 * (1 - 0.5 * (1 + math.erf(0.4 / se / math.sqrt(2)))))
    # score differences [8, 0, 0, 9, 0]
    assert e["score_diff"] == pytest.approx(3.4)
    sse = np.std([8, 0, 0, 9, 0], ddof=1) / math.sqrt(5)
    assert e["score_lo"] == pytest.approx(3.4 - Z * sse)
    assert e["wolf_t"] == pytest.approx(1.0) and e["wolf_c"] == 0
    # points per wolf action 17 / 5; residuals [1.2, 0, 0, -1.2, 0] -> se sqrt(2.88 / 20) / 1
    assert e["per_wolf"] == pytest.approx(3.4)
    assert e["per_wolf_hi"] == pytest.approx(3.4 + Z * math.sqrt(2.88 / 20))
    assert e["same"] == pytest.approx(0.6)
    # the focal seat can also be taken from the treated arm (the dummy study's layout):
    # with the arms swapped every difference changes sign
    e2 = tlw.paired_effect(seats, treated_run=1, control_run=0, focal_run=1,
                           focal_strategy="no-wolf")
    assert e2["diff"] == pytest.approx(-0.4) and e2["per_wolf"] == pytest.approx(3.4)


def test_paired_effect_without_pairs_is_nan(tmp_path):
    ra, rf = _paired_runs(tmp_path)
    _, seats = scan(ra, rf)
    e = tlw.paired_effect(seats, 0, 1, 1, "hostile")
    assert e["n"] == 0 and math.isnan(e["diff"]) and math.isnan(e["per_wolf"])


# ---------------------------------------------------------------- wolves in the pool -----
def _pool_run(tmp_path):
    """2p pool, 5 finished games and 1 limit game. Seats as (wolf actions, win share):
    greedy (0, 1), (1, 0), (2, 1), (3, .5), (2, 0); wolf-bettor (3, 0), (3, .5);
    no-wolf (0, 1), (1, 0); random (3, 1)."""
    g = "greedy"
    games = [
        ([seat(g, 1, act_wolf=0, pts_wolves=0), seat("wolf-bettor", 0, act_wolf=3,
                                                     pts_wolves=12, wolves_placed=3,
                                                     wolves_standing=2)], True),
        ([seat(g, 0, act_wolf=1, pts_wolves=4, wolves_placed=1, wolves_standing=1),
          seat("no-wolf", 1, act_wolf=0)], True),
        ([seat(g, 1, act_wolf=2, pts_wolves=8, wolves_placed=2, wolves_standing=2),
          seat("no-wolf", 0, act_wolf=1, pts_wolves=3, wolves_placed=1,
               wolves_standing=1)], True),
        ([seat(g, 0.5, act_wolf=3, pts_wolves=10, wolves_placed=3, wolves_standing=3),
          seat("wolf-bettor", 0.5, act_wolf=3, pts_wolves=6, wolves_placed=3,
               wolves_standing=2)], True),
        ([seat(g, 0, act_wolf=2, pts_wolves=7, wolves_placed=2, wolves_standing=2),
          seat("random", 1, act_wolf=3, wolves_placed=3)], True),
        ([seat(g, 0, act_wolf=3), seat(g, 0, act_wolf=3)], False),
    ]
    return write_run(tmp_path / "pool", 2, games,
                     strategies=["random", "greedy", "wolf-bettor", "no-wolf"])




def test_wolf_queries_by_hand(tmp_path):
    _, seats = scan(_pool_run(tmp_path))
    st = {r["strategy"]: r for r in tlw.wolf_by_strategy(seats).iter_rows(named=True)}
    assert st["greedy"]["n"] == 5 and st["greedy"]["wins"] == pytest.approx(2.5)
    assert st["greedy"]["wolf_actions"] == pytest.approx(8 / 5)
    assert st["greedy"]["wolf_points"] == pytest.approx(29 / 5)
    assert (st["greedy"]["placed"], st["greedy"]["standing"]) == (8, 8)
    assert st["wolf-bettor"]["wolf_actions"] == pytest.approx(3.0)
    assert st["wolf-bettor"]["win_rate"] == pytest.approx(0.25)
    assert st["no-wolf"]["wolf_actions"] == pytest.approx(0.5)
    assert list(tlw.wolf_by_strategy(seats)["strategy"])[0] == "random"  # 3 actions, first
    mvl = tlw.more_vs_less(tlw.wolf_by_strategy(seats)).row(0, named=True)
    assert (mvl["more"], mvl["less"]) == ("wolf-bettor", "no-wolf")
    d, lo, hi = newcombe_difference(0.5, 2, 1, 2)
    assert (mvl["diff"], mvl["lo"], mvl["hi"]) == pytest.approx((d[0], lo[0], hi[0]))

    b = {r["wolf_actions"]: r for r in tlw.wolf_buckets(seats, "greedy").iter_rows(named=True)}
    assert {k: (r["n"], r["wins"]) for k, r in b.items()} == {
        0: (1, 1.0), 1: (1, 0.0), 2: (2, 1.0), 3: (1, 0.5)}
    allb = {r["wolf_actions"]: r for r in tlw.wolf_buckets(seats).iter_rows(named=True)}
    assert allb[3]["n"] == 4 and allb[3]["wins"] == pytest.approx(2.0)
    m = tlw.bet_more_less(seats, "greedy", 2).row(0, named=True)
    assert (m["n_more"], m["w_more"], m["n_less"], m["w_less"]) == (3, 1.5, 2, 1.0)
    # greedy's seats of finished games g0-g4 (one a game): win share, >= 2 wolf actions;
    # the interval is clustered by game
    d, lo, hi = clustered_diff([1, 0, 1, 0.5, 0], [0, 0, 1, 1, 1], [0, 1, 2, 3, 4])
    assert d == pytest.approx(0.0)
    assert (m["diff"], m["lo"], m["hi"]) == pytest.approx((d, lo, hi))


# ---------------------------------------------------------------- ties -------------------
def test_house_ties_by_hand(tmp_path):
    games = [
        ([seat(share=1, houses_built=3, houses_saved_by_tie=1, bonus_lost_to_tie=1),
          seat(houses_built=2, houses_collapsed=1),
          seat(houses_built=3, bonus_lost_to_tie=1)], True),
        ([seat(houses_built=3, houses_collapsed=1), seat(share=1, houses_built=3,
                                                          houses_collapsed=1),
          seat(houses_built=3)], True),
        ([seat(houses_built=3, houses_saved_by_tie=3)] * 3, False),  # limit: ignored
    ]
    _, seats = scan(write_run(tmp_path / "t", 3, games, strategies=["greedy"]))
    r = tlw.house_ties(seats).row(0, named=True)
    assert (r["n"], r["built"], r["saved"], r["collapsed"], r["bonus_lost"]) == (6, 17, 1, 3, 2)
    assert r["saved_rate"] == pytest.approx(1 / 17)
    lo, hi = wilson_interval(1, 17)
    assert (r["saved_rate_lo"], r["saved_rate_hi"]) == pytest.approx((lo[0], hi[0]))
    assert r["seat_rate"] == pytest.approx(1 / 6)
    assert (r["games"], r["games_saved"]) == (2, 1) and r["game_rate"] == pytest.approx(0.5)
    assert r["collapse_rate"] == pytest.approx(3 / 17)
    assert r["bonus_lost_per_seat"] == pytest.approx(2 / 6)


# ---------------------------------------------------------------- sensitivity ------------
def test_p_vs_parity_and_bh():
    z = (0.55 - 0.5) / math.sqrt(0.25 / 400)
    assert tlw.p_vs_parity(0.55, 400, 0.5) == pytest.approx(math.erfc(z / math.sqrt(2)))
    assert math.isnan(tlw.p_vs_parity(0.5, 0, 0.5))
    p = [0.01, float("nan"), 0.04, 0.03]
    out = bh_adjust(p)
    ref = multipletests([0.01, 0.04, 0.03], method="fdr_bh")[1]
    assert math.isnan(out[1])
    assert [out[0], out[2], out[3]] == pytest.approx(list(ref))
    assert out[0] == pytest.approx(0.03)  # 0.01 * 3 / 1


def test_sensitivity_verdicts_and_shifts():
    def cell(metric, cs, est, half, p):
        return {"metric": metric, "label": metric, "unit": "rate", "players": 3,
                "card_set": cs, "n": 100, "est": est, "lo": est - half, "hi": est + half,
                "p": p}

    cells = [
        cell("flip", "cards_v0", 0.10, 0.02, 1e-6), cell("flip", "cards_v1", 0.10, 0.02, 1e-6),
        cell("flip", "cards_v2", -0.10, 0.02, 1e-6),
        cell("weak", "cards_v0", 0.01, 0.05, 0.6), cell("weak", "cards_v1", 0.08, 0.02, 1e-5),
        cell("same", "cards_v1", -0.2, 0.02, 1e-9), cell("same", "cards_v2", -0.1, 0.02, 1e-9),
        cell("desc", "cards_v1", 0.3, 0.01, None), cell("desc", "cards_v2", 0.34, 0.01, None),
    ]
    rows = {r["metric"]: r for r in tlw.sensitivity_rows(cells)}
    assert rows["flip"]["change"] == "sign" and rows["flip"]["same"] is False
    assert rows["weak"]["change"] == "significance"
    assert rows["same"]["change"] == "same" and rows["same"]["same"] is True
    assert rows["desc"]["change"] is None and rows["desc"]["tested"] is False
    assert rows["weak"]["cells"]["cards_v0"]["verdict"] == "0"
    assert rows["flip"]["cells"]["cards_v2"]["verdict"] == "-"
    ps = [1e-6, 1e-6, 1e-6, 0.6, 1e-5, 1e-9, 1e-9]
    qs = multipletests(ps, method="fdr_bh")[1]
    assert rows["weak"]["cells"]["cards_v0"]["q"] == pytest.approx(qs[3])
    # shift = est(set) - est(cards_v1); se from the two intervals' half-widths / Z
    sh = rows["desc"]["shifts"]["cards_v2"]
    se = math.hypot(0.01 / Z, 0.01 / Z)
    assert sh[0] == pytest.approx(0.04)
    assert (sh[1], sh[2]) == pytest.approx((0.04 - Z * se, 0.04 + Z * se))
    assert set(rows["flip"]["shifts"]) == {"cards_v0", "cards_v2"}
    assert rows["flip"]["shifts"]["cards_v2"][0] == pytest.approx(-0.2)


def test_seat_rates_by_set(tmp_path):
    a = write_run(tmp_path / "a", 2, [([seat(share=1), seat()], True)] * 3
                  + [([seat(), seat(share=1)], True)], strategies=["greedy"])
    b = write_run(tmp_path / "b", 2, [([seat(), seat(share=1)], True)] * 2,
                  strategies=["greedy"], options={"card_set": "cards_v2"})
    _, seats = scan(a, b)
    df = tlw.seat_rates_by_set(seats, {"cards_v1": [0], "cards_v2": [1]})
    got = {(r["card_set"], r["seat"]): (r["n"], r["win_rate"]) for r in df.iter_rows(named=True)}
    assert got == {("cards_v1", 0): (4, 0.75), ("cards_v1", 1): (4, 0.25),
                   ("cards_v2", 0): (2, 0.0), ("cards_v2", 1): (2, 1.0)}


def test_extend_report_on_synthetic_runs(tmp_path):
    ra, rf = _paired_runs(tmp_path)
    pool = _pool_run(tmp_path)
    out = tmp_path / "rep"
    res = write_report([pool, ra, rf], str(out), "The Three Little Wolves",
                       roles=["main", "wolf:allowed:cards_v1", "wolf:forbidden:cards_v1"])
    md = open(res["markdown"], encoding="utf-8").read()
    for title in tlw.TITLES:
        assert f"## {title}" in md
    # the restricted-play row of the paired runs: n 5, 70% vs 30%, +40.0 points
    row = next(line for line in md.splitlines() if line.startswith("| 2 | cards_v1 | 5 |"))
    assert "70.0%" in row and "30.0%" in row and "+40.0" in row and "+3.40" in row
    assert "Is the wolf action worth a card?" in md
    assert "No dummy-control runs" in md
    for name in ("tlw_seats_by_card_set", "tlw_score_components", "tlw_wolf_value",
                 "tlw_house_ties", "tlw_dummy_control", "tlw_card_set_sensitivity"):
        assert os.path.getsize(res[name]) > 1000
    # the generic sections pooled the main run only (6 games, 1 at the limit), not the
    # 5 + 6 games of the paired runs
    assert "n = 5 finished games." in md
    assert "n = 16 finished games." not in md


# ---------------------------------------------------------------- end to end -------------
def test_end_to_end_real_runs(tmp_path):
    from sim.registry import get_game
    from sim.runner import simulate

    game = get_game("three-little-wolves")
    runs, roles = [], []
    for e in game.default_plan():
        n = 120 if e["role"] == "main" else 40
        runs.append(str(simulate(game.id, n, e["players"], e["strategies"],
                                 seed=e.get("seed", 1), options=e.get("options", {}),
                                 jobs=1, chunk_size=n, out=tmp_path / e["name"],
                                 seating=e["seating"])))
        roles.append(e["role"])
    res = write_report(runs, str(tmp_path / "report"), game.title, game.impact_groups, roles)
    md = open(res["markdown"], encoding="utf-8").read()
    for title in tlw.TITLES:
        assert f"## {title}" in md
    for text in ("How much seat order matters", "Is the wolf action worth a card?",
                 "Do the results survive the uncertainty about the card list?",
                 "Ties that save a house", "Two-player dummy control", "## House outcomes"):
        assert text in md
    # every (card set, players) of the wolf study has its paired row
    for cs in tlw.SETS:
        for p in (2, 3, 4):
            assert any(line.startswith(f"| {p} | {cs} | 40 |") for line in md.splitlines())
    assert "Wolves allowed - forbidden" in res["summary"]


# ---------------------------------------------------------------- issue 16 ---------------
def _no_greedy_run(tmp_path):
    games = [([seat("wolf-bettor", 1, act_wolf=2, cards_under_last_pig=3),
               seat("no-wolf", 0, act_wolf=0, cards_under_last_pig=3)], True),
             ([seat("wolf-bettor", 0, act_wolf=1, cards_under_last_pig=0),
               seat("no-wolf", 1, act_wolf=0, cards_under_last_pig=0)], True),
             ([seat("wolf-bettor", 1, act_wolf=2, cards_under_last_pig=3),
               seat("no-wolf", 0, act_wolf=1, cards_under_last_pig=3)], True),
             ([seat("wolf-bettor", 0, act_wolf=3, cards_under_last_pig=-1),
               seat("no-wolf", 0, act_wolf=3, cards_under_last_pig=-1)], False)]
    return write_run(tmp_path / "pool", 2, games, strategies=["wolf-bettor", "no-wolf"])


def test_issue16_wolves_sections(tmp_path):
    from sim.registry import get_game

    run = _no_greedy_run(tmp_path)
    res = write_report([run], str(tmp_path / "rep"), "The Three Little Wolves",
                       get_game("three-little-wolves").impact_groups, ["main"])
    md = open(res["markdown"], encoding="utf-8").read()
    # the caution under house outcomes speaks of house outcomes, not of cards
    sec = md[md.index("## House outcomes"):md.index("## Wolf bets and discards")]
    assert "house collapsed" in sec and "play a card" not in sec
    # no greedy seat: the wolf-action table still shows every bucket of all bots
    assert "No greedy seat played in the main runs" in md
    assert "| 2 | 0 | - | - | 2 | 50.0% [9.5, 90.5] |" in md
    # the cards under the last pig: 3 cards in 2 of 3 finished games, 0 in 1
    pig = md[md.index("## Cards under the last pig"):]
    assert "| 2 | 0 | 1 | 33.3% [6.1, 79.2] |" in pig and "| 2 | 3 | 2 | 66.7%" in pig
    assert "**Cards under the last pig** (main runs): 2p 0: 33.3%, 3: 66.7%." in md
    # the study sections say where their runs come from
    assert md.count("they come from `boardsim run`") >= 3


def test_rule_holes_found_or_not(tmp_path):
    from analysis.doc import Doc
    from analysis.report.context import ReportContext
    from analysis.report.manifests import load_manifests

    pool = _pool_run(tmp_path)
    games, seats = scan(pool)
    os.makedirs(tmp_path / "out")
    ctx = ReportContext(Doc(), games, seats, [pool], load_manifests([pool]), {0: "main"},
                        str(tmp_path / "out"), {}, [], [])
    tlw.extend_report(ctx)
    got = {h["finding"].split(" (")[0]: (h["count"], h["n"]) for h in ctx.rule_holes}
    # 1 of 6 games at the limit; of the score components only the wolves ever scored
    assert got == {"the game stopped at the length limit": (1, 6),
                   "score components that no seat ever scored": (len(PTS) - 1, len(PTS))}


def test_last_pig_distribution_is_per_player_count():
    """The full-scale report shows the same "cards under the last pig" counts at 2, 3 and 4
    players. Not a query error: the query keeps the player counts apart (one value per game,
    games never revealing the pig left out); the identity is true of the runs (the pig's
    place in the bottom packet depends on the seed only, and the main runs share seeds)."""
    seats = pl.DataFrame({
        "run": [0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
        "game": [0, 0, 1, 1, 0, 0, 0, 1, 1, 1],
        "players": [2, 2, 2, 2, 3, 3, 3, 3, 3, 3],
        "rank": [1, 2, 1, 2, 1, 2, 3, 1, 2, 3],
        "cards_under_last_pig": [5, 5, 0, 0, 2, 2, 2, -1, -1, -1],
    }).lazy()
    from analysis.games.three_little_wolves.queries import last_pig

    d = last_pig(seats)
    assert d.select("players", "under", "n").rows() == [(2, 0, 1), (2, 5, 1), (3, 2, 1)]
    assert d["share"].to_list() == [0.5, 0.5, 1.0]
