"""The cross-game index: ``reports/index.html`` and ``reports/README.md``.

``write_index(reports_dir)`` reads every ``<reports_dir>/<folder>/summary.json`` that
``analysis.report.write_report`` wrote and writes two files next to those folders, each to a
temporary name first and then renamed:

* ``index.html``: self-contained (inline style, no scripts or external files), one table row
  per report linking its ``report.html``, with the headline numbers (games played, players, the
  first seat's win rate per player count with its 95% Wilson interval, data status,
  overrides, bot mix, seeds), then per report its verdict line, its one-screen chart
  (embedded) and its game-specific answer lines;
* ``README.md``: the same in Markdown, linking each ``report.md``.

Folders without a readable ``summary.json`` (``_runs``, ``_bench``, older reports) are skipped;
an unreadable one is listed as such. ``boardsim run`` calls ``write_index("reports")`` at the
end.
"""

from __future__ import annotations

import html
import json
import os
import re
from urllib.parse import quote

from analysis.doc import (
    CSS,
    ci,
    inline_html,
    md_escape,
    md_table,
    now_utc,
    pct,
    write_atomic,
)
from analysis.report import overrides_text

__all__ = ["write_index", "load_summaries", "first_seat_text"]

INTRO = (
    "`make run` (or `boardsim run`) writes one folder per game here: `<game>/report.md`, a "
    "self-contained `<game>/report.html` with its charts, and `<game>/summary.json` (the "
    "headline numbers below). Raw results are kept under `_runs/` (Parquet, one folder per "
    "run, resumable). Everything here is generated, so nothing but `.gitkeep` is versioned; "
    "this index is rewritten at the end of every `boardsim run`."
)


def load_summaries(reports_dir: str) -> tuple[list[tuple[str, dict]], list[str]]:
    """``([(folder, summary), ...] sorted by title then folder, [unreadable folders])``."""
    found, bad = [], []
    if not os.path.isdir(reports_dir):
        return found, bad
    for name in sorted(os.listdir(reports_dir)):
        path = os.path.join(reports_dir, name, "summary.json")
        if not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            if not isinstance(data, dict):
                raise ValueError("not an object")
        except (OSError, ValueError):
            bad.append(name)
            continue
        found.append((name, data))
    found.sort(key=lambda x: (str(x[1].get("title") or x[0]).lower(), x[0]))
    return found, bad


def first_seat_text(row: dict) -> str:
    """``{"players": 2, "win_rate": 0.65, "lo": .., "hi": .., "parity": .5, "n": 100}`` ->
    ``'2p: 65.0% [55.3, 73.6] vs 50% (n = 100)'``."""
    par = row.get("parity") or 1.0 / int(row["players"])
    text = (f"{row['players']}p: {pct(row.get('win_rate'))} {ci(row.get('lo'), row.get('hi'))}"
            f" vs {f'{par * 100:.1f}'.rstrip('0').rstrip('.')}% (n = {int(row.get('n', 0)):,})")
    need = row.get("games_for_1_point")
    if need is not None and int(row.get("n", 0)) < need:
        text += " ⚠"
    return text


def _row(folder: str, s: dict) -> dict[str, str]:
    players = s.get("players") or []
    return {
        "title": str(s.get("title") or s.get("game") or folder),
        "game": str(s.get("game", "?")),
        "folder": folder,
        "games": f"{int(s.get('games_played', 0)):,}",
        "players": ", ".join(str(p) for p in players) or "?",
        "first": [first_seat_text(r) for r in s.get("first_seat") or []],
        "data": str(s.get("data_status", "unknown")),
        "overrides": overrides_text(s.get("overrides") or {}),
        "mix": str(s.get("bot_mix", "?")),
        "seeds": ", ".join(str(x) for x in s.get("seeds") or []) or "?",
        "generated": str(s.get("generated", "?")),
    }


