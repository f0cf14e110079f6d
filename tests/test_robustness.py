"""Issue 28: plausible ranges as data (they agree with the specs' RECON / assumed marks), the
interpreted options, and the robustness cell (a toy range that flips the finding says
"depends on unconfirmed data", one that does not says "holds")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import sim
from sim.core.components import slug

RULES = Path(__file__).resolve().parents[2] / "shared" / "rules"
if not RULES.is_dir():  # the main checkout: /work/main/../shared/rules
    RULES = Path("/work/shared/rules")


def _spec(name: str) -> str:
    p = RULES / name
    if not p.is_file():
        pytest.skip(f"spec {p} not available")
    return p.read_text(encoding="utf-8")


def _ranges(game_id: str) -> dict[str, dict]:
    return {r["path"]: r for r in sim.get_game(game_id).plausible_ranges()}


def _interpreted(game_id: str) -> set[str]:
    return {i["option"] for i in sim.get_game(game_id).interpretations()}


def test_every_range_holds_its_printed_value_and_gives_a_reason():
    for g in sim.list_games():
        for r in sim.get_game(g).plausible_ranges():
            assert r["low"] <= r["value"] <= r["high"] and r["low"] < r["high"], (g, r)
            assert len(r["reason"]) > 20, (g, r)
        for it in sim.get_game(g).interpretations():
            assert it["alternatives"] and it["default"] not in it["alternatives"], (g, it)


def test_province_ranges_are_exactly_the_specs_recon_numbers():
    text = _spec("province.md")
    # spec §3.1's data block: one line per structure, its comment says which numbers are RECON
    want = set()
    for name, comment in re.findall(r"^\d\s+([A-Z]+)\s+(?:-?\d+\s+){5}\w+\s+#\s*(.*)$",
                                    text, re.M):
        row = slug(name)
        if "RECON L,C,VP1" in comment:
            want |= {f"structures.{row}.labor", f"structures.{row}.coins",
                     f"structures.{row}.vp_first"}
        elif "L,C RECON" in comment:
            want |= {f"structures.{row}.labor", f"structures.{row}.coins"}
    assert len(want) == 20  # 7 structures' costs, 6 VPs (the Bank's VP is sourced)
    # spec §4.1: "Goal table (data block, all RECON)": every goal's threshold
    block = text.split("### 4.1 Goal table (data block, all RECON)", 1)[1].split("\n\n", 2)[1]
    goals = re.findall(r"^\| \d \| ([^|]+?) \|", block, re.M)
    assert len(goals) == 9
    want |= {f"goals.{slug(g)}.threshold" for g in goals}
    assert set(_ranges("province")) == want
    # §7's interpretations and the RECON Smithy effect are options with alternatives
    assert {"smithy_effect", "entry_space", "coin_total", "final_turn",
            "all_types_trigger", "harbor_benefit"} <= _interpreted("province")
    # the settings are inside the ranges: every reconstructed cost one coin up / down
    r = _ranges("province")
    for s in ("bank", "camp", "village", "mill", "smithy", "union", "harbor"):
        c = r[f"structures.{s}.coins"]
        assert c["low"] == c["value"] - 1 and c["high"] == c["value"] + 1


def test_little_town_goal_cards_marked_unconfirmed_have_ranges_or_options():
    text = _spec("little_town.md")
    gaps = text.split("## 8. Gaps and assumptions", 1)[1].split("\n## ", 1)[0]
    assert "Real text of goal card #7" in gaps and "BenjaminCleon code says 3 VP" in gaps
    r = _ranges("little-town")["goals.13.vp"]
    assert (r["low"], r["value"], r["high"]) == (2, 2, 3)
    assert "goal7" in _interpreted("little-town")
    # every appendix-A / §8 flag the spec calls a flag is an interpreted option
    assert {"castle_counts", "watchtower_workers_block", "residence_gathers_terrain",
            "optional_gather", "gather_includes_buildings", "coin_bank"} <= _interpreted(
        "little-town")


def test_wolves_reconstructed_card_list_has_ranges_and_alternatives():
    text = _spec("three_little_wolves.md")
    assert "Which cards carry floor icons, and their values | Unconfirmed" in text
    recon_rows = re.findall(r"^\| \d+ \| (\d+) \| – \| \*\*(\d)\*\* \(recon\.\)", text, re.M)
    assert recon_rows == [("5", "2"), ("9", "2")]
    r = _ranges("three-little-wolves")
    assert set(r) == {"cards_v1.5_2.icon", "cards_v1.9_2.icon"}
    assert all(x["value"] == 2 for x in r.values())
    alts = {i["option"]: i for i in sim.get_game("three-little-wolves").interpretations()}
    assert set(alts["card_set"]["alternatives"]) == {"cards_v0", "cards_v2"}


def test_suburbia_single_source_goal_bonuses_have_ranges():
    text = _spec("suburbia.md")
    assert "Goal names and population bonuses (10/15/20) | single code source" in text
    g = sim.get_game("suburbia")
    names = [row["name"] for row in g.component_document()["goals"]]
    assert set(_ranges("suburbia")) == {f"goals.{slug(n)}.bonus" for n in names}
    for o in ("postal_service_immediate", "recycling_plant_rep", "invest_on_lake",
              "private_goal_ties"):
        assert o in _interpreted("suburbia")


def test_go_town_assumed_switches_are_interpretations():
    text = _spec("go_town.md")
    table = text.split("## 5. Ambiguities and decisions", 1)[1].split("\n---", 1)[0]
    ds = {int(d) for d, alt in re.findall(r"^\| D(\d+) \|[^|]*\|[^|]*\| ([^|]+) \|", table,
                                         re.M) if alt.strip() not in ("—", "any")}
    ds -= {1, 18}  # D1 is sourced [SEED][S1]; D18 is the seating (randomised outside)
    g = sim.get_game("go-town")
    want = {o.name for o in g.options
            if {int(x) for x in re.findall(r"D(\d+)", o.section)} & ds}
    assert want and want <= _interpreted("go-town")
    assert _ranges("go-town") == {}  # no component number is assumed


def test_cli_games_lists_ranges_and_interpretations():
    from typer.testing import CliRunner

    from analysis.cli import app

    res = CliRunner().invoke(app, ["games", "province"])
    assert res.exit_code == 0, res.output
    assert "structures.camp.coins = 1  plausible 0..2" in res.output
    assert "smithy_effect: double_labor; alternatives turn_labor" in res.output
    assert "go-town" not in res.output
    from analysis.cli import main

    with pytest.raises(SystemExit) as e:
        main(["games", "chess"])
    assert e.value.code == 2


# ---- the robustness cell on toy data ranges ----------------------------------------------------
def _arm(axis, est, half=1.5, n=4000, label="", input_=""):
    return {"axis": axis, "est": est, "lo": est - half, "hi": est + half, "n": n,
            "label": label or axis, "input": input_}


def test_a_toy_range_that_flips_the_finding_depends_on_unconfirmed_data():
    from analysis.lab.robustness import robustness_cell

    base = {"est": 30.0, "lo": 28.5, "hi": 31.5, "n": 4000}
    arms = [_arm("play", 14.7, 3.4, 780), _arm("mix", 50.0),
            _arm("data", -16.6, input_="toy.x"), _arm("data", 34.9, input_="toy.x")]
    c = robustness_cell("first", base, arms, players=2)
    assert c["status"] == "depends" and c["axes"] == ["data"]
    assert c["cell"] == ("depends on unconfirmed data: 33.4-84.9% first-seat wins (toy.x)")


def test_a_toy_range_that_does_not_flip_the_finding_holds():
    from analysis.lab.robustness import robustness_cell

    base = {"est": 30.0, "lo": 28.5, "hi": 31.5, "n": 4000}
    arms = [_arm("play", 14.7, 3.4, 780), _arm("data", 3.3, input_="toy.x"),
            _arm("data", 34.9, input_="toy.x")]
    c = robustness_cell("first", base, arms, players=2)
    assert c["status"] == "holds"
    assert c["cell"] == "holds (53.3-84.9% first-seat wins)"


def test_too_few_games_leaves_the_cell_undecided_and_says_so():
    from analysis.lab.robustness import robustness_cell

    base = {"est": 30.0, "lo": 28.5, "hi": 31.5, "n": 4000}
    c = robustness_cell("first", base, [_arm("play", -5.0, 30.0, 20)], players=2)
    assert c["status"] == "undecided" and c["cell"].startswith("undecided: too few games")


def test_play_and_mix_changes_are_named():
    from analysis.lab.robustness import robustness_cell

    base = {"est": 5.0, "lo": 3.5, "hi": 6.5, "n": 4000}
    c = robustness_cell("first", base, [_arm("play", -8.0), _arm("mix", -9.0)], players=2)
    assert c["cell"].startswith("depends on play: ") and "depends on the bot mix" in c["cell"]
    length = robustness_cell("length", {"est": 6.9, "n": 4000},
                             [_arm("play", 14.2, 0.1), _arm("data", 7.1, 0.1)], players=2)
    assert length["cell"] == "depends on play: 6.9-14.2 turns per player"
    comp = robustness_cell("component", {"est": "Camp", "n": 4000},
                           [{"axis": "data", "est": "Mill", "n": 4000, "label": "x",
                             "input": "structures.mill.coins", "separated": True},
                            {"axis": "mix", "est": "Bank", "n": 4000, "label": "m",
                             "input": "", "separated": False}])
    assert comp["cell"] == "depends on unconfirmed data (structures.mill.coins: Mill)"


def test_cell_for_row_maps_verdict_questions():
    from analysis.lab.robustness import cell_for_row

    data = {"players": 2, "findings": [
        {"key": "first:2", "cell": "holds (60.0-70.0% first-seat wins)"},
        {"key": "length:2", "cell": "depends on play: 6.9-14.2 turns per player"},
        {"key": "strongest:structures", "cell": "holds"}]}
    assert cell_for_row("First player, 2p (turn order)", data).startswith("holds")
    assert cell_for_row("First player, 3p", data).startswith("not studied at this count")
    assert cell_for_row("Game length, 2p", data).startswith("depends on play")
    assert cell_for_row("Strongest structures, 2p", data) == "holds"
    assert cell_for_row("Rule hole: x", data) == "not varied (a rule check)"
    assert cell_for_row("First player, 2p", None).startswith("not studied")


# ---- a small study end to end (Province, scripted settings only) ----------------------------
@pytest.fixture(scope="module")
def small_study(tmp_path_factory):
    from analysis.lab.robustness import run_robustness

    out = tmp_path_factory.mktemp("rob") / "province"
    res = run_robustness("province", n=200, n_search=0, design=4, crossed=0, seed=3, out=out)
    return out, res


def test_small_study_writes_every_axis_and_resumes(small_study):
    import json

    from analysis.lab.robustness import run_robustness

    out, res = small_study
    data = json.loads((out / "robustness.json").read_text())
    axes = {s["axis"] for s in data["settings"]}
    assert axes == {"baseline", "mix", "data", "corner", "design", "option", "crossed"}
    keys = {s["key"] for s in data["settings"]}
    assert {"data-structures_camp_coins-high", "corner-structures_coins-high",
            "mirror-denial", "option-smithy_effect-turn_labor", "handset",
            "handset-corner-structures_coins-high"} <= keys
    # the mix plays greedy-tuned: every number and corner again under the hand-set rows, each
    # paired with the hand-set rows' own baseline (not the recommended mix's)
    by = {s["key"]: s for s in data["settings"]}
    assert by["handset"]["strategies"] == [
        "greedy" if b == "greedy-tuned" else b for b in by["baseline"]["strategies"]]
    assert "greedy-tuned" in by["baseline"]["strategies"]
    hand = [s for s in data["settings"] if s["ref"] == "handset"]
    assert {s["key"][len("handset-"):] for s in hand} == {
        s["key"] for s in data["settings"] if s["axis"] in ("data", "corner")}
    import polars as pl

    from analysis.lab.robustness import paired_first

    def table(key):
        return pl.read_parquet(out / "arms" / key / "games-*.parquet")

    h = by["handset-corner-structures_coins-high"]
    assert h["paired"] == paired_first(table(h["key"]), table("handset"), 2)
    assert h["paired"] != paired_first(table(h["key"]), table("baseline"), 2)
    # one-at-a-time rows are paired with the baseline on the same 200 games
    camp = next(r for r in data["oat"] if r["input"] == "structures.camp.coins")
    assert camp["high"]["n"] > 150 and camp["swing"] >= 0
    assert {f["key"] for f in data["findings"]} >= {"first:2", "length:2"}
    assert all(f["cell"] for f in data["findings"])
    # a rerun plays nothing new: every chunk is kept as it was
    chunks = sorted(out.glob("arms/*/games-*.parquet"))
    before = [c.stat().st_mtime_ns for c in chunks]
    again = run_robustness("province", n=200, n_search=0, design=4, crossed=0, seed=3, out=out)
    assert [c.stat().st_mtime_ns for c in chunks] == before
    assert json.loads(json.dumps(again["data"]["findings"], default=str)) == data["findings"]


def test_a_folder_of_another_setting_is_refused(small_study, tmp_path):
    import shutil

    from analysis.lab.robustness import run_robustness
    from sim.core.errors import UserError

    out, _ = small_study
    other = tmp_path / "o"
    shutil.copytree(out, other)
    with pytest.raises(UserError, match="holds another setting's games"):
        run_robustness("province", n=200, n_search=0, design=4, crossed=0, seed=4, out=other)


def test_bad_input_is_one_line_exit_2():
    from analysis.cli import main

    for argv in (["robustness", "province", "--design", "-1"],
                 ["robustness", "chess"], ["robustness", "province", "-n", "0"]):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2


def test_reconstructed_families_name_their_unconfirmed_data():
    """The Wolves' card marks and floor icons have no per-seat column, so the study cannot
    re-measure them; their verdict rows still say they rest on the reconstructed card list.
    Little Town's goal cards name goal 7's option and goal 13's range."""
    from analysis.lab.robustness import cell_for_row, reconstructed_families

    w = reconstructed_families(sim.get_game("three-little-wolves"), {})
    assert w["card marks"].startswith("option card_set: cards_v1 or cards_v0, cards_v2; "
                                      "cards_v1.5_2.icon 1..3")
    data = {"players": 2, "findings": [], "reconstructed_families": w}
    assert cell_for_row("Strongest card marks, 2p", data) == (
        "undecided, not re-measured here: rests on unconfirmed data (option card_set: "
        "cards_v1 or cards_v0, cards_v2; cards_v1.5_2.icon 1..3, cards_v1.9_2.icon 1..3)")
    lt = reconstructed_families(sim.get_game("little-town"), {})
    assert lt == {"goal cards": "option goal7: omit or feed_wheat; goals.13.vp 2..3"}
    assert reconstructed_families(sim.get_game("go-town"), {}) == {}


