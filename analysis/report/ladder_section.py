"""The rating ladder of a report (issue 13): Bradley-Terry ratings of the bots that played the
report's main runs, per player count, with 95% intervals, fitted from those runs' own games (no
extra game is played).

Every main run seats several bots (a pool or rotated seats), so its finished games already hold
comparisons between them: each pair of seats of a finished game with two different bots is one
comparison, from the game's ranks (the better rank wins; a shared rank counts half). The fit is
``analysis.results.ladder.fit_ratings`` (the ``boardsim ladder`` fit: a binomial GLM with sum-to-zero
ratings and seat effects, one virtual drawn game per pair of bots, covariance clustered); here
the clusters are the games (the pairs of one game are not independent). Games are aggregated by
outcome before the fit (bots per seat and ranks per seat, with their count: the query collects
no per-game table), and each distinct outcome is fitted as that many identical games
(``weight``), which gives the same estimates and the same clustered covariance as one row set per
game. Pairs of two seats of the same bot (a pool can seat a bot twice) compare nothing and are
left out. Games stopped at the length limit (or in a Go Town deadlock) have no ranks: they are
left out of the ratings and counted apart, per player count and per bot.

Unlike ``boardsim ladder``, the seatings are those of the main runs (a pool draws every seat at
random), not every bot against every other on common seeds, and the bots are those of the runs:
when ``random`` is not among them the section says so, and the ratings are against the average
bot of the mix. Orderings are stated only for pairs whose 95% intervals do not overlap
(``analysis.report.wording.ranking_text``).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import numpy as np
import polars as pl

from analysis import queries as q
from analysis.doc import Table, count
from analysis.report.wording import ranking_text
from analysis.results.ladder import ELO, Ratings, fit_ratings, pairwise

__all__ = ["LadderFit", "ladder_fits", "ladder_section", "ladder_chart", "outcome_counts"]

CHART = "ladder.png"
"""The file name of the section's chart in the report folder."""


def outcome_counts(seats: pl.LazyFrame) -> pl.DataFrame:
    """The games of ``seats`` (the seats table of ``analysis.queries``, one or more runs)
    aggregated by outcome: one row per player count, bots per seat and ranks per seat, with
    columns ``players`` (Int64), ``bots`` (Utf8, the seats' strategies comma-joined in seat
    order), ``ranks`` (Utf8, the seats' ranks comma-joined, 0 for a seat without a rank: a game
    stopped at the length limit) and ``games`` (Int64, how many games ended so). Only
    aggregates are collected (game slices, ``analysis.queries.by_game_slices``)."""
    keys = ["players", "game"] + (["run"] if "run" in seats.collect_schema().names() else [])

    def query(lf: pl.LazyFrame) -> pl.LazyFrame:
        per_game = (lf.select(*keys, "seat", "strategy",
                              pl.col("rank").fill_null(0).cast(pl.Int64).alias("rank"))
                    .group_by(keys)
                    .agg(pl.col("strategy").sort_by("seat").str.join(",").alias("bots"),
                         pl.col("rank").sort_by("seat").cast(pl.Utf8).str.join(",")
                         .alias("ranks")))
        return (per_game.group_by("players", "bots", "ranks")
                .agg(pl.len().cast(pl.Int64).alias("games")))

    parts = q.by_game_slices(seats, query)
    return (parts.group_by("players", "bots", "ranks").agg(pl.col("games").sum())
            .with_columns(pl.col("players").cast(pl.Int64))
            .sort("players", "bots", "ranks"))


@dataclass
class LadderFit:
    """The ladder of one player count: ``names`` (the bots, alphabetical), ``ratings``
    (``analysis.results.ladder.Ratings``, or None when fewer than two bots or no comparison),
    ``games`` (games of the main runs), ``limit_games`` (stopped at the length limit: left
    out), ``rated_games`` (finished games with a comparison of two different bots),
    ``mirror_games`` (finished games with one bot in every seat: no comparison),
    ``limit_seats`` (bot -> seat-games in limit games), ``seat_games`` (bot -> seat-games)."""

    players: int
    names: list[str]
    ratings: Ratings | None
    games: int
    limit_games: int
    rated_games: int
    mirror_games: int
    limit_seats: dict[str, int]
    seat_games: dict[str, int]


