"""boardsim effects (issue 15): nudge arms, the holders' paired effect with a clustered
interval, limit games apart, tiers and the headline rule; fixtures, not full runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

import sim
from analysis.lab import effects as fx
from analysis.stats import cluster_ratio
from sim.core.errors import UserError
from tests import games as H
from tests import inproc

ROOT = Path(__file__).resolve().parents[1]


def test_every_game_has_its_families_and_each_nudge_is_accepted_by_the_game():
    for gid in sim.list_games():
        game = sim.get_game(gid)
        fams = H.hooks(game).EFFECT_FAMILIES  # each game's, tests/games/<package>.py
        comps = fx.components_for(game)
        assert {c.family for c in comps} == fams, gid
        for c in comps:
            assert c.new != c.old
            assert c.holder is None or c.holder in game.seat_detail, (gid, c)
    lt = {c.key: c for c in fx.components_for(sim.get_game("little-town"))}
    assert (lt["Church"].path, lt["Church"].old, lt["Church"].new) == ("buildings.church.vp", 8, 7)
    # the Castle is worth 0 VP: its cost moves instead (first non-zero part)
    assert (lt["Castle"].path, lt["Castle"].new) == ("buildings.castle.cost.stone", 7)
    assert (lt["Residence"].path, lt["Residence"].new) == ("buildings.residence.vp", 1)
    assert lt["16"].holder == "goal_16" and lt["16"].holder_min == 0  # dealt, not completed
    gt = {c.key: c for c in fx.components_for(sim.get_game("go-town"))}
    assert gt["question_mark"].holder == "played_?"
    # one copy taken out of the shuffled deck (issue 26: the deal stays the baseline's)
    assert (gt["MASTER"].path, gt["MASTER"].old, gt["MASTER"].new) == ("cards.master.removed",
                                                                      0, 1)
    wolves = {c.key: c for c in fx.components_for(sim.get_game("three-little-wolves"))}
    assert (wolves["7"].old, wolves["7"].new) == (-2, -1)  # a signed mark moves towards 0
    # measured on the seats that score that kind of points (issue 26), not the first seat
    assert wolves["7"].holder == "pts_marks" and wolves["7"].holder_abs
    assert wolves["pig_tokens.first"].holder == "pts_pigs"
    assert wolves["pig_tokens.first"].step_kind == "components.pig_tokens.*"
    assert lt["Church"].step_kind == "buildings.*.vp"
    assert lt["Castle"].step_kind == "buildings.*.cost.stone"


def _arm(ws, finished, first=None, holders=None):
    ws = np.asarray(ws, float)
    out = {"win_share": ws, "finished": np.asarray(finished, bool),
           "first_player": np.zeros(ws.shape[0], np.int64) if first is None
           else np.asarray(first, np.int64), "turns": np.full(ws.shape[0], 10)}
    if holders is not None:
        out["h:built_x"] = np.asarray(holders, np.int16)
    return out


def test_measure_pairs_holders_by_game_and_keeps_limit_games_apart():
    # 6 games, 2 seats. Holders (from the baseline only): game 0 seat 0, game 1 both seats,
    # game 2 seat 1, game 3 seat 0 (a limit game in the arm: left out), games 4-5 none.
    base = _arm([[1, 0], [1, 0], [0, 1], [1, 0], [0, 1], [1, 0]], [1, 1, 1, 1, 1, 1],
                holders=[[1, 0], [1, 1], [0, 1], [1, 0], [0, 0], [0, 0]])
    arm = _arm([[0, 1], [0, 1], [0, 1], [0, 0], [1, 0], [1, 0]], [1, 1, 1, 0, 1, 1])
    comp = fx.Component("buildings", "X", "buildings.x.vp", 3, 2, "built_x", 1)
    r = fx.measure(base, arm, comp)
    # per game (baseline - arm) summed over holders: g0 +1, g1 (+1) + (-1) = 0, g2 0
    assert (r["holder_seat_games"], r["n_games"]) == (4, 5)
    want = cluster_ratio([1.0, 0.0, 0.0], [1.0, 2.0, 1.0])
    assert r["effect"] == pytest.approx(0.25) == want["est"]
    assert (r["lo"], r["hi"]) == pytest.approx((want["lo"], want["hi"]))
    # the first seat (seat 0 moved first): baseline - arm over the 5 games finished in both
    assert r["first_seat_diff"] == pytest.approx((1 + 1 + 0 - 1 + 0) / 5)
    assert (r["limit_rate_base"], r["limit_rate_arm"]) == (0.0, 1 / 6)
    assert r["limit_lo_arm"] < 1 / 6 < r["limit_hi_arm"]


def test_measure_go_town_leverage_on_the_seat_the_removal_reaches():
    """Issue 26: a removal arm that reports ``reached`` (the seat drawing the removed copy's
    slot; -1 never) is measured on that seat alone, paired per game, whatever the holder
    column says; the re-deal placebo uses the same seat."""
    base = _arm([[1, 0], [1, 0], [0, 1], [1, 0]], [1, 1, 1, 1],
                holders=[[1, 1], [1, 1], [1, 1], [1, 1]])
    arm = _arm([[0, 1], [1, 0], [1, 0], [0, 1]], [1, 1, 1, 1])
    arm["reached"] = np.array([0, 1, 1, -1], np.int64)
    placebo = _arm([[0, 1], [0, 1], [0, 1], [0, 1]], [1, 1, 1, 1])
    comp = fx.Component("card types", "DONUT", "cards.donut.removed", 0, 1, "built_x", 1)
    r = fx.measure(base, arm, comp, placebo)
    # g0 seat 0: 1 - 0; g1 seat 1: 0 - 0; g2 seat 1: 1 - 0; g3: not reached
    want = cluster_ratio([1.0, 0.0, 1.0, 0.0], [1.0, 1.0, 1.0, 0.0])
    assert (r["effect"], r["holder_seat_games"]) == (pytest.approx(want["est"]), 3)
    assert r["measure"] == "seat drawing the removed copy"
    # placebo: g0 seat 0 1 - 0, g1 seat 1 0 - 1, g2 seat 1 1 - 1
    assert r["placebo"] == pytest.approx(0.0)


def test_tiers_and_headline_rules():
    df = pl.DataFrame({
        "component": ["a", "b", "c", "d"], "effect": [5.0, 4.0, 1.0, None],
        "lo": [3.0, 2.5, 0.0, None], "hi": [7.0, 5.5, 2.0, None], "q": [0.01, 0.01, 0.2, None],
        "holder_seat_games": [5000, 5000, 5000, 0], "small_sample": [False, False, False, True],
    })
    ranked = fx.rank_effects(df)
    assert ranked["component"].to_list() == ["a", "b", "c", "d"]
    assert ranked["tier"].to_list() == [1, 1, 2, None]  # b overlaps a; c clears a's 3.0
    assert "indistinguishable" in fx.headline(ranked)
    clear = fx.rank_effects(df.with_columns(lo=pl.Series([4.6, 2.5, 0.0, None]),
                                            hi=pl.Series([7.0, 4.5, 2.0, None])))
    assert clear["tier"].to_list() == [1, 2, 3, None]  # c (hi 2.0) clears b (lo 2.5)
    assert fx.headline(clear).startswith("a has the largest leverage")
    small = fx.rank_effects(df.with_columns(
        holder_seat_games=pl.Series([999, 5000, 5000, 0]),
        small_sample=pl.Series([True, False, False, True])))
    h = fx.headline(small)
    assert h.startswith("No headline") and "999 holder seat-games" in h


def test_effects_end_to_end_on_a_few_games(tmp_path):
    res = fx.run_effects("go-town", n=40, players=2, strategies=["greedy"], seed=3, jobs=1,
                         out=tmp_path, families=["card types"], chunk_size=20)
    df = fx.effects_table(tmp_path)
    assert df.columns == list(fx.EFFECT_COLUMNS)
    assert df.height == 17 and set(df["bot_mix"].to_list()) == {"greedy (fixed seating)"}
    assert df["small_sample"].all()  # 40 games cannot carry a headline
    assert res["summary"].startswith("No headline")
    for name in ("effects.md", "effects.csv", "effects.png", "effects.json"):
        assert (tmp_path / name).stat().st_size > 0
    assert len(list((tmp_path / "arms").glob("*.npz"))) == 19  # + the re-deal placebo
    assert df["pairing_share"].drop_nulls().len() > 0 and df["placebo"].null_count() == 0
    assert "re-deal placebo" in (tmp_path / "effects.md").read_text()
    lines = fx.verdict_lines(tmp_path, top=3)
    assert lines[0].startswith("**Component leverage (leverage: one step") and "greedy" in lines[0]
    assert lines[2].count("\n") == 4  # header, rule, 3 rows
    # a rerun reuses the arms and gives the same table
    again = fx.run_effects("go-town", n=40, players=2, strategies=["greedy"], seed=3, jobs=1,
                           out=tmp_path, families=["card types"], chunk_size=20)
    assert again["table"].equals(res["table"])
    with pytest.raises(UserError, match="unknown family"):
        fx.run_effects("go-town", n=40, families=["tiles"], out=tmp_path)
    with pytest.raises(UserError):
        fx.effects_table(tmp_path / "nothing")


def test_effects_cli_bad_input_one_line_exit_2():
    r = inproc.boardsim("effects", "go-town", "--step", "0", cwd=ROOT)  # tests/inproc.py
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--step" in r.stderr
    r = inproc.boardsim("effects", "province", "--arm", "denial", cwd=ROOT)
    assert r.returncode == 2 and "has no denial arm" in r.stderr and "go-town" in r.stderr


# ---- the denial arm (Go Town) --------------------------------------------------------------
def test_go_town_deny_mask_names_the_actions_that_play_a_card_type():
    from sim.go_town import constants as K
    from strategies.go_town.deny import deny_mask

    ids = {t: set(np.nonzero(deny_mask(t))[0].tolist()) for t in range(1, K.NT)}
    assert ids[1] == {1, 5} and ids[8] == {1, 12} and ids[4] == {4, 8}  # 1+8, 4+5, ?+n
    assert ids[K.QM] == set(range(5, 13))
    assert ids[K.DOG] == set(range(29, 101)) and ids[K.BONE] == set(range(101, 173))
    assert ids[K.DONUT] == {189} and ids[K.MASTER] == {190} and ids[K.THIEF] == {185, 186,
                                                                                   187, 188}
    assert not any(a in ids[t] for t in ids for a in (0, *range(13, 29), *range(191, 208)))


def test_denying_a_card_nobody_holds_replays_the_baseline_exactly():
    """With no DONUT in the deck, barring a seat from the DONUT changes nothing: the denial loop
    plays every game exactly as Game.run_chunk does (common random numbers)."""
    from sim.go_town.constants import DONUT

    args = ("go-town", {"cards.donut.count": 0}, 60, 3, ["greedy", "attacker", "random"],
            "pool", 5, {}, [], 1, 30)
    base = fx.play_arm(*args)
    denied = fx.play_arm(*args, deny=DONUT)
    for k in ("win_share", "finished", "first_player", "turns"):
        assert np.array_equal(base[k], denied[k]), k
    assert denied["denied"].tolist() == [g % 3 for g in range(60)]
    # and the DOG, which every seat plays, changes games, and the effect is on the denied seat
    dog = fx.play_arm(*args, deny=10)
    assert not np.array_equal(base["win_share"], dog["win_share"])
    comp = fx.Component("card types", "DOG", "cards.dog.count", 4, 3, "played_DOG", 1, 10)
    r = fx.measure(base, dog, comp)
    assert r["measure"] == "denied seat" and r["holder_seat_games"] == r["n_games"]


def test_every_family_and_component_has_a_whole_number_holder_minimum():
    """A family's fields are positional: a holder text in the ``holder_min`` slot (the Wolves'
    scoring numbers, session 9) made ``boardsim run``'s tier study fail comparing a column
    with a string. Every family and every component of every game: an int."""
    import sim
    from analysis.lab.effects import FAMILIES, components_for

    for gid, fams in FAMILIES.items():
        for f in fams:
            assert isinstance(f.holder_min, int) and isinstance(f.holder_text, str), (gid, f)
        for c in components_for(sim.get_game(gid)):
            assert isinstance(c.holder_min, int), (gid, c)
