"""The rating ladder: every bot against every other, seats rotated, on common seeds, and
Bradley-Terry ratings with 95% intervals, per player count.

The design (``ladder_tables``): for ``p`` players and ``k`` bots, every set of ``p`` distinct
bots sits at a table in each of its ``p!`` seat orders (2 players: every ordered pair), so
every bot plays every seat, and sits before and after every other bot, equally often (cyclic
rotations alone would not do: they keep the order of the bots round the table, and a bot
that always sits before another would be rated with that neighbour's effect; measured on two
identical Three Little Wolves bots at 4 players), and every table plays the same games: game ``i`` of every table has chance seed
``seed_for(seed, i, 0)`` and bot seed ``seed_for(seed, i, 1)`` (common random numbers). The
games are played by ``Game.run_chunk`` directly (no results folder).

The fit (``fit_ratings``): each pair of seats of a finished game is one comparison of their
bots, from the game's ranks (1 = winner): the better rank wins, a shared rank is a tie counted
as half a win (2 players: one comparison per game). The probability that bot ``a`` in seat
``s`` beats bot ``b`` in seat ``t`` is ``logistic(theta_a - theta_b + gamma_s - gamma_t)``:
a Bradley-Terry model with seat effects ``gamma`` (the seats are rotated, so they balance, but
leaving them out of a logistic model would shrink the ratings). It is fitted as a binomial GLM
(statsmodels) on the comparisons, with sum-to-zero constraints on ``theta`` and on ``gamma``
(a rating is log-odds against the average rated bot), plus one virtual drawn game per pair of
bots so that a bot that never wins (or never loses) keeps a finite rating. Comparisons from
one game are not independent, nor are the games that share a seed across tables: the
covariance is clustered by seed (the games of every table with the same chance and bot seeds,
which contains clustering by game), and the 95% intervals are Wald intervals from it.

Games stopped at the length limit have no ranks: they are excluded from the ratings and
counted apart, per pairing (the set of bots at the table).
"""

from __future__ import annotations

import itertools
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.stats import bh_adjust, normal_pvalue, wilson_interval
from sim.core.errors import UserError
from sim.core.game import UNFINISHED
from sim.core.integrity import MAX_GAMES, check_int, check_jobs, check_seed

__all__ = ["DEFAULT_GAMES", "LadderGames", "fit_ratings", "ladder_tables", "pairwise",
           "play_ladder", "run_ladder", "write_ladder"]

# Games per player count when -n is not given (split evenly over the tables): the slowest
# case, Suburbia at 4 players with all seven bots (140 tables), plays this in about a minute
# on one core of the development machine (docs/bots.md, "The rating ladder").
DEFAULT_GAMES = 200_000
ELO = 400.0 / math.log(10.0)  # Elo points per logit
Z95 = 1.959963984540054


def ladder_tables(n_bots: int, players: int) -> list[tuple[int, ...]]:
    """Seatings of the ladder: every set of ``players`` distinct bots (indices ``0..n_bots-1``)
    in each of its seat orders, so that within a set every bot plays every seat, and follows
    every other bot, equally often: a list of tuples (bot index per seat),
    ``C(n_bots, players) * players!`` long. Raises UserError when there are fewer than
    ``max(2, players)`` bots."""
    if n_bots < max(2, players):
        raise UserError(f"ladder: {players} players need at least {max(2, players)} different "
                        f"strategies, got {n_bots}")
    return [order for combo in itertools.combinations(range(n_bots), players)
            for order in itertools.permutations(combo)]


