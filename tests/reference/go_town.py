"""Plain-Python reference implementation of Go Town.

Written independently from the numba engine, strictly from the contract
``docs/games/go_town.md`` (action ids, legality, effects, SplitMix64, setup,
draw/reshuffle, turn flow, options, state dict). It is meant to be slow but
obviously correct, and is compared with the engine decision by decision.

Internal representation
-----------------------
* card type codes 1..17 (index 0 unused); see ``CARD_NAMES``;
* ``deck``: list of type codes, bottom first (top card = last element);
* ``discard`` and ``hands[p]`` and ``played[p]``: count lists of length 18;
* ``buildings[p]``: list of floors, ground first; a floor is the list
  ``[card0, card1, value0, value1, dogs]``.
"""

from __future__ import annotations

from tests.reference.common import merge_options, play_random

# --------------------------------------------------------------------------
# SplitMix64 (contract section 2)
# --------------------------------------------------------------------------

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


def splitmix_next(state: int) -> tuple[int, int]:
    """One SplitMix64 step: returns (new_state, output)."""
    state = (state + _GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return state, z ^ (z >> 31)


def mix(x: int) -> int:
    """One ``next_u64()`` of a generator whose state is ``x``."""
    return splitmix_next(x & MASK64)[1]


def seed_for(run_seed: int, game_index: int, stream: int = 0) -> int:
    """``mix(mix(mix(run_seed) ^ game_index) ^ stream)``."""
    return mix(mix(mix(run_seed) ^ (game_index & MASK64)) ^ (stream & MASK64))


class Rng:
    """SplitMix64 generator; ``state`` is the exact 64-bit state."""

    __slots__ = ("state",)

    def __init__(self, state: int = 0):
        self.state = state & MASK64

    def next_u64(self) -> int:
        self.state, out = splitmix_next(self.state)
        return out

    def rand_below(self, n: int) -> int:
        if not (1 <= n < (1 << 32)):
            raise ValueError(f"rand_below: n out of range: {n}")
        return ((self.next_u64() >> 32) * n) >> 32

    def shuffle(self, a: list) -> None:
        for i in range(len(a) - 1, 0, -1):
            j = self.rand_below(i + 1)
            a[i], a[j] = a[j], a[i]


# --------------------------------------------------------------------------
# Cards, data, options (contract sections 1 and 7)
# --------------------------------------------------------------------------

CARD_NAMES = [
    "",  # index 0 unused
    "1", "2", "3", "4", "5", "6", "7", "8",
    "?", "DOG", "BONE", "DRILL", "WRECK", "MILK", "DONUT", "THIEF", "MASTER",
]
NAME_TO_CODE = {name: code for code, name in enumerate(CARD_NAMES) if code > 0}
NT = 18  # length of count arrays (index 0 unused)

QM, DOG, BONE, DRILL, WRECK, MILK, DONUT, THIEF, MASTER = range(9, 18)

MAXF = 18
NUM_ACTIONS = 208

A_END = 0
A_BUILD_PAIR = 1      # 1..4
A_BUILD_QM = 5        # 5..12
A_STEAL = 13          # 13..28
A_DOG = 29            # 29..100
A_BONE = 101          # 101..172
A_DRILL = 173         # 173..176
A_WRECK = 177         # 177..180
A_MILK = 181          # 181..184
A_THIEF = 185         # 185..188
A_DONUT = 189
A_MASTER = 190
A_DISCARD = 190       # DISCARD k = 190 + k, k in 1..17 -> 191..207

DEFAULT_DATA = {
    "card_counts": {
        "1": 4, "2": 4, "3": 4, "4": 4, "5": 4, "6": 4, "7": 4, "8": 4,
        "?": 4, "DOG": 4, "BONE": 2, "DRILL": 3, "WRECK": 1, "MILK": 3,
        "DONUT": 1, "THIEF": 3, "MASTER": 1,
    },
    "opening_hand": 5,
    "hand_limit": 8,
    "refill_to": 3,
}

DEFAULT_OPTIONS = {
    "target_floors": 5,
    "win_check": "immediate",
    "hand_limit_mode": "draw_only",
    "reshuffle_timing": "lazy",
    "qm_steal_by_qm": True,
    "qm_steal_by_number": True,
    "dog_placement": "any_own_floor",
    "dog_moves_up": False,
    "donut_scope": "others",
    "skip_stacking": "stack",
    "skip_means": "whole_turn",
    "milk_on_self": False,
    "destroy_self_allowed": False,
    "bone_on_own": False,
    "dog_on_others": False,
    "dogs_per_floor_max": 1,
    "bone_target": "any_floor",
    "allow_dead_plays": False,
    "milk_discard": "on_consume",
    "max_turns": 1000,
    "first_player": "seat0",
}

# allowed values: a tuple of strings, "bool", or (lo, hi) int range / int set
_OPTION_RULES = {
    "target_floors": ("int", (4, 5)),
    "win_check": ("str", ("immediate", "end_of_turn")),
    "hand_limit_mode": ("str", ("draw_only", "cap_gain", "discard_to_8")),
    "reshuffle_timing": ("str", ("lazy", "eager")),
    "qm_steal_by_qm": ("bool", None),
    "qm_steal_by_number": ("bool", None),
    "dog_placement": ("str", ("any_own_floor", "top_only")),
    "dog_moves_up": ("bool", None),
    "donut_scope": ("str", ("others", "all")),
    "skip_stacking": ("str", ("stack", "no_stack")),
    "skip_means": ("str", ("whole_turn", "no_play_but_refill")),
    "milk_on_self": ("bool", None),
    "destroy_self_allowed": ("bool", None),
    "bone_on_own": ("bool", None),
    "dog_on_others": ("bool", None),
    "dogs_per_floor_max": ("int", tuple(range(1, 5))),
    "bone_target": ("str", ("any_floor", "top_only")),
    "allow_dead_plays": ("bool", None),
    "milk_discard": ("str", ("on_consume", "immediate")),
    "max_turns": ("intrange", (10, 100000)),
    "first_player": ("str", ("seat0", "random")),
}


def _merge_options(options: dict | None) -> dict:
    return merge_options(options, DEFAULT_OPTIONS, _OPTION_RULES)


def _merge_data(data: dict | None) -> dict:
    out = {
        "card_counts": dict(DEFAULT_DATA["card_counts"]),
        "opening_hand": DEFAULT_DATA["opening_hand"],
        "hand_limit": DEFAULT_DATA["hand_limit"],
        "refill_to": DEFAULT_DATA["refill_to"],
    }
    if data:
        for k, v in data.items():
            if k not in out:
                raise ValueError(f"unknown data key: {k!r}")
            if k == "card_counts":
                if not isinstance(v, dict):
                    raise ValueError("card_counts must be a dict")
                for name, cnt in v.items():
                    if name not in NAME_TO_CODE:
                        raise ValueError(f"unknown card name: {name!r}")
                    out["card_counts"][name] = cnt
            else:
                out[k] = v
    for name, cnt in out["card_counts"].items():
        if isinstance(cnt, bool) or not isinstance(cnt, int) or cnt < 0:
            raise ValueError(f"card count for {name} must be an int >= 0, got {cnt!r}")
    for k in ("opening_hand", "hand_limit", "refill_to"):
        v = out[k]
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"data {k} must be an int >= 0, got {v!r}")
    cc = out["card_counts"]
    buildable = sum(cc[CARD_NAMES[k]] for k in range(1, 10))
    if buildable // 2 > MAXF:
        raise ValueError("card counts allow more floors than MAXF = 18")
    # keep keys in ascending type order
    out["card_counts"] = {CARD_NAMES[k]: cc[CARD_NAMES[k]] for k in range(1, NT)}
    return out


