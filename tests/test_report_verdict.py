"""Issue 16: the verdict screen, its rule holes, the wording rules, the charts, runs with other
settings side by side, and the scan of written reports, on the synthetic run folders of
tests/test_analysis.py (exact values; no simulation).

Each test names the defect of the issue it guards (each failed on the code before the fix).
"""

from __future__ import annotations

import json
import types

import matplotlib.pyplot as plt
import polars as pl
import pytest

from analysis import charts
from analysis import games as game_ext
from analysis.doc import CSS, Doc, Table, render_html, render_markdown, split_table
from analysis.index import write_index
from analysis.report import write_report
from analysis.report.scan import scan_text
from analysis.report.verdict import wilson as wilson_interval
from analysis.report.wording import CAUSAL_PHRASES, mix_label, order_text, rare_text
from tests.test_analysis import _game, write_run

TITLES = ["Go Town", "Little Town", "The Three Little Wolves", "Province", "Suburbia"]


def _specs(n_first=30, n_second=10, drill=True):
    gr = ("greedy", "random")
    return ([_game(gr, [0], drill={0: 1} if drill else {}) for _ in range(n_first)]
            + [_game(gr, [1], drill={1: 1} if drill else {}) for _ in range(n_second)]
            + [_game(gr, [0], turns=30) for _ in range(20)]
            + [_game(gr, [1], turns=30) for _ in range(20)])