@dataclass
class LadderGames:
    """The games of one player count, every table's games concatenated (G games):
    ``bots`` int64[G, p] (index into ``names`` per seat), ``rank`` int64[G, p] (1 = winner,
    0 = none), ``seed_index`` int64[G] (game i of its table: the common seed), ``table``
    int64[G], ``limit`` bool[G] (unfinished: stopped at the length limit or, in Go Town, in a
    deadlock), ``action_hash`` uint64[G],
    ``decisions`` int64[G]; timings in seconds: ``seconds`` (wall) and ``cpu_seconds`` (CPU
    time of the process) of the games, ``compile_seconds`` (the first game, which compiles or
    loads the engine)."""

    game_id: str
    players: int
    names: list[str]
    tables: list[tuple[int, ...]]
    n_per_table: int
    seed: int
    options: dict[str, Any]
    bots: np.ndarray
    rank: np.ndarray
    seed_index: np.ndarray
    table: np.ndarray
    limit: np.ndarray
    action_hash: np.ndarray
    decisions: np.ndarray
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    compile_seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def play_ladder(game, players: int, names: list[str], n_per_table: int, seed: int = 1,
                options: dict[str, Any] | None = None, jobs: int = 1) -> LadderGames:
    """Play ``n_per_table`` games at every table of ``ladder_tables`` (common seeds: game i of
    every table is ``run_chunk`` game i of run ``seed``) with ``game`` (a Game), ``players``
    seats and the strategies ``names``; ``jobs`` tables at a time in threads (the batch loops
    release the GIL). Returns LadderGames. Raises UserError on bad input."""
    players = game.check_players(players)
    for s in names:
        game.strategy(s)
    if len(set(names)) != len(names):
        raise UserError(f"ladder: a strategy is named twice in {', '.join(names)}")
    if isinstance(n_per_table, bool) or not isinstance(n_per_table, int) or n_per_table <= 0:
        raise UserError(f"ladder: n must be a positive number of games, got {n_per_table}")
    if jobs == 0 or jobs < -1:
        raise UserError(f"jobs must be a positive number or -1 (all cores), got {jobs}")
    resolved = game.resolve_options(options)
    tables = ladder_tables(len(names), players)
    limit_codes = [game.end_reasons.index(r) for r in UNFINISHED if r in game.end_reasons]
    t0 = time.perf_counter()
    # one game first: numba compiles (or loads) the batch loop here, timed apart
    game.run_chunk(0, 1, seed, players, np.array([tables[0]], np.int64), resolved, names)
    compile_s = time.perf_counter() - t0

    def play(t: int):
        idx = np.tile(np.array(tables[t], np.int64), (n_per_table, 1))
        return game.run_chunk(0, n_per_table, seed, players, idx, resolved, names)

    t1, c1 = time.perf_counter(), time.process_time()
    if jobs == 1 or len(tables) == 1:
        results = [play(t) for t in range(len(tables))]
    else:
        from concurrent.futures import ThreadPoolExecutor

        workers = (os.cpu_count() or 1) if jobs == -1 else jobs
        with ThreadPoolExecutor(max_workers=workers) as ex:
            results = list(ex.map(play, range(len(tables))))
    seconds, cpu = time.perf_counter() - t1, time.process_time() - c1
    n = n_per_table
    return LadderGames(
        game_id=game.id, players=players, names=list(names), tables=tables,
        n_per_table=n, seed=int(seed), options=game.options.non_default(resolved),
        bots=np.concatenate([np.tile(np.array(tb, np.int64), (n, 1)) for tb in tables]),
        rank=np.concatenate([np.asarray(r.rank, np.int64) for r in results]),
        seed_index=np.tile(np.arange(n, dtype=np.int64), len(tables)),
        table=np.repeat(np.arange(len(tables), dtype=np.int64), n),
        limit=np.concatenate([np.isin(np.asarray(r.end_reason), limit_codes) for r in results]),
        action_hash=np.concatenate([np.asarray(r.action_hash, np.uint64) for r in results]),
        decisions=np.concatenate([np.asarray(r.decisions, np.int64) for r in results]),
        seconds=seconds, cpu_seconds=cpu, compile_seconds=compile_s)


def pairwise(bots: np.ndarray, rank: np.ndarray, cluster: np.ndarray) -> pl.DataFrame:
    """The comparisons of finished games: one row per pair of seats ``s < t`` of each game
    (``bots``, ``rank`` int[G, p]; ``cluster`` int[G], the game's cluster, e.g. its seed
    index), with columns ``a``, ``b`` (bot indices), ``seat_a``, ``seat_b``, ``score`` (1 if
    ``a`` has the better rank, 0.5 for a shared rank, else 0) and ``cluster``. Games with a
    rank 0 (unfinished) are left out."""
    bots = np.asarray(bots, np.int64)
    rank = np.asarray(rank, np.int64)
    ok = (rank > 0).all(axis=1)
    bots, rank, cluster = bots[ok], rank[ok], np.asarray(cluster, np.int64)[ok]
    parts = []
    for s, t in itertools.combinations(range(bots.shape[1]), 2):
        rs, rt = rank[:, s], rank[:, t]
        parts.append(pl.DataFrame({
            "a": bots[:, s], "b": bots[:, t],
            "seat_a": np.full(len(rs), s, np.int64), "seat_b": np.full(len(rs), t, np.int64),
            "score": np.where(rs < rt, 1.0, np.where(rs == rt, 0.5, 0.0)),
            "cluster": cluster,
        }))
    if not parts:
        return pl.DataFrame(schema={"a": pl.Int64, "b": pl.Int64, "seat_a": pl.Int64,
                                    "seat_b": pl.Int64, "score": pl.Float64,
                                    "cluster": pl.Int64})
    return pl.concat(parts)


