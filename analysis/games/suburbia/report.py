"""Suburbia report extension: ``extend_report`` adds the sections and headline answers in
report order (see the package docstring)."""

from __future__ import annotations

import polars as pl

from analysis import queries as q
from analysis.games.suburbia.data import MAIN, NAME_OF
from analysis.games.suburbia.holes import suburbia_rule_holes
from analysis.games.suburbia.queries import (
    mixes,
    roles_in,
    score_components,
    tile_market,
    with_role,
)
from analysis.games.suburbia.sections import (
    archetype_section,
    components_section,
    first_seat_headline,
    goal_section,
    offset_section,
    runs_section,
    tile_section,
    tips_section,
)

__all__ = ["extend_report", "report_rule_holes"]


def extend_report(ctx) -> None:
    """Add the Suburbia sections and headline answers to the report (see module doc).
    Solo games (1 player) are left out: a solo game has no opponent, so no win rate."""
    solo = q.collect(ctx.games.filter(pl.col("players") == 1).select(pl.len())).item()
    seats = with_role(ctx.seats.filter(pl.col("players") >= 2), ctx.roles)
    games = with_role(ctx.games.filter(pl.col("players") >= 2), ctx.roles)
    roles = roles_in(seats)
    runs_section(ctx, roles)
    if solo:
        ctx.doc.p(f"{solo:,} solo games (1 player) are left out of every Suburbia section "
                  "below: a solo game has no opponent, so it has a score but no win rate.")
    first_seat_headline(ctx, seats)
    tile_section(ctx, seats)
    goal_section(ctx, seats)
    comp = score_components(mixes(seats))
    tips_section(ctx, seats, comp)
    offset_section(ctx, seats, games)
    archetype_section(ctx, seats, roles)
    components_section(ctx, seats, comp)
    report_rule_holes(ctx, games, seats)


def report_rule_holes(ctx, games, seats) -> None:
    """Every Suburbia rule-hole check (issue 16), found or not, over the main runs (2+
    players): games stopped at the length limit, tiles offered but never placed, goals in
    play never achieved; the market running dry, debt forgiven at population 0 and PASS
    (``analysis.games.suburbia.holes``, from the columns the engine records since issue 16)."""
    g = games.filter(pl.col("role") == MAIN)
    s = seats.filter(pl.col("role") == MAIN)
    n, lim = q.collect(g.select(pl.len(), (~q.finished_game()).sum())).row(0)
    ctx.rule_hole("the game stopped at the length limit", int(lim), int(n),
                  "games", "a game that never reaches its last round", None)
    mk = tile_market(s)
    per = mk.filter(pl.col("offered").is_not_null()).group_by("tile").agg(
        pl.col("offered").sum(), pl.col("placers").sum()).filter(pl.col("offered") > 0)
    never = sorted(per.filter(pl.col("placers") == 0)["tile"].to_list())
    ctx.rule_hole("tiles offered in the market but never placed" + (
        f" ({', '.join(NAME_OF.get(t, t) for t in never)})" if never else ""),
        len(never), per.height, "tiles offered",
        "a tile no seat ever buys when offered adds nothing but a dead market slot", None)
    names = [c for c in s.collect_schema().names() if c.startswith("goal_")]
    if names:
        agg = q.collect(s.filter(q.finished_seat()).select(
            *[(pl.col(c) >= 0).sum().alias(f"in_{c}") for c in names],
            *[(pl.col(c) == 1).sum().alias(f"ok_{c}") for c in names])).row(0, named=True)
        in_play = [c for c in names if agg[f"in_{c}"] > 0]
        never = [c[len("goal_"):] for c in in_play if agg[f"ok_{c}"] == 0]
        ctx.rule_hole("goals in play that no seat ever achieved" + (
            f" ({', '.join(never)})" if never else ""), len(never), len(in_play), "goals in play",
            "a goal that is never achieved cannot change a result: its condition may be out "
            "of reach under these rules", None)
    suburbia_rule_holes(ctx, s)
