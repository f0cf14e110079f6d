"""Province batch playouts: many games in one compiled loop, no Python per decision."""

import numpy as np
from numba import njit

from sim.core.rng import rand_below, seed_for
from sim.province.constants import (
    C_PENALTY,
    M_CUR,
    M_DEC,
    M_DRY,
    M_END,
    M_FIRST,
    M_GN,
    M_LHOLDER,
    M_PHASE,
    M_TURN,
    M_WIN,
    NS,
    NSTATS,
    NUM_ACTIONS,
    PH_OVER,
    S_VP1,
    S_VP2,
    ST_MISSED,
    ST_STEALS,
    ST_TAKES,
    X_BT,
    X_COINS,
    X_FB,
    X_GR,
    X_GS,
    X_HIRED,
    X_ST,
)
from sim.province.kernels import (
    apply_x,
    count_legal,
    cst,
    init_x,
    legal_bits,
    list_legal,
    nth_legal,
    owned_count,
    owns,
    score_of,
    sd,
    workers_of,
)
from strategies.province.bots import choose_x


@njit(cache=True, nogil=True)
def run_games(x, rng, first_game, n_games, run_seed, seat_idx, codes, params,
              turns, decisions, end_reason, first_player, winner, built, tbuilt, goal, goalin,
              misc):
    """Play games ``first_game ..`` of run ``run_seed`` into the output arrays.

    x, rng: a ProvinceState's arrays used as scratch (the options and data in ``x`` select the
    rules); seat_idx int64[n_games, 2]: row of ``codes``/``params`` playing each seat;
    outputs int64: turns, decisions, end_reason, first_player, winner (-1 none, 0/1, 2 draw)
    ``[n]``; built (1 first builder, 2 copy), tbuilt (turn built, -1) ``[n, 2, 8]``;
    goal (1 claimed, -1 removed, 0) ``[n, 2, 9]``; goalin ``[n, 9]``;
    misc ``[n, 2, len(MISC_NAMES)]``.
    Game i uses seed_for(run_seed, i, 0) for chance and seed_for(run_seed, i, 1) for its bots.
    """
    legal = np.empty(NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        init_x(x, rng, seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        first_player[g] = x[M_FIRST]
        while x[M_PHASE] != PH_OVER:
            mv, lo = legal_bits(x)
            k = seat_idx[g, x[M_CUR]]
            if codes[k] == 0:
                # the random bot, legal[rand_below(n)], from the bit sets without listing them
                a = nth_legal(mv, lo, rand_below(brng, count_legal(mv, lo)))
            else:
                n = list_legal(mv, lo, legal)
                a = choose_x(codes[k], params, k, x, legal, n, brng)
            apply_x(x, rng, a)
        turns[g] = x[M_TURN]
        decisions[g] = x[M_DEC]
        end_reason[g] = x[M_END]
        winner[g] = x[M_WIN]
        for i in range(goalin.shape[1]):
            goalin[g, i] = 0
            goal[g, 0, i] = 0
            goal[g, 1, i] = 0
        for i in range(x[M_GN]):
            gid = x[X_GS + i]
            goalin[g, gid] = 1
            r = x[X_GR + i]
            if r == -1:
                goal[g, 0, gid] = -1
                goal[g, 1, gid] = -1
            elif r >= 0:
                goal[g, r, gid] = 1
        for p in range(2):
            vs = 0
            for k in range(NS):
                if owns(x, p, k):
                    first = x[X_FB + k] == p
                    built[g, p, k] = 1 if first else 2
                    vs += sd(x, k, S_VP1) if first else sd(x, k, S_VP2)
                else:
                    built[g, p, k] = 0
                tbuilt[g, p, k] = x[X_BT + p * NS + k]
            sc = score_of(x, p)
            hold = 1 if x[M_LHOLDER] == p else 0
            misc[g, p, 0] = sc
            misc[g, p, 1] = owned_count(x, p)
            misc[g, p, 2] = vs
            misc[g, p, 3] = sc - vs + hold * cst(x, C_PENALTY)
            misc[g, p, 4] = x[X_HIRED + p]
            misc[g, p, 5] = workers_of(x, p)
            misc[g, p, 6] = x[X_COINS + p]
            misc[g, p, 7] = x[X_ST + p * NSTATS + ST_MISSED]
            misc[g, p, 8] = x[X_ST + p * NSTATS + ST_TAKES]
            misc[g, p, 9] = x[X_ST + p * NSTATS + ST_STEALS]
            misc[g, p, 10] = hold
            misc[g, p, 11] = x[M_DRY]
