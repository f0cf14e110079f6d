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
import re
from pathlib import Path

# ``import a.b`` / ``from a.b import c, d`` / ``from . import c`` at any indentation (imports
# inside functions count too); parenthesised name lists are read up to the closing bracket
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)"
                     r"|import[ \t]+([^\n#]+))", re.M)


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(mod: str, is_pkg: bool, text: str, known: dict) -> set:
    """The modules of ``known`` that the source ``text`` of module ``mod`` imports."""
    names = set()
    for dots, base, what, plain in _IMPORT.findall(text):
        if plain:
            names.update(n.split(" as ")[0].strip() for n in plain.split(","))
            continue
        if dots:
            parts = mod.split(".") if is_pkg else mod.split(".")[:-1]
            parts = parts[:len(parts) - (len(dots) - 1)]
            base = ".".join(parts + ([base] if base else []))
        names.add(base)
        for n in what.strip("() \n").split(","):
            n = n.split(" as ")[0].strip()
            if n:
                names.add(f"{base}.{n}")
    found = set()
    for n in names:
        while n:
            if n in known:
                found.add(n)
            n = n.rpartition(".")[0]
    return found


def kernel_sources(root: Path) -> list:
    """The source files whose text can change compiled machine code: every module of ``sim/``
    and ``strategies/`` that mentions numba, and every module of those two packages they
    import, directly or not (static imports, as numba reads globals only from imported
    modules). The rest (the CLI, the runner's Python side, reports, component data passed to
    kernels as arrays) can change without a recompile. Returns sorted ``Path`` objects."""
    texts = {}
    for pkg in ("sim", "strategies"):
        for p in (root / pkg).rglob("*.py"):
            texts[_module_name(root, p)] = (p, p.read_text(encoding="utf-8"))
    todo = [m for m, (_, t) in texts.items() if "numba" in t]
    seen = set()
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            p, t = texts[m]
            todo.extend(_imported(m, p.name == "__init__.py", t, texts))
    return sorted(texts[m][0] for m in seen)


def kernel_key(root: Path) -> str:
    """16 hex digits hashing the path and bytes of every file of ``kernel_sources(root)``."""
    h = hashlib.sha1()
    for p in kernel_sources(root):
        h.update(p.relative_to(root).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _set_numba_cache_dir() -> None:
    """Point numba's on-disk cache at ``.numba_cache/<kernel_key>``.

    numba keys a cached function on its own file only, so a kernel that calls a changed
    function in another file (a bot, a shared helper) would load stale machine code. Keying the
    whole cache on every file that can reach compiled code (``kernel_sources``) makes any such
    edit start a fresh cache, while an edit to the CLI or the reports reuses it. An explicit
    NUMBA_CACHE_DIR is respected.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = Path(__file__).resolve().parents[1]
    base = root / ".numba_cache" if os.access(root, os.W_OK) else (
        Path.home() / ".cache" / "boardsim" / "numba")
    os.environ["NUMBA_CACHE_DIR"] = str(base / kernel_key(root))


_set_numba_cache_dir()

from sim.core.errors import UserError  # noqa: E402
from sim.registry import get_game, list_games  # noqa: E402

__all__ = ["UserError", "get_game", "list_games"]
__version__ = "0.1.0"