def _retitle(run, **fields):
    path = f"{run}/manifest.json"
    m = json.loads(open(path).read())
    m.update(fields)
    open(path, "w").write(json.dumps(m))
    return run


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A 2-player run of a game that is not Go Town ("toy-game"), with a stand-in extension
    that reports a game answer and three rule checks (3 of 100, 0 of 50, 0 of 80)."""
    run = _retitle(write_run(tmp_path / "toy", 2, _specs(), seed=5,
                             strategies=["greedy", "random"], seating="rotate"),
                   game="toy-game")

    def extend_report(ctx):
        ctx.headline("**Toy answer:** the first seat's pile runs out in 3% of games.", "Toy")
        ctx.rule_hole("the game cannot end: two players hold cards neither can play", 3, 100,
                      "games", "3 games in 100 never end", "option deadlock=discard")
        ctx.rule_hole("goal card #17 can never score", 0, 50, "holders", "never seen")
        ctx.rule_hole("the market runs dry", 0, 80, "games", "never seen")
        ctx.doc.h(2, "Toy section")
        ctx.doc.p("Toy details.")

    real = game_ext.load
    monkeypatch.setattr(game_ext, "load", lambda gid: types.SimpleNamespace(
        extend_report=extend_report) if gid == "toy-game" else real(gid))
    out = tmp_path / "rep"
    res = write_report([run], str(out), "A Toy Game")
    return res, (out / "report.md").read_text(), (out / "report.html").read_text()


def _verdict(md: str) -> str:
    return md[md.index("## Verdict"): md.index("**Contents**")]


# ------------------------------------------------------------------ the verdict ----------
def test_verdict_opens_the_report_and_the_rest_folds(toy):
    res, md, html = toy
    assert md.startswith("# Balance report: A Toy Game\n\n## Verdict\n")
    v = _verdict(md)
    # first-player advantage: 50 of 80 finished games, parity 50%: +12.5 [+1.6, +22.7]
    lo, hi = (float(x) for x in wilson_interval(50, 80))
    assert (f"| First player, 2p | +12.5 points | [+{(lo - .5) * 100:.1f}, "
            f"+{(hi - .5) * 100:.1f}] | 80 games | Seat 1 wins 62.5% vs parity 50%: an "
            "advantage. |") in v
    assert "| Game length, 2p | mean 25.0 player-turns | [23.9, 26.1] | 80 games |" in v
    assert "**Toy answer:**" in v  # the game's answers sit in the verdict
    # the rest comes after the contents, in the same order in Markdown and HTML
    toc = md[md.index("**Contents**"):]
    order = ["Headline answers", "Seat win rates", "Balance and completion", "Toy section",
             "Runs and settings", "Notes on method"]
    assert [toc.index(f"## {h}") for h in order] == sorted(toc.index(f"## {h}") for h in order)
    assert [html.index(f'<details id="{a}">') for a in
            ("headline-answers", "seat-win-rates", "toy-section", "runs-and-settings")] == \
        sorted(html.index(f'<details id="{a}">') for a in
               ("headline-answers", "seat-win-rates", "toy-section", "runs-and-settings"))
    assert html.index('<table class="verdict">') < html.index('<nav class="toc">') \
        < html.index("<details")
    assert html.count("<details") == html.count("</details>")
    summ = json.loads(open(res["summary_json"]).read())
    assert summ["chart"] == "first_player_advantage.png"
    assert summ["verdict"].startswith("A Toy Game: 2p first player +12.5 [")
    assert summ["verdict"].endswith("(advantage). 1 rule hole found: the game cannot end: two "
                                    "players hold cards neither can play.")


def test_rule_holes_with_rate_interval_and_the_clean_checks(toy):
    _, md, _ = toy
    v = _verdict(md)
    lo, hi = (float(x) for x in wilson_interval(3, 100))
    assert (f"| Rule hole: the game cannot end: two players hold cards neither can play | "
            f"3.00% | [{lo * 100:.2f}, {hi * 100:.2f}] | 3 of 100 games | 3 games in 100 never "
            "end. Fix: option deadlock=discard. |") in v
    h50 = float(wilson_interval(0, 50)[1])
    h80 = float(wilson_interval(0, 80)[1])
    assert (f"| Rule holes: none found | 0 |  |  | goal card #17 can never score: 0 of "
            f"50 holders (≤ {h50 * 100:.2f}%); the market runs dry: 0 of 80 games "
            f"(≤ {h80 * 100:.2f}%). |") in v


def test_bot_mix_said_once_and_one_rule_hole_row_per_check(tmp_path, monkeypatch):
    """At full scale the verdict took 1.2-1.9 screens: every component row's reading repeated
    the bot mix (and the intervention), and a rule hole checked per player count was one
    row per count, each with the same reading and fix. Now the mix is said once, in the
    intro line, and a check is one row listing the rate of each player count."""
    run = _retitle(write_run(tmp_path / "toy", 2, _specs(), seed=5,
                             strategies=["greedy", "random"], seating="pool"),
                   game="toy-game")
    for f in sorted((tmp_path / "toy" / "seats").glob("*.parquet")):  # a second component
        d = pl.read_parquet(f)
        d.with_columns(played_DOG=((pl.col("game") % 3 == 0) & (pl.col("seat") == 0))
                       .cast(d["played_DRILL"].dtype)).write_parquet(f)

    def extend_report(ctx):
        for p, k in ((2, 5), (3, 1), (4, 0)):
            ctx.rule_hole(f"{p} players: the game cannot end (deadlock)", k, 100, "games",
                          "no player can act again", "option deadlock=discard")

    real = game_ext.load
    monkeypatch.setattr(game_ext, "load", lambda gid: types.SimpleNamespace(
        extend_report=extend_report) if gid == "toy-game" else real(gid))
    md = open(write_report([run], str(tmp_path / "rep"), "A Toy Game")["markdown"]).read()
    v = _verdict(md)
    mix = mix_label(json.loads(open(f"{run}/manifest.json").read()))
    assert v.count(mix) == 1 and v.index(f"Bots: {mix}.") < v.index("| Question |")
    rows = [r for r in v.splitlines() if r.startswith("| ") and not r.startswith("| Question")]
    comp = [r for r in rows if r.startswith(("| Highest association, component",
                                          "| Lowest association, component"))]
    assert len(comp) == 2  # DRILL and DOG at 2 players
    readings = [r.rstrip(" |").rsplit(" | ", 1)[1] for r in rows]
    assert not any("greedy" in x or "bots" in x.lower() for x in readings)
    assert all(x.startswith("Association, not an effect: ") for x in
               (r.rstrip(" |").rsplit(" | ", 1)[1] for r in comp))
    holes = [r for r in rows if r.startswith("| Rule hole")]
    lo3, hi3 = (float(x) for x in wilson_interval(1, 100))
    lo4, hi4 = (float(x) for x in wilson_interval(0, 100))
    lo2, hi2 = (float(x) for x in wilson_interval(5, 100))
    assert holes == [
        f"| Rule hole: the game cannot end | 5.00% (2p) | [{lo2 * 100:.2f}, {hi2 * 100:.2f}] | "
        "5 of 100 games | Deadlock. No player can act again. Other counts: 3p 1.00% "
        f"[{lo3 * 100:.2f}, {hi3 * 100:.2f}]; 4p 0.00% [{lo4 * 100:.2f}, {hi4 * 100:.2f}]. "
        "Fix: option deadlock=discard. |"]
    # each count in full, folded: the "Rule holes" section, one row per check and count
    rest = md[md.index("**Contents**"):]
    assert rest.count("| 2 players: the game cannot end (deadlock) | 5 of 100 games |") == 1
    assert rest.count("players: the game cannot end (deadlock) |") == 3


def test_game_length_over_player_counts_is_one_row():
    from analysis.report.verdict import length_rows

    lengths = pl.DataFrame({"players": [2, 3], "measure": ["turns", "turns"], "n": [100, 400],
                            "mean": [20.0, 30.0], "sd": [5.0, 10.0], "q05": [12.0, 15.0],
                            "q25": [16.0, 24.0], "q50": [20.0, 29.0], "q75": [24.0, 36.0],
                            "q95": [28.0, 47.0]})
    comp = pl.DataFrame({"players": [2, 3], "n": [100, 404], "limit": [0, 4],
                         "limit_rate": [0.0, 4 / 404], "limit_lo": [0.0, 0.004],
                         "limit_hi": [0.04, 0.025]})
    (row,) = length_rows(lengths, comp, False)
    # half-widths 1.96 * sd / sqrt(n): 0.98 and 0.98, the widest said once
    assert row == ["Game length, 2p, 3p", "mean 20.0 / 30.0", "≤ ±0.98", "500 games",
                   "Player-turns; medians 20 / 29, 95th percentiles 28 / 47. Stopped at the "
                   "length limit: 3p 0.99% [0.40, 2.50] of 404."]


def test_attribute_columns_are_not_components():
    """Defect (Little Town): ``built_round_tavern`` read as a building, every building
    twice."""
    from analysis.queries import component_columns

    names = ["game", "built_tavern", "built_wheat_field", "built_well", "built_round_tavern",
             "built_round_wheat_field", "built_round_well", "played_x"]
    assert component_columns(names, "built_") == ["built_tavern", "built_wheat_field",
                                                  "built_well"]
    # one qualifier column alone is a component of its own
    assert component_columns(["p_a", "p_b", "p_big_a"], "p_") == ["p_a", "p_b", "p_big_a"]


def test_no_rule_checks_is_said(tmp_path):
    # a game without a report extension (Go Town has one now, with its rule checks)
    run = _retitle(write_run(tmp_path / "r", 2, _specs(), seed=1,
                             strategies=["greedy", "random"], seating="rotate"),
                   game="toy-game")
    res = write_report([run], str(tmp_path / "rep"), "A Toy Game")
    md = open(res["markdown"]).read()
    assert "| Rule holes | no checks |  |  | This game's report runs no rule-hole checks yet. |" \
        in _verdict(md)


def test_strongest_and_weakest_component_split_by_bot(tmp_path):
    """Within each bot: greedy seats with DRILL won 30 of 30, without 20 of 50 (+60 points,
    Mantel-Haenszel weight 30*50/80); random seats with DRILL 0 of 20, without 30 of 60 (-50
    points, weight 20*60/80): combined (18.75*0.6 - 15*0.5)/33.75 = +11.1 points, where the
    pooled difference (30 of 50 vs 50 of 110) would say +14.5."""
    gr = ("greedy", "random")
    specs = ([_game(gr, [0], drill={0: 1}) for _ in range(30)]
             + [_game(gr, [0], drill={1: 1}) for _ in range(20)]
             + [_game(gr, [1], drill={1: 1}) for _ in range(30)])
    for g in specs[50:]:
        g["drill"] = {}
    run = write_run(tmp_path / "r", 2, specs, seed=1, strategies=["greedy", "random"],
                    seating="fixed")
    from analysis.queries import scan_runs
    from analysis.report.verdict import component_by_bot

    _, seats = scan_runs([run])
    comb, per_bot = component_by_bot(seats, "played_")
    d = comb.filter(pl.col("component") == "DRILL").row(0, named=True)
    assert (d["strata"], d["n"]) == (2, 160)
    assert d["diff"] == pytest.approx((18.75 * 0.6 - 15 * 0.5) / 33.75)
    g = per_bot.filter((pl.col("component") == "DRILL") & (pl.col("strategy") == "greedy"))
    assert (g["n_with"][0], g["wins_with"][0], g["n_without"][0]) == (30, 30.0, 50)
    assert -1.0 <= d["lo"] < d["diff"] < d["hi"] <= 1.0


# ------------------------------------------------------------------ the "every game" defects
def test_scores_label_names_go_town_only_for_go_town(toy, tmp_path):
    """Defect: "Final score of a seat (Go Town: floors built)" in every game's report."""
    _, md, html = toy
    assert "Go Town" not in md and "Go Town" not in html
    assert "Final score of a seat (points)" in md
    run = write_run(tmp_path / "g", 2, _specs(), seed=1, strategies=["greedy", "random"],
                    seating="rotate")
    res = write_report([run], str(tmp_path / "g-rep"), "Go Town")
    assert "Final score of a seat (floors built)" in open(res["markdown"]).read()


