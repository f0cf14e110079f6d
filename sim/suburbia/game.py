"""Suburbia (서버비아): the game object behind ``sim.get_game("suburbia")``.

Rules: shared/rules/suburbia.md; data tables, encoding, procedures and state dict:
docs/games/suburbia.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
from sim.core.schema import BIG, Ctx, Field, StateSchema, header_fields, read_header
from sim.suburbia import constants as K
from sim.suburbia import data
from sim.suburbia import invariants as _inv
from sim.suburbia import kernels as _kernels
from sim.suburbia.detail import DETAIL_NAMES, N_DETAIL, slug
from sim.suburbia.kernels import MAX_DECISIONS, SuburbiaState, alloc_state, make_geo
from sim.suburbia.options import OPTIONS

TILE_NAMES = data.TILE_NAMES
GOAL_NAMES = data.GOAL_NAMES
KIND_OF = data.KIND_OF
BASIC_NAMES = ("Suburbs", "Community Park", "Heavy Factory")


class SuburbiaGame(Game):
    """Suburbia, 1-4 players (1 = the Lone Architect), 100 A/B/C tiles as effect records."""

    id = "suburbia"
    version = "1"  # changes only when the games played change (the manifest records it)
    invariant_messages = _inv.MESSAGES  # the codes of the kernel _inv.invariants
    title = "Suburbia"
    min_players = 1
    max_players = 4
    num_actions = K.NUM_ACTIONS
    options = OPTIONS
    end_reasons = K.END_REASONS
    information = "imperfect"
    chance = "sampled"
    hidden = ("the order of the tile pile",
              "the tiles left in the box",
              "the rivals' private goals")
    results = ("end",)
    spec = "shared/rules/suburbia.md"
    data_status = data.DATA_STATUS
    keeps_derived = True
    seat_detail = DETAIL_NAMES
    # generic per-component sections (analysis/report/). Goals are not here: their
    # ``goal_*`` columns are -1 when the goal was not in play, which the generic "> 0 vs the
    # rest" comparison would count as "not achieved"; analysis/games/suburbia/ reports them.
    impact_groups = [
        {"prefix": "tile_", "title": "Tiles placed (all seats, all games)", "noun": "tile",
         "verb": "placed", "include": [slug(TILE_NAMES[k]) for k in range(1, 51)]},
        {"prefix": "invest_", "title": "Investments", "noun": "tile", "verb": "invested in",
         "include": None},
    ]

    def __init__(self, tiles: list | None = None, goals: list | None = None,
                 red_lines: list | None = None, constants: dict | None = None):
        self.tiles = data.tiles_array(tiles)
        self.goals = data.goals_array(goals)
        self.lines, n_lines = data.lines_array(red_lines)
        self.consts = data.consts_array(constants, n_lines)
        self.geo = make_geo()
        self._check_data()

    def _check_data(self) -> None:
        """Raise UserError if the set-up numbers cannot be dealt or the game could outgrow the
        borough grid (at most 21 placements per seat)."""
        t = self.tiles
        per = {st: int(t[t[:, K.T_STACK] == st, K.T_COUNT].sum()) for st in (K.STACK_A, K.STACK_B, K.STACK_C)}
        for n in range(1, 5):
            S = int(self.consts[K.C_STACK1 + n - 1])
            M = int(self.consts[K.C_BLOCK1 + n - 1])
            E = int(self.consts[K.C_EXTRA_C])
            if not (7 <= S <= min(per[K.STACK_A], per[K.STACK_B]) and M <= S
                    and S + E <= per[K.STACK_C]):
                raise UserError("suburbia data: stack sizes do not fit the tile counts")
            if 3 * S + E + 1 > K.MAXPILE:
                raise UserError("suburbia data: stacks too large")
            last_draw = 3 * S - 6  # latest draw (after the first 7) that can reveal the 1MR
            rounds = (last_draw + 1) // 2 if n == 1 else (last_draw + n - 1) // n + 1
            if rounds > K.MAXT - 3:
                raise UserError("suburbia data: games this long overflow the borough grid")

    def apply_checking_derived(self, state, action: int):
        """See Game.apply_checking_derived (the kernels' derived arrays, docs §performance)."""
        a = self.check_action(state, action)
        self._check_room(state, a)
        s = self.copy_state(state)
        return s, bool(_kernels.derived_step_ok(s, np.int32(a)))

    def _check_room(self, state, action: int) -> None:
        """A placement needs a free slot in the borough's tile list (``MAXT`` = 24 tiles: 3 at
        the start and 21 placements, more than a real game gives a player)."""
        if action >= K.A_PLACE:
            c = int(state.meta[K.M_CUR])
            if int(state.pl[c, K.P_NT]) >= K.MAXT:
                raise UserError(f"suburbia: P{c}'s borough holds {K.MAXT} tiles, the most a "
                                "borough holds; this position (built by hand) has more to "
                                "play than a game gives")

    def _alloc(self, resolved: dict) -> SuburbiaState:
        tiles = data.apply_options(self.tiles, resolved)
        return alloc_state(self.options.encode(resolved), tiles, self.goals, self.lines,
                           self.consts, self.geo)

    def max_game_length(self, options: dict[str, Any] | None = None) -> int:
        """Decisions: the engine's safety cap (doc §5.5); real games need at most ~200."""
        self.resolve_options(options)
        return MAX_DECISIONS

    # ---- interface ----------------------------------------------------------------------
    def scores(self, state) -> np.ndarray:
        """Population per seat, ``int64[n_players]`` (final population once over)."""
        return state.pl[: state.meta[K.M_NP], K.P_POP].copy()

    def _keys(self, state) -> np.ndarray:
        n = int(state.meta[K.M_NP])
        k = np.zeros((1, n, 4), np.int64)
        k[0, :, 0] = state.pl[:n, K.P_POP]
        k[0, :, 1] = state.pl[:n, K.P_REP]
        k[0, :, 2] = state.pl[:n, K.P_INC]
        k[0, :, 3] = state.pl[:n, K.P_MONEY]
        return k

    def ranks(self, state) -> np.ndarray:
        """Competition ranks by population, reputation, income, money (D17); 0s before the end
        or after a ``limit`` stop."""
        n = int(state.meta[K.M_NP])
        if not self.is_terminal(state) or int(state.meta[K.M_END]) != 1:
            return np.zeros(n, np.int64)
        money = self.options.decode(state.opts)["tie_break"] == "rep_inc_money"
        return _ranks_batch(self._keys(state), money)[0]

    # ---- strings ----------------------------------------------------------------------
    def action_to_string(self, state, action: int) -> str:
        a = int(action)
        c = int(state.meta[K.M_CUR])
        if K.A_BUY <= a < K.A_BASIC:
            k = int(state.market[a - K.A_BUY])
            p = int(state.tiles[k, K.T_PRICE]) + int(state.consts[K.C_SUR0 + a - K.A_BUY])
            return f"BUY slot {a - K.A_BUY} {TILE_NAMES[k] or '(empty)'} for ${p}"
        if a < K.A_LAKE:
            return f"BASIC {BASIC_NAMES[a - K.A_BASIC]}"
        if a < K.A_INVEST:
            k = int(state.market[a - K.A_LAKE])
            return f"LAKE from slot {a - K.A_LAKE} {TILE_NAMES[k] or '(empty)'}"
        if a < K.A_DISCARD:
            t = a - K.A_INVEST
            k = int(state.tk[c, t, K.K_KIND]) if t < state.pl[c, K.P_NT] else 0
            return f"INVEST in tile {t} {TILE_NAMES[k] or '(none)'}"
        if a < K.A_KEEP:
            k = int(state.market[a - K.A_DISCARD])
            return f"DISCARD slot {a - K.A_DISCARD} {TILE_NAMES[k] or '(empty)'}"
        if a < K.A_PASS:
            g = int(state.goffer[c, a - K.A_KEEP])
            return f"KEEP goal {GOAL_NAMES[g] if g >= 0 else '?'}"
        if a == K.A_PASS:
            return "PASS"
        if K.A_PLACE <= a < K.NUM_ACTIONS:
            x, y = K.cell_xy(a - K.A_PLACE)
            return f"PLACE {TILE_NAMES[int(state.meta[K.M_PKIND])] or 'tile'} at ({x},{y})"
        raise UserError(f"suburbia: action {a} out of range 0..{K.NUM_ACTIONS - 1}")

    def state_to_string(self, state) -> str:
        d = self.state_to_dict(state)
        head = (f"Suburbia, {d['n_players']} players, round {d['round']}, turn {d['turn']}, "
                f"phase {d['phase']}, P{d['current']} to act")
        if d["phase"] == "over":
            head = (f"Suburbia, {d['n_players']} players, over after {d['turn']} turns: winners "
                    + ", ".join(f"P{w}" for w in self.winners(state)))
        lines = [head,
                 f"  pile {len(d['pile'])}, last round {d['last_round']}, market "
                 + " | ".join(m or "-" for m in d["market"])]
        if d["public_goals"]:
            lines.append("  public goals: " + ", ".join(d["public_goals"]))
        for p, q in enumerate(d["players"]):
            tl = ", ".join(f"{t['tile']}{'*' if t['invested'] else ''}({t['x']},{t['y']})"
                           for t in q["tiles"][3:])
            lines.append(f"  P{p}: ${q['money']} inc {q['income']} rep {q['reputation']} "
                         f"pop {q['population']} goal {d['private_goals'][p] if d['private_goals'] else '-'}"
                         f" | {tl or '-'}")
        return "\n".join(lines)

    def _setup_pile(self, n: int, resolved: dict) -> int:
        """The pile's size at set-up for ``n`` players and these options (a pile only
        shrinks)."""
        import json

        cache = self.__dict__.setdefault("_pile_sizes", {})
        key = (n, json.dumps(resolved, sort_keys=True))
        if key not in cache:
            cache[key] = int(self.new_state(n, 0, resolved).meta[K.M_PILEN])
        return cache[key]

    EFFECTS_GAMES = {3: 4_000}
    """``boardsim run``'s component-effects study (docs/effects.md): Suburbia 3p: 70 arms, about
    0.48 ms of CPU per game-arm (measured): ~2.2 min (CPU time on the shared 2-core machine,
    docs/effects.md)."""

    def default_plan(self) -> list[dict[str, Any]]:
        """The main job: 67,500 games. `boardsim run --only suburbia --jobs 2` took 101 s
        with a warm numba cache on the shared two-core machine at load ~10; a cold compile
        adds about 30 s on an idle machine and 2-3 minutes at that load.

        role "main": 2, 3 and 4 players, every seat drawn from the recommended mix of competent
        bots (``RECOMMENDED_MIX`` of strategies/suburbia: the six scripted bots of spec §9, no
        ``random``); the generic report sections use these runs only. The other runs are for the
        Suburbia sections (analysis/games/suburbia/): "tip:deny" (greedy and denier only, the
        same bot but for the discard: the hate-discarding tip; also a second bot mix),
        "mix:archetypes" (the three scripted archetypes: a third bot mix, for the "robust"
        mark and the archetype comparison) and "sweep:red_line_offset=-1" / "=1" (3 players,
        the main pool and seed, so game i is dealt as in the main 3-player run).
        """
        pool = list(self.bots.RECOMMENDED_MIX)
        arche = ["residential-civic", "industrial-airports", "commercial"]
        main = {2: 15_000, 3: 13_000, 4: 11_000}
        plan: list[dict[str, Any]] = [
            {"name": f"p{p}-pool", "role": "main", "players": p, "strategies": pool,
             "seating": "pool", "n_games": main[p], "seed": 1, "chunk_size": 2_000,
             **self.effects_plan(p)}
            for p in (2, 3, 4)
        ]
        plan += [
            {"name": f"p{p}-deny", "role": "tip:deny", "players": p,
             "strategies": ["greedy", "denier"], "seating": "pool", "n_games": 5_000,
             "seed": 2, "chunk_size": 2_500}
            for p in (2, 3, 4)
        ]
        plan += [
            {"name": f"p{p}-archetypes", "role": "mix:archetypes", "players": p,
             "strategies": arche, "seating": "pool", "n_games": 2_500, "seed": 3,
             "chunk_size": 1_250}
            for p in (2, 3, 4)
        ]
        plan += [
            {"name": f"p3-redline{off:+d}", "role": f"sweep:red_line_offset={off}", "players": 3,
             "strategies": pool, "seating": "pool", "n_games": 3_000, "seed": 1,
             "chunk_size": 1_500, "options": {"red_line_offset": off}}
            for off in (-1, 1)
        ]
        return plan

    def _play_chunk(self, s, first_game, n_games, run_seed, n_players, seat_idx, codes,
                    params) -> ChunkResult:
        """The bots' loop over the chunk (Game.run_chunk); seat detail: docs §13."""
        resolved = self.options.decode(s.opts)
        turns = np.zeros(n_games, np.int64)
        decisions = np.zeros(n_games, np.int64)
        end_reason = np.zeros(n_games, np.int64)
        keys = np.zeros((n_games, n_players, 4), np.int64)
        detail = np.zeros((n_games, n_players, N_DETAIL), np.int64)
        ahash = np.zeros(n_games, np.uint64)
        self.bots.run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
                            turns, decisions, end_reason, keys, detail, ahash)
        rank = _ranks_batch(keys, resolved["tie_break"] == "rep_inc_money")
        rank[end_reason != 1] = 0
        wins = (rank == 1)
        k = wins.sum(axis=1, keepdims=True)
        share = np.where(wins, 1.0 / np.maximum(k, 1), 0.0)
        first = np.zeros(n_games, np.int64)
        det = {name: detail[:, :, j] for j, name in enumerate(DETAIL_NAMES)}
        return ChunkResult(turns, decisions, end_reason, first, keys[:, :, 0].copy(), rank,
                           share, det, action_hash=ahash)


