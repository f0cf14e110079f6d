"""Little Town report extension: exact values on synthetic run folders, plus small real runs.

Synthetic run M (3 players, role main, 23 games):
  G0-G9   Tavern in the market, built by seat 0 (round 2, 3 own and 2 others' activations);
          seat 0 builds 1 Wheat Field (round 1), seat 1 builds 2 (round 3);
          seat 0 wins G0-G5, seat 1 wins G6-G9; seat 0 holds goal 3 and completes it
          (round 2 in G0-G4, round 4 in G5-G9)
  G10     Tavern built by seat 0; seats 0 and 1 share the win
  G11-G15 Tavern in the market, not built; seat 2 wins
  G16-G20 Tavern not in the market; seat 1 wins
  G21-G22 stopped at the limit; Tavern built by seat 1 and goal 3 completed (must not count)
  seat 0 holds goal 3 in every game (completed only in G0-G9); nobody holds goal 7.
=> Tavern: 21 finished games, present 16, built 11; builder seats 11 with 6.5 wins, other
   seats 22 with 4.5 wins. Wheat Field: built in 10 games, 30 copies; builder seats 20 with
   10 wins, other seats 10 with 0 wins. Goal 3: 21 holders, 10 completed (6 wins, mean round
   3), 11 not completed (0.5 wins).
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from analysis import queries as q
from analysis.games import little_town as lt
from analysis.report import write_report
from analysis.stats import Z95, bh_adjust, newcombe_difference, wilson_interval
from sim.core.errors import UserError
from sim.registry import get_game
from tests.clustered import clustered_diff_p

GAME = get_game("little-town")
DETAIL = GAME.seat_detail
POOL = ["random", "greedy", "builder", "gatherer"]
GAME_SCHEMA = {
    "game": pl.Int64, "seed": pl.UInt64, "players": pl.Int8, "options": pl.Utf8,
    "strategies": pl.Utf8, "first_player": pl.Int8, "turns": pl.Int32, "decisions": pl.Int32,
    "end_reason": pl.Utf8, "n_winners": pl.Int8, "winners": pl.List(pl.Int8),
}


def _blank_seat() -> dict:
    row = {name: 0 for name in DETAIL}
    for c in range(1, 19):
        row[f"goal_{c:02d}"] = -1
    row["market_wheat_field"] = 1
    return row


def write_lt_run(root, players, specs, *, role_market="random", seed=1,
                 strategies=("greedy", "random")):
    """specs: dicts with winners, first, limit, scores (list), strats (list) and ``seat``:
    {seat: {column: value}} overriding the blank detail columns."""
    games, seats = [], []
    for i, g in enumerate(specs):
        winners = g["winners"]
        k = len(winners)
        strats = g.get("strats") or ["greedy"] + ["random"] * (players - 1)
        games.append({
            "game": i, "seed": 1000 + i, "players": players, "options": "{}",
            "strategies": ",".join(strats), "first_player": g.get("first", 0),
            "turns": 48, "decisions": 150, "end_reason": "limit" if g.get("limit") else "end",
            "n_winners": k, "winners": winners,
        })
        scores = g.get("scores") or [50 if s in winners else 30 for s in range(players)]
        for s in range(players):
            row = {"game": i, "players": players, "seat": s, "strategy": strats[s],
                   "score": scores[s],
                   "rank": None if g.get("limit") else (1 if s in winners else 2),
                   "win_share": (1.0 / k if s in winners else 0.0)}
            row.update(_blank_seat())
            row.update(g.get("seat", {}).get(s, {}))
            seats.append(row)
    schema = {"game": pl.Int64, "players": pl.Int8, "seat": pl.Int8, "strategy": pl.Utf8,
              "score": pl.Int32, "rank": pl.Int8, "win_share": pl.Float64,
              **{name: pl.Int16 for name in DETAIL}}
    os.makedirs(root / "games")
    os.makedirs(root / "seats")
    pl.DataFrame(games, schema=GAME_SCHEMA).write_parquet(root / "games" / "chunk-000000.parquet")
    pl.DataFrame(seats, schema=schema).write_parquet(root / "seats" / "chunk-000000.parquet")
    manifest = {"game": "little-town", "n_games": len(specs), "players": players,
                "strategies": list(strategies), "seating": "pool", "seed": seed,
                "options": {"market": role_market}, "chunk_size": 100,
                "data_status": "synthetic", "boardsim_version": "9.9.9", "complete": True}
    (root / "manifest.json").write_text(json.dumps(manifest))
    return str(root)


def _main_specs():
    specs = []
    for i in range(10):
        specs.append({"winners": [0] if i < 6 else [1], "seat": {
            0: {"market_tavern": 1, "built_tavern": 1, "built_round_tavern": 2,
                "act_own_tavern": 3, "act_by_others_tavern": 2,
                "built_wheat_field": 1, "built_round_wheat_field": 1,
                "goal_03": 1, "goal_round_03": 2 if i < 5 else 4},
            1: {"market_tavern": 1, "built_wheat_field": 2, "built_round_wheat_field": 3},
            2: {"market_tavern": 1}}})
    specs.append({"winners": [0, 1], "seat": {
        0: {"market_tavern": 1, "built_tavern": 1, "built_round_tavern": 2, "goal_03": 0},
        1: {"market_tavern": 1}, 2: {"market_tavern": 1}}})
    for _ in range(5):
        specs.append({"winners": [2], "seat": {s: {"market_tavern": 1} for s in range(3)}
                      | {0: {"market_tavern": 1, "goal_03": 0}}})
    for _ in range(5):
        specs.append({"winners": [1], "seat": {0: {"goal_03": 0}}})
    for _ in range(2):
        specs.append({"winners": [], "limit": True, "seat": {
            0: {"goal_03": 1, "goal_round_03": 1, "market_tavern": 1},
            1: {"built_tavern": 1, "built_round_tavern": 1, "market_tavern": 1,
                "act_own_tavern": 9}}})
    return specs


@pytest.fixture
def main_run(tmp_path):
    return write_lt_run(tmp_path / "main", 3, _main_specs())


def _row(df, **keys):
    sel = df
    for k, v in keys.items():
        sel = sel.filter(pl.col(k) == v)
    assert len(sel) == 1, (keys, sel)
    return sel.row(0, named=True)




# ---------------------------------------------------------------- buildings --------------
def test_building_stats_exact(main_run):
    _, seats = q.scan_runs([main_run])
    b = lt.building_stats(seats)
    assert b.height == 25 and set(b["players"]) == {3}
    t = _row(b, building="Tavern")
    assert (t["games"], t["present"], t["built_games"]) == (21, 16, 11)
    assert t["presence"] == pytest.approx(16 / 21)
    assert (t["presence_lo"], t["presence_hi"]) == pytest.approx(
        tuple(x[0] for x in wilson_interval(16, 21)))
    assert t["build_rate"] == pytest.approx(11 / 16)
    assert t["mean_round"] == 2.0 and t["copies"] == 1.0
    assert t["act_own"] == pytest.approx(30 / 11) and t["act_others"] == pytest.approx(20 / 11)
    assert t["fees"] == pytest.approx(20 / 11)
    assert (t["n_with"], t["wins_with"], t["n_others"], t["wins_others"]) == (11, 6.5, 22, 4.5)
    # the seats of the games where it was built (finished g0-g10, seats 0-2): seat 0 built
    # it; win shares; the interval and p are clustered by game (one game's seats are not
    # independent)
    y = [1, 0, 0] * 6 + [0, 1, 0] * 4 + [0.5, 0.5, 0]
    d, lo, hi, p = clustered_diff_p(y, [1, 0, 0] * 11, np.repeat(np.arange(11), 3))
    assert d == pytest.approx(6.5 / 11 - 4.5 / 22)
    assert (t["diff"], t["lo"], t["hi"], t["p"]) == pytest.approx((d, lo, hi, p))

    w = _row(b, building="Wheat Field")
    assert (w["present"], w["built_games"], w["copies"]) == (21, 10, 3.0)
    assert (w["n_with"], w["wins_with"], w["n_others"], w["wins_others"]) == (20, 10.0, 10, 0.0)
    assert w["mean_round"] == 2.0 and w["diff"] == 0.5

    c = _row(b, building="Castle")  # never in the market
    assert (c["present"], c["built_games"], c["n_with"]) == (0, 0, 0)
    assert c["build_rate"] is None and c["diff"] is None and c["p"] is None
    assert b["building"][0] == "Wheat Field"  # sorted by difference, nulls last


def test_goal_stats_exact(main_run):
    _, seats = q.scan_runs([main_run])
    g = lt.goal_stats(seats)
    assert g["card"].to_list() == [3]  # nobody holds any other card (goal 7 included)
    r = g.row(0, named=True)
    assert (r["held"], r["completed"], r["n_not"]) == (21, 10, 11)
    assert r["completion"] == pytest.approx(10 / 21)
    assert r["mean_round"] == 3.0
    assert (r["wins_done"], r["wins_not"]) == (6.0, 0.5)
    assert (r["rate_done"], r["rate_not"]) == pytest.approx((0.6, 0.5 / 11))
    # the holders: seat 0 of finished g0-g20 (one a game), completed in g0-g9; clustered by
    # game
    y = [1] * 6 + [0] * 4 + [0.5] + [0] * 10
    d, lo, hi, p = clustered_diff_p(y, [1] * 10 + [0] * 11, np.arange(21))
    assert d == pytest.approx(0.6 - 0.5 / 11)
    assert (r["diff"], r["lo"], r["hi"], r["p"]) == pytest.approx((d, lo, hi, p))
    assert (r["completion_lo"], r["completion_hi"]) == pytest.approx(
        tuple(x[0] for x in wilson_interval(10, 21)))


def test_bh_adjust_by_hand():
    qv = bh_adjust([0.01, 0.04, 0.03, float("nan")])
    assert qv[:3] == pytest.approx([0.03, 0.04, 0.04])
    assert math.isnan(qv[3])


def test_mark_robust_rules():
    main = pl.DataFrame({"players": [3, 3, 3, 3, 2], "building": ["A", "B", "C", "D", "A"],
                         "diff": [0.1, 0.1, -0.2, 0.05, 0.1], "lo": [0.05, 0.05, -0.3, -0.01, 0.05],
                         "hi": [0.15, 0.15, -0.1, 0.11, 0.15]})
    other = pl.DataFrame({"players": [3, 3, 3, 3], "building": ["A", "B", "C", "D"],
                          "diff": [0.2, 0.01, 0.2, 0.1], "lo": [0.1, -0.02, 0.1, 0.05],
                          "hi": [0.3, 0.04, 0.3, 0.15]})
    out = lt.mark_robust(main, {"mix:b": other}, "building")
    # A: both above 0; B: other contains 0; C: opposite signs; D: main contains 0;
    # A at 2 players: no other mix measured it
    assert out["robust"].to_list() == [True, False, False, False, None]
    assert out["mix_signs"][0] == "mix:b: +20.0 [10.0, 30.0]"


# ---------------------------------------------------------------- setups -----------------
def _setup_specs(first, winner_seats, top_scores, other_scores, picks=None):
    specs = []
    for i, (w, top) in enumerate(zip(winner_seats, top_scores, strict=True)):
        scores = [0, 0, 0]
        rest = [s for s in range(3) if s != w]
        scores[w] = top
        scores[rest[0]], scores[rest[1]] = other_scores[i]
        specs.append({"winners": [w], "first": first, "scores": scores,
                      "seat": (picks(i) if picks else {})})
    return specs


@pytest.fixture
def setup_runs(tmp_path):
    wins = [0] * 6 + [1] * 3 + [2] * 3
    rnd = write_lt_run(tmp_path / "rnd", 3, _setup_specs(
        0, wins, [50, 52] * 6, [(40, 30)] * 12))

    def picks(i):
        return {0: {"pick_tavern": 1, "market_tavern": 1},
                1: {"pick_church": 2 if i % 2 else 4, "market_tavern": 1},
                2: {"market_tavern": 1}}

    draft = write_lt_run(tmp_path / "draft", 3, _setup_specs(
        1, wins, [60, 64] * 6, [(40, 40)] * 12, picks), role_market="draft")
    two = write_lt_run(tmp_path / "two", 2, _setup_specs2(), role_market="random")
    return rnd, draft, two


def _setup_specs2():
    return [{"winners": [0], "scores": [10, 5]} for _ in range(4)]


def test_setup_groups_use_main_run_of_same_player_count(setup_runs):
    rnd, draft, two = setup_runs
    manifests = [json.load(open(os.path.join(r, "manifest.json"))) for r in setup_runs]
    groups = lt.setup_groups(manifests, {0: "main", 1: "setup:draft", 2: "main"})
    assert groups == {"random": [0], "draft": [1]}
    assert lt.setup_groups(manifests, {0: "main", 1: "mix:b", 2: "main"}) == {}


def test_setup_comparison_exact(setup_runs):
    rnd, draft, _ = setup_runs
    games, seats = q.scan_runs([rnd, draft])
    res = lt.setup_comparison(games, seats, {"random": [0], "draft": [1]})
    o = res["order"]
    r0, r1 = _row(o, setup="random"), _row(o, setup="draft")
    assert (r0["n"], r0["wins"], r0["rate"]) == (12, 6.0, 0.5)
    # draft: seat 1 moves first and wins 3 of 12
    assert (r1["n"], r1["wins"], r1["rate"]) == (12, 3.0, 0.25)
    d, lo, hi = newcombe_difference(3, 12, 6, 12)
    assert (r1["diff"], r1["dlo"], r1["dhi"]) == pytest.approx((d[0], lo[0], hi[0]))
    assert r0["diff"] is None
    assert r0["balance_pos"] == pytest.approx(0.75) and r1["balance_pos"] == pytest.approx(0.75)
    assert r0["balance_seat"] == pytest.approx(0.75)
    assert r1["bal_lo"] <= 0 <= r1["bal_hi"]

    dist = res["dist"]
    ws_r = np.array([50, 52] * 6, float)
    ws_d = np.array([60, 64] * 6, float)
    w = _row(dist, setup="draft", measure="winning score")
    assert w["mean"] == 62.0 and w["sd"] == pytest.approx(np.std(ws_d, ddof=1))
    se = math.sqrt(ws_d.var(ddof=1) / 12 + ws_r.var(ddof=1) / 12)
    assert (w["d"], w["dlo"], w["dhi"]) == pytest.approx((11, 11 - Z95 * se, 11 + Z95 * se))
    # Brown-Forsythe: mean |x - median| is 2 (draft) vs 1 (random)
    assert w["mad"] == 2.0 and w["mad_d"] == 1.0
    m = _row(dist, setup="draft", measure="winning margin")
    assert m["mean"] == np.mean([20, 24] * 6)
    assert _row(dist, setup="random", measure="winning margin")["mean"] == 11.0
    assert _row(dist, setup="random", measure="seat score")["n"] == 36

    st = res["strat"]
    g = _row(st, setup="draft", strategy="greedy")
    assert (g["n"], g["rate"], g["diff"]) == (12, 0.5, 0.0)

    pk = res["picks"]
    tav = _row(pk, setup="draft", building="Tavern")
    assert (tav["n_picked"], tav["mean_pick"], tav["presence"]) == (12, 1.0, 1.0)
    ch = _row(pk, setup="draft", building="Church")
    half = sps.t.ppf(0.975, 11) * np.std([2, 4] * 6, ddof=1) / math.sqrt(12)
    assert ch["mean_pick"] == 3.0
    assert (ch["pick_lo"], ch["pick_hi"]) == pytest.approx((3 - half, 3 + half))
    assert _row(pk, setup="random", building="Tavern")["n_picked"] == 0


def test_extension_sections_on_synthetic_runs(tmp_path, main_run, setup_runs):
    rnd, draft, _ = setup_runs
    out = tmp_path / "rep"
    res = write_report([main_run, rnd, draft], str(out), "Little Town",
                       GAME.impact_groups, ["main", "mix:b", "setup:draft"])
    md = open(res["markdown"]).read()
    for title in ("## Buildings: use and balance", "## Goal cards",
                  "## Robustness across bot mixes", "## Setup variants",
                  "## Component data: confirmed and assumed", "## Little Town runs by role"):
        assert title in md
    assert "**Buildings (3 players" in md and "**Goal cards (3 players" in md
    for chart in ("building_balance", "goal_balance", "setup_comparison", "setup_scores",
                  "draft_picks"):
        assert os.path.exists(res[chart])


# ---------------------------------------------------------------- real runs --------------
def test_real_runs_report_end_to_end(tmp_path):
    from sim.runner import simulate

    runs, roles = [], []
    for name, p, strats, opts, role in (
        ("p3", 3, POOL, {}, "main"), ("p2", 2, POOL, {}, "main"),
        ("mixb", 3, ["greedy", "builder", "gatherer"], {}, "mix:b"),
        ("draft", 3, POOL, {"market": "draft"}, "setup:draft"),
        ("one", 3, POOL, {"market": "one-of-two"}, "setup:one-of-two"),
    ):
        runs.append(str(simulate("little-town", 300, p, strats, seed=3, options=opts, jobs=1,
                                 chunk_size=150, out=tmp_path / name, seating="pool")))
        roles.append(role)
    res = write_report(runs, str(tmp_path / "rep"), "Little Town", GAME.impact_groups, roles)
    md = open(res["markdown"]).read()
    for title in ("## Buildings: use and balance", "## Goal cards", "## Setup variants",
                  "## Robustness across bot mixes", "### Market presence and draft picks",
                  "## Buildings: built vs not built (all seat-games)"):
        assert title in md
    assert "`draft`" in md and "`one-of-two`" in md
    assert "nan" not in md.replace("nano", "")
    assert os.path.getsize(res["html"]) > 10_000


def test_compare_setups_small(tmp_path, monkeypatch):
    from analysis.cli import run_simulation

    monkeypatch.chdir(tmp_path)
    text = lt.compare_setups(["random", "draft"], 200, 3, None, 1, 1, None, run_simulation)
    assert "Setups (first player): random " in text and "; draft " in text
    assert "Setups (mean winning margin): random " in text
    md = (tmp_path / "reports" / "little-town-setups" / "report.md").read_text()
    assert "## Setup variants" in md and "## Headline answers" in md
    assert (tmp_path / "reports" / "little-town-setups" / "report.html").exists()
    for s in ("random", "draft"):
        m = json.loads((tmp_path / "reports" / "_runs" / "little-town"
                        / f"compare-{s}-p3-n200" / "manifest.json").read_text())
        assert m["options"]["market"] == s and m["seed"] == 1 and m["n_games"] == 200
        # the default bots: the main job's pool, the game's recommended mix
        assert m["strategies"] == list(GAME.bots.RECOMMENDED_MIX)
    # the same games: game i has the same chance seed in both setups
    g1 = pl.read_parquet(tmp_path / "reports/_runs/little-town/compare-random-p3-n200/games")
    g2 = pl.read_parquet(tmp_path / "reports/_runs/little-town/compare-draft-p3-n200/games")
    assert g1["seed"].to_list() == g2["seed"].to_list()
    # another seed must not clash with the existing folders
    lt.compare_setups(["random", "draft"], 200, 3, ["greedy"], 2, 1,
                      tmp_path / "other", run_simulation)
    assert (tmp_path / "other" / "report.md").exists()
    with pytest.raises(UserError, match="allowed"):
        lt.compare_setups(["random", "fancy"], 10, 3, None, 1, 1, None, run_simulation)


# ---------------------------------------------------------------- issue 16 ---------------
def _ctx(run_dirs, roles, out):
    from analysis.doc import Doc
    from analysis.report.context import ReportContext
    from analysis.report.manifests import load_manifests

    games, seats = q.scan_runs(run_dirs)
    return ReportContext(Doc(), games, seats, run_dirs, load_manifests(run_dirs),
                         dict(enumerate(roles)), str(out), {}, [], [])


def _specs_with_goal_17():
    """The main run, plus seat 1 holding goal card 17 in every game and never completing it."""
    specs = _main_specs()
    for g in specs:
        g["seat"].setdefault(1, {})["goal_17"] = 0
    return specs


def test_building_table_lists_each_building_once(tmp_path, main_run):
    # the prefix built_ also matches the built_round_* columns: the game's impact group must
    # keep the buildings only (issue 16: every building was listed twice, round_tavern, ...)
    res = write_report([main_run], str(tmp_path / "rep"), "Little Town", GAME.impact_groups)
    md = open(res["markdown"]).read()
    assert "round_" not in md
    assert "**tavern**" in md and "**wheat_field**" in md


def test_goal_never_completed_is_ranked_hardest_and_a_rule_hole(tmp_path):
    run = write_lt_run(tmp_path / "m", 3, _specs_with_goal_17())
    ctx = _ctx([run], ["main"], tmp_path / "rep")
    lt.extend_report(ctx)
    # the answer in full (folded; the verdict ranks goal cards by their causal effect)
    goal = next(h for h in ctx.details if h.startswith("**Goal cards"))
    # card 17 (21 holders, none completed) is the hardest, not dropped from the ranking
    assert "hardest: #17 0.0% [0.0, 15.5]" in goal
    # completion to one decimal: 10 of 21 = 47.6%, not "48%"
    assert "completed 47.6%" in goal and "completed 48%)" not in goal
    holes = {h["finding"].split(" (")[0]: h for h in ctx.rule_holes}
    g = holes["goal cards that no holder ever completed"]
    assert (g["count"], g["n"], g["unit"]) == (1, 2, "goal cards held")
    assert "#17" in g["finding"] and "0 of 21 holders" in g["finding"] and g["fix"]
    b = holes["buildings offered in the market but never built"]
    # offered: Wheat Field (always) and the Tavern, both built
    assert (b["count"], b["n"]) == (0, 2) and b["fix"] is None


def test_goal_chart_keeps_never_completed_cards(tmp_path):
    from analysis.games.little_town.charts import balance_chart

    df = pl.DataFrame({"players": [3, 3], "label": ["#3 a", "#17 b"], "diff": [0.2, None],
                       "lo": [0.1, None], "hi": [0.3, None], "q": [0.01, None]})
    import matplotlib.pyplot as plt

    shown = []
    orig = plt.Axes.set_yticks

    def spy(self, ticks, labels=None, **kw):
        shown.append(list(labels or []))
        return orig(self, ticks, labels, **kw)

    plt.Axes.set_yticks = spy
    try:
        balance_chart(df, "label", str(tmp_path / "g.png"), "t", missing="never completed")
    finally:
        plt.Axes.set_yticks = orig
    assert shown == [["#17 b", "#3 a"]]


def test_readme_names_every_end_reason():
    # issue 16: the README said end_reason is `target`; Little Town writes `end`
    from sim.registry import list_games

    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md")).read()
    row = next(line for line in readme.splitlines() if line.startswith("| end_reason |"))
    for gid in list_games():
        for reason in get_game(gid).end_reasons[1:]:
            assert f"`{reason}`" in row, (gid, reason)


def test_feeding_scores_and_bank(main_run):
    from analysis.games.little_town import feeding as fd

    games, seats = q.scan_runs([main_run])
    g = pl.col("game")
    seats = seats.with_columns(
        unfed=pl.when((g < 5) & (pl.col("seat") == 2)).then(2).otherwise(0).cast(pl.Int16),
        vp_unfed=pl.when((g < 5) & (pl.col("seat") == 2)).then(-6).otherwise(0).cast(pl.Int16),
        food_bought=pl.lit(1, pl.Int16), vp_build=pl.col("score").cast(pl.Int16),
        bank_min=pl.when(g == 3).then(0).otherwise(10).cast(pl.Int16))
    f = fd.feeding_stats(seats).row(0, named=True)
    # 21 finished games x 3 seats; seat 2 starved in games 0-4 (2 workers, 6 points each)
    assert (f["players"], f["n"], f["starved"]) == (3, 63, 5)
    lo, hi = wilson_interval(5, 63)
    assert (f["starve_rate"], f["starve_lo"], f["starve_hi"]) == pytest.approx(
        (5 / 63, lo[0], hi[0]))
    assert (f["unfed_mean"], f["vp_lost"], f["food_bought"]) == pytest.approx(
        (10 / 63, 30 / 63, 1.0))
    sb = fd.score_breakdown(seats)
    w = sb.filter(pl.col("winner")).row(0, named=True)
    assert w["n"] == 22 and w["vp_build"] == w["score"] == 50.0   # 21 winners + 1 shared win
    bs = fd.bot_scores(seats)
    gr = bs.filter(pl.col("strategy") == "greedy").row(0, named=True)
    assert gr["n"] == 21 and gr["starve"] == 0.0
    assert fd.bank_dry(games, seats) == (1, 23)
