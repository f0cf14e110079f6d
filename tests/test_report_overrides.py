"""Component-data overrides in reports: stated in the header, never mixed in one report.

The run folders are copies of one tiny real Go Town run whose manifest.json is edited to carry
``"overrides"`` (a flat dict of component-data overrides; absent or {} = the printed data).
"""

from __future__ import annotations

import json
import shutil

import pytest

from analysis.report import overrides_text, write_report
from sim.runner import simulate


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("overrides")
    return simulate("go-town", 200, 2, ["greedy", "random"], seed=5, jobs=1, chunk_size=100,
                    out=root / "base", seating="rotate")


def _copy(base, dest, overrides="absent"):
    shutil.copytree(base, dest)
    path = dest / "manifest.json"
    m = json.loads(path.read_text())
    assert "overrides" not in m or not m["overrides"]
    m.pop("overrides", None)
    if overrides != "absent":
        m["overrides"] = overrides
    path.write_text(json.dumps(m))
    return str(dest)


def _head(md: str) -> str:
    return md[md.index("## Runs and settings"): md.index("## Notes on method")]


def test_overrides_text():
    assert overrides_text({}) == "component data as printed"
    assert overrides_text({"buildings.church.vp": 7, "a.b": "x", "c.d": 1.5}) == (
        "a.b=x, buildings.church.vp=7, c.d=1.5")


def test_header_states_the_overrides(base_run, tmp_path):
    ov = {"buildings.church.vp": 7, "buildings.church.cost_stone": 3}
    a = _copy(base_run, tmp_path / "a", ov)
    b = _copy(base_run, tmp_path / "b", dict(reversed(list(ov.items()))))  # same, other order
    res = write_report([a, b], str(tmp_path / "rep"), "Go Town")
    head = _head(open(res["markdown"]).read())
    assert ("**Component data overrides:** `buildings.church.cost_stone=3, "
            "buildings.church.vp=7` (both runs)") in head
    assert json.loads(open(res["summary_json"]).read())["overrides"] == {
        "buildings.church.cost_stone": 3, "buildings.church.vp": 7}
    # printed data: absent and {} are the same thing
    c = _copy(base_run, tmp_path / "c")
    d = _copy(base_run, tmp_path / "d", {})
    res = write_report([c, d, str(base_run)], str(tmp_path / "rep2"), "Go Town")
    head = _head(open(res["markdown"]).read())
    assert "**Component data overrides:** component data as printed (all 3 runs)" in head
    res = write_report([c], str(tmp_path / "rep3"), "Go Town")
    assert "**Component data overrides:** component data as printed\n" in open(
        res["markdown"]).read()


@pytest.mark.parametrize("first,second", [
    ({"buildings.church.vp": 7}, "absent"),
    ({"buildings.church.vp": 7}, {"buildings.church.vp": 8}),
    ({}, {"buildings.church.vp": 7}),
    ({"buildings.church.vp": 7}, {"buildings.church.vp": 7, "buildings.farm.vp": 1}),
])
def test_different_overrides_are_refused(base_run, tmp_path, first, second):
    a = _copy(base_run, tmp_path / "a", first)
    b = _copy(base_run, tmp_path / "b", second)
    out = tmp_path / "rep"
    with pytest.raises(ValueError, match="runs have different component-data overrides") as e:
        write_report([a, b], str(out), "Go Town")
    msg = str(e.value)
    assert "\n" not in msg
    assert f"a: {overrides_text(first)}" in msg
    assert f"b: {overrides_text(second if second != 'absent' else {})}" in msg
    assert not out.exists()  # nothing written


def test_cli_refuses_different_overrides_in_one_line(base_run, tmp_path):
    from tests.test_cli import boardsim

    # a real run with a Go Town override beside the run on the printed data (a forged
    # manifest is refused earlier, by its chunks' records: tests/test_foreign_data.py)
    a = str(simulate("go-town", 200, 2, ["greedy", "random"], seed=5, jobs=1, chunk_size=100,
                     out=tmp_path / "a", seating="rotate", overrides={"cards.dog.count": 3}))
    b = _copy(base_run, tmp_path / "b")
    r = boardsim("report", a, b, "--out", str(tmp_path / "rep"))
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0] == (
        "error: runs have different component-data overrides (a: cards.dog.count=3; "
        "b: component data as printed); report each set of overrides separately")
    assert not (tmp_path / "rep").exists()