def _ranks_batch(keys: np.ndarray, use_money: bool) -> np.ndarray:
    """Competition ranks ``int64[n, p]`` from ranking keys ``int64[n, p, 4]`` (pop, rep, inc,
    money): 1 + the number of seats with a lexicographically greater key."""
    kk = keys if use_money else keys[:, :, :3]
    n, p, m = kk.shape
    a = kk[:, :, None, :]   # seat i
    b = kk[:, None, :, :]   # seat j
    greater = np.zeros((n, p, p), bool)
    equal = np.ones((n, p, p), bool)
    for j in range(m):
        greater |= equal & (b[..., j] > a[..., j])
        equal &= b[..., j] == a[..., j]
    return (1 + greater.sum(axis=2)).astype(np.int64)


# ---- dict form (docs/games/suburbia.md §12): the declared state ---------------------------
_TILES = TILE_NAMES[1:]
_LAKE, _OMR = TILE_NAMES[K.K_LAKE], TILE_NAMES[K.K_OMR]


def _start(game, r, d) -> Ctx:
    """The header: the game, the player count and the options (the component data is the
    game instance's), then the state allocated."""
    if d.get("game", game.id) != game.id:
        raise r.fail("game", d["game"], f"must be {game.id}")
    n, resolved = read_header(game, r, d)
    s = game._alloc(resolved)
    s.meta[K.M_NP] = n
    return Ctx(game, n, resolved, s)


