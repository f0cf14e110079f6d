"""The robustness column of the verdict and the report section "Does it hold? Play, bot mix and
unconfirmed data" (issue 28): the robustness study of the report's main run
(``analysis.lab.robustness``), or, when the run has none, a cell and a note saying so."""

from __future__ import annotations

import os
import shutil

from analysis.doc import Doc, Table

TITLE = "Does it hold? Play, bot mix and unconfirmed data"


def study_for(run_dirs: list[str], manifests: list[dict], main_idx: list[int]) -> dict | None:
    """The ``robustness.json`` of the first main run that has a study recorded for it, with
    its folder under ``"_folder"``; None when none has."""
    from analysis.results.robustness import load_robustness, robustness_for_run

    for i in main_idx:
        folder = robustness_for_run(run_dirs[i], manifests[i])
        if folder is not None:
            data = load_robustness(folder)
            data["_folder"] = os.fspath(folder)
            return data
    return None


def with_column(rows: list[list], data: dict | None) -> list[list]:
    """``rows`` (verdict rows of 5 cells) each with its robustness cell appended
    (``analysis.lab.robustness.cell_for_row``); unchanged when the runs have no study (the
    section then says how to play one)."""
    from analysis.results.robustness import cell_for_row

    if data is None:
        return rows

    return [list(r) + [cell_for_row(str(r[0]), data)] for r in rows]


def first_seat_cell(data: dict | None) -> str:
    """The first-seat finding's cell (the index column), or 'not studied'."""
    if data is None:
        return "not studied"
    f = next((x for x in data["findings"] if x["key"].startswith("first:")), None)
    return f"{data['players']}p: {f['cell']}" if f else "not studied"


def robustness_section(doc: Doc, data: dict | None, game_id: str, out_dir: str,
                       paths: dict[str, str]) -> None:
    """Append the section: every finding's cell, the first seat in every setting and the
    one-at-a-time table with the tornado chart (copied into ``out_dir``); without a study a
    note with the command."""
    doc.h(2, TITLE)
    if data is None:
        doc.p("No robustness study was played for these runs, so the verdict has no "
              f"robustness column. Play one with `boardsim robustness {game_id}` "
              "(analysis/lab/robustness.py, docs/robustness.md; `boardsim run` plays a small one "
              "for each game's main 2-player run).")
        return
    p = data["players"]
    search = (f"{data['n_search']:,} per search-tier setting with "
              f"`{data.get('search_bot', 'mcts')}` at "
              f"{data['budget']} playouts per decision" if data.get("n_search")
              else "no search tier")
    doc.p(f"The headlines re-measured on common seeds ({data['n']:,} games per scripted "
          f"setting, {search}) across play (scripted vs search tier), bot "
          "mix (the recommended mix, each bot's mirror, pool seating), "
          "unconfirmed data (each number the spec marks reconstructed or assumed at the low "
          "and high of its plausible range, one at a time and paired; each field's numbers "
          "all together; a Latin-hypercube design; each interpreted rule option's "
          "alternatives) and the data axis under the search tier"
          + (" and under the hand-set bot rows (the mix plays rows tuned by self-play)"
             if any(x.get("ref") == "handset" for x in data["settings"]) else "")
          + ". A cell says *holds* when "
          "the finding's category (the sign of its interval; the component's name; the "
          f"length within 25%) stays the same in every setting. {p} players. Method: "
          "docs/robustness.md; full tables: robustness.md of the study.")
    from analysis.results.robustness import _base_text, _d, _pct

    doc.table(Table(["Finding", "Baseline", "Robustness"],
                    [[f["name"], _base_text(f, p), f["cell"]] for f in data["findings"]],
                    [False, True, False]))
    rows = []
    hand = [s for s in data["settings"] if s.get("ref") == "handset"]
    for s in data["settings"]:
        if s["axis"] == "design" or (s.get("ref") == "handset" and "-corner-" not in s["key"]):
            continue
        m = s["measure"]
        rows.append([s["axis"], s["label"], f"{m['finished']:,}", _pct(m["first"], p),
                     _d(s.get("paired"))])
    designs = [s for s in data["settings"] if s["axis"] == "design"]
    if designs:
        xs = [s["measure"]["first"]["est"] for s in designs
              if s["measure"]["first"]["est"] is not None]
        if xs:
            par = 100.0 / p
            rows.append(["design", f"{len(designs)} Latin-hypercube points (all unconfirmed "
                         "numbers together)", f"{sum(s['measure']['finished'] for s in designs):,}",
                         f"{min(xs) + par:.1f}% to {max(xs) + par:.1f}%", ""])
    one = [s for s in hand if "-corner-" not in s["key"]]
    xs = [s["measure"]["first"]["est"] for s in one if s["measure"]["first"]["est"] is not None]
    if xs:
        par = 100.0 / p
        rows.append(["crossed", f"{len(one)} one-at-a-time settings, hand-set rows (each in "
                     "robustness.md)", f"{sum(s['measure']['finished'] for s in one):,}",
                     f"{min(xs) + par:.1f}% to {max(xs) + par:.1f}%", ""])
    doc.table(Table(["Axis", "Setting", "Games", "First seat wins (95% CI)",
                     "Paired change, points"], rows, [False, False, True, True, True]))
    if any(s["axis"] == "crossed" for s in data["settings"]):
        doc.p("Paired change: against the baseline; a crossed setting against its own "
              "reference on the same games (the search tier's baseline, or the hand-set "
              "rows' baseline).")
    if data.get("sensitivity"):
        top = data["sensitivity"][:5]
        doc.p("Latin-hypercube design, first-order Sobol indices of the linear fit (R² "
              f"{top[0]['r2']:.2f}): " + "; ".join(f"{r['input']} {r['s1']:.2f}" for r in top)
              + ".")
    chart = data.get("chart")
    if chart:
        src = os.path.join(data["_folder"], chart)
        if os.path.isfile(src):
            dst = os.path.join(out_dir, "robustness_tornado.png")
            shutil.copyfile(src, dst)
            paths["robustness_tornado"] = dst
            doc.charts([("robustness_tornado.png",
                         "Tornado: the first seat's win share with each unconfirmed input at "
                         "its low and its high")])
