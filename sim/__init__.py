"""boardsim: fast, exact Monte Carlo engines for tabletop games.

Public API::

    import sim
    game = sim.get_game("go-town")
    state = game.new_state(4, seed=7, options={"target_floors": 4})
    while not game.is_terminal(state):
        actions = game.legal_actions(state)          # int32 array, ascending
        state = game.apply_action(state, int(actions[0]))
    game.scores(state)

See README.md ("The game interface") and docs/games/<game>.md for each game's action encoding
and state dict layout.
"""

from sim.core.errors import UserError
from sim.registry import get_game, list_games

__all__ = ["UserError", "get_game", "list_games"]
__version__ = "0.1.0"
