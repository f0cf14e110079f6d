"""The read side of the tier study (``boardsim tiers``, ``analysis.lab.tiers``): the tiers and
verdicts, a study's ``tiers.json``, its headline, findings table and Markdown, the command that
plays it again, and which study belongs to a results run. Reads files; plays no game."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from analysis.doc import md_table, signed_ci
from analysis.results import RUN_KEYS, run_fields, study_of_run  # noqa: F401 (re-exported)
from sim.core.errors import UserError

TIERS = ("random", "scripted", "search")
"""The tiers, weakest first."""


VERDICTS = ("holds", "holds, larger", "holds, smaller", "flips", "weakens", "undecided",
            "appears", "none")
"""A finding's verdict under search play (``analysis.lab.tiers.classify``)."""

HOLD_FACTOR = 2.0
"""The magnitude rule: a finding "holds" only when the search tier's estimate is within this
factor of the scripted tier's (1/2x to 2x); beyond it, "holds, larger" or "holds, smaller"
(the sign holds, the size does not)."""

FDR = 0.05
"""The Benjamini-Hochberg level over a study's findings (each tier apart): a finding counts as
shown in a tier only when its interval excludes 0 and its q-value is below this."""

VERDICT_TEXT = ("Verdict (Benjamini-Hochberg over the study's findings, each tier apart: a "
                "tier shows a finding when its interval excludes 0 and its q < 0.05): *holds* "
                "(shown in both tiers, same sign, the search estimate within "
                f"{HOLD_FACTOR:g}x of the scripted one), *holds, larger* / *holds, smaller* "
                f"(same sign, the search estimate beyond {HOLD_FACTOR:g}x / below "
                f"1/{HOLD_FACTOR:g} of the scripted one), *flips* (opposite signs), *weakens* "
                "(search not shown and the paired difference moves towards 0), *undecided* "
                "(search not shown: too few search games), *appears* (only under search), "
                "*none* (neither tier).")
"""How every tier study reads its verdicts (tiers.md and the report's section)."""


MIN_HOLDERS = 30
"""A component is a finding candidate only with at least this many holder seat-games (and as
many non-holder seat-games) in the scripted tier."""


MIN_DECIDE = 50
"""A verdict other than ``undecided``/``none`` needs at least this many finished search-tier
games: below it the clustered intervals (few clusters) are not trusted."""


TIERS_DIR = "tiers"
"""The folder inside a results run where ``boardsim run`` writes that run's tier study."""


def _nan(x):
    return math.nan if x is None else x


def tup(d: dict[str, Any]) -> tuple[float, float, float]:
    """``(est, lo, hi)`` of a finding's cell, None as NaN (for ``classify``)."""
    return (_nan(d["est"]), _nan(d["lo"]), _nan(d["hi"]))


def command_for(data: dict[str, Any], n_search: int | None = None) -> str:
    """The ``boardsim tiers`` command that plays this study's setup with ``n_search`` search
    games (default: the study's) at the search bot's default budget."""
    parts = [f"boardsim tiers {data['game']}", f"-n {n_search or data['n_search']}",
             f"--players {data['players']}", f"--seed {data['seed']}"]
    if data.get("strategies"):
        parts.append(f"--strategies {','.join(data['strategies'])} --seating "
                     f"{data['seating']}")
    import sim

    defaults = sim.get_game(data["game"]).options.defaults()
    for k, v in (data.get("options") or {}).items():
        if k not in defaults or defaults[k] != v:  # the rule options that differ only
            parts.append(f"-o {k}={v}")
    return " ".join(parts)


def search_sample(data: dict[str, Any]) -> str:
    """The search tier's size: ``n=F finished of P games played`` (``F`` counts: a game stopped
    at the length limit or in a deadlock is neither a win, a loss nor a length), and below the
    target ``n_search`` the shortfall; a study before the top-up (no ``search_played``):
    ``n=N games``."""
    if "search_played" not in data:
        return f"n={data['n_search']:,} games"
    f, m = data["search_finished"], data["search_played"]
    short = (f", short of the {data['n_search']:,} asked: capped at {data.get('search_cap', m):,}"
             " games" if f < data["n_search"] else "")
    return f"n={f:,} finished of {m:,} games played{short}"


def search_range(data: dict[str, Any]) -> str:
    """``games 0..P-1`` of the search tier (the games played)."""
    return f"games 0..{data.get('search_played', data['n_search']) - 1:,}"


