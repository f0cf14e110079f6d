"""Little Town charts: building and goal-card balance, the setup comparison, score
distributions and draft picks (PNG, 100 dpi, written by ``analysis.charts.save``)."""

from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from analysis.charts import save  # noqa: E402
from analysis.stats import Z95, as_float  # noqa: E402

__all__ = ["balance_chart", "setup_charts"]

DPI = 100
"""Resolution of the Little Town charts (dots per inch)."""


def balance_chart(df: pl.DataFrame, label_col: str, path: str, title: str,
                  missing: str | None = None) -> str:
    """Horizontal bars of diff with 95% whiskers, sorted, one panel per player count;
    dark = BH-significant (q < 0.05). ``missing``: if given, rows without a difference (e.g. a
    goal card nobody completed) are kept at the bottom, labelled, with this text instead of a
    bar; else they are left out."""
    data = df if missing else df.filter(pl.col("diff").is_not_null())
    players = sorted({int(p) for p in data["players"]}) if len(data) else []
    if not players:
        fig, ax = plt.subplots(figsize=(5, 1.5))
        ax.axis("off")
        ax.text(0.5, 0.5, "no data", ha="center")
        return save(fig, path, DPI)
    rows = max(len(data.filter(pl.col("players") == p)) for p in players)
    fig, axes = plt.subplots(1, len(players), figsize=(4.4 * len(players), 1.2 + 0.27 * rows),
                             squeeze=False)
    for ax, p in zip(axes[0], players, strict=True):
        g = data.filter(pl.col("players") == p).sort("diff", nulls_last=False)
        y = np.arange(len(g))
        d = g["diff"].fill_null(np.nan).to_numpy().astype(float) * 100
        for yy in y[np.isnan(d)]:
            ax.text(0, yy, " " + str(missing), va="center", fontsize=7, color="#444444")
        lo = g["lo"].fill_null(np.nan).to_numpy().astype(float) * 100
        hi = g["hi"].fill_null(np.nan).to_numpy().astype(float) * 100
        sig = (g["q"].fill_null(1.0).to_numpy() < 0.05) if "q" in g.columns else np.ones(len(g))
        colors = [("#2E7D32" if v >= 0 else "#C62828") if s else
                  ("#A5D6A7" if v >= 0 else "#EF9A9A") for v, s in zip(d, sig, strict=True)]
        ax.barh(y, d, color=colors, height=0.65)
        ax.errorbar(d, y, xerr=[d - lo, hi - d], fmt="none", ecolor="black", capsize=2, lw=0.9)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(y, [str(x) for x in g[label_col].to_list()], fontsize=8)
        ax.set_xlabel("win-rate difference (points)")
        ax.set_title(f"{p} players", fontsize=9)
    fig.suptitle(title + " (dark: BH q < 0.05)", fontsize=10)
    return save(fig, path, DPI)


def _setup_chart(res: dict, path: str) -> str:
    order, dist, strat = res["order"], res["dist"], res["strat"]
    setups = order["setup"].to_list()
    x = np.arange(len(setups))
    fig, axes = plt.subplots(1, 3, figsize=(14, 3.8))
    r = order["rate"].to_numpy() * 100
    ax = axes[0]
    ax.bar(x, r, color="#4C72B0", width=0.6)
    ax.errorbar(x, r, yerr=[r - order["lo"].to_numpy() * 100, order["hi"].to_numpy() * 100 - r],
                fmt="none", ecolor="black", capsize=4)
    p = int(order["players"][0])
    ax.axhline(100 / p, ls="--", color="grey", lw=1, label=f"parity {100 / p:.3g}%")
    ax.set_xticks(x, setups)
    ax.set_ylabel("win rate of the first player (%)")
    ax.set_ylim(0, max(np.nanmax(order["hi"].to_numpy() * 100), 100 / p) * 1.25)
    ax.legend(fontsize=8)
    ax.set_title("First-player advantage (95% CI)", fontsize=9)
    ax = axes[1]
    by_setup = {(r["setup"], r["measure"]): r for r in dist.iter_rows(named=True)}

    def measure(m: str, key: str) -> np.ndarray:
        return np.array([as_float(by_setup[(s, m)][key]) if (s, m) in by_setup else np.nan
                         for s in setups])

    mean = measure("winning margin", "mean")
    half = Z95 * measure("winning margin", "sd") / np.sqrt(measure("winning margin", "n"))
    ax.bar(x - 0.2, mean, width=0.4, color="#DD8452", label="mean winning margin (95% CI)")
    ax.errorbar(x - 0.2, mean, yerr=half, fmt="none", ecolor="black", capsize=3)
    ax.bar(x + 0.2, measure("winning score", "sd"), width=0.4, color="#55A868",
           label="SD of the winning score")
    ax.set_xticks(x, setups)
    ax.set_ylabel("points")
    ax.set_ylim(0, np.nanmax(np.concatenate([mean + half, measure("winning score", "sd")]))
                * 1.35)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title("Score spread", fontsize=9)
    ax = axes[2]
    if len(strat):
        names = sorted(set(strat["strategy"]))
        width = 0.8 / max(1, len(setups))
        for k, s in enumerate(setups):
            g = {row["strategy"]: row for row in
                 strat.filter(pl.col("setup") == s).iter_rows(named=True)}
            vals = np.array([as_float(g[n]["rate"]) if n in g else np.nan for n in names]) * 100
            los = np.array([as_float(g[n]["lo"]) if n in g else np.nan for n in names]) * 100
            his = np.array([as_float(g[n]["hi"]) if n in g else np.nan for n in names]) * 100
            xs = np.arange(len(names)) + (k - (len(setups) - 1) / 2) * width
            ax.bar(xs, vals, width=width, label=s)
            ax.errorbar(xs, vals, yerr=[vals - los, his - vals], fmt="none", ecolor="black",
                        capsize=2, lw=0.8)
        ax.set_xticks(np.arange(len(names)), names, fontsize=8)
        ax.axhline(100 / p, ls="--", color="grey", lw=1)
        ax.legend(fontsize=7)
    ax.set_ylabel("win rate (%)")
    ax.set_title("Strategy win rates by setup", fontsize=9)
    return save(fig, path, DPI)


