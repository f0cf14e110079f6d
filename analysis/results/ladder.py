"""The rating ladder's fit (``boardsim ladder``, ``analysis.lab.ladder``; the report's ladder
section): the pairwise comparisons of finished games and Bradley-Terry ratings with seat
effects, a binomial GLM with covariance clustered by seed. Reads arrays; plays no game (see
``analysis/lab/ladder.py`` for the design and the model)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from analysis.stats import Z95, bh_adjust, normal_pvalue
from sim.core.errors import UserError

ELO = 400.0 / math.log(10.0)  # Elo points per logit


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
