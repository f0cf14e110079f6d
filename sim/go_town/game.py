"""Go Town (고타운): the game object behind ``sim.get_game("go-town")``.

Rules: shared/rules/go_town.md; encoding and state dict: docs/games/go_town.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.checks import DictReader
from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
from sim.go_town import constants as K
from sim.go_town import data
from sim.go_town import invariants as _inv
from sim.go_town import kernels as _kernels
from sim.go_town.kernels import GoTownState, alloc_state
from sim.go_town.options import OPTIONS

_NAME_TO_TYPE = {n: k for k, n in enumerate(K.CARD_NAMES) if k}


def _counts_dict(row) -> dict[str, int]:
    return {K.CARD_NAMES[k]: int(row[k]) for k in range(1, K.NT) if row[k]}


def _counts_row(d: dict[str, int], what: str) -> np.ndarray:
    row = np.zeros(K.NT, np.int64)
    for name, v in d.items():
        if name not in _NAME_TO_TYPE:
            raise UserError(f"{what}: unknown card {name!r}; allowed: {', '.join(K.CARD_NAMES[1:])}")
        row[_NAME_TO_TYPE[name]] = int(v)
    return row


class GoTown(Game):
    """Go Town, 2-4 players, 54 cards, first to ``target_floors`` floors wins (spec §1-§4)."""

    id = "go-town"
    version = "2"  # changes only when the games played change (the manifest records it)
    invariant_messages = _inv.MESSAGES  # the codes of the kernel _inv.invariants
    title = "Go Town"
    min_players = 2
    max_players = 4
    num_actions = K.NUM_ACTIONS
    options = OPTIONS
    end_reasons = K.END_REASONS
    information = "imperfect"
    chance = "sampled"
    hidden = ("the cards in the rivals' hands",
              "the order of the draw pile")
    results = ("target",)
    spec = "shared/rules/go_town.md"
    data_status = data.DATA_STATUS
    keeps_derived = True
    impact_groups = [
        {"prefix": "played_", "title": "Special cards", "noun": "special card",
         "verb": "played", "include": list(K.CARD_NAMES[K.DOG:])},
        {"prefix": "played_", "title": "Building cards", "noun": "building card",
         "verb": "played", "include": list(K.CARD_NAMES[1:K.DOG])},
    ]
    seat_detail = (tuple(f"played_{K.CARD_NAMES[k]}" for k in range(1, K.NT))
                   + tuple(f"held_{K.CARD_NAMES[k]}" for k in K.SPECIAL_TYPES)
                   + ("leader_attacks", "kingmaker"))

    def __init__(self, card_counts: dict[str, int] | None = None,
                 constants: dict[str, int] | None = None,
                 removed: dict[str, int] | None = None):
        printed = data.counts_array(card_counts)
        self.consts = data.consts_array(constants, removed)
        self.removed = self.consts[K.C_REMOVED:].copy()
        bad = np.nonzero(self.removed > printed)[0]
        if bad.size:
            k = int(bad[0])
            raise UserError(f"go-town data: cards.{K.CARD_NAMES[k]}.removed = "
                            f"{int(self.removed[k])}: at most the count ({int(printed[k])})")
        self.counts = printed - self.removed  # the copies in play: what the kernels count
        if self.counts[1:10].sum() > 2 * K.MAXF:
            raise UserError(f"go-town data: at most {2 * K.MAXF} building and ? cards")

    def max_game_length(self, options: dict[str, Any] | None = None) -> int:
        """Decisions: ``max_turns * 64`` (the engine's safety cap, docs §5)."""
        return int(self.resolve_options(options)["max_turns"]) * K.DECISIONS_PER_TURN_CAP

    def apply_checking_derived(self, state, action: int):
        """See Game.apply_checking_derived (the kernels' derived arrays, docs §performance)."""
        a = self.check_action(state, action)
        s = self.copy_state(state)
        return s, bool(_kernels.derived_step_ok(s, np.int32(a)))

    def _alloc(self, resolved: dict[str, Any]) -> GoTownState:
        return alloc_state(self.options.encode(resolved), self.counts, self.consts)

    def scores(self, state) -> np.ndarray:
        """Floors per seat, ``int64[n_players]``."""
        return state.n_floors[: state.meta[K.M_NP]].copy()

    def ranks(self, state) -> np.ndarray:
        """Rank per seat (1 = winner, others by floors from 2; all 0 in an unfinished game)."""
        n = int(state.meta[K.M_NP])
        return _ranks(state.n_floors[:n], int(state.meta[K.M_WINNER]))

    # ---- strings ----------------------------------------------------------------------
    def action_to_string(self, state, action: int) -> str:
        a = int(action)
        if a == K.A_END:
            return "END_TURN"
        if a <= 4:
            return f"BUILD {a}+{9 - a}"
        if a < K.A_STEAL:
            v = a - K.A_BUILDQ
            return f"BUILD ?+{v} (?={9 - v})"
        if a < K.A_DOG:
            i = a - K.A_STEAL
            v, slot, by_qm = i // 4, (i // 2) % 2, i % 2
            f = int(state.n_floors[v]) - 1
            if f >= 0:
                x = K.CARD_NAMES[state.floors[v, f, slot]]
                w = int(state.values[v, f, slot])
                pay = "?" if by_qm else str(9 - w)
                return f"STEAL P{v}'s {x}{'=' + str(w) if x == '?' else ''} with {pay}"
            return f"STEAL P{v} slot {slot} {'with ?' if by_qm else ''}".strip()
        if a < K.A_BONE:
            i = a - K.A_DOG
            return f"DOG on P{i // K.MAXF} floor {i % K.MAXF + 1}"
        if a < K.A_DRILL:
            i = a - K.A_BONE
            return f"BONE on P{i // K.MAXF} floor {i % K.MAXF + 1}"
        for base, name in ((K.A_DRILL, "DRILL"), (K.A_WRECK, "WRECK"), (K.A_MILK, "MILK"), (K.A_THIEF, "THIEF")):
            if base <= a < base + 4:
                return f"{name} P{a - base}"
        if a == K.A_DONUT:
            return "DONUT"
        if a == K.A_MASTER:
            return "MASTER"
        if K.A_DISCARD < a < K.NUM_ACTIONS:
            return f"DISCARD {K.CARD_NAMES[a - K.A_DISCARD]}"
        raise UserError(f"go-town: action {a} out of range 0..{K.NUM_ACTIONS - 1}")

    def state_to_string(self, state) -> str:
        d = self.state_to_dict(state)
        lines = [
            f"Go Town, {d['n_players']} players, turn {d['turn']}, decision {d['decisions']}, "
            f"phase {d['phase']}, P{d['current']} to act" if d["phase"] != "over" else
            f"Go Town, {d['n_players']} players, over after {d['turn']} turns: "
            + (f"P{d['winner']} wins" if d["winner"] >= 0 else f"stopped ({d['end_reason']})"),
            f"  deck {len(d['deck'])} cards, discard {sum(d['discard'].values())} cards",
        ]
        for p in range(d["n_players"]):
            floors = " ".join(
                "(" + ",".join(c if c != "?" else f"?={v}" for c, v in zip(f["cards"], f["values"]))
                + ")" + ("+D" * f["dogs"])
                for f in d["buildings"][p]
            ) or "-"
            hand = " ".join(f"{k}x{v}" if v > 1 else k for k, v in d["hands"][p].items()) or "-"
            extra = f" skips {d['pending_skips'][p]}" if d["pending_skips"][p] else ""
            lines.append(f"  P{p}: {len(d['buildings'][p])} floors {floors} | hand {hand}{extra}")
        return "\n".join(lines)

    # ---- dict form (docs/games/go_town.md section 8) -----------------------------------
    def state_to_dict(self, state) -> dict:
        n = int(state.meta[K.M_NP])
        buildings = []
        for p in range(n):
            fl = []
            for f in range(int(state.n_floors[p])):
                fl.append({
                    "cards": [K.CARD_NAMES[state.floors[p, f, 0]], K.CARD_NAMES[state.floors[p, f, 1]]],
                    "values": [int(state.values[p, f, 0]), int(state.values[p, f, 1])],
                    "dogs": int(state.dogs[p, f]),
                })
            buildings.append(fl)
        return {
            "game": self.id,
            "n_players": n,
            "options": self.options.decode(state.opts),
            "data": {
                "card_counts": {K.CARD_NAMES[k]: int(state.counts[k]) for k in range(1, K.NT)},
                "opening_hand": int(state.consts[0]),
                "hand_limit": int(state.consts[1]),
                "refill_to": int(state.consts[2]),
            },
            "rng": "0x%016x" % int(state.rng[0]),
            "current": int(state.meta[K.M_CUR]),
            "phase": K.PHASES[int(state.meta[K.M_PHASE])],
            "turn": int(state.meta[K.M_TURN]),
            "decisions": int(state.meta[K.M_DEC]),
            "deck": [K.CARD_NAMES[k] for k in state.deck[: state.meta[K.M_DECKN]]],
            "discard": _counts_dict(state.discard),
            "hands": [_counts_dict(state.hands[p]) for p in range(n)],
            "buildings": buildings,
            "pending_skips": [int(x) for x in state.skips[:n]],
            "milk_in_front": [int(x) for x in state.milk[:n]],
            "played": [_counts_dict(state.played[p]) for p in range(n)],
            "winner": int(state.meta[K.M_WINNER]),
            "end_reason": K.END_REASONS[int(state.meta[K.M_END])],
        }

    def _state_from_dict(self, d: dict) -> GoTownState:
        """Build a state from the dict layout of docs/games/go_town.md §8. Every field is
        checked (type, range, card names, the seats, floors within the building's 18 slots)
        and then the card conservation law; raises UserError naming the field, the value and
        the allowed range."""
        r = DictReader(self.id)
        r.dict(d, "state")
        n = r.int(r.get(d, "n_players", "n_players"), "n_players", self.min_players,
                  self.max_players)
        resolved = self.resolve_options(r.dict(r.get(d, "options", "options"), "options"))
        opts = self.options.encode(resolved)
        dd = r.dict(r.get(d, "data", "data"), "data")
        cc = r.dict(r.get(dd, "card_counts", "data.card_counts"), "data.card_counts")
        consts = {k: r.int(r.get(dd, k, f"data.{k}"), f"data.{k}", 0, 999)
                  for k in ("opening_hand", "hand_limit", "refill_to")}
        counts_in = {}
        for name, v in cc.items():
            if name not in _NAME_TO_TYPE:
                raise r.fail("data.card_counts", name, f"unknown card; allowed: "
                             f"{', '.join(K.CARD_NAMES[1:])}")
            counts_in[name] = r.int(v, f"data.card_counts.{name}", 0, 999)
        data_game = GoTown(counts_in, consts)  # the data's own checks (UserError)
        data_game._check_data()
        counts = data_game.counts
        s = alloc_state(opts, counts, data_game.consts)
        max_turns = int(resolved["max_turns"])
        phase = r.choice(r.get(d, "phase", "phase"), "phase", K.PHASES)
        cur = r.int(r.get(d, "current", "current"), "current", 0, n - 1)
        turn = r.int(r.get(d, "turn", "turn"), "turn", 0, max_turns)
        dec = r.int(r.get(d, "decisions", "decisions"), "decisions", 0,
                    self.max_game_length(resolved))
        winner = r.int(r.get(d, "winner", "winner"), "winner", -1, n - 1)
        end = r.choice(r.get(d, "end_reason", "end_reason"), "end_reason", K.END_REASONS)
        if (phase == K.PH_OVER) != (end != 0):
            raise r.fail("end_reason", K.END_REASONS[end], f"must be none exactly while the "
                         f"phase is not over (phase {K.PHASES[phase]})")
        if (winner >= 0) != (K.END_REASONS[end] == "target"):
            raise r.fail("winner", winner, "a seat exactly when end_reason is target, else -1")
        deck_in = r.list(r.get(d, "deck", "deck"), "deck", max_len=len(s.deck))
        deck = []
        for i, c in enumerate(deck_in):
            deck.append(r.choice(c, f"deck[{i}]", K.CARD_NAMES[1:]) + 1)
        s.deck[: len(deck)] = deck
        s.meta[:] = [n, cur, phase, turn, dec, winner, end, len(deck)]
        s.rng[0] = np.uint64(r.rng(r.get(d, "rng", "rng")))
        s.discard[:] = self._counts(r, r.get(d, "discard", "discard"), "discard", None)
        hands = r.list(r.get(d, "hands", "hands"), "hands", n)
        played = r.list(r.get(d, "played", "played"), "played", n)
        skips = r.ints(r.get(d, "pending_skips", "pending_skips"), "pending_skips", 0,
                       max_turns, n)
        milk = r.ints(r.get(d, "milk_in_front", "milk_in_front"), "milk_in_front", 0, 999, n)
        blds = r.list(r.get(d, "buildings", "buildings"), "buildings", n)
        dogs_max = int(resolved["dogs_per_floor_max"])
        for p in range(n):
            s.hands[p] = self._counts(r, hands[p], f"hands[{p}]", None)
            s.played[p] = self._counts(r, played[p], f"played[{p}]", None)
            s.skips[p] = skips[p]
            s.milk[p] = milk[p]
            floors = r.list(blds[p], f"buildings[{p}]", max_len=K.MAXF)
            s.n_floors[p] = len(floors)
            for f, fl in enumerate(floors):
                w = f"buildings[{p}][{f}]"
                r.dict(fl, w)
                cards = r.list(r.get(fl, "cards", f"{w}.cards"), f"{w}.cards", 2)
                types = [r.choice(c, f"{w}.cards[{i}]", K.CARD_NAMES[1:K.QM + 1]) + 1
                         for i, c in enumerate(cards)]
                values = r.ints(r.get(fl, "values", f"{w}.values"), f"{w}.values", 1, 8, 2)
                for i in range(2):
                    if types[i] != K.QM and values[i] != types[i]:
                        raise r.fail(f"{w}.values[{i}]", values[i],
                                     f"a {K.CARD_NAMES[types[i]]} card has value {types[i]}")
                if values[0] + values[1] != 9:
                    raise r.fail(f"{w}.values", values, "the two values of a floor sum to 9")
                s.floors[p, f] = types
                s.values[p, f] = values
                s.dogs[p, f] = r.int(r.get(fl, "dogs", f"{w}.dogs"), f"{w}.dogs", 0, dogs_max)
        return s

    @staticmethod
    def _counts(r: DictReader, v, where: str, limit) -> np.ndarray:
        """A ``{card name: count}`` dict as ``int64[NT]``; each count 0..``limit[k]`` (the
        data's count of that card) or 0..999."""
        r.dict(v, where)
        row = np.zeros(K.NT, np.int64)
        for name, x in v.items():
            if name not in _NAME_TO_TYPE:
                raise r.fail(where, name, f"unknown card; allowed: {', '.join(K.CARD_NAMES[1:])}")
            k = _NAME_TO_TYPE[name]
            row[k] = r.int(x, f"{where}.{name}", 0, int(limit[k]) if limit is not None else 999)
        return row

    # the rule options of spec §8.3 ("short game", "switch sensitivity") and D14, which closes
    # most deadlocks: one paired run each per player count (default_plan)
    PLAN_OPTIONS = (
        ("target_floors", 4), ("hand_limit_mode", "cap_gain"),
        ("hand_limit_mode", "discard_to_8"), ("qm_steal_by_qm", False),
        ("qm_steal_by_number", False), ("dog_placement", "top_only"), ("dog_moves_up", True),
        ("donut_scope", "all"), ("skip_stacking", "no_stack"), ("allow_dead_plays", True),
    )

    EFFECTS_GAMES = {3: 100_000}
    """``boardsim run``'s component-effects study (docs/effects.md): Go Town 3p: 18 arms, about
    0.012 ms of CPU per game-arm (measured): ~25 s (CPU time on the shared 2-core machine,
    docs/effects.md)."""

    def default_plan(self) -> list[dict[str, Any]]:
        """2, 3 and 4 players, every seat drawn from the recommended mix of competent bots
        (``Game.recommended_mix`` of strategies/go_town: the scripted bots of spec §8.3 that
        the rating ladder rates above ``random``, with greedy's tuned row at 2 players): 200,000 games each (role ``main``), and for
        each rule option of ``PLAN_OPTIONS`` 20,000 games with that one option changed, on the
        same seed (role ``option:<name>=<value>``), so game i of an option run is game i of
        the main run with the option changed: the report pairs them (spec §8.3). The 30
        option runs add 600,000 games, about 4 CPU minutes (0.35 ms per game)."""
        pools = {p: self.recommended_mix(p) for p in (2, 3, 4)}
        plan = [
            {"name": f"p{p}-pool", "players": p, "strategies": pools[p], "seating": "pool",
             "n_games": 200_000, "seed": 1, **self.effects_plan(p)}
            for p in (2, 3, 4)
        ]
        for name, value in self.PLAN_OPTIONS:
            for p in (2, 3, 4):
                v = str(value).lower() if isinstance(value, bool) else str(value)
                plan.append({"name": f"p{p}-{name}-{v}", "players": p, "strategies": pools[p],
                             "seating": "pool", "n_games": 20_000, "seed": 1,
                             "options": {name: value}, "role": f"option:{name}={value}"})
        return plan

    def _play_chunk(self, s, first_game, n_games, run_seed, n_players, seat_idx, codes,
                    params) -> ChunkResult:
        """The bots' loop over the chunk (Game.run_chunk). Seat detail: ``played_<card>`` cards
        played per type; ``held_<special>`` 1 if the seat held that special card at some point
        (spec §8.3: wrecking-ball strength conditional on holding it); ``leader_attacks`` bit
        v = the seat attacked seat v (STEAL, BONE, DRILL, WRECK, MILK, THIEF) while v led
        alone, one floor or less from the target, with 2+ floors more than the attacker;
        ``kingmaker`` 1 if the seat did not win and attacked such a leader who did not win
        either, so a third seat won (spec §8.3 kingmaking)."""
        turns = np.zeros(n_games, np.int64)
        decisions = np.zeros(n_games, np.int64)
        end_reason = np.zeros(n_games, np.int64)
        first = np.zeros(n_games, np.int64)
        winner = np.zeros(n_games, np.int64)
        score = np.zeros((n_games, n_players), np.int64)
        played = np.zeros((n_games, n_players, K.NT), np.int64)
        ahash = np.zeros(n_games, np.uint64)
        watch = np.zeros((n_games, n_players, 2), np.int64)
        self.bots.run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
                            turns, decisions, end_reason, first, winner, score, played, ahash,
                            watch, np.zeros(K.NUM_ACTIONS, np.int8),
                            np.full(n_games, -1, np.int64))
        rank = np.zeros((n_games, n_players), np.int64)
        share = np.zeros((n_games, n_players), np.float64)
        won = winner >= 0
        rows = np.nonzero(won)[0]
        share[rows, winner[rows]] = 1.0
        # competition ranking: the winner 1, the others by floors from 2; unfinished games 0
        rank[:] = _ranks_batch(score, winner)
        detail = {f"played_{K.CARD_NAMES[k]}": played[:, :, k] for k in range(1, K.NT)}
        for k in K.SPECIAL_TYPES:
            detail[f"held_{K.CARD_NAMES[k]}"] = (watch[:, :, 0] >> k) & 1
        hits = watch[:, :, 1]
        detail["leader_attacks"] = hits
        # kingmaker: the seat did not win and attacked a lone leader about to win (2+ floors
        # ahead of it) who did not win either, so a third seat won (spec §8.3 "kingmaking")
        not_winner = np.where(won, ~(1 << np.maximum(winner, 0)), 0)
        seat = np.arange(n_players)
        detail["kingmaker"] = (((hits & not_winner[:, None]) != 0)
                               & (seat[None, :] != winner[:, None])).astype(np.int64)
        return ChunkResult(turns, decisions, end_reason, first, score, rank, share, detail,
                           action_hash=ahash)


def _ranks_batch(score: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """Ranks ``int64[n, p]``: winner 1, other seats 2 + number of non-winners with more floors."""
    n, p = score.shape
    win = np.zeros((n, p), bool)
    rows = np.nonzero(winner >= 0)[0]
    win[rows, winner[rows]] = True
    better = ((score[:, None, :] > score[:, :, None]) & ~win[:, None, :]).sum(axis=2)
    rank = np.where(win, 1, 2 + better)
    rank[winner < 0] = 0
    return rank.astype(np.int64)


def _ranks(floors: np.ndarray, winner: int) -> np.ndarray:
    return _ranks_batch(floors[None, :].astype(np.int64), np.array([winner]))[0]


GAME_CLASS = GoTown
