"""Plain-Python reference implementation of The Three Little Wolves.

Written independently from the numba engine, strictly from the contract
``docs/games/three_little_wolves.md`` (card ids, SplitMix64 setup, turn flow, pig
procedures, 2p dummy and end, action ids, scoring, state dict) and the rules spec
``shared/rules/three_little_wolves.md``. Slow but meant to be obviously correct; it is
compared with the engine decision by decision.

Internal representation
-----------------------
* card ids 0..58 (0..55 building cards ``colour = id // 14``, ``row = id % 14``;
  56..58 the pig cards); per-id tables ``number``, ``icon``, ``mark`` from the suit;
* ``deck``: list of ids, bottom first (top card = last element);
* ``hands[p]`` and ``discard``: sorted lists of ids;
* ``houses[o]`` (owners ``0..n-1``, plus the dummy ``2`` in 2p): list of dicts
  ``{"colour": "R"|"Y"|"G"|"-", "floors": [ids], "basements": [ids], "pig": int,
  "wolves": [[seat, value], ...]}`` -- the same layout as the state dict, with ids.

The procedures of contract section 5 are methods with the same names; a procedure returns
True when it *suspended* (set a decision phase for somebody).
"""

from __future__ import annotations

import bisect

from tests.reference.common import check_state_head, merge_options, play_random
from tests.reference.go_town import MASK64, Rng, mix, seed_for  # noqa: F401  (re-exported)

# --------------------------------------------------------------------------
# Component data (contract section 1)
# --------------------------------------------------------------------------

COLOURS = "RYGW"            # colour index = card id // 14
HOUSE_COLOURS = "RYG"
W = 3                       # colour index of white
PIG_BASE = 56
PIG_NAMES = ["PIG1", "PIG2", "PIG3"]
N_CARDS = 59
N_BUILD = 56

_BASE_ROWS = [
    (1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 0, 0), (5, 0, 0), (5, 0, 0), (6, 0, 0),
    (7, 0, -2), (8, 0, 0), (9, 0, 0), (9, 0, 0), (10, 0, 0), (11, 0, 3), (12, 0, 2),
]


def _template(icon5: int, icon9: int) -> list[list[int]]:
    rows = [list(r) for r in _BASE_ROWS]
    rows[5][1] = icon5
    rows[10][1] = icon9
    return rows


CARD_SETS = {
    "cards_v0": _template(0, 0),
    "cards_v1": _template(2, 2),
    "cards_v2": _template(2, 3),
}

PIG_EFFECTS = ("LEFT", "RIGHT", "HOUSE", "NONE")

DEFAULT_DATA = {
    "suit": [list(r) for r in CARD_SETS["cards_v1"]],
    "pig_effects": ["LEFT", "RIGHT", "HOUSE"],
    "pig_tokens": [2, 3, 4],
    "wolf_values": [3, 4, 5],
    "house_points": 4,
    "collapse_points": -1,
    "bonus_points": 3,
    "bottom_packet": 5,
}

DEFAULT_OPTIONS = {
    "card_set": "cards_v1",
    "variant_kids": False,
    "kids_pig_tokens": True,
    "hand_size": 5,
    "wolf_order_free": True,
    "wolf_two_slot_rule": "B3",
    "b3_same_player": True,
    "coloured_basement_unassigned": False,
    "pure_discard_allowed": False,
    "pig_tie_drawer_first": True,
    "pig_same_owner_tie": "owner_chooses",
    "unplaced_pig_token": "lost",
    "dummy_gets_pig_tokens": True,
    "dummy_policy": "neutral",
    "final2p_white_pass": False,
    "height_rule": "icon_top",
    "lone_house_collapses": False,
    "lone_house_bonus": True,
    "marks_on_collapsed": True,
    "tiebreak_wolf_net": True,
}

_OPTION_RULES = {
    "card_set": ("str", ("cards_v0", "cards_v1", "cards_v2")),
    "variant_kids": ("bool", None),
    "kids_pig_tokens": ("bool", None),
    "hand_size": ("int", (4, 5)),
    "wolf_order_free": ("bool", None),
    "wolf_two_slot_rule": ("str", ("B3", "any_basement")),
    "b3_same_player": ("bool", None),
    "coloured_basement_unassigned": ("bool", None),
    "pure_discard_allowed": ("bool", None),
    "pig_tie_drawer_first": ("bool", None),
    "pig_same_owner_tie": ("str", ("owner_chooses", "colour_order")),
    "unplaced_pig_token": ("str", ("lost", "kept")),
    "dummy_gets_pig_tokens": ("bool", None),
    "dummy_policy": ("str", ("neutral", "holder_choice")),
    "final2p_white_pass": ("bool", None),
    "height_rule": ("str", ("icon_top", "card_count")),
    "lone_house_collapses": ("bool", None),
    "lone_house_bonus": ("bool", None),
    "marks_on_collapsed": ("bool", None),
    "tiebreak_wolf_net": ("bool", None),
}

# --------------------------------------------------------------------------
# Actions (contract section 6)
# --------------------------------------------------------------------------

NUM_ACTIONS = 665
MAX_DECISIONS = 256

A_FLOOR = 0            # 4c + k (k 0..2 own house, 3 new house)
A_BASEMENT = 224       # 224 + 3c + h
A_WOLF = 392           # 392 + c
A_PLACE = 448          # 448 + 12v + 3o + h
A_DISCARD = 484        # 484 + c
A_PASS = 540           # 540 + c
A_PIG_TIE = 596        # 596 + h
A_DUMMY_FLOOR = 599    # 599 + h
A_DUMMY_NEW = 602      # 602 + colour (R, Y, G)
A_DUMMY_BASE = 605     # 605 + h
A_DUMMY_DISCARD = 608
A_COMMIT = 609         # 609 + c