_HEADERS = ["Game", "Games played", "Players", "First seat wins (95% CI) vs parity",
            "Component data", "Overrides", "Bot mix (seating)", "Seeds"]
_LEGEND = ("First seat: the win rate of the seat that moves first, per player count, in "
           "finished games of the report's main runs; ⚠ = fewer games than needed to resolve "
           "1 percentage point (see each report's Sample size section).")


ROBUST_HEADER = "Robustness (first seat)"
ROBUST_LEGEND = (" Robustness: whether the first seat's finding holds under stronger play, "
                 "other bot mixes and the plausible range of unconfirmed data (each report's "
                 "robustness section, docs/robustness.md).")


def _robust(items: list[tuple[str, dict]]) -> bool:
    """Whether any report has a robustness study (then the index shows the column)."""
    return any(s.get("robustness") not in (None, "", "not studied") for _, s in items)


def _verdict(s: dict) -> str:
    return str(s.get("verdict") or "")


def _chart_data(reports_dir: str | None, folder: str, s: dict) -> str | None:
    """The report's one-screen chart as a base64 data URI (None when absent)."""
    import base64

    chart = s.get("chart")
    if not reports_dir or not chart or "/" in str(chart) or "\\" in str(chart):
        return None
    path = os.path.join(reports_dir, folder, str(chart))
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        return "data:image/png;base64," + base64.b64encode(f.read()).decode("ascii")


def render_markdown(items: list[tuple[str, dict]], bad: list[str]) -> str:
    """``README.md``: the index table (links to each report.md) and each report's
    answers."""
    out = ["# reports/", "", INTRO, ""]
    if not items:
        out += ["No reports yet: run `make run` or `boardsim run`.", ""]
    else:
        rows = []
        for folder, s in items:
            r = _row(folder, s)
            link = (f"[{md_escape(r['title'])}]"
                    f"({quote(folder)}/{quote(str(s.get('report_md', 'report.md')))})")
            gid = r["game"]
            gid = f"`{gid}`" if re.fullmatch(r"[a-z0-9-]+", gid) else md_escape(gid)
            rows.append([link + f" ({gid})", r["games"], md_escape(r["players"]),
                         "; ".join(r["first"]) or "n/a", md_escape(r["data"]),
                         md_escape(r["overrides"]), md_escape(r["mix"]), md_escape(r["seeds"])])
        heads, legend = list(_HEADERS), _LEGEND
        if _robust(items):  # the robustness column after the first seat's
            heads.insert(4, ROBUST_HEADER)
            legend += ROBUST_LEGEND
            for row, (_, s) in zip(rows, items):
                row.insert(4, md_escape(str(s.get("robustness") or "not studied")))
        out += ["## Index", "", legend, "",
                md_table(heads, rows, [False, True] + [False] * (len(heads) - 2)), ""]
        for folder, s in items:
            answers = [str(a) for a in (s.get("answers") or [])]
            r = _row(folder, s)
            out += [f"### {md_escape(r['title'])} ({md_escape(folder)}/)", ""]
            if _verdict(s):
                out += [f"**Verdict:** {md_escape(_verdict(s))}", ""]
            if s.get("chart") and "/" not in str(s["chart"]):
                out += [f"![{md_escape(r['title'])}: one-screen chart]"
                        f"({quote(folder)}/{quote(str(s['chart']))})", ""]
            out += [f"Report written {md_escape(r['generated'])}."]
            if answers:
                out += [""] + [f"- {a}" for a in answers]
            else:
                out += ["", "No game-specific answers in this report."]
            out.append("")
    if bad:
        out += ["Unreadable summaries (skipped): " + ", ".join(f"`{b}/summary.json`"
                                                               for b in bad), ""]
    out.append(f"Index written {now_utc()}.")
    return "\n".join(out) + "\n"


