"""Go Town (고타운): the game object behind ``sim.get_game("go-town")``.

Rules: shared/rules/go_town.md; encoding and state dict: docs/games/go_town.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
from sim.core.schema import Ctx, Field, StateSchema, header_fields, read_header
from sim.go_town import constants as K
from sim.go_town import data
from sim.go_town import invariants as _inv
from sim.go_town import kernels as _kernels
from sim.go_town.kernels import GoTownState, alloc_state
from sim.go_town.options import OPTIONS

_NAME_TO_TYPE = {n: k for k, n in enumerate(K.CARD_NAMES) if k}


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
    state_schema = None  # set below the class (_SCHEMA)
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

    # the rule options of spec §8.3 ("short game", "switch sensitivity") and D14, which closes
    # most deadlocks: one paired run each per player count (default_plan)
    PLAN_OPTIONS = (
        ("target_floors", 4), ("hand_limit_mode", "cap_gain"),
        ("hand_limit_mode", "discard_to_8"), ("qm_steal_by_qm", False),
        ("qm_steal_by_number", False), ("dog_placement", "top_only"), ("dog_moves_up", True),
        ("donut_scope", "all"), ("skip_stacking", "no_stack"), ("allow_dead_plays", True),
    )

    EFFECTS_GAMES = {3: 80_000}
    """``boardsim run``'s component-effects study (docs/effects.md): Go Town 3p: 36 arms (the
    baseline, the re-deal placebo, each card type's copy removed and each denied). Measured at
    100,000 games per arm on 2 idle cores (session 10): 246 s of `make run`'s 1,007, the removal
    arms 11.5 s each (the first-reached pairing trace plays baseline and arm in lockstep);
    80,000 with that trace running on both cores (``strategies/trace.py``, nogil)."""

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


# ---- dict form (docs/games/go_town.md section 8): the declared state ----------------------
_CARDS = K.CARD_NAMES[1:]


def _data_get(g, s, v, n) -> dict:
    return {"card_counts": {K.CARD_NAMES[k]: int(s.counts[k]) for k in range(1, K.NT)},
            "opening_hand": int(s.consts[0]), "hand_limit": int(s.consts[1]),
            "refill_to": int(s.consts[2])}


def _start(game, r, d) -> Ctx:
    """The header: the player count, the options and the data block (its own checks), then
    the state allocated from them."""
    n, resolved = read_header(game, r, d)
    dd = r.dict(r.get(d, "data", "data"), "data")
    cc = r.dict(r.get(dd, "card_counts", "data.card_counts"), "data.card_counts")
    consts = {k: r.int(r.get(dd, k, f"data.{k}"), f"data.{k}", 0, 999)
              for k in ("opening_hand", "hand_limit", "refill_to")}
    counts_in = {}
    for name, x in cc.items():
        if name not in _NAME_TO_TYPE:
            raise r.fail("data.card_counts", name, f"unknown card; allowed: {', '.join(_CARDS)}")
        counts_in[name] = r.int(x, f"data.card_counts.{name}", 0, 999)
    data_game = GoTown(counts_in, consts)  # the data's own checks (UserError)
    data_game._check_data()
    s = alloc_state(game.options.encode(resolved), data_game.counts, data_game.consts)
    s.meta[K.M_NP] = n
    return Ctx(game, n, resolved, s)


def _buildings_get(g, s, v, n, p) -> list:
    return [{"cards": [K.CARD_NAMES[s.floors[p, f, 0]], K.CARD_NAMES[s.floors[p, f, 1]]],
             "values": [int(s.values[p, f, 0]), int(s.values[p, f, 1])],
             "dogs": int(s.dogs[p, f])} for f in range(int(s.n_floors[p]))]


def _buildings_put(game, r, value, ctx, where, p) -> None:
    """A seat's floors: two cards (a number card has its own value, the two values sum to
    9) and the dogs on it, at most the option's limit."""
    s = ctx.s
    floors = r.list(value, where, max_len=K.MAXF)
    s.n_floors[p] = len(floors)
    dogs_max = int(ctx.resolved["dogs_per_floor_max"])
    for f, fl in enumerate(floors):
        w = f"{where}[{f}]"
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


def _check(game, r, ctx) -> None:
    """Go Town's cross-field rules: an end reason exactly once the phase is over, a winner
    exactly when the end reason is the target."""
    m = ctx.s.meta
    phase, end, winner = int(m[K.M_PHASE]), int(m[K.M_END]), int(m[K.M_WINNER])
    if (phase == K.PH_OVER) != (end != 0):
        raise r.fail("end_reason", K.END_REASONS[end], f"must be none exactly while the "
                     f"phase is not over (phase {K.PHASES[phase]})")
    if (winner >= 0) != (K.END_REASONS[end] == "target"):
        raise r.fail("winner", winner, "a seat exactly when end_reason is target, else -1")


def _turns(c) -> int:
    return int(c.resolved["max_turns"])


_SCHEMA = StateSchema([
    *header_fields(_data_get),
    Field("rng", ("rng", 0), "rng"),
    Field("current", ("meta", K.M_CUR), hi=lambda c: c.n - 1),
    Field("phase", ("meta", K.M_PHASE), "enum", names=K.PHASES),
    Field("turn", ("meta", K.M_TURN), hi=_turns),
    Field("decisions", ("meta", K.M_DEC), hi=lambda c: c.game.max_game_length(c.resolved)),
    Field("deck", ("deck", slice(None)), "names", names=_CARDS, base=1,
          count=("meta", K.M_DECKN), hidden=True, doc="the draw pile, bottom first"),
    Field("discard", ("discard", slice(None)), "counts", names=_CARDS, base=1, hi=999),
    Field("hands[]", ("hands", "p", slice(None)), "counts", names=_CARDS, base=1, hi=999,
          hidden=True),
    Field("buildings[]", kind="hook", get=_buildings_get, put=_buildings_put,
          uses=("floors", "values", "dogs", "n_floors")),
    Field("pending_skips[]", ("skips", "p"), hi=_turns),
    Field("milk_in_front[]", ("milk", "p"), hi=999),
    Field("played[]", ("played", "p", slice(None)), "counts", names=_CARDS, base=1, hi=999),
    Field("winner", ("meta", K.M_WINNER), lo=-1, hi=lambda c: c.n - 1),
    Field("end_reason", ("meta", K.M_END), "enum", names=K.END_REASONS),
], data=("opts", "counts", "consts"),
    # memo: the seats' public observation log of their END_TURN positions (the search bot's
    # inference reads it), not rules state: not in the dict form, and a state built from a
    # dict starts with an empty (zero) memo (docs/games/go_town.md section 8.1)
    derived=("memo",),
    start=_start, check=_check, n_of=lambda v: v.meta[K.M_NP], game_id="go-town")
GoTown.state_schema = _SCHEMA


GAME_CLASS = GoTown
