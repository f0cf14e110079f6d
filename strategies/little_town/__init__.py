"""Little Town's bots, paired with ``sim/little_town/`` by the registry (docs/house-pattern.md).

``bots.py``: the scripted bots (numba kernels selected by a code, parameters as data) and
``choose``, the one bot signature; ``batch.py``: ``run_games``, the compiled loop in which the
bots play many games of the engine, and ``soak_chunk``, the soak's loop (``boardsim soak``)
on the same kernels.
"""

from strategies import search  # the search bot mcts: its code and parameter columns
from strategies.little_town.batch import run_games, soak_chunk
from strategies.little_town.bots import N_PARAMS, PARAM_NAMES, STRATEGIES, choose, params_matrix
from strategies.soak import CODES as SOAK_CODES
from strategies.trace import trace_games  # the effects study's pairing traces

# The recommended mix of competent bots (no ``random``): the scripted bots that draft by the value
# table (``greedy-draft-random`` drafts at random). ``boardsim simulate`` draws every seat from it
# when no --strategies are given, and the main job's studies play it. Greedy's row tuned by
# self-play (``greedy-tuned``, strategies/little_town/tuned.json, ``boardsim train-bot
# little-town greedy -p 2``; session 12) plays in greedy's place: on the ladder of every bot it
# rates clearly above the hand-set greedy at 2, 3 and 4 players (+0.11, +0.03, +0.05 logits;
# tests/bot_audit/results/ladder/little-town-s12, docs/bots.md).
RECOMMENDED_MIX = ("greedy-tuned", "builder", "gatherer")

# ``boardsim run``'s tier study of this game (analysis.lab.tiers.tier_study): search-tier
# games, the search bot's budget (playouts per decision) and the games of the random and
# scripted tiers (docs/bots.md, "Skill tiers")
TIER_STUDY = {"n_search": 200, "budget": 96, "n_scripted": 4000}

__all__ = ["N_PARAMS", "PARAM_NAMES", "RECOMMENDED_MIX", "STRATEGIES", "TIER_STUDY", "choose", "params_matrix",
           "SOAK_CODES", "run_games", "soak_chunk", "trace_games",
           "search"]