def _sum_to_zero(k: int) -> np.ndarray:
    """Contrast ``float64[k, k-1]``: item j < k-1 is its own column, the last is minus all."""
    c = np.zeros((k, max(k - 1, 0)))
    c[: k - 1] = np.eye(k - 1)
    c[k - 1] = -1.0
    return c


def design_rows(pairs: pl.DataFrame, k: int, prior_games: int = 1):
    """The rows of the fit: the comparisons ``pairs`` and ``prior_games`` virtual drawn games
    per pair of the ``k`` bots (seat -1: no seat; each its own cluster). Returns int64 arrays
    ``a, b, seat_a, seat_b``, the float64 response ``y`` and the int64 ``groups``."""
    a = pairs["a"].to_numpy().astype(np.int64)
    b = pairs["b"].to_numpy().astype(np.int64)
    sa = pairs["seat_a"].to_numpy().astype(np.int64)
    sb = pairs["seat_b"].to_numpy().astype(np.int64)
    y = pairs["score"].to_numpy().astype(np.float64)
    groups = pairs["cluster"].to_numpy().astype(np.int64)
    if prior_games > 0:
        pa, pb = np.repeat(np.array(list(itertools.combinations(range(k), 2)), np.int64),
                           prior_games, axis=0).T
        none = np.full(len(pa), -1, np.int64)
        a, b = np.concatenate([a, pa]), np.concatenate([b, pb])
        sa, sb = np.concatenate([sa, none]), np.concatenate([sb, none])
        y = np.concatenate([y, np.full(len(pa), 0.5)])
        groups = np.concatenate([groups, groups.max(initial=-1) + 1 + np.arange(len(pa))])
    return a, b, sa, sb, y, groups


def design_matrix(a, b, sa, sb, k: int, players: int) -> np.ndarray:
    """``float64[N, k-1 + players-1]``: the sum-to-zero contrasts of bot ``a`` minus bot ``b``
    and of seat ``sa`` minus seat ``sb`` (a seat of -1 contributes nothing)."""
    cb = _sum_to_zero(k)
    cs = np.vstack([_sum_to_zero(players), np.zeros((1, players - 1))])  # row -1: no seat
    return np.hstack([cb[a] - cb[b], cs[sa] - cs[sb]])


def glm_clustered(a, b, sa, sb, y, groups, k: int, players: int, weights=None):
    """Maximum likelihood and cluster-robust covariance of the logistic model of
    ``design_matrix`` rows and responses ``y`` (in [0, 1]), clustered by ``groups``.

    The log-likelihood is a sum over rows and the rows take few distinct values, so the fit
    is statsmodels' binomial GLM on the distinct rows with frequency weights (the same
    maximum as on every row, in a fraction of the time); the covariance is statsmodels' CRV1
    cluster sandwich (``cov_type="cluster"``, with its small-sample correction
    ``G/(G-1) * (N-1)/(N-K)``), summed here by cluster over every row. Tests check both against
    ``sm.GLM(y, X, Binomial()).fit(cov_type="cluster", ...)`` on the full rows.
    ``weights`` (float64[N], optional): each row stands for that many identical clusters
    (equal within a cluster; e.g. one row set per distinct finished game of a report, weighted
    by how many games ended that way): the fit and the sandwich are those of the rows
    repeated, without building them. Returns
    ``(params float64[K], cov float64[K, K], converged)``."""
    import statsmodels.api as sm

    y2 = np.rint(2 * y).astype(np.int64)  # responses are 0, 1/2, 1
    code = (((a * k + b) * (players + 1) + sa + 1) * (players + 1) + sb + 1) * 3 + y2
    uniq, first, inverse, counts = np.unique(code, return_index=True, return_inverse=True,
                                             return_counts=True)
    if weights is not None:
        weights = np.asarray(weights, np.float64)
        counts = np.bincount(inverse.ravel(), weights=weights, minlength=len(uniq))
    xu = design_matrix(a[first], b[first], sa[first], sb[first], k, players)
    yu = y[first]
    res = sm.GLM(yu, xu, family=sm.families.Binomial(), freq_weights=counts).fit()
    beta = np.asarray(res.params)
    p = 1.0 / (1.0 + np.exp(-(xu @ beta)))
    hessian = (xu * (counts * p * (1 - p))[:, None]).T @ xu
    h_inv = np.linalg.inv(hessian)
    cl, cfirst, gi = np.unique(groups, return_index=True, return_inverse=True)
    resid = y - p[inverse]
    scores = np.column_stack([np.bincount(gi, weights=resid * xu[inverse, j], minlength=len(cl))
                              for j in range(xu.shape[1])])
    if weights is None:
        n, kp, g = len(y), xu.shape[1], len(cl)
        meat = scores.T @ scores
    else:  # a cluster of weight w is w identical clusters
        wc = weights[cfirst]
        n, kp, g = float(weights.sum()), xu.shape[1], float(wc.sum())
        meat = scores.T @ (scores * wc[:, None])
    cov = h_inv @ meat @ h_inv * (g / (g - 1.0)) * ((n - 1.0) / (n - kp))
    return beta, cov, bool(getattr(res, "converged", True))


