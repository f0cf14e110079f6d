"""Document building and number formatting for every report (Markdown and self-contained HTML).

A report is a ``Doc``: a list of blocks (headings, paragraphs, bullet lists, ``Table`` s and
images) rendered twice from the same blocks, by ``render_markdown`` and ``render_html``
(charts embedded as base64 data URIs). Text may use ``**bold**`` and ``` `code` ```; both
renderers understand them (``inline_html`` for HTML).

The formatters turn numbers into the strings every table uses, with ``"n/a"`` for a missing
value (None or NaN): ``pct`` (0.3125 -> "31.2%"), ``ci`` (an interval in percent,
"[28.1, 34.4]"), ``pts`` (a difference in percentage points, "+3.1"), ``pct_ci``, ``pts_ci``
and ``diff_ci`` (with the interval), ``num``, ``count``, ``wins``, ``signed``, ``pvalue``,
``parity``.
``slug`` ("Bed & Breakfast" -> "bed_breakfast") is ``sim.core.components.slug``;
``write_atomic`` (temporary name, fsync, rename) is ``sim.core.io.write_atomic``.
"""

from __future__ import annotations

import base64
import html
import math
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

from sim.core.components import slug
from sim.core.io import write_atomic

__all__ = [
    "Table", "Doc", "render_markdown", "render_html", "md_cell", "md_table", "inline_html",
    "anchor", "split_table", "TABLE_CHARS",
    "CSS", "is_missing", "pct", "ci", "pts", "pct_ci", "pts_ci", "diff_ci", "num", "count",
    "wins", "signed", "pvalue", "parity", "now_utc", "slug", "write_atomic",
]


# ---------------------------------------------------------------- document model ---------
@dataclass
class Table:
    """A table: ``headers`` and ``rows`` of already formatted cells (str); ``right[i]`` True
    right-aligns column ``i`` (numbers). An empty ``right`` aligns every column left."""

    headers: list[str]
    rows: list[list[str]]
    right: list[bool] = field(default_factory=list)


@dataclass
class Doc:
    """Blocks: ("h", level, text) | ("p", text[, cls]) | ("ul", [text][, cls]) |
    ("table", Table[, cls]) | ("img", file name in out_dir, alt text) |
    ("charts", [(file name, alt text), ...]) | ("fold",). Text may use **bold** and `code`;
    ``cls`` is an HTML class of ``CSS``."""

    blocks: list[tuple] = field(default_factory=list)

    def h(self, level: int, text: str) -> None:
        """A heading of ``level`` (1 = the title)."""
        self.blocks.append(("h", level, text))

    def p(self, text: str, cls: str = "") -> None:
        """A paragraph (``cls``: an HTML class of the style sheet, e.g. "meta")."""
        self.blocks.append(("p", text, cls) if cls else ("p", text))

    def ul(self, items: list[str], cls: str = "") -> None:
        """A bullet list (nothing when ``items`` is empty)."""
        if items:
            self.blocks.append(("ul", list(items), cls) if cls else ("ul", list(items)))

    def table(self, table: Table, cls: str = "") -> None:
        """A table (``cls``: an HTML class, e.g. "verdict")."""
        self.blocks.append(("table", table, cls) if cls else ("table", table))

    def charts(self, images: list[tuple[str, str]]) -> None:
        """A row of PNG images ``[(file name in out_dir, alt text), ...]`` (side by side in
        HTML, one after the other in Markdown)."""
        if images:
            self.blocks.append(("charts", list(images)))

    def img(self, name: str, alt: str) -> None:
        """A PNG image ``name`` (a file in the report folder) with its ``alt`` text."""
        self.blocks.append(("img", name, alt))

    def fold(self) -> None:
        """Everything after this marker is reference material: the renderers put a table of
        contents of its level-2 sections here; ``render_html`` folds each such section into a
        ``<details>`` element (closed), ``render_markdown`` keeps the headings in order."""
        self.blocks.append(("fold",))

    def sections_after_fold(self) -> list[str]:
        """The level-2 headings after the ``fold`` marker, in order (the table of contents)."""
        out: list[str] = []
        seen = False
        for b in self.blocks:
            if b[0] == "fold":
                seen = True
            elif seen and b[0] == "h" and b[1] == 2:
                out.append(b[2])
        return out


# ---------------------------------------------------------------- Markdown ----------------
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")