# ---- the verdict column, the section and the index on a synthetic run and study ---------------
def test_report_shows_the_column_the_section_and_the_index(tmp_path):
    import json

    from analysis.index import write_index
    from analysis.lab.robustness import run_fields
    from analysis.report import write_report
    from tests.test_analysis import write_run
    from tests.test_report_verdict import _retitle, _specs

    run = _retitle(write_run(tmp_path / "toy", 2, _specs(), seed=5,
                             strategies=["greedy", "random"], seating="rotate"),
                   game="toy-game")
    m = json.loads(open(f"{run}/manifest.json").read())
    first = {"est": 30.0, "lo": 28.5, "hi": 31.5, "n": 4000}
    study = {"game": "toy-game", "players": 2, "n": 4000, "n_search": 200, "budget": 100,
             "run": run_fields(m), "settings": [
                 {"axis": "baseline", "label": "recommended mix (baseline)", "key": "baseline",
                  "measure": {"finished": 4000, "first": first, "length": {"est": 6.9}},
                  "paired": None}],
             "findings": [
                 {"key": "first:2", "name": "First player, 2p", "baseline": first,
                  "cell": "depends on unconfirmed data: 33.4-84.9% first-seat wins "
                          "(structures.coins (all))"},
                 {"key": "length:2", "name": "Game length, 2p", "baseline": {"est": 6.9},
                  "cell": "depends on play: 6.9-14.2 turns per player"}],
             "reconstructed_families": {}, "sensitivity": [], "chart": None}
    (tmp_path / "toy" / "robustness").mkdir()
    (tmp_path / "toy" / "robustness" / "robustness.json").write_text(json.dumps(study))
    out = tmp_path / "reports" / "toy"
    write_report([run], str(out), "A Toy Game")
    md = (out / "report.md").read_text()
    v = md[md.index("## Verdict"): md.index("**Contents**")]
    assert "| Question | Answer | 95% CI | n | Reading | Robustness |" in v
    row = next(r for r in v.splitlines() if r.startswith("| First player, 2p"))
    assert row.endswith("| depends on unconfirmed data: 33.4-84.9% first-seat wins "
                        "(structures.coins (all)) |")
    assert all(r.count(" | ") == 5 for r in v.splitlines()
               if r.startswith("| ") and "---" not in r)  # every row has the column
    assert "## Does it hold? Play, bot mix and unconfirmed data" in md
    from analysis.report.scan import scan_text

    assert scan_text(md, "A Toy Game", ["Go Town", "Little Town", "Province", "Suburbia",
                                        "The Three Little Wolves"]) == []
    summ = json.loads((out / "summary.json").read_text())
    assert summ["robustness"].startswith("2p: depends on unconfirmed data: 33.4-84.9%")
    write_index(str(tmp_path / "reports"))
    index = (tmp_path / "reports" / "README.md").read_text()
    assert "Robustness (first seat)" in index and "2p: depends on unconfirmed data" in index


