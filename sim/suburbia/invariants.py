"""Suburbia's conservation laws as one compiled kernel (the contract hook ``invariants``).

``Game.check_invariants`` (sim/suburbia/game.py) calls it and turns a code into its message, so
the laws have one definition, used by the interface, ``state_from_dict`` and the compiled soak.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.contract import implements
from sim.suburbia import constants as K
from sim.suburbia.kernels import SuburbiaState

MESSAGES = (
    "a field out of range (player count, pile size, tile count, a tile kind or a cell)",
    "grid and tile list disagree",
    "kind counts out of date",
    "investments out of date",
    "more investments than the investment markers",
    "income or reputation outside -5..15",
    "negative population or money",
    "tiles not conserved (pile, market, discard, box, supply, boroughs, Lakes' sources, "
    "pending, the 1MR set aside)",
    "market not packed right",
    "a pending tile outside the placement phase (or none in it)",
    "a pending tile in the discard phase",
    "the extra phase with more than one player",
)
"""Violation code ``c`` (1-based) means ``MESSAGES[c - 1]``; 0 means every law holds."""


@implements(SuburbiaState, "invariants")
@njit(cache=True)
def invariants(s):
    """0 if ``s`` keeps Suburbia's laws (tiles conserved over the pile, market, discard, box,
    supply, boroughs, Lakes' sources, the pending tile and the 1MR set aside; tracks within
    their limits; boroughs consistent with their grids and counts), else the code of the first
    broken law (``MESSAGES``). Reads only; never indexes out of bounds."""
    n = s.meta[K.M_NP]
    pn = s.meta[K.M_PILEN]
    if n < 1 or n > s.pl.shape[0] or pn < 0 or pn > s.pile.shape[0]:
        return 1
    seen = np.zeros(K.NK, np.int64)
    omr_in_pile = False
    for i in range(pn):
        k = s.pile[i]
        if k < 0 or k >= K.NK:
            return 1
        seen[k] += 1
        if k == K.K_OMR:
            omr_in_pile = True
    for i in range(s.market.shape[0]):
        k = s.market[i]
        if k < 0 or k >= K.NK:
            return 1
        seen[k] += 1
    seen[0] = 0
    for k in range(K.NK):
        seen[k] += s.discard[k] + s.box[k]
    for j in range(3):
        seen[1 + j] += s.supply[j]
    ncell = s.grid.shape[1]
    kc = np.zeros(K.NK, np.int64)
    for p in range(n):
        nt = s.pl[p, K.P_NT]
        if nt < 0 or nt > s.tk.shape[1]:
            return 1
        filled = 0
        for c in range(ncell):
            if s.grid[p, c] > 0:
                filled += 1
        if filled != nt:
            return 2
        kc[:] = 0
        inv = 0
        for t in range(nt):
            k = s.tk[p, t, K.K_KIND]
            c = s.tk[p, t, K.K_CELL]
            if k < 0 or k >= K.NK or c < 0 or c >= ncell:
                return 1
            kc[k] += 1
            if s.grid[p, c] != t + 1:
                return 2
            if k == K.K_LAKE:
                f = s.tk[p, t, K.K_FROM]
                if f < 0 or f >= K.NK:
                    return 1
                seen[f] += 1
            else:
                seen[k] += 1
            inv += s.tk[p, t, K.K_INV]
        for k in range(K.NK):
            if kc[k] != s.kc[p, k]:
                return 3
        if inv != s.pl[p, K.P_NINV]:
            return 4
        if s.pl[p, K.P_NINV] > s.consts[K.C_INVEST]:
            return 5
        if not (-5 <= s.pl[p, K.P_INC] <= 15 and -5 <= s.pl[p, K.P_REP] <= 15):
            return 6
        if s.pl[p, K.P_POP] < 0 or s.pl[p, K.P_MONEY] < 0:
            return 7
    src = s.meta[K.M_PSRC]
    if src == K.SRC_BUY or src == K.SRC_BASIC:
        k = s.meta[K.M_PKIND]
        if k < 0 or k >= K.NK:
            return 1
        seen[k] += 1
    elif src == K.SRC_LAKE:
        k = s.meta[K.M_PFROM]
        if k < 0 or k >= K.NK:
            return 1
        seen[k] += 1
    if not omr_in_pile:
        seen[K.K_OMR] += 1
    seen[K.K_LAKE] = 0
    for k in range(K.NK):
        want = 0 if (k == 0 or k == K.K_LAKE) else s.tiles[k, K.T_COUNT]
        if seen[k] != want:
            return 8
    ph = s.meta[K.M_PHASE]
    if ph == K.PH_ACTION:
        for i in range(s.market.shape[0] - 1):
            if s.market[i] != 0 and s.market[i + 1] == 0:
                return 9
    if (src != K.SRC_NONE) != (ph == K.PH_PLACE):
        return 10
    if ph == K.PH_DISCARD and src != K.SRC_NONE:
        return 11
    if ph == K.PH_EXTRA and n != 1:
        return 12
    return 0
