"""Findings across skill tiers (analysis/lab/tiers.py, `boardsim tiers`, the report section)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from analysis.doc import Doc, render_markdown
from analysis.lab import tiers as T
from analysis.report.tiers_section import TITLE, tiers_section
from tests import inproc

ROOT = Path(__file__).resolve().parents[1]
NAN = math.nan


def boardsim(*args, cwd=None):
    return inproc.boardsim(*args, cwd=cwd or ROOT)  # in this process (tests/inproc.py)


# ---- the verdict on constructed numbers ------------------------------------------------------
@pytest.mark.parametrize("scripted,search,diff,n,want", [
    ((5, 2, 8), (6, 1, 11), None, 500, "holds"),
    ((-5, -8, -2), (-3, -5, -1), None, 500, "holds"),
    ((5, 2, 8), (-6, -11, -1), None, 500, "flips"),
    ((5, 2, 8), (1, -3, 5), (-4, -7, -1), 500, "weakens"),
    ((5, 2, 8), (1, -3, 5), (-4, -9, 1), 500, "undecided"),
    ((5, 2, 8), (1, -3, 5), (4, 1, 7), 500, "undecided"),  # the difference moves away from 0
    ((5, 2, 8), (1, -3, 5), None, 500, "undecided"),
    ((1, -2, 4), (6, 1, 11), None, 500, "appears"),
    ((1, -2, 4), (1, -3, 5), None, 500, "none"),
    ((5, 2, 8), (NAN, NAN, NAN), None, 500, "undecided"),
    ((5, 2, 8), (6, 1, 11), None, T.MIN_DECIDE - 1, "undecided"),  # too few search games
    ((5, 2, 8), (-6, -11, -1), None, T.MIN_DECIDE - 1, "undecided"),
    ((1, -2, 4), (6, 1, 11), None, T.MIN_DECIDE - 1, "none"),
    ((5, 2, 8), (6, 1, 11), None, T.MIN_DECIDE, "holds"),
])
def test_classify(scripted, search, diff, n, want):
    assert T.classify(scripted, search, diff, n) == want


def test_classify_zero_on_the_bound_is_not_a_finding():
    assert T.classify((3, 0.0, 6), (3, 1, 5), None, 500) == "appears"


# ---- the measures on constructed games ---------------------------------------------------------
def _arm(ws, first, finished=None, **holders):
    ws = np.asarray(ws, float)
    out = {"win_share": ws, "first_player": np.asarray(first, np.int64),
           "finished": np.ones(ws.shape[0], bool) if finished is None
           else np.asarray(finished, bool)}
    for k, v in holders.items():
        out["h:" + k] = np.asarray(v, np.int16)
    return out


def test_first_player_finding_exact():
    # 4 games; the first player wins games 0, 1, 2 (seat 0, 1, 0 moved first), game 3 is a tie
    # and game 4 was stopped at the limit (left out)
    scripted = _arm([[1, 0], [0, 1], [1, 0], [.5, .5], [0, 0]], [0, 1, 0, 1, 0],
                    [1, 1, 1, 1, 0])
    search = _arm([[0, 1], [0, 1], [1, 0], [.5, .5], [1, 0]], [0, 1, 0, 1, 0])
    f = T._position_finding({"scripted": scripted, "search": search}, 0, 5)
    assert f["tiers"]["scripted"]["n"] == 4
    assert f["tiers"]["scripted"]["est"] == pytest.approx(100 * (3.5 / 4 - 0.5))
    assert f["tiers"]["search"]["n"] == 5
    assert f["tiers"]["search"]["est"] == pytest.approx(100 * (3.5 / 5 - 0.5))
    # paired over the 4 games finished in both: differences -1, 0, 0, 0
    assert f["diff"]["n"] == 4
    assert f["diff"]["est"] == pytest.approx(-25.0)


def test_paired_difference_of_identical_tiers_is_exactly_zero(monkeypatch):
    monkeypatch.setattr(T, "MIN_HOLDERS", 1)
    ws = [[1, 0], [0, 1], [1, 0], [0, 1], [.5, .5], [1, 0]]
    h = [[1, 0], [1, 1], [0, 1], [0, 0], [1, 0], [1, 0]]
    arm = _arm(ws, [0, 1, 1, 0, 0, 1], built_x=h)
    f = T._component_finding({"scripted": arm, "search": dict(arm)}, "x", "built_x", 1, 6)
    assert f["tiers"]["search"]["est"] == pytest.approx(f["tiers"]["scripted"]["est"])
    assert (f["diff"]["est"], f["diff"]["lo"], f["diff"]["hi"]) == (0.0, 0.0, 0.0)
    # holders (game by game): 1 | 0, 1 | 0 | - | .5 | 1 -> 3.5 over 6 seat-games;
    # the others: 0 | - | 1 | 0, 1 | .5 | 0 -> 2.5 over 6
    assert f["tiers"]["scripted"]["holders"] == 6
    assert f["tiers"]["scripted"]["est"] == pytest.approx(100 * (3.5 / 6 - 2.5 / 6))


def _data(verdicts, n_search=10):
    fs = [{"kind": "first-player advantage", "key": "position 0", "name": "first",
           "verdict": verdicts[0],
           "tiers": {t: {"est": 5.0, "lo": 1.0, "hi": 9.0, "n": 100} for t in T.TIERS}}]
    for i, v in enumerate(verdicts[1:]):
        fs.append({"kind": "component association", "key": f"c{i}", "name": f"c{i}",
                   "verdict": v, "tiers": {t: {"est": 1.0, "lo": -1.0, "hi": 3.0, "n": 100,
                                               "holders": 40} for t in T.TIERS},
                   "diff": {"est": 0.0, "lo": -2.0, "hi": 2.0, "n": 10}})
    return {"game": "go-town", "title": "Go Town", "players": 2, "seed": 1, "options": {},
            "strategies": ["greedy", "attacker"], "seating": "pool", "n_search": n_search,
            "n_scripted": 4000, "n_random": 4000, "budget": 200, "default_budget": 1000,
            "playout": "attacker", "seconds": {}, "findings": fs}


def test_headline_counts_and_names_the_sample():
    d = _data(["holds", "flips", "undecided", "appears", "none"], n_search=300)
    h = T.headline(d)
    assert h.startswith("Of 3 scripted findings under search play: 1 holds, 1 flips, 0 "
                        "weaken, 1 undecided; 1 new under search play only; "
                        "first-player advantage: holds (scripted +5.0 [+1.0, +9.0], search "
                        "+5.0 [+1.0, +9.0] points)"), h
    assert "200 playouts per decision, n=300 games; scripted tier n=4,000" in h
    h2 = T.headline(_data(["undecided", "undecided", "none"]))
    assert h2.startswith("Undecided at n=10 search games: none of the 2 scripted finding(s) "
                         "can be confirmed or refuted"), h2
    assert "first-player advantage: undecided at n=10" in h2


def test_report_section_without_a_study_says_so_with_the_command(tmp_path):
    doc = Doc()
    m = {"game": "go-town", "players": 2, "strategies": ["greedy", "attacker"],
         "seating": "pool"}
    assert tiers_section(doc, [str(tmp_path)], [m], [0], "go-town") is None
    md = render_markdown(doc)
    assert f"## {TITLE}" in md
    assert "No tier study was played for these runs" in md
    assert ("`boardsim tiers go-town -n 2000 --players 2 --strategies greedy,attacker "
            "--seating pool`") in md


def test_report_section_uses_only_the_runs_own_study(tmp_path):
    m = {"game": "go-town", "players": 2, "strategies": ["greedy"], "seating": "pool",
         "seed": 1, "options": {}, "engine_version": 2}
    d = _data(["undecided"])
    d["headline"] = "HEADLINE"
    d["run"] = T.run_fields(m)
    (tmp_path / "tiers").mkdir()
    (tmp_path / "tiers" / "tiers.json").write_text(json.dumps(d))
    doc = Doc()
    assert tiers_section(doc, [str(tmp_path)], [m], [0], "go-town")["headline"] == "HEADLINE"
    md = render_markdown(doc)
    assert "**HEADLINE**" in md and "**undecided** at n=100" in md
    other = dict(m, seed=2)  # another run's study is never shown
    assert T.tiers_for_run(tmp_path, other) is None
    doc = Doc()
    assert tiers_section(doc, [str(tmp_path)], [other], [0], "go-town") is None


# ---- playing ------------------------------------------------------------------------------------
def test_scripted_tier_plays_the_runs_games():
    """play_tier (budget hook, own chunking) plays exactly Game.run_chunk's games."""
    from sim.core.seating import seat_matrix
    from sim.registry import get_game

    g = get_game("go-town")
    names = ["greedy", "attacker", "thief-first"]
    arm = T.play_tier("go-town", 30, 2, names, "pool", 7, {}, ["played_DOG"], None, 1, 7)
    res = g.run_chunk(0, 30, 7, 2, seat_matrix("pool", 7, 0, 30, 2, 3), {}, names)
    np.testing.assert_array_equal(arm["win_share"], res.win_share)
    np.testing.assert_array_equal(arm["first_player"], res.first_player)
    np.testing.assert_array_equal(arm["h:played_DOG"], res.seat_detail["played_DOG"])


