"""The report's title block: what was run (games, seeds, bots, options, data) and the table
of runs."""

from __future__ import annotations

import os

import polars as pl

from analysis.doc import Table, count, md_escape, md_literal, now_utc
from analysis.report.manifests import one_or_each, options_text, overrides_of, overrides_text
from analysis.report.wording import mix_label

__all__ = ["header_section", "overrides_line"]


def header_section(doc, title, game_id, run_dirs, manifests, per_run, roles=None) -> str:
    """The "Runs and settings" section: the bullet list of what was run and the table of runs
    (the report's title is the writer's); returns the one-line summary ('N games in k
    runs')."""
    roles = roles or {}
    doc.h(2, "Runs and settings")
    rows = []
    counts = []
    for i, (run, m) in enumerate(zip(run_dirs, manifests, strict=True)):
        r = per_run.filter(pl.col("run") == i)
        n = int(r["n"][0]) if len(r) else 0
        lim = int(r["limit"][0]) if len(r) else 0
        dead = int(r["deadlock"][0]) if len(r) and "deadlock" in r.columns else 0
        counts.append(n)
        games_txt = count(n)
        if m.get("n_games") is not None and int(m["n_games"]) != n:
            games_txt += f" (manifest: {int(m['n_games']):,})"
        opts = r["options"][0].split("\n") if len(r) else ["{}"]
        strategies = m.get("strategies") or []
        rows.append([
            str(i + 1),
            md_literal(os.path.basename(os.path.normpath(run))),
            r["players"][0] if len(r) else str(m.get("players", "?")),
            games_txt,
            count(lim) + (f" (and {count(dead)} deadlocks)" if dead else ""),
            ", ".join(strategies) or "?",
            str(m.get("seating", "?")),
            str(m.get("seed", "?")),
            "; ".join(options_text(o) for o in opts),
            "yes" if m.get("complete", True) else "**no**",
            roles.get(i, "main"),
        ])
    total = sum(counts)
    games_line = (
        f"{total:,}" if len(counts) == 1
        else " + ".join(f"{c:,}" for c in counts) + f" = {total:,} in total"
    )
    seeds = ", ".join(str(m.get("seed", "?")) for m in manifests)
    now = now_utc()
    doc.ul([
        f"**Game:** {title} (`{game_id}`)",
        f"**Games:** {games_line} ({len(run_dirs)} run{'s' if len(run_dirs) > 1 else ''})",
        f"**Run seed{'s' if len(manifests) > 1 else ''}:** {seeds}",
        "**Bot mix / seating:** "
        + one_or_each([f"{', '.join(m.get('strategies') or ['?'])} ({m.get('seating', '?')})"
                       for m in manifests]),
        "**Bots, in words:** " + one_or_each([mix_label(m) for m in manifests]),
        "**Rule options differing from defaults:** " + one_or_each([row[8] for row in rows]),
        "**Component data status:** " + one_or_each(
            [md_escape(m.get("data_status", "unknown")) for m in manifests]),
        "**Component data overrides:** " + overrides_line(manifests),
        "**boardsim version:** " + one_or_each(
            [md_escape(m.get("boardsim_version", "unknown")) for m in manifests]),
        f"**Date:** {now}",
        "**Seat numbering:** seats are numbered from 1 in this report (Seat 1 = the first "
        "seat, which is seat 0 in the data files). Intervals are 95% (Wilson for rates, "
        "Newcombe for differences of independent groups, clustered by game where several "
        "seats of one game enter one comparison: the component tables); n is shown in every "
        "table.",
    ])
    incomplete = [str(i + 1) for i, m in enumerate(manifests) if m.get("complete") is False]
    if incomplete:
        doc.p(f"**Warning:** run {', '.join(incomplete)} is marked incomplete in its manifest; "
              "its results cover only the games written so far.")
    from sim.runner import distinct_warning  # games are samples: fewer than half distinct

    few = [f"run {i + 1} ({m['distinct_games']:,} of {m['n_games']:,})"
           for i, m in enumerate(manifests) if distinct_warning(m)]
    if few:
        doc.p(f"**Warning:** fewer than half the games are distinct (distinct action sequences) "
              f"in {', '.join(few)}: the bots replay the same games, so those results rest on "
              "few different games and more games add little.")
    doc.table(Table(
        ["Run", "Folder", "Players", "Games", "Stopped at limit", "Bot mix", "Seating", "Seed",
         "Non-default options", "Complete", "Role"],
        rows, [True, False, True, True, True, False, False, True, False, False, False]))
    arms = [str(i + 1) for i, r in roles.items() if r.startswith("arm:")]
    if arms:
        doc.p(f"Run{'s' if len(arms) > 1 else ''} {', '.join(arms)} "
              f"{'have' if len(arms) > 1 else 'has'} other settings (rule options, bots or "
              "seating) than the first run of the same player count: "
              f"{'they are' if len(arms) > 1 else 'it is'} shown side by side in the verdict "
              "and never pooled into the generic tables.")
    if any(r != "main" for r in roles.values()):
        doc.p("The generic sections below (seat and strategy win rates, balance, lengths, "
              "component impact) use the runs whose role is **main**; the other runs serve "
              "the game-specific studies further down.")
    by_players: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        if row[10] == "main":
            by_players.setdefault(row[2], []).append(i)
    for p, idx in by_players.items():
        if len(idx) > 1:
            same = len({(rows[i][5], rows[i][6], rows[i][8]) for i in idx}) == 1
            names = ", ".join(str(i + 1) for i in idx[:-1]) + f" and {idx[-1] + 1}"
            doc.p(f"Runs {names} have {p} players: their games are pooled in the tables below"
                  + ("." if same else ", although their bot mix, seating or options differ; "
                     "read pooled rates with care."))
    return f"{total:,} games in {len(run_dirs)} run{'s' if len(run_dirs) > 1 else ''}"


def overrides_line(manifests: list[dict]) -> str:
    """The header's overrides line (``write_report`` has checked that every run has the same
    overrides): ``component data as printed`` or ``name=value, ...``, naming the runs."""
    ov = overrides_of(manifests[0]) if manifests else {}
    text = overrides_text(ov) if not ov else md_literal(overrides_text(ov))
    k = len(manifests)
    return text if k == 1 else text + (" (both runs)" if k == 2 else f" (all {k} runs)")
