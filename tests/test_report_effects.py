"""Issue 15 (done when: "each game's report headline ranks components by the causal effect with
intervals, and names the bot mix it holds for") and issue 16 item 1: the verdict's strongest
and weakest components come from the component effects of the very runs reported, labelled
causal; without them, the association rows, labelled. Fixtures: the synthetic run folders of
tests/test_analysis.py with an effects folder built by hand (no simulation).
"""

from __future__ import annotations

import json

import polars as pl
import pytest

from analysis.lab.effects import (
    EFFECT_COLUMNS,
    effects_for_run,
    run_effects,
    run_fields,
)
from analysis.report import write_report
from analysis.report.verdict import ASSOCIATION_LABEL, CAUSAL_LABEL, effect_rows
from analysis.report.wording import mix_label
from sim.core.errors import UserError
from tests.test_analysis import _game, write_run

MIX = "greedy, random (pool seating)"


def _row(component, effect, lo, hi, q, seat_games, rank, tier, family="card types"):
    row = {c: None for c in EFFECT_COLUMNS}
    row.update(arm="nudge", component=f"{family}: {component}", family=family,
               nudge=f"cards.{component}.count: 3 -> 2", effect=effect, lo=lo, hi=hi, p=q,
               q=q, n_games=1000, holder_seat_games=seat_games, measure="holders",
               first_seat_diff=0.0, first_seat_lo=-1.0, first_seat_hi=1.0,
               limit_rate_base=0.0, limit_lo_base=0.0, limit_hi_base=0.01,
               limit_rate_arm=0.0, limit_lo_arm=0.0, limit_hi_arm=0.01, balance_base=0.95,
               balance_arm=0.95, small_sample=seat_games < 1000, rank=rank, tier=tier,
               bot_mix=MIX, players=2)
    return row


ROWS = [  # DOG and DRILL overlap (one tier); BONE is clear below DRILL
    _row("DOG", 5.0, 3.0, 7.0, 0.001, 2000, 1, 1),
    _row("DRILL", 4.0, 2.5, 5.5, 0.002, 1500, 2, 1),
    _row("BONE", -1.0, -2.0, 0.0, 0.04, 1200, 3, 2),
]


def _effects_folder(run: str, rows=ROWS, **run_changes) -> str:
    """``<run>/effects`` with effects.csv from ``rows`` and effects.json recording ``run``
    (``run_changes`` alter the recorded fields, to make effects of another run)."""
    from pathlib import Path

    folder = Path(run) / "effects"
    folder.mkdir()
    pl.DataFrame(rows, schema={c: pl.Utf8 if c in ("arm", "component", "family", "nudge",
                                                   "measure", "bot_mix")
                               else pl.Boolean if c == "small_sample"
                               else pl.Int64 if c in ("n_games", "holder_seat_games", "rank",
                                                      "tier", "players")
                               else pl.Float64 for c in EFFECT_COLUMNS}
                 ).write_csv(folder / "effects.csv")
    manifest = json.loads((Path(run) / "manifest.json").read_text())
    rec = {**run_fields(manifest), **run_changes}
    (folder / "effects.json").write_text(json.dumps({"game": "go-town", "run": rec}))
    # a forest plot stand-in: a 1x1 PNG
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(0.1, 0.1))
    fig.savefig(folder / "effects.png")
    plt.close(fig)
    return str(folder)


def _run(tmp_path, name="r"):
    gr = ("greedy", "random")
    specs = ([_game(gr, [0], drill={0: 1}) for _ in range(30)]
             + [_game(gr, [1], drill={1: 1}) for _ in range(20)]
             + [_game(gr, [0]) for _ in range(30)])
    run = write_run(tmp_path / name, 2, specs, seed=1, strategies=["greedy", "random"],
                    seating="pool")
    from pathlib import Path

    for f in sorted((Path(run) / "seats").glob("*.parquet")):  # DOG: every third game, seat 1
        d = pl.read_parquet(f)
        d.with_columns(played_DOG=((pl.col("game") % 3 == 0) & (pl.col("seat") == 0))
                       .cast(d["played_DOG"].dtype)).write_parquet(f)
    return run


