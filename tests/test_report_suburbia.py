"""Suburbia report extension (analysis/games/suburbia/): exact values on synthetic runs, and
one end-to-end report from small real runs.

Synthetic run 0, role "main", 3 players, seats fixed greedy / denier / random, 50 games
(Suburbia: seat 0 always starts). Winner and detail columns per block of 10 games:

  games  winner  Mint (tile_mint, turn_mint)        other detail
  0-9    seat 0  seat 0 (round 2, invested 0-4)     seat 0 Heavy Factory round 1 (income-first);
                                                    Builder public: seat 0 scores it (others 0)
  10-19  seat 1  seat 0 (round 2)                   Builder public, nobody scores it;
                                                    seat 1 Mobile Home Community round 3 (rush);
                                                    seat 0 fell back below a red line
  20-29  seat 0  -, not offered                     -
  30-39  seat 1  seat 1 (round 5)                   -
  40-49  seat 2  -, offered                         seat 2 wins by its goals (track 30 + 30)

Mint is offered in every game but 20-29. Seat 2 keeps Miser as its private goal in every game
and scores it in 40-49. Scores: winner track 50 and the others 40 (40-49: winner 30 + 30
goals), so the goal bonuses decide games 40-49 only.
Run 1, role "tip:deny", 2 players: 10 x (greedy, denier) denier wins 6; 10 x (denier, greedy)
each wins 5; 10 x (greedy, greedy) each wins 5.
Run 2, role "sweep:red_line_offset=1": main games 0-9 replayed, every seat +3 population and 7
red lines (main: 5), seat 1 wins games 5-9 instead of seat 0.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps
from statsmodels.stats.proportion import proportions_ztest

from analysis import queries as q
from analysis.games import suburbia as sb
from analysis.games.suburbia import sections as sb_sections
from analysis.report import write_report
from analysis.stats import bh_adjust, mh_difference, two_proportion_pvalue

GAME_SCHEMA = {
    "game": pl.Int64, "seed": pl.UInt64, "players": pl.Int8, "options": pl.Utf8,
    "strategies": pl.Utf8, "first_player": pl.Int8, "turns": pl.Int32, "decisions": pl.Int32,
    "end_reason": pl.Utf8, "n_winners": pl.Int8, "winners": pl.List(pl.Int8),
}
DETAIL = ["tile_mint", "turn_mint", "invest_mint", "offered_mint", "tile_heavy_factory",
          "turn_heavy_factory", "tile_mobile_home_community", "turn_mobile_home_community",
          "goal_builder", "goal_miser", "private_goal", "track_pop", "goals_pop", "money_pop",
          "redlines_up", "redlines_down", "final_income", "final_reputation"]
SEAT_SCHEMA = {
    "game": pl.Int64, "players": pl.Int8, "seat": pl.Int8, "strategy": pl.Utf8,
    "score": pl.Int32, "rank": pl.Int8, "win_share": pl.Float64,
    **{c: pl.Int16 for c in DETAIL},
}
BUILDER, MISER = 4, 16


def write_run(root, players, games, *, role_name, strategies, chunks=2):
    """games: list of (strategies tuple, winners list, {seat: {column: value}}, game index)."""
    grows, srows = [], []
    for strats, winners, detail, gi in games:
        k = len(winners)
        grows.append({"game": gi, "seed": 7 + gi, "players": players, "options": "{}",
                      "strategies": ",".join(strats), "first_player": 0, "turns": 30,
                      "decisions": 90, "end_reason": "end", "n_winners": k,
                      "winners": list(winners)})
        for s in range(players):
            row = {c: 0 for c in DETAIL}
            row.update(goal_builder=-1, goal_miser=-1, private_goal=-1, offered_mint=1,
                       track_pop=50 if s in winners else 40)
            row.update(detail.get(s, {}))
            score = row["track_pop"] + row["goals_pop"] + row["money_pop"]
            srows.append({"game": gi, "players": players, "seat": s, "strategy": strats[s],
                          "score": score, "rank": 1 if s in winners else 2,
                          "win_share": 1.0 / k if s in winners else 0.0, **row})
    gdf = pl.DataFrame(grows, schema=GAME_SCHEMA)
    sdf = pl.DataFrame(srows, schema=SEAT_SCHEMA)
    for t in ("games", "seats"):
        os.makedirs(root / t)
    ids = sorted(gdf["game"].to_list())
    cut = [ids[round(len(ids) * j / chunks)] if j < chunks else ids[-1] + 1
           for j in range(chunks + 1)]
    for j in range(chunks):
        sel = pl.col("game").is_between(cut[j], cut[j + 1] - 1)
        gdf.filter(sel).write_parquet(root / "games" / f"chunk-{j:06d}.parquet")
        sdf.filter(sel).write_parquet(root / "seats" / f"chunk-{j:06d}.parquet")
    (root / "manifest.json").write_text(json.dumps({
        "game": "suburbia", "n_games": len(games), "players": players,
        "strategies": strategies, "seating": "fixed", "seed": 1, "options": {},
        "data_status": "synthetic", "boardsim_version": "9.9.9", "complete": True,
        "role": role_name}))
    return str(root)


def main_games():
    gdr = ("greedy", "denier", "random")
    out = []
    for gi in range(50):
        block = gi // 10
        d = {0: {}, 1: {}, 2: {"private_goal": MISER, "goal_miser": 0}}
        if block in (0, 1):
            d[0].update(tile_mint=1, turn_mint=2)
            for s in range(3):
                d[s]["goal_builder"] = 0
        if block == 0:
            d[0].update(tile_heavy_factory=1, turn_heavy_factory=1, goal_builder=1,
                        invest_mint=1 if gi < 5 else 0)
            winners = [0]
        elif block == 1:
            d[1].update(tile_mobile_home_community=1, turn_mobile_home_community=3)
            d[0].update(redlines_down=2)
            winners = [1]
        elif block == 2:
            for s in range(3):
                d[s]["offered_mint"] = 0
            winners = [0]
        elif block == 3:
            d[1].update(tile_mint=1, turn_mint=5)
            winners = [1]
        else:
            d[2].update(goal_miser=1, track_pop=30, goals_pop=30)
            winners = [2]
        for s in range(3):
            d[s].setdefault("redlines_up", 5)
        out.append((gdr, winners, d, gi))
    return out


def deny_games():
    out, gi = [], 0
    for strats, wins in ((("greedy", "denier"), [1] * 6 + [0] * 4),
                         (("denier", "greedy"), [0] * 5 + [1] * 5),
                         (("greedy", "greedy"), [0] * 5 + [1] * 5)):
        for w in wins:
            out.append((strats, [w], {}, gi))
            gi += 1
    return out


def sweep_games():
    out = []
    for gi in range(10):
        w = 0 if gi < 5 else 1
        d = {s: {"track_pop": 53 if s == w else 43, "redlines_up": 7} for s in range(3)}
        d[2].update(private_goal=MISER, goal_miser=0)
        out.append((("greedy", "denier", "random"), [w], d, gi))
    return out


ROLES = {0: "main", 1: "tip:deny", 2: "sweep:red_line_offset=1"}


@pytest.fixture
def runs(tmp_path):
    return [
        write_run(tmp_path / "main", 3, main_games(), role_name="main",
                  strategies=["greedy", "denier", "random"]),
        write_run(tmp_path / "deny", 2, deny_games(), role_name="tip:deny",
                  strategies=["greedy", "denier"]),
        write_run(tmp_path / "sweep", 3, sweep_games(), role_name="sweep",
                  strategies=["greedy", "denier", "random"]),
    ]


@pytest.fixture
def frames(runs):
    games, seats = q.scan_runs(runs)
    return sb.with_role(games, ROLES), sb.with_role(seats, ROLES)


def _one(df: pl.DataFrame, **keys) -> dict:
    for k, v in keys.items():
        df = df.filter(pl.col(k) == v)
    assert len(df) == 1, (keys, df)
    return df.row(0, named=True)


# ------------------------------------------------------------------------------ statistics ---
def test_bh_matches_hand_computation():
    got = bh_adjust([0.01, 0.04, 0.03, 0.5, float("nan")])
    assert got[:4] == pytest.approx([0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5])
    assert math.isnan(got[4])


def test_z_pvalue_is_the_pooled_z_test():
    p = two_proportion_pvalue([30, 5], [100, 50], [20, 5], [100, 50])
    ref = proportions_ztest([30, 20], [100, 100])[1]
    assert p[0] == pytest.approx(ref)
    assert math.isnan(p[1]) is False and p[1] == pytest.approx(1.0)
    assert math.isnan(two_proportion_pvalue(1, 0, 1, 10)[0])


def test_mh_difference_single_and_two_strata():
    r = mh_difference([10], [20], [5], [20])
    assert r["diff"] == pytest.approx(0.25)
    se = math.sqrt(0.5 * 0.5 / 20 + 0.25 * 0.75 / 20)
    assert r["lo"] == pytest.approx(0.25 - 1.959964 * se, abs=1e-6)
    assert r["p"] == pytest.approx(2 * sps.norm.sf(0.25 / se))
    # two strata: weights 20*20/40 = 10 and 10*30/40 = 7.5; a stratum missing a group is skipped
    r = mh_difference([10, 9, 3], [20, 10, 0], [5, 15, 2], [20, 30, 4])
    assert r["diff"] == pytest.approx((10 * 0.25 + 7.5 * 0.4) / 17.5)
    assert r["strata"] == 2 and r["n1"] == 30 and r["n0"] == 54


def test_robust_mark_needs_bh_and_a_second_mix():
    df = pl.DataFrame({
        "role": ["main", "main", "main", "tip:deny", "tip:deny", "mix:archetypes"],
        "tile": ["a", "b", "c", "a", "b", "c"],
        "adj": [0.2, 0.1, -0.3, 0.05, -0.1, 0.01],
        "adj_p": [1e-6, 1e-6, 0.5, 0.01, 0.01, 0.2],
        "adj_n1": [100, 100, 100, 100, 100, 10],
        "adj_n0": [100, 100, 100, 100, 100, 100],
    })
    r = sb.robust(df, ["tile"]).sort("tile")
    assert r["robust"].to_list() == [True, False, False]
    assert r["other_signs"].to_list() == ["+", "-", ""]  # c's other mix has n1 < 30
    assert r["agree"].to_list() == [2, 1, 1]


# ------------------------------------------------------------------------------ queries ------
def test_tile_market(frames):
    _, seats = frames
    mk = sb.tile_market(sb.mixes(seats))
    r = _one(mk, role="main", players=3, tile="mint")
    assert (r["games"], r["offered"], r["taken"], r["placers"], r["invested"]) == (50, 40, 30,
                                                                                   30, 5)
    assert r["take_rate"] == pytest.approx(0.75)
    assert r["invest_rate"] == pytest.approx(5 / 30)
    assert r["mean_round"] == pytest.approx((20 * 2 + 10 * 5) / 30)
    hf = _one(mk, role="main", players=3, tile="heavy_factory")
    assert hf["offered"] is None and hf["placers"] == 10  # basic tile: from the supply


def test_tile_iwd_crude_and_bot_adjusted(frames):
    _, seats = frames
    bal = sb.tile_balance(sb.mixes(seats))
    g = _one(bal, role="main", players=3, strategy="greedy", tile="mint")
    assert (g["n1"], g["w1"], g["n0"], g["w0"]) == (20, 10.0, 10, 0.0)
    summ = sb.tile_summary(bal)
    r = _one(summ, role="main", players=3, tile="mint")
    # placers: seat 0 in 0-19 (10 wins), seat 1 in 30-39 (10 wins); the other seats of those
    # 30 games: 60 seat-games with 10 wins (seat 1 in 10-19)
    assert (r["n1"], r["w1"], r["n0"], r["w0"]) == (30, 20.0, 60, 10.0)
    assert r["diff"] == pytest.approx(0.5)
    assert r["stack"] == "A"
    # greedy 10/20 vs 0/10, denier 10/10 vs 10/20: both +0.5, equal weights 20/3
    assert r["adj"] == pytest.approx(0.5)
    se = math.sqrt(((0.25 / 20) + (0.25 / 20)) / 4)
    assert r["adj_hi"] - r["adj"] == pytest.approx(1.959964 * se, abs=1e-6)
    assert (r["adj_n1"], r["adj_n0"]) == (30, 30)  # random seats left out
    pooled = sb.pooled_main(sb.tile_summary(bal, pooled=True))
    assert _one(pooled, tile="mint")["adj"] == pytest.approx(0.5)


def test_goals_exclude_not_in_play(frames):
    _, seats = frames
    gs = sb.goal_summary(sb.goal_balance(sb.mixes(seats)))
    b = _one(gs, role="main", players=3, goal="builder", kind="public")
    # in play in games 0-19 only (60 seat-games), scored by seat 0 in 0-9
    assert (b["in_play"], b["achieved"], b["n1"], b["n0"]) == (60, 10, 10, 50)
    assert b["achieve_rate"] == pytest.approx(0.5)
    assert b["diff"] == pytest.approx(1.0 - 10 / 50)
    assert b["adj"] == pytest.approx(1.0)  # greedy 10/10 vs 0/10; denier never scored it
    assert b["bonus"] == 15
    m = _one(gs, role="main", players=3, goal="miser", kind="private")
    assert (m["in_play"], m["achieved"]) == (50, 10)
    assert m["achieve_rate"] == pytest.approx(0.2)
    assert m["diff"] == pytest.approx(1.0)
    assert m["adj"] is None  # only the random bot kept it
    assert gs.filter((pl.col("goal") == "miser") & (pl.col("kind") == "public")).is_empty()


def test_tip_tests(frames):
    _, seats = frames
    tips = sb.tip_tests(seats)
    inc = _one(tips, test="income-first seats - others", role="main", players="all")
    # greedy: 10/10 income-first vs 10/40 -> +0.75; the denier has no income-first seat
    assert inc["diff"] == pytest.approx(0.75)
    assert inc["crude"] == pytest.approx(1.0 - 30 / 90)
    assert (inc["n1"], inc["n0"]) == (10, 90)
    rush = _one(tips, test="early population rush - others", role="main", players="3")
    assert rush["diff"] == pytest.approx(1.0 - 10 / 40)
    fb = _one(tips, test="fell back below a red line - others", role="main", players="all")
    assert fb["diff"] == pytest.approx(0.0 - 20 / 40)
    den = _one(tips, test="denier seats - greedy seats", role="tip:deny", players="all")
    assert (den["n1"], den["w1"], den["n0"], den["w0"]) == (20, 11.0, 40, 19.0)
    assert den["diff"] == pytest.approx(11 / 20 - 19 / 40)
    vic = _one(tips, test="greedy seat after a denier - after a greedy bot", role="tip:deny",
               players="2")
    assert (vic["n1"], vic["w1"], vic["n0"], vic["w0"]) == (20, 9.0, 20, 10.0)
    assert vic["diff"] == pytest.approx(-0.05)
    main_den = _one(tips, test="denier seats - greedy seats", role="main", players="3")
    assert main_den["diff"] == pytest.approx(0.0)
    # q only on the verdict rows (deny tests: the greedy + denier mix)
    assert den["q"] is not None and main_den["q"] is None
    assert tips.filter(pl.col("role").str.starts_with("sweep")).is_empty()
    assert sb.verdict("income-first seats - others", inc, []).startswith("consistent")
    assert sb.verdict("denier seats - greedy seats", den, []) == "not detectable at this n"


def test_profile_components_first_seat(frames):
    games, seats = frames
    prof = sb.strategy_profile(seats)
    rnd = _one(prof, role="main", players=3, strategy="random")
    assert (rnd["n"], rnd["wins"]) == (50, 10.0)
    assert rnd["d_greedy"] == pytest.approx(0.2 - 0.4)
    assert _one(prof, role="main", players=3, strategy="greedy")["d_greedy"] is None
    comp = sb.score_components(sb.mixes(seats))
    w = _one(comp, role="main", players=3, winner=True)
    assert (w["n"], w["score"], w["track_pop"], w["goals_pop"]) == (50, 52.0, 46.0, 6.0)
    dec = _one(sb.decided_by(sb.mixes(seats)), role="main", players=3)
    assert (dec["games"], dec["by_goals"], dec["by_money"]) == (50, 10, 0)
    fs = _one(sb.first_seat(seats), players=3)
    assert fs["win_rate"] == pytest.approx(0.4) and fs["last_rate"] == pytest.approx(0.2)


def test_offset_effect_is_paired(frames):
    games, seats = frames
    off = sb.offset_effect(seats, games)
    assert off["offset"].to_list() == [0, 1]
    base, plus = off.row(0, named=True), off.row(1, named=True)
    assert base["games"] == 10 and base["mean_pop"] == pytest.approx(130 / 3)
    assert base["seat1"] == pytest.approx(1.0) and plus["seat1"] == pytest.approx(0.5)
    assert plus["paired_diff"] == pytest.approx(3.0)
    assert plus["same_winner"] == pytest.approx(0.5)
    assert (base["redlines"], plus["redlines"]) == (5.0, 7.0)


def test_synthetic_report_has_the_sections(runs, tmp_path, monkeypatch):
    monkeypatch.setattr(sb_sections, "MIN_RANK_N", 1)  # rank the synthetic tiles (n = 30)
    out = tmp_path / "report"
    res = write_report(runs, str(out), "Suburbia", [
        {"prefix": "tile_", "title": "Tiles placed (all seats, all games)", "noun": "tile",
         "verb": "placed", "include": None}], [ROLES[i] for i in range(3)])
    md = open(res["markdown"], encoding="utf-8").read()
    for title in ("## Suburbia: tile balance", "## Suburbia: goals",
                  "## Suburbia: the rulebook's tips as claims", "## Suburbia: strategy archetypes",
                  "## Suburbia: score components", "### The red-line offset option (3 players)"):
        assert title in md
    assert "**Highest-IWD tiles**" in md and "Rulebook tip" in md
    for chart in ("suburbia_tiles", "suburbia_goals", "suburbia_tips", "suburbia_archetypes",
                  "suburbia_score_components", "suburbia_market"):
        assert os.path.exists(res[chart])


# ------------------------------------------------------------------------------ end to end ---
def test_real_runs_report(tmp_path):
    from sim.registry import get_game
    from sim.runner import simulate

    game = get_game("suburbia")
    pool = game.pool_strategies
    specs = [
        ("main", 2, pool, 150, {}), ("main", 3, pool, 120, {}),
        ("tip:deny", 3, ["greedy", "denier"], 80, {}),
        ("mix:archetypes", 3, ["residential-civic", "industrial-airports", "commercial"], 60,
         {}),
        ("sweep:red_line_offset=1", 3, pool, 40, {"red_line_offset": 1}),
    ]
    runs, roles = [], []
    for i, (role, p, strats, n, opts) in enumerate(specs):
        runs.append(str(simulate("suburbia", n, p, strats, seed=1, options=opts, jobs=1,
                                 chunk_size=n, out=tmp_path / f"run{i}", seating="pool")))
        roles.append(role)
    res = write_report(runs, str(tmp_path / "report"), game.title, game.impact_groups, roles)
    md = open(res["markdown"], encoding="utf-8").read()
    for title in ("## Suburbia: tile balance", "### Tiles at 2 players", "### Tiles at 3 players",
                  "## Suburbia: goals", "## Suburbia: the rulebook's tips as claims",
                  "### The red-line offset option (3 players)",
                  "## Suburbia: strategy archetypes", "## Suburbia: score components",
                  "## Tiles placed (all seats, all games)"):
        assert title in md, title
    for tip in ("Income early", "Watch the red lines", "Deny the next player"):
        assert f"**{tip}**" in md
    assert "**First-seat advantage**" in md and "**Lowest-IWD tiles**" in md
    html = open(res["html"], encoding="utf-8").read()
    assert html.count("data:image/png;base64,") >= 6
    # the plan gives every run a role, and the generic sections see the main runs only
    plan = game.default_plan()
    assert all("role" in e for e in plan)
    assert sum(e["role"] == "main" for e in plan) == 3
    assert np.isfinite(sum(e["n_games"] for e in plan))


# ------------------------------------------------------------------------------ issue 16 -----
def test_invested_share_of_a_starting_tile_counts_every_owner(frames):
    # each seat starts with a Heavy Factory (not "placed"); markers on it count against every
    # seat that owns one, so the share can never pass 100% (it was 106-118% for the park)
    _, seats = frames
    seats = seats.with_columns(invest_heavy_factory=pl.when(pl.col("game") < 20).then(1)
                               .otherwise(0).cast(pl.Int16))
    mk = sb.tile_market(sb.mixes(seats))
    hf = _one(mk, role="main", players=3, tile="heavy_factory")
    assert (hf["placers"], hf["invested"], hf["owners"]) == (10, 60, 150)
    assert hf["invest_rate"] == pytest.approx(60 / 150)
    mint = _one(mk, role="main", players=3, tile="mint")
    assert mint["owners"] == 30 and mint["invest_rate"] == pytest.approx(5 / 30)
    assert mk["invest_rate"].drop_nulls().max() <= 1.0


def test_bot_adjusted_interval_stays_within_100_points():
    # one stratum with tiny groups: the Wald interval runs past -100 points unclipped
    r = mh_difference([0.0], [2.0], [2.0], [2.0])
    assert r["lo"] == r["lo"] and r["hi"] == r["hi"]
    c = sb.mh_clipped([0.0], [1.0], [1.0], [1.0])
    assert -1.0 <= c["lo"] <= c["diff"] <= c["hi"] <= 1.0
    df = pl.DataFrame({"tile": ["x", "x"], "strategy": ["greedy", "denier"],
                       "n1": [1, 1], "w1": [0.0, 0.0], "n0": [1, 1], "w0": [1.0, 1.0]})
    out = sb.summarise(df, ["tile"])
    assert out["adj_lo"][0] >= -1.0 and out["adj_hi"][0] <= 1.0


def test_labels_come_from_the_manifests_and_solo_games_are_left_out(runs, tmp_path):
    # a greedy-only main run is not "main pool (7 bots)"; a solo run is not a win rate
    solo = write_run(tmp_path / "solo", 1, [(("greedy",), [0], {}, gi) for gi in range(5)],
                     role_name="main", strategies=["greedy"])
    greedy = write_run(tmp_path / "g3", 3, [(("greedy",) * 3, [gi % 3], {}, gi)
                                            for gi in range(6)],
                       role_name="main", strategies=["greedy"])
    res = write_report([greedy, solo], str(tmp_path / "rep"), "Suburbia", [
        {"prefix": "tile_", "title": "Tiles", "noun": "tile", "verb": "placed",
         "include": None}], ["main", "main"])
    md = open(res["markdown"], encoding="utf-8").read()
    assert "main pool (7 bots)" not in md and "seven bots" not in md
    assert "(bots: `greedy` (fixed);" in md
    assert "5 solo games (1 player) are left out" in md
    first = next(line for line in md.splitlines() if "**First-seat advantage**" in line)
    assert "1p" not in first and "100.0% vs parity 100.0%" not in md


def test_rule_holes_found_or_not(runs, tmp_path):
    from analysis.doc import Doc
    from analysis.report.context import ReportContext
    from analysis.report.manifests import load_manifests

    games, seats = q.scan_runs(runs)
    os.makedirs(tmp_path / "out")
    ctx = ReportContext(Doc(), games, seats, runs, load_manifests(runs), ROLES,
                        str(tmp_path / "out"), {}, [], [])
    sb.extend_report(ctx)
    got = {h["finding"].split(" (")[0]: (h["count"], h["n"]) for h in ctx.rule_holes}
    assert got == {
        "the game stopped at the length limit": (0, 50),
        "tiles offered in the market but never placed": (0, 1),   # the Mint, placed
        "goals in play that no seat ever achieved": (0, 2),       # Builder and Miser, met
    }
