"""Little Town rule holes the engine records (issue 16, item 4): cube supplies that run out.

The batch loop records, per game (the same value in every seat row), ``supply_out_<type>``:
the round in which an action left that cube type's supply at 0 for the first time, 0 if it
never ran out (docs/games/little_town.md §12). While a supply is empty, gathering and building
outputs of that type give nothing and its 3-coin purchase is impossible (spec §3, A3).
"""

from __future__ import annotations

import polars as pl

from analysis.doc import Table, ci, count, num, pct
from analysis.holes import game_rates, not_recorded, seat_frame

__all__ = ["RESOURCES", "SUPPLY_COLS", "supply_stats", "supply_rule_holes"]

RESOURCES = ("wood", "stone", "fish", "wheat")
SUPPLY_COLS = [f"supply_out_{r}" for r in RESOURCES]
SCARCITY = ("designed scarcity, not a rule hole: the seed rules the empty supply explicitly "
            "(spec §3: a cube that cannot be taken is lost, not owed; the 3-coin purchase "
            "needs the cube in the supply)")
"""How the report reads an empty cube supply (issue 26: it was a "rule hole" with the fix
"add cubes")."""


def supply_stats(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per player count (ascending), over the games that recorded ``supply_out_*``: ``n``
    (games), ``count``/``rate``/``lo``/``hi`` (games in which some cube supply ran out, 95%
    Wilson), per type ``<type>`` (games in which it ran out) with ``<type>_lo``/``<type>_hi``,
    and ``first_round`` (mean round of the first supply to run out, over the games where one
    did; null when none did). An empty frame when no run recorded the columns."""
    f = seat_frame(seats, SUPPLY_COLS).filter(pl.col("seat") == 0)
    first = pl.min_horizontal([pl.when(pl.col(c) > 0).then(pl.col(c)) for c in SUPPLY_COLS])
    out = game_rates(f, pl.any_horizontal([pl.col(c) > 0 for c in SUPPLY_COLS]))
    for r, c in zip(RESOURCES, SUPPLY_COLS):
        t = game_rates(f, pl.col(c) > 0).select("players", pl.col("count").alias(r),
                                                pl.col("lo").alias(f"{r}_lo"),
                                                pl.col("hi").alias(f"{r}_hi"))
        out = out.join(t, on="players", how="left")
    fr = f.group_by("players").agg(first_round=first.drop_nulls().mean())
    return out.join(fr, on="players", how="left").sort("players")


def supply_rule_holes(ctx, seats: pl.LazyFrame) -> pl.DataFrame:
    """The section "Cube supply": per player count the games in which a cube supply ran out,
    with the rate of each type, read as designed scarcity (``SCARCITY``): the seed rules the
    empty supply, so it is no rule hole and has no fix. Runs played before the columns existed
    are said to lack them. Returns ``supply_stats``."""
    st = supply_stats(seats)
    ctx.doc.h(2, "Cube supply: games in which a supply ran out")
    if st.is_empty():
        ctx.doc.p(not_recorded(seats, SUPPLY_COLS, "how often a cube supply runs out"))
        return st
    ctx.doc.p(f"A supply that runs out is {SCARCITY}.")
    ctx.doc.p("Main runs, every game. A supply *ran out* when an action (and the forced moves "
              "after it) left no cube of that type in the supply; it may fill again as players "
              "pay. Rates are shares of games, with 95% Wilson intervals; *first round*: the "
              "mean round in which the first supply ran out, over the games where one did.")
    ctx.doc.table(Table(
        ["Players", "Games", "Some supply ran out"] + [k.capitalize() for k in RESOURCES]
        + ["First round"],
        [[str(r["players"]), count(r["n"]), f"{pct(r['rate'])} {ci(r['lo'], r['hi'])}"]
         + [f"{pct(r[k] / r['n'])} {ci(r[f'{k}_lo'], r[f'{k}_hi'])}" for k in RESOURCES]
         + [num(r["first_round"], 1) if r["first_round"] is not None else "-"]
         for r in st.iter_rows(named=True)],
        [False] + [True] * (3 + len(RESOURCES))))
    return st