@dataclass
class Ratings:
    """A Bradley-Terry fit: ``table`` (one row per bot, best first: strategy, rating, se, lo,
    hi in logits against the average rated bot, their Elo equivalents, comparisons, score,
    ``clear_of_next``), ``seat`` (seat effects, logits against the average seat, with se),
    ``cov`` (covariance of the ratings, ``float64[k, k]``, in the order of ``names``),
    ``h2h`` (head-to-head mean score of a against b, with counts), and the fit's facts."""

    names: list[str]
    table: pl.DataFrame
    seat: pl.DataFrame
    cov: np.ndarray
    h2h: pl.DataFrame
    comparisons: int
    clusters: int
    converged: bool


def fit_ratings(pairs: pl.DataFrame, names: list[str], players: int,
                prior_games: int = 1) -> Ratings:
    """Fit Bradley-Terry ratings with seat effects to the comparisons ``pairs`` (columns of
    ``pairwise``) of the bots ``names`` at ``players`` seats: a binomial GLM (statsmodels,
    logit link; ``glm_clustered``) with sum-to-zero ratings and seat effects, ``prior_games``
    (int) virtual drawn games per pair of bots (each its own cluster, no seat) so that ratings
    stay finite, covariance clustered by ``cluster``. An optional column ``weight`` (float,
    equal within a cluster) makes each cluster stand for that many identical ones (games
    aggregated by outcome, ``analysis.report.ladder_section``); counts and scores are then
    weighted too. Returns Ratings (95% Wald intervals). Raises UserError when
    there is no comparison."""
    k = len(names)
    if pairs.height == 0:
        raise UserError("ladder: no finished game to rate (every game stopped at the length "
                        "limit?)")
    a, b, sa, sb, y, groups = design_rows(pairs, k, prior_games)
    w = None
    if "weight" in pairs.columns:
        w_pairs = pairs["weight"].to_numpy().astype(np.float64)
        w = np.concatenate([w_pairs, np.ones(len(y) - pairs.height)])
    beta, v, converged = glm_clustered(a, b, sa, sb, y, groups, k, players, w)
    cb, cs = _sum_to_zero(k), _sum_to_zero(players)
    nb = k - 1
    theta = cb @ beta[:nb]
    cov = cb @ v[:nb, :nb] @ cb.T
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    gamma = cs @ beta[nb:]
    gcov = cs @ v[nb:, nb:] @ cs.T
    gse = np.sqrt(np.clip(np.diag(gcov), 0, None))

    # per-bot facts from the real comparisons (each comparison counts for both bots)
    sc = pairs["score"].to_numpy()
    ra, rb = pairs["a"].to_numpy(), pairs["b"].to_numpy()
    wp = np.ones(pairs.height) if w is None else w[:pairs.height]
    n_cmp = np.rint(np.bincount(ra, weights=wp, minlength=k)
                    + np.bincount(rb, weights=wp, minlength=k)).astype(np.int64)
    won = (np.bincount(ra, weights=sc * wp, minlength=k)
           + np.bincount(rb, weights=(1 - sc) * wp, minlength=k))
    order = np.argsort(-theta, kind="stable")
    p_next = []
    for j, i in enumerate(order):
        if j + 1 == len(order):
            p_next.append(float("nan"))
            continue
        nxt = order[j + 1]
        d = theta[i] - theta[nxt]
        dse = math.sqrt(max(cov[i, i] + cov[nxt, nxt] - 2 * cov[i, nxt], 0.0))
        p_next.append(normal_pvalue(d, dse))
    # the adjacent comparisons are one family of tests: Benjamini-Hochberg across them; a bot
    # is clear of the next when q < 0.05 (at least as strict as the 95% interval alone)
    q_next = bh_adjust(p_next)
    clear = [None if math.isnan(qv) else bool(qv < 0.05) for qv in q_next]
    table = pl.DataFrame({
        "position": np.arange(1, k + 1),
        "strategy": [names[i] for i in order],
        "rating": theta[order], "se": se[order],
        "lo": theta[order] - Z95 * se[order], "hi": theta[order] + Z95 * se[order],
        "elo": ELO * theta[order], "elo_lo": ELO * (theta[order] - Z95 * se[order]),
        "elo_hi": ELO * (theta[order] + Z95 * se[order]),
        "comparisons": n_cmp[order].astype(np.int64),
        "score": np.where(n_cmp[order] > 0, won[order] / np.maximum(n_cmp[order], 1), np.nan),
        "clear_of_next": pl.Series(clear, dtype=pl.Boolean),
        "q_next": pl.Series(q_next, dtype=pl.Float64).fill_nan(None),
    })
    seat = pl.DataFrame({"seat": np.arange(players), "effect": gamma, "se": gse,
                         "lo": gamma - Z95 * gse, "hi": gamma + Z95 * gse})
    pw = pairs.with_columns(weight=pl.Series(wp, dtype=pl.Float64))
    both = pl.concat([
        pw.select(pl.col("a").alias("x"), pl.col("b").alias("y"), "score", "weight"),
        pw.select(pl.col("b").alias("x"), pl.col("a").alias("y"),
                  (1 - pl.col("score")).alias("score"), "weight"),
    ])
    h2h = (both.group_by("x", "y")
           .agg(((pl.col("score") * pl.col("weight")).sum() / pl.col("weight").sum())
                .alias("score"), pl.col("weight").sum().round().cast(pl.Int64).alias("n"))
           .with_columns(pl.col("x").replace_strict(dict(enumerate(names)),
                                                    return_dtype=pl.Utf8).alias("strategy"),
                         pl.col("y").replace_strict(dict(enumerate(names)),
                                                    return_dtype=pl.Utf8).alias("opponent"))
           .select("strategy", "opponent", "score", "n").sort("strategy", "opponent"))
    if w is None:
        n_pairs, n_clusters = pairs.height, int(np.unique(pairs["cluster"]).size)
    else:
        _, cfirst = np.unique(pairs["cluster"].to_numpy(), return_index=True)
        n_pairs, n_clusters = int(round(wp.sum())), int(round(wp[cfirst].sum()))
    return Ratings(names=list(names), table=table, seat=seat, cov=cov, h2h=h2h,
                   comparisons=n_pairs, clusters=n_clusters, converged=converged)


