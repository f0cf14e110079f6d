"""Plain-Python reference implementation of Suburbia.

Written independently from the numba engine, strictly from the contract
``docs/games/suburbia.md`` (tile data table and record scopes, action ids, SplitMix64 set-up
order, turn flow, the six-step placement resolution, investment, tracks and red lines, end of
game, options, state dict) and the rules spec ``shared/rules/suburbia.md``. Slow but obviously
correct; it is compared with the engine decision by decision.

Internal representation
-----------------------
* tile kinds are ints 1..52 (51 = Lake, 52 = 1 More Round); ``KIND_NAMES[k]`` is the name;
* ``pile``: kinds bottom first (top = last element); ``market``: 7 slots, kind or None;
* ``discard`` / ``box``: count lists indexed by kind; ``supply``: 3 counts (basic kinds 1..3);
* each seat is a ``_Player``; its borough is ``tiles`` (list of ``_Tile`` in placement order)
  plus ``occ`` (dict ``(x, y) -> _Tile``);
* ``pending``: None or ``(kind, source, from_kind)``;
* goal ids 0..19 (``GOAL_NAMES``).

The effect records of a kind are ``(stat, amount, scope, target_mask)`` with stat 0 Inc, 1 Rep,
2 Pop, 3 $ (contract section 1).
"""

from __future__ import annotations

from tests.reference.common import merge_options, play_random
from tests.reference.go_town import MASK64, Rng, mix, seed_for  # noqa: F401  (re-exported)

# --------------------------------------------------------------------------
# Classes, stats, scopes (contract 1.1, 1.2)
# --------------------------------------------------------------------------

R, C, I, V, LAKE_BIT = 1, 2, 4, 8, 16  # noqa: E741
AIRPORT, RESTAURANT, OFFICE, SCHOOL, SKYSCRAPER, DEALERSHIP = 32, 64, 128, 256, 512, 1024
CLASS_BITS = {
    "R": R, "C": C, "I": I, "V": V, "Lake": LAKE_BIT, "airport": AIRPORT,
    "restaurant": RESTAURANT, "office": OFFICE, "school": SCHOOL, "skyscraper": SKYSCRAPER,
    "dealership": DEALERSHIP,
}

INC, REP, POP, MONEY = 0, 1, 2, 3
STAT_NAMES = ("Inc", "Rep", "Pop", "$")
SCOPES = ("adj", "own", "every", "others", "after", "redline", "lake_adj", "lakebonus")

K_SUBURBS, K_PARK, K_FACTORY = 1, 2, 3
K_LAKE = 51
K_OMR = 52
NK = 53  # kind ids 0..52 (0 = empty)

# --------------------------------------------------------------------------
# Component data (contract section 1; the default tables)
# --------------------------------------------------------------------------