def test_a_crossed_setting_compares_with_the_search_tier():
    """Under search play the first seat is disfavoured; a data setting under search that keeps
    it disfavoured is no change of data (the change is play's, said once)."""
    from analysis.lab.robustness import robustness_cell

    base = {"est": 30.0, "lo": 28.5, "hi": 31.5, "n": 4000}
    search = _arm("play", -12.0, 3.0, 400)
    crossed = {**_arm("crossed", -15.0, 3.0, 400, input_="toy.x"), "ref": search}
    c = robustness_cell("first", base, [search, crossed], players=2)
    assert c["cell"] == "depends on play: 38.0-80.0% first-seat wins"


# ---- the whole study on a stand-in engine (no compile): the first seat wins 80% of games,
# and 35% once the Camp costs 2 coins (a toy data range where the finding flips) ----------------
def _fake_chunk(self, s, first_game, n_games, run_seed, n_players, seat_idx, codes, params):
    import numpy as np

    from sim.core.game import ChunkResult
    from sim.province import constants as K

    camp = int(self.sdata[K.STRUCT_NAMES.index("Camp"), 1])
    p_first = 0.8 if camp <= 1 else 0.35
    rng = np.random.default_rng(int(run_seed) % 2**32 + first_game)
    first_wins = rng.random(n_games) < p_first
    ws = np.zeros((n_games, 2))
    ws[first_wins, 0] = 1.0
    ws[~first_wins, 1] = 1.0
    detail = {c: rng.integers(0, 2, (n_games, 2)) for c in self.seat_detail}
    return ChunkResult(turns=np.full(n_games, 14), decisions=np.full(n_games, 100),
                       end_reason=np.full(n_games, 1), first_player=np.zeros(n_games, int),
                       score=ws * 10, rank=np.where(ws > 0, 1, 2), win_share=ws,
                       seat_detail=detail, action_hash=np.arange(n_games, dtype=np.uint64))