def render_html(items: list[tuple[str, dict]], bad: list[str],
                reports_dir: str | None = None) -> str:
    """``index.html``: the same as ``render_markdown``, self-contained (each report's
    one-screen chart, read from ``reports_dir``, embedded as a data URI)."""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>boardsim reports</title><style>{CSS}</style></head><body>",
             "<h1>boardsim reports</h1>", f"<p>{inline_html(INTRO)}</p>"]
    if not items:
        parts.append("<p>No reports yet: run <code>make run</code> or "
                     "<code>boardsim run</code>.</p>")
    else:
        robust = _robust(items)
        parts.append(f"<p>{inline_html(_LEGEND + (ROBUST_LEGEND if robust else ''))}</p>")
        keep = [0, 1, 2, 3, 6, 7]  # component data and overrides: under each game's heading
        names = [_HEADERS[i] for i in keep]
        if robust:
            names.insert(4, ROBUST_HEADER)
        head = "".join(f"<th>{html.escape(h)}</th>" for h in names)
        body = []
        for folder, s in items:
            r = _row(folder, s)
            href = html.escape(f"{quote(folder)}/{s.get('report_html', 'report.html')}")
            cells = [
                f'<td><a href="{href}">{html.escape(r["title"])}</a> '
                f'(<code>{html.escape(r["game"])}</code>)</td>',
                f'<td class="r">{r["games"]}</td>',
                f"<td>{html.escape(r['players'])}</td>",
                '<td class="r">' + ("<br>".join(html.escape(x) for x in r["first"]) or "n/a")
                + "</td>",
                f"<td>{html.escape(r['mix'])}</td>",
                f"<td>{html.escape(r['seeds'])}</td>",
            ]
            if robust:
                cells.insert(4, f"<td>{html.escape(str(s.get('robustness') or 'not studied'))}"
                             "</td>")
            body.append("<tr>" + "".join(cells) + "</tr>")
        parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}"
                     "</tbody></table>")
        for folder, s in items:
            r = _row(folder, s)
            parts.append(f"<h2>{html.escape(r['title'])} (<code>{html.escape(folder)}/</code>)"
                         "</h2>")
            if _verdict(s):
                parts.append(f"<p><strong>Verdict:</strong> {html.escape(_verdict(s))}</p>")
            data = _chart_data(reports_dir, folder, s)
            if data:
                parts.append(f'<img alt="{html.escape(r["title"])}: one-screen chart" '
                             f'src="{data}" style="max-height:260px">')
            parts.append(f"<p>Component data: {html.escape(r['data'])}; overrides: "
                         f"{html.escape(r['overrides'])}. Report written "
                         f"{html.escape(r['generated'])}.</p>")
            answers = [str(a) for a in (s.get("answers") or [])]
            if answers:
                parts.append("<ul>" + "".join(f"<li>{inline_html(a)}</li>" for a in answers)
                             + "</ul>")
            else:
                parts.append("<p>No game-specific answers in this report.</p>")
    if bad:
        parts.append("<p>Unreadable summaries (skipped): "
                     + ", ".join(f"<code>{html.escape(b)}/summary.json</code>" for b in bad)
                     + "</p>")
    parts.append(f"<p>Index written {now_utc()}.</p></body></html>")
    return "\n".join(parts) + "\n"


def write_index(reports_dir: str = "reports") -> dict[str, str]:
    """Write ``index.html`` and ``README.md`` into ``reports_dir`` from every
    ``<reports_dir>/*/summary.json``; return their paths (``html``, ``markdown``) and
    ``reports`` (the folders indexed, comma-joined)."""
    os.makedirs(reports_dir, exist_ok=True)
    items, bad = load_summaries(reports_dir)
    html_path = write_atomic(os.path.join(reports_dir, "index.html"),
                             render_html(items, bad, reports_dir))
    md_path = write_atomic(os.path.join(reports_dir, "README.md"), render_markdown(items, bad))
    return {"html": html_path, "markdown": md_path,
            "reports": ",".join(folder for folder, _ in items)}
