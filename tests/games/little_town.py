"""Little Town's hooks for the generic suites (what each one is for: tests/games/__init__.py)."""

from __future__ import annotations

import numpy as np

from sim.little_town import constants as LT

EFFECT_FAMILIES = {"buildings", "goal cards"}
CRASH_CASES = [(["building", 0], 1_000_000, 2), (["owner", 3], 9, 2), (["pending"], 99, 3)]
BENCH_SCALE = 0.1
DETERMINIZE_OPTIONS = [{"market": "draft"}, {"market": "one-of-two"}, {"bang_redraw": "once"}]


def view(d, seat):
    d = dict(d)
    d.pop("rng")
    d["goal_deck"] = len(d["goal_deck"])
    n = d["n_players"]
    dr = dict(d["draft"])
    r = dr["round"]
    dr["deck"] = len(dr["deck"])
    # a rival's hand in the draft variant is known when the seat passed it on (k rounds ago
    # for the rival k seats on), but not which tile of it the rival picked this round
    known = [p == seat or (d["options"]["market"] == "draft" and (p - seat) % n <= r)
             for p in range(n)]
    dr["hands"] = [h if p == seat else (sorted(h + ([x] if x >= 0 else [])) if known[p]
                                         else len(h))
                   for p, (h, x) in enumerate(zip(dr["hands"], dr["picks"], strict=True))]
    dr["picks"] = [x if p == seat else x >= 0 for p, x in enumerate(dr["picks"])]
    d["draft"] = dr
    players = []
    for p, pl in enumerate(d["players"]):
        pl = dict(pl)
        if p != seat:
            pl["goals"] = [(c if done else None, done) for c, done in pl["goals"]]
            pl["pick"] = [x if x != r + 1 else 0 for x in pl["pick"]]
        players.append(pl)
    d["players"] = players
    assert len(players) == n
    return d


def swap(game, st, seat, rnd):
    """Swap a rival's unclaimed goal card with a card of the goal deck."""
    from sim.little_town import constants as K

    n, ng = int(st.meta[K.M_NP]), int(st.meta[K.M_NGOALS])
    slots = [(p, j) for p in range(n) if p != seat for j in range(ng)
             if st.seat[p, K.SE_GOALS + j] and not st.seat[p, K.SE_GDONE + j]]
    gn = int(st.meta[K.M_GDECK_N])
    if not slots or gn == 0:
        return None
    s = game.copy_state(st)
    p, j = rnd.choice(slots)
    i = rnd.randrange(gn)
    a, b = int(s.seat[p, K.SE_GOALS + j]), int(s.piles[K.PL_GDECK, i])
    s.seat[p, K.SE_GOALS + j] = b
    s.piles[K.PL_GDECK, i] = a
    return s


def invariants(state) -> None:
    """Conservation (docs §11): cubes per type and coins (supply/bank plus players),
    houses, workers, tiles; and the score equals the sum of its parts."""
    s = state
    n = int(s.meta[LT.M_NP])
    cubes = s.seat[:n, LT.SE_CUBES:LT.SE_CUBES + 4]
    supply = s.meta[LT.M_SUPPLY:LT.M_SUPPLY + 4]
    total = supply + cubes.sum(axis=0)
    assert (total == s.consts[LT.C_SUPPLY]).all(), f"cubes not conserved: {total}"
    assert (supply >= 0).all() and (cubes >= 0).all()
    coins = s.seat[:n, LT.SE_COINS]
    assert int(s.meta[LT.M_BANK]) + int(coins.sum()) == int(s.consts[LT.C_COIN_TOTAL]), \
        "coins not conserved"
    assert (coins >= 0).all(), "negative coins"
    owner, worker, building = s.cells[LT.CE_OWN], s.cells[LT.CE_WRK], s.cells[LT.CE_BLD]
    owned = np.array([(owner == p).sum() for p in range(n)])
    assert (owned + s.seat[:n, LT.SE_HOUSES] == s.meta[LT.M_HOUSES]).all(), "houses not conserved"
    on_board = np.array([(worker == p).sum() for p in range(n)])
    wused = s.seat[:n, LT.SE_WUSED]
    assert (on_board + s.seat[:n, LT.SE_ONSITE] == wused).all(), "workers not conserved"
    assert (wused <= s.meta[LT.M_WORKERS]).all()
    placed = np.array([(building == b).sum() for b in range(LT.NB)])
    if s.meta[LT.M_PENDING] >= 0:
        placed[s.meta[LT.M_PENDING]] += 1  # bought, not yet sited
    cnt = s.bdata[:, LT.BD_COUNT]
    market = s.mkt[LT.MK_MARKET]
    assert (placed + market <= cnt).all(), "tiles not conserved"
    assert placed[0] + market[0] == cnt[0], "wheat fields not conserved"
    assert ((building >= 0) == (owner >= 0)).all()
    parts = s.seat[:n, LT.SE_STATS + 9:LT.SE_STATS + LT.N_STATS].sum(axis=1)  # vp_build .. vp_unfed
    assert (parts == s.seat[:n, LT.SE_SCORE]).all(), "score is not the sum of its parts"
