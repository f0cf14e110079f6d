"""Go Town's bots, paired with ``sim/go_town/`` by the registry (docs/house-pattern.md).

``bots.py``: the scripted bots (numba kernels selected by a code, parameters as data) and
``choose``, the one bot signature; ``batch.py``: ``run_games``, the compiled loop in which the
bots play many games of the engine; ``soak_chunk`` (the generic loop of
``strategies/soak.py``) plays the soak (``boardsim soak``); ``play_chunk_denied`` and
``deny_mask`` (``deny.py``): the effects study's loop, with one seat per game barred from a
card type (the denial arm) or nobody (every other arm), reached as ``game.bots``.
"""

from strategies import search  # the search bot mcts: its code and parameter columns
from strategies.go_town.batch import run_games
from strategies.go_town.bots import N_PARAMS, PARAM_NAMES, STRATEGIES, choose, params_matrix
from strategies.go_town.deny import deny_mask, play_chunk_denied
from strategies.soak import CODES as SOAK_CODES
from strategies.soak import soak_chunk
from strategies.trace import first_reached, trace_games  # the effects study's pairing traces

# The recommended mix of competent bots (no ``random``): the scripted bots that the rating
# ladder (``boardsim ladder go-town``) rates clearly above ``random`` at 2 and 4 players.
# ``defender`` is left out: after the issue-#13 fixes it rates above ``random`` but barely at
# 4 players (-0.45 against -0.60 logits, 0.534 head to head; greedy and thief-first score
# 0.67 against random there), so it would add near-random seats to every default study
# (docs/bots.md, "Recommended mixes"). ``boardsim simulate`` draws every seat from it when no --strategies are
# given, and the main job's studies play it.
RECOMMENDED_MIX = ("greedy", "attacker", "thief-first")
# At 2 players greedy's row tuned by self-play (``greedy-tuned``, strategies/go_town/tuned.json,
# ``boardsim train-bot go-town greedy -p 2``) plays in greedy's place: on the ladder with the
# mix it rates +0.70 logits [+0.63, +0.77] above the hand-set greedy (docs/bots.md).
RECOMMENDED_MIX_BY_PLAYERS = {2: ("greedy-tuned", "attacker", "thief-first")}

# ``boardsim run``'s tier study of this game (analysis.lab.tiers.tier_study): search-tier
# games, the search bot's budget (playouts per decision) and the games of the random and
# scripted tiers (docs/bots.md, "Skill tiers"); the budget is the search bot's default (800
# since session 12; the study played 1,000 until session 16, which measured the same strength)
TIER_STUDY = {"n_search": 200, "budget": 800, "n_scripted": 4000}

__all__ = ["N_PARAMS", "PARAM_NAMES", "RECOMMENDED_MIX", "RECOMMENDED_MIX_BY_PLAYERS",
           "STRATEGIES", "TIER_STUDY", "choose", "params_matrix", "SOAK_CODES", "deny_mask",
           "play_chunk_denied", "run_games", "soak_chunk", "trace_games", "first_reached", "search"]
