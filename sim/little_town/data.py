"""Little Town component data (spec §2-§5): buildings, goal cards, boards, per-count table.

Designers may edit these tables; the kernels read them as arrays from the state, so a change
needs no recompile. Layout of each table: docs/games/little_town.md section 1.
Resource vectors are (wood, stone, fish, wheat).
"""

from __future__ import annotations

import numpy as np

from sim.core.errors import UserError
from sim.little_town import constants as K

DATA_STATUS = (
    "buildings: all 25 tile faces confirmed from scans plus fan code (spec §4; Barn and Brewery "
    "VP per the scans); boards A/B confirmed by two fan implementations and board art (§2.2); "
    "goal cards: 17 of 18 from one source (French course scans, §5), card 7 UNKNOWN (omitted "
    "by default, placeholder 'feed all workers with wheat' optional), card 13 VP 2 per the photo; "
    "per-count workers/houses/goals from secondary sources [2+]; Residence/Castle/Watchtower "
    "effects are readings (options A6-A8)"
)

# name, count, cost(w,s,f,h), cost coins, VP, kind, input, input coins, output, output coins,
# output VP, bird
_Z = (0, 0, 0, 0)
BUILDINGS = (
    ("Wheat Field", 5, (1, 0, 0, 0), 0, 3, "P", _Z, 0, (0, 0, 0, 1), 0, 0, False),
    ("Workshop", 1, (0, 2, 0, 0), 0, 5, "X", (2, 0, 0, 0), 0, _Z, 0, 3, True),
    ("Tavern", 1, (0, 2, 0, 2), 0, 7, "P", _Z, 0, _Z, 0, 3, False),
    ("Bakery", 1, (2, 0, 0, 0), 0, 4, "X", (0, 0, 0, 1), 0, _Z, 4, 0, True),
    ("Brewery", 1, (2, 0, 0, 0), 0, 4, "X", (0, 0, 0, 1), 0, _Z, 0, 3, False),
    ("Quarry", 1, (3, 0, 0, 0), 0, 5, "X", _Z, 2, (0, 2, 0, 0), 0, 0, True),
    ("Carpenter", 1, (2, 0, 0, 0), 0, 4, "X", _Z, 1, (3, 0, 0, 0), 0, 0, False),
    ("Grocery", 1, (2, 0, 0, 0), 0, 4, "X", _Z, 1, (0, 0, 1, 1), 0, 0, True),
    ("Church", 1, (0, 4, 0, 0), 0, 8, "X", _Z, 3, _Z, 0, 5, True),
    ("Warehouse", 1, (0, 4, 0, 0), 0, 8, "X", (0, 2, 0, 0), 0, _Z, 0, 5, True),
    ("Market", 1, (4, 0, 0, 0), 0, 6, "X", (1, 1, 1, 1), 0, _Z, 0, 7, False),
    ("Fountain", 1, (0, 2, 0, 0), 0, 5, "X", _Z, 1, _Z, 0, 3, False),
    ("Barn", 1, (4, 0, 0, 0), 0, 6, "X", (0, 0, 0, 2), 0, _Z, 0, 5, True),
    ("Bookstore", 1, (0, 4, 0, 0), 0, 8, "P", _Z, 0, _Z, 3, 0, False),
    ("Gold Mine", 1, (1, 1, 0, 0), 0, 4, "P", _Z, 0, _Z, 2, 0, True),
    ("Fishmonger", 1, (1, 1, 0, 0), 0, 4, "X", (0, 0, 1, 0), 0, _Z, 3, 0, False),
    ("Pier", 1, (3, 0, 0, 0), 0, 5, "P", _Z, 0, (0, 0, 2, 0), 0, 0, False),
    ("Pawnshop", 1, (3, 0, 0, 0), 0, 5, "X", _Z, 0, _Z, 0, 0, True),
    ("Well", 1, (1, 1, 0, 0), 0, 4, "P", _Z, 0, _Z, 0, 2, True),
    ("Restaurant", 1, (2, 2, 0, 0), 0, 7, "X", (0, 0, 1, 1), 0, _Z, 0, 4, False),
    ("Statue", 1, (0, 4, 0, 0), 0, 10, "N", _Z, 0, _Z, 0, 0, True),
    ("Cathedral", 1, (0, 6, 0, 0), 0, 11, "R", _Z, 0, _Z, 0, 0, False),
    ("Residence", 1, _Z, 6, 2, "R", _Z, 0, _Z, 0, 0, False),
    ("Castle", 1, (0, 6, 0, 0), 0, 0, "E", _Z, 0, _Z, 0, 0, True),
    ("Watchtower", 1, (3, 3, 0, 0), 0, 0, "E", _Z, 0, _Z, 0, 0, False),
)
BUILDING_NAMES = tuple(b[0] for b in BUILDINGS)
SLUGS = tuple(n.lower().replace(" ", "_") for n in BUILDING_NAMES)