def _score_chart(res: dict, path: str) -> str:
    hist = res["hist"]
    setups = res["order"]["setup"].to_list()
    fig, axes = plt.subplots(1, 3, figsize=(14, 3.6))
    for ax, m in zip(axes, ("winning score", "winning margin", "seat score"), strict=True):
        for s in setups:
            g = hist.filter((pl.col("setup") == s) & (pl.col("measure") == m)).sort("value")
            if not len(g):
                continue
            v = g["value"].to_numpy()
            c = g["count"].to_numpy().astype(float)
            full = np.arange(v.min(), v.max() + 1)
            share = np.zeros(len(full))
            share[v - v.min()] = c / c.sum()
            ax.step(full, share * 100, where="mid", label=s, lw=1.2)
        ax.set_xlabel(m + " (points)")
        ax.set_ylabel("% of " + ("games" if m != "seat score" else "seat-games"))
        ax.set_title(f"{m.capitalize()} by setup", fontsize=9)
        ax.legend(fontsize=7)
    return save(fig, path, DPI)


def _picks_chart(res: dict, path: str) -> str | None:
    picks = res["picks"].filter(pl.col("mean_pick").is_not_null())
    if not len(picks):
        return None
    setups = [s for s in res["order"]["setup"].to_list() if s in set(picks["setup"])]
    first = picks.filter(pl.col("setup") == setups[0]).sort("mean_pick", descending=True)
    order = first["building"].to_list()
    y = np.arange(len(order))
    fig, ax = plt.subplots(figsize=(6.5, 1.2 + 0.27 * len(order)))
    h = 0.8 / len(setups)
    for k, s in enumerate(setups):
        g = {r["building"]: r for r in picks.filter(pl.col("setup") == s).iter_rows(named=True)}
        m = np.array([as_float(g[b]["mean_pick"]) if b in g else np.nan for b in order])
        lo = np.array([as_float(g[b]["pick_lo"]) if b in g else np.nan for b in order])
        hi = np.array([as_float(g[b]["pick_hi"]) if b in g else np.nan for b in order])
        ys = y + (k - (len(setups) - 1) / 2) * h
        ax.barh(ys, m, height=h, label=s)
        ax.errorbar(m, ys, xerr=[m - lo, hi - m], fmt="none", ecolor="black", capsize=2, lw=0.8)
    ax.set_yticks(y, order, fontsize=8)
    ax.set_xlabel("mean pick number (1 = first pick; 95% CI)")
    ax.legend(fontsize=8)
    ax.set_title("Draft picks: which buildings are taken first", fontsize=9)
    return save(fig, path, DPI)


def setup_charts(res: dict, out: str, add) -> None:
    """Draw the setup charts (comparison, scores, and draft picks when any setup drafted)
    and register each with ``add(name, path)``."""
    add("setup_comparison", _setup_chart(res, os.path.join(out, "setup_comparison.png")))
    add("setup_scores", _score_chart(res, os.path.join(out, "setup_scores.png")))
    pk = _picks_chart(res, os.path.join(out, "draft_picks.png"))
    if pk:
        add("draft_picks", pk)
