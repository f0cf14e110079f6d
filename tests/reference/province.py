"""Plain-Python reference implementation of Province.

Written independently from the numba engine, strictly from the contract
``docs/games/province.md`` (component data, SplitMix64 chance order, setup, turn flow,
action ids, goals, end of game, options, state dict) and the rules spec
``shared/rules/province.md``. Slow but obviously correct; it is compared with the
engine decision by decision.

Internal representation
-----------------------
* ``pos``: 11 worker positions (0 = C coin, 1 = A labor, 2 = B labor, -1 off the cycle):
  greens 0..2, yellow 3, orange 4, sailor k of seat p at ``5 + 3p + k``;
* ``owned[p][k]`` bools, ``first_builder[k]``, ``built_turn[p][k]`` (structure ids 0..7);
* ``ships``: -1 none, 0 both white, 1 mixed, 2 both black;
* goals: ``stack`` (goal ids, top first), ``goal_next``, ``goal_result``
  (-2 unresolved, -1 removed, 0/1 claimed by that seat).
"""

from __future__ import annotations

import copy

from tests.reference.common import copy_data, merge_options, play_random
from tests.reference.go_town import MASK64, Rng, mix, seed_for  # noqa: F401  (re-exported)

# --------------------------------------------------------------------------
# Structure roles (fixed by id, contract 1.1) and goal condition codes (section 6)
# --------------------------------------------------------------------------

LENDER, BANK, CAMP, VILLAGE, MILL, SMITHY, UNION, HARBOR = range(8)
N_STRUCT = 8
STRUCTURE_ROLE_NAMES = ["Lender", "Bank", "Camp", "Village", "Mill", "Smithy", "Union", "Harbor"]

CONDITIONS = [
    "coins_at_end_of_turn",
    "labor_gained_this_turn",
    "structures_owned",
    "workers_moved_this_turn",
    "owns_vp_first_at_least",
    "grinds_this_turn",
    "own_sailors_on_cycle",
    "builds_copy",
    "arrows_completed",
]
(C_COINS_EOT, C_LABOR_GAINED, C_STRUCTURES, C_MOVED, C_VP_FIRST, C_GRINDS, C_SAILORS,
 C_COPY, C_ARROWS) = range(9)

SPACE_C, SPACE_A, SPACE_B = 0, 1, 2
YELLOW, ORANGE = 3, 4
N_WORKERS = 11

NUM_ACTIONS = 269
A_END = 0
A_BUILD = 256          # 256..263
A_GRIND = 264
A_UNION = 265
A_HIRE = 266
A_TAKE = 267
A_REPAY = 268

SHIP_NAMES = {-1: "none", 0: "white", 1: "mixed", 2: "black"}
SHIP_CODES = {v: k for k, v in SHIP_NAMES.items()}
TRIGGERS = ("none", "seven_structures", "all_types", "goals")
END_REASONS = ("none", "seven_structures", "all_types", "goals", "limit")
SLOT_NAMES = ["g0", "g1", "g2", "yellow", "orange", "s0", "s1", "s2"]

# --------------------------------------------------------------------------
# Data (contract 1.1 - 1.3)
# --------------------------------------------------------------------------

DEFAULT_DATA = {
    "structures": [
        {"name": "Lender", "labor": 2, "coins": 2, "vp_first": 1, "vp_copy": 0, "prereq": None},
        {"name": "Bank", "labor": 3, "coins": 5, "vp_first": 2, "vp_copy": 0, "prereq": "Lender"},
        {"name": "Camp", "labor": 2, "coins": 1, "vp_first": 1, "vp_copy": 0, "prereq": None},
        {"name": "Village", "labor": 3, "coins": 3, "vp_first": 2, "vp_copy": 0, "prereq": "Camp"},
        {"name": "Mill", "labor": 2, "coins": 2, "vp_first": 1, "vp_copy": 0, "prereq": None},
        {"name": "Smithy", "labor": 4, "coins": 2, "vp_first": 2, "vp_copy": 0, "prereq": "Mill"},
        {"name": "Union", "labor": 2, "coins": 3, "vp_first": 1, "vp_copy": 0, "prereq": None},
        {"name": "Harbor", "labor": 3, "coins": 3, "vp_first": 2, "vp_copy": 0, "prereq": None},
    ],
    "goals": [
        {"name": "Hoard", "condition": "coins_at_end_of_turn", "threshold": 6},
        {"name": "Hard Labor", "condition": "labor_gained_this_turn", "threshold": 4},
        {"name": "Township", "condition": "structures_owned", "threshold": 3},
        {"name": "Crew", "condition": "workers_moved_this_turn", "threshold": 4},
        {"name": "Landmark", "condition": "owns_vp_first_at_least", "threshold": 2},
        {"name": "Grindstone", "condition": "grinds_this_turn", "threshold": 2},
        {"name": "Seafarer", "condition": "own_sailors_on_cycle", "threshold": 1},
        {"name": "Rival", "condition": "builds_copy", "threshold": 1},
        {"name": "Dynasty", "condition": "arrows_completed", "threshold": 1},
    ],
    "constants": {
        "grind_labor": 2,
        "grind_coins": 1,
        "union_coins": 2,
        "union_labor": 1,
        "sailor_cost": 3,
        "lender_repay": 3,
        "lender_penalty": 2,
        "max_sailors": 3,
        "sailors_per_player": 3,
        "mill_labor": 1,
        "harbor_labor": 1,
        "harbor_coins": 1,
        "structure_tokens": 7,
        "goals_total": 9,
        "goals_drawn": 5,
    },
}

