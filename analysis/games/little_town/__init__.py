"""Little Town report extension (issue 3, section 4) and the setup comparison.

Sections added to ``reports/little-town/report.md``:

* **Buildings**: per player count and building, from the runs of role ``main``: market
  presence, build rate, mean round built, activations per game (own and others'), fees earned
  and the win-rate difference between the seat that built it and the other seats of the same
  games (17lands' "improvement when drawn" idea), Newcombe 95% interval and a two-proportion
  z-test;
* **Goal cards**: completion rate, mean round completed, win rate of holders who completed it
  against holders who did not, interval and test;
* Benjamini-Hochberg (``statsmodels`` ``fdr_bh``) over all those tests together, and a
  **robust** mark for a finding that keeps its sign (interval excluding 0) under at least two
  bot mixes (roles ``main`` and ``mix:*`` of the same player count);
* **Setup variants** (roles ``setup:<market>``, compared with the ``main`` run of the same
  player count, which uses the random market, the same bots, seeds and number of games):
  first-player advantage, winning score and margin, score spread, strategy win rates, Balance
  and draft picks;
* **Component data**: which data are confirmed and which assumed (spec section 8).

``compare_setups`` (``boardsim compare-setups little-town``) runs the setups and writes the
same setup sections as a report of their own.
"""

from analysis.games.little_town.data import (
    CARDS,
    DATA_CONFIDENCE,
    FEE,
    GAME_ID,
    GOAL_TEXT,
    NAME_OF,
    SETUPS,
    SLUGS,
)
from analysis.games.little_town.queries import building_stats, goal_stats, mark_robust
from analysis.games.little_town.report import compare_setups, extend_report, write_setup_report
from analysis.games.little_town.setups import setup_comparison, setup_groups

__all__ = [
    "building_stats", "goal_stats", "mark_robust", "setup_groups", "setup_comparison",
    "extend_report", "compare_setups", "write_setup_report", "GAME_ID", "SLUGS", "NAME_OF",
    "CARDS", "FEE", "SETUPS", "GOAL_TEXT", "DATA_CONFIDENCE",
]
