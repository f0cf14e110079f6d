"""Province: the game object behind ``sim.get_game("province")``.

Rules: shared/rules/province.md; encoding, procedures and state dict: docs/games/province.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.checks import check_doc_limits
from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
from sim.core.schema import Ctx, Field, StateSchema, header_fields, read_header
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

    def _goal_name(self, i: int) -> str:
        return self.goal_names[i] if i < len(self.goal_names) else f"goal{i}"

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


# ---- dict form (docs/games/province.md §10): the declared state ---------------------------
def _views(state) -> _Views:
    v = _Views(state.x)
    v.rng = state.rng
    return v


def _data_get(g, s, v, n) -> dict:
    sd, gd = v.sdata, v.gdata
    ngoals = int(v.consts[K.CONST_NAMES.index("goals_total")])
    return {
        "structures": [
            {"name": K.STRUCT_NAMES[k], "labor": int(sd[k, K.S_L]), "coins": int(sd[k, K.S_C]),
             "vp_first": int(sd[k, K.S_VP1]), "vp_copy": int(sd[k, K.S_VP2]),
             "prereq": None if sd[k, K.S_PRE] < 0 else K.STRUCT_NAMES[int(sd[k, K.S_PRE])]}
            for k in range(K.NS)],
        "goals": [{"name": g._goal_name(i), "condition": K.COND_NAMES[int(gd[i, 0])],
                   "threshold": int(gd[i, 1])} for i in range(ngoals)],
        "constants": {k: int(v.consts[i]) for i, k in enumerate(K.CONST_NAMES)},
    }


def _start(game, r, d) -> Ctx:
    """The header: the options and the data block (the component tables' ranges, then the
    data's own checks: prerequisite loops, goal counts), then the state allocated."""
    _, resolved = read_header(game, r, d, players=False)
    dd = r.dict(r.get(d, "data", "data"), "data")
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
        row = {f: r.get(e, f, f"{w}.{f}") for f in ("labor", "coins", "vp_first", "vp_copy")}
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
            for f, x in row.items():
                if f not in ("name", "prereq", "condition"):
                    r.int(x, f"data.{table}.{f}", -(2**31), 2**31 - 1)
    check_doc_limits(doc, game._components().SCHEMA, game.id, "state dict data")
    game._components().build(doc)._check_data()  # the data's own checks
    sdata = data.structures_array({e["name"]: (e["labor"], e["coins"], e["vp_first"],
                                               e["vp_copy"], e["prereq"]) for e in structs})
    gdata, gnames = data.goals_array([(e["name"], e["condition"], e["threshold"])
                                      for e in goals])
    s = alloc_state(game.options.encode(resolved), sdata, gdata,
                    data.consts_array(consts, len(goals)))
    return Ctx(game, 2, resolved, s, dict(gnames=gnames))


def _supply_get(g, s, v, n) -> int:
    return int(v.opts[K.O_COIN_TOTAL] - v.coins[0] - v.coins[1])


def _supply_put(game, r, value, ctx, where, p) -> None:
    total = int(ctx.resolved["coin_total"])
    supply = r.int(value, where, 0, total)
    coins = ctx.v.coins
    if coins.sum() > total:
        raise r.fail("coins", [int(x) for x in coins], f"at most coin_total {total} together")
    if supply != total - coins.sum():
        raise r.fail(where, supply, "must equal coin_total - coins")


def _sailors_get(g, s, v, n) -> list:
    return [[int(v.pos[K.W_SAILOR0 + 3 * p + k]) for k in range(3)] for p in range(2)]


def _sailors_put(game, r, value, ctx, where, p) -> None:
    """Each seat's three sailors (-1 not hired, else the cycle space), hired in order."""
    v = ctx.v
    sail = r.list(value, where, 2)
    for q in range(2):
        row = r.ints(sail[q], f"{where}[{q}]", -1, 2, 3)
        v.pos[K.W_SAILOR0 + 3 * q: K.W_SAILOR0 + 3 * q + 3] = row
        v.hired[q] = sum(1 for x in row if x >= 0)
        if any(x < 0 for x in row[: v.hired[q]]):
            raise r.fail(f"{where}[{q}]", row, "sailors are hired in order (k < hired on the "
                         "cycle)")


def _winners_get(g, s, v, n) -> list:
    win = int(v.meta[K.M_WIN])
    return [] if win < 0 else ([0, 1] if win == K.WIN_DRAW else [win])


def _winners_put(game, r, value, ctx, where, p) -> None:
    wn = r.ints(value, where, 0, 1, max_len=2)
    if len(set(wn)) != len(wn) or (wn and ctx.v.meta[K.M_END] == 0):
        raise r.fail(where, wn, "distinct seats, only once the game is over")
    ctx.v.meta[K.M_WIN] = -1 if not wn else (K.WIN_DRAW if len(wn) == 2 else wn[0])


def _check(game, r, ctx) -> None:
    """Province's cross-field rules: an end reason exactly once over; each goal token of
    the stack once."""
    m = ctx.v.meta
    end = int(m[K.M_END])
    if (m[K.M_PHASE] == K.PHASES.index("over")) != (end != 0):
        raise r.fail("end_reason", K.END_REASONS[end], "none exactly while the game runs")
    stack = [int(x) for x in ctx.v.gstack[: m[K.M_GN]]]
    if not stack:
        raise r.fail("goals.stack", [], f"1..{len(ctx.extra['gnames'])} goal tokens")
    if len(set(stack)) != len(stack):
        raise r.fail("goals.stack", [ctx.extra["gnames"][i] for i in stack],
                     "each goal token once")


def _goal_names(c) -> list[str]:
    return c.extra.get("gnames") or [c.game._goal_name(i) for i in range(K.MAXG)]


def _turn(c) -> int:
    return int(c.v.meta[K.M_TURN])


_SCHEMA = StateSchema([
    *header_fields(_data_get, players=False),
    Field("rng", ("rng", 0), "rng"),
    Field("first_player", ("meta", K.M_FIRST), hi=1),
    Field("current", ("meta", K.M_CUR), hi=1),
    Field("phase", ("meta", K.M_PHASE), "enum", names=K.PHASES),
    Field("turn", ("meta", K.M_TURN), hi=lambda c: int(c.resolved["max_turns"]) + 1),
    Field("decisions", ("meta", K.M_DEC), hi=lambda c: c.game.max_game_length(c.resolved)),
    Field("coins", ("coins", slice(None)), "ints", hi=lambda c: int(c.resolved["coin_total"])),
    Field("supply", kind="hook", get=_supply_get, put=_supply_put),
    Field("labor", ("meta", K.M_LABOR)),
    Field("workers.green", ("pos", slice(0, 3)), "ints", hi=2),
    Field("workers.yellow", ("pos", 3), lo=-1, hi=2),
    Field("workers.orange", ("pos", 4), lo=-1, hi=2),
    Field("workers.sailors", kind="hook", get=_sailors_get, put=_sailors_put,
          uses=("pos", "hired")),
    Field("owned[]", ("owned", "p", slice(None)), "members", names=K.STRUCT_NAMES),
    Field("first_builder", ("fb", slice(None)), "ints", lo=-1, hi=1),
    Field("built_turn[]", ("bturn", "p", slice(None)), "ints", lo=-1, hi=_turn),
    Field("ships", ("meta", K.M_SHIPS), "enum", names=("none",) + tuple(K.SHIP_NAMES),
          base=-1),
    Field("lender.holder", ("meta", K.M_LHOLDER), lo=-1, hi=1),
    Field("lender.taken_turn", ("meta", K.M_LTURN), lo=-1, hi=_turn),
    Field("goals.stack", ("gstack", slice(None)), "names", names=_goal_names,
          count=("meta", K.M_GN), length=lambda c: len(c.extra["gnames"]), hidden=True),
    Field("goals.next", ("meta", K.M_GNEXT), hi=lambda c: int(c.v.meta[K.M_GN])),
    Field("goals.result", ("gres", slice(None)), "ints", lo=-2, hi=1, count=("meta", K.M_GN),
          same_count=True),
    Field("this_turn.labor_gained", ("meta", K.M_GAINED)),
    Field("this_turn.moved", ("meta", K.M_MOVED)),
    Field("this_turn.grinds", ("meta", K.M_GRINDS)),
    Field("this_turn.built", ("meta", K.M_BUILT), "bool"),
    Field("this_turn.hired", ("meta", K.M_HIRED_T), "bool"),
    Field("end_trigger", ("meta", K.M_TRIG), "enum", names=K.END_REASONS[:4]),
    Field("last_turn", ("meta", K.M_LAST), "bool"),
    Field("end_reason", ("meta", K.M_END), "enum", names=K.END_REASONS),
    Field("winners", kind="hook", get=_winners_get, put=_winners_put, uses=("meta",)),
    Field("stats.supply_ran_dry", ("meta", K.M_DRY), "bool"),
    Field("stats.coins_missed", ("stats", slice(None), 0), "ints"),
    Field("stats.lender_takes", ("stats", slice(None), 1), "ints"),
    Field("stats.lender_steals", ("stats", slice(None), 2), "ints"),
], data=("opts", "consts", "sdata", "gdata"), views=_views, start=_start, check=_check,
    game_id="province")
Province.state_schema = _SCHEMA


GAME_CLASS = Province