def by_pairing(lg: LadderGames) -> pl.DataFrame:
    """Per pairing (the set of bots at a table, over all its seat orders): ``games``,
    ``limit_games`` (stopped at the length limit) and ``limit_rate`` with its Wilson 95%
    bounds ``limit_lo``/``limit_hi``, ``distinct`` (distinct
    action sequences within each seat order, summed) and ``distinct_rate``."""
    label = [" vs ".join(lg.names[i] for i in sorted(t)) for t in lg.tables]
    df = pl.DataFrame({"table": lg.table, "limit": lg.limit.astype(np.int64),
                       "hash": lg.action_hash})
    per_table = (df.group_by("table", maintain_order=True)
                 .agg(pl.len().alias("games"), pl.col("limit").sum().alias("limit_games"),
                      pl.col("hash").n_unique().alias("distinct"))
                 .with_columns(pl.col("table").replace_strict(dict(enumerate(label)),
                                                              return_dtype=pl.Utf8)
                               .alias("pairing")))
    df = (per_table.group_by("pairing", maintain_order=True)
          .agg(pl.col("games").sum(), pl.col("limit_games").sum(), pl.col("distinct").sum())
          .with_columns((pl.col("limit_games") / pl.col("games")).alias("limit_rate"),
                        (pl.col("distinct") / pl.col("games")).alias("distinct_rate")))
    lo, hi = wilson_interval(df["limit_games"].to_numpy().astype(float),
                             df["games"].to_numpy().astype(float))
    return (df.with_columns(limit_lo=pl.Series(lo), limit_hi=pl.Series(hi))
            .select("pairing", "games", "limit_games", "limit_rate", "limit_lo", "limit_hi",
                    "distinct", "distinct_rate"))


