"""Go Town's conservation laws as one compiled kernel (the contract hook ``invariants``).

``Game.check_invariants`` (sim/go_town/game.py) calls it and turns a code into its message, so
the laws have one definition, used by the interface, ``state_from_dict`` and the compiled soak.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.contract import implements
from sim.go_town import constants as K
from sim.go_town.kernels import GoTownState

MESSAGES = (
    "a field out of range (player count, deck size, floor count or a card type)",
    "cards not conserved (deck + discard + hands + floors + dogs + milkshakes != the counts)",
    "negative floor or skip count",
)
"""Violation code ``c`` (1-based) means ``MESSAGES[c - 1]``; 0 means every law holds."""


@implements(GoTownState, "invariants")
@njit(cache=True)
def invariants(s):
    """0 if ``s`` keeps Go Town's laws (spec: the 54 cards of the data's counts are all
    somewhere: deck, discard, hands, floors, dogs on floors, milkshakes), else the code of the
    first broken law (``MESSAGES``). Reads only; never indexes out of bounds."""
    n = s.meta[K.M_NP]
    dn = s.meta[K.M_DECKN]
    if n < 1 or n > K.MAXP or dn < 0 or dn > s.deck.shape[0]:
        return 1
    seen = np.zeros(K.NT, np.int64)
    for i in range(dn):
        k = s.deck[i]
        if k < 0 or k >= K.NT:
            return 1
        seen[k] += 1
    for k in range(K.NT):
        seen[k] += s.discard[k]
        for p in range(n):
            seen[k] += s.hands[p, k]
    for p in range(n):
        nf = s.n_floors[p]
        if nf > K.MAXF:
            return 1
        for f in range(nf):
            for j in range(2):
                k = s.floors[p, f, j]
                if k < 0 or k >= K.NT:
                    return 1
                seen[k] += 1
            seen[K.DOG] += s.dogs[p, f]
        seen[K.MILK] += s.milk[p]
    for k in range(K.NT):
        if seen[k] != s.counts[k]:
            return 2
    for p in range(n):
        if s.n_floors[p] < 0 or s.skips[p] < 0:
            return 3
    return 0
