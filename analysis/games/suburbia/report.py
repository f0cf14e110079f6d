"""Suburbia report extension: ``extend_report`` adds the sections and headline answers in
report order (see the package docstring)."""

from __future__ import annotations

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
    """Add the Suburbia sections and headline answers to the report (see module doc)."""
    seats = with_role(ctx.seats, ctx.roles)
    games = with_role(ctx.games, ctx.roles)
    roles = roles_in(seats)
    runs_section(ctx, roles)
    first_seat_headline(ctx, seats)
    tile_section(ctx, seats)
    goal_section(ctx, seats)
    comp = score_components(mixes(seats))
    tips_section(ctx, seats, comp)
    offset_section(ctx, seats, games)
    archetype_section(ctx, seats, roles)
    components_section(ctx, seats, comp)
