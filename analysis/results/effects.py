"""The read side of the component-effects study (``boardsim effects``, ``analysis.lab.effects``,
docs/effects.md): a study folder's table, its one-sentence headline and verdict lines, and which
study belongs to a results run. Reads files; plays no game."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import polars as pl

from analysis.doc import md_table, signed_ci
from analysis.results import RUN_KEYS, run_fields, study_of_run  # noqa: F401 (re-exported)
from sim.core.errors import UserError

MIN_SEAT_GAMES = 1000
"""A headline needs at least this many holder seat-games (each arm) behind it (issue 15)."""

ARM_NAMES = {"nudge": "leverage", "denial": "denial"}
"""What each arm measures, in words: the one-step nudge is the component's **leverage** (what
one step of its number does to its holders), the denial arm its **strength** (what a seat
loses when barred from it)."""


def headline(df: pl.DataFrame) -> str:
    """One sentence naming the component with the largest leverage (nudge arm) or strength
    (denial arm), or why no single component can be named: a top component needs at least
    MIN_SEAT_GAMES holder seat-games and an interval clear of the next component's. Nudge
    rows are compared only within the top component's family and kind of step."""
    ok = df.filter(pl.col("effect").is_not_null()).sort("effect", descending=True)
    if not ok.is_empty() and "step_kind" in ok.columns and "arm" in ok.columns \
            and ok["arm"][0] == "nudge":
        t = ok.row(0, named=True)
        ok = ok.filter((pl.col("family") == t["family"])
                       & pl.col("step_kind").eq_missing(t["step_kind"]))
    if ok.is_empty():
        return "No component effect could be estimated."
    top = ok.row(0, named=True)
    est, iv = signed_ci(top["effect"], top["lo"], top["hi"]).split(" ", 1)
    ci = f"{est} points {iv}"
    denial = top.get("arm") == "denial"
    if top["small_sample"]:
        return (f"No headline: the largest effect, {top['component']} {ci}, rests on "
                f"{top['holder_seat_games']:,} {'denied' if denial else 'holder'} seat-games "
                f"(< {MIN_SEAT_GAMES:,}).")
    if ok.height > 1:
        nxt = ok.row(1, named=True)
        if nxt["hi"] is not None and top["lo"] is not None and top["lo"] <= nxt["hi"]:
            same = ok.filter(pl.col("tier") == top["tier"]).height
            return (f"{top['component']} ({ci}) and {same - 1} other component(s) are "
                    "indistinguishable at the top (overlapping 95% intervals)"
                    + (" of leverage." if top.get("arm") == "nudge" else "."))
    if denial:
        return (f"{top['component']} is worth most to have: a seat barred from it loses {ci} "
                f"(q {top['q']:.2g}; {top['holder_seat_games']:,} denied seat-games).")
    return (f"{top['component']} has the largest leverage: one step of its number costs its "
            f"holders {ci} (q {top['q']:.2g}; {top['holder_seat_games']:,} holder seat-games).")


def _cell(x, digits: int = 1) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else \
        f"{x:+.{digits}f}"


def _share(x, n=None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{100 * x:.1f}%" + (f" of {int(n):,}" if n is not None else "")


def placebo_summary(df: pl.DataFrame) -> str:
    """The re-deal placebo row's reading: how many components' effects differ from the same
    estimator on a re-dealt arm (the interval of effect - placebo excludes 0)."""
    d = df.filter(pl.col("vs_placebo_lo").is_not_null() & pl.col("vs_placebo_hi").is_not_null())
    if d.is_empty():
        return "no placebo difference could be estimated"
    differ = d.filter((pl.col("vs_placebo_lo") > 0) | (pl.col("vs_placebo_hi") < 0)).height
    return (f"{differ} of {d.height} components' estimates differ from their re-deal placebo "
            "(95% interval of the paired difference excludes 0)")


def effects_table(folder: str | os.PathLike) -> pl.DataFrame:
    """The effects table of an ``effects`` output folder, for the reports.

    Columns (``EFFECT_COLUMNS``): component Utf8 (``"family: key"``), family, nudge (the data
    path and the values before and after), effect/lo/hi Float64 (points: baseline - nudged
    mean win share of the holders, 95% interval clustered by game), p, q Float64 (BH across the
    table), n_games Int64 (finished in both arms), holder_seat_games Int64, measure
    (``holders`` or ``first seat``), first_seat_diff/lo/hi (points), limit_rate_base/arm and
    their Wilson bounds (proportions), balance_base/arm, small_sample Boolean (fewer than
    MIN_SEAT_GAMES holder seat-games), rank Int64 (1 = largest effect), tier Int64 (components
    of one tier are indistinguishable from its leader), bot_mix Utf8, players Int64.
    Raises UserError when the folder holds no ``effects.csv``."""
    path = Path(folder) / "effects.csv"
    if not path.is_file():
        raise UserError(f"{folder}: no effects.csv (run `boardsim effects GAME --out "
                        f"{folder}` first)")
    return pl.read_csv(path, infer_schema_length=None)


def verdict_lines(folder: str | os.PathLike, top: int = 5) -> list[str]:
    """Markdown lines for a report's verdict from an ``effects`` output folder: per arm, the
    headline (``headline``), the bot mix and player count it holds for, and the ``top``
    components by effect with their 95% intervals, q-values, tiers and seat-games (a causal
    measure; intervals clustered by game). One call for the report writers. Raises UserError
    when the folder holds no ``effects.csv``."""
    df = effects_table(folder)
    lines = []
    for arm in dict.fromkeys(df["arm"].to_list()):
        d = df.filter(pl.col("arm") == arm).sort("effect", descending=True, nulls_last=True)
        r0 = d.row(0, named=True)
        what = ("leverage: one step of its number, on its holders" if arm == "nudge"
                else "strength: one seat barred from it, on that seat")
        lines += [f"**Component {ARM_NAMES.get(arm, arm)} ({what}; paired on common seeds; "
                  f"{r0['players']} players, bots {r0['bot_mix']}).** {headline(d)} "
                  f"Re-deal placebo: {placebo_summary(d)}.", ""]
        rows = [[str(r["rank"]), str(r["tier"]), r["component"],
                 f"{_cell(r['effect'], 1)} [{_cell(r['lo'], 1)}, {_cell(r['hi'], 1)}]",
                 "n/a" if r["q"] is None else f"{r['q']:.2g}",
                 f"{r['holder_seat_games']:,}" + (" (small)" if r["small_sample"] else "")]
                for r in d.head(top).iter_rows(named=True)]
        lines += [md_table(["rank", "tier", "component",
                            f"{ARM_NAMES.get(arm, arm)}, points (95%, clustered)",
                            "BH q", "seat-games"], rows), ""]
    return lines


EFFECTS_DIR = "effects"
"""The folder inside a results run where ``boardsim run`` writes that run's effects."""


def effects_for_run(run_dir: str | os.PathLike, manifest: dict[str, Any]) -> Path | None:
    """The effects folder of the run ``run_dir`` (``<run_dir>/effects``), or None when there is
    none, it has no ``effects.csv``, or its ``effects.json`` does not record this run: the same
    game, players, bots, seating, seed, rule options, component-data overrides and engine
    version as ``manifest`` (``run_fields``). A report never shows effects of other data or
    other settings."""
    folder = Path(run_dir) / EFFECTS_DIR
    if study_of_run(folder, "effects.json", manifest) is None:
        return None
    return folder if (folder / "effects.csv").is_file() else None
