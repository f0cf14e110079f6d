"""Suburbia batch playouts: many games in one compiled loop, no Python per decision."""

import re

import numpy as np
from numba import njit

from sim.core.bits import nth_bit, popcount
from sim.core.rng import rand_below, seed_for
from sim.suburbia.constants import (
    A_PLACE,
    K_INV,
    K_KIND,
    K_LAKE,
    K_TURN,
    M_DEC,
    M_END,
    M_NP,
    M_PHASE,
    M_PILEN,
    M_TURN,
    MAXP,
    NG,
    NK,
    NUM_ACTIONS,
    P_GOALBITS,
    P_GOALPOP,
    P_INC,
    P_MONEY,
    P_MONEYPOP,
    P_NINV,
    P_NT,
    P_POP,
    P_REP,
    P_RLDOWN,
    P_RLUP,
    PH_ACTION,
    PH_OVER,
    PH_PLACE,
    T_CLS,
    T_COUNT,
    C,
    I,
    R,
    V,
)
from sim.suburbia.data import GOAL_NAMES, TILE_NAMES
from sim.suburbia.kernels import (
    NKT,
    NPD,
    action_bits,
    apply_arrays,
    frontier_count,
    frontier_nth,
    init_arrays,
    init_scratch_size,
    kind_tables,
    legal_actions_arrays,
)
from strategies.suburbia import CELLS, WORK, choose_arrays


def slug(name: str) -> str:
    """``"Bed & Breakfast"`` -> ``"bed_breakfast"`` (column names of the results table)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


# seat detail columns (docs/games/suburbia.md §13), in the order detail_row writes them
D_TILE, D_INVEST, D_TURN, D_OFFERED, D_GOAL = 0, 50, 101, 151, 198
MISC = ("private_goal", "final_income", "final_reputation", "track_pop", "goals_pop", "money_pop",
        "money_end", "redlines_up", "redlines_down", "investments", "lakes", "tiles_placed",
        "n_R", "n_C", "n_I", "n_V")
D_MISC = 218
DETAIL_NAMES = (
    tuple(f"tile_{slug(TILE_NAMES[k])}" for k in range(1, 51))
    + tuple(f"invest_{slug(TILE_NAMES[k])}" for k in range(1, 52))
    + tuple(f"turn_{slug(TILE_NAMES[k])}" for k in range(1, 51))
    + tuple(f"offered_{slug(TILE_NAMES[k])}" for k in range(4, 51))
    + tuple(f"goal_{slug(n)}" for n in GOAL_NAMES)
    + MISC
)
N_DETAIL = len(DETAIL_NAMES)
assert N_DETAIL == D_MISC + len(MISC)


@njit(cache=True, _nrt=False)
def detail_row(meta, tiles, pile, box, gpub, gpriv, pl, tk, kc, p, detail, g):
    """Seat ``p``'s detail columns (docs §13) of a finished game into ``detail[g, p]``."""
    for j in range(N_DETAIL):
        detail[g, p, j] = 0
    np_ = meta[M_NP]
    for t in range(pl[p, P_NT]):
        k = tk[p, t, K_KIND]
        turn = tk[p, t, K_TURN]
        if tk[p, t, K_INV] == 1:
            detail[g, p, D_INVEST + k - 1] = 1
        if turn == 0 or k == K_LAKE:
            continue
        detail[g, p, D_TILE + k - 1] = 1
        rnd = (turn - 1) // np_ + 1
        if detail[g, p, D_TURN + k - 1] == 0 or rnd < detail[g, p, D_TURN + k - 1]:
            detail[g, p, D_TURN + k - 1] = rnd
    # offered: some tile of the kind left the box and the pile (the pile counted in one pass)
    for k in range(4, 51):
        detail[g, p, D_OFFERED + k - 4] = tiles[k, T_COUNT] - box[k]
    for i in range(meta[M_PILEN]):
        k = pile[i]
        if 4 <= k and k <= 50:
            detail[g, p, D_OFFERED + k - 4] -= 1
    for k in range(4, 51):
        detail[g, p, D_OFFERED + k - 4] = 1 if detail[g, p, D_OFFERED + k - 4] > 0 else 0
    for q in range(NG):
        detail[g, p, D_GOAL + q] = -1
    for i in range(gpub.shape[0]):
        if gpub[i] >= 0:
            detail[g, p, D_GOAL + gpub[i]] = 0
    if gpriv[p] >= 0:
        detail[g, p, D_GOAL + gpriv[p]] = 0
    for q in range(NG):
        if (pl[p, P_GOALBITS] >> q) & 1:
            detail[g, p, D_GOAL + q] = 1
    m = D_MISC
    detail[g, p, m] = gpriv[p]
    detail[g, p, m + 1] = pl[p, P_INC]
    detail[g, p, m + 2] = pl[p, P_REP]
    detail[g, p, m + 3] = pl[p, P_POP] - pl[p, P_GOALPOP] - pl[p, P_MONEYPOP]
    detail[g, p, m + 4] = pl[p, P_GOALPOP]
    detail[g, p, m + 5] = pl[p, P_MONEYPOP]
    detail[g, p, m + 6] = pl[p, P_MONEY] + 5 * pl[p, P_MONEYPOP]
    detail[g, p, m + 7] = pl[p, P_RLUP]
    detail[g, p, m + 8] = pl[p, P_RLDOWN]
    detail[g, p, m + 9] = pl[p, P_NINV]
    detail[g, p, m + 10] = kc[p, K_LAKE]
    detail[g, p, m + 11] = pl[p, P_NT] - 3
    for k in range(1, K_LAKE):
        cls = tiles[k, T_CLS]
        if cls & R:
            detail[g, p, m + 12] += kc[p, k]
        if cls & C:
            detail[g, p, m + 13] += kc[p, k]
        if cls & I:
            detail[g, p, m + 14] += kc[p, k]
        if cls & V:
            detail[g, p, m + 15] += kc[p, k]