_TWEAKABLE = ["Bank", "Camp", "Village", "Mill", "Smithy", "Union", "Harbor"]
RECON_TWEAKS = ["none"] + [f"{n}.{f}{s}1" for n in _TWEAKABLE for f in ("labor", "coins")
                           for s in ("+", "-")]

DEFAULT_OPTIONS = {
    "coin_total": 35,
    "p1_coins": 2,
    "p2_coins": 3,
    "first_player": "seat0",
    "entry_space": "labor_a",
    "lender_steal": True,
    "borrowed_prereq": False,
    "borrow_harbor_union": True,
    "harbor_benefit": "all_owners",
    "sailor_needs_mixed": True,
    "income_on_build_turn": False,
    "smithy_effect": "double_labor",
    "all_types_trigger": True,
    "final_turn": "finish_turn",
    "worker_tiebreak": True,
    "max_turns": 200,
    "recon_tweak": "none",
}

_OPTION_RULES = {
    "coin_total": ("int", (35, 28)),
    "p1_coins": ("int", tuple(range(0, 11))),
    "p2_coins": ("int", tuple(range(0, 11))),
    "first_player": ("str", ("seat0", "random")),
    "entry_space": ("str", ("labor_a", "labor_b")),
    "lender_steal": ("bool", None),
    "borrowed_prereq": ("bool", None),
    "borrow_harbor_union": ("bool", None),
    "harbor_benefit": ("str", ("all_owners", "master_only")),
    "sailor_needs_mixed": ("bool", None),
    "income_on_build_turn": ("bool", None),
    "smithy_effect": ("str", ("double_labor", "turn_labor")),
    "all_types_trigger": ("bool", None),
    "final_turn": ("str", ("finish_turn", "opponent_last_turn")),
    "worker_tiebreak": ("bool", None),
    "max_turns": ("intrange", (10, 10000)),
    "recon_tweak": ("str", tuple(RECON_TWEAKS)),
}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _merge_options(options: dict | None) -> dict:
    return merge_options(options, DEFAULT_OPTIONS, _OPTION_RULES)


def _check_data(data: dict) -> dict:
    """Validate a complete data dict; returns a normalised deep copy."""
    if not isinstance(data, dict) or set(data) != {"structures", "goals", "constants"}:
        raise ValueError("data must have exactly the keys structures, goals, constants")
    st = data["structures"]
    if not isinstance(st, list) or len(st) != N_STRUCT:
        raise ValueError("data.structures must list the 8 structures")
    out_st = []
    names = []
    for s in st:
        if not isinstance(s, dict) or set(s) != {"name", "labor", "coins", "vp_first",
                                                  "vp_copy", "prereq"}:
            raise ValueError(f"bad structure entry {s!r}")
        if not isinstance(s["name"], str) or not s["name"]:
            raise ValueError(f"bad structure name {s['name']!r}")
        for f in ("labor", "coins", "vp_first", "vp_copy"):
            if not _is_int(s[f]) or s[f] < 0:
                raise ValueError(f"structure {s['name']}: {f} must be an int >= 0")
        names.append(s["name"])
        out_st.append(dict(s))
    if len(set(names)) != N_STRUCT:
        raise ValueError("structure names must be distinct")
    for k, s in enumerate(out_st):
        pr = s["prereq"]
        if pr is not None and (pr not in names or names.index(pr) == k):
            raise ValueError(f"structure {s['name']}: bad prereq {pr!r}")
    cons = data["constants"]
    if not isinstance(cons, dict) or set(cons) != set(DEFAULT_DATA["constants"]):
        raise ValueError("data.constants must have exactly the keys of contract 1.3")
    for k, v in cons.items():
        if not _is_int(v) or v < 0:
            raise ValueError(f"constant {k} must be an int >= 0, got {v!r}")
    if cons["sailors_per_player"] > 3:
        raise ValueError("sailors_per_player must be <= 3 (three sailor slots per seat)")
    goals = data["goals"]
    if not isinstance(goals, list) or not (1 <= len(goals) <= 9):
        raise ValueError("data.goals must list 1..9 goal tokens")
    gnames = []
    out_g = []
    for g in goals:
        if not isinstance(g, dict) or set(g) != {"name", "condition", "threshold"}:
            raise ValueError(f"bad goal entry {g!r}")
        if g["condition"] not in CONDITIONS:
            raise ValueError(f"unknown goal condition {g['condition']!r}")
        if not _is_int(g["threshold"]):
            raise ValueError(f"goal {g['name']}: threshold must be an int")
        if not isinstance(g["name"], str) or not g["name"]:
            raise ValueError(f"bad goal name {g['name']!r}")
        gnames.append(g["name"])
        out_g.append(dict(g))
    if len(set(gnames)) != len(gnames):
        raise ValueError("goal names must be distinct")
    if cons["goals_total"] != len(goals):
        raise ValueError("constants.goals_total must equal the number of goal tokens")
    if not (1 <= cons["goals_drawn"] <= cons["goals_total"]):
        raise ValueError("constants.goals_drawn must be in 1..goals_total")
    return {
        "structures": out_st,
        "goals": out_g,
        "constants": {k: cons[k] for k in DEFAULT_DATA["constants"]},
    }


