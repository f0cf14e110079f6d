"""Suburbia's hooks for the generic suites (what each one is for: tests/games/__init__.py)."""

from __future__ import annotations

import numpy as np

import sim
from sim.suburbia import constants as SB

EFFECT_FAMILIES = {"tiles", "goals"}
CRASH_CASES = [(["players", 0, "tiles", 0, "x"], 10**6, 2), (["current"], 4, 2)]
BENCH_SCALE = 0.05
DETERMINIZE_OPTIONS = [{"omr_replacement": False}]


def _letters():
    from sim.suburbia import constants as K
    from sim.suburbia.data import TILE_NAMES

    tiles = sim.get_game("suburbia").new_state(2, 0).tiles
    return {TILE_NAMES[k]: int(tiles[k, K.T_STACK]) for k in range(1, K.NK)}


def view(d, seat):
    from sim.suburbia import constants as K

    d = dict(d)
    d.pop("rng")
    if d["phase"] == "over":
        return d
    letter = _letters()
    pile = d["pile"]
    # the pile's size, each slot's letter, and whether the 1 More Round is still in it (at a
    # slot the set-up allows); the box: basic tiles, and how many tiles of each letter
    d["pile"] = (len(pile), [letter[k] if k != "1 More Round" else 0 for k in pile].count(0),
                 [letter[k] for k in pile if k != "1 More Round"])
    box = d["box"]
    d["box"] = ({k: v for k, v in box.items() if letter[k] == K.STACK_BASIC},
                {x: sum(v for k, v in box.items() if letter[k] == x)
                 for x in (K.STACK_A, K.STACK_B, K.STACK_C)})
    if d["goal_offers"]:
        d["goal_offers"] = [o if p == seat else len(o) for p, o in enumerate(d["goal_offers"])]
        d["private_goals"] = [g if p == seat else g is not None
                              for p, g in enumerate(d["private_goals"])]
    return d


def swap(game, st, seat, rnd):
    """Swap two pile slots of one letter, or a pile tile with a box tile of its letter."""
    from sim.suburbia import constants as K

    s = game.copy_state(st)
    pn = int(s.meta[K.M_PILEN])
    if pn < 2 or int(s.meta[K.M_PHASE]) == K.PH_OVER:
        return None
    i = rnd.randrange(pn)
    k = int(s.pile[i])
    if k == K.K_OMR:
        return None
    st_k = int(s.tiles[k, K.T_STACK])
    box = [b for b in range(1, K.NK) if s.box[b] and int(s.tiles[b, K.T_STACK]) == st_k
           and b != k]
    if box and rnd.random() < 0.5:
        b = rnd.choice(box)
        s.box[b] -= 1
        s.box[k] += 1
        s.pile[i] = b
        return s
    same = [j for j in range(pn) if s.pile[j] != K.K_OMR
            and int(s.tiles[int(s.pile[j]), K.T_STACK]) == st_k]
    j = rnd.choice(same)
    s.pile[i], s.pile[j] = s.pile[j], s.pile[i]
    return s


def invariants(state) -> None:
    """Tiles are conserved (pile, market, discard, box, supply, boroughs, Lakes' sources,
    pending, the 1MR set aside); tracks within their limits; boroughs consistent."""
    n = int(state.meta[SB.M_NP])
    seen = np.zeros(SB.NK, np.int64)
    for k in state.pile[: state.meta[SB.M_PILEN]]:
        seen[k] += 1
    for k in state.market:
        seen[k] += 1
    seen[0] = 0
    seen += state.discard + state.box
    seen[1:4] += state.supply
    for p in range(n):
        nt = int(state.pl[p, SB.P_NT])
        kc = np.zeros(SB.NK, np.int64)
        assert int((state.grid[p] > 0).sum()) == nt, "grid and tile list disagree"
        for t in range(nt):
            k = int(state.tk[p, t, SB.K_KIND])
            kc[k] += 1
            assert state.grid[p, state.tk[p, t, SB.K_CELL]] == t + 1
            if k == SB.K_LAKE:
                seen[state.tk[p, t, SB.K_FROM]] += 1
            else:
                seen[k] += 1
        assert (kc == state.kc[p]).all(), "kind counts out of date"
        assert int(state.tk[p, :nt, SB.K_INV].sum()) == int(state.pl[p, SB.P_NINV])
        assert state.pl[p, SB.P_NINV] <= state.consts[SB.C_INVEST]
        assert -5 <= state.pl[p, SB.P_INC] <= 15 and -5 <= state.pl[p, SB.P_REP] <= 15
        assert state.pl[p, SB.P_POP] >= 0 and state.pl[p, SB.P_MONEY] >= 0
    src = int(state.meta[SB.M_PSRC])
    if src in (SB.SRC_BUY, SB.SRC_BASIC):
        seen[state.meta[SB.M_PKIND]] += 1
    elif src == SB.SRC_LAKE:
        seen[state.meta[SB.M_PFROM]] += 1
    if SB.K_OMR not in state.pile[: state.meta[SB.M_PILEN]]:
        seen[SB.K_OMR] += 1
    counts = state.tiles[:, SB.T_COUNT].copy()
    counts[SB.K_LAKE] = 0
    counts[0] = 0
    seen[SB.K_LAKE] = 0
    assert (seen == counts).all(), f"tiles not conserved: {dict(enumerate((seen - counts).tolist()))}"
    ph = int(state.meta[SB.M_PHASE])
    if ph == SB.PH_ACTION:
        filled = state.market != 0
        assert not (filled[:-1] & ~filled[1:]).any(), "market not packed right"
    assert (src != SB.SRC_NONE) == (ph == SB.PH_PLACE)
    assert ph != SB.PH_DISCARD or src == SB.SRC_NONE
    assert ph != SB.PH_EXTRA or n == 1