@njit(cache=True, nogil=True)
def run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, keys, detail):
    """Play games ``first_game ..`` of run ``run_seed`` into the output arrays.

    s: a SuburbiaState used as scratch (its opts and data select the rules);
    seat_idx int64[n_games, n_players]: row of ``codes``/``params`` playing each seat;
    outputs: turns, decisions, end_reason int64[n_games]; keys int64[n_games, n_players, 4]
    (population, reputation, income, money: the ranking keys); detail
    int64[n_games, n_players, N_DETAIL]. Game i uses seed_for(run_seed, i, 0) for chance and
    seed_for(run_seed, i, 1) for its bots.
    """
    meta = s.meta
    rng = s.rng
    opts = s.opts
    tiles = s.tiles
    goals = s.goals
    lines = s.lines
    consts = s.consts
    geo = s.geo
    pile = s.pile
    market = s.market
    discard = s.discard
    box = s.box
    supply = s.supply
    gpub = s.gpub
    goffer = s.goffer
    gpriv = s.gpriv
    pl = s.pl
    tk = s.tk
    grid = s.grid
    kc = s.kc
    # derived arrays (kernels.py): kind tables for the chunk, seat rows kept by the kernels
    kt = np.zeros((NK, NKT), np.int64)
    pd = np.zeros((MAXP, NPD), np.int64)
    kind_tables(opts, tiles, goals, kt)
    work = np.empty(init_scratch_size(tiles), np.int64)
    legal = np.empty(NUM_ACTIONS, np.int32)
    cells = np.zeros(CELLS, np.int64)
    w = np.zeros(WORK, np.float64)
    brng = np.empty(1, np.uint64)
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        init_arrays(meta, rng, opts, tiles, goals, lines, consts, geo, pile, market, discard,
                    box, supply, gpub, goffer, gpriv, pl, tk, grid, kc, kt, pd, work, n_players,
                    seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        while meta[M_PHASE] != PH_OVER:
            c = meta[1]
            k = seat_idx[g, c]
            ph = meta[M_PHASE]
            if codes[k] == 0 and ph == PH_PLACE:
                # the random bot, legal[rand_below(n)], from the frontier bits without a list
                a = A_PLACE + frontier_nth(pd, c, rand_below(brng, frontier_count(pd, c)))
            elif codes[k] == 0 and ph == PH_ACTION:
                # the same from the bit set of the action step
                m = action_bits(tiles, consts, market, supply, pl, tk, pd, c)
                a = nth_bit(m, rand_below(brng, popcount(m)))
            else:
                n = legal_actions_arrays(meta, opts, tiles, consts, market, supply, pl, tk, pd,
                                         legal)
                if codes[k] == 0:
                    a = legal[rand_below(brng, n)]
                else:
                    a = choose_arrays(codes[k], params, k, meta, opts, tiles, goals, lines,
                                      consts, geo, market, supply, gpub, goffer, gpriv, pl, tk,
                                      grid, kc, kt, pd, legal, n, brng, cells, w)
            apply_arrays(meta, rng, opts, tiles, goals, lines, consts, geo, pile, market,
                         discard, box, supply, gpub, goffer, gpriv, pl, tk, grid, kc, kt, pd, a)
        turns[g] = meta[M_TURN]
        decisions[g] = meta[M_DEC]
        end_reason[g] = meta[M_END]
        for p in range(n_players):
            keys[g, p, 0] = pl[p, P_POP]
            keys[g, p, 1] = pl[p, P_REP]
            keys[g, p, 2] = pl[p, P_INC]
            keys[g, p, 3] = pl[p, P_MONEY]
            detail_row(meta, tiles, pile, box, gpub, gpriv, pl, tk, kc, p, detail, g)
