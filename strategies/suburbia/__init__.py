"""Suburbia's bots, paired with ``sim/suburbia/`` by the registry (docs/house-pattern.md).

``bots.py``: the scripted bots (numba kernels selected by a code, parameters as data) and
``choose``, the one bot signature; ``batch.py``: ``run_games``, the compiled loop in which the
bots play many games of the engine, and ``soak_chunk``, the soak's loop (``boardsim soak``)
on the same kernels.
"""

from strategies.soak import CODES as SOAK_CODES
from strategies.suburbia.batch import run_games, soak_chunk
from strategies.suburbia.bots import N_PARAMS, PARAM_NAMES, STRATEGIES, choose, params_matrix

# The recommended mix of competent bots (no ``random``): every scripted bot. ``boardsim simulate``
# draws every seat from it when no --strategies are given, and the main job's studies play it.
RECOMMENDED_MIX = ("greedy", "goal-greedy", "denier", "residential-civic", "industrial-airports",
                   "commercial")

__all__ = ["N_PARAMS", "PARAM_NAMES", "RECOMMENDED_MIX", "STRATEGIES", "choose", "params_matrix",
           "SOAK_CODES", "run_games", "soak_chunk"]