def _fit_one(p: int, g: pl.DataFrame) -> LadderFit:
    """The ladder of player count ``p`` from its outcome counts ``g`` (rows of
    ``outcome_counts``)."""
    bots_txt = g["bots"].to_list()
    seats_bots = [b.split(",") for b in bots_txt]
    ranks = np.array([[int(x) for x in r.split(",")] for r in g["ranks"].to_list()], np.int64)
    n = g["games"].to_numpy().astype(np.int64)
    names = sorted({b for row in seats_bots for b in row})
    idx = {b: i for i, b in enumerate(names)}
    bots = np.array([[idx[b] for b in row] for row in seats_bots], np.int64).reshape(len(n), p)
    limit = (ranks <= 0).any(axis=1)
    mirror = ~limit & (bots == bots[:, :1]).all(axis=1)
    seat_games = {b: int((n[:, None] * (bots == i)).sum()) for b, i in idx.items()}
    limit_seats = {b: int((n[limit][:, None] * (bots[limit] == i)).sum()) for b, i in idx.items()}
    fit = LadderFit(p, names, None, int(n.sum()), int(n[limit].sum()),
                    int(n[~limit & ~mirror].sum()), int(n[mirror].sum()), limit_seats, seat_games)
    if len(names) < 2:
        return fit
    pairs = pairwise(bots, ranks, np.arange(len(n), dtype=np.int64))
    weight = n.astype(np.float64)[pairs["cluster"].to_numpy()]
    pairs = (pairs.with_columns(weight=pl.Series(weight))
             .filter(pl.col("a") != pl.col("b")))
    if pairs.height == 0:
        return fit
    fit.ratings = fit_ratings(pairs, names, p)
    return fit


def ladder_fits(seats: pl.LazyFrame) -> list[LadderFit]:
    """One ``LadderFit`` per player count of ``seats`` (the main runs' seats table), in
    increasing player count."""
    oc = outcome_counts(seats)
    return [_fit_one(int(p), g) for (p,), g in oc.group_by("players", maintain_order=True)]


def ladder_chart(fits: list[LadderFit], path: str) -> str:
    """``ladder.png``: one panel per player count, each bot's rating (logits against the
    average bot of the mix) as a dot with its 95% interval, best at the top. Returns
    ``path``."""
    from analysis import charts

    rated = [f for f in fits if f.ratings is not None]
    if not rated:
        return charts.empty(path, "no ladder: fewer than two bots, or no finished game")
    height = max(2.4, 0.45 * max(f.ratings.table.height for f in rated) + 1.3)
    fig, axes = charts.grid(len(rated), width=4.6, height=height)
    for ax, f in zip(axes, rated):
        t = f.ratings.table
        y = np.arange(t.height)[::-1]
        v, err = charts.error_bars(t["rating"], t["lo"], t["hi"])
        ax.errorbar(v, y, xerr=err, fmt="o", color=charts.BAR, ecolor="black", capsize=4,
                    lw=1.2, ms=6)
        ax.axvline(0, color="grey", lw=1, ls="--")
        ax.set_yticks(y, [str(s).replace("$", r"\$") for s in t["strategy"].to_list()],
                      fontsize=8)
        ax.set_ylim(-0.6, t.height - 0.4)
        ax.set_xlabel("rating, logits against the average bot (95% interval)", fontsize=8)
        ax.set_title(f"{f.players} players ({f.rated_games:,} rated games)", fontsize=9)
    return charts.save(fig, path)


def _signed(x: float) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{x:+.2f}"


