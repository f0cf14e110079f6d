"""Clustered-by-game intervals in every game-specific table where seats of one game are
compared (issue 26, item 4): each table's interval is checked against statsmodels' OLS with
``cov_type="cluster"`` (groups = games) on the seat rows the table compares, within +-5% of
its half-width. A Newcombe interval (seats independent) is narrower than the clustered one and
fails the check."""

import numpy as np
import polars as pl
import pytest

from analysis import queries as q
from sim.runner import simulate

sm = pytest.importorskip("statsmodels.api")


def ols_cluster(y, x, groups):
    """(coefficient of x, half-width of its 95% interval) of OLS y ~ 1 + x clustered by
    groups (statsmodels)."""
    fit = sm.OLS(np.asarray(y, float), sm.add_constant(np.asarray(x, float))).fit(
        cov_type="cluster", cov_kwds={"groups": np.asarray(groups)})
    lo, hi = fit.conf_int()[1]
    return float(fit.params[1]), float((hi - lo) / 2)


def check(row, y, x, groups, lo="lo", hi="hi", diff="diff"):
    b, half = ols_cluster(y, x, groups)
    assert row[diff] == pytest.approx(b, abs=1e-9)
    assert (row[hi] - row[lo]) / 2 == pytest.approx(half, rel=0.05)


@pytest.fixture(scope="module")
def little_town(tmp_path_factory):
    out = tmp_path_factory.mktemp("lt") / "run"
    run = simulate("little-town", 400, 2, ["greedy", "builder", "gatherer"], seed=3, out=out,
                   jobs=1, seating="pool")
    return q.scan_runs([str(run)])


def test_little_town_tavern_2p_is_clustered_by_game(little_town):
    from analysis.games.little_town.queries import building_stats, goal_stats
    _, seats = little_town
    df = q.collect(seats.filter(q.finished_seat()))
    bs = building_stats(seats)
    tav = bs.filter((pl.col("players") == 2) & (pl.col("slug") == "tavern")).row(0, named=True)
    built = (df["built_tavern"].fill_null(0) > 0).to_numpy()
    game = df["game"].to_numpy()
    any_built = pl.DataFrame({"game": game, "b": built}).group_by("game").agg(
        pl.col("b").any())
    games_with = set(any_built.filter(pl.col("b"))["game"].to_list())
    keep = np.isin(game, list(games_with))
    check(tav, df["win_share"].to_numpy()[keep], built[keep], game[keep])
    # every building with both sides
    for r in bs.filter(pl.col("lo").is_not_null()).iter_rows(named=True):
        b = (df[f"built_{r['slug']}"].fill_null(0) > 0).to_numpy()
        gw = set(pl.DataFrame({"game": game, "b": b}).group_by("game").agg(pl.col("b").any())
                 .filter(pl.col("b"))["game"].to_list())
        k = np.isin(game, list(gw))
        if len(set(b[k])) == 2 and len(gw) > 5:
            check(r, df["win_share"].to_numpy()[k], b[k], game[k])
    # goal cards: holders who completed it against holders who did not
    gs = goal_stats(seats)
    checked = 0
    for r in gs.filter(pl.col("lo").is_not_null()).iter_rows(named=True):
        g = df[f"goal_{r['card']:02d}"].fill_null(-1).to_numpy()
        k = g >= 0
        if len(set(g[k])) == 2 and len(set(game[k])) > 5:
            check(r, df["win_share"].to_numpy()[k], g[k] == 1, game[k])
            checked += 1
    assert checked > 3


# ---- the other games' tables, on synthetic seat tables (every seat's value drawn so that the
# seats of one game are correlated: one winner per game) ----------------------------------------
def _seats(n_games, players, cols, seed=0):
    """A seats table of ``n_games`` finished games: one winner per game, and per seat the
    0/1 (or -1/0/1) columns ``cols`` ({name: callable(rng, n) -> values})."""
    rng = np.random.default_rng(seed)
    n = n_games * players
    game = np.repeat(np.arange(n_games), players)
    winner = rng.integers(0, players, n_games)
    seat = np.tile(np.arange(players), n_games)
    data = {"run": np.zeros(n, np.int32), "game": game, "players": np.full(n, players, np.int8),
            "seat": seat.astype(np.int8), "rank": np.where(seat == winner[game], 1, 2),
            "win_share": (seat == winner[game]).astype(float), "strategy": ["greedy"] * n}
    for name, f in cols.items():
        data[name] = f(rng, n, data)
    return pl.DataFrame(data)


