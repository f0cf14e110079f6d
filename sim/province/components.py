"""Province component data as tables (balance lab): structures (spec §3.1, docs/games/province.md
§1.1), goal tokens (§4.1, docs §1.2) and the rule constants (docs §1.3).

Paths: ``structures.bank.coins``, ``structures.mill.labor_income``, ``goals.hoard.threshold``,
``constants.grind_coins``.

The production numbers of a structure live in its own row, so that ``suggest`` can change them
for that structure: ``mill.labor_income`` (the constant ``mill_labor``), ``harbor.ship_labor``
and ``harbor.ship_coins`` (``harbor_labor``, ``harbor_coins``), ``union.trade_coins`` and
``union.trade_labor`` (``union_coins`` paid for ``union_labor``). They are therefore not in the
``constants`` table (one path per number). Rows of other structures have no such fields.

The rule option ``recon_tweak`` (one reconstructed cost +-1) is applied on top of these numbers
when a game is set up; the tables show the data without it.

A goal token is worth 1 VP: that number is fixed in the engine (``score_of`` in kernels.py), not
data, so it is not a field here.
"""

from __future__ import annotations

from typing import Any

from sim.core.components import (
    ComponentSchema,
    ImpactLink,
    Interpretation,
    PlausibleRange,
    Tunable,
    slug,
)
from sim.core.errors import UserError
from sim.province import constants as K

# structure -> ((row field, constant name, constants slot), ...)
_PRODUCTION = {
    "Mill": (("labor_income", "mill_labor", K.C_MILL),),
    "Union": (("trade_coins", "union_coins", K.C_UNION_C), ("trade_labor", "union_labor", K.C_UNION_L)),
    "Harbor": (("ship_labor", "harbor_labor", K.C_HARBOR_L), ("ship_coins", "harbor_coins", K.C_HARBOR_C)),
}
_MOVED = {c for fields in _PRODUCTION.values() for _f, c, _i in fields}


# ---- plausible ranges of the reconstructed numbers (spec §3.1, §4.1, §7; docs/robustness.md) --
_HINT = ("a Dutch review calls the Lender (2L 2C, the seed's one cost) 'the cheap lender', so a "
         "basic structure plausibly costs about as much or more")
_COST_REASON = {
    "Bank": "RECON (spec §7): advanced, after the Lender; one step either side of 3L 5C",
    "Camp": "RECON (spec §7): one step either side of 2L 1C; " + _HINT,
    "Village": "RECON (spec §7): advanced, after the Camp; one step either side of 3L 3C",
    "Mill": "RECON (spec §7): one step either side of 2L 2C; " + _HINT,
    "Smithy": "RECON (spec §7): advanced, after the Mill; one step either side of 4L 2C",
    "Union": "RECON (spec §7): one step either side of 2L 3C",
    "Harbor": "RECON (spec §7): one step either side of 3L 3C",
}
# (printed labor, printed coins, printed VP) of the reconstructed structures (data.STRUCTURES)
_PRINTED = {"Bank": (3, 5, None), "Camp": (2, 1, 1), "Village": (3, 3, 2), "Mill": (2, 2, 1),
            "Smithy": (4, 2, 2), "Union": (2, 3, 1), "Harbor": (3, 3, 2)}
