"""PNG charts of the aggregate tables of ``analysis.queries`` (matplotlib, Agg backend), and
the helpers every report's charts share.

Every chart function takes the DataFrame a query returned, writes one PNG and returns its
path. Seats are labelled 1-based ("Seat 1" is seat 0 in the data); rates are drawn in percent.
Shared helpers: ``save`` (lay out, write the PNG atomically with ``sim.core.io.atomic_path``,
close the figure), ``empty`` (a placeholder chart with a message), ``grid`` (one panel per
player count) and ``error_bars`` (non-negative whisker lengths).
"""

from __future__ import annotations

import math
import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402

from sim.core.io import atomic_path  # noqa: E402

__all__ = [
    "save",
    "empty",
    "grid",
    "error_bars",
    "seat_win_rate_chart",
    "advantage_chart",
    "score_histogram_chart",
    "fixed_length",
    "text_colour",
    "length_histogram_chart",
    "matchup_heatmap",
    "component_impact_chart",
]

BAR = "#4C72B0"
"""The bar colour of the generic charts."""
DPI = 110
"""Resolution of the generic charts (dots per inch)."""


def grid(n: int, width: float = 4.2, height: float = 3.4, max_cols: int = 3):
    """A figure of ``n`` panels of ``width`` x ``height`` inches, at most ``max_cols`` a row
    (unused panels hidden); returns ``(fig, [ax, ...])`` with ``n`` axes."""
    cols = max(1, min(n, max_cols))
    rows = max(1, math.ceil(n / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    flat = list(axes.ravel())
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def save(fig, path, dpi: int = DPI) -> str:
    """Lay out ``fig`` (``tight_layout``), write it as a PNG of ``dpi`` to ``path`` atomically
    (temporary name, fsync, rename; the folder is created if needed) and close it. Returns
    ``path`` as a str."""
    path = os.fspath(path)
    try:
        fig.tight_layout()
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format="png", dpi=dpi)
    finally:
        plt.close(fig)
    return path


def empty(path, message: str, dpi: int = DPI) -> str:
    """A small placeholder chart that only says ``message`` (e.g. "no finished games"),
    written like ``save``; returns ``path``."""
    fig, ax = plt.subplots(figsize=(5, 1.6))
    ax.axis("off")
    ax.text(0.5, 0.5, message, ha="center", va="center")
    return save(fig, path, dpi)


def error_bars(v, lo, hi) -> tuple[np.ndarray, list[np.ndarray]]:
    """``(v, [below, above])`` for ``errorbar(xerr=...)``/``yerr``: the distances from the
    estimates ``v`` to their bounds, floored at 0 (an estimate outside its interval, or a NaN,
    never gives a negative whisker)."""
    v, lo, hi = (np.asarray(a, float) for a in (v, lo, hi))
    return v, [np.maximum(v - lo, 0), np.maximum(hi - v, 0)]


def _players(df: pl.DataFrame) -> list[int]:
    return sorted(int(p) for p in df["players"].unique())


def _parity_dots(ax, g: pl.DataFrame, position_col: str, label: str, p: int) -> None:
    """Dots at win rate minus parity (points) with their 95% Wilson whiskers, one per seat or
    turn position, zoomed around 0 (the axis never starts at 0%)."""
    par = 100.0 / p
    x = g[position_col].to_numpy().astype(int) + 1
    r = g["win_rate"].fill_null(np.nan).to_numpy() * 100 - par
    lo = g["lo"].fill_null(np.nan).to_numpy() * 100 - par
    hi = g["hi"].fill_null(np.nan).to_numpy() * 100 - par
    v, err = error_bars(r, lo, hi)
    ax.axhline(0, color="grey", lw=1, ls="--")
    ax.errorbar(x, v, yerr=err, fmt="o", color=BAR, ecolor="black", capsize=4, lw=1.2, ms=6)
    span = np.nanmax(np.abs(np.r_[lo, hi])) if np.isfinite(np.r_[lo, hi]).any() else 1.0
    span = max(float(span) * 1.2, 1.0)
    ax.set_ylim(-span, span)
    ax.set_xlim(x.min() - 0.6, x.max() + 0.6)
    ax.set_xticks(x, [f"{label} {i}" if len(x) <= 4 else str(i) for i in x], fontsize=8)
    ax.set_ylabel(f"win rate minus parity {par:.3g}% (points)", fontsize=8)
    ax.set_title(f"{p} players (n = {int(g['n'].max()):,} finished games)", fontsize=9)


def seat_win_rate_chart(
    rates: pl.DataFrame, path: str, position_col: str = "seat", title: str | None = None
) -> str:
    """Win rate of each seat as its difference from parity (1/players), in percentage points:
    a dot with its 95% Wilson interval per seat, one panel per player count, the axis zoomed
    around 0 so that a 1-2 point advantage is visible (never bars from 0%).

    ``rates``: output of ``seat_win_rates`` (or ``turn_order_win_rates`` with
    ``position_col="position"``): players, <position_col> (0-based), n, win_rate, lo, hi,
    parity. Returns ``path``.
    """
    if rates.is_empty():
        return empty(path, "no finished games")
    label = "Seat" if position_col == "seat" else "Position"
    players = _players(rates)
    fig, axes = grid(len(players), width=3.8, height=3.0)
    for ax, p in zip(axes, players, strict=True):
        _parity_dots(ax, rates.filter(pl.col("players") == p).sort(position_col),
                     position_col, label, p)
    what = "seat" if position_col == "seat" else "turn-order position (1 = moved first)"
    fig.suptitle(title or f"Win rate by {what} minus parity, 95% intervals", fontsize=10)
    return save(fig, path)


def advantage_chart(order_rates: pl.DataFrame, path: str) -> str:
    """The verdict's chart: the first player's win rate minus parity (points) per player
    count, a dot with its 95% Wilson interval, zoomed around 0; the n of finished games beside
    each dot. ``order_rates``: output of ``turn_order_win_rates``. Returns ``path``."""
    first = order_rates.filter((pl.col("position") == 0) & (pl.col("n") > 0)).sort("players")
    if first.is_empty():
        return empty(path, "no finished games")
    par = 1.0 / first["players"].cast(pl.Float64).to_numpy()
    r = first["win_rate"].to_numpy() * 100 - par * 100
    lo = first["lo"].to_numpy() * 100 - par * 100
    hi = first["hi"].to_numpy() * 100 - par * 100
    y = np.arange(len(first))[::-1]
    fig, ax = plt.subplots(figsize=(5.6, 1.1 + 0.38 * len(first)))
    v, err = error_bars(r, lo, hi)
    ax.axvline(0, color="grey", lw=1, ls="--")
    ax.errorbar(v, y, xerr=err, fmt="o", color=BAR, ecolor="black", capsize=4, lw=1.2)
    span = max(float(np.nanmax(np.abs(np.r_[lo, hi]))) * 1.35, 1.0)
    ax.set_xlim(-span, span)
    ax.set_ylim(-0.7, len(first) - 0.3)
    ax.set_yticks(y, [f"{int(p)} players" for p in first["players"]], fontsize=8)
    for yy, hh, n in zip(y, hi, first["n"], strict=True):
        ax.text(min(hh, span * 0.98), yy + 0.18, f"n = {int(n):,}", fontsize=7, ha="right")
    ax.set_xlabel("first player's win rate minus parity (percentage points)", fontsize=8)
    ax.set_title("First-player advantage, 95% intervals (n = finished games)", fontsize=9)
    return save(fig, path)


def score_histogram_chart(counts: pl.DataFrame, path: str, unit: str = "points",
                          max_bins: int = 60) -> str:
    """Histogram of a seat's final score in finished games, one panel per player count (the
    chart of a game whose length is fixed). ``counts``: players, score, count (seat-games).
    Returns ``path``."""
    if counts.is_empty():
        return empty(path, "no finished games")
    players = _players(counts)
    fig, axes = grid(len(players), width=3.8, height=2.8)
    for ax, p in zip(axes, players, strict=True):
        g = counts.filter(pl.col("players") == p)
        t = g["score"].to_numpy().astype(float)
        w = g["count"].to_numpy().astype(float)
        lo, hi = t.min(), t.max() + 1
        step = max(1, math.ceil((hi - lo) / max_bins))
        hist, edges = np.histogram(t, bins=np.arange(lo, hi + step, step), weights=w)
        ax.bar(edges[:-1], hist, width=step, align="edge", color=BAR)
        ax.set_xlabel(f"final score ({unit})", fontsize=8)
        ax.set_ylabel("seat-games", fontsize=8)
        ax.set_title(f"{p} players (n = {int(w.sum()):,} seat-games)", fontsize=9)
    fig.suptitle("Final score of a seat, finished games", fontsize=10)
    return save(fig, path)


def fixed_length(counts: pl.DataFrame) -> bool:
    """True when every finished game of each player count has the same length (a histogram of
    the length would be a single bar)."""
    fin = counts.filter(pl.col("finished"))
    if fin.is_empty():
        return False
    return bool((fin.group_by("players").agg(k=pl.col("turns").n_unique())["k"] == 1).all())


def length_histogram_chart(counts: pl.DataFrame, path: str, max_bins: int = 60) -> str:
    """Histogram of game length in player-turns, one panel per player count, finished games
    only (the number of limit games is given in the panel title).

    ``counts``: output of ``length_counts`` (players, turns, finished, count). Returns ``path``.
    """
    if counts.is_empty():
        return empty(path, "no games")
    players = _players(counts)
    fig, axes = grid(len(players), width=3.8, height=2.8)
    for ax, p in zip(axes, players, strict=True):
        g = counts.filter(pl.col("players") == p)
        fin = g.filter(pl.col("finished"))
        n_unfinished = int(g.filter(~pl.col("finished"))["count"].sum())  # limit or deadlock
        if fin.is_empty():
            ax.text(0.5, 0.5, "no finished games", ha="center", transform=ax.transAxes)
        else:
            t = fin["turns"].to_numpy().astype(float)
            w = fin["count"].to_numpy().astype(float)
            lo, hi = t.min(), t.max() + 1
            step = max(1, math.ceil((hi - lo) / max_bins))
            edges = np.arange(lo, hi + step, step)
            hist, edges = np.histogram(t, bins=edges, weights=w)
            ax.bar(edges[:-1], hist, width=step, align="edge", color=BAR)
            order = np.argsort(t)
            cum = np.cumsum(w[order])
            median = t[order][np.searchsorted(cum, cum[-1] / 2)]
            ax.axvline(median, color="black", ls="--", lw=1, label=f"median {median:g}")
            ax.legend(fontsize=8)
        ax.set_xlabel("game length (player-turns)", fontsize=8)
        ax.set_ylabel("games", fontsize=8)
        ax.set_title(
            f"{p} players: n = {int(fin['count'].sum()):,} finished, {n_unfinished:,} without a winner",
            fontsize=9,
        )
    fig.suptitle("Game length, finished games", fontsize=10)
    return save(fig, path)


def text_colour(rgba) -> str:
    """"white" on a dark cell, "black" on a light one (relative luminance below 0.45 is
    dark): heatmap labels that contrast with their cell."""
    r, g, b = (float(c) for c in rgba[:3])
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "white" if lum < 0.45 else "black"


def matchup_heatmap(matrix: pl.DataFrame, path: str) -> str:
    """Heatmap of row strategy's win rate against column strategy, one panel per player
    count, cells annotated with the rate (%) and n in a colour that contrasts with the cell
    (``text_colour``); colour centred on parity (1/players) and zoomed to the largest
    deviation from it (at least 5 points).

    ``matrix``: output of ``matchup_matrix`` (players, strategy, opponent, n, win_rate).
    Returns ``path``.
    """
    if matrix.is_empty():
        return empty(path, "no matchups")
    players = _players(matrix)
    names = sorted(set(matrix["strategy"]) | set(matrix["opponent"]))
    k = len(names)
    side = max(3.6, 1.0 + 0.9 * k)
    fig, axes = grid(len(players), width=side + 0.8, height=side)
    idx = {s: i for i, s in enumerate(names)}
    for ax, p in zip(axes, players, strict=True):
        cells = np.full((k, k), np.nan)
        ns = np.zeros((k, k), dtype=np.int64)
        for r in matrix.filter(pl.col("players") == p).iter_rows(named=True):
            i, j = idx[r["strategy"]], idx[r["opponent"]]
            cells[i, j] = np.nan if r["win_rate"] is None else r["win_rate"]
            ns[i, j] = r["n"]
        par = 1.0 / p
        dev = np.nanmax(np.abs(cells - par)) if np.isfinite(cells).any() else 0.0
        dev = max(float(dev) * 1.1, 0.05)  # zoomed around parity: small gaps stay visible
        norm = TwoSlopeNorm(vmin=max(0.0, par - dev), vcenter=par, vmax=min(1.0, par + dev))
        im = ax.imshow(np.ma.masked_invalid(cells), cmap="RdBu", norm=norm)
        cmap = im.get_cmap()
        for i in range(k):
            for j in range(k):
                if ns[i, j]:
                    colour = (text_colour(cmap(norm(cells[i, j])))
                              if np.isfinite(cells[i, j]) else "black")
                    ax.text(j, i, f"{cells[i, j] * 100:.1f}%\nn={ns[i, j]:,}", ha="center",
                            va="center", fontsize=7, color=colour)
        ax.set_xticks(range(k), names, rotation=45, ha="right", fontsize=8)
        ax.set_yticks(range(k), names, fontsize=8)
        ax.set_xlabel("against (column)" if p == 2 else "in games with (column)")
        ax.set_ylabel("win rate of (row)")
        total = int(ns.sum())
        ax.set_title(f"{p} players (parity {100 / p:.3g}%; n = {total:,} seat-games)",
                     fontsize=9)
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="win rate (0-1)")
    fig.suptitle("Win rate of the row bot against the column bot", fontsize=10)
    return save(fig, path)