def rate(lg: LadderGames) -> tuple[Ratings, dict[str, Any]]:
    """Ratings of one player count's ladder games (limit games excluded, clustered by seed)
    and the facts the outputs print."""
    keep = ~lg.limit
    pairs = pairwise(lg.bots[keep], lg.rank[keep], lg.seed_index[keep])
    r = fit_ratings(pairs, lg.names, lg.players)
    g = len(lg.limit)
    pairings = by_pairing(lg)
    facts = {
        "games": g, "limit_games": int(lg.limit.sum()),
        "unranked_games": int((keep & ~(lg.rank > 0).all(axis=1)).sum()),
        "rated_games": int((keep & (lg.rank > 0).all(axis=1)).sum()),
        "distinct_games": int(pairings["distinct"].sum()), "tables": len(lg.tables),
        "pairings": pairings,
    }
    return r, facts


# ---- outputs ---------------------------------------------------------------------------------
def _plain(name: str) -> str:
    """A name as plain text in a matplotlib label (no mathtext)."""
    return str(name).replace("$", r"\$")


def _md(text: str) -> str:
    return str(text).replace("|", r"\|")


def _f(x: float, d: int = 2) -> str:
    return "n/a" if x is None or not np.isfinite(x) else f"{x:+.{d}f}"


def ordering_text(table: pl.DataFrame) -> str:
    """``a > b ~ c``: the bots best first, ``>`` where the next one's rating is clearly lower
    (``clear_of_next``: Benjamini-Hochberg q < 0.05 across the neighbouring differences), ``~``
    where it is not."""
    parts = []
    for row in table.iter_rows(named=True):
        parts.append(row["strategy"])
        if row["clear_of_next"] is not None:
            parts.append(">" if row["clear_of_next"] else "~")
    return " ".join(parts)


