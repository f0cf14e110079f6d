"""The Three Little Wolves: game-specific report sections (issue 4, "Analysis and report").

``extend_report(ctx)`` adds, after the generic sections:

* **Seat order under each card set**: seat win rates per card set, side by side;
* **Score components**: houses, collapses, bonuses, pigs, wolves and marks as mean points per
  seat-game and as shares of the final score;
* **Value of the wolf action**: the restricted-play comparison (the same bot with wolves
  allowed and forbidden, on the same seeds, paired by game and seat), points per wolf action,
  and the association of betting more with winning in the main pool;
* **Ties that save a house**;
* **Two-player dummy control**: neutral against hostile, paired on the same seeds;
* **Sensitivity to the card list**: every headline metric under each card set, side by side
  with intervals, the shift from the default set, and whether the verdict changes.

Runs are told apart by their role (sim/three_little_wolves/game.py, ``default_plan``):
``main`` and ``cards:<set>`` are pool runs (the card set is read from the manifest's options,
``cards_v1`` when absent); ``wolf:allowed:<set>`` / ``wolf:forbidden:<set>`` and
``dummy:neutral:<set>`` / ``dummy:hostile:<set>`` are the arms of the paired studies. In a
pair the *focal seat* of game i is the seat that plays the first strategy of the treated-arm
run's strategy list (``no-wolf`` or ``hostile``); the other arm is read at the same game and
seat. All rates are over finished games (``rank`` set); a k-way shared win counts 1/k.
"""

from analysis.games.three_little_wolves.data import (
    COMPONENTS,
    DEFAULT_SET,
    SETS,
    TITLE_DUMMY,
    TITLE_SCORE,
    TITLE_SEATS,
    TITLE_SENS,
    TITLE_TIES,
    TITLE_WOLF,
    TITLES,
)
from analysis.games.three_little_wolves.queries import (
    bet_more_less,
    house_ties,
    mean_turns_by_set,
    more_vs_less,
    p_vs_parity,
    paired_effect,
    pool_runs,
    run_table,
    score_components,
    seat_rates_by_set,
    sensitivity_rows,
    study_pairs,
    wolf_buckets,
    wolf_by_strategy,
)
from analysis.games.three_little_wolves.report import extend_report

__all__ = [
    "extend_report", "SETS", "DEFAULT_SET", "COMPONENTS", "TITLES", "TITLE_SEATS",
    "TITLE_SCORE", "TITLE_WOLF", "TITLE_TIES", "TITLE_DUMMY", "TITLE_SENS", "run_table",
    "pool_runs", "study_pairs", "seat_rates_by_set", "score_components", "wolf_by_strategy",
    "more_vs_less", "wolf_buckets", "bet_more_less", "house_ties", "paired_effect",
    "p_vs_parity", "mean_turns_by_set", "sensitivity_rows",
]
