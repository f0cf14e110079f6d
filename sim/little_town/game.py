"""Little Town (리틀 타운): the game object behind ``sim.get_game("little-town")``.

Rules: shared/rules/little_town.md; encoding, chance order and state dict:
docs/games/little_town.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.checks import DictReader
from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
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

    # ---- dict form (docs §11) -----------------------------------------------------------
    def state_to_dict(self, state) -> dict:
        s = state
        m = s.meta
        n = int(m[K.M_NP])
        ng = int(m[K.M_NGOALS])
        il = lambda a: [int(x) for x in a]  # noqa: E731
        players = []
        for p in range(n):
            se = s.seat[p]
            sb = s.sb[p]
            players.append({
                "coins": int(se[K.SE_COINS]), "cubes": il(se[K.SE_CUBES:K.SE_CUBES + 4]),
                "score": int(se[K.SE_SCORE]), "houses": int(se[K.SE_HOUSES]),
                "workers_used": int(se[K.SE_WUSED]), "on_site": int(se[K.SE_ONSITE]),
                "goals": [[int(se[K.SE_GOALS + j]), int(se[K.SE_GDONE + j])] for j in range(ng)],
                "built": il(sb[K.SB_BUILT]), "built_round": il(sb[K.SB_BROUND]),
                "act_own": il(sb[K.SB_ACT_OWN]), "act_by_others": il(sb[K.SB_ACT_OTH]),
                "pick": il(sb[K.SB_PICK]),
                "stats": {name: int(se[K.SE_STATS + i]) for i, name in enumerate(K.STAT_NAMES)},
            })
        return {
            "game": self.id,
            "n_players": n,
            "options": self.options.decode(s.opts),
            "data": data.data_from_arrays(s.bdata, s.gdata, s.geo[:, 13:15].T, s.consts),
            "rng": "0x%016x" % int(s.rng[0]),
            "phase": K.PHASES[int(m[K.M_PHASE])],
            "current": int(m[K.M_CUR]),
            "round": int(m[K.M_ROUND]),
            "start_player": int(m[K.M_START]),
            "first_player": int(m[K.M_FIRST]),
            "last_start": il(s.seat[:n, K.SE_LAST_START]),
            "turn": int(m[K.M_TURN]),
            "turns_total": int(m[K.M_TURNS_TOTAL]),
            "decisions": int(m[K.M_DEC]),
            "end_reason": K.END_REASONS[int(m[K.M_END])],
            "supply": il(m[K.M_SUPPLY:K.M_SUPPLY + 4]),
            "bank": int(m[K.M_BANK]),
            "bank_min": int(m[K.M_BANK_MIN]),
            "market": il(s.mkt[K.MK_MARKET]),
            "market_start": il(s.mkt[K.MK_START]),
            "building": il(s.cells[K.CE_BLD]),
            "owner": il(s.cells[K.CE_OWN]),
            "worker": il(s.cells[K.CE_WRK]),
            "pending": int(m[K.M_PENDING]),
            "placement": {
                "seat": int(m[K.P_SEAT]), "cell": int(m[K.P_CELL]), "gathered": int(m[K.P_GATH]),
                "used": il(m[K.P_USED:K.P_USED + 8]), "acts": int(m[K.P_ACTS]),
                "vp_acts": int(m[K.P_VPACTS]), "gathered_n": int(m[K.P_GN]),
                "gathered_types": il(m[K.P_GT:K.P_GT + 4]),
            },
            "eor": {"stage": K.EOR_STAGES[int(m[K.M_EOR_STAGE])], "index": int(m[K.M_EOR_IDX])},
            "feed": {"left": int(m[K.M_FEED_LEFT]), "fish": int(m[K.M_FEED_FISH]),
                     "wheat": int(m[K.M_FEED_WHEAT])},
            "goal_deck": il(s.piles[K.PL_GDECK, : m[K.M_GDECK_N]]),
            "goal_discard": il(s.piles[K.PL_GDISC, : m[K.M_GDISC_N]]),
            "draft": {"deck": il(s.piles[K.PL_DDECK, : m[K.M_DDECK_N]]),
                      "hands": [[b for b in range(K.NB) if s.sb[p, K.SB_DHAND, b]] for p in range(n)],
                      "picks": il(s.seat[:n, K.SE_PICKS]), "round": int(m[K.M_DRAFT_ROUND])},
            "players": players,
        }

    def _state_from_dict(self, d: dict) -> LittleTownState:
        """Build a state from the dict layout of docs/games/little_town.md §11.
        Raises UserError on a malformed dict."""
        n, resolved, arrays = self._check_dict(d)
        try:
            opts = self.options.encode(resolved)
            s = alloc_state(opts, arrays)
            m = s.meta
            m[K.M_NP] = n
            pc = s.consts[K.C_PC + 3 * n:K.C_PC + 3 * n + 3]
            m[K.M_WORKERS], m[K.M_HOUSES], m[K.M_NGOALS] = pc
            m[K.M_PHASE] = K.PHASES.index(d["phase"])
            m[K.M_CUR] = d["current"]
            m[K.M_ROUND] = d["round"]
            m[K.M_START] = d["start_player"]
            m[K.M_FIRST] = d["first_player"]
            s.seat[:n, K.SE_LAST_START] = d["last_start"]
            m[K.M_TURN] = d["turn"]
            m[K.M_TURNS_TOTAL] = d["turns_total"]
            m[K.M_DEC] = d["decisions"]
            m[K.M_END] = K.END_REASONS.index(d["end_reason"])
            s.rng[0] = np.uint64(int(d["rng"], 16))
            m[K.M_SUPPLY:K.M_SUPPLY + 4] = d["supply"]
            m[K.M_BANK] = d["bank"]
            m[K.M_BANK_MIN] = d["bank_min"]
            s.mkt[K.MK_MARKET] = d["market"]
            s.mkt[K.MK_START] = d["market_start"]
            for key, row in (("building", K.CE_BLD), ("owner", K.CE_OWN), ("worker", K.CE_WRK)):
                if len(d[key]) != K.NCELL:
                    raise UserError(f"state dict: {key} needs {K.NCELL} cells")
                s.cells[row] = d[key]
            m[K.M_PENDING] = d["pending"]
            pl = d["placement"]
            m[K.P_SEAT] = pl["seat"]
            m[K.P_CELL] = pl["cell"]
            m[K.P_GATH] = pl["gathered"]
            m[K.P_USED:K.P_USED + 8] = pl["used"]
            m[K.P_ACTS] = pl["acts"]
            m[K.P_VPACTS] = pl["vp_acts"]
            m[K.P_GN] = pl["gathered_n"]
            m[K.P_GT:K.P_GT + 4] = pl["gathered_types"]
            m[K.M_EOR_STAGE] = K.EOR_STAGES.index(d["eor"]["stage"])
            m[K.M_EOR_IDX] = d["eor"]["index"]
            m[K.M_FEED_LEFT] = d["feed"]["left"]
            m[K.M_FEED_FISH] = d["feed"]["fish"]
            m[K.M_FEED_WHEAT] = d["feed"]["wheat"]
            for key, row, slot in (("goal_deck", K.PL_GDECK, K.M_GDECK_N),
                                   ("goal_discard", K.PL_GDISC, K.M_GDISC_N)):
                s.piles[row, : len(d[key])] = d[key]
                m[slot] = len(d[key])
            dr = d["draft"]
            s.piles[K.PL_DDECK, : len(dr["deck"])] = dr["deck"]
            m[K.M_DDECK_N] = len(dr["deck"])
            m[K.M_DRAFT_ROUND] = dr["round"]
            ng = len(d["players"][0]["goals"])
            if ng > K.MAXG:
                raise UserError(f"state dict: at most {K.MAXG} goal cards per seat")
            m[K.M_NGOALS] = ng
            for p in range(n):
                for b in dr["hands"][p]:
                    s.sb[p, K.SB_DHAND, int(b)] = 1
                s.seat[p, K.SE_PICKS] = dr["picks"][p]
                pd = d["players"][p]
                se = s.seat[p]
                se[K.SE_COINS] = pd["coins"]
                se[K.SE_CUBES:K.SE_CUBES + 4] = pd["cubes"]
                se[K.SE_SCORE] = pd["score"]
                se[K.SE_HOUSES] = pd["houses"]
                se[K.SE_WUSED] = pd["workers_used"]
                se[K.SE_ONSITE] = pd["on_site"]
                if len(pd["goals"]) != ng:
                    raise UserError("state dict: every seat holds the same number of goal slots")
                for j, (card, done) in enumerate(pd["goals"]):
                    if not 0 <= int(card) < K.NCARD:
                        raise UserError(f"state dict: goal card {card}; allowed 1..18")
                    se[K.SE_GOALS + j] = card
                    se[K.SE_GDONE + j] = done
                for key, plane in (("built", K.SB_BUILT), ("built_round", K.SB_BROUND),
                                   ("act_own", K.SB_ACT_OWN), ("act_by_others", K.SB_ACT_OTH),
                                   ("pick", K.SB_PICK)):
                    s.sb[p, plane] = pd[key]
                for i, name in enumerate(K.STAT_NAMES):
                    se[K.SE_STATS + i] = pd["stats"][name]
            recompute_derived(s)
        except UserError:
            raise
        except (KeyError, ValueError, TypeError, IndexError) as e:
            raise UserError(f"little-town state dict: malformed ({type(e).__name__}: {e})"
                            ) from None
        return s

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

    def _check_dict(self, d: dict):
        """Every field of a state dict: type, length and range (ids within the tables, seats
        within the players, cells within the board); returns ``(n, resolved options, data
        arrays)``. Raises UserError naming the field, the value and the allowed range."""
        r = DictReader(self.id)
        r.dict(d, "state")
        g = lambda key, d=d, w="": r.get(d, key, f"{w}{key}")  # noqa: E731
        n = r.int(g("n_players"), "n_players", self.min_players, self.max_players)
        resolved = self.resolve_options(r.dict(g("options"), "options"))
        from sim.core.checks import check_doc_limits
        SCHEMA = self._components().SCHEMA  # components.py imports this module: no import

        check_doc_limits(r.dict(g("data"), "data"), SCHEMA, self.id, "state dict data",
                         like=self.data_block)
        dg = LittleTown(g("data"))  # the data's own checks
        arrays = dg.arrays
        bd, consts = arrays["bdata"], arrays["consts"]
        rounds = int(resolved["rounds"])
        workers, houses, ngoals = (int(x) for x in consts[K.C_PC + 3 * n:K.C_PC + 3 * n + 3])
        supply, coin_total = int(consts[K.C_SUPPLY]), int(consts[K.C_COIN_TOTAL])
        big = 100_000
        phase = r.choice(g("phase"), "phase", K.PHASES)
        over = phase == K.PH_OVER
        r.int(g("current"), "current", -1 if over else 0, n - 1)
        r.int(g("round"), "round", 0, rounds + 1)
        r.int(g("start_player"), "start_player", 0, n - 1)
        r.int(g("first_player"), "first_player", 0, n - 1)
        r.ints(g("last_start"), "last_start", 0, rounds + 1, n)
        r.int(g("turn"), "turn", 0, K.MAX_DECISIONS)
        r.int(g("turns_total"), "turns_total", 0, K.MAX_DECISIONS)
        r.int(g("decisions"), "decisions", 0, K.MAX_DECISIONS)
        end = r.choice(g("end_reason"), "end_reason", K.END_REASONS)
        if over != (end != 0):
            raise r.fail("end_reason", K.END_REASONS[end], "none exactly while the game runs")
        r.ints(g("supply"), "supply", 0, supply, 4)
        bank = r.int(g("bank"), "bank", -big, coin_total)
        r.int(g("bank_min"), "bank_min", -big, max(bank, coin_total))
        for key in ("market", "market_start"):
            for b, x in enumerate(r.ints(g(key), key, 0, big, K.NB)):
                if x > bd[b, K.BD_COUNT]:
                    raise r.fail(f"{key}[{b}]", x, f"allowed 0..{bd[b, K.BD_COUNT]} (the "
                                 "building's count)")
        r.ints(g("building"), "building", -1, K.NB - 1, K.NCELL)
        r.ints(g("owner"), "owner", -1, n - 1, K.NCELL)
        r.ints(g("worker"), "worker", -1, n - 1, K.NCELL)
        r.int(g("pending"), "pending", -1, K.NB - 1)
        pl = r.dict(g("placement"), "placement")
        w = "placement."
        r.int(g("seat", pl, w), w + "seat", -1, n - 1)
        r.int(g("cell", pl, w), w + "cell", -1, K.NCELL - 1)
        r.int(g("gathered", pl, w), w + "gathered", 0, 1)
        r.ints(g("used", pl, w), w + "used", 0, 1, 8)
        r.int(g("acts", pl, w), w + "acts", 0, 8)
        r.int(g("vp_acts", pl, w), w + "vp_acts", 0, 8)
        r.int(g("gathered_n", pl, w), w + "gathered_n", 0, 4 * supply)
        r.ints(g("gathered_types", pl, w), w + "gathered_types", 0, supply, 4)
        eor = r.dict(g("eor"), "eor")
        r.choice(g("stage", eor, "eor."), "eor.stage", K.EOR_STAGES)
        r.int(g("index", eor, "eor."), "eor.index", 0, n)
        feed = r.dict(g("feed"), "feed")
        for key in ("left", "fish", "wheat"):
            r.int(g(key, feed, "feed."), f"feed.{key}", 0, workers + 4 * supply)
        cards: list[int] = []
        for key in ("goal_deck", "goal_discard"):
            cards += r.ints(g(key), key, 1, K.NCARD - 1, max_len=K.NCARD - 1)
        dr = r.dict(g("draft"), "draft")
        ddeck = r.ints(g("deck", dr, "draft."), "draft.deck", 1, K.NDRAFT, max_len=K.NDRAFT)
        hands = r.list(g("hands", dr, "draft."), "draft.hands", n)
        tiles = list(ddeck)
        for p in range(n):
            tiles += r.ints(hands[p], f"draft.hands[{p}]", 1, K.NDRAFT, max_len=K.NDRAFT)
        if len(set(tiles)) != len(tiles):
            raise r.fail("draft", tiles, "a tile in two places (deck and hands)")
        r.ints(g("picks", dr, "draft."), "draft.picks", -1, K.NB - 1, n)
        r.int(g("round", dr, "draft."), "draft.round", 0, K.NDRAFT)
        players = r.list(g("players"), "players", n)
        for p in range(n):
            w = f"players[{p}]."
            pd = r.dict(players[p], f"players[{p}]")
            r.int(g("coins", pd, w), w + "coins", 0, big)
            r.ints(g("cubes", pd, w), w + "cubes", 0, supply, 4)
            r.int(g("score", pd, w), w + "score", -big, big)
            r.int(g("houses", pd, w), w + "houses", 0, houses)
            r.int(g("workers_used", pd, w), w + "workers_used", 0, workers)
            r.int(g("on_site", pd, w), w + "on_site", 0, workers)
            goals = r.list(g("goals", pd, w), w + "goals", max_len=K.MAXG)
            if len(goals) != ngoals and not (p > 0 and len(goals) == len(players[0]["goals"])):
                if len(goals) != len(r.list(players[0].get("goals"), "players[0].goals")):
                    raise r.fail(w + "goals", goals, "every seat holds the same number of "
                                 "goal slots")
            for j, gl in enumerate(goals):
                card, done = r.ints(gl, f"{w}goals[{j}]", 0, K.NCARD - 1, 2)
                r.int(done, f"{w}goals[{j}][1]", 0, rounds + 1)
                if card:
                    cards.append(card)
            for key, hi in (("built", big), ("built_round", rounds + 1), ("act_own", big),
                            ("act_by_others", big), ("pick", K.NDRAFT)):
                vals = r.ints(g(key, pd, w), w + key, 0, hi, K.NB)
                if key == "built":
                    for b, x in enumerate(vals):
                        if x > bd[b, K.BD_COUNT]:
                            raise r.fail(f"{w}built[{b}]", x,
                                         f"allowed 0..{bd[b, K.BD_COUNT]} (the count)")
            st = r.dict(g("stats", pd, w), w + "stats")
            for name in K.STAT_NAMES:
                r.int(g(name, st, w + "stats."), f"{w}stats.{name}", -big, big)
        return n, resolved, arrays

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


GAME_CLASS = LittleTown
