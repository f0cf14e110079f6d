"""The numba cache key (sim/kernel_cache.py): the cache folder is keyed on the shared core, each
compiled version on the games it depends on. An edit that can change compiled code misses
exactly the versions it can change (one game's edit: only that game's), an edit that cannot
(the replay, component data passed as arrays) keeps them all."""

import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import sim
from sim import kernel_cache

ROOT = Path(__file__).resolve().parents[1]


def _tree(tmp_path: Path) -> Path:
    for pkg in ("sim", "strategies"):
        shutil.copytree(ROOT / pkg, tmp_path / pkg,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _edit(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_kernel_sources_cover_the_kernels_and_what_they_import():
    rel = {p.relative_to(ROOT).as_posix() for p in sim.kernel_sources(ROOT)}
    for must in ("sim/go_town/kernels.py", "sim/go_town/constants.py", "sim/core/bits.py",
                 "sim/core/rng.py", "strategies/common.py", "strategies/search.py",
                 "strategies/suburbia/bots.py", "strategies/province/batch.py"):
        assert must in rel, must
    for never in ("sim/replay.py", "sim/fingerprint.py", "sim/go_town/data.py"):
        assert never not in rel, never


def test_game_packages_are_the_games():
    assert kernel_cache.game_packages(ROOT) == [
        "go_town", "little_town", "province", "suburbia", "three_little_wolves"]
    games = kernel_cache.game_packages(ROOT)
    assert kernel_cache.game_of_module("sim.go_town.kernels", games) == "go_town"
    assert kernel_cache.game_of_module("strategies.suburbia", games) == "suburbia"
    assert kernel_cache.game_of_module("strategies.search", games) is None
    assert kernel_cache.game_of_module("sim.core.entry", games) is None


def test_one_games_edit_changes_only_that_games_key(tmp_path):
    root = _tree(tmp_path)
    core, games = sim.kernel_keys(root)
    assert set(games) == set(kernel_cache.game_packages(ROOT))
    assert len(set(games.values())) == len(games)  # distinct keys
    # the replay and component data passed as arrays: nothing changes
    _edit(root / "sim" / "replay.py", "\n# a comment in the replay\n")
    _edit(root / "sim" / "go_town" / "data.py", "\nEXTRA = 1\n")
    assert sim.kernel_keys(root) == (core, games)
    # a game's kernels: that game's key only
    _edit(root / "sim" / "go_town" / "kernels.py", "\n# a comment in a kernel\n")
    core2, games2 = sim.kernel_keys(root)
    assert core2 == core
    assert {g for g in games if games2[g] != games[g]} == {"go_town"}
    # a game's bots: that game's key only
    _edit(root / "strategies" / "suburbia" / "bots.py", "\n# a comment in a bot\n")
    core3, games3 = sim.kernel_keys(root)
    assert core3 == core
    assert {g for g in games if games3[g] != games2[g]} == {"suburbia"}
    # the shared core: the core key (the cache folder), no game key
    _edit(root / "sim" / "core" / "bits.py", "\n# a comment in a kernel helper\n")
    core4, games4 = sim.kernel_keys(root)
    assert core4 != core and games4 == games3
    _edit(root / "strategies" / "search.py", "\n# a comment in the search bot\n")
    core5, games5 = sim.kernel_keys(root)
    assert core5 != core4 and games5 == games3
    # a kernel module that starts importing the data (inside a function, relative import)
    # makes the data a kernel source of that game
    _edit(root / "sim" / "go_town" / "kernels.py",
          "\n\ndef _later():\n    from . import data  # noqa\n")
    assert "sim/go_town/data.py" in {
        p.relative_to(root).as_posix() for p in sim.kernel_sources(root)}
    _, before = sim.kernel_keys(root)
    _edit(root / "sim" / "go_town" / "data.py", "\nMORE = 2\n")
    _, after = sim.kernel_keys(root)
    assert {g for g in before if after[g] != before[g]} == {"go_town"}


def test_the_one_global_key_still_changes_with_any_kernel_source(tmp_path):
    root = _tree(tmp_path)
    key = sim.kernel_key(root)
    _edit(root / "sim" / "replay.py", "\n# a comment in the replay\n")
    assert sim.kernel_key(root) == key
    _edit(root / "sim" / "go_town" / "kernels.py", "\n# a comment in a kernel\n")
    assert sim.kernel_key(root) != key


def test_index_key_carries_the_games_of_the_version(monkeypatch):
    """The numba index key of a compiled version names the key of each game it depends on (by
    its function's package and by the state types among its arguments): a new game key misses
    that game's versions and no other's."""
    import numba
    from numba.core import caching
    from numba.core.registry import cpu_target

    from sim.core import entry, rng

    assert getattr(caching.Cache, "_boardsim_keyed", False)
    go = sim.get_game("go-town").new_state(2, seed=1)
    lt = sim.get_game("little-town").new_state(2, seed=1)
    codegen = cpu_target.target_context.codegen()
    cache = caching.FunctionCache(entry.apply_inplace.py_func)
    sig_go = (numba.typeof(go), numba.int32)
    sig_lt = (numba.typeof(lt), numba.int32)
    assert kernel_cache.games_of("sim.core.entry", sig_go) == ["go_town"]
    assert kernel_cache.games_of("sim.core.rng", (numba.uint64,)) == []
    assert kernel_cache.games_of("strategies.suburbia.bots", (numba.int64,)) == ["suburbia"]
    k_go, k_lt = cache._index_key(sig_go, codegen), cache._index_key(sig_lt, codegen)
    assert k_go[-1] == (("go_town", kernel_cache.GAME_KEYS["go_town"]),)
    monkeypatch.setitem(kernel_cache.GAME_KEYS, "go_town", "0" * 16)
    assert cache._index_key(sig_go, codegen) != k_go
    assert cache._index_key(sig_lt, codegen) == k_lt
    # a version of the shared core with no game in it keeps numba's own key
    core = caching.FunctionCache(rng.mix.py_func)
    assert len(core._index_key((numba.uint64,), codegen)) == 3


def test_concurrent_saves_keep_every_entry(tmp_path):
    """numba's save is load-modify-write; the locked save loses no entry and never gives two
    keys one data file, however the writers interleave."""
    from numba.core import caching

    f = caching.IndexDataCacheFile(str(tmp_path), "f-1.py311", ("stamp", 1))
    barrier = threading.Barrier(8)

    def save(i):
        barrier.wait()
        for j in range(5):
            g = caching.IndexDataCacheFile(str(tmp_path), "f-1.py311", ("stamp", 1))
            g.save(("key", i, j), ("data", i, j))

    threads = [threading.Thread(target=save, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    index = f._load_index()
    assert len(index) == 40 and len(set(index.values())) == 40
    for key in index:
        assert f.load(key) == ("data",) + key[1:]


def test_python_side_actions_compile_the_int32_version():
    """Game.apply_action hands the kernels an int32 action id, as the compiled loops do, so
    each kernel has one compiled version for the action id, not an int32 and an int64 one."""
    from sim.core import entry

    game = sim.get_game("little-town")
    s = game.new_state(2, seed=3)
    game.apply_action(s, int(game.legal_actions(s)[0]))
    sigs = [sig for sig in entry.apply_inplace.signatures
            if getattr(sig[0], "instance_class", None) is type(s)]
    assert [sig[1] for sig in sigs] == [np.int32] or [str(sig[1]) for sig in sigs] == ["int32"]


@pytest.mark.parametrize("value,quick,suffix", [
    (None, None, ""), ("3", None, ""), ("1", None, "-O1"), ("0", None, "-O0"),
    ("1", "1", "-O1-q"), (None, "1", "-q"), ("1", "0", "-O1")])
def test_an_optimisation_level_other_than_3_gets_its_own_cache_folder(monkeypatch, value,
                                                                      quick, suffix):
    """numba's index records neither NUMBA_OPT nor the quick link: make test's versions
    (Makefile: level 1, BOARDSIM_QUICK_LINK=1) must never be loaded by a run or the benchmark
    (level 3, numba's link step), so the folder name carries both."""
    import sim

    if quick is None:
        monkeypatch.delenv("BOARDSIM_QUICK_LINK", raising=False)
    else:
        monkeypatch.setenv("BOARDSIM_QUICK_LINK", quick)
    if value is None:
        monkeypatch.delenv("NUMBA_OPT", raising=False)
    else:
        monkeypatch.setenv("NUMBA_OPT", value)
    assert sim.opt_suffix() == suffix


def test_numba_ir_inlining_only_where_a_function_has_one_call_site():
    """``inline="always"`` types and lowers the callee again at every call site: Province's
    53 such functions made its first compile 275 CPU seconds instead of 58 (docs/house-pattern.md
    §6). LLVM's ``forceinline=True`` is the way to force an inline; ``inline="always"`` is for a
    function called from one place only (the search's chain), where it saves a library."""
    from sim.kernel_cache import kernel_sources

    root = Path(__file__).resolve().parent.parent
    texts = {p: p.read_text(encoding="utf-8") for p in kernel_sources(root)}
    inlined = []
    for p, text in texts.items():
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if re.search(r"inline\s*=\s*['\"]always['\"]", line) and "@" in line:
                m = next(re.match(r"def (\w+)\(", x) for x in lines[i + 1:] if
                         x.startswith("def "))
                inlined.append((f"{p.relative_to(root)}:{i + 1}", m.group(1)))
    assert inlined, "no inline='always' found: the search's chain should use it"
    for where, name in inlined:
        calls = sum(len(re.findall(rf"(?<![\w.])(?:\w+\.)?{name}\(", t))
                    - len(re.findall(rf"def {name}\(", t)) for t in texts.values())
        assert calls <= 1, (where, name, calls)


def test_the_planted_second_call_site_is_found(tmp_path):
    """The count above can fail: a second call of ``search_choose`` is two call sites."""
    text = "x = search_choose(a)\ny = search.search_choose(b)\ndef search_choose(c):\n"
    name = "search_choose"
    calls = (len(re.findall(rf"(?<![\w.])(?:\w+\.)?{name}\(", text))
             - len(re.findall(rf"def {name}\(", text)))
    assert calls == 2


def test_the_quick_link_is_installed_under_make_test(tmp_path):
    """``BOARDSIM_QUICK_LINK=1`` (make test) replaces numba's link step of a compiled function
    (sim/__init__.py ``_quick_link``), and what it compiles runs: if numba's internals change
    so that the patch cannot apply, this fails instead of the suite silently compiling twice as
    long. The test build's trims (``_test_build_trims``) too: a callee called with two
    constants is compiled once (numba alone compiles it once per literal), with no cfunc
    wrapper, and runs."""
    code = ("import sim, numba\n"
            "from numba.core import codegen, dispatcher\n"
            "assert getattr(codegen.CPUCodeLibrary, '_boardsim_quick_link', False)\n"
            "assert getattr(dispatcher.Dispatcher, '_boardsim_trims', False)\n"
            "inner = numba.njit(lambda x: 2 * x)\n"
            "f = numba.njit(lambda x: inner(x) + 1)\n"
            "assert f(20) == 41\n"
            "g = numba.njit(lambda x, k: x * k)\n"
            "h = numba.njit(lambda x: g(x, 3) + g(x, 4))\n"
            "assert h(2) == 14\n"
            "assert len(g.signatures) == 1, g.signatures\n"
            "cres = g.overloads[g.signatures[0]]\n"
            "assert not cres.library.get_llvm_str().count('cfunc.'), 'a cfunc wrapper'\n"
            "print(sim.opt_suffix())\n")
    env = dict(os.environ, BOARDSIM_QUICK_LINK="1", NUMBA_OPT="1",
               NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "-O1-q"
