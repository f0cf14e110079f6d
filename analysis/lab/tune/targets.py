"""Targets (``--target``) and the budget (``--budget``) of ``boardsim tune``: parsing and checking.
(The package docstring, analysis/lab/tune/__init__.py, describes the method.)"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from sim.core.errors import UserError

TARGETS = {
    # name: (unit for the distance, lowest, highest value the quantity can take, text)
    "first_seat": (1.0, 0.0, 100.0, "first player's win share (points)"),
    "balance": (0.01, 0.0, 1.0, "Balance, 1 - (max - min) seat win rate"),
    "length": (1.0, 0.0, 1e6, "mean game length (turns)"),
    "margin": (1.0, -1e6, 1e6, "mean score margin, winner - runner-up"),
    "effects": (1.0, -100.0, 100.0, "every component's causal effect (win-rate points)"),
}


SAFETY = 0.25
"""The search aims at the band shrunk by this share of its half-width on each side."""


@dataclass(frozen=True)
class Target:
    """A band ``[lo, hi]`` on one quantity (``TARGETS``); ``parity``: lo/hi are offsets from
    ``100 / players`` (first_seat only). ``text``: as the user wrote it."""

    name: str
    lo: float
    hi: float
    text: str
    parity: bool = False

    def band(self, players: int) -> tuple[float, float]:
        """The band at ``players`` players, in the quantity's unit."""
        if self.parity:
            c = 100.0 / players
            return c + self.lo, c + self.hi
        return self.lo, self.hi

    def aim(self, players: int) -> tuple[float, float]:
        """The band the search aims at: shrunk by ``SAFETY`` of its half-width when finite."""
        lo, hi = self.band(players)
        if math.isfinite(lo) and math.isfinite(hi):
            s = SAFETY * (hi - lo) / 2.0
            return lo + s, hi - s
        return lo, hi

    def describe(self, players: int) -> str:
        lo, hi = self.band(players)
        if not math.isfinite(lo):
            return f"{self.name} <= {_g(hi)}"
        if not math.isfinite(hi):
            return f"{self.name} >= {_g(lo)}"
        return f"{self.name} in {_g(lo)}..{_g(hi)}"


def _g(x: float) -> str:
    return f"{x:.4g}"


_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"


_PM = r"(?:±|\+-|\+/-)"


def parse_target(text: str) -> Target:
    """``name=C±T`` (``C+-T``, ``C+/-T``; ``C`` may be ``parity`` for first_seat), ``name=
    ±T`` (centre 0), ``name=A..B``, ``name>=X``, ``name<=X``. Raises UserError naming the
    allowed names and forms."""
    raw = str(text).strip()
    forms = ("forms: name=50±2 (or 50+-2), name=parity±2, name=13..16, name>=0.9, name<=3; "
             f"names: {', '.join(TARGETS)}")
    m = re.fullmatch(r"([a-z_]+)\s*(>=|<=|=)\s*(.+)", raw)
    if not m:
        raise UserError(f"--target {raw!r}: not a target; {forms}")
    name, op, rhs = m.group(1), m.group(2), m.group(3).strip().replace(" ", "")
    if name not in TARGETS:
        raise UserError(f"--target {raw!r}: unknown target {name!r}; allowed: "
                        f"{', '.join(TARGETS)}")
    parity = False
    if op in (">=", "<="):
        if not re.fullmatch(_NUM, rhs):
            raise UserError(f"--target {raw!r}: expected a number after {op}; {forms}")
        x = float(rhs)
        lo, hi = (x, math.inf) if op == ">=" else (-math.inf, x)
    elif mm := re.fullmatch(rf"({_NUM}|parity)?{_PM}({_NUM})", rhs):
        c, t = mm.group(1), float(mm.group(2))
        if t < 0:
            raise UserError(f"--target {raw!r}: the tolerance must be 0 or more")
        if c == "parity":
            if name != "first_seat":
                raise UserError(f"--target {raw!r}: parity is a centre of first_seat only")
            parity, centre = True, 0.0
        else:
            centre = float(c) if c else 0.0
        lo, hi = centre - t, centre + t
    elif mm := re.fullmatch(rf"({_NUM})\.\.({_NUM})", rhs):
        lo, hi = float(mm.group(1)), float(mm.group(2))
        if lo > hi:
            raise UserError(f"--target {raw!r}: the range is empty ({_g(lo)} > {_g(hi)})")
    else:
        raise UserError(f"--target {raw!r}: cannot read {rhs!r}; {forms}")
    _, vmin, vmax, what = TARGETS[name]
    if not parity and (hi < vmin or lo > vmax):
        raise UserError(f"--target {raw!r}: {what} lies in {_g(vmin)}..{_g(vmax)}; the band "
                        f"{_g(lo)}..{_g(hi)} is outside it")
    if name == "effects" and not (math.isfinite(lo) and math.isfinite(hi)):
        raise UserError(f"--target {raw!r}: effects needs a two-sided band, e.g. effects=±3")
    return Target(name, lo, hi, raw, parity)


def parse_targets_file(path: str | Path) -> tuple[list[Target], list[str]]:
    """A TOML file ``[targets]`` (name = "50±2" / "13..16" / ">=0.9") and an optional
    ``params = ["structures.*.cost.*", ...]``; returns (targets, param patterns). Raises
    UserError when unreadable or malformed."""
    p = Path(path)
    try:
        doc = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise UserError(f"--targets {p}: cannot read it ({e.strerror})") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise UserError(f"--targets {p}: not UTF-8 TOML ({' '.join(str(e).split())[:120]})"
                        ) from None
    unknown = set(doc) - {"targets", "params"}
    if unknown:
        raise UserError(f"--targets {p}: unknown key(s) {', '.join(sorted(unknown))}; allowed: "
                        "targets, params")
    tt = doc.get("targets", {})
    if not isinstance(tt, dict):
        raise UserError(f"--targets {p}: [targets] must be a table of name = \"band\"")
    out = []
    for k, v in tt.items():
        v = str(v).strip()
        out.append(parse_target(f"{k}{v}" if v[:2] in (">=", "<=") else f"{k}={v}"))
    params = doc.get("params", [])
    if not isinstance(params, list) or not all(isinstance(x, str) for x in params):
        raise UserError(f"--targets {p}: params must be a list of data paths")
    return out, params


def parse_budget(text: str) -> float:
    """``"10m"``, ``"90s"``, ``"1h"``, ``"1h30m"`` or seconds -> seconds (10 s .. 7 days).
    Raises UserError."""
    raw = str(text).strip().lower()
    if re.fullmatch(r"\d+(?:\.\d+)?", raw):
        secs = float(raw)
    else:
        parts = re.findall(r"(\d+(?:\.\d+)?)([hms])", raw)
        if not parts or "".join(a + b for a, b in parts) != raw:
            raise UserError(f"--budget {text!r}: expected a duration like 10m, 90s, 1h30m or "
                            "a number of seconds")
        secs = sum(float(a) * {"h": 3600, "m": 60, "s": 1}[b] for a, b in parts)
    if not 10 <= secs <= 7 * 86400:
        raise UserError(f"--budget {text!r}: allowed 10s..7 days")
    return secs
