"""Registry of games by id."""

from __future__ import annotations

from sim.core.errors import UserError
from sim.core.game import Game

_GAMES: dict[str, Game] = {}


def _load() -> None:
    if _GAMES:
        return
    from sim.go_town.game import GoTown

    for g in (GoTown(),):
        _GAMES[g.id] = g


def list_games() -> list[str]:
    """Registered game ids, in registration order."""
    _load()
    return list(_GAMES)


def get_game(game_id: str) -> Game:
    """The game with id ``game_id``. Raises UserError naming the allowed ids."""
    _load()
    if game_id not in _GAMES:
        raise UserError(f"unknown game {game_id!r}; allowed: {', '.join(_GAMES)}")
    return _GAMES[game_id]
