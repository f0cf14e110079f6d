"""Province charts: each function draws one figure from a query's table and returns it;
``add_chart`` saves it into the report folder (``analysis.charts.save``) and registers it."""

from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402

from analysis.charts import error_bars, save  # noqa: E402
from analysis.games.province.data import END_TRIGGERS  # noqa: E402

__all__ = ["add_chart", "pairing_chart", "coins_chart", "supply_chart", "sensitivity_chart",
           "impact_chart"]


def add_chart(ctx, name: str, fig) -> str:
    """Save ``fig`` as ``<name>.png`` in the report folder, register it with the report and
    return the file name (for ``doc.img``)."""
    path = save(fig, os.path.join(ctx.out_dir, f"{name}.png"))
    ctx.add_chart(name, path)
    return os.path.basename(path)


def pairing_chart(names: list[str], by: dict[str, dict]):
    """Heat map of the first seat's win share, row = first seat, column = second seat
    (``by``: "a,b" -> ``order_rates`` row); returns the figure."""
    k = len(names)
    grid = np.full((k, k), np.nan)
    for key, r in by.items():
        a, b = key.split(",")
        if r["n"]:
            grid[names.index(a), names.index(b)] = r["share_rate"]
    side = max(3.8, 1.2 + 0.9 * k)
    fig, ax = plt.subplots(figsize=(side + 1.2, side))
    im = ax.imshow(np.ma.masked_invalid(grid), cmap="RdBu_r",
                   norm=TwoSlopeNorm(vmin=0.0, vcenter=0.5, vmax=1.0))
    for i in range(k):
        for j in range(k):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j] * 100:.0f}%", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(k), names, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(k), names, fontsize=8)
    ax.set_xlabel("second seat")
    ax.set_ylabel("first seat")
    ax.set_title("First-seat win share by pairing (diagonal: self-play)", fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="first-seat share")
    return fig


def coins_chart(rates: pl.DataFrame):
    """First-player share and seat win rates against the second player's starting coins
    (``rates``: ``order_rates`` by ``p2``), with 95% intervals; returns the figure."""
    fig, ax = plt.subplots(figsize=(5.6, 3.6))
    r = rates.filter(pl.col("n") > 0)
    for col, lab, colr in (("share", "first-player share", "#4C72B0"),
                           ("fp", "first seat wins", "#55A868"),
                           ("sp", "second seat wins", "#C44E52")):
        v, err = error_bars(r[f"{col}_rate"].to_numpy() * 100, r[f"{col}_lo"].to_numpy() * 100,
                            r[f"{col}_hi"].to_numpy() * 100)
        ax.errorbar(r["p2"].to_numpy(), v, yerr=err, marker="o", capsize=4, label=lab,
                    color=colr, lw=1.2)
    ax.axhline(50, ls="--", color="grey", lw=1, label="parity")
    ax.set_xticks(r["p2"].to_numpy())
    ax.set_xlabel("second player's starting coins (first player: 2)")
    ax.set_ylabel("% of finished games")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8)
    ax.set_title("Starting-coin sweep (95% intervals)", fontsize=9)
    return fig


def supply_chart(sl: pl.DataFrame):
    """Per run group: how often the supply ran dry, and the mean length split by end trigger
    (``sl``: ``supply_length``); returns the figure."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 1.6 + 0.38 * len(sl)))
    y = np.arange(len(sl))[::-1]
    v, err = error_bars(sl["dry_rate"].fill_null(np.nan).to_numpy() * 100,
                        sl["dry_lo"].fill_null(np.nan).to_numpy() * 100,
                        sl["dry_hi"].fill_null(np.nan).to_numpy() * 100)
    ax1.barh(y, v, color="#8172B2", height=0.6)
    ax1.errorbar(v, y, xerr=err, fmt="none", ecolor="black", capsize=3, lw=1)
    ax1.set_yticks(y, sl["group"].to_list(), fontsize=7)
    ax1.set_xlabel("% of games in which the supply ran dry")
    ax1.set_xlim(0, max(1.0, float(np.nanmax(v + err[1])) * 1.2 if len(v) else 1.0))
    left = np.zeros(len(sl))
    mean_t = sl["turn_mean"].fill_null(np.nan).to_numpy()
    for e, colr in zip(END_TRIGGERS, ("#4C72B0", "#55A868", "#DD8452"), strict=True):
        w = sl[f"share_{e}"].fill_null(0).to_numpy() * mean_t
        ax2.barh(y, w, left=left, color=colr, height=0.6, label=f"ended by {e}")
        left += np.nan_to_num(w)
    ax2.set_yticks(y, [])
    ax2.set_xlabel("mean player-turns (bar split by end trigger share)")
    ax2.legend(fontsize=7, loc="lower right")
    fig.suptitle("Coin supply and game length per run group", fontsize=9)
    return fig


def sensitivity_chart(rows: list[dict], ref: float | None):
    """Shift of the first-player share for each cost tweak, with the one-coin effect ``ref``
    as dotted lines; returns the figure."""
    fig, ax = plt.subplots(figsize=(7, 1.4 + 0.28 * len(rows)))
    rr = rows[::-1]
    y = np.arange(len(rr))
    v, err = error_bars([r["diff"] * 100 for r in rr], [r["lo"] * 100 for r in rr],
                        [r["hi"] * 100 for r in rr])
    ax.barh(y, v, color=np.where(v >= 0, "#C44E52", "#4C72B0"), height=0.6)
    ax.errorbar(v, y, xerr=err, fmt="none", ecolor="black", capsize=2, lw=1)
    ax.axvline(0, color="grey", lw=1)
    if ref:
        for x in (ref * 100, -ref * 100):
            ax.axvline(x, color="grey", ls=":", lw=1)
        ax.text(ref * 100, len(rr) - 0.4, " one coin", fontsize=7, color="grey")
    ax.set_yticks(y, [r["label"] for r in rr], fontsize=7)
    ax.set_xlabel("shift of the first-player share vs default costs (points)")
    ax.set_title("Sensitivity of the seat advantage to each reconstructed cost (+-1)",
                 fontsize=9)
    return fig


def impact_chart(df: pl.DataFrame, col: str, title: str, side: pl.Series, side_label: str):
    """Left: win-rate difference of the first builder / claimant with 95% whiskers; right:
    ``side`` (a rate) as bars. Returns the figure, or None when no row has a difference."""
    d = df.filter(pl.col("diff").is_not_null())
    if d.is_empty():
        return None
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(9, 1.4 + 0.32 * len(df)),
                                  gridspec_kw={"width_ratios": [3, 2]})
    g = df.reverse()
    y = np.arange(len(g))
    v, err = error_bars(g["diff"].fill_null(np.nan).to_numpy() * 100,
                        g["lo"].fill_null(np.nan).to_numpy() * 100,
                        g["hi"].fill_null(np.nan).to_numpy() * 100)
    ax.barh(y, np.nan_to_num(v), color=np.where(v >= 0, "#55A868", "#C44E52"), height=0.6)
    ax.errorbar(v, y, xerr=err, fmt="none", ecolor="black", capsize=3, lw=1)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y, g[col].to_list(), fontsize=8)
    ax.set_xlabel("win-rate difference (points)")
    ax.set_title(title, fontsize=9)
    s = side.reverse().fill_null(np.nan).to_numpy() * 100
    ax2.barh(y, s, color="#4C72B0", height=0.6)
    ax2.set_yticks(y, [])
    ax2.set_xlim(0, 100)
    ax2.set_xlabel(side_label)
    return fig
