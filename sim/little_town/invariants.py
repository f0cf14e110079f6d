"""Little Town's conservation laws as one compiled kernel (the contract hook ``invariants``).

``Game.check_invariants`` (sim/little_town/game.py) calls it and turns a code into its message,
so the laws have one definition, used by the interface, ``state_from_dict`` and the compiled
soak.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.contract import implements
from sim.little_town import constants as K
from sim.little_town.kernels import LittleTownState

MESSAGES = (
    "a field out of range (player count, pending building or a building id on the board)",
    "cubes not conserved (supply + players != supply_per_resource per type)",
    "negative cubes in the supply or a seat",
    "coins not conserved (bank + players != coin_total)",
    "negative coins",
    "houses not conserved (on the board + in hand != the houses per player)",
    "workers not conserved (on the board + on site != workers used)",
    "more workers used than a player has",
    "tiles not conserved (on the board + pending + market > the building's count)",
    "wheat fields not conserved (on the board + market != their count)",
    "a building without an owner or an owner without a building",
    "score is not the sum of its parts",
)
"""Violation code ``c`` (1-based) means ``MESSAGES[c - 1]``; 0 means every law holds."""


@implements(LittleTownState, "invariants")
@njit(cache=True)
def invariants(s):
    """0 if ``s`` keeps Little Town's laws (docs/games/little_town.md §11: cubes per type and
    coins, supply or bank plus players; houses, workers, tiles; the score equals the sum of its
    parts), else the code of the first broken law (``MESSAGES``). Reads only; never indexes out
    of bounds."""
    n = s.meta[K.M_NP]
    if n < 1 or n > s.seat.shape[0]:
        return 1
    for r in range(4):
        t = s.meta[K.M_SUPPLY + r]
        for p in range(n):
            t += s.seat[p, K.SE_CUBES + r]
        if t != s.consts[K.C_SUPPLY]:
            return 2
    for r in range(4):
        if s.meta[K.M_SUPPLY + r] < 0:
            return 3
        for p in range(n):
            if s.seat[p, K.SE_CUBES + r] < 0:
                return 3
    coins = s.meta[K.M_BANK]
    for p in range(n):
        coins += s.seat[p, K.SE_COINS]
    if coins != s.consts[K.C_COIN_TOTAL]:
        return 4
    for p in range(n):
        if s.seat[p, K.SE_COINS] < 0:
            return 5
    owned = np.zeros(4, np.int64)
    on_board = np.zeros(4, np.int64)
    placed = np.zeros(K.NB, np.int64)
    for c in range(K.NCELL):
        o = s.cells[K.CE_OWN, c]
        if 0 <= o < n:
            owned[o] += 1
        w = s.cells[K.CE_WRK, c]
        if 0 <= w < n:
            on_board[w] += 1
        b = s.cells[K.CE_BLD, c]
        if b >= K.NB:
            return 1
        if b >= 0:
            placed[b] += 1
    for p in range(n):
        if owned[p] + s.seat[p, K.SE_HOUSES] != s.meta[K.M_HOUSES]:
            return 6
    for p in range(n):
        if on_board[p] + s.seat[p, K.SE_ONSITE] != s.seat[p, K.SE_WUSED]:
            return 7
    for p in range(n):
        if s.seat[p, K.SE_WUSED] > s.meta[K.M_WORKERS]:
            return 8
    pend = s.meta[K.M_PENDING]
    if pend >= K.NB:
        return 1
    if pend >= 0:
        placed[pend] += 1  # bought, not yet sited
    for b in range(K.NB):
        if placed[b] + s.mkt[K.MK_MARKET, b] > s.bdata[b, K.BD_COUNT]:
            return 9
    if placed[0] + s.mkt[K.MK_MARKET, 0] != s.bdata[0, K.BD_COUNT]:
        return 10
    for c in range(K.NCELL):
        if (s.cells[K.CE_BLD, c] >= 0) != (s.cells[K.CE_OWN, c] >= 0):
            return 11
    for p in range(n):
        t = 0
        for j in range(K.SE_STATS + 9, K.SE_STATS + K.N_STATS):  # vp_build .. vp_unfed
            t += s.seat[p, j]
        if t != s.seat[p, K.SE_SCORE]:
            return 12
    return 0
