"""Issue 26, item 6: every wording and number defect of the issue has a test that fails on the
code before the fix, and ``analysis.report.scan`` learns the new checks, each shown to fail on
a planted report (and to pass on the corrected text)."""

import numpy as np
import polars as pl
import pytest

from analysis.doc import pct, pct_ci
from analysis.report import scan

TITLE = "Go Town"


def problems(text: str) -> list[str]:
    return scan.scan_text(text, TITLE, [TITLE, "Little Town"])


# ---- the scan's new checks, each on a planted report ---------------------------------------
def test_scan_causal_wording_needs_a_placebo_row():
    planted = "| Strongest card, 3p | DONUT +6.0 points | [+5.7, +6.3] | Causal: above MILK. |"
    assert any("without a placebo row" in p for p in problems(planted))
    fixed = planted + "\n| Re-deal placebo, 3p | +5.9 points | [+5.6, +6.2] | same estimator |"
    assert not any("placebo" in p for p in problems(fixed))
    # a negation is not a claim
    assert problems("An association, not a causal effect: 40.2% [38.0, 42.5].") == []
    # the methods note of a report without effects claims nothing
    from analysis.report.writer import _measures_note
    assert problems("\n".join(_measures_note(False))) == []
    # with effects, the note names the re-deal placebo beside the paired interventions
    note = "\n".join(_measures_note(True))
    assert "re-deal placebo" in note and not any("placebo" in p for p in problems(note))


def test_scan_estimate_outside_its_printed_interval():
    assert any("estimate outside" in p for p in problems("limit games 0.00% [0.0001, 0.003]"))
    assert problems("limit games 0.001% [0.0001, 0.003]") == []
    assert problems("first player 51.2% [49.8, 52.6]") == []
    # the report's own formatting: a small rate prints with the precision of its bounds
    assert pct(1e-5, 2) == "0.001%"
    assert problems(pct_ci(1e-5, 1e-6, 3e-5, 2)) == []


def test_scan_interval_on_a_list_of_types():
    planted = "card types never played by any seat: 0 of 17 card types (≤ 18.43%)."
    assert any("list of types" in p for p in problems(planted))
    table = "| tiles offered but never placed | 3 of 50 tiles offered | 6.00% | [2.06, 16.22] |"
    assert any("list of types" in p for p in problems(table))
    assert problems("card types never played by any seat: 0 of 17 card types.") == []
    assert problems("the game stopped at the limit: 0 of 3,000 games (≤ 0.13%).") == []


def test_scan_headline_n():
    wrong_n = ("| Weakest tile, 2p | **Lake** -9.0 points | [-20.1, +2.1] | 3,000 seat-games "
               "| Association, not an effect: below **Park**. |")
    assert any("not the n behind it" in p for p in problems(wrong_n))
    small = ("| Weakest tile, 2p | **Lake** -9.0 points | [-20.1, +2.1] | 12 holders of 3,000 "
             "seat-games | Association, not an effect: below **Park**. |")
    assert any("minimum sample" in p for p in problems(small))
    ok = small.replace("12 holders", "1,212 holders")
    assert problems(ok) == []


def test_scan_fix_not_supported_by_the_reports_own_data():
    planted = ("| Rule hole: the opponent cannot answer | 61.0% | [58.0, 64.0] | 610 of 1,000 "
               "games | Fix: rule option final_turn = opponent_last_turn gives the opponent one "
               "last turn. |\n"
               "| last-turn | variant:final_turn=opponent_last_turn | 5,000 | first-player share "
               "+0.4 [+0.1, +0.7] | 3.1% | -0.20 [-0.31, -0.09] |")
    assert any("fix not supported" in p for p in problems(planted))
    fine = planted.replace("+0.4 [+0.1, +0.7]", "-0.4 [-0.7, -0.1]")
    assert not any("fix not supported" in p for p in problems(fine))


def test_scan_same_question_answered_twice():
    planted = ("| Strongest building, 2p | **Tavern** +5.0 points | [+3.1, +6.9] | 4,000 seat-games"
               " | Causal: above **Bakery**; BH q 0.001. |\n"
               "Buildings (2 players): strongest (builder's win rate minus the other seats', "
               "points): Residence +26.9 [+25.0, +28.8].")
    assert any("answered twice" in p for p in problems(planted + "\nre-deal placebo row"))
    fixed = planted.replace("strongest (builder's", "highest difference (builder's")
    assert not any("answered twice" in p for p in problems(fixed + "\nre-deal placebo row"))
    # another player count is another question
    other = planted.replace("Buildings (2 players)", "Buildings (4 players)")
    assert not any("answered twice" in p for p in problems(other + "\nre-deal placebo row"))


