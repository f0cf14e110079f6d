"""Go Town's hooks for the generic suites (what each one is for: tests/games/__init__.py)."""

from __future__ import annotations

import numpy as np

from sim.go_town import constants as GT

EFFECT_FAMILIES = {"card types"}
CRASH_CASES = [(["current"], -1, 2), (["current"], 1_000_000, 3),
               (["buildings", 0], [{"cards": ["1", "8"], "values": [1, 8], "dogs": 0}] * 30, 2)]
BENCH_SCALE = 1.0
DETERMINIZE_OPTIONS = [{"reshuffle_timing": "eager"}]


def view(d, seat):
    d = dict(d)
    d.pop("rng")
    d["deck"] = len(d["deck"])
    d["hands"] = [h if p == seat else sum(h.values()) for p, h in enumerate(d["hands"])]
    return d


def swap(game, st, seat, rnd):
    """Move one card between two unknown places (a rival's hand, the pile), sizes kept."""
    s = game.copy_state(st)
    n = int(s.meta[0])
    rivals = [p for p in range(n) if p != seat and s.hands[p].sum() > 0]
    dn = int(s.meta[7])
    if not rivals or dn == 0:
        return None
    p = rnd.choice(rivals)
    k = int(rnd.choice(np.nonzero(s.hands[p])[0]))
    j = rnd.randrange(dn)
    s.hands[p, k] -= 1
    s.hands[p, s.deck[j]] += 1
    s.deck[j] = k
    return s


def invariants(state) -> None:
    """The 54 cards (the data's counts) are all somewhere: deck, discard, hands, floors,
    dogs on floors, milkshakes in front of players."""
    n = int(state.meta[GT.M_NP])
    seen = np.zeros(GT.NT, np.int64)
    for k in state.deck[: state.meta[GT.M_DECKN]]:
        seen[k] += 1
    seen += state.discard + state.hands[:n].sum(axis=0)
    for p in range(n):
        for f in range(int(state.n_floors[p])):
            seen[state.floors[p, f, 0]] += 1
            seen[state.floors[p, f, 1]] += 1
            seen[GT.DOG] += state.dogs[p, f]
        seen[GT.MILK] += state.milk[p]
    assert (seen == state.counts).all(), f"cards not conserved: {seen - state.counts}"
    assert (state.n_floors[:n] >= 0).all() and (state.skips[:n] >= 0).all()
