"""Suburbia component data (spec §2-§4): the 100 A/B/C tiles, the basic tiles, the Lake, the
1 More Round tile, the 20 goals, the red lines and the set-up numbers.

Every tile is a row of a data table: class (type bit | icon bits), price, stack, count, an
immediate effect and up to three conditional *effect records* (stat, amount, scope, target
classes). One generic interpreter in ``kernels.py`` evaluates the records; no tile has code of
its own. ``SuburbiaGame(tiles=..., goals=..., red_lines=..., constants=...)`` replaces any part.
Layout and meaning: docs/games/suburbia.md §1.
"""

from __future__ import annotations

import numpy as np

from sim.core.errors import UserError
from sim.suburbia import constants as K

# (name, stack, classes, count, price, immediate {stat: amount}, records [(stat, amount, scope,
#  target classes)]). Kind id = position in this list + 1 (docs §1.1). Counts of basic tiles
#  are the box counts (8 each: 4 go to the supply, one per player to the start column).
TILES: list[tuple] = [
    ("Suburbs", "basic", "R", 8, 3, {"Pop": 2}, []),
    ("Community Park", "basic", "V", 8, 4, {"Inc": -1}, [("Rep", 1, "adj", "R C I")]),
    ("Heavy Factory", "basic", "I", 8, 3, {"Inc": 1}, [("Rep", -1, "adj", "R V")]),
    # stack A
    ("Business Supply Store", "A", "C", 2, 8, {"Inc": 1}, [("Inc", 1, "every", "office")]),
    ("Convenience Store", "A", "C", 2, 6, {"Inc": 1}, []),
    ("Fancy Restaurant", "A", "C restaurant", 3, 9, {"Inc": 3},
     [("Inc", -1, "after", "restaurant")]),
    ("Farm", "A", "I", 2, 9, {"Rep": -1}, [("Inc", 1, "every", "restaurant")]),
    ("Fast Food Restaurant", "A", "C restaurant", 2, 7, {"Inc": 1}, [("Pop", 3, "adj", "R")]),
    ("Freeway", "A", "I", 2, 5, {}, [("Rep", -1, "adj", "R"), ("Inc", 1, "adj", "C")]),
    ("Homeowners Association", "A", "R", 2, 6, {"Pop": 1}, [("$", 2, "every", "R")]),
    ("Landfill", "A", "I", 2, 4, {"Inc": 2}, [("Rep", -1, "adj", "R C I V")]),
    ("Mint", "A", "V", 2, 15, {"Inc": 3}, [("$", 2, "own", "V")]),
    ("Mobile Home Community", "A", "R", 2, 4, {"Pop": 6}, []),
    ("Municipal Airport", "A", "I airport", 2, 6, {},
     [("Inc", 1, "every", "airport"), ("Rep", -1, "adj", "R")]),
    ("Office Building", "A", "C office", 3, 9, {"Inc": 1}, [("Inc", 1, "adj", "C")]),
    ("Parking Lot", "A", "C", 2, 12, {"Inc": 1}, [("Inc", 1, "adj", "C V")]),
    ("Slaughterhouse", "A", "I", 2, 5, {"Rep": -2}, [("Inc", 1, "every", "restaurant")]),
    ("Waterfront Realty", "A", "C", 2, 6, {}, [("$", 2, "lakebonus", "")]),
    # stack B
    ("Burg von Alspach", "B", "R", 2, 12, {"Pop": 3}, [("Rep", 1, "adj", "R")]),
    ("Casino", "B", "C", 2, 22, {"Rep": -3}, [("Inc", 1, "redline", "")]),
    ("Domestic Airport", "B", "I airport", 3, 11, {"Inc": 1},
     [("Rep", 1, "every", "airport"), ("Rep", -1, "adj", "R")]),
    ("Elementary School", "B", "V school", 3, 5, {"Rep": 1}, [("Pop", 1, "own", "R")]),
    ("Gas Station", "B", "C", 2, 7, {"Inc": 1}, [("Pop", 1, "adj", "R")]),
    ("Hostel", "B", "R", 2, 0, {"Pop": 2}, [("Rep", -1, "adj", "C")]),
    ("Housing Projects", "B", "R", 2, 8, {"Pop": 10}, [("Rep", -2, "adj", "R C V")]),
    ("Movie Theater", "B", "C", 2, 10, {"Inc": 1}, [("Inc", 1, "adj", "R")]),
    ("Museum", "B", "V", 2, 8, {"Rep": 1}, [("Rep", 1, "adj", "V")]),
    ("Office of Bureaucracy", "B", "V office", 2, 9, {"Rep": -2}, [("Inc", 1, "own", "V")]),
    ("Postal Service", "B", "V", 2, 12, {}, [("Inc", 1, "own", "C")]),
    ("Power Station", "B", "V", 2, 11, {}, [("Inc", 1, "own", "I")]),
    ("Retirement Village", "B", "R", 2, 8, {"Pop": 5}, []),
    ("Shipping Center", "B", "C", 2, 16, {"Inc": 1}, [("$", 2, "every", "C")]),
    ("Skyscraper", "B", "C skyscraper", 2, 11, {"Inc": 3}, [("Inc", -1, "after", "skyscraper")]),
    ("Stadium", "B", "V", 2, 16, {"Inc": 1}, [("Rep", 2, "adj", "R")]),
    ("Warehouse", "B", "I", 2, 13, {"Rep": -1}, [("Inc", 2, "adj", "C")]),
    # stack C
    ("Apartments", "C", "R", 2, 12, {"Pop": 5}, [("Pop", 2, "adj", "C")]),
    ("Bed & Breakfast", "C", "R", 2, 9, {"Pop": 2}, [("Pop", 1, "own", "R")]),
    ("Boutique", "C", "C", 2, 9, {"Inc": 1}, [("Rep", 1, "adj", "R")]),
    ("Chip Fabrication Plant", "C", "I", 2, 18, {"Rep": 2}, [("Inc", 1, "own", "C")]),
    ("Condominium", "C", "R", 2, 14, {"Pop": 5}, [("Pop", 3, "adj", "C")]),
    ("High School", "C", "V school", 3, 18, {"Rep": 1}, [("Pop", 3, "own", "R")]),
    ("Hotel", "C", "C", 2, 13, {"Inc": 1}, [("Pop", 1, "others", "R")]),
    ("International Airport", "C", "I airport", 2, 18, {},
     [("Inc", 1, "every", "airport"), ("Rep", 1, "every", "airport"), ("Rep", -1, "adj", "R")]),
    ("Local EPA Office", "C", "V office", 2, 12, {"Rep": 1}, [("$", 2, "every", "I")]),
    ("Middle School", "C", "V school", 3, 10, {"Rep": 1}, [("Pop", 2, "own", "R")]),
    ("New Car Dealership", "C", "C dealership", 2, 12, {"Inc": 5},
     [("Inc", -2, "after", "dealership")]),
    ("PR Firm", "C", "C", 2, 20, {"Inc": -2}, [("Rep", 1, "redline", "")]),
    ("Recycling Plant", "C", "I", 2, 17, {"Rep": 1}, [("Rep", 2, "adj", "I")]),
    ("Resort", "C", "C", 2, 16, {"Inc": 1}, [("Pop", 1, "every", "R")]),
    ("University", "C", "V", 2, 15, {"Inc": 2}, [("Rep", 1, "every", "school")]),
    # not buildings
    ("Lake", "none", "Lake", 0, 0, {}, [("$", 2, "lake_adj", "R C I V")]),
    ("1 More Round", "none", "", 1, 0, {}, []),
]
TILE_NAMES = ("",) + tuple(t[0] for t in TILES)
assert len(TILE_NAMES) == K.NK and TILE_NAMES[K.K_LAKE] == "Lake" and TILE_NAMES[K.K_OMR] == "1 More Round"
KIND_OF = {n: k for k, n in enumerate(TILE_NAMES) if k}
assert TILE_NAMES[K.FIRST_A] == "Business Supply Store" and TILE_NAMES[K.LAST_A] == "Waterfront Realty"
assert TILE_NAMES[K.FIRST_B] == "Burg von Alspach" and TILE_NAMES[K.LAST_B] == "Warehouse"
assert TILE_NAMES[K.FIRST_C] == "Apartments" and TILE_NAMES[K.LAST_C] == "University"