def test_scan_kingmaking_is_not_a_counterfactual():
    old = ("Kingmaking (a trailing seat's attack on the near-winner hands a third seat the win; "
           "share of won games): 3p 40.2% [38.0, 42.5].")
    assert any("causal wording" in p for p in problems(old))
    import inspect

    from analysis.games import go_town
    src = inspect.getsource(go_town)
    assert "hands a third seat" not in src and "not a counterfactual" in src


# ---- the fixes -----------------------------------------------------------------------------
def test_little_town_feeding_no_longer_says_the_supply_is_unchecked():
    from analysis.games.little_town import feeding
    from analysis.games.little_town.holes import SCARCITY
    assert "Not checked" not in feeding.SUPPLY_NOTE and "Cube supply" in feeding.SUPPLY_NOTE
    assert "designed scarcity" in SCARCITY and "§3" in SCARCITY


def test_little_town_setup_balance_by_seat_number_is_not_the_turn_order_one():
    from analysis.games.little_town.setups import _order_table
    # 2 players, 8 games: the first player alternates and always wins. By turn order the game
    # is as unbalanced as can be (Balance 0); by seat number each seat wins half (Balance 1).
    n = 8
    first = np.arange(n) % 2
    games = pl.DataFrame({"run": np.zeros(n, np.int32), "game": np.arange(n),
                          "players": np.full(n, 2, np.int8), "first_player": first.astype(np.int8),
                          "end_reason": ["end"] * n,
                          "winners": [[int(f)] for f in first], "setup": ["random"] * n,
                          "strategies": ["greedy,greedy"] * n})
    seats = pl.DataFrame({"run": np.zeros(2 * n, np.int32), "game": np.repeat(np.arange(n), 2),
                          "players": np.full(2 * n, 2, np.int8),
                          "seat": np.tile([0, 1], n).astype(np.int8),
                          "rank": [1 if s == f else 2 for f in first for s in (0, 1)],
                          "win_share": [1.0 if s == f else 0.0 for f in first for s in (0, 1)],
                          "setup": ["random"] * (2 * n), "strategy": ["greedy"] * (2 * n)})
    sel = {"random": pl.col("setup") == "random"}
    order, _ = _order_table(games.lazy(), seats.lazy(), ["random"], sel,
                            np.random.default_rng(0))
    r = order.row(0, named=True)
    assert r["balance_pos"] == pytest.approx(0.0)
    assert r["balance_seat"] == pytest.approx(1.0)
    assert r["p_equal"] == pytest.approx(1.0)


def test_verdict_association_rows_show_their_holders_and_need_a_minimum():
    from analysis.report import verdict as V
    comb = pl.DataFrame({"players": [2, 2, 2, 2], "component": ["a", "b", "c", "d"],
                         "diff": [0.10, 0.05, 0.0, -0.30], "lo": [0.05, 0.0, -0.05, -0.6],
                         "hi": [0.15, 0.10, 0.05, 0.0], "n": [3000] * 4,
                         "strata": [3] * 4, "n_with": [900, 800, 700, 12]},
                        schema_overrides={"players": pl.Int8})
    assert V.MIN_HOLDERS == scan.MIN_HEADLINE_N == 20
    rows = V.component_rows(comb, {"noun": "tile"})
    assert [r[0] for r in rows] == ["Highest association, tile, 2p",
                                  "Lowest association, tile, 2p"]
    assert "**d**" not in rows[1][1]  # 12 holders: below the minimum sample
    assert rows[0][3] == "900 holders of 3,000 seat-games"
    md = "\n".join("| " + " | ".join(r) + " |" for r in rows)
    assert not any("headline" in p for p in problems(md))


def test_verdict_associations_fold_into_one_bullet_per_family():
    """Issue 26: with component effects in the report, the association rows leave the verdict
    table for one bullet: per player count the highest and the lowest, each with its interval
    and holders (the minimum sample kept), labelled not an effect; the scan finds nothing."""
    from analysis.report import verdict as V
    comb = pl.DataFrame({"players": [2, 2, 2, 4, 4], "component": ["a", "b", "d", "a", "c"],
                         "diff": [0.10, 0.05, -0.30, 0.02, -0.01],
                         "lo": [0.05, 0.0, -0.6, -0.01, -0.04],
                         "hi": [0.15, 0.10, 0.0, 0.05, 0.02], "n": [3000] * 5,
                         "strata": [3] * 5, "n_with": [900, 800, 12, 500, 400]},
                        schema_overrides={"players": pl.Int8})
    line = V.association_bullet(comb, {"noun": "tile"})
    assert line == ("**Association, tile** (highest / lowest per player count without "
                    "component effects, at least 20 holders; points; not an effect): "
                    "2p **a** +10.0 [5.0, 15.0] (900 holders) / **b** +5.0 [0.0, 10.0] "
                    "(800 holders); 4p **a** +2.0 [-1.0, 5.0] (500 holders) / **c** -1.0 "
                    "[-4.0, 2.0] (400 holders).")
    assert problems("- " + line + "\nre-deal placebo row") == []
    assert V.association_bullet(comb.filter(pl.col("n_with") < 20), {"noun": "tile"}) == ""


