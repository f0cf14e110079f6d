"""Little Town batch playouts: many games in one compiled loop, no Python per decision."""

import numpy as np
from numba import njit

from sim.core.rng import seed_for
from sim.little_town.constants import (
    M_BANK_MIN,
    M_CUR,
    M_DEC,
    M_END,
    M_FIRST,
    M_NGOALS,
    M_NLEGAL,
    M_PHASE,
    M_TURNS_TOTAL,
    MK_START,
    N_STATS,
    NB,
    NCARD,
    PH_OVER,
    SB_ACT_OTH,
    SB_ACT_OWN,
    SB_BROUND,
    SB_BUILT,
    SB_PICK,
    SE_COINS,
    SE_GDONE,
    SE_GOALS,
    SE_SCORE,
    SE_STATS,
)
from sim.little_town.kernels import apply_arrays, init_arrays
from strategies.little_town.bots import FBUF_SIZE, choose_arrays


@njit(cache=True, nogil=True)
def run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, first_player, score, detail):
    """Play games ``first_game ..`` of run ``run_seed`` into the output arrays.

    s: a LittleTownState used as scratch (its opts and data arrays select rules and data);
    seat_idx int64[n_games, n_players]: row of ``codes``/``params`` playing each seat;
    outputs: turns, decisions, end_reason, first_player int64[n_games];
    score int64[n_games, n_players]; detail int64[n_games, n_players, K] in the column order of
    ``LittleTown.seat_detail`` (docs/games/little_town.md §12).
    Game i uses seed_for(run_seed, i, 0) for chance and seed_for(run_seed, i, 1) for its bots.
    """
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
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        init_arrays(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt,
                    legal, n_players, seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        first_player[g] = meta[M_FIRST]
        while meta[M_PHASE] != PH_OVER:
            k = seat_idx[g, meta[M_CUR]]
            a = choose_arrays(codes[k], params[k], meta, opts, bdata, gdata, geo, consts, cells,
                              seat, mkt, legal, meta[M_NLEGAL], brng, fbuf)
            apply_arrays(meta, rng, opts, bdata, gdata, geo, consts, cells, seat, sb, piles, mkt,
                         legal, a)
        turns[g] = meta[M_TURNS_TOTAL]
        decisions[g] = meta[M_DEC]
        end_reason[g] = meta[M_END]
        for p in range(n_players):
            score[g, p] = seat[p, SE_SCORE]
            for b in range(NB):
                detail[g, p, b] = sb[p, SB_BUILT, b]
                detail[g, p, NB + b] = sb[p, SB_BROUND, b]
                detail[g, p, 2 * NB + b] = sb[p, SB_ACT_OWN, b]
                detail[g, p, 3 * NB + b] = sb[p, SB_ACT_OTH, b]
                detail[g, p, 4 * NB + b] = 1 if mkt[MK_START, b] > 0 else 0
                detail[g, p, 5 * NB + b] = sb[p, SB_PICK, b]
            o = 6 * NB
            for c in range(1, NCARD):
                detail[g, p, o + c - 1] = -1
                detail[g, p, o + NCARD - 1 + c - 1] = 0
            for j in range(meta[M_NGOALS]):
                c = seat[p, SE_GOALS + j]
                if c > 0:
                    detail[g, p, o + c - 1] = 1 if seat[p, SE_GDONE + j] > 0 else 0
                    detail[g, p, o + NCARD - 1 + c - 1] = seat[p, SE_GDONE + j]
            o += 2 * (NCARD - 1)
            for i in range(N_STATS):
                detail[g, p, o + i] = seat[p, SE_STATS + i]
            detail[g, p, o + N_STATS] = seat[p, SE_COINS]
            detail[g, p, o + N_STATS + 1] = meta[M_BANK_MIN]