def _verdict(md: str) -> str:
    return md[md.index("## Verdict"): md.index("**Contents**")]


def _report(tmp_path, run):
    out = tmp_path / "rep"
    write_report([run], str(out), "A Toy Game")
    return (out / "report.md").read_text(), out


def test_a_q_value_that_underflows_is_not_printed_as_zero():
    """A BH q of 0.0 (underflow, at 100,000s of seat-games) read "BH q 0." in Go Town's
    verdict; it is "< 1e-300"."""
    rows = effect_rows(pl.DataFrame([_row("DOG", 5.0, 3.0, 7.0, 0.0, 2000, 1, 1), *ROWS[1:]]))
    assert rows[0][4] == "Causal: indistinguishable from **DRILL**; BH q < 1e-300."


def test_effect_rows_strongest_weakest_tiers_and_labels():
    rows = effect_rows(pl.DataFrame(ROWS))
    assert [r[0] for r in rows] == ["Strongest card types, 2p", "Weakest card types, 2p"]
    top, low = rows
    assert top[1:4] == ["**DOG** +5.0 points", "[+3.0, +7.0]", "2,000 seat-games"]
    # one plain line: the bot mix and the intervention are said once, in the intro
    assert top[4] == "Causal: indistinguishable from **DRILL**; BH q 0.001."
    assert low[1:4] == ["**BONE** -1.0 points", "[-2.0, +0.0]", "1,200 seat-games"]
    assert low[4] == "Causal: CI includes 0; below **DRILL**; BH q 0.04."
    assert not any(MIX in r[4] or "cards.DOG.count" in r[4] for r in rows)


def test_a_family_without_any_effect_is_one_row():
    rows = effect_rows(pl.DataFrame([_row("A", 0.4, -0.5, 1.3, 0.6, 2000, 1, 1),
                                     _row("B", 0.1, -0.4, 0.6, 0.7, 2000, 2, 1),
                                     _row("C", -0.6, -1.5, 0.3, 0.5, 1800, 3, 1)]))
    assert rows == [["Card types, 2p", "no effect shown", "", "2,000 seat-games",
                     "Causal: no CI of the 3 excludes 0; the largest, **C** -0.6 "
                     "[-1.5, +0.3]."]]


def test_effect_rows_small_sample_and_a_lone_component():
    rows = effect_rows(pl.DataFrame([_row("WRECK", 9.0, -1.0, 19.0, 0.3, 40, 1, 1,
                                          family="specials")]))
    assert len(rows) == 1 and rows[0][0] == "Strongest specials, 2p"
    assert rows[0][4] == ("Causal: CI includes 0; the only component of its family; BH q 0.3. "
                          "Small sample.")


def test_effect_interval_is_clipped_to_the_possible_range():
    rows = effect_rows(pl.DataFrame([_row("A", 30.0, 5.0, 130.0, 0.5, 4, 1, 1),
                                     _row("B", -40.0, -120.0, 40.0, 0.5, 3, 2, 1)]))
    assert [r[2] for r in rows] == ["[+5.0, +100.0]", "[-100.0, +40.0]"]


def test_an_effect_of_exactly_zero_says_the_nudge_changed_no_game():
    rows = effect_rows(pl.DataFrame([ROWS[0], _row("17", 0.0, 0.0, 0.0, 1.0, 1500, 2, 2)]))
    assert rows[1][1:3] == ["**17** +0.0 points", "[+0.0, +0.0]"]
    assert rows[1][4] == ("Causal: exactly 0, the nudge changed no game's result; below "
                          "**DOG**; BH q 1.")