# (name, stack, classes, count, price, immediate {stat: amount},
#  records [(stat, amount, scope, target classes)]); kind id = position + 1
TILES = [
    ("Suburbs", "basic", "R", 8, 3, {"Pop": 2}, []),
    ("Community Park", "basic", "V", 8, 4, {"Inc": -1}, [("Rep", 1, "adj", "R C I")]),
    ("Heavy Factory", "basic", "I", 8, 3, {"Inc": 1}, [("Rep", -1, "adj", "R V")]),
    # A
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
    # B
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
    # C
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
KIND_NAMES = [""] + [t[0] for t in TILES]
KIND_OF = {name: k for k, name in enumerate(KIND_NAMES) if k}

# (name, measure, direction (+1 most / -1 fewest), target classes, bonus)
GOALS = [
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
GOAL_NAMES = [g[0] for g in GOALS]
GOAL_OF = {name: g for g, name in enumerate(GOAL_NAMES)}
NG = 20
MEASURES = ("count", "group", "money", "income", "reputation", "investments")

# a line lies between N + red_line_offset and N + red_line_offset + 1
RED_LINES = [14, 21, 28, 34, 40, 46, 52, 58, 63, 68, 73, 77, 81, 85, 88, 91, 94, 97, 100] + list(
    range(102, 149, 2))

CONSTANTS = {
    "stack_size": (15, 15, 18, 21),      # 1..4 players
    "omr_block": (6, 6, 9, 12),
    "extra_c": 4,
    "public_goals": (0, 2, 3, 4),
    "surcharge": (10, 8, 6, 4, 2, 0, 0),
    "start_money": 15, "start_income": 0, "start_reputation": 1, "start_population": 2,
    "investment_markers": 3,
    "basic_supply": 4,
    "goal_offer": 2,
}

DEFAULT_DATA = {"tiles": TILES, "goals": GOALS, "red_lines": RED_LINES, "constants": CONSTANTS}

# --------------------------------------------------------------------------
# Options (contract section 10)
# --------------------------------------------------------------------------

DEFAULT_OPTIONS = {
    "red_line_offset": 0,
    "red_line_down": True,
    "tile_reactions": True,
    "hoa_price": 6,
    "office_building_target": "commercial",
    "parking_lot_immediate": "income",
    "b_stack_counts": "standard",
    "after_scope": "any_borough",
    "waterfront": "pairs",
    "counts_itself": True,
    "private_goal_ties": "strict",
    "invest_replay": True,
    "clamp_timing": "each_change",
    "redline_tiles_down": "nothing",
    "borough_width": 0,
    "tie_break": "rep_inc_money",
    "rep_debt": "pay_what_you_have",
    "pop_max": 0,
    "invest_on_lake": True,
    "postal_service_immediate": "none",
    "recycling_plant_rep": 1,
    "solo_redline_penalty": 2,
    "omr_replacement": True,
}

_OPTION_RULES = {
    "red_line_offset": ("int", (-1, 0, 1)),
    "red_line_down": ("bool", None),
    "tile_reactions": ("bool", None),
    "hoa_price": ("int", (5, 6)),
    "office_building_target": ("str", ("commercial", "office")),
    "parking_lot_immediate": ("str", ("income", "population")),
    "b_stack_counts": ("str", ("standard", "casino_1", "domestic_airport_2")),
    "after_scope": ("str", ("any_borough", "own_borough")),
    "waterfront": ("str", ("pairs", "tiles", "future_only")),
    "counts_itself": ("bool", None),
    "private_goal_ties": ("str", ("strict", "tie_scores")),
    "invest_replay": ("bool", None),
    "clamp_timing": ("str", ("each_change", "end_of_resolution")),
    "redline_tiles_down": ("str", ("nothing", "reverse")),
    "borough_width": ("int", (0, 7)),
    "tie_break": ("str", ("rep_inc_money", "rep_inc")),
    "rep_debt": ("str", ("pay_what_you_have", "all_or_nothing")),
    "pop_max": ("int", (0, 150)),
    "invest_on_lake": ("bool", None),
    "postal_service_immediate": ("str", ("none", "income")),
    "recycling_plant_rep": ("int", (1, 2)),
    "solo_redline_penalty": ("int", (1, 2)),
    "omr_replacement": ("bool", None),
}


def _merge_options(options: dict | None) -> dict:
    return merge_options(options, DEFAULT_OPTIONS, _OPTION_RULES)


def _merge_data(data: dict | None) -> dict:
    out = {"tiles": TILES, "goals": GOALS, "red_lines": RED_LINES, "constants": dict(CONSTANTS)}
    if data:
        for k, v in data.items():
            if k not in out:
                raise ValueError(f"unknown data key: {k!r}")
            if k == "constants":
                for ck, cv in v.items():
                    if ck not in CONSTANTS:
                        raise ValueError(f"unknown constant: {ck!r}")
                    out["constants"][ck] = cv
            else:
                out[k] = v
    if len(out["tiles"]) != NK - 1 or [t[0] for t in out["tiles"]] != KIND_NAMES[1:]:
        raise ValueError("the tile table must list the 52 kinds in contract order")
    if len(out["goals"]) != NG:
        raise ValueError(f"exactly {NG} goals")
    return out


def _mask(text: str) -> int:
    m = 0
    for w in text.split():
        if w not in CLASS_BITS:
            raise ValueError(f"unknown class {w!r}")
        m |= CLASS_BITS[w]
    return m


# --------------------------------------------------------------------------
# Geometry (contract section 2)
# --------------------------------------------------------------------------

X_MIN, X_MAX, Y_MAX = -22, 22, 48
NEIGHBOURS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
N_CELLS = 1103


def cell_id(x: int, y: int) -> int:
    return (45 * y + x + 22) // 2


def cell_xy(cid: int) -> tuple[int, int]:
    y = (2 * cid) // 45
    return 2 * cid - 45 * y - 22, y


def neighbours(x: int, y: int):
    return [(x + dx, y + dy) for dx, dy in NEIGHBOURS]


# --------------------------------------------------------------------------
# Action ids (contract 5.2)
# --------------------------------------------------------------------------

NUM_ACTIONS = 1154
A_BUY = 0          # 0..6
A_BASIC = 7        # 7..9
A_LAKE = 10        # 10..16
A_INVEST = 17      # 17..40
A_DISCARD = 41     # 41..47
A_KEEP = 48        # 48..49
A_PASS = 50
A_PLACE = 51       # 51..1153
MAX_TILES = 24

PHASES = ("goal", "action", "place", "discard", "extra_discard", "over")


class _Tile:
    __slots__ = ("kind", "x", "y", "turn", "invested", "rl", "frm")

    def __init__(self, kind, x, y, turn, invested=False, rl=0, frm=0):
        self.kind = kind
        self.x = x
        self.y = y
        self.turn = turn
        self.invested = invested
        self.rl = rl
        self.frm = frm  # kind a Lake was made from (0 otherwise)


class _Player:
    __slots__ = ("money", "income", "reputation", "population", "pop_high", "redlines_up",
                 "redlines_down", "goal_pop", "money_pop", "goals_scored", "tiles", "occ")

    def __init__(self):
        self.money = 0
        self.income = 0
        self.reputation = 0
        self.population = 0
        self.pop_high = 0
        self.redlines_up = 0
        self.redlines_down = 0
        self.goal_pop = 0
        self.money_pop = 0
        self.goals_scored: list[int] = []
        self.tiles: list[_Tile] = []
        self.occ: dict = {}

    def add(self, t: _Tile) -> None:
        self.tiles.append(t)
        self.occ[(t.x, t.y)] = t

    def markers(self) -> int:
        return sum(1 for t in self.tiles if t.invested)


_STATE_KEYS = (
    "game", "n_players", "options", "rng", "phase", "current", "round", "turn", "decisions",
    "last_round", "end_reason", "pile", "market", "discard", "box", "supply", "public_goals",
    "goal_offers", "private_goals", "pending", "players",
)
_PLAYER_KEYS = (
    "money", "income", "reputation", "population", "pop_high", "redlines_up", "redlines_down",
    "goal_pop", "money_pop", "goals_scored", "tiles",
)


# --------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------

class SuburbiaRef:
    """One game of Suburbia, following docs/games/suburbia.md exactly."""

    def __init__(self, n_players: int, seed: int, options: dict | None = None,
                 data: dict | None = None):
        if isinstance(n_players, bool) or not isinstance(n_players, int) or not (
                1 <= n_players <= 4):
            raise ValueError(f"n_players must be 1..4, got {n_players!r}")
        self.n = n_players
        self.options = _merge_options(options)
        self.data = _merge_data(data)
        self._prepare()
        self.rng = Rng(int(seed) & MASK64)
        n = self.n
        cs = self.consts

        self.phase = "goal"
        self.current = 0
        self.round = 1
        self.turn = 0
        self.decisions = 0
        self.last_round = -1
        self.end_reason = "none"
        self.pending = None
        self.discard = [0] * NK
        self.box = [0] * NK
        self.supply = [0, 0, 0]
        self.public_goals: list[int] = []
        self.goal_offers: list[list[int]] = []
        self.private_goals: list = [None] * n
        self._legal = None

        # --- set-up (contract section 4) ---
        S = cs["stack_size"][n - 1]
        M = cs["omr_block"][n - 1]
        E = cs["extra_c"]
        stacks = {}
        for st in ("A", "B"):
            lst = [k for k in self.stack_kinds[st] for _ in range(self.k_count[k])]
            self.rng.shuffle(lst)
            stacks[st] = lst[:S]
            for k in lst[S:]:
                self.box[k] += 1
        c = [k for k in self.stack_kinds["C"] for _ in range(self.k_count[k])]
        self.rng.shuffle(c)
        block = c[:M] + [K_OMR]
        self.rng.shuffle(block)
        c_stack = c[S:S + E] + block + c[M:S]
        for k in c[S + E:]:
            self.box[k] += 1
        self.pile = c_stack + stacks["B"] + stacks["A"]
        self.market = [None] * 7
        for i in range(7):
            if self.pile:
                self.market[6 - i] = self.pile.pop()
        if n >= 2:
            g = list(range(NG))
            self.rng.shuffle(g)
            P = cs["public_goals"][n - 1]
            k = cs["goal_offer"]
            self.public_goals = g[:P]
            self.goal_offers = [g[P + k * s: P + k * s + k] for s in range(n)]
        for b in range(3):
            kind = b + 1
            self.supply[b] = cs["basic_supply"]
            self.box[kind] += self.k_count[kind] - cs["basic_supply"] - n
        self.players = []
        for _ in range(n):
            p = _Player()
            p.money = cs["start_money"]
            p.income = cs["start_income"]
            p.reputation = cs["start_reputation"]
            p.population = cs["start_population"]
            p.pop_high = p.population
            for i, kind in enumerate((K_SUBURBS, K_PARK, K_FACTORY)):
                p.add(_Tile(kind, 0, 2 * i, 0))
            self.players.append(p)
        if n >= 2:
            self.phase = "goal"
            self.current = 0
        else:
            self._begin_turn(0)

    # ---------------------------------------------------------------- data

    def _prepare(self) -> None:
        """Per-kind tables with the option overrides applied (contract 1.1)."""
        o = self.options
        d = self.data
        self.consts = d["constants"]
        self.k_cls = [0] * NK
        self.k_price = [0] * NK
        self.k_count = [0] * NK
        self.k_stack = [""] * NK
        self.k_imm = [[0, 0, 0, 0] for _ in range(NK)]
        self.k_recs: list[list[list]] = [[] for _ in range(NK)]
        for k, (_name, stack, cls, count, price, imm, recs) in enumerate(d["tiles"], start=1):
            self.k_cls[k] = _mask(cls)
            self.k_price[k] = int(price)
            self.k_count[k] = int(count)
            self.k_stack[k] = stack
            for s, a in imm.items():
                self.k_imm[k][STAT_NAMES.index(s)] = int(a)
            for (s, a, scope, targets) in recs:
                if scope not in SCOPES:
                    raise ValueError(f"unknown scope {scope!r}")
                self.k_recs[k].append([STAT_NAMES.index(s), int(a), scope, _mask(targets)])
        hoa = KIND_OF["Homeowners Association"]
        self.k_price[hoa] = o["hoa_price"]
        if o["office_building_target"] == "office":
            self.k_recs[KIND_OF["Office Building"]][0][3] = OFFICE
        if o["parking_lot_immediate"] == "population":
            pl = KIND_OF["Parking Lot"]
            self.k_imm[pl][INC] = 0
            self.k_imm[pl][POP] = 1
        if o["postal_service_immediate"] == "income":
            self.k_imm[KIND_OF["Postal Service"]][INC] = 1
        self.k_imm[KIND_OF["Recycling Plant"]][REP] = o["recycling_plant_rep"]
        if o["b_stack_counts"] == "casino_1":
            self.k_count[KIND_OF["Casino"]] = 1
        elif o["b_stack_counts"] == "domestic_airport_2":
            self.k_count[KIND_OF["Domestic Airport"]] = 2
        self.stack_kinds = {st: [k for k in range(1, NK) if self.k_stack[k] == st]
                            for st in ("A", "B", "C")}
        self.lines = sorted(N + o["red_line_offset"] for N in d["red_lines"])
        self.goal_tab = [(GOAL_NAMES[g], meas, 1 if dr > 0 else -1, _mask(cls), int(bonus))
                         for g, (_gn, meas, dr, cls, bonus) in enumerate(d["goals"])]
        self.sur = list(self.consts["surcharge"])
        self.o_each = o["clamp_timing"] == "each_change"
        self.o_reverse = o["redline_tiles_down"] == "reverse"
        self.o_any_after = o["after_scope"] == "any_borough"
        self.pen = o["solo_redline_penalty"] if self.n == 1 else 1

    # ---------------------------------------------------------------- helpers

    def _cls(self, t: _Tile) -> int:
        return self.k_cls[t.kind]

    def _adjacent_tiles(self, o: int, x: int, y: int) -> list[_Tile]:
        occ = self.players[o].occ
        return [occ[q] for q in neighbours(x, y) if q in occ]

    def _rl_counter(self, o: int) -> int:
        p = self.players[o]
        return p.redlines_up - (p.redlines_down if self.o_reverse else 0)

    def _lake_bonus(self, o: int) -> int:
        total = 0
        for t in self.players[o].tiles:
            for rec in self.k_recs[t.kind]:
                if rec[2] == "lakebonus":
                    total += rec[1] * (2 if t.invested else 1)
        return total

    def _waterfront_count(self, o: int, T: _Tile) -> int:
        mode = self.options["waterfront"]
        if mode == "future_only":
            return 0
        occ = self.players[o].occ
        if mode == "pairs":
            n = 0
            for L in self.players[o].tiles:
                if L.kind != K_LAKE:
                    continue
                for q in neighbours(L.x, L.y):
                    Y = occ.get(q)
                    if Y is not None and Y.kind != K_LAKE and Y is not T:
                        n += 1
            return n
        n = 0  # tiles
        for Y in self.players[o].tiles:
            if Y.kind == K_LAKE or Y is T:
                continue
            if any(occ.get(q) is not None and occ[q].kind == K_LAKE for q in neighbours(Y.x, Y.y)):
                n += 1
        return n

    # ---------------------------------------------------------------- tracks (section 8)

    def _clamp(self, p: _Player) -> None:
        p.income = max(-5, min(15, p.income))
        p.reputation = max(-5, min(15, p.reputation))

    def _clamp_all(self) -> None:
        for p in self.players:
            self._clamp(p)

    def _change(self, o: int, stat: int, d: int) -> None:
        p = self.players[o]
        if stat == INC:
            p.income += d
            if self.o_each:
                p.income = max(-5, min(15, p.income))
        elif stat == REP:
            p.reputation += d
            if self.o_each:
                p.reputation = max(-5, min(15, p.reputation))
        elif stat == POP:
            self._pop_change(o, d)
        else:
            p.money = max(0, p.money + d)

    def _fire_redline_records(self, o: int, sign: int) -> None:
        for t in list(self.players[o].tiles):
            m = 2 if t.invested else 1
            for rec in self.k_recs[t.kind]:
                if rec[2] == "redline":
                    self._change(o, rec[0], sign * rec[1] * m)

    def _pop_change(self, o: int, d: int) -> None:
        p = self.players[o]
        before = p.population
        q = max(0, before + d)
        if self.options["pop_max"] > 0:
            q = min(q, self.options["pop_max"])
        p.population = q
        pen = self.pen
        if q > before:
            lo = before if self.options["red_line_down"] else max(before, p.pop_high)
            p.pop_high = max(p.pop_high, q)
            for L in self.lines:
                if lo <= L < q:
                    self._change(o, INC, -pen)
                    self._change(o, REP, -pen)
                    p.redlines_up += 1
                    self._fire_redline_records(o, 1)
        elif q < before and self.options["red_line_down"]:
            for L in reversed(self.lines):
                if q <= L < before:
                    self._change(o, INC, pen)
                    self._change(o, REP, pen)
                    p.redlines_down += 1
                    if self.o_reverse:
                        self._fire_redline_records(o, -1)

    def _income_step(self, c: int) -> None:
        p = self.players[c]
        i = p.income
        if i > 0:
            p.money += i
        elif i < 0:
            if p.money >= -i:
                p.money -= -i
            else:
                missing = -i - p.money
                p.money = 0
                self._pop_change(c, -min(missing, p.population))

    def _reputation_step(self, c: int) -> None:
        p = self.players[c]
        r = p.reputation
        if r > 0:
            self._pop_change(c, r)
        elif r < 0:
            if p.population >= -r:
                self._pop_change(c, r)
            else:
                below = -r - p.population
                self._pop_change(c, -p.population)
                if self.options["rep_debt"] == "pay_what_you_have":
                    p.money -= min(p.money, below)
                elif p.money >= below:
                    p.money -= below

    # ---------------------------------------------------------------- records (1.2)

    def _count(self, o: int, T: _Tile, rec: list, replay: bool) -> int:
        """Count of a record of T (owner o) at T's placement or at an investment replay."""
        scope, mask = rec[2], rec[3]
        ci = self.options["counts_itself"]
        if scope in ("adj", "lake_adj"):
            return sum(1 for Y in self._adjacent_tiles(o, T.x, T.y) if self._cls(Y) & mask)
        if scope == "own":
            return sum(1 for Y in self.players[o].tiles
                       if self._cls(Y) & mask and (ci or Y is not T))
        if scope == "every":
            return sum(1 for p in self.players for Y in p.tiles
                       if self._cls(Y) & mask and (ci or Y is not T))
        if scope == "others":
            return sum(1 for s, p in enumerate(self.players) if s != o
                       for Y in p.tiles if self._cls(Y) & mask)
        if scope == "after":
            if not replay:
                return 0
            seats = range(self.n) if self.o_any_after else (o,)
            return sum(1 for s in seats for Y in self.players[s].tiles
                       if Y.turn > T.turn and self._cls(Y) & mask)
        if scope == "redline":
            if not replay:
                return 0
            return self._rl_counter(o) - T.rl
        if scope == "lakebonus":
            return self._waterfront_count(o, T)
        raise AssertionError(scope)

    def _fire_own_records(self, o: int, T: _Tile, replay: bool) -> None:
        """Step 3 of a placement, or the record part of an investment replay (mult 1)."""
        for rec in self.k_recs[T.kind]:
            n = self._count(o, T, rec, replay)
            if n == 0:
                continue
            if rec[2] == "lake_adj":
                self._change(o, rec[0], n * (rec[1] + self._lake_bonus(o)))
            else:
                self._change(o, rec[0], rec[1] * n)

    def _react(self, o: int, T: _Tile, rec: list) -> None:
        m = 2 if T.invested else 1
        if rec[2] == "lake_adj":
            self._change(o, rec[0], (rec[1] + self._lake_bonus(o)) * m)
        else:
            self._change(o, rec[0], rec[1] * m)

    def _apply_immediate(self, o: int, kind: int) -> None:
        for stat in (INC, REP, POP, MONEY):
            d = self.k_imm[kind][stat]
            if d:
                self._change(o, stat, d)

    def _place_tile(self, c: int, kind: int, x: int, y: int, frm: int) -> None:
        """The six-step resolution (contract section 6)."""
        p = self.players[c]
        X = _Tile(kind, x, y, self.turn, False, self._rl_counter(c), frm)
        p.add(X)
        self._apply_immediate(c, kind)
        self._fire_own_records(c, X, replay=False)
        if not self.options["tile_reactions"]:
            return
        cls = self.k_cls[kind]
        nb = set(neighbours(x, y))
        own_tiles = [t for t in p.tiles if t is not X]
        # step 4: adjacent own tiles
        for T in own_tiles:
            if (T.x, T.y) not in nb:
                continue
            for rec in self.k_recs[T.kind]:
                if cls & rec[3] and rec[2] in ("adj", "lake_adj", "own", "every", "after"):
                    self._react(c, T, rec)
        # step 5: non-adjacent own tiles
        for T in own_tiles:
            if (T.x, T.y) in nb:
                continue
            for rec in self.k_recs[T.kind]:
                if cls & rec[3] and rec[2] in ("own", "every", "after"):
                    self._react(c, T, rec)
        # step 6: other boroughs
        for j in range(1, self.n):
            o = (c + j) % self.n
            for T in list(self.players[o].tiles):
                for rec in self.k_recs[T.kind]:
                    if not cls & rec[3]:
                        continue
                    sc = rec[2]
                    if sc in ("every", "others") or (sc == "after" and self.o_any_after):
                        self._react(o, T, rec)

    def _invest(self, c: int, t: int) -> None:
        """Section 7 (the price is paid by the caller)."""
        T = self.players[c].tiles[t]
        if self.options["invest_replay"]:
            self._apply_immediate(c, T.kind)
            self._fire_own_records(c, T, replay=True)
        T.invested = True

    # ---------------------------------------------------------------- flow (section 5)

    def _begin_turn(self, s: int) -> None:
        self.turn += 1
        self.current = s
        self.phase = "action"

    def _discard_legal(self) -> bool:
        money = self.players[self.current].money
        return any(self.market[s] is not None and self.sur[s] <= money for s in range(7))

    def _discard_step(self) -> None:
        if self._discard_legal():
            self.phase = "discard"
        else:
            self._action_over()

    def _action_over(self) -> None:
        c = self.current
        if not self.o_each:
            self._clamp_all()
        self._income_step(c)
        if not self.o_each:
            self._clamp_all()
        self._reputation_step(c)
        if not self.o_each:
            self._clamp_all()
        if self.n == 1 and self._discard_legal():
            self.phase = "extra_discard"
            return
        self._refill_and_end()

    def _refill_and_end(self) -> None:
        self._refill()
        self._end_turn()

    def _refill(self) -> None:
        tiles = [k for k in self.market if k is not None]
        e = 7 - len(tiles)
        self.market = [None] * e + tiles
        i = 0
        while i < e:
            if not self.pile:
                break
            k = self.pile.pop()
            if k == K_OMR:
                if self.n >= 2:
                    if self.last_round < 0:
                        self.last_round = self.round + 1
                else:
                    self.last_round = self.round
                if self.options["omr_replacement"]:
                    continue
                break
            self.market[e - 1 - i] = k
            i += 1

    def _end_turn(self) -> None:
        c = self.current
        n = self.n
        if n == 1:
            if self.last_round >= 0:
                self._end_game("end")
                return
        elif c == n - 1 and self.last_round >= 0 and self.round == self.last_round:
            self._end_game("end")
            return
        if self.decisions >= 400:
            self._end_game("limit")
            return
        if n == 1:
            self.round += 1
            self._begin_turn(0)
        elif c == n - 1:
            self.round += 1
            self._begin_turn(0)
        else:
            self._begin_turn(c + 1)

    # ---------------------------------------------------------------- end (section 11)

    def _measure(self, s: int, g: int) -> int:
        _name, meas, _dr, mask, _b = self.goal_tab[g]
        p = self.players[s]
        if meas == "count":
            return sum(1 for t in p.tiles if self._cls(t) & mask)
        if meas == "group":
            best = 0
            seen = set()
            for t in p.tiles:
                if (t.x, t.y) in seen or not self._cls(t) & mask:
                    continue
                size = 0
                stack = [(t.x, t.y)]
                seen.add((t.x, t.y))
                while stack:
                    q = stack.pop()
                    size += 1
                    for r in neighbours(*q):
                        u = p.occ.get(r)
                        if u is not None and r not in seen and self._cls(u) & mask:
                            seen.add(r)
                            stack.append(r)
                best = max(best, size)
            return best
        if meas == "money":
            return p.money
        if meas == "income":
            return p.income
        if meas == "reputation":
            return p.reputation
        if meas == "investments":
            return p.markers()
        raise AssertionError(meas)

    def _end_game(self, reason: str) -> None:
        self.phase = "over"
        self.end_reason = reason
        self.pending = None
        n = self.n
        if n >= 2:
            vals = [[self._measure(s, g) for s in range(n)] for g in range(NG)]

            def better(a, b, d):
                return a > b if d > 0 else a < b

            def award(s, g):
                b = self.goal_tab[g][4]
                p = self.players[s]
                p.goal_pop += b
                p.population += b
                p.goals_scored.append(g)

            for g in self.public_goals:
                d = self.goal_tab[g][2]
                for s in range(n):
                    if all(better(vals[g][s], vals[g][o], d) for o in range(n) if o != s):
                        award(s, g)
                        break
            for s in range(n):
                g = self.private_goals[s]
                if g is None:
                    continue
                d = self.goal_tab[g][2]
                others = [o for o in range(n) if o != s]
                if all(better(vals[g][s], vals[g][o], d) for o in others):
                    award(s, g)
                elif self.options["private_goal_ties"] == "tie_scores" and not any(
                        better(vals[g][o], vals[g][s], d) for o in others):
                    award(s, g)
            for p in self.players:
                p.goals_scored.sort()
        for p in self.players:
            p.money_pop = p.money // 5
            p.population += p.money_pop
            p.money = p.money % 5

    # ---------------------------------------------------------------- public API

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[int]:
        return [p.population for p in self.players]

    def _rank_key(self, s: int):
        p = self.players[s]
        if self.options["tie_break"] == "rep_inc_money":
            return (p.population, p.reputation, p.income, p.money)
        return (p.population, p.reputation, p.income)

    def ranks(self) -> list[int]:
        """Competition ranking (1, 1, 3) of section 11 step 3."""
        keys = [self._rank_key(s) for s in range(self.n)]
        return [1 + sum(1 for o in range(self.n) if keys[o] > keys[s]) for s in range(self.n)]

    def win_shares(self) -> list[float]:
        r = self.ranks()
        k = r.count(1)
        return [1.0 / k if x == 1 else 0.0 for x in r]

    def markers(self, s: int) -> int:
        return self.players[s].markers()

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _legal_cells(self, c: int) -> list[int]:
        p = self.players[c]
        w = self.options["borough_width"]
        half = (w - 1) // 2 if w > 0 else None
        cells = set()
        for t in p.tiles:
            for (x, y) in neighbours(t.x, t.y):
                if not (X_MIN <= x <= X_MAX and 0 <= y <= Y_MAX):
                    continue
                if (x, y) in p.occ:
                    continue
                if half is not None and abs(x) > half:
                    continue
                cells.add(cell_id(x, y))
        return sorted(cells)

    def _compute_legal(self) -> list[int]:
        ph = self.phase
        if ph == "goal":
            return [A_KEEP + j for j in range(len(self.goal_offers[self.current]))]
        if ph == "over":
            return []
        c = self.current
        p = self.players[c]
        money = p.money
        if ph == "place":
            return [A_PLACE + cid for cid in self._legal_cells(c)]
        if ph in ("discard", "extra_discard"):
            return [A_DISCARD + s for s in range(7)
                    if self.market[s] is not None and self.sur[s] <= money]
        # action
        acts = []
        for s in range(7):
            k = self.market[s]
            if k is not None and self.k_price[k] + self.sur[s] <= money:
                acts.append(A_BUY + s)
        for b in range(3):
            if self.supply[b] >= 1 and self.k_price[b + 1] <= money:
                acts.append(A_BASIC + b)
        for s in range(7):
            if self.market[s] is not None and self.sur[s] <= money:
                acts.append(A_LAKE + s)
        if p.markers() < self.consts["investment_markers"]:
            for t, T in enumerate(p.tiles[:MAX_TILES]):
                if T.invested:
                    continue
                if T.kind == K_LAKE and not self.options["invest_on_lake"]:
                    continue
                if self.k_price[T.kind] <= money:
                    acts.append(A_INVEST + t)
        if not acts:
            acts.append(A_PASS)
        return acts

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r} ({self.action_to_string(action)}) "
                             f"in phase {self.phase}")
        self._legal = None
        self.decisions += 1
        c = self.current
        p = self.players[c]
        a = action
        if self.phase == "goal":
            self.private_goals[c] = self.goal_offers[c][a - A_KEEP]
            if c + 1 < self.n:
                self.current = c + 1
            else:
                self._begin_turn(0)
        elif a < A_BASIC:  # BUY
            k = self.market[a]
            p.money -= self.k_price[k] + self.sur[a]
            self.market[a] = None
            self.pending = (k, "buy", 0)
            self.phase = "place"
        elif a < A_LAKE:  # BASIC
            b = a - A_BASIC
            kind = b + 1
            p.money -= self.k_price[kind]
            self.supply[b] -= 1
            self.pending = (kind, "basic", 0)
            self.phase = "place"
        elif a < A_INVEST:  # LAKE
            s = a - A_LAKE
            k = self.market[s]
            p.money -= self.sur[s]
            self.market[s] = None
            self.pending = (K_LAKE, "lake", k)
            self.phase = "place"
        elif a < A_DISCARD:  # INVEST
            t = a - A_INVEST
            p.money -= self.k_price[p.tiles[t].kind]
            self._invest(c, t)
            if not self.o_each:
                self._clamp_all()
            self._discard_step()
        elif a < A_KEEP:  # DISCARD
            s = a - A_DISCARD
            p.money -= self.sur[s]
            self.discard[self.market[s]] += 1
            self.market[s] = None
            if self.phase == "discard":
                self._action_over()
            else:
                self._refill_and_end()
        elif a == A_PASS:
            self._action_over()
        else:  # PLACE
            x, y = cell_xy(a - A_PLACE)
            kind, src, frm = self.pending
            self.pending = None
            self._place_tile(c, kind, x, y, frm)
            if not self.o_each:
                self._clamp_all()
            if src == "basic":
                self._discard_step()
            else:
                self._action_over()

    # ------------------------------------------------------------ strings

    def action_to_string(self, a: int) -> str:
        if not isinstance(a, int) or not (0 <= a < NUM_ACTIONS):
            return f"INVALID({a!r})"
        if a < A_BASIC:
            k = self.market[a]
            return f"BUY {a} ({KIND_NAMES[k] if k else 'empty'})"
        if a < A_LAKE:
            return f"BASIC {KIND_NAMES[a - A_BASIC + 1]}"
        if a < A_INVEST:
            k = self.market[a - A_LAKE]
            return f"LAKE {a - A_LAKE} ({KIND_NAMES[k] if k else 'empty'})"
        if a < A_DISCARD:
            t = a - A_INVEST
            tiles = self.players[self.current].tiles
            name = KIND_NAMES[tiles[t].kind] if t < len(tiles) else "?"
            return f"INVEST {t} ({name})"
        if a < A_KEEP:
            k = self.market[a - A_DISCARD]
            return f"DISCARD {a - A_DISCARD} ({KIND_NAMES[k] if k else 'empty'})"
        if a < A_PASS:
            j = a - A_KEEP
            offers = self.goal_offers[self.current] if self.goal_offers else []
            return f"KEEP {j} ({GOAL_NAMES[offers[j]] if j < len(offers) else '?'})"
        return action_to_string(a)

    # ------------------------------------------------------------ invariants (section 12)

    def check_invariants(self) -> None:
        total = [0] * NK
        for k in self.pile:
            total[k] += 1
        for k in self.market:
            if k is not None:
                total[k] += 1
        for k in range(NK):
            total[k] += self.discard[k] + self.box[k]
        for b in range(3):
            total[b + 1] += self.supply[b]
        for p in self.players:
            for t in p.tiles:
                total[t.frm if t.kind == K_LAKE else t.kind] += 1
            assert -5 <= p.income <= 15 and -5 <= p.reputation <= 15, "track out of range"
            assert p.population >= 0 and p.money >= 0
            assert p.markers() <= self.consts["investment_markers"]
        if self.pending is not None:
            kind, src, frm = self.pending
            total[frm if src == "lake" else kind] += 1
        if K_OMR not in self.pile:
            total[K_OMR] += 1
        for k in range(1, NK):
            if k == K_LAKE:
                continue
            assert total[k] == self.k_count[k], (KIND_NAMES[k], total[k], self.k_count[k])
        if self.phase in ("action", "goal", "over"):
            filled = [k is not None for k in self.market]
            assert filled == sorted(filled), "market not packed right"
        assert (self.pending is not None) == (self.phase == "place")

    # --------------------------------------------------------- dict I/O (section 12)

    def to_dict(self) -> dict:
        def counts(lst):
            return {KIND_NAMES[k]: lst[k] for k in range(1, NK) if lst[k]}

        def tile(t):
            d = {"tile": KIND_NAMES[t.kind]}
            if t.kind == K_LAKE:
                d["from"] = KIND_NAMES[t.frm]
            d.update({"x": t.x, "y": t.y, "turn": t.turn, "invested": t.invested, "rl": t.rl})
            return d

        if self.pending is None:
            pend = None
        else:
            kind, src, frm = self.pending
            pend = {"tile": KIND_NAMES[kind], "source": src}
            if src == "lake":
                pend["from"] = KIND_NAMES[frm]
        return {
            "game": "suburbia",
            "n_players": self.n,
            "options": {k: self.options[k] for k in DEFAULT_OPTIONS},
            "rng": "0x%016x" % self.rng.state,
            "phase": self.phase,
            "current": self.current,
            "round": self.round,
            "turn": self.turn,
            "decisions": self.decisions,
            "last_round": self.last_round,
            "end_reason": self.end_reason,
            "pile": [KIND_NAMES[k] for k in self.pile],
            "market": [KIND_NAMES[k] if k is not None else None for k in self.market],
            "discard": counts(self.discard),
            "box": counts(self.box),
            "supply": {KIND_NAMES[b + 1]: self.supply[b] for b in range(3)},
            "public_goals": [GOAL_NAMES[g] for g in self.public_goals],
            "goal_offers": [[GOAL_NAMES[g] for g in offers] for offers in self.goal_offers],
            "private_goals": [GOAL_NAMES[g] if g is not None else None
                              for g in self.private_goals],
            "pending": pend,
            "players": [{
                "money": p.money, "income": p.income, "reputation": p.reputation,
                "population": p.population, "pop_high": p.pop_high,
                "redlines_up": p.redlines_up, "redlines_down": p.redlines_down,
                "goal_pop": p.goal_pop, "money_pop": p.money_pop,
                "goals_scored": [GOAL_NAMES[g] for g in p.goals_scored],
                "tiles": [tile(t) for t in p.tiles],
            } for p in self.players],
        }

    @classmethod
    def from_dict(cls, d: dict, data: dict | None = None) -> "SuburbiaRef":
        for k in _STATE_KEYS:
            if k not in d:
                raise ValueError(f"state dict lacks key {k!r}")
        if d["game"] != "suburbia":
            raise ValueError(f"not a suburbia state: {d['game']!r}")
        n = d["n_players"]
        if isinstance(n, bool) or not isinstance(n, int) or not (1 <= n <= 4):
            raise ValueError(f"n_players must be 1..4, got {n!r}")
        missing = [k for k in DEFAULT_OPTIONS if k not in d["options"]]
        if missing:
            raise ValueError(f"options lack {missing}")

        def kind_of(name, allow_lake=False):
            if name not in KIND_OF or (name == "Lake" and not allow_lake):
                raise ValueError(f"unknown tile name {name!r}")
            return KIND_OF[name]

        def goal_of(name):
            if name not in GOAL_OF:
                raise ValueError(f"unknown goal name {name!r}")
            return GOAL_OF[name]

        def counts(dd):
            lst = [0] * NK
            for name, cnt in dd.items():
                if isinstance(cnt, bool) or not isinstance(cnt, int) or cnt < 0:
                    raise ValueError(f"bad count for {name}: {cnt!r}")
                lst[kind_of(name)] = cnt
            return lst

        g = cls.__new__(cls)
        g.n = n
        g.options = _merge_options(d["options"])
        g.data = _merge_data(data)
        g._prepare()
        rng = d["rng"]
        g.rng = Rng(int(rng, 16) if isinstance(rng, str) else int(rng))
        if d["phase"] not in PHASES:
            raise ValueError(f"bad phase {d['phase']!r}")
        g.phase = d["phase"]
        g.current = int(d["current"])
        if not (0 <= g.current < n):
            raise ValueError(f"bad current seat {g.current}")
        g.round = int(d["round"])
        g.turn = int(d["turn"])
        g.decisions = int(d["decisions"])
        g.last_round = int(d["last_round"])
        if d["end_reason"] not in ("none", "end", "limit"):
            raise ValueError(f"bad end_reason {d['end_reason']!r}")
        g.end_reason = d["end_reason"]
        g.pile = [kind_of(x) for x in d["pile"]]
        if len(d["market"]) != 7:
            raise ValueError("market must have 7 slots")
        g.market = [kind_of(x) if x is not None else None for x in d["market"]]
        g.discard = counts(d["discard"])
        g.box = counts(d["box"])
        g.supply = [int(d["supply"][KIND_NAMES[b + 1]]) for b in range(3)]
        g.public_goals = [goal_of(x) for x in d["public_goals"]]
        g.goal_offers = [[goal_of(x) for x in offers] for offers in d["goal_offers"]]
        if len(d["private_goals"]) != n:
            raise ValueError(f"private_goals must have {n} entries")
        g.private_goals = [goal_of(x) if x is not None else None for x in d["private_goals"]]
        pend = d["pending"]
        if pend is None:
            g.pending = None
        else:
            src = pend["source"]
            if src not in ("buy", "basic", "lake"):
                raise ValueError(f"bad pending source {src!r}")
            if src == "lake":
                if pend["tile"] != "Lake":
                    raise ValueError("a lake pending tile must be 'Lake'")
                g.pending = (K_LAKE, "lake", kind_of(pend["from"]))
            else:
                g.pending = (kind_of(pend["tile"]), src, 0)
        if len(d["players"]) != n:
            raise ValueError(f"players must have {n} entries")
        g.players = []
        for pd in d["players"]:
            for k in _PLAYER_KEYS:
                if k not in pd:
                    raise ValueError(f"player dict lacks key {k!r}")
            p = _Player()
            for k in _PLAYER_KEYS[:9]:
                setattr(p, k, int(pd[k]))
            p.goals_scored = [goal_of(x) for x in pd["goals_scored"]]
            for td in pd["tiles"]:
                kind = kind_of(td["tile"], allow_lake=True)
                frm = kind_of(td["from"]) if kind == K_LAKE else 0
                x, y = int(td["x"]), int(td["y"])
                if (x + y) % 2 or not (X_MIN <= x <= X_MAX and 0 <= y <= Y_MAX):
                    raise ValueError(f"bad cell ({x}, {y})")
                if (x, y) in p.occ:
                    raise ValueError(f"two tiles on ({x}, {y})")
                p.add(_Tile(kind, x, y, int(td["turn"]), bool(td["invested"]), int(td["rl"]),
                            frm))
            if len(p.tiles) > MAX_TILES:
                raise ValueError(f"a borough holds at most {MAX_TILES} tiles")
            g.players.append(p)
        g._legal = None
        return g


