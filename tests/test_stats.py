"""analysis.stats: the library routines give the numbers of the hand-written formulas they
replaced (fixed inputs, exact or to 1e-12), and the edge cases keep their old meaning."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from analysis import stats as st

# fixed inputs: (successes1, n1, successes2, n2); fractional wins (shared wins) included
PAIRS = np.array([
    [30, 100, 20, 100], [5, 50, 5, 50], [0, 10, 3, 10], [10, 10, 7, 12], [12.5, 40, 7.25, 33],
    [1, 3, 0, 4], [250, 1000, 310, 1000], [0.5, 2, 1, 2], [0, 5, 0, 7], [4, 4, 6, 6],
    [3, 0, 2, 5], [2, 5, 0, 0],
], dtype=float)


def _old_pooled_z_test(w1, n1, w2, n2) -> np.ndarray:
    """The hand-written pooled two-proportion z-test the reports used before (three copies:
    analysis/games/little_town.py ``_ztest_p``, province.py ``_p_two_prop``, suburbia.py
    ``z_pvalue``, all equal)."""
    w1, n1, w2, n2 = (np.asarray(x, dtype=np.float64) for x in (w1, n1, w2, n2))
    out = np.full(np.broadcast(w1, n1, w2, n2).shape, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        pbar = (w1 + w2) / (n1 + n2)
        se = np.sqrt(pbar * (1 - pbar) * (1 / n1 + 1 / n2))
        z = (w1 / n1 - w2 / n2) / se
    ok = (n1 > 0) & (n2 > 0) & np.isfinite(z) & (se > 0)
    out[ok] = 2 * sps.norm.sf(np.abs(z[ok]))
    return out


def test_two_proportion_pvalue_equals_the_hand_written_test_exactly():
    got = st.two_proportion_pvalue(*PAIRS.T)
    old = _old_pooled_z_test(*PAIRS.T)
    assert np.array_equal(got, old, equal_nan=True)  # bit for bit, NaN where undefined
    assert got[0] == pytest.approx(0.10247, abs=1e-5)
    assert got[1] == 1.0
    assert math.isnan(got[8]) and math.isnan(got[9])  # pooled rate 0 or 1: no variance
    assert math.isnan(got[10]) and math.isnan(got[11])  # an empty group
    assert st.two_proportion_pvalue(30, 100, 20, 100).shape == (1,)


def _wilson(k, n, z=st.Z95):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_wilson_interval_is_the_wilson_formula():
    for k, n in ((50, 100), (0, 10), (10, 10), (12.5, 40), (1, 3), (3141, 10000)):
        lo, hi = st.wilson_interval(k, n)
        assert (lo[0], hi[0]) == pytest.approx(_wilson(k, n), abs=1e-12)
    lo, hi = st.wilson_interval(50, 100)
    assert (lo[0], hi[0]) == pytest.approx((0.403832, 0.596168), abs=1e-6)
    lo, hi = st.wilson_interval([1, 2], [0, 4])
    assert math.isnan(lo[0]) and math.isnan(hi[0]) and not math.isnan(lo[1])


def test_newcombe_difference_is_newcombe_method_10():
    for w1, n1, w2, n2 in PAIRS[:8]:
        l1, u1 = _wilson(w1, n1)
        l2, u2 = _wilson(w2, n2)
        p1, p2 = w1 / n1, w2 / n2
        d = p1 - p2
        lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
        hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
        got = st.newcombe_difference(w1, n1, w2, n2)
        assert (got[0][0], got[1][0], got[2][0]) == pytest.approx((d, lo, hi), abs=1e-12)
    d, lo, hi = st.newcombe_difference(1, 0, 1, 5)
    assert math.isnan(d[0]) and math.isnan(lo[0]) and math.isnan(hi[0])


def _bh_by_hand(p):
    p = np.asarray(p, float)
    m = len(p)
    order = np.argsort(p)
    q = p[order] * m / np.arange(1, m + 1)
    q = np.minimum.accumulate(q[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(q, 1.0)
    return out


def test_bh_adjust_is_the_step_up_procedure_and_keeps_nan():
    p = [0.01, 0.04, 0.03, 0.5, 0.002, 0.04]
    assert st.bh_adjust(p) == pytest.approx(_bh_by_hand(p), abs=1e-15)
    q = st.bh_adjust([0.01, float("nan"), 0.04, 0.03])
    assert math.isnan(q[1])
    assert [q[0], q[2], q[3]] == pytest.approx([0.03, 0.04, 0.04])
    assert st.bh_adjust([]).shape == (0,)
    assert np.isnan(st.bh_adjust([float("nan")])).all()


def test_normal_pvalue_and_welch():
    assert st.normal_pvalue(1.96, 1.0) == pytest.approx(2 * sps.norm.sf(1.96))
    assert st.normal_pvalue(-0.3, 0.1) == pytest.approx(2 * sps.norm.sf(3.0))
    assert st.normal_pvalue(0.0, 0.0) == 1.0 and st.normal_pvalue(0.2, 0.0) == 0.0
    assert math.isnan(st.normal_pvalue(None, 1.0)) and math.isnan(st.normal_pvalue(1, math.nan))
    d, lo, hi, p = st.welch_difference(12.0, 4.0, 100, 11.0, 9.0, 50)
    se = math.sqrt(4 / 100 + 9 / 50)
    assert (d, lo, hi) == pytest.approx((1.0, 1 - st.Z95 * se, 1 + st.Z95 * se))
    assert p == pytest.approx(2 * sps.norm.sf(1 / se))
    assert all(math.isnan(x) for x in st.welch_difference(1, 1, 1, 2, 1, 10))
    assert st.welch_difference(3, 0, 5, 3, 0, 5) == (0, 0, 0, 1.0)
    assert st.Z95 == 1.959963984540054 == st.z_value()


def test_mh_difference_by_hand():
    r = st.mh_difference([10, 20], [40, 50], [5, 15], [30, 60])
    wt = np.array([40 * 30 / 70, 50 * 60 / 110])
    d = (wt * np.array([10 / 40 - 5 / 30, 20 / 50 - 15 / 60])).sum() / wt.sum()
    assert r["diff"] == pytest.approx(d) and r["strata"] == 2 and r["n1"] == 90
    assert r["lo"] < d < r["hi"] and 0 < r["p"] < 1
    assert math.isnan(st.mh_difference([1], [0], [1], [5])["diff"])


# ---- intervals clustered by game (issue 15) ------------------------------------------------
def _width(r: dict) -> float:
    return r["hi"] - r["lo"]


def test_cluster_mean_is_statsmodels_cluster_robust_ols():
    import statsmodels.api as sm

    rng = np.random.default_rng(3)
    games = np.repeat(np.arange(400), 3)
    y = rng.normal(size=games.size) + np.repeat(rng.normal(size=400), 3)
    fit = sm.OLS(y, np.ones_like(y)).fit(cov_type="cluster", cov_kwds={"groups": games})
    got = st.cluster_mean(y, games)
    assert got["est"] == pytest.approx(float(fit.params[0]), abs=1e-12)
    assert got["se"] == pytest.approx(float(fit.bse[0]), rel=1e-10)
    assert got["clusters"] == 400 and got["units"] == 1200


def test_clustered_interval_is_wider_with_within_game_correlation_and_equal_without():
    rng = np.random.default_rng(7)
    g = 20_000
    shared = np.repeat(rng.normal(size=g), 2)  # both seats of a game share it: rho = 0.5
    y = shared + rng.normal(size=2 * g)
    games = np.repeat(np.arange(g), 2)
    ratio = _width(st.cluster_mean(y, games)) / _width(st.independent_mean(y))
    assert ratio == pytest.approx(math.sqrt(1.5), rel=0.03)  # sqrt(1 + rho)
    # no correlation: one value a game -> exactly the independent interval
    z = rng.normal(size=g)
    a, b = st.cluster_mean(z, np.arange(g)), st.independent_mean(z)
    assert (a["lo"], a["hi"]) == pytest.approx((b["lo"], b["hi"]), rel=1e-12)
    # two independent values a game: the same width up to sampling noise
    w = rng.normal(size=2 * g)
    ratio0 = _width(st.cluster_mean(w, games)) / _width(st.independent_mean(w))
    assert ratio0 == pytest.approx(1.0, abs=0.03)


def test_clustered_difference_of_two_player_seats_is_sqrt2_wider_than_newcombe():
    """2-player games in which one seat holds a component and exactly one seat wins: the
    holder's and the other seat's outcomes are perfectly anti-correlated, so the difference
    varies twice as much as two independent samples say (the 1.39-1.43x of issue 15)."""
    rng = np.random.default_rng(11)
    g = 50_000
    win0 = (rng.random(g) < 0.55).astype(float)  # the holder (seat 0) wins 55%
    values = np.column_stack([win0, 1 - win0]).ravel()
    group = np.tile([True, False], g)
    games = np.repeat(np.arange(g), 2)
    cl = st.cluster_difference(values, group, games)
    d, lo, hi = st.newcombe_difference(win0.sum(), g, (1 - win0).sum(), g)
    assert cl["est"] == pytest.approx(float(d[0]), abs=1e-12)
    assert _width(cl) / float(hi[0] - lo[0]) == pytest.approx(math.sqrt(2), rel=0.01)
    # one seat per game in each group, from different games: no correlation -> no widening
    games_ind = np.arange(2 * g)
    ind = st.cluster_difference(values, group, games_ind)
    assert _width(ind) / float(hi[0] - lo[0]) == pytest.approx(1.0, rel=0.01)


def test_cluster_difference_of_win_shares_stays_within_plus_minus_one():
    """A difference of win rates near its bound: with ``bounds`` the interval is clipped to
    [-1, 1] (the unclipped normal interval would pass 1); without, it is left as computed."""
    values = np.array([1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0])
    group = np.array([True, False] * 4)
    games = np.repeat(np.arange(4), 2)
    raw = st.cluster_difference(values, group, games)
    assert raw["hi"] > 1.0  # 0.5 +- 1.96 * 0.866
    cl = st.cluster_difference(values, group, games, bounds=(-1.0, 1.0))
    assert cl["hi"] == 1.0 and cl["lo"] == pytest.approx(raw["lo"]) and cl["est"] == raw["est"]
