"""Province's hooks for the generic suites (what each one is for: tests/games/__init__.py)."""

from __future__ import annotations

from sim.province import constants as PV
from sim.province.game import _Views
from sim.province.kernels import owned_count, workers_of

EFFECT_FAMILIES = {"structures", "goal tokens"}
CRASH_CASES = [(["current"], -1, 2)]
BENCH_SCALE = 0.5
DETERMINIZE_OPTIONS = []


def view(d, seat):
    d = dict(d)
    d.pop("rng")
    g = dict(d["goals"])
    g["stack"] = (g["stack"][: g["next"] + 1], len(g["stack"]))
    d["goals"] = g
    return d


def swap(game, st, seat, rnd):
    """Put a token that is not in the stack (or another face-down one) in a face-down slot."""
    from sim.province import constants as K

    s = game.copy_state(st)
    x = s.x
    n, nxt = int(x[K.M_GN]), int(x[K.M_GNEXT])
    if nxt + 1 >= n:
        return None
    i = rnd.randrange(nxt + 1, n)
    stack = [int(v) for v in x[K.X_GS: K.X_GS + n]]
    out = [g for g in range(int(x[K.X_CONSTS + K.C_GOALS_TOTAL])) if g not in stack]
    if out:
        x[K.X_GS + i] = rnd.choice(out)
    else:
        j = rnd.randrange(nxt + 1, n)
        x[K.X_GS + i], x[K.X_GS + j] = x[K.X_GS + j], x[K.X_GS + i]
    return s


def invariants(state) -> None:
    """Coins: both seats and the supply add up to ``coin_total``, none negative; workers,
    sailors, structures, first builders, the Lender and the goal stack are consistent."""
    v = _Views(state.x)
    m = v.meta
    total = int(v.opts[PV.O_COIN_TOTAL])
    coins = v.coins
    assert (coins >= 0).all() and coins.sum() <= total, f"coins {coins} vs supply {total}"
    assert m[PV.M_LABOR] >= 0, "negative labor"
    if m[PV.M_PHASE] == PV.PH_OVER:
        assert m[PV.M_END] != 0
    assert ((v.pos >= -1) & (v.pos <= 2)).all()
    assert (v.pos[:3] >= 0).all(), "greens always on the cycle"
    hired = v.hired
    cst = dict(zip(PV.CONST_NAMES, v.consts.tolist()))
    assert hired.sum() <= cst["max_sailors"] and (hired <= cst["sailors_per_player"]).all()
    for p in range(2):
        for k in range(3):
            on = v.pos[PV.W_SAILOR0 + 3 * p + k] >= 0
            assert on == (k < hired[p]), "sailors hired in order"
        assert owned_count(state.x, p) <= cst["structure_tokens"]
    for k in range(PV.NS):
        f = int(v.fb[k])
        own_any = bool(v.owned[:, k].any())
        assert (f >= 0) == own_any, f"first builder of {PV.STRUCT_NAMES[k]}"
        if f >= 0:
            assert v.owned[f, k] == 1
            if v.owned[1 - f, k]:
                assert v.bturn[1 - f, k] >= v.bturn[f, k]
        for p in range(2):
            assert (v.bturn[p, k] >= 0) == bool(v.owned[p, k])
    assert (v.pos[3] >= 0) == bool(v.owned[:, 2].any())
    assert (v.pos[4] >= 0) == bool(v.owned[:, 3].any())
    assert m[PV.M_LHOLDER] in (-1, 0, 1)
    if m[PV.M_LHOLDER] >= 0:
        assert v.owned[m[PV.M_LHOLDER], 0] == 1, "the holder owns a Lender"
    gn, nx = int(m[PV.M_GN]), int(m[PV.M_GNEXT])
    assert 0 <= nx <= gn
    assert all(int(r) in (-1, 0, 1) for r in v.gres[:nx])
    assert all(int(r) == -2 for r in v.gres[nx:gn])
    assert len(set(v.gstack[:gn].tolist())) == gn, "goal tokens drawn once"
    for p in range(2):
        assert workers_of(state.x, p) >= 3
