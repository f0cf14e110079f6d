"""Little Town (리틀 타운): the game object behind ``sim.get_game("little-town")``.

Rules: shared/rules/little_town.md; encoding, chance order and state dict:
docs/games/little_town.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.checks import check_doc_limits
from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
from sim.core.schema import Ctx, Field, StateSchema, header_fields, read_header
from sim.little_town import constants as K
from sim.little_town import data
from sim.little_town import invariants as _inv
from sim.little_town.kernels import LittleTownState, alloc_state, recompute_derived
from sim.little_town.options import OPTIONS

_PAIR_NAMES = ["+".join(K.RES_NAMES[t] for t in p) for p in K.PAIRS]


def _seat_detail() -> tuple[str, ...]:
    """Names of the per-seat detail columns of run_chunk (docs §12), in kernel order."""
    names: list[str] = []
    for prefix in ("built_", "built_round_", "act_own_", "act_by_others_", "market_",
                   "pick_"):
        names += [prefix + slug for slug in data.SLUGS]
    names += [f"goal_{c:02d}" for c in range(1, K.NCARD)]
    names += [f"goal_round_{c:02d}" for c in range(1, K.NCARD)]
    names += list(K.STAT_NAMES) + ["coins_end", "bank_min"]
    # rule holes (issue 16): the round each cube type's supply first stood at 0 (0 = never)
    names += [f"supply_out_{r}" for r in K.RES_NAMES]
    return tuple(names)


def _cell(cell: int) -> str:
    return f"({cell // 9},{cell % 9})"


class LittleTown(Game):
    """Little Town, 2-4 players, 4 rounds of worker placement (spec §1-§6)."""

    id = "little-town"
    version = "1"  # changes only when the games played change (the manifest records it)
    invariant_messages = _inv.MESSAGES  # the codes of the kernel _inv.invariants
    title = "Little Town"
    min_players = 2
    max_players = 4
    num_actions = K.NUM_ACTIONS
    options = OPTIONS
    end_reasons = K.END_REASONS
    information = "imperfect"
    chance = "sampled"
    hidden = ("the rivals' unclaimed goal cards",
              "the order of the goal deck",
              "the draft hands and picks not yet seen")
    results = ("end",)
    spec = "shared/rules/little_town.md"
    data_status = data.DATA_STATUS
    seat_detail = _seat_detail()
    impact_groups = [
        # include: the buildings only (the prefix also matches ``built_round_*``, issue 16)
        {"prefix": "built_", "title": "Buildings: built vs not built (all seat-games)",
         "noun": "building", "verb": "built", "include": list(data.SLUGS)},
    ]

    def __init__(self, data_block: dict | None = None):
        self.data_block = data_block or data.default_data()
        self.arrays = data.arrays_from_data(self.data_block)

    def max_game_length(self, options: dict[str, Any] | None = None) -> int:
        """Decisions: at most 1,000 (docs §12; a game has about 150)."""
        self.resolve_options(options)
        return K.MAX_DECISIONS

    def _alloc(self, resolved: dict[str, Any]) -> LittleTownState:
        return alloc_state(self.options.encode(resolved), self.arrays)

    def scores(self, state) -> np.ndarray:
        """Score track per seat, ``int64[n_players]`` (may be negative)."""
        return state.seat[: state.meta[K.M_NP], K.SE_SCORE].copy()

    def ranks(self, state) -> np.ndarray:
        """Competition ranks (1 + seats with a strictly higher score); 0 before the end."""
        sc = self.scores(state)
        if not self.is_terminal(state):
            return np.zeros(len(sc), np.int64)
        return _ranks_batch(sc[None, :])[0]

    # ---- strings ------------------------------------------------------------------------
    def action_to_string(self, state, action: int) -> str:
        a = int(action)
        names = data.BUILDING_NAMES
        if 0 <= a < K.A_BUILD:
            return f"PLACE {_cell(a)}"
        if a < K.A_SITE:
            return f"BUILD {names[a - K.A_BUILD]}"
        if a < K.A_ACT:
            b = int(state.meta[K.M_PENDING])
            return f"SITE {names[b] if b >= 0 else '?'} at {_cell(a - K.A_SITE)}"
        if a < K.A_PAWN:
            k = a - K.A_ACT
            cell = int(state.meta[K.P_CELL])
            if cell >= 0:
                r, c = divmod(cell, 9)
                dr, dc = K.OFFSETS[k]
                x = (r + dr) * 9 + c + dc
                if 0 <= r + dr < 6 and 0 <= c + dc < 9 and state.cells[K.CE_BLD, x] >= 0:
                    return (f"ACTIVATE {names[state.cells[K.CE_BLD, x]]} at {_cell(x)} "
                            f"(P{state.cells[K.CE_OWN, x]})")
            return f"ACTIVATE slot {k}"
        if a < K.A_GATHER:
            i, o = divmod(a - K.A_PAWN, 10)
            return f"PAWN {_PAIR_NAMES[i]} -> {_PAIR_NAMES[o]}"
        if a == K.A_GATHER:
            return "GATHER"
        if a == K.A_END:
            return "END"
        if a in (K.A_FEED_FISH, K.A_FEED_WHEAT):
            return "FEED " + ("fish" if a == K.A_FEED_FISH else "wheat")
        if a in (K.A_BUY_FISH, K.A_BUY_WHEAT):
            return "BUY " + ("fish" if a == K.A_BUY_FISH else "wheat") + " to eat"
        if a == K.A_STARVE:
            return "STARVE"
        if K.A_PICK < a < K.NUM_ACTIONS:
            return f"PICK {names[a - K.A_PICK]}"
        raise UserError(f"little-town: action {a} out of range 0..{K.NUM_ACTIONS - 1}")

    def state_to_string(self, state) -> str:
        d = self.state_to_dict(state)
        names = data.BUILDING_NAMES
        n = d["n_players"]
        head = (f"Little Town, {n} players, round {d['round']}, phase {d['phase']}, "
                f"P{d['current']} to act" if d["phase"] != "over" else
                f"Little Town, {n} players, over: scores {[p['score'] for p in d['players']]}")
        lines = [head, f"  supply {dict(zip(K.RES_NAMES, d['supply']))}, bank {d['bank']}",
                 "  market: " + ", ".join(
                     f"{names[b]}{'x' + str(c) if c > 1 else ''}"
                     for b, c in enumerate(d["market"]) if c) or "-"]
        side = d["options"]["board_side"]
        rows = d["data"]["boards"][side]
        for r in range(6):
            row = []
            for c in range(9):
                cell = r * 9 + c
                b = d["building"][cell]
                if b >= 0:
                    row.append(f"{names[b][:3]}{d['owner'][cell]}")
                elif d["worker"][cell] >= 0:
                    row.append(f" w{d['worker'][cell]} ")
                else:
                    row.append(f" {rows[r][c]}  ")
            lines.append("  " + " ".join(row))
        for p, pl in enumerate(d["players"]):
            goals = " ".join(f"#{g}{'*' if r else ''}" for g, r in pl["goals"])
            lines.append(
                f"  P{p}: score {pl['score']} coins {pl['coins']} cubes "
                f"{dict(zip(K.RES_NAMES, pl['cubes']))} houses {pl['houses']} "
                f"workers used {pl['workers_used']} goals {goals}")
        return "\n".join(lines)

    def _check_state(self, state) -> None:
        """A real position's turn count matches the workers placed this round: equal at the
        start of a turn (``turn`` < players x workers), one less while the placing seat acts
        or sites a building (found by the fuzz: a larger count let seats place workers they
        do not have)."""
        m = state.meta
        n = int(m[K.M_NP])
        ph = K.PHASES[int(m[K.M_PHASE])]
        used = int(state.seat[:n, K.SE_WUSED].sum())
        turn = int(m[K.M_TURN])
        want = {"turn": (0,), "draft": (0,), "act": (1,), "site": (1,), "feed": (0,),
                "residence": (0, 1), "over": (0,)}[ph]
        if used - turn not in want or turn > n * int(m[K.M_WORKERS]) or (
                ph == "turn" and turn >= n * int(m[K.M_WORKERS])):
            raise UserError(f"little-town state dict: turn = {turn}: does not match the "
                            f"{used} workers placed this round in phase {ph}")

    EFFECTS_GAMES = {3: 20_000}
    """``boardsim run``'s component-effects study (docs/effects.md): Little Town 3p: 44 arms,
    about 0.13 ms of CPU per game-arm (measured): ~2 min (CPU time on the shared 2-core machine,
    docs/effects.md)."""

    def default_plan(self) -> list[dict[str, Any]]:
        """Role ``main``: 2, 3 and 4 players, random market, every seat drawn from the
        recommended mix of competent bots (``RECOMMENDED_MIX`` of strategies/little_town).
        Role ``mix:b``: 3 players, a second competent mix (the two archetypes of spec §10
        without greedy) for the report's "robust" mark. Roles ``setup:<market>``: 3 players,
        the other market setups with the main bots, seed and number of games (the main
        3-player run is the random setup)."""
        pool = list(self.bots.RECOMMENDED_MIX)
        n = 40_000
        plan = [
            {"name": f"p{p}-pool", "players": p, "strategies": pool, "seating": "pool",
             "n_games": n, "seed": 1, "role": "main", **self.effects_plan(p)}
            for p in (2, 3, 4)
        ]
        plan.append({"name": "p3-mix-b", "players": 3, "strategies": ["builder", "gatherer"],
                     "seating": "pool", "n_games": n, "seed": 1, "role": "mix:b"})
        for market in ("beginner", "draft", "one-of-two"):
            plan.append({"name": f"p3-{market}", "players": 3, "strategies": pool,
                         "seating": "pool", "n_games": n, "seed": 1,
                         "options": {"market": market}, "role": f"setup:{market}"})
        return plan

    def _play_chunk(self, s, first_game, n_games, run_seed, n_players, seat_idx, codes,
                    params) -> ChunkResult:
        """The bots' loop over the chunk (Game.run_chunk). Seat detail: docs §12."""
        turns = np.zeros(n_games, np.int64)
        decisions = np.zeros(n_games, np.int64)
        end_reason = np.zeros(n_games, np.int64)
        first = np.zeros(n_games, np.int64)
        score = np.zeros((n_games, n_players), np.int64)
        ndet = 6 * K.NB + 2 * (K.NCARD - 1) + K.N_STATS + 2 + len(K.RES_NAMES)
        detail = np.zeros((n_games, n_players, ndet), np.int64)
        ahash = np.zeros(n_games, np.uint64)
        self.bots.run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
                            turns, decisions, end_reason, first, score, detail, ahash)
        rank = _ranks_batch(score)
        win = score == score.max(axis=1, keepdims=True)
        share = win / win.sum(axis=1, keepdims=True)
        det = {name: detail[:, :, k] for k, name in enumerate(self.seat_detail)}
        return ChunkResult(turns, decisions, end_reason, first, score, rank,
                           share.astype(np.float64), det, action_hash=ahash)