def test_rare_only_when_rare(toy):
    """Defect: the sample-size text called a component "rare" whatever its frequency (DRILL
    is played in 40 of 160 seat-games here, 25%)."""
    _, md, _ = toy
    size = md[md.index("## Sample size"):]
    assert "**DRILL**, played in 25.0% of seat-games)." in size
    assert "rare" not in size
    assert rare_text(0.05, "card", "played").startswith("a rare card")
    assert rare_text(0.82, "card", "played") == ""
    assert rare_text(0.95, "card", "played").startswith("a card almost every seat played")


def test_orderings_only_from_separated_intervals(toy):
    """Defect: claims with overlapping intervals stated as orderings ("best: ...")."""
    assert order_text("a", 0.1, 0.3, "b", 0.2, 0.4) == \
        "a and b are indistinguishable (overlapping 95% intervals)"
    assert order_text("a", 0.5, 0.6, "b", 0.2, 0.4) == "a > b"
    assert order_text("a", 0.1, 0.15, "b", 0.2, 0.4) == "b > a"
    res, md, _ = toy
    # greedy 50 of 80 [51.6, 72.3] vs random 30 of 80: separated -> "best" is allowed
    assert "`greedy` > `random`" in md
    assert "Best strategy at 2 players: greedy" in res["summary"]