def ladder_section(doc, seats: pl.LazyFrame, out_dir: str, paths: dict[str, str],
                   mix: str = "") -> list[LadderFit]:
    """Append the section "Rating ladder" to ``doc``: per player count, the bots' ratings with
    95% intervals (table and ``ladder.png``, added to ``paths`` as ``"ladder"``), the ordering
    the intervals support, the games left out, and a note when ``random`` did not play.
    ``seats``: the main runs' seats table; ``mix``: the main runs' bot mix as the report names
    it. Returns the fits."""
    fits = ladder_fits(seats)
    doc.h(2, "Rating ladder")
    doc.p("Bradley-Terry ratings of the bots of the main runs, fitted from those runs' own "
          "finished games (no game is played for it): each pair of seats of a finished game "
          "with two different bots is one comparison, from the ranks (the better rank wins; a "
          "shared rank counts half), and the model is P(a in seat s beats b in seat t) = "
          "logistic(rating a - rating b + seat s - seat t), fitted as a binomial GLM "
          "(statsmodels) with ratings summing to zero: a rating is the log-odds of beating the "
          f"average bot of the mix (Elo = rating x {ELO:.1f}). 95% Wald intervals from a "
          "covariance clustered by game; one virtual drawn game per pair of bots keeps every "
          "rating finite. Unfinished games (stopped at the length limit or in a rules "
          "deadlock) have no ranks and are left out (counted below); so are pairs of two seats "
          "of the same bot. An ordering is stated "
          "only where two intervals do not overlap. The seatings are the main runs' own (a "
          "pool draws every seat at random); `boardsim ladder GAME` plays every bot against "
          "every other, seats rotated, on common seeds.")
    names = sorted({n for f in fits for n in f.names})
    if "random" not in names:
        doc.p("**`random` is not on this ladder:** it did not play in the main runs"
              + (f" ({mix})" if mix else "") + ", so the ratings compare the scripted bots "
              "with one another, not with random play; `boardsim ladder GAME` rates them "
              "against `random` too (docs/bots.md lists those ratings).")
    rows = []
    for f in fits:
        r = f.ratings
        if r is None:
            why = ("one bot only" if len(f.names) < 2 else "no finished game with two "
                   "different bots")
            doc.p(f"**{f.players} players:** no ladder ({why}; {f.games:,} games).")
            continue
        t = r.table
        items = [(f"`{s}`", f"{_signed(v)} [{_signed(lo)}, {_signed(hi)}]", lo, hi)
                 for s, v, lo, hi in
                 t.select("strategy", "rating", "lo", "hi").iter_rows()]
        left = []
        if f.limit_games:
            left.append(f"{f.limit_games:,} unfinished (stopped at the length limit or in a "
                        f"deadlock: {f.limit_games / f.games:.2%}; seat-games per bot: "
                        + ", ".join(f"`{b}` {n:,}" for b, n in f.limit_seats.items() if n)
                        + ")")
        if f.mirror_games:
            left.append(f"{f.mirror_games:,} finished with one bot in every seat (no "
                        "comparison)")
        doc.p(f"**{f.players} players:** {ranking_text(items)}. {f.games:,} games: "
              f"{f.rated_games:,} rated ({r.comparisons:,} comparisons in {r.clusters:,} "
              "games)" + ("; left out: " + "; ".join(left) if left else "; none left out")
              + ".")
        for row in t.iter_rows(named=True):
            rows.append([str(f.players), str(row["position"]), f"`{row['strategy']}`",
                         _signed(row["rating"]), f"[{_signed(row['lo'])}, {_signed(row['hi'])}]",
                         f"{row['elo']:+.0f}", count(row["comparisons"]),
                         f"{row['score']:.3f}", count(f.seat_games[row["strategy"]]),
                         count(f.limit_seats[row["strategy"]])])
    if rows:
        doc.table(Table(["Players", "#", "Bot", "Rating (logits)", "95% CI (clustered)",
                         "Elo", "Comparisons", "Score", "Seat-games", "At the limit"], rows,
                        [True, True, False, True, True, True, True, True, True, True]))
        doc.p("Score: the share of its comparisons the bot won (ties half). An interval is the "
              "rating's against the average bot, including the uncertainty of that average. "
              "Seat-games: all of the bot's seats in the main runs; at the limit: those in "
              "unfinished games (left out).")
    paths["ladder"] = ladder_chart(fits, os.path.join(out_dir, CHART))
    doc.img(CHART, "Rating ladder: each bot's rating with its 95% interval, per player count")
    return fits
