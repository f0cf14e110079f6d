"""Suburbia component data as tables (balance lab): the 50 building tiles, the Lake and the
1 More Round tile, the 20 goals, the red lines and the set-up numbers (spec §2-§4;
docs/games/suburbia.md §1).

A tile row: ``stack`` (basic/A/B/C/none), ``classes`` (type and icons, e.g. ``C restaurant``),
``count`` (tiles in the box), ``price``, ``immediate`` (Inc, Rep, Pop, $ when placed: parts
``income``, ``reputation``, ``population``, ``money``), and up to three effect records as
``effect`` (the amounts, parts ``e1``..``e3``) and ``effect_rule`` (what each amount counts:
``"<stat> <scope> <targets>"``, e.g. ``"Rep adj R C I"``; ``""`` = no record). Paths:
``tiles.freeway.price``, ``tiles.suburbs.immediate.population``, ``tiles.freeway.effect.e2``,
``tiles.freeway.effect_rule.e2``, ``goals.builder.bonus``, ``red_lines.1.population``,
``constants.start_money``, ``constants.stack_size.p3``.

The Lake and the 1 More Round tile are in ``specials`` (they are not bought from the market and
have no ``tile_*`` result column).

Rule options that write tile numbers at set-up (docs §1.1 "Option overrides") win over these
tables: ``hoa_price`` always sets the Homeowners Association price and ``recycling_plant_rep``
always sets the Recycling Plant's immediate Rep, so changing those two numbers here is refused
(use the options); ``office_building_target``, ``parking_lot_immediate``,
``postal_service_immediate`` and ``b_stack_counts`` overwrite their tile only when set away from
their defaults.
"""

from __future__ import annotations

from typing import Any

from sim.core.components import (
    ComponentSchema,
    ImpactLink,
    PlausibleRange,
    Tunable,
    interpretations_of,
)
from sim.core.errors import UserError
from sim.suburbia import constants as K

_STACK_NAMES = ("basic", "A", "B", "C", "none")  # by code STACK_BASIC .. STACK_NONE
_IMM = ("income", "reputation", "population", "money")
_REC = tuple(f"e{r + 1}" for r in range(K.MAXREC))
_N_BUILDINGS = 50  # kinds 1..50 are tiles; 51 Lake, 52 1 More Round
_PLAYERS = ("p1", "p2", "p3", "p4")
# (row, field, part index or None, rule option that always sets it)
_OPTION_SET = (("Homeowners Association", "price", None, "hoa_price"),
               ("Recycling Plant", "immediate", 1, "recycling_plant_rep"))

_TILE_STATUS = ("counts, prices and effects confirmed by four independent data sets; the "
                "contested values (HOA price, Office Building target, Parking Lot, B counts, "
                "Postal Service, Recycling Plant) are rule options that write these numbers "
                "at set-up")

def _ranges():
    """Spec §7: the goals' population bonuses (10/15/20) come from a single code source."""
    from sim.core.components import slug
    from sim.suburbia.data import GOALS

    return tuple(PlausibleRange(f"goals.{slug(g[0])}.bonus", g[4] - 5, g[4] + 5,
                                "spec §7: goal bonuses (10/15/20) from a single code source; "
                                "one step of 5 either side")
                 for g in GOALS)


def _interpretations():
    from sim.suburbia.options import OPTIONS

    return interpretations_of(OPTIONS, (
        "red_line_offset", "red_line_down", "tile_reactions", "hoa_price",
        "office_building_target", "parking_lot_immediate", "b_stack_counts", "after_scope",
        "waterfront", "counts_itself", "private_goal_ties", "invest_replay", "clamp_timing",
        "redline_tiles_down", "borough_width", "tie_break", "rep_debt", "pop_max",
        "invest_on_lake", "postal_service_immediate", "recycling_plant_rep",
        "omr_replacement"), "ASSUMPTION")