@pytest.fixture
def stand_in(monkeypatch):
    from sim.province.game import Province

    monkeypatch.setattr(Province, "_play_chunk", _fake_chunk)
    monkeypatch.setattr(Province, "_alloc", lambda self, resolved: None)


def test_study_on_a_stand_in_engine_finds_the_flip(stand_in, tmp_path):
    import json

    from analysis.lab.robustness import cell_for_row, run_robustness

    res = run_robustness("province", n=400, n_search=150, budget=5, design=4, crossed=1,
                         seed=2, out=tmp_path / "s", strategies=["greedy", "denial"],
                         seating="fixed")
    data = json.loads((tmp_path / "s" / "robustness.json").read_text())
    first = next(f for f in data["findings"] if f["key"] == "first:2")
    assert first["cell"].startswith("depends on unconfirmed data: ")
    assert first["cell"].endswith("(structures.camp.coins)")
    camp = next(r for r in data["oat"] if r["input"] == "structures.camp.coins")
    assert camp["high"]["est"] < -30 and camp["low"]["est"] == 0.0  # paired, same games
    length = next(f for f in data["findings"] if f["key"] == "length:2")
    assert length["cell"] == "holds (7.0-7.0 turns per player)"
    keys = {s["key"] for s in data["settings"]}
    tier = next(s for s in data["settings"] if s["key"] == "search")
    assert tier["strategies"] == ["search"] and data["search_bot"] == "search"  # not mcts
    assert {"search", "crossed-data-structures_camp_coins-high",
            "crossed-data-structures_camp_coins-low"} <= {s["key"] for s in data["settings"]}
    assert {"baseline", "mirror-greedy", "mirror-denial", "pool", "design-003",
            "corner-structures_coins-high", "option-final_turn-opponent_last_turn"} <= keys
    assert (tmp_path / "s" / "tornado.png").is_file() and res["summary"].startswith(
        "province: first player: depends on unconfirmed data")
    assert cell_for_row("First player, 2p", data) == first["cell"]
    md = (tmp_path / "s" / "robustness.md").read_text()
    assert "| structures.camp.coins |" in md


