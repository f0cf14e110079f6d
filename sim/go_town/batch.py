"""Go Town batch playouts: many games in one compiled loop, no Python per decision."""

import numpy as np
from numba import njit

from sim.core.rng import seed_for
from sim.go_town.constants import (
    M_CUR,
    M_DEC,
    M_END,
    M_PHASE,
    M_TURN,
    M_WINNER,
    NUM_ACTIONS,
    PH_OVER,
)
from sim.go_town.kernels import apply_inplace, init_state, legal_actions_into
from strategies.go_town import choose


@njit(cache=True)
def run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, first_player, winner, score, played):
    """Play games ``first_game ..`` of run ``run_seed`` into the output arrays.

    s: a GoTownState used as scratch (its opts/counts/consts select the rules and data);
    seat_idx int64[n_games, n_players]: row of ``codes``/``params`` playing each seat;
    outputs: turns, decisions, end_reason, first_player, winner int64[n_games];
    score int64[n_games, n_players]; played int64[n_games, n_players, 18].
    Game i uses seed_for(run_seed, i, 0) for chance and seed_for(run_seed, i, 1) for its bots.
    """
    legal = np.empty(NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        init_state(s, n_players, seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        first_player[g] = s.meta[M_CUR]
        while s.meta[M_PHASE] != PH_OVER:
            n = legal_actions_into(s, legal)
            k = seat_idx[g, s.meta[M_CUR]]
            a = choose(codes[k], params[k], s, legal, n, brng)
            apply_inplace(s, a)
        turns[g] = s.meta[M_TURN]
        decisions[g] = s.meta[M_DEC]
        end_reason[g] = s.meta[M_END]
        winner[g] = s.meta[M_WINNER]
        for p in range(n_players):
            score[g, p] = s.n_floors[p]
            for k in range(played.shape[2]):
                played[g, p, k] = s.played[p, k]
