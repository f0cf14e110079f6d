"""Interval estimates for win rates and their differences.

Every function is vectorised over numpy arrays (scalars are accepted too) and returns numpy
float64 arrays. A cell with ``n == 0`` has no estimate: its rate and bounds are NaN.

Win counts may be fractional. A k-way shared win gives each winner ``win_share = 1/k``, and the
analysis counts "wins" as the sum of ``win_share``. The binomial intervals below are then an
approximation: a shared win is neither a success nor a failure of one Bernoulli trial. With few
shared wins the effect is negligible; Go Town has none (one player reaches the target first).
"""

from __future__ import annotations

import numpy as np
from scipy import stats as _sp
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

__all__ = ["wilson_interval", "newcombe_difference", "equal_rates_pvalue", "rate"]


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
