"""Bot audits: replay games of the scripted bots and count each known blunder.

``python -m tests.bot_audit GAME [-n N] [-p P]`` prints each blunder's rate for one game
(``go-town`` or ``province``). The audits play exactly the games of ``Game.run_chunk`` (same
seeds, same seat matrices), through the kernel contract (``sim.core.contract``) and the bots'
one entry point (``strategies.common.bot_choose``), and inspect the state before every
decision. See docs/bots.md for the figures before and after the bot fixes of issue #13.
"""

# ``sim`` points numba's cache at a directory keyed on every source file of sim/ and
# strategies/ (sim/__init__.py); it must be imported before numba reads its configuration, or
# the audits' compiled loops would load machine code compiled against older bots.
import sim  # noqa: E402, F401
