"""Little Town constants of the report: building slugs and names, goal-card texts, setups
and the data-confidence table (spec section 8)."""

from __future__ import annotations

from sim.little_town import data as ltd

GAME_ID = "little-town"


SLUGS: tuple[str, ...] = ltd.SLUGS


NAME_OF = dict(zip(ltd.SLUGS, ltd.BUILDING_NAMES, strict=True))


CARDS = tuple(range(1, 19))


FEE = int(ltd.CONSTANTS["fee"])


SETUPS = ("random", "beginner", "draft", "one-of-two")


GOAL_TEXT = {
    1: "3 own buildings connected by sides",
    2: "more buildings than workers",
    3: "food held >= 2 x workers",
    4: "buildings next to lake, mountain, forest",
    5: "one activation paying 2 cube types",
    6: "feed all workers with fish",
    7: "unknown card (placeholder: feed all with wheat)",
    8: "own a fish building",
    9: "own 2 coin buildings",
    10: "own a wood/stone building",
    11: "own a building costing >= 3 stone",
    12: "have exactly 0 coins",
    13: "have >= 6 coins",
    14: "spend a cube gathered this turn",
    15: "4 activations in one turn",
    16: "VP from 2 buildings in one turn",
    17: "gather 5 cubes in one turn",
    18: "own a building costing >= 3 wood",
}


# spec section 8 (shared/rules/little_town.md), condensed: (fact, status, reading used)
DATA_CONFIDENCE = [
    ("25 building tile faces (costs, VP, effects, bird icon)", "confirmed",
     "scans of the tiles plus two fan implementations (spec §4)"),
    ("Both board sides (6 x 9 terrain)", "confirmed", "board art and two fan implementations"),
    ("Beginner set (the 12 bird tiles)", "confirmed", "tile scans and fan code"),
    ("Goal cards 1-6, 8-18", "single source",
     "French course scans only; used as printed"),
    ("Goal card 7", "unknown", "left out by default (17-card deck); option `goal7`"),
    ("Goal card 13 (VP, (!) icon)", "single source (conflict)", "2 VP and (!) per the photo"),
    ("Workers / houses / goal cards per player count", "secondary [2+]",
     "5/7/4, 4/6/3, 3/6/2"),
    ("Residence effect", "assumed",
     "optional activation of neighbours, fee to other owners, no terrain (options A6)"),
    ("Castle: whose buildings count", "assumed", "own buildings only (option `castle_counts`)"),
    ("Watchtower: do workers block a cell", "assumed",
     "workers ignored (option `watchtower_workers_block`)"),
    ("Cathedral counts every colour of worker", "assumed (icon + one fan source)",
     "any colour (option `cathedral_counts_own`)"),
    ("Coin bank limit", "assumed", "unlimited (option `coin_bank`)"),
    ("Building outputs capped by the supply", "assumed", "capped, no refund"),
    ("Order of end-of-round buildings", "assumed", "start player, clockwise"),
    ("One-of-two: unpicked tiles", "assumed", "out of the game"),
    ("Terrain gathering mandatory", "assumed (secondary sources)",
     "mandatory (option `optional_gather`)"),
    ("Goal 17 counts building outputs", "assumed", "no (option `gather_includes_buildings`)"),
]