def _offers_get(g, s, v, n) -> list:
    return [[GOAL_NAMES[x] for x in s.goffer[p]] for p in range(n)] if n > 1 else []


def _offers_put(game, r, value, ctx, where, p) -> None:
    """The two goals offered to each seat, or none (solo, or once chosen)."""
    n = ctx.n
    offers = r.list(value, where, max_len=n)
    if offers and len(offers) != n:
        raise r.fail(where, offers, f"{n} lists (one per seat), or none")
    ctx.extra["offers"] = len(offers)
    for q, o in enumerate(offers):
        ctx.s.goffer[q, :] = [r.choice(x, f"{where}[{q}][{i}]", GOAL_NAMES)
                              for i, x in enumerate(r.list(o, f"{where}[{q}]", 2))]


def _pending_get(g, s, v, n):
    meta = s.meta
    src = int(meta[K.M_PSRC])
    if src == K.SRC_NONE:
        return None
    out = {"tile": TILE_NAMES[int(meta[K.M_PKIND])], "source": K.SOURCES[src]}
    if src == K.SRC_LAKE:
        out["from"] = TILE_NAMES[int(meta[K.M_PFROM])]
    return out


def _pending_put(game, r, value, ctx, where, p) -> None:
    """The tile being placed (null if none): its source, and the tile a Lake came from."""
    if value is None:
        return
    m = ctx.s.meta
    r.dict(value, where)
    src = r.choice(r.get(value, "source", f"{where}.source"), f"{where}.source",
                   K.SOURCES[1:]) + 1
    lake = K.SOURCES[src] == "lake"
    m[K.M_PSRC] = src
    m[K.M_PKIND] = _tile(r, r.get(value, "tile", f"{where}.tile"), f"{where}.tile",
                         (_OMR,) if lake else (_LAKE, _OMR))
    if lake:
        m[K.M_PFROM] = _tile(r, r.get(value, "from", f"{where}.from"), f"{where}.from",
                             (_LAKE, _OMR))


