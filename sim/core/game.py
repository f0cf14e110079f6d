"""The game interface shared by every game (in the spirit of OpenSpiel and Pgx).

A game is component data, constants and ``@njit`` kernels over a state that is a NamedTuple
of plain numpy arrays. This module holds what is common; each game subclasses ``Game``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from sim.core import entry
from sim.core.components import ComponentSchema, apply_to_document
from sim.core.ending import NO_RESULT
from sim.core.errors import UserError
from sim.core.options import OptionSet


@dataclass(frozen=True)
class StrategySpec:
    """A scripted bot: ``code`` is its id inside the game's numba dispatcher; ``params`` data."""

    name: str
    code: int
    doc: str
    params: tuple[float, ...] = ()
    param_names: tuple[str, ...] = ()
    # a search bot (strategies/search.py): thousands of playouts per decision, so left out of
    # the pools that bulk runs draw from by default (``Game.pool_strategies``)
    search: bool = False


@dataclass
class ChunkResult:
    """What a game's batch kernel returns for ``n`` games of ``p`` seats.

    turns, decisions, end_reason, first_player: int arrays ``[n]``;
    score, rank (0 = none), win_share (float64): ``[n, p]``;
    seat_detail: name -> int array ``[n, p]`` (per-game detail the analysis needs);
    action_hash: uint64 ``[n]``, keyword only and required: each game's action-sequence hash
    (``sim.core.rng.fold_action`` over its actions in order), so a run can count how many
    distinct games it holds.
    """

    turns: np.ndarray
    decisions: np.ndarray
    end_reason: np.ndarray
    first_player: np.ndarray
    score: np.ndarray
    rank: np.ndarray
    win_share: np.ndarray
    seat_detail: dict[str, np.ndarray] = field(default_factory=dict)
    action_hash: np.ndarray = field(kw_only=True)


UNFINISHED = NO_RESULT  # the names of end reasons without a result (sim.core.ending)


def set_search_budget(game: Game, names: list[str], params: np.ndarray, budget: int) -> None:
    """Set, in the parameter rows ``params`` of the strategies ``names`` (row ``i`` is
    ``names[i]``), the parameter ``budget`` of every search bot (``search=True``) to
    ``budget`` playouts per decision; other rows are left alone."""
    for i, name in enumerate(names):
        spec = game.strategy(name)
        if spec.search and "budget" in spec.param_names:
            params[i, spec.param_names.index("budget")] = float(budget)


def check_budget(game: Game, strategies: list[str], budget: int | None) -> int | None:
    """``budget`` (playouts per decision of the search bots) validated: an int in 1..100,000
    and at least one of ``strategies`` a search bot; None passes. Raises UserError."""
    if budget is None:
        return None
    from sim.core.integrity import check_int

    budget = check_int("--budget (playouts per decision)", budget, 1, 100_000)
    if not any(game.strategy(s).search for s in strategies):
        searchers = [n for n, s in game.strategies.items() if s.search]
        raise UserError(f"--budget sets the search bots' playouts per decision, but none of "
                        f"the strategies is a search bot (search bots of {game.id}: "
                        f"{', '.join(searchers) or 'none'})")
    return budget


