"""Province component data (spec §3.1, §4.1, §2.3): structures, goal tokens, rule constants.

Most of it is a labelled reconstruction (RECON): the printed cost strip and the nine goal texts
could not be found. Everything here is a replaceable table; ``ProvinceGame(structures=...,
goals=..., constants=...)`` swaps any part. See docs/games/province.md §1.
"""

import numpy as np

from sim.core.errors import UserError
from sim.province import constants as K
from sim.province.options import RECON_COST_STRUCTURES, TWEAKS  # noqa: F401 (re-exported)

# name: (labor, coins, vp_first, vp_copy, prereq name or None)
STRUCTURES = {
    "Lender": (2, 2, 1, 0, None),      # all confirmed by the seed
    "Bank": (3, 5, 2, 0, "Lender"),    # VP, prereq confirmed; L, C RECON
    "Camp": (2, 1, 1, 0, None),        # RECON
    "Village": (3, 3, 2, 0, "Camp"),   # prereq confirmed; L, C, VP RECON
    "Mill": (2, 2, 1, 0, None),        # RECON
    "Smithy": (4, 2, 2, 0, "Mill"),    # prereq confirmed; L, C, VP RECON
    "Union": (2, 3, 1, 0, None),       # RECON
    "Harbor": (3, 3, 2, 0, None),      # RECON
}
# goal tokens in id order: (name, condition code name, threshold); all RECON
GOALS = (
    ("Hoard", "coins_at_end_of_turn", 6),
    ("Hard Labor", "labor_gained_this_turn", 4),
    ("Township", "structures_owned", 3),
    ("Crew", "workers_moved_this_turn", 4),
    ("Landmark", "owns_vp_first_at_least", 2),
    ("Grindstone", "grinds_this_turn", 2),
    ("Seafarer", "own_sailors_on_cycle", 1),
    ("Rival", "builds_copy", 1),
    ("Dynasty", "arrows_completed", 1),
)
CONSTANTS = {
    "grind_labor": 2, "grind_coins": 1, "union_coins": 2, "union_labor": 1, "sailor_cost": 3,
    "lender_repay": 3, "lender_penalty": 2, "max_sailors": 3, "sailors_per_player": 3,
    "mill_labor": 1, "harbor_labor": 1, "harbor_coins": 1, "structure_tokens": 7,
    "goals_total": 9, "goals_drawn": 5,
}
DATA_STATUS = (
    "partly reconstructed: confirmed = structure names, prerequisite arrows, Lender cost 2L+2C "
    "and 1 VP, Bank 2 VP, grind 2:1, sailor 3 coins, repay 3 coins, -2 VP, 7 tokens, 5 of 9 "
    "goals at 1 VP, coin supply 35 (KS) or 28 (rulebook); RECON = costs of Bank, Camp, Village, "
    "Mill, Smithy, Union, Harbor, VP of Camp..Harbor, the Smithy effect, the Union rate (SRC "
    "example), all nine goal conditions and thresholds"
)


def structures_array(structures: dict | None = None) -> np.ndarray:
    """``int64[8, 5]``: labor, coins, vp_first, vp_copy, prereq id (-1 none) per structure."""
    st = dict(STRUCTURES)
    for k, v in (structures or {}).items():
        if k not in st:
            raise UserError(f"province data: unknown structure {k!r}; allowed: "
                            f"{', '.join(K.STRUCT_NAMES)}")
        st[k] = tuple(v)
    out = np.zeros((K.NS, K.NSCOL), np.int64)
    for i, name in enumerate(K.STRUCT_NAMES):
        lab, coin, v1, v2, pre = st[name]
        if pre is not None and pre not in K.STRUCT_NAMES:
            raise UserError(f"province data: bad prereq {pre!r}; allowed: {', '.join(K.STRUCT_NAMES)}")
        if min(lab, coin, v1, v2) < 0:
            raise UserError(f"province data: {name} has a negative value")
        out[i] = (lab, coin, v1, v2, -1 if pre is None else K.STRUCT_NAMES.index(pre))
    return out


def goals_array(goals: tuple | list | None = None) -> tuple[np.ndarray, tuple[str, ...]]:
    """``(int64[9, 2]`` condition code and threshold per goal id, goal names)."""
    gl = list(goals if goals is not None else GOALS)
    if not 1 <= len(gl) <= K.MAXG:
        raise UserError(f"province data: 1..{K.MAXG} goal tokens, got {len(gl)}")
    out = np.zeros((K.MAXG, 2), np.int64)
    names = []
    for i, (name, cond, t) in enumerate(gl):
        if cond not in K.COND_NAMES:
            raise UserError(f"province data: unknown goal condition {cond!r}; allowed: "
                            f"{', '.join(K.COND_NAMES)}")
        out[i] = (K.COND_NAMES.index(cond), int(t))
        names.append(str(name))
    return out, tuple(names)


def consts_array(constants: dict | None = None, n_goals: int = 9) -> np.ndarray:
    """``int64[15]`` rule constants in the order of ``CONST_NAMES``."""
    c = dict(CONSTANTS)
    c["goals_total"] = n_goals
    for k, v in (constants or {}).items():
        if k not in c:
            raise UserError(f"province data: unknown constant {k!r}; allowed: "
                            f"{', '.join(K.CONST_NAMES)}")
        c[k] = int(v)
    if not 1 <= c["goals_drawn"] <= c["goals_total"] <= K.MAXG:
        raise UserError("province data: need 1 <= goals_drawn <= goals_total <= 9")
    return np.array([c[k] for k in K.CONST_NAMES], np.int64)


def apply_tweak(sdata: np.ndarray, tweak: str) -> np.ndarray:
    """A copy of ``sdata`` with the option ``recon_tweak`` applied (one cost +-1, floored at 0)."""
    out = sdata.copy()
    if tweak == "none":
        return out
    name, rest = tweak.split(".")
    field, delta = rest[:-2], int(rest[-2:])
    k = K.STRUCT_NAMES.index(name)
    col = 0 if field == "labor" else 1
    out[k, col] = max(0, out[k, col] + delta)
    return out