def test_budget_changes_the_search_bot_only():
    from sim.registry import get_game
    from strategies import search

    g = get_game("go-town")
    codes, params = T._with_budget(g, ["mcts", "greedy"], 7)
    base_codes, base = g.bots.params_matrix(["mcts", "greedy"])
    assert params[0, search.P_BUDGET] == 7.0
    np.testing.assert_array_equal(params[1:], base[1:])
    np.testing.assert_array_equal(codes, base_codes)


def test_cli_tiers_writes_json_and_markdown(tmp_path):
    out = tmp_path / "t"
    r = boardsim("tiers", "go-town", "-n", "4", "--budget", "3", "--scripted-games", "200",
                 "--out", str(out))
    assert r.returncode == 0, r.stderr
    d = json.loads((out / "tiers.json").read_text())
    assert (d["n_search"], d["n_scripted"], d["budget"], d["players"]) == (4, 200, 3, 2)
    assert d["findings"][0]["kind"] == "first-player advantage"
    assert len([f for f in d["findings"] if f["kind"] == "first-player advantage"]) == 1
    # 4 search games cannot decide anything
    assert {f["verdict"] for f in d["findings"]} <= {"undecided", "none"}
    assert d["findings"][0]["tiers"]["search"]["n"] <= 4
    md = (out / "tiers.md").read_text()
    assert md.startswith("# Findings across skill tiers: Go Town")
    assert "boardsim tiers go-town -n 2000" in md or "undecided" not in md
    assert d["headline"] in r.stdout


