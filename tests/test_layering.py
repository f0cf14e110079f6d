"""The house pattern's layering (docs/house-pattern.md): the rules under ``sim/`` know no bots.
The registry pairs a game with its bot package by name (``importlib`` on
``strategies.<package>``, sim/registry.py), and everything under ``sim/`` reaches the bots only
through that pairing (``game.bots``); no module under ``sim/`` imports ``strategies``, not even
inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bot_imports(path: Path) -> list[str]:
    """``file:line: statement`` of every import of ``strategies`` in ``path`` (any depth)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            if name == "strategies" or name.startswith("strategies."):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    return found


def test_no_module_under_sim_imports_the_bots():
    files = sorted((ROOT / "sim").rglob("*.py"))
    assert len(files) > 40
    bad = [hit for p in files for hit in _bot_imports(p)]
    assert bad == []


def test_the_check_sees_an_import_inside_a_function(tmp_path, monkeypatch):
    """The check itself can fail: a lazy import inside a function is found."""
    p = ROOT / "sim" / "_layering_probe.py"
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: (
        "def f():\n    from strategies.soak import soak_chunk\n    import strategies.common\n"))
    assert _bot_imports(p) == ["sim/_layering_probe.py:2: strategies.soak",
                               "sim/_layering_probe.py:3: strategies.common"]


def test_every_bot_package_exports_the_soak_loop():
    import sim

    for gid in sim.list_games():
        bots = sim.get_game(gid).bots
        assert callable(bots.soak_chunk) and callable(bots.run_games), gid
        assert set(bots.SOAK_CODES) == {-1, -2, -3}, gid