SCHEMA = ComponentSchema(
    keys={"tiles": "name", "specials": "name", "goals": "name", "red_lines": "line"},
    vectors={
        "tiles.immediate": _IMM, "tiles.effect": _REC, "tiles.effect_rule": _REC,
        "specials.immediate": _IMM, "specials.effect": _REC, "specials.effect_rule": _REC,
        "constants.stack_size": _PLAYERS, "constants.omr_block": _PLAYERS,
        "constants.public_goals": _PLAYERS,
        "constants.surcharge": tuple(f"slot{i + 1}" for i in range(7)),
    },
    signed=("tiles.immediate", "tiles.effect", "specials.immediate", "specials.effect"),
    # ranges the kernels rely on (their fixed arrays): public goals per player count fit the
    # 4 slots; the starting income and reputation lie on their tracks (-5..15); the one 1 More
    # Round tile is checked by build()
    limits={"constants.public_goals": (0, 4), "constants.start_income": (0, 15),
            "constants.start_reputation": (0, 15)},
    tunables=(
        Tunable("tiles", "price", -1, 0, 40),
        Tunable("tiles", "immediate.*", +1, -9, 15),
        Tunable("tiles", "effect.*", +1, -5, 10),
        Tunable("goals", "bonus", +1, 0, 40),
    ),
    impact=(
        ImpactLink("tile_", "tiles", title="tile (placed vs not placed)"),
        ImpactLink("invest_", "tiles", title="tile (invested in vs not)"),
        ImpactLink("goal_", "goals", title="goal (1 achieved, 0 not achieved, -1 not in play: "
                                            "compare only the games where it was in play)"),
    ),
    docs={
        "tiles": "50 building tiles (3 basic, 15 A, 17 B, 15 C): stack, classes, count, price, "
                 "immediate effect, effect records (spec §3; " + _TILE_STATUS + ")",
        "specials": "the Lake (its $ per adjacent tile) and the 1 More Round tile (spec §2, "
                    "§3; confirmed)",
        "goals": "20 goals: measure, most/fewest, targets, bonus population (spec §4; from a "
                 "single code source, unverified)",
        "red_lines": "population red lines: line N lies between population N and N+1 (spec §2; "
                     "two of three code sources; the option red_line_offset shifts them all)",
        "constants": "set-up numbers: stack sizes, 1 More Round block, extra C tiles, public "
                     "goals per player count, market surcharges, starting money/income/"
                     "reputation/population, investment markers, basic supply, goal offer "
                     "(confirmed by the rulebooks)",
    },
    ranges=_ranges(),
    interpretations=_interpretations(),
)

_CLASS_ORDER = sorted(K.CLASS_NAMES.items(), key=lambda kv: kv[1])


def _class_text(mask: int) -> str:
    return " ".join(n for n, b in _CLASS_ORDER if mask & b)


def _tile_row(t, k: int) -> dict[str, Any]:
    names = _tile_names()
    n = int(t[k, K.T_NREC])
    amounts, rules = [], []
    for r in range(K.MAXREC):
        b = K.T_REC + 4 * r
        if r < n:
            amounts.append(int(t[k, b + 1]))
            rules.append(" ".join(x for x in (K.STAT_NAMES[int(t[k, b])],
                                               K.SCOPE_NAMES[int(t[k, b + 2])],
                                               _class_text(int(t[k, b + 3]))) if x))
        else:
            amounts.append(0)
            rules.append("")
    return {"name": names[k], "stack": _STACK_NAMES[int(t[k, K.T_STACK])],
            "classes": _class_text(int(t[k, K.T_CLS])), "count": int(t[k, K.T_COUNT]),
            "price": int(t[k, K.T_PRICE]),
            "immediate": [int(t[k, K.T_IMM + i]) for i in range(len(K.STAT_NAMES))],
            "effect": amounts, "effect_rule": rules}


def _tile_names() -> tuple[str, ...]:
    from sim.suburbia.data import TILE_NAMES

    return TILE_NAMES


def document(game) -> dict[str, Any]:
    """The tables of ``game``'s ``tiles``, ``goals``, ``lines`` and ``consts`` arrays."""
    from sim.suburbia.data import CONSTANTS, GOAL_NAMES

    t = game.tiles
    tiles = [_tile_row(t, k) for k in range(1, _N_BUILDINGS + 1)]
    specials = [_tile_row(t, k) for k in range(_N_BUILDINGS + 1, K.NK)]
    goals = [{"name": GOAL_NAMES[g], "measure": K.MEASURE_NAMES[int(row[K.G_MEASURE])],
              "direction": "most" if int(row[K.G_DIR]) > 0 else "fewest",
              "targets": _class_text(int(row[K.G_MASK])), "bonus": int(row[K.G_BONUS])}
             for g, row in enumerate(game.goals)]
    c = [int(x) for x in game.consts]
    n_lines = c[-1]
    red_lines = [{"line": i + 1, "population": int(game.lines[i])} for i in range(n_lines)]
    constants: dict[str, Any] = {}
    i = 0
    for name, default in CONSTANTS.items():
        if isinstance(default, tuple):
            constants[name] = c[i: i + len(default)]
            i += len(default)
        else:
            constants[name] = c[i]
            i += 1
    assert i == len(c) - 1, "constants layout changed"
    return {"tiles": tiles, "specials": specials, "goals": goals, "red_lines": red_lines,
            "constants": constants}