def _favour_winner(p_win, p_lose):
    def f(rng, n, data):
        p = np.where(data["win_share"] > 0, p_win, p_lose)
        return (rng.random(n) < p).astype(np.int16)
    return f


def test_go_town_wrecking_ball_is_clustered_by_game():
    from analysis.games.go_town.queries import held_effect
    df = _seats(1500, 3, {"held_WRECK": _favour_winner(0.5, 0.3),
                          "played_WRECK": _favour_winner(0.4, 0.2)})
    he = held_effect(df.lazy())
    for split, col in (("held", "held_WRECK"), ("played", "played_WRECK")):
        r = he.filter(pl.col("split") == split).row(0, named=True)
        check(r, df["win_share"], df[col] > 0, df["game"])


def test_province_structures_and_goals_are_clustered_by_game():
    from analysis.games.province.queries import goal_stats, structure_stats
    from sim.core.components import slug
    s_name, g_name = "Bank", "Wealth"
    b, t = f"built_{slug(s_name)}", f"turnbuilt_{slug(s_name)}"
    gcol, gin = f"goal_{slug(g_name)}", f"goalin_{slug(g_name)}"

    def first_build(rng, n, data):  # one first builder per game (seat 0 or 1), or none
        x = np.zeros(n, np.int16)
        g = np.asarray(data["game"])
        who = rng.integers(0, 3, g.max() + 1)
        win = np.asarray(data["win_share"]) > 0
        # the winner built it first more often
        who = np.where(rng.random(len(who)) < 0.6, np.asarray(data["seat"])[win], who)
        x[(np.asarray(data["seat"]) == who[g])] = 1
        return x

    def drawn(rng, n, data):
        g = np.asarray(data["game"])
        return (rng.random(g.max() + 1) < 0.7)[g].astype(np.int16)

    df = _seats(1500, 2, {b: first_build, t: lambda r, n, d: r.integers(1, 20, n),
                          gin: drawn, gcol: _favour_winner(0.6, 0.3)})
    df = df.with_columns(pl.when(pl.col(gin) == 1).then(pl.col(gcol)).otherwise(0).alias(gcol))
    games = df.group_by("run", "game").agg(pl.lit(0, pl.Int8).alias("first_player")).lazy()
    st = structure_stats(games, df.lazy(), [0], names=[s_name]).row(0, named=True)
    check(st, df["win_share"], df[b] == 1, df["game"])
    gs = goal_stats(games, df.lazy(), [0], names=[g_name]).row(0, named=True)
    k = (df[gin] == 1).to_numpy()
    check(gs, df["win_share"].to_numpy()[k], (df[gcol] == 1).to_numpy()[k],
          df["game"].to_numpy()[k])


def test_suburbia_tiles_and_goals_are_clustered_by_game():
    from analysis.games import suburbia as sb
    from analysis.games.suburbia.data import GOALS, TILES
    tile = TILES[0][2]
    gid, _, goal, _ = GOALS[0]
    df = _seats(1500, 3, {f"tile_{tile}": _favour_winner(0.5, 0.25),
                          f"goal_{goal}": lambda r, n, d: r.integers(-1, 2, n),
                          "private_goal": lambda r, n, d: np.full(n, -1)})
    df = df.with_columns(role=pl.lit("main"))
    lf = df.lazy()
    summ = sb.tile_summary(sb.tile_balance(lf), clusters=sb.tile_clusters(lf))
    r = summ.filter(pl.col("tile") == tile).row(0, named=True)
    placed = (df[f"tile_{tile}"] > 0).to_numpy()
    g = df["game"].to_numpy()
    anyp = np.bincount(g, weights=placed)[g] > 0
    check(r, df["win_share"].to_numpy()[anyp], placed[anyp], g[anyp])
    assert r["deff"] > 1.05  # one winner per game: the independent interval was too narrow
    gs = sb.goal_summary(sb.goal_balance(lf), clusters=sb.goal_clusters(lf))
    r = gs.filter((pl.col("goal") == goal) & (pl.col("kind") == "public")).row(0, named=True)
    col = df[f"goal_{goal}"].to_numpy()
    k = col >= 0
    check(r, df["win_share"].to_numpy()[k], col[k] == 1, g[k])