# (name, measure, direction (+1 most / -1 fewest), target classes, bonus); spec §4, single source
GOALS: list[tuple] = [
    ("Air Traffic Controller", "count", 1, "airport", 10),
    ("Aquatic Engineer", "count", 1, "Lake", 20),
    ("Aquaphobian", "count", -1, "Lake", 20),
    ("Billionaire", "money", 1, "", 10),
    ("Builder", "count", 1, "R", 15),
    ("Capitalist", "count", -1, "R", 20),
    ("Civil Engineer", "count", 1, "V", 15),
    ("Developer", "count", 1, "C", 10),
    ("Employer", "investments", -1, "", 15),
    ("Environmentalist", "count", -1, "I", 15),
    ("Harbormaster", "group", 1, "Lake", 10),
    ("Industrialist", "count", 1, "I", 15),
    ("Investor", "income", 1, "", 15),
    ("Libertarian", "count", -1, "V", 15),
    ("Luminary", "reputation", 1, "", 10),
    ("Miscreant", "reputation", -1, "", 20),
    ("Miser", "income", -1, "", 15),
    ("Public Official", "group", 1, "V", 15),
    ("Socialist", "count", -1, "C", 10),
    ("Spendthrift", "money", -1, "", 10),
]
assert len(GOALS) == K.NG
GOAL_NAMES = tuple(g[0] for g in GOALS)

