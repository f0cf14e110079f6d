"""Issue 16: every generated report, made from small real runs of each game (every run of the
game's main job, ``default_plan``, at 20 games), has no rate outside [0, 100]%, no interval
that does not contain its estimate, no other game's name and no causal wording
(``analysis.report.scan``); the cross-game index shows each game's verdict line and chart.

Slow the first time (numba compiles each game's kernels); later runs use the kernel cache.
"""

from __future__ import annotations

import json
import os

import pytest

import sim
from analysis.index import write_index
from analysis.report import write_report
from analysis.report.scan import scan_text
from sim.core.integrity import MIN_RUN_GAMES
from sim.runner import simulate

GAMES = sorted(sim.list_games())
TITLES = [sim.get_game(g).title for g in GAMES]


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    return tmp_path_factory.mktemp("scan-reports")


def _report(gid: str, root) -> str:
    game = sim.get_game(gid)
    runs, roles = [], []
    for plan in game.default_plan():
        out = root / "_runs" / gid / plan["name"]
        runs.append(str(simulate(gid, MIN_RUN_GAMES, plan["players"], plan["strategies"],
                                 seed=plan.get("seed", 1), options=plan.get("options", {}),
                                 jobs=1, chunk_size=MIN_RUN_GAMES, out=out,
                                 seating=plan.get("seating", "pool"))))
        roles.append(plan.get("role", "main"))
    write_report(runs, str(root / gid), game.title, game.impact_groups or None, roles)
    return game.title


@pytest.mark.parametrize("gid", GAMES)
def test_generated_report_scans_clean(gid, reports):
    title = _report(gid, reports)
    for name in ("report.md", "report.html"):
        text = (reports / gid / name).read_text()
        assert scan_text(text, title, TITLES) == [], f"{gid} {name}"
    md = (reports / gid / "report.md").read_text()
    verdict = md[md.index("## Verdict"): md.index("**Contents**")]
    assert "| First player, " in verdict and "| Game length, " in verdict
    assert "Rule hole" in verdict  # found, checked and none found, or "no checks"
    summ = json.loads((reports / gid / "summary.json").read_text())
    assert summ["verdict"].startswith(title + ": ")
    assert os.path.isfile(reports / gid / summ["chart"])


def test_index_shows_every_verdict_and_chart(reports):
    done = [g for g in GAMES if (reports / g / "summary.json").exists()]
    if not done:
        pytest.skip("no generated reports (run the parametrized scan test first)")
    write_index(str(reports))
    html = (reports / "index.html").read_text()
    assert html.count("<strong>Verdict:</strong>") == len(done)
    assert html.count('src="data:image/png;base64,') == len(done)
