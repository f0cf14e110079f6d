"""Go Town (고타운): the game object behind ``sim.get_game("go-town")``.

Rules: shared/rules/go_town.md; encoding and state dict: docs/games/go_town.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
from sim.go_town import constants as K
from sim.go_town import data
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
    version = "1"  # changes only when the games played change (the manifest records it)
    title = "Go Town"
    min_players = 2
    max_players = 4
    num_actions = K.NUM_ACTIONS
    options = OPTIONS
    end_reasons = K.END_REASONS
    spec = "shared/rules/go_town.md"
    data_status = data.DATA_STATUS
    keeps_derived = True
    impact_groups = [
        {"prefix": "played_", "title": "Special cards", "noun": "special card",
         "verb": "played", "include": list(K.CARD_NAMES[K.DOG:])},
        {"prefix": "played_", "title": "Building cards", "noun": "building card",
         "verb": "played", "include": list(K.CARD_NAMES[1:K.DOG])},
    ]
    seat_detail = tuple(f"played_{K.CARD_NAMES[k]}" for k in range(1, K.NT))

    def __init__(self, card_counts: dict[str, int] | None = None,
                 constants: dict[str, int] | None = None):
        self.counts = data.counts_array(card_counts)
        self.consts = data.consts_array(constants)
        if self.counts[1:10].sum() > 2 * K.MAXF:
            raise UserError(f"go-town data: at most {2 * K.MAXF} building and ? cards")

    def max_game_length(self, options: dict[str, Any] | None = None) -> int:
        """Decisions: ``max_turns * 64`` (the engine's safety cap, docs §5)."""
        return int(self.resolve_options(options)["max_turns"]) * K.DECISIONS_PER_TURN_CAP

    def apply_checking_derived(self, state, action: int):
        """See Game.apply_checking_derived (the kernels' derived arrays, docs §performance)."""
        a = self.check_action(state, action)
        s = self.copy_state(state)
        return s, bool(_kernels.derived_step_ok(s, a))

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

    def state_from_dict(self, d: dict) -> GoTownState:
        """Build a state from the dict layout of docs/games/go_town.md §8. Raises UserError."""
        try:
            n = self.check_players(int(d["n_players"]))
            opts = self.options.encode(self.resolve_options(d["options"]))
            dd = d["data"]
            counts = _counts_row(dd["card_counts"], "data.card_counts")
            consts = np.array([dd["opening_hand"], dd["hand_limit"], dd["refill_to"]], np.int64)
            s = alloc_state(opts, counts, consts)
            deck = [_NAME_TO_TYPE[c] for c in d["deck"]]
            if len(deck) > len(s.deck):
                raise UserError("state dict: deck longer than the card count")
            s.deck[: len(deck)] = deck
            s.meta[:] = [n, d["current"], K.PHASES.index(d["phase"]), d["turn"], d["decisions"],
                         d["winner"], K.END_REASONS.index(d["end_reason"]), len(deck)]
            s.rng[0] = np.uint64(int(d["rng"], 16))
            s.discard[:] = _counts_row(d["discard"], "discard")
            for p in range(n):
                s.hands[p] = _counts_row(d["hands"][p], f"hands[{p}]")
                s.played[p] = _counts_row(d["played"][p], f"played[{p}]")
                s.skips[p] = d["pending_skips"][p]
                s.milk[p] = d["milk_in_front"][p]
                s.n_floors[p] = len(d["buildings"][p])
                for f, fl in enumerate(d["buildings"][p]):
                    s.floors[p, f] = [_NAME_TO_TYPE[c] for c in fl["cards"]]
                    s.values[p, f] = fl["values"]
                    s.dogs[p, f] = fl["dogs"]
            return s
        except UserError:
            raise
        except (KeyError, ValueError, TypeError, IndexError) as e:
            raise UserError(f"go-town state dict: malformed ({type(e).__name__}: {e})") from None

    def check_invariants(self, state) -> None:
        """The 54 cards (the data's counts) are all somewhere: deck, discard, hands, floors,
        dogs on floors, milkshakes in front of players."""
        n = int(state.meta[K.M_NP])
        seen = np.zeros(K.NT, np.int64)
        for k in state.deck[: state.meta[K.M_DECKN]]:
            seen[k] += 1
        seen += state.discard + state.hands[:n].sum(axis=0)
        for p in range(n):
            for f in range(int(state.n_floors[p])):
                seen[state.floors[p, f, 0]] += 1
                seen[state.floors[p, f, 1]] += 1
                seen[K.DOG] += state.dogs[p, f]
            seen[K.MILK] += state.milk[p]
        assert (seen == state.counts).all(), f"cards not conserved: {seen - state.counts}"
        assert (state.n_floors[:n] >= 0).all() and (state.skips[:n] >= 0).all()

    def default_plan(self) -> list[dict[str, Any]]:
        """2, 3 and 4 players, every seat drawn from the recommended mix of competent bots
        (``RECOMMENDED_MIX`` of strategies/go_town: the scripted bots of spec §8.3 that the
        rating ladder rates above ``random``)."""
        pool = list(self.bots.RECOMMENDED_MIX)
        return [
            {"name": f"p{p}-pool", "players": p, "strategies": pool, "seating": "pool",
             "n_games": 200_000, "seed": 1}
            for p in (2, 3, 4)
        ]

    def _play_chunk(self, s, first_game, n_games, run_seed, n_players, seat_idx, codes,
                    params) -> ChunkResult:
        """The bots' loop over the chunk (Game.run_chunk); seat detail: cards played per type."""
        turns = np.zeros(n_games, np.int64)
        decisions = np.zeros(n_games, np.int64)
        end_reason = np.zeros(n_games, np.int64)
        first = np.zeros(n_games, np.int64)
        winner = np.zeros(n_games, np.int64)
        score = np.zeros((n_games, n_players), np.int64)
        played = np.zeros((n_games, n_players, K.NT), np.int64)
        ahash = np.zeros(n_games, np.uint64)
        self.bots.run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
                            turns, decisions, end_reason, first, winner, score, played, ahash)
        rank = np.zeros((n_games, n_players), np.int64)
        share = np.zeros((n_games, n_players), np.float64)
        won = winner >= 0
        rows = np.nonzero(won)[0]
        share[rows, winner[rows]] = 1.0
        # competition ranking: the winner 1, the others by floors from 2; unfinished games 0
        rank[:] = _ranks_batch(score, winner)
        detail = {name: played[:, :, k + 1] for k, name in enumerate(self.seat_detail)}
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
