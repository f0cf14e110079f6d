"""The clustered-by-game interval of a difference of win rates, computed apart from the tables'
code (analysis.queries.clustered_from_sums), for the report tests to check it against."""

from __future__ import annotations

import math

import numpy as np
import scipy.stats as sps
import statsmodels.api as sm

from analysis.stats import Z95


def clustered_diff_p(y, x, games):
    """(diff, lo, hi, p): statsmodels OLS of the win share ``y`` on the 0/1 indicator ``x``,
    the coefficient with its 95% normal interval clustered by ``games`` (CR1 as the tables:
    G/(G-1), without statsmodels' (N-1)/(N-K) factor, hence ``use_correction=False``), clipped
    to [-1, 1] (a difference of two win rates), and the coefficient's two-sided normal p."""
    y, x, games = (np.asarray(a, float) for a in (y, x, games))
    fit = sm.OLS(y, sm.add_constant(x)).fit(
        cov_type="cluster", cov_kwds={"groups": games.astype(int), "use_correction": False})
    g = len(np.unique(games))
    d = float(fit.params[1])
    se = math.sqrt(float(fit.cov_params()[1, 1]) * g / (g - 1))
    return (d, max(d - Z95 * se, -1.0), min(d + Z95 * se, 1.0),
            float(2 * sps.norm.sf(abs(d) / se)))


def clustered_diff(y, x, games):
    """(diff, lo, hi) of ``clustered_diff_p``."""
    return clustered_diff_p(y, x, games)[:3]
