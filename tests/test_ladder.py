"""The rating ladder (analysis/lab/ladder.py, ``boardsim ladder``): the design, the pairwise
comparisons from ranks, the Bradley-Terry fit on a fixture of known outcomes, limit games left
out, and the command's files."""

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis.lab.ladder import (
    LadderGames,
    fit_ratings,
    ladder_tables,
    ordering_text,
    pairwise,
    rate,
    write_ladder,
)
from sim.core.errors import UserError
from tests import inproc

ROOT = Path(__file__).resolve().parents[1]


def test_tables_seat_every_set_of_bots_in_every_order():
    assert ladder_tables(3, 2) == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    t = ladder_tables(5, 4)
    assert len(t) == 5 * 24 and len(set(t)) == len(t)
    # every bot of a set sits in every seat equally often, and right after every other bot
    for combo in {tuple(sorted(x)) for x in t}:
        rows = [x for x in t if tuple(sorted(x)) == combo]
        for col in zip(*rows):
            assert sorted(col) == sorted(combo * 6)
        follows = [(r[i], r[(i + 1) % 4]) for r in rows for i in range(4)]
        assert all(follows.count((a, b)) == 8 for a in combo for b in combo if a != b)
    with pytest.raises(UserError, match="4 players need at least 4 different strategies, "
                                        "got 3"):
        ladder_tables(3, 4)


def test_pairwise_from_ranks_ties_count_half():
    # one 4-player game: seat ranks 1, 2, 2, 4 (seats 1 and 2 share second place)
    pairs = pairwise(np.array([[3, 1, 0, 2]]), np.array([[1, 2, 2, 4]]), np.array([7]))
    got = {(r["seat_a"], r["seat_b"]): (r["a"], r["b"], r["score"])
           for r in pairs.iter_rows(named=True)}
    assert got == {(0, 1): (3, 1, 1.0), (0, 2): (3, 0, 1.0), (0, 3): (3, 2, 1.0),
                   (1, 2): (1, 0, 0.5), (1, 3): (1, 2, 1.0), (2, 3): (0, 2, 1.0)}
    assert pairs["cluster"].to_list() == [7] * 6
    # a game without ranks (rank 0) gives no comparison
    assert pairwise(np.array([[0, 1]]), np.array([[0, 0]]), np.array([0])).height == 0


def _fixture() -> LadderGames:
    """Three bots at 2 players, 100 seeds per table: ``strong`` beats ``middle`` in 70 of
    100 games and ``weak`` in 90, ``middle`` beats ``weak`` in 70 (the same in both seat
    orders), every tenth game of each ``middle``/``weak`` table is a draw. Games 95..99 of
    every table stopped at the length limit, with ranks that would make ``weak`` the winner
    if they counted."""
    names = ["weak", "strong", "middle"]  # not in rating order on purpose
    tables = ladder_tables(3, 2)
    wins = {(1, 2): 70, (1, 0): 90, (2, 0): 70}  # (better, worse) -> games won of 100
    n = 100
    bots, rank, limit = [], [], []
    for t in tables:
        better, worse = next(k for k in wins if set(k) == set(t))
        for i in range(n):
            winner = better if i < wins[(better, worse)] else worse
            ranks = [1 if b == winner else 2 for b in t]
            if set(t) == {0, 2} and i % 10 == 9:
                ranks = [1, 1]
            lim = i >= 95
            if lim:
                ranks = [1 if b == 0 else 2 for b in t]
            bots.append(t)
            rank.append(ranks)
            limit.append(lim)
    g = len(bots)
    return LadderGames(
        game_id="fixture", players=2, names=names, tables=tables, n_per_table=n, seed=1,
        options={}, bots=np.array(bots, np.int64), rank=np.array(rank, np.int64),
        seed_index=np.tile(np.arange(n), len(tables)),
        table=np.repeat(np.arange(len(tables)), n), limit=np.array(limit),
        action_hash=np.arange(g, dtype=np.uint64), decisions=np.full(g, 10, np.int64))