def test_stand_in_component_baseline_names_the_component(stand_in, tmp_path):
    from analysis.lab.robustness import run_robustness

    res = run_robustness("province", n=200, n_search=0, design=0, crossed=0, seed=2,
                         out=tmp_path / "s", strategies=["greedy", "denial"], seating="fixed",
                         oat=False)
    md = res["markdown"].read_text()
    row = next(r for r in md.splitlines() if r.startswith("| Strongest structures |"))
    name = row.split(" | ")[1].split(" (")[0]
    assert name in {"Lender", "Bank", "Camp", "Village", "Mill", "Smithy", "Union", "Harbor"}
    assert "no search tier" in md


def test_every_setting_of_every_game_has_its_own_folder():
    """Each setting plays into ``arms/<key>``: two settings with one key would share a folder
    (the second refused: Suburbia's ``red_line_offset`` alternatives -1 and 1 both slugged
    to ``1`` and stopped ``boardsim run``). Every game's plan: the keys are distinct."""
    import sim
    from analysis.lab.robustness import plan_settings

    for gid in sim.list_games():
        game = sim.get_game(gid)
        mix = list(game.bots.RECOMMENDED_MIX)
        keys = [s.key for s in plan_settings(game, 2, 10, 4, mix, "pool", {}, 4, 1)]
        assert len(keys) == len(set(keys)), (gid, sorted(k for k in keys if keys.count(k) > 1))


