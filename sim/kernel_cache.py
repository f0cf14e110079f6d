"""numba's on-disk cache, keyed per game package plus the shared core.

numba keys a cached function on its own source file only, so a kernel that calls a changed
function in another file (a bot, a shared helper) would load stale machine code. Here:

- the cache folder ``.numba_cache/<core key>`` is keyed on the **shared core**: every kernel
  source (``kernel_sources``) outside the game packages (``sim/core``, the runner's loop,
  ``strategies/common.py``, ``search.py``, ``soak.py``). An edit there starts a fresh cache.
- each compiled version whose function lives in a game package, or whose argument types
  include a game's state (a generic entry point such as ``search.choose`` compiled for
  Go Town), carries in its index key the **game key** of each game involved: the hash of the
  kernel sources of ``sim/<game>/`` and ``strategies/<game>/`` (and of any other game package
  they import). An edit to one game's kernels or bots misses only that game's versions; every
  other game's still load.
- saving an entry takes a lock on its index file and writes the data before the index, so
  several processes compiling at once (the warm-up's one process per game, the test workers)
  never lose or cross each other's entries (numba's own save is load-modify-write with no lock).

The two numba hooks patched (``Cache._index_key`` and ``IndexDataCacheFile.save``) are
private API, stable since numba 0.49; if they are missing, ``install`` returns False and
``sim`` falls back to one key over every kernel source (any edit recompiles every game).
"""

from __future__ import annotations

import hashlib
import itertools
import re
from pathlib import Path

# ``import a.b`` / ``from a.b import c, d`` / ``from . import c`` at any indentation (imports
# inside functions count too); parenthesised name lists are read up to the closing bracket
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)"
                     r"|import[ \t]+([^\n#]+))", re.M)

PACKAGES = ("sim", "strategies")


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


def _texts(root: Path) -> dict:
    texts = {}
    for pkg in PACKAGES:
        for p in (root / pkg).rglob("*.py"):
            texts[_module_name(root, p)] = (p, p.read_text(encoding="utf-8"))
    return texts


def _closure(start, texts: dict) -> set:
    todo, seen = list(start), set()
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            p, t = texts[m]
            todo.extend(_imported(m, p.name == "__init__.py", t, texts))
    return seen


def kernel_sources(root: Path) -> list:
    """The source files whose text can change compiled machine code: every module of ``sim/``
    and ``strategies/`` that mentions numba, and every module of those two packages they
    import, directly or not (static imports, as numba reads globals only from imported
    modules). The rest (the CLI, the runner's Python side, reports, component data passed to
    kernels as arrays) can change without a recompile. Returns sorted ``Path`` objects."""
    texts = _texts(root)
    seen = _closure([m for m, (_, t) in texts.items() if "numba" in t], texts)
    return sorted(texts[m][0] for m in seen)


def game_packages(root: Path) -> list[str]:
    """The game packages: every ``sim/<name>/`` package but ``sim/core``, sorted."""
    return sorted(p.parent.name for p in (root / "sim").glob("*/__init__.py")
                  if p.parent.name != "core")


