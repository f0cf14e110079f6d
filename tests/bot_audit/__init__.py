"""Bot audits: how often each scripted bot makes the blunders a first-time player would not.

``python -m tests.bot_audit GAME [-n N] [-p P ...]`` plays ``N`` games per player count and
prints each blunder's rate per bot. GAME is ``go-town``, ``province``, ``suburbia``,
``little-town``, ``three-little-wolves`` or ``all`` (the last three). The audits play exactly
the games of ``Game.run_chunk`` (game i: chance ``seed_for(seed, i, 0)``, bots
``seed_for(seed, i, 1)``) in compiled loops over the public kernel contract
(``sim.core.contract``) and the bots' one entry point (``strategies.common.bot_choose``), and
read the state between decisions for the figures ``run_chunk`` does not report. The figures
before and after the bot fixes of issue #13 are in docs/bots.md.
"""

# ``sim`` points numba's cache at a directory keyed on every source file of sim/ and
# strategies/ (sim/__init__.py); it must be imported before numba reads its configuration, or
# the audits' compiled loops would load machine code compiled against older bots.
import sim  # noqa: E402, F401
