"""Scan a written report for figures that cannot be right (issue 16): a rate outside
[0, 100]%, an interval that does not contain its estimate or whose bounds are reversed, a
difference interval below -100 points, an ordering "a [..] > b [..]" of overlapping intervals,
another game's name, a causal wording; and (issue 26) the claims a report must earn:

* causal wording ("causal", "effect" of an intervention) in a report without a re-deal
  **placebo** row (``causal_without_placebo``);
* an estimate printed outside its printed interval, to the precision of the bounds (a rate
  "0.00%" beside "[0.0001, 0.003]");
* an interval (or an upper bound) on a list of types ("0 of 17 card types (≤ 18.43%)"): a
  count of types is not a sample;
* a headline (a verdict's strongest/weakest association row) whose printed n is not the n
  behind it (the seat-games of both groups instead of the holders) or below
  ``MIN_HEADLINE_N``;
* a "fix" whose option the report's own paired run shows moving the first player's edge
  further towards the first seat;
* the same question answered twice: "strongest"/"weakest" answered by a causal row and by an
  association at the same player count.

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
_TYPES = re.compile(
    rf"\b({_NUM}) of ({_NUM}) ((?:[a-z]+ ){{0,2}}(?:types|kinds|tiles|goals|structures|"
    r"components|tokens|cards|buildings)(?: (?:offered|in play|drawn))?)"
    r"[^\n\[(]{0,12}?(?:\((?:≤|<=|&le;) ?[\d.]+%?\)|\|\s*[\d.]+%\s*\|\s*\[)")
_SEAT_GAMES_ROW = re.compile(
    rf"(Strongest|Weakest) [^|\n]*\|[^|\n]*\|[^|\n]*\|\s*({_NUM}) (seat-games|holders)"
    r"[^|\n]*\|([^\n]*)")
MIN_HEADLINE_N = 20
"""A headline row (strongest/weakest) needs at least this many holder seat-games (as
``analysis.report.verdict.MIN_HOLDERS``)."""
_ABOUT_ORDER = re.compile(r"last (?:move|turn)|first (?:player|seat)|triggered the end|"
                          r"cannot answer", re.I)
_FIX_OPTION = re.compile(r"[Ff]ix[^\n]{0,200}?([a-z_]+) ?= ?([a-z_0-9]+)")
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
        if lo <= hi and not lo - _tol(m) <= est <= hi + _tol(m):
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
    out += causal_without_placebo(plain)
    out += intervals_on_types(plain)
    out += headline_n(plain)
    if not text.lstrip().lower().startswith("<!doctype html"):  # rows are lines in Markdown
        out += unsupported_fixes(plain)
    out += answered_twice(plain)
    return out


def _decimals(x: str) -> int:
    return len(x.split(".")[1]) if "." in x else 0


def _tol(m: re.Match) -> float:
    """The rounding an estimate may show against its interval: one unit of the bounds' last
    printed digit when the estimate is printed as precisely, half a unit when it is printed
    more coarsely (then "0.00%" beside "[0.0001, 0.003]" is outside)."""
    db = max(_decimals(m.group(3)), _decimals(m.group(4)))
    de = _decimals(m.group(1))
    return (1.0 if de >= db else 0.5) * 10.0 ** (-db) + 1e-12


_CAUSAL = re.compile(r"\bcausal\b", re.I)
_NOT_CAUSAL = re.compile(r"\b(?:not|no|never|nothing) (?:a |an )?(?:[a-z]+ )?causal\b|"
                         r"causal (?:wording|claim)s?\b|\bnon-?causal\b|"
                         r"\bcausal\W{0,3}none\b", re.I)


def _lines(plain: str) -> list[str]:
    return [ln for ln in plain.splitlines() if ln.strip()]


def causal_without_placebo(plain: str) -> list[str]:
    """A report that calls a number causal must show the re-deal placebo row beside it (the
    same estimator on an arm that changes only the deal): one problem per causal line when the
    report has no "placebo" anywhere. Negations ("not a causal effect", "causal wording") are
    not claims."""
    if "placebo" in plain.lower():
        return []
    out = []
    for ln in _lines(plain):
        if _CAUSAL.search(_NOT_CAUSAL.sub("", ln)):
            out.append(f"causal wording without a placebo row: {ln.strip()[:120]!r}")
    return out


def intervals_on_types(plain: str) -> list[str]:
    """A rate interval (or upper bound) on a count of types ("0 of 17 card types (≤
    18.43%)"): the types are the whole list, not a sample, so no interval applies."""
    return [f"interval on a list of types: {m.group(0)!r}" for m in _TYPES.finditer(plain)]