def test_no_causal_wording_on_associations(toy):
    """Defect: "moves the win rate most" on an association."""
    _, md, html = toy
    for text in (md.lower(), html.lower()):
        for phrase in CAUSAL_PHRASES:
            assert phrase not in text, phrase
    assert "most associated with winning" in md


def test_share_of_the_requirement_never_above_100_percent(tmp_path):
    """A run with more games than needed said '(210.4% of it)'."""
    from analysis.report.sample_size import share_text

    assert share_text(20_000, 9_508) == "2.1 times it"
    assert share_text(100, 20_948) == "0.48% of it"


# ------------------------------------------------------------------ labels from the runs ---
def test_random_only_run_is_never_a_pool_of_scripted_bots(tmp_path):
    assert mix_label({"strategies": ["random"], "seating": "pool"}) == \
        "random play only (no scripted bot)"
    assert mix_label({"strategies": ["a", "b", "random"], "seating": "pool"}) == \
        "pool of 2 scripted bots with `random`: a, b, random (each seat drawn at random)"
    rr = ("random", "random")
    run = write_run(tmp_path / "r", 2, [_game(rr, [i % 2]) for i in range(40)], seed=1,
                    strategies=["random"], seating="pool")
    md = open(write_report([run], str(tmp_path / "rep"), "Go Town")["markdown"]).read()
    assert "Bots: random play only (no scripted bot)." in md
    assert "pool of" not in md