# goal thresholds: (printed, low, high); every condition and threshold is RECON (spec §4.1)
_GOAL_RANGES = {
    "Hoard": (6, 4, 8, "coins held at the end of a turn; a review names 'a lot of cash'"),
    "Hard Labor": (4, 3, 5, "labor gained in one turn; a review names 'a great deal of labor'"),
    "Township": (3, 2, 4, "structures owned, of 8 types and 7 tokens"),
    "Crew": (4, 3, 5, "workers moved in one work phase (3 green at the start)"),
    "Landmark": (2, 1, 2, "VP of one owned structure (2 = an advanced one)"),
    "Grindstone": (2, 1, 3, "grinds in one turn"),
    "Seafarer": (1, 1, 2, "own sailors on the work cycle (at most 3)"),
    "Rival": (1, 1, 2, "0-VP copies built"),
    "Dynasty": (1, 1, 2, "arrows completed (3 arrows)"),
}
RANGES: tuple[PlausibleRange, ...] = tuple(
    [PlausibleRange(f"structures.{slug(n)}.{f}", v - 1, v + 1, _COST_REASON[n])
     for n, (lab, coin, _vp) in _PRINTED.items() for f, v in (("labor", lab), ("coins", coin))]
    + [PlausibleRange(f"structures.{slug(n)}.vp_first", 1, vp + 1,
                      "RECON (spec §7): the seed hints that advanced structures give 2 VP, "
                      "basic ones fewer; 1 up to one more than the reconstruction")
       for n, (_l, _c, vp) in _PRINTED.items() if vp is not None]
    + [PlausibleRange(f"goals.{slug(n)}.threshold", lo, hi,
                      f"RECON (spec §4.1): {why}")
       for n, (_v, lo, hi, why) in _GOAL_RANGES.items()]
)
"""Every reconstructed number of spec §3.1/§4.1/§7 with its plausible range."""

INTERPRETATIONS: tuple[Interpretation, ...] = (
    Interpretation("coin_total", "two sourced component lists disagree: 35 (KS) or 28 (rulebook)"),
    Interpretation("entry_space", "INT (§6.5k): the 'topmost labor space' is ambiguous"),
    Interpretation("lender_steal", "the seed as translated; no second source (§6.3)"),
    Interpretation("borrowed_prereq", "INT (§6.5h): the seed is silent"),
    Interpretation("borrow_harbor_union", "INT (§7): Lender use with Harbor and Union"),
    Interpretation("harbor_benefit", "INT (§6.5e): who gets the ship-flip benefit"),
    Interpretation("sailor_needs_mixed", "INT (§6.5g): what a hire needs"),
    Interpretation("income_on_build_turn", "INT (§6.5d, §7): Mill timing"),
    Interpretation("smithy_effect", "RECON (§7): no source describes the Smithy's effect"),
    Interpretation("all_types_trigger", "INT (§6.4): end-trigger 2's meaning"),
    Interpretation("final_turn", "INT (§6.5j): who plays after the trigger"),
    Interpretation("worker_tiebreak", "INT (§5.10): the tie-break 'more workers'"),
)
"""The rule options spec §6/§7 mark as interpretations (INT) or reconstructions."""

SCHEMA = ComponentSchema(
    keys={"structures": "name", "goals": "name"},
    # divisors of the rules are at least 1 (the grind and the Union trade); the others keep
    # the default range 0..999
    limits={"structures.trade_labor": (1, 999), "constants.grind_labor": (1, 999),
            "constants.goals_total": (1, K.MAXG), "constants.goals_drawn": (1, K.MAXG),
            "constants.max_sailors": (0, 6), "constants.sailors_per_player": (0, 3)},
    tunables=(
        Tunable("structures", "labor", -1, 0, 9),
        Tunable("structures", "coins", -1, 0, 9),
        Tunable("structures", "vp_first", +1, 0, 9),
        Tunable("structures", "vp_copy", +1, 0, 9),
        Tunable("structures", "labor_income", +1, 0, 5),
        Tunable("structures", "ship_labor", +1, 0, 5),
        Tunable("structures", "ship_coins", +1, 0, 5),
        Tunable("structures", "trade_coins", -1, 1, 9),
        Tunable("structures", "trade_labor", +1, 0, 5),
        Tunable("goals", "threshold", -1, 1, 12),
    ),
    ranges=RANGES,
    interpretations=INTERPRETATIONS,
    # a structure's cost is its labor and coins (``boardsim tune --param
    # 'structures.*.cost.*'``)
    aliases={"structures.cost": ("labor", "coins")},
    impact=(
        ImpactLink("built_", "structures", title="structure (built vs not built)"),
        ImpactLink("goal_", "goals", title="goal token (claimed vs not)"),
    ),
    docs={
        "structures": "8 structures: cost in labor and coins, VP of the first builder and of a "
                      "copy, prerequisite (name or none), production numbers of Mill, Union and "
                      "Harbor (spec §3.1; confirmed: names, prerequisite arrows, Lender 2L+2C "
                      "1 VP, Bank 2 VP, harbor ship income 1/1; RECONSTRUCTION: costs of Bank, "
                      "Camp, Village, Mill, Smithy, Union, Harbor, VP of Camp..Harbor, Mill "
                      "income and Union rate (a forum example); the option recon_tweak moves one "
                      "reconstructed cost by one on top of these)",
        "goals": "9 goal tokens: condition code and threshold (spec §4.1; confirmed: 9 tokens, "
                 "5 drawn, 1 VP each (fixed in the engine); every condition and threshold is a "
                 "RECONSTRUCTION)",
        "constants": "grind rate, sailor cost, Lender repay and penalty, sailor limits, "
                     "structure tokens, goal tokens total/drawn (spec §2.3, §5; confirmed by the "
                     "seed)",
    },
)


