"""Pig: the Game subclass (tests/toy/README.md for the rules)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.game import ChunkResult, Game
from sim.core.schema import Ctx, Field, StateSchema, header_fields, read_header
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


# ---- the dict form: the declared state (sim/core/schema.py) ----------------------------
def _start(game, r, d) -> Ctx:
    n, resolved = read_header(game, r, d)
    s = game._alloc(resolved)
    s.meta[K.M_NP] = n
    return Ctx(game, n, resolved, s)


def _target(c) -> int:
    return int(c.resolved["target"])


Pig.state_schema = StateSchema([
    *header_fields(game=False),
    Field("current", ("meta", K.M_CUR), hi=lambda c: c.n - 1),
    Field("first_player", ("meta", K.M_FIRST), hi=lambda c: c.n - 1),
    Field("phase", ("meta", K.M_PHASE), "enum", names=("play", "over")),
    Field("turn_total", ("meta", K.M_TT), hi=_target),
    Field("turn", ("meta", K.M_TURN), hi=lambda c: int(c.resolved["max_turns"])),
    Field("decisions", ("meta", K.M_DEC), hi=lambda c: c.game.max_game_length(c.resolved)),
    Field("end_reason", ("meta", K.M_END), "enum", names=K.END_REASONS),
    Field("winner", ("meta", K.M_WINNER), lo=-1, hi=lambda c: c.n - 1),
    Field("scores[]", ("score", "p"), hi=lambda c: _target(c) + 5),
    Field("rng", ("rng", 0), "rng"),
], data=("opts",), start=_start, n_of=lambda v: v.meta[K.M_NP], game_id="pig")