_STATE_KEYS = (
    "game", "n_players", "options", "data", "rng", "stage", "phase", "current",
    "turn_player", "turn", "decisions", "deck", "hands", "discard", "houses", "wolves_left",
    "pigs_revealed", "pig_tokens_left", "pig_tokens_lost", "mustache", "drawer", "pig_card",
    "effect_step", "tie_houses", "passing", "final_left", "round_step", "committed",
    "dummy_card", "cards_under_last_pig", "stats", "end_reason",
)
_STAGES = ("normal", "final", "final2p", "over")
_PHASES = ("play", "wolf", "pig_tie", "pass", "house", "dummy", "commit", "over")
_END_REASONS = ("none", "scored", "limit")

SEAT_DETAIL_COLUMNS = (
    "pts_houses", "pts_collapses", "pts_bonuses", "pts_pigs", "pts_wolves", "pts_marks",
    "act_build", "act_wolf", "act_discard", "houses_built", "houses_collapsed",
    "houses_saved_by_tie", "bonus_lost_to_tie", "wolves_placed", "wolves_standing",
    "cards_under_last_pig",
)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _merge_options(options: dict | None) -> dict:
    return merge_options(options, DEFAULT_OPTIONS, _OPTION_RULES)


def _merge_data(data: dict | None, card_set: str) -> dict:
    out = {
        "suit": [list(r) for r in CARD_SETS[card_set]],
        "pig_effects": list(DEFAULT_DATA["pig_effects"]),
        "pig_tokens": list(DEFAULT_DATA["pig_tokens"]),
        "wolf_values": list(DEFAULT_DATA["wolf_values"]),
        "house_points": DEFAULT_DATA["house_points"],
        "collapse_points": DEFAULT_DATA["collapse_points"],
        "bonus_points": DEFAULT_DATA["bonus_points"],
        "bottom_packet": DEFAULT_DATA["bottom_packet"],
    }
    if data:
        for k, v in data.items():
            if k not in out:
                raise ValueError(f"unknown data key: {k!r}")
            out[k] = [list(r) for r in v] if k == "suit" else (
                list(v) if isinstance(v, (list, tuple)) else v)
    suit = out["suit"]
    if len(suit) != 14:
        raise ValueError("suit must have 14 rows")
    for row in suit:
        if len(row) != 3 or not all(_is_int(x) for x in row):
            raise ValueError(f"bad suit row {row!r}")
        num, icon, mark = row
        if not (1 <= num <= 99 and 0 <= icon <= 9 and -9 <= mark <= 9):
            raise ValueError(f"suit row out of range: {row!r}")
    if len(out["pig_effects"]) != 3 or any(e not in PIG_EFFECTS for e in out["pig_effects"]):
        raise ValueError(f"bad pig_effects {out['pig_effects']!r}")
    for k in ("pig_tokens", "wolf_values"):
        if len(out[k]) != 3 or not all(_is_int(x) for x in out[k]):
            raise ValueError(f"data {k} must be 3 ints")
    for k in ("house_points", "collapse_points", "bonus_points", "bottom_packet"):
        if not _is_int(out[k]):
            raise ValueError(f"data {k} must be an int")
    if out["bottom_packet"] < 0:
        raise ValueError("bottom_packet must be >= 0")
    return out


def card_names(suit) -> list[str]:
    """The 59 card names for a suit template (contract 1.1)."""
    names = []
    for col in COLOURS:
        for r, row in enumerate(suit):
            dup = sum(1 for q in range(r) if suit[q][0] == row[0])
            names.append(f"{col}{row[0]}" + "*" * dup)
    return names + list(PIG_NAMES)


DEFAULT_NAMES = card_names(DEFAULT_DATA["suit"])


# --------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------

