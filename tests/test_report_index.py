"""The cross-game index (analysis.index) over two tiny reports.

Report ``go-town``: run A of tests/test_analysis.py (2 players, Seat 1 wins 65 of 100 finished
games). Report ``toy``: the same games under another game id, with a stand-in report extension
that adds one game-specific answer line.
"""

from __future__ import annotations

import json
import os
import types

import pytest

from analysis import games as game_ext
from analysis.index import first_seat_text, write_index
from analysis.report import write_report
from tests.test_analysis import STATUS, _game, write_run


def _run_a(root):
    gr, rg = ("greedy", "random"), ("random", "greedy")
    specs = ([_game(gr, [0], drill={0: 1}) for _ in range(30)]
             + [_game(gr, [1], drill={1: 1}) for _ in range(10)]
             + [_game(rg, [0]) for _ in range(35)]
             + [_game(rg, [1]) for _ in range(25)]
             + [_game(gr, [], limit=True, turns=1000) for _ in range(10)])
    return write_run(root, 2, specs, seed=11, strategies=["greedy", "random"], seating="rotate")


@pytest.fixture
def reports(tmp_path, monkeypatch):
    reports = tmp_path / "reports"
    go = _run_a(tmp_path / "run_go")
    write_report([go], str(reports / "go-town"), "Go Town")
    toy = _run_a(tmp_path / "run_toy")
    m = json.loads((tmp_path / "run_toy" / "manifest.json").read_text())
    m.update(game="toy-game", overrides={"cards.drill.count": 3})
    (tmp_path / "run_toy" / "manifest.json").write_text(json.dumps(m))

    def extend_report(ctx):
        ctx.headline("**Toy answer:** the `DRILL` decides 42% of games.", "Toy: 42%")

    real_load = game_ext.load
    monkeypatch.setattr(game_ext, "load", lambda gid: types.SimpleNamespace(
        extend_report=extend_report) if gid == "toy-game" else real_load(gid))
    write_report([toy], str(reports / "toy"), "A Toy | Game")
    os.makedirs(reports / "_runs" / "go-town")  # raw results: not a report
    (reports / "stale").mkdir()  # a folder without summary.json
    return reports


def test_summary_json_of_each_report(reports):
    s = json.loads((reports / "toy" / "summary.json").read_text())
    assert s["game"] == "toy-game" and s["title"] == "A Toy | Game"
    assert s["answers"] == ["**Toy answer:** the `DRILL` decides 42% of games."]
    assert s["overrides"] == {"cards.drill.count": 3}
    assert s["games_played"] == 110 and s["players"] == [2]
    first = s["first_seat"][0]
    assert (first["n"], first["win_rate"], round(first["lo"], 4), round(first["hi"], 4)) == (
        100, 0.65, 0.5525, 0.7364)
    # Go Town's own answers (analysis/games/go_town, issue 16)
    gt = json.loads((reports / "go-town" / "summary.json").read_text())["answers"]
    assert gt[0].startswith("**Length in rounds** (median, games won): 2p ")


def test_index_links_every_report_with_its_headline_numbers(reports):
    res = write_index(str(reports))
    assert res["html"] == str(reports / "index.html")
    assert res["markdown"] == str(reports / "README.md")
    assert res["reports"] == "toy,go-town"  # sorted by title: "A Toy | Game", "Go Town"
    md = (reports / "README.md").read_text()
    assert md.startswith("# reports/\n")
    assert "`make run` (or `boardsim run`) writes one folder per game here" in md
    row_go = ("| [Go Town](go-town/report.md) (`go-town`) | 110 | 2 | 2p: 65.0% [55.3, 73.6] "
              "vs 50% (n = 100) ⚠ | " + STATUS + " | component data as printed | "
              "greedy, random (rotate) | 11 |")
    assert row_go in md
    row_toy = ("| [A Toy \\| Game](toy/report.md) (`toy-game`) | 110 | 2 | 2p: 65.0% [55.3, "
               "73.6] vs 50% (n = 100) ⚠ | " + STATUS + " | cards.drill.count=3 | ")
    assert row_toy in md
    assert md.index(row_toy) < md.index(row_go)
    assert "- **Toy answer:** the `DRILL` decides 42% of games." in md
    assert "](stale/" not in md and "](_runs/" not in md and "stale" not in md
    html = (reports / "index.html").read_text()
    assert '<a href="go-town/report.html">Go Town</a>' in html
    assert '<a href="toy/report.html">A Toy | Game</a>' in html
    assert "2p: 65.0% [55.3, 73.6] vs 50% (n = 100) ⚠" in html
    assert "<li><strong>Toy answer:</strong> the <code>DRILL</code> decides 42% of games.</li>" \
        in html
    # self-contained: no scripts, stylesheets or images from elsewhere
    assert "<script" not in html and "<link" not in html
    assert html.count("src=") == html.count('src="data:image/png;base64,') == 2  # the charts
    assert "<strong>Verdict:</strong> A Toy | Game: 2p first player +15.0 [" in html
    assert not [f for f in os.listdir(reports) if "tmp" in f]


def test_index_rewritten_when_reports_change(reports):
    write_index(str(reports))
    (reports / "toy" / "summary.json").write_text("{not json")
    write_index(str(reports))
    md = (reports / "README.md").read_text()
    assert "toy/report.md" not in md and "go-town/report.md" in md
    assert "Unreadable summaries (skipped): `toy/summary.json`" in md


def test_index_of_an_empty_folder(tmp_path):
    res = write_index(str(tmp_path / "reports"))
    assert "No reports yet" in open(res["markdown"]).read()
    assert "No reports yet" in open(res["html"]).read()
    assert res["reports"] == ""


def test_first_seat_text():
    row = {"players": 3, "n": 20000, "win_rate": 0.35, "lo": 0.3434, "hi": 0.3566,
           "parity": 1 / 3, "games_for_1_point": 8740}
    assert first_seat_text(row) == "3p: 35.0% [34.3, 35.7] vs 33.3% (n = 20,000)"
    assert first_seat_text({**row, "n": 8739}).endswith("(n = 8,739) ⚠")
    assert first_seat_text({"players": 4, "n": 0, "win_rate": None, "lo": None, "hi": None,
                            "parity": 0.25}) == "4p: n/a [n/a] vs 25% (n = 0)"
