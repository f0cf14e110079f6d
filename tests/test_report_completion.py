"""Issue 16 leftovers in the generic report (exact values on synthetic run folders, no
simulation): deadlock games counted apart from limit games in the completion and seat tables;
no "too few games" warning beside a resolution the report prints as ±1.0; the sample-size rows
of component differences agree with the game-clustered intervals printed beside them.
"""

from __future__ import annotations

import math

import polars as pl
import pytest

from analysis import queries as q
from analysis.report import write_report
from analysis.report.sample_size import (
    Need,
    design_effect,
    difference_need,
    resolution_text,
    share_text,
    short_warning,
)
from analysis.stats import difference_half_width, n_for_difference, wilson_interval
from tests.test_analysis import _game, write_run

GR = ("greedy", "random")


def _specs(deadlocks: int):
    """2 players: seat 1 wins 30, seat 2 wins 10, 3 games at the limit, ``deadlocks`` games
    ended in a deadlock."""
    return ([_game(GR, [0]) for _ in range(30)] + [_game(GR, [1]) for _ in range(10)]
            + [_game(GR, [], limit=True) for _ in range(3)]
            + [_game(GR, [], limit="deadlock") for _ in range(deadlocks)])


def _md(tmp_path, deadlocks: int) -> str:
    run = write_run(tmp_path / f"r{deadlocks}", 2, _specs(deadlocks), seed=1,
                    strategies=list(GR), seating="fixed")
    return open(write_report([run], str(tmp_path / f"rep{deadlocks}"), "Go Town")["markdown"]
                ).read()


def test_completion_counts_deadlocks_beside_the_limit(tmp_path):
    """Defect: the completion table had no deadlock column (Go Town's rules deadlock was only
    visible as a missing game)."""
    md = _md(tmp_path, 2)
    lo, hi = (float(x[0]) for x in wilson_interval([3], [45]))
    assert ("| Players | Games | Finished | No winner | Shared win (tie) | Stopped at limit | "
            "Limit rate | 95% CI | Deadlock |") in md
    assert f"| 2 | 45 | 40 | 0 | 0 | 3 | 6.67% | [{lo * 100:.2f}, {hi * 100:.2f}] | 2 |" in md
    comp = q.completion(q.scan_runs([str(tmp_path / "r2")])[0])
    assert comp.select("limit", "deadlock", "finished").row(0) == (3, 2, 40)


def test_seat_table_says_limit_and_deadlock_apart(tmp_path):
    """Defect: "Limit games (excluded)" counted deadlocked games as limit games (5 here)."""
    md = _md(tmp_path, 2)
    seats = md[md.index("## Seat win rates"):md.index("## Balance and completion")]
    assert ("| Players | Seat | n (finished games) | Wins | Win rate | 95% CI | Parity | "
            "Limit games (excluded) | Deadlock games (excluded) |") in seats
    lo, hi = (float(x[0]) for x in wilson_interval([30], [40]))
    assert (f"| 2 | Seat 1 | 40 | 30 | 75.0% | [{lo * 100:.1f}, {hi * 100:.1f}] | 50% | 3 | 2 |"
            in seats)
    assert "or ended in a deadlock" in seats
    # without a deadlock the table keeps its one column (no column of zeros)
    clean = _md(tmp_path, 0)
    seats = clean[clean.index("## Seat win rates"):clean.index("## Balance and completion")]
    assert "Deadlock games" not in seats
    assert "| 2 | Seat 1 | 40 | 30 | 75.0% |" in seats and seats.count("| 50% | 3 |") == 2


def _need(hw: float, games_need: float, metric: str = "Seat 1 win rate") -> Need:
    return Need(2, metric, "50.0% [49.0, 51.0]", "finished games", 10_000, 0.0, 10_000.0,
                games_need, hw)