@pytest.mark.parametrize("args,msg", [
    (["tiers", "chess"], "error: unknown game 'chess'"),
    (["tiers", "go-town", "-n", "0"], "error: -n (games) must be in"),
    (["tiers", "go-town", "-n", "200000"], "error: -n (search-tier games) must be in "
                                           "1..100,000"),
    (["tiers", "go-town", "--budget", "0"], "error: --budget (playouts per decision) must be "
                                            "in 1..100,000, got 0"),
    (["tiers", "go-town", "-n", "50", "--scripted-games", "10"],
     "error: --scripted-games must be in 50..1,000,000,000, got 10"),
    (["tiers", "go-town", "-s", "mcts,greedy"], "error: tiers: the scripted tier may not hold "
                                                "a search bot"),
    (["tiers", "go-town", "-s", "genius"], "error: unknown strategy 'genius' for go-town"),
    (["tiers", "go-town", "-s", "greedy,attacker,defender", "--seating", "fixed"],
     "error: seating fixed: give 1 strategy or one per seat (2), got 3"),
    (["tiers", "go-town", "-p", "9"], "error: go-town: players must be 2..4, got 9"),
])
def test_cli_tiers_bad_input_one_line_exit_2(args, msg):
    r = boardsim(*args)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(msg), r.stderr


def test_strength_note_says_whether_the_search_tier_is_stronger(monkeypatch):
    monkeypatch.setitem(T.STRENGTH, "demo", {50: ("greedy", 0.7, 0.6, 0.8, 100),
                                             10: ("greedy", 0.3, 0.2, 0.4, 100),
                                             20: ("greedy", 0.5, 0.4, 0.6, 100)})
    assert T.strength_note("demo", 50) == (
        "`search` at 50 playouts per decision won 0.700 [0.600, 0.800] of 100 heads-up games "
        "against `greedy` (2 players, seats alternated, Wilson 95%): stronger than that "
        "scripted bot (BENCHMARKS.md).")
    assert "weaker than that scripted bot" in T.strength_note("demo", 10)
    assert "not distinguishable from that scripted bot" in T.strength_note("demo", 20)
    assert T.strength_note("demo", 30).startswith(
        "`search`'s strength at 30 playouts per decision was not measured (measured budgets: "
        "10, 20, 50; BENCHMARKS.md)")


