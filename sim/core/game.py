"""The game interface shared by every game (in the spirit of OpenSpiel and Pgx).

A game is component data, constants and ``@njit`` kernels over a state that is a NamedTuple
of plain numpy arrays. This module holds what is common; each game subclasses ``Game``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from sim.core.components import ComponentSchema, apply_to_document
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


@dataclass
class ChunkResult:
    """What a game's batch kernel returns for ``n`` games of ``p`` seats.

    turns, decisions, end_reason, first_player: int arrays ``[n]``;
    score, rank (0 = none), win_share (float64): ``[n, p]``;
    seat_detail: name -> int array ``[n, p]`` (per-game detail the analysis needs).
    """

    turns: np.ndarray
    decisions: np.ndarray
    end_reason: np.ndarray
    first_player: np.ndarray
    score: np.ndarray
    rank: np.ndarray
    win_share: np.ndarray
    seat_detail: dict[str, np.ndarray] = field(default_factory=dict)


class Game:
    """Base class of every game. Subclasses set the class attributes and the kernels.

    Attributes: ``id`` (registry id), ``title``, ``min_players``/``max_players``,
    ``num_actions`` (size of the fixed action space), ``options`` (OptionSet),
    ``end_reasons`` (names of end-reason codes; code 0 is "none"), ``spec`` (rules file),
    ``data_status`` (is the component data confirmed?), ``strategies`` (name -> StrategySpec).
    """

    id: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 4
    num_actions: int = 0
    options: OptionSet = OptionSet([])
    end_reasons: tuple[str, ...] = ("none",)
    spec: str = ""
    data_status: str = ""
    strategies: dict[str, StrategySpec] = {}
    # per-seat detail groups the report analyses (see analysis.report.write_report)
    impact_groups: list[dict] = []
    # component data (balance lab; sim/core/components.py): how to read the document, and the
    # canonical overrides this instance was built with ({} = the printed data)
    overrides: dict[str, Any] = {}

    # ---- validation helpers -------------------------------------------------------------
    def check_players(self, n_players: int) -> int:
        if not isinstance(n_players, (int, np.integer)) or not (
            self.min_players <= n_players <= self.max_players
        ):
            raise UserError(
                f"{self.id}: players must be {self.min_players}..{self.max_players}, "
                f"got {n_players}"
            )
        return int(n_players)

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        return self.options.resolve(options)

    def strategy(self, name: str) -> StrategySpec:
        if name not in self.strategies:
            raise UserError(
                f"unknown strategy {name!r} for {self.id}; allowed: {', '.join(self.strategies)}"
            )
        return self.strategies[name]

    def max_game_length(self, options: dict[str, Any] | None = None) -> int:
        """Declared maximum number of decisions in one game under ``options``."""
        raise NotImplementedError

    # ---- the interface (overridden per game) --------------------------------------------
    def new_state(self, n_players: int, seed: int, options: dict | None = None) -> NamedTuple:
        raise NotImplementedError

    def legal_actions(self, state) -> np.ndarray:
        raise NotImplementedError

    def apply_action(self, state, action: int):
        raise NotImplementedError

    def is_terminal(self, state) -> bool:
        raise NotImplementedError

    def scores(self, state) -> np.ndarray:
        raise NotImplementedError

    def winners(self, state) -> list[int]:
        raise NotImplementedError

    def ranks(self, state) -> np.ndarray:
        raise NotImplementedError

    def current_player(self, state) -> int:
        raise NotImplementedError

    def action_to_string(self, state, action: int) -> str:
        raise NotImplementedError

    def state_to_string(self, state) -> str:
        raise NotImplementedError

    def state_to_dict(self, state) -> dict:
        raise NotImplementedError

    def state_from_dict(self, data: dict):
        raise NotImplementedError

    def choose_action(self, state, strategy: str, rng: np.ndarray) -> int:
        """The action the named scripted bot takes now; ``rng`` is the bot generator
        (``uint64[1]``, advanced in place; see ``bot_rng``)."""
        raise NotImplementedError

    def check_invariants(self, state) -> None:
        """Raise AssertionError if ``state`` breaks a conservation law of the game."""
        raise NotImplementedError

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
        n_games (and optionally seed, options, chunk_size)."""
        raise NotImplementedError

    @staticmethod
    def bot_rng(seed: int) -> np.ndarray:
        """A bot generator state ``uint64[1]`` from an int seed."""
        return np.array([int(seed) % 2**64], np.uint64)

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
    ) -> ChunkResult:
        """Play games ``first_game .. first_game + n_games - 1`` of run ``run_seed``.

        Game i uses ``seed_for(run_seed, i, 0)`` for chance and ``seed_for(run_seed, i, 1)`` for
        its bots. ``seat_strategies``: int64 ``[n_games, n_players]``, each seat's index into
        ``strategy_names``. ``options``: resolved rule options.
        """
        raise NotImplementedError

    # ---- helpers for subclasses -----------------------------------------------------------
    def copy_state(self, state):
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
            "data_status": self.data_status,
        }
