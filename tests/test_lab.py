"""Balance lab: overrides reach the engine, common random numbers, paired intervals, sweep and
suggest (issue 7)."""

import json
from pathlib import Path

import numpy as np
import pytest

import sim
from analysis.lab import compare as lab
from analysis.paired import Z95, paired_difference
from sim.core.errors import UserError
from sim.little_town.constants import A_BUILD, A_SITE
from sim.runner import simulate
from tests import inproc

ROOT = Path(__file__).resolve().parents[1]


def cli(*args, cwd=None):
    return inproc.boardsim(*args, cwd=cwd or ROOT)  # in this process (tests/inproc.py)


# ---- paired statistics ----------------------------------------------------------------------
def test_paired_difference_exact():
    x = [0.0, 1.0, 1.0, 0.0]
    y = [0.0, 1.0, 0.0, 0.0]
    r = paired_difference(x, y)
    # d = [0, 0, -1, 0]: mean -0.25, sd 0.5, se 0.25
    assert r.diff == pytest.approx(-0.25)
    assert (r.lo, r.hi) == pytest.approx((-0.25 - Z95 * 0.25, -0.25 + Z95 * 0.25))
    se_u = np.sqrt((1 / 3) / 4 + 0.25 / 4)
    assert (r.unpaired_lo, r.unpaired_hi) == pytest.approx((-0.25 - Z95 * se_u,
                                                            -0.25 + Z95 * se_u))
    assert r.width_ratio == pytest.approx(0.25 / se_u)
    with pytest.raises(ValueError):
        paired_difference([1.0], [1.0])
    with pytest.raises(ValueError):
        paired_difference([1.0, 0.0], [1.0])


def test_identical_arms_give_a_zero_width_paired_interval():
    x = np.array([0.0, 1.0, 0.5, 0.0, 1.0])
    r = paired_difference(x, x)
    assert (r.diff, r.lo, r.hi) == (0.0, 0.0, 0.0)
    assert r.unpaired_hi > 0 and r.games_factor == float("inf")


# ---- overrides reach the engine ----------------------------------------------------------------
def test_override_changes_the_worked_example_value():
    """Spec §9 T15 (Little Town): a Workshop (2 stone, 5 VP) bought with 2 missing stone at 3
    coins each leaves 0 of 6 coins and scores 5; with the buy price at 2 and the Workshop at
    7 VP the same play leaves 2 coins and scores 7."""
    for overrides, coins, score in (({}, 0, 5),
                                    ({"consts.buy_price": 2, "buildings.workshop.vp": 7}, 2, 7)):
        game = sim.get_game("little-town", overrides or None)
        opts = {"market": "beginner", "first_player": "seat0"}
        d = game.state_to_dict(game.new_state(2, 0, opts))
        d["supply"][0] -= 2
        d["players"][0]["cubes"][0] += 2
        d["bank"] += d["players"][0]["coins"] - 6
        d["players"][0]["coins"] = 6
        s = game.state_from_dict(d)
        workshop = 1
        s = game.apply_action(s, A_BUILD + workshop)
        s = game.apply_action(s, A_SITE + 9 * 2 + 4)
        p0 = game.state_to_dict(s)["players"][0]
        assert (p0["coins"], p0["score"]) == (coins, score)


def test_go_town_opening_hand_override():
    base = sim.get_game("go-town")
    game = sim.get_game("go-town", {"constants.opening_hand": 6})
    assert game.overrides == {"constants.opening_hand": 6}
    sizes = [[sum(h.values()) for h in g.state_to_dict(g.new_state(3, 7))["hands"]]
             for g in (base, game)]
    assert min(sizes[0]) == 5  # spec §3: five cards each (the first player has drawn)
    assert sizes[1] == [k + 1 for k in sizes[0]]


def test_crn_same_deal_when_the_override_does_not_touch_it():
    base = sim.get_game("little-town")
    var = sim.get_game("little-town", {"buildings.church.vp": 6})
    for seed in range(5):
        a = base.state_to_dict(base.new_state(3, seed))
        b = var.state_to_dict(var.new_state(3, seed))
        assert a["data"] != b["data"]
        a.pop("data"), b.pop("data")
        assert a == b