def test_run_study_belongs_to_its_run_and_reaches_the_report(tmp_path):
    from sim.runner import simulate

    run = simulate("go-town", 40, 2, ["greedy", "attacker"], seed=3, out=tmp_path / "run",
                   seating="pool")
    folder = T.run_tiers_of(run, 1, n_search=2, budget=3, n_scripted=200)
    assert folder == Path(run) / T.TIERS_DIR
    d = T.load_tiers(folder)
    # the scripted tier is the run's own 40 games, read (issue 26), the random tier plays 200
    assert (d["n_search"], d["budget"], d["n_scripted"], d["n_random"], d["seed"],
            d["seating"]) == (2, 3, 40, 200, 3, "pool")
    assert d["run"]["strategies"] == ["greedy", "attacker"]
    assert d["search_finished"] >= min(2, d["search_played"]) and (folder / T.SEARCH_GAMES
                                                                    ).exists()
    stamp = (folder / "tiers.json").stat().st_mtime_ns
    T.run_tiers_of(run, 1, n_search=2, budget=3, n_scripted=200)  # the same study: kept
    assert (folder / "tiers.json").stat().st_mtime_ns == stamp
    old = dict(d)  # a study of the same sizes from before the top-up is played again
    for k in ("search_played", "search_finished", "search_cap"):
        old.pop(k)
    (folder / "tiers.json").write_text(json.dumps(old))
    T.run_tiers_of(run, 1, n_search=2, budget=3, n_scripted=200)
    assert "search_finished" in T.load_tiers(folder)
    from analysis.report import write_report

    res = write_report([str(run)], str(tmp_path / "rep"))
    md = Path(res["markdown"]).read_text()
    assert f"## {TITLE}" in md
    # the study's own headline (40 run games read as the scripted tier: its findings differ
    # from a 200-game replay's)
    assert d["headline"].split(";")[0] in md
    assert "boardsim tiers go-town -n 2000 --players 2 --seed 3 --strategies greedy,attacker "\
           "--seating pool" in md


def test_component_cell_without_enough_holders_has_no_interval():
    ws = [[1, 0], [0, 1]] * 40
    few = [[1, 0], [0, 0]] * 2 + [[0, 0], [0, 0]] * 38  # 2 holder seat-games only
    many = [[1, 0], [0, 1]] * 40
    f = T._component_finding({"scripted": _arm(ws, [0, 1] * 40, x=many),
                              "search": _arm(ws, [0, 1] * 40, x=few)}, "x", "x", 1, 80)
    assert f["tiers"]["search"]["holders"] == 2
    # the two holders won (games 0 and 2); the other 158 seat-games hold the other 78 wins
    assert f["tiers"]["search"]["est"] == pytest.approx(100 * (1 - 78 / 158))
    assert (f["tiers"]["search"]["lo"], f["tiers"]["search"]["hi"]) == (None, None)
    assert f["tiers"]["scripted"]["holders"] == 80  # 80 holders and 80 others: an interval
    assert f["tiers"]["scripted"]["lo"] is not None
    assert (f["diff"]["lo"], f["diff"]["hi"]) == (None, None)


def test_headline_without_findings_never_claims_none_from_a_small_sample():
    d = _data(["none"], n_search=10)
    d["findings"][0]["tiers"]["search"]["n"] = 10
    assert T.headline(d).startswith(
        "No scripted-tier finding to check (every interval includes 0); first-player "
        "advantage: no scripted finding, search play undecided at n=10 (scripted")
    d["findings"][0]["tiers"]["search"]["n"] = 60
    assert "first-player advantage: in neither tier (scripted" in T.headline(d)


def test_command_names_only_the_options_that_differ_from_the_defaults():
    """The re-run command listed every rule option at its default (a 20-option line)."""
    cmd = T.command_for({"game": "go-town", "n_search": 200, "players": 2, "seed": 1,
                         "strategies": ["greedy", "attacker"], "seating": "pool",
                         "options": {"target_floors": 5, "dog_moves_up": True}})
    assert cmd == ("boardsim tiers go-town -n 200 --players 2 --seed 1 --strategies "
                   "greedy,attacker --seating pool -o dog_moves_up=True")


