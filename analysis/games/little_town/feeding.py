"""Little Town: feeding, the score breakdown, scores per bot and the coin bank (issue 16: the
game's main tension had no section).

Reads the seat detail of the main runs: ``unfed`` (workers left unfed over the game),
``food_bought`` (food cubes bought at feeding), ``vp_build`` ... ``vp_unfed`` (the score by
source; ``vp_unfed`` is negative), ``coins_end`` and ``bank_min`` (the coin bank's lowest level
in the game, the same for every seat).
"""

from __future__ import annotations

import polars as pl

from analysis import queries as q
from analysis.doc import Doc, Table, count, num, pct_ci

__all__ = ["VP_SOURCES", "feeding_stats", "score_breakdown", "bot_scores", "bank_dry",
           "feeding_section"]

VP_SOURCES = ("vp_build", "vp_act", "vp_goal", "vp_cathedral", "vp_castle", "vp_watchtower",
              "vp_coins", "vp_unfed")
"""The score sources of the seat detail, in the order of the score sheet."""


SUPPLY_NOTE = ("How often the wood, stone, fish or wheat supply runs out is in the section "
               "\"Cube supply\" (the engine records the round each supply first ran out); the "
               "coin bank is checked with the rule holes.")
"""What the Feeding section says of the cube supplies (issue 26: no longer "not checked")."""


def feeding_stats(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per player count over seats of finished games: n (seat-games), starved (seat-games with
    at least one unfed worker) with starve_rate/lo/hi (Wilson 95%), unfed_mean (workers left
    unfed per seat-game), vp_lost (mean points lost to unfed workers, >= 0) and food_bought
    (mean food cubes bought per seat-game). Empty without an ``unfed`` column."""
    if "unfed" not in seats.collect_schema().names():
        return pl.DataFrame()
    df = q.collect(seats.filter(q.finished_seat()).group_by("players").agg(
        n=pl.len().cast(pl.Int64), starved=(pl.col("unfed") > 0).sum().cast(pl.Int64),
        unfed_mean=pl.col("unfed").cast(pl.Float64).mean(),
        vp_lost=-pl.col("vp_unfed").cast(pl.Float64).mean(),
        food_bought=pl.col("food_bought").cast(pl.Float64).mean())).sort("players")
    return q.with_wilson(df, "starved", "n", ("starve_rate", "starve_lo", "starve_hi"))


def score_breakdown(seats: pl.LazyFrame) -> pl.DataFrame:
    """Mean points per source (``VP_SOURCES``) and the mean score, per player count and
    winner (win share > 0) or not, seats of finished games. Columns players, winner, n, score,
    and one per source present."""
    names = seats.collect_schema().names()
    cols = [c for c in VP_SOURCES if c in names]
    return q.collect(seats.filter(q.finished_seat()).with_columns(
        winner=pl.col("win_share") > 0).group_by("players", "winner").agg(
        n=pl.len().cast(pl.Int64), score=pl.col("score").cast(pl.Float64).mean(),
        **{c: pl.col(c).cast(pl.Float64).mean() for c in cols})).sort(
        "players", "winner", descending=[False, True])


def bot_scores(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per player count and bot, seats of finished games: n, mean, sd, median score and the
    starvation rate (seat-games with an unfed worker)."""
    names = seats.collect_schema().names()
    starve = (pl.col("unfed") > 0).mean() if "unfed" in names else pl.lit(None, pl.Float64)
    return q.collect(seats.filter(q.finished_seat()).group_by("players", "strategy").agg(
        n=pl.len().cast(pl.Int64), mean=pl.col("score").cast(pl.Float64).mean(),
        sd=pl.col("score").cast(pl.Float64).std(),
        median=pl.col("score").cast(pl.Float64).median(),
        starve=starve)).sort("players", "mean", descending=[False, True])


def bank_dry(games: pl.LazyFrame, seats: pl.LazyFrame) -> tuple[int, int]:
    """(games whose coin bank ran out, i.e. ``bank_min`` reached 0, games) over all games of
    the frames given; (0, n) without a ``bank_min`` column."""
    n = int(q.collect(games.select(pl.len())).item())
    if "bank_min" not in seats.collect_schema().names():
        return 0, n
    dry = q.collect(seats.group_by("run", "game").agg(b=pl.col("bank_min").min()).select(
        (pl.col("b") <= 0).sum())).item()
    return int(dry or 0), n


def feeding_section(doc: Doc, seats: pl.LazyFrame) -> pl.DataFrame:
    """The "Feeding, score sources and scores per bot" section (main runs); returns the
    feeding table."""
    doc.h(2, "Feeding, score sources and scores per bot")
    f = feeding_stats(seats)
    doc.p("Main runs, seats of finished games. At the end of each round every worker eats one "
          "food (fish or wheat, or one bought for coins); an unfed worker costs points. "
          "*Starved* = seat-games with at least one unfed worker (95% Wilson interval).")
    if f.is_empty():
        doc.p("The runs have no `unfed` seat detail.")
        return f
    doc.table(Table(
        ["Players", "n (seat-games)", "Starved [95% CI]", "Unfed workers per seat-game",
         "Points lost to hunger", "Food bought per seat-game"],
        [[str(r["players"]), count(r["n"]),
          pct_ci(r["starve_rate"], r["starve_lo"], r["starve_hi"]), num(r["unfed_mean"], 2),
          num(r["vp_lost"], 2), num(r["food_bought"], 2)] for r in f.iter_rows(named=True)],
        [True] * 6))
    sb = score_breakdown(seats)
    cols = [c for c in VP_SOURCES if c in sb.columns]
    doc.p("Where the points come from: mean points per source, winners against the other "
          "seats (the sources add up to the score).")
    doc.table(Table(
        ["Players", "Seats", "n", "Score", *[c[3:].replace("_", " ") for c in cols]],
        [[str(r["players"]), "winners" if r["winner"] else "others", count(r["n"]),
          num(r["score"], 1), *[num(r[c], 2) for c in cols]] for r in sb.iter_rows(named=True)],
        [True, False, True, True] + [True] * len(cols)))
    bs = bot_scores(seats)
    doc.p("Scores per bot (seats of finished games) and how often the bot lets a worker "
          "starve.")
    doc.table(Table(
        ["Players", "Bot", "n (seat-games)", "Mean score", "SD", "Median", "Starved"],
        [[str(r["players"]), f"`{r['strategy']}`", count(r["n"]), num(r["mean"], 2),
          num(r["sd"], 2), num(r["median"], 1),
          "n/a" if r["starve"] is None else f"{r['starve'] * 100:.1f}%"]
         for r in bs.iter_rows(named=True)],
        [True, False, True, True, True, True, True]))
    doc.p(SUPPLY_NOTE)
    return f
