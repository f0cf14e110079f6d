"""Plain-Python reference implementation of Little Town.

Written independently from the numba engine, strictly from the contract
``docs/games/little_town.md`` (component data, action ids, SplitMix64 setup and market
variants, turn flow, goal checks, end of round/game, options, state dict) and the rules spec
``shared/rules/little_town.md``. Slow but meant to be obviously correct; it is compared with
the engine decision by decision.

Internal representation
-----------------------
Almost everything is kept in the layout of the state dict (contract section 11): lists of
ints indexed by cell (0..53), building id (0..24), resource (0 wood, 1 stone, 2 fish,
3 wheat) or seat. Per-seat data are parallel lists (``coins[p]``, ``cubes[p]``, ...).
The component data are kept as the dict of the state (``self.data``) plus tables derived
from it (``self.cost[b]``, ``self.nb[cell]`` ...).

An applied action runs in three steps (contract 8.2): its *effect* (payment checks and the
feeding check included), one *state check* of the goals, then the *automatic continuation*
(``end_turn`` or the end-of-round sequence). After a chosen action, forced moves (exactly
one legal action) are applied the same way (L2).
"""

from __future__ import annotations

import copy

from tests.reference.common import check_state_head, copy_data, play_random
from tests.reference.go_town import MASK64, Rng, mix, seed_for  # noqa: F401  (re-exported)

# --------------------------------------------------------------------------
# Constants (contract sections 1 and 5)
# --------------------------------------------------------------------------

RES_NAMES = ("wood", "stone", "fish", "wheat")
WOOD, STONE, FISH, WHEAT = range(4)
TERRAIN = {"G": 0, "F": 1, "M": 2, "L": 3}   # F/M/L give resource terrain-1
ROWS, COLS, NCELLS = 6, 9, 54
NB_SLOTS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
ORTHO_SLOTS = (1, 3, 4, 6)

WHEAT_FIELD, PAWNSHOP, CATHEDRAL, RESIDENCE, CASTLE, WATCHTOWER = 0, 17, 21, 22, 23, 24
NB = 25  # number of building ids

NUM_ACTIONS = 272
A_PLACE = 0          # 0..53
A_BUILD = 54         # 54..78
A_SITE = 79          # 79..132
A_ACTIVATE = 133     # 133..140
A_PAWN = 141         # 141..240
A_GATHER = 241
A_END = 242
A_FEED_FISH = 243
A_FEED_WHEAT = 244
A_BUY_FISH = 245
A_BUY_WHEAT = 246
A_STARVE = 247
A_PICK = 247         # PICK b = 247 + b, b in 1..24 -> 248..271

PAWN_PAIRS = ((0, 0), (0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3))

PHASES = ("draft", "turn", "act", "site", "residence", "feed", "over")
EOR_STAGES = ("none", "specials", "residence", "feed")
END_REASONS = ("none", "end", "limit")
EVENT_KINDS = ("act_two_types", "spend_gathered", "feed_all_with")
GOAL_KINDS = ("connected", "more_buildings_than_workers", "food_held", "terrain_trio",
              "act_two_types", "feed_all_with", "own_set", "coins_eq", "coins_ge",
              "spend_gathered", "acts_in_turn", "vp_acts_in_turn", "gather_in_turn")
STAT_KEYS = ("placements", "builds", "activations", "gathered", "cubes_bought", "food_bought",
             "fees_paid", "fees_earned", "unfed", "vp_build", "vp_act", "vp_goal",
             "vp_cathedral", "vp_castle", "vp_watchtower", "vp_coins", "vp_unfed")

# --------------------------------------------------------------------------
# Component data (contract section 1)
# --------------------------------------------------------------------------

_Z = (0, 0, 0, 0)
# name, count, cost, cost_coins, vp, kind, input, input_coins, output, output_coins,
# output_vp, bird
_BUILDING_ROWS = [
    ("Wheat Field", 5, (1, 0, 0, 0), 0, 3, "P", _Z, 0, (0, 0, 0, 1), 0, 0, False),
    ("Workshop", 1, (0, 2, 0, 0), 0, 5, "X", (2, 0, 0, 0), 0, _Z, 0, 3, True),
    ("Tavern", 1, (0, 2, 0, 2), 0, 7, "P", _Z, 0, _Z, 0, 3, False),
    ("Bakery", 1, (2, 0, 0, 0), 0, 4, "X", (0, 0, 0, 1), 0, _Z, 4, 0, True),
    ("Brewery", 1, (2, 0, 0, 0), 0, 4, "X", (0, 0, 0, 1), 0, _Z, 0, 3, False),
    ("Quarry", 1, (3, 0, 0, 0), 0, 5, "X", _Z, 2, (0, 2, 0, 0), 0, 0, True),
    ("Carpenter", 1, (2, 0, 0, 0), 0, 4, "X", _Z, 1, (3, 0, 0, 0), 0, 0, False),
    ("Grocery", 1, (2, 0, 0, 0), 0, 4, "X", _Z, 1, (0, 0, 1, 1), 0, 0, True),
    ("Church", 1, (0, 4, 0, 0), 0, 8, "X", _Z, 3, _Z, 0, 5, True),
    ("Warehouse", 1, (0, 4, 0, 0), 0, 8, "X", (0, 2, 0, 0), 0, _Z, 0, 5, True),
    ("Market", 1, (4, 0, 0, 0), 0, 6, "X", (1, 1, 1, 1), 0, _Z, 0, 7, False),
    ("Fountain", 1, (0, 2, 0, 0), 0, 5, "X", _Z, 1, _Z, 0, 3, False),
    ("Barn", 1, (4, 0, 0, 0), 0, 6, "X", (0, 0, 0, 2), 0, _Z, 0, 5, True),
    ("Bookstore", 1, (0, 4, 0, 0), 0, 8, "P", _Z, 0, _Z, 3, 0, False),
    ("Gold Mine", 1, (1, 1, 0, 0), 0, 4, "P", _Z, 0, _Z, 2, 0, True),
    ("Fishmonger", 1, (1, 1, 0, 0), 0, 4, "X", (0, 0, 1, 0), 0, _Z, 3, 0, False),
    ("Pier", 1, (3, 0, 0, 0), 0, 5, "P", _Z, 0, (0, 0, 2, 0), 0, 0, False),
    ("Pawnshop", 1, (3, 0, 0, 0), 0, 5, "X", _Z, 0, _Z, 0, 0, True),
    ("Well", 1, (1, 1, 0, 0), 0, 4, "P", _Z, 0, _Z, 0, 2, True),
    ("Restaurant", 1, (2, 2, 0, 0), 0, 7, "X", (0, 0, 1, 1), 0, _Z, 0, 4, False),
    ("Statue", 1, (0, 4, 0, 0), 0, 10, "N", _Z, 0, _Z, 0, 0, True),
    ("Cathedral", 1, (0, 6, 0, 0), 0, 11, "R", _Z, 0, _Z, 0, 0, False),
    ("Residence", 1, _Z, 6, 2, "R", _Z, 0, _Z, 0, 0, False),
    ("Castle", 1, (0, 6, 0, 0), 0, 0, "E", _Z, 0, _Z, 0, 0, True),
    ("Watchtower", 1, (3, 3, 0, 0), 0, 0, "E", _Z, 0, _Z, 0, 0, False),
]