def test_no_too_few_warning_beside_a_printed_one_point_resolution():
    """Defect (Little Town): a "too few games" warning beside a run of 10,000 games that
    resolves ±1.0 points (10,004 needed)."""
    n = _need(0.010002, 10_004)
    assert resolution_text(n) == "±1.0"
    assert n.enough and short_warning(n) == ""
    n = _need(0.0106, 11_236)  # prints ±1.1: too few, and says so
    assert not n.enough
    assert short_warning(n) == (
        " ⚠ **Too few games for 1-point resolution:** this run resolves ±1.1 points; ±1 point "
        "needs about 11,236 finished 2-player games (10,000 in the run).")
    m = _need(1.004, 10_081, "Mean score (score points)")  # prints ±1.00 score points
    assert m.enough and short_warning(m) == ""
    assert not _need(1.006, 10_121, "Mean score (score points)").enough
    # a share just under the requirement never prints as 100%
    assert share_text(10_000, 10_004) == "99.96% of it"
    assert share_text(10_000, 10_000) == "all of it"
    assert share_text(4_800, 10_000) == "48.0% of it"


def test_component_requirement_uses_the_clustered_interval():
    """Defect: the sample-size table sized component differences as if seats were
    independent while the interval printed beside them is clustered by game."""
    assert design_effect(0.12, 0.10) == pytest.approx(1.44)
    assert math.isnan(design_effect(0.12, 0.0)) and math.isnan(design_effect(math.nan, 0.1))
    indep = difference_need(3, "x", "", 0.5, 300, 0.25, 600, 300)
    hw0 = float(difference_half_width(0.5, 300, 0.25, 600)[0])
    assert indep.hw == pytest.approx(hw0) and indep.unit == "seat-games"
    assert math.isnan(indep.deff)
    need0 = float(n_for_difference(0.5, 300, 0.25, 600)[0])
    assert indep.need == need0
    cl = difference_need(3, "x", "", 0.5, 300, 0.25, 600, 300, clustered_hw=hw0 * 1.2)
    assert cl.deff == pytest.approx(1.44)
    assert cl.hw == pytest.approx(hw0 * 1.2)
    assert cl.need == math.ceil(need0 * 1.44)
    assert cl.games_need == math.ceil(cl.need * 300 / 900)
    assert cl.unit == "seat-games, clustered by game (design effect 1.44)"


def test_report_sample_size_row_matches_the_clustered_interval(tmp_path):
    """In a written report, the component row's "Resolution now" is the half-width of the
    clustered interval printed in its "Estimate" column."""
    specs = ([_game(GR, [0], drill={0: 1}) for _ in range(30)]
             + [_game(GR, [1], drill={1: 1}) for _ in range(10)]
             + [_game(GR, [0]) for _ in range(20)] + [_game(GR, [1]) for _ in range(20)])
    run = write_run(tmp_path / "r", 2, specs, seed=1, strategies=list(GR), seating="fixed")
    md = open(write_report([run], str(tmp_path / "rep"), "Go Town")["markdown"]).read()
    imp = q.component_impact(q.scan_runs([run])[1])
    r = imp.filter(pl.col("component") == "DRILL").row(0, named=True)
    hw = max(r["diff"] - r["lo"], r["hi"] - r["diff"])
    indep = float(difference_half_width(r["rate_with"], r["n_with"], r["rate_without"],
                                        r["n_without"])[0])
    size = md[md.index("## Sample size"):]
    row = next(line for line in size.splitlines() if line.startswith("| 2 | **DRILL**"))
    cells = [c.strip() for c in row.split("|")[1:-1]]
    assert cells[3] == f"seat-games, clustered by game (design effect {(hw / indep) ** 2:.2f})"
    assert cells[6] == f"±{hw * 100:.1f}"
    assert "scale the seat-games needed by its design effect" in size