class Game:
    """Base class of every game: the public interface as template methods over the game's
    compiled entry points (``sim/core/contract.py``) and a few hooks.

    The template methods own the rules every game shares: bad input raises ``UserError``
    naming the value and the allowed ones; a state passed in is never changed (a new state is
    returned); a finished game has no legal actions; ``choose_action`` returns a legal action
    for every named bot. A game sets the class attributes below and implements the hooks
    ``_alloc``, ``scores``, ``winners``, ``ranks``, the strings, the dict form,
    ``check_invariants``, ``default_plan`` and ``_play_chunk`` (docs/house-pattern.md).

    Class attributes: ``id`` (registry id), ``title``, ``version`` (engine version: changes
    only when the games played change; recorded in every run's manifest), ``min_players``/
    ``max_players``, ``num_actions`` (size of the fixed action space), ``options``
    (OptionSet), ``end_reasons`` (names of end-reason codes; code 0 is "none"),
    ``spec``
    (rules file), ``data_status`` (is the component data confirmed?), ``seat_detail`` (names of the per-seat detail columns
    of ``run_chunk``, in order), ``impact_groups`` (detail groups the report analyses).
    The bots are not the game's: the registry pairs the game with ``strategies/<package>``
    (``bots``; ``strategies`` maps names to StrategySpec).
    """

    id: str = ""
    title: str = ""
    version: str = "1"
    min_players: int = 2
    max_players: int = 4
    num_actions: int = 0
    options: OptionSet = OptionSet([])
    end_reasons: tuple[str, ...] = ("none",)
    spec: str = ""
    data_status: str = ""
    seat_detail: tuple[str, ...] = ()
    # ---- what the game is: declared, checked by ``check_declaration`` (at registration) -------
    # The generic tests and ``boardsim run`` branch on these, never on a table of game ids.
    # ``information``: "perfect" (every seat sees the whole state) or "imperfect";
    # ``chance``: "none" (no chance at all), "explicit" (chance outcomes are actions of the
    # state's chance seat) or "sampled" (the engine draws them from the state's generator);
    # ``hidden``: what a seat cannot see, which ``determinize`` resamples (empty exactly when
    # the information is perfect); ``results``: the end reasons of a game finished with a
    # result (every other reason but "none" is in ``UNFINISHED``: "limit", "deadlock").
    # The player counts are ``min_players`` .. ``max_players``.
    information: str = ""
    chance: str = ""
    # the declared state (sim/core/schema.py): ``state_to_dict`` / ``state_from_dict`` and their
    # checks are generated from it; its ``hidden`` fields are what ``hidden`` names
    state_schema: Any = None
    hidden: tuple[str, ...] = ()
    results: tuple[str, ...] = ()
    # per-seat detail groups the report analyses (see analysis.report.write_report)
    impact_groups: list[dict] = []
    # component data (balance lab; sim/core/components.py): how to read the document, and the
    # canonical overrides this instance was built with ({} = the printed data)
    overrides: dict[str, Any] = {}

    # ---- the declaration --------------------------------------------------------------------
    INFORMATION = ("perfect", "imperfect")
    CHANCE = ("none", "explicit", "sampled")

    def check_declaration(self) -> None:
        """Raise ValueError naming the first class attribute that does not declare what the
        game is (``information``, ``chance``, ``hidden``, ``results``, the player counts)."""
        where = f"{type(self).__module__}.{type(self).__name__}"
        if self.information not in self.INFORMATION:
            raise ValueError(f"{where}: information must be one of {self.INFORMATION}, got "
                             f"{self.information!r}")
        if self.chance not in self.CHANCE:
            raise ValueError(f"{where}: chance must be one of {self.CHANCE}, got "
                             f"{self.chance!r}")
        if bool(self.hidden) != (self.information == "imperfect"):
            raise ValueError(f"{where}: hidden must name what a seat cannot see exactly when "
                             f"the information is imperfect, got {self.hidden!r}")
        if not (1 <= self.min_players <= self.max_players):
            raise ValueError(f"{where}: player counts {self.min_players}..{self.max_players}")
        reasons = tuple(self.end_reasons)
        if not reasons or reasons[0] != "none" or not self.results or \
                not set(self.results) <= set(reasons) or set(self.results) & set(UNFINISHED):
            raise ValueError(f"{where}: results must be end reasons other than 'none' and "
                             f"{UNFINISHED}, got {self.results!r} of {reasons!r}")
        other = [r for r in reasons[1:] if r not in self.results and r not in UNFINISHED]
        if other:
            raise ValueError(f"{where}: end reason(s) {other} are neither results nor "
                             f"unfinished ({', '.join(UNFINISHED)})")
        sch = self.state_schema
        if sch is not None and bool(sch.hidden_keys()) != (self.information == "imperfect"):
            raise ValueError(f"{where}: the state schema's hidden fields "
                             f"{sch.hidden_keys()} must be non-empty exactly when the "
                             f"information is imperfect ({self.information})")

    def finished_codes(self) -> tuple[int, ...]:
        """The end-reason codes of a game finished with a result (``results``)."""
        return tuple(i for i, r in enumerate(self.end_reasons) if r in self.results)

    # ---- the bots paired with this game (sim/registry.py) ----------------------------------
    @property
    def bots(self):
        """The game's bot package ``strategies/<package>`` (STRATEGIES, params_matrix, choose,
        run_games), paired by the registry. Raises UserError if the game has none."""
        return bots_for(type(self))

    @property
    def strategies(self) -> dict[str, StrategySpec]:
        """Named bots of this game: name -> StrategySpec."""
        return self.bots.STRATEGIES

    # ---- validation helpers -------------------------------------------------------------
    def check_players(self, n_players: int) -> int:
        """``n_players`` as an int. Raises UserError unless ``min_players..max_players``."""
        if isinstance(n_players, bool) or not isinstance(n_players, (int, np.integer)) or not (
            self.min_players <= n_players <= self.max_players
        ):
            raise UserError(
                f"{self.id}: players must be {self.min_players}..{self.max_players}, "
                f"got {n_players}"
            )
        return int(n_players)

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Every rule option: the defaults overlaid with validated ``options``. Raises
        UserError naming an unknown option or a bad value and the allowed ones."""
        return self.options.resolve(options)

    @property
    def pool_strategies(self) -> list[str]:
        """The named bots that bulk runs (the ladder's default field, the soak, the fuzzer,
        the fingerprint, a game's default plan) play by default: every bot but the search
        bots, which think with thousands of playouts per decision and are named explicitly."""
        return [n for n, s in self.strategies.items() if not s.search]

    def recommended_mix(self, players: int | None = None) -> list[str]:
        """The recommended mix of competent bots at ``players`` seats: the bot package's
        ``RECOMMENDED_MIX_BY_PLAYERS[players]`` where it declares one (a bot meant for that
        player count), else its ``RECOMMENDED_MIX``; [] when it declares none."""
        by = getattr(self.bots, "RECOMMENDED_MIX_BY_PLAYERS", None) or {}
        if players is not None and players in by:
            return list(by[players])
        return list(getattr(self.bots, "RECOMMENDED_MIX", ()) or ())

    def strategy(self, name: str) -> StrategySpec:
        """The named bot. Raises UserError naming the allowed ones."""
        if name not in self.strategies:
            raise UserError(
                f"unknown strategy {name!r} for {self.id}; allowed: {', '.join(self.strategies)}"
            )
        return self.strategies[name]

    def max_game_length(self, options: dict[str, Any] | None = None) -> int:
        """Declared maximum number of decisions in one game under ``options``."""
        raise NotImplementedError

    # ---- hooks (each game) ----------------------------------------------------------------
    def _alloc(self, resolved: dict[str, Any]) -> NamedTuple:
        """A zeroed state holding this instance's data and the encoded ``resolved`` options."""
        raise NotImplementedError

    # ---- the interface (template methods) -------------------------------------------------
    def new_state(self, n_players: int, seed: int, options: dict | None = None) -> NamedTuple:
        """A new game of ``n_players`` (the rulebook's set-up) with chance seed ``seed`` (int,
        taken mod 2**64) and rule ``options``. Raises UserError on bad input."""
        n_players = self.check_players(n_players)
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise UserError(f"{self.id}: seed must be an integer, got {seed!r}")
        s = self._alloc(self.resolve_options(options))
        entry.init_state(s, n_players, np.uint64(int(seed) % 2**64))
        return s

    def legal_actions(self, state) -> np.ndarray:
        """Legal action ids, ``int32[k]`` ascending; empty once the game is over."""
        buf = np.empty(self.num_actions, np.int32)
        n = entry.legal_actions_into(state, buf)
        return buf[:n].copy()

    def check_action(self, state, action) -> int:
        """``action`` as an int if it is legal in ``state``; else UserError naming it and the
        legal ones."""
        legal = self.legal_actions(state)
        ok = not isinstance(action, bool) and isinstance(action, (int, np.integer))
        a = int(action) if ok else -1
        if not ok or not (0 <= a < self.num_actions) or a not in set(legal.tolist()):
            shown = ", ".join(map(str, legal)) if len(legal) else "none (the game is over)"
            raise UserError(f"{self.id}: action {action!r} is not legal here; legal: {shown}")
        return a

    def apply_action(self, state, action: int):
        """A new state after the legal ``action`` (and the forced moves after it); ``state``
        is unchanged. Raises UserError if the action is not legal."""
        a = self.check_action(state, action)
        self._check_room(state, a)
        s = self.copy_state(state)
        entry.apply_inplace(s, np.int32(a))  # int32 as in the compiled loops: one version
        return s

    def _check_room(self, state, action: int) -> None:
        """Hook: raise UserError if applying the legal ``action`` to ``state`` would overrun
        one of the kernels' fixed arrays (a state built by hand with more to play than a real
        game has); default: nothing to check."""

    keeps_derived: bool = False  # True for a game whose kernels keep derived arrays

    def apply_checking_derived(self, state, action: int):
        """``(new_state, ok)``: the legal ``action`` applied with the game's derived arrays kept
        by the kernels as in its batch loop, and whether they then equal a fresh derivation
        from the state (a game without derived arrays: always True)."""
        return self.apply_action(state, action), True

    def is_terminal(self, state) -> bool:
        """True once the game has ended (a result, or the length limit)."""
        return bool(entry.is_over(state))

    def current_player(self, state) -> int:
        """The seat to act; -1 once the game is over."""
        return -1 if self.is_terminal(state) else int(entry.current_seat(state))

    def win_shares(self, state) -> np.ndarray:
        """``float64[n_players]``: 1/k for each of k winners, else 0 (all 0 before the end
        and in a game stopped at the length limit)."""
        n = int(entry.n_seats(state))
        out = np.zeros(n, np.float64)
        entry.win_shares_into(state, out)
        return out

    def scores(self, state) -> np.ndarray:
        """The game's score per seat, ``int64[n_players]``."""
        raise NotImplementedError

    def winners(self, state) -> list[int]:
        """Winning seats once the game is over (several for a shared win), else []."""
        return [int(p) for p in np.nonzero(self.win_shares(state) > 0)[0]]

    def ranks(self, state) -> np.ndarray:
        """Competition rank per seat (1 = winner), ``int64[n_players]``; 0 before the end."""
        raise NotImplementedError

    def action_to_string(self, state, action: int) -> str:
        raise NotImplementedError

    def state_to_string(self, state) -> str:
        raise NotImplementedError

    def state_to_dict(self, state) -> dict:
        """The state as the dict layout of the game's docs page, generated from the game's
        declared ``state_schema`` (sim/core/schema.py)."""
        if self.state_schema is None:
            raise NotImplementedError
        return self.state_schema.to_dict(self, state)

    def state_from_dict(self, data: dict):
        """A state from the dict layout of the game's docs page (``state_to_dict``), checked
        before any kernel sees it: every field (type, length, range; ids within the tables,
        seats within the players) and then the game's conservation laws
        (``check_invariants``). Raises UserError naming the field, the value and the allowed
        range, or the broken law."""
        from sim.core.checks import check_invariants_as_user_error

        s = self._state_from_dict(data)
        check_invariants_as_user_error(self, s)
        self._check_state(s)
        if not self.is_terminal(s) and len(self.legal_actions(s)) == 0:
            raise UserError(f"{self.id} state dict: a running game with no legal action (its "
                            "phase does not match the rest of the position)")
        return s

    def _check_state(self, state) -> None:
        """Hook: consistency rules of a real position beyond ``check_invariants`` that a
        hand-built rulebook position may skip (``position_from_dict``); raise UserError."""

    def position_from_dict(self, data: dict):
        """A hand-built position (a rulebook example that does not account for every card or
        coin): every field checked as in ``state_from_dict``, but not the conservation laws.
        For worked examples and tests: the kernels assume the laws, so a position that breaks
        them may play wrongly. Raises UserError."""
        return self._state_from_dict(data)

    def _state_from_dict(self, data: dict):
        """Hook: the state of a dict, every field checked (UserError), not the invariants;
        generated from the game's declared ``state_schema``."""
        if self.state_schema is None:
            raise NotImplementedError
        return self.state_schema.from_dict(self, data)

    def choose_action(self, state, strategy: str, rng: np.ndarray) -> int:
        """The action the named bot takes now; ``rng`` is the bot generator (``uint64[1]``,
        advanced in place; see ``bot_rng``). ``state`` is unchanged. Raises UserError for an
        unknown bot or a finished game; RuntimeError if the bot returns an illegal action
        (a bug in the bot)."""
        spec = self.strategy(strategy)
        legal = self.legal_actions(state)
        if len(legal) == 0:
            raise UserError(f"{self.id}: the game is over; there is no action to choose")
        rng = self._check_bot_rng(rng)
        codes, params = self.bots.params_matrix([spec.name])
        a = int(self.bots.choose(codes[0], params, 0, self.copy_state(state), legal,
                                 len(legal), rng))
        if a not in set(legal.tolist()):
            raise RuntimeError(f"{self.id}: bot {strategy!r} chose the illegal action {a}")
        return a

    def determinize(self, state, seat: int, seed: int):
        """A determinization of ``state`` from ``seat``'s point of view (the search bot's
        information sets, issue 14): a new state in which everything ``seat`` cannot see
        (rivals' hands, deck or pile order, face-down tokens; the list per game is in the
        section "Hidden information and determinization" of docs/games/<game>.md) is resampled
        from a generator seeded with ``seed`` (int, taken mod 2**64), consistent with what
        ``seat`` sees; public quantities and the game's invariants are kept and the state's
        chance generator is reseeded, so future chance is unknown too. ``state`` is unchanged.
        The same ``seed`` gives the same result for every state ``seat`` cannot tell apart.
        ``seat``: int in ``0..n_players-1``. Raises UserError on a bad seat or seed."""
        n = int(entry.n_seats(state))
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not (
                0 <= seat < n):
            raise UserError(f"{self.id}: seat must be an int in 0..{n - 1}, got {seat!r}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise UserError(f"{self.id}: seed must be an integer, got {seed!r}")
        s = self.copy_state(state)
        entry.determinize(s, np.int64(seat), self.bot_rng(int(seed)))
        return s

    invariant_messages: tuple[str, ...] = ()
    """The message of each violation code of the game's ``invariants`` kernel (code ``c`` is
    ``invariant_messages[c - 1]``; sim/<package>/invariants.py)."""

    def check_invariants(self, state) -> None:
        """Raise AssertionError naming the law (and its code) if ``state`` breaks a
        conservation law of the game: the game's compiled ``invariants`` kernel (the contract
        hook, sim/core/contract.py), the one definition of its laws, which the compiled soak
        also checks after every decision."""
        code = int(entry.invariants(state))
        if code:
            msgs = self.invariant_messages
            msg = msgs[code - 1] if 0 < code <= len(msgs) else "unknown violation"
            raise AssertionError(f"{msg} (invariant code {code})")

    def conformance_values(self) -> dict[str, list[Any]]:
        """Values of each rule option that the conformance test plays (defaults excluded)."""
        out: dict[str, list[Any]] = {}
        for o in self.options:
            if o.kind == "bool":
                vals = [True, False]
            elif o.allowed:
                vals = list(o.allowed)
            else:
                vals = [o.min]
            out[o.name] = [v for v in vals if v != o.default]
        return out

    def default_plan(self) -> list[dict[str, Any]]:
        """The main job's runs for this game: dicts with name, players, strategies, seating,
        n_games (and optionally seed, options, chunk_size, role, effects_games: games per arm
        of the causal component-effects study that ``boardsim run`` plays on that run,
        ``effects_plan``)."""
        raise NotImplementedError

    EFFECTS_GAMES: dict[int, int] = {}
    """Player count -> games per arm of the causal component-effects study
    (``analysis.lab.effects``, docs/effects.md) that ``boardsim run`` plays on the main run of
    that player count (times ``--scale``); counts not listed get none."""

    def effects_plan(self, players: int) -> dict[str, int]:
        """``{"effects_games": n}`` for the main plan entry of ``players`` when
        ``EFFECTS_GAMES`` lists that count, else ``{}`` (spread into the plan entry)."""
        n = self.EFFECTS_GAMES.get(players)
        return {"effects_games": n} if n else {}

    @staticmethod
    def bot_rng(seed: int) -> np.ndarray:
        """A bot generator state ``uint64[1]`` from an int seed."""
        return np.array([int(seed) % 2**64], np.uint64)

    @staticmethod
    def _check_bot_rng(rng) -> np.ndarray:
        if not (isinstance(rng, np.ndarray) and rng.dtype == np.uint64 and rng.shape == (1,)):
            raise UserError("bot generator must be a uint64[1] array (Game.bot_rng(seed))")
        return rng

    # ---- component data (balance lab) ----------------------------------------------------
    # A game exposes its data through ``sim/<package>/components.py``: ``SCHEMA``
    # (ComponentSchema), ``document(game) -> dict`` and ``build(doc) -> Game``.
    def _components(self):
        import importlib

        pkg = type(self).__module__.rsplit(".", 1)[0]
        try:
            return importlib.import_module(f"{pkg}.components")
        except ModuleNotFoundError:
            raise UserError(f"{self.id}: its component data is not exposed as tables yet"
                            ) from None

    @property
    def component_schema(self) -> ComponentSchema:
        """How the component document reads (tables, keys, tunable numbers, impact links)."""
        return self._components().SCHEMA

    def component_document(self) -> dict[str, Any]:
        """This instance's component data as a JSON-able dict of tables (see
        sim/core/components.py). Raises UserError for a game without one."""
        return self._components().document(self)

    def from_document(self, doc: dict[str, Any]) -> Game:
        """A new instance of this game playing with the component data ``doc``. Raises
        UserError when the data is impossible (the game's own checks)."""
        return self._components().build(doc)

    def _check_data(self) -> None:
        """Every number of this instance's component data within its schema's stated range
        (``check_doc_limits``; the state dict's ``data`` block is checked so). Raises
        UserError."""
        from sim.core.checks import check_doc_limits

        check_doc_limits(self.component_document(), self.component_schema, self.id,
                         "state dict data")

    def plausible_ranges(self) -> list[dict[str, Any]]:
        """The plausible ranges of this game's unconfirmed numbers (``ComponentSchema.ranges``)
        with their printed values: ``[{"path", "value", "low", "high", "reason"}]``; [] for a
        game without a component schema. Raises AssertionError when a range is malformed (an
        unknown path, low > high, the printed value outside it, no reason)."""
        try:
            schema = self.component_schema
        except UserError:
            return []
        from sim.core.components import get_path

        doc = self.component_document()
        out = []
        for r in schema.ranges:
            value = get_path(doc, schema, r.path, self.id)
            assert r.low <= value <= r.high and r.reason.strip(), (
                f"{self.id}: range of {r.path}: {r.low}..{r.high} must hold the printed value "
                f"{value} and give a reason")
            out.append({"path": r.path, "value": value, "low": r.low, "high": r.high,
                        "reason": r.reason})
        return out

    def interpretations(self) -> list[dict[str, Any]]:
        """The rule options the specification marks as interpretations
        (``ComponentSchema.interpretations``): ``[{"option", "default", "alternatives",
        "reason"}]``, ``alternatives`` every value other than the default (the option's allowed
        values unless the entry names them)."""
        try:
            schema = self.component_schema
        except UserError:
            return []
        by_name = {o.name: o for o in self.options}
        out = []
        for it in schema.interpretations:
            o = by_name[it.option]
            vals = it.alternatives or ((False, True) if o.kind == "bool" else tuple(o.allowed))
            alts = [o.parse(v) for v in vals if o.parse(v) != o.default]
            assert alts and it.reason.strip(), f"{self.id}: interpretation {it.option}"
            out.append({"option": o.name, "default": o.default, "alternatives": alts,
                        "reason": it.reason, "section": o.section})
        return out

    def with_overrides(self, overrides: dict[str, Any] | None) -> Game:
        """A new instance with ``overrides`` ({path: value}) applied to this one's data; its
        ``overrides`` attribute holds them in canonical form. Raises UserError naming the
        allowed keys on an unknown path, a wrong type or an impossible value."""
        if not overrides:
            return self
        doc, canon = apply_to_document(self.component_document(), self.component_schema,
                                       overrides, self.id)
        game = self.from_document(doc)
        game.overrides = {**self.overrides, **canon}
        return game

    # ---- batch ------------------------------------------------------------------------
    def run_chunk(
        self,
        first_game: int,
        n_games: int,
        run_seed: int,
        n_players: int,
        seat_strategies: np.ndarray,
        options: dict[str, Any],
        strategy_names: list[str],
        budget: int | None = None,
        params: np.ndarray | None = None,
    ) -> ChunkResult:
        """Play games ``first_game .. first_game + n_games - 1`` of run ``run_seed``.

        Game i uses ``seed_for(run_seed, i, 0)`` for chance and ``seed_for(run_seed, i, 1)`` for
        its bots. ``seat_strategies``: int64 ``[n_games, n_players]``, each seat's index into
        ``strategy_names``. ``options``: rule options (validated here). Returns a ChunkResult
        whose ``seat_detail`` holds the columns ``seat_detail`` names. ``budget``: the search
        bots' playouts per decision (every strategy with ``search=True`` plays with its
        parameter ``budget`` set to it; None keeps their defaults). ``params``: optional
        parameter rows ``float64[len(strategy_names), N_PARAMS]`` played in place of the named
        strategies' own rows (a candidate row of ``boardsim train-bot``). Raises UserError on
        bad input.
        """
        n_players = self.check_players(n_players)
        names = [self.strategy(n).name for n in strategy_names]
        idx = np.ascontiguousarray(seat_strategies, dtype=np.int64)
        if idx.shape != (n_games, n_players) or (
                idx.size and (idx.min() < 0 or idx.max() >= len(names))):
            raise UserError(f"{self.id}: seat_strategies must be int [{n_games}, {n_players}] "
                            f"indexes into {len(names)} strategies")
        s = self._alloc(self.resolve_options(options))
        codes, rows = self.bots.params_matrix(names)
        if params is not None:
            params = np.asarray(params, np.float64)
            if params.shape != (len(names), rows.shape[1]):
                raise UserError(f"{self.id}: params must be float [{len(names)}, "
                                f"{rows.shape[1]}], got {list(params.shape)}")
            rows = rows.copy()
            rows[:len(names)] = params
        params = rows
        if budget is not None:
            set_search_budget(self, names, params, budget)
        return self._play_chunk(s, int(first_game), int(n_games), np.uint64(int(run_seed) % 2**64),
                                n_players, idx, codes, params)

    def _play_chunk(self, s, first_game: int, n_games: int, run_seed: np.uint64,
                    n_players: int, seat_idx: np.ndarray, codes: np.ndarray,
                    params: np.ndarray) -> ChunkResult:
        """Hook: play the chunk with the bots' compiled loop (``self.bots.run_games``) on the
        scratch state ``s`` and turn its output arrays into a ChunkResult."""
        raise NotImplementedError

    # ---- helpers for subclasses -----------------------------------------------------------
    def copy_state(self, state):
        """A deep copy of ``state`` (a NamedTuple of numpy arrays)."""
        return type(state)(*(a.copy() for a in state))

    def describe(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "players": f"{self.min_players}-{self.max_players}",
            "num_actions": self.num_actions,
            "options": [
                {
                    "name": o.name,
                    "default": o.default,
                    "allowed": o.allowed_text(),
                    "section": o.section,
                }
                for o in self.options
            ],
            "strategies": list(self.strategies),
            "version": self.version,
            "data_status": self.data_status,
            "information": self.information,
            "chance": self.chance,
            "hidden": list(self.hidden),
            "results": list(self.results),
            "ranges": self.plausible_ranges(),
            "interpretations": self.interpretations(),
        }


# ---- the pairing of a game with its bots (used by sim/registry.py) ----------------------------
_BOTS: dict[type, ModuleType] = {}


def bots_for(game_cls: type) -> ModuleType:
    """The bot package paired with ``game_cls``: ``strategies.<package>`` for a game defined in
    ``sim.<package>.game``. Raises UserError if the game has no bot package."""
    if game_cls not in _BOTS:
        pkg = game_cls.__module__.split(".")[1]
        try:
            _BOTS[game_cls] = importlib.import_module(f"strategies.{pkg}")
        except ModuleNotFoundError as e:
            if e.name not in ("strategies", f"strategies.{pkg}"):
                raise
            raise UserError(f"{game_cls.id}: no bots (expected the package strategies/{pkg}/)"
                            ) from None
    return _BOTS[game_cls]
