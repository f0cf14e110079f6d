"""The Three Little Wolves charts (one PNG each, ``analysis.charts.save``)."""

from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from analysis.charts import empty, save  # noqa: E402
from analysis.doc import is_missing  # noqa: E402
from analysis.games.three_little_wolves.data import COLORS, COMPONENTS, SETS  # noqa: E402

__all__ = ["add_chart", "chart_seats_by_set", "chart_components", "chart_wolf", "chart_ties",
           "chart_dummy", "chart_sensitivity"]


def add_chart(ctx, name: str, fn, *args) -> str:
    """Draw ``fn(*args, path)`` into ``<name>.png`` of the report folder, register it and
    return the file name (for ``doc.img``)."""
    path = os.path.join(ctx.out_dir, f"{name}.png")
    fn(*args, path)
    ctx.add_chart(name, path)
    return f"{name}.png"


def _err(ax, x, est, lo, hi, fmt="o", **kw):
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    ax.errorbar(x, est, yerr=[est - lo, hi - est], fmt=fmt, capsize=3, **kw)


def chart_seats_by_set(rates: pl.DataFrame, path: str) -> str:
    """Seat win rates per card set with 95% whiskers, one panel per player count."""
    if rates.is_empty() or "players" not in rates.columns:
        return empty(path, "no pool runs")
    players = sorted(int(p) for p in rates["players"].unique())
    fig, axes = plt.subplots(1, len(players), figsize=(4.2 * len(players), 3.4), squeeze=False)
    sets = [s for s in SETS if s in set(rates["card_set"])]
    width = 0.8 / max(len(sets), 1)
    for ax, p in zip(axes[0], players, strict=True):
        for k, cs in enumerate(sets):
            g = rates.filter((pl.col("players") == p) & (pl.col("card_set") == cs)).sort("seat")
            if g.is_empty():
                continue
            x = g["seat"].to_numpy() + 1 + (k - (len(sets) - 1) / 2) * width
            r = g["win_rate"].fill_null(np.nan).to_numpy() * 100
            lo = g["lo"].fill_null(np.nan).to_numpy() * 100
            hi = g["hi"].fill_null(np.nan).to_numpy() * 100
            ax.bar(x, r, width=width, color=COLORS.get(cs, "grey"), label=cs)
            ax.errorbar(x, r, yerr=[r - lo, hi - r], fmt="none", ecolor="black", capsize=2,
                        lw=1)
        ax.axhline(100 / p, ls="--", color="grey", lw=1)
        ax.set_xticks(range(1, p + 1), [f"Seat {i}" for i in range(1, p + 1)], fontsize=8)
        ax.set_ylabel("win rate (%)")
        ax.set_title(f"{p} players (dashed: parity)", fontsize=9)
        ax.legend(fontsize=7)
    return save(fig, path)


def chart_components(comp: pl.DataFrame, path: str) -> str:
    """Mean points per seat-game of each score component, per player count."""
    data = comp.filter(pl.col("component") != "score")
    if data.is_empty():
        return empty(path, "no score detail columns")
    players = sorted(int(p) for p in data["players"].unique())
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    width = 0.8 / len(players)
    x0 = np.arange(len(COMPONENTS))
    for k, p in enumerate(players):
        g = data.filter(pl.col("players") == p)
        m = {r["component"]: r for r in g.iter_rows(named=True)}
        est = [m[c]["mean"] if c in m else np.nan for c in COMPONENTS]
        lo = [m[c]["lo"] if c in m else np.nan for c in COMPONENTS]
        hi = [m[c]["hi"] if c in m else np.nan for c in COMPONENTS]
        x = x0 + (k - (len(players) - 1) / 2) * width
        ax.bar(x, est, width=width, label=f"{p} players",
               color=["#4C72B0", "#DD8452", "#55A868"][k % 3])
        ax.errorbar(x, est, yerr=[np.subtract(est, lo), np.subtract(hi, est)], fmt="none",
                    ecolor="black", capsize=2, lw=1)
    ax.axhline(0, color="grey", lw=1)
    ax.set_xticks(x0, COMPONENTS)
    ax.set_ylabel("mean points per seat-game")
    ax.set_title("Score components (default card set, all bots, 95% intervals)", fontsize=9)
    ax.legend(fontsize=8)
    return save(fig, path)


def chart_wolf(pairs: list[dict], buckets: pl.DataFrame, path: str) -> str:
    """Left: the restricted-play difference per card set; right: win rate by wolf
    actions (greedy seats of the main pool)."""
    if not pairs and buckets.is_empty():
        return empty(path, "no wolf data")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    ax = axes[0]
    sets = [s for s in SETS if any(r["card_set"] == s for r in pairs)]
    for k, cs in enumerate(sets):
        rs = sorted((r for r in pairs if r["card_set"] == cs and r["n"]),
                    key=lambda r: r["players"])
        x = np.array([r["players"] for r in rs], float) + (k - (len(sets) - 1) / 2) * 0.2
        _err(ax, x, [r["diff"] * 100 for r in rs], [r["lo"] * 100 for r in rs],
             [r["hi"] * 100 for r in rs], color=COLORS.get(cs, "grey"), label=cs)
    ax.axhline(0, color="grey", lw=1)
    ax.set_xticks([2, 3, 4], ["2 players", "3 players", "4 players"])
    ax.set_ylabel("win rate allowed - forbidden (points)")
    ax.set_title("Restricted play: greedy with wolves allowed vs forbidden\n(same seeds, paired)",
                 fontsize=9)
    ax.legend(fontsize=8)
    ax = axes[1]
    for k, p in enumerate(sorted(int(p) for p in buckets["players"].unique())
                          if not buckets.is_empty() else []):
        g = buckets.filter(pl.col("players") == p)
        x = g["wolf_actions"].to_numpy() + (k - 1) * 0.1
        _err(ax, x, g["win_rate"].to_numpy() * 100, g["lo"].to_numpy() * 100,
             g["hi"].to_numpy() * 100, label=f"{p} players (parity {100 / p:.3g}%)")
    ax.set_xticks([0, 1, 2, 3])
    ax.set_xlabel("wolf actions taken by the seat")
    ax.set_ylabel("win rate (%)")
    ax.set_title("Main pool, greedy seats: win rate by wolf actions (association)", fontsize=9)
    ax.legend(fontsize=8)
    return save(fig, path)


