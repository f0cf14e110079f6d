"""The statistics of every report: intervals, tests and sample sizes (the only place they are
written; the reports call these).

Intervals: ``wilson_interval`` (a rate), ``newcombe_difference`` (two independent rates),
``welch_difference`` (two means), ``mh_difference`` (a difference of rates stratified by a
nuisance factor), ``cluster_ratio`` / ``cluster_mean`` / ``cluster_difference`` (means and
differences over seats with a 95% interval clustered by game, for every comparison in which
two seats of one game enter). Tests: ``two_proportion_pvalue`` (pooled z-test), ``normal_pvalue``,
``equal_rates_pvalue`` (chi-square), ``bh_adjust`` (Benjamini-Hochberg q-values). Sample size:
``rate_half_width`` ... ``games_for_units``. ``Z95`` = 1.959964, the 95% normal quantile.
Library routines are used where they exist (statsmodels ``proportion_confint``,
``confint_proportions_2indep``, ``proportions_ztest``, ``multipletests``; scipy ``norm``,
``chisquare``); tests/test_stats.py checks them against the formulas on fixed inputs.

The rate functions are vectorised over numpy arrays (scalars are accepted too) and return
numpy float64 arrays. A cell with ``n == 0`` has no estimate: its rate and bounds are NaN.

Win counts may be fractional. A k-way shared win gives each winner ``win_share = 1/k``, and the
analysis counts "wins" as the sum of ``win_share``. The binomial intervals below are then an
approximation: a shared win is neither a success nor a failure of one Bernoulli trial. With few
shared wins the effect is negligible; Go Town has none (one player reaches the target first).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as _sp
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    proportions_ztest,
)

__all__ = [
    "Z95", "as_float", "wilson_interval", "newcombe_difference", "equal_rates_pvalue", "rate",
    "z_value", "t_value", "two_proportion_pvalue", "bh_adjust", "normal_pvalue",
    "welch_difference", "mh_difference", "rate_half_width", "n_for_rate",
    "difference_half_width", "n_for_difference", "n_for_mean", "games_for_units",
    "cluster_ratio", "cluster_mean", "independent_mean", "cluster_difference",
]

Z95 = float(_sp.norm.ppf(0.975))
"""The two-sided 95% normal quantile, 1.959963984540054."""


def as_float(x) -> float:
    """``float(x)``, with None (a null cell) read as NaN."""
    return float("nan") if x is None else float(x)


def _arrays(*xs):
    return [np.atleast_1d(np.asarray(x, dtype=np.float64)) for x in xs]


def rate(successes, n) -> np.ndarray:
    """Proportion ``successes / n`` as float64; NaN where ``n == 0``."""
    s, m = _arrays(successes, n)
    out = np.full(np.broadcast(s, m).shape, np.nan)
    ok = np.broadcast_to(m, out.shape) > 0
    np.divide(np.broadcast_to(s, out.shape), np.broadcast_to(m, out.shape), out=out, where=ok)
    return out


def wilson_interval(successes, n, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion.

    ``successes`` (float, may be fractional, see the module note) and ``n`` (trials) are
    broadcast arrays. Returns ``(lo, hi)``, float64 arrays of proportions in [0, 1], at
    confidence ``1 - alpha`` (0.95 by default); NaN where ``n == 0``.
    Uses ``statsmodels.stats.proportion.proportion_confint(method="wilson")``.
    Example: 50 of 100 -> (0.4038, 0.5962).
    """
    s, m = _arrays(successes, n)
    s, m = np.broadcast_arrays(s, m)
    lo = np.full(s.shape, np.nan)
    hi = np.full(s.shape, np.nan)
    ok = m > 0
    if ok.any():
        lo[ok], hi[ok] = proportion_confint(s[ok], m[ok], alpha=alpha, method="wilson")
    return lo, hi


