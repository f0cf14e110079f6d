"""Go Town's bots, paired with ``sim/go_town/`` by the registry (docs/house-pattern.md).

``bots.py``: the scripted bots (numba kernels selected by a code, parameters as data) and
``choose``, the one bot signature; ``batch.py``: ``run_games``, the compiled loop in which the
bots play many games of the engine.
"""

from strategies.go_town.batch import run_games
from strategies.go_town.bots import N_PARAMS, PARAM_NAMES, STRATEGIES, choose, params_matrix

# The recommended mix of competent bots (no ``random``): the scripted bots that the rating
# ladder (``boardsim ladder go-town``) rates above ``random`` at 2 and 4 players; ``defender``
# is rated below ``random`` there (docs/bots.md, "The rating ladder"), so it is left out until
# it plays better. ``boardsim simulate`` draws every seat from it when no --strategies are
# given, and the main job's studies play it.
RECOMMENDED_MIX = ("greedy", "attacker", "thief-first")

__all__ = ["N_PARAMS", "PARAM_NAMES", "RECOMMENDED_MIX", "STRATEGIES", "choose", "params_matrix",
           "run_games"]