def test_scan_answered_twice_needs_a_value_after_the_word():
    """A methods note that names "strongest/weakest" without a value is no answer (a report's
    notes had the scan count one as a causal answer to every player count)."""
    note = ("- **Paired interventions**: the component rows of the verdict: strongest/weakest "
            "by restricted play (one seat per game barred from the component), leverage by a "
            "one-step nudge; 95% interval cluster-robust by game (CR1).\n"
            "Component rows at 2 players: holders' win rate minus the others' (an association,"
            " not an effect), the strongest and weakest of the scripted tier; q < 0.05.\n"
            "re-deal placebo row")
    assert problems(note) == []


def test_verdict_rule_holes_put_no_interval_on_a_list_of_types():
    from analysis.report import verdict as V
    holes = [dict(finding="card types never played by any seat", count=0, n=17,
                  unit="card types", reading="x", fix=None),
             dict(finding="the game stopped at the length limit", count=0, n=3000,
                  unit="games", reading="y", fix=None)]
    rows = V.rule_hole_rows(holes)
    text = rows[-1][-1]
    assert "0 of 17 card types" in text and "0 of 17 card types (≤" not in text
    assert "0 of 3,000 games (≤" in text
    found = V.rule_hole_rows([dict(finding="tiles never placed (x)", count=3, n=50,
                                   unit="tiles offered", reading="z", fix=None)])
    assert found[0][2] == ""


def test_province_fix_is_offered_only_when_its_paired_run_supports_it():
    from analysis.games.province import holes as H

    class Ctx:
        pass

    def frame(fp_wins):
        rows_g, rows_s = [], []
        for run, wins in enumerate(fp_wins):
            for g, w in enumerate(wins):
                rows_g.append(dict(run=run, game=g, seed=g, strategies="a,b", first_player=0,
                                   turns=10, end_reason="seven_structures"))
                for seat in (0, 1):
                    rows_s.append(dict(run=run, game=g, seat=seat,
                                       win_share=float(w if seat == 0 else 1 - w),
                                       coins_dry=0, coins_missed=0))
        return (pl.DataFrame(rows_g).with_columns(pl.col("run").cast(pl.Int32)).lazy(),
                pl.DataFrame(rows_s).with_columns(pl.col("run").cast(pl.Int32)).lazy())

    base = [1, 0] * 50
    worse = [1, 1, 1, 0] * 25  # the option gives the first player more wins
    ctx = Ctx()
    ctx.roles = {0: "main", 1: H.FIX_ROLE}
    ctx.games, ctx.seats = frame([base, worse])
    fix, note = H.fix_support(ctx, [0])
    assert fix is None and "No fix offered" in note and "towards the first seat" in note
    ctx.games, ctx.seats = frame([worse, base])
    fix, note = H.fix_support(ctx, [0])
    assert fix == H.FIX
    ctx.roles = {0: "main"}
    assert H.fix_support(ctx, [0]) == (H.FIX, "")


def test_go_town_option_chart_keeps_every_label_inside(tmp_path, monkeypatch):
    from analysis import charts
    from analysis.games import go_town
    seen = {}

    def keep(fig, path, dpi=charts.DPI):
        fig.tight_layout()
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        W, H = fig.bbox.width, fig.bbox.height
        out = []
        for ax in fig.axes:
            texts = ax.get_yticklabels() + [ax.title, ax.xaxis.label]
            for t in texts:
                if not t.get_text():
                    continue
                b = t.get_window_extent(r)
                if b.x0 < -1 or b.y0 < -1 or b.x1 > W + 1 or b.y1 > H + 1:
                    out.append(t.get_text())
        seen["outside"] = out
        import matplotlib.pyplot as plt
        plt.close(fig)
        return str(path)

    monkeypatch.setattr(charts, "save", keep)
    opts = ["donut_scope=all", "target_floors=4", "wreck_rule=owner_only_long_name",
            "hand_limit_mode=discard_to_limit"]
    eff = pl.DataFrame({"option": opts * 3, "players": [2] * 4 + [3] * 4 + [4] * 4,
                        "n": [4000] * 12, "fp_diff": [0.01] * 12, "fp_lo": [0.0] * 12,
                        "fp_hi": [0.02] * 12})
    go_town._effects_chart(eff, tmp_path / "x.png")
    assert seen["outside"] == []