def _record(rule: str, amount: int, where: str) -> tuple:
    words = rule.split()
    if len(words) < 2:
        raise UserError(f"suburbia data: {where} {rule!r}: expected '<stat> <scope> "
                        f"[targets]', stats: {', '.join(K.STAT_NAMES)}; scopes: "
                        f"{', '.join(K.SCOPE_NAMES)}")
    stat, scope, targets = words[0], words[1], " ".join(words[2:])
    if stat not in K.STAT_NAMES:
        raise UserError(f"suburbia data: {where}: unknown stat {stat!r}; allowed: "
                        f"{', '.join(K.STAT_NAMES)}")
    if scope not in K.SCOPE_NAMES:
        raise UserError(f"suburbia data: {where}: unknown scope {scope!r}; allowed: "
                        f"{', '.join(K.SCOPE_NAMES)}")
    return (stat, int(amount), scope, targets)


def _tile_tuple(r: dict[str, Any]) -> tuple:
    name = r["name"]
    if r["stack"] not in _STACK_NAMES:
        raise UserError(f"suburbia data: {name} stack {r['stack']!r}; allowed: "
                        f"{', '.join(_STACK_NAMES)}")
    imm = {K.STAT_NAMES[i]: int(a) for i, a in enumerate(r["immediate"]) if a}
    recs = []
    for i, (a, rule) in enumerate(zip(r["effect"], r["effect_rule"])):
        where = f"{name} effect {_REC[i]}"
        if not str(rule).strip():
            if a:
                raise UserError(f"suburbia data: {where} = {a} has no effect_rule; set "
                                f"effect_rule.{_REC[i]} (e.g. 'Inc adj C') or the amount to 0")
            continue
        recs.append(_record(str(rule), a, where))
    return (name, r["stack"], r["classes"], int(r["count"]), int(r["price"]), imm, recs)


def build(doc: dict[str, Any]):
    from sim.suburbia.data import CONSTANTS, GOALS, TILES
    from sim.suburbia.game import SuburbiaGame

    rows = list(doc["tiles"]) + list(doc["specials"])
    names = _tile_names()[1:]
    if tuple(r["name"] for r in rows) != names:
        raise UserError("suburbia data: the tile tables must list the 52 kinds in docs order")
    default = {t[0]: _tile_row_default(t) for t in TILES}
    for name, fld, part, opt in _OPTION_SET:
        row = next(r for r in rows if r["name"] == name)
        new, old = row[fld], default[name][fld]
        if (new if part is None else new[part]) != (old if part is None else old[part]):
            raise UserError(f"suburbia data: {name} {fld} is set by the rule option {opt} at "
                            f"set-up; change that option instead")
    for r in doc["tiles"]:  # a tile stays in its kind of stack (basic, or one of A/B/C)
        was = default[r["name"]]["stack"]
        if (r["stack"] == "basic") != (was == "basic") or r["stack"] == "none":
            allowed = "basic" if was == "basic" else "A, B, C"
            raise UserError(f"suburbia data: {r['name']} stack {r['stack']!r}; allowed: "
                            f"{allowed}")
    omr = next(r for r in rows if r["name"] == _tile_names()[K.K_OMR])
    if omr["count"] != 1:
        raise UserError(f"suburbia data: specials {omr['name']} count must be 1 (the one tile "
                        f"that ends the game), got {omr['count']}")
    tiles = [_tile_tuple(r) for r in rows]
    goals = []
    for g in doc["goals"]:
        if g["direction"] not in ("most", "fewest"):
            raise UserError(f"suburbia data: goal {g['name']} direction {g['direction']!r}; "
                            f"allowed: most, fewest")
        if g["measure"] not in K.MEASURE_NAMES:
            raise UserError(f"suburbia data: goal {g['name']} measure {g['measure']!r}; "
                            f"allowed: {', '.join(K.MEASURE_NAMES)}")
        goals.append((g["name"], g["measure"], 1 if g["direction"] == "most" else -1,
                      g["targets"], int(g["bonus"])))
    assert len(goals) == len(GOALS)
    red_lines = [int(r["population"]) for r in doc["red_lines"]]
    constants = {k: (tuple(v) if isinstance(CONSTANTS[k], tuple) else v)
                 for k, v in doc["constants"].items()}
    return SuburbiaGame(tiles, goals, red_lines, constants)


def _tile_row_default(t: tuple) -> dict[str, Any]:
    _name, stack, _cls, _count, price, imm, _recs = t
    return {"price": price, "immediate": [int(imm.get(s, 0)) for s in K.STAT_NAMES],
            "stack": stack}