def test_clean_checks_per_player_count_said_once():
    """Go Town's verdict listed each clean check once per player count (8 lines of one
    cell); now once, over the player counts, with the upper bound of the pooled interval."""
    from analysis.report.verdict import rule_hole_rows

    holes = [dict(finding=f"{p} players: the game cannot end", count=0, n=20, unit="games",
                  reading="", fix=None) for p in (2, 3, 4)]
    holes.append(dict(finding="card types never played", count=0, n=17, unit="card types",
                      reading="", fix=None))
    holes.append(dict(finding="4 players: the market runs dry", count=0, n=20, unit="games",
                      reading="", fix=None))
    (row,) = rule_hole_rows(holes)
    assert row[:4] == ["Rule holes: none found", "0", "", ""]
    hi60 = float(wilson_interval([0], [60])[1][0])
    hi20 = float(wilson_interval([0], [20])[1][0])
    # no interval on a list of types (a count of 17 card types is not a sample of games)
    assert row[4] == (f"the game cannot end (2p, 3p, 4p): 0 of 60 games (≤ "
                      f"{hi60 * 100:.2f}%); card types never played: 0 of 17 card types; "
                      f"the market runs dry (4 players): 0 of 20 games "
                      f"(≤ {hi20 * 100:.2f}%).")


# ------------------------------------------------------------- per-game scan findings -----
def test_ranking_states_only_separated_orderings():
    """Suburbia said "`a` 45% [..] > `b` 30% [..] > `c` 27% [..]" from overlapping
    intervals; the ranking lists them and names only the separated pairs."""
    from analysis.report.scan import scan_text
    from analysis.report.wording import ranking_text

    items = [("`a`", "62.5% [40.0, 80.0]", 0.40, 0.80), ("`b`", "45.0% [30.0, 60.0]", 0.30, 0.60),
             ("`c`", "10.0% [2.0, 25.0]", 0.02, 0.25)]
    text = ranking_text(items)
    assert text == ("`a` 62.5% [40.0, 80.0], `b` 45.0% [30.0, 60.0], `c` 10.0% [2.0, 25.0] "
                    "(`a` > `c`, `b` > `c`; the other pairs overlap)")
    assert scan_text(text, "X", ["X"]) == []
    assert ranking_text(items[:2]).endswith("(no two separated: overlapping 95% intervals)")
    assert scan_text("`a` 62.5% [40.0, 80.0] > `b` 45.0% [30.0, 60.0]", "X", ["X"])


def test_province_effect_ratio_is_never_a_share_above_100():
    """Province: "the largest is 140% of that effect"."""
    from analysis.games.province.sections import _ratio_text

    assert _ratio_text(1.4) == "1.4 times"
    assert _ratio_text(0.6) == "60% of"


def test_wolves_score_parts_in_points_per_100_not_percent():
    """Wolves: "collapses -1%" / "-2.4% [-3.1, -1.7]" printed as percentages."""
    from analysis.games.three_little_wolves.sections import per100, per100_ci

    assert per100(-0.024) == "-2.4" and per100_ci(-0.031, -0.017) == "[-3.1, -1.7]"
    assert per100(None) == "n/a"


def test_a_check_per_player_count_is_one_verdict_row_whatever_its_details():
    """The cube-supply check of Little Town gave one verdict row per player count (each count
    names its own cube types in parentheses): 3 rows of 5 lines. Now one row: the count with
    the highest rate, its detail opening the reading, the other counts listed."""
    from analysis.report.verdict import rule_hole_rows

    holes = [dict(finding="2 players: a cube supply ran out (wood 10.0% of games)", count=1,
                  n=10, unit="games", reading="cubes are lost", fix="raise the supply"),
             dict(finding="3 players: a cube supply ran out (wood 30.0%, fish 20.0% of games)",
                  count=3, n=10, unit="games", reading="cubes are lost", fix="raise the supply"),
             dict(finding="4 players: a cube supply ran out", count=0, n=10, unit="games",
                  reading="cubes are lost", fix=None)]
    (row,) = rule_hole_rows(holes)
    assert row[0] == "Rule hole: a cube supply ran out"
    assert row[1] == "30.00% (3p)" and row[3] == "3 of 10 games"
    lo2, hi2 = (float(x[0]) * 100 for x in wilson_interval([1], [10]))
    lo4, hi4 = (float(x[0]) * 100 for x in wilson_interval([0], [10]))
    assert row[4] == (f"Wood 30.0%, fish 20.0% of games. Cubes are lost. Other counts: 2p "
                      f"10.00% [{lo2:.2f}, {hi2:.2f}]; 4p 0.00% [{lo4:.2f}, {hi4:.2f}]. "
                      "Fix: raise the supply.")
