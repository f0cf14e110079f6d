"""boardsim: fast, exact Monte Carlo engines for tabletop games.

Public API::

    import sim
    game = sim.get_game("go-town")
    state = game.new_state(4, seed=7, options={"target_floors": 4})
    while not game.is_terminal(state):
        actions = game.legal_actions(state)          # int32 array, ascending
        state = game.apply_action(state, int(actions[0]))
    game.scores(state)

See README.md ("The game interface") and docs/games/<game>.md for each game's action encoding
and state dict layout.
"""

import hashlib
import os
from pathlib import Path


def _set_numba_cache_dir() -> None:
    """Point numba's on-disk cache at ``.numba_cache/<hash of the sources>``.

    numba keys a cached function on its own file only, so a kernel that calls a changed
    function in another file (a bot, a shared helper) would load stale machine code. Keying the
    whole cache on every source file of ``sim/`` and ``strategies/`` makes any edit start a
    fresh cache. An explicit NUMBA_CACHE_DIR is respected.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha1()
    for pkg in ("sim", "strategies"):
        for p in sorted((root / pkg).rglob("*.py")):
            h.update(p.relative_to(root).as_posix().encode())
            h.update(p.read_bytes())
    base = root / ".numba_cache" if os.access(root, os.W_OK) else (
        Path.home() / ".cache" / "boardsim" / "numba")
    os.environ["NUMBA_CACHE_DIR"] = str(base / h.hexdigest()[:16])


_set_numba_cache_dir()

from sim.core.errors import UserError  # noqa: E402
from sim.registry import get_game, list_games  # noqa: E402

__all__ = ["UserError", "get_game", "list_games"]
__version__ = "0.1.0"
