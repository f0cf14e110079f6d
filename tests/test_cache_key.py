"""The numba cache key (sim.kernel_sources / sim.kernel_key): an edit that can change compiled
code starts a fresh cache, an edit that cannot (the replay, component data passed as arrays)
keeps it."""

import shutil
from pathlib import Path

import sim

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


def test_key_changes_exactly_when_compiled_code_can(tmp_path):
    root = _tree(tmp_path)
    key = sim.kernel_key(root)
    _edit(root / "sim" / "replay.py", "\n# a comment in the replay\n")
    _edit(root / "sim" / "go_town" / "data.py", "\nEXTRA = 1\n")
    assert sim.kernel_key(root) == key
    _edit(root / "sim" / "core" / "bits.py", "\n# a comment in a kernel helper\n")
    changed = sim.kernel_key(root)
    assert changed != key
    # a kernel module that starts importing the data (inside a function, relative import)
    # makes the data a kernel source
    _edit(root / "sim" / "go_town" / "kernels.py",
          "\n\ndef _later():\n    from . import data  # noqa\n")
    assert "sim/go_town/data.py" in {
        p.relative_to(root).as_posix() for p in sim.kernel_sources(root)}
    again = sim.kernel_key(root)
    _edit(root / "sim" / "go_town" / "data.py", "\nMORE = 2\n")
    assert sim.kernel_key(root) != again != changed


def test_import_forms_are_read():
    known = {"sim", "sim.core", "sim.core.bits", "sim.core.rng", "sim.go_town",
             "sim.go_town.data", "sim.go_town.constants", "strategies", "strategies.common"}
    text = ("import sim.core.bits as b\n"
            "from sim.core import (\n    rng,\n    bits as bb,\n)\n"
            "    from .data import X  # inside a function\n"
            "from . import constants as K\n"
            "from strategies import common\n")
    got = sim._imported("sim.go_town.kernels", False, text, known)
    assert got == {"sim", "sim.core", "sim.core.bits", "sim.core.rng", "sim.go_town",
                   "sim.go_town.data", "sim.go_town.constants", "strategies",
                   "strategies.common"}
    assert sim._imported("sim.go_town", True, "from .data import X\n", known) == {
        "sim", "sim.go_town", "sim.go_town.data"}