def write_chart(results: list[tuple[LadderGames, Ratings, dict]], path: Path, title: str) -> Path:
    """``ladder.png``: one panel per player count, each bot's rating (logits, points) with its
    95% interval (bars), best at the top. Names are drawn as plain text."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with plt.rc_context({"text.usetex": False}):
        n = len(results)
        height = max(2.2, 0.42 * max(r.table.height for _, r, _ in results) + 1.2)
        fig, axes = plt.subplots(1, n, figsize=(5.2 * n, height), squeeze=False)
        for ax, (lg, r, _) in zip(axes[0], results):
            t = r.table
            ypos = np.arange(t.height)[::-1]
            rating = t["rating"].to_numpy()
            err = np.vstack([rating - t["lo"].to_numpy(), t["hi"].to_numpy() - rating])
            ax.errorbar(rating, ypos, xerr=err, fmt="o", color="#4C72B0", ecolor="#4C72B0",
                        capsize=3)
            ax.axvline(0, color="#999999", lw=0.8, ls="--")
            ax.set_yticks(ypos)
            ax.set_yticklabels([_plain(s) for s in t["strategy"].to_list()])
            ax.set_xlabel("rating (log-odds against the average bot), 95% interval")
            ax.set_title(_plain(f"{title}: {lg.players} players"))
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fig.savefig(tmp, format="png", dpi=110)
        plt.close(fig)
        os.replace(tmp, path)
    return path


def write_ladder(results: list[tuple[LadderGames, Ratings, dict]], out: Path,
                 title: str) -> dict[str, Path]:
    """Write ``ladder.md``, ``ladder.csv`` (one row per player count and bot) and
    ``ladder.png`` under ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    csv = pl.concat([
        r.table.with_columns(pl.lit(lg.players).alias("players"),
                             pl.lit(lg.n_per_table).alias("games_per_table"),
                             pl.lit(lg.seed).alias("seed"))
        .select("players", "position", "strategy", "rating", "se", "lo", "hi", "elo",
                "elo_lo", "elo_hi", "comparisons", "score", "clear_of_next",
                "games_per_table", "seed")
        for lg, r, _ in results
    ])
    paths = {"csv": out / "ladder.csv", "md": out / "ladder.md", "png": out / "ladder.png"}
    tmp = paths["csv"].with_name(f".ladder.csv.{os.getpid()}.tmp")
    csv.write_csv(tmp, float_precision=6)
    os.replace(tmp, paths["csv"])
    write_chart(results, paths["png"], title)
    lines = [f"# {title}: the rating ladder", ""]
    lg0 = results[0][0]
    lines += [
        f"Every bot against every other: each set of bots of a player count sits at a table in "
        f"each of its seat orders, and every table plays the same seeds (run seed {lg0.seed}: game "
        f"i of every table has the same chance and bot seeds). Rule options: "
        f"{', '.join(f'{k}={v}' for k, v in lg0.options.items()) or 'the defaults'}.",
        "",
        "**How the ratings are fitted.** Bradley-Terry with seat effects, a binomial GLM "
        "(statsmodels, logit link) on pairwise outcomes **from ranks**: each pair of seats in a "
        "finished game is one comparison (the better rank wins; a shared rank is a tie, counted "
        "as half), so a 2-player game is one comparison and a 4-player game six. A rating is "
        "the log-odds of beating the average rated bot (ratings sum to zero; Elo = rating x "
        f"{ELO:.1f}). The 95% intervals are Wald intervals from a covariance **clustered by "
        "seed** (the games of every table that share a seed form one cluster; this contains "
        "clustering by game, since the pairs of one game are not independent). One virtual "
        "drawn game per pair of bots keeps every rating finite. Games stopped at the length "
        "limit have no ranks: they are left out of the ratings and counted below. "
        "`>` in an ordering: the next bot's rating is clearly lower (Benjamini-Hochberg q < "
        "0.05 across the neighbouring pairs of the ordering, from the clustered covariance); "
        "`~`: not separated by this run. An interval is for the "
        "rating against the average rated bot and includes the uncertainty of that average; to "
        "compare two bots, use the ordering marks, which use the interval of their difference.",
        "",
    ]
    for lg, r, facts in results:
        lines += [f"## {lg.players} players", ""]
        lines += [
            f"{facts['tables']} tables x {lg.n_per_table:,} games = {facts['games']:,} games "
            f"({facts['rated_games']:,} rated, {facts['limit_games']:,} stopped at the length "
            f"limit), {r.comparisons:,} comparisons in {r.clusters:,} seed clusters; played in "
            f"{lg.seconds:.1f} s wall, {lg.cpu_seconds:.1f} s CPU ({lg.compile_seconds:.1f} s "
            "compiling or loading the engine first, not counted).",
            "",
            f"**Ordering:** {_md(ordering_text(r.table))}",
            "",
            "| # | bot | rating (logits) | 95% interval | Elo | comparisons | score |",
            "|---:|---|---:|---|---:|---:|---:|",
        ]
        for row in r.table.iter_rows(named=True):
            lines.append(
                f"| {row['position']} | {_md(row['strategy'])} | {_f(row['rating'])} | "
                f"[{_f(row['lo'])}, {_f(row['hi'])}] | {row['elo']:+.0f} | "
                f"{row['comparisons']:,} | {row['score']:.3f} |")
        lines += ["", "Score: the share of its comparisons the bot won (ties half).", ""]
        for row in r.table.iter_rows(named=True):
            if row["comparisons"] and row["score"] in (0.0, 1.0):
                what = "never won" if row["score"] == 0.0 else "never lost"
                lines += [f"**{_md(row['strategy'])}** {what} a comparison: its rating is held "
                          "by the virtual drawn games alone; read it as a bound (far below or "
                          "far above the others), not as an estimate. Its uncertainty also "
                          "widens every other bot's interval (they are against the average), "
                          "not the comparisons between the others (see the ordering).", ""]
        seat = ", ".join(f"seat {s['seat'] + 1} {_f(s['effect'])} [{_f(s['lo'])}, "
                         f"{_f(s['hi'])}]" for s in r.seat.iter_rows(named=True))
        lines += [f"Seat effects (logits against the average seat, 95%): {seat}.", ""]
        pt = facts["pairings"]
        few = pt.filter(pl.col("distinct_rate") < 0.5)
        lines += [f"Distinct games (distinct action sequences within each table, summed): "
                  f"{facts['distinct_games']:,} of {facts['games']:,}.", ""]
        if few.height:
            lines += [f"**Warning:** in {few.height} of {pt.height} pairings fewer than half the "
                      "games are distinct (table below): those bots replay the same few games "
                      "whatever the seed, so their results rest on few different games and "
                      "more games add little (the intervals are right about these bots on "
                      "these deals, not about varied play).", ""]
        lines += ["Head to head (mean score of the row bot against the column bot over their "
                  "comparisons; ties half):", ""]
        order = r.table["strategy"].to_list()
        h = {(x, y): (s, n) for x, y, s, n in r.h2h.iter_rows()}
        lines.append("| | " + " | ".join(_md(o) for o in order) + " |")
        lines.append("|---|" + "---:|" * len(order))
        for x in order:
            cells = [f"{h[(x, y)][0]:.3f}" if (x, y) in h else "" for y in order]
            lines.append(f"| **{_md(x)}** | " + " | ".join(cells) + " |")
        lines.append("")
        lines += ["Per pairing (the set of bots at a table, over its seat orders): games stopped "
                  "at the length limit (excluded from the ratings) and distinct games (within "
                  "each seat order, summed):", "",
                  "| pairing | games | limit games | limit rate [Wilson 95%] | distinct games "
                  "| distinct |",
                  "|---|---:|---:|---:|---:|---:|"]
        for row in pt.iter_rows(named=True):
            mark = " **(few)**" if row["distinct_rate"] < 0.5 else ""
            lines.append(f"| {_md(row['pairing'])} | {row['games']:,} | "
                         f"{row['limit_games']:,} | {row['limit_rate']:.2%} "
                         f"[{row['limit_lo']:.2%}, {row['limit_hi']:.2%}] | "
                         f"{row['distinct']:,} | {row['distinct_rate']:.1%}{mark} |")
        lines.append("")
        unsep = r.table.filter(pl.col("clear_of_next") == False)  # noqa: E712
        if unsep.height:
            lines += [f"**Sample size:** {unsep.height} of {r.table.height - 1} neighbouring "
                      "pairs of the ordering are not separated (Benjamini-Hochberg q >= 0.05 "
                      "across the neighbouring comparisons); intervals narrow as 1/sqrt(games), "
                      "so 4x the games halve them.", ""]
        if facts["unranked_games"]:
            lines += [f"{facts['unranked_games']:,} games ended without ranks for every seat "
                      "(not at the limit) and are left out too.", ""]
    lines += ["![ratings](ladder.png)", ""]
    tmp = paths["md"].with_name(f".ladder.md.{os.getpid()}.tmp")
    tmp.write_text("\n".join(lines))
    os.replace(tmp, paths["md"])
    return paths