def test_verdict_ranks_by_causal_effect_when_the_runs_have_effects(tmp_path):
    run = _run(tmp_path)
    _effects_folder(run)
    md, out = _report(tmp_path, run)
    v = _verdict(md)
    assert "| Strongest card types, 2p | **DOG** +5.0 points | [+3.0, +7.0] |" in v
    assert "| Weakest card types, 2p | **BONE** -1.0 points | [-2.0, +0.0] |" in v
    assert CAUSAL_LABEL in v and v.count(CAUSAL_LABEL) == 1  # said once, in the intro
    assert "| Causal: indistinguishable from **DRILL**" in v
    assert "(e.g. `cards.DOG.count: 3 -> 2`), effect on its holders' win rate" in v
    # the association rows leave the verdict (they stay, labelled, in the folded sections)
    assert "Strongest component, 2p" not in v and ASSOCIATION_LABEL[1:] not in v
    assert f"Causal (2p): {CAUSAL_LABEL}, each component's number one step" in v
    rest = md[md.index("**Contents**"):]
    assert "## Component effects (causal)" in rest and "## Component impact" in rest
    assert "| 1 | 1 | card types: DOG | cards.DOG.count: 3 -> 2 | +5.00 | [+3.00, +7.00] |" \
        in rest
    assert (out / "effects_2p.png").is_file() and "effects_2p.png" in rest
    # the methods note names the causal measure, the associations and their intervals
    assert "**Causal**: the component effects" in rest
    assert "**Associations** (not effects)" in rest and "Wilson 95% interval" in rest
    # the cross-game index line carries the effects headline
    s = json.loads((out / "summary.json").read_text())
    assert s["verdict"].endswith(
        "Component effects (causal): 2p: card types: DOG (+5.0 points [+3.0, +7.0]) and 1 "
        "other component(s) are indistinguishable at the top (overlapping 95% intervals).")


def test_verdict_keeps_the_labelled_association_without_effects(tmp_path):
    run = _run(tmp_path)
    md, _ = _report(tmp_path, run)
    v = _verdict(md)
    m = json.loads(open(f"{run}/manifest.json").read())
    assert "| Strongest component, 2p | **DRILL**" in v
    assert f"Bots: {mix_label(m)}. " in v and v.count(mix_label(m)) == 1
    assert "| Association, not an effect: " in v and v.count(ASSOCIATION_LABEL) == 1
    assert "(causal)" not in v and "no component effects were run" in v
    assert "## Component effects (causal)" not in md
    assert "**Causal**: none in this report" in md


@pytest.mark.parametrize("change", [{"seed": 2}, {"overrides": {"cards.DOG.count": 2}},
                                    {"options": {"first_player": "random"}},
                                    {"strategies": ["greedy"]}])
def test_effects_of_other_settings_or_data_are_never_used(tmp_path, change):
    run = _run(tmp_path)
    _effects_folder(run, **change)
    m = json.loads(open(f"{run}/manifest.json").read())
    assert effects_for_run(run, m) is None
    v = _verdict(_report(tmp_path, run)[0])
    assert "(causal)" not in v and ASSOCIATION_LABEL[1:] in v


def test_effects_for_run_finds_its_own_effects_only(tmp_path):
    run = _run(tmp_path)
    folder = _effects_folder(run)
    m = json.loads(open(f"{run}/manifest.json").read())
    assert str(effects_for_run(run, m)) == folder
    assert effects_for_run(run, {}) is None  # no manifest: nothing is trusted
    assert run_fields(m) == {"game": "go-town", "players": 2, "strategies": ["greedy", "random"],
                             "seating": "pool", "seed": 1, "options": {"first_player": "seat0"},
                             "overrides": {}, "engine_version": None}


def test_run_effects_refuses_a_run_of_other_settings(tmp_path):
    run = {"game": "go-town", "players": 2, "strategies": ["greedy"], "seating": "fixed",
           "seed": 1, "options": {}, "overrides": {}, "engine_version": None}
    with pytest.raises(UserError, match="the run's seed differ"):
        run_effects("go-town", 20, 2, ["greedy"], seed=2, out=tmp_path / "fx",
                    seating="fixed", run=run)
    with pytest.raises(UserError, match="the run's overrides differ"):
        run_effects("go-town", 20, 2, ["greedy"], seed=1, out=tmp_path / "fx",
                    seating="fixed", run={**run, "overrides": {"cards.DOG.count": 2}})
    assert not (tmp_path / "fx").exists()