def document(game) -> dict[str, Any]:
    """{"structures": [...], "goals": [...], "constants": {...}} of ``game``'s ``sdata``,
    ``gdata``/``goal_names`` and ``consts`` arrays."""
    sd, consts = game.sdata, game.consts
    structures = []
    for k, name in enumerate(K.STRUCT_NAMES):
        pre = int(sd[k, K.S_PRE])
        row = {"name": name, "labor": int(sd[k, K.S_L]), "coins": int(sd[k, K.S_C]),
               "vp_first": int(sd[k, K.S_VP1]), "vp_copy": int(sd[k, K.S_VP2]),
               "prereq": "none" if pre < 0 else K.STRUCT_NAMES[pre]}
        for f, _c, i in _PRODUCTION.get(name, ()):
            row[f] = int(consts[i])
        structures.append(row)
    goals = [{"name": n, "condition": K.COND_NAMES[int(game.gdata[g, 0])],
              "threshold": int(game.gdata[g, 1])} for g, n in enumerate(game.goal_names)]
    constants = {c: int(consts[i]) for i, c in enumerate(K.CONST_NAMES) if c not in _MOVED}
    return {"structures": structures, "goals": goals, "constants": constants}


def _prereq(value: str, name: str) -> str | None:
    if slug(value) in ("none", ""):
        return None
    by_slug = {slug(n): n for n in K.STRUCT_NAMES}
    pre = by_slug.get(slug(value))
    if pre is None:
        raise UserError(f"province data: {name} prereq {value!r}; allowed: none, "
                        f"{', '.join(K.STRUCT_NAMES)}")
    return pre


def build(doc: dict[str, Any]):
    from sim.province.game import Province

    rows = {r["name"]: r for r in doc["structures"]}
    if sorted(rows) != sorted(K.STRUCT_NAMES):
        raise UserError(f"province data: the structures must be {', '.join(K.STRUCT_NAMES)}")
    structures: dict[str, tuple] = {}
    constants = dict(doc["constants"])
    for name in K.STRUCT_NAMES:
        r = rows[name]
        pre = _prereq(r["prereq"], name)
        structures[name] = (r["labor"], r["coins"], r["vp_first"], r["vp_copy"], pre)
        for f, c, _i in _PRODUCTION.get(name, ()):
            constants[c] = r[f]
    # a prerequisite chain must end (no structure may need itself, directly or not)
    for name in K.STRUCT_NAMES:
        seen, cur = {name}, structures[name][4]
        while cur is not None:
            if cur in seen:
                raise UserError(f"province data: the prerequisites of {name} form a loop; "
                                f"set one prereq to none")
            seen.add(cur)
            cur = structures[cur][4]
    goals = [(g["name"], g["condition"], g["threshold"]) for g in doc["goals"]]
    if len(goals) > K.MAXG:
        raise UserError(f"province data: at most {K.MAXG} goal tokens")
    if int(constants.get("goals_total", len(goals))) > len(goals):
        raise UserError(f"province data: goals_total is more than the {len(goals)} goal tokens")
    assert len(structures) == K.NS
    return Province(structures, goals, constants)