def test_runs_with_other_options_side_by_side_never_pooled(tmp_path):
    """Defect: a report over runs with different options pooled them; arms pair only on the
    same seeds."""
    base = write_run(tmp_path / "base", 2, _specs(), seed=7, strategies=["greedy", "random"],
                     seating="fixed")
    same = write_run(tmp_path / "same", 2, _specs(n_first=20, n_second=20), seed=7,
                     strategies=["greedy", "random"], seating="fixed",
                     options='{"p2_coins": 4}')
    _retitle(same, options={"p2_coins": 4})
    other = write_run(tmp_path / "other", 2, _specs(n_first=20, n_second=20), seed=8,
                      strategies=["greedy", "random"], seating="fixed",
                      options='{"p2_coins": 5}')
    _retitle(other, options={"p2_coins": 5})
    res = write_report([base, same, other], str(tmp_path / "rep"), "Go Town")
    md = open(res["markdown"]).read()
    v = _verdict(md)
    # the generic tables hold the first run only: 80 finished games, not 240
    assert "| First player, 2p | +12.5 points |" in v
    assert "| 2 | Seat 1 | 80 | 50 | 62.5% |" in md
    # run 2 (same seed): paired over the 80 games; run 3 (seed 8): unpaired
    assert ("| Other setting, 2 players: options p2_coins=4; fixed seats: greedy, random | "
            "50.0% |") in v
    assert "points [" in v and "paired over the 80 games finished in both arms (same seeds)" in v
    assert "unpaired (the arms were played on different seeds)" in v
    assert v.count("Not pooled with the main runs.") == 2
    assert "shown side by side in the verdict and never pooled" in md


# ------------------------------------------------------------------ charts and tables -----
def _capture(monkeypatch):
    figs = []

    def fake_save(fig, path, dpi=charts.DPI):
        figs.append(fig)
        return str(path)

    monkeypatch.setattr(charts, "save", fake_save)
    return figs


def test_seat_chart_is_a_difference_from_parity_zoomed_around_zero(monkeypatch):
    """Defect: seat charts were bars from 0%, hiding a 1-2 point first-player effect."""
    figs = _capture(monkeypatch)
    rates = pl.DataFrame({"players": [2, 2], "seat": [0, 1], "n": [10_000, 10_000],
                          "win_rate": [0.515, 0.485], "lo": [0.505, 0.475],
                          "hi": [0.525, 0.495], "parity": [0.5, 0.5]})
    charts.seat_win_rate_chart(rates, "x.png")
    ax = figs[0].axes[0]
    lo, hi = ax.get_ylim()
    assert lo == -hi and 2.5 <= hi <= 4.0  # zoomed: +-3 points, not 0..100%
    assert not ax.patches  # no bars
    assert "minus parity" in ax.get_ylabel() and "(points)" in ax.get_ylabel()
    assert "n = 10,000" in ax.get_title() and figs[0]._suptitle is not None
    plt.close("all")


def test_heatmap_labels_contrast_with_their_cells(monkeypatch):
    """Defect: black labels on dark heatmap cells."""
    assert charts.text_colour((0.05, 0.1, 0.4, 1)) == "white"
    assert charts.text_colour((0.95, 0.95, 0.9, 1)) == "black"
    figs = _capture(monkeypatch)
    m = pl.DataFrame({"players": [2, 2], "strategy": ["a", "b"], "opponent": ["b", "a"],
                      "n": [100, 100], "win_rate": [0.97, 0.03]})
    charts.matchup_heatmap(m, "x.png")
    colours = {t.get_text().split("%")[0]: t.get_color() for t in figs[0].axes[0].texts}
    assert colours == {"97.0": "white", "3.0": "white"}
    plt.close("all")


def test_fixed_length_game_shows_the_score_distribution(tmp_path):
    """Defect: a single-bar length histogram for a fixed-length game."""
    gr = ("greedy", "random")
    run = write_run(tmp_path / "r", 2, [_game(gr, [i % 2], turns=24) for i in range(40)],
                    seed=1, strategies=["greedy", "random"], seating="fixed")
    res = write_report([run], str(tmp_path / "rep"), "Go Town")
    md = open(res["markdown"]).read()
    assert "![Score distribution (fixed-length game)](game_length.png)" in md
    assert "Every finished game has the same length" in md
    assert "Fixed length: every finished game lasts 24 player-turns." in md


def test_wide_tables_are_split_to_the_page_and_intervals_never_wrap():
    t = Table(["Players", "Metric"] + [f"Column {i}" for i in range(14)],
              [["2", "a metric"] + ["45.3% [44.1, 46.5]"] * 14], [True, False] + [True] * 14)
    parts = split_table(t)
    assert len(parts) > 1
    assert all(p.headers[:2] == ["Players", "Metric"] for p in parts)  # labels repeated
    assert sum(len(p.headers) - 2 for p in parts) == 14
    assert all(sum(len(c) + 3 for c in p.rows[0]) <= 118 for p in parts)
    assert "td.r{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}" in CSS
    doc = Doc()
    doc.table(t)
    assert render_html(doc, ".", "t").count("<table>") == len(parts)
    assert render_markdown(doc).count("\n|---") == 1  # Markdown keeps one table


