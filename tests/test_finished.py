"""One definition of a finished game (issue 26, item 3): every game declares its end reasons
with a result (``sim.core.ending``); every lab tool (compare, sweep, suggest, effects, tune,
ladder) leaves limit games and Go Town's deadlocks out of every rate and counts them apart.

Go Town 2p with greedy vs attacker deadlocks in about 1% of games; game 0..399 of seed 1
holds some (each test asserts it), so the shares of the seats sum to 100% of the finished
games only when deadlocks are left out."""

import numpy as np
import pytest

import sim
from sim.core import ending

N = 400
SEED = 1
BOTS = ["greedy", "attacker"]


def test_every_game_declares_its_end_reasons():
    from sim.registry import list_games
    for gid in list_games():
        g = sim.get_game(gid)
        ending.check_declaration(g)
        assert g.results, gid  # declared, not derived
    gt = sim.get_game("go-town")
    assert ending.result_reasons(gt) == ("target",)
    assert ending.unfinished_reasons(gt) == ("limit", "deadlock")
    assert ending.unfinished_reasons(sim.get_game("province")) == ("limit",)
    # codes and names give the same mask; a null name is a finished game (as in the queries)
    codes = np.array([1, 2, 3, 1, 0])
    assert ending.finished_mask(gt, codes).tolist() == [True, False, False, True, True]
    names = np.array(["target", "limit", "deadlock", "target", None], dtype=object)
    assert ending.finished_mask(gt, names).tolist() == [True, False, False, True, True]
    assert ending.unfinished_counts(gt, codes) == {"limit": 1, "deadlock": 1}


def test_a_bad_declaration_is_refused():
    class Bad:
        id = "bad"
        end_reasons = ("none", "won", "stuck")
        results = ("won",)

    with pytest.raises(AssertionError, match="stuck"):
        ending.check_declaration(Bad)


def test_queries_complete_counts_deadlocks_apart():
    import polars as pl

    from analysis import queries as q
    games = pl.LazyFrame({"players": [2] * 5, "end_reason": ["target", "limit", "deadlock",
                                                             "target", "target"],
                          "winners": [[0], [], [], [1], [0]]})
    c = q.completion(games).row(0, named=True)
    assert (c["n"], c["finished"], c["limit"], c["deadlock"]) == (5, 3, 1, 1)
    assert c["limit_rate"] == pytest.approx(0.2) and c["deadlock_rate"] == pytest.approx(0.2)
    assert c["deadlock_lo"] < 0.2 < c["deadlock_hi"]


def _shares_sum_to_100(rows: dict, base: str = "baseline"):
    first = rows["first-player win rate"][base]
    second = rows["turn position 2 win rate"][base]
    assert first + second == pytest.approx(100.0, abs=1e-9)


def test_compare_shares_sum_to_100_with_deadlocks_apart(tmp_path):
    from analysis.lab import compare as lab
    res = lab.compare("go-town", lab.Arm("baseline"),
                      lab.Arm("variant", {"constants.hand_limit": 6}), N, 2, BOTS, seed=SEED,
                      rotate=True, jobs=1, out=tmp_path)
    t = {r["metric"]: r for r in res["table"].iter_rows(named=True)}
    dead = t[lab.DEADLOCK_METRIC]
    assert dead["games"] == 2 * N and dead["baseline"] > 0  # both rotations, every game
    _shares_sum_to_100(t)
    _shares_sum_to_100(t, "variant")
    # rates over the games finished in both arms: the deadlocks are not among them
    both = t["first-player win rate"]["games"]
    assert both < 2 * N
    lim = res["limit"][0]
    assert lim["finished"] + sum(v["games"] for v in lim["reasons"].values()) == lim["games"]
    assert lim["reasons"]["deadlock"]["games"] > 0 and lim["reasons"]["limit"]["games"] == 0
    md = (tmp_path / "compare.md").read_text()
    assert "ended in a deadlock" in md
    assert "ended in a deadlock" in res["summary"]


def test_compare_rotations_are_clustered_by_seed():
    from analysis.paired import clustered_mean_se, paired_difference
    x = np.array([1.0, 0.0, 1.0, 0.0, 1.0, 1.0])
    # without clusters: sd / sqrt(n)
    assert clustered_mean_se(x) == pytest.approx(x.std(ddof=1) / np.sqrt(6))
    # seeds 0,1,2 each played in two rotations: per-seed sums of deviations
    cl = np.array([0, 1, 2, 0, 1, 2])
    dev = x - x.mean()
    sums = np.array([dev[0] + dev[3], dev[1] + dev[4], dev[2] + dev[5]])
    want = np.sqrt(3 / 2 * (sums ** 2).sum()) / 6
    assert clustered_mean_se(x, cl) == pytest.approx(want)
    r = paired_difference(np.zeros(6), x, cl)
    assert (r.hi - r.diff) == pytest.approx(1.959963984540054 * want)


