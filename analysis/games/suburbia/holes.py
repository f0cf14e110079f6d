"""Suburbia rule holes the engine records (issue 16, item 4): the market running dry, players
who cannot pay (bankruptcy and the population floor) and players with no action but PASS.

Seat detail columns (docs/games/suburbia.md §13): per game, the same in every seat row,
``market_dry_round`` (the round of the first turn that began with the pile empty and fewer than
7 tiles in the market, 0 = never) and ``market_min`` (the fewest tiles at the start of a turn);
per seat ``dry_turns``, ``pop_lost_unpaid`` (population lost to an Income it could not pay, spec
§5.2 step 2), ``debt_forgiven`` ($ left unpaid at population 0: the floor, §5.2 steps 2-3, D19)
and ``passes`` (PASS actions: nothing else was legal).
"""

from __future__ import annotations

import polars as pl

from analysis.doc import Table, count, num, pct_ci
from analysis.holes import game_rates, not_recorded, seat_frame, seat_rates

__all__ = ["HOLE_COLS", "hole_stats", "suburbia_rule_holes"]

HOLE_COLS = ["market_dry_round", "market_min", "dry_turns", "pop_lost_unpaid", "debt_forgiven",
             "passes"]


def hole_stats(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per player count (ascending; 2+ players), over the games that recorded every column of
    ``HOLE_COLS``: ``n`` (games), ``dry``/``dry_lo``/``dry_hi`` (games in which the market ran
    dry, 95% Wilson), ``market_min`` (the fewest tiles at a turn start over those games),
    ``dry_seat``/``_lo``/``_hi`` (seat-games with a turn begun on a dry market, clustered by
    game), ``unpaid``/``unpaid_seat`` (games / seat-games in which a seat lost population to
    unpaid income), ``unpaid_pop`` (mean population lost by such a seat), ``floor``/
    ``floor_seat`` (a seat had debt forgiven at population 0), ``passed`` (games with a PASS),
    each with ``_lo``/``_hi``; ``seat_n``: seat-games. Empty when no run recorded them."""
    f = seat_frame(seats, HOLE_COLS).filter(pl.col("players") >= 2)
    if f.is_empty():
        return pl.DataFrame()

    def games(flag: pl.Expr, name: str) -> pl.DataFrame:
        return game_rates(f, flag).select(
            "players", "n", pl.col("count").alias(name), pl.col("lo").alias(f"{name}_lo"),
            pl.col("hi").alias(f"{name}_hi"))

    def seat(flag: pl.Expr, name: str) -> pl.DataFrame:
        return seat_rates(f, flag).select(
            "players", pl.col("n").alias("seat_n"), pl.col("est").alias(name),
            pl.col("lo").alias(f"{name}_lo"), pl.col("hi").alias(f"{name}_hi"))

    out = games(pl.col("market_dry_round") > 0, "dry")
    for part in (games(pl.col("pop_lost_unpaid") > 0, "unpaid"),
                 games(pl.col("debt_forgiven") > 0, "floor"),
                 games(pl.col("passes") > 0, "passed")):
        out = out.join(part.drop("n"), on="players")
    for part in (seat(pl.col("dry_turns") > 0, "dry_seat"),
                 seat(pl.col("pop_lost_unpaid") > 0, "unpaid_seat"),
                 seat(pl.col("debt_forgiven") > 0, "floor_seat")):
        out = out.join(part.drop("seat_n") if "seat_n" in out.columns else part, on="players")
    extra = f.group_by("players").agg(
        market_min=pl.col("market_min").min(),
        unpaid_pop=pl.col("pop_lost_unpaid").filter(pl.col("pop_lost_unpaid") > 0).mean())
    return out.join(extra, on="players").sort("players")


def suburbia_rule_holes(ctx, seats: pl.LazyFrame) -> pl.DataFrame:
    """Rule-hole rows (``ctx.rule_hole``) per player count, found or not: the market ran dry,
    a seat at population 0 had debt forgiven, a seat could only PASS; and the section "Market,
    bankruptcy and the population floor" with the seat-game shares. Runs played before the
    columns existed are said to lack them (no row). Returns ``hole_stats``."""
    st = hole_stats(seats)
    ctx.doc.h(2, "Market, bankruptcy and the population floor")
    if st.is_empty():
        ctx.doc.p(not_recorded(seats, HOLE_COLS,
                               "how often the market runs dry and players cannot pay"))
        return st
    for r in st.iter_rows(named=True):
        p, n = r["players"], r["n"]
        ctx.rule_hole(
            f"{p} players: the market ran dry (a turn began with the pile empty and as few as "
            f"{r['market_min']} of 7 tiles on offer)" if r["dry"] else
            f"{p} players: the market ran dry", r["dry"], n, "games",
            "the 1 More Round tile came up late: the last turns choose from fewer tiles", None)
        ctx.rule_hole(
            f"{p} players: a player at population 0 could not pay and the debt was forgiven",
            r["floor"], n, "games",
            "at the population floor an unpaid Income or Reputation debt costs nothing more "
            "(spec §5.2 steps 2-3, D19): a negative Income stops hurting", None)
        ctx.rule_hole(f"{p} players: a player had no legal action but PASS", r["passed"], n,
                      "games", "a turn in which the player could do nothing", None)
    ctx.doc.p("Main runs, 2+ players, every game. *Market ran dry*: a turn began with the pile "
              "empty and fewer than 7 tiles in the market (the 1 More Round tile drawn late in "
              "its block). *Bankruptcy*: a seat could not pay its negative Income and lost "
              "population instead (spec §5.2 step 2). *Floor*: a seat at population 0 had debt "
              "forgiven. Games: 95% Wilson intervals; seat-games: 95% intervals clustered by "
              "game.")
    ctx.doc.table(Table(
        ["Players", "Games", "Market ran dry (games)", "Seat-games with a dry turn",
         "Bankruptcy (games)", "Bankrupt seat-games", "Population lost per bankrupt seat",
         "Floor (games)", "Floor (seat-games)"],
        [[str(r["players"]), count(r["n"]),
          pct_ci(r["dry"] / r["n"], r["dry_lo"], r["dry_hi"]),
          pct_ci(r["dry_seat"], r["dry_seat_lo"], r["dry_seat_hi"]),
          pct_ci(r["unpaid"] / r["n"], r["unpaid_lo"], r["unpaid_hi"]),
          pct_ci(r["unpaid_seat"], r["unpaid_seat_lo"], r["unpaid_seat_hi"]),
          num(r["unpaid_pop"], 2) if r["unpaid_pop"] is not None else "-",
          pct_ci(r["floor"] / r["n"], r["floor_lo"], r["floor_hi"]),
          pct_ci(r["floor_seat"], r["floor_seat_lo"], r["floor_seat_hi"])]
         for r in st.iter_rows(named=True)],
        [False] + [True] * 8))
    return st