def test_results_of_different_overrides_never_mix(tmp_path):
    out = tmp_path / "run"
    simulate("go-town", 20, 2, ["random"], seed=3, out=out,
             overrides={"constants.hand_limit": 9})
    m = json.loads((out / "manifest.json").read_text())
    assert m["overrides"] == {"constants.hand_limit": 9}
    with pytest.raises(UserError, match="differs in: overrides"):
        simulate("go-town", 20, 2, ["random"], seed=3, out=out)


@pytest.mark.parametrize("args,msg", [
    (["data", "nosuch"], "unknown game"),
    (["data", "little-town", "--table", "nope"], "allowed: buildings"),
    (["data", "little-town", "--set", "buildings.church.vpp=3"], "allowed: count, cost"),
    (["simulate", "go-town", "-n", "5", "--set", "cards.dog.count=-1"], "must be 0 or more"),
    (["simulate", "go-town", "-n", "5", "--set", "cards.dogg.count=1"], "allowed: 1, 2"),
    (["simulate", "go-town", "-n", "5", "--set", "cards.dog.count"], "expected path=value"),
    (["compare", "go-town", "-n", "5"], "give the variant's changes"),
    (["sweep", "go-town", "--param", "constants.hand_limit"], "expected NAME=v1"),
    (["suggest", "three-little-wolves", "-n", "5"], "no tunable component data"),
])
def test_bad_lab_input_one_line_exit_2(args, msg):
    r = cli(*args)
    assert r.returncode == 2, r.stderr
    assert msg in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