def default_games_per_table(n_tables: int, total: int = DEFAULT_GAMES) -> int:
    """Games per table of the default budget: ``total`` games split over the tables."""
    return max(1, math.ceil(total / n_tables))


def run_ladder(game_id: str, players: list[int] | None = None, n: int | None = None,
               strategies: list[str] | None = None, seed: int = 1,
               options: dict[str, Any] | None = None, jobs: int = 1,
               out: str | os.PathLike | None = None,
               progress=None) -> dict[str, Any]:
    """The ladder of ``game_id``: for each player count in ``players`` (default: every count
    the game allows), every bot of ``strategies`` (default: ``Game.pool_strategies``, every
    bot of the game but the search bot) against every other, ``n`` games per table (default: ``DEFAULT_GAMES`` split over the tables), common
    seeds from ``seed``; writes ladder.md, ladder.csv and ladder.png under ``out`` (default
    ``reports/<game>/ladder``). ``progress(text)`` is called with a line per player count.
    Returns {"paths", "results", "summary"}. Raises UserError on bad input."""
    from sim.registry import get_game

    game = get_game(game_id)
    names = list(strategies) if strategies else game.pool_strategies
    for s in names:
        game.strategy(s)
    if len(set(names)) != len(names):
        raise UserError(f"ladder: a strategy is named twice in {', '.join(names)}")
    counts = players or list(range(game.min_players, game.max_players + 1))
    for p in counts:
        game.check_players(p)
        ladder_tables(len(names), p)
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n <= 0):
        raise UserError(f"ladder: n must be a positive number of games, got {n}")
    if n is not None:
        check_int("-n (games per table)", n, 1, MAX_GAMES)
    check_seed(seed)
    check_jobs(jobs)
    root = Path(out) if out is not None else Path("reports") / game.id / "ladder"
    if root.exists() and not root.is_dir():
        raise UserError(f"--out {root} exists and is not a folder")
    results = []
    summary = []
    for p in counts:
        tables = ladder_tables(len(names), p)
        per = n if n is not None else default_games_per_table(len(tables))
        lg = play_ladder(game, p, names, per, seed, options, jobs)
        r, facts = rate(lg)
        results.append((lg, r, facts))
        line = (f"{game.id} {p}p: {ordering_text(r.table)}  ({facts['games']:,} games, "
                f"{facts['limit_games']:,} at the limit, {lg.seconds:.1f} s wall, "
                f"{lg.cpu_seconds:.1f} s CPU)")
        summary.append(line)
        if progress:
            progress(line)
    try:
        paths = write_ladder(results, root, game.title)
    except OSError as e:
        raise UserError(f"--out {root} is not writable ({e.strerror})") from None
    summary.append(f"ladder: {paths['md']}, {paths['csv']} and {paths['png']}")
    return {"paths": paths, "results": results, "summary": "\n".join(summary)}