def _ranks_batch(score: np.ndarray) -> np.ndarray:
    """Competition ranks ``int64[n, p]``: 1 + number of seats with a strictly higher score."""
    better = (score[:, None, :] > score[:, :, None]).sum(axis=2)
    return (1 + better).astype(np.int64)


# ---- dict form (docs §11): the declared state --------------------------------------------
_BIG = 100_000  # the bound of the counters and scores


def _start(game, r, d) -> Ctx:
    """The header: the player count, the options and the data block (the component tables'
    ranges, then the data's own checks), then the state allocated from them."""
    n, resolved = read_header(game, r, d)
    dd = r.dict(r.get(d, "data", "data"), "data")
    check_doc_limits(dd, game._components().SCHEMA, game.id, "state dict data",
                     like=game.data_block)
    arrays = LittleTown(dd).arrays  # the data's own checks
    s = alloc_state(game.options.encode(resolved), arrays)
    pc = s.consts[K.C_PC + 3 * n:K.C_PC + 3 * n + 3]
    s.meta[K.M_NP] = n
    s.meta[K.M_WORKERS], s.meta[K.M_HOUSES], s.meta[K.M_NGOALS] = pc
    return Ctx(game, n, resolved, s, dict(workers=int(pc[0]), houses=int(pc[1]),
                                          supply=int(s.consts[K.C_SUPPLY]),
                                          coin_total=int(s.consts[K.C_COIN_TOTAL])))