def test_wolves_wolf_bets_are_clustered_by_game():
    from analysis.games.three_little_wolves.queries import bet_more_less
    df = _seats(1500, 3, {"act_wolf": lambda r, n, d: np.where(
        np.asarray(d["win_share"]) > 0, r.integers(0, 4, n), r.integers(0, 3, n))})
    r = bet_more_less(df.lazy()).row(0, named=True)
    check(r, df["win_share"], df["act_wolf"] >= 2, df["game"])


def test_wolves_more_vs_less_bots_are_clustered_by_game():
    from analysis.games.three_little_wolves.queries import more_vs_less, wolf_by_strategy
    rng = np.random.default_rng(4)
    df = _seats(1500, 3, {"act_wolf": lambda r, n, d: r.integers(0, 4, n),
                          "pts_wolves": lambda r, n, d: np.zeros(n, int),
                          "wolves_placed": lambda r, n, d: np.zeros(n, int),
                          "wolves_standing": lambda r, n, d: np.zeros(n, int)})
    strat = rng.choice(["greedy", "cautious", "wolf-bettor"], df.height)
    df = df.with_columns(strategy=pl.Series(strat),
                         act_wolf=pl.when(pl.Series(strat) == "wolf-bettor").then(3)
                         .otherwise(pl.col("act_wolf")))
    r = more_vs_less(wolf_by_strategy(df.lazy()), seats=df.lazy()).row(0, named=True)
    k = np.isin(strat, [r["more"], r["less"]])
    check(r, df["win_share"].to_numpy()[k], (strat == r["more"])[k], df["game"].to_numpy()[k])


def test_clustered_difference_of_win_rates_is_clipped_to_plus_minus_one():
    """A difference of two win rates lies in [-1, 1] (-100..100 points): its clustered normal
    interval, which passes -1 on few games, is clipped there; p is the unclipped one, and
    values other than the win share (``value``) are not clipped."""
    from scipy import stats
    # 2 games of 3 seats; the holders won 0 of 3, the others 2 of 3: diff -2/3
    df = pl.DataFrame({"run": [0] * 6, "game": [0, 0, 0, 1, 1, 1], "players": [3] * 6,
                       "seat": [0, 1, 2] * 2, "rank": [2, 1, 2, 2, 2, 1],
                       "win_share": [0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
                       "x": [1, 0, 0, 1, 1, 0], "strategy": ["greedy"] * 6})
    y, x, game = df["win_share"].to_numpy(), df["x"].to_numpy(), df["game"].to_numpy()
    b, half = ols_cluster(y, x, game)
    fit = sm.OLS(y, sm.add_constant(x.astype(float))).fit(
        cov_type="cluster", cov_kwds={"groups": game, "use_correction": False})
    se = float(np.sqrt(fit.cov_params()[1, 1] * 2))  # CR1: G/(G-1) = 2
    assert b == pytest.approx(-2 / 3) and b - 1.959963984540054 * se < -1.0  # passes -1
    assert half == pytest.approx(1.959963984540054 * se, rel=0.2)  # statsmodels' own CR1
    r = q.clustered_differences(df.lazy(), {"x": pl.col("x") == 1}).row(0, named=True)
    assert r["diff"] == pytest.approx(-2 / 3)
    assert r["lo"] == -1.0 and r["hi"] == pytest.approx(-2 / 3 + 1.959963984540054 * se)
    assert r["p"] == pytest.approx(2 * stats.norm.sf(2 / 3 / se))
    # another value (here the win share in points) is not clipped
    v = q.clustered_differences(df.lazy(), {"x": pl.col("x") == 1},
                                value=pl.col("win_share") * 100).row(0, named=True)
    assert v["lo"] == pytest.approx(100 * (-2 / 3 - 1.959963984540054 * se))