def test_malformed_override_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[buildings.church\nvp = 7\n")
    r = cli("data", "little-town", "--data", str(bad))
    assert r.returncode == 2 and "malformed TOML" in r.stderr
    good = tmp_path / "good.toml"
    good.write_text("[buildings.church]\nvp = 6\n[consts]\nbuy_price = 2\n")
    r = cli("data", "little-town", "--data", str(good), "--table", "consts", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["consts"]["buy_price"] == 2


# ---- compare and sweep ----------------------------------------------------------------------
def test_compare_pairs_games_and_is_never_wider(tmp_path):
    base = lab.Arm("baseline")
    var = lab.Arm("variant", {"constants.hand_limit": 6})
    res = lab.compare("go-town", base, var, 1500, 3, ["greedy", "attacker", "random"], seed=2,
                      rotate=True, jobs=1, out=tmp_path)
    t = res["table"]
    games = dict(zip(t["metric"].to_list(), t["games"].to_list()))
    assert games[lab.LIMIT_METRIC] == 4500  # 3 rotations x 1500 games
    # rates over the games finished in both arms (limit or deadlock games left out; with the
    # issue-13 bots and the deadlock end reason these arms have few or none)
    assert 4000 < games["first-player win rate"] <= 4500
    widths = (t["hi"] - t["lo"]).to_numpy()
    unpaired = (t["unpaired_hi"] - t["unpaired_lo"]).to_numpy()
    assert (widths <= unpaired + 1e-12).all()
    assert (tmp_path / "compare.md").exists() and (tmp_path / "compare.csv").exists()
    # each rotation runs the same seeds: game i's chance seed is the same in every folder
    import polars as pl
    seeds = [pl.read_parquet(str(p / "games" / "*.parquet")).sort("game")["seed"].to_list()
             for a in ("baseline", "variant") for p in sorted((tmp_path / "runs" / a).iterdir())]
    assert all(s == seeds[0] for s in seeds)


def test_rotations():
    assert lab.rotations(["a", "b", "c"], 3, True) == [["a", "b", "c"], ["b", "c", "a"],
                                                      ["c", "a", "b"]]
    assert lab.rotations(["a"], 2, True) == [["a", "a"]]
    with pytest.raises(UserError):
        lab.rotations(["a", "b"], 3, True)


def test_sweep_writes_table_and_chart(tmp_path):
    res = lab.sweep("go-town", ["constants.hand_limit=6,8", "max_turns=1000"], 300, 2,
                    ["greedy", "random"], seed=1, jobs=1, out=tmp_path)
    t = res["table"]
    assert sorted(set(t["param1"].to_list())) == ["6", "8"]
    assert (tmp_path / "sweep.png").stat().st_size > 1000
    assert "first-player win rate" in set(t["metric"].to_list())


# ---- suggest ----------------------------------------------------------------------------------
def test_suggest_fixes_a_deliberately_broken_building_first(tmp_path):
    """The Church made free and worth 20 VP: it is the first outlier, and the first proposal
    changes the Church's own numbers and moves its difference towards the band."""
    broken = {"buildings.church.cost.stone": 0, "buildings.church.vp": 20}
    res = lab.suggest("little-town", 2000, players=3, strategies=["greedy", "builder"],
                      band=2.0, limit=1, max_step=2, alt_strategies=["greedy"], jobs=1,
                      out=tmp_path, base_overrides=broken)
    assert res["outliers"][0]["key"] == "Church"
    assert res["proposals"], res["summary"]
    p = res["proposals"][0]
    assert p.component == "buildings.Church" and p.path.startswith("buildings.church.")
    assert abs(p.after["dev"]) < abs(p.before["dev"])
    # kept only when the whole interval is inside the band, with the games it took
    assert p.inside == lab.inside_band(p.after, 2.0)
    assert p.games in (2000, 4000, 8000)
    assert (tmp_path / "suggest.md").read_text().count("buildings.Church") >= 2


def test_component_row_by_key_and_by_path_slug():
    import polars as pl
    comp = pl.DataFrame({"table": ["buildings", "buildings", "goals"],
                         "key": ["Gold Mine", "Well", "13"],
                         "key_slug": ["gold_mine", "well", "13"], "diff": [1.0, 2.0, 3.0]})
    assert lab.component_row(comp, "buildings", "Gold Mine")["diff"] == 1.0
    assert lab.component_row(comp, "buildings", key_slug="gold_mine")["diff"] == 1.0
    assert lab.component_row(comp, "goals", key_slug="13")["diff"] == 3.0
    assert lab.component_row(comp, "goals", "Well") is None
    assert lab.component_row(pl.DataFrame(), "goals", "13") is None


# ---- limit games kept apart (issue 15) ---------------------------------------------------------
def _fixture_run(limits: set[int], first_wins: set[int], n: int = 100):
    """A RunFn writing a 2-player run folder without playing: game i stops at the length
    limit when i is in ``limits`` (every seat 0), else seat 0 (always the first player) wins
    when i is in ``first_wins`` and seat 1 otherwise."""
    import polars as pl

    def run(game_id, n_, players, seats, seed, options, jobs, chunk_size, folder, seating,
            backend, label=None, scheduler=None, overrides=None):
        folder = Path(folder)
        games, rows = [], []
        for i in range(n):
            lim = i in limits
            win = None if lim else (0 if i in first_wins else 1)
            games.append({"game": i, "turns": 500 if lim else 40 + i % 7, "first_player": 0,
                          "end_reason": "limit" if lim else "target"})
            for s in range(2):
                rows.append({"game": i, "seat": s, "strategy": seats[s],
                             "score": 3 if lim else (5 if s == win else 2),
                             "rank": None if lim else (1 if s == win else 2),
                             "win_share": 1.0 if s == win else 0.0, "players": 2})
        for t, df in (("games", pl.DataFrame(games)), ("seats", pl.DataFrame(rows))):
            (folder / t).mkdir(parents=True, exist_ok=True)
            df.write_parquet(folder / t / "chunk-000000.parquet")
        return folder
    return run


def test_compare_counts_limit_games_apart_and_the_sign_can_flip(tmp_path):
    """Baseline: 60 of 100 games stop at the limit, the first player wins 20 of the 40
    finished (50%). Variant: 10 stop at the limit; of the 40 games finished in both arms the
    first player wins 19 (47.5%), and 30 more of the games finished only in the variant.
    Counting limit games as losses would say 20% -> 49% (+29 points); over games finished in
    both arms it is 50% -> 47.5% (-2.5), and the limit-game rate moves 60% -> 10% apart."""
    base = _fixture_run(set(range(40, 100)), set(range(20)))
    var = _fixture_run(set(range(90, 100)), set(range(19)) | set(range(40, 70)))

    def run(game_id, n, players, seats, seed, options, jobs, chunk_size, folder, *a, **k):
        fn = var if "variant" in str(folder) else base
        return fn(game_id, n, players, seats, seed, options, jobs, chunk_size, folder, *a, **k)

    res = lab.compare("go-town", lab.Arm("baseline"), lab.Arm("variant", {"cards.dog.count": 3}),
                      100, 2, ["defender"], seed=1, rotate=True, jobs=1, out=tmp_path, run=run)
    t = {r["metric"]: r for r in res["table"].iter_rows(named=True)}
    fp = t["first-player win rate"]
    assert (fp["games"], fp["baseline"], fp["variant"]) == (40, 50.0, 47.5)
    assert fp["diff"] == pytest.approx(-2.5, abs=1e-12)
    lim = t[lab.LIMIT_METRIC]
    assert (lim["games"], lim["baseline"], lim["variant"]) == (100, 60.0, 10.0)
    assert t["game length (turns)"]["games"] == 40  # lengths over finished games only
    # by turn order, never by seat number: the second position wins what the first does not
    assert t["turn position 2 win rate"]["baseline"] == 50.0
    assert not any(m.startswith("seat ") for m in t)
    assert [(r["limit"], r["games"]) for r in res["limit"]] == [(60, 100), (10, 100)]
    md = (tmp_path / "compare.md").read_text()
    assert ("baseline: 40 of 100 finished; stopped at the length limit 60 = 60.00% [" in md
            and "variant: 90 of 100 finished; stopped at the length limit 10 = 10.00% [" in md)
    assert "Sample size: first-player win rate" in md  # 40 games: far from +-1 point
    assert 0 <= fp["q"] <= 1 and fp["q"] >= fp["p"]


def test_inside_band_needs_the_whole_interval():
    assert lab.inside_band({"dev": 0.5, "dev_lo": -1.9, "dev_hi": 1.9}, 2.0)
    assert not lab.inside_band({"dev": 0.5, "dev_lo": -1.0, "dev_hi": 2.1}, 2.0)  # estimate in
    assert not lab.inside_band({"dev": 0.5, "dev_lo": None, "dev_hi": None}, 2.0)


def test_suggest_go_town_varies_card_counts():
    """Go Town's cards are judged by the seats that played each type, and the number suggest
    changes is the type's count (effect +1, measured: a type whose players win too often gets
    fewer copies); the 36 building and ? cards the kernels hold make a step up refused."""
    from sim import get_game

    g = get_game("go-town")
    dog = next(r["count"] for r in g.component_document()["cards"] if r["card"] == "DOG")
    assert lab._candidates(g, "cards", "DOG", -1, 2) == [
        ("cards.dog.count", dog, dog - 1), ("cards.dog.count", dog, dog - 2)]
    assert lab._candidates(g, "cards", "question_mark", +1, 1) == [
        ("cards.question_mark.count", 4, 5)]
    with pytest.raises(UserError, match="at most 36 building and"):
        g.with_overrides({"cards.question_mark.count": 5})


def test_suggest_go_town_runs(tmp_path):
    """issue 29: `suggest go-town` was refused (no linked components); now it judges every
    card type and tries only that type's count, in the direction of its effect."""
    res = lab.suggest("go-town", 300, players=3, band=2.0, limit=1, max_step=1,
                      alt_strategies=[], jobs=1, out=tmp_path)
    md = (tmp_path / "suggest.md").read_text()
    assert "Suggested fixes: Go Town" in md
    comps = {r["table"] for r in res["outliers"]}
    assert comps <= {"cards"}
    for t in res["tried"]:
        o = next(o for o in res["outliers"] if f"cards.{o['key']}" == t["component"])
        assert t["path"] == f"cards.{lab.slug(o['key'])}.count"
        assert t["to"] - t["from"] == (-1 if o["dev"] > 0 else 1)
