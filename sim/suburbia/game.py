"""Suburbia (서버비아): the game object behind ``sim.get_game("suburbia")``.

Rules: shared/rules/suburbia.md; data tables, encoding, procedures and state dict:
docs/games/suburbia.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.checks import DictReader
from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
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
GOAL_OF = {n: g for g, n in enumerate(GOAL_NAMES)}
BASIC_NAMES = ("Suburbs", "Community Park", "Heavy Factory")


def _kind(name, what: str) -> int:
    if name not in KIND_OF:
        raise UserError(f"{what}: unknown tile {name!r}")
    return KIND_OF[name]


def _goal(name, what: str) -> int:
    if name is None:
        return -1
    if name not in GOAL_OF:
        raise UserError(f"{what}: unknown goal {name!r}; allowed: {', '.join(GOAL_NAMES)}")
    return GOAL_OF[name]


def _counts(row) -> dict[str, int]:
    return {TILE_NAMES[k]: int(row[k]) for k in range(1, K.NK) if row[k]}


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
        return s, bool(_kernels.derived_step_ok(s, a))

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

    # ---- dict form (docs/games/suburbia.md §12) ----------------------------------------
    def state_to_dict(self, state) -> dict:
        n = int(state.meta[K.M_NP])
        meta = state.meta
        tk = state.tk
        players = []
        for p in range(n):
            row = state.pl[p]
            tiles = []
            for t in range(int(row[K.P_NT])):
                k = int(tk[p, t, K.K_KIND])
                x, y = K.cell_xy(int(tk[p, t, K.K_CELL]))
                e = {"tile": TILE_NAMES[k]}
                if k == K.K_LAKE:
                    e["from"] = TILE_NAMES[int(tk[p, t, K.K_FROM])]
                e.update(x=x, y=y, turn=int(tk[p, t, K.K_TURN]), invested=bool(tk[p, t, K.K_INV]),
                         rl=int(tk[p, t, K.K_RL]))
                tiles.append(e)
            players.append({
                "money": int(row[K.P_MONEY]), "income": int(row[K.P_INC]),
                "reputation": int(row[K.P_REP]), "population": int(row[K.P_POP]),
                "pop_high": int(row[K.P_HIGH]), "redlines_up": int(row[K.P_RLUP]),
                "redlines_down": int(row[K.P_RLDOWN]), "goal_pop": int(row[K.P_GOALPOP]),
                "money_pop": int(row[K.P_MONEYPOP]),
                "goals_scored": [GOAL_NAMES[g] for g in range(K.NG) if (int(row[K.P_GOALBITS]) >> g) & 1],
                "tiles": tiles,
            })
        src = int(meta[K.M_PSRC])
        pending = None
        if src != K.SRC_NONE:
            pending = {"tile": TILE_NAMES[int(meta[K.M_PKIND])], "source": K.SOURCES[src]}
            if src == K.SRC_LAKE:
                pending["from"] = TILE_NAMES[int(meta[K.M_PFROM])]
        npub = int(meta[K.M_NPUB])
        return {
            "game": self.id,
            "n_players": n,
            "options": self.options.decode(state.opts),
            "rng": "0x%016x" % int(state.rng[0]),
            "phase": K.PHASES[int(meta[K.M_PHASE])],
            "current": int(meta[K.M_CUR]),
            "round": int(meta[K.M_ROUND]),
            "turn": int(meta[K.M_TURN]),
            "decisions": int(meta[K.M_DEC]),
            "last_round": int(meta[K.M_LAST]),
            "end_reason": K.END_REASONS[int(meta[K.M_END])],
            "pile": [TILE_NAMES[k] for k in state.pile[: meta[K.M_PILEN]]],
            "market": [TILE_NAMES[k] if k else None for k in state.market],
            "discard": _counts(state.discard),
            "box": _counts(state.box),
            "supply": {BASIC_NAMES[b]: int(state.supply[b]) for b in range(3)},
            "public_goals": [GOAL_NAMES[g] for g in state.gpub[:npub]],
            "goal_offers": [[GOAL_NAMES[g] for g in state.goffer[p]] for p in range(n)] if n > 1 else [],
            "private_goals": [GOAL_NAMES[g] if g >= 0 else None for g in state.gpriv[:n]],
            "pending": pending,
            "players": players,
        }

    def _state_from_dict(self, d: dict) -> SuburbiaState:
        """Build a state from the dict layout of docs/games/suburbia.md §12. Every field is
        checked first (``_check_dict``), the invariants after. Raises UserError naming the
        field, the value and the allowed range."""
        self._check_dict(d)
        try:
            if d.get("game", self.id) != self.id:
                raise UserError(f"state dict: game {d['game']!r} is not {self.id!r}")
            n = self.check_players(int(d["n_players"]))
            s = self._alloc(self.resolve_options(d["options"]))
            m = s.meta
            m[K.M_NP] = n
            m[K.M_PHASE] = K.PHASES.index(d["phase"])
            m[K.M_CUR] = int(d["current"])
            m[K.M_ROUND] = int(d["round"])
            m[K.M_TURN] = int(d["turn"])
            m[K.M_DEC] = int(d["decisions"])
            m[K.M_LAST] = int(d["last_round"])
            m[K.M_END] = K.END_REASONS.index(d["end_reason"])
            s.rng[0] = np.uint64(int(d["rng"], 16))
            pile = [_kind(x, "pile") for x in d["pile"]]
            if len(pile) > K.MAXPILE:
                raise UserError(f"state dict: pile longer than {K.MAXPILE}")
            s.pile[: len(pile)] = pile
            m[K.M_PILEN] = len(pile)
            if len(d["market"]) != K.NSLOTS:
                raise UserError(f"state dict: market must have {K.NSLOTS} slots")
            s.market[:] = [0 if x is None else _kind(x, "market") for x in d["market"]]
            for key, arr in (("discard", s.discard), ("box", s.box)):
                for name, v in d[key].items():
                    arr[_kind(name, key)] = int(v)
            s.supply[:] = [int(d["supply"][b]) for b in BASIC_NAMES]
            pub = [_goal(g, "public_goals") for g in d["public_goals"]]
            s.gpub[: len(pub)] = pub
            m[K.M_NPUB] = len(pub)
            for p, offers in enumerate(d["goal_offers"]):
                s.goffer[p, :] = [_goal(g, "goal_offers") for g in offers]
            for p in range(n):
                s.gpriv[p] = _goal(d["private_goals"][p], "private_goals")
            pend = d["pending"]
            if pend is not None:
                m[K.M_PKIND] = _kind(pend["tile"], "pending")
                m[K.M_PSRC] = K.SOURCES.index(pend["source"])
                if pend["source"] == "lake":
                    m[K.M_PFROM] = _kind(pend["from"], "pending.from")
            for p in range(n):
                q = d["players"][p]
                row = s.pl[p]
                row[K.P_MONEY] = q["money"]
                row[K.P_INC] = q["income"]
                row[K.P_REP] = q["reputation"]
                row[K.P_POP] = q["population"]
                row[K.P_HIGH] = q["pop_high"]
                row[K.P_RLUP] = q["redlines_up"]
                row[K.P_RLDOWN] = q["redlines_down"]
                row[K.P_GOALPOP] = q["goal_pop"]
                row[K.P_MONEYPOP] = q["money_pop"]
                row[K.P_GOALBITS] = sum(1 << _goal(g, "goals_scored") for g in q["goals_scored"])
                tiles = q["tiles"]
                if len(tiles) > K.MAXT:
                    raise UserError(f"state dict: at most {K.MAXT} tiles per borough")
                for t, e in enumerate(tiles):
                    k = _kind(e["tile"], "tiles")
                    cid = K.cell_id(int(e["x"]), int(e["y"]))
                    if cid < 0 or s.grid[p, cid]:
                        raise UserError(f"state dict: bad or duplicate cell ({e['x']},{e['y']})")
                    s.tk[p, t] = [k, cid, int(e["turn"]), int(bool(e["invested"])), int(e["rl"]),
                                  _kind(e["from"], "tiles.from") if k == K.K_LAKE else 0]
                    s.grid[p, cid] = t + 1
                    s.kc[p, k] += 1
                    row[K.P_NINV] += int(bool(e["invested"]))
                row[K.P_NT] = len(tiles)
        except UserError:
            raise
        except (KeyError, ValueError, TypeError, IndexError, AttributeError, OverflowError) as e:
            raise UserError(f"suburbia state dict: malformed ({type(e).__name__}: {e})") from None
        return s

    def _setup_pile(self, n: int, resolved: dict) -> int:
        """The pile's size at set-up for ``n`` players and these options (a pile only
        shrinks)."""
        import json

        cache = self.__dict__.setdefault("_pile_sizes", {})
        key = (n, json.dumps(resolved, sort_keys=True))
        if key not in cache:
            cache[key] = int(self.new_state(n, 0, resolved).meta[K.M_PILEN])
        return cache[key]

    def _check_dict(self, d: dict) -> None:
        """Every field of a state dict (docs §12): type, length and range; tile and goal names;
        seats within the players; cells within the grid. Raises UserError naming the field,
        the value and the allowed range."""
        r = DictReader(self.id)
        r.dict(d, "state")
        g = lambda key, d=d, w="": r.get(d, key, f"{w}{key}")  # noqa: E731
        n = r.int(g("n_players"), "n_players", self.min_players, self.max_players)
        resolved = self.resolve_options(r.dict(g("options"), "options"))
        counts = self.tiles[:, K.T_COUNT]
        names = list(KIND_OF)
        big = 1_000_000

        def kind(v, where, lake=False, omr=True):
            k = KIND_OF[names[r.choice(v, where, names)]]
            if (k == K.K_LAKE and not lake) or (k == K.K_OMR and not omr):
                raise r.fail(where, v, "not allowed here")
            return k

        def goal(v, where, none=False):
            if v is None and none:
                return -1
            return r.choice(v, where, GOAL_NAMES)

        phase = r.choice(g("phase"), "phase", K.PHASES)
        over = K.PHASES[phase] == "over"
        r.int(g("current"), "current", 0, n - 1)
        r.int(g("turn"), "turn", 0, MAX_DECISIONS)
        r.int(g("decisions"), "decisions", 0, MAX_DECISIONS)
        rnd = r.int(g("round"), "round", 0, MAX_DECISIONS)
        last = r.int(g("last_round"), "last_round", -1, MAX_DECISIONS)
        end = r.choice(g("end_reason"), "end_reason", K.END_REASONS)
        if over != (end != 0):
            raise r.fail("end_reason", K.END_REASONS[end], "none exactly while the game runs")
        r.rng(g("rng"))
        pile = r.list(g("pile"), "pile", max_len=self._setup_pile(n, resolved))
        for i, x in enumerate(pile):
            kind(x, f"pile[{i}]")
        if last >= 0 and not over and not rnd <= last <= rnd + 1:
            raise r.fail("last_round", last, f"the round {rnd} or the next, once the 1 More "
                         "Round tile is out")
        for i, x in enumerate(r.list(g("market"), "market", K.NSLOTS)):
            if x is not None:
                kind(x, f"market[{i}]", omr=False)
        for key in ("discard", "box"):
            for name, v in r.dict(g(key), key).items():
                k = kind(name, key, omr=False)
                r.int(v, f"{key}.{name}", 0, int(counts[k]))
        sup = r.dict(g("supply"), "supply")
        for b in BASIC_NAMES:
            r.int(r.get(sup, b, f"supply.{b}"), f"supply.{b}", 0, int(counts[KIND_OF[b]]))
        if set(sup) - set(BASIC_NAMES):
            raise r.fail("supply", sorted(set(sup) - set(BASIC_NAMES))[0], "unknown basic tile")
        pub = [goal(x, f"public_goals[{i}]") for i, x in enumerate(
            r.list(g("public_goals"), "public_goals", max_len=K.MAXP))]
        offers = r.list(g("goal_offers"), "goal_offers", max_len=n)
        if offers and len(offers) != n:
            raise r.fail("goal_offers", offers, f"{n} lists (one per seat), or none")
        chosen = list(pub)
        for p, o in enumerate(offers):
            chosen += [goal(x, f"goal_offers[{p}][{i}]")
                       for i, x in enumerate(r.list(o, f"goal_offers[{p}]", 2))]
        priv = r.list(g("private_goals"), "private_goals", n)
        for p in range(n):
            goal(priv[p], f"private_goals[{p}]", none=True)
        if len(set(chosen)) != len(chosen):
            raise r.fail("goals", [GOAL_NAMES[x] for x in chosen], "each goal once")
        pend = g("pending")
        if pend is not None:
            r.dict(pend, "pending")
            src = r.choice(r.get(pend, "source", "pending.source"), "pending.source",
                           K.SOURCES[1:]) + 1
            kind(r.get(pend, "tile", "pending.tile"), "pending.tile",
                 lake=K.SOURCES[src] == "lake", omr=False)
            if K.SOURCES[src] == "lake":
                kind(r.get(pend, "from", "pending.from"), "pending.from", omr=False)
        players = r.list(g("players"), "players", n)
        for p in range(n):
            w = f"players[{p}]."
            q = r.dict(players[p], f"players[{p}]")
            r.int(r.get(q, "money", w + "money"), w + "money", 0, big)
            r.int(r.get(q, "income", w + "income"), w + "income", -5, 15)
            r.int(r.get(q, "reputation", w + "reputation"), w + "reputation", -5, 15)
            for key in ("population", "pop_high", "redlines_up", "redlines_down", "goal_pop",
                        "money_pop"):
                r.int(r.get(q, key, w + key), w + key, 0, big)
            scored = r.list(r.get(q, "goals_scored", w + "goals_scored"), w + "goals_scored",
                            max_len=len(GOAL_NAMES))
            for i, x in enumerate(scored):
                goal(x, f"{w}goals_scored[{i}]")
            tiles = r.list(r.get(q, "tiles", w + "tiles"), w + "tiles", max_len=K.MAXT)
            for t, e in enumerate(tiles):
                wt = f"{w}tiles[{t}]"
                r.dict(e, wt)
                k = kind(r.get(e, "tile", wt + ".tile"), wt + ".tile", lake=True, omr=False)
                x = r.int(r.get(e, "x", wt + ".x"), wt + ".x", -K.GRID_R, K.GRID_R)
                y = r.int(r.get(e, "y", wt + ".y"), wt + ".y", 0, K.GRID_H - 1)
                if (x + y) % 2:
                    raise r.fail(wt, (x, y), "x + y must be even (a hex cell)")
                r.int(r.get(e, "turn", wt + ".turn"), wt + ".turn", 0, MAX_DECISIONS)
                r.bool(r.get(e, "invested", wt + ".invested"), wt + ".invested")
                r.int(r.get(e, "rl", wt + ".rl"), wt + ".rl", -big, big)
                if k == K.K_LAKE:
                    kind(r.get(e, "from", wt + ".from"), wt + ".from", omr=False)

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


GAME_CLASS = SuburbiaGame
