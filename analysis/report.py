"""The balance report: Markdown and self-contained HTML built from the same blocks.

``write_report(run_dirs, out_dir)`` reads one or more run folders (see ``analysis.queries``),
writes ``report.md`` with its PNG charts next to it and ``report.html`` (the same content, charts
embedded as base64 data URIs), and returns the paths plus a short plain-text summary.
Runs with the same player count are pooled in every table (the report says so).
"""

from __future__ import annotations

import base64
import html
import json
import math
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

import numpy as np
import polars as pl

from analysis import charts
from analysis import queries as q
from analysis import stats as st

__all__ = ["write_report", "load_manifests", "overrides_of", "overrides_text"]

CAUTION = (
    "This is an association, not causation: seats that play a card differ in other ways "
    "(they held it, the game lasted longer, they were leading or trailing), so the difference "
    "does not say what the card would do if given to a random seat."
)


# ---------------------------------------------------------------- document model ---------
@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    right: list[bool] = field(default_factory=list)  # right-align column i


@dataclass
class Doc:
    """Blocks: ("h", level, text) | ("p", text) | ("ul", [text]) | ("table", Table) |
    ("img", file name in out_dir, alt text). Text may use **bold** and `code`."""

    blocks: list[tuple] = field(default_factory=list)

    def h(self, level: int, text: str) -> None:
        self.blocks.append(("h", level, text))

    def p(self, text: str) -> None:
        self.blocks.append(("p", text))

    def ul(self, items: list[str]) -> None:
        if items:
            self.blocks.append(("ul", list(items)))

    def table(self, table: Table) -> None:
        self.blocks.append(("table", table))

    def img(self, name: str, alt: str) -> None:
        self.blocks.append(("img", name, alt))


@dataclass
class ReportContext:
    """What a game's report extension (analysis/games/<package>.py) works with."""

    doc: Doc
    games: pl.LazyFrame
    seats: pl.LazyFrame
    run_dirs: list[str]
    manifests: list[dict]
    roles: dict[int, str]
    out_dir: str
    charts: dict[str, str]
    headline_block: list[str]
    summary: list[str]

    def add_chart(self, name: str, path: str) -> None:
        self.charts[name] = path

    def headline(self, text: str, summary_line: str | None = None) -> None:
        """A bullet under "Headline answers" (and a line of the terminal summary)."""
        self.headline_block.append(text)
        if summary_line:
            self.summary.append(summary_line)

    def runs_with_role(self, role: str) -> list[int]:
        return [i for i in range(len(self.run_dirs)) if self.roles.get(i, "main") == role]


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(doc: Doc) -> str:
    out: list[str] = []
    for b in doc.blocks:
        kind = b[0]
        if kind == "h":
            out.append("#" * b[1] + " " + b[2])
        elif kind == "p":
            out.append(b[1])
        elif kind == "ul":
            out.append("\n".join(f"- {item}" for item in b[1]))
        elif kind == "table":
            t: Table = b[1]
            right = t.right or [False] * len(t.headers)
            lines = ["| " + " | ".join(_md_cell(h) for h in t.headers) + " |",
                     "|" + "|".join("---:" if r else "---" for r in right) + "|"]
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in t.rows]
            out.append("\n".join(lines))
        elif kind == "img":
            out.append(f"![{b[2]}]({b[1]})")
        out.append("")
    return "\n".join(out)


def _inline_html(text: str) -> str:
    s = html.escape(str(text), quote=False)
    s = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", s)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", s)


_CSS = """
body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;max-width:1100px;
margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{border-bottom:2px solid #444}h2{border-bottom:1px solid #bbb;margin-top:1.8em}
table{border-collapse:collapse;margin:.8em 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .6em}th{background:#f0f0f0}
td.r{text-align:right;font-variant-numeric:tabular-nums}
img{max-width:100%;margin:.6em 0}code{background:#f4f4f4;padding:0 .2em}
"""


def render_html(doc: Doc, out_dir: str, title: str) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
    ]
    for b in doc.blocks:
        kind = b[0]
        if kind == "h":
            parts.append(f"<h{b[1]}>{_inline_html(b[2])}</h{b[1]}>")
        elif kind == "p":
            parts.append(f"<p>{_inline_html(b[1])}</p>")
        elif kind == "ul":
            parts.append("<ul>" + "".join(f"<li>{_inline_html(i)}</li>" for i in b[1]) + "</ul>")
        elif kind == "table":
            t: Table = b[1]
            right = t.right or [False] * len(t.headers)
            head = "".join(f"<th>{_inline_html(h)}</th>" for h in t.headers)
            body = "".join(
                "<tr>" + "".join(
                    f'<td class="r">{_inline_html(c)}</td>' if r else f"<td>{_inline_html(c)}</td>"
                    for c, r in zip(row, right, strict=True)
                ) + "</tr>"
                for row in t.rows
            )
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        elif kind == "img":
            with open(os.path.join(out_dir, b[1]), "rb") as f:
                data = base64.b64encode(f.read()).decode("ascii")
            parts.append(f'<img alt="{html.escape(b[2])}" src="data:image/png;base64,{data}">')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _write_atomic(path: str, text: str) -> str:
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return path


