"""Province: the game object behind ``sim.get_game("province")``.

Rules: shared/rules/province.md; encoding, procedures and state dict: docs/games/province.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.checks import DictReader, check_doc_limits
from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
from sim.province import constants as K
from sim.province import data
from sim.province import invariants as _inv
from sim.province.kernels import (
    ProvinceState,
    alloc_state,
    score_of,
)
from sim.province.options import OPTIONS


class _Views:
    """Named numpy views into the flat state array (docs/games/province.md §10 names)."""

    def __init__(self, x: np.ndarray):
        self.meta = x[:K.N_META]
        self.opts = x[K.X_OPTS: K.X_OPTS + K.N_OPTS]
        self.consts = x[K.X_CONSTS: K.X_CONSTS + K.N_CONSTS]
        self.sdata = x[K.X_SD: K.X_SD + K.NS * K.NSCOL].reshape(K.NS, K.NSCOL)
        self.gdata = x[K.X_GD: K.X_GD + K.MAXG * 2].reshape(K.MAXG, 2)
        self.coins = x[K.X_COINS: K.X_COINS + 2]
        self.pos = x[K.X_POS: K.X_POS + K.NW]
        self.hired = x[K.X_HIRED: K.X_HIRED + 2]
        self.owned = x[K.X_OWN: K.X_OWN + 2 * K.NS].reshape(2, K.NS)
        self.bturn = x[K.X_BT: K.X_BT + 2 * K.NS].reshape(2, K.NS)
        self.fb = x[K.X_FB: K.X_FB + K.NS]
        self.gstack = x[K.X_GS: K.X_GS + K.MAXG]
        self.gres = x[K.X_GR: K.X_GR + K.MAXG]
        self.stats = x[K.X_ST: K.X_ST + 2 * K.NSTATS].reshape(2, K.NSTATS)


def _goal_key(name: str) -> str:
    return name.lower().replace(" ", "_")


class Province(Game):
    """Province, 2 players: shared work cycle, first-builder VP, goal tokens (spec §1-§5)."""

    id = "province"
    version = "1"  # changes only when the games played change (the manifest records it)
    invariant_messages = _inv.MESSAGES  # the codes of the kernel _inv.invariants
    title = "Province"
    min_players = 2
    max_players = 2
    num_actions = K.NUM_ACTIONS
    options = OPTIONS
    end_reasons = K.END_REASONS
    information = "imperfect"
    chance = "sampled"
    hidden = ("the face-down goal tokens",)
    results = ("seven_structures", "all_types", "goals")
    spec = "shared/rules/province.md"
    data_status = data.DATA_STATUS
    impact_groups = [
        {"prefix": "built_", "title": "Structures", "noun": "structure", "verb": "built",
         "include": None},
        {"prefix": "goal_", "title": "Goal tokens", "noun": "goal token", "verb": "claimed",
         "include": None},
    ]

    def __init__(self, structures: dict | None = None, goals: list | None = None,
                 constants: dict | None = None):
        self.sdata = data.structures_array(structures)
        self.gdata, self.goal_names = data.goals_array(goals)
        self.consts = data.consts_array(constants, len(self.goal_names))
        self._seat_detail = (
            tuple(f"built_{n.lower()}" for n in K.STRUCT_NAMES)
            + tuple(f"turnbuilt_{n.lower()}" for n in K.STRUCT_NAMES)
            + tuple(f"goal_{_goal_key(n)}" for n in self.goal_names)
            + tuple(f"goalin_{_goal_key(n)}" for n in self.goal_names)
            + tuple(m for m in K.MISC_NAMES if m != "score")
        )

    @property
    def seat_detail(self) -> tuple[str, ...]:
        """Names of the per-seat detail columns (they name this instance's goal tokens)."""
        return self._seat_detail

    def max_game_length(self, options: dict[str, Any] | None = None) -> int:
        """Decisions: ``max_turns * 128`` (the engine's safety cap, docs §4)."""
        return int(self.resolve_options(options)["max_turns"]) * K.DECISIONS_PER_TURN_CAP

    def _alloc(self, resolved: dict) -> ProvinceState:
        opts = self.options.encode(resolved)
        sdata = data.apply_tweak(self.sdata, resolved["recon_tweak"])
        return alloc_state(opts, sdata, self.gdata, self.consts)

    # ---- interface ----------------------------------------------------------------------
    def scores(self, state) -> np.ndarray:
        """VP per seat, ``int64[2]`` (docs §8; the current VP before the end)."""
        return np.array([score_of(state.x, 0), score_of(state.x, 1)], np.int64)

    def ranks(self, state) -> np.ndarray:
        """Rank per seat: winners 1, the other 2; all 0 before the end and in a 'limit' game."""
        w = self.winners(state)
        if not w:
            return np.zeros(2, np.int64)
        return np.array([1 if p in w else 2 for p in range(2)], np.int64)

    # ---- strings ----------------------------------------------------------------------
    def action_to_string(self, state, action: int) -> str:
        a = int(action)
        v = _Views(state.x)
        c = int(v.meta[K.M_CUR])
        if a == K.A_END:
            return "END_TURN"
        if 0 < a < K.A_BUILD:
            parts = []
            for i in range(8):
                if (a >> i) & 1:
                    if i < 3:
                        name, w = f"green{i}", i
                    elif i == 3:
                        name, w = "yellow", 3
                    elif i == 4:
                        name, w = "orange", 4
                    else:
                        name, w = f"sailor{i - 5}", K.W_SAILOR0 + 3 * c + i - 5
                    p = int(v.pos[w])
                    if p >= 0:
                        name += f"({K.SPACE_NAMES[p]}->{K.SPACE_NAMES[(p + 1) % 3]})"
                    parts.append(name)
            return "MOVE " + ", ".join(parts)
        if K.A_BUILD <= a < K.A_GRIND:
            return f"BUILD {K.STRUCT_NAMES[a - K.A_BUILD]}"
        names = {K.A_GRIND: "GRIND", K.A_UNION: "UNION", K.A_HIRE: "HIRE", K.A_TAKE: "TAKE_LENDER",
                 K.A_REPAY: "REPAY_LENDER"}
        if a in names:
            return names[a]
        raise UserError(f"province: action {a} out of range 0..{K.NUM_ACTIONS - 1}")

    def state_to_string(self, state) -> str:
        d = self.state_to_dict(state)
        sc = self.scores(state)
        if d["phase"] == "over":
            head = (f"Province over after {d['turn']} turns ({d['end_reason']}): "
                    + ("winners " + ",".join(f"P{w}" for w in d["winners"]) if d["winners"]
                       else "no winner"))
        else:
            head = (f"Province turn {d['turn']}, decision {d['decisions']}, phase {d['phase']}, "
                    f"P{d['current']} to act, labor {d['labor']}, ships {d['ships']}")
        w = d["workers"]
        lines = [
            head,
            f"  supply {d['supply']}; greens {w['green']} yellow {w['yellow']} orange "
            f"{w['orange']} sailors {w['sailors']} (0=C 1=A 2=B)",
            f"  lender {d['lender']}; goals " + " ".join(
                f"{g}[{'face up' if i == d['goals']['next'] else r}]"
                for i, (g, r) in enumerate(zip(d["goals"]["stack"], d["goals"]["result"]))),
        ]
        for p in range(2):
            lines.append(f"  P{p}: {int(sc[p])} VP, {d['coins'][p]} coins, "
                         f"built {', '.join(d['owned'][p]) or '-'}")
        return "\n".join(lines)

    # ---- dict form (docs/games/province.md §10) -----------------------------------------
    def state_to_dict(self, state) -> dict:
        v = _Views(state.x)
        m = v.meta
        sd = v.sdata
        gd = v.gdata
        ngoals = int(v.consts[K.CONST_NAMES.index("goals_total")])
        gn = int(m[K.M_GN])
        ships = int(m[K.M_SHIPS])
        pos = v.pos
        win = int(m[K.M_WIN])
        return {
            "game": self.id,
            "options": self.options.decode(v.opts),
            "data": {
                "structures": [
                    {"name": K.STRUCT_NAMES[k], "labor": int(sd[k, K.S_L]), "coins": int(sd[k, K.S_C]),
                     "vp_first": int(sd[k, K.S_VP1]), "vp_copy": int(sd[k, K.S_VP2]),
                     "prereq": None if sd[k, K.S_PRE] < 0 else K.STRUCT_NAMES[int(sd[k, K.S_PRE])]}
                    for k in range(K.NS)
                ],
                "goals": [
                    {"name": self._goal_name(i), "condition": K.COND_NAMES[int(gd[i, 0])],
                     "threshold": int(gd[i, 1])}
                    for i in range(ngoals)
                ],
                "constants": {k: int(v.consts[i]) for i, k in enumerate(K.CONST_NAMES)},
            },
            "rng": "0x%016x" % int(state.rng[0]),
            "first_player": int(m[K.M_FIRST]),
            "current": int(m[K.M_CUR]),
            "phase": K.PHASES[int(m[K.M_PHASE])],
            "turn": int(m[K.M_TURN]),
            "decisions": int(m[K.M_DEC]),
            "coins": [int(v.coins[0]), int(v.coins[1])],
            "supply": int(v.opts[K.O_COIN_TOTAL] - v.coins[0] - v.coins[1]),
            "labor": int(m[K.M_LABOR]),
            "workers": {
                "green": [int(pos[0]), int(pos[1]), int(pos[2])],
                "yellow": int(pos[3]),
                "orange": int(pos[4]),
                "sailors": [[int(pos[K.W_SAILOR0 + 3 * p + k]) for k in range(3)] for p in range(2)],
            },
            "owned": [[K.STRUCT_NAMES[k] for k in range(K.NS) if v.owned[p, k]] for p in range(2)],
            "first_builder": [int(x) for x in v.fb],
            "built_turn": [[int(x) for x in v.bturn[p]] for p in range(2)],
            "ships": "none" if ships < 0 else K.SHIP_NAMES[ships],
            "lender": {"holder": int(m[K.M_LHOLDER]), "taken_turn": int(m[K.M_LTURN])},
            "goals": {
                "stack": [self._goal_name(int(g)) for g in v.gstack[:gn]],
                "next": int(m[K.M_GNEXT]),
                "result": [int(x) for x in v.gres[:gn]],
            },
            "this_turn": {
                "labor_gained": int(m[K.M_GAINED]), "moved": int(m[K.M_MOVED]),
                "grinds": int(m[K.M_GRINDS]), "built": bool(m[K.M_BUILT]),
                "hired": bool(m[K.M_HIRED_T]),
            },
            "end_trigger": K.END_REASONS[int(m[K.M_TRIG])],
            "last_turn": bool(m[K.M_LAST]),
            "end_reason": K.END_REASONS[int(m[K.M_END])],
            "winners": [] if win < 0 else ([0, 1] if win == K.WIN_DRAW else [win]),
            "stats": {
                "supply_ran_dry": bool(m[K.M_DRY]),
                "coins_missed": [int(x) for x in v.stats[:, 0]],
                "lender_takes": [int(x) for x in v.stats[:, 1]],
                "lender_steals": [int(x) for x in v.stats[:, 2]],
            },
        }

    def _goal_name(self, i: int) -> str:
        return self.goal_names[i] if i < len(self.goal_names) else f"goal{i}"

    def _state_from_dict(self, d: dict) -> ProvinceState:
        """Build a state from the dict layout of docs/games/province.md §10. Every field is
        checked first (``_check_dict``), the invariants after. Raises UserError naming the
        field, the value and the allowed range."""
        self._check_dict(d)
        try:
            resolved = self.resolve_options(d["options"])
            opts = self.options.encode(resolved)
            dd = d["data"]
            structs = {}
            for k, e in enumerate(dd["structures"]):
                if e["name"] != K.STRUCT_NAMES[k]:
                    raise UserError(f"state dict: structure {k} must be {K.STRUCT_NAMES[k]}")
                structs[e["name"]] = (e["labor"], e["coins"], e["vp_first"], e["vp_copy"],
                                      e["prereq"])
            sdata = data.structures_array(structs)
            goals = [(e["name"], e["condition"], e["threshold"]) for e in dd["goals"]]
            gdata, gnames = data.goals_array(goals)
            consts = data.consts_array(dd["constants"], len(goals))
            s = alloc_state(opts, sdata, gdata, consts)
            v = _Views(s.x)
            m = v.meta
            m[K.M_FIRST] = d["first_player"]
            m[K.M_CUR] = d["current"]
            m[K.M_PHASE] = K.PHASES.index(d["phase"])
            m[K.M_TURN] = d["turn"]
            m[K.M_DEC] = d["decisions"]
            v.coins[:] = d["coins"]
            if d["supply"] != resolved["coin_total"] - sum(d["coins"]) or d["supply"] < 0:
                raise UserError("state dict: supply must equal coin_total - coins and be >= 0")
            m[K.M_LABOR] = d["labor"]
            w = d["workers"]
            v.pos[:3] = w["green"]
            v.pos[3] = w["yellow"]
            v.pos[4] = w["orange"]
            for p in range(2):
                v.pos[K.W_SAILOR0 + 3 * p: K.W_SAILOR0 + 3 * p + 3] = w["sailors"][p]
                sail = list(w["sailors"][p])
                v.hired[p] = sum(1 for x in sail if x >= 0)
                if any(x < 0 for x in sail[: v.hired[p]]):
                    raise UserError("state dict: sailors are hired in order (k < hired on the cycle)")
                for name in d["owned"][p]:
                    v.owned[p, K.STRUCT_NAMES.index(name)] = 1
                v.bturn[p] = d["built_turn"][p]
            if any(x not in (-1, 0, 1, 2) for x in v.pos):
                raise UserError("state dict: worker positions must be -1, 0, 1 or 2")
            v.fb[:] = d["first_builder"]
            m[K.M_SHIPS] = -1 if d["ships"] == "none" else K.SHIP_NAMES.index(d["ships"])
            m[K.M_LHOLDER] = d["lender"]["holder"]
            m[K.M_LTURN] = d["lender"]["taken_turn"]
            g = d["goals"]
            stack = [gnames.index(x) for x in g["stack"]]
            if not 1 <= len(stack) <= K.MAXG or len(g["result"]) != len(stack):
                raise UserError("state dict: goals.stack and goals.result: 1..9 entries each")
            m[K.M_GN] = len(stack)
            v.gstack[: len(stack)] = stack
            v.gres[: len(stack)] = g["result"]
            m[K.M_GNEXT] = g["next"]
            t = d["this_turn"]
            m[K.M_GAINED] = t["labor_gained"]
            m[K.M_MOVED] = t["moved"]
            m[K.M_GRINDS] = t["grinds"]
            m[K.M_BUILT] = int(bool(t["built"]))
            m[K.M_HIRED_T] = int(bool(t["hired"]))
            m[K.M_TRIG] = K.END_REASONS[:4].index(d["end_trigger"])
            m[K.M_LAST] = int(bool(d["last_turn"]))
            m[K.M_END] = K.END_REASONS.index(d["end_reason"])
            wn = list(d["winners"])
            m[K.M_WIN] = -1 if not wn else (K.WIN_DRAW if len(wn) == 2 else wn[0])
            st = d["stats"]
            m[K.M_DRY] = int(bool(st["supply_ran_dry"]))
            v.stats[:, 0] = st["coins_missed"]
            v.stats[:, 1] = st["lender_takes"]
            v.stats[:, 2] = st["lender_steals"]
            s.rng[0] = np.uint64(int(d["rng"], 16))
        except UserError:
            raise
        except (KeyError, ValueError, TypeError, IndexError, OverflowError) as e:
            raise UserError(f"province state dict: malformed ({type(e).__name__}: {e})") from None
        return s

    def _check_dict(self, d: dict) -> None:
        """Every field of a state dict (docs §10): type, length and range; the data block
        within the component tables' ranges (``components.SCHEMA``). Raises UserError."""
        SCHEMA = self._components().SCHEMA  # components.py imports this module: no import

        r = DictReader(self.id)
        r.dict(d, "state")
        g = lambda key, d=d, w="": r.get(d, key, f"{w}{key}")  # noqa: E731
        resolved = self.resolve_options(r.dict(g("options"), "options"))
        dd = r.dict(g("data"), "data")
        structs = r.list(r.get(dd, "structures", "data.structures"), "data.structures", K.NS)
        rows = {}
        for k, e in enumerate(structs):
            w = f"data.structures[{k}]"
            r.dict(e, w)
            if r.get(e, "name", f"{w}.name") != K.STRUCT_NAMES[k]:
                raise r.fail(f"{w}.name", e["name"], f"must be {K.STRUCT_NAMES[k]}")
            pre = r.get(e, "prereq", f"{w}.prereq")
            if pre is not None:
                r.choice(pre, f"{w}.prereq", K.STRUCT_NAMES)
            row = {f: r.get(e, f, f"{w}.{f}") for f in ("labor", "coins", "vp_first",
                                                          "vp_copy")}
            row["prereq"] = pre or "none"
            rows[K.STRUCT_NAMES[k]] = row
        goals = r.list(r.get(dd, "goals", "data.goals"), "data.goals", max_len=K.MAXG)
        if not goals:
            raise r.fail("data.goals", goals, f"1..{K.MAXG} goal tokens")
        gnames = []
        for i, e in enumerate(goals):
            w = f"data.goals[{i}]"
            r.dict(e, w)
            name = r.get(e, "name", f"{w}.name")
            if not isinstance(name, str) or not name or len(name) > 40:
                raise r.fail(f"{w}.name", name, "a name of 1..40 characters")
            gnames.append(name)
            r.choice(r.get(e, "condition", f"{w}.condition"), f"{w}.condition", K.COND_NAMES)
        if len(set(gnames)) != len(gnames):
            raise r.fail("data.goals", gnames, "distinct names")
        consts = r.dict(r.get(dd, "constants", "data.constants"), "data.constants")
        doc = {"structures": [{"name": n, **rows[n]} for n in K.STRUCT_NAMES],
               "goals": [{"name": e["name"], "condition": e["condition"],
                          "threshold": e.get("threshold")} for e in goals],
               "constants": dict(consts)}
        for name, fields in (("Mill", (("labor_income", "mill_labor"),)),
                             ("Union", (("trade_coins", "union_coins"),
                                        ("trade_labor", "union_labor"))),
                             ("Harbor", (("ship_labor", "harbor_labor"),
                                         ("ship_coins", "harbor_coins")))):
            for f, c in fields:
                doc["structures"][K.STRUCT_NAMES.index(name)][f] = doc["constants"].pop(c, 0)
        for table, node in doc.items():  # whole numbers, then the schema's ranges
            for row in (node if isinstance(node, list) else [node]):
                for f, v in row.items():
                    if f not in ("name", "prereq", "condition"):
                        r.int(v, f"data.{table}.{f}", -(2**31), 2**31 - 1)
        check_doc_limits(doc, SCHEMA, self.id, "state dict data")
        # the data's own checks (prerequisite loops, goal counts)
        self._components().build(doc)._check_data()
        max_turns = int(resolved["max_turns"])
        big = 1_000_000
        r.int(g("first_player"), "first_player", 0, 1)
        r.int(g("current"), "current", 0, 1)
        phase = r.choice(g("phase"), "phase", K.PHASES)
        turn = r.int(g("turn"), "turn", 0, max_turns + 1)
        r.int(g("decisions"), "decisions", 0, self.max_game_length(resolved))
        total = int(resolved["coin_total"])
        coins = r.ints(g("coins"), "coins", 0, total, 2)
        r.int(g("supply"), "supply", 0, total)
        if sum(coins) > total:
            raise r.fail("coins", coins, f"at most coin_total {total} together")
        r.int(g("labor"), "labor", 0, big)
        wk = r.dict(g("workers"), "workers")
        r.ints(r.get(wk, "green", "workers.green"), "workers.green", 0, 2, 3)
        r.int(r.get(wk, "yellow", "workers.yellow"), "workers.yellow", -1, 2)
        r.int(r.get(wk, "orange", "workers.orange"), "workers.orange", -1, 2)
        sail = r.list(r.get(wk, "sailors", "workers.sailors"), "workers.sailors", 2)
        for p in range(2):
            r.ints(sail[p], f"workers.sailors[{p}]", -1, 2, 3)
        owned = r.list(g("owned"), "owned", 2)
        for p in range(2):
            names = r.list(owned[p], f"owned[{p}]", max_len=K.NS)
            for i, nm in enumerate(names):
                r.choice(nm, f"owned[{p}][{i}]", K.STRUCT_NAMES)
            if len(set(names)) != len(names):
                raise r.fail(f"owned[{p}]", names, "each structure once")
        r.ints(g("first_builder"), "first_builder", -1, 1, K.NS)
        bt = r.list(g("built_turn"), "built_turn", 2)
        for p in range(2):
            r.ints(bt[p], f"built_turn[{p}]", -1, turn, K.NS)  # built by now
        r.choice(g("ships"), "ships", ("none",) + tuple(K.SHIP_NAMES))
        ld = r.dict(g("lender"), "lender")
        r.int(r.get(ld, "holder", "lender.holder"), "lender.holder", -1, 1)
        r.int(r.get(ld, "taken_turn", "lender.taken_turn"), "lender.taken_turn", -1, turn)
        gl = r.dict(g("goals"), "goals")
        stack = r.list(r.get(gl, "stack", "goals.stack"), "goals.stack", max_len=len(gnames))
        if not stack:
            raise r.fail("goals.stack", stack, f"1..{len(gnames)} goal tokens")
        for i, nm in enumerate(stack):
            r.choice(nm, f"goals.stack[{i}]", gnames)
        if len(set(stack)) != len(stack):
            raise r.fail("goals.stack", stack, "each goal token once")
        r.ints(r.get(gl, "result", "goals.result"), "goals.result", -2, 1, len(stack))
        r.int(r.get(gl, "next", "goals.next"), "goals.next", 0, len(stack))
        tt = r.dict(g("this_turn"), "this_turn")
        for key in ("labor_gained", "moved", "grinds"):
            r.int(r.get(tt, key, f"this_turn.{key}"), f"this_turn.{key}", 0, big)
        for key in ("built", "hired"):
            r.bool(r.get(tt, key, f"this_turn.{key}"), f"this_turn.{key}")
        r.choice(g("end_trigger"), "end_trigger", K.END_REASONS[:4])
        r.bool(g("last_turn"), "last_turn")
        end = r.choice(g("end_reason"), "end_reason", K.END_REASONS)
        if (phase == K.PHASES.index("over")) != (end != 0):
            raise r.fail("end_reason", K.END_REASONS[end], "none exactly while the game runs")
        wn = r.ints(g("winners"), "winners", 0, 1, max_len=2)
        if len(set(wn)) != len(wn) or (wn and end == 0):
            raise r.fail("winners", wn, "distinct seats, only once the game is over")
        st = r.dict(g("stats"), "stats")
        r.bool(r.get(st, "supply_ran_dry", "stats.supply_ran_dry"), "stats.supply_ran_dry")
        for key in ("coins_missed", "lender_takes", "lender_steals"):
            r.ints(r.get(st, key, f"stats.{key}"), f"stats.{key}", 0, big, 2)
        r.rng(g("rng"))

    def conformance_values(self) -> dict[str, list[Any]]:
        out = super().conformance_values()
        out["p1_coins"] = [5]
        out["p2_coins"] = [2, 5]
        out["max_turns"] = [10]
        out["recon_tweak"] = ["Bank.coins-1", "Smithy.labor-1", "Camp.coins+1"]
        return out

    EFFECTS_GAMES = {2: 40_000}
    """``boardsim run``'s component-effects study (docs/effects.md): Province 2p (the main run,
    p2_coins=3): 18 arms, about 0.028 ms of CPU per game-arm (measured): ~20 s (CPU time on the
    shared 2-core machine, docs/effects.md)."""

    def default_plan(self) -> list[dict[str, Any]]:
        """2 players (spec §9.2; about 0.97 M games in 71 runs, ~1 min of ``boardsim run
        --jobs 2`` on an idle 2-core machine once the kernels are compiled, ~2.5 min when it
        is heavily shared). Roles (read by analysis/games/province/):

        * ``<a>-vs-<b>`` (role ``pairing``): every pairing of the six bots in both seat orders,
          as two fixed-seat runs with the same seed, so game i of both orders has the same
          goal draw and bot generators; a pairing with ``random`` is the random-baseline
          comparison, role ``pairing:random-baseline``;
        * ``<a>-self`` (role ``self``; ``self:random-baseline`` for ``random``): each bot
          against itself (seat 0 always moves first);
        * ``p2coins-<c>`` (role ``sweep:p2_coins=<c>``): the second player's starting coins
          2..5, seats drawn from the recommended mix of competent bots (``RECOMMENDED_MIX`` of
          strategies/province: the five scripted bots); ``p2coins-3`` is the default rules
          with that mix, role ``main`` (the generic sections use it alone);
        * ``coins28`` (role ``variant:coin_total=28``) and ``random-self-coins28`` (role
          ``variant:coin_total=28:random-baseline``): the 28-coin supply (the scripted bots
          never empty the supply, random play can);
        * ``last-turn`` (role ``variant:final_turn=opponent_last_turn``);
        * ``tweak-<Name>.<labor|coins><p1|m1>`` (role ``tweak:<recon_tweak>``): one
          reconstructed cost changed by one.

        All pool runs share seed 13, so their games line up with ``p2coins-3`` game by game
        (same seats, goal draw and bot generators): differences are paired.
        """
        names = self.pool_strategies
        scripted = list(self.bots.RECOMMENDED_MIX)

        def baseline(role: str, bots: list[str]) -> str:
            return f"{role}:random-baseline" if "random" in bots else role

        plan: list[dict[str, Any]] = []
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                for x, y in ((a, b), (b, a)):
                    plan.append({"name": f"{x}-vs-{y}", "role": baseline("pairing", [x, y]),
                                 "players": 2, "strategies": [x, y], "seating": "fixed",
                                 "n_games": 12_000, "chunk_size": 6_000, "seed": 11})
        for a in names:
            plan.append({"name": f"{a}-self", "role": baseline("self", [a]), "players": 2,
                         "strategies": [a, a], "seating": "fixed", "n_games": 12_000,
                         "chunk_size": 6_000, "seed": 12})
        plan.append({"name": "random-self-coins28",
                     "role": "variant:coin_total=28:random-baseline",
                     "players": 2, "strategies": ["random", "random"], "seating": "fixed",
                     "n_games": 12_000, "chunk_size": 6_000, "seed": 12,
                     "options": {"coin_total": 28}})
        pool = {"players": 2, "strategies": scripted, "seating": "pool", "seed": 13}
        for c2 in (2, 3, 4, 5):
            plan.append({"name": f"p2coins-{c2}",
                         "role": "main" if c2 == 3 else f"sweep:p2_coins={c2}", **pool,
                         "n_games": 40_000, "chunk_size": 20_000,
                         "options": {"p2_coins": c2},
                         **(self.effects_plan(2) if c2 == 3 else {})})
        plan.append({"name": "coins28", "role": "variant:coin_total=28", **pool,
                     "n_games": 10_000, "chunk_size": 5_000, "options": {"coin_total": 28}})
        plan.append({"name": "last-turn", "role": "variant:final_turn=opponent_last_turn",
                     **pool, "n_games": 20_000, "chunk_size": 10_000,
                     "options": {"final_turn": "opponent_last_turn"}})
        for t in data.TWEAKS[1:]:
            plan.append({"name": "tweak-" + t.replace("+", "p").replace("-", "m"),
                         "role": f"tweak:{t}", **pool, "n_games": 12_000, "chunk_size": 6_000,
                         "options": {"recon_tweak": t}})
        return plan

    def _play_chunk(self, s, first_game, n_games, run_seed, n_players, seat_idx, codes,
                    params) -> ChunkResult:
        """The bots' loop over the chunk (Game.run_chunk); seat detail: ``seat_detail``."""
        n = n_games
        turns = np.zeros(n, np.int64)
        decisions = np.zeros(n, np.int64)
        end_reason = np.zeros(n, np.int64)
        first = np.zeros(n, np.int64)
        winner = np.zeros(n, np.int64)
        built = np.zeros((n, 2, K.NS), np.int64)
        tbuilt = np.zeros((n, 2, K.NS), np.int64)
        ng = len(self.goal_names)
        goal = np.zeros((n, 2, K.MAXG), np.int64)
        goalin = np.zeros((n, K.MAXG), np.int64)
        misc = np.zeros((n, 2, len(K.MISC_NAMES)), np.int64)
        ahash = np.zeros(n, np.uint64)
        self.bots.run_games(s.x, s.rng, first_game, n, run_seed, seat_idx, codes, params,
                            turns, decisions, end_reason, first, winner, built, tbuilt, goal, goalin,
                            misc, ahash)
        share = np.zeros((n, 2), np.float64)
        rank = np.zeros((n, 2), np.int64)
        for p in range(2):
            won = (winner == p) | (winner == K.WIN_DRAW)
            share[:, p] = np.where(winner == K.WIN_DRAW, 0.5, np.where(winner == p, 1.0, 0.0))
            rank[:, p] = np.where(winner < 0, 0, np.where(won, 1, 2))
        detail: dict[str, np.ndarray] = {}
        for k, name in enumerate(K.STRUCT_NAMES):
            detail[f"built_{name.lower()}"] = built[:, :, k]
        for k, name in enumerate(K.STRUCT_NAMES):
            detail[f"turnbuilt_{name.lower()}"] = tbuilt[:, :, k]
        for i in range(ng):
            key = _goal_key(self.goal_names[i])
            detail[f"goal_{key}"] = goal[:, :, i]
        for i in range(ng):
            key = _goal_key(self.goal_names[i])
            detail[f"goalin_{key}"] = np.repeat(goalin[:, i:i + 1], 2, axis=1)
        for j, name in enumerate(K.MISC_NAMES):
            if name != "score":
                detail[name] = misc[:, :, j]
        return ChunkResult(turns, decisions, end_reason, first, misc[:, :, 0].copy(), rank,
                           share, detail, action_hash=ahash)


GAME_CLASS = Province
