"""Little Town (리틀 타운): the game object behind ``sim.get_game("little-town")``.

Rules: shared/rules/little_town.md; encoding, chance order and state dict:
docs/games/little_town.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
from sim.little_town import data
from sim.little_town import kernels as _kernels
from sim.little_town.constants import (
    A_ACT,
    A_BUILD,
    A_BUY_FISH,
    A_BUY_WHEAT,
    A_END,
    A_FEED_FISH,
    A_FEED_WHEAT,
    A_GATHER,
    A_PAWN,
    A_PICK,
    A_SITE,
    A_STARVE,
    BD_COUNT,
    C_COIN_TOTAL,
    C_PC,
    C_SUPPLY,
    CE_BLD,
    CE_OWN,
    CE_WRK,
    END_REASONS,
    EOR_STAGES,
    M_BANK,
    M_BANK_MIN,
    M_CUR,
    M_DDECK_N,
    M_DEC,
    M_DRAFT_ROUND,
    M_END,
    M_EOR_IDX,
    M_EOR_STAGE,
    M_FEED_FISH,
    M_FEED_LEFT,
    M_FEED_WHEAT,
    M_FIRST,
    M_GDECK_N,
    M_GDISC_N,
    M_HOUSES,
    M_NGOALS,
    M_NP,
    M_PENDING,
    M_PHASE,
    M_ROUND,
    M_START,
    M_SUPPLY,
    M_TURN,
    M_TURNS_TOTAL,
    M_WORKERS,
    MAX_DECISIONS,
    MAXG,
    MK_MARKET,
    MK_START,
    N_STATS,
    NB,
    NCARD,
    NCELL,
    NUM_ACTIONS,
    OFFSETS,
    P_ACTS,
    P_CELL,
    P_GATH,
    P_GN,
    P_GT,
    P_SEAT,
    P_USED,
    P_VPACTS,
    PAIRS,
    PHASES,
    PL_DDECK,
    PL_GDECK,
    PL_GDISC,
    RES_NAMES,
    SB_ACT_OTH,
    SB_ACT_OWN,
    SB_BROUND,
    SB_BUILT,
    SB_DHAND,
    SB_PICK,
    SE_COINS,
    SE_CUBES,
    SE_GDONE,
    SE_GOALS,
    SE_HOUSES,
    SE_LAST_START,
    SE_ONSITE,
    SE_PICKS,
    SE_SCORE,
    SE_STATS,
    SE_WUSED,
    STAT_NAMES,
)
from sim.little_town.kernels import LittleTownState, alloc_state, recompute_derived
from sim.little_town.options import OPTIONS

_PAIR_NAMES = ["+".join(RES_NAMES[t] for t in p) for p in PAIRS]


def _seat_detail() -> tuple[str, ...]:
    """Names of the per-seat detail columns of run_chunk (docs §12), in kernel order."""
    names: list[str] = []
    for prefix in ("built_", "built_round_", "act_own_", "act_by_others_", "market_",
                   "pick_"):
        names += [prefix + slug for slug in data.SLUGS]
    names += [f"goal_{c:02d}" for c in range(1, NCARD)]
    names += [f"goal_round_{c:02d}" for c in range(1, NCARD)]
    names += list(STAT_NAMES) + ["coins_end", "bank_min"]
    return tuple(names)


def _cell(cell: int) -> str:
    return f"({cell // 9},{cell % 9})"


class LittleTown(Game):
    """Little Town, 2-4 players, 4 rounds of worker placement (spec §1-§6)."""

    id = "little-town"
    version = "1"  # changes only when the games played change (the manifest records it)
    title = "Little Town"
    min_players = 2
    max_players = 4
    num_actions = NUM_ACTIONS
    options = OPTIONS
    end_reasons = END_REASONS
    spec = "shared/rules/little_town.md"
    data_status = data.DATA_STATUS
    kernels = _kernels
    seat_detail = _seat_detail()
    impact_groups = [
        {"prefix": "built_", "title": "Buildings: built vs not built (all seat-games)",
         "noun": "building", "verb": "built", "include": None},
    ]

    def __init__(self, data_block: dict | None = None):
        self.data_block = data_block or data.default_data()
        self.arrays = data.arrays_from_data(self.data_block)

    def max_game_length(self, options: dict[str, Any] | None = None) -> int:
        """Decisions: at most 1,000 (docs §12; a game has about 150)."""
        self.resolve_options(options)
        return MAX_DECISIONS

    def _alloc(self, resolved: dict[str, Any]) -> LittleTownState:
        return alloc_state(self.options.encode(resolved), self.arrays)

    def scores(self, state) -> np.ndarray:
        """Score track per seat, ``int64[n_players]`` (may be negative)."""
        return state.seat[: state.meta[M_NP], SE_SCORE].copy()

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
        if 0 <= a < A_BUILD:
            return f"PLACE {_cell(a)}"
        if a < A_SITE:
            return f"BUILD {names[a - A_BUILD]}"
        if a < A_ACT:
            b = int(state.meta[M_PENDING])
            return f"SITE {names[b] if b >= 0 else '?'} at {_cell(a - A_SITE)}"
        if a < A_PAWN:
            k = a - A_ACT
            cell = int(state.meta[P_CELL])
            if cell >= 0:
                r, c = divmod(cell, 9)
                dr, dc = OFFSETS[k]
                x = (r + dr) * 9 + c + dc
                if 0 <= r + dr < 6 and 0 <= c + dc < 9 and state.cells[CE_BLD, x] >= 0:
                    return (f"ACTIVATE {names[state.cells[CE_BLD, x]]} at {_cell(x)} "
                            f"(P{state.cells[CE_OWN, x]})")
            return f"ACTIVATE slot {k}"
        if a < A_GATHER:
            i, o = divmod(a - A_PAWN, 10)
            return f"PAWN {_PAIR_NAMES[i]} -> {_PAIR_NAMES[o]}"
        if a == A_GATHER:
            return "GATHER"
        if a == A_END:
            return "END"
        if a in (A_FEED_FISH, A_FEED_WHEAT):
            return "FEED " + ("fish" if a == A_FEED_FISH else "wheat")
        if a in (A_BUY_FISH, A_BUY_WHEAT):
            return "BUY " + ("fish" if a == A_BUY_FISH else "wheat") + " to eat"
        if a == A_STARVE:
            return "STARVE"
        if A_PICK < a < NUM_ACTIONS:
            return f"PICK {names[a - A_PICK]}"
        raise UserError(f"little-town: action {a} out of range 0..{NUM_ACTIONS - 1}")

    def state_to_string(self, state) -> str:
        d = self.state_to_dict(state)
        names = data.BUILDING_NAMES
        n = d["n_players"]
        head = (f"Little Town, {n} players, round {d['round']}, phase {d['phase']}, "
                f"P{d['current']} to act" if d["phase"] != "over" else
                f"Little Town, {n} players, over: scores {[p['score'] for p in d['players']]}")
        lines = [head, f"  supply {dict(zip(RES_NAMES, d['supply']))}, bank {d['bank']}",
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
                f"{dict(zip(RES_NAMES, pl['cubes']))} houses {pl['houses']} "
                f"workers used {pl['workers_used']} goals {goals}")
        return "\n".join(lines)

    # ---- dict form (docs §11) -----------------------------------------------------------
    def state_to_dict(self, state) -> dict:
        s = state
        m = s.meta
        n = int(m[M_NP])
        ng = int(m[M_NGOALS])
        il = lambda a: [int(x) for x in a]  # noqa: E731
        players = []
        for p in range(n):
            se = s.seat[p]
            sb = s.sb[p]
            players.append({
                "coins": int(se[SE_COINS]), "cubes": il(se[SE_CUBES:SE_CUBES + 4]),
                "score": int(se[SE_SCORE]), "houses": int(se[SE_HOUSES]),
                "workers_used": int(se[SE_WUSED]), "on_site": int(se[SE_ONSITE]),
                "goals": [[int(se[SE_GOALS + j]), int(se[SE_GDONE + j])] for j in range(ng)],
                "built": il(sb[SB_BUILT]), "built_round": il(sb[SB_BROUND]),
                "act_own": il(sb[SB_ACT_OWN]), "act_by_others": il(sb[SB_ACT_OTH]),
                "pick": il(sb[SB_PICK]),
                "stats": {name: int(se[SE_STATS + i]) for i, name in enumerate(STAT_NAMES)},
            })
        return {
            "game": self.id,
            "n_players": n,
            "options": self.options.decode(s.opts),
            "data": data.data_from_arrays(s.bdata, s.gdata, s.geo[:, 13:15].T, s.consts),
            "rng": "0x%016x" % int(s.rng[0]),
            "phase": PHASES[int(m[M_PHASE])],
            "current": int(m[M_CUR]),
            "round": int(m[M_ROUND]),
            "start_player": int(m[M_START]),
            "first_player": int(m[M_FIRST]),
            "last_start": il(s.seat[:n, SE_LAST_START]),
            "turn": int(m[M_TURN]),
            "turns_total": int(m[M_TURNS_TOTAL]),
            "decisions": int(m[M_DEC]),
            "end_reason": END_REASONS[int(m[M_END])],
            "supply": il(m[M_SUPPLY:M_SUPPLY + 4]),
            "bank": int(m[M_BANK]),
            "bank_min": int(m[M_BANK_MIN]),
            "market": il(s.mkt[MK_MARKET]),
            "market_start": il(s.mkt[MK_START]),
            "building": il(s.cells[CE_BLD]),
            "owner": il(s.cells[CE_OWN]),
            "worker": il(s.cells[CE_WRK]),
            "pending": int(m[M_PENDING]),
            "placement": {
                "seat": int(m[P_SEAT]), "cell": int(m[P_CELL]), "gathered": int(m[P_GATH]),
                "used": il(m[P_USED:P_USED + 8]), "acts": int(m[P_ACTS]),
                "vp_acts": int(m[P_VPACTS]), "gathered_n": int(m[P_GN]),
                "gathered_types": il(m[P_GT:P_GT + 4]),
            },
            "eor": {"stage": EOR_STAGES[int(m[M_EOR_STAGE])], "index": int(m[M_EOR_IDX])},
            "feed": {"left": int(m[M_FEED_LEFT]), "fish": int(m[M_FEED_FISH]),
                     "wheat": int(m[M_FEED_WHEAT])},
            "goal_deck": il(s.piles[PL_GDECK, : m[M_GDECK_N]]),
            "goal_discard": il(s.piles[PL_GDISC, : m[M_GDISC_N]]),
            "draft": {"deck": il(s.piles[PL_DDECK, : m[M_DDECK_N]]),
                      "hands": [[b for b in range(NB) if s.sb[p, SB_DHAND, b]] for p in range(n)],
                      "picks": il(s.seat[:n, SE_PICKS]), "round": int(m[M_DRAFT_ROUND])},
            "players": players,
        }

    def state_from_dict(self, d: dict) -> LittleTownState:
        """Build a state from the dict layout of docs/games/little_town.md §11.
        Raises UserError on a malformed dict."""
        try:
            n = self.check_players(int(d["n_players"]))
            opts = self.options.encode(self.resolve_options(d["options"]))
            arrays = data.arrays_from_data(d["data"])
            s = alloc_state(opts, arrays)
            m = s.meta
            m[M_NP] = n
            pc = s.consts[C_PC + 3 * n:C_PC + 3 * n + 3]
            m[M_WORKERS], m[M_HOUSES], m[M_NGOALS] = pc
            m[M_PHASE] = PHASES.index(d["phase"])
            m[M_CUR] = d["current"]
            m[M_ROUND] = d["round"]
            m[M_START] = d["start_player"]
            m[M_FIRST] = d["first_player"]
            s.seat[:n, SE_LAST_START] = d["last_start"]
            m[M_TURN] = d["turn"]
            m[M_TURNS_TOTAL] = d["turns_total"]
            m[M_DEC] = d["decisions"]
            m[M_END] = END_REASONS.index(d["end_reason"])
            s.rng[0] = np.uint64(int(d["rng"], 16))
            m[M_SUPPLY:M_SUPPLY + 4] = d["supply"]
            m[M_BANK] = d["bank"]
            m[M_BANK_MIN] = d["bank_min"]
            s.mkt[MK_MARKET] = d["market"]
            s.mkt[MK_START] = d["market_start"]
            for key, row in (("building", CE_BLD), ("owner", CE_OWN), ("worker", CE_WRK)):
                if len(d[key]) != NCELL:
                    raise UserError(f"state dict: {key} needs {NCELL} cells")
                s.cells[row] = d[key]
            m[M_PENDING] = d["pending"]
            pl = d["placement"]
            m[P_SEAT] = pl["seat"]
            m[P_CELL] = pl["cell"]
            m[P_GATH] = pl["gathered"]
            m[P_USED:P_USED + 8] = pl["used"]
            m[P_ACTS] = pl["acts"]
            m[P_VPACTS] = pl["vp_acts"]
            m[P_GN] = pl["gathered_n"]
            m[P_GT:P_GT + 4] = pl["gathered_types"]
            m[M_EOR_STAGE] = EOR_STAGES.index(d["eor"]["stage"])
            m[M_EOR_IDX] = d["eor"]["index"]
            m[M_FEED_LEFT] = d["feed"]["left"]
            m[M_FEED_FISH] = d["feed"]["fish"]
            m[M_FEED_WHEAT] = d["feed"]["wheat"]
            for key, row, slot in (("goal_deck", PL_GDECK, M_GDECK_N),
                                   ("goal_discard", PL_GDISC, M_GDISC_N)):
                s.piles[row, : len(d[key])] = d[key]
                m[slot] = len(d[key])
            dr = d["draft"]
            s.piles[PL_DDECK, : len(dr["deck"])] = dr["deck"]
            m[M_DDECK_N] = len(dr["deck"])
            m[M_DRAFT_ROUND] = dr["round"]
            ng = len(d["players"][0]["goals"])
            if ng > MAXG:
                raise UserError(f"state dict: at most {MAXG} goal cards per seat")
            m[M_NGOALS] = ng
            for p in range(n):
                for b in dr["hands"][p]:
                    s.sb[p, SB_DHAND, int(b)] = 1
                s.seat[p, SE_PICKS] = dr["picks"][p]
                pd = d["players"][p]
                se = s.seat[p]
                se[SE_COINS] = pd["coins"]
                se[SE_CUBES:SE_CUBES + 4] = pd["cubes"]
                se[SE_SCORE] = pd["score"]
                se[SE_HOUSES] = pd["houses"]
                se[SE_WUSED] = pd["workers_used"]
                se[SE_ONSITE] = pd["on_site"]
                if len(pd["goals"]) != ng:
                    raise UserError("state dict: every seat holds the same number of goal slots")
                for j, (card, done) in enumerate(pd["goals"]):
                    if not 0 <= int(card) < NCARD:
                        raise UserError(f"state dict: goal card {card}; allowed 1..18")
                    se[SE_GOALS + j] = card
                    se[SE_GDONE + j] = done
                for key, plane in (("built", SB_BUILT), ("built_round", SB_BROUND),
                                   ("act_own", SB_ACT_OWN), ("act_by_others", SB_ACT_OTH),
                                   ("pick", SB_PICK)):
                    s.sb[p, plane] = pd[key]
                for i, name in enumerate(STAT_NAMES):
                    se[SE_STATS + i] = pd["stats"][name]
            recompute_derived(s)
            return s
        except UserError:
            raise
        except (KeyError, ValueError, TypeError, IndexError) as e:
            raise UserError(f"little-town state dict: malformed ({type(e).__name__}: {e})"
                            ) from None

    def check_invariants(self, state) -> None:
        """Conservation (docs §11): cubes per type and coins (supply/bank plus players),
        houses, workers, tiles; and the score equals the sum of its parts."""
        s = state
        n = int(s.meta[M_NP])
        cubes = s.seat[:n, SE_CUBES:SE_CUBES + 4]
        supply = s.meta[M_SUPPLY:M_SUPPLY + 4]
        total = supply + cubes.sum(axis=0)
        assert (total == s.consts[C_SUPPLY]).all(), f"cubes not conserved: {total}"
        assert (supply >= 0).all() and (cubes >= 0).all()
        coins = s.seat[:n, SE_COINS]
        assert int(s.meta[M_BANK]) + int(coins.sum()) == int(s.consts[C_COIN_TOTAL]), \
            "coins not conserved"
        assert (coins >= 0).all(), "negative coins"
        owner, worker, building = s.cells[CE_OWN], s.cells[CE_WRK], s.cells[CE_BLD]
        owned = np.array([(owner == p).sum() for p in range(n)])
        assert (owned + s.seat[:n, SE_HOUSES] == s.meta[M_HOUSES]).all(), "houses not conserved"
        on_board = np.array([(worker == p).sum() for p in range(n)])
        wused = s.seat[:n, SE_WUSED]
        assert (on_board + s.seat[:n, SE_ONSITE] == wused).all(), "workers not conserved"
        assert (wused <= s.meta[M_WORKERS]).all()
        placed = np.array([(building == b).sum() for b in range(NB)])
        if s.meta[M_PENDING] >= 0:
            placed[s.meta[M_PENDING]] += 1  # bought, not yet sited
        cnt = s.bdata[:, BD_COUNT]
        market = s.mkt[MK_MARKET]
        assert (placed + market <= cnt).all(), "tiles not conserved"
        assert placed[0] + market[0] == cnt[0], "wheat fields not conserved"
        assert ((building >= 0) == (owner >= 0)).all()
        parts = s.seat[:n, SE_STATS + 9:SE_STATS + N_STATS].sum(axis=1)  # vp_build .. vp_unfed
        assert (parts == s.seat[:n, SE_SCORE]).all(), "score is not the sum of its parts"

    def default_plan(self) -> list[dict[str, Any]]:
        """Role ``main``: 2, 3 and 4 players, random market, every seat drawn from the pool of
        bots. Role ``mix:b``: 3 players, a second bot mix (no random bot) for the report's
        "robust" mark. Roles ``setup:<market>``: 3 players, the other market setups with the
        main bots, seed and number of games (the main 3-player run is the random setup)."""
        pool = ["random", "greedy", "builder", "gatherer"]
        n = 40_000
        plan = [
            {"name": f"p{p}-pool", "players": p, "strategies": pool, "seating": "pool",
             "n_games": n, "seed": 1, "role": "main"}
            for p in (2, 3, 4)
        ]
        plan.append({"name": "p3-mix-b", "players": 3, "strategies": ["greedy", "builder",
                     "gatherer"], "seating": "pool", "n_games": n, "seed": 1, "role": "mix:b"})
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
        ndet = 6 * NB + 2 * (NCARD - 1) + N_STATS + 2
        detail = np.zeros((n_games, n_players, ndet), np.int64)
        self.bots.run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
                            turns, decisions, end_reason, first, score, detail)
        rank = _ranks_batch(score)
        win = score == score.max(axis=1, keepdims=True)
        share = win / win.sum(axis=1, keepdims=True)
        det = {name: detail[:, :, k] for k, name in enumerate(self.seat_detail)}
        return ChunkResult(turns, decisions, end_reason, first, score, rank,
                           share.astype(np.float64), det)


def _ranks_batch(score: np.ndarray) -> np.ndarray:
    """Competition ranks ``int64[n, p]``: 1 + number of seats with a strictly higher score."""
    better = (score[:, None, :] > score[:, :, None]).sum(axis=2)
    return (1 + better).astype(np.int64)


GAME_CLASS = LittleTown