# ---------------------------------------------------------------- formatting ---------------
def pct(x, digits: int = 1) -> str:
    """0.3125 -> '31.2%' ('n/a' for null/NaN)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x * 100:.{digits}f}%"


def _ci(lo, hi, digits: int = 1) -> str:
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return "[n/a]"
    return f"[{lo * 100:.{digits}f}, {hi * 100:.{digits}f}]"


def _parity(p: int) -> str:
    return f"{100 / p:.1f}".rstrip("0").rstrip(".") + "%"


def _pts(x) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{x * 100:+.1f}"


def _num(x, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:,.{digits}f}"


def _count(x) -> str:
    return f"{int(x):,}"


def _wins(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.2f}"


def _pvalue(p) -> str:
    if p is None or math.isnan(p):
        return "n/a"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


# ---------------------------------------------------------------- run metadata -------------
def load_manifests(run_dirs: list[str]) -> list[dict]:
    """The ``manifest.json`` of each run folder (``{}`` when missing)."""
    out = []
    for run in run_dirs:
        path = os.path.join(run, "manifest.json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                out.append(json.load(f))
        else:
            out.append({})
    return out


def _options_text(raw: str) -> str:
    try:
        opts = json.loads(raw) if raw else {}
    except json.JSONDecodeError:
        return raw
    if not opts:
        return "defaults"
    return ", ".join(f"{k}={json.dumps(v) if not isinstance(v, str) else v}"
                     for k, v in sorted(opts.items()))


def overrides_of(manifest: dict) -> dict:
    """The component-data overrides a run's manifest records (``"overrides"``: a flat dict
    such as ``{"buildings.church.vp": 7}``); absent or ``{}`` means the data as printed."""
    ov = manifest.get("overrides") or {}
    if not isinstance(ov, dict):
        from sim.core.errors import UserError

        raise UserError(f"manifest overrides must be a dict of name: value, got {ov!r}")
    return ov


def overrides_text(ov: dict) -> str:
    """``{"b.church.vp": 7}`` -> ``"b.church.vp=7"``; ``{}`` -> ``"component data as printed"``."""
    if not ov:
        return "component data as printed"
    return ", ".join(f"{k}={v if isinstance(v, str) else json.dumps(v)}"
                     for k, v in sorted(ov.items()))


def _check_overrides(run_dirs: list[str], manifests: list[dict]) -> dict:
    """The overrides shared by every run; UserError (a ValueError) when they differ, so that
    results of different component data never mix in one report."""
    ovs = [overrides_of(m) for m in manifests]
    if len({json.dumps(o, sort_keys=True) for o in ovs}) > 1:
        from sim.core.errors import UserError

        each = "; ".join(f"{os.path.basename(os.path.normpath(r))}: {overrides_text(o)}"
                         for r, o in zip(run_dirs, ovs, strict=True))
        raise UserError(f"runs have different component-data overrides ({each}); "
                        "report each set of overrides separately")
    return ovs[0] if ovs else {}


def _game_title(game_id: str, manifests: list[dict]) -> str:
    for m in manifests:
        if m.get("title"):
            return str(m["title"])
    try:  # optional: the registry knows the display title
        from sim.registry import get_game

        return get_game(game_id).title or game_id
    except Exception:
        return game_id


def _one_or_each(values: list[str]) -> str:
    uniq = list(dict.fromkeys(values))
    if len(uniq) == 1:
        return uniq[0]
    return "; ".join(f"run {i + 1}: {v}" for i, v in enumerate(values))


# ---------------------------------------------------------------- the report ---------------
DEFAULT_IMPACT_GROUPS = [
    {"prefix": "played_", "title": "Component impact", "noun": "component",
     "verb": "played", "include": None},
]


def write_report(
    run_dirs: list[str], out_dir: str, game_title: str | None = None,
    impact_groups: list[dict] | None = None, roles: list[str] | None = None,
) -> dict[str, str]:
    """Analyse ``run_dirs`` (run folders of one game) and write the report into ``out_dir``.

    Writes ``report.md``, ``report.html`` (self-contained) and the PNG charts
    ``seat_win_rates.png``, ``game_length.png``, ``matchups.png``, ``component_impact.png``
    (and ``turn_order_win_rates.png`` when the first seat varied between games), each to a
    temporary name first and then renamed. Returns a dict: ``markdown``, ``html`` and one key per
    chart (paths, str), plus ``summary`` (a few lines of plain text for the terminal).
    Also writes ``summary.json`` (headline numbers for the cross-game index,
    ``analysis.index``): game id and title, games played, players covered, the first seat's win
    rate per player count with its Wilson interval, data status, component-data overrides, bot
    mix, seeds, the generic headline lines and the game-specific answer lines.
    Raises ValueError when the runs are of different games, ``sim.core.errors.UserError`` (a
    ValueError with a one-line message) when their component-data overrides (manifest
    ``"overrides"``) differ, FileNotFoundError when a folder has no data.

    ``impact_groups``: the game's per-seat detail groups to analyse, each a dict with
    ``prefix`` (column prefix), ``title`` (section title), ``noun`` (e.g. "special card"),
    ``verb`` (e.g. "played"), ``include`` (component names to keep, or None for all); the first
    group gives the headline. Default: every ``played_*`` column.
    ``roles``: one role per run (from the game's ``default_plan``); the generic sections use the
    "main" runs only (all runs when ``roles`` is None); the game's report extension
    (``analysis.games``) sees every run.
    """
    run_dirs = [os.fspath(r) for r in run_dirs]
    groups = impact_groups or DEFAULT_IMPACT_GROUPS
    if not run_dirs:
        raise ValueError("write_report needs at least one run folder")
    manifests = load_manifests(run_dirs)
    game_ids = sorted({str(m.get("game", "")) for m in manifests} - {""})
    if len(game_ids) > 1:
        raise ValueError(f"runs are of different games: {', '.join(game_ids)}")
    game_id = game_ids[0] if game_ids else "unknown game"
    overrides = _check_overrides(run_dirs, manifests)
    title = game_title or _game_title(game_id, manifests)
    os.makedirs(out_dir, exist_ok=True)

    all_games, all_seats = q.scan_runs(run_dirs)
    role_of = {i: (roles[i] if roles else "main") for i in range(len(run_dirs))}
    main_idx = [i for i, r in role_of.items() if r == "main"] or list(role_of)
    games = all_games.filter(pl.col("run").is_in(main_idx))
    seats = all_seats.filter(pl.col("run").is_in(main_idx))
    per_run = q._collect(
        all_games.group_by("run").agg(
            n=pl.len(),
            limit=(pl.col("end_reason") == q.LIMIT).sum(),
            players=pl.col("players").unique().sort().cast(pl.Utf8).str.join(","),
            options=pl.col("options").unique().sort().str.join("\n"),
        )
    ).sort("run")
    mix = q.game_mix(games)
    seat_rates = q.seat_win_rates(seats)
    order_rates = q.turn_order_win_rates(games)
    strat = q.strategy_win_rates(seats)
    matchups = q.matchup_matrix(games)
    bal = q.balance(seats)
    comp = q.completion(games)
    scores = q.score_distribution(seats)
    lengths = q.length_distribution(games)
    lcounts = q.length_counts(games)
    impacts = []
    for grp in groups:
        imp = q.component_impact(seats, detail_prefix=grp["prefix"])
        if grp.get("include") is not None:
            imp = imp.filter(pl.col("component").is_in(list(grp["include"])))
        impacts.append(imp)
    impact = impacts[0]

    firsts = {
        int(p): sorted(int(f) for f in g["first_player"].unique())
        for (p,), g in mix.group_by("players")
    }
    varied = any(len(v) > 1 for v in firsts.values())

    paths = {
        "seat_win_rates": charts.seat_win_rate_chart(
            seat_rates, os.path.join(out_dir, "seat_win_rates.png")),
        "game_length": charts.length_histogram_chart(
            lcounts, os.path.join(out_dir, "game_length.png")),
        "matchups": charts.matchup_heatmap(matchups, os.path.join(out_dir, "matchups.png")),
    }
    for i, imp in enumerate(impacts):
        name = "component_impact" if i == 0 else f"component_impact_{i + 1}"
        paths[name] = charts.component_impact_chart(imp, os.path.join(out_dir, f"{name}.png"))
    if varied:
        paths["turn_order_win_rates"] = charts.seat_win_rate_chart(
            order_rates, os.path.join(out_dir, "turn_order_win_rates.png"),
            position_col="position")

    doc = Doc()
    info = _header(doc, title, game_id, run_dirs, manifests, per_run, role_of)
    ss = _sample_sizes(seat_rates, order_rates, firsts, strat, impact, scores, comp, groups[0])
    headlines = _headlines(doc, order_rates, firsts, strat, impact, lengths, comp, bal,
                           groups[0], ss)
    _seat_section(doc, seat_rates, order_rates, firsts, varied)
    _balance_section(doc, bal, comp)
    _strategy_section(doc, strat, matchups)
    _length_section(doc, scores, lengths)
    for i, (grp, imp) in enumerate(zip(groups, impacts)):
        name = "component_impact" if i == 0 else f"component_impact_{i + 1}"
        _component_section(doc, imp, grp, f"{name}.png")
    _sample_size_section(doc, ss, groups[0])
    from analysis import games as game_ext

    ext = game_ext.load(game_id)
    extra_summary: list[str] = []
    block: list[str] = []
    if ext is not None:
        ctx = ReportContext(doc, all_games, all_seats, run_dirs, manifests, role_of, out_dir,
                            paths, block, extra_summary)
        ext.extend_report(ctx)
        if block:
            # game-specific headlines go right after the generic ones
            at = next(i for i, b in enumerate(doc.blocks)
                      if b[0] == "h" and b[2] == "Seat win rates")
            doc.blocks[at:at] = [("p", "**Game-specific answers:**"), ("ul", block)]
    _method_section(doc)

    md_path = os.path.join(out_dir, "report.md")
    html_path = os.path.join(out_dir, "report.html")
    _write_atomic(md_path, render_markdown(doc))
    _write_atomic(html_path, render_html(doc, out_dir, f"Balance report: {title}"))
    summary_path = os.path.join(out_dir, "summary.json")
    _write_atomic(summary_path, json.dumps(_summary_json(
        game_id, title, run_dirs, manifests, role_of, main_idx, per_run, order_rates, firsts,
        ss, overrides, headlines, block), indent=2, allow_nan=False) + "\n")
    summary = "\n".join(
        [f"{title}: {info}", *headlines, *extra_summary,
         f"Report: {md_path} (and {os.path.basename(html_path)})"]
    )
    return {"markdown": md_path, "html": html_path, **paths, "summary_json": summary_path,
            "summary": summary}


def _clean(x):
    """JSON-safe number: NaN/None -> None, numpy scalars -> Python."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def _summary_json(game_id, title, run_dirs, manifests, role_of, main_idx, per_run,
                  order_rates, firsts, ss, overrides, headlines, answers) -> dict:
    """The report's headline numbers (``summary.json``), read by ``analysis.index``.

    Rates are proportions in [0, 1]; ``first_seat`` comes from the runs whose role is "main"
    (the generic sections); ``games_played`` and ``players`` cover every run."""
    runs = []
    for i, (run, m) in enumerate(zip(run_dirs, manifests, strict=True)):
        r = per_run.filter(pl.col("run") == i)
        runs.append({
            "folder": os.path.basename(os.path.normpath(run)),
            "role": role_of.get(i, "main"),
            "players": [int(x) for x in r["players"][0].split(",")] if len(r) else [],
            "games": int(r["n"][0]) if len(r) else 0,
            "strategies": list(m.get("strategies") or []),
            "seating": m.get("seating"),
            "seed": m.get("seed"),
        })
    first = []
    for r in order_rates.filter(pl.col("position") == 0).iter_rows(named=True):
        p = int(r["players"])
        need = ss["first"].get(p)
        first.append({
            "players": p,
            "who": _first_phrase(p, firsts),
            "n": int(r["n"]),
            "win_rate": _clean(r["win_rate"]),
            "lo": _clean(r["lo"]),
            "hi": _clean(r["hi"]),
            "parity": 1.0 / p,
            "games_for_1_point": _clean(need.games_need) if need else None,
        })
    main_mix = [f"{', '.join(manifests[i].get('strategies') or ['?'])} "
                f"({manifests[i].get('seating', '?')})" for i in main_idx]
    return {
        "game": game_id,
        "title": title,
        "generated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "games_played": sum(x["games"] for x in runs),
        "players": sorted({p for x in runs for p in x["players"]}),
        "first_seat": first,
        "data_status": "; ".join(dict.fromkeys(
            str(m.get("data_status", "unknown")) for m in manifests)),
        "overrides": overrides,
        "bot_mix": "; ".join(dict.fromkeys(main_mix)),
        "seeds": list(dict.fromkeys(m.get("seed") for m in manifests)),
        "boardsim_version": "; ".join(dict.fromkeys(
            str(m.get("boardsim_version", "unknown")) for m in manifests)),
        "runs": runs,
        "headlines": list(headlines),
        "answers": list(answers),
        "report_md": "report.md",
        "report_html": "report.html",
    }


