"""Scan a written report for figures that cannot be right (issue 16): a rate outside
[0, 100]%, an interval that does not contain its estimate or whose bounds are reversed, a
difference interval below -100 points, an ordering "a [..] > b [..]" of overlapping intervals,
another game's name, a causal wording.

``scan_text(text, own_title, titles)`` returns one line per problem (empty when the report is
clean); the tests run it over every generated report and ``python -m analysis.report.scan
REPORTS_DIR`` over a reports folder (exit code 1 when a problem is found).
"""

from __future__ import annotations

import html
import os
import re
import sys

from analysis.report.wording import CAUSAL_PHRASES

__all__ = ["scan_text", "scan_folder"]

_NUM = r"[+\-−]?\d[\d,]*(?:\.\d+)?"
_RATE = re.compile(rf"(?<![\w.\-+−\d])({_NUM})%")
_INTERVAL = re.compile(
    rf"(?<![\w.\d])({_NUM})(%)?(?: points| score points| [a-z][a-z\-]*)?(?:\s*\|\s*|\s)"
    rf"\[({_NUM})%?, ({_NUM})%?\]")
_BARE = re.compile(rf"\[({_NUM}), ({_NUM})\]")
_TAGS = re.compile(r"<[^>]+>")
_ORDER = re.compile(rf"\[({_NUM}), ({_NUM})\][^\[\]\n>]{{0,12}}? > [^\[\]\n]{{1,60}}?"
                    rf"\[({_NUM}), ({_NUM})\]")


def _f(x: str) -> float:
    return float(x.replace(",", "").replace("−", "-"))


def _plain(text: str) -> str:
    """Markdown or HTML as plain text: tags and images dropped, entities decoded, emphasis
    and code marks removed."""
    if text.lstrip().lower().startswith("<!doctype html"):  # HTML; Markdown keeps its "<"
        text = re.sub(r'src="data:[^"]*"', "", text)
        text = html.unescape(_TAGS.sub(" ", text))
    return text.replace("**", "").replace("`", "").replace("\\", "")


def scan_text(text: str, own_title: str, titles: list[str]) -> list[str]:
    """Problems in one report (Markdown or HTML text); ``titles``: every game's title (the
    report's own, ``own_title``, is allowed)."""
    plain = _plain(text)
    out: list[str] = []
    for m in _RATE.finditer(plain):
        v = _f(m.group(1))
        if not 0.0 <= v <= 100.0:
            out.append(f"rate outside [0, 100]%: {plain[max(0, m.start() - 60):m.end() + 10]!r}")
    for m in _BARE.finditer(plain):
        lo, hi = _f(m.group(1)), _f(m.group(2))
        if lo > hi:
            out.append(f"interval with reversed bounds: {m.group(0)}")
        if lo < -100.0:
            out.append(f"interval below -100: {plain[max(0, m.start() - 60):m.end()]!r}")
    for m in _INTERVAL.finditer(plain):
        est, lo, hi = _f(m.group(1)), _f(m.group(3)), _f(m.group(4))
        tol = 0.051 if "." in m.group(1) else 0.51
        if lo <= hi and not lo - tol <= est <= hi + tol:
            out.append(f"estimate outside its interval: {m.group(0)!r}")
    for m in _ORDER.finditer(plain):
        lo1, hi1, lo2, hi2 = (_f(m.group(k)) for k in range(1, 5))
        if lo1 <= hi2 and lo2 <= hi1:
            out.append(f"ordering from overlapping intervals: {m.group(0)!r}")
    for t in titles:
        if t and t != own_title and t not in own_title and t in plain:
            i = plain.index(t)
            out.append(f"another game's name {t!r}: {plain[max(0, i - 60):i + 40]!r}")
    low = plain.lower()
    for phrase in CAUSAL_PHRASES:
        if phrase in low:
            i = low.index(phrase)
            out.append(f"causal wording {phrase!r}: {plain[max(0, i - 60):i + 40]!r}")
    return out


def scan_folder(reports_dir: str) -> dict[str, list[str]]:
    """``{path: problems}`` for every report.md / report.html under ``reports_dir`` (titles
    from the registry)."""
    from sim.registry import get_game, list_games

    titles = [get_game(g).title for g in list_games()]
    ids = {g: get_game(g).title for g in list_games()}
    found: dict[str, list[str]] = {}
    for name in sorted(os.listdir(reports_dir)):
        for f in ("report.md", "report.html"):
            path = os.path.join(reports_dir, name, f)
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as fh:
                    found[path] = scan_text(fh.read(), ids.get(name, name), titles)
    return found


if __name__ == "__main__":
    res = scan_folder(sys.argv[1] if len(sys.argv) > 1 else "reports")
    bad = 0
    for path, problems in res.items():
        for p in problems:
            bad += 1
            print(f"{path}: {p}")
    print(f"{len(res)} files scanned, {bad} problems")
    raise SystemExit(1 if bad else 0)
