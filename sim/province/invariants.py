"""Province's conservation laws as one compiled kernel (the contract hook ``invariants``).

``Game.check_invariants`` (sim/province/game.py) calls it and turns a code into its message, so
the laws have one definition, used by the interface, ``state_from_dict`` and the compiled soak.
"""

from __future__ import annotations

from numba import njit

from sim.core.contract import implements
from sim.province import constants as K
from sim.province.kernels import ProvinceState, owned_count, workers_of

MESSAGES = (
    "coins negative or more than coin_total in play",
    "negative labor",
    "a finished game without an end reason",
    "a worker off the cycle's positions -1..2",
    "greens always on the cycle",
    "more sailors than max_sailors or sailors_per_player",
    "sailors hired in order",
    "more structures than structure_tokens",
    "first builder inconsistent with the structures owned",
    "built turn inconsistent with the structures owned",
    "the Camp or Village worker inconsistent with the structures owned",
    "the Lender holder owns no Lender",
    "goal stack counters out of order",
    "goal results inconsistent with the goal stack",
    "goal tokens drawn once",
    "fewer than 3 workers",
)
"""Violation code ``c`` (1-based) means ``MESSAGES[c - 1]``; 0 means every law holds."""


@njit(cache=True)
def _own(x, p, k):
    return x[K.X_OWN + p * K.NS + k]


@implements(ProvinceState, "invariants")
@njit(cache=True)
def invariants(s):
    """0 if ``s`` keeps Province's laws (coins of both seats and the supply add up to
    ``coin_total``, none negative; workers, sailors, structures, first builders, the Lender and
    the goal stack consistent), else the code of the first broken law (``MESSAGES``). Reads
    only; never indexes out of bounds."""
    x = s.x
    total = x[K.X_OPTS + K.O_COIN_TOTAL]
    c0 = x[K.X_COINS]
    c1 = x[K.X_COINS + 1]
    if c0 < 0 or c1 < 0 or c0 + c1 > total:
        return 1
    if x[K.M_LABOR] < 0:
        return 2
    if x[K.M_PHASE] == K.PH_OVER and x[K.M_END] == 0:
        return 3
    for w in range(K.NW):
        if x[K.X_POS + w] < -1 or x[K.X_POS + w] > 2:
            return 4
    for w in range(3):
        if x[K.X_POS + w] < 0:
            return 5
    h0 = x[K.X_HIRED]
    h1 = x[K.X_HIRED + 1]
    pp = x[K.X_CONSTS + K.C_SAILORS_PP]
    if h0 + h1 > x[K.X_CONSTS + K.C_MAX_SAILORS] or h0 > pp or h1 > pp:
        return 6
    for p in range(2):
        for k in range(3):
            on = x[K.X_POS + K.W_SAILOR0 + 3 * p + k] >= 0
            if on != (k < x[K.X_HIRED + p]):
                return 7
        if owned_count(x, p) > x[K.X_CONSTS + K.C_TOKENS]:
            return 8
    for k in range(K.NS):
        f = x[K.X_FB + k]
        own_any = _own(x, 0, k) != 0 or _own(x, 1, k) != 0
        if (f >= 0) != own_any or f > 1:
            return 9
        if f >= 0:
            if _own(x, f, k) != 1:
                return 9
            if _own(x, 1 - f, k) != 0:
                if x[K.X_BT + (1 - f) * K.NS + k] < x[K.X_BT + f * K.NS + k]:
                    return 9
        for p in range(2):
            if (x[K.X_BT + p * K.NS + k] >= 0) != (_own(x, p, k) != 0):
                return 10
    if (x[K.X_POS + 3] >= 0) != (_own(x, 0, 2) != 0 or _own(x, 1, 2) != 0):
        return 11
    if (x[K.X_POS + 4] >= 0) != (_own(x, 0, 3) != 0 or _own(x, 1, 3) != 0):
        return 11
    lh = x[K.M_LHOLDER]
    if lh < -1 or lh > 1:
        return 12
    if lh >= 0 and _own(x, lh, 0) != 1:
        return 12
    gn = x[K.M_GN]
    nx = x[K.M_GNEXT]
    if gn > K.MAXG or nx < 0 or nx > gn:
        return 13
    for i in range(nx):
        r = x[K.X_GR + i]
        if r < -1 or r > 1:
            return 14
    for i in range(nx, gn):
        if x[K.X_GR + i] != -2:
            return 14
    for i in range(gn):
        for j in range(i):
            if x[K.X_GS + i] == x[K.X_GS + j]:
                return 15
    for p in range(2):
        if workers_of(x, p) < 3:
            return 16
    return 0