def component_impact_chart(impact: pl.DataFrame, path: str, top: int = 17,
                           title: str | None = None) -> str:
    """Horizontal bars of the win-rate difference (percentage points) between seats that used
    a component and seats that did not, with 95% whiskers clustered by game; one panel per player count,
    the ``top`` largest |difference| each.

    ``impact``: output of ``component_impact`` (players, component, diff, lo, hi).
    Returns ``path``.
    """
    data = impact.filter(pl.col("diff").is_not_null())
    if data.is_empty():
        return empty(path, "no component detail columns with both groups present")
    players = _players(data)
    rows = min(top, max(len(data.filter(pl.col("players") == p)) for p in players))
    fig, axes = grid(len(players), width=4.6, height=1.2 + 0.28 * rows)
    for ax, p in zip(axes, players, strict=True):
        g = data.filter(pl.col("players") == p).head(top).reverse()
        y = np.arange(len(g))
        d = g["diff"].to_numpy() * 100
        lo = g["lo"].to_numpy() * 100
        hi = g["hi"].to_numpy() * 100
        ax.barh(y, d, color=np.where(d >= 0, "#55A868", "#C44E52"), height=0.6)
        dd, err = error_bars(d, lo, hi)
        ax.errorbar(dd, y, xerr=err, fmt="none", ecolor="black", capsize=3, lw=1)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(y, g["component"].to_list(), fontsize=8)
        ax.set_xlabel("win rate used - not used (percentage points)", fontsize=8)
        n = int((g["n_with"] + g["n_without"]).max()) if "n_with" in g.columns else 0
        ax.set_title(f"{p} players (n = {n:,} seat-games)" if n else f"{p} players",
                     fontsize=9)
    fig.suptitle(title or "Win rate with minus without each component (association, "
                 "not effect), 95% intervals", fontsize=9)
    return save(fig, path)