def test_sweep_rotates_by_default_and_counts_deadlocks_apart(tmp_path):
    import inspect

    from analysis.lab import compare as lab
    assert inspect.signature(lab.sweep).parameters["rotate"].default is True
    res = lab.sweep("go-town", ["constants.hand_limit=5,6"], N, 2, BOTS, seed=SEED, jobs=1,
                    out=tmp_path)
    t = res["table"]
    for v in ("5", "6"):
        sel = {r["metric"]: r for r in t.filter(t["param1"] == v).iter_rows(named=True)}
        # rotated: the seatings are greedy,attacker and attacker,greedy
        assert sel["first-player win rate"]["games"] < 2 * N
        assert (sel["first-player win rate"]["estimate"]
                + sel["turn position 2 win rate"]["estimate"]) == pytest.approx(100.0)
        assert sel[lab.DEADLOCK_METRIC]["estimate"] > 0
        assert sel[lab.DEADLOCK_METRIC]["games"] == 2 * N
    assert "deadlock" in (tmp_path / "sweep.md").read_text()


def test_cli_sweep_rotates_by_default():
    import importlib
    import inspect
    cli = importlib.import_module("analysis.cli")
    assert inspect.signature(cli.sweep).parameters["rotate"].default.default is True


def test_suggest_component_table_leaves_deadlocks_out(tmp_path):
    from analysis import queries as q
    from analysis.lab import compare as lab
    from sim.runner import simulate
    run = simulate("go-town", N, 2, BOTS, seed=SEED, out=tmp_path / "run", jobs=1)
    games, _ = q.scan_runs([str(run)])
    c = q.completion(games).row(0, named=True)
    assert c["deadlock"] > 0 and c["finished"] + c["deadlock"] + c["limit"] == N
    # suggest judges components by lab.component_table, which is queries.component_impact on
    # the game's linked columns (Go Town links none, so suggest refuses it; the filter is the
    # same for every game): every row counts the seats of finished games only
    _, seats = q.scan_runs([str(run)])
    comp = q.component_impact(seats, "played_")
    assert not comp.is_empty()
    assert set((comp["n_with"] + comp["n_without"]).to_list()) == {2 * c["finished"]}
    src = lab._write_suggest.__code__.co_consts
    assert any(isinstance(x, str) and "deadlock" in x for x in src)


def test_effects_arms_leave_deadlocks_out_and_count_them_apart():
    from analysis.lab import effects as fx
    arm = fx.play_arm("go-town", {}, N, 2, BOTS, "fixed", SEED, {}, [], 1, 200)
    assert arm["deadlock"].sum() > 0
    assert not (arm["finished"] & arm["deadlock"]).any()
    fin = arm["finished"]
    assert arm["win_share"][fin].sum() == pytest.approx(fin.sum())  # every finished game won
    comp = fx.Component("cards", "X", "cards.x.count", 1, 0, None, 1)
    r = fx.measure(arm, arm, comp)
    assert r["n_games"] == int(fin.sum())
    assert r["deadlock_rate_base"] == pytest.approx(arm["deadlock"].mean())
    assert r["limit_rate_base"] == 0.0


def test_tune_games_leave_deadlocks_out_and_count_them_apart():
    from analysis.lab import tune as T
    _, g = T.play_part("go-town", {}, {}, "rotate", SEED, 2, BOTS, 0, N)
    assert g.deadlock.sum() > 0 and not (g.finished & g.deadlock).any()
    x = T.per_game(g, "first_seat")
    assert x.shape[0] == int(g.finished.sum())
    # the first seat's and the second's shares sum to 100 points over finished games
    second = 100.0 * g.win_share[np.arange(g.n), 1 - g.first_player][g.finished]
    assert (x + second) == pytest.approx(np.full(x.shape[0], 100.0))
    row = T._target_row(g, g, T.Target("first_seat", -5, 5, "first_seat", True), 2, SEED)
    assert row["deadlock_games"] == int(g.deadlock.sum()) and row["limit_games"] == 0
    assert row["games"] + row["deadlock_games"] == N


def test_ladder_counts_deadlocks_apart(tmp_path):
    from analysis.lab import ladder as L
    game = sim.get_game("go-town")
    lg = L.play_ladder(game, 2, BOTS, N, SEED)
    r, facts = L.rate(lg)
    assert facts["deadlock_games"] > 0 and facts["limit_games"] == 0
    assert facts["rated_games"] + facts["deadlock_games"] == facts["games"]
    pt = facts["pairings"]
    assert int(pt["deadlock_games"].sum()) == facts["deadlock_games"]
    paths = L.write_ladder([(lg, r, facts)], tmp_path, game.title)
    md = paths["md"].read_text()
    assert "ended in a deadlock" in md and "0 stopped at the length limit" in md
