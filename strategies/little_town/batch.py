"""Little Town batch playouts: many games in one compiled loop, no Python per decision."""

import numpy as np
from numba import njit

from sim.core import contract
from sim.core.rng import ACTION_HASH_START, fold_action, seed_for
from sim.little_town import constants as K
from sim.little_town.kernels import LittleTownState, apply_arrays, init_arrays
from strategies import search, soak
from strategies.common import bot_address, call_bot
from strategies.little_town.bots import FBUF_SIZE, choose_arrays


@njit(cache=True)
def state_arrays(s):
    """The arrays of ``s`` in the order the kernels take them (meta, rng, opts, bdata, gdata,
    geo, consts, cells, seat, sb, piles, mkt, scratch), bound once per chunk: a loop that
    passes ``s.<field>`` at every call pays a reference count per array and call."""
    return (s.meta, s.rng, s.opts, s.bdata, s.gdata, s.geo, s.consts, s.cells, s.seat, s.sb,
            s.piles, s.mkt, s.scratch)


def run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, first_player, score, detail, ahash):
    """Play games ``first_game ..`` of run ``run_seed`` into the output arrays.

    s: a LittleTownState used as scratch (its opts and data arrays select rules and data);
    seat_idx int64[n_games, n_players]: row of ``codes``/``params`` playing each seat;
    outputs: turns, decisions, end_reason, first_player int64[n_games];
    score int64[n_games, n_players]; detail int64[n_games, n_players, K] in the column order of
    ``LittleTown.seat_detail`` (docs/games/little_town.md §12).
    ahash uint64[n_games]: each game's action-sequence hash
    (sim.core.rng.fold_action over its actions in order).
    Game i uses seed_for(run_seed, i, 0) for chance and seed_for(run_seed, i, 1) for its bots.
    (The compiled loop ``_run_games`` calls the search through the bots' entry point's
    address: sim/core/fnptr.py.)"""
    return _run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params, turns,
                      decisions, end_reason, first_player, score, detail, ahash,
                      bot_address(s, params))