def _tile(r, x, where: str, refuse: tuple) -> int:
    if x in refuse:
        raise r.fail(where, x, "not allowed here")
    return r.choice(x, where, _TILES) + 1


def _tiles_get(g, s, v, n, p) -> list:
    tk = s.tk
    out = []
    for t in range(int(s.pl[p, K.P_NT])):
        k = int(tk[p, t, K.K_KIND])
        x, y = K.cell_xy(int(tk[p, t, K.K_CELL]))
        e = {"tile": TILE_NAMES[k]}
        if k == K.K_LAKE:
            e["from"] = TILE_NAMES[int(tk[p, t, K.K_FROM])]
        e.update(x=x, y=y, turn=int(tk[p, t, K.K_TURN]), invested=bool(tk[p, t, K.K_INV]),
                 rl=int(tk[p, t, K.K_RL]))
        out.append(e)
    return out


def _tiles_put(game, r, value, ctx, where, p) -> None:
    """A borough: each tile on a free hex cell (x + y even), a Lake with the tile it came
    from; the grid and the per-kind counts rebuilt from them."""
    s = ctx.s
    tiles = r.list(value, where, max_len=K.MAXT)
    for t, e in enumerate(tiles):
        wt = f"{where}[{t}]"
        r.dict(e, wt)
        k = _tile(r, r.get(e, "tile", wt + ".tile"), wt + ".tile", (_OMR,))
        x = r.int(r.get(e, "x", wt + ".x"), wt + ".x", -K.GRID_R, K.GRID_R)
        y = r.int(r.get(e, "y", wt + ".y"), wt + ".y", 0, K.GRID_H - 1)
        if (x + y) % 2:
            raise r.fail(wt, (x, y), "x + y must be even (a hex cell)")
        turn = r.int(r.get(e, "turn", wt + ".turn"), wt + ".turn", 0, MAX_DECISIONS)
        inv = r.bool(r.get(e, "invested", wt + ".invested"), wt + ".invested")
        rl = r.int(r.get(e, "rl", wt + ".rl"), wt + ".rl", -BIG, BIG)
        src = (_tile(r, r.get(e, "from", wt + ".from"), wt + ".from", (_LAKE, _OMR))
               if k == K.K_LAKE else 0)
        cid = K.cell_id(x, y)
        if s.grid[p, cid]:
            raise r.fail(wt, (x, y), "a cell holding another tile")
        s.tk[p, t] = [k, cid, turn, int(inv), rl, src]
        s.grid[p, cid] = t + 1
        s.kc[p, k] += 1
        s.pl[p, K.P_NINV] += int(inv)
    s.pl[p, K.P_NT] = len(tiles)