# red lines: a line lies between N and N+1 for each N (spec §2, D1); the option red_line_offset
# moves every line by the same amount
RED_LINES = [14, 21, 28, 34, 40, 46, 52, 58, 63, 68, 73, 77, 81, 85, 88, 91, 94, 97, 100] + list(
    range(102, 149, 2))
assert len(RED_LINES) == 43

CONSTANTS = {
    "stack_size": (15, 15, 18, 21),      # tiles dealt into each of A, B, C, for 1..4 players
    "omr_block": (6, 6, 9, 12),          # C tiles shuffled with the 1MR tile, 1..4 players
    "extra_c": 4,                        # C tiles from the box put under the block
    "public_goals": (0, 2, 3, 4),        # 1..4 players
    "surcharge": (10, 8, 6, 4, 2, 0, 0),  # market slots, left to right
    "start_money": 15, "start_income": 0, "start_reputation": 1, "start_population": 2,
    "investment_markers": 3,
    "basic_supply": 4,                   # of each basic tile
    "goal_offer": 2,                     # private goals drawn per player (one is kept)
}
DATA_STATUS = (
    "tiles: confirmed by four independent data sets (counts, prices, effects; the seed's "
    "examples agree); the contested values (HOA price, Office Building target, Parking Lot, "
    "B counts, Postal Service, Recycling Plant) are rule options. Goals: names, conditions and "
    "bonuses from a single code source (unverified). Red lines: two of three code sources "
    "(offset is an option). Set-up numbers: confirmed (rulebooks)."
)


def _classes(text: str) -> int:
    m = 0
    for w in text.split():
        if w not in K.CLASS_NAMES:
            raise UserError(f"suburbia data: unknown class {w!r}; allowed: {', '.join(K.CLASS_NAMES)}")
        m |= K.CLASS_NAMES[w]
    return m


_STACKS = {"basic": K.STACK_BASIC, "A": K.STACK_A, "B": K.STACK_B, "C": K.STACK_C, "none": K.STACK_NONE}


