"""A new game with no other file edited (issue 25, item 4): Pig, a 2-4 player dice game laid out
as a real game (tests/toy/: ``sim/pig/``, ``strategies/pig/`` and its hooks ``games/pig.py``),
copied into a temporary folder and registered there, in a child process with its own numba
cache (so no compiled version of the toy lands in the suite's cache): tests/toy/pig_suites.py
runs the generic suites' checks (conformance, determinize, soak) and ``boardsim
simulate/report/ladder/tiers`` on it. Each branches on what Pig declares (perfect information,
sampled chance, 2-4 players, the end reasons ``target`` and ``limit``), never on a table of
game ids."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sim

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "toy"


def test_the_toy_game_passes_the_generic_suites_and_the_commands(tmp_path):
    root = tmp_path / "toy"
    for part in ("sim", "strategies", "games"):
        shutil.copytree(TOY / part, root / part)
    env = dict(os.environ, BOARDSIM_TOY=str(root), NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-p",
                        "no:cacheprovider", "-x", str(TOY / "pig_suites.py")],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=3000)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "6 passed" in r.stdout, r.stdout[-2000:]


def test_every_game_declares_what_it_is_and_a_bad_declaration_fails():
    from sim.core.game import Game

    for gid in sim.list_games():
        g = sim.get_game(gid)
        g.check_declaration()
        assert g.chance == "sampled" and g.results and set(g.results) <= set(g.end_reasons), gid
    cases = [({}, "information must be one of"),
             ({"information": "perfect"}, "chance must be one of"),
             ({"information": "perfect", "chance": "sampled", "hidden": ("x",)},
              "hidden must name"),
             ({"information": "imperfect", "chance": "none"}, "hidden must name"),
             ({"information": "perfect", "chance": "none", "results": ("limit",)},
              "results must be"),
             ({"information": "perfect", "chance": "none", "results": ("won",),
               "end_reasons": ("none", "won", "stuck")}, "'stuck'] are neither")]
    for attrs, msg in cases:
        cls = type("Bad", (Game,), {"end_reasons": ("none", "won", "limit"), **attrs})
        with pytest.raises(ValueError, match=msg):
            cls().check_declaration()