def test_fit_on_known_outcomes():
    lg = _fixture()
    r, facts = rate(lg)
    t = r.table
    assert t["strategy"].to_list() == ["strong", "middle", "weak"]
    assert ordering_text(t) == "strong > middle > weak"
    assert t["clear_of_next"].to_list() == [True, True, None]
    # limit games left out: 6 tables x 5 games, counted per pairing
    assert (facts["games"], facts["limit_games"], facts["rated_games"]) == (600, 30, 570)
    assert r.comparisons == 570
    lim = facts["pairings"].sort("pairing")
    assert lim["pairing"].to_list() == ["strong vs middle", "weak vs middle", "weak vs strong"]
    assert lim["games"].to_list() == [200, 200, 200]
    assert lim["limit_games"].to_list() == [10, 10, 10]
    assert lim["limit_rate"].to_list() == [0.05, 0.05, 0.05]
    assert lim["distinct"].to_list() == [200, 200, 200]
    # head to head over the 95 rated games of each seat order: the fixture's own rates
    h = {(a, b): (s, n) for a, b, s, n in r.h2h.iter_rows()}
    assert h[("strong", "middle")] == (70 / 95, 190)
    assert h[("strong", "weak")] == (90 / 95, 190)
    # middle vs weak: wins in games 0..69 except 9, 19, ..., 69 (draws), draws in 79, 89
    assert h[("middle", "weak")] == ((63 + 0.5 * 9) / 95, 190)
    # intervals contain the estimate; ratings sum to zero; Elo is the same scale
    assert (t["lo"] < t["rating"]).all() and (t["rating"] < t["hi"]).all()
    assert abs(t["rating"].sum()) < 1e-9
    assert np.allclose(t["elo"].to_numpy(), t["rating"].to_numpy() * 400 / math.log(10))
    # the dominated bot: below, and its interval entirely below the middle one's
    assert t.filter(pl.col("strategy") == "weak")["hi"][0] < \
        t.filter(pl.col("strategy") == "middle")["lo"][0]
    # seat effects: the fixture has none (both orders identical)
    assert np.allclose(r.seat["effect"].to_numpy(), 0, atol=1e-6)


@pytest.mark.parametrize("players", [2, 4])
def test_aggregated_fit_equals_statsmodels_on_every_row(players):
    """glm_clustered fits the distinct rows with frequency weights and sums the cluster
    sandwich itself: the same estimates and covariance as statsmodels' GLM with
    cov_type="cluster" on every row."""
    import statsmodels.api as sm

    from analysis.results.ladder import design_matrix, design_rows, glm_clustered

    rng = np.random.default_rng(players)
    k, n = 5, 120
    tables = ladder_tables(k, players)
    bots = np.concatenate([np.tile(np.array(t), (n, 1)) for t in tables])
    strength = np.array([0.8, 0.3, 0.0, -0.2, -1.5])
    u = strength[bots] + 0.2 * (np.arange(players) == 0) + rng.gumbel(size=bots.shape)
    rounded = np.round(u)  # shared ranks where the rounded values tie
    rank = (rounded[:, None, :] > rounded[:, :, None]).sum(axis=2) + 1
    pairs = pairwise(bots, rank, np.tile(np.arange(n), len(tables)))
    assert (pairs["score"] == 0.5).any()
    a, b, sa, sb, y, groups = design_rows(pairs, k)
    beta, cov, ok = glm_clustered(a, b, sa, sb, y, groups, k, players)
    full = sm.GLM(y, design_matrix(a, b, sa, sb, k, players),
                  family=sm.families.Binomial()).fit(cov_type="cluster",
                                                     cov_kwds={"groups": groups})
    assert ok
    assert np.allclose(beta, full.params, rtol=1e-7, atol=1e-9)
    assert np.allclose(cov, full.cov_params(), rtol=1e-6, atol=1e-12)


def test_limit_games_would_change_the_fit():
    """The limit games of the fixture favour ``weak``: counted, they would raise it."""
    lg = _fixture()
    r, _ = rate(lg)
    all_pairs = pairwise(lg.bots, lg.rank, lg.seed_index)
    with_limit = fit_ratings(all_pairs, lg.names, 2)
    weak = [x.table.filter(pl.col("strategy") == "weak")["rating"][0] for x in (r, with_limit)]
    assert weak[1] > weak[0] + 0.1


def test_a_bot_that_never_wins_keeps_a_finite_rating():
    names = ["a", "b"]
    bots = np.array([[0, 1], [1, 0]] * 50)
    rank = np.array([[1, 2], [2, 1]] * 50)  # a always wins
    r = fit_ratings(pairwise(bots, rank, np.repeat(np.arange(50), 2)), names, 2)
    t = r.table
    assert t["strategy"].to_list() == ["a", "b"]
    assert np.isfinite(t["rating"].to_numpy()).all() and np.isfinite(t["se"].to_numpy()).all()
    assert t["score"].to_list() == [1.0, 0.0]