def _counts_to_dict(counts: list[int]) -> dict:
    return {CARD_NAMES[k]: counts[k] for k in range(1, NT) if counts[k]}


def _dict_to_counts(d: dict) -> list[int]:
    counts = [0] * NT
    for name, cnt in d.items():
        if name not in NAME_TO_CODE:
            raise ValueError(f"unknown card name: {name!r}")
        if isinstance(cnt, bool) or not isinstance(cnt, int) or cnt < 0:
            raise ValueError(f"bad count for {name}: {cnt!r}")
        counts[NAME_TO_CODE[name]] = cnt
    return counts


_STATE_KEYS = (
    "game", "n_players", "options", "data", "rng", "current", "phase", "turn",
    "decisions", "deck", "discard", "hands", "buildings", "pending_skips",
    "milk_in_front", "played", "winner", "end_reason",
)


# --------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------

class GoTownRef:
    """One game of Go Town, following docs/games/go_town.md exactly."""

    def __init__(self, n_players: int, seed: int, options: dict | None = None,
                 data: dict | None = None):
        if isinstance(n_players, bool) or not isinstance(n_players, int) or not (2 <= n_players <= 4):
            raise ValueError(f"n_players must be 2..4, got {n_players!r}")
        self.n = n_players
        self.options = _merge_options(options)
        self.data = _merge_data(data)
        self._cache_opts()
        self.rng = Rng(int(seed) & MASK64)

        n = self.n
        self.current = 0
        self.phase = "play"
        self.turn = 0
        self.decisions = 0
        self.deck: list[int] = []
        self.discard = [0] * NT
        self.hands = [[0] * NT for _ in range(n)]
        self.buildings: list[list[list[int]]] = [[] for _ in range(n)]
        self.pending_skips = [0] * n
        self.milk_in_front = [0] * n
        self.played = [[0] * NT for _ in range(n)]
        self.winner = -1
        self.end_reason = "none"
        self._legal = None

        # --- setup (contract section 3) ---
        if self.options["first_player"] == "random":
            first = self.rng.rand_below(n)
        else:
            first = 0
        self.current = first
        counts = self.card_counts
        deck = []
        for k in range(1, NT):
            deck.extend([k] * counts[k])
        self.rng.shuffle(deck)
        self.deck = deck
        for p in range(n):
            for _ in range(self.opening_hand):
                self._draw(p)
        self.turn = 0
        self._begin_turn(first)

    # ---------------------------------------------------------------- helpers

    def _cache_opts(self) -> None:
        o = self.options
        d = self.data
        self.card_counts = [0] + [d["card_counts"][CARD_NAMES[k]] for k in range(1, NT)]
        self.opening_hand = d["opening_hand"]
        self.hand_limit = d["hand_limit"]
        self.refill_to = d["refill_to"]
        self.o_target = o["target_floors"]
        self.o_immediate = o["win_check"] == "immediate"
        self.o_cap_gain = o["hand_limit_mode"] == "cap_gain"
        self.o_discard_to_8 = o["hand_limit_mode"] == "discard_to_8"
        self.o_eager = o["reshuffle_timing"] == "eager"
        self.o_qm_by_qm = o["qm_steal_by_qm"]
        self.o_qm_by_number = o["qm_steal_by_number"]
        self.o_dog_top_only = o["dog_placement"] == "top_only"
        self.o_dog_moves_up = o["dog_moves_up"]
        self.o_donut_all = o["donut_scope"] == "all"
        self.o_no_stack = o["skip_stacking"] == "no_stack"
        self.o_skip_refill = o["skip_means"] == "no_play_but_refill"
        self.o_milk_on_self = o["milk_on_self"]
        self.o_destroy_self = o["destroy_self_allowed"]
        self.o_bone_on_own = o["bone_on_own"]
        self.o_dog_on_others = o["dog_on_others"]
        self.o_dogs_max = o["dogs_per_floor_max"]
        self.o_bone_top_only = o["bone_target"] == "top_only"
        self.o_dead_plays = o["allow_dead_plays"]
        self.o_milk_on_consume = o["milk_discard"] == "on_consume"
        self.o_max_turns = o["max_turns"]

    def hand_size(self, p: int) -> int:
        return sum(self.hands[p])

    def n_floors(self, p: int) -> int:
        return len(self.buildings[p])

    # ------------------------------------------------------ draw / reshuffle

    def _reshuffle(self) -> None:
        deck = []
        disc = self.discard
        for k in range(1, NT):
            if disc[k]:
                deck.extend([k] * disc[k])
        self.rng.shuffle(deck)
        self.deck = deck
        self.discard = [0] * NT

    def _discard_nonempty(self) -> bool:
        return any(self.discard)

    def _draw(self, p: int) -> None:
        if not self.deck:
            if not self._discard_nonempty():
                return  # the draw is lost (D16)
            self._reshuffle()
        card = self.deck.pop()
        self.hands[p][card] += 1
        if self.o_eager and not self.deck and self._discard_nonempty():
            self._reshuffle()

    def _refill(self, p: int) -> None:
        while self.hand_size(p) < self.refill_to and (self.deck or self._discard_nonempty()):
            self._draw(p)

    # ------------------------------------------------------------- turn flow

    def _begin_turn(self, p: int) -> None:
        n = self.n
        while True:
            if self.turn >= self.o_max_turns:
                self.phase = "over"
                self.end_reason = "limit"
                return
            self.turn += 1
            if self.pending_skips[p] > 0:
                self.pending_skips[p] -= 1
                if self.milk_in_front[p] > 0:
                    self.milk_in_front[p] -= 1
                    self.discard[MILK] += 1
                if self.o_skip_refill:
                    self._refill(p)
                p = (p + 1) % n
                continue
            if self.hand_size(p) < self.hand_limit:
                self._draw(p)
            self.current = p
            self.phase = "play"
            return

    def _finish_turn(self) -> None:
        self._refill(self.current)
        self._begin_turn((self.current + 1) % self.n)
        if self.phase != "over" and self._deadlocked():
            self.phase = "over"
            self.end_reason = "deadlock"

    def _deadlocked(self) -> bool:
        """No player can ever change the state again: nothing pending, nobody draws, refills,
        discards down or wins by ending the turn, and every seat may only END_TURN."""
        piles = len(self.deck) + sum(self.discard)
        for p in range(self.n):
            hs = self.hand_size(p)
            if self.pending_skips[p] or self.milk_in_front[p]:
                return False
            if (hs < self.hand_limit or hs < self.refill_to) and piles > 0:
                return False
            if self.o_discard_to_8 and hs > self.hand_limit:
                return False
            if not self.o_immediate and len(self.buildings[p]) >= self.o_target:
                return False
        cur, phase = self.current, self.phase
        stuck = True
        for p in range(self.n):
            self.current, self.phase = p, "play"
            if self._compute_legal() != [A_END]:
                stuck = False
                break
        self.current, self.phase = cur, phase
        return stuck

    def _win(self, c: int) -> None:
        self.phase = "over"
        self.winner = c
        self.end_reason = "target"

    def _build_floor(self, c: int, card0: int, card1: int, val0: int, val1: int) -> None:
        b = self.buildings[c]
        if len(b) >= MAXF:
            raise RuntimeError("building exceeds MAXF floors")
        floor = [card0, card1, val0, val1, 0]
        if self.o_dog_moves_up and b and b[-1][4] > 0:
            floor[4] = b[-1][4]
            b[-1][4] = 0
        b.append(floor)
        if self.o_immediate and len(b) >= self.o_target:
            self._win(c)

    def _remove_top_floor(self, t: int) -> list[int]:
        return self.buildings[t].pop()

    def _take_random_card(self, c: int, v: int) -> None:
        hv = self.hands[v]
        r = self.rng.rand_below(sum(hv))
        for k in range(1, NT):
            if r < hv[k]:
                hv[k] -= 1
                self.hands[c][k] += 1
                return
            r -= hv[k]
        raise RuntimeError("unreachable: random card walk failed")

    # --------------------------------------------------------------- queries

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[int]:
        return [len(b) for b in self.buildings]

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[int]:
        if self.phase == "over":
            return []
        c = self.current
        h = self.hands[c]
        if self.phase == "discard":
            return [A_DISCARD + k for k in range(1, NT) if h[k] > 0]

        n = self.n
        bld = self.buildings
        acts = [A_END]
        # BUILD lo+hi (1..4)
        for lo in range(1, 5):
            if h[lo] and h[9 - lo]:
                acts.append(A_BUILD_PAIR + lo - 1)
        # BUILD ?+n (5..12)
        if h[QM]:
            for num in range(1, 9):
                if h[num]:
                    acts.append(A_BUILD_QM + num - 1)
        # STEAL v s b (13..28)
        for v in range(n):
            if v == c or not bld[v]:
                continue
            top = bld[v][-1]
            if top[4] > 0:
                continue
            for s in (0, 1):
                x = top[s]
                need = 9 - top[2 + s]
                base = A_STEAL + v * 4 + s * 2
                if x != QM:
                    if h[need]:
                        acts.append(base)
                else:
                    if self.o_qm_by_number and h[need]:
                        acts.append(base)
                    if self.o_qm_by_qm and h[QM]:
                        acts.append(base + 1)
        fam = [False] * NT  # family legality for dead plays
        # DOG t f (29..100)
        if h[DOG]:
            for t in range(n):
                if t != c and not self.o_dog_on_others:
                    continue
                nf = len(bld[t])
                floors = [nf - 1] if (self.o_dog_top_only and nf) else range(nf)
                for f in floors:
                    if bld[t][f][4] < self.o_dogs_max:
                        acts.append(A_DOG + t * MAXF + f)
                        fam[DOG] = True
        # BONE t f (101..172)
        if h[BONE]:
            for t in range(n):
                if t == c and not self.o_bone_on_own:
                    continue
                nf = len(bld[t])
                floors = [nf - 1] if (self.o_bone_top_only and nf) else range(nf)
                for f in floors:
                    if bld[t][f][4] >= 1:
                        acts.append(A_BONE + t * MAXF + f)
                        fam[BONE] = True
        # DRILL t (173..176)
        if h[DRILL]:
            for t in range(n):
                if t == c and not self.o_destroy_self:
                    continue
                if bld[t] and bld[t][-1][4] == 0:
                    acts.append(A_DRILL + t)
                    fam[DRILL] = True
        # WRECK t (177..180)
        if h[WRECK]:
            for t in range(n):
                if t == c and not self.o_destroy_self:
                    continue
                if bld[t]:
                    acts.append(A_WRECK + t)
                    fam[WRECK] = True
        # MILK t (181..184)
        if h[MILK]:
            for t in range(n):
                if t == c and not self.o_milk_on_self:
                    continue
                if self.o_no_stack and self.pending_skips[t] != 0:
                    continue
                acts.append(A_MILK + t)
                fam[MILK] = True
        hs_c = sum(h)
        cap_ok = (not self.o_cap_gain) or (hs_c - 1 < self.hand_limit)
        # THIEF t (185..188)
        if h[THIEF] and cap_ok:
            for t in range(n):
                if t != c and sum(self.hands[t]) >= 1:
                    acts.append(A_THIEF + t)
                    fam[THIEF] = True
        # DONUT (189)
        if h[DONUT]:
            affected = [t for t in range(n) if self.o_donut_all or t != c]
            if (not self.o_no_stack) or any(self.pending_skips[t] == 0 for t in affected):
                acts.append(A_DONUT)
                fam[DONUT] = True
        # MASTER (190)
        if h[MASTER] and cap_ok:
            if any(sum(self.hands[t]) >= 1 for t in range(n) if t != c):
                acts.append(A_MASTER)
                fam[MASTER] = True
        # dead plays DISCARD k, k >= 10 (200..207)
        if self.o_dead_plays:
            for k in range(DOG, NT):
                if h[k] and not fam[k]:
                    acts.append(A_DISCARD + k)
        return acts

    # ----------------------------------------------------------------- apply

    def apply(self, action: int) -> None:
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(f"action must be an int, got {action!r}")
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action} ({self.action_to_string(action)})")
        self._legal = None
        c = self.current
        h = self.hands[c]
        pl = self.played[c]

        if self.phase == "discard":
            k = action - A_DISCARD
            h[k] -= 1
            self.discard[k] += 1
            if sum(h) <= self.hand_limit:
                self._finish_turn()
        elif action == A_END:
            if (not self.o_immediate) and len(self.buildings[c]) >= self.o_target:
                self._win(c)
            elif self.o_discard_to_8 and sum(h) > self.hand_limit:
                self.phase = "discard"
            else:
                self._finish_turn()
        elif action < A_BUILD_QM:  # BUILD lo+hi
            lo = action
            hi = 9 - lo
            h[lo] -= 1
            h[hi] -= 1
            pl[lo] += 1
            pl[hi] += 1
            self._build_floor(c, lo, hi, lo, hi)
        elif action < A_STEAL:  # BUILD ?+n
            num = action - 4
            h[QM] -= 1
            h[num] -= 1
            pl[QM] += 1
            pl[num] += 1
            self._build_floor(c, num, QM, num, 9 - num)
        elif action < A_DOG:  # STEAL v s b
            i = action - A_STEAL
            v, s, b = i // 4, (i // 2) % 2, i % 2
            top = self._remove_top_floor(v)
            x = top[s]
            w = top[2 + s]
            other = top[1 - s]
            paid = QM if b == 1 else 9 - w
            h[paid] -= 1
            pl[paid] += 1
            self.discard[other] += 1
            self._build_floor(c, paid, x, 9 - w, w)
        elif action < A_BONE:  # DOG t f
            i = action - A_DOG
            t, f = i // MAXF, i % MAXF
            h[DOG] -= 1
            pl[DOG] += 1
            self.buildings[t][f][4] += 1
        elif action < A_DRILL:  # BONE t f
            i = action - A_BONE
            t, f = i // MAXF, i % MAXF
            h[BONE] -= 1
            pl[BONE] += 1
            self.buildings[t][f][4] -= 1
            self.discard[DOG] += 1
            self.discard[BONE] += 1
        elif action < A_WRECK:  # DRILL t
            t = action - A_DRILL
            h[DRILL] -= 1
            pl[DRILL] += 1
            top = self._remove_top_floor(t)
            self.discard[top[0]] += 1
            self.discard[top[1]] += 1
            self.discard[DRILL] += 1
        elif action < A_MILK:  # WRECK t
            t = action - A_WRECK
            h[WRECK] -= 1
            pl[WRECK] += 1
            top = self._remove_top_floor(t)
            self.discard[top[0]] += 1
            self.discard[top[1]] += 1
            self.discard[DOG] += top[4]
            self.discard[WRECK] += 1
        elif action < A_THIEF:  # MILK t
            t = action - A_MILK
            h[MILK] -= 1
            pl[MILK] += 1
            self.pending_skips[t] += 1
            if self.o_milk_on_consume:
                self.milk_in_front[t] += 1
            else:
                self.discard[MILK] += 1
        elif action < A_DONUT:  # THIEF t
            t = action - A_THIEF
            h[THIEF] -= 1
            pl[THIEF] += 1
            self.discard[THIEF] += 1
            self._take_random_card(c, t)
        elif action == A_DONUT:
            h[DONUT] -= 1
            pl[DONUT] += 1
            self.discard[DONUT] += 1
            for t in range(self.n):
                if t == c and not self.o_donut_all:
                    continue
                if self.o_no_stack:
                    if self.pending_skips[t] == 0:
                        self.pending_skips[t] = 1
                else:
                    self.pending_skips[t] += 1
        elif action == A_MASTER:
            h[MASTER] -= 1
            pl[MASTER] += 1
            self.discard[MASTER] += 1
            for j in range(1, self.n):
                v = (c + j) % self.n
                if sum(self.hands[v]) >= 1 and (
                        not self.o_cap_gain or sum(h) < self.hand_limit):
                    self._take_random_card(c, v)
        else:  # DISCARD k in phase play: a dead play
            k = action - A_DISCARD
            h[k] -= 1
            pl[k] += 1
            self.discard[k] += 1

        self.decisions += 1
        if self.phase != "over" and self.decisions >= self.o_max_turns * 64:
            self.phase = "over"
            self.end_reason = "limit"

    # ------------------------------------------------------------ strings

    def action_to_string(self, a: int) -> str:
        return action_to_string(a)

    # --------------------------------------------------------- dict I/O

    def to_dict(self) -> dict:
        n = self.n
        return {
            "game": "go-town",
            "n_players": n,
            "options": {k: self.options[k] for k in DEFAULT_OPTIONS},
            "data": {
                "card_counts": {CARD_NAMES[k]: self.card_counts[k] for k in range(1, NT)},
                "opening_hand": self.opening_hand,
                "hand_limit": self.hand_limit,
                "refill_to": self.refill_to,
            },
            "rng": "0x%016x" % self.rng.state,
            "current": self.current,
            "phase": self.phase,
            "turn": self.turn,
            "decisions": self.decisions,
            "deck": [CARD_NAMES[k] for k in self.deck],
            "discard": _counts_to_dict(self.discard),
            "hands": [_counts_to_dict(self.hands[p]) for p in range(n)],
            "buildings": [
                [{"cards": [CARD_NAMES[fl[0]], CARD_NAMES[fl[1]]],
                  "values": [fl[2], fl[3]],
                  "dogs": fl[4]} for fl in self.buildings[p]]
                for p in range(n)
            ],
            "pending_skips": list(self.pending_skips),
            "milk_in_front": list(self.milk_in_front),
            "played": [_counts_to_dict(self.played[p]) for p in range(n)],
            "winner": self.winner,
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "GoTownRef":
        for k in _STATE_KEYS:
            if k not in d:
                raise ValueError(f"state dict lacks key {k!r}")
        if d["game"] != "go-town":
            raise ValueError(f"not a go-town state: {d['game']!r}")
        n = d["n_players"]
        if isinstance(n, bool) or not isinstance(n, int) or not (2 <= n <= 4):
            raise ValueError(f"n_players must be 2..4, got {n!r}")
        missing = [k for k in DEFAULT_OPTIONS if k not in d["options"]]
        if missing:
            raise ValueError(f"options lack {missing}")
        data = d["data"]
        for k in ("card_counts", "opening_hand", "hand_limit", "refill_to"):
            if k not in data:
                raise ValueError(f"data lacks key {k!r}")

        g = cls.__new__(cls)
        g.n = n
        g.options = _merge_options(d["options"])
        g.data = _merge_data({
            "card_counts": {name: data["card_counts"].get(name, 0) for name in CARD_NAMES[1:]},
            "opening_hand": data["opening_hand"],
            "hand_limit": data["hand_limit"],
            "refill_to": data["refill_to"],
        })
        g._cache_opts()
        rng = d["rng"]
        g.rng = Rng(int(rng, 16) if isinstance(rng, str) else int(rng))
        g.current = int(d["current"])
        if not (0 <= g.current < n):
            raise ValueError(f"bad current seat {g.current}")
        if d["phase"] not in ("play", "discard", "over"):
            raise ValueError(f"bad phase {d['phase']!r}")
        g.phase = d["phase"]
        g.turn = int(d["turn"])
        g.decisions = int(d["decisions"])
        deck = []
        for name in d["deck"]:
            if name not in NAME_TO_CODE:
                raise ValueError(f"unknown card name in deck: {name!r}")
            deck.append(NAME_TO_CODE[name])
        g.deck = deck
        g.discard = _dict_to_counts(d["discard"])
        for key in ("hands", "buildings", "pending_skips", "milk_in_front", "played"):
            if len(d[key]) != n:
                raise ValueError(f"{key} must have {n} entries")
        g.hands = [_dict_to_counts(h) for h in d["hands"]]
        g.buildings = []
        for p in range(n):
            floors = []
            for fl in d["buildings"][p]:
                c0, c1 = (NAME_TO_CODE[x] for x in fl["cards"])
                v0, v1 = (int(x) for x in fl["values"])
                floors.append([c0, c1, v0, v1, int(fl["dogs"])])
            if len(floors) > MAXF:
                raise ValueError("building exceeds MAXF floors")
            g.buildings.append(floors)
        g.pending_skips = [int(x) for x in d["pending_skips"]]
        g.milk_in_front = [int(x) for x in d["milk_in_front"]]
        g.played = [_dict_to_counts(x) for x in d["played"]]
        g.winner = int(d["winner"])
        if d["end_reason"] not in ("none", "target", "limit", "deadlock"):
            raise ValueError(f"bad end_reason {d['end_reason']!r}")
        g.end_reason = d["end_reason"]
        g._legal = None
        return g


def action_to_string(a: int) -> str:
    """Human-readable name of an action id (seats and floors absolute)."""
    if not isinstance(a, int) or not (0 <= a < NUM_ACTIONS):
        return f"INVALID({a!r})"
    if a == A_END:
        return "END_TURN"
    if a < A_BUILD_QM:
        return f"BUILD {a}+{9 - a}"
    if a < A_STEAL:
        return f"BUILD ?+{a - 4}"
    if a < A_DOG:
        i = a - A_STEAL
        return f"STEAL v{i // 4} slot{(i // 2) % 2} pay{'?' if i % 2 else '#'}"
    if a < A_BONE:
        i = a - A_DOG
        return f"DOG p{i // MAXF} f{i % MAXF}"
    if a < A_DRILL:
        i = a - A_BONE
        return f"BONE p{i // MAXF} f{i % MAXF}"
    if a < A_WRECK:
        return f"DRILL p{a - A_DRILL}"
    if a < A_MILK:
        return f"WRECK p{a - A_WRECK}"
    if a < A_THIEF:
        return f"MILK p{a - A_MILK}"
    if a < A_DONUT:
        return f"THIEF p{a - A_THIEF}"
    if a == A_DONUT:
        return "DONUT"
    if a == A_MASTER:
        return "MASTER"
    return f"DISCARD {CARD_NAMES[a - A_DISCARD]}"


def play_random_game(n_players: int, seed: int, options: dict | None = None,
                     bot_seed: int = 0) -> GoTownRef:
    """Play a whole game choosing uniformly among legal actions."""
    return play_random(GoTownRef, n_players, seed, options, bot_seed)


# the reference the conformance test plays against the engine (tests/test_engines_vs_references.py)
REFERENCE = GoTownRef
REFERENCE_GAMES = 1000  # games at the default options, spread over the player counts