# card, kind, param, vp, bang, set, need
_GOAL_ROWS = [
    (1, "connected", 3, 3, False, [], 0),
    (2, "more_buildings_than_workers", 0, 3, False, [], 0),
    (3, "food_held", 2, 3, False, [], 0),
    (4, "terrain_trio", 0, 3, False, [], 0),
    (5, "act_two_types", 2, 2, True, [10, 17, 19], 1),
    (6, "feed_all_with", 2, 2, False, [], 0),
    (7, "feed_all_with", 3, 2, False, [], 0),
    (8, "own_set", 1, 2, True, [7, 10, 15, 16, 19], 1),
    (9, "own_set", 2, 3, True, [3, 5, 6, 7, 8, 11, 13, 14, 15], 2),
    (10, "own_set", 1, 2, True, [1, 5, 6, 9, 10], 1),
    (11, "own_set", 1, 2, True, [8, 9, 13, 20, 21, 23, 24], 1),
    (12, "coins_eq", 0, 3, False, [], 0),
    (13, "coins_ge", 6, 2, True, [3, 13, 14, 15], 1),
    (14, "spend_gathered", 1, 2, True, [1, 3, 4, 9, 10, 12, 15, 17, 19], 1),
    (15, "acts_in_turn", 4, 3, False, [], 0),
    (16, "vp_acts_in_turn", 2, 2, True, [1, 2, 4, 8, 9, 10, 11, 12, 18, 19], 2),
    (17, "gather_in_turn", 5, 2, False, [], 0),
    (18, "own_set", 1, 2, True, [5, 10, 12, 16, 17, 24], 1),
]

DEFAULT_DATA = {
    "buildings": [
        {"name": r[0], "count": r[1], "cost": list(r[2]), "cost_coins": r[3], "vp": r[4],
         "kind": r[5], "input": list(r[6]), "input_coins": r[7], "output": list(r[8]),
         "output_coins": r[9], "output_vp": r[10], "bird": r[11]}
        for r in _BUILDING_ROWS
    ],
    "goals": [
        {"card": r[0], "kind": r[1], "param": r[2], "vp": r[3], "bang": r[4],
         "set": list(r[5]), "need": r[6]}
        for r in _GOAL_ROWS
    ],
    "boards": {
        "A": ["MGFMGLGMM", "GGGGGGGGG", "LGGGGGGGG", "FGGGGGGGL", "GGGGGGFGG", "GFFGLLGGF"],
        "B": ["FGGMMGLGF", "GGFGGGGGG", "FGGGGGGGL", "GGGGGGGGF", "LGGGFGGGG", "LGGMGGLGM"],
    },
    "per_count": {"2": [5, 7, 4], "3": [4, 6, 3], "4": [3, 6, 2]},
    "consts": {"supply_per_resource": 15, "start_coins": 3, "coin_total": 40, "fee": 1,
               "buy_price": 3, "unfed_penalty": 3, "coins_per_vp": 3, "cathedral_vp": 1,
               "castle_vp": 4, "watchtower_vp": 2, "market_size": 12},
}

# --------------------------------------------------------------------------
# Options (contract section 9)
# --------------------------------------------------------------------------

DEFAULT_OPTIONS = {
    "market": "random",
    "board_side": "A",
    "first_player": "random",
    "rounds": 4,
    "three_player_tip": True,
    "goal7": "omit",
    "bang_check": "need_count",
    "bang_redraw": "repeat",
    "optional_gather": False,
    "coin_bank": "unlimited",
    "cathedral_counts_own": True,
    "residence_gathers_terrain": False,
    "residence_pays_fees": True,
    "castle_counts": "own",
    "watchtower_workers_block": False,
    "pawnshop_must_differ": True,
    "goal5_counts_pawnshop": True,
    "gather_includes_buildings": False,
}

_OPTION_RULES = {
    "market": ("random", "beginner", "draft", "one-of-two"),
    "board_side": ("A", "B"),
    "first_player": ("random", "seat0"),
    "rounds": (3, 4),
    "goal7": ("omit", "feed_wheat"),
    "bang_check": ("need_count", "any_listed"),
    "bang_redraw": ("repeat", "once"),
    "coin_bank": ("unlimited", "limited"),
    "castle_counts": ("own", "all"),
}


def _merge_options(options: dict | None) -> dict:
    opts = dict(DEFAULT_OPTIONS)
    if options:
        for k, v in options.items():
            if k not in DEFAULT_OPTIONS:
                raise ValueError(f"unknown option: {k!r}")
            opts[k] = v
    for k, v in opts.items():
        allowed = _OPTION_RULES.get(k)
        if allowed is None:
            if not isinstance(v, bool):
                raise ValueError(f"option {k} must be a bool, got {v!r}")
        elif k == "rounds":
            if isinstance(v, bool) or not isinstance(v, int) or v not in allowed:
                raise ValueError(f"option rounds must be one of {allowed}, got {v!r}")
        elif not isinstance(v, str) or v not in allowed:
            raise ValueError(f"option {k} must be one of {allowed}, got {v!r}")
    return opts


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _merge_data(data: dict | None) -> dict:
    out = copy.deepcopy(DEFAULT_DATA)
    if data:
        for k, v in data.items():
            if k not in out:
                raise ValueError(f"unknown data key: {k!r}")
            if k == "consts":
                for ck, cv in v.items():
                    if ck not in out["consts"]:
                        raise ValueError(f"unknown data const: {ck!r}")
                    out["consts"][ck] = cv
            else:
                out[k] = copy.deepcopy(v)
    _check_data(out)
    return out


