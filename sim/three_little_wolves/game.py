"""The Three Little Wolves (아기늑대 삼형제): the game behind ``sim.get_game("three-little-wolves")``.

Rules: shared/rules/three_little_wolves.md; encoding, flow and state dict:
docs/games/three_little_wolves.md.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from sim.core.checks import DictReader
from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game
from sim.three_little_wolves import constants as K
from sim.three_little_wolves import data
from sim.three_little_wolves import invariants as _inv
from sim.three_little_wolves.kernels import (
    TLWState,
    alloc_state,
    compute_points,
    hand_add,
    refresh_heights,
)
from sim.three_little_wolves.options import OPTIONS


@lru_cache(maxsize=64)
def _names(suit: tuple) -> tuple[list[str], dict[str, int]]:
    names = data.card_names(suit)
    return names, {n: i for i, n in enumerate(names)}


def _suit_of(cards: np.ndarray) -> tuple:
    return tuple((int(cards[r, K.K_NUM]), int(cards[r, K.K_ICON]), int(cards[r, K.K_MARK]))
                 for r in range(K.SUIT))


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

    # ---- dict form (doc §9) -------------------------------------------------------------
    def state_to_dict(self, state) -> dict:
        meta = state.meta
        n = int(meta[K.M_NP])
        n_own = int(meta[K.M_NOWN])
        nm = self._card_names(state)
        hs, hf, hb, seat = state.hs, state.hf, state.hb, state.seat

        def name(c):
            return None if c < 0 else nm[int(c)]

        houses = []
        for o in range(n_own):
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
        consts = state.consts
        return {
            "game": self.id,
            "n_players": n,
            "options": self.options.decode(state.opts),
            "data": {"suit": [list(r) for r in _suit_of(state.cards)],
                     **data.components_dict(consts)},
            "rng": "0x%016x" % int(state.rng[0]),
            "stage": K.STAGES[int(meta[K.M_STAGE])],
            "phase": K.PHASES[int(meta[K.M_PHASE])],
            "current": int(meta[K.M_CUR]),
            "turn_player": int(meta[K.M_TP]),
            "turn": int(meta[K.M_TURN]),
            "decisions": int(meta[K.M_DEC]),
            "deck": [nm[int(c)] for c in state.deck[: meta[K.M_DECKN]]],
            "hands": [[nm[int(c)] for c in state.hands[p, : seat[p, K.S_HN]]] for p in range(n)],
            "discard": [nm[c] for c in range(K.NCARD) if state.discard[c]],
            "houses": houses,
            "wolves_left": [[int(consts[K.C_WOLF + v]) for v in range(3) if not seat[p, K.S_WU + v]]
                            for p in range(n)],
            "pigs_revealed": [nm[int(c)] for c in state.pigs[: meta[K.M_NPIGS]]],
            "pig_tokens_left": sorted(int(consts[K.C_TOKEN + t]) for t in range(3)
                                      if state.tokens[t] == K.T_LEFT),
            "pig_tokens_lost": sorted(int(consts[K.C_TOKEN + t]) for t in range(3)
                                      if state.tokens[t] == K.T_LOST),
            "mustache": int(meta[K.M_MUST]),
            "drawer": int(meta[K.M_DRAWER]),
            "pig_card": name(meta[K.M_PIGCARD]),
            "effect_step": int(meta[K.M_ESTEP]),
            "tie_houses": [int(h) for h in state.tie[: meta[K.M_NTIE]]],
            "passing": [name(seat[p, K.S_PASS]) for p in range(n)],
            "final_left": int(meta[K.M_FLEFT]),
            "round_step": int(meta[K.M_RSTEP]),
            "committed": [name(seat[p, K.S_COMMIT]) for p in range(n)],
            "dummy_card": name(meta[K.M_DCARD]),
            "cards_under_last_pig": int(meta[K.M_UNDER]),
            "stats": [{"build": int(seat[p, K.S_BUILD]), "wolf": int(seat[p, K.S_WOLFN]),
                       "discard": int(seat[p, K.S_DISCN])} for p in range(n)],
            "end_reason": K.END_REASONS[int(meta[K.M_END])],
        }

    def _state_from_dict(self, d: dict) -> TLWState:
        """Build a state from the dict layout of doc §9. Raises UserError if malformed."""
        self._check_dict(d)
        try:
            s = self._from_dict(d)
        except UserError:
            raise
        except (KeyError, ValueError, TypeError, IndexError, OverflowError) as e:
            raise UserError(
                f"three-little-wolves state dict: malformed ({type(e).__name__}: {e})") from None
        return s

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

    def _check_dict(self, d: dict) -> None:
        """Every field of a state dict (doc §9): type, length, range, card names of the deck,
        seats within the players, owners within the houses' rows, wolves and pig tokens among
        the data's values. Raises UserError naming the field, the value and the allowed
        range; the conservation laws are checked after (``check_invariants``)."""
        r = DictReader(self.id)
        r.dict(d, "state")
        g = lambda key, d=d, w="": r.get(d, key, f"{w}{key}")  # noqa: E731
        n = r.int(g("n_players"), "n_players", self.min_players, self.max_players)
        n_own = n if n >= 3 else 3
        resolved = self.resolve_options(r.dict(g("options"), "options"))
        dd = r.dict(g("data"), "data")
        suit = r.list(r.get(dd, "suit", "data.suit"), "data.suit", K.SUIT)
        for i, row in enumerate(suit):
            num, icon, mark = r.ints(row, f"data.suit[{i}]", -99, 99, 3)
            r.int(num, f"data.suit[{i}][0] (number)", 1, 99)
            r.int(icon, f"data.suit[{i}][1] (icon)", 0, 9)
            r.int(mark, f"data.suit[{i}][2] (mark)", -9, 9)
        effects = r.list(r.get(dd, "pig_effects", "data.pig_effects"), "data.pig_effects", 3)
        for i, e in enumerate(effects):
            r.choice(str(e).upper() if isinstance(e, str) else e, f"data.pig_effects[{i}]",
                     K.EFFECT_NAMES)
        tokens = r.ints(r.get(dd, "pig_tokens", "data.pig_tokens"), "data.pig_tokens", 1, 99, 3)
        wolves = r.ints(r.get(dd, "wolf_values", "data.wolf_values"), "data.wolf_values", 1,
                        99, 3)
        if len(set(wolves)) != 3:
            raise r.fail("data.wolf_values", wolves, "three different values")
        for key, lo, hi in (("house_points", 0, 999), ("collapse_points", -999, 999),
                            ("bonus_points", 0, 999), ("bottom_packet", 0, 20)):
            r.int(r.get(dd, key, f"data.{key}"), f"data.{key}", lo, hi)
        extra = set(dd) - {"suit", "pig_effects", "pig_tokens", "wolf_values", "house_points",
                           "collapse_points", "bonus_points", "bottom_packet"}
        if extra:
            raise r.fail("data", sorted(extra)[0], "unknown key")
        cards = data.cards_array(suit)
        names, _idx = _names(_suit_of(cards))

        def card(v, where, allow_none=False, lo=0, hi=K.NCARD - 1):
            if v is None and allow_none:
                return -1
            c = r.choice(v, where, names)
            if not lo <= c <= hi:
                raise r.fail(where, v, f"allowed: {', '.join(names[lo:hi + 1])}")
            return c

        stage = r.choice(g("stage"), "stage", K.STAGES)
        phase = r.choice(g("phase"), "phase", K.PHASES)
        over = phase == K.PH_OVER
        if over != (stage == K.ST_OVER):
            raise r.fail("phase", K.PHASES[phase], "over exactly when the stage is over")
        if stage == K.ST_FINAL2P and n != 2 or phase in (K.PH_DUMMY, K.PH_COMMIT) and n != 2:
            raise r.fail("stage", K.STAGES[stage], "final2p, dummy and commit are 2-player")
        end = r.choice(g("end_reason"), "end_reason", K.END_REASONS)
        if over != (end != K.END_NONE):
            raise r.fail("end_reason", K.END_REASONS[end], "none exactly while the game runs")
        r.int(g("current"), "current", -1 if over else 0, n - 1)
        r.int(g("turn_player"), "turn_player", -1, n_own - 1 if n == 2 else n - 1)
        r.int(g("turn"), "turn", 0, self.max_game_length(resolved))
        r.int(g("decisions"), "decisions", 0, self.max_game_length(resolved))
        for i, c in enumerate(r.list(g("deck"), "deck", max_len=K.NCARD)):
            card(c, f"deck[{i}]")
        pigs = r.list(g("pigs_revealed"), "pigs_revealed", max_len=3)
        for i, c in enumerate(pigs):
            card(c, f"pigs_revealed[{i}]", lo=K.PIG0)
        if n == 2:  # the mustache is always held by one of the two seats (spec §5.4)
            r.int(g("mustache"), "mustache", 0, 1)
        else:
            r.int(g("mustache"), "mustache", -1, -1)
        r.int(g("drawer"), "drawer", -1, n - 1)
        card(g("pig_card"), "pig_card", allow_none=True, lo=K.PIG0)
        r.int(g("effect_step"), "effect_step", 0, n)
        r.ints(g("tie_houses"), "tie_houses", 0, K.MAXH - 1, max_len=K.MAXH)
        r.int(g("final_left"), "final_left", 0, 2 * n)
        r.int(g("round_step"), "round_step", 0, 4)
        card(g("dummy_card"), "dummy_card", allow_none=True)
        r.int(g("cards_under_last_pig"), "cards_under_last_pig", -1, K.NCARD)
        hands = r.list(g("hands"), "hands", n)
        passing = r.list(g("passing"), "passing", n)
        committed = r.list(g("committed"), "committed", n)
        stats = r.list(g("stats"), "stats", n)
        left = r.list(g("wolves_left"), "wolves_left", n)
        for p in range(n):
            hand = [card(c, f"hands[{p}][{i}]") for i, c in enumerate(
                r.list(hands[p], f"hands[{p}]", max_len=K.HAND_CAP))]
            if hand != sorted(set(hand)):
                raise r.fail(f"hands[{p}]", hands[p], "distinct cards in ascending id order")
            card(passing[p], f"passing[{p}]", allow_none=True)
            card(committed[p], f"committed[{p}]", allow_none=True)
            st = r.dict(stats[p], f"stats[{p}]")
            for key in ("build", "wolf", "discard"):
                r.int(r.get(st, key, f"stats[{p}].{key}"), f"stats[{p}].{key}", 0,
                      K.MAX_DECISIONS)
            wl = r.ints(left[p], f"wolves_left[{p}]", 1, 99, max_len=3)
            if len(set(wl)) != len(wl) or not set(wl) <= set(wolves):
                raise r.fail(f"wolves_left[{p}]", wl, f"distinct values of {wolves}")
        for i, c in enumerate(r.list(g("discard"), "discard", max_len=K.NCARD)):
            card(c, f"discard[{i}]")
        for key in ("pig_tokens_left", "pig_tokens_lost"):
            vals = r.ints(g(key), key, 1, 99, max_len=3)
            if not set(vals) <= set(tokens):
                raise r.fail(key, vals, f"values of the pig tokens {tokens}")
        houses = r.list(g("houses"), "houses", n_own)
        for o, row in enumerate(houses):
            for h, hd in enumerate(r.list(row, f"houses[{o}]", max_len=K.MAXH)):
                w = f"houses[{o}][{h}]"
                r.dict(hd, w)
                r.choice(r.get(hd, "colour", f"{w}.colour"), f"{w}.colour",
                         K.HOUSE_COLOUR_NAMES)
                fl = r.list(r.get(hd, "floors", f"{w}.floors"), f"{w}.floors", max_len=K.MAXF)
                if not fl:
                    raise r.fail(f"{w}.floors", fl, f"1..{K.MAXF} floors")
                for i, c in enumerate(fl):
                    card(c, f"{w}.floors[{i}]", hi=K.NBUILD - 1)
                bs = r.list(r.get(hd, "basements", f"{w}.basements"), f"{w}.basements",
                            max_len=K.MAXB)
                for i, c in enumerate(bs):
                    card(c, f"{w}.basements[{i}]", hi=K.NBUILD - 1)
                pig = r.int(r.get(hd, "pig", f"{w}.pig"), f"{w}.pig", 0, 99)
                if pig and pig not in tokens:
                    raise r.fail(f"{w}.pig", pig, f"0 or a pig token of {tokens}")
                for i, wv in enumerate(r.list(r.get(hd, "wolves", f"{w}.wolves"),
                                              f"{w}.wolves", max_len=2)):
                    q, val = r.ints(wv, f"{w}.wolves[{i}]", 0, 99, 2)
                    r.int(q, f"{w}.wolves[{i}][0] (seat)", 0, n - 1)
                    if val not in wolves:
                        raise r.fail(f"{w}.wolves[{i}][1]", val, f"one of {wolves}")
        r.rng(g("rng"))

    def _from_dict(self, d: dict) -> TLWState:
        n = self.check_players(int(d["n_players"]))
        resolved = self.resolve_options(d["options"])
        opts = self.options.encode(resolved)
        dd = d["data"]
        cards = data.cards_array(dd["suit"])
        consts = data.consts_array({k: v for k, v in dd.items() if k != "suit"})
        s = alloc_state(opts, cards, consts)
        _, idx = _names(_suit_of(cards))

        def cid(name, what):
            if name is None:
                return -1
            if name not in idx:
                raise UserError(f"state dict {what}: unknown card {name!r}")
            return idx[name]

        meta = s.meta
        n_own = n if n >= 3 else 3
        meta[K.M_NP] = n
        meta[K.M_NOWN] = n_own
        meta[K.M_STAGE] = K.STAGES.index(d["stage"])
        meta[K.M_PHASE] = K.PHASES.index(d["phase"])
        meta[K.M_CUR] = int(d["current"])
        meta[K.M_TP] = int(d["turn_player"])
        meta[K.M_TURN] = int(d["turn"])
        meta[K.M_DEC] = int(d["decisions"])
        meta[K.M_END] = K.END_REASONS.index(d["end_reason"])
        deck = [cid(c, "deck") for c in d["deck"]]
        s.deck[: len(deck)] = deck
        meta[K.M_DECKN] = len(deck)
        pigs = [cid(c, "pigs_revealed") for c in d["pigs_revealed"]]
        if len(pigs) > 3 or any(c < K.NBUILD for c in pigs):
            raise UserError("state dict pigs_revealed: at most 3 pig cards")
        s.pigs[: len(pigs)] = pigs
        meta[K.M_NPIGS] = len(pigs)
        meta[K.M_MUST] = int(d["mustache"])
        meta[K.M_DRAWER] = int(d["drawer"])
        meta[K.M_PIGCARD] = cid(d["pig_card"], "pig_card")
        meta[K.M_ESTEP] = int(d["effect_step"])
        tie = [int(h) for h in d["tie_houses"]]
        s.tie[: len(tie)] = tie
        meta[K.M_NTIE] = len(tie)
        meta[K.M_FLEFT] = int(d["final_left"])
        meta[K.M_RSTEP] = int(d["round_step"])
        meta[K.M_DCARD] = cid(d["dummy_card"], "dummy_card")
        meta[K.M_UNDER] = int(d["cards_under_last_pig"])
        seat = s.seat
        for p in range(n):
            hand = d["hands"][p]
            if len(hand) > K.HAND_CAP:
                raise UserError(f"state dict hands[{p}]: at most {K.HAND_CAP} cards")
            for c in hand:
                hand_add(s.hands, seat, p, cid(c, f"hands[{p}]"))
            seat[p, K.S_PASS] = cid(d["passing"][p], "passing")
            seat[p, K.S_COMMIT] = cid(d["committed"][p], "committed")
            st = d["stats"][p]
            seat[p, K.S_BUILD] = int(st["build"])
            seat[p, K.S_WOLFN] = int(st["wolf"])
            seat[p, K.S_DISCN] = int(st["discard"])
            left = [int(x) for x in d["wolves_left"][p]]
            for v in range(3):
                seat[p, K.S_WU + v] = 0 if int(consts[K.C_WOLF + v]) in left else 1
        for p in range(n, 4):
            seat[p, K.S_PASS] = -1
            seat[p, K.S_COMMIT] = -1
        for c in d["discard"]:
            s.discard[cid(c, "discard")] = 1
        # pig tokens: left and lost by value, the rest placed
        state = [K.T_PLACED] * 3
        for key, code in (("pig_tokens_left", K.T_LEFT), ("pig_tokens_lost", K.T_LOST)):
            for val in d[key]:
                for t in range(3):
                    if state[t] == K.T_PLACED and int(consts[K.C_TOKEN + t]) == int(val):
                        state[t] = code
                        break
                else:
                    raise UserError(f"state dict {key}: no pig token {val}")
        s.tokens[:] = state
        wolf_index = {int(consts[K.C_WOLF + v]): v for v in range(3)}
        if len(d["houses"]) != n_own:
            raise UserError(f"state dict houses: need {n_own} owner lists")
        for o, row in enumerate(d["houses"]):
            if len(row) > K.MAXH:
                raise UserError(f"state dict houses[{o}]: at most {K.MAXH} houses")
            for h, hd in enumerate(row):
                col = K.HOUSE_COLOUR_NAMES.index(hd["colour"])
                fl = [cid(c, "floors") for c in hd["floors"]]
                bs = [cid(c, "basements") for c in hd["basements"]]
                if not 1 <= len(fl) <= K.MAXF or len(bs) > K.MAXB:
                    raise UserError(f"state dict houses[{o}][{h}]: 1..{K.MAXF} floors, "
                                    f"0..{K.MAXB} basements")
                s.hs[o, h, K.H_COL] = col
                s.hs[o, h, K.H_NF] = len(fl)
                s.hf[o, h, : len(fl)] = fl
                s.hs[o, h, K.H_NB] = len(bs)
                s.hb[o, h, : len(bs)] = bs
                s.hs[o, h, K.H_PIG] = int(hd["pig"])
                wl = hd["wolves"]
                if len(wl) > 2:
                    raise UserError(f"state dict houses[{o}][{h}]: at most 2 wolves")
                s.hs[o, h, K.H_NW] = len(wl)
                for w, (q, val) in enumerate(wl):
                    if int(val) not in wolf_index:
                        raise UserError(f"state dict: wolf value {val} not in wolf_values")
                    s.hs[o, h, K.H_W0S + 2 * w] = int(q)
                    s.hs[o, h, K.H_W0V + 2 * w] = int(val)
        refresh_heights(s)
        s.rng[0] = np.uint64(int(d["rng"], 16))
        return s

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


GAME_CLASS = ThreeLittleWolves
