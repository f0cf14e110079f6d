"""Statistics of paired games (common random numbers).

A baseline and a variant played on the same game seeds and seatings give, per game ``i``, two
outcomes ``x_i`` (baseline) and ``y_i`` (variant) of the same metric (a seat's win share, a
score, the game length). The difference of the means is estimated from the per-game
differences ``d_i = y_i - x_i``; when the change leaves most games alike, ``d`` varies far less
than ``x`` and ``y`` do, and the interval is narrower than the one of two independent runs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.stats import Z95

__all__ = ["Z95", "PairedDifference", "clustered_mean_se", "paired_difference"]


@dataclass(frozen=True)
class PairedDifference:
    """Difference ``mean(y) - mean(x)`` of ``n`` paired games with two 95% intervals.

    ``lo``/``hi``: from the paired differences (normal approximation, ``mean(d) +- z sd(d)/
    sqrt(n)``); ``unpaired_lo``/``unpaired_hi``: as if the runs were independent
    (``+- z sqrt(var(x)/n + var(y)/n)``); ``width_ratio``: paired width / unpaired width;
    ``games_factor``: how many times more games two independent runs would need for the paired
    width, ``1 / width_ratio**2`` (inf when the paired width is 0).
    """

    n: int
    baseline: float
    variant: float
    diff: float
    lo: float
    hi: float
    unpaired_lo: float
    unpaired_hi: float

    @property
    def width_ratio(self) -> float:
        """Paired interval width / unpaired width (NaN without an unpaired width)."""
        w_u = self.unpaired_hi - self.unpaired_lo
        return float((self.hi - self.lo) / w_u) if w_u > 0 else float("nan")

    @property
    def games_factor(self) -> float:
        """How many times more games two independent runs would need for the paired
        width: ``1 / width_ratio**2`` (inf when the paired width is 0)."""
        r = self.width_ratio
        return float("inf") if r == 0 else float(1.0 / r**2) if r == r else float("nan")


def clustered_mean_se(x, clusters=None) -> float:
    """Standard error of ``mean(x)`` clustered by ``clusters`` (labels, one per value: e.g.
    the seed of each game when one seed is played in several rotations, which are not
    independent games): ``sqrt(G/(G-1) * sum_g (sum_{i in g} (x_i - mean))**2) / n`` with ``G``
    clusters (CR1). Without ``clusters`` (or with one value per cluster) it is the usual
    ``sd(x, ddof=1) / sqrt(n)``. NaN for fewer than 2 values or clusters."""
    x = np.asarray(x, np.float64)
    n = x.shape[0]
    if n < 2:
        return float("nan")
    if clusters is None:
        return float(x.std(ddof=1) / np.sqrt(n))
    _, inv = np.unique(np.asarray(clusters), return_inverse=True)
    g = int(inv.max()) + 1
    if g < 2:
        return float("nan")
    sums = np.bincount(inv.ravel(), weights=x - x.mean(), minlength=g)
    return float(np.sqrt(g / (g - 1) * (sums ** 2).sum()) / n)


def paired_difference(x, y, clusters=None) -> PairedDifference:
    """Paired and unpaired 95% intervals of ``mean(y) - mean(x)``.

    ``x``, ``y``: float arrays of the same length ``n >= 2`` (game ``i`` of the baseline and of
    the variant). ``clusters``: optional labels, one per game, of the groups of games that are
    not independent (``compare --rotate`` plays each seed in every rotation: the seed is the
    cluster); the standard errors are then clustered (``clustered_mean_se``). Raises ValueError
    on different lengths or fewer than 2 games.
    """
    x = np.asarray(x, np.float64)
    y = np.asarray(y, np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"paired_difference: x and y need the same 1-D shape ({x.shape}, "
                         f"{y.shape})")
    n = x.shape[0]
    if n < 2:
        raise ValueError("paired_difference: need at least 2 paired games")
    d = y - x
    mean = float(d.mean())
    if clusters is not None and len(clusters) != n:
        raise ValueError(f"paired_difference: {len(clusters)} cluster labels for {n} games")
    se = clustered_mean_se(d, clusters)
    se_u = float(np.sqrt(clustered_mean_se(x, clusters) ** 2
                         + clustered_mean_se(y, clusters) ** 2))
    return PairedDifference(n, float(x.mean()), float(y.mean()), mean, mean - Z95 * se,
                            mean + Z95 * se, mean - Z95 * se_u, mean + Z95 * se_u)