def _check_data(d: dict) -> None:
    bl = d["buildings"]
    if not isinstance(bl, list) or len(bl) != NB:
        raise ValueError("data buildings must be a list of 25 rows")
    for b, row in enumerate(bl):
        for key in ("name", "count", "cost", "cost_coins", "vp", "kind", "input",
                    "input_coins", "output", "output_coins", "output_vp", "bird"):
            if key not in row:
                raise ValueError(f"building {b} lacks {key!r}")
        if row["kind"] not in ("P", "X", "R", "E", "N"):
            raise ValueError(f"building {b}: bad kind {row['kind']!r}")
        for key in ("cost", "input", "output"):
            if len(row[key]) != 4 or not all(_is_int(x) and x >= 0 for x in row[key]):
                raise ValueError(f"building {b}: {key} must be 4 ints >= 0")
        for key in ("count", "cost_coins", "vp", "input_coins", "output_coins", "output_vp"):
            if not _is_int(row[key]) or row[key] < 0:
                raise ValueError(f"building {b}: {key} must be an int >= 0")
        if not isinstance(row["bird"], bool):
            raise ValueError(f"building {b}: bird must be a bool")
    gl = d["goals"]
    if not isinstance(gl, list) or len(gl) != 18:
        raise ValueError("data goals must be a list of 18 rows")
    for i, row in enumerate(gl):
        for key in ("card", "kind", "param", "vp", "bang", "set", "need"):
            if key not in row:
                raise ValueError(f"goal row {i} lacks {key!r}")
        if row["card"] != i + 1:
            raise ValueError("goal rows must be cards 1..18 in order")
        if row["kind"] not in GOAL_KINDS:
            raise ValueError(f"goal {i + 1}: bad kind {row['kind']!r}")
        if not all(_is_int(x) and 0 <= x < NB for x in row["set"]):
            raise ValueError(f"goal {i + 1}: bad set")
    for side in ("A", "B"):
        rows = d["boards"].get(side)
        if (not isinstance(rows, list) or len(rows) != ROWS
                or not all(isinstance(r, str) and len(r) == COLS and set(r) <= set("GFML")
                           for r in rows)):
            raise ValueError(f"board {side} must be 6 strings of 9 letters GFML")
    for k in ("2", "3", "4"):
        pc = d["per_count"].get(k)
        if not isinstance(pc, list) or len(pc) != 3 or not all(_is_int(x) and x >= 1 for x in pc):
            raise ValueError(f"per_count[{k}] must be 3 ints >= 1")
    for k, v in d["consts"].items():
        if not _is_int(v) or v < 0:
            raise ValueError(f"const {k} must be an int >= 0")


_STATE_KEYS = (
    "game", "n_players", "options", "data", "rng", "phase", "current", "round",
    "start_player", "first_player", "last_start", "turn", "turns_total", "decisions",
    "end_reason", "supply", "bank", "bank_min", "market", "market_start", "building", "owner",
    "worker", "pending", "placement", "eor", "feed", "goal_deck", "goal_discard", "draft",
    "players",
)
_PLAYER_KEYS = ("coins", "cubes", "score", "houses", "workers_used", "on_site", "goals",
                "built", "built_round", "act_own", "act_by_others", "pick", "stats")


def _cell_name(cell: int) -> str:
    return f"({cell // COLS},{cell % COLS})"


def _neighbours() -> list[list[int]]:
    out = []
    for cell in range(NCELLS):
        r, c = divmod(cell, COLS)
        row = []
        for dr, dc in NB_SLOTS:
            rr, cc = r + dr, c + dc
            row.append(rr * COLS + cc if 0 <= rr < ROWS and 0 <= cc < COLS else -1)
        out.append(row)
    return out


NEIGHBOURS = _neighbours()


# --------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------