@njit(cache=True, nogil=True)
def _run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, first_player, score, detail, ahash, fn):
    meta = s.meta
    rng = s.rng
    opts = s.opts
    bdata = s.bdata
    gdata = s.gdata
    geo = s.geo
    consts = s.consts
    cells = s.cells
    seat = s.seat
    sb = s.sb
    piles = s.piles
    mkt = s.mkt
    legal = s.scratch
    brng = np.empty(1, np.uint64)
    fbuf = np.empty(FBUF_SIZE, np.float64)
    sup_out = np.zeros(4, np.int64)
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        init_arrays(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt,
                    legal, n_players, seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        h = ACTION_HASH_START
        first_player[g] = meta[K.M_FIRST]
        # recorded only (issue 16 rule holes, docs §12): the round in which each cube type's
        # supply first stood at 0 after an action (0 = never)
        for t in range(4):
            sup_out[t] = 0
        while meta[K.M_PHASE] != K.PH_OVER:
            k = seat_idx[g, meta[K.M_CUR]]
            if codes[k] == search.SEARCH_CODE:
                a = call_bot(fn, (np.int64(search.SEARCH_CODE), params, np.int64(k), s, legal,
                                  np.int64(meta[K.M_NLEGAL]), brng))
            else:
                a = choose_arrays(codes[k], params[k], meta, opts, bdata, gdata, geo, consts,
                                  cells, seat, mkt, legal, meta[K.M_NLEGAL], brng, fbuf)
            h = fold_action(h, a)
            rnd = meta[K.M_ROUND]
            apply_arrays(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt,
                         legal, np.int32(a))
            for t in range(4):
                if sup_out[t] == 0 and meta[K.M_SUPPLY + t] == 0:
                    sup_out[t] = rnd
        turns[g] = meta[K.M_TURNS_TOTAL]
        decisions[g] = meta[K.M_DEC]
        ahash[g] = h
        end_reason[g] = meta[K.M_END]
        for p in range(n_players):
            score[g, p] = seat[p, K.SE_SCORE]
            for b in range(K.NB):
                detail[g, p, b] = sb[p, K.SB_BUILT, b]
                detail[g, p, K.NB + b] = sb[p, K.SB_BROUND, b]
                detail[g, p, 2 * K.NB + b] = sb[p, K.SB_ACT_OWN, b]
                detail[g, p, 3 * K.NB + b] = sb[p, K.SB_ACT_OTH, b]
                detail[g, p, 4 * K.NB + b] = 1 if mkt[K.MK_START, b] > 0 else 0
                detail[g, p, 5 * K.NB + b] = sb[p, K.SB_PICK, b]
            o = 6 * K.NB
            for c in range(1, K.NCARD):
                detail[g, p, o + c - 1] = -1
                detail[g, p, o + K.NCARD - 1 + c - 1] = 0
            for j in range(meta[K.M_NGOALS]):
                c = seat[p, K.SE_GOALS + j]
                if c > 0:
                    detail[g, p, o + c - 1] = 1 if seat[p, K.SE_GDONE + j] > 0 else 0
                    detail[g, p, o + K.NCARD - 1 + c - 1] = seat[p, K.SE_GDONE + j]
            o += 2 * (K.NCARD - 1)
            for i in range(K.N_STATS):
                detail[g, p, o + i] = seat[p, K.SE_STATS + i]
            detail[g, p, o + K.N_STATS] = seat[p, K.SE_COINS]
            detail[g, p, o + K.N_STATS + 1] = meta[K.M_BANK_MIN]
            for t in range(4):
                detail[g, p, o + K.N_STATS + 2 + t] = sup_out[t]


@njit(cache=True)
def play_out_fast(s, code, params, k, rng, max_d):
    """Play the game in ``s`` in place, to its end or ``max_d`` decisions, with bot ``code``
    (row ``k``) in every seat, drawing from ``rng``: the batch loop's body, the search bot's
    playouts (strategies/search.py). Returns the decisions taken."""
    meta = s.meta
    fbuf = np.empty(FBUF_SIZE, np.float64)
    d = 0
    while meta[K.M_PHASE] != K.PH_OVER and d < max_d:
        a = choose_arrays(code, params[k], meta, s.opts, s.bdata, s.gdata, s.geo, s.consts,
                          s.cells, s.seat, s.mkt, s.scratch, meta[K.M_NLEGAL], rng, fbuf)
        apply_arrays(meta, s.rng, s.opts, s.bdata, s.gdata, s.geo, s.consts, s.cells, s.seat,
                     s.sb, s.piles, s.mkt, s.scratch, np.int32(a))
        d += 1
    return d


search.register_playout(LittleTownState, play_out_fast)


@njit(cache=True)
def _soak_chunk(s, s0, first, n_games, run_seed, p_fixed, lo, span, rows, m_rot, codes, params,
               limit, max_bad, bad_idx, bad_code, bad_step, legal, fn):
    """Little Town's soak loop: ``strategies.soak.soak_chunk`` (same arguments, same games, same
    outputs) on the batch loop's kernels: ``init_arrays``/``apply_arrays`` keep the legal set
    in ``s.scratch`` (``meta[M_NLEGAL]`` of them, what ``run_games`` plays; ``legal`` is not
    read), the bots through ``choose_arrays``; the ``invariants`` kernel after the set-up and
    after every decision. Returns int64[3]: games played, decisions checked, violations.
    ``fn``: the bots' entry point's address (``soak.taking_the_bots``)."""
    meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt, lg = state_arrays(s)
    out = np.zeros(3, np.int64)
    brng = np.empty(1, np.uint64)
    fbuf = np.empty(FBUF_SIZE, np.float64)
    for g in range(n_games):
        i = first + g
        seed = soak.start_game(s0, s, run_seed, i, brng)
        init_arrays(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt,
                    lg, soak.players_of(i, p_fixed, lo, span), seed)
        steps = 0
        code = contract.invariants(s)
        while code == 0 and meta[K.M_PHASE] != K.PH_OVER:
            n = meta[K.M_NLEGAL]
            if n == 0:
                code = soak.NO_LEGAL
                break
            k = soak.seat_row(i, meta[K.M_CUR], m_rot, rows)
            if codes[k] == search.SEARCH_CODE:
                a = call_bot(fn, (np.int64(search.SEARCH_CODE), params, np.int64(k), s, lg,
                                  np.int64(n), brng))
            else:
                a = choose_arrays(codes[k], params[k], meta, opts, bdata, gdata, geo, consts,
                                  cells, seat, mkt, lg, n, brng, fbuf)
            if not soak.listed(a, lg, n):
                code = soak.ILLEGAL
                break
            apply_arrays(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt,
                         lg, np.int32(a))
            steps += 1
            code = soak.check_step(s, steps, limit)
        if soak.record_violation(out, i, steps, code, max_bad, bad_idx, bad_code, bad_step):
            break
    return out


soak_chunk = soak.taking_the_bots(_soak_chunk)
