"""Suburbia charts (one PNG each, ``analysis.charts.save``)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from analysis.charts import empty, save  # noqa: E402
from analysis.games.suburbia.data import DENY, GOALS, MAIN, MIX_LABELS, NAME_OF  # noqa: E402

__all__ = ["tile_chart", "market_chart", "goal_chart", "tips_chart", "archetype_chart",
           "components_chart"]


_STACK_COLOURS = {"basic": "#8C8C8C", "A": "#4C72B0", "B": "#DD8452", "C": "#55A868"}


_P_MARK = {2: "o", 3: "s", 4: "^"}


def tile_chart(summ: pl.DataFrame, pooled: pl.DataFrame, path: str) -> str:
    """Tile balance: per player count, the bot-adjusted IWD with 95% interval, tiles sorted by
    the pooled value, coloured by stack."""
    main = summ.filter((pl.col("role") == MAIN) & pl.col("adj").is_not_null())
    have = set(main["tile"].to_list())
    order = [t for t in pooled["tile"].to_list() if t in have][::-1]
    if not order:
        return empty(path, "no tile placements")
    players = sorted(main["players"].unique().to_list())
    fig, axes = plt.subplots(1, len(players), figsize=(4.2 * len(players) + 1.5,
                                                       2 + 0.2 * len(order)),
                             sharey=True, squeeze=False)
    y = {t: i for i, t in enumerate(order)}
    for ax, p in zip(axes[0], players, strict=True):
        g = main.filter(pl.col("players") == p)
        for r in g.iter_rows(named=True):
            c = _STACK_COLOURS[r["stack"]]
            yy = y[r["tile"]]
            ax.plot([r["adj_lo"] * 100, r["adj_hi"] * 100], [yy, yy], color=c, lw=1.4)
            ax.plot(r["adj"] * 100, yy, "o", color=c, ms=3.5)
        ax.axvline(0, color="grey", lw=1)
        ax.set_title(f"{p} players", fontsize=9)
        ax.set_xlabel("IWD, bot-adjusted (points)", fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0][0].set_yticks(range(len(order)), [NAME_OF[t] for t in order], fontsize=7)
    handles = [plt.Line2D([], [], color=c, marker="o", lw=1.4, label=f"stack {s}")
               for s, c in _STACK_COLOURS.items()]
    axes[0][-1].legend(handles=handles, fontsize=7, loc="lower right")
    fig.suptitle("Tile balance: win rate of seats that placed the tile minus the other seats "
                 "of the same games (same bot), 95% intervals", fontsize=9)
    return save(fig, path)


def market_chart(mk: pl.DataFrame, path: str) -> str:
    """Per tile: share of the games it was offered in in which some seat placed it."""
    main = mk.filter((pl.col("role") == MAIN) & pl.col("take_rate").is_not_null())
    if main.is_empty():
        return empty(path, "no market data")
    order = (main.group_by("tile").agg(pl.col("take_rate").mean()).sort("take_rate")
             ["tile"].to_list())
    y = {t: i for i, t in enumerate(order)}
    fig, ax = plt.subplots(figsize=(7.5, 2 + 0.19 * len(order)))
    for (p,), g in main.group_by("players", maintain_order=True):
        for r in g.iter_rows(named=True):
            ax.plot(r["take_rate"] * 100, y[r["tile"]], _P_MARK.get(int(p), "o"),
                    color=_STACK_COLOURS[r["stack"]], ms=4, alpha=0.8)
    ax.set_yticks(range(len(order)), [NAME_OF[t] for t in order], fontsize=7)
    ax.set_xlabel("placed by some seat, % of the games in which it was offered")
    handles = [plt.Line2D([], [], color="black", marker=m, ls="", label=f"{p} players")
               for p, m in _P_MARK.items()]
    handles += [plt.Line2D([], [], color=c, marker="s", ls="", label=f"stack {s}")
                for s, c in _STACK_COLOURS.items() if s != "basic"]
    ax.legend(handles=handles, fontsize=7, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    return save(fig, path)


def goal_chart(gs: pl.DataFrame, path: str) -> str:
    """Goal balance: bot-adjusted win-rate difference of achievers, public and private, per
    player count."""
    main = gs.filter((pl.col("role") == MAIN) & pl.col("adj").is_not_null())
    if main.is_empty():
        return empty(path, "no goals in play")
    kinds = [k for k in ("public", "private") if k in set(main["kind"].to_list())]
    fig, axes = plt.subplots(1, len(kinds), figsize=(6.2 * len(kinds), 6.5), squeeze=False)
    names = {s: n for _, n, s, _ in GOALS}
    for ax, kind in zip(axes[0], kinds, strict=True):
        g = main.filter(pl.col("kind") == kind)
        order = g.group_by("goal").agg(pl.col("adj").mean()).sort("adj")["goal"].to_list()
        y = {t: i for i, t in enumerate(order)}
        for r in g.iter_rows(named=True):
            yy = y[r["goal"]] + (int(r["players"]) - 3) * 0.22
            ax.plot([r["adj_lo"] * 100, r["adj_hi"] * 100], [yy, yy], color="#4C72B0", lw=1.2)
            ax.plot(r["adj"] * 100, yy, _P_MARK.get(int(r["players"]), "o"), color="#4C72B0",
                    ms=4)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(range(len(order)), [names[t] for t in order], fontsize=8)
        ax.set_xlabel("win rate achievers - other in-play seats, bot-adjusted (points)",
                      fontsize=8)
        ax.set_title(f"{kind} goals", fontsize=9)
    handles = [plt.Line2D([], [], color="#4C72B0", marker=m, ls="", label=f"{p} players")
               for p, m in _P_MARK.items()]
    axes[0][-1].legend(handles=handles, fontsize=7, loc="lower right")
    return save(fig, path)


def tips_chart(tips: pl.DataFrame, path: str, labels: dict | None = None) -> str:
    """Forest plot of the tip tests: every mix and player count, stratified differences."""
    d = tips.filter(pl.col("diff").is_not_null()).sort("test", "role", "players")
    if d.is_empty():
        return empty(path, "no tip tests")
    names = (labels or MIX_LABELS)
    names = {k: v.replace("`", "") for k, v in names.items()}
    labels, ys, k = [], [], 0
    fig, ax = plt.subplots(figsize=(9, 1.5 + 0.22 * len(d)))
    colours = {MAIN: "#4C72B0", DENY: "#C44E52", "mix:archetypes": "#55A868"}
    for r in d.iter_rows(named=True):
        c = colours.get(r["role"], "#8C8C8C")
        lw = 2.2 if r["players"] == "all" else 1.0
        ax.plot([r["lo"] * 100, r["hi"] * 100], [k, k], color=c, lw=lw)
        ax.plot(r["diff"] * 100, k, "D" if r["players"] == "all" else "o", color=c, ms=4)
        p = "all players" if r["players"] == "all" else f"{r['players']}p"
        labels.append(f"{r['test']} [{names.get(r['role'], r['role'])}, {p}]")
        ys.append(k)
        k += 1
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(ys, labels, fontsize=6.5)
    ax.invert_yaxis()
    ax.set_xlabel("win-rate difference (points), stratified by bot (and player count)")
    return save(fig, path)


def archetype_chart(prof: pl.DataFrame, path: str, labels: dict | None = None) -> str:
    """Win rate of each bot per player count with Wilson intervals: main pool (filled) and the
    archetype-only mix (hollow); dashed = parity."""
    if prof.is_empty():
        return empty(path, "no strategies")
    names = sorted(prof["strategy"].unique().to_list())
    players = sorted(prof["players"].unique().to_list())
    role_names = {k: v.replace("`", "") for k, v in (labels or MIX_LABELS).items()}
    fig, axes = plt.subplots(1, len(players), figsize=(4.3 * len(players), 4.2),
                             sharey=True, squeeze=False)
    for ax, p in zip(axes[0], players, strict=True):
        for j, (role, fill) in enumerate(((MAIN, True), ("mix:archetypes", False),
                                          (DENY, False))):
            g = prof.filter((pl.col("role") == role) & (pl.col("players") == p))
            for r in g.iter_rows(named=True):
                yy = names.index(r["strategy"]) + (j - 1) * 0.2
                c = ["#4C72B0", "#55A868", "#C44E52"][j]
                ax.plot([r["lo"] * 100, r["hi"] * 100], [yy, yy], color=c, lw=1.2)
                ax.plot(r["win_rate"] * 100, yy, "o", color=c, ms=5,
                        mfc=c if fill else "white")
        ax.axvline(100 / p, ls="--", color="grey", lw=1)
        ax.set_title(f"{p} players (parity {100 / p:.3g}%)", fontsize=9)
        ax.set_xlabel("win rate (%)")
    axes[0][0].set_yticks(range(len(names)), names, fontsize=8)
    handles = [plt.Line2D([], [], color=c, marker="o", mfc=c if f else "white", ls="",
                          label=role_names.get(r, r))
               for r, c, f in ((MAIN, "#4C72B0", True), ("mix:archetypes", "#55A868", False),
                               (DENY, "#C44E52", False))]
    axes[0][-1].legend(handles=handles, fontsize=7, loc="lower right")
    return save(fig, path)


def components_chart(comp: pl.DataFrame, pops: pl.DataFrame, path: str) -> str:
    """Left: mean population of winners and other seats split into track, goals and money,
    per player count (main). Right: final population histograms, winners vs others."""
    main = comp.filter(pl.col("role") == MAIN)
    if main.is_empty():
        return empty(path, "no finished games")
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.3))
    labels, x = [], 0
    for r in main.sort("players", "winner", descending=[False, True]).iter_rows(named=True):
        b = 0.0
        for c, col in (("track_pop", "#4C72B0"), ("goals_pop", "#DD8452"),
                       ("money_pop", "#55A868")):
            a1.bar(x, r[c], bottom=b, color=col, width=0.7,
                   label=c.replace("_pop", "") if x == 0 else None)
            b += r[c]
        labels.append(f"{r['players']}p {'winners' if r['winner'] else 'others'}")
        x += 1
    a1.set_xticks(range(x), labels, rotation=30, ha="right", fontsize=8)
    a1.set_ylabel("mean final population")
    a1.legend(fontsize=8)
    for (p, w), g in pops.group_by("players", "winner", maintain_order=True):
        v = g["score"].to_numpy().astype(float)
        c = g["count"].to_numpy().astype(float)
        edges = np.arange(0, max(v.max() + 10, 20), 5)
        h, e = np.histogram(v, bins=edges, weights=c)
        a2.step(e[:-1], h / h.sum(), where="post",
                ls="-" if w else "--", color={2: "#4C72B0", 3: "#DD8452", 4: "#55A868"}
                .get(int(p), "grey"), label=f"{p}p {'winners' if w else 'others'}")
    a2.set_xlabel("final population (bins of 5)")
    a2.set_ylabel("share of seat-games")
    a2.legend(fontsize=7)
    return save(fig, path)