def _merge_data(data: dict | None) -> dict:
    """Defaults with any of structures / goals (whole lists) and constants (per key) replaced."""
    out = copy.deepcopy(DEFAULT_DATA)
    if data:
        for k, v in data.items():
            if k not in out:
                raise ValueError(f"unknown data key: {k!r}")
            if k == "constants":
                if not isinstance(v, dict):
                    raise ValueError("data.constants must be a dict")
                for name, val in v.items():
                    if name not in out["constants"]:
                        raise ValueError(f"unknown constant: {name!r}")
                    out["constants"][name] = val
            else:
                out[k] = copy.deepcopy(v)
    return _check_data(out)


def _apply_tweak(data: dict, tweak: str) -> None:
    if tweak == "none":
        return
    name, rest = tweak.split(".")
    field, delta = rest[:-2], (1 if rest[-2] == "+" else -1)
    s = data["structures"][STRUCTURE_ROLE_NAMES.index(name)]
    s[field] = max(0, s[field] + delta)


_STATE_KEYS = (
    "game", "options", "data", "rng", "first_player", "current", "phase", "turn", "decisions",
    "coins", "supply", "labor", "workers", "owned", "first_builder", "built_turn", "ships",
    "lender", "goals", "this_turn", "end_trigger", "last_turn", "end_reason", "winners", "stats",
)


# --------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------

