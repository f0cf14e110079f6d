"""Little Town component data as tables (balance lab): buildings (spec §4), goal cards (§5),
board sides (§2.2), the per-count table and the constants (§3).

The document is the game's ``data`` block (sim/little_town/data.py, docs/games/little_town.md
section 11). Paths: ``buildings.church.vp``, ``buildings.church.cost.stone``,
``goals.13.vp``, ``per_count.3.workers``, ``consts.buy_price``.
"""

from __future__ import annotations

import copy
from typing import Any

from sim.core.components import (
    ComponentSchema,
    ImpactLink,
    PlausibleRange,
    Tunable,
    interpretations_of,
)
from sim.little_town.options import OPTIONS

_RES = ("wood", "stone", "fish", "wheat")

# the numbers spec §8 leaves unconfirmed, with their plausible ranges (docs/robustness.md)
RANGES = (
    PlausibleRange("goals.13.vp", 2, 3, "spec §8: the photo shows 2 VP, the BenjaminCleon code "
                   "says 3 VP"),
)
# the rule options spec §8 / appendix A marks as assumptions (goal 7's text is unknown: the
# option goal7 plays the deck without it or with the placeholder)
INTERPRETATIONS = interpretations_of(OPTIONS, (
    "goal7", "bang_check", "bang_redraw", "optional_gather", "coin_bank",
    "cathedral_counts_own", "residence_gathers_terrain", "residence_pays_fees", "castle_counts",
    "watchtower_workers_block", "pawnshop_must_differ", "goal5_counts_pawnshop",
    "gather_includes_buildings"), "ASSUMED")
# the data tables an interpreted option changes (a robustness cell names the option there)
INTERPRETATION_TABLES = {"goal7": "goals"}

SCHEMA = ComponentSchema(
    keys={"buildings": "name", "goals": "card"},
    # ranges the kernels rely on: the market is drawn from the 24 draft tiles; coins_per_vp
    # and buy_price divide (the bots' coins // buy price; a 0 crashed every bot on a state
    # dict mutant, `make soak`); a goal's set names building ids; workers x players fit the
    # board (the constructor checks that product, sim/little_town/data.py)
    limits={"consts.market_size": (0, 24), "consts.coins_per_vp": (1, 999),
            "consts.buy_price": (1, 999),
            "goals.set": (0, 24), "per_count.2": (0, 12), "per_count.3": (0, 12),
            "per_count.4": (0, 12)},
    vectors={"buildings.cost": _RES, "buildings.input": _RES, "buildings.output": _RES,
             "per_count.2": ("workers", "houses", "goal_cards"),
             "per_count.3": ("workers", "houses", "goal_cards"),
             "per_count.4": ("workers", "houses", "goal_cards")},
    tunables=(
        Tunable("buildings", "vp", +1, 0, 20),
        Tunable("buildings", "cost.all", -1, 0, 9),
        Tunable("buildings", "cost_coins", -1, 0, 12),
        Tunable("buildings", "output.*", +1, 0, 6),
        Tunable("buildings", "output_coins", +1, 0, 9),
        Tunable("buildings", "output_vp", +1, 0, 12),
        Tunable("buildings", "input.*", -1, 0, 6),
        Tunable("buildings", "input_coins", -1, 0, 9),
        Tunable("goals", "vp", +1, 0, 9),
    ),
    impact=(
        ImpactLink("built_", "buildings", title="building (built vs not built)"),
        ImpactLink("goal_", "goals", "{:02d}", title="goal card (completed vs not)"),
    ),
    docs={
        "buildings": "25 building tiles: count, cost (cubes and coins), VP, kind, activation "
                     "input and output (spec §4; confirmed from scans and fan code)",
        "goals": "goal cards (spec §5; 17 of 18 from one source, card 7 unknown)",
        "boards": "board sides A and B, 6 rows of 9 cells (spec §2.2; confirmed)",
        "per_count": "workers, houses and goal cards per player count (secondary sources)",
        "consts": "supply, coins, prices and end scoring constants (spec §3, §6)",
    },
    ranges=RANGES,
    interpretations=INTERPRETATIONS,
)


def document(game) -> dict[str, Any]:
    """The game's data block (a deep copy)."""
    return copy.deepcopy(game.data_block)


def build(doc: dict[str, Any]):
    from sim.little_town.game import LittleTown

    return LittleTown(copy.deepcopy(doc))