def _check(game, r, ctx) -> None:
    """Suburbia's cross-field rules: an end reason exactly once over; the last round this
    round or the next once the 1 More Round tile is out; tiles within their counts; each goal
    public or offered once."""
    s = ctx.s
    m = s.meta
    over = K.PHASES[int(m[K.M_PHASE])] == "over"
    end, rnd, last = int(m[K.M_END]), int(m[K.M_ROUND]), int(m[K.M_LAST])
    if over != (end != 0):
        raise r.fail("end_reason", K.END_REASONS[end], "none exactly while the game runs")
    if last >= 0 and not over and not rnd <= last <= rnd + 1:
        raise r.fail("last_round", last, f"the round {rnd} or the next, once the 1 More "
                     "Round tile is out")
    counts = game.tiles[:, K.T_COUNT]
    for key, row in (("discard", s.discard), ("box", s.box)):
        for k in np.nonzero(row > counts[: len(row)])[0]:
            raise r.fail(f"{key}.{TILE_NAMES[k]}", int(row[k]), f"out of range; allowed "
                         f"0..{int(counts[k])}")
    for b, name in enumerate(BASIC_NAMES):
        if s.supply[b] > counts[KIND_OF[name]]:
            raise r.fail(f"supply.{name}", int(s.supply[b]), f"out of range; allowed "
                         f"0..{int(counts[KIND_OF[name]])}")
    chosen = [int(x) for x in s.gpub[: m[K.M_NPUB]]]
    if ctx.extra.get("offers"):
        chosen += [int(x) for x in s.goffer[: ctx.n].ravel()]
    if len(set(chosen)) != len(chosen):
        raise r.fail("goals", [GOAL_NAMES[x] for x in chosen], "each goal once")