class ProvinceRef:
    """One game of Province, following docs/games/province.md exactly."""

    def __init__(self, n_players: int, seed: int, options: dict | None = None,
                 data: dict | None = None):
        if not _is_int(n_players) or n_players != 2:
            raise ValueError(f"Province is for exactly 2 players, got {n_players!r}")
        self.options = _merge_options(options)
        d = _merge_data(data)
        _apply_tweak(d, self.options["recon_tweak"])
        self.data = d
        self._cache()
        self.rng = Rng(int(seed) & MASK64)

        self.current = 0
        self.phase = "work"
        self.turn = 0
        self.decisions = 0
        self.coins = [0, 0]
        self.labor = 0
        self.pos = [0, 1, 2] + [-1] * 8
        self.owned = [[False] * N_STRUCT for _ in range(2)]
        self.first_builder = [-1] * N_STRUCT
        self.built_turn = [[-1] * N_STRUCT for _ in range(2)]
        self.ships = -1
        self.lender_holder = -1
        self.lender_turn = -1
        self.labor_gained = 0
        self.moved = 0
        self.grinds = 0
        self.built = False
        self.hired_this_turn = False
        self.end_trigger = "none"
        self.last_turn = False
        self.end_reason = "none"
        self.winners: list[int] = []
        self.supply_ran_dry = False
        self.coins_missed = [0, 0]
        self.lender_takes = [0, 0]
        self.lender_steals = [0, 0]
        self._legal = None

        # --- setup (contract 3 and 4) ---
        order = list(range(self.k["goals_total"]))
        self.rng.shuffle(order)
        self.stack = order[: self.k["goals_drawn"]]
        self.goal_next = 0
        self.goal_result = [-2] * len(self.stack)
        first = self.rng.rand_below(2) if self.options["first_player"] == "random" else 0
        self.first_player = first
        self.current = first
        self.coins[first] = self.options["p1_coins"]
        self.coins[1 - first] = self.options["p2_coins"]
        self._reveal_loop(first, False)
        self._begin_turn(first)

    # ---------------------------------------------------------------- caches

    def _cache(self) -> None:
        d = self.data
        st = d["structures"]
        self.snames = [s["name"] for s in st]
        self.L = [s["labor"] for s in st]
        self.C = [s["coins"] for s in st]
        self.vp1 = [s["vp_first"] for s in st]
        self.vp2 = [s["vp_copy"] for s in st]
        self.prereq = [-1 if s["prereq"] is None else self.snames.index(s["prereq"]) for s in st]
        self.gnames = [g["name"] for g in d["goals"]]
        self.gcond = [CONDITIONS.index(g["condition"]) for g in d["goals"]]
        self.gthr = [g["threshold"] for g in d["goals"]]
        self.k = dict(d["constants"])
        o = self.options
        self.coin_total = o["coin_total"]
        self.entry = SPACE_A if o["entry_space"] == "labor_a" else SPACE_B

    # ------------------------------------------------------------- helpers

    @property
    def n(self) -> int:
        return len(self.stack)

    def supply(self) -> int:
        return self.coin_total - self.coins[0] - self.coins[1]

    def hired(self, p: int) -> int:
        return sum(1 for k in range(3) if self.pos[5 + 3 * p + k] >= 0)

    def count(self, p: int) -> int:
        return sum(self.owned[p])

    def owns(self, p: int, k: int) -> bool:
        return self.owned[p][k]

    def borrowing(self, c: int) -> bool:
        return self.lender_holder == c and self.lender_turn == self.turn

    def borrowable(self, k: int) -> bool:
        if k in (UNION, HARBOR):
            return self.options["borrow_harbor_union"]
        return True

    def access(self, c: int, k: int) -> bool:
        return self.owns(c, k) or (self.borrowing(c) and self.owns(1 - c, k)
                                   and self.borrowable(k))

    def harbor_ok_own(self, p: int) -> bool:
        return self.owns(p, HARBOR) and (self.options["harbor_benefit"] == "all_owners"
                                         or self.first_builder[HARBOR] == p)

    def harbor_ok(self, c: int) -> bool:
        if self.owns(c, HARBOR):
            return self.harbor_ok_own(c)
        opp = 1 - c
        return (self.borrowing(c) and self.options["borrow_harbor_union"]
                and self.owns(opp, HARBOR)
                and (self.options["harbor_benefit"] == "all_owners"
                     or self.first_builder[HARBOR] == opp))

    def prereq_ok(self, c: int, k: int) -> bool:
        pr = self.prereq[k]
        return (pr == -1 or self.owns(c, pr)
                or (self.options["borrowed_prereq"] and self.access(c, pr)))

    def gain_labor(self, x: int) -> None:
        self.labor += x
        self.labor_gained += x

    def gain_coins(self, p: int, x: int) -> None:
        supply = self.supply()
        got = min(x, supply)
        self.coins[p] += got
        self.coins_missed[p] += x - got
        if supply - got == 0:
            self.supply_ran_dry = True

    def workers(self, p: int) -> int:
        return (3 + (1 if self.owns(p, CAMP) and self.pos[YELLOW] >= 0 else 0)
                + (1 if self.owns(p, VILLAGE) and self.pos[ORANGE] >= 0 else 0)
                + self.hired(p))

    def movable(self, c: int) -> int:
        m = 0b111
        if self.pos[YELLOW] >= 0 and self.access(c, CAMP):
            m |= 1 << 3
        if self.pos[ORANGE] >= 0 and self.access(c, VILLAGE):
            m |= 1 << 4
        for k in range(self.hired(c)):
            m |= 1 << (5 + k)
        return m

    @staticmethod
    def slot_worker(c: int, i: int) -> int:
        return i if i < 5 else 5 + 3 * c + (i - 5)

    # ---------------------------------------------------------------- goals

    def meets(self, p: int, g: int, c: int, rival: bool, eot: bool) -> bool:
        cond, t = self.gcond[g], self.gthr[g]
        active = p == c
        if cond == C_COINS_EOT:
            return active and eot and self.coins[c] >= t
        if cond == C_LABOR_GAINED:
            return active and self.labor_gained >= t
        if cond == C_STRUCTURES:
            return self.count(p) >= t
        if cond == C_MOVED:
            return active and self.moved >= t
        if cond == C_VP_FIRST:
            return any(self.owns(p, k) and self.vp1[k] >= t for k in range(N_STRUCT))
        if cond == C_GRINDS:
            return active and self.grinds >= t
        if cond == C_SAILORS:
            return self.hired(p) >= t
        if cond == C_COPY:
            return active and rival
        # C_ARROWS
        arrows = sum(1 for k in range(N_STRUCT)
                     if self.prereq[k] >= 0 and self.owns(p, k) and self.owns(p, self.prereq[k]))
        return arrows >= t

    def _check_goals(self, c: int, rival: bool, eot: bool) -> None:
        if self.goal_next == self.n:
            return
        if not self.meets(c, self.stack[self.goal_next], c, rival, eot):
            return
        self.goal_result[self.goal_next] = c
        self.goal_next += 1
        self._reveal_loop(c, eot)

    def _reveal_loop(self, c: int, eot: bool) -> None:
        while self.goal_next < self.n:
            g = self.stack[self.goal_next]
            a = self.meets(c, g, c, False, eot)
            b = self.meets(1 - c, g, c, False, eot)
            if a and b:
                self.goal_result[self.goal_next] = -1
            elif a:
                self.goal_result[self.goal_next] = c
            elif b:
                self.goal_result[self.goal_next] = 1 - c
            else:
                return
            self.goal_next += 1

    def _check_end(self) -> None:
        if self.end_trigger != "none":
            return
        if any(self.count(p) >= self.k["structure_tokens"] for p in (0, 1)):
            self.end_trigger = "seven_structures"
        elif self.options["all_types_trigger"] and all(fb >= 0 for fb in self.first_builder):
            self.end_trigger = "all_types"
        elif self.goal_next == self.n:
            self.end_trigger = "goals"

    # ----------------------------------------------------------- turn flow

    def _flip(self) -> int:
        if self.first_builder[HARBOR] < 0:
            return -1
        a = self.rng.rand_below(2)
        b = self.rng.rand_below(2)
        return a + b

    def _begin_turn(self, p: int) -> None:
        if self.turn >= self.options["max_turns"]:
            self._finish("limit")
            return
        self.turn += 1
        self.current = p
        self.phase = "work"
        self.labor = self.labor_gained = self.moved = self.grinds = 0
        self.built = self.hired_this_turn = False
        self.ships = self._flip()
        if self.owns(p, MILL):
            self.gain_labor(self.k["mill_labor"])
        if self.options["smithy_effect"] == "turn_labor" and self.owns(p, SMITHY):
            self.gain_labor(1)
        if self.harbor_ok_own(p):
            if self.ships == 0:
                self.gain_labor(self.k["harbor_labor"])
            elif self.ships == 2:
                self.gain_coins(p, self.k["harbor_coins"])
        self._check_goals(p, False, False)
        self._check_end()

    def score(self, p: int) -> int:
        s = 0
        for k in range(N_STRUCT):
            if self.owned[p][k]:
                s += self.vp1[k] if self.first_builder[k] == p else self.vp2[k]
        s += sum(1 for r in self.goal_result if r == p)
        if self.lender_holder == p:
            s -= self.k["lender_penalty"]
        return s

    def _finish(self, reason: str) -> None:
        self.phase = "over"
        self.end_reason = reason
        self.winners = [] if reason == "limit" else self._compute_winners()

    def _compute_winners(self) -> list[int]:
        keys = []
        for p in (0, 1):
            key = [self.score(p), self.count(p)]
            if self.options["worker_tiebreak"]:
                key.append(self.workers(p))
            keys.append(key)
        if keys[0] > keys[1]:
            return [0]
        if keys[1] > keys[0]:
            return [1]
        return [0, 1]

    def _end_turn(self) -> None:
        c = self.current
        self._check_goals(c, False, True)
        self._check_end()
        self.labor = 0
        if self.end_trigger != "none":
            if self.options["final_turn"] == "finish_turn" or self.last_turn:
                self._finish(self.end_trigger)
                return
            self.last_turn = True
            self._begin_turn(1 - c)
            return
        self._begin_turn(1 - c)

    # ------------------------------------------------------------ queries

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[int]:
        return [self.score(0), self.score(1)]

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _take_ok(self, c: int) -> bool:
        h = self.lender_holder
        return (self.owns(c, LENDER) and h != c
                and (h == -1 or (h == 1 - c and self.options["lender_steal"])))

    def _repay_ok(self, c: int) -> bool:
        return (self.lender_holder == c and self.lender_turn != self.turn
                and self.coins[c] >= self.k["lender_repay"])

    def _build_ok(self, c: int, k: int) -> bool:
        return (not self.built and not self.owns(c, k)
                and self.count(c) < self.k["structure_tokens"]
                and self.prereq_ok(c, k)
                and self.labor >= self.L[k] and self.coins[c] >= self.C[k])

    def _hire_ok(self, c: int) -> bool:
        k = self.k
        return (not self.hired_this_turn and self.harbor_ok(c)
                and (self.ships == 1 or not self.options["sailor_needs_mixed"])
                and self.hired(0) + self.hired(1) < k["max_sailors"]
                and self.hired(c) < k["sailors_per_player"]
                and self.coins[c] >= k["sailor_cost"])

    def _compute_legal(self) -> list[int]:
        if self.phase == "over":
            return []
        c = self.current
        acts = []
        if self.phase == "work":
            mv = self.movable(c)
            acts.extend(m for m in range(1, 256) if m & ~mv == 0)
        else:
            acts.append(A_END)
            for k in range(N_STRUCT):
                if self._build_ok(c, k):
                    acts.append(A_BUILD + k)
            if self.labor >= self.k["grind_labor"] and self.supply() >= 1:
                acts.append(A_GRIND)
            if self.access(c, UNION) and self.coins[c] >= self.k["union_coins"]:
                acts.append(A_UNION)
            if self._hire_ok(c):
                acts.append(A_HIRE)
        if self._take_ok(c):
            acts.append(A_TAKE)
        if self._repay_ok(c):
            acts.append(A_REPAY)
        return acts

    # -------------------------------------------------------------- apply

    def apply(self, action: int) -> None:
        if not _is_int(action):
            raise ValueError(f"action must be an int, got {action!r}")
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action} ({self.action_to_string(action)})")
        self._legal = None
        c = self.current
        opp = 1 - c
        k = self.k
        rival = False

        if action == A_END:
            self._end_turn()
        else:
            if action < A_BUILD:  # MOVE m
                bank = self.access(c, BANK)
                smithy = (self.options["smithy_effect"] == "double_labor"
                          and self.access(c, SMITHY))
                for i in range(8):
                    if action >> i & 1:
                        w = self.slot_worker(c, i)
                        self.pos[w] = (self.pos[w] + 1) % 3
                        if self.pos[w] == SPACE_C:
                            self.gain_coins(c, 2 if bank else 1)
                        else:
                            self.gain_labor(2 if smithy else 1)
                        self.moved += 1
                self.phase = "spend"
            elif action < A_GRIND:  # BUILD s
                s = action - A_BUILD
                self.labor -= self.L[s]
                self.coins[c] -= self.C[s]
                self.owned[c][s] = True
                self.built_turn[c][s] = self.turn
                self.built = True
                if self.first_builder[s] == -1:
                    self.first_builder[s] = c
                else:
                    rival = True
                if s == CAMP and self.pos[YELLOW] == -1:
                    self.pos[YELLOW] = self.entry
                if s == VILLAGE and self.pos[ORANGE] == -1:
                    self.pos[ORANGE] = self.entry
                if self.options["income_on_build_turn"]:
                    if s == MILL:
                        self.gain_labor(k["mill_labor"])
                    if s == SMITHY and self.options["smithy_effect"] == "turn_labor":
                        self.gain_labor(1)
            elif action == A_GRIND:
                self.labor -= k["grind_labor"]
                self.gain_coins(c, k["grind_coins"])
                self.grinds += 1
            elif action == A_UNION:
                self.coins[c] -= k["union_coins"]
                self.labor += k["union_labor"]
            elif action == A_HIRE:
                self.coins[c] -= k["sailor_cost"]
                self.pos[5 + 3 * c + self.hired(c)] = self.entry
                self.hired_this_turn = True
            elif action == A_TAKE:
                if self.lender_holder == opp:
                    self.lender_steals[c] += 1
                self.lender_holder = c
                self.lender_turn = self.turn
                self.lender_takes[c] += 1
                if self.owns(opp, MILL) and not self.owns(c, MILL):
                    self.gain_labor(k["mill_labor"])
                if (self.options["smithy_effect"] == "turn_labor"
                        and self.owns(opp, SMITHY) and not self.owns(c, SMITHY)):
                    self.gain_labor(1)
                if (self.owns(opp, HARBOR) and not self.owns(c, HARBOR)
                        and self.options["borrow_harbor_union"]
                        and (self.options["harbor_benefit"] == "all_owners"
                             or self.first_builder[HARBOR] == opp)):
                    if self.ships == 0:
                        self.gain_labor(k["harbor_labor"])
                    elif self.ships == 2:
                        self.gain_coins(c, k["harbor_coins"])
            elif action == A_REPAY:
                self.coins[c] -= k["lender_repay"]
                self.lender_holder = -1
                self.lender_turn = -1
            else:  # pragma: no cover - legality filtered above
                raise ValueError(f"unknown action {action}")
            self._check_goals(c, rival, False)
            self._check_end()

        self.decisions += 1
        if self.phase != "over" and self.decisions >= self.options["max_turns"] * 128:
            self._finish("limit")

    # ------------------------------------------------------------ strings

    def action_to_string(self, a: int) -> str:
        if not _is_int(a) or not (0 <= a < NUM_ACTIONS):
            return f"INVALID({a!r})"
        if a == A_END:
            return "END_TURN"
        if a < A_BUILD:
            return "MOVE " + "+".join(SLOT_NAMES[i] for i in range(8) if a >> i & 1)
        if a < A_GRIND:
            return f"BUILD {self.snames[a - A_BUILD]}"
        return {A_GRIND: "GRIND", A_UNION: "UNION", A_HIRE: "HIRE",
                A_TAKE: "TAKE_LENDER", A_REPAY: "REPAY_LENDER"}[a]

    # ----------------------------------------------------------- dict I/O

    def to_dict(self) -> dict:
        pos = self.pos
        return {
            "game": "province",
            "options": dict(self.options),
            "data": copy_data(self.data),
            "rng": "0x%016x" % self.rng.state,
            "first_player": self.first_player,
            "current": self.current,
            "phase": self.phase,
            "turn": self.turn,
            "decisions": self.decisions,
            "coins": list(self.coins),
            "supply": self.supply(),
            "labor": self.labor,
            "workers": {
                "green": pos[0:3],
                "yellow": pos[YELLOW],
                "orange": pos[ORANGE],
                "sailors": [pos[5:8], pos[8:11]],
            },
            "owned": [[self.snames[k] for k in range(N_STRUCT) if self.owned[p][k]]
                      for p in (0, 1)],
            "first_builder": list(self.first_builder),
            "built_turn": [list(self.built_turn[0]), list(self.built_turn[1])],
            "ships": SHIP_NAMES[self.ships],
            "lender": {"holder": self.lender_holder, "taken_turn": self.lender_turn},
            "goals": {"stack": [self.gnames[g] for g in self.stack],
                      "next": self.goal_next, "result": list(self.goal_result)},
            "this_turn": {"labor_gained": self.labor_gained, "moved": self.moved,
                          "grinds": self.grinds, "built": self.built,
                          "hired": self.hired_this_turn},
            "end_trigger": self.end_trigger,
            "last_turn": self.last_turn,
            "end_reason": self.end_reason,
            "winners": list(self.winners),
            "stats": {"supply_ran_dry": self.supply_ran_dry,
                      "coins_missed": list(self.coins_missed),
                      "lender_takes": list(self.lender_takes),
                      "lender_steals": list(self.lender_steals)},
        }

    @classmethod
    def from_dict(cls, d: dict) -> "ProvinceRef":
        for key in _STATE_KEYS:
            if key not in d:
                raise ValueError(f"state dict lacks key {key!r}")
        if d["game"] != "province":
            raise ValueError(f"not a province state: {d['game']!r}")
        missing = [k for k in DEFAULT_OPTIONS if k not in d["options"]]
        if missing:
            raise ValueError(f"options lack {missing}")

        g = cls.__new__(cls)
        g.options = _merge_options(d["options"])
        g.data = _check_data(copy.deepcopy(d["data"]))   # effective numbers, no tweak
        g._cache()
        rng = d["rng"]
        g.rng = Rng(int(rng, 16) if isinstance(rng, str) else int(rng))

        def seat(v, what, allow_none=False):
            if not _is_int(v) or not ((-1 if allow_none else 0) <= v <= 1):
                raise ValueError(f"bad {what}: {v!r}")
            return v

        def flag(v, what):
            if not isinstance(v, bool):
                raise ValueError(f"{what} must be a bool, got {v!r}")
            return v

        def nat(v, what, lo=0):
            if not _is_int(v) or v < lo:
                raise ValueError(f"{what} must be an int >= {lo}, got {v!r}")
            return v

        g.first_player = seat(d["first_player"], "first_player")
        g.current = seat(d["current"], "current")
        if d["phase"] not in ("work", "spend", "over"):
            raise ValueError(f"bad phase {d['phase']!r}")
        g.phase = d["phase"]
        g.turn = nat(d["turn"], "turn")
        g.decisions = nat(d["decisions"], "decisions")
        coins = d["coins"]
        if not isinstance(coins, list) or len(coins) != 2:
            raise ValueError("coins must have 2 entries")
        g.coins = [nat(x, "coins") for x in coins]
        if g.coins[0] + g.coins[1] > g.coin_total:
            raise ValueError("coins exceed coin_total")
        if d["supply"] != g.supply():
            raise ValueError(f"supply {d['supply']!r} != coin_total - coins = {g.supply()}")
        g.labor = nat(d["labor"], "labor")

        w = d["workers"]
        for key in ("green", "yellow", "orange", "sailors"):
            if key not in w:
                raise ValueError(f"workers lack key {key!r}")
        if len(w["green"]) != 3 or len(w["sailors"]) != 2 or any(len(s) != 3 for s in w["sailors"]):
            raise ValueError("bad workers layout")
        pos = list(w["green"]) + [w["yellow"], w["orange"]] + list(w["sailors"][0]) \
            + list(w["sailors"][1])
        for i, x in enumerate(pos):
            if not _is_int(x) or not (-1 <= x <= 2) or (i < 3 and x < 0):
                raise ValueError(f"bad worker position {x!r}")
        for p in (0, 1):
            sp = pos[5 + 3 * p: 8 + 3 * p]
            h = sum(1 for x in sp if x >= 0)
            if any(x < 0 for x in sp[:h]):
                raise ValueError("sailors must be hired in order k = 0, 1, 2")
        g.pos = pos

        owned = d["owned"]
        if not isinstance(owned, list) or len(owned) != 2:
            raise ValueError("owned must have 2 entries")
        g.owned = [[False] * N_STRUCT for _ in range(2)]
        for p in (0, 1):
            for name in owned[p]:
                if name not in g.snames:
                    raise ValueError(f"unknown structure name {name!r}")
                g.owned[p][g.snames.index(name)] = True
        fb = d["first_builder"]
        if len(fb) != N_STRUCT:
            raise ValueError("first_builder must have 8 entries")
        g.first_builder = [seat(x, "first_builder", True) for x in fb]
        bt = d["built_turn"]
        if len(bt) != 2 or any(len(r) != N_STRUCT for r in bt):
            raise ValueError("built_turn must be 2 x 8")
        g.built_turn = [[nat(x, "built_turn", -1) for x in r] for r in bt]
        if d["ships"] not in SHIP_CODES:
            raise ValueError(f"bad ships {d['ships']!r}")
        g.ships = SHIP_CODES[d["ships"]]
        g.lender_holder = seat(d["lender"]["holder"], "lender holder", True)
        g.lender_turn = nat(d["lender"]["taken_turn"], "lender taken_turn", -1)

        gs = d["goals"]
        stack = gs["stack"]
        if not isinstance(stack, list) or not (1 <= len(stack) <= 9):
            raise ValueError("goals.stack must hold 1..9 tokens")
        for name in stack:
            if name not in g.gnames:
                raise ValueError(f"unknown goal name {name!r}")
        g.stack = [g.gnames.index(name) for name in stack]
        g.goal_next = gs["next"]
        if not _is_int(g.goal_next) or not (0 <= g.goal_next <= len(stack)):
            raise ValueError(f"bad goals.next {g.goal_next!r}")
        res = gs["result"]
        if len(res) != len(stack) or any(not _is_int(x) or not (-2 <= x <= 1) for x in res):
            raise ValueError("bad goals.result")
        g.goal_result = list(res)

        tt = d["this_turn"]
        g.labor_gained = nat(tt["labor_gained"], "labor_gained")
        g.moved = nat(tt["moved"], "moved")
        g.grinds = nat(tt["grinds"], "grinds")
        g.built = flag(tt["built"], "built")
        g.hired_this_turn = flag(tt["hired"], "hired")
        if d["end_trigger"] not in TRIGGERS:
            raise ValueError(f"bad end_trigger {d['end_trigger']!r}")
        g.end_trigger = d["end_trigger"]
        g.last_turn = flag(d["last_turn"], "last_turn")
        if d["end_reason"] not in END_REASONS:
            raise ValueError(f"bad end_reason {d['end_reason']!r}")
        g.end_reason = d["end_reason"]
        g.winners = [seat(x, "winner") for x in d["winners"]]
        st = d["stats"]
        g.supply_ran_dry = flag(st["supply_ran_dry"], "supply_ran_dry")
        g.coins_missed = [nat(x, "coins_missed") for x in st["coins_missed"]]
        g.lender_takes = [nat(x, "lender_takes") for x in st["lender_takes"]]
        g.lender_steals = [nat(x, "lender_steals") for x in st["lender_steals"]]
        if len(g.coins_missed) != 2 or len(g.lender_takes) != 2 or len(g.lender_steals) != 2:
            raise ValueError("stats lists must have 2 entries")
        g._legal = None
        return g


def action_to_string(a: int) -> str:
    """Action name with the default structure names."""
    return ProvinceRef.action_to_string(_NAMES_ONLY, a)


class _Names:
    snames = STRUCTURE_ROLE_NAMES


_NAMES_ONLY = _Names()


def play_random_game(n_players: int, seed: int, options: dict | None = None,
                     bot_seed: int = 0) -> ProvinceRef:
    """Play a whole game choosing uniformly among legal actions."""
    return play_random(ProvinceRef, n_players, seed, options, bot_seed)


# the reference the conformance test plays against the engine (tests/test_engines_vs_references.py)
REFERENCE = ProvinceRef
REFERENCE_GAMES = 1000  # games at the default options, spread over the player counts
