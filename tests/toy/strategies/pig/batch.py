"""Pig's batch loop: many games in one compiled loop."""

import numpy as np
from numba import njit

from sim.core.bits import nonneg
from sim.core.rng import ACTION_HASH_START, fold_action, rand_below, seed_for
from sim.pig import constants as K
from sim.pig.kernels import apply_inplace, init_state, legal_actions_into
from strategies import search
from strategies.pig.bots import choose_scripted


@njit(cache=True, nogil=True)
def run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, first_player, winner, score, holds, ahash):
    """Play games ``first_game ..`` of run ``run_seed``: game i from chance seed
    ``seed_for(run_seed, i, 0)`` and bot seed ``seed_for(run_seed, i, 1)``."""
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        init_state(s, n_players, seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        h = ACTION_HASH_START
        first_player[g] = s.meta[K.M_FIRST]
        for p in range(n_players):
            holds[g, p] = 0
        while s.meta[K.M_PHASE] != K.PH_OVER:
            c = nonneg(s.meta[K.M_CUR])
            k = nonneg(seat_idx[g, c])
            n = legal_actions_into(s, legal)
            if codes[k] == 0:
                a = legal[rand_below(brng, n)]
            elif codes[k] == search.SEARCH_CODE:
                a = search.choose(codes[k], params, k, s, legal, n, brng)
            else:
                a = choose_scripted(codes[k], params, k, s, legal, n, brng)
            h = fold_action(h, a)
            if a == K.A_HOLD:
                holds[g, c] += 1
            apply_inplace(s, a)
        turns[g] = s.meta[K.M_TURN]
        decisions[g] = s.meta[K.M_DEC]
        end_reason[g] = s.meta[K.M_END]
        winner[g] = s.meta[K.M_WINNER]
        ahash[g] = h
        for p in range(n_players):
            score[g, p] = s.score[p]
