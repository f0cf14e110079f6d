"""Pig: the Game subclass (tests/toy/README.md for the rules)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.checks import DictReader
from sim.core.game import ChunkResult, Game
from sim.pig import constants as K
from sim.pig.kernels import MESSAGES, PigState, alloc_state
from sim.pig.options import OPTIONS


def ranks_of(score: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """``int64[n, p]``: 1 + the seats with more points (the winner, the only seat at the
    target, is 1); 0 in a game stopped at the limit."""
    rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
    rank[winner < 0] = 0
    return rank.astype(np.int64)


class Pig(Game):
    id = "pig"
    title = "Pig"
    version = "1"
    min_players = 2
    max_players = 4
    num_actions = K.NUM_ACTIONS
    options = OPTIONS
    end_reasons = K.END_REASONS
    information = "perfect"
    chance = "sampled"
    hidden = ()
    results = ("target",)
    spec = "tests/toy/README.md"
    data_status = "toy"
    seat_detail = ("holds",)
    invariant_messages = MESSAGES

    def max_game_length(self, options: dict[str, Any] | None = None) -> int:
        r = self.resolve_options(options or {})
        return int(r["max_turns"]) * (int(r["target"]) // 2 + 2)

    def _alloc(self, resolved: dict[str, Any]) -> PigState:
        return alloc_state(self.options.encode(resolved))

    def scores(self, state) -> np.ndarray:
        return state.score[: int(state.meta[K.M_NP])].astype(np.int64)

    def ranks(self, state) -> np.ndarray:
        return ranks_of(self.scores(state)[None, :],
                        np.array([int(state.meta[K.M_WINNER])]))[0]

    def action_to_string(self, state, action: int) -> str:
        return ("roll", "hold")[int(self.check_action(state, action))]

    def state_to_string(self, state) -> str:
        n = int(state.meta[K.M_NP])
        return (f"turn {int(state.meta[K.M_TURN])}, seat {int(state.meta[K.M_CUR])} to act, "
                f"turn total {int(state.meta[K.M_TT])}, scores "
                f"{[int(x) for x in state.score[:n]]}")

    def state_to_dict(self, state) -> dict:
        n = int(state.meta[K.M_NP])
        return {"n_players": n, "options": self.options.decode(state.opts),
                "current": int(state.meta[K.M_CUR]), "first_player": int(state.meta[K.M_FIRST]),
                "phase": ("play", "over")[int(state.meta[K.M_PHASE])],
                "turn_total": int(state.meta[K.M_TT]), "turn": int(state.meta[K.M_TURN]),
                "decisions": int(state.meta[K.M_DEC]),
                "end_reason": self.end_reasons[int(state.meta[K.M_END])],
                "winner": int(state.meta[K.M_WINNER]),
                "scores": [int(x) for x in state.score[:n]], "rng": "0x%016x" % int(state.rng[0])}

    def _state_from_dict(self, d: dict) -> PigState:
        r = DictReader(self.id)
        r.dict(d, "state")
        g = lambda key: r.get(d, key, key)  # noqa: E731
        n = r.int(g("n_players"), "n_players", self.min_players, self.max_players)
        resolved = self.resolve_options(r.dict(g("options"), "options"))
        s = self._alloc(resolved)
        target = int(resolved["target"])
        s.meta[K.M_NP] = n
        s.meta[K.M_CUR] = r.int(g("current"), "current", 0, n - 1)
        s.meta[K.M_FIRST] = r.int(g("first_player"), "first_player", 0, n - 1)
        s.meta[K.M_PHASE] = r.choice(g("phase"), "phase", ("play", "over"))
        s.meta[K.M_TT] = r.int(g("turn_total"), "turn_total", 0, target)
        s.meta[K.M_TURN] = r.int(g("turn"), "turn", 0, int(resolved["max_turns"]))
        s.meta[K.M_DEC] = r.int(g("decisions"), "decisions", 0,
                                self.max_game_length(resolved))
        s.meta[K.M_END] = r.choice(g("end_reason"), "end_reason", self.end_reasons)
        s.meta[K.M_WINNER] = r.int(g("winner"), "winner", -1, n - 1)
        s.score[:n] = r.ints(g("scores"), "scores", 0, target + 5, n)
        s.rng[0] = np.uint64(r.rng(g("rng")))
        return s

    def default_plan(self) -> list[dict[str, Any]]:
        pool = list(self.bots.RECOMMENDED_MIX)
        return [{"name": f"p{p}-pool", "players": p, "strategies": pool, "seating": "pool",
                 "n_games": 2000, "seed": 1} for p in (2, 3, 4)]

    def _play_chunk(self, s, first_game, n_games, run_seed, n_players, seat_idx, codes,
                    params) -> ChunkResult:
        z = lambda: np.zeros(n_games, np.int64)  # noqa: E731
        turns, decisions, end_reason, first, winner = z(), z(), z(), z(), z()
        score = np.zeros((n_games, n_players), np.int64)
        holds = np.zeros((n_games, n_players), np.int64)
        ahash = np.zeros(n_games, np.uint64)
        self.bots.run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
                            turns, decisions, end_reason, first, winner, score, holds, ahash)
        share = np.zeros((n_games, n_players), np.float64)
        rows = np.nonzero(winner >= 0)[0]
        share[rows, winner[rows]] = 1.0
        return ChunkResult(turns, decisions, end_reason, first, score,
                           ranks_of(score, winner), share, {"holds": holds},
                           action_hash=ahash)


GAME_CLASS = Pig
