"""Bot audits: how often each scripted bot makes the blunders a first-time player would not.

``python -m tests.bot_audit GAME [-n N] [-p P ...]`` plays ``N`` games per player count and
prints each blunder's rate per bot, the share of distinct games in greedy mirrors (same deal,
different bot seeds), the win rate of each bot against ``random`` (2 players, seats rotated)
and, with ``--speed``, greedy's games/s per core as ``sim/bench.py`` measures it. GAME is
``suburbia``, ``little-town``, ``three-little-wolves`` or ``all``. The figures of each bot
(before and after the fixes of issue #13) are in docs/bots.md.

Each game's module (``suburbia.py``, ``little_town.py``, ``three_little_wolves.py``) plays the
games in a compiled loop over the public kernel contract (``sim.core.contract``) and the bots'
one entry point (``strategies.common.bot_choose``), the same games ``run_chunk`` plays (game i:
chance ``seed_for(seed, i, 0)``, bots ``seed_for(seed, i, 1)``), and reads the state between
decisions for the figures ``run_chunk`` does not report.
"""
