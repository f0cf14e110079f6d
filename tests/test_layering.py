"""The four floors (docs/house-pattern.md, "Floors"), each importing only downwards:

1. ``sim``: rules, registry, runner, results I/O and checks (``sim.core`` imports nothing of
   ``sim`` above it);
2. ``strategies``: the bots and the search bot;
3. the lab, ``analysis.lab``: experiments that play games; beside it on this floor the read-only
   libraries (``analysis.stats``, ``analysis.queries``, ``analysis.doc``, ``analysis.charts``,
   ...), which play no game;
4. the app: ``analysis.cli`` (the ``boardsim`` command), the reports (``analysis.report``,
   the per-game report sections ``analysis.games``) and ``analysis.index``.

Read from the source (``ast``), every ``import`` statement at any depth (inside functions, under
``if TYPE_CHECKING``) counts; ``from a.b import c`` is an import of the module ``a.b.c`` when
there is one, else of ``a.b``. Also: no import cycle between files; the bots are reached only
through the registry (``sim.get_game(id).bots``: only ``strategies`` imports ``strategies``);
the reports code and the read-only libraries of ``analysis`` read results and play no game. Each rule is shown failing on a planted
violation."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "strategies", "analysis")
FLOORS = ("sim", "strategies", "lab", "app")
# the reports code: reads results folders, plays no game
REPORTS = ("analysis.report", "analysis.games", "analysis.index")
APP = ("analysis.cli", *REPORTS)
# only these modules of ``analysis`` play games: the lab, and the command line that drives it
PLAYERS = ("analysis.lab", "analysis.cli")
# what playing a game means for the reports check: a name imported from the runner, or a call
PLAYING_IMPORTS = {("sim.runner", "simulate"), ("sim.runner", "chunk_tables"),
                   ("sim.runner", "map_tasks")}
PLAYING_CALLS = {"run_chunk", "run_games", "simulate", "apply_action", "new_state"}


def _within(mod: str, prefixes: tuple[str, ...]) -> bool:
    return any(mod == p or mod.startswith(p + ".") for p in prefixes)


def floor(mod: str) -> int:
    """0 sim, 1 strategies, 2 lab (and the read-only libraries of ``analysis``), 3 app."""
    if _within(mod, ("sim",)):
        return 0
    if _within(mod, ("strategies",)):
        return 1
    if mod == "analysis" or _within(mod, APP):
        return 3
    return 2


def modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """Every module of the three packages under ``root``: name -> (path, is a package)."""
    found = {}
    for pkg in PACKAGES:
        for p in sorted((root / pkg).rglob("*.py")):
            parts = list(p.relative_to(root).with_suffix("").parts)
            is_pkg = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_pkg else parts)] = (p, is_pkg)
    return found


def imports(root: Path) -> list[tuple[str, str, int, str]]:
    """``(importer, imported module, line, imported name)`` for every import between the
    modules of ``root`` (``name`` is the name taken by ``from ... import name``, else '')."""
    mods = modules(root)
    out = []
    for mod, (path, is_pkg) in mods.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [(a.name, "") for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    parts = parts[:len(parts) - (node.level - 1)]
                    base = ".".join(parts + ([base] if base else []))
                targets = [(f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base, a.name)
                           for a in node.names]
            for target, name in targets:
                while target and target not in mods:
                    target = target.rpartition(".")[0]
                if target and target != mod:
                    out.append((mod, target, node.lineno, name))
    return out


def upward(root: Path) -> list[str]:
    """Every import from a floor into a higher one, and from ``sim.core`` into the rest of
    ``sim``: ``importer:line -> imported (floor -> floor)``."""
    bad = []
    for mod, target, line, _ in imports(root):
        a, b = floor(mod), floor(target)
        if b > a:
            bad.append(f"{mod}:{line} -> {target} ({FLOORS[a]} -> {FLOORS[b]})")
        elif _within(mod, ("sim.core",)) and a == b == 0 and not _within(target, ("sim.core",)):
            bad.append(f"{mod}:{line} -> {target} (sim.core -> sim)")
    return sorted(bad)


def cycles(root: Path) -> list[list[str]]:
    """The import cycles between files: every strongly connected set of two or more modules
    (Tarjan's algorithm, iterative), each sorted."""
    graph: dict[str, set[str]] = {m: set() for m in modules(root)}
    for mod, target, _, _ in imports(root):
        graph[mod].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return sorted(found)


def bots_past_the_registry(root: Path) -> list[str]:
    """Imports of a bot module from outside ``strategies``: the lab and the app reach the bots
    only through the registry (``sim.get_game(id).bots``)."""
    return sorted(f"{mod}:{line} -> {target}" for mod, target, line, _ in imports(root)
                  if floor(target) == 1 and floor(mod) != 1)


def _reads_only(mod: str) -> bool:
    """A module of ``analysis`` outside the lab and the CLI: the reports and the read-only
    libraries, which play no game."""
    return _within(mod, ("analysis",)) and not _within(mod, PLAYERS)


def reports_that_play(root: Path) -> list[str]:
    """Places where the reports code or a read-only library of ``analysis`` plays games: an
    import of the lab or the bots, of a runner function that plays (``simulate``...), or a
    call of an engine or bot entry point (``.run_chunk(``...)."""
    bad = [f"{mod}:{line} -> {target}{'.' + name if name else ''}"
           for mod, target, line, name in imports(root) if _reads_only(mod)
           and (floor(target) in (1, 2) and _within(target, ("analysis.lab", "strategies"))
                or (target, name) in PLAYING_IMPORTS)]
    for mod, (path, _) in modules(root).items():
        if not _reads_only(mod):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in PLAYING_CALLS:
                bad.append(f"{mod}:{node.lineno} calls .{node.func.attr}(")
    return sorted(bad)


# ---- the tree as it is ------------------------------------------------------------------------
def test_every_import_points_down_the_floors():
    assert len(modules(ROOT)) > 100
    assert upward(ROOT) == []


def test_no_import_cycles_between_files():
    assert cycles(ROOT) == []


def test_the_bots_are_reached_only_through_the_registry():
    assert bots_past_the_registry(ROOT) == []


def test_the_reports_code_plays_no_game():
    assert reports_that_play(ROOT) == []


def test_the_floors_are_where_the_docs_say():
    assert [floor(m) for m in ("sim.core.game", "sim.registry", "sim.runner", "strategies.search",
                               "analysis.lab.effects", "analysis.lab.tune", "analysis.stats",
                               "analysis.cli", "analysis.report.writer", "analysis.index",
                               "analysis.games.go_town")] == [0, 0, 0, 1, 2, 2, 2, 3, 3, 3, 3]


# ---- the checks can fail ----------------------------------------------------------------------
def _copy(tmp_path: Path) -> Path:
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_a_planted_upward_import_inside_a_function_fails(tmp_path):
    root = _copy(tmp_path)
    n = len((root / "sim" / "runner.py").read_text().splitlines())
    _append(root / "sim" / "runner.py",
            "\n\ndef _probe():\n    from analysis.lab.effects import run_effects\n")
    _append(root / "sim" / "core" / "integrity.py", "\nfrom sim.registry import get_game\n")
    _append(root / "strategies" / "common.py", "\nimport analysis.stats\n")
    assert upward(root) == [
        f"sim.core.integrity:{len((ROOT / 'sim/core/integrity.py').read_text().splitlines()) + 2}"
        " -> sim.registry (sim.core -> sim)",
        f"sim.runner:{n + 4} -> analysis.lab.effects (sim -> lab)",
        f"strategies.common:{len((ROOT / 'strategies/common.py').read_text().splitlines()) + 2}"
        " -> analysis.stats (strategies -> lab)",
    ]


def test_a_planted_cycle_fails(tmp_path):
    root = _copy(tmp_path)
    _append(root / "sim" / "core" / "rng.py", "\n\ndef _probe():\n    from sim.core import bits\n")
    _append(root / "sim" / "core" / "bits.py", "\nfrom sim.core.rng import seed_for\n")
    assert cycles(root) == [["sim.core.bits", "sim.core.rng"]]


def test_planted_bot_imports_and_a_playing_report_fail(tmp_path):
    root = _copy(tmp_path)
    _append(root / "analysis" / "lab" / "effects.py", "\nfrom strategies.go_town import deny\n")
    _append(root / "analysis" / "report" / "writer.py",
            "\n\ndef _probe(game, s):\n    from sim.runner import simulate\n"
            "    from analysis.lab import effects\n    return game.apply_action(s, 0)\n")
    assert [b.split(":")[0] + " " + b.split(" -> ")[-1] for b in bots_past_the_registry(root)] \
        == ["analysis.lab.effects strategies.go_town.deny"]
    got = reports_that_play(root)
    assert len(got) == 3 and all(g.startswith("analysis.report.writer:") for g in got)
    assert any(g.endswith("-> sim.runner.simulate") for g in got)
    assert any("-> analysis.lab.effects" in g for g in got)
    assert any(g.endswith("calls .apply_action(") for g in got)


def test_relative_and_package_imports_resolve(tmp_path):
    for rel, text in {"sim/__init__.py": "", "sim/a.py": "from . import b\nfrom .b import x\n",
                      "sim/b.py": "x = 1\n", "strategies/__init__.py": "",
                      "analysis/__init__.py": "", "analysis/lab/__init__.py": "",
                      "analysis/lab/t.py": "from .. import stats\n",
                      "analysis/stats.py": "import analysis.lab.t\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    got = sorted((m, t) for m, t, _, _ in imports(tmp_path))
    assert got == [("analysis.lab.t", "analysis.stats"), ("analysis.stats", "analysis.lab.t"),
                   ("sim.a", "sim.b"), ("sim.a", "sim.b")]
    assert cycles(tmp_path) == [["analysis.lab.t", "analysis.stats"]]


def test_every_bot_package_exports_the_soak_loop():
    import sim

    for gid in sim.list_games():
        bots = sim.get_game(gid).bots
        assert callable(bots.soak_chunk) and callable(bots.run_games), gid
        assert set(bots.SOAK_CODES) == {-1, -2, -3}, gid