class LittleTownRef:
    """One game of Little Town, following docs/games/little_town.md exactly."""

    def __init__(self, n_players: int, seed: int, options: dict | None = None,
                 data: dict | None = None):
        if not _is_int(n_players) or not (2 <= n_players <= 4):
            raise ValueError(f"n_players must be 2..4, got {n_players!r}")
        n = self.n = n_players
        self.options = _merge_options(options)
        self.data = _merge_data(data)
        self._derive()
        self.rng = Rng(int(seed) & MASK64)
        cs = self.consts

        # --- setup (contract section 3) ---
        self.supply = [cs["supply_per_resource"]] * 4
        self.bank = cs["coin_total"] - cs["start_coins"] * n
        self.bank_min = self.bank
        self.coins = [cs["start_coins"]] * n
        self.cubes = [[0, 0, 0, 0] for _ in range(n)]
        self.score = [0] * n
        self.houses = [self.n_houses] * n
        self.workers_used = [0] * n
        self.on_site = [0] * n
        self.goals: list[list[list[int]]] = [[] for _ in range(n)]
        self.built = [[0] * NB for _ in range(n)]
        self.built_round = [[0] * NB for _ in range(n)]
        self.act_own = [[0] * NB for _ in range(n)]
        self.act_by_others = [[0] * NB for _ in range(n)]
        self.pick = [[0] * NB for _ in range(n)]
        self.stats = [{k: 0 for k in STAT_KEYS} for _ in range(n)]
        self.market = [0] * NB
        self.market[0] = self.count[0]
        self.market_start = [0] * NB
        self.building = [-1] * NCELLS
        self.owner = [-1] * NCELLS
        self.worker = [-1] * NCELLS
        self.pending = -1
        self.placement = self._new_placement(-1, -1, 0)
        self.eor_stage = "none"
        self.eor_index = 0
        self.feed = {"left": 0, "fish": 0, "wheat": 0}
        self.goal_deck: list[int] = []
        self.goal_discard: list[int] = []
        self.draft_deck: list[int] = []
        self.draft_hands: list[list[int]] = [[] for _ in range(n)]
        self.draft_picks = [-1] * n
        self.draft_round = 0
        self.round = 1
        self.turn = 0
        self.turns_total = 0
        self.decisions = 0
        self.end_reason = "none"
        self.phase = "turn"
        self._legal = None

        msize = cs["market_size"]
        mkt = self.options["market"]
        # 1. market
        if mkt == "random":
            tiles = list(range(1, NB))
            self.rng.shuffle(tiles)
            for b in tiles[len(tiles) - msize:]:
                self.market[b] = 1
        elif mkt == "beginner":
            for b in range(1, NB):
                if self.bird[b]:
                    self.market[b] = 1
        # 2. goals
        deck = [card for card in range(1, 19)
                if not (card == 7 and self.options["goal7"] == "omit")]
        self.rng.shuffle(deck)
        for p in range(n):
            for _ in range(self.n_goals):
                self.goals[p].append([deck.pop(), 0])
        self.goal_deck = deck
        # 3. first player
        first = self.rng.rand_below(n) if self.options["first_player"] == "random" else 0
        self.first_player = first
        self.start_player = first
        self.current = first
        self.last_start = [0] * n
        self.last_start[first] = 1
        # 4. draft variants
        if mkt in ("draft", "one-of-two"):
            tiles = list(range(1, NB))
            self.rng.shuffle(tiles)
            self.draft_deck = tiles
            if mkt == "draft":
                for k in range(NB - 1):
                    self.draft_hands[(first + k) % n].append(tiles.pop())
                for h in self.draft_hands:
                    h.sort()
            else:
                self._deal_two()
            self.phase = "draft"
            self.current = first
            self.draft_picks = [-1] * n
            self.draft_round = 0
        else:
            self._finish_setup()
        self._auto()

    # ---------------------------------------------------------------- data

    def _derive(self) -> None:
        """Tables derived from ``self.data`` and ``self.options``."""
        d = self.data
        bl = d["buildings"]
        self.names = [r["name"] for r in bl]
        self.count = [r["count"] for r in bl]
        self.cost = [list(r["cost"]) for r in bl]
        self.cost_coins = [r["cost_coins"] for r in bl]
        self.vp = [r["vp"] for r in bl]
        self.kind = [r["kind"] for r in bl]
        self.inp = [list(r["input"]) for r in bl]
        self.inp_coins = [r["input_coins"] for r in bl]
        self.out = [list(r["output"]) for r in bl]
        self.out_coins = [r["output_coins"] for r in bl]
        self.out_vp = [r["output_vp"] for r in bl]
        self.bird = [r["bird"] for r in bl]
        self.goal_rows = {r["card"]: r for r in d["goals"]}
        rows = d["boards"][self.options["board_side"]]
        self.terrain = [TERRAIN[rows[cell // COLS][cell % COLS]] for cell in range(NCELLS)]
        self.nb = NEIGHBOURS
        pc = d["per_count"][str(self.n)]
        self.n_workers, self.n_houses, self.n_goals = pc
        self.consts = d["consts"]

    def goal_set(self, card: int) -> list[int]:
        s = list(self.goal_rows[card]["set"])
        if card == 5 and not self.options["goal5_counts_pawnshop"]:
            s = [b for b in s if b != PAWNSHOP]
        return s

    @staticmethod
    def _new_placement(seat: int, cell: int, gathered: int) -> dict:
        return {"seat": seat, "cell": cell, "gathered": gathered, "used": [0] * 8,
                "acts": 0, "vp_acts": 0, "gathered_n": 0, "gathered_types": [0, 0, 0, 0]}

    # --------------------------------------------------------------- setup

    def _deal_two(self) -> None:
        n = self.n
        for i in range(n):
            p = (self.first_player + i) % n
            h = self.draft_hands[p]
            h.append(self.draft_deck.pop())
            h.append(self.draft_deck.pop())
            h.sort()

    def _possible(self, card: int) -> bool:
        row = self.goal_rows[card]
        if not row["bang"]:
            return True
        need = row["need"] if self.options["bang_check"] == "need_count" else 1
        have = sum(1 for b in self.goal_set(card) if b >= 1 and self.market[b] >= 1)
        return have >= need

    def _bang_check(self) -> None:
        n = self.n
        repeat = self.options["bang_redraw"] == "repeat"
        for i in range(n):
            p = (self.start_player + i) % n
            for j in range(len(self.goals[p])):
                replaced = 0
                while (not self._possible(self.goals[p][j][0]) and self.goal_deck
                       and (repeat or replaced == 0)):
                    self.goal_discard.append(self.goals[p][j][0])
                    self.goals[p][j] = [self.goal_deck.pop(), 0]
                    replaced += 1

    def _finish_setup(self) -> None:
        self.market_start = list(self.market)
        self._bang_check()
        self.phase = "turn"
        self.current = self.start_player

    # ------------------------------------------------------------- queries

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[int]:
        return list(self.score)

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _feasible(self, c: int, need, k_coins: int) -> bool:
        miss_total = 0
        cub = self.cubes[c]
        for t in range(4):
            miss = need[t] - cub[t]
            if miss > 0:
                if self.supply[t] < miss:
                    return False
                miss_total += miss
        return self.coins[c] >= k_coins + self.consts["buy_price"] * miss_total

    def _free_cell(self, cell: int) -> bool:
        return (self.terrain[cell] == 0 and self.building[cell] < 0
                and self.worker[cell] < 0)

    def _fee_for(self, c: int, x: int) -> int:
        if self.owner[x] == c:
            return 0
        if self.phase == "residence" and not self.options["residence_pays_fees"]:
            return 0
        return self.consts["fee"]

    def _pawn_slot(self, c: int, i: int) -> int:
        """The neighbour slot of the Pawnshop usable with input pair i, or -1."""
        pl = self.placement
        pair = PAWN_PAIRS[i]
        need = [0, 0, 0, 0]
        for t in pair:
            need[t] += 1
        for k, x in enumerate(self.nb[pl["cell"]]):
            if x < 0 or self.building[x] != PAWNSHOP or pl["used"][k]:
                continue
            if self._feasible(c, need, self._fee_for(c, x)):
                return k
        return -1

    def _compute_legal(self) -> list[int]:
        ph = self.phase
        c = self.current
        if ph == "over":
            return []
        if ph == "draft":
            return [A_PICK + b for b in sorted(self.draft_hands[c])]
        if ph == "turn":
            acts = [A_PLACE + cell for cell in range(NCELLS) if self._free_cell(cell)]
            if acts and self.houses[c] >= 1:
                for b in range(NB):
                    if self.market[b] >= 1 and self._feasible(c, self.cost[b], self.cost_coins[b]):
                        acts.append(A_BUILD + b)
            return acts
        if ph == "site":
            return [A_SITE + cell for cell in range(NCELLS) if self._free_cell(cell)]
        if ph in ("act", "residence"):
            pl = self.placement
            acts = []
            for k, x in enumerate(self.nb[pl["cell"]]):
                if x < 0 or pl["used"][k]:
                    continue
                b = self.building[x]
                if b < 0 or b == PAWNSHOP or self.kind[b] not in ("P", "X"):
                    continue
                if self._feasible(c, self.inp[b], self._fee_for(c, x) + self.inp_coins[b]):
                    acts.append(A_ACTIVATE + k)
            differ = self.options["pawnshop_must_differ"]
            usable = [self._pawn_slot(c, i) >= 0 for i in range(10)]
            for i in range(10):
                if not usable[i]:
                    continue
                for o in range(10):
                    if differ and i == o:
                        continue
                    acts.append(A_PAWN + 10 * i + o)
            if pl["gathered"] == 0:
                acts.append(A_GATHER)
            if pl["gathered"] == 1 or self.options["optional_gather"]:
                acts.append(A_END)
            return acts
        if ph == "feed":
            cub = self.cubes[c]
            acts = []
            if cub[FISH] >= 1:
                acts.append(A_FEED_FISH)
            if cub[WHEAT] >= 1:
                acts.append(A_FEED_WHEAT)
            if cub[FISH] == 0 and cub[WHEAT] == 0:
                bp = self.consts["buy_price"]
                if self.coins[c] >= bp and self.supply[FISH] >= 1:
                    acts.append(A_BUY_FISH)
                if self.coins[c] >= bp and self.supply[WHEAT] >= 1:
                    acts.append(A_BUY_WHEAT)
                acts.append(A_STARVE)
            return acts
        raise RuntimeError(f"bad phase {ph!r}")

    # --------------------------------------------------------------- goals

    def _own_cells(self, p: int) -> list[int]:
        return [cell for cell in range(NCELLS) if self.owner[cell] == p and self.building[cell] >= 0]

    def _near_terrain(self, cell: int, tt: int) -> bool:
        return any(x >= 0 and self.terrain[x] == tt for x in self.nb[cell])

    def _condition(self, p: int, card: int) -> bool:
        row = self.goal_rows[card]
        kind = row["kind"]
        param = row["param"]
        w = self.n_workers
        if kind == "connected":
            own = self._own_cells(p)
            for cell in own:
                k = 0
                for s in ORTHO_SLOTS:
                    x = self.nb[cell][s]
                    if x >= 0 and self.owner[x] == p and self.building[x] >= 0:
                        k += 1
                if k >= 2:
                    return True
            return False
        if kind == "more_buildings_than_workers":
            return len(self._own_cells(p)) > w
        if kind == "food_held":
            return self.cubes[p][FISH] + self.cubes[p][WHEAT] >= param * w
        if kind == "terrain_trio":
            own = self._own_cells(p)
            xs = [cell for cell in own if self._near_terrain(cell, TERRAIN["L"])]
            ys = [cell for cell in own if self._near_terrain(cell, TERRAIN["M"])]
            zs = [cell for cell in own if self._near_terrain(cell, TERRAIN["F"])]
            for x in xs:
                for y in ys:
                    if y == x:
                        continue
                    for z in zs:
                        if z != x and z != y:
                            return True
            return False
        if kind == "own_set":
            s = self.goal_set(card)
            return sum(1 for cell in self._own_cells(p) if self.building[cell] in s) >= param
        if kind == "coins_eq":
            return self.coins[p] == param
        if kind == "coins_ge":
            return self.coins[p] >= param
        if kind in ("acts_in_turn", "vp_acts_in_turn", "gather_in_turn"):
            pl = self.placement
            if self.phase not in ("act", "residence") or pl["seat"] != p:
                return False
            key = {"acts_in_turn": "acts", "vp_acts_in_turn": "vp_acts",
                   "gather_in_turn": "gathered_n"}[kind]
            return pl[key] >= param
        return False  # event-only kinds

    def _claim(self, p: int, j: int) -> None:
        slot = self.goals[p][j]
        slot[1] = self.round
        v = self.goal_rows[slot[0]]["vp"]
        self.score[p] += v
        self.stats[p]["vp_goal"] += v

    def _state_check(self) -> None:
        for p in range(self.n):
            for j, (card, done) in enumerate(self.goals[p]):
                if done == 0 and self.goal_rows[card]["kind"] not in EVENT_KINDS:
                    if self._condition(p, card):
                        self._claim(p, j)

    def _payment_check(self, c: int, types_paid: int | None = None,
                       own_paid: list[int] | None = None) -> None:
        """Payment checks (8.2): coins_eq; with an activation also cards 5 and 14."""
        for j, (card, done) in enumerate(self.goals[c]):
            if done:
                continue
            row = self.goal_rows[card]
            kind = row["kind"]
            if kind == "coins_eq":
                if self.coins[c] == row["param"]:
                    self._claim(c, j)
            elif kind == "act_two_types" and types_paid is not None:
                if types_paid >= row["param"]:
                    self._claim(c, j)
            elif kind == "spend_gathered" and own_paid is not None:
                gt = self.placement["gathered_types"]
                if any(own_paid[t] >= 1 and gt[t] >= 1 for t in range(4)):
                    self._claim(c, j)

    # ------------------------------------------------------------ payments

    def _pay(self, c: int, need, k_coins: int) -> list[int]:
        """Pay cube vector ``need`` and ``k_coins`` (contract section 5); own cubes paid."""
        own_paid = [0, 0, 0, 0]
        miss_total = 0
        cub = self.cubes[c]
        for t in range(4):
            own = min(need[t], cub[t])
            miss_total += need[t] - own
            cub[t] -= own
            self.supply[t] += own
            own_paid[t] = own
        total = k_coins + self.consts["buy_price"] * miss_total
        self.coins[c] -= total
        self.bank += total
        self.stats[c]["cubes_bought"] += miss_total
        return own_paid

    def _take_cube(self, c: int, t: int, g: int, from_building: bool) -> None:
        self.cubes[c][t] += g
        self.supply[t] -= g
        if from_building and self.options["gather_includes_buildings"]:
            self.placement["gathered_n"] += g
            self.placement["gathered_types"][t] += g

    def _coins_from_bank(self, c: int, g: int) -> None:
        if self.options["coin_bank"] == "limited":
            g = min(g, max(self.bank, 0))
        self.coins[c] += g
        self.bank -= g
        self.bank_min = min(self.bank_min, self.bank)

    def _pay_fee(self, c: int, x: int) -> None:
        fee = self._fee_for(c, x)
        if fee:
            o = self.owner[x]
            self.coins[c] -= fee
            self.coins[o] += fee
            self.stats[c]["fees_paid"] += fee
            self.stats[o]["fees_earned"] += fee

    def _after_activation(self, c: int, k: int, x: int, b: int, out_vp: int) -> None:
        pl = self.placement
        pl["used"][k] = 1
        pl["acts"] += 1
        if out_vp > 0:
            pl["vp_acts"] += 1
        self.stats[c]["activations"] += 1
        o = self.owner[x]
        if o == c:
            self.act_own[c][b] += 1
        else:
            self.act_by_others[o][b] += 1

    # --------------------------------------------------------------- apply

    def apply(self, action: int) -> None:
        if not _is_int(action):
            raise ValueError(f"action must be an int, got {action!r}")
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action} ({self.action_to_string(action)})")
        self.decisions += 1
        self._step(action)
        self._auto()

    def _auto(self) -> None:
        """Forced moves (L2): apply the only legal action, not counted as a decision."""
        while self.phase != "over":
            la = self.legal_actions()
            if len(la) != 1:
                return
            self._step(la[0])

    def _step(self, a: int) -> None:
        cont = self._effect(a)
        self._state_check()
        if cont == "end_turn":
            self._end_turn()
        elif cont == "eor_next":
            self.eor_stage = "specials" if self.eor_stage == "residence" else self.eor_stage
            self.eor_index += 1
            self._continue_eor()
        self._legal = None

    def _effect(self, a: int) -> str | None:
        """The effect of action ``a`` by ``current``; returns the continuation to run."""
        c = self.current
        ph = self.phase
        self._legal = None
        if ph == "draft":
            self._pick(c, a - A_PICK)
            return None
        if ph == "turn":
            if a < A_BUILD:
                cell = a - A_PLACE
                self.worker[cell] = c
                self.workers_used[c] += 1
                self.stats[c]["placements"] += 1
                g = 0 if any(x >= 0 and self.terrain[x] != 0 for x in self.nb[cell]) else 1
                self.placement = self._new_placement(c, cell, g)
                self.phase = "act"
                return None
            b = a - A_BUILD
            self.workers_used[c] += 1
            self.on_site[c] += 1
            self._pay(c, self.cost[b], self.cost_coins[b])
            self.market[b] -= 1
            self.pending = b
            self._payment_check(c)
            self.phase = "site"
            return None
        if ph == "site":
            cell = a - A_SITE
            b = self.pending
            self.building[cell] = b
            self.owner[cell] = c
            self.houses[c] -= 1
            self.score[c] += self.vp[b]
            self.stats[c]["vp_build"] += self.vp[b]
            self.built[c][b] += 1
            if self.built_round[c][b] == 0:
                self.built_round[c][b] = self.round
            self.stats[c]["builds"] += 1
            self.pending = -1
            return "end_turn"
        if ph in ("act", "residence"):
            pl = self.placement
            if A_ACTIVATE <= a < A_PAWN:
                k = a - A_ACTIVATE
                x = self.nb[pl["cell"]][k]
                b = self.building[x]
                self._pay_fee(c, x)
                own = self._pay(c, self.inp[b], self.inp_coins[b])
                types = sum(1 for t in range(4) if self.inp[b][t] > 0)
                self._payment_check(c, types, own)
                for t in range(4):
                    g = min(self.out[b][t], self.supply[t])
                    self._take_cube(c, t, g, True)
                self._coins_from_bank(c, self.out_coins[b])
                self.score[c] += self.out_vp[b]
                self.stats[c]["vp_act"] += self.out_vp[b]
                self._after_activation(c, k, x, b, self.out_vp[b])
                return None
            if A_PAWN <= a < A_GATHER:
                i, o = divmod(a - A_PAWN, 10)
                k = self._pawn_slot(c, i)
                x = self.nb[pl["cell"]][k]
                need = [0, 0, 0, 0]
                for t in PAWN_PAIRS[i]:
                    need[t] += 1
                self._pay_fee(c, x)
                own = self._pay(c, need, 0)
                types = len(set(PAWN_PAIRS[i])) if self.options["goal5_counts_pawnshop"] else None
                self._payment_check(c, types, own)
                for t in PAWN_PAIRS[o]:
                    if self.supply[t] >= 1:
                        self._take_cube(c, t, 1, True)
                self._after_activation(c, k, x, PAWNSHOP, 0)
                return None
            if a == A_GATHER:
                cell = pl["cell"]
                for t in range(3):
                    m = sum(1 for x in self.nb[cell] if x >= 0 and self.terrain[x] == t + 1)
                    g = min(m, self.supply[t])
                    self.cubes[c][t] += g
                    self.supply[t] -= g
                    pl["gathered_n"] += g
                    pl["gathered_types"][t] += g
                    self.stats[c]["gathered"] += g
                pl["gathered"] = 1
                return None
            # END
            self.placement = self._new_placement(-1, -1, 0)
            return "end_turn" if ph == "act" else "eor_next"
        if ph == "feed":
            f = self.feed
            if a in (A_FEED_FISH, A_FEED_WHEAT):
                t = FISH if a == A_FEED_FISH else WHEAT
                self.cubes[c][t] -= 1
                self.supply[t] += 1
                f["left"] -= 1
                f["fish" if t == FISH else "wheat"] += 1
            elif a in (A_BUY_FISH, A_BUY_WHEAT):
                t = FISH if a == A_BUY_FISH else WHEAT
                bp = self.consts["buy_price"]
                self.coins[c] -= bp
                self.bank += bp
                self.stats[c]["cubes_bought"] += 1
                self.stats[c]["food_bought"] += 1
                f["left"] -= 1
                f["fish" if t == FISH else "wheat"] += 1
                self._payment_check(c)
            else:  # STARVE
                u = f["left"]
                pen = self.consts["unfed_penalty"] * u
                self.score[c] -= pen
                self.stats[c]["unfed"] += u
                self.stats[c]["vp_unfed"] -= pen
                f["left"] = 0
            if f["left"] == 0:
                self._feeding_check(c)
                self.feed = {"left": 0, "fish": 0, "wheat": 0}
                return "eor_next"
            return None
        raise RuntimeError(f"no action in phase {ph!r}")

    def _feeding_check(self, c: int) -> None:
        w = self.n_workers
        for j, (card, done) in enumerate(self.goals[c]):
            row = self.goal_rows[card]
            if done or row["kind"] != "feed_all_with":
                continue
            if (row["param"] == FISH and self.feed["fish"] == w) or \
                    (row["param"] == WHEAT and self.feed["wheat"] == w):
                self._claim(c, j)

    def _pick(self, c: int, b: int) -> None:
        n = self.n
        first = self.first_player
        self.draft_picks[c] = b
        self.draft_hands[c].remove(b)
        self.pick[c][b] = self.draft_round + 1
        if c != (first + n - 1) % n:
            self.current = (c + 1) % n
            return
        for p in range(n):
            self.market[self.draft_picks[p]] = 1
            self.draft_picks[p] = -1
        self.draft_round += 1
        if self.options["market"] == "draft":
            old = self.draft_hands
            self.draft_hands = [old[(p - 1) % n] for p in range(n)]
        else:
            self.draft_hands = [[] for _ in range(n)]
        if self.draft_round * n >= self.consts["market_size"]:
            self.draft_hands = [[] for _ in range(n)]
            self._finish_setup()
        else:
            if self.options["market"] == "one-of-two":
                self._deal_two()
            self.current = first

    # ------------------------------------------------------------ turn flow

    def _end_turn(self) -> None:
        n = self.n
        self.turn += 1
        self.turns_total += 1
        if self.turn == n * self.n_workers:
            self._begin_end_of_round()
        else:
            self.current = (self.current + 1) % n
            self.phase = "turn"

    def _begin_end_of_round(self) -> None:
        self.eor_stage = "specials"
        self.eor_index = 0
        self._continue_eor()

    def _find(self, b: int) -> int:
        for cell in range(NCELLS):
            if self.building[cell] == b:
                return cell
        return -1

    def _continue_eor(self) -> None:
        n = self.n
        while True:
            if self.eor_stage == "specials":
                if self.eor_index == n:
                    self.eor_stage = "feed"
                    self.eor_index = 0
                    continue
                p = (self.start_player + self.eor_index) % n
                cat = self._find(CATHEDRAL)
                if cat >= 0 and self.owner[cat] == p:
                    count_own = self.options["cathedral_counts_own"]
                    w = sum(1 for x in self.nb[cat]
                            if x >= 0 and self.worker[x] >= 0
                            and (count_own or self.worker[x] != p))
                    v = self.consts["cathedral_vp"] * w
                    self.score[p] += v
                    self.stats[p]["vp_cathedral"] += v
                res = self._find(RESIDENCE)
                if res >= 0 and self.owner[res] == p:
                    self.eor_stage = "residence"
                    self.phase = "residence"
                    self.current = p
                    g = 1
                    if self.options["residence_gathers_terrain"] and any(
                            x >= 0 and self.terrain[x] != 0 for x in self.nb[res]):
                        g = 0
                    self.placement = self._new_placement(p, res, g)
                    return
                self.eor_index += 1
                continue
            if self.eor_stage == "feed":
                if self.eor_index == n:
                    self._finish_round()
                    return
                p = (self.start_player + self.eor_index) % n
                self.phase = "feed"
                self.current = p
                self.feed = {"left": self.n_workers, "fish": 0, "wheat": 0}
                return
            raise RuntimeError(f"continue_eor in stage {self.eor_stage!r}")

    def _finish_round(self) -> None:
        n = self.n
        if self.round == self.options["rounds"]:
            self._end_game()
            return
        self.worker = [-1] * NCELLS
        self.workers_used = [0] * n
        self.on_site = [0] * n
        sp = self.start_player
        if n == 3 and self.options["three_player_tip"] and self.round == 3:
            m = min(self.score)
            low = [p for p in range(3) if self.score[p] == m]
            if len(low) == 1:
                s = low[0]
            elif len(low) == 3:
                s = (sp + 1) % 3
            else:
                a, b = low
                if self.last_start[a] != self.last_start[b]:
                    s = a if self.last_start[a] < self.last_start[b] else b
                else:
                    order = [(sp + 1) % 3, (sp + 2) % 3, sp]
                    s = min(low, key=order.index)
        else:
            s = (sp + 1) % n
        self.round += 1
        self.start_player = s
        self.last_start[s] = self.round
        self.turn = 0
        self.current = s
        self.phase = "turn"
        self.eor_stage = "none"
        self.eor_index = 0

    def _end_game(self) -> None:
        cs = self.consts
        cas = self._find(CASTLE)
        if cas >= 0:
            o = self.owner[cas]
            own_only = self.options["castle_counts"] == "own"
            w = sum(1 for x in self.nb[cas]
                    if x >= 0 and self.building[x] >= 0 and (not own_only or self.owner[x] == o))
            v = cs["castle_vp"] * w
            self.score[o] += v
            self.stats[o]["vp_castle"] += v
        wt = self._find(WATCHTOWER)
        if wt >= 0:
            o = self.owner[wt]
            block = self.options["watchtower_workers_block"]
            w = sum(1 for x in self.nb[wt]
                    if x >= 0 and self.terrain[x] == 0 and self.building[x] < 0
                    and (not block or self.worker[x] < 0))
            v = cs["watchtower_vp"] * w
            self.score[o] += v
            self.stats[o]["vp_watchtower"] += v
        for p in range(self.n):
            v = self.coins[p] // cs["coins_per_vp"]
            self.score[p] += v
            self.stats[p]["vp_coins"] += v
        self.phase = "over"
        self.end_reason = "end"

    # ------------------------------------------------------------- strings

    def action_to_string(self, a: int) -> str:
        return action_to_string(a, self.names)

    # ----------------------------------------------------------- state dict

    def to_dict(self) -> dict:
        n = self.n
        pl = self.placement
        return {
            "game": "little-town",
            "n_players": n,
            "options": dict(self.options),
            "data": copy_data(self.data),
            "rng": "0x%016x" % self.rng.state,
            "phase": self.phase,
            "current": self.current,
            "round": self.round,
            "start_player": self.start_player,
            "first_player": self.first_player,
            "last_start": list(self.last_start),
            "turn": self.turn,
            "turns_total": self.turns_total,
            "decisions": self.decisions,
            "end_reason": self.end_reason,
            "supply": list(self.supply),
            "bank": self.bank,
            "bank_min": self.bank_min,
            "market": list(self.market),
            "market_start": list(self.market_start),
            "building": list(self.building),
            "owner": list(self.owner),
            "worker": list(self.worker),
            "pending": self.pending,
            "placement": {"seat": pl["seat"], "cell": pl["cell"], "gathered": pl["gathered"],
                          "used": list(pl["used"]), "acts": pl["acts"],
                          "vp_acts": pl["vp_acts"], "gathered_n": pl["gathered_n"],
                          "gathered_types": list(pl["gathered_types"])},
            "eor": {"stage": self.eor_stage, "index": self.eor_index},
            "feed": dict(self.feed),
            "goal_deck": list(self.goal_deck),
            "goal_discard": list(self.goal_discard),
            "draft": {"deck": list(self.draft_deck),
                      "hands": [sorted(h) for h in self.draft_hands],
                      "picks": list(self.draft_picks), "round": self.draft_round},
            "players": [
                {"coins": self.coins[p], "cubes": list(self.cubes[p]), "score": self.score[p],
                 "houses": self.houses[p], "workers_used": self.workers_used[p],
                 "on_site": self.on_site[p], "goals": [list(s) for s in self.goals[p]],
                 "built": list(self.built[p]), "built_round": list(self.built_round[p]),
                 "act_own": list(self.act_own[p]), "act_by_others": list(self.act_by_others[p]),
                 "pick": list(self.pick[p]),
                 "stats": {k: self.stats[p][k] for k in STAT_KEYS}}
                for p in range(n)
            ],
        }

    @classmethod
    def from_dict(cls, d: dict) -> "LittleTownRef":
        n = check_state_head(d, _STATE_KEYS, "little-town", DEFAULT_OPTIONS)
        for k in ("buildings", "goals", "boards", "per_count", "consts"):
            if k not in d["data"]:
                raise ValueError(f"data lacks key {k!r}")
        missing = [k for k in DEFAULT_DATA["consts"] if k not in d["data"]["consts"]]
        if missing:
            raise ValueError(f"data consts lack {missing}")

        g = cls.__new__(cls)
        g.n = n
        g.options = _merge_options(d["options"])
        g.data = _merge_data(d["data"])
        g._derive()
        rng = d["rng"]
        g.rng = Rng(int(rng, 16) if isinstance(rng, str) else int(rng))

        def ints(key, length, src=d):
            v = src[key]
            if not isinstance(v, list) or len(v) != length or not all(_is_int(x) for x in v):
                raise ValueError(f"{key} must be a list of {length} ints")
            return list(v)

        def one(key, src=d):
            v = src[key]
            if not _is_int(v):
                raise ValueError(f"{key} must be an int, got {v!r}")
            return v

        if d["phase"] not in PHASES:
            raise ValueError(f"bad phase {d['phase']!r}")
        g.phase = d["phase"]
        for key in ("current", "round", "start_player", "first_player", "turn", "turns_total",
                    "decisions", "bank", "bank_min", "pending"):
            setattr(g, key, one(key))
        for key in ("current", "start_player", "first_player"):
            if not (0 <= getattr(g, key) < n):
                raise ValueError(f"bad seat in {key}")
        if not (-1 <= g.pending < NB):
            raise ValueError("bad pending building")
        if d["end_reason"] not in END_REASONS:
            raise ValueError(f"bad end_reason {d['end_reason']!r}")
        g.end_reason = d["end_reason"]
        g.last_start = ints("last_start", n)
        g.supply = ints("supply", 4)
        g.market = ints("market", NB)
        g.market_start = ints("market_start", NB)
        g.building = ints("building", NCELLS)
        g.owner = ints("owner", NCELLS)
        g.worker = ints("worker", NCELLS)
        for cell in range(NCELLS):
            if not (-1 <= g.building[cell] < NB) or not (-1 <= g.owner[cell] < n) \
                    or not (-1 <= g.worker[cell] < n):
                raise ValueError(f"bad content of cell {cell}")
            if (g.building[cell] >= 0 or g.worker[cell] >= 0) and g.terrain[cell] != 0:
                raise ValueError(f"cell {cell} is not grass")
            if (g.building[cell] >= 0) != (g.owner[cell] >= 0):
                raise ValueError(f"cell {cell}: building and owner disagree")
        pl = d["placement"]
        g.placement = {"seat": one("seat", pl), "cell": one("cell", pl),
                       "gathered": one("gathered", pl), "used": ints("used", 8, pl),
                       "acts": one("acts", pl), "vp_acts": one("vp_acts", pl),
                       "gathered_n": one("gathered_n", pl),
                       "gathered_types": ints("gathered_types", 4, pl)}
        if g.phase in ("act", "residence") and not (0 <= g.placement["cell"] < NCELLS):
            raise ValueError("phase act/residence needs a placement cell")
        if d["eor"]["stage"] not in EOR_STAGES:
            raise ValueError(f"bad eor stage {d['eor']['stage']!r}")
        g.eor_stage = d["eor"]["stage"]
        g.eor_index = one("index", d["eor"])
        f = d["feed"]
        g.feed = {"left": one("left", f), "fish": one("fish", f), "wheat": one("wheat", f)}
        g.goal_deck = [int(x) for x in d["goal_deck"]]
        g.goal_discard = [int(x) for x in d["goal_discard"]]
        for card in g.goal_deck + g.goal_discard:
            if not (1 <= card <= 18):
                raise ValueError(f"bad goal card {card}")
        dr = d["draft"]
        g.draft_deck = [int(x) for x in dr["deck"]]
        if len(dr["hands"]) != n:
            raise ValueError(f"draft hands must have {n} entries")
        g.draft_hands = [sorted(int(x) for x in h) for h in dr["hands"]]
        g.draft_picks = ints("picks", n, dr)
        g.draft_round = one("round", dr)
        players = d["players"]
        if not isinstance(players, list) or len(players) != n:
            raise ValueError(f"players must have {n} entries")
        g.coins, g.cubes, g.score, g.houses = [], [], [], []
        g.workers_used, g.on_site, g.goals = [], [], []
        g.built, g.built_round, g.act_own, g.act_by_others, g.pick, g.stats = \
            [], [], [], [], [], []
        for p, pd in enumerate(players):
            for k in _PLAYER_KEYS:
                if k not in pd:
                    raise ValueError(f"player {p} lacks key {k!r}")
            g.coins.append(one("coins", pd))
            g.cubes.append(ints("cubes", 4, pd))
            g.score.append(one("score", pd))
            g.houses.append(one("houses", pd))
            g.workers_used.append(one("workers_used", pd))
            g.on_site.append(one("on_site", pd))
            slots = []
            for s in pd["goals"]:
                if len(s) != 2 or not (1 <= s[0] <= 18):
                    raise ValueError(f"player {p}: bad goal slot {s!r}")
                slots.append([int(s[0]), int(s[1])])
            g.goals.append(slots)
            for key, lst in (("built", g.built), ("built_round", g.built_round),
                             ("act_own", g.act_own), ("act_by_others", g.act_by_others),
                             ("pick", g.pick)):
                lst.append(ints(key, NB, pd))
            st = pd["stats"]
            for k in STAT_KEYS:
                if k not in st:
                    raise ValueError(f"player {p} stats lack {k!r}")
            g.stats.append({k: one(k, st) for k in STAT_KEYS})
        g._legal = None
        return g


def action_to_string(a: int, names: list[str] | None = None) -> str:
    """Human-readable name of an action id."""
    if names is None:
        names = [r[0] for r in _BUILDING_ROWS]
    if not _is_int(a) or not (0 <= a < NUM_ACTIONS):
        return f"INVALID({a!r})"
    if a < A_BUILD:
        return f"PLACE {_cell_name(a - A_PLACE)}"
    if a < A_SITE:
        return f"BUILD {names[a - A_BUILD]}"
    if a < A_ACTIVATE:
        return f"SITE {_cell_name(a - A_SITE)}"
    if a < A_PAWN:
        return f"ACTIVATE slot{a - A_ACTIVATE}"
    if a < A_GATHER:
        i, o = divmod(a - A_PAWN, 10)
        pi = "+".join(RES_NAMES[t] for t in PAWN_PAIRS[i])
        po = "+".join(RES_NAMES[t] for t in PAWN_PAIRS[o])
        return f"PAWN {pi} -> {po}"
    return {A_GATHER: "GATHER", A_END: "END", A_FEED_FISH: "FEED fish",
            A_FEED_WHEAT: "FEED wheat", A_BUY_FISH: "BUY fish", A_BUY_WHEAT: "BUY wheat",
            A_STARVE: "STARVE"}.get(a) or f"PICK {names[a - A_PICK]}"


def play_random_game(n_players: int, seed: int, options: dict | None = None,
                     bot_seed: int = 0) -> LittleTownRef:
    """Play a whole game choosing uniformly among legal actions."""
    return play_random(LittleTownRef, n_players, seed, options, bot_seed)


# the reference the conformance test plays against the engine (tests/test_engines_vs_references.py)
REFERENCE = LittleTownRef
REFERENCE_GAMES = 1008  # games at the default options, spread over the player counts