def tiles_array(tiles: list[tuple] | None = None) -> np.ndarray:
    """``int64[NK, NTCOL]`` tile table (docs §1.1); row 0 unused. Raises UserError."""
    rows = TILES if tiles is None else tiles
    if len(rows) != K.NK - 1 or tuple(r[0] for r in rows) != TILE_NAMES[1:]:
        raise UserError("suburbia data: the tile table must list the 52 kinds in docs order")
    out = np.zeros((K.NK, K.NTCOL), np.int64)
    for k, (_name, stack, cls, count, price, imm, recs) in enumerate(rows, start=1):
        out[k, K.T_CLS] = _classes(cls)
        out[k, K.T_PRICE] = int(price)
        out[k, K.T_STACK] = _STACKS[stack]
        out[k, K.T_COUNT] = int(count)
        for s, a in imm.items():
            out[k, K.T_IMM + K.STAT_NAMES.index(s)] = int(a)
        if len(recs) > K.MAXREC:
            raise UserError(f"suburbia data: at most {K.MAXREC} effect records per tile")
        out[k, K.T_NREC] = len(recs)
        for r, (s, a, scope, targets) in enumerate(recs):
            if scope == "redline" and s == "Pop":
                raise UserError("suburbia data: a redline record may not change Pop")
            b = K.T_REC + 4 * r
            out[k, b] = K.STAT_NAMES.index(s)
            out[k, b + 1] = int(a)
            out[k, b + 2] = K.SCOPE_NAMES.index(scope)
            out[k, b + 3] = _classes(targets)
    return out


def goals_array(goals: list[tuple] | None = None) -> np.ndarray:
    """``int64[NG, NGCOL]``: measure code, direction, target mask, bonus (docs §1.4)."""
    rows = GOALS if goals is None else goals
    if len(rows) != K.NG:
        raise UserError(f"suburbia data: exactly {K.NG} goals")
    out = np.zeros((K.NG, K.NGCOL), np.int64)
    for g, (_n, measure, d, cls, bonus) in enumerate(rows):
        out[g, K.G_MEASURE] = K.MEASURE_NAMES.index(measure)
        out[g, K.G_DIR] = 1 if d > 0 else -1
        out[g, K.G_MASK] = _classes(cls)
        out[g, K.G_BONUS] = int(bonus)
    return out


def lines_array(red_lines: list[int] | None = None) -> np.ndarray:
    """``int64[MAXLINES]``: red-line values N ascending (a line between N and N+1)."""
    rl = sorted(RED_LINES if red_lines is None else red_lines)
    if len(rl) > K.MAXLINES:
        raise UserError(f"suburbia data: at most {K.MAXLINES} red lines")
    out = np.zeros(K.MAXLINES, np.int64)
    out[: len(rl)] = rl
    return out, len(rl)


def consts_array(constants: dict | None = None, n_lines: int = len(RED_LINES)) -> np.ndarray:
    """``int64[N_CONSTS]`` set-up numbers (slots C_* in constants.py)."""
    c = dict(CONSTANTS)
    c.update(constants or {})
    v = (list(c["stack_size"]) + list(c["omr_block"]) + [c["extra_c"]] + list(c["public_goals"])
         + list(c["surcharge"]) + [c["start_money"], c["start_income"], c["start_reputation"],
                                    c["start_population"], c["investment_markers"],
                                    c["basic_supply"], c["goal_offer"], n_lines])
    out = np.array(v, np.int64)
    assert len(out) == K.N_CONSTS
    return out


def apply_options(tiles: np.ndarray, opts: dict) -> np.ndarray:
    """The tile table with the data-valued rule options applied (docs §1.1 "Option overrides").

    ``opts``: resolved option dict. Returns a new ``int64[NK, NTCOL]`` array.
    """
    from sim.suburbia.constants import OFFICE, S_INC, S_POP, S_REP

    t = tiles.copy()
    hoa, office, park = KIND_OF["Homeowners Association"], KIND_OF["Office Building"], KIND_OF[
        "Parking Lot"]
    postal, recyc = KIND_OF["Postal Service"], KIND_OF["Recycling Plant"]
    t[hoa, K.T_PRICE] = int(opts["hoa_price"])
    if opts["office_building_target"] == "office":
        t[office, K.T_REC + 3] = OFFICE
    if opts["parking_lot_immediate"] == "population":
        t[park, K.T_IMM + S_INC] = 0
        t[park, K.T_IMM + S_POP] = 1
    if opts["postal_service_immediate"] == "income":
        t[postal, K.T_IMM + S_INC] = 1
    t[recyc, K.T_IMM + S_REP] = int(opts["recycling_plant_rep"])
    if opts["b_stack_counts"] == "casino_1":
        t[KIND_OF["Casino"], K.T_COUNT] = 1
    elif opts["b_stack_counts"] == "domestic_airport_2":
        t[KIND_OF["Domestic Airport"], K.T_COUNT] = 2
    return t
