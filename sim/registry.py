"""Registry of games by id, and the pairing of each game with its bots.

A game registers itself by living in a package ``sim/<package>/`` whose ``game.py`` defines
``GAME_CLASS`` (a ``sim.core.game.Game`` subclass). Its bots live in the package
``strategies/<package>/`` of the same name (STRATEGIES, params_matrix, choose, run_games);
the registry pairs the two, so the rules under ``sim/<package>/`` never import a bot. Games
are listed in ``ORDER`` first, then any other in alphabetical order.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path
from typing import Any

from sim.core.components import overrides_key
from sim.core.errors import UserError
from sim.core.game import Game

ORDER = ("go-town", "little-town", "three-little-wolves", "province", "suburbia")
_GAMES: dict[str, Game] = {}
_VARIANTS: dict[tuple[str, str], Game] = {}


def _load() -> None:
    if _GAMES:
        return
    found: dict[str, Game] = {}
    # every folder of the package ``sim`` (a test may add one: tests/test_toy_game.py)
    roots = [Path(p) for p in getattr(sys.modules.get(__package__), "__path__", ())] or \
        [Path(__file__).parent]
    for root in roots:
        for mod in pkgutil.iter_modules([str(root)]):
            if not mod.ispkg or not (root / mod.name / "game.py").exists():
                continue
            cls = getattr(importlib.import_module(f"sim.{mod.name}.game"), "GAME_CLASS", None)
            if cls is not None:
                g = cls()
                g.check_declaration()  # a game says what it is, or nothing runs
                found[g.id] = g
    for gid in sorted(found, key=lambda i: (ORDER.index(i) if i in ORDER else len(ORDER), i)):
        _GAMES[gid] = found[gid]


def list_games() -> list[str]:
    """Registered game ids."""
    _load()
    return list(_GAMES)


def get_game(game_id: str, overrides: dict[str, Any] | None = None) -> Game:
    """The game with id ``game_id``, playing with its printed component data or with
    ``overrides`` ({path: value}, see sim/core/components.py) applied. Raises UserError naming
    the allowed ids, or the allowed keys of a bad override."""
    _load()
    if game_id not in _GAMES:
        raise UserError(f"unknown game {game_id!r}; allowed: {', '.join(_GAMES)}")
    if not overrides:
        return _GAMES[game_id]
    key = (game_id, overrides_key(overrides))
    if key not in _VARIANTS:
        if len(_VARIANTS) > 64:
            _VARIANTS.clear()
        _VARIANTS[key] = _GAMES[game_id].with_overrides(overrides)
    return _VARIANTS[key]


def default_strategies(game_id: str, players: int | None = None) -> list[str]:
    """The game's recommended competent mix at ``players`` seats (``Game.recommended_mix``:
    ``RECOMMENDED_MIX`` of its bot package, or its mix for that player count). Raises
    UserError if the game declares none."""
    g = get_game(game_id)
    mix = g.recommended_mix(players)
    if not mix:
        raise UserError(f"{g.id} declares no recommended bot mix; give --strategies (allowed: "
                        f"{', '.join(g.strategies)})")
    return mix
