"""Suburbia report extension: ``extend_report`` adds the sections and headline answers in
report order (see the package docstring)."""

from __future__ import annotations

import polars as pl

from analysis import queries as q
from analysis.games.suburbia.queries import mixes, roles_in, score_components, with_role
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

__all__ = ["extend_report"]


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