def chart_ties(ties_by_set: dict[str, pl.DataFrame], path: str) -> str:
    """Houses saved by a tie: share of built houses and of games, per card set."""
    if not ties_by_set or all(t.is_empty() for t in ties_by_set.values()):
        return empty(path, "no house data")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    sets = [s for s in SETS if s in ties_by_set]
    for ax, (col, label) in zip(axes, (("saved_rate", "built houses saved by a tie (%)"),
                                       ("game_rate", "games with a house saved by a tie (%)")),
                                strict=True):
        for k, cs in enumerate(sets):
            t = ties_by_set[cs]
            if t.is_empty():
                continue
            x = t["players"].to_numpy() + (k - (len(sets) - 1) / 2) * 0.2
            _err(ax, x, t[col].to_numpy() * 100, t[f"{col}_lo"].to_numpy() * 100,
                 t[f"{col}_hi"].to_numpy() * 100, color=COLORS.get(cs, "grey"), label=cs)
        ax.set_xticks([2, 3, 4], ["2 players", "3 players", "4 players"])
        ax.set_ylabel(label)
        ax.legend(fontsize=8)
    fig.suptitle("Ties that save a house (pool runs, 95% Wilson intervals)", fontsize=10)
    return save(fig, path)


def chart_dummy(pairs: list[dict], path: str) -> str:
    """The dummy control: both arms' win rates and their paired difference."""
    pairs = [r for r in pairs if r["n"]]
    if not pairs:
        return empty(path, "no dummy-control runs")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    ax = axes[0]
    for k, r in enumerate(pairs):
        col = COLORS.get(r["card_set"], "grey")
        _err(ax, [k - 0.12], [r["rate_c"] * 100], [r["c_lo"] * 100], [r["c_hi"] * 100],
             color=col, fmt="o", mfc="white")
        _err(ax, [k + 0.12], [r["rate_t"] * 100], [r["t_lo"] * 100], [r["t_hi"] * 100],
             color=col, fmt="s")
    ax.axhline(50, ls="--", color="grey", lw=1)
    labels = [f"{r['card_set']}\n(n = {r['n']:,})" for r in pairs]
    ax.set_xticks(range(len(pairs)), labels, fontsize=8)
    ax.set_ylabel("win rate of the seat (%)")
    ax.set_title("Open = neutral control, filled = hostile (same seeds)", fontsize=9)
    ax = axes[1]
    for k, r in enumerate(pairs):
        _err(ax, [k], [r["diff"] * 100], [r["lo"] * 100], [r["hi"] * 100],
             color=COLORS.get(r["card_set"], "grey"))
    ax.axhline(0, color="grey", lw=1)
    ax.set_xticks(range(len(pairs)), labels, fontsize=8)
    ax.set_ylabel("hostile - neutral (points)")
    ax.set_title("Paired difference, 95% interval", fontsize=9)
    fig.suptitle("Two-player dummy control", fontsize=10)
    return save(fig, path)


def chart_sensitivity(rows: list[dict], path: str) -> str:
    """Headline effects under each card set (win-rate effects and points per wolf
    action)."""
    groups = [("win-rate effects (points)", [r for r in rows if r["unit"] == "rate"]),
              ("points per wolf action", [r for r in rows if r["unit"] == "points"])]
    groups = [(t, g) for t, g in groups if g]
    if not groups:
        return empty(path, "no sensitivity data")
    heights = [len(g) for _, g in groups]
    fig, axes = plt.subplots(1, len(groups), figsize=(6 * len(groups), 1.4 + 0.45 * max(heights)),
                             squeeze=False)
    for ax, (title, g) in zip(axes[0], groups, strict=True):
        y = np.arange(len(g))[::-1]
        scale = 100 if title.startswith("win") else 1
        for k, cs in enumerate(SETS):
            est, lo, hi, yy = [], [], [], []
            for yi, r in zip(y, g, strict=True):
                c = r["cells"].get(cs)
                if c is None or is_missing(c["est"]):
                    continue
                est.append(c["est"] * scale)
                lo.append(c["lo"] * scale)
                hi.append(c["hi"] * scale)
                yy.append(yi + (1 - k) * 0.22)
            if est:
                est, lo, hi = np.array(est), np.array(lo), np.array(hi)
                ax.errorbar(est, yy, xerr=[est - lo, hi - est], fmt="o", capsize=2,
                            color=COLORS[cs], label=cs)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(y, [f"{r['label']} ({r['players']}p)" for r in g], fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7)
    return save(fig, path)
