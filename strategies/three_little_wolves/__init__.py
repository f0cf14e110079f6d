"""The Three Little Wolves's bots, paired with ``sim/three_little_wolves/`` by the registry (docs/house-pattern.md).

``bots.py``: the scripted bots (numba kernels selected by a code, parameters as data) and
``choose``, the one bot signature; ``batch.py``: ``run_games``, the compiled loop in which the
bots play many games of the engine.
"""

from strategies.three_little_wolves.batch import run_games
from strategies.three_little_wolves.bots import (
    N_PARAMS,
    PARAM_NAMES,
    STRATEGIES,
    choose,
    params_matrix,
)

__all__ = ["N_PARAMS", "PARAM_NAMES", "STRATEGIES", "choose", "params_matrix", "run_games"]
