"""Go Town report extension (analysis/games/go_town/, issue 16): exact values of its queries
on hand-built frames, the rule holes it reports (found or not), and the engine's report columns
on a small real chunk."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.doc import Doc
from analysis.games import go_town as gt
from analysis.paired import paired_difference
from analysis.report.context import ReportContext
from analysis.stats import wilson_interval
from tests.clustered import clustered_diff


def _games(rows):
    """rows: (run, game, players, first, turns, end_reason, winners)."""
    return pl.DataFrame(
        [dict(run=r, game=g, players=p, first_player=f, turns=t, end_reason=e, winners=w)
         for r, g, p, f, t, e, w in rows],
        schema={"run": pl.Int32, "game": pl.Int64, "players": pl.Int8, "first_player": pl.Int8,
                "turns": pl.Int32, "end_reason": pl.Utf8, "winners": pl.List(pl.Int8)}).lazy()


def _seats(rows):
    """rows: (run, game, players, seat, rank, win_share, held_WRECK, played_WRECK, kingmaker)."""
    return pl.DataFrame(
        [dict(run=r, game=g, players=p, seat=s, rank=k, win_share=w, held_WRECK=h,
              played_WRECK=pw, kingmaker=km, played_DOG=1, played_MASTER=0)
         for r, g, p, s, k, w, h, pw, km in rows],
        schema={"run": pl.Int32, "game": pl.Int64, "players": pl.Int8, "seat": pl.Int8,
                "rank": pl.Int8, "win_share": pl.Float64, "held_WRECK": pl.Int16,
                "played_WRECK": pl.Int16, "kingmaker": pl.Int16, "played_DOG": pl.Int16,
                "played_MASTER": pl.Int16}).lazy()


def test_end_reasons_and_rounds():
    g = _games([(0, 0, 2, 0, 20, "target", [0]), (0, 1, 2, 0, 31, "target", [1]),
                (0, 2, 2, 0, 90, "deadlock", []), (0, 3, 2, 0, 2000, "limit", []),
                (0, 0, 3, 0, 30, "target", [2])])
    er = gt.end_reasons(g)
    r2 = er.filter(pl.col("players") == 2).row(0, named=True)
    assert (r2["n"], r2["target"], r2["limit"], r2["deadlock"]) == (4, 2, 1, 1)
    lo, hi = wilson_interval(1, 4)
    assert (r2["deadlock_rate"], r2["deadlock_lo"], r2["deadlock_hi"]) == pytest.approx(
        (0.25, lo[0], hi[0]))
    rd = gt.rounds(g)
    a = rd.filter(pl.col("players") == 2).row(0, named=True)
    # won games only: 20/2 = 10 and 31/2 = 15.5 rounds (deadlock and limit left out)
    assert (a["n"], a["mean"], a["q50"]) == (2, 12.75, 12.75)
    assert rd.filter(pl.col("players") == 3)["mean"][0] == 10.0




def test_kingmaking_and_wrecking_ball():
    s = _seats([
        # game 0, 3 players: seat 2 wins, seat 1 (did not win) stopped the leader: kingmade
        (0, 0, 3, 0, 2, 0.0, 1, 1, 0), (0, 0, 3, 1, 3, 0.0, 0, 0, 1), (0, 0, 3, 2, 1, 1.0, 1, 0, 0),
        # game 1: no kingmaker
        (0, 1, 3, 0, 1, 1.0, 1, 1, 0), (0, 1, 3, 1, 2, 0.0, 0, 0, 0), (0, 1, 3, 2, 3, 0.0, 0, 0, 0),
        # game 2: a deadlock (no ranks): never counted
        (0, 2, 3, 0, None, 0.0, 1, 0, 1), (0, 2, 3, 1, None, 0.0, 0, 0, 0),
        (0, 2, 3, 2, None, 0.0, 0, 0, 0),
    ])
    km = gt.kingmaking(s).row(0, named=True)
    assert (km["players"], km["n"], km["kingmade"], km["rate"]) == (3, 2, 1, 0.5)
    w = gt.held_effect(s, "WRECK")
    held = w.filter(pl.col("split") == "held").row(0, named=True)
    # held: seats (0,0) (0,2) (1,0) -> 2 wins of 3; others (0,1) (1,1) (1,2) -> 0 of 3
    assert (held["n1"], held["w1"], held["n0"], held["w0"]) == (3, 2.0, 3, 0.0)
    # the seats of games 0 and 1, the interval clustered by game (clipped at 1: 2 games)
    y, games = [0, 0, 1, 1, 0, 0], [0, 0, 0, 1, 1, 1]
    d, lo, hi = clustered_diff(y, [1, 0, 1, 1, 0, 0], games)
    assert d == pytest.approx(2 / 3) and hi == 1.0
    assert (held["diff"], held["lo"], held["hi"]) == pytest.approx((d, lo, hi))
    played = w.filter(pl.col("split") == "played").row(0, named=True)
    assert (played["n1"], played["w1"], played["n0"], played["w0"]) == (2, 1.0, 4, 1.0)
    d, lo, hi = clustered_diff(y, [1, 0, 0, 1, 0, 0], games)
    assert d == pytest.approx(1 / 2 - 1 / 4)
    assert (played["diff"], played["lo"], played["hi"]) == pytest.approx((d, lo, hi))
    cards = gt.never_played(s)
    assert dict(zip(cards["card"], cards["played"])) == {"WRECK": 2, "DOG": 9, "MASTER": 0}


def _manifest(players, seed=1, strategies=("greedy", "attacker")):
    return {"players": players, "seed": seed, "strategies": list(strategies)}


def test_option_effects_pair_game_by_game_on_the_same_seed():
    rows = []
    base_w = [[0], [1], [0], [0], []]
    var_w = [[1], [1], [0], [1], [0]]
    for i, (b, v) in enumerate(zip(base_w, var_w)):
        rows.append((0, i, 2, 0, 20 + 2 * i, "target" if b else "deadlock", b))
        rows.append((1, i, 2, 0, 16 + 2 * i, "target", v))
    rows.append((0, 5, 2, 0, 40, "target", [0]))  # the main run is longer: not paired
    g = _games(rows)
    roles = {0: "main", 1: "option:target_floors=4", 2: "option:target_floors=4"}
    manifests = [_manifest(2), _manifest(2), _manifest(2, seed=99)]
    eff = gt.option_effects(g, roles, manifests)
    assert eff.height == 1  # the run with another seed has no main run to pair with
    r = eff.row(0, named=True)
    assert (r["option"], r["players"], r["n"], r["pairs"]) == ("target_floors=4", 2, 4, 5)
    fp = paired_difference([1, 0, 1, 1], [0, 0, 1, 0])
    assert (r["fp_base"], r["fp_var"], r["fp_diff"], r["fp_lo"], r["fp_hi"]) == pytest.approx(
        (fp.baseline, fp.variant, fp.diff, fp.lo, fp.hi))
    assert r["r_diff"] == pytest.approx(-2.0) and r["r_base"] == pytest.approx(11.5)
    assert (r["dead_base"], r["dead_var"]) == (0.2, 0.0)


def test_rule_holes_reported_found_or_not(tmp_path):
    g = _games([(0, 0, 2, 0, 20, "target", [0]), (0, 1, 2, 0, 90, "deadlock", []),
                (0, 0, 3, 0, 30, "target", [2])])
    s = _seats([(0, 0, 2, 0, 1, 1.0, 0, 0, 0), (0, 0, 2, 1, 2, 0.0, 0, 0, 0)])
    ctx = ReportContext(Doc(), g, s, ["r"], [_manifest(2)], {0: "main"}, str(tmp_path), {}, [],
                        [])
    gt.report_rule_holes(ctx, gt.end_reasons(g), gt.never_played(s))
    got = [(h["count"], h["n"], h["unit"]) for h in ctx.rule_holes]
    # 2p deadlock 1 of 2, 2p limit 0 of 2, 3p deadlock 0 of 1, 3p limit 0 of 1, cards 2 of 3
    assert got == [(1, 2, "games"), (0, 2, "games"), (0, 1, "games"), (0, 1, "games"),
                   (2, 3, "card types")]
    assert "allow_dead_plays" in ctx.rule_holes[0]["fix"]
    assert "(WRECK, MASTER)" in ctx.rule_holes[4]["finding"]


def test_engine_report_columns_are_consistent(monkeypatch):
    import sim
    from tests.budget import small_search_budget

    game = sim.get_game("go-town")
    assert small_search_budget(monkeypatch, game)  # every bot plays, the search bots briefly
    names = list(game.strategies)
    n, p = 300, 3
    idx = np.array([[(i + s) % len(names) for s in range(p)] for i in range(n)], np.int64)
    res = game.run_chunk(0, n, 7, p, idx, game.resolve_options({}), names)
    d = res.seat_detail
    assert list(d) == list(game.seat_detail)
    won = res.win_share > 0
    # a kingmaker never wins, and only in a game someone won
    assert not (d["kingmaker"].astype(bool) & won).any()
    assert (d["kingmaker"].astype(bool).any(axis=1) <= won.any(axis=1)).all()
    # a seat that played a special card held it
    for k in ("DOG", "BONE", "DRILL", "WRECK", "MILK", "DONUT", "THIEF", "MASTER"):
        assert ((d[f"played_{k}"] > 0) <= (d[f"held_{k}"] == 1)).all(), k
    # an attacked leader is another seat
    for s in range(p):
        assert not (d["leader_attacks"][:, s] >> s & 1).any()


def test_default_plan_pairs_every_option_run_with_a_main_run():
    import sim

    game = sim.get_game("go-town")
    plan = game.default_plan()
    mains = {e["players"]: e for e in plan if e.get("role", "main") == "main"}
    opts = [e for e in plan if e.get("role", "main") != "main"]
    assert sorted(mains) == [2, 3, 4] and len(opts) == 3 * len(game.PLAN_OPTIONS)
    for e in opts:
        m = mains[e["players"]]
        (name, value), = e["options"].items()
        assert e["role"] == f"option:{name}={value}"
        assert (e["seed"], e["strategies"], e["seating"]) == (m["seed"], m["strategies"],
                                                              m["seating"])
        assert e["n_games"] <= m["n_games"]
        assert game.resolve_options(e["options"])[name] == value  # a valid, non-default value
        assert game.resolve_options({})[name] != value