def _pl(slot: int) -> tuple:
    return ("pl", "p", slot)


_SCHEMA = StateSchema([
    *header_fields(),
    Field("rng", ("rng", 0), "rng"),
    Field("phase", ("meta", K.M_PHASE), "enum", names=K.PHASES),
    Field("current", ("meta", K.M_CUR), hi=lambda c: c.n - 1),
    Field("round", ("meta", K.M_ROUND), hi=MAX_DECISIONS),
    Field("turn", ("meta", K.M_TURN), hi=MAX_DECISIONS),
    Field("decisions", ("meta", K.M_DEC), hi=MAX_DECISIONS),
    Field("last_round", ("meta", K.M_LAST), lo=-1, hi=MAX_DECISIONS),
    Field("end_reason", ("meta", K.M_END), "enum", names=K.END_REASONS),
    Field("pile", ("pile", slice(None)), "names", names=_TILES, base=1, refuse=(_LAKE,),
          count=("meta", K.M_PILEN), length=lambda c: c.game._setup_pile(c.n, c.resolved),
          hidden=True),
    Field("market", ("market", slice(None)), "names", names=_TILES, base=1, null=0,
          refuse=(_LAKE, _OMR)),
    Field("discard", ("discard", slice(None)), "counts", names=_TILES, base=1,
          refuse=(_LAKE, _OMR)),
    Field("box", ("box", slice(None)), "counts", names=_TILES, base=1, refuse=(_LAKE, _OMR)),
    Field("supply", ("supply", slice(None)), "record", names=BASIC_NAMES),
    Field("public_goals", ("gpub", slice(None)), "names", names=GOAL_NAMES,
          count=("meta", K.M_NPUB), length=K.MAXP),
    Field("goal_offers", kind="hook", get=_offers_get, put=_offers_put, uses=("goffer",),
          hidden=True),
    Field("private_goals[]", ("gpriv", "p"), "enum", names=GOAL_NAMES, null=-1, hidden=True),
    Field("pending", kind="hook", get=_pending_get, put=_pending_put, uses=("meta",)),
    Field("players[].money", _pl(K.P_MONEY)),
    Field("players[].income", _pl(K.P_INC), lo=-5, hi=15),
    Field("players[].reputation", _pl(K.P_REP), lo=-5, hi=15),
    Field("players[].population", _pl(K.P_POP)),
    Field("players[].pop_high", _pl(K.P_HIGH)),
    Field("players[].redlines_up", _pl(K.P_RLUP)),
    Field("players[].redlines_down", _pl(K.P_RLDOWN)),
    Field("players[].goal_pop", _pl(K.P_GOALPOP)),
    Field("players[].money_pop", _pl(K.P_MONEYPOP)),
    Field("players[].goals_scored", _pl(K.P_GOALBITS), "bitset", names=GOAL_NAMES),
    Field("players[].tiles", kind="hook", get=_tiles_get, put=_tiles_put,
          uses=("tk", "grid", "kc")),
], data=("opts", "tiles", "goals", "lines", "consts", "geo"),
    # recorded-only counters (seat detail, issue 16) the dict form has never carried and the
    # reference does not model: a game resumed from a dict counts them from 0
    unsaved=(("pl", slice(None), K.P_UNPAID), ("pl", slice(None), K.P_FORGIVEN)),
    start=_start, check=_check,
    n_of=lambda v: v.meta[K.M_NP], game_id="suburbia")
SuburbiaGame.state_schema = _SCHEMA


GAME_CLASS = SuburbiaGame