def game_of_module(module: str, games) -> str | None:
    """The game package a module belongs to (``sim.go_town.kernels`` -> ``go_town``), or None
    for a module of the shared core."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] in PACKAGES and parts[1] in games:
        return parts[1]
    return None


def _hash(root: Path, paths) -> str:
    h = hashlib.sha1()
    for p in sorted(paths):
        h.update(p.relative_to(root).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def kernel_keys(root: Path) -> tuple[str, dict[str, str]]:
    """``(core key, {game package: game key})``, 16 hex digits each.

    The core key hashes every kernel source outside the game packages; a game's key hashes the
    kernel sources of ``sim/<game>/`` and ``strategies/<game>/`` and every kernel source of
    another game package that they import (the core is in the core key already)."""
    texts = _texts(root)
    games = game_packages(root)
    kernel = _closure([m for m, (_, t) in texts.items() if "numba" in t], texts)
    core = [texts[m][0] for m in kernel if game_of_module(m, games) is None]
    keys = {}
    for g in games:
        own = [m for m in kernel if game_of_module(m, games) == g]
        reach = {m for m in _closure(own, texts) if m in kernel
                 and game_of_module(m, games) is not None}
        keys[g] = _hash(root, [texts[m][0] for m in reach])
    return _hash(root, core), keys


def kernel_key(root: Path) -> str:
    """16 hex digits hashing the path and bytes of every file of ``kernel_sources(root)`` (the
    one global key; the cache uses ``kernel_keys`` when ``install`` succeeded)."""
    return _hash(root, kernel_sources(root))


# ---- the numba hooks ---------------------------------------------------------------------
GAME_KEYS: dict[str, str] = {}


def _games_of_types(types_, games: set, depth: int = 0) -> None:
    for t in types_:
        cls = getattr(t, "instance_class", None)
        if cls is not None:
            g = game_of_module(getattr(cls, "__module__", ""), GAME_KEYS)
            if g is not None:
                games.add(g)
        inner = getattr(t, "types", None)
        if depth < 3 and isinstance(inner, tuple):
            _games_of_types(inner, games, depth + 1)


def games_of(module: str, sig) -> list[str]:
    """The game packages a compiled version depends on: the game of the function's module and
    the games of the state types among its arguments (sorted)."""
    games: set = set()
    g = game_of_module(module or "", GAME_KEYS)
    if g is not None:
        games.add(g)
    _games_of_types(getattr(sig, "args", sig) or (), games)
    return sorted(games)


def hooks_available() -> bool:
    """True when numba has the private hooks ``install`` patches. Imports numba: call it
    after NUMBA_CACHE_DIR is set (numba reads its configuration once, on import)."""
    from numba.core import caching

    cache_cls, file_cls = caching.Cache, caching.IndexDataCacheFile
    return (hasattr(cache_cls, "_index_key") and hasattr(file_cls, "_load_index")
            and hasattr(file_cls, "_save_index") and hasattr(file_cls, "_save_data")
            and hasattr(file_cls, "_data_name"))


def install(game_keys: dict[str, str]) -> bool:
    """Patch numba's cache: the keys ``game_keys`` (``kernel_keys(root)[1]``) in the index key
    of every version that depends on a game, and a locked save. Returns False (and patches
    nothing) when numba's private hooks are not there."""
    from numba.core import caching

    cache_cls, file_cls = caching.Cache, caching.IndexDataCacheFile
    GAME_KEYS.clear()
    GAME_KEYS.update(game_keys)
    if getattr(cache_cls, "_boardsim_keyed", False):
        return True
    if not hooks_available():
        return False
    orig_key = cache_cls._index_key

    def _index_key(self, sig, codegen):
        key = orig_key(self, sig, codegen)
        games = games_of(getattr(self._py_func, "__module__", ""), sig)
        if not games:
            return key
        return key + (tuple((g, GAME_KEYS[g]) for g in games),)

    def save(self, key, data):
        with _locked(self._index_path + ".lock"):
            overloads = self._load_index()
            name = overloads.get(key)
            if name is not None:
                self._save_data(name, data)
                return
            used = set(overloads.values())
            name = next(n for n in map(self._data_name, itertools.count(1)) if n not in used)
            self._save_data(name, data)  # the data first: the index never names a missing file
            overloads[key] = name
            self._save_index(overloads)

    cache_cls._index_key = _index_key
    file_cls.save = save
    cache_cls._boardsim_keyed = True
    return True


class _locked:
    """An exclusive ``flock`` on ``path`` (created if missing); a no-op where there is none."""

    def __init__(self, path: str):
        self.path = path
        self.f = None

    def __enter__(self):
        try:
            import fcntl
        except ImportError:  # pragma: no cover (not POSIX)
            return self
        self.f = open(self.path, "a")  # noqa: SIM115
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        if self.f is not None:
            import fcntl

            fcntl.flock(self.f, fcntl.LOCK_UN)
            self.f.close()
        return False