class ThreeLittleWolvesRef:
    """One game of The Three Little Wolves, following the contract exactly."""

    def __init__(self, n_players: int, seed: int, options: dict | None = None,
                 data: dict | None = None):
        if not _is_int(n_players) or not (2 <= n_players <= 4):
            raise ValueError(f"n_players must be 2..4, got {n_players!r}")
        n = n_players
        self.n = n
        self.options = _merge_options(options)
        self.data = _merge_data(data, self.options["card_set"])
        self._cache()
        hs = self.options["hand_size"]
        if hs * n + self.data["bottom_packet"] > N_BUILD:
            raise ValueError("bottom_packet too large for the deal")
        self.rng = Rng(int(seed) & MASK64)
        self._blank_state()

        # --- setup (contract section 3) ---
        P = list(range(N_BUILD))
        self.rng.shuffle(P)
        for p in range(n):
            for _ in range(hs):
                self.hands[p].append(P.pop())
            self.hands[p].sort()
        K = [P.pop() for _ in range(self.data["bottom_packet"])]
        j = self.rng.rand_below(3)
        K.append(PIG_BASE + j)
        self.rng.shuffle(K)
        U = P + [PIG_BASE + i for i in range(3) if i != j]
        self.rng.shuffle(U)
        self.deck = K + U
        self.turn = 0
        self.start_turn(0)

    def _blank_state(self) -> None:
        n = self.n
        self.n_owners = 3 if n == 2 else n
        self.stage = "normal"
        self.phase = "play"
        self.current = 0
        self.turn_player = 0
        self.turn = 0
        self.decisions = 0
        self.deck: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.discard: list[int] = []
        self.houses: list[list[dict]] = [[] for _ in range(self.n_owners)]
        self.wolves_left = [sorted(self.data["wolf_values"]) for _ in range(n)]
        self.pigs_revealed: list[int] = []
        self.pig_tokens_left = sorted(self.data["pig_tokens"])
        self.pig_tokens_lost: list[int] = []
        self.mustache = 0 if n == 2 else -1
        self.drawer = -1
        self.pig_card = None
        self.effect_step = 0
        self.tie_houses: list[int] = []
        self.passing = [None] * n
        self.final_left = 0
        self.round_step = 0
        self.committed = [None] * n
        self.dummy_card = None
        self.cards_under_last_pig = -1
        self.stats = [{"build": 0, "wolf": 0, "discard": 0} for _ in range(n)]
        self.end_reason = "none"
        self._legal = None

    def _cache(self) -> None:
        suit = self.data["suit"]
        self.number = [suit[i % 14][0] for i in range(N_BUILD)]
        self.icon = [suit[i % 14][1] for i in range(N_BUILD)]
        self.mark = [suit[i % 14][2] for i in range(N_BUILD)]
        self.names = card_names(suit)
        self.name_to_id = {nm: i for i, nm in enumerate(self.names)}
        o = self.options
        self.o_icon_top = o["height_rule"] == "icon_top"
        self.o_lost = o["unplaced_pig_token"] == "lost"
        self.o_neutral = o["dummy_policy"] == "neutral"

    # ------------------------------------------------------------- helpers

    @staticmethod
    def colour_of(c: int) -> str:
        return COLOURS[c // 14]

    def is_dummy(self, o: int) -> bool:
        return self.n == 2 and o == 2

    def height(self, house: dict) -> int:
        c = len(house["floors"]) + len(house["basements"])
        if self.o_icon_top:
            v = self.icon[house["floors"][-1]]
            if v > 0:
                return c - 1 + v
        return c

    def top(self, house: dict) -> int:
        return self.number[house["floors"][-1]]

    def capacity(self, house: dict) -> int:
        rule = self.options["wolf_two_slot_rule"]
        if rule == "B3" and any(self.number[b] == 3 for b in house["basements"]):
            return 2
        if rule == "any_basement" and house["basements"]:
            return 2
        return 1

    def _has_colour(self, o: int, col: str) -> bool:
        return any(h["colour"] == col for h in self.houses[o])

    def floor_legal(self, p: int, h: int, c: int) -> bool:
        house = self.houses[p][h]
        col = self.colour_of(c)
        if self.number[c] <= self.top(house):
            return False
        if col == "W" or house["colour"] == col:
            return True
        return house["colour"] == "-" and not self._has_colour(p, col)

    def new_house_legal(self, p: int, c: int) -> bool:
        if len(self.houses[p]) >= 3:
            return False
        col = self.colour_of(c)
        return col == "W" or not self._has_colour(p, col)

    def basement_legal(self, p: int, h: int, c: int) -> bool:
        house = self.houses[p][h]
        k = self.number[c]
        if k > 3:
            return False
        if house["basements"] and k <= self.number[house["basements"][-1]]:
            return False
        col = self.colour_of(c)
        if col == "W" or house["colour"] == col:
            return True
        return (self.options["coloured_basement_unassigned"] and house["colour"] == "-"
                and not self._has_colour(p, col))

    def wolf_value_legal(self, p: int, v: int) -> bool:
        val = self.data["wolf_values"][v]
        left = self.wolves_left[p]
        if val not in left:
            return False
        return self.options["wolf_order_free"] or val == min(left)

    def wolf_target_legal(self, p: int, o: int, h: int) -> bool:
        if o >= self.n_owners or h >= len(self.houses[o]):
            return False
        if self.options["variant_kids"]:
            if o != p:
                return False
        elif o == p:
            return False
        house = self.houses[o][h]
        wolves = house["wolves"]
        if len(wolves) >= self.capacity(house):
            return False
        if (len(wolves) == 1 and wolves[0][0] == p
                and not self.options["b3_same_player"]):
            return False
        return True

    def _wolf_pairs(self, p: int) -> list[int]:
        """PLACE ids legal for seat p (ascending)."""
        out = []
        for v in range(3):
            if not self.wolf_value_legal(p, v):
                continue
            for o in range(self.n_owners):
                for h in range(len(self.houses[o])):
                    if self.wolf_target_legal(p, o, h):
                        out.append(A_PLACE + 12 * v + 3 * o + h)
        return out

    def _has_wolf_pair(self, p: int) -> bool:
        return bool(self._wolf_pairs(p))

    def _usable(self) -> list[int]:
        p = self.current
        if self.stage == "final2p":
            c = self.committed[p]
            return [c] if c is not None and c in self.hands[p] else []
        return list(self.hands[p])

    # -------------------------------------------------------- flow (section 5)

    def start_turn(self, p: int) -> None:
        self.turn += 1
        self.turn_player = p
        self.current = p
        self.phase = "play"

    def end_turn(self) -> None:
        n = self.n
        if n >= 3:
            self.start_turn((self.turn_player + 1) % n)
        elif self.turn_player == 0:
            self.start_turn(1)
        elif self.turn_player == 1:
            self.turn_player = 2
            self.reveal_loop()
        else:
            self.start_turn(0)

    def after_use(self, p: int) -> None:
        if self.stage == "normal":
            self.reveal_loop()
        elif self.stage == "final":
            self.final_left -= 1
            if self.final_left == 0:
                self.score()
            else:
                self.start_turn((p + 1) % self.n)
        else:  # final2p
            self.committed[p] = None
            self.round_step += 1
            self.resolve_next()

    def reveal_loop(self) -> None:
        while True:
            if not self.deck:
                self.end_turn()
                return
            x = self.deck.pop()
            if x >= PIG_BASE:
                self.pigs_revealed.append(x)
                self.pig_card = x
                self.drawer = (self.mustache if self.is_dummy(self.turn_player)
                               else self.turn_player)
                if self.place_token():
                    return
                if self.after_token() or self.stage != "normal":
                    return
                continue
            if not self.is_dummy(self.turn_player):
                bisect.insort(self.hands[self.turn_player], x)
                self.end_turn()
                return
            self.dummy_reveal(x)
            return

    # ---- pig tokens (5.1)

    def token_value(self):
        """The token the pig being resolved hands out, or None (kept mode, none left)."""
        if self.o_lost:
            return self.data["pig_tokens"][len(self.pigs_revealed) - 1]
        return min(self.pig_tokens_left) if self.pig_tokens_left else None

    def _owner_order(self, d: int) -> list[int]:
        m = self.n_owners
        if self.options["pig_tie_drawer_first"]:
            return [(d + i) % m for i in range(m)]
        return [(d + 1 + i) % m for i in range(m)]

    def place_token(self) -> bool:
        token = self.token_value()
        if token is None:
            return False
        kids = self.options["variant_kids"]
        eligible = []
        if not (kids and not self.options["kids_pig_tokens"]):
            for o in range(self.n_owners):
                if self.is_dummy(o) and not self.options["dummy_gets_pig_tokens"]:
                    continue
                for h, house in enumerate(self.houses[o]):
                    if house["pig"] == 0:
                        eligible.append((o, h))
        if not eligible:
            if self.o_lost:
                self.pig_tokens_left.remove(token)
                bisect.insort(self.pig_tokens_lost, token)
            return False
        H = max(self.height(self.houses[o][h]) for o, h in eligible)
        cand = [(o, h) for o, h in eligible if self.height(self.houses[o][h]) == H]
        for o in self._owner_order(self.drawer):
            mine = [h for oo, h in cand if oo == o]
            if mine:
                break
        if len(mine) == 1:
            self._put_token(o, mine[0], token)
            return False
        if self.is_dummy(o) or self.options["pig_same_owner_tie"] == "colour_order":
            order = {"R": 0, "Y": 1, "G": 2, "-": 3}
            best = min(mine, key=lambda h: (order[self.houses[o][h]["colour"]], h))
            self._put_token(o, best, token)
            return False
        self.phase = "pig_tie"
        self.current = o
        self.tie_houses = sorted(mine)
        return True

    def _put_token(self, o: int, h: int, token: int) -> None:
        self.houses[o][h]["pig"] = token
        self.pig_tokens_left.remove(token)

    # ---- pig effects (5.2)

    def after_token(self) -> bool:
        if len(self.pigs_revealed) == 3:
            self.pig_card = None
            self.cards_under_last_pig = len(self.deck)
            return self.start_end()
        e = self.data["pig_effects"][self.pig_card - PIG_BASE]
        if self.options["variant_kids"]:
            e = "NONE"
        self.effect_step = 0
        if e in ("LEFT", "RIGHT"):
            return self.pass_next()
        if e == "HOUSE":
            return self.house_next()
        self.finish_effect()
        return False

    def pass_next(self) -> bool:
        n = self.n
        while self.effect_step < n:
            q = (self.drawer + self.effect_step) % n
            if self.hands[q]:
                self.phase = "pass"
                self.current = q
                return True
            self.effect_step += 1
        e = self.data["pig_effects"][self.pig_card - PIG_BASE]
        for q in range(n):
            x = self.passing[q]
            if x is None:
                continue
            if n == 2:
                r = 1 - q
            elif e == "LEFT":
                r = (q + 1) % n
            else:
                r = (q - 1) % n
            bisect.insort(self.hands[r], x)
            self.passing[q] = None
        self.finish_effect()
        return False

    def house_next(self) -> bool:
        n = self.n
        while self.effect_step < n:
            q = (self.drawer + self.effect_step) % n
            if self._has_wolf_pair(q):
                self.phase = "house"
                self.current = q
                return True
            self.effect_step += 1
        self.finish_effect()
        return False

    def finish_effect(self) -> None:
        self.pig_card = None
        self.drawer = -1
        self.effect_step = 0

    def start_end(self) -> bool:
        """Returns True: the normal stage is over, the caller must stop."""
        d = self.drawer
        self.drawer = -1
        if self.n >= 3:
            self.stage = "final"
            self.final_left = 2 * self.n
            self.start_turn((d + 1) % self.n)
        else:
            self.stage = "final2p"
            self.start_round()
        return True

    # ---- the dummy (5.3)

    def dummy_reveal(self, x: int) -> None:
        if self.o_neutral:
            kind, target = self.neutral_choice(x)
            self.dummy_apply(x, kind, target)
        else:
            self.dummy_card = x
            self.phase = "dummy"
            self.current = self.mustache

    def _dummy_house_of(self, col: str):
        for h, house in enumerate(self.houses[2]):
            if house["colour"] == col:
                return h
        return None

    def dummy_options(self, x: int) -> list[int]:
        """Legal DUMMY_* ids for card x (contract 5.3)."""
        dh = self.houses[2]
        col = self.colour_of(x)
        k = self.number[x]
        acts = []
        for h, house in enumerate(dh):
            if k > self.top(house) and (col == "W" or house["colour"] == col):
                acts.append(A_DUMMY_FLOOR + h)
        if len(dh) < 3:
            for ci, c in enumerate(HOUSE_COLOURS):
                if not self._has_colour(2, c) and (col == "W" or col == c):
                    acts.append(A_DUMMY_NEW + ci)
        for h in range(len(dh)):
            if self.basement_legal(2, h, x):
                acts.append(A_DUMMY_BASE + h)
        if not acts:
            acts.append(A_DUMMY_DISCARD)
        return acts

    def neutral_choice(self, x: int):
        dh = self.houses[2]
        col = self.colour_of(x)
        k = self.number[x]
        if col != "W":
            h = self._dummy_house_of(col)
            if h is not None and k > self.top(dh[h]):
                return "floor", h
            if h is None:
                return "new", col
            if self.basement_legal(2, h, x):
                return "base", h
            return "discard", None
        best = None
        for col2 in HOUSE_COLOURS:
            h = self._dummy_house_of(col2)
            if h is None:
                continue
            diff = k - self.top(dh[h])
            if diff > 0 and (best is None or diff < best[0]):
                best = (diff, h)
        if best is not None:
            return "floor", best[1]
        if len(dh) < 3:
            for col2 in HOUSE_COLOURS:
                if not self._has_colour(2, col2):
                    return "new", col2
        best = None
        for col2 in HOUSE_COLOURS:
            h = self._dummy_house_of(col2)
            if h is None or not self.basement_legal(2, h, x):
                continue
            ht = self.height(dh[h])
            if best is None or ht < best[0]:
                best = (ht, h)
        if best is not None:
            return "base", best[1]
        return "discard", None

    def dummy_apply(self, x: int, kind: str, target) -> None:
        dh = self.houses[2]
        if kind == "floor":
            dh[target]["floors"].append(x)
        elif kind == "new":
            dh.append({"colour": target, "floors": [x], "basements": [], "pig": 0,
                       "wolves": []})
        elif kind == "base":
            dh[target]["basements"].append(x)
        else:
            bisect.insort(self.discard, x)
        placed_white = self.colour_of(x) == "W" and kind != "discard"
        if self.stage == "normal":
            if placed_white:
                self.mustache = 1 - self.mustache
            self.end_turn()
        else:
            if self.options["final2p_white_pass"] and placed_white:
                self.mustache = 1 - self.mustache
            self.end_round()

    # ---- the two-player end (5.4)

    def start_round(self) -> None:
        if not self.hands[0] and not self.hands[1]:
            self.score()
            return
        self.round_step = 0
        self.commit_next()

    def _round_order(self) -> list[int]:
        return [self.mustache, 1 - self.mustache]

    def commit_next(self) -> None:
        order = self._round_order()
        while self.round_step < 2:
            q = order[self.round_step]
            if self.hands[q]:
                self.phase = "commit"
                self.current = q
                return
            self.round_step += 1
        self.resolve_next()

    def resolve_next(self) -> None:
        order = self._round_order()
        while self.round_step < 4:
            q = order[self.round_step - 2]
            if self.committed[q] is not None:
                self.turn += 1
                self.turn_player = q
                self.current = q
                self.phase = "play"
                return
            self.round_step += 1
        if self.deck:
            x = self.deck.pop()
            self.turn_player = 2
            self.dummy_reveal(x)
        else:
            self.end_round()

    def end_round(self) -> None:
        self.mustache = 1 - self.mustache
        self.start_round()

    # ---- scoring (section 7)

    def score(self) -> None:
        self.stage = "over"
        self.phase = "over"
        self.current = -1
        self.end_reason = "scored"

    def evaluate(self) -> dict:
        """Score every seat as if the game ended now (contract section 7)."""
        n = self.n
        d = self.data
        heights = {}
        for o in range(self.n_owners):
            for h, house in enumerate(self.houses[o]):
                heights[(o, h)] = self.height(house)
        collapsed = {k for k in heights if self.houses[k[0]][k[1]]["colour"] == "-"}
        bonuses = [0] * n
        saved = [0] * n
        bonus_tied = [0] * n
        for col in HOUSE_COLOURS:
            S = [k for k in heights if self.houses[k[0]][k[1]]["colour"] == col]
            if not S:
                continue
            winner = None
            if len(S) >= 2:
                mn = min(heights[k] for k in S)
                at_min = [k for k in S if heights[k] == mn]
                if len(at_min) == 1:
                    collapsed.add(at_min[0])
                else:
                    for o, _h in at_min:
                        if o < n and not self.is_dummy(o):
                            saved[o] += 1
                mx = max(heights[k] for k in S)
                at_max = [k for k in S if heights[k] == mx]
                if len(at_max) == 1:
                    winner = at_max[0]
                else:
                    for o, _h in at_max:
                        if o < n and not self.is_dummy(o):
                            bonus_tied[o] += 1
            else:
                if self.options["lone_house_collapses"]:
                    collapsed.add(S[0])
                if self.options["lone_house_bonus"]:
                    winner = S[0]
            if winner is not None and not self.is_dummy(winner[0]):
                bonuses[winner[0]] += 1

        cp = d["collapse_points"]
        comp = {k: [0] * n for k in ("houses", "collapses", "bonuses", "pigs", "wolves",
                                     "marks")}
        built = [0] * n
        n_coll = [0] * n
        w_placed = [0] * n
        w_stand = [0] * n
        w_stand_vals = [0] * n
        for o in range(self.n_owners):
            for h, house in enumerate(self.houses[o]):
                down = (o, h) in collapsed
                for s, val in house["wolves"]:
                    w_placed[s] += 1
                    if down:
                        comp["wolves"][s] += cp
                    else:
                        comp["wolves"][s] += val
                        w_stand[s] += 1
                        w_stand_vals[s] += val
                if self.is_dummy(o):
                    continue
                built[o] += 1
                if down:
                    n_coll[o] += 1
                    comp["collapses"][o] += cp
                else:
                    comp["houses"][o] += d["house_points"]
                if house["pig"] > 0:
                    comp["pigs"][o] += cp if down else house["pig"]
                if not down or self.options["marks_on_collapsed"]:
                    comp["marks"][o] += self.mark[house["floors"][-1]]
        for p in range(n):
            comp["bonuses"][p] = bonuses[p] * d["bonus_points"]
        scores = [sum(comp[k][p] for k in comp) for p in range(n)]
        tiebreak = (list(comp["wolves"]) if self.options["tiebreak_wolf_net"]
                    else w_stand_vals)
        pairs = [(scores[p], tiebreak[p]) for p in range(n)]
        best = max(pairs)
        winners = [p for p in range(n) if pairs[p] == best]
        ranks = [1 + sum(1 for q in range(n) if pairs[q] > pairs[p]) for p in range(n)]
        detail = {
            "pts_houses": comp["houses"], "pts_collapses": comp["collapses"],
            "pts_bonuses": comp["bonuses"], "pts_pigs": comp["pigs"],
            "pts_wolves": comp["wolves"], "pts_marks": comp["marks"],
            "act_build": [s["build"] for s in self.stats],
            "act_wolf": [s["wolf"] for s in self.stats],
            "act_discard": [s["discard"] for s in self.stats],
            "houses_built": built, "houses_collapsed": n_coll,
            "houses_saved_by_tie": saved, "bonus_lost_to_tie": bonus_tied,
            "wolves_placed": w_placed, "wolves_standing": w_stand,
            "cards_under_last_pig": [self.cards_under_last_pig] * n,
        }
        return {
            "scores": scores, "tiebreak": tiebreak, "winners": winners,
            "win_share": [1.0 / len(winners) if p in winners else 0.0 for p in range(n)],
            "rank": ranks, "collapsed": sorted(collapsed), "seat_detail": detail,
            "end_reason": self.end_reason, "turns": self.turn, "decisions": self.decisions,
        }

    # --------------------------------------------------------------- queries

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[int]:
        return self.evaluate()["scores"]

    def winners(self) -> list[int]:
        return self.evaluate()["winners"]

    def ranks(self) -> list[int]:
        return self.evaluate()["rank"]

    def results(self) -> dict:
        return self.evaluate()

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[int]:
        ph = self.phase
        p = self.current
        if ph == "over":
            return []
        if ph == "play":
            usable = self._usable()
            nh = len(self.houses[p])
            wolf_ok = self._has_wolf_pair(p)
            acts = []
            for c in usable:
                for k in range(nh):
                    if self.floor_legal(p, k, c):
                        acts.append(A_FLOOR + 4 * c + k)
                if self.new_house_legal(p, c):
                    acts.append(A_FLOOR + 4 * c + 3)
                for h in range(nh):
                    if self.basement_legal(p, h, c):
                        acts.append(A_BASEMENT + 3 * c + h)
                if wolf_ok:
                    acts.append(A_WOLF + c)
            if self.options["pure_discard_allowed"] or not acts:
                acts.extend(A_DISCARD + c for c in usable)
            return sorted(acts)
        if ph in ("wolf", "house"):
            return self._wolf_pairs(p)
        if ph == "pass":
            return [A_PASS + c for c in self.hands[p]]
        if ph == "pig_tie":
            return [A_PIG_TIE + h for h in sorted(self.tie_houses)]
        if ph == "dummy":
            return self.dummy_options(self.dummy_card)
        if ph == "commit":
            return [A_COMMIT + c for c in self.hands[p]]
        raise RuntimeError(f"bad phase {ph!r}")

    # ----------------------------------------------------------------- apply

    def apply(self, action: int) -> None:
        if not _is_int(action):
            raise ValueError(f"action must be an int, got {action!r}")
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action} ({self.action_to_string(action)})")
        self._legal = None
        self.decisions += 1
        p = self.current
        a = action
        if a < A_BASEMENT:                              # FLOOR c k
            c, k = divmod(a - A_FLOOR, 4)
            self.hands[p].remove(c)
            col = self.colour_of(c)
            if k == 3:
                self.houses[p].append({"colour": "-" if col == "W" else col, "floors": [c],
                                       "basements": [], "pig": 0, "wolves": []})
            else:
                house = self.houses[p][k]
                house["floors"].append(c)
                if house["colour"] == "-" and col != "W":
                    house["colour"] = col
            self.stats[p]["build"] += 1
            self.after_use(p)
        elif a < A_WOLF:                                # BASEMENT c h
            c, h = divmod(a - A_BASEMENT, 3)
            self.hands[p].remove(c)
            house = self.houses[p][h]
            house["basements"].append(c)
            col = self.colour_of(c)
            if house["colour"] == "-" and col != "W":
                house["colour"] = col
            self.stats[p]["build"] += 1
            self.after_use(p)
        elif a < A_PLACE:                               # WOLF c
            c = a - A_WOLF
            self.hands[p].remove(c)
            bisect.insort(self.discard, c)
            self.stats[p]["wolf"] += 1
            self.phase = "wolf"
        elif a < A_DISCARD:                             # PLACE v o h
            i = a - A_PLACE
            v, o, h = i // 12, (i % 12) // 3, i % 3
            val = self.data["wolf_values"][v]
            self.wolves_left[p].remove(val)
            self.houses[o][h]["wolves"].append([p, val])
            if self.phase == "wolf":
                self.after_use(p)
            else:  # house effect
                self.effect_step += 1
                if not self.house_next():
                    self.reveal_loop()
        elif a < A_PASS:                                # DISCARD c
            c = a - A_DISCARD
            self.hands[p].remove(c)
            bisect.insort(self.discard, c)
            self.stats[p]["discard"] += 1
            self.after_use(p)
        elif a < A_PIG_TIE:                             # PASS c
            c = a - A_PASS
            self.hands[p].remove(c)
            self.passing[p] = c
            self.effect_step += 1
            if not self.pass_next():
                self.reveal_loop()
        elif a < A_DUMMY_FLOOR:                         # PIG_TIE h
            h = a - A_PIG_TIE
            self._put_token(p, h, self.token_value())
            self.tie_houses = []
            if not self.after_token() and self.stage == "normal":
                self.reveal_loop()
        elif a < A_COMMIT:                              # DUMMY_*
            x = self.dummy_card
            self.dummy_card = None
            if a < A_DUMMY_NEW:
                self.dummy_apply(x, "floor", a - A_DUMMY_FLOOR)
            elif a < A_DUMMY_BASE:
                self.dummy_apply(x, "new", HOUSE_COLOURS[a - A_DUMMY_NEW])
            elif a < A_DUMMY_DISCARD:
                self.dummy_apply(x, "base", a - A_DUMMY_BASE)
            else:
                self.dummy_apply(x, "discard", None)
        else:                                           # COMMIT c
            c = a - A_COMMIT
            self.committed[p] = c
            self.round_step += 1
            self.commit_next()
        if self.phase != "over" and self.decisions >= MAX_DECISIONS:
            self.stage = "over"
            self.phase = "over"
            self.current = -1
            self.end_reason = "limit"

    # ------------------------------------------------------------ strings

    def card_name(self, c) -> str | None:
        return None if c is None else self.names[c]

    def action_to_string(self, a: int) -> str:
        return action_to_string(a, self.names)

    # ------------------------------------------------------ invariants

    def check_invariants(self) -> None:
        """Conservation laws of contract section 9 (AssertionError if broken)."""
        seen = list(self.deck) + list(self.discard) + list(self.pigs_revealed)
        for hand in self.hands:
            assert hand == sorted(hand)
            seen += hand
        seen += [x for x in self.passing if x is not None]
        if self.dummy_card is not None:
            seen.append(self.dummy_card)
        pig_on = []
        placed = [[] for _ in range(self.n)]
        for o in range(self.n_owners):
            assert len(self.houses[o]) <= 3
            cols = [hs["colour"] for hs in self.houses[o] if hs["colour"] != "-"]
            assert len(cols) == len(set(cols))
            if self.is_dummy(o):
                assert "-" not in [hs["colour"] for hs in self.houses[o]]
            for hs in self.houses[o]:
                assert hs["floors"]
                nums = [self.number[c] for c in hs["floors"]]
                assert all(a < b for a, b in zip(nums, nums[1:]))
                bn = [self.number[c] for c in hs["basements"]]
                assert all(a < b for a, b in zip(bn, bn[1:])) and all(b <= 3 for b in bn)
                cards = hs["floors"] + hs["basements"]
                seen += cards
                colours = {self.colour_of(c) for c in cards} - {"W"}
                if hs["colour"] == "-":
                    assert not colours
                else:
                    assert colours <= {hs["colour"]}
                if hs["pig"]:
                    pig_on.append(hs["pig"])
                assert len(hs["wolves"]) <= self.capacity(hs)
                for s, val in hs["wolves"]:
                    placed[s].append(val)
        assert sorted(seen) == list(range(N_CARDS)), "card conservation"
        for p in range(self.n):
            assert self.wolves_left[p] == sorted(self.wolves_left[p])
            assert sorted(self.wolves_left[p] + placed[p]) == sorted(self.data["wolf_values"])
        assert self.pig_tokens_left == sorted(self.pig_tokens_left)
        assert sorted(pig_on + self.pig_tokens_left + self.pig_tokens_lost) == sorted(
            self.data["pig_tokens"])
        assert self.discard == sorted(self.discard)

    # --------------------------------------------------------- dict I/O

    def _house_to_dict(self, hs: dict) -> dict:
        return {
            "colour": hs["colour"],
            "floors": [self.names[c] for c in hs["floors"]],
            "basements": [self.names[c] for c in hs["basements"]],
            "pig": hs["pig"],
            "wolves": [[s, v] for s, v in hs["wolves"]],
        }

    def to_dict(self) -> dict:
        nm = self.names
        d = self.data
        return {
            "game": "three-little-wolves",
            "n_players": self.n,
            "options": {k: self.options[k] for k in DEFAULT_OPTIONS},
            "data": {
                "suit": [list(r) for r in d["suit"]],
                "pig_effects": list(d["pig_effects"]),
                "pig_tokens": list(d["pig_tokens"]),
                "wolf_values": list(d["wolf_values"]),
                "house_points": d["house_points"],
                "collapse_points": d["collapse_points"],
                "bonus_points": d["bonus_points"],
                "bottom_packet": d["bottom_packet"],
            },
            "rng": "0x%016x" % self.rng.state,
            "stage": self.stage,
            "phase": self.phase,
            "current": self.current,
            "turn_player": self.turn_player,
            "turn": self.turn,
            "decisions": self.decisions,
            "deck": [nm[c] for c in self.deck],
            "hands": [[nm[c] for c in hand] for hand in self.hands],
            "discard": [nm[c] for c in self.discard],
            "houses": [[self._house_to_dict(hs) for hs in hl] for hl in self.houses],
            "wolves_left": [list(w) for w in self.wolves_left],
            "pigs_revealed": [nm[c] for c in self.pigs_revealed],
            "pig_tokens_left": list(self.pig_tokens_left),
            "pig_tokens_lost": list(self.pig_tokens_lost),
            "mustache": self.mustache,
            "drawer": self.drawer,
            "pig_card": self.card_name(self.pig_card),
            "effect_step": self.effect_step,
            "tie_houses": list(self.tie_houses),
            "passing": [self.card_name(c) for c in self.passing],
            "final_left": self.final_left,
            "round_step": self.round_step,
            "committed": [self.card_name(c) for c in self.committed],
            "dummy_card": self.card_name(self.dummy_card),
            "cards_under_last_pig": self.cards_under_last_pig,
            "stats": [dict(s) for s in self.stats],
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_dict(cls, d: dict) -> ThreeLittleWolvesRef:
        n = check_state_head(d, _STATE_KEYS, "three-little-wolves", DEFAULT_OPTIONS)
        missing = [k for k in DEFAULT_DATA if k not in d["data"]]
        if missing:
            raise ValueError(f"data lacks {missing}")
        g = cls.__new__(cls)
        g.n = n
        g.options = _merge_options(d["options"])
        g.data = _merge_data(d["data"], g.options["card_set"])
        g._cache()
        g._blank_state()
        ids = g.name_to_id

        def card(name):
            if name is None:
                return None
            if name not in ids:
                raise ValueError(f"unknown card name {name!r}")
            return ids[name]

        def seat_list(key):
            v = d[key]
            if len(v) != n:
                raise ValueError(f"{key} must have {n} entries")
            return v

        rng = d["rng"]
        g.rng = Rng(int(rng, 16) if isinstance(rng, str) else int(rng))
        if d["stage"] not in _STAGES:
            raise ValueError(f"bad stage {d['stage']!r}")
        if d["phase"] not in _PHASES:
            raise ValueError(f"bad phase {d['phase']!r}")
        if d["end_reason"] not in _END_REASONS:
            raise ValueError(f"bad end_reason {d['end_reason']!r}")
        g.stage = d["stage"]
        g.phase = d["phase"]
        g.current = int(d["current"])
        if g.phase != "over" and not (0 <= g.current < n):
            raise ValueError(f"bad current seat {g.current}")
        g.turn_player = int(d["turn_player"])
        g.turn = int(d["turn"])
        g.decisions = int(d["decisions"])
        g.deck = [card(x) for x in d["deck"]]
        g.hands = [sorted(card(x) for x in hand) for hand in seat_list("hands")]
        g.discard = sorted(card(x) for x in d["discard"])
        if len(d["houses"]) != g.n_owners:
            raise ValueError(f"houses must have {g.n_owners} owner lists")
        g.houses = []
        for hl in d["houses"]:
            if len(hl) > 3:
                raise ValueError("an owner has more than 3 houses")
            out = []
            for hs in hl:
                if hs["colour"] not in ("R", "Y", "G", "-"):
                    raise ValueError(f"bad house colour {hs['colour']!r}")
                if not hs["floors"]:
                    raise ValueError("a house needs at least one floor")
                out.append({
                    "colour": hs["colour"],
                    "floors": [card(x) for x in hs["floors"]],
                    "basements": [card(x) for x in hs["basements"]],
                    "pig": int(hs["pig"]),
                    "wolves": [[int(s), int(v)] for s, v in hs["wolves"]],
                })
            g.houses.append(out)
        g.wolves_left = [sorted(int(v) for v in w) for w in seat_list("wolves_left")]
        g.pigs_revealed = [card(x) for x in d["pigs_revealed"]]
        g.pig_tokens_left = sorted(int(v) for v in d["pig_tokens_left"])
        g.pig_tokens_lost = sorted(int(v) for v in d["pig_tokens_lost"])
        g.mustache = int(d["mustache"])
        g.drawer = int(d["drawer"])
        g.pig_card = card(d["pig_card"])
        g.effect_step = int(d["effect_step"])
        g.tie_houses = [int(h) for h in d["tie_houses"]]
        g.passing = [card(x) for x in seat_list("passing")]
        g.final_left = int(d["final_left"])
        g.round_step = int(d["round_step"])
        g.committed = [card(x) for x in seat_list("committed")]
        g.dummy_card = card(d["dummy_card"])
        g.cards_under_last_pig = int(d["cards_under_last_pig"])
        g.stats = [{k: int(s[k]) for k in ("build", "wolf", "discard")}
                   for s in seat_list("stats")]
        g.end_reason = d["end_reason"]
        g._legal = None
        return g


def action_to_string(a: int, names: list[str] | None = None) -> str:
    """Human-readable name of an action id (seats, owners and houses absolute)."""
    nm = names or DEFAULT_NAMES
    if not _is_int(a) or not (0 <= a < NUM_ACTIONS):
        return f"INVALID({a!r})"
    if a < A_BASEMENT:
        c, k = divmod(a, 4)
        return f"FLOOR {nm[c]} {'new' if k == 3 else f'h{k}'}"
    if a < A_WOLF:
        c, h = divmod(a - A_BASEMENT, 3)
        return f"BASEMENT {nm[c]} h{h}"
    if a < A_PLACE:
        return f"WOLF {nm[a - A_WOLF]}"
    if a < A_DISCARD:
        i = a - A_PLACE
        return f"PLACE v{i // 12} o{(i % 12) // 3} h{i % 3}"
    if a < A_PASS:
        return f"DISCARD {nm[a - A_DISCARD]}"
    if a < A_PIG_TIE:
        return f"PASS {nm[a - A_PASS]}"
    if a < A_DUMMY_FLOOR:
        return f"PIG_TIE h{a - A_PIG_TIE}"
    if a < A_DUMMY_NEW:
        return f"DUMMY_FLOOR h{a - A_DUMMY_FLOOR}"
    if a < A_DUMMY_BASE:
        return f"DUMMY_NEW {HOUSE_COLOURS[a - A_DUMMY_NEW]}"
    if a < A_DUMMY_DISCARD:
        return f"DUMMY_BASE h{a - A_DUMMY_BASE}"
    if a == A_DUMMY_DISCARD:
        return "DUMMY_DISCARD"
    return f"COMMIT {nm[a - A_COMMIT]}"


def play_random_game(n_players: int, seed: int, options: dict | None = None,
                     bot_seed: int = 0) -> ThreeLittleWolvesRef:
    """Play a whole game choosing uniformly among legal actions."""
    return play_random(ThreeLittleWolvesRef, n_players, seed, options, bot_seed)


# the reference the conformance test plays against the engine (tests/test_engines_vs_references.py)
REFERENCE = ThreeLittleWolvesRef
REFERENCE_GAMES = 1002  # games at the default options, spread over the player counts
