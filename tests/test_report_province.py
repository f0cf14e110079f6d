"""Province report extension (analysis/games/province/): exact values of its queries on small
synthetic run folders written with the runner's schema and Province's detail columns, and an
end-to-end report of small real runs.

Synthetic main run M (seed 13, pool "greedy,sniper", Seat 1 = seat 0 moves first), 10 games:
  g0-g5: seat 0 wins; g6, g7: seat 1 wins; g8: a draw; g9: stopped at the limit
  => 9 finished, first player 6 wins, second 2, 1 draw, first-player share 6.5 / 9.
  Camp: first-built by seat 0 in g0-g6 (turn 1, 1, 1, 1, 3, 3, 3), by seat 1 in g7 (turn 2),
        copied by seat 1 in g0, g1; never built in g8 (and g9 is a limit game).
  Crew: drawn in g0-g5 and g8; claimed by seat 0 in g0-g3, by seat 1 in g4, removed in g5,
        unresolved in g8.
  The supply ran dry in g0 and g9 (2 coins missed each).
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
from analysis import stats
from analysis.games import province as pv
from analysis.report import write_report
from analysis.stats import wilson_interval
from tests.clustered import clustered_diff

STRUCTS = [s.lower() for s in pv.STRUCTURES]
GOALS = [pv.slug(g) for g in pv.GOALS]
GAME_SCHEMA = {
    "game": pl.Int64, "seed": pl.UInt64, "players": pl.Int8, "options": pl.Utf8,
    "strategies": pl.Utf8, "first_player": pl.Int8, "turns": pl.Int32, "decisions": pl.Int32,
    "end_reason": pl.Utf8, "n_winners": pl.Int8, "winners": pl.List(pl.Int8),
}
DETAIL = ([f"built_{s}" for s in STRUCTS] + [f"turnbuilt_{s}" for s in STRUCTS]
          + [f"goal_{g}" for g in GOALS] + [f"goalin_{g}" for g in GOALS]
          + ["structures", "coins_dry", "coins_missed"])
SEAT_SCHEMA = {
    "game": pl.Int64, "players": pl.Int8, "seat": pl.Int8, "strategy": pl.Utf8,
    "score": pl.Int32, "rank": pl.Int8, "win_share": pl.Float64,
    **{c: pl.Int16 for c in DETAIL},
}




def G(winners, *, strats=("greedy", "sniper"), seed=None, limit=False, turns=12,
      end="seven_structures", built=None, goals=None, dry=False, first=0):
    """One game: ``built`` {(seat, struct): (1 first | 2 copy, turn)}, ``goals`` {goal:
    result} with result 0/1 (claimed by that seat), -1 removed, None drawn but unresolved."""
    return {"winners": list(winners), "strats": list(strats), "seed": seed, "limit": limit,
            "turns": turns, "end": end, "built": built or {}, "goals": goals or {},
            "dry": dry, "first": first}


def write_run(root, specs, *, seed=13, strategies=("greedy", "sniper"), seating="pool",
              options=None):
    options = {"p2_coins": 3, "coin_total": 35, "recon_tweak": "none", **(options or {})}
    non_default = {k: v for k, v in options.items()
                   if (k, v) not in (("p2_coins", 3), ("coin_total", 35), ("recon_tweak", "none"))}
    games, seats = [], []
    for i, g in enumerate(specs):
        k = len(g["winners"])
        games.append({
            "game": i, "seed": g["seed"] if g["seed"] is not None else 5000 + i, "players": 2,
            "options": json.dumps(non_default, sort_keys=True),
            "strategies": ",".join(g["strats"]), "first_player": g["first"],
            "turns": g["turns"], "decisions": 4 * g["turns"],
            "end_reason": "limit" if g["limit"] else g["end"], "n_winners": k,
            "winners": g["winners"],
        })
        for s in range(2):
            won = s in g["winners"]
            row = {"game": i, "players": 2, "seat": s, "strategy": g["strats"][s],
                   "score": 5 if won else 3, "rank": 0 if g["limit"] else (1 if won else 2),
                   "win_share": 1.0 / k if won else 0.0}
            for st in STRUCTS:
                kind, turn = g["built"].get((s, st), (0, -1))
                row[f"built_{st}"], row[f"turnbuilt_{st}"] = kind, turn
            for gl in GOALS:
                drawn = gl in g["goals"]
                res = g["goals"].get(gl, "absent")
                row[f"goalin_{gl}"] = int(drawn)
                row[f"goal_{gl}"] = -1 if res == -1 else (1 if res == s else 0)
            row["structures"] = sum(1 for (x, _) in g["built"] if x == s)
            row["coins_dry"] = int(g["dry"])
            row["coins_missed"] = 2 if g["dry"] and s == 0 else 0
            seats.append(row)
    for t in ("games", "seats"):
        os.makedirs(root / t)
    pl.DataFrame(games, schema=GAME_SCHEMA).write_parquet(root / "games" / "chunk-000000.parquet")
    pl.DataFrame(seats, schema=SEAT_SCHEMA).write_parquet(root / "seats" / "chunk-000000.parquet")
    manifest = {"game": "province", "n_games": len(specs), "players": 2,
                "strategies": list(strategies), "seating": seating, "seed": seed,
                "options": options, "chunk_size": 64, "data_status": "synthetic",
                "boardsim_version": "9.9.9", "complete": True}
    (root / "manifest.json").write_text(json.dumps(manifest))
    return str(root)


def main_specs():
    camp_turns = [1, 1, 1, 1, 3, 3, 3]
    specs = []
    for i in range(10):
        winners = [0] if i < 6 else [1] if i < 8 else [0, 1] if i == 8 else []
        built = {}
        if i < 7:
            built[(0, "camp")] = (1, camp_turns[i])
        elif i == 7:
            built[(1, "camp")] = (1, 2)
        if i < 2:
            built[(1, "camp")] = (2, 4)
        goals = {}
        if i < 6 or i == 8:
            goals["crew"] = 0 if i < 4 else 1 if i == 4 else -1 if i == 5 else None
        specs.append(G(winners, limit=(i == 9), built=built, goals=goals,
                       dry=i in (0, 9), turns=10 + i, end="goals" if i in (1, 2) else
                       "seven_structures"))
    return specs


@pytest.fixture
def main_run(tmp_path):
    return write_run(tmp_path / "p2coins-3-n10", main_specs())


def _frames(*runs):
    return q.scan_runs(list(runs))


def test_game_frame_and_order_rates(main_run):
    games, seats = _frames(main_run)
    gf = pv.game_frame(games, seats, [0])
    assert len(gf) == 10
    assert gf["finished"].to_list() == [True] * 9 + [False]
    assert gf["draw"].to_list() == [False] * 8 + [True, False]
    assert gf["fp_share"].to_list() == [1.0] * 6 + [0.0, 0.0, 0.5, 0.0]
    assert gf["dry"].to_list() == [1] + [0] * 8 + [1]
    r = pv.rates_all(gf)
    assert (r["n"], r["n_limit"], r["fp_wins"], r["sp_wins"], r["draws"]) == (9, 1, 6, 2, 1)
    assert r["share"] == pytest.approx(6.5)
    assert r["share_rate"] == pytest.approx(6.5 / 9)
    lo, hi = wilson_interval(6, 9)
    assert (r["fp_lo"], r["fp_hi"]) == pytest.approx((lo[0], hi[0]))
    lo, hi = wilson_interval(6.5, 9)
    assert (r["share_lo"], r["share_hi"]) == pytest.approx((lo[0], hi[0]))


def test_first_player_orientation(tmp_path):
    # seat 1 moves first in game 0 and wins: the first player won
    run = write_run(tmp_path / "r", [G([1], first=1), G([1], first=0)])
    games, seats = _frames(run)
    gf = pv.game_frame(games, seats, [0])
    assert gf["fp_share"].to_list() == [1.0, 0.0]
    assert gf["sp_share"].to_list() == [0.0, 1.0]


def test_paired_difference(tmp_path):
    base = write_run(tmp_path / "base", [G([0]), G([0]), G([1]), G([0, 1]), G([0]),
                                          G([0], strats=("sniper", "greedy"))])
    # g0 same, g1 flips to a loss, g2 same, g3 draw -> win, g4 limit (dropped),
    # g5: other strategies (not paired)
    other = write_run(tmp_path / "other", [G([0]), G([1]), G([1]), G([0]), G([], limit=True),
                                            G([1], strats=("greedy", "greedy"), seed=5005)])
    games, seats = _frames(base, other)
    gf = pv.game_frame(games, seats, [0, 1])
    d = pv.paired_difference(gf.filter(pl.col("run") == 0), gf.filter(pl.col("run") == 1))
    x = np.array([0.0, -1.0, 0.0, 0.5])
    se = x.std(ddof=1) / 2
    assert d["n"] == 4
    assert d["diff"] == pytest.approx(-0.125)
    assert (d["lo"], d["hi"]) == pytest.approx((-0.125 - stats.Z95 * se, -0.125 + stats.Z95 * se))
    assert d["changed"] == pytest.approx(0.5)
    same = pv.paired_difference(gf.filter(pl.col("run") == 0), gf.filter(pl.col("run") == 0))
    assert (same["diff"], same["lo"], same["hi"], same["p"]) == (0.0, 0.0, 0.0, 1.0)
    t = pv.paired_difference(gf.filter(pl.col("run") == 0), gf.filter(pl.col("run") == 0),
                             "turns")
    assert t["diff"] == 0.0 and t["n"] == 6


def test_pair_summary(tmp_path):
    ab = write_run(tmp_path / "ab", [G([0], strats=("a", "b")) for _ in range(3)]
                   + [G([1], strats=("a", "b"))], strategies=("a", "b"), seating="fixed",
                   seed=11)
    ba = write_run(tmp_path / "ba", [G([0], strats=("b", "a")), G([1], strats=("b", "a")),
                                     G([0, 1], strats=("b", "a")), G([0], strats=("b", "a"))],
                   strategies=("b", "a"), seating="fixed", seed=11)
    games, seats = _frames(ab, ba)
    gf = pv.game_frame(games, seats, [0, 1])
    p = pv.pair_summary(gf, "a", "b")
    # first-player share per seed: (1+1)/2, (1+0)/2, (1+.5)/2, (0+1)/2 -> 2.75 / 4
    # a's share: (1+0)/2, (1+1)/2, (1+.5)/2, (0+0)/2 -> 2.25 / 4
    assert p["n"] == 4
    assert p["first"] == pytest.approx(2.75 / 4)
    assert p["a_share"] == pytest.approx(2.25 / 4)
    lo, hi = wilson_interval(2.75, 4)
    assert (p["first_lo"], p["first_hi"]) == pytest.approx((lo[0], hi[0]))
    rates = pv.order_rates(gf, ["strategies"])
    r = rates.filter(pl.col("strategies") == "b,a").row(0, named=True)
    assert (r["fp_wins"], r["sp_wins"], r["draws"]) == (2, 1, 1)


def test_structure_stats(main_run):
    games, seats = _frames(main_run)
    st = pv.structure_stats(games, seats, [0])
    camp = st.filter(pl.col("structure") == "Camp").row(0, named=True)
    assert (camp["games"], camp["built"], camp["fp_first"], camp["copies"]) == (9, 8, 7, 2)
    assert camp["built_rate"] == pytest.approx(8 / 9)
    assert camp["fp_first_rate"] == pytest.approx(7 / 8)
    assert camp["copy_rate"] == pytest.approx(2 / 9)
    turns = np.array([1, 1, 1, 1, 3, 3, 3, 2.0])
    assert camp["turn_mean"] == pytest.approx(turns.mean())
    half = stats.Z95 * turns.std(ddof=1) / math.sqrt(8)
    assert (camp["turn_lo"], camp["turn_hi"]) == pytest.approx(
        (turns.mean() - half, turns.mean() + half))
    # first builders: seat 0 in g0-g6 (wins g0-g5 = 6), seat 1 in g7 (wins) -> 7 of 8
    # others: 18 finished seat-games - 8 = 10, win share 9 (one per finished game) - 7 = 2
    assert (camp["n_with"], camp["wins_with"]) == (8, 7.0)
    assert (camp["n_without"], camp["wins_without"]) == (10, pytest.approx(2.0))
    # the seats of finished games g0-g8 (seat 0, seat 1): win shares and first builders;
    # the interval is clustered by game (the two seats of one game are not independent)
    y = [1, 0] * 6 + [0, 1] * 2 + [0.5, 0.5]
    x = [1, 0] * 7 + [0, 1] + [0, 0]
    d, lo, hi = clustered_diff(y, x, np.repeat(np.arange(9), 2))
    assert d == pytest.approx(7 / 8 - 2 / 10)
    assert hi == 1.0  # clipped: the normal interval of 9 games passes 1
    assert (camp["diff"], camp["lo"], camp["hi"]) == pytest.approx((d, lo, hi))
    bank = st.filter(pl.col("structure") == "Bank").row(0, named=True)
    assert bank["built"] == 0 and bank["diff"] is None and math.isnan(bank["turn_mean"])


def test_goal_stats(main_run):
    games, seats = _frames(main_run)
    gs = pv.goal_stats(games, seats, [0])
    crew = gs.filter(pl.col("goal") == "Crew").row(0, named=True)
    assert (crew["games"], crew["drawn"], crew["claimed"], crew["removed"],
            crew["unresolved"], crew["fp_claims"]) == (9, 7, 5, 1, 1, 4)
    assert crew["claim_rate"] == pytest.approx(5 / 7)
    assert crew["removal_rate"] == pytest.approx(1 / 7)
    assert crew["fp_claim_rate"] == pytest.approx(4 / 5)
    # claimants: seat 0 of g0-g3 (all won), seat 1 of g4 (lost) -> 4 of 5; the other 9
    # seat-games of g0-g5 and g8 have win share 1 (g4 seat 0) + 1 (g5 seat 0) + 1 (g8 draw)
    assert (crew["n_with"], crew["wins_with"]) == (5, 4.0)
    assert (crew["n_without"], crew["wins_without"]) == (9, pytest.approx(3.0))
    # the seats of the games where Crew was drawn (g0-g5, g8), clustered by game
    y = [1, 0] * 6 + [0.5, 0.5]
    x = [1, 0] * 4 + [0, 1] + [0, 0] + [0, 0]
    d, lo, hi = clustered_diff(y, x, np.repeat([0, 1, 2, 3, 4, 5, 8], 2))
    assert d == pytest.approx(4 / 5 - 3 / 9)
    assert (crew["diff"], crew["lo"], crew["hi"]) == pytest.approx((d, lo, hi))
    hoard = gs.filter(pl.col("goal") == "Hoard").row(0, named=True)
    assert hoard["drawn"] == 0 and hoard["claim_rate"] is None


def test_supply_length_and_second_builds(main_run, tmp_path):
    games, seats = _frames(main_run)
    gf = pv.game_frame(games, seats, [0]).with_columns(group=pl.lit("m"))
    sl = pv.supply_length(gf).row(0, named=True)
    assert (sl["games"], sl["dry"], sl["n_finished"], sl["n_limit"]) == (10, 2, 9, 1)
    assert sl["dry_rate"] == pytest.approx(0.2)
    assert sl["missed_mean"] == pytest.approx(0.4)
    t = np.arange(10, 19, dtype=float)
    assert sl["turn_mean"] == pytest.approx(t.mean())
    assert (sl["turn_q25"], sl["turn_q50"], sl["turn_q75"]) == pytest.approx(
        tuple(np.quantile(t, [0.25, 0.5, 0.75])))
    assert sl["share_goals"] == pytest.approx(2 / 9)
    assert sl["share_seven_structures"] == pytest.approx(7 / 9)
    sfb = pv.second_first_builds(games, seats, {0: 3})
    camp = sfb.filter(pl.col("structure") == "Camp").row(0, named=True)
    assert (camp["key"], camp["games"], camp["sp_first"]) == (3, 9, 1)


def test_helpers():
    p = [0.01, 0.04, 0.03, float("nan"), 0.5]
    q_ = stats.bh_adjust(p)
    ref = multipletests([0.01, 0.04, 0.03, 0.5], method="fdr_bh")[1]
    assert np.isnan(q_[3])
    assert q_[[0, 1, 2, 4]] == pytest.approx(ref)
    assert pv.tweak_text("Camp.coins+1") == "Camp coins 1 -> 2"
    assert pv.tweak_text("Bank.labor-1") == "Bank labor 3 -> 2"
    assert pv.run_label("reports/_runs/province/p2coins-3-n50000") == "p2coins-3"
    assert stats.two_proportion_pvalue(5, 10, 5, 10)[0] == pytest.approx(1.0)


def test_extension_on_synthetic_plan(tmp_path, main_run):
    """Every role of the default plan, tiny: the sections appear with the right numbers."""
    specs = main_specs()
    flipped = [G([1] if s["winners"] == [0] else s["winners"], limit=s["limit"],
                 built=s["built"], goals=s["goals"]) for s in specs]   # second player wins
    runs = {
        "main": main_run,
        "sweep:p2_coins=4": write_run(tmp_path / "p2coins-4-n10", flipped,
                                      options={"p2_coins": 4}),
        "tweak:Camp.coins+1": write_run(tmp_path / "tweak-Camp.coinsp1-n10", flipped,
                                        options={"recon_tweak": "Camp.coins+1"}),
        "variant:coin_total=28": write_run(tmp_path / "coins28-n10", specs,
                                           options={"coin_total": 28}),
        "pairing": write_run(tmp_path / "greedy-vs-sniper-n10", specs[:9], seed=11,
                             strategies=("greedy", "sniper"), seating="fixed"),
        "pairing2": write_run(tmp_path / "sniper-vs-greedy-n10",
                              [G(s["winners"], strats=("sniper", "greedy")) for s in specs[:9]],
                              seed=11, strategies=("sniper", "greedy"), seating="fixed"),
        "self": write_run(tmp_path / "greedy-self-n10",
                          [G([0], strats=("greedy", "greedy")) for _ in range(4)], seed=12,
                          strategies=("greedy", "greedy"), seating="fixed"),
    }
    roles = [r.rstrip("2") for r in runs]
    out = tmp_path / "report"
    from sim.registry import get_game

    game = get_game("province")
    res = write_report(list(runs.values()), str(out), "Province", game.impact_groups, roles)
    md = open(res["markdown"], encoding="utf-8").read()
    for title in ("## Bot pairings: first and second seat", "## Second player's starting coins",
                  "## Structures: who builds first, when, and does it win",
                  "## Goal tokens: claims, removals and the claimant's win rate",
                  "## Coin supply and game length",
                  "## Sensitivity to the reconstructed structure costs"):
        assert title in md
    for chart in ("province_pairings", "province_p2_coins", "province_structures",
                  "province_goals", "province_supply_length", "province_sensitivity"):
        assert os.path.exists(res[chart])
    # main: first-player share 6.5/9 = 72.2%; flipped runs: the first player wins no game
    # (n = 9: the interval includes parity)
    assert "**yes**: the seats are consistent with parity at this n" in md
    assert "first-player share 72.2%" in md
    # sweep: 4 coins gives 0.5/9 = 5.6%, which is farther from parity than 72.2%
    assert "**3 coins**" in md
    assert "`greedy` vs `sniper`" in md and "`sniper` vs `greedy`" in md
    assert "**Camp coins 1 -> 2**" in md
    # the paired shift of the sweep and tweak runs: mean of per-game differences
    base = [1.0] * 6 + [0.0, 0.0, 0.5]
    new = [0.0] * 6 + [0.0, 0.0, 0.5]
    shift = np.mean(np.array(new) - np.array(base))
    assert f"{shift * 100:+.1f}" in md
    assert "Game-specific answers" in md


def test_real_runs_report(tmp_path):
    """A small real plan (a few hundred games) reports without error."""
    from sim.registry import get_game
    from sim.runner import simulate

    game = get_game("province")
    plan = [p for p in game.default_plan()
            if p["name"] in ("greedy-vs-sniper", "sniper-vs-greedy", "greedy-self", "p2coins-3",
                             "p2coins-4", "coins28", "tweak-Camp.coinsp1", "last-turn")]
    assert len(plan) == 8
    runs, roles = [], []
    for p in plan:
        n = 150
        runs.append(str(simulate("province", n, 2, p["strategies"], seed=p["seed"],
                                 options=p.get("options", {}), jobs=1, chunk_size=n,
                                 out=tmp_path / f"{p['name']}-n{n}",
                                 seating=p["seating"])))
        roles.append(p["role"])
    res = write_report(runs, str(tmp_path / "report"), game.title, game.impact_groups, roles)
    md = open(res["markdown"], encoding="utf-8").read()
    for title in ("## Bot pairings", "## Second player's starting coins", "## Structures:",
                  "## Goal tokens:", "## Coin supply and game length",
                  "## Sensitivity to the reconstructed structure costs"):
        assert title in md
    assert "Is one extra coin enough for the second player?" in md
    assert "Closest to parity among 3, 4 starting coins" in md
    assert "Camp coins 1 -> 2" in md


# ---------------------------------------------------------------- issue 16 ---------------
def _flipped():
    return [G([1] if s["winners"] == [0] else s["winners"], limit=s["limit"],
              built=s["built"], goals=s["goals"], turns=s["turns"]) for s in main_specs()]


def _report(tmp_path, runs, roles=None):
    from sim.registry import get_game

    res = write_report(runs, str(tmp_path / "rep"), "Province",
                       get_game("province").impact_groups, roles)
    return open(res["markdown"], encoding="utf-8").read()


def test_runs_with_other_options_are_never_pooled_as_the_rules(tmp_path, main_run):
    # `boardsim report` over two runs without roles: the p2_coins=4 run is its own sweep value
    four = write_run(tmp_path / "p2coins-4-n10", _flipped(), options={"p2_coins": 4})
    md = _report(tmp_path, [main_run, four])
    head = next(line for line in md.splitlines() if "one extra coin" in line)
    assert "first-player share 72.2%" in head          # 6.5 / 9, the default-rules run only
    assert "| 4 | 9 |" in md                            # the 4-coin row of the sweep table
    # the paired shift says which games and which baseline it uses (6.5/9 -> 0.5/9)
    assert "(72.2% -> 5.6% on the n=9 paired games)" in md


def test_labels_come_from_the_manifest_and_random_play_answers_nothing(tmp_path):
    rnd = write_run(tmp_path / "p2coins-3-n10",
                    [G(s["winners"], strats=("random", "random"), limit=s["limit"])
                     for s in main_specs()], strategies=("random",), seating="fixed")
    md = _report(tmp_path, [rnd])
    head = next(line for line in md.splitlines() if "one extra coin" in line)
    assert "bots `random` (fixed seating)" in head and "pool of scripted bots" not in head
    assert "**not answered**" in head and "**yes**" not in head
    # one coin value only: no claim about a trend in the coins
    assert "monotone" not in md
    # a Province tie is a shared win; the answer in full says so (the verdict keeps one line)
    full = md[md.index("## Game-specific answers in full"):]
    assert "ties (both seats share the win" in next(
        line for line in full.splitlines() if "one extra coin" in line)


def test_shift_text_needs_like_for_like_runs():
    from analysis.games.province.sections import _shift_text

    cell = {(3, n): {"sp_first_rate": 0.5} for n in pv.STRUCTURES}
    cell.update({(4, n): {"sp_first_rate": 0.5} for n in pv.STRUCTURES})
    cell[(4, "Mill")] = {"sp_first_rate": 1.0}
    same = {3: ((13, ("greedy",), "pool", 10),), 4: ((13, ("greedy",), "pool", 10),)}
    other = {3: ((13, ("greedy", "random"), "pool", 10),), 4: ((13, ("greedy",), "pool", 10),)}
    assert "Mill in 100.0% of games, not 50.0%" in _shift_text(cell, 3, [3, 4], same)
    assert _shift_text(cell, 3, [3, 4], other) == ""


def test_turns_margins_and_lender(main_run):
    games, seats = q.scan_runs([main_run])
    t = pv.margin_lender(games, seats.with_columns(
        lender_end=pl.when(pl.col("game") < 3).then(pl.col("seat")).otherwise(0)), [0])
    # 9 finished games of 10..18 turns: 5..9 turns per player, none within 15-25
    assert t["n"] == 9 and (t["tpp_q25"], t["tpp_q50"], t["tpp_q75"]) == (6.0, 7.0, 8.0)
    assert t["in_rate"] == 0.0 and t["in_lo"] == pytest.approx(0.0, abs=1e-12)
    # 8 decided games won 5-3; the tie (g8) has no margin
    assert t["n_decided"] == 8 and t["margin_mean"] == 2.0
    # seat 1 holds the Lender at the end of g0-g2 (seat 0 won them)
    assert (t["lender"], t["lender_rate"], t["lwin_rate"]) == (3, 3 / 9, 0.0)


def test_rule_holes_found_or_not(tmp_path, main_run):
    from analysis.doc import Doc
    from analysis.report.context import ReportContext
    from analysis.report.manifests import load_manifests

    games, seats = q.scan_runs([main_run])
    ctx = ReportContext(Doc(), games, seats, [main_run], load_manifests([main_run]),
                        {0: "main"}, str(tmp_path / "out"), {}, [], [])
    os.makedirs(tmp_path / "out")
    pv.extend_report(ctx)
    got = {h["finding"].split(" (")[0]: (h["count"], h["n"]) for h in ctx.rule_holes}
    assert got == {
        "the game stopped at the length limit without ending": (1, 10),
        "the coin supply ran dry": (2, 10),            # g0 and g9
        "structures never built": (7, 8),               # only the Camp
        "goal tokens drawn but never claimed": (0, 1),  # the Crew, claimed
    }