# card: (kind, param, VP, bang, set of building ids, need)
GOALS = {
    1: ("connected", 3, 3, False, (), 0),
    2: ("more_buildings_than_workers", 0, 3, False, (), 0),
    3: ("food_held", 2, 3, False, (), 0),
    4: ("terrain_trio", 0, 3, False, (), 0),
    5: ("act_two_types", 2, 2, True, (10, 17, 19), 1),
    6: ("feed_all_with", 2, 2, False, (), 0),
    7: ("feed_all_with", 3, 2, False, (), 0),  # placeholder (option goal7 = feed_wheat)
    8: ("own_set", 1, 2, True, (7, 10, 15, 16, 19), 1),
    9: ("own_set", 2, 3, True, (3, 5, 6, 7, 8, 11, 13, 14, 15), 2),
    10: ("own_set", 1, 2, True, (1, 5, 6, 9, 10), 1),
    11: ("own_set", 1, 2, True, (8, 9, 13, 20, 21, 23, 24), 1),
    12: ("coins_eq", 0, 3, False, (), 0),
    13: ("coins_ge", 6, 2, True, (3, 13, 14, 15), 1),
    14: ("spend_gathered", 1, 2, True, (1, 3, 4, 9, 10, 12, 15, 17, 19), 1),
    15: ("acts_in_turn", 4, 3, False, (), 0),
    16: ("vp_acts_in_turn", 2, 2, True, (1, 2, 4, 8, 9, 10, 11, 12, 18, 19), 2),
    17: ("gather_in_turn", 5, 2, False, (), 0),
    18: ("own_set", 1, 2, True, (5, 10, 12, 16, 17, 24), 1),
}

BOARDS = {
    "A": ("MGFMGLGMM", "GGGGGGGGG", "LGGGGGGGG", "FGGGGGGGL", "GGGGGGFGG", "GFFGLLGGF"),
    "B": ("FGGMMGLGF", "GGFGGGGGG", "FGGGGGGGL", "GGGGGGGGF", "LGGGFGGGG", "LGGMGGLGM"),
}
SIDES = ("A", "B")

# players -> (workers, houses, goal cards)
PER_COUNT = {2: (5, 7, 4), 3: (4, 6, 3), 4: (3, 6, 2)}

CONSTANTS = {
    "supply_per_resource": 15, "start_coins": 3, "coin_total": 40, "fee": 1, "buy_price": 3,
    "unfed_penalty": 3, "coins_per_vp": 3, "cathedral_vp": 1, "castle_vp": 4,
    "watchtower_vp": 2, "market_size": 12,
}


# ---- dict rows <-> arrays ------------------------------------------------------------------
def building_rows() -> list[dict]:
    """The building table as the dict rows of docs section 11."""
    out = []
    for (name, count, cost, costc, vp, kind, inp, inc, outp, outc, outvp, bird) in BUILDINGS:
        out.append({"name": name, "count": count, "cost": list(cost), "cost_coins": costc,
                    "vp": vp, "kind": kind, "input": list(inp), "input_coins": inc,
                    "output": list(outp), "output_coins": outc, "output_vp": outvp,
                    "bird": bird})
    return out


def goal_rows() -> list[dict]:
    return [{"card": c, "kind": k, "param": p, "vp": v, "bang": b, "set": list(st), "need": nd}
            for c, (k, p, v, b, st, nd) in sorted(GOALS.items())]


def default_data() -> dict:
    """The ``data`` block of the state dict (docs section 11)."""
    return {
        "buildings": building_rows(),
        "goals": goal_rows(),
        "boards": {k: list(v) for k, v in BOARDS.items()},
        "per_count": {str(k): list(v) for k, v in PER_COUNT.items()},
        "consts": dict(CONSTANTS),
    }


