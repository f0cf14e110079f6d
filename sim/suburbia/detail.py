"""What Suburbia records per seat of a finished game (docs/games/suburbia.md §13): the detail
columns of ``run_chunk`` and the kernel that fills one seat's row."""

from numba import njit

from sim.core.components import slug
from sim.suburbia import constants as K
from sim.suburbia.data import GOAL_NAMES, TILE_NAMES

# seat detail columns (docs/games/suburbia.md §13), in the order detail_row writes them
D_TILE, D_INVEST, D_TURN, D_OFFERED, D_GOAL = 0, 50, 101, 151, 198
MISC = ("private_goal", "final_income", "final_reputation", "track_pop", "goals_pop", "money_pop",
        "money_end", "redlines_up", "redlines_down", "investments", "lakes", "tiles_placed",
        "n_R", "n_C", "n_I", "n_V",
        # rule holes (issue 16): the first two from the seat's row, the rest from the batch loop
        # (strategies/suburbia/batch.py); docs §13
        "pop_lost_unpaid", "debt_forgiven", "passes", "dry_turns", "market_dry_round",
        "market_min")
D_MISC = 218
# the columns the batch loop writes after detail_row (issue 16 rule holes; docs §13)
D_PASSES, D_DRY_TURNS, D_DRY_ROUND, D_MARKET_MIN = (D_MISC + 18, D_MISC + 19, D_MISC + 20,
                                                    D_MISC + 21)
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
    np_ = meta[K.M_NP]
    for t in range(pl[p, K.P_NT]):
        k = tk[p, t, K.K_KIND]
        turn = tk[p, t, K.K_TURN]
        if tk[p, t, K.K_INV] == 1:
            detail[g, p, D_INVEST + k - 1] = 1
        if turn == 0 or k == K.K_LAKE:
            continue
        detail[g, p, D_TILE + k - 1] = 1
        rnd = (turn - 1) // np_ + 1
        if detail[g, p, D_TURN + k - 1] == 0 or rnd < detail[g, p, D_TURN + k - 1]:
            detail[g, p, D_TURN + k - 1] = rnd
    # offered: some tile of the kind left the box and the pile (the pile counted in one pass)
    for k in range(4, 51):
        detail[g, p, D_OFFERED + k - 4] = tiles[k, K.T_COUNT] - box[k]
    for i in range(meta[K.M_PILEN]):
        k = pile[i]
        if 4 <= k and k <= 50:
            detail[g, p, D_OFFERED + k - 4] -= 1
    for k in range(4, 51):
        detail[g, p, D_OFFERED + k - 4] = 1 if detail[g, p, D_OFFERED + k - 4] > 0 else 0
    for q in range(K.NG):
        detail[g, p, D_GOAL + q] = -1
    for i in range(gpub.shape[0]):
        if gpub[i] >= 0:
            detail[g, p, D_GOAL + gpub[i]] = 0
    if gpriv[p] >= 0:
        detail[g, p, D_GOAL + gpriv[p]] = 0
    for q in range(K.NG):
        if (pl[p, K.P_GOALBITS] >> q) & 1:
            detail[g, p, D_GOAL + q] = 1
    m = D_MISC
    detail[g, p, m] = gpriv[p]
    detail[g, p, m + 1] = pl[p, K.P_INC]
    detail[g, p, m + 2] = pl[p, K.P_REP]
    detail[g, p, m + 3] = pl[p, K.P_POP] - pl[p, K.P_GOALPOP] - pl[p, K.P_MONEYPOP]
    detail[g, p, m + 4] = pl[p, K.P_GOALPOP]
    detail[g, p, m + 5] = pl[p, K.P_MONEYPOP]
    detail[g, p, m + 6] = pl[p, K.P_MONEY] + 5 * pl[p, K.P_MONEYPOP]
    detail[g, p, m + 7] = pl[p, K.P_RLUP]
    detail[g, p, m + 8] = pl[p, K.P_RLDOWN]
    detail[g, p, m + 9] = pl[p, K.P_NINV]
    detail[g, p, m + 10] = kc[p, K.K_LAKE]
    detail[g, p, m + 11] = pl[p, K.P_NT] - 3
    for k in range(1, K.K_LAKE):
        cls = tiles[k, K.T_CLS]
        if cls & K.R:
            detail[g, p, m + 12] += kc[p, k]
        if cls & K.C:
            detail[g, p, m + 13] += kc[p, k]
        if cls & K.I:
            detail[g, p, m + 14] += kc[p, k]
        if cls & K.V:
            detail[g, p, m + 15] += kc[p, k]
    detail[g, p, m + 16] = pl[p, K.P_UNPAID]
    detail[g, p, m + 17] = pl[p, K.P_FORGIVEN]