def action_to_string(a: int) -> str:
    """Name of an action id without a state."""
    if not isinstance(a, int) or not (0 <= a < NUM_ACTIONS):
        return f"INVALID({a!r})"
    if a < A_BASIC:
        return f"BUY {a}"
    if a < A_LAKE:
        return f"BASIC {KIND_NAMES[a - A_BASIC + 1]}"
    if a < A_INVEST:
        return f"LAKE {a - A_LAKE}"
    if a < A_DISCARD:
        return f"INVEST {a - A_INVEST}"
    if a < A_KEEP:
        return f"DISCARD {a - A_DISCARD}"
    if a < A_PASS:
        return f"KEEP {a - A_KEEP}"
    if a == A_PASS:
        return "PASS"
    x, y = cell_xy(a - A_PLACE)
    return f"PLACE ({x},{y})"


def play_random_game(n_players: int, seed: int, options: dict | None = None,
                     bot_seed: int = 0) -> SuburbiaRef:
    """Play a whole game choosing uniformly among legal actions."""
    return play_random(SuburbiaRef, n_players, seed, options, bot_seed)


__all__ = [
    "DEFAULT_DATA", "DEFAULT_OPTIONS", "NUM_ACTIONS", "SuburbiaRef", "play_random_game",
    "action_to_string", "cell_id", "cell_xy",
]


# the reference the conformance test plays against the engine (tests/test_engines_vs_references.py)
REFERENCE = SuburbiaRef
REFERENCE_GAMES = 200  # games at the default options, spread over the player counts