def arrays_from_data(d: dict) -> dict[str, np.ndarray]:
    """Arrays for the kernels from a ``data`` block: bdata int64[25, 20], gdata int64[19, 30]
    (goal columns and the 0/1 building set), boards int64[2, 54], consts int64[26] (constants
    then the per-count table). Raises UserError on malformed data."""
    try:
        rows = d["buildings"]
        if len(rows) != K.NB:
            raise UserError(f"data.buildings: need {K.NB} rows, got {len(rows)}")
        bd = np.zeros((K.NB, K.BD_N), np.int64)
        for b, r in enumerate(rows):
            bd[b, K.BD_COUNT] = r["count"]
            bd[b, K.BD_COST:K.BD_COST + 4] = r["cost"]
            bd[b, K.BD_COSTC] = r["cost_coins"]
            bd[b, K.BD_VP] = r["vp"]
            if r["kind"] not in K.KIND_NAMES:
                raise UserError(f"data.buildings[{b}].kind: allowed {', '.join(K.KIND_NAMES)}")
            bd[b, K.BD_KIND] = K.KIND_NAMES.index(r["kind"])
            bd[b, K.BD_IN:K.BD_IN + 4] = r["input"]
            bd[b, K.BD_INC] = r["input_coins"]
            bd[b, K.BD_OUT:K.BD_OUT + 4] = r["output"]
            bd[b, K.BD_OUTC] = r["output_coins"]
            bd[b, K.BD_OUTVP] = r["output_vp"]
            bd[b, K.BD_BIRD] = 1 if r["bird"] else 0
        if bd[0, K.BD_COUNT] < 0 or (bd[1:, K.BD_COUNT] != 1).any():
            raise UserError("data.buildings: every building but the Wheat Field has count 1")
        gd = np.zeros((K.NCARD, K.GD_N), np.int64)
        grows = d["goals"]
        if sorted(int(r["card"]) for r in grows) != list(range(1, K.NCARD)):
            raise UserError(f"data.goals: need one row per card 1..{K.NCARD - 1}")
        for r in grows:
            c = int(r["card"])
            if r["kind"] not in K.GOAL_KIND_NAMES:
                raise UserError(f"data.goals card {c}: kind allowed {', '.join(K.GOAL_KIND_NAMES)}")
            gd[c, K.GD_KIND] = K.GOAL_KIND_NAMES.index(r["kind"])
            gd[c, K.GD_PARAM] = r["param"]
            gd[c, K.GD_VP] = r["vp"]
            gd[c, K.GD_BANG] = 1 if r["bang"] else 0
            gd[c, K.GD_NEED] = r["need"]
            for b in r["set"]:
                gd[c, K.GD_SET + int(b)] = 1
        boards = np.zeros((2, K.NCELL), np.int64)
        for i, side in enumerate(("A", "B")):
            rows_ = d["boards"][side]
            text = "".join(rows_)
            if len(rows_) != 6 or len(text) != K.NCELL or any(ch not in K.TERRAIN_CHARS for ch in text):
                raise UserError(f"data.boards.{side}: 6 rows of 9 letters from {K.TERRAIN_CHARS}")
            boards[i] = [K.TERRAIN_CHARS.index(ch) for ch in text]
        consts = np.zeros(K.N_CONSTS, np.int64)
        consts[:K.C_PC] = [int(d["consts"][n]) for n in K.CONST_NAMES]
        for k in (2, 3, 4):
            row = [int(x) for x in d["per_count"][str(k)]]
            if len(row) != 3 or row[2] > 4 or row[0] < 1 or row[0] * k > 24:
                raise UserError("data.per_count: [workers >= 1 (players x workers <= 24), "
                                "houses, goal cards <= 4]")
            consts[K.C_PC + 3 * k:K.C_PC + 3 * k + 3] = row
        return {"bdata": bd, "gdata": gd, "boards": boards, "consts": consts}
    except UserError:
        raise
    except (KeyError, ValueError, TypeError, IndexError, OverflowError, AttributeError) as e:
        raise UserError(f"little-town data: malformed ({type(e).__name__}: {e})") from None


def data_from_arrays(bd, gd, boards, consts) -> dict:
    """Inverse of ``arrays_from_data`` (names come from BUILDING_NAMES)."""
    b_rows = []
    for b in range(K.NB):
        r = bd[b]
        b_rows.append({
            "name": BUILDING_NAMES[b], "count": int(r[K.BD_COUNT]),
            "cost": [int(x) for x in r[K.BD_COST:K.BD_COST + 4]], "cost_coins": int(r[K.BD_COSTC]),
            "vp": int(r[K.BD_VP]), "kind": K.KIND_NAMES[int(r[K.BD_KIND])],
            "input": [int(x) for x in r[K.BD_IN:K.BD_IN + 4]], "input_coins": int(r[K.BD_INC]),
            "output": [int(x) for x in r[K.BD_OUT:K.BD_OUT + 4]], "output_coins": int(r[K.BD_OUTC]),
            "output_vp": int(r[K.BD_OUTVP]), "bird": bool(r[K.BD_BIRD]),
        })
    g_rows = []
    for c in range(1, K.NCARD):
        g_rows.append({
            "card": c, "kind": K.GOAL_KIND_NAMES[int(gd[c, K.GD_KIND])], "param": int(gd[c, K.GD_PARAM]),
            "vp": int(gd[c, K.GD_VP]), "bang": bool(gd[c, K.GD_BANG]),
            "set": [b for b in range(K.NB) if gd[c, K.GD_SET + b]], "need": int(gd[c, K.GD_NEED]),
        })
    return {
        "buildings": b_rows,
        "goals": g_rows,
        "boards": {side: ["".join(K.TERRAIN_CHARS[int(boards[i, r * 9 + c])] for c in range(9))
                          for r in range(6)] for i, side in enumerate(("A", "B"))},
        "per_count": {str(k): [int(x) for x in consts[K.C_PC + 3 * k:K.C_PC + 3 * k + 3]]
                      for k in (2, 3, 4)},
        "consts": {n: int(consts[i]) for i, n in enumerate(K.CONST_NAMES)},
    }