def newcombe_difference(
    successes1, n1, successes2, n2, alpha: float = 0.05
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference of two independent proportions ``p1 - p2`` with Newcombe's hybrid score
    interval (Newcombe 1998, method 10: built from the two Wilson intervals).

    Arguments are broadcast arrays of counts (successes may be fractional). Returns
    ``(diff, lo, hi)``, float64 arrays in proportion units (-1..1); NaN where ``n1 == 0`` or
    ``n2 == 0``. Uses ``statsmodels ... confint_proportions_2indep(method="newcomb")``.
    """
    s1, m1, s2, m2 = np.broadcast_arrays(*_arrays(successes1, n1, successes2, n2))
    diff = np.full(s1.shape, np.nan)
    lo = np.full(s1.shape, np.nan)
    hi = np.full(s1.shape, np.nan)
    ok = (m1 > 0) & (m2 > 0)
    if ok.any():
        diff[ok] = s1[ok] / m1[ok] - s2[ok] / m2[ok]
        lo[ok], hi[ok] = confint_proportions_2indep(
            s1[ok], m1[ok], s2[ok], m2[ok], method="newcomb", compare="diff", alpha=alpha
        )
    return diff, lo, hi


def equal_rates_pvalue(wins, n_games: float) -> float:
    """p-value of the chi-square goodness-of-fit test that every seat wins equally often.

    ``wins``: win counts (sum of ``win_share``) of the seats of one player count, one entry per
    seat, over ``n_games`` finished games in which every seat took part. The expected count is
    ``n_games / len(wins)`` for each seat (decisive games; draws lower every seat alike).
    Returns NaN when there are no wins. Approximate for shared wins (see the module note).
    """
    w = np.asarray(wins, dtype=np.float64)
    total = w.sum()
    if n_games <= 0 or total <= 0 or len(w) < 2:
        return float("nan")
    expected = np.full(len(w), total / len(w))
    return float(_sp.chisquare(w, expected).pvalue)


# ---------------------------------------------------------------- tests --------------------
def two_proportion_pvalue(successes1, n1, successes2, n2) -> np.ndarray:
    """Two-sided p-value of the pooled two-proportion z-test of ``p1 == p2``.

    ``z = (s1/n1 - s2/n2) / sqrt(pbar (1 - pbar) (1/n1 + 1/n2))`` with the pooled rate
    ``pbar = (s1 + s2) / (n1 + n2)``; ``p = 2 (1 - Phi(|z|))``. Broadcast arrays of counts
    (successes may be fractional); returns float64 p-values, NaN where a group is empty or the
    pooled rate is 0 or 1 (no variance). Uses ``statsmodels.stats.proportion.proportions_ztest``
    (one pair at a time: it does not broadcast). Example: 30 of 100 vs 20 of 100 -> 0.1025.
    """
    s1, m1, s2, m2 = np.broadcast_arrays(*_arrays(successes1, n1, successes2, n2))
    out = np.full(s1.shape, np.nan)
    for i in np.ndindex(out.shape):
        a, b, c, d = s1[i], m1[i], s2[i], m2[i]
        if b > 0 and d > 0 and 0.0 < (a + c) / (b + d) < 1.0:
            out[i] = proportions_ztest([a, c], [b, d])[1]
    return out


def bh_adjust(pvalues) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q-values) of a family of tests.

    ``pvalues``: 1-D array-like of p-values; NaN entries (tests that could not be run) stay NaN
    and do not count as tests. Returns a float64 array of the same length. Uses
    ``statsmodels.stats.multitest.multipletests(method="fdr_bh")``.
    Example: [0.01, 0.04, 0.03] -> [0.03, 0.04, 0.04].
    """
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = np.isfinite(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method="fdr_bh")[1]
    return out


def normal_pvalue(estimate, se) -> float:
    """Two-sided p-value of ``estimate / se`` against a standard normal: ``2 (1 - Phi(|z|))``.

    NaN when either is None or NaN; with ``se == 0``, 1.0 for a zero estimate and 0.0
    otherwise (a difference without spread)."""
    if estimate is None or se is None or math.isnan(estimate) or math.isnan(se):
        return float("nan")
    if se == 0:
        return 1.0 if estimate == 0 else 0.0
    return float(2 * _sp.norm.sf(abs(estimate) / se))


def welch_difference(m1, v1, n1, m2, v2, n2) -> tuple[float, float, float, float]:
    """Difference of two independent means ``m1 - m2`` with its normal-approximation (Welch)
    95% interval and two-sided p: ``se = sqrt(v1/n1 + v2/n2)`` from the sample variances
    ``v1``, ``v2`` (ddof 1) and sizes ``n1``, ``n2``. Returns ``(d, lo, hi, p)``; all NaN when
    a sample has fewer than 2 values; ``(d, d, d, 1.0 or 0.0)`` without spread."""
    if min(n1, n2) < 2:
        return (float("nan"),) * 4
    d = m1 - m2
    se = math.sqrt(v1 / n1 + v2 / n2)
    if se == 0:
        return d, d, d, (1.0 if d == 0 else 0.0)
    return d, d - Z95 * se, d + Z95 * se, float(2 * _sp.norm.sf(abs(d / se)))


def mh_difference(w1, n1, w0, n0) -> dict:
    """Stratified difference of two rates (Mantel-Haenszel weights ``n1*n0/(n1+n0)``), with a
    Wald 95% interval from the per-stratum variances and a two-sided p-value.

    Arguments are per-stratum arrays (wins and seat-games of the exposed and unexposed seats);
    strata missing a group are skipped. Returns diff, lo, hi, p, n1, n0, w1, w0, strata (NaN
    estimates when no stratum has both groups; p NaN without spread).
    """
    w1, n1, w0, n0 = (np.asarray(x, dtype=np.float64) for x in (w1, n1, w0, n0))
    ok = (n1 > 0) & (n0 > 0)
    res = {"n1": int(n1.sum()), "n0": int(n0.sum()), "w1": float(w1.sum()),
           "w0": float(w0.sum()), "strata": int(ok.sum()),
           "diff": math.nan, "lo": math.nan, "hi": math.nan, "p": math.nan}
    if not ok.any():
        return res
    w1, n1, w0, n0 = w1[ok], n1[ok], w0[ok], n0[ok]
    p1, p0 = w1 / n1, w0 / n0
    wt = n1 * n0 / (n1 + n0)
    d = float((wt * (p1 - p0)).sum() / wt.sum())
    var = float((wt ** 2 * (p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)).sum() / wt.sum() ** 2)
    se = math.sqrt(var)
    res.update(diff=d, lo=d - Z95 * se, hi=d + Z95 * se,
               p=float(2 * _sp.norm.sf(abs(d) / se)) if se > 0 else math.nan)
    return res


# ---------------------------------------------------------------- sample size -------------
# Normal (Wald) approximations, used only to size runs: a difference of ``d`` is "resolvable"
# when the 95% interval's half-width is at most ``d``, so that an estimate ``d`` away from the
# reference (parity, or 0 for a difference) has an interval that just excludes it. That is
# about 50% power for a true difference of exactly ``d``; 80% power needs about
# ((z + 0.8416) / z)^2 = 2.04 times as many games at 95% confidence.


def z_value(alpha: float = 0.05) -> float:
    """Two-sided normal quantile ``z = Phi^-1(1 - alpha/2)``: 1.959964 for ``alpha = 0.05``."""
    return float(_sp.norm.ppf(1.0 - alpha / 2.0))


def t_value(df: int, alpha: float = 0.05) -> float:
    """Two-sided Student t quantile ``t_{1 - alpha/2, df}`` (``df`` degrees of freedom): 2.262
    for ``df = 9`` at 95%."""
    return float(_sp.t.ppf(1.0 - alpha / 2.0, df))


def _ceil(x: np.ndarray) -> np.ndarray:
    """Ceiling that ignores float noise below 1e-9 (9604.000000001 -> 9604); NaN stays NaN."""
    return np.ceil(np.maximum(x - 1e-9, 0.0))


def rate_half_width(p, n, alpha: float = 0.05) -> np.ndarray:
    """Half-width ``z * sqrt(p (1 - p) / n)`` of the normal interval of a rate.

    ``p`` (proportion in [0, 1]) and ``n`` (trials) are broadcast arrays. Returns float64
    proportions (0.01 = 1 percentage point); NaN where ``n <= 0``.
    Example: p = 0.5, n = 9604 -> 0.0099998 (about 1 point).
    """
    p, m = np.broadcast_arrays(*_arrays(p, n))
    out = np.full(p.shape, np.nan)
    ok = m > 0
    out[ok] = z_value(alpha) * np.sqrt(p[ok] * (1.0 - p[ok]) / m[ok])
    return out


def n_for_rate(p, d: float = 0.01, alpha: float = 0.05) -> np.ndarray:
    """Trials needed for a rate's interval half-width to be at most ``d``:
    ``ceil(z^2 p (1 - p) / d^2)``.

    ``p``: proportion(s) in [0, 1], any shape; ``d``: difference to resolve, as a proportion
    (0.01 = 1 percentage point). Returns float64 counts of trials (whole numbers), the shape
    of ``p``. Examples at 95%: p = 0.5 -> 9604, p = 0.25 -> 7203, p = 0 -> 0 (the caller
    should pass a planning value instead of a degenerate observed rate).
    """
    (q,) = _arrays(p)
    return _ceil(z_value(alpha) ** 2 * q * (1.0 - q) / d**2)


def difference_half_width(p1, n1, p2, n2, alpha: float = 0.05) -> np.ndarray:
    """Half-width ``z * sqrt(p1 (1 - p1) / n1 + p2 (1 - p2) / n2)`` of the normal interval of
    the difference ``p1 - p2`` of two independent rates.

    Broadcast arrays of proportions and trial counts. Returns float64 proportions; NaN where
    ``n1 <= 0`` or ``n2 <= 0``.
    """
    a1, m1, a2, m2 = np.broadcast_arrays(*_arrays(p1, n1, p2, n2))
    out = np.full(a1.shape, np.nan)
    ok = (m1 > 0) & (m2 > 0)
    out[ok] = z_value(alpha) * np.sqrt(a1[ok] * (1 - a1[ok]) / m1[ok]
                                       + a2[ok] * (1 - a2[ok]) / m2[ok])
    return out


def n_for_difference(p1, n1, p2, n2, d: float = 0.01, alpha: float = 0.05) -> np.ndarray:
    """Total trials ``N = n1 + n2`` needed for the half-width of ``p1 - p2`` to be at most
    ``d``, keeping the split ``r = n1 / (n1 + n2)`` of the data (for a component: the share of
    seat-games that used it): ``ceil(z^2 (p1 (1 - p1) / r + p2 (1 - p2) / (1 - r)) / d^2)``.

    Broadcast arrays: rates ``p1``, ``p2`` (proportions), group sizes ``n1``, ``n2`` (only
    their ratio matters). Returns float64 totals of trials (both groups together); NaN where a
    group is empty. Example: p1 = p2 = 0.5, n1 = n2 -> ceil(3.8415 * 10000) = 38415.
    """
    a1, m1, a2, m2 = np.broadcast_arrays(*_arrays(p1, n1, p2, n2))
    out = np.full(a1.shape, np.nan)
    ok = (m1 > 0) & (m2 > 0)
    r = m1[ok] / (m1[ok] + m2[ok])
    var = a1[ok] * (1 - a1[ok]) / r + a2[ok] * (1 - a2[ok]) / (1 - r)
    out[ok] = _ceil(z_value(alpha) ** 2 * var / d**2)
    return out


def n_for_mean(sd, d: float = 1.0, alpha: float = 0.05) -> np.ndarray:
    """Observations needed for a mean's interval half-width ``z * sd / sqrt(n)`` to be at most
    ``d``: ``ceil((z * sd / d)^2)``.

    ``sd`` (standard deviation, in the measure's units, e.g. score points) and ``d`` (same
    units) broadcast. Returns float64 counts; NaN where ``sd`` is NaN.
    Example: sd = 10, d = 1 -> 385.
    """
    (s,) = _arrays(sd)
    return _ceil((z_value(alpha) * s / d) ** 2)


def games_for_units(units_needed, units, games) -> np.ndarray:
    """Convert a requirement counted in units (seat-games, say) into games, at the run's own
    rate of ``units / games`` units per game: ``ceil(units_needed * games / units)``.

    Broadcast arrays of counts. Returns float64 game counts; NaN where ``units <= 0`` or the
    requirement is NaN. Example: 1000 seat-games needed, 600 seat-games in 200 games -> 334.
    """
    need, u, g = np.broadcast_arrays(*_arrays(units_needed, units, games))
    out = np.full(need.shape, np.nan)
    ok = (u > 0) & ~np.isnan(need)
    out[ok] = _ceil(need[ok] * g[ok] / u[ok])
    return out


# ---------------------------------------------------------------- clustered intervals ------
# Two seats of one game are not independent observations (if one wins, the other cannot), and
# neither are the holders of one component in one game. Every comparison that puts several
# seats of one game into one mean uses these: the game is the cluster.


def cluster_ratio(num, den) -> dict:
    """A mean over units grouped in clusters (games), with its cluster-robust 95% interval.

    ``num``, ``den``: float arrays ``[G]``, per cluster the sum of the values and the number of
    units (e.g. per game: the sum of the holders' win-share differences and the number of
    holders); clusters with ``den == 0`` contribute nothing. The estimate is the ratio
    ``R = sum(num) / sum(den)`` (the mean over all units); its variance is the CR1
    cluster-robust (sandwich) variance of an intercept-only least-squares fit,
    ``G/(G-1) * sum_g (num_g - R den_g)^2 / sum(den)^2`` with ``G`` the clusters that hold
    units: what ``statsmodels`` OLS gives with ``cov_type="cluster"`` (tests/test_stats.py
    checks it). Returns ``{"est", "se", "lo", "hi", "p", "units", "clusters"}`` (NaN estimates
    without units; ``se`` NaN with one cluster; ``p`` the two-sided normal p-value of
    ``est == 0``)."""
    a = np.asarray(num, np.float64).ravel()
    b = np.asarray(den, np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"cluster_ratio: num and den differ in shape ({a.shape}, {b.shape})")
    keep = b > 0
    a, b = a[keep], b[keep]
    g = int(a.shape[0])
    units = float(b.sum())
    out = {"est": math.nan, "se": math.nan, "lo": math.nan, "hi": math.nan, "p": math.nan,
           "units": units, "clusters": g}
    if g == 0:
        return out
    est = float(a.sum() / units)
    out["est"] = est
    if g < 2:
        return out
    var = g / (g - 1) * float(((a - est * b) ** 2).sum()) / units ** 2
    se = math.sqrt(var)
    out.update(se=se, lo=est - Z95 * se, hi=est + Z95 * se, p=normal_pvalue(est, se))
    return out


def cluster_mean(values, clusters) -> dict:
    """The mean of ``values`` (float ``[n]``: one per unit, e.g. per seat-game) with a 95%
    interval clustered by ``clusters`` (int ``[n]``: the game of each unit): ``cluster_ratio``
    of the per-cluster sums and counts. Same result keys as ``cluster_ratio``."""
    v = np.asarray(values, np.float64).ravel()
    c = np.asarray(clusters).ravel()
    if v.shape != c.shape:
        raise ValueError("cluster_mean: values and clusters differ in length")
    _, inv = np.unique(c, return_inverse=True)
    return cluster_ratio(np.bincount(inv, weights=v), np.bincount(inv).astype(np.float64))


def independent_mean(values) -> dict:
    """The mean of ``values`` with the 95% interval that treats every value as independent
    (``sd / sqrt(n)``, ddof 1): what ``cluster_mean`` reduces to with one unit a cluster, and
    what it is compared with. Same keys as ``cluster_ratio``."""
    v = np.asarray(values, np.float64).ravel()
    return cluster_ratio(v, np.ones_like(v))


def cluster_difference(values, group, clusters, bounds: tuple[float, float] | None = None
                       ) -> dict:
    """Difference of two group means ``mean(values | group) - mean(values | ~group)`` (e.g. the
    win rate of the seats that built a component minus the others') with a 95% interval
    clustered by game: the per-cluster linearisation of the two ratio estimates,
    ``u_g = (s1_g - m1 n1_g)/N1 - (s0_g - m0 n0_g)/N0``, variance ``G/(G-1) sum u_g^2``.
    ``values`` float ``[n]``, ``group`` bool ``[n]``, ``clusters`` int ``[n]``. Returns
    ``{"est", "se", "lo", "hi", "p", "n1", "n0", "clusters"}`` (NaN when a group is empty).
    ``bounds``: the range a difference can take (``(-1, 1)`` for win shares): the interval's
    ends are clipped to it, as for ``clustered_from_sums``."""
    v = np.asarray(values, np.float64).ravel()
    grp = np.asarray(group, bool).ravel()
    _, inv = np.unique(np.asarray(clusters).ravel(), return_inverse=True)
    s1 = np.bincount(inv, weights=np.where(grp, v, 0.0))
    n1 = np.bincount(inv, weights=grp.astype(np.float64))
    s0 = np.bincount(inv, weights=np.where(grp, 0.0, v))
    n0 = np.bincount(inv, weights=(~grp).astype(np.float64))
    big1, big0 = float(n1.sum()), float(n0.sum())
    out = {"est": math.nan, "se": math.nan, "lo": math.nan, "hi": math.nan, "p": math.nan,
           "n1": big1, "n0": big0, "clusters": int(s1.shape[0])}
    if big1 == 0 or big0 == 0:
        return out
    m1, m0 = float(s1.sum()) / big1, float(s0.sum()) / big0
    est = m1 - m0
    out["est"] = est
    g = s1.shape[0]
    if g < 2:
        return out
    u = (s1 - m1 * n1) / big1 - (s0 - m0 * n0) / big0
    se = math.sqrt(g / (g - 1) * float((u ** 2).sum()))
    lo, hi = est - Z95 * se, est + Z95 * se
    if bounds is not None:
        lo, hi = max(lo, bounds[0]), min(hi, bounds[1])
    out.update(se=se, lo=lo, hi=hi, p=normal_pvalue(est, se))
    return out