def _header(doc, title, game_id, run_dirs, manifests, per_run, roles=None) -> str:
    roles = roles or {}
    doc.h(1, f"Balance report: {title}")
    rows = []
    counts = []
    for i, (run, m) in enumerate(zip(run_dirs, manifests, strict=True)):
        r = per_run.filter(pl.col("run") == i)
        n = int(r["n"][0]) if len(r) else 0
        lim = int(r["limit"][0]) if len(r) else 0
        counts.append(n)
        games_txt = _count(n)
        if m.get("n_games") is not None and int(m["n_games"]) != n:
            games_txt += f" (manifest: {int(m['n_games']):,})"
        opts = r["options"][0].split("\n") if len(r) else ["{}"]
        strategies = m.get("strategies") or []
        rows.append([
            str(i + 1),
            f"`{os.path.basename(os.path.normpath(run))}`",
            r["players"][0] if len(r) else str(m.get("players", "?")),
            games_txt,
            _count(lim),
            ", ".join(strategies) or "?",
            str(m.get("seating", "?")),
            str(m.get("seed", "?")),
            "; ".join(_options_text(o) for o in opts),
            "yes" if m.get("complete", True) else "**no**",
            roles.get(i, "main"),
        ])
    total = sum(counts)
    games_line = (
        f"{total:,}" if len(counts) == 1
        else " + ".join(f"{c:,}" for c in counts) + f" = {total:,} in total"
    )
    seeds = ", ".join(str(m.get("seed", "?")) for m in manifests)
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    doc.ul([
        f"**Game:** {title} (`{game_id}`)",
        f"**Games:** {games_line} ({len(run_dirs)} run{'s' if len(run_dirs) > 1 else ''})",
        f"**Run seed{'s' if len(manifests) > 1 else ''}:** {seeds}",
        "**Bot mix / seating:** "
        + _one_or_each([f"{', '.join(m.get('strategies') or ['?'])} ({m.get('seating', '?')})"
                        for m in manifests]),
        "**Rule options differing from defaults:** " + _one_or_each([row[8] for row in rows]),
        "**Component data status:** " + _one_or_each(
            [str(m.get("data_status", "unknown")) for m in manifests]),
        "**Component data overrides:** " + _overrides_line(manifests),
        "**boardsim version:** " + _one_or_each(
            [str(m.get("boardsim_version", "unknown")) for m in manifests]),
        f"**Date:** {now}",
        "**Seat numbering:** seats are numbered from 1 in this report (Seat 1 = the first "
        "seat, which is seat 0 in the data files). Intervals are 95% (Wilson for rates, "
        "Newcombe for differences); n is shown in every table.",
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


def _overrides_line(manifests: list[dict]) -> str:
    """The header's overrides line (``write_report`` has checked that every run has the same
    overrides): ``component data as printed`` or ``name=value, ...``, naming the runs."""
    ov = overrides_of(manifests[0]) if manifests else {}
    text = overrides_text(ov) if not ov else "`" + overrides_text(ov) + "`"
    k = len(manifests)
    return text if k == 1 else text + (" (both runs)" if k == 2 else f" (all {k} runs)")


def _first_phrase(p: int, firsts: dict[int, list[int]]) -> str:
    f = firsts.get(p, [0])
    if len(f) == 1:
        return f"Seat {f[0] + 1}"
    return "The first player"


def _headlines(doc, order_rates, firsts, strat, impact, lengths, comp, bal,
               grp: dict, ss: dict) -> list[str]:
    doc.h(2, "Headline answers")
    lines: list[str] = []
    doc.p("**First-player advantage** (win rate of the seat that moves first, 95% interval, "
          "games stopped at the limit excluded):")
    items = []
    for r in order_rates.filter(pl.col("position") == 0).iter_rows(named=True):
        p = int(r["players"])
        who = _first_phrase(p, firsts)
        if not r["n"]:
            items.append(f"No finished {p}-player games: every game stopped at the limit.")
            continue
        par = 1.0 / p
        if r["lo"] > par:
            verdict = (f"an advantage of {_pts(r['win_rate'] - par)} points "
                       f"({_pts(r['lo'] - par)} to {_pts(r['hi'] - par)}; the interval "
                       "excludes parity)")
        elif r["hi"] < par:
            verdict = (f"a disadvantage of {_pts(r['win_rate'] - par)} points "
                       f"({_pts(r['lo'] - par)} to {_pts(r['hi'] - par)}; the interval "
                       "excludes parity)")
        else:
            verdict = "consistent with parity: no first-player advantage detectable at this n"
        extra = "the first seat varied from game to game; " if who == "The first player" else ""
        text = (f"{who} wins {pct(r['win_rate'])} {_ci(r['lo'], r['hi'])} of {p}-player games "
                f"against a parity of {_parity(p)}")
        need = ss["first"].get(p)
        warn = _short(need) if need else ""
        if warn and r["lo"] <= par <= r["hi"]:
            warn = warn[:-1] + ", so an advantage or disadvantage smaller than that cannot be " \
                "ruled out."
        items.append(f"{text}: {verdict}; {extra}n = {r['n']:,} finished games.{warn}")
        lines.append(f"{text} (n = {r['n']:,})." + (" [too few games for ±1 point]"
                                                     if warn else ""))
    doc.ul(items)

    items = []
    for (p,), g in strat.group_by("players", maintain_order=True):
        g = g.filter(pl.col("n") > 0).sort("win_rate", descending=True)
        if len(g) < 2:
            if len(g) == 1:
                items.append(f"{p} players: every seat played `{g['strategy'][0]}` (mirror "
                             "matches), so no strategy comparison.")
            continue
        b, w = g.row(0, named=True), g.row(len(g) - 1, named=True)
        warn = ""
        if p in ss["pair"]:
            need, d = ss["pair"][p]
            warn = (_direction_warning(
                d["lo"], d["hi"],
                f"the difference `{b['strategy']}` minus `{w['strategy']}`, "
                f"{_pts(d['diff'])} {_ci(d['lo'], d['hi'])} points,", need)
                or _short(need))
        items.append(
            f"{p} players: `{b['strategy']}` wins {pct(b['win_rate'])} {_ci(b['lo'], b['hi'])} "
            f"of its seats (n = {b['n']:,}), `{w['strategy']}` the least, "
            f"{pct(w['win_rate'])} {_ci(w['lo'], w['hi'])} (n = {w['n']:,}); "
            f"parity {_parity(p)}.{warn}"
        )
        lines.append(f"Best strategy at {p} players: {b['strategy']} "
                     f"{pct(b['win_rate'])} {_ci(b['lo'], b['hi'])}."
                     + (" [too few games to tell best from worst]" if "Direction" in warn
                        else " [too few games for ±1 point]" if warn else ""))
    if items:
        doc.p("**Which strategy wins:**")
        doc.ul(items)

    items = []
    top = impact.filter(pl.col("diff").is_not_null())
    for (p,), g in top.group_by("players", maintain_order=True):
        r = g.row(0, named=True)
        sign = "higher" if r["diff"] >= 0 else "lower"
        excl = "the interval excludes 0" if r["lo"] > 0 or r["hi"] < 0 else \
            "the interval includes 0"
        text = (f"{p} players: seats that {grp['verb']} **{r['component']}** win "
                f"{pct(r['rate_with'])} vs {pct(r['rate_without'])} for seats that did not, "
                f"{_pts(abs(r['diff']))[1:]} points {sign} "
                f"(difference {_pts(r['diff'])} {_ci(r['lo'], r['hi'])}; {excl}; "
                f"n = {r['n_with']:,} vs {r['n_without']:,} seat-games).")
        need = ss["top"].get(p)
        warn = (_direction_warning(r["lo"], r["hi"], "the difference", need) or _short(need)) \
            if need else ""
        items.append(text + warn)
        lines.append(f"{grp['noun'].capitalize()} most associated with winning at {p} players: "
                     f"{r['component']} "
                     f"{_pts(r['diff'])} points {_ci(r['lo'], r['hi'])}."
                     + (" [direction not established]" if "Direction" in warn
                        else " [too few games for ±1 point]" if warn else ""))
    if items:
        doc.p(f"**Which {grp['noun']} moves the win rate most** (largest difference in win "
              f"rate between seats that {grp['verb']} it and seats that did not):")
        doc.ul(items)
        doc.p(f"**Caution:** {CAUTION}")

    items = []
    for r in lengths.filter(pl.col("measure") == "turns").iter_rows(named=True):
        p = int(r["players"])
        c = comp.filter(pl.col("players") == p).row(0, named=True)
        items.append(
            f"{p}-player games last a median of {_num(r['q50'], 0)} player-turns (middle half "
            f"{_num(r['q25'], 0)} to {_num(r['q75'], 0)}, 95th percentile {_num(r['q95'], 0)}; "
            f"n = {r['n']:,} finished games); {pct(c['limit_rate'], 2)} "
            f"{_ci(c['limit_lo'], c['limit_hi'], 2)} of {c['n']:,} games stopped at the limit."
        )
    for r in comp.iter_rows(named=True):
        if not r["finished"]:
            items.append(f"{r['players']}-player games: all {r['n']:,} stopped at the limit.")
    if items:
        doc.p("**How long games last:**")
        doc.ul(items)
    for r in bal.iter_rows(named=True):
        lines.append(f"{r['players']} players: balance {r['balance']:.3f}.")
    return lines


def _seat_section(doc, seat_rates, order_rates, firsts, varied) -> None:
    doc.h(2, "Seat win rates")
    doc.p("Win rate of each seat over finished games (a k-way shared win counts 1/k), with its "
          "95% Wilson interval; parity is 1/players. Games stopped at the limit are left out "
          "and counted in the last column.")
    seat0 = sorted(p for p, f in firsts.items() if f == [0])
    if seat0:
        doc.p("Seat 1 = first player: Seat 1 moved first in every "
              + " and ".join(f"{p}-player" for p in seat0) + " game.")
    doc.table(_rate_table(seat_rates, "seat", "Seat"))
    doc.img("seat_win_rates.png", "Seat win rates with 95% intervals")
    if varied:
        doc.h(3, "By turn order")
        doc.p("The first seat varied between games, so seat numbers do not measure the "
              "first-player advantage; this table counts turn-order positions instead "
              "(position 1 = the player who moved first in that game).")
        doc.table(_rate_table(order_rates, "position", "Position"))
        doc.img("turn_order_win_rates.png", "Win rate by turn-order position")


def _rate_table(df: pl.DataFrame, col: str, label: str) -> Table:
    rows = [
        [str(r["players"]), f"{label} {r[col] + 1}", _count(r["n"]), _wins(r["wins"]),
         pct(r["win_rate"]), _ci(r["lo"], r["hi"]), _parity(int(r["players"])),
         _count(r["n_limit"])]
        for r in df.iter_rows(named=True)
    ]
    return Table(["Players", label, "n (finished games)", "Wins", "Win rate", "95% CI",
                  "Parity", "Limit games (excluded)"], rows,
                 [True, False, True, True, True, True, True, True])


def _balance_section(doc, bal, comp) -> None:
    doc.h(2, "Balance and completion")
    doc.p("Balance = 1 - (highest seat win rate - lowest seat win rate), as in Ludii: 1 means "
          "every seat wins equally often. The p-value tests \"all seats win equally often\" "
          "(chi-square on the seats' win counts).")
    doc.table(Table(
        ["Players", "n (finished games)", "Balance", "Best seat", "Worst seat",
         "p (all seats equal)"],
        [[str(r["players"]), _count(r["n"]), f"{r['balance']:.3f}",
          f"Seat {r['best_seat'] + 1} ({pct(r['best_rate'])})",
          f"Seat {r['worst_seat'] + 1} ({pct(r['worst_rate'])})", _pvalue(r["p_equal"])]
         for r in bal.iter_rows(named=True)],
        [True, True, True, False, False, True]))
    doc.p("Completion: a game stopped at the maximum length (\"limit\") is neither a win nor a "
          "draw; such games are reported here and left out of every win rate.")
    doc.table(Table(
        ["Players", "Games", "Finished", "Draws (finished, no winner)", "Stopped at limit",
         "Limit rate", "95% CI"],
        [[str(r["players"]), _count(r["n"]), _count(r["finished"]), _count(r["draws"]),
          _count(r["limit"]), pct(r["limit_rate"], 2), _ci(r["limit_lo"], r["limit_hi"], 2)]
         for r in comp.iter_rows(named=True)],
        [True] * 7))


def _strategy_section(doc, strat, matchups) -> None:
    doc.h(2, "Strategies and matchups")
    doc.p("Win rate of each bot over the seats it played in finished games (n = seat-games; "
          "parity = 1/players is the rate of a bot as strong as the average seat). When one "
          "game has two seats of the same bot, both count; as they cannot both win, the "
          "interval is then a little wider than it needs to be.")
    doc.table(Table(
        ["Players", "Strategy", "n (seat-games)", "Wins", "Win rate", "95% CI", "Parity"],
        [[str(r["players"]), f"`{r['strategy']}`", _count(r["n"]), _wins(r["wins"]),
          pct(r["win_rate"]), _ci(r["lo"], r["hi"]), _parity(int(r["players"]))]
         for r in strat.iter_rows(named=True)],
        [True, False, True, True, True, True, True]))
    doc.p("Matchups: for 2 players, the row bot's win rate against the column bot (the "
          "diagonal is the mirror match, 50% by construction when there are no shared wins); "
          "for more players, the row bot's win rate in games "
          "where at least one other seat plays the column bot. Cells: win rate [95% CI] (n "
          "seat-games of the row bot).")
    for (p,), g in matchups.group_by("players", maintain_order=True):
        names = sorted(set(g["strategy"]) | set(g["opponent"]))
        cell = {(r["strategy"], r["opponent"]): r for r in g.iter_rows(named=True)}
        rows = []
        for a in names:
            row = [f"`{a}`"]
            for b in names:
                r = cell.get((a, b))
                row.append("-" if r is None else
                           f"{pct(r['win_rate'])} {_ci(r['lo'], r['hi'])} (n={r['n']:,})")
            rows.append(row)
        doc.p(f"**{p} players:**")
        doc.table(Table([f"{p}p: row vs column"] + [f"`{b}`" for b in names], rows,
                        [False] + [True] * len(names)))
    doc.img("matchups.png", "Matchup win rates")


def _dist_row(r: dict) -> list[str]:
    return [_count(r["n"]), _num(r["mean"], 2), _num(r["sd"], 2)] + [
        _num(r[c], 1) for c in ("q05", "q25", "q50", "q75", "q95")]


def _length_section(doc, scores, lengths) -> None:
    doc.h(2, "Scores and game length")
    doc.p("Final score of a seat (Go Town: floors built) in finished games; quantiles are "
          "linearly interpolated.")
    qs = ["5%", "25%", "Median", "75%", "95%"]
    doc.table(Table(
        ["Players", "n (seat-games)", "Mean", "SD", *qs],
        [[str(r["players"]), *_dist_row(r)] for r in scores.iter_rows(named=True)],
        [True] * 9))
    doc.p("Game length of finished games: player-turns (one player's turn) and decisions "
          "(bot choices). Games stopped at the limit are not included (see Completion).")
    doc.table(Table(
        ["Players", "Measure", "n (games)", "Mean", "SD", *qs],
        [[str(r["players"]), r["measure"], *_dist_row(r)] for r in lengths.iter_rows(named=True)],
        [True, False] + [True] * 8))
    doc.img("game_length.png", "Game length histogram")


def _component_section(doc, impact, grp: dict, png: str) -> None:
    doc.h(2, grp["title"])
    doc.p(f"For each {grp['noun']}: win rate of seats that {grp['verb']} it at least once minus "
          f"win rate of seats that did not, in finished games, with a 95% Newcombe interval; "
          "sorted by the size of the difference. " + CAUTION)
    if impact.is_empty():
        doc.p(f"The runs have no per-seat detail columns (`{grp['prefix']}*`), so there is "
              "nothing to show here.")
        return
    rows = [
        [str(r["players"]), f"**{r['component']}**", _count(r["n_with"]), pct(r["rate_with"]),
         _count(r["n_without"]), pct(r["rate_without"]), _pts(r["diff"]),
         _ci(r["lo"], r["hi"])]
        for r in impact.iter_rows(named=True)
    ]
    doc.table(Table(
        ["Players", grp["noun"].capitalize(), f"n {grp['verb']}", f"Win rate {grp['verb']}",
         f"n not {grp['verb']}", f"Win rate not {grp['verb']}", "Difference (points)",
         "95% CI"],
        rows, [True, False, True, True, True, True, True, True]))
    doc.img(png, grp["title"])


def _method_section(doc) -> None:
    doc.h(2, "Notes on method")
    doc.ul([
        "Intervals are 95% and per cell; with many cells, a few will miss by chance "
        "(no correction for multiple comparisons).",
        "A k-way shared win counts 1/k for each winner and is treated as that many successes in "
        "the binomial intervals, an approximation that matters only when shared wins are common.",
        "Seats of one game are not independent (at most one wins outright). Intervals that "
        "count seat-games (strategies, matchups, components) assume independence and are "
        "approximate: a little too wide when two seats of one group share a game, possibly a "
        "little too narrow for a difference between groups that share games.",
        "Games stopped at the length limit are excluded from win rates, scores and lengths and "
        "reported under Completion.",
        "Seats are 1-based in the text and tables (Seat 1 = seat 0 in the data files).",
        "Sample size (normal approximation, z = 1.96 for 95%): a difference of d = 1 "
        "percentage point is resolvable when the interval's half-width is at most d. For a rate "
        "p over n trials the half-width is 1.96·√(p(1−p)/n), so the run needs "
        "n = ⌈1.96²·p(1−p)/d²⌉ trials (9,604 at p = 50%, 7,203 at p = 25%); p is the observed "
        "rate, or parity (1/players) when the observed rate is 0% or 100%. For the difference "
        "of two rates over groups of n₁ and n₂ seat-games (a component's users and non-users, "
        "the best and the worst strategy) the half-width is 1.96·√(p₁(1−p₁)/n₁ + p₂(1−p₂)/n₂); "
        "keeping the run's split r = n₁/(n₁+n₂), the two groups together need "
        "N = ⌈1.96²·(p₁(1−p₁)/r + p₂(1−p₂)/(1−r))/d²⌉ seat-games. For the mean score (standard "
        "deviation s, d = 1 score point) n = ⌈(1.96·s/d)²⌉ seat-games. Seat-games are turned "
        "into finished games at the run's own number of such seat-games per finished game. "
        "At this n an observed 1-point difference just excludes 0; to detect a true 1-point "
        "difference 80% of the time, about twice as many games are needed "
        "((1.96 + 0.84)²/1.96² = 2.04).",
    ])


# ---------------------------------------------------------------- sample size --------------
RESOLVE = 0.01  # the difference to resolve for win rates: 1 percentage point
RESOLVE_SCORE = 1.0  # and for the mean score: 1 score point


def _plan_p(p, parity: float) -> float:
    """The rate used to size a run: the observed rate, or parity when it is missing, 0 or 1
    (a degenerate observed rate would claim that no games are needed)."""
    if p is None or math.isnan(p) or p <= 0.0 or p >= 1.0:
        return parity
    return float(p)


def _f(x) -> float:
    return float(np.asarray(x).ravel()[0])


@dataclass
class Need:
    """One metric's sample-size requirement (see the "Sample size" section).

    ``n``/``need``: units in the run / needed for ±1 point (``unit``: "finished games" or
    "seat-games"); ``games``/``games_need``: finished games of that player count in the run /
    needed; ``hw``: the current 95% half-width (proportion, or score points for the mean)."""

    players: int
    metric: str
    estimate: str
    unit: str
    n: float
    need: float
    games: float
    games_need: float
    hw: float

    @property
    def enough(self) -> bool:
        return not math.isnan(self.games_need) and self.games >= self.games_need


def rate_need(players: int, metric: str, estimate: str, p, n: float, games: float,
              unit: str = "finished games") -> Need:
    """Requirement for a rate measured over ``n`` units in ``games`` finished games."""
    pp = _plan_p(p, 1.0 / players)
    need = _f(st.n_for_rate(pp, RESOLVE))
    return Need(players, metric, estimate, unit, n, need,
                games, _f(st.games_for_units(need, n, games)), _f(st.rate_half_width(pp, n)))


def difference_need(players: int, metric: str, estimate: str, p1, n1: float, p2, n2: float,
                    games: float) -> Need:
    """Requirement for a difference of two seat-game rates (groups ``n1`` and ``n2``)."""
    par = 1.0 / players
    a, b = _plan_p(p1, par), _plan_p(p2, par)
    need = _f(st.n_for_difference(a, n1, b, n2, RESOLVE))
    return Need(players, metric, estimate, "seat-games", n1 + n2, need, games,
                _f(st.games_for_units(need, n1 + n2, games)),
                _f(st.difference_half_width(a, n1, b, n2)))


def _sample_sizes(seat_rates, order_rates, firsts, strat, impact, scores, comp,
                  grp: dict) -> dict:
    """Every requirement the "Sample size" section and the headline warnings use."""
    fin = {int(r["players"]): float(r["finished"]) for r in comp.iter_rows(named=True)}
    rows: list[Need] = []
    first: dict[int, Need] = {}
    pair: dict[int, tuple[Need, dict]] = {}
    top: dict[int, Need] = {}
    comps: dict[int, list[tuple[Need, dict]]] = {}
    for p in sorted(fin):
        games = fin[p]
        if not games:
            continue
        for r in seat_rates.filter(pl.col("players") == p).iter_rows(named=True):
            rows.append(rate_need(p, f"Seat {r['seat'] + 1} win rate",
                                  f"{pct(r['win_rate'])} {_ci(r['lo'], r['hi'])}",
                                  r["win_rate"], r["n"], games))
        o = order_rates.filter((pl.col("players") == p) & (pl.col("position") == 0))
        if len(o):
            r = o.row(0, named=True)
            first[p] = rate_need(p, "First player's win rate (turn order)",
                                 f"{pct(r['win_rate'])} {_ci(r['lo'], r['hi'])}",
                                 r["win_rate"], r["n"], games)
            if len(firsts.get(p, [0])) > 1:
                rows.append(first[p])
            else:  # the same figure as Seat 1's row
                first[p].metric = "Seat 1 win rate"
        g = strat.filter((pl.col("players") == p) & (pl.col("n") > 0))
        for r in g.iter_rows(named=True):
            rows.append(rate_need(p, f"`{r['strategy']}` win rate",
                                  f"{pct(r['win_rate'])} {_ci(r['lo'], r['hi'])}",
                                  r["win_rate"], r["n"], games, unit="seat-games"))
        if len(g) >= 2:
            g = g.sort("win_rate", descending=True)
            b, w = g.row(0, named=True), g.row(len(g) - 1, named=True)
            d, lo, hi = (_f(x) for x in st.newcombe_difference(b["wins"], b["n"], w["wins"],
                                                               w["n"]))
            need = difference_need(
                p, f"`{b['strategy']}` minus `{w['strategy']}`",
                f"{_pts(d)} {_ci(lo, hi)}", b["win_rate"], b["n"], w["win_rate"], w["n"], games)
            rows.append(need)
            pair[p] = (need, {"diff": d, "lo": lo, "hi": hi})
        items = []
        for r in impact.filter((pl.col("players") == p) & pl.col("diff").is_not_null()) \
                .iter_rows(named=True):
            items.append((difference_need(
                p, f"**{r['component']}**: {grp['verb']} minus not",
                f"{_pts(r['diff'])} {_ci(r['lo'], r['hi'])}", r["rate_with"], r["n_with"],
                r["rate_without"], r["n_without"], games), r))
        if items:
            comps[p] = items
            top[p] = items[0][0]
            rows.append(items[0][0])
        sc = scores.filter(pl.col("players") == p)
        if len(sc) and sc["n"][0]:
            r = sc.row(0, named=True)
            need = _f(st.n_for_mean(r["sd"], RESOLVE_SCORE))
            hw = st.z_value() * r["sd"] / math.sqrt(r["n"]) if r["n"] > 1 else math.nan
            rows.append(Need(p, "Mean score (score points)",
                             f"{_num(r['mean'], 2)} (sd {_num(r['sd'], 2)})", "seat-games",
                             r["n"], need, games, _f(st.games_for_units(need, r["n"], games)),
                             hw))
    return {"finished": fin, "rows": rows, "first": first, "pair": pair, "top": top,
            "comps": comps}


def _res(n: Need) -> str:
    """The current half-width: '±9.3' points (rates) or '±0.21' (score points)."""
    if n.hw is None or math.isnan(n.hw):
        return "n/a"
    return f"±{n.hw:.2f}" if n.metric.startswith("Mean score") else f"±{n.hw * 100:.1f}"


def _short(n: Need) -> str:
    """' ⚠ ...' when the run is below the 1-point requirement (empty when it is not)."""
    if n.enough or math.isnan(n.games_need):
        return ""
    unit = "score point" if n.metric.startswith("Mean score") else "point"
    return (f" ⚠ **Too few games for 1-{unit} resolution:** this run resolves {_res(n)} "
            f"{unit}s; ±1 {unit} needs about {_count(n.games_need)} finished "
            f"{n.players}-player games ({_count(n.games)} in the run).")


def _direction_warning(lo, hi, what: str, n: Need) -> str:
    """' ⚠ ...' for a claim that names a direction while its interval includes 0."""
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi) or lo > 0 or hi < 0:
        return ""
    return (f" ⚠ **Direction not established at this sample size:** the interval of {what} "
            f"includes 0, so this run cannot say which way it goes; ±1 point needs about "
            f"{_count(n.games_need)} finished {n.players}-player games "
            f"({_count(n.games)} in the run).")


def _share(have: float, need: float) -> str:
    """have / need as a percentage, with two decimals below 1% ('0.03%'); 'all' if need = 0."""
    if not need:
        return "all"
    x = have / need
    return pct(x, 2 if x < 0.01 else 1)


def _sample_size_section(doc: Doc, ss: dict, grp: dict) -> None:
    doc.h(2, "Sample size")
    doc.p("How many games this run would need to resolve a difference of **1 percentage "
          "point** (win rates) or **1 score point** (mean score) at 95% confidence, for the "
          "metrics of the tables above. \"Resolution now\" is the current 95% half-width "
          "(1.96 × standard error); a metric is resolved when it is at most 1 point, i.e. when "
          "an estimate 1 point from parity (or a difference of 1 point) would have an interval "
          "that excludes parity (or 0). Formulas under Notes on method. A ⚠ marks each headline "
          "claim that the run is too small to support.")
    rows = ss["rows"]
    if not rows:
        doc.p("No finished games, so no sample-size figures.")
        return
    items = []
    for p in sorted({n.players for n in rows}):
        mine = [n for n in rows if n.players == p and not math.isnan(n.games_need)]
        if not mine:
            continue
        worst = max(mine, key=lambda n: n.games_need)
        have = ss["finished"][p]
        short = [n for n in mine if not n.enough]
        verdict = ("enough for all of them" if not short else
                   f"{len(short)} of the {len(mine)} metrics below are not resolved to 1 point")
        items.append(f"{p} players: the largest requirement is **{_count(worst.games_need)}** "
                     f"finished games ({worst.metric}); the run has {_count(have)} "
                     f"({_share(have, worst.games_need)} of it):"
                     f" {verdict}.")
    doc.ul(items)
    doc.table(Table(
        ["Players", "Metric", "Estimate [95% CI]", "Counted in", "n in run",
         "n for ±1 point", "Resolution now (±)", "Finished games for ±1 point",
         "Finished games in run", "Enough?"],
        [[str(n.players), n.metric, n.estimate, n.unit, _count(n.n),
          "n/a" if math.isnan(n.need) else _count(n.need), _res(n),
          "n/a" if math.isnan(n.games_need) else _count(n.games_need), _count(n.games),
          "yes" if n.enough else "**no**"]
         for n in rows],
        [True, False, True, False, True, True, True, True, True, False]))
    items = []
    for p, comp in sorted(ss["comps"].items()):
        needs = sorted(n.games_need for n, _ in comp)
        ok = sum(n.enough for n, _ in comp)
        big_n, big_r = max(comp, key=lambda x: x[0].games_need)
        share = big_r["n_with"] / (big_r["n_with"] + big_r["n_without"])
        items.append(
            f"{p} players: {ok} of {len(comp)} {grp['noun']} differences are resolved to 1 "
            f"point with this run's {_count(ss['finished'][p])} finished games; the median "
            f"{grp['noun']} needs {_count(float(np.median(needs)))}, the largest "
            f"{_count(big_n.games_need)} (**{big_r['component']}**, {grp['verb']} in "
            f"{pct(share)} of seat-games: a rare {grp['noun']} needs many games).")
    if items:
        doc.p(f"**{grp['title']}** (every {grp['noun']} with a difference; the table above "
              f"shows the one of the headline):")
        doc.ul(items)