def test_older_search_bots_are_play_settings_with_their_own_crossings():
    """`boardsim robustness` plays `mcts` (the search tier before `search`, under which issue
    28's table measured Province) in every seat at its own budget, and crosses the top inputs
    under it as under `search`, each crossing paired with its own play setting."""
    from analysis.lab.robustness import crossed_settings, plan_settings
    from sim.registry import get_game

    g = get_game("province")
    mix = list(g.bots.RECOMMENDED_MIX)
    ss = plan_settings(g, 2, 100, 20, mix, "pool", {}, 0, 1, True, {"mcts": 123})
    by = {s.key: s for s in ss}
    assert by["search"].budget is None and by["search-mcts"].strategies == ["mcts"]
    assert by["search-mcts"].budget == 123 and by["search-mcts"].axis == "play"
    oat = [{"input": "structures.coins (all)", "swing": 40.0},
           {"input": "structures.camp.coins", "swing": 20.0}]
    cross = crossed_settings(ss, oat, 1, 20)
    assert sorted(s.key for s in cross) == [
        "crossed-corner-structures_coins-high", "crossed-corner-structures_coins-low",
        "crossed-mcts-corner-structures_coins-high", "crossed-mcts-corner-structures_coins-low"]
    # the older bot crosses at most OLDER_CROSSED inputs (its games cost several times more)
    oat3 = oat + [{"input": "structures.labor (all)", "swing": 30.0}]
    keys = [s.key for s in crossed_settings(ss, oat3, 3, 20)]
    assert len([k for k in keys if "-mcts-" not in k]) == 6
    assert sorted(k for k in keys if "-mcts-" in k) == [
        "crossed-mcts-corner-structures_coins-high", "crossed-mcts-corner-structures_coins-low",
        "crossed-mcts-corner-structures_labor-high", "crossed-mcts-corner-structures_labor-low"]
    for s in cross:
        mc = "-mcts-" in s.key
        assert s.ref == ("search-mcts" if mc else "search")
        assert s.strategies == (["mcts"] if mc else ["search"])
        assert s.budget == (123 if mc else None) and s.tier == "search"
    # `boardsim run`'s study does not: without `older`, only the search tier plays
    assert "search-mcts" not in {s.key for s in plan_settings(g, 2, 100, 20, mix, "pool", {},
                                                               0, 1, True)}


