"""Province batch playouts: many games in one compiled loop, no Python per decision."""

import numpy as np
from numba import njit

from sim.core import contract
from sim.core.rng import ACTION_HASH_START, fold_action, rand_below, seed_for
from sim.province import constants as K
from sim.province.kernels import (
    ProvinceState,
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
from strategies import search, soak
from strategies.common import bot_address, call_bot
from strategies.province.bots import choose_x


def run_games(x, rng, first_game, n_games, run_seed, seat_idx, codes, params,
              turns, decisions, end_reason, first_player, winner, built, tbuilt, goal, goalin,
              misc, ahash):
    """Play games ``first_game ..`` of run ``run_seed`` into the output arrays.

    x, rng: a ProvinceState's arrays used as scratch (the options and data in ``x`` select the
    rules); seat_idx int64[n_games, 2]: row of ``codes``/``params`` playing each seat;
    outputs int64: turns, decisions, end_reason, first_player, winner (-1 none, 0/1, 2 draw)
    ``[n]``; built (1 first builder, 2 copy), tbuilt (turn built, -1) ``[n, 2, 8]``;
    goal (1 claimed, -1 removed, 0) ``[n, 2, 9]``; goalin ``[n, 9]``;
    misc ``[n, 2, len(MISC_NAMES)]``.
    ahash uint64[n_games]: each game's action-sequence hash
    (sim.core.rng.fold_action over its actions in order).
    Game i uses seed_for(run_seed, i, 0) for chance and seed_for(run_seed, i, 1) for its bots.
    (The compiled loop ``_run_games`` calls the search through the bots' entry point's
    address: sim/core/fnptr.py.)"""
    return _run_games(x, rng, first_game, n_games, run_seed, seat_idx, codes, params, turns,
                      decisions, end_reason, first_player, winner, built, tbuilt, goal, goalin,
                      misc, ahash,
                      bot_address(ProvinceState(x, rng), params))


@njit(cache=True, nogil=True)
def _run_games(x, rng, first_game, n_games, run_seed, seat_idx, codes, params,
              turns, decisions, end_reason, first_player, winner, built, tbuilt, goal, goalin,
              misc, ahash, fn):
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        init_x(x, rng, seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        h = ACTION_HASH_START
        first_player[g] = x[K.M_FIRST]
        while x[K.M_PHASE] != K.PH_OVER:
            mv, lo = legal_bits(x)
            k = seat_idx[g, x[K.M_CUR]]
            if codes[k] == 0:
                # the random bot, legal[rand_below(n)], from the bit sets without listing them
                a = nth_legal(mv, lo, rand_below(brng, count_legal(mv, lo)))
            elif codes[k] == search.SEARCH_CODE:
                n = list_legal(mv, lo, legal)
                a = call_bot(fn, (np.int64(search.SEARCH_CODE), params, np.int64(k),
                                  ProvinceState(x, rng), legal, np.int64(n), brng))
            else:
                n = list_legal(mv, lo, legal)
                a = choose_x(codes[k], params, k, x, legal, n, brng)
            h = fold_action(h, a)
            apply_x(x, rng, np.int32(a))
        turns[g] = x[K.M_TURN]
        decisions[g] = x[K.M_DEC]
        ahash[g] = h
        end_reason[g] = x[K.M_END]
        winner[g] = x[K.M_WIN]
        for i in range(goalin.shape[1]):
            goalin[g, i] = 0
            goal[g, 0, i] = 0
            goal[g, 1, i] = 0
        for i in range(x[K.M_GN]):
            gid = x[K.X_GS + i]
            goalin[g, gid] = 1
            r = x[K.X_GR + i]
            if r == -1:
                goal[g, 0, gid] = -1
                goal[g, 1, gid] = -1
            elif r >= 0:
                goal[g, r, gid] = 1
        for p in range(2):
            vs = 0
            for k in range(K.NS):
                if owns(x, p, k):
                    first = x[K.X_FB + k] == p
                    built[g, p, k] = 1 if first else 2
                    vs += sd(x, k, K.S_VP1) if first else sd(x, k, K.S_VP2)
                else:
                    built[g, p, k] = 0
                tbuilt[g, p, k] = x[K.X_BT + p * K.NS + k]
            sc = score_of(x, p)
            hold = 1 if x[K.M_LHOLDER] == p else 0
            misc[g, p, 0] = sc
            misc[g, p, 1] = owned_count(x, p)
            misc[g, p, 2] = vs
            misc[g, p, 3] = sc - vs + hold * cst(x, K.C_PENALTY)
            misc[g, p, 4] = x[K.X_HIRED + p]
            misc[g, p, 5] = workers_of(x, p)
            misc[g, p, 6] = x[K.X_COINS + p]
            misc[g, p, 7] = x[K.X_ST + p * K.NSTATS + K.ST_MISSED]
            misc[g, p, 8] = x[K.X_ST + p * K.NSTATS + K.ST_TAKES]
            misc[g, p, 9] = x[K.X_ST + p * K.NSTATS + K.ST_STEALS]
            misc[g, p, 10] = hold
            misc[g, p, 11] = x[K.M_DRY]
            misc[g, p, 12] = 1 if (x[K.M_TSEAT] == p + 1 and x[K.M_END] != K.END_LIMIT) else 0


@njit(cache=True)
def play_out_fast(s, code, params, k, rng, max_d):
    """Play the game in ``s`` in place, to its end or ``max_d`` decisions, with bot ``code``
    (row ``k``) in every seat, drawing from ``rng``: the batch loop's body, the search bot's
    playouts (strategies/search.py). Returns the decisions taken."""
    x = s.x
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    d = 0
    while x[K.M_PHASE] != K.PH_OVER and d < max_d:
        mv, lo = legal_bits(x)
        if code == 0:
            a = nth_legal(mv, lo, rand_below(rng, count_legal(mv, lo)))
        else:
            n = list_legal(mv, lo, legal)
            a = choose_x(code, params, k, x, legal, n, rng)
        apply_x(x, s.rng, np.int32(a))
        d += 1
    return d


search.register_playout(ProvinceState, play_out_fast)


@njit(cache=True)
def _soak_chunk(s, s0, first, n_games, run_seed, p_fixed, lo, span, rows, m_rot, codes, params,
               limit, max_bad, bad_idx, bad_code, bad_step, legal, fn):
    """Province's soak loop: ``strategies.soak.soak_chunk`` (same arguments, same games, same
    outputs) on the batch loop's kernels: the legal set from ``legal_bits``/``list_legal``,
    the bots through ``choose_x``, ``apply_x`` on the flat array; the ``invariants`` kernel
    after the set-up and after every decision. Province has 2 seats (``p_fixed``, ``lo`` and
    ``span`` are not read). Returns int64[3]: games played, decisions checked, violations.
    ``fn``: the bots' entry point's address (``soak.taking_the_bots``)."""
    x = s.x
    rng = s.rng
    out = np.zeros(3, np.int64)
    brng = np.empty(1, np.uint64)
    for g in range(n_games):
        i = first + g
        init_x(x, rng, soak.start_game(s0, s, run_seed, i, brng))
        steps = 0
        code = contract.invariants(s)
        while code == 0 and x[K.M_PHASE] != K.PH_OVER:
            mv, lb = legal_bits(x)
            n = list_legal(mv, lb, legal)
            if n == 0:
                code = soak.NO_LEGAL
                break
            k = soak.seat_row(i, x[K.M_CUR], m_rot, rows)
            if codes[k] == search.SEARCH_CODE:
                a = call_bot(fn, (np.int64(search.SEARCH_CODE), params, np.int64(k), s, legal,
                                  np.int64(n), brng))
            else:
                a = choose_x(codes[k], params, k, x, legal, n, brng)
            if not soak.listed(a, legal, n):
                code = soak.ILLEGAL
                break
            apply_x(x, rng, np.int32(a))
            steps += 1
            code = soak.check_step(s, steps, limit)
        if soak.record_violation(out, i, steps, code, max_bad, bad_idx, bad_code, bad_step):
            break
    return out


soak_chunk = soak.taking_the_bots(_soak_chunk)
