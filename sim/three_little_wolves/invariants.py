"""The Three Little Wolves' conservation laws as one compiled kernel (the contract hook
``invariants``).

``Game.check_invariants`` (sim/three_little_wolves/game.py) calls it and turns a code into its
message, so the laws have one definition, used by the interface, ``state_from_dict`` and the
compiled soak.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.contract import implements
from sim.three_little_wolves import constants as K
from sim.three_little_wolves.kernels import TLWState

MESSAGES = (
    "a field out of range (a count, a card id, a colour or a wolf seat)",
    "hand not ascending",
    "committed card neither in hand nor discarded",
    "house gap",
    "floors not ascending",
    "basements not ascending",
    "basement above 3",
    "unassigned house with coloured cards",
    "house with cards of another colour",
    "two houses of one colour",
    "cards not conserved (each of the 59 cards in exactly one place)",
    "wolf not conserved (wolves on houses != wolves used)",
    "pig tokens not conserved",
    "a wolf of a value that is not a wolf face",
)
"""Violation code ``c`` (1-based) means ``MESSAGES[c - 1]``; 0 means every law holds."""


@implements(TLWState, "invariants")
@njit(cache=True)
def invariants(s):
    """0 if ``s`` keeps the game's laws (docs/games/three_little_wolves.md §9: each of the 59
    cards in exactly one place; each wolf unused or on one house; pig tokens placed + left +
    lost = the three tokens; houses well formed), else the code of the first broken law
    (``MESSAGES``). A committed card may already be in the discard pile: a wolf bet with it in
    the 2-player end phase (spec §5.4) discards it while the commitment is still recorded.
    Reads only; never indexes out of bounds."""
    meta = s.meta
    n = meta[K.M_NP]
    n_own = meta[K.M_NOWN]
    dn = meta[K.M_DECKN]
    if n < 1 or n > K.MAXP or n_own < 0 or n_own > K.MAXO or dn < 0 or dn > K.NCARD:
        return 1
    seen = np.zeros(K.NCARD, np.int64)
    for i in range(dn):
        c = s.deck[i]
        if c < 0 or c >= K.NCARD:
            return 1
        seen[c] += 1
    for p in range(n):
        hn = s.seat[p, K.S_HN]
        if hn < 0 or hn > s.hands.shape[1]:
            return 1
        for i in range(hn):
            c = s.hands[p, i]
            if c < 0 or c >= K.NCARD:
                return 1
            seen[c] += 1
            if i > 0 and s.hands[p, i] <= s.hands[p, i - 1]:
                return 2
        ps = s.seat[p, K.S_PASS]
        if ps >= K.NCARD:
            return 1
        if ps >= 0:
            seen[ps] += 1
        cm = s.seat[p, K.S_COMMIT]
        if cm >= K.NCARD:
            return 1
        if cm >= 0:
            inhand = False
            for i in range(hn):
                if s.hands[p, i] == cm:
                    inhand = True
            if not inhand and s.discard[cm] == 0:
                return 3
    for c in range(K.NCARD):
        seen[c] += s.discard[c]
    npig = meta[K.M_NPIGS]
    if npig < 0 or npig > 3:
        return 1
    for i in range(npig):
        c = s.pigs[i]
        if c < 0 or c >= K.NCARD:
            return 1
        seen[c] += 1
    dc = meta[K.M_DCARD]
    if dc >= K.NCARD:
        return 1
    if dc >= 0:
        seen[dc] += 1
    wolves = np.zeros((4, 3), np.int64)
    placed = np.zeros(3 * K.MAXO + 3, np.int64)
    n_placed = 0
    for o in range(n_own):
        colours = 0  # bit set of the assigned house colours of owner o
        for h in range(K.MAXH):
            nf = s.hs[o, h, K.H_NF]
            nb = s.hs[o, h, K.H_NB]
            if nf == 0:
                for g in range(h, K.MAXH):
                    if s.hs[o, g, K.H_NF] != 0:
                        return 4
                break
            if nf < 0 or nf > K.MAXF or nb < 0 or nb > s.hb.shape[2]:
                return 1
            cols = 0  # bit set of the card colours but white
            for i in range(nf + nb):
                c = s.hf[o, h, i] if i < nf else s.hb[o, h, i - nf]
                if c < 0 or c >= K.NCARD:
                    return 1
                seen[c] += 1
                col = s.cards[c, K.K_COL]
                if col < 0 or col > 62:
                    return 1
                if col != 3:
                    cols |= 1 << col
            for i in range(1, nf):
                if s.cards[s.hf[o, h, i], K.K_NUM] <= s.cards[s.hf[o, h, i - 1], K.K_NUM]:
                    return 5
            for i in range(1, nb):
                if s.cards[s.hb[o, h, i], K.K_NUM] <= s.cards[s.hb[o, h, i - 1], K.K_NUM]:
                    return 6
            for i in range(nb):
                if s.cards[s.hb[o, h, i], K.K_NUM] > 3:
                    return 7
            col = s.hs[o, h, K.H_COL]
            if col == K.UNASSIGNED:
                if cols != 0:
                    return 8
            else:
                if col < 0 or col > 62:
                    return 1
                if cols & ~(1 << col):
                    return 9
                if colours & (1 << col):
                    return 10
                colours |= 1 << col
            if s.hs[o, h, K.H_PIG] != 0:
                placed[n_placed] = s.hs[o, h, K.H_PIG]
                n_placed += 1
            nw = s.hs[o, h, K.H_NW]
            if nw < 0 or K.H_W0V + 2 * (nw - 1) >= s.hs.shape[2]:
                return 1
            for w in range(nw):
                q = s.hs[o, h, K.H_W0S + 2 * w]
                if q < 0 or q >= 4:
                    return 1
                val = s.hs[o, h, K.H_W0V + 2 * w]
                v = -1
                for j in range(3):
                    if v < 0 and s.consts[K.C_WOLF + j] == val:
                        v = j
                if v < 0:
                    return 14
                wolves[q, v] += 1
    for c in range(K.NCARD):
        if seen[c] != 1:
            return 11
    for p in range(n):
        for v in range(3):
            if wolves[p, v] != s.seat[p, K.S_WU + v]:
                return 12
    for t in range(3):
        if s.tokens[t] != K.T_PLACED:
            placed[n_placed] = s.consts[K.C_TOKEN + t]
            n_placed += 1
    if n_placed != 3:
        return 13
    a = np.sort(placed[:3])
    b = np.sort(s.consts[K.C_TOKEN:K.C_TOKEN + 3].copy())
    for t in range(3):
        if a[t] != b[t]:
            return 13
    return 0