def md_escape(text) -> str:
    """Outside text (folder names, manifest strings) as literal Markdown: every character
    Markdown or HTML would read is backslash-escaped, newlines become spaces."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def md_literal(text) -> str:
    """Outside text shown literally: a code span (``md_escape`` if it holds a backtick)."""
    t = " ".join(str(text).split())
    return f"`{t}`" if "`" not in t else md_escape(t)


def md_cell(text) -> str:
    """A Markdown table cell: ``|`` escaped (unless already escaped), newlines turned into
    spaces."""
    return re.sub(r"(?<!\\)\|", r"\\|", str(text)).replace("\n", " ")


def md_table(headers: list[str], rows: list[list[str]], right: list[bool] | None = None) -> str:
    """A Markdown table (lines joined by ``\\n``, no trailing newline); ``right[i]`` True
    right-aligns column ``i`` (``---:``)."""
    right = right or [False] * len(headers)
    lines = ["| " + " | ".join(md_cell(h) for h in headers) + " |",
             "|" + "|".join("---:" if r else "---" for r in right) + "|"]
    lines += ["| " + " | ".join(md_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def anchor(text: str) -> str:
    """The anchor of a heading, as GitHub and ``render_html`` make it: lower case, markup and
    punctuation dropped, spaces as ``-`` ("Seat win rates" -> "seat-win-rates")."""
    t = re.sub(r"[*`]", "", str(text)).strip().lower()
    t = re.sub(r"[^\w\- ]", "", t)
    return t.replace(" ", "-")


def render_markdown(doc: Doc) -> str:
    """The Markdown text of ``doc`` (one blank line after every block); at the ``fold``
    marker, a "Contents" list linking the sections that follow."""
    out: list[str] = []
    for b in doc.blocks:
        kind = b[0]
        if kind == "fold":
            toc = doc.sections_after_fold()
            if toc:
                out.append("**Contents** (details, full tables and methods):")
                out.append("")
                out.append("\n".join(f"- [{t}](#{anchor(t)})" for t in toc))
                out.append("")
            continue
        if kind == "h":
            out.append("#" * b[1] + " " + b[2])
        elif kind == "p":
            out.append(b[1])
        elif kind == "ul":
            out.append("\n".join(f"- {item}" for item in b[1]))
        elif kind == "table":
            t: Table = b[1]
            out.append(md_table(t.headers, t.rows, t.right))
        elif kind == "img":
            out.append(f"![{b[2]}]({b[1]})")
        elif kind == "charts":
            out.append("\n\n".join(f"![{a}]({n})" for n, a in b[1]))
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------- HTML --------------------
CSS = """
body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;max-width:1180px;
margin:.6em auto;padding:0 1em;color:#222;line-height:1.35}
h1{border-bottom:2px solid #444;font-size:1.45em;margin:.2em 0 .3em}
h2{border-bottom:1px solid #bbb;margin-top:1.2em;font-size:1.2em}
table{border-collapse:collapse;margin:.5em 0;font-size:.86em;max-width:100%}
th,td{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}th{background:#f0f0f0}
td.r{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
img{max-width:100%;margin:.4em 0}code{background:#f4f4f4;padding:0 .2em}
p.meta{font-size:.85em;color:#444;margin:.2em 0}
table.verdict{font-size:.84em;width:100%}table.verdict td{padding:.12em .45em}
table.verdict td:nth-child(2){white-space:nowrap}table.verdict td:first-child{width:13em}
ul.answers{font-size:.84em;margin:.2em 0;padding-left:1.3em}
div.charts{display:flex;gap:.6em;flex-wrap:wrap;align-items:flex-start}
div.charts img{max-width:49%;height:auto;max-height:250px}
details{margin:.3em 0;border-top:1px solid #ddd}
details>summary{cursor:pointer;font-weight:bold;font-size:1.05em;padding:.3em 0}
nav.toc{font-size:.85em}nav.toc ul{columns:2;margin:.2em 0}
"""
"""The style sheet of every HTML report and of the index (inline, no external files)."""


def inline_html(text) -> str:
    """HTML of one line of report text: escaped, ``**bold**`` -> <strong>, ``` `code` ``` ->
    <code>."""
    # backslash-escaped characters (md_escape) are literal: kept aside from the markup rules
    kept: list[str] = []
    s = re.sub(r"\\([^A-Za-z0-9\s])",
               lambda m: kept.append(m.group(1)) or f"\x00{len(kept) - 1}\x00", str(text))
    s = html.escape(s, quote=False)
    s = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", s)
    s = re.sub(r"`(.+?)`", r"<code>\1</code>", s)
    return re.sub("\x00(\\d+)\x00", lambda m: html.escape(kept[int(m.group(1))]), s)


TABLE_CHARS = 118
"""The widest table (in characters of its widest cells) one HTML table may be; wider tables
are split into several, each repeating the label columns (``split_table``)."""


WRAP_CHARS = 36
"""The width a left-aligned (text) column counts for in ``split_table``: it wraps."""
HEADER_CHARS = 14
"""The width a header counts for in ``split_table``: headers wrap at their spaces."""


def split_table(t: Table, max_chars: int = TABLE_CHARS) -> list[Table]:
    """``t`` as one or more tables no wider than ``max_chars`` (the sum over columns of the
    widest cell or header, plus 3 per column; a left-aligned text column wraps, so it counts
    at most ``WRAP_CHARS``, and a header at most ``HEADER_CHARS``): the label columns (the
    first, and the second when it is left-aligned, e.g. "Players" and "Tile") are repeated in
    every part, the other columns are dealt out in order."""
    right = t.right or [False] * len(t.headers)
    width = [min(max([min(len(str(h)), HEADER_CHARS)] + [len(str(r[i])) for r in t.rows]),
                 10 ** 6 if right[i] else WRAP_CHARS) + 3
             for i, h in enumerate(t.headers)]
    if sum(width) <= max_chars or len(t.headers) <= 2:
        return [t]
    keys = 1 + (len(right) > 2 and not right[1])  # the label columns: "Players", "Tile"
    parts: list[list[int]] = [[]]
    used = sum(width[:keys])
    for i in range(keys, len(t.headers)):
        if parts[-1] and used + width[i] > max_chars:
            parts.append([])
            used = sum(width[:keys])
        parts[-1].append(i)
        used += width[i]
    out = []
    for cols in parts:
        idx = list(range(keys)) + cols
        out.append(Table([t.headers[i] for i in idx], [[r[i] for i in idx] for r in t.rows],
                         [right[i] for i in idx]))
    return out


def _html_table(t: Table, cls: str = "") -> str:
    parts = split_table(t) if cls != "verdict" else [t]
    if len(parts) > 1:
        return "\n".join(_html_one_table(x, cls) for x in parts)
    return _html_one_table(t, cls)


def _html_one_table(t: Table, cls: str = "") -> str:
    right = t.right or [False] * len(t.headers)
    head = "".join(f"<th>{inline_html(h)}</th>" for h in t.headers)
    body = "".join(
        "<tr>" + "".join(
            f'<td class="r">{inline_html(c)}</td>' if r else f"<td>{inline_html(c)}</td>"
            for c, r in zip(row, right, strict=True)
        ) + "</tr>"
        for row in t.rows
    )
    attr = f' class="{cls}"' if cls else ""
    return f"<table{attr}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _img_html(out_dir: str, name: str, alt: str) -> str:
    with open(os.path.join(out_dir, name), "rb") as f:
        data = base64.b64encode(f.read()).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def render_html(doc: Doc, out_dir: str, title: str) -> str:
    """A self-contained HTML page of ``doc`` titled ``title``; each image is read from
    ``out_dir`` and embedded as a base64 data URI. After the ``fold`` marker, a table of
    contents, then each level-2 section folded in a closed ``<details>`` element (its
    ``<summary>`` is the heading, with the anchor the contents link to)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>",
    ]
    folded = False
    open_details = False
    for b in doc.blocks:
        kind = b[0]
        cls = (b[2] or "") if kind in ("p", "ul", "table") and len(b) > 2 else ""
        attr = f' class="{cls}"' if cls else ""
        if kind == "fold":
            folded = True
            toc = doc.sections_after_fold()
            if toc:
                parts.append('<nav class="toc"><strong>Contents</strong> (click a section to '
                             "open it: details, full tables and methods)<ul>"
                             + "".join(f'<li><a href="#{anchor(t)}">{inline_html(t)}</a></li>'
                                       for t in toc) + "</ul></nav>")
        elif kind == "h" and folded and b[1] == 2:
            if open_details:
                parts.append("</details>")
            parts.append(f'<details id="{anchor(b[2])}"><summary>{inline_html(b[2])}'
                         "</summary>")
            open_details = True
        elif kind == "h":
            parts.append(f'<h{b[1]} id="{anchor(b[2])}">{inline_html(b[2])}</h{b[1]}>')
        elif kind == "p":
            parts.append(f"<p{attr}>{inline_html(b[1])}</p>")
        elif kind == "ul":
            parts.append(f"<ul{attr}>" + "".join(f"<li>{inline_html(i)}</li>" for i in b[1])
                         + "</ul>")
        elif kind == "table":
            parts.append(_html_table(b[1], cls))
        elif kind == "img":
            parts.append(_img_html(out_dir, b[1], b[2]))
        elif kind == "charts":
            parts.append('<div class="charts">'
                         + "".join(_img_html(out_dir, n, a) for n, a in b[1]) + "</div>")
    if open_details:
        parts.append("</details>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------- formatting ---------------
def is_missing(x) -> bool:
    """True for None and a float NaN (numpy floats included)."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(x, digits: int = 1) -> str:
    """A proportion in percent: 0.3125 -> '31.2%' ('n/a' for None/NaN); a non-zero rate that
    would print as 0 gets up to two more decimals (``fixed``), as its interval's bounds do, so
    an estimate never prints outside its own interval: 0.00001 -> '0.001%' (not '0.00%')."""
    if is_missing(x):
        return "n/a"
    return f"{fixed(x * 100, digits)}%"


def fixed(x: float, digits: int = 1, sign: str = "") -> str:
    """``x`` with ``digits`` decimals (``sign`` "+" for a signed number), but a non-zero value
    that would print as 0 gets up to two more decimals, so that an interval bound just below
    or above 0 keeps its sign and size: -0.03 -> '-0.03' (not '-0.0'), 0.004 -> '0.004'; a
    value still 0 after that prints as '0.0' ('+0.0' signed): -0.0004 -> '0.0'."""
    for d in range(digits, digits + 3):
        s = f"{x:{sign}.{d}f}"
        if float(s) != 0:
            return s
    return f"{0.0:{sign}.{digits}f}"


def ci(lo, hi, digits: int = 1) -> str:
    """An interval of proportions in percent: (0.281, 0.344) -> '[28.1, 34.4]'; '[n/a]' when
    a bound is None or NaN. A bound near 0 keeps its sign (``fixed``): '[-1.0, -0.03]'."""
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return "[n/a]"
    return f"[{fixed(lo * 100, digits)}, {fixed(hi * 100, digits)}]"


def pts(x) -> str:
    """A difference of proportions in percentage points, signed: 0.031 -> '+3.1', -0.0003 ->
    '-0.03' (``fixed``) ('n/a' for None/NaN)."""
    return "n/a" if x is None or math.isnan(x) else fixed(x * 100, 1, "+")


def pct_ci(rate, lo, hi, digits: int = 1) -> str:
    """A rate with its interval: '31.2% [28.1, 34.4]'."""
    return f"{pct(rate, digits)} {ci(lo, hi, digits)}"


def pts_ci(diff, lo, hi) -> str:
    """A difference in points with its interval: '+3.1 [-0.4, 6.6]'."""
    return f"{pts(diff)} {ci(lo, hi)}"


def signed_ci(est: float, lo: float, hi: float, digits: int = 1) -> str:
    """An estimate and its interval already in their unit (points, turns), every number
    signed, bounds near 0 keeping their sign (``fixed``): '+3.1 [-0.4, +6.6]'."""
    return (f"{fixed(est, digits, '+')} [{fixed(lo, digits, '+')}, "
            f"{fixed(hi, digits, '+')}]")


def diff_ci(row: dict, key: str = "diff") -> str:
    """``pts_ci`` of a table row (dict): ``row[key]`` with ``row["lo"]``/``row["hi"]`` for
    key "diff", else ``row[key + "_lo"]``/``row[key + "_hi"]``."""
    lo, hi = ("lo", "hi") if key == "diff" else (f"{key}_lo", f"{key}_hi")
    return pts_ci(row[key], row[lo], row[hi])


def num(x, digits: int = 1) -> str:
    """A number with thousands separators: 1234.5 -> '1,234.5' ('n/a' for None/NaN)."""
    if is_missing(x):
        return "n/a"
    return f"{x:,.{digits}f}"


def count(x) -> str:
    """A count: 12345 -> '12,345' (floats are truncated)."""
    return f"{int(x):,}"


def wins(x: float) -> str:
    """A win count, fractional after shared wins: 12.0 -> '12', 12.5 -> '12.50'."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.2f}"


def signed(x, digits: int = 2) -> str:
    """A signed number: 1.5 -> '+1.50' ('n/a' for None/NaN)."""
    return "n/a" if is_missing(x) else f"{x:+.{digits}f}"


def pvalue(p) -> str:
    """A p- or q-value: '< 0.0001' below 1e-4, else four decimals ('n/a' for None/NaN)."""
    if p is None or math.isnan(p):
        return "n/a"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def parity(players: int) -> str:
    """The parity win rate 1/players in percent, trailing zeros dropped: 4 -> '25%',
    3 -> '33.3%'."""
    return f"{100 / players:.1f}".rstrip("0").rstrip(".") + "%"


def now_utc() -> str:
    """The current time for a report header: '2025-01-31 14:05 UTC'."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
