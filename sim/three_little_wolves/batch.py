"""The Three Little Wolves batch playouts: many games in one compiled loop, no Python per
decision."""

import numpy as np
from numba import njit

from sim.core.rng import seed_for
from sim.three_little_wolves.constants import (
    M_CUR,
    M_DEC,
    M_END,
    M_PHASE,
    M_TURN,
    M_UNDER,
    NUM_ACTIONS,
    PH_OVER,
    S_BUILD,
    S_DISCN,
    S_WOLFN,
)
from sim.three_little_wolves.kernels import (
    apply_inplace,
    compute_points,
    init_state,
    legal_actions_into,
)
from strategies.three_little_wolves import choose


@njit(cache=True)
def run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, pts, tb, det, acts, under):
    """Play games ``first_game ..`` of run ``run_seed`` into the output arrays.

    s: a TLWState used as scratch (its opts/cards/consts select the rules and data);
    seat_idx int64[n_games, n_players]: row of ``codes``/``params`` playing each seat;
    outputs: turns, decisions, end_reason, under (cards under the last pig) int64[n_games];
    pts int64[n_games, n_players, 6] score components; tb int64[n_games, n_players] tie-break;
    det int64[n_games, n_players, 6] detail (D_*); acts int64[n_games, n_players, 3]
    (build, wolf, discard actions). Game i uses seed_for(run_seed, i, 0) for chance and
    seed_for(run_seed, i, 1) for its bots.
    """
    legal = np.empty(NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    p_ = np.zeros((4, 6), np.int64)
    t_ = np.zeros(4, np.int64)
    d_ = np.zeros((4, 6), np.int64)
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        init_state(s, n_players, seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        meta = s.meta
        while meta[M_PHASE] != PH_OVER:
            n = legal_actions_into(s, legal)
            k = seat_idx[g, meta[M_CUR]]
            a = choose(codes[k], params[k], s, legal, n, brng)
            apply_inplace(s, a)
        turns[g] = meta[M_TURN]
        decisions[g] = meta[M_DEC]
        end_reason[g] = meta[M_END]
        under[g] = meta[M_UNDER]
        compute_points(s, p_, t_, d_)
        seat = s.seat
        for p in range(n_players):
            tb[g, p] = t_[p]
            for j in range(6):
                pts[g, p, j] = p_[p, j]
                det[g, p, j] = d_[p, j]
            acts[g, p, 0] = seat[p, S_BUILD]
            acts[g, p, 1] = seat[p, S_WOLFN]
            acts[g, p, 2] = seat[p, S_DISCN]