def _goals_get(g, s, v, n, p) -> list:
    se = s.seat[p]
    return [[int(se[K.SE_GOALS + j]), int(se[K.SE_GDONE + j])]
            for j in range(int(s.meta[K.M_NGOALS]))]


def _goals_put(game, r, value, ctx, where, p) -> None:
    """A seat's goal slots ``[card, round claimed]``: every seat holds as many as seat 0."""
    goals = r.list(value, where, max_len=K.MAXG)
    if p == 0:
        ctx.s.meta[K.M_NGOALS] = len(goals)
    elif len(goals) != ctx.s.meta[K.M_NGOALS]:
        raise r.fail(where, goals, "every seat holds the same number of goal slots")
    rounds = int(ctx.resolved["rounds"])
    for j, gl in enumerate(goals):
        card, done = r.ints(gl, f"{where}[{j}]", 0, K.NCARD - 1, 2)
        r.int(done, f"{where}[{j}][1]", 0, rounds + 1)
        ctx.s.seat[p, K.SE_GOALS + j] = card
        ctx.s.seat[p, K.SE_GDONE + j] = done


def _check(game, r, ctx) -> None:
    """Little Town's cross-field rules: an end reason exactly once over; the market and the
    buildings built within each building's count; a draft tile in one place only."""
    s, n = ctx.s, ctx.n
    end = int(s.meta[K.M_END])
    if (s.meta[K.M_PHASE] == K.PH_OVER) != (end != 0):
        raise r.fail("end_reason", K.END_REASONS[end], "none exactly while the game runs")
    count = s.bdata[:, K.BD_COUNT]
    for key, row in (("market", s.mkt[K.MK_MARKET]), ("market_start", s.mkt[K.MK_START])):
        for b in np.nonzero(row > count)[0]:
            raise r.fail(f"{key}[{b}]", int(row[b]), f"allowed 0..{count[b]} (the building's "
                         "count)")
    for p in range(n):
        for b in np.nonzero(s.sb[p, K.SB_BUILT] > count)[0]:
            raise r.fail(f"players[{p}].built[{b}]", int(s.sb[p, K.SB_BUILT, b]),
                         f"allowed 0..{count[b]} (the count)")
    tiles = [int(x) for x in s.piles[K.PL_DDECK, :s.meta[K.M_DDECK_N]]]
    for p in range(n):
        tiles += [int(b) for b in np.nonzero(s.sb[p, K.SB_DHAND])[0]]
    if len(set(tiles)) != len(tiles):
        raise r.fail("draft", tiles, "a tile in two places (deck and hands)")


