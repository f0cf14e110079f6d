"""Little Town's bots, paired with ``sim/little_town/`` by the registry (docs/house-pattern.md).

``bots.py``: the scripted bots (numba kernels selected by a code, parameters as data) and
``choose``, the one bot signature; ``batch.py``: ``run_games``, the compiled loop in which the
bots play many games of the engine.
"""

from strategies.little_town.batch import run_games
from strategies.little_town.bots import N_PARAMS, PARAM_NAMES, STRATEGIES, choose, params_matrix

__all__ = ["N_PARAMS", "PARAM_NAMES", "STRATEGIES", "choose", "params_matrix", "run_games"]