def test_write_ladder_files(tmp_path):
    lg = _fixture()
    lg.names = ["we$ak", "strong", "middle"]  # a name with a dollar sign is plain text
    r, facts = rate(lg)
    paths = write_ladder([(lg, r, facts)], tmp_path / "lad", "Fixture")
    csv = pl.read_csv(paths["csv"])
    assert csv.columns[:4] == ["players", "position", "strategy", "rating"]
    assert csv["strategy"].to_list() == ["strong", "middle", "we$ak"]
    md = paths["md"].read_text()
    assert "**Ordering:** strong > middle > we$ak" in md
    assert "| strong vs middle | 200 | 10 | 5.00% [2.74%, 8.96%] | 200 | 100.0% |" in md
    assert "**Warning:**" not in md
    assert "clustered by seed" in md
    assert paths["png"].stat().st_size > 1000


def test_few_distinct_games_are_flagged_per_pairing(tmp_path):
    """The fixture's strong-vs-middle tables replay 3 games each: that pairing is flagged."""
    lg = _fixture()
    for t in (4, 5):  # the two seat orders of strong vs middle: tables (1, 2) and (2, 1)
        m = lg.table == t
        lg.action_hash[m] = np.arange(m.sum(), dtype=np.uint64) % 3
    r, facts = rate(lg)
    p = facts["pairings"].sort("pairing")
    assert p["distinct"].to_list() == [6, 200, 200]
    assert facts["distinct_games"] == 406
    md = write_ladder([(lg, r, facts)], tmp_path, "Fixture")["md"].read_text()
    assert "| strong vs middle | 200 | 10 | 5.00% [2.74%, 8.96%] | 6 | 3.0% **(few)** |" in md
    assert "**Warning:** in 1 of 3 pairings fewer than half the games are distinct" in md


def _boardsim(*args, cwd=None):
    return inproc.boardsim(*args, cwd=cwd or ROOT)  # in this process (tests/inproc.py)


def test_ladder_command_on_a_real_game(tmp_path):
    out = tmp_path / "lad"
    r = _boardsim("ladder", "province", "-n", "60", "-s", "greedy,random", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("province 2p: greedy ")
    assert f"ladder: {out / 'ladder.md'}" in r.stdout
    csv = pl.read_csv(out / "ladder.csv")
    assert csv["players"].to_list() == [2, 2]
    assert csv["games_per_table"].to_list() == [60, 60]
    assert sorted(csv["strategy"].to_list()) == ["greedy", "random"]
    assert (out / "ladder.png").exists()


def test_identical_bots_get_equal_ratings(tmp_path):
    """``greedy`` and ``hostile`` play the same moves at 3 players (hostile differs only in the
    2-player dummy control): with every seat order on common seeds their games mirror each
    other exactly, so their head-to-head score is 1/2 and their ratings are equal."""
    import sim
    from analysis.lab.ladder import run_ladder

    game = sim.get_game("three-little-wolves")
    idx = np.tile(np.array([0, 2, 2]), (50, 1))
    a = game.run_chunk(0, 50, 9, 3, idx, {}, ["greedy", "hostile", "cautious"])
    b = game.run_chunk(0, 50, 9, 3, idx, {}, ["hostile", "greedy", "cautious"])
    assert (a.action_hash == b.action_hash).all()  # the premise: the same moves
    res = run_ladder("three-little-wolves", [3], 40, ["greedy", "cautious", "hostile"], seed=2,
                     out=tmp_path)
    lg, r, facts = res["results"][0]
    assert len(lg.tables) == 6 and facts["games"] == 240
    h = {(x, y): s for x, y, s, _ in r.h2h.iter_rows()}
    assert h[("greedy", "hostile")] == 0.5
    t = {row["strategy"]: row for row in r.table.iter_rows(named=True)}
    assert abs(t["greedy"]["rating"] - t["hostile"]["rating"]) < 1e-6


@pytest.mark.parametrize("args,msg", [
    (["ladder", "province", "-p", "4"], "error: province: players must be 2..2, got 4"),
    (["ladder", "go-town", "-p", "4", "-s", "greedy,random"],
     "error: ladder: 4 players need at least 4 different strategies, got 2"),
    (["ladder", "go-town", "-p", "two"], "error: --players: expected whole numbers, got 'two'"),
    (["ladder", "go-town", "-n", "0"], "error: ladder: n must be a positive number of games, "
                                       "got 0"),
    (["ladder", "go-town", "-s", "greedy,genius"], "error: unknown strategy 'genius' for "
                                                   "go-town"),
])
def test_ladder_bad_input(args, msg):
    r = _boardsim(*args)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(msg), r.stderr