def _seat(c) -> int:
    return c.n - 1


def _rounds(c) -> int:
    return int(c.resolved["rounds"]) + 1


def _supply(c) -> int:
    return c.extra["supply"]


def _m(slot: int, *more) -> tuple:
    return ("meta", slot, *more)


def _se(slot) -> tuple:
    return ("seat", "p", slot)


def _sb(plane: int) -> tuple:
    return ("sb", "p", plane, slice(None))


_SCHEMA = StateSchema([
    *header_fields(lambda g, s, v, n: data.data_from_arrays(s.bdata, s.gdata,
                                                            s.geo[:, 13:15].T, s.consts)),
    Field("rng", ("rng", 0), "rng"),
    Field("phase", _m(K.M_PHASE), "enum", names=K.PHASES),
    Field("current", _m(K.M_CUR), lo=lambda c: -1 if c.s.meta[K.M_PHASE] == K.PH_OVER else 0,
          hi=_seat),
    Field("round", _m(K.M_ROUND), hi=_rounds),
    Field("start_player", _m(K.M_START), hi=_seat),
    Field("first_player", _m(K.M_FIRST), hi=_seat),
    Field("last_start[]", _se(K.SE_LAST_START), hi=_rounds),
    Field("turn", _m(K.M_TURN), hi=K.MAX_DECISIONS),
    Field("turns_total", _m(K.M_TURNS_TOTAL), hi=K.MAX_DECISIONS),
    Field("decisions", _m(K.M_DEC), hi=K.MAX_DECISIONS),
    Field("end_reason", _m(K.M_END), "enum", names=K.END_REASONS),
    Field("supply", _m(slice(K.M_SUPPLY, K.M_SUPPLY + 4)), "ints", hi=_supply),
    Field("bank", _m(K.M_BANK), lo=-_BIG, hi=lambda c: c.extra["coin_total"]),
    Field("bank_min", _m(K.M_BANK_MIN), lo=-_BIG,
          hi=lambda c: max(int(c.s.meta[K.M_BANK]), c.extra["coin_total"])),
    Field("market", ("mkt", K.MK_MARKET, slice(None)), "ints", hi=_BIG),
    Field("market_start", ("mkt", K.MK_START, slice(None)), "ints", hi=_BIG),
    Field("building", ("cells", K.CE_BLD, slice(None)), "ints", lo=-1, hi=K.NB - 1),
    Field("owner", ("cells", K.CE_OWN, slice(None)), "ints", lo=-1, hi=_seat),
    Field("worker", ("cells", K.CE_WRK, slice(None)), "ints", lo=-1, hi=_seat),
    Field("pending", _m(K.M_PENDING), lo=-1, hi=K.NB - 1),
    Field("placement.seat", _m(K.P_SEAT), lo=-1, hi=_seat),
    Field("placement.cell", _m(K.P_CELL), lo=-1, hi=K.NCELL - 1),
    Field("placement.gathered", _m(K.P_GATH), hi=1),
    Field("placement.used", _m(slice(K.P_USED, K.P_USED + 8)), "ints", hi=1),
    Field("placement.acts", _m(K.P_ACTS), hi=8),
    Field("placement.vp_acts", _m(K.P_VPACTS), hi=8),
    Field("placement.gathered_n", _m(K.P_GN), hi=lambda c: 4 * c.extra["supply"]),
    Field("placement.gathered_types", _m(slice(K.P_GT, K.P_GT + 4)), "ints", hi=_supply),
    Field("eor.stage", _m(K.M_EOR_STAGE), "enum", names=K.EOR_STAGES),
    Field("eor.index", _m(K.M_EOR_IDX), hi=lambda c: c.n),
    *(Field(f"feed.{key}", _m(slot), hi=lambda c: c.extra["workers"] + 4 * c.extra["supply"])
      for key, slot in (("left", K.M_FEED_LEFT), ("fish", K.M_FEED_FISH),
                        ("wheat", K.M_FEED_WHEAT))),
    Field("goal_deck", ("piles", K.PL_GDECK, slice(None)), "ints", lo=1, hi=K.NCARD - 1,
          count=_m(K.M_GDECK_N), length=K.NCARD - 1, hidden=True),
    Field("goal_discard", ("piles", K.PL_GDISC, slice(None)), "ints", lo=1, hi=K.NCARD - 1,
          count=_m(K.M_GDISC_N), length=K.NCARD - 1),
    Field("draft.deck", ("piles", K.PL_DDECK, slice(None)), "ints", lo=1, hi=K.NDRAFT,
          count=_m(K.M_DDECK_N), length=K.NDRAFT, hidden=True),
    Field("draft.hands[]", _sb(K.SB_DHAND), "members", lo=1, hi=K.NDRAFT, length=K.NDRAFT,
          hidden=True),
    Field("draft.picks[]", _se(K.SE_PICKS), lo=-1, hi=K.NB - 1, hidden=True),
    Field("draft.round", _m(K.M_DRAFT_ROUND), hi=K.NDRAFT),
    Field("players[].coins", _se(K.SE_COINS), hi=_BIG),
    Field("players[].cubes", ("seat", "p", slice(K.SE_CUBES, K.SE_CUBES + 4)), "ints",
          hi=_supply),
    Field("players[].score", _se(K.SE_SCORE), lo=-_BIG, hi=_BIG),
    Field("players[].houses", _se(K.SE_HOUSES), hi=lambda c: c.extra["houses"]),
    Field("players[].workers_used", _se(K.SE_WUSED), hi=lambda c: c.extra["workers"]),
    Field("players[].on_site", _se(K.SE_ONSITE), hi=lambda c: c.extra["workers"]),
    Field("players[].goals", kind="hook", get=_goals_get, put=_goals_put, uses=("seat",),
          hidden=True),
    Field("players[].built", _sb(K.SB_BUILT), "ints", hi=_BIG),
    Field("players[].built_round", _sb(K.SB_BROUND), "ints", hi=_rounds),
    Field("players[].act_own", _sb(K.SB_ACT_OWN), "ints", hi=_BIG),
    Field("players[].act_by_others", _sb(K.SB_ACT_OTH), "ints", hi=_BIG),
    Field("players[].pick", _sb(K.SB_PICK), "ints", hi=K.NDRAFT),
    Field("players[].stats", ("seat", "p", slice(K.SE_STATS, K.SE_STATS + len(K.STAT_NAMES))),
          "record", names=K.STAT_NAMES, lo=-_BIG, hi=_BIG),
], data=("opts", "bdata", "gdata", "geo", "consts"),
    derived=("scratch", ("meta", K.M_NLEGAL), ("mkt", K.MK_LOC), ("seat", slice(None), K.SE_GDIRTY)),
    start=_start,
    check=_check, finish=lambda game, s, ctx: recompute_derived(s),
    n_of=lambda v: v.meta[K.M_NP], game_id="little-town")
LittleTown.state_schema = _SCHEMA


GAME_CLASS = LittleTown
