"""Suburbia report sections (issue 6, section 3): tiles, goals, the rulebook's tips, the bot
archetypes, score components and the red-line offset option.

Runs are told apart by the role ``sim.suburbia.game.SuburbiaGame.default_plan`` gives them:

* ``main``: the seven-bot pool at 2, 3 and 4 players (all headline numbers);
* ``tip:deny``: greedy and denier only (the same bot but for the discard rule): the
  hate-discarding tip, and a second bot mix;
* ``mix:archetypes``: the three scripted archetypes only (a third bot mix);
* ``sweep:red_line_offset=K``: 3 players, the main pool and seed, option ``red_line_offset=K``.

A finding is marked **robust** when it passes Benjamini-Hochberg control (q < 0.05) in the
main mix and its difference has the same sign in at least one other bot mix (so in at least two
mixes). Every query works on ``ReportContext.seats``/``games`` (lazy) and returns a small
DataFrame; the numbers are proportions in [0, 1] as in ``analysis.queries``.

Seat detail columns (docs/games/suburbia.md §13): ``tile_<slug>`` placed (0/1), ``turn_<slug>``
round first placed (0 = never), ``invest_<slug>``, ``offered_<slug>`` (same for every seat of a
game), ``goal_<slug>`` (1 scored, 0 in play and not scored, -1 not in play), ``private_goal``
(goal id), ``track_pop``, ``goals_pop``, ``money_pop``, ``redlines_up``, ``redlines_down``, ...
"""

from analysis.games.suburbia.data import (
    DENY,
    EARLY_ROUNDS,
    GOALS,
    INCOME_SLUGS,
    MAIN,
    MIN_N,
    MIN_RANK_N,
    MIX_LABELS,
    NAME_OF,
    RUSH_POP,
    RUSH_ROUNDS,
    RUSH_SLUGS,
    STACK_OF,
    TILES,
    role_labels,
)
from analysis.games.suburbia.queries import (
    TIP_SCHEMA,
    TIP_TESTS,
    decided_by,
    deny_rows,
    deny_tables,
    first_seat,
    goal_balance,
    goal_clusters,
    goal_summary,
    mh_clipped,
    mixes,
    offset_effect,
    pooled_main,
    robust,
    roles_in,
    score_components,
    seat_features,
    strategy_profile,
    summarise,
    tile_balance,
    tile_clusters,
    tile_market,
    tile_summary,
    tip_tests,
    verdict,
    with_role,
)
from analysis.games.suburbia.report import extend_report
from sim.core.components import slug

__all__ = [
    "extend_report", "MAIN", "DENY", "MIX_LABELS", "mh_clipped", "role_labels", "EARLY_ROUNDS", "RUSH_ROUNDS", "RUSH_POP",
    "MIN_N", "MIN_RANK_N", "TILES", "STACK_OF", "NAME_OF", "GOALS", "INCOME_SLUGS",
    "RUSH_SLUGS", "slug", "summarise", "robust", "with_role", "mixes", "tile_market",
    "tile_balance", "tile_summary", "pooled_main", "goal_balance", "goal_summary",
    "tile_clusters", "goal_clusters",
    "seat_features", "deny_tables", "deny_rows", "TIP_SCHEMA", "TIP_TESTS", "tip_tests",
    "verdict", "strategy_profile", "score_components", "decided_by", "offset_effect",
    "roles_in", "first_seat",
]