# ------------------------------------------------------------------ the scan -------------
def test_scan_finds_what_the_issue_found():
    bad = ("Solo: 100% vs 100%, 6250.0% of it. Shift -60.0 [-102.9, -17.1] points. "
           "Rate 45.0% [46.1, 50.2]. Final score (Go Town: floors built). DOG moves the win "
           "rate most.")
    found = scan_text(bad, "Suburbia", TITLES)
    assert any("6250.0%" in f for f in found)
    assert any("below -100" in f for f in found)
    assert any("estimate outside" in f and "45.0%" in f for f in found)
    assert any("Go Town" in f for f in found)
    assert any("moves the win rate" in f for f in found)
    found = scan_text("commercial 25.1% [20.9, 29.7] > industrial 22.9% [18.9, 27.5]; "
                      "a 30.0% [28.0, 32.0] > b 20.0% [18.0, 22.0]", "Suburbia", TITLES)
    assert found == ["ordering from overlapping intervals: '[20.9, 29.7] > industrial 22.9% "
                     "[18.9, 27.5]'"]
    assert scan_text("Seat 1 wins 65.0% [55.3, 73.6]; +0.3 points | [-0.6, +1.3] |",
                     "Go Town", TITLES) == []


def test_synthetic_reports_and_index_scan_clean(toy, tmp_path):
    _, md, html = toy
    assert scan_text(md, "A Toy Game", TITLES) == []
    assert scan_text(html, "A Toy Game", TITLES) == []
    idx = write_index(str(tmp_path))
    text = open(idx["html"]).read()
    assert "<strong>Verdict:</strong> A Toy Game: 2p first player +12.5" in text
    assert text.count("data:image/png;base64,") == 1  # the one-screen chart


def test_roles_come_from_the_manifests(tmp_path):
    """``boardsim report`` passes no roles: each run's manifest ``"role"`` is used, so a sweep
    run is never read as a main run."""
    base = write_run(tmp_path / "base", 2, _specs(), seed=7, strategies=["greedy", "random"],
                     seating="fixed")
    sweep = write_run(tmp_path / "sweep", 2, _specs(n_first=10, n_second=30), seed=7,
                      strategies=["greedy", "random"], seating="fixed")
    _retitle(sweep, role="sweep:p2_coins=4", options={"p2_coins": 4})
    md = open(write_report([base, sweep], str(tmp_path / "rep"), "Go Town")["markdown"]).read()
    assert "| 2 | Seat 1 | 80 | 50 | 62.5% |" in md
    assert "Other setting" not in md  # a sweep run is the game's study, not an arm
    assert md.count("sweep:p2\\_coins=4") + md.count("sweep:p2_coins=4") >= 1


def test_many_runs_with_other_settings_fold_out_of_the_verdict(tmp_path):
    runs = [write_run(tmp_path / "base", 2, _specs(), seed=7, strategies=["greedy", "random"],
                      seating="fixed")]
    for c in range(5):
        r = write_run(tmp_path / f"c{c}", 2, _specs(), seed=7,
                      strategies=["greedy", "random"], seating="fixed")
        runs.append(_retitle(r, options={"coins": c}))
    md = open(write_report(runs, str(tmp_path / "rep"), "Go Town")["markdown"]).read()
    v = _verdict(md)
    assert "| Runs with other settings (5) |" in v and "Other setting, 2 players" not in v
    folded = md[md.index("## Runs with other settings"):]
    assert folded.count("Other setting, 2 players: options coins=") == 5


def test_interval_bounds_near_zero_keep_their_sign():
    """An upper bound of -0.03 points printed as '-0.0' read as 'touches 0'; it is shown with
    the decimals that keep its sign (issue 16: numbers must mean what they say)."""
    from analysis.doc import ci, fixed, pts, signed_ci

    assert ci(-0.0104, -0.0003) == "[-1.0, -0.03]"
    assert ci(0.281, 0.344) == "[28.1, 34.4]"
    assert pts(-0.0003) == "-0.03"
    assert pts(0.031) == "+3.1"
    assert fixed(0.004) == "0.004"
    assert fixed(-0.0004) == "0.0" and fixed(-0.0004, 1, "+") == "+0.0"
    assert signed_ci(-1.1, -2.3, -0.04) == "-1.1 [-2.3, -0.04]"