def test_first_seat_interval_stays_inside_0_to_100():
    """199 first-seat wins in 200 games: a normal interval read 99.5% [98.5, 100.5]; the
    Wilson interval is inside 0..100% (here [97.2, 99.9])."""
    import numpy as np

    from analysis.lab.robustness import _share_ci

    r = _share_ci(np.array([1.0] * 199 + [0.0]), 2)
    assert r["est"] == pytest.approx(49.5)
    assert r["hi"] + 50 <= 100.0 and r["lo"] + 50 == pytest.approx(97.23, abs=0.01)
    assert r["hi"] + 50 == pytest.approx(99.91, abs=0.01)
    allwins = _share_ci(np.ones(300), 2)
    assert allwins["hi"] + 50 == pytest.approx(100.0) and allwins["lo"] + 50 < 99.0


def test_run_replays_a_study_of_an_older_plan_version(monkeypatch, tmp_path):
    """`boardsim run` keeps a study already in the run folder only when it has the same sizes
    and plan version: one written before the hand-set rows' axis (no version) is played again
    (its settings folders are reused, the new ones played)."""
    import analysis.lab.robustness as R

    m = {"complete": True, "game": "province", "players": 2, "seed": 1,
         "strategies": ["greedy"], "seating": "fixed", "options": {}}
    plan = R.RUN_STUDY["province"]
    sizes = {"n": plan["n"], "n_search": plan["n_search"], "design": plan["design"]}
    monkeypatch.setattr("sim.runner.load_manifest", lambda d: m)
    monkeypatch.setattr(R, "robustness_for_run", lambda d, mm: {"x": 1})
    played = []
    monkeypatch.setattr(R, "run_robustness", lambda *a, **k: played.append(a))
    for old, again in ((sizes, True), ({**sizes, "version": R.STUDY_VERSION}, False)):
        monkeypatch.setattr(R, "load_robustness", lambda out, o=old: o)
        played.clear()
        R.run_robustness_of(tmp_path)
        assert bool(played) == again


def test_leverage_rows_name_their_unconfirmed_data():
    """The verdict's component rows became leverage rows ("Largest leverage, goal cards, 3p",
    "Smallest leverage, buildings (vp steps), 3p", "Leverage, floor icons, 3p"); a family whose
    numbers or table are unconfirmed says so on them (Little Town's goal 7, the Wolves' card
    list), the others say the study does not re-measure leverage. Before, every such row read
    "not studied"."""
    from analysis.lab.robustness import cell_for_row

    data = {"players": 2, "findings": [],
            "reconstructed_families": {"goal cards": "option goal7: omit or feed_wheat",
                                       "floor icons": "option card_set: cards_v1 or cards_v0"}}
    for q in ("Largest leverage, goal cards, 3p", "Smallest leverage, goal cards, 2p"):
        assert "rests on unconfirmed data (option goal7" in cell_for_row(q, data), q
    assert "option card_set" in cell_for_row("Leverage, floor icons, 3p", data)
    assert cell_for_row("Largest leverage, buildings (vp steps), 3p", data) == (
        "not studied (the study re-measures associations, not leverage)")