# ---- the search tier plays until n_search games are finished (issue 27) ---------------------
def _fake_play_tier(calls, unfinished):
    """A stand-in for ``play_tier``: game i (its run index) is unfinished when
    ``unfinished(i)`` (a Go Town deadlock, say), else won by seat i mod 2; records the game
    indices each search-tier call played."""

    def fake(game_id, n, players, strategies, seating, seed, options, holders, budget=None,
             jobs=1, chunk_size=500, tick=None, start=0):
        idx = np.arange(start, start + n)
        fin = np.array([not unfinished(int(i)) for i in idx], bool)
        ws = np.zeros((n, players))
        ws[np.arange(n), idx % players] = 1.0
        ws[~fin] = 0.0
        if strategies == [T.SEARCH_BOT]:
            calls.append(list(map(int, idx)))
        out = {"win_share": ws, "finished": fin, "first_player": (idx % players).astype(np.int64)}
        for h in holders:
            out["h:" + h] = np.zeros((n, players), np.int16)
        return out

    return fake


def test_search_tier_tops_up_until_n_search_games_are_finished(tmp_path, monkeypatch):
    """Go Town's study played 200 search games and got 197 finished (3 deadlocks): the search
    tier now plays the next game indices until 200 are finished, each game once, in order."""
    import polars as pl

    calls: list[list[int]] = []
    monkeypatch.setattr(T, "play_tier", _fake_play_tier(calls, lambda i: i % 5 == 2))
    d = T.run_tiers("go-town", n_search=20, n_scripted=200, out=tmp_path)["data"]
    played = [i for c in calls for i in c]
    # games 0..24 hold 5 unfinished (2, 7, 12, 17, 22): the shortest prefix with 20 finished
    assert played == list(range(25)), calls
    assert calls[0] == list(range(20))  # the first 20, then the missing 4, then 1
    assert (d["n_search"], d["search_played"], d["search_finished"]) == (20, 25, 20)
    assert d["search_cap"] == 40
    fp = d["findings"][0]
    assert fp["tiers"]["search"]["n"] == 20
    assert fp["diff"]["n"] == 20  # paired over the 25 games played, finished in both
    assert "n=20 finished of 25 games played" in d["headline"]
    md = (tmp_path / "tiers.md").read_text()
    assert "games 0..24: n=20 finished of 25 games played" in md
    games = pl.read_parquet(tmp_path / T.SEARCH_GAMES)  # the search games, recomputable
    assert games["game"].to_list() == list(range(25))
    assert games["finished"].sum() == 20
    assert games.filter(pl.col("finished"))["win_share"].list.sum().sum() == 20


def test_search_tier_stops_at_its_cap_and_says_so(tmp_path, monkeypatch):
    calls: list[list[int]] = []
    monkeypatch.setattr(T, "play_tier", _fake_play_tier(calls, lambda i: i >= 8))
    d = T.run_tiers("go-town", n_search=10, n_scripted=200, out=tmp_path)["data"]
    assert [i for c in calls for i in c] == list(range(20))  # SEARCH_CAP x n_search
    assert (d["search_played"], d["search_finished"]) == (20, 8)
    assert "n=8 finished of 20 games played, short of the 10 asked: capped at 20 games" in \
        d["headline"]
    # never beyond the scripted tier's games, with which the search games are paired
    calls.clear()
    d = T.run_tiers("go-town", n_search=10, n_scripted=12, out=tmp_path)["data"]
    assert (d["search_played"], d["search_cap"]) == (12, 12)


def test_play_tier_from_a_start_index_plays_the_same_games():
    """Game i is seeded from (run seed, i) whichever call plays it: the top-up's games are the
    run's next games, not new ones."""
    names = ["greedy", "attacker"]
    whole = T.play_tier("go-town", 12, 2, names, "pool", 9, {}, ["played_DOG"], None, 1, 5)
    tail = T.play_tier("go-town", 5, 2, names, "pool", 9, {}, ["played_DOG"], None, 1, 2,
                       start=7)
    for key in whole:
        np.testing.assert_array_equal(whole[key][7:], tail[key])