def headline_n(plain: str) -> list[str]:
    """Strongest/weakest rows: an association row must print the holders behind it (not the
    seat-games of both groups), and no headline may rest on fewer than ``MIN_HEADLINE_N``
    holder seat-games."""
    out = []
    for m in _SEAT_GAMES_ROW.finditer(plain):
        n, unit, rest = _f(m.group(2)), m.group(3), m.group(4).lower()
        row = m.group(0).strip()[:120]
        if unit == "seat-games" and ("association" in rest or "not an effect" in rest):
            out.append(f"headline n is not the n behind it (seat-games of both groups, not "
                       f"the holders): {row!r}")
        elif n < MIN_HEADLINE_N:
            out.append(f"headline below the minimum sample ({MIN_HEADLINE_N}): {row!r}")
    return out


def unsupported_fixes(plain: str) -> list[str]:
    """A "fix" naming a rule option ``name = value`` for a hole about the turn order (the
    first seat, the last move) while a line of the same report pairs that option with the
    first player's edge and an interval wholly above 0 (the option moves the edge further
    towards the first seat). Markdown only: its table rows are lines."""
    out = []
    lines = _lines(plain)
    for ln in lines:
        if not _ABOUT_ORDER.search(ln):  # a hole about who ends the game or moves first
            continue
        for m in _FIX_OPTION.finditer(ln):
            opt = re.compile(rf"{m.group(1)} ?= ?{m.group(2)}")
            for other in lines:
                if other is ln or not opt.search(other) or "first" not in other.lower():
                    continue
                at = opt.search(other).start()
                for b in _BARE.finditer(other, at, at + 200):
                    lo, hi = _f(b.group(1)), _f(b.group(2))
                    if 0 < lo <= hi:
                        out.append(f"fix not supported by the report's own data: "
                                   f"{m.group(0)[:80]!r} vs {other.strip()[:120]!r}")
                        break
    return out


_SW = re.compile(r"\b(strongest|weakest)\b", re.I)
_ANSWER_SPAN = 160
"""How far after "strongest"/"weakest" an answer's value (estimate and interval) may be."""
_PLAYERS_IN = re.compile(r"\b(\d)(?:p\b| players?\b)")


def answered_twice(plain: str) -> list[str]:
    """The same question answered twice: "strongest"/"weakest" given with a value by a causal
    line and by an association line for the same player count (lines without a player count
    match every count)."""
    causal, assoc = {}, {}
    for ln in _lines(plain):
        low = ln.lower()
        sw = _SW.search(low)
        # an answer gives a value: an estimate with its interval close after the word (a
        # methods note naming "strongest/weakest" gives none)
        if not sw or not _INTERVAL.search(low[sw.end():sw.end() + _ANSWER_SPAN]):
            continue
        neg = _NOT_CAUSAL.sub("", low)
        is_c = bool(_CAUSAL.search(neg) or "leverage" in low or "denial" in low)
        is_a = "association" in low or "not an effect" in low or " minus " in low
        if is_c == is_a:
            continue
        ps = set(_PLAYERS_IN.findall(low)) or {"*"}
        for p in ps:
            (causal if is_c else assoc).setdefault(p, ln.strip()[:100])
    out = []
    for p, a in assoc.items():
        c = causal.get(p) or (causal.get("*") if p != "*" else next(iter(causal.values()),
                                                                     None))
        if c:
            out.append(f"the same question answered twice ({p}p): {c!r} and {a!r}")
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
