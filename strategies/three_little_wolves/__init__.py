"""The Three Little Wolves's bots, paired with ``sim/three_little_wolves/`` by the registry (docs/house-pattern.md).

``bots.py``: the scripted bots (numba kernels selected by a code, parameters as data) and
``choose``, the one bot signature; ``batch.py``: ``run_games``, the compiled loop in which the
bots play many games of the engine; ``soak_chunk`` (the generic loop of
``strategies/soak.py``) plays the soak (``boardsim soak``).
"""

from strategies import search  # the search bot mcts: its code and parameter columns
from strategies.soak import CODES as SOAK_CODES
from strategies.soak import soak_chunk
from strategies.three_little_wolves.batch import run_games
from strategies.three_little_wolves.bots import (
    N_PARAMS,
    PARAM_NAMES,
    STRATEGIES,
    choose,
    params_matrix,
)
from strategies.trace import trace_games  # the effects study's pairing traces

# The recommended mix of competent bots (no ``random``): the scripted bots that play the whole
# game (``no-wolf`` is the restricted-play baseline of the wolf study, ``hostile`` the dummy-
# control variant of greedy). ``boardsim simulate`` draws every seat from it when no --strategies
# are given, and the main job's studies play it.
RECOMMENDED_MIX = ("greedy", "cautious", "wolf-bettor")
# At 2 players the mix adds ``greedy-2p`` (greedy's weights tuned on 2-player games), the
# game's best 2-player bot (95.9% against random, greedy 86.5%; docs/bots.md); at 3-4 players
# it leaves more wolves unplaced than greedy, so it is left out there (``Game.recommended_mix``).
RECOMMENDED_MIX_BY_PLAYERS = {2: ("greedy", "greedy-2p", "cautious", "wolf-bettor")}

# ``boardsim run``'s tier study of this game (analysis.lab.tiers.tier_study): search-tier
# games, the search bot's budget (playouts per decision) and the games of the random and
# scripted tiers (docs/bots.md, "Skill tiers")
TIER_STUDY = {"n_search": 200, "budget": 400, "n_scripted": 4000}

__all__ = ["N_PARAMS", "PARAM_NAMES", "RECOMMENDED_MIX", "RECOMMENDED_MIX_BY_PLAYERS",
           "STRATEGIES", "TIER_STUDY", "choose", "params_matrix", "SOAK_CODES", "run_games",
           "soak_chunk", "trace_games", "search"]