def headline(data: dict[str, Any]) -> str:
    """One sentence: how many findings hold, flip, weaken, stay undecided or appear under
    search play, with the search tier's size and budget; the first-player finding first."""
    fs = data["findings"]
    counts = {v: sum(f["verdict"] == v for f in fs) for v in VERDICTS}
    sized = counts["holds, larger"] + counts["holds, smaller"]
    found = sum(counts[v] for v in ("holds", "flips", "weakens", "undecided")) + sized
    fp = fs[0]
    who = (f"search tier: `{data.get('search_bot', 'mcts')}` in every seat, "
           f"{data['budget']:,} playouts per decision, "
           f"{search_sample(data)}; scripted tier n={data['n_scripted']:,}")
    few = fp["tiers"]["search"]["n"] < MIN_DECIDE
    n_found = data.get("search_finished", data["n_search"])  # finished search games
    fv = {"none": ("no scripted finding, search play undecided at "
                   f"n={fp['tiers']['search']['n']:,}" if few else "in neither tier"),
          "undecided": f"undecided at n={n_found:,}"}.get(fp["verdict"], fp["verdict"])
    first = (f"first-player advantage: {fv} (scripted {_fmt(fp['tiers']['scripted'])}, "
             f"search {_fmt(fp['tiers']['search'])} points)")
    if found == 0:
        lead = "No scripted-tier finding to check (every interval includes 0)"
    elif counts["undecided"] == found:
        lead = (f"Undecided at n={n_found:,} search games: none of the "
                f"{found} scripted finding(s) can be confirmed or refuted")
    else:
        lead = (f"Of {found} scripted findings under search play: {counts['holds']} "
                f"{'holds' if counts['holds'] == 1 else 'hold'}"
                + (f" (and {sized} with a size beyond {HOLD_FACTOR:g}x)" if sized else "")
                + f", {counts['flips']} "
                f"{'flips' if counts['flips'] == 1 else 'flip'}, {counts['weakens']} "
                f"{'weakens' if counts['weakens'] == 1 else 'weaken'}, {counts['undecided']} "
                "undecided")
    extra = (f"; {counts['appears']} new under search play only" if counts["appears"] else "")
    return f"{lead}{extra}; {first} ({who})."


def _fmt(d: dict[str, Any]) -> str:
    if d.get("est") is None:
        return "n/a"
    if d.get("lo") is None:
        return f"{d['est']:+.1f}"
    return signed_ci(d["est"], d["lo"], d["hi"])


def findings_table(data: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the findings table (markdown and the report): finding, each tier's
    estimate with its 95% interval and n, the paired difference and the verdict."""
    head = ["finding", "random", "scripted", "search", "search - scripted (paired)",
            "verdict"]
    rows = []
    for f in data["findings"]:
        t = f["tiers"]
        cells = [f["name"]]
        for tier in TIERS:
            d = t.get(tier, {})
            extra = f", {d['holders']:,} holder seat-games" if "holders" in d else ""
            if "holders" in d and d.get("lo") is None and d.get("est") is not None:
                extra += f"; no interval below {MIN_HOLDERS}"
            cells.append(f"{_fmt(d)} (n={d.get('n', 0):,}{extra})")
        dd = f.get("diff") or {}
        cells.append(f"{_fmt(dd)} (n={dd.get('n', 0):,})" if dd else "n/a")
        v = f["verdict"]
        cells.append(f"**{v}**" + (f" at n={t['search']['n']:,}" if v == "undecided" else ""))
        rows.append(cells)
    return head, rows


def markdown(data: dict[str, Any]) -> str:
    """``tiers.md``: setup, headline, the findings table and how to read it."""
    sec = data.get("seconds", {})
    lines = [f"# Findings across skill tiers: {data['title']}", "",
             f"- {data['players']} players, seed {data['seed']}, rule options "
             f"{data['options'] or 'defaults'}; every tier plays the same games (common random "
             "numbers: game i has the same chance seed in each tier).",
             f"- Tiers: **random** (`random` in every seat, {data['n_random']:,} games, "
             f"{sec.get('random', 0):.1f} s); **scripted** ({', '.join(data['strategies'])}, "
             f"{data['seating']} seating, {data['n_scripted']:,} games, "
             + ("the results run's own games, read, not replayed); "
                if data.get("scripted_source", "played") != "played"
                else f"{sec.get('scripted', 0):.1f} s); ") + f"**search** (`{data.get('search_bot', 'mcts')}` in every seat, "
             f"{data['budget']:,} playouts per decision (default {data['default_budget']:,}), "
             f"playouts by `{data['playout']}`, {search_range(data)}: "
             f"{search_sample(data)}, {sec.get('search', 0):.1f} s). "
             f"{data.get('strength', '')}",
             "- Values in points (win rate x 100) with 95% intervals clustered by game; "
             "first-player rows: the win rate of a turn position minus parity; component "
             "rows: holders' win rate minus the others' (an association, not an effect; the "
             f"three strongest and weakest of the scripted tier with >= {MIN_HOLDERS} holder "
             "seat-games). Finished games only (no length-limit or deadlock games).",
             "- " + VERDICT_TEXT, "",
             f"**Headline:** {data['headline']}", ""]
    head, rows = findings_table(data)
    lines += [md_table(head, rows), ""]
    if any(f["verdict"] == "undecided" for f in data["findings"]):
        lines += [f"To decide more findings, play more search games: `{command_for(data, 2000)}`"
                  " (2,000 search games; see docs/bots.md, \"Skill tiers\", for the time).", ""]
    return "\n".join(lines)


def load_tiers(folder: str | os.PathLike) -> dict[str, Any]:
    """The ``tiers.json`` of a tier-study folder. Raises UserError when it is absent or
    unreadable."""
    path = Path(folder) / "tiers.json"
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        raise UserError(f"{folder}: no readable tiers.json (run `boardsim tiers GAME --out "
                        f"{folder}` first)") from None
    if not isinstance(data, dict) or "findings" not in data:
        raise UserError(f"{path}: not a tier study")
    return data


def tiers_for_run(run_dir: str | os.PathLike, manifest: dict[str, Any]) -> Path | None:
    """The tier-study folder of results run ``run_dir`` (``<run_dir>/tiers``), or None when
    there is none or its ``tiers.json`` records another run (game, players, bots, seating,
    seed, options, overrides, engine version): a report never shows another run's study."""
    folder = Path(run_dir) / TIERS_DIR
    return folder if study_of_run(folder, "tiers.json", manifest) is not None else None
