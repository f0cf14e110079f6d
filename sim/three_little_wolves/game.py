"""The Three Little Wolves (아기늑대 삼형제): the game behind ``sim.get_game("three-little-wolves")``.

Rules: shared/rules/three_little_wolves.md; encoding, flow and state dict:
docs/games/three_little_wolves.md.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
from sim.core.schema import Ctx, Field, StateSchema, header_fields, read_header
from sim.three_little_wolves import constants as K
from sim.three_little_wolves import data
from sim.three_little_wolves import invariants as _inv
from sim.three_little_wolves.kernels import (
    TLWState,
    alloc_state,
    compute_points,
    refresh_heights,
)
from sim.three_little_wolves.options import OPTIONS


@lru_cache(maxsize=64)
def _names(suit: tuple) -> tuple[list[str], dict[str, int]]:
    names = data.card_names(suit)
    return names, {n: i for i, n in enumerate(names)}


_SUITS: dict[bytes, tuple] = {}  # the suit's rows as bytes -> _suit_of (a state dict asks often)


def _suit_of(cards: np.ndarray) -> tuple:
    key = np.ascontiguousarray(cards[:K.SUIT]).tobytes()
    suit = _SUITS.get(key)
    if suit is None:
        if len(_SUITS) >= 64:
            _SUITS.clear()
        suit = _SUITS[key] = tuple(
            (int(cards[r, K.K_NUM]), int(cards[r, K.K_ICON]), int(cards[r, K.K_MARK]))
            for r in range(K.SUIT))
    return suit


class ThreeLittleWolves(Game):
    """The Three Little Wolves, 2-4 players (2p with the dummy), 56 building and 3 pig cards."""

    id = "three-little-wolves"
    version = "1"  # changes only when the games played change (the manifest records it)
    invariant_messages = _inv.MESSAGES  # the codes of the kernel _inv.invariants
    title = "The Three Little Wolves"
    min_players = 2
    max_players = 4
    num_actions = K.NUM_ACTIONS
    options = OPTIONS
    end_reasons = K.END_REASONS
    information = "imperfect"
    chance = "sampled"
    hidden = ("the rivals' hands, passed and committed cards",
              "the order of the deck",
              "the face-down discard pile")
    results = ("scored",)
    spec = "shared/rules/three_little_wolves.md"
    data_status = data.DATA_STATUS
    impact_groups = [
        # caution: the report's association note in the group's own words (issue 16: the
        # generic one spoke of "cards" under house outcomes)
        {"prefix": "houses_", "title": "House outcomes", "noun": "house outcome",
         "verb": "had", "include": ["collapsed", "saved_by_tie"],
         "caution": "This is an association, not causation: seats whose house collapsed or "
                    "was saved by a tie differ in other ways (they built more or higher "
                    "houses, the game went on longer), so the difference does not say what "
                    "the outcome itself does to a seat's chances."},
        {"prefix": "act_", "title": "Wolf bets and discards", "noun": "action",
         "verb": "took", "include": ["wolf", "discard"],
         "caution": "This is an association, not causation: seats that bet a wolf or "
                    "discard differ in other ways (their hand, their position in the race), "
                    "so the difference does not say what the action would do for a random "
                    "seat."},
    ]
    seat_detail = (
        tuple(f"pts_{n}" for n in K.PTS_NAMES)
        + ("act_build", "act_wolf", "act_discard")
        + K.DET_NAMES
        + ("cards_under_last_pig",)
    )

    def __init__(self, card_sets: dict[str, list] | None = None,
                 components: dict[str, Any] | None = None):
        """``card_sets``: override suit templates by name; ``components``: override
        ``data.COMPONENTS`` entries. Raises UserError on bad data."""
        try:
            sets = dict(data.CARD_SETS)
            sets.update(card_sets or {})
            self.cards = {k: data.cards_array(v) for k, v in sets.items()}
            self.consts = data.consts_array(components)
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise UserError(f"three-little-wolves data: {e}") from None
        if len(set(self.consts[K.C_WOLF:K.C_WOLF + 3].tolist())) != 3:
            raise UserError("three-little-wolves data: wolf_values must be 3 distinct numbers")

    def max_game_length(self, options: dict[str, Any] | None = None) -> int:
        """Decisions: 256 (a bound never reached; doc §6)."""
        self.resolve_options(options)
        return K.MAX_DECISIONS

    def _alloc(self, resolved: dict[str, Any]) -> TLWState:
        opts = self.options.encode(resolved)
        return alloc_state(opts, self.cards[resolved["card_set"]], self.consts)

    # ---- interface ----------------------------------------------------------------------
    def points(self, state) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Score components ``int64[n, 6]`` (houses, collapses, bonuses, pigs, wolves, marks),
        tie-break ``int64[n]`` and detail ``int64[n, 6]`` (DET_NAMES), as if the game ended now."""
        n = int(state.meta[K.M_NP])
        pts = np.zeros((4, 6), np.int64)
        tb = np.zeros(4, np.int64)
        det = np.zeros((4, 6), np.int64)
        compute_points(state, pts, tb, det)
        return pts[:n], tb[:n], det[:n]

    def scores(self, state) -> np.ndarray:
        """Total points per seat, ``int64[n_players]`` (as if the game ended now)."""
        return self.points(state)[0].sum(axis=1)

    def tiebreaks(self, state) -> np.ndarray:
        """Tie-break value per seat (wolf points, doc §7)."""
        return self.points(state)[1]

    def ranks(self, state) -> np.ndarray:
        """Rank per seat: 1 + seats with a better (score, tie-break); all 0 while running."""
        pts, tb, _ = self.points(state)
        r = _ranks(pts.sum(axis=1)[None, :], tb[None, :])[0]
        if not self.is_terminal(state) or int(state.meta[K.M_END]) != 1:
            r[:] = 0
        return r

    # ---- strings ----------------------------------------------------------------------
    def _card_names(self, state) -> list[str]:
        return _names(_suit_of(state.cards))[0]

    def _house_label(self, state, o: int, h: int) -> str:
        n = int(state.meta[K.M_NP])
        who = "dummy" if (n == 2 and o == K.DUMMY) else f"P{o}"
        col = int(state.hs[o, h, K.H_COL]) if state.hs[o, h, K.H_NF] > 0 else -1
        return f"{who} house {h}" + (f" ({K.HOUSE_COLOUR_NAMES[col]})" if col >= 0 else "")

    def action_to_string(self, state, action: int) -> str:
        a = int(action)
        nm = self._card_names(state)
        p = int(state.meta[K.M_CUR])
        if a < 0 or a >= K.NUM_ACTIONS:
            raise UserError(f"three-little-wolves: action {a} out of range 0..{K.NUM_ACTIONS - 1}")
        if a < K.A_BASE:
            c, k = divmod(a, 4)
            if k == 3:
                return f"FLOOR {nm[c]} as a new house"
            return f"FLOOR {nm[c]} on {self._house_label(state, p, k)}"
        if a < K.A_WOLF:
            c, h = divmod(a - K.A_BASE, 3)
            return f"BASEMENT {nm[c]} under {self._house_label(state, p, h)}"
        if a < K.A_PLACE:
            return f"WOLF: discard {nm[a - K.A_WOLF]} face down"
        if a < K.A_DISC:
            i = a - K.A_PLACE
            v, o, h = i // 12, (i % 12) // 3, i % 3
            return (f"PLACE wolf {int(state.consts[K.C_WOLF + v])} on "
                    f"{self._house_label(state, o, h)}")
        if a < K.A_PASS:
            return f"DISCARD {nm[a - K.A_DISC]}"
        if a < K.A_PIGTIE:
            return f"PASS {nm[a - K.A_PASS]}"
        if a < K.A_DFLOOR:
            return f"PIG_TIE token on {self._house_label(state, p, a - K.A_PIGTIE)}"
        x = int(state.meta[K.M_DCARD])
        xs = nm[x] if x >= 0 else "?"
        if a < K.A_DNEW:
            return f"DUMMY_FLOOR {xs} on {self._house_label(state, K.DUMMY, a - K.A_DFLOOR)}"
        if a < K.A_DBASE:
            return f"DUMMY_NEW {xs} starts a {'RYG'[a - K.A_DNEW]} house"
        if a < K.A_DDISC:
            return f"DUMMY_BASE {xs} under {self._house_label(state, K.DUMMY, a - K.A_DBASE)}"
        if a == K.A_DDISC:
            return f"DUMMY_DISCARD {xs}"
        return f"COMMIT {nm[a - K.A_COMMIT]}"

    def state_to_string(self, state) -> str:
        d = self.state_to_dict(state)
        n = d["n_players"]
        if d["phase"] == "over":
            sc = self.scores(state).tolist()
            head = (f"The Three Little Wolves, {n} players, over after {d['turn']} turns: "
                    f"scores {sc}, winners {self.winners(state)}")
        else:
            head = (f"The Three Little Wolves, {n} players, turn {d['turn']}, decision "
                    f"{d['decisions']}, stage {d['stage']}, phase {d['phase']}, "
                    f"P{d['current']} to act")
        lines = [head, f"  deck {len(d['deck'])} cards, pigs revealed {d['pigs_revealed']}, "
                       f"pig tokens left {d['pig_tokens_left']}"
                       + (f", mustache P{d['mustache']}" if d["mustache"] >= 0 else "")]
        for o, houses in enumerate(d["houses"]):
            who = "dummy" if o >= n else f"P{o}"
            hs = []
            for hd in houses:
                cards = [f"{b}(B)" for b in reversed(hd["basements"])] + hd["floors"]
                extra = (f" pig {hd['pig']}" if hd["pig"] else "") + "".join(
                    f" wolf P{w[0]}:{w[1]}" for w in hd["wolves"])
                hs.append(f"{hd['colour']}[{' '.join(cards)}]{extra}")
            tail = ""
            if o < n:
                tail = f" | hand {' '.join(d['hands'][o]) or '-'} | wolves {d['wolves_left'][o]}"
            lines.append(f"  {who}: {'  '.join(hs) or '-'}{tail}")
        return "\n".join(lines)

    def _check_state(self, state) -> None:
        """A running game has a turn player among the seats (the dummy's 2 in 2p)."""
        m = state.meta
        n = int(m[K.M_NP])
        if int(m[K.M_PHASE]) != K.PH_OVER and not 0 <= int(m[K.M_TP]) < (3 if n == 2 else n):
            raise UserError(f"three-little-wolves state dict: turn_player = {int(m[K.M_TP])}: "
                            f"out of range; allowed 0..{2 if n == 2 else n - 1} while the game "
                            "runs")
        # the context each phase resolves (found by the fuzz: a phase without it played on
        # and lost cards)
        ph = int(m[K.M_PHASE])
        name = K.PHASES[ph]
        pig, drawer = int(m[K.M_PIGCARD]), int(m[K.M_DRAWER])
        resolving = ph in (K.PH_PIGTIE, K.PH_PASS, K.PH_HOUSE)

        def bad(what: str) -> UserError:
            return UserError(f"three-little-wolves state dict: phase {name}: {what}")

        if resolving != (pig >= K.PIG0) or resolving != (drawer >= 0):
            raise bad("pig_card and drawer are set exactly while a pig is resolved (phases "
                      "pig_tie, pass, house)")
        if resolving:
            e = int(state.consts[K.C_EFFECT + pig - K.PIG0])
            want = {K.PH_PASS: (K.E_LEFT, K.E_RIGHT), K.PH_HOUSE: (K.E_HOUSE,)}.get(ph)
            if want is not None and e not in want:
                raise bad(f"the pig card's effect is {K.EFFECT_NAMES[e]}")
        if (ph == K.PH_PIGTIE) != (int(m[K.M_NTIE]) > 0):
            raise bad("tie_houses are listed exactly in phase pig_tie")
        if (ph == K.PH_DUMMY) != (int(m[K.M_DCARD]) >= 0):
            raise bad("dummy_card is set exactly in phase dummy")
        if ph != K.PH_PASS and (state.seat[:n, K.S_PASS] >= 0).any():
            raise bad("a card set aside to pass outside phase pass")

    EFFECTS_GAMES = {3: 50_000}
    """``boardsim run``'s component-effects study (docs/effects.md): Wolves 3p: 12 arms, about
    0.07 ms of CPU per game-arm (measured): ~40 s (CPU time on the shared 2-core machine,
    docs/effects.md)."""

    def default_plan(self) -> list[dict[str, Any]]:
        """The main job (about two minutes on 2 loaded cores), each run with a ``role`` for
        the report (analysis/games/three_little_wolves/):

        * ``main``: 2, 3 and 4 players, every seat drawn from the recommended mix of competent
          bots (``RECOMMENDED_MIX`` of strategies/three_little_wolves), default rules and card
          set (the generic sections pool these);
        * ``cards:<set>``: the same pool under the alternative card sets ``cards_v0`` and
          ``cards_v2`` (spec §2.1, §7.2), for the card-set sensitivity of every finding;
        * ``wolf:allowed:<set>`` / ``wolf:forbidden:<set>``: the restricted-play pair of the wolf
          study, under each card set: the same seeds, all-greedy tables, and in the forbidden
          arm one seat (rotating) plays ``no-wolf``; ``pure_discard_allowed`` in both arms so
          that the restricted bot never has to bet;
        * ``dummy:neutral:<set>`` / ``dummy:hostile:<set>``: the 2p dummy-control pair
          (``dummy_policy=holder_choice``): all-greedy (neutral control) against one rotating
          ``hostile`` seat, on the same seeds.
        """
        pools = {p: self.recommended_mix(p) for p in (2, 3, 4)}
        sets = ("cards_v1", "cards_v0", "cards_v2")
        plan: list[dict[str, Any]] = []
        for p in (2, 3, 4):
            plan.append({"name": f"p{p}-pool", "role": "main", "players": p,
                         "strategies": pools[p], "seating": "pool", "n_games": 30_000, "seed": 1,
                         "chunk_size": 7_500, **self.effects_plan(p)})
        for cs in sets[1:]:
            for p in (2, 3, 4):
                plan.append({"name": f"p{p}-pool-{cs}", "role": f"cards:{cs}", "players": p,
                             "strategies": pools[p], "seating": "pool", "n_games": 8_000,
                             "seed": 1, "chunk_size": 4_000, "options": {"card_set": cs}})
        for cs in sets:
            for p in (2, 3, 4):
                opts = {"pure_discard_allowed": True, "card_set": cs}
                plan.append({"name": f"p{p}-wolves-allowed-{cs}", "role": f"wolf:allowed:{cs}",
                             "players": p, "strategies": ["greedy"], "seating": "fixed",
                             "n_games": 3_000, "seed": 2, "chunk_size": 1_500,
                             "options": opts})
                plan.append({"name": f"p{p}-wolves-forbidden-{cs}",
                             "role": f"wolf:forbidden:{cs}", "players": p,
                             "strategies": ["no-wolf"] + ["greedy"] * (p - 1),
                             "seating": "rotate", "n_games": 3_000, "seed": 2,
                             "chunk_size": 1_500, "options": opts})
        for cs in sets:
            n = 12_000 if cs == "cards_v1" else 4_000
            opts = {"dummy_policy": "holder_choice", "card_set": cs}
            plan.append({"name": f"p2-dummy-neutral-{cs}", "role": f"dummy:neutral:{cs}",
                         "players": 2, "strategies": ["greedy"], "seating": "fixed",
                         "n_games": n, "seed": 3, "chunk_size": n // 2, "options": opts})
            plan.append({"name": f"p2-dummy-hostile-{cs}", "role": f"dummy:hostile:{cs}",
                         "players": 2, "strategies": ["hostile", "greedy"],
                         "seating": "rotate", "n_games": n, "seed": 3, "chunk_size": n // 2,
                         "options": opts})
        return plan

    def _play_chunk(self, s, first_game, n_games, run_seed, n_players, seat_idx, codes,
                    params) -> ChunkResult:
        """The bots' loop over the chunk (Game.run_chunk); seat detail: ``seat_detail``."""
        turns = np.zeros(n_games, np.int64)
        decisions = np.zeros(n_games, np.int64)
        end_reason = np.zeros(n_games, np.int64)
        under = np.zeros(n_games, np.int64)
        pts = np.zeros((n_games, n_players, 6), np.int64)
        tb = np.zeros((n_games, n_players), np.int64)
        det = np.zeros((n_games, n_players, 6), np.int64)
        acts = np.zeros((n_games, n_players, 3), np.int64)
        ahash = np.zeros(n_games, np.uint64)
        self.bots.run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
                            turns, decisions, end_reason, pts, tb, det, acts, under, ahash)
        score = pts.sum(axis=2)
        rank = _ranks(score, tb)
        finished = end_reason == 1
        rank[~finished] = 0
        win = (rank == 1) & finished[:, None]
        k = np.maximum(win.sum(axis=1, keepdims=True), 1)
        share = np.where(win, 1.0 / k, 0.0)
        detail = {f"pts_{nm}": pts[:, :, j] for j, nm in enumerate(K.PTS_NAMES)}
        for j, nm in enumerate(("act_build", "act_wolf", "act_discard")):
            detail[nm] = acts[:, :, j]
        for j, nm in enumerate(K.DET_NAMES):
            detail[nm] = det[:, :, j]
        detail["cards_under_last_pig"] = np.repeat(under[:, None], n_players, axis=1)
        first = np.zeros(n_games, np.int64)
        return ChunkResult(turns, decisions, end_reason, first, score, rank, share, detail,
                           action_hash=ahash)


def _ranks(score: np.ndarray, tb: np.ndarray) -> np.ndarray:
    """``int64[n, p]``: 1 + number of seats with a higher score, or an equal score and a higher
    tie-break (competition ranking; shared winners all rank 1)."""
    better = ((score[:, None, :] > score[:, :, None])
              | ((score[:, None, :] == score[:, :, None]) & (tb[:, None, :] > tb[:, :, None])))
    return (1 + better.sum(axis=2)).astype(np.int64)


# ---- dict form (doc §9): the declared state -----------------------------------------------
_DATA_KEYS = ("suit", "pig_effects", "pig_tokens", "wolf_values", "house_points",
              "collapse_points", "bonus_points", "bottom_packet")


def _data_get(g, s, v, n) -> dict:
    return {"suit": [list(r) for r in _suit_of(s.cards)], **data.components_dict(s.consts)}


def _start(game, r, d) -> Ctx:
    """The header: the player count, the options and the data block (the suit, the pig
    effects and tokens, the wolves, the points), then the state allocated from them."""
    n, resolved = read_header(game, r, d)
    dd = r.dict(r.get(d, "data", "data"), "data")
    suit = r.list(r.get(dd, "suit", "data.suit"), "data.suit", K.SUIT)
    for i, row in enumerate(suit):
        num, icon, mark = r.ints(row, f"data.suit[{i}]", -99, 99, 3)
        r.int(num, f"data.suit[{i}][0] (number)", 1, 99)
        r.int(icon, f"data.suit[{i}][1] (icon)", 0, 9)
        r.int(mark, f"data.suit[{i}][2] (mark)", -9, 9)
    effects = r.list(r.get(dd, "pig_effects", "data.pig_effects"), "data.pig_effects", 3)
    # the names as the data table spells them (upper case), so any case is read as written
    # (a lower-case name passed this check, then failed the table's index: ValueError)
    dd = {**dd, "pig_effects": [
        K.EFFECT_NAMES[r.choice(str(e).upper() if isinstance(e, str) else e,
                                f"data.pig_effects[{i}]", K.EFFECT_NAMES)]
        for i, e in enumerate(effects)]}
    tokens = r.ints(r.get(dd, "pig_tokens", "data.pig_tokens"), "data.pig_tokens", 1, 99, 3)
    wolves = r.ints(r.get(dd, "wolf_values", "data.wolf_values"), "data.wolf_values", 1,
                    99, 3)
    if len(set(wolves)) != 3:
        raise r.fail("data.wolf_values", wolves, "three different values")
    for key, lo, hi in (("house_points", 0, 999), ("collapse_points", -999, 999),
                        ("bonus_points", 0, 999), ("bottom_packet", 0, 20)):
        r.int(r.get(dd, key, f"data.{key}"), f"data.{key}", lo, hi)
    extra = set(dd) - set(_DATA_KEYS)
    if extra:
        raise r.fail("data", sorted(extra)[0], "unknown key")
    cards = data.cards_array(suit)
    consts = data.consts_array({k: x for k, x in dd.items() if k != "suit"})
    s = alloc_state(game.options.encode(resolved), cards, consts)
    s.meta[K.M_NP] = n
    s.meta[K.M_NOWN] = n if n >= 3 else 3
    s.seat[:, K.S_PASS] = -1
    s.seat[:, K.S_COMMIT] = -1
    return Ctx(game, n, resolved, s, dict(tokens=tokens, wolves=wolves))


def _cards(c) -> list[str]:
    return _names(_suit_of(c.s.cards))[0]


def _pigs(c) -> list[str]:
    return _cards(c)[K.PIG0:]


def _houses_get(g, s, v, n) -> list:
    nm = _cards(Ctx(g, n, {}, s))
    hs, hf, hb = s.hs, s.hf, s.hb
    houses = []
    for o in range(int(s.meta[K.M_NOWN])):
        row = []
        for h in range(K.MAXH):
            nf = int(hs[o, h, K.H_NF])
            if nf == 0:
                continue
            row.append({
                "colour": K.HOUSE_COLOUR_NAMES[int(hs[o, h, K.H_COL])],
                "floors": [nm[int(c)] for c in hf[o, h, :nf]],
                "basements": [nm[int(c)] for c in hb[o, h, : hs[o, h, K.H_NB]]],
                "pig": int(hs[o, h, K.H_PIG]),
                "wolves": [[int(hs[o, h, K.H_W0S + 2 * w]), int(hs[o, h, K.H_W0V + 2 * w])]
                           for w in range(int(hs[o, h, K.H_NW]))],
            })
        houses.append(row)
    return houses


def _houses_put(game, r, value, ctx, where, p) -> None:
    """Each owner's houses (the dummy's row too in 2p): a colour, 1..MAXF floors and
    0..MAXB basements of building cards, a pig token's value or 0, at most 2 wolves (seat,
    value)."""
    s, n = ctx.s, ctx.n
    tokens, wolves = ctx.extra["tokens"], ctx.extra["wolves"]
    build = _cards(ctx)[:K.NBUILD]
    for o, row in enumerate(r.list(value, where, int(s.meta[K.M_NOWN]))):
        for h, hd in enumerate(r.list(row, f"{where}[{o}]", max_len=K.MAXH)):
            w = f"{where}[{o}][{h}]"
            r.dict(hd, w)
            s.hs[o, h, K.H_COL] = r.choice(r.get(hd, "colour", f"{w}.colour"), f"{w}.colour",
                                           K.HOUSE_COLOUR_NAMES)
            fl = r.list(r.get(hd, "floors", f"{w}.floors"), f"{w}.floors", max_len=K.MAXF)
            if not fl:
                raise r.fail(f"{w}.floors", fl, f"1..{K.MAXF} floors")
            fl = [r.choice(c, f"{w}.floors[{i}]", build) for i, c in enumerate(fl)]
            bs = r.list(r.get(hd, "basements", f"{w}.basements"), f"{w}.basements",
                        max_len=K.MAXB)
            bs = [r.choice(c, f"{w}.basements[{i}]", build) for i, c in enumerate(bs)]
            pig = r.int(r.get(hd, "pig", f"{w}.pig"), f"{w}.pig", 0, 99)
            if pig and pig not in tokens:
                raise r.fail(f"{w}.pig", pig, f"0 or a pig token of {tokens}")
            wl = r.list(r.get(hd, "wolves", f"{w}.wolves"), f"{w}.wolves", max_len=2)
            s.hs[o, h, K.H_NF] = len(fl)
            s.hf[o, h, : len(fl)] = fl
            s.hs[o, h, K.H_NB] = len(bs)
            s.hb[o, h, : len(bs)] = bs
            s.hs[o, h, K.H_PIG] = pig
            s.hs[o, h, K.H_NW] = len(wl)
            for i, wv in enumerate(wl):
                q, val = r.ints(wv, f"{w}.wolves[{i}]", 0, 99, 2)
                r.int(q, f"{w}.wolves[{i}][0] (seat)", 0, n - 1)
                if val not in wolves:
                    raise r.fail(f"{w}.wolves[{i}][1]", val, f"one of {wolves}")
                s.hs[o, h, K.H_W0S + 2 * i] = q
                s.hs[o, h, K.H_W0V + 2 * i] = val


def _wolves_get(g, s, v, n, p) -> list:
    return [int(s.consts[K.C_WOLF + w]) for w in range(3) if not s.seat[p, K.S_WU + w]]


def _wolves_put(game, r, value, ctx, where, p) -> None:
    """The values of the wolves a seat has not bet yet."""
    wolves = ctx.extra["wolves"]
    wl = r.ints(value, where, 1, 99, max_len=3)
    if len(set(wl)) != len(wl) or not set(wl) <= set(wolves):
        raise r.fail(where, wl, f"distinct values of {wolves}")
    for w in range(3):
        ctx.s.seat[p, K.S_WU + w] = 0 if int(ctx.s.consts[K.C_WOLF + w]) in wl else 1


def _tokens_get(code: int):
    def get(g, s, v, n) -> list:
        return sorted(int(s.consts[K.C_TOKEN + t]) for t in range(3) if s.tokens[t] == code)
    return get


def _tokens_put(code: int):
    def put(game, r, value, ctx, where, p) -> None:
        """Pig tokens by value, left or lost (the rest are placed on houses)."""
        s, tokens = ctx.s, ctx.extra["tokens"]
        if code == K.T_LEFT:
            s.tokens[:] = K.T_PLACED
        vals = r.ints(value, where, 1, 99, max_len=3)
        if not set(vals) <= set(tokens):
            raise r.fail(where, vals, f"values of the pig tokens {tokens}")
        for val in vals:
            for t in range(3):
                if s.tokens[t] == K.T_PLACED and int(s.consts[K.C_TOKEN + t]) == val:
                    s.tokens[t] = code
                    break
            else:
                raise r.fail(where, vals, f"no pig token {val} left")
    return put


def _check(game, r, ctx) -> None:
    """The Wolves' cross-field rules: the phase over exactly with the stage and the end
    reason; the 2-player stage and phases; each hand ascending and distinct."""
    m, n = ctx.s.meta, ctx.n
    stage, phase, end = int(m[K.M_STAGE]), int(m[K.M_PHASE]), int(m[K.M_END])
    over = phase == K.PH_OVER
    if over != (stage == K.ST_OVER):
        raise r.fail("phase", K.PHASES[phase], "over exactly when the stage is over")
    if stage == K.ST_FINAL2P and n != 2 or phase in (K.PH_DUMMY, K.PH_COMMIT) and n != 2:
        raise r.fail("stage", K.STAGES[stage], "final2p, dummy and commit are 2-player")
    if over != (end != K.END_NONE):
        raise r.fail("end_reason", K.END_REASONS[end], "none exactly while the game runs")
    for p in range(n):
        hand = [int(c) for c in ctx.s.hands[p, : ctx.s.seat[p, K.S_HN]]]
        if hand != sorted(set(hand)):
            raise r.fail(f"hands[{p}]", [_cards(ctx)[c] for c in hand],
                         "distinct cards in ascending id order")


def _seat(c) -> int:
    return c.n - 1


def _dec(c) -> int:
    return c.game.max_game_length(c.resolved)


_SCHEMA = StateSchema([
    *header_fields(_data_get),
    Field("rng", ("rng", 0), "rng"),
    Field("stage", ("meta", K.M_STAGE), "enum", names=K.STAGES),
    Field("phase", ("meta", K.M_PHASE), "enum", names=K.PHASES),
    Field("current", ("meta", K.M_CUR), lo=lambda c: -1 if c.s.meta[K.M_PHASE] == K.PH_OVER
          else 0, hi=_seat),
    Field("turn_player", ("meta", K.M_TP), lo=-1, hi=lambda c: 2 if c.n == 2 else c.n - 1),
    Field("turn", ("meta", K.M_TURN), hi=_dec),
    Field("decisions", ("meta", K.M_DEC), hi=_dec),
    Field("deck", ("deck", slice(None)), "names", names=_cards, count=("meta", K.M_DECKN),
          length=K.NCARD, hidden=True),
    Field("hands[]", ("hands", "p", slice(None)), "names", names=_cards,
          count=("seat", "p", K.S_HN), length=K.HAND_CAP, hidden=True),
    Field("discard", ("discard", slice(None)), "members", names=_cards, length=K.NCARD,
          hidden=True),
    Field("houses", kind="hook", get=_houses_get, put=_houses_put, uses=("hs", "hf", "hb")),
    Field("wolves_left[]", kind="hook", get=_wolves_get, put=_wolves_put, uses=("seat",)),
    Field("pigs_revealed", ("pigs", slice(None)), "names", names=_pigs, base=K.PIG0,
          count=("meta", K.M_NPIGS), length=3),
    Field("pig_tokens_left", kind="hook", get=_tokens_get(K.T_LEFT),
          put=_tokens_put(K.T_LEFT), uses=("tokens",)),
    Field("pig_tokens_lost", kind="hook", get=_tokens_get(K.T_LOST),
          put=_tokens_put(K.T_LOST), uses=("tokens",)),
    Field("mustache", ("meta", K.M_MUST), lo=lambda c: 0 if c.n == 2 else -1,
          hi=lambda c: 1 if c.n == 2 else -1, doc="held by one of the two seats in 2p"),
    Field("drawer", ("meta", K.M_DRAWER), lo=-1, hi=_seat),
    Field("pig_card", ("meta", K.M_PIGCARD), "enum", names=_pigs, base=K.PIG0, null=-1),
    Field("effect_step", ("meta", K.M_ESTEP), hi=lambda c: c.n),
    Field("tie_houses", ("tie", slice(None)), "ints", hi=K.MAXH - 1, count=("meta", K.M_NTIE),
          length=K.MAXH),
    Field("passing[]", ("seat", "p", K.S_PASS), "enum", names=_cards, null=-1, hidden=True),
    Field("final_left", ("meta", K.M_FLEFT), hi=lambda c: 2 * c.n),
    Field("round_step", ("meta", K.M_RSTEP), hi=4),
    Field("committed[]", ("seat", "p", K.S_COMMIT), "enum", names=_cards, null=-1,
          hidden=True),
    Field("dummy_card", ("meta", K.M_DCARD), "enum", names=_cards, null=-1),
    Field("cards_under_last_pig", ("meta", K.M_UNDER), lo=-1, hi=K.NCARD),
    Field("stats[].build", ("seat", "p", K.S_BUILD), hi=K.MAX_DECISIONS),
    Field("stats[].wolf", ("seat", "p", K.S_WOLFN), hi=K.MAX_DECISIONS),
    Field("stats[].discard", ("seat", "p", K.S_DISCN), hi=K.MAX_DECISIONS),
    Field("end_reason", ("meta", K.M_END), "enum", names=K.END_REASONS),
], data=("opts", "cards", "consts"), derived=(), start=_start, check=_check,
    finish=lambda game, s, ctx: refresh_heights(s), n_of=lambda v: v.meta[K.M_NP],
    game_id="three-little-wolves")
ThreeLittleWolves.state_schema = _SCHEMA


GAME_CLASS = ThreeLittleWolves
