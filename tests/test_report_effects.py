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


def _denial(component, effect, lo, hi, q, rank, tier):
    return {**_row(component, effect, lo, hi, q, 2000, rank, tier), "arm": "denial",
            "nudge": "one seat (rotated) may not play it", "measure": "denied seat"}


DENIAL = [_denial("DOG", 9.0, 7.0, 11.0, 0.001, 1, 1),
          _denial("DRILL", 4.0, 3.0, 5.0, 0.001, 2, 2),
          _denial("BONE", 1.0, 0.2, 1.8, 0.02, 3, 3)]


def _effects_folder(run: str, rows=ROWS, **run_changes) -> str:
    """``<run>/effects`` with effects.csv from ``rows`` and effects.json recording ``run``
    (``run_changes`` alter the recorded fields, to make effects of another run)."""
    from pathlib import Path

    folder = Path(run) / "effects"
    folder.mkdir()
    pl.DataFrame(rows, schema={c: pl.Utf8 if c in ("arm", "component", "family", "nudge",
                                                   "measure", "bot_mix", "step_kind")
                               else pl.Boolean if c == "small_sample"
                               else pl.Int64 if c in ("n_games", "holder_seat_games", "rank",
                                                      "tier", "players", "pairing_n")
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
    assert rows[0][4] == "Leverage, paired: indistinguishable from **DRILL**; BH q < 1e-300."


def test_effect_rows_strongest_weakest_tiers_and_labels():
    rows = effect_rows(pl.DataFrame(ROWS))
    # issue 26: a one-step nudge is leverage, never "strongest/weakest"
    assert [r[0] for r in rows] == ["Largest leverage, card types, 2p",
                                    "Smallest leverage, card types, 2p"]
    top, low = rows
    assert top[1:4] == ["**DOG** +5.0 points per step", "[+3.0, +7.0]", "2,000 seat-games"]
    # one plain line: the bot mix and the intervention are said once, in the intro
    assert top[4] == "Leverage, paired: indistinguishable from **DRILL**; BH q 0.001."
    assert low[1:4] == ["**BONE** -1.0 points per step", "[-2.0, +0.0]", "1,200 seat-games"]
    assert low[4] == "Leverage, paired: CI includes 0; below **DRILL**; BH q 0.04."
    assert not any(MIX in r[4] or "cards.DOG.count" in r[4] for r in rows)


def test_a_family_without_any_effect_is_one_row():
    rows = effect_rows(pl.DataFrame([_row("A", 0.4, -0.5, 1.3, 0.6, 2000, 1, 1),
                                     _row("B", 0.1, -0.4, 0.6, 0.7, 2000, 2, 1),
                                     _row("C", -0.6, -1.5, 0.3, 0.5, 1800, 3, 1)]))
    assert rows == [["Leverage, card types, 2p", "none shown", "", "2,000 seat-games",
                     "Leverage, paired: no CI of the 3 excludes 0; the largest, **C** -0.6 "
                     "[-1.5, +0.3]."]]


def test_effect_rows_small_sample_and_a_lone_component():
    rows = effect_rows(pl.DataFrame([_row("WRECK", 9.0, -1.0, 19.0, 0.3, 40, 1, 1,
                                          family="specials")]))
    assert len(rows) == 1 and rows[0][0] == "Largest leverage, specials, 2p"
    assert rows[0][4] == ("Leverage, paired: CI includes 0; the only component of its family; "
                          "BH q 0.3. "
                          "Small sample.")


def test_effect_interval_is_clipped_to_the_possible_range():
    rows = effect_rows(pl.DataFrame([_row("A", 30.0, 5.0, 130.0, 0.5, 4, 1, 1),
                                     _row("B", -40.0, -120.0, 40.0, 0.5, 3, 2, 1)]))
    assert [r[2] for r in rows] == ["[+5.0, +100.0]", "[-100.0, +40.0]"]


def test_an_effect_of_exactly_zero_says_the_nudge_changed_no_game():
    rows = effect_rows(pl.DataFrame([ROWS[0], _row("17", 0.0, 0.0, 0.0, 1.0, 1500, 2, 2)]))
    assert rows[1][1:3] == ["**17** +0.0 points per step", "[+0.0, +0.0]"]
    assert rows[1][4] == ("Leverage, paired: exactly 0, the nudge changed no game's result; below "
                          "**DOG**; BH q 1.")


def test_strongest_and_weakest_come_from_denial_only():
    """Issue 26 item 2: a table with both arms gives strongest/weakest rows from the denial
    arm (restricted play) and leverage rows from the nudge; the nudge never says strongest."""
    rows = effect_rows(pl.DataFrame(ROWS + DENIAL))
    assert [r[0] for r in rows] == ["Strongest card types, 2p", "Weakest card types, 2p",
                                    "Largest leverage, card types, 2p",
                                    "Smallest leverage, card types, 2p"]
    assert rows[0][1:3] == ["**DOG** +9.0 points", "[+7.0, +11.0]"]
    assert rows[0][4] == "Denial, paired: above **DRILL**; BH q 0.001."
    assert not any(r[0].startswith(("Strongest", "Weakest")) for r in effect_rows(
        pl.DataFrame(ROWS)))


def test_leverage_ranks_only_steps_of_one_kind():
    """A VP step and a cost step of one family are two groups, never ranked together."""
    vp = [{**_row(c, e, e - 1, e + 1, 0.01, 2000, i, i), "step_kind": "buildings.*.vp"}
          for i, (c, e) in enumerate([("A", 6.0), ("B", 2.0)], 1)]
    cost = [{**_row("C", 9.0, 8.0, 10.0, 0.01, 2000, 1, 1), "step_kind": "buildings.*.cost"}]
    rows = effect_rows(pl.DataFrame(vp + cost))
    assert [r[0] for r in rows] == ["Largest leverage, card types (vp steps), 2p",
                                    "Smallest leverage, card types (vp steps), 2p",
                                    "Largest leverage, card types (cost steps), 2p"]


def test_verdict_ranks_by_causal_effect_when_the_runs_have_effects(tmp_path):
    run = _run(tmp_path)
    _effects_folder(run, ROWS + DENIAL)
    md, out = _report(tmp_path, run)
    v = _verdict(md)
    # strongest/weakest from restricted play (denial), leverage rows for the nudge
    assert "| Strongest card types, 2p | **DOG** +9.0 points | [+7.0, +11.0] |" in v
    assert "| Weakest card types, 2p | **BONE** +1.0 points | [+0.2, +1.8] |" in v
    assert "| Largest leverage, card types, 2p | **DOG** +5.0 points per step | " in v
    assert "| Smallest leverage, card types, 2p | **BONE** -1.0 points per step | " in v
    assert CAUSAL_LABEL in v and v.count(CAUSAL_LABEL) == 1  # said once, in the intro
    assert "| Leverage, paired: indistinguishable from **DRILL**" in v
    assert "| Denial, paired: above **DRILL**" in v
    assert "(e.g. `cards.DOG.count: 3 -> 2`), what that step does to its holders' win rate" in v
    # the association rows leave the verdict (they stay, labelled, in the folded sections)
    assert "association, 2p" not in v and ASSOCIATION_LABEL[1:] not in v
    assert f"Components (2p): {CAUSAL_LABEL}; strongest/weakest: restricted play" in v
    rest = md[md.index("**Contents**"):]
    assert "## Component leverage and strength (paired interventions)" in rest
    assert "## Component impact" in rest
    assert "| 1 | 1 | card types: DOG | cards.DOG.count: 3 -> 2 | +5.00 | [+3.00, +7.00] |" \
        in rest
    assert "| - | - | re-deal placebo |" in rest and "Pairing share" in rest
    assert (out / "effects_2p.png").is_file() and "effects_2p.png" in rest
    # the methods note names the paired measures, the associations and their intervals
    assert "**Paired interventions**: the component rows" in rest
    assert "**Associations** (not effects)" in rest and "Wilson 95% interval" in rest
    # the cross-game index line carries the effects headline
    s = json.loads((out / "summary.json").read_text())
    assert s["verdict"].endswith(
        "Components (paired): 2p strength: card types: DOG is worth most to have: a seat barred "
        "from it loses +9.0 points [+7.0, +11.0] (q 0.001; 2,000 denied seat-games). "
        "2p leverage: card types: DOG (+5.0 points [+3.0, +7.0]) and 1 other component(s) "
        "are indistinguishable at the top (overlapping 95% intervals) of leverage.")


def test_verdict_keeps_the_labelled_association_without_effects(tmp_path):
    run = _run(tmp_path)
    md, _ = _report(tmp_path, run)
    v = _verdict(md)
    m = json.loads(open(f"{run}/manifest.json").read())
    assert "| Highest association, component, 2p | **DRILL**" in v
    assert f"Bots: {mix_label(m)}. " in v and v.count(mix_label(m)) == 1
    assert "| Association, not an effect: " in v and v.count(ASSOCIATION_LABEL) == 1
    assert "(causal)" not in v and "no component effects were run" in v
    assert "## Component leverage and strength" not in md
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
