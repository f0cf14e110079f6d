"""``boardsim tune``: the smallest change to the printed components that meets the designer's
targets (issue 18; method and measurements: docs/tune.md).

A **target** is a band on one measured quantity, per player count:

* ``first_seat``: the first player's win share in points (percent), by turn order (the seat
  that moved first in each game, whatever its seat number): ``first_seat=50±2`` (``50+-2``),
  ``first_seat=parity±2`` (``100/players`` +- 2), ``first_seat=48..52``;
* ``balance``: ``1 - (max - min)`` of the win rates by turn position (the report's Balance):
  ``balance>=0.9``;
* ``length``: the mean game length in turns: ``length=13..16``;
* ``margin``: the mean score margin, winner's score minus the runner-up's: ``margin=2..6``;
* ``effects``: every component's causal effect (win-rate points, ``analysis.lab.effects``) within
  a band: ``effects=±3``. It needs the effects module; without it the target is refused.

A **parameter** is a data path with wildcards over the game's component schema
(``structures.*.cost.*``, ``goals.*.vp``); every number it matches that the schema declares
tunable (``Tunable``: its allowed range) becomes one integer parameter, searched within that
range and at most ``max_step`` from its printed value (a wildcard over the parts of a vector
means its non-zero parts: ``buildings.*.cost.*`` is each building's printed cost; a 0 part is
searched only when named); ``option:NAME`` makes a rule option a categorical parameter. A schema may name alias spellings of fields (``ComponentSchema.aliases``:
Province's ``structures.X.cost.labor`` is ``structures.X.labor``).

The search (optuna, seeded TPE by default) minimises one number per candidate::

    objective = 100 * distance + changed + total_change / (max_total_change + 1)

``distance``: the sum over targets and player counts of how far each estimate lies outside
its band (in the target's unit: points, turns, 0.01 of Balance), the band shrunk by
``SAFETY`` of its half-width so that a candidate on the edge is not preferred; ``changed``:
the number of changed numbers (and options); ``total_change``: the sum of the absolute
changes. So any reduction of the distance by 0.01 outweighs one more changed number, and
among candidates that meet the targets the one with the fewest changed numbers, then the
smallest total change, wins.

Every candidate is played on **common random numbers**: the same run seed, game indices and
seatings (``Game.run_chunk`` directly, seat matrix from ``sim.core.seating``). **Racing**:
a trial plays ``stages[0]`` games, reports, plays up to ``stages[1]`` (the same first games
plus new ones), ...; after each stage but the last it is pruned (``RacingPruner``) when it is
worse than the median of the earlier trials at that stage. The search stops when the trial
count or the search share of the budget is spent; then the best candidates and the printed
data are re-played on fresh seeds (``final_games`` each) and every target is shown with its
95% interval; a candidate *meets* a target when the whole interval lies in the band.

Resumable and reproducible: the study lives in ``out/study.sqlite3``; trial ``k``'s sampler is
seeded from ``(seed, k)`` and the pruner reads finished trials only, so an interrupted tune
resumes with the same trials, and the same command and seed give the same answer (with
``--trials``; with a time budget alone, the trials run are the same sequence, cut where the
time ends).
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import math
import re
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from analysis.doc import md_table, write_atomic
from analysis.paired import paired_difference
from sim.core.components import slug
from sim.core.errors import UserError
from sim.core.integrity import MAX_GAMES, check_int, check_seed

__all__ = ["Target", "Param", "parse_target", "parse_targets_file", "parse_budget",
           "expand_params", "Evaluator", "RacingPruner", "objective_value", "run_study",
           "tune", "TARGETS", "SAFETY"]

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
MAX_PARAMS = 200
EFFECTS_HOOK = "analysis.lab.effects"


# ---- targets ------------------------------------------------------------------------------
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


def check_targets(targets: list[Target]) -> None:
    """At least one target, each name once; the effects target needs the effects module."""
    if not targets:
        raise UserError("tune: give at least one --target (e.g. --target first_seat=50±2); "
                        f"names: {', '.join(TARGETS)}")
    names = [t.name for t in targets]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise UserError(f"tune: target {dup[0]} given twice; give each target once")
    if "effects" in names and effects_hook() is None:
        raise UserError("--target effects needs the effects module (analysis/lab/effects.py, "
                        "issue 15), which this build does not have")


def effects_hook() -> Callable | None:
    """The component-effect measurement for the ``effects`` target: ``component_effects``
    below when ``analysis.lab.effects`` (issue 15) offers ``components_for``, ``play_arm`` and
    ``measure``; None when it does not (the target is then refused)."""
    import importlib

    try:
        mod = importlib.import_module(EFFECTS_HOOK)
    except ModuleNotFoundError:
        return None
    if not all(hasattr(mod, f) for f in ("components_for", "play_arm", "measure")):
        return None
    return component_effects


def component_effects(game_id: str, players: int, strategies: list[str], seating: str,
                      n: int, seed: int, options: dict[str, Any], data: dict[str, Any],
                      jobs: int = 1) -> dict[str, np.ndarray]:
    """Every component's causal effect (``analysis.lab.effects``: the holders' win share in the
    candidate's data minus in its one-step nudge arm, paired games, clustered 95% interval)
    around the candidate data ``data``: ``{"effect", "lo", "hi": float64[k] in points,
    "label": object[k]}``. Plays ``n`` games of ``seed`` per arm (k + 1 arms)."""
    from analysis.lab import effects as E
    from sim.registry import get_game

    game = get_game(game_id, data or None)
    comps = E.components_for(game, options)
    holders = sorted({c.holder for c in comps if c.holder})
    base = E.play_arm(game_id, data, n, players, strategies, seating, seed, options, holders,
                      jobs, max(1, min(2000, n)))
    eff, lo, hi, labels = [], [], [], []
    for c in comps:
        arm = E.play_arm(game_id, {**data, c.path: c.new}, n, players, strategies, seating,
                         seed, options, [], jobs, max(1, min(2000, n)))
        r = E.measure(base, arm, c)
        if r["effect"] != r["effect"]:
            continue
        eff.append(100.0 * r["effect"])
        lo.append(100.0 * r["lo"])
        hi.append(100.0 * r["hi"])
        labels.append(c.label)
    return {"effect": np.array(eff), "lo": np.array(lo), "hi": np.array(hi),
            "label": np.array(labels, dtype=object)}


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


# ---- parameters ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Param:
    """One searched number: ``path`` (canonical data path, or ``option:NAME``), its printed
    ``value`` and the values it may take (``choices``, printed value included)."""

    path: str
    value: Any
    choices: tuple

    @property
    def is_option(self) -> bool:
        return self.path.startswith("option:")


def _leaves(doc: dict, schema) -> list[tuple[str, list[str], Any, str, str]]:
    """Every whole number of the document: (canonical path, other spellings, value,
    table, field[.part])."""
    aliases = getattr(schema, "aliases", {}) or {}
    back = {}  # "table.field" -> "table.alias.field"
    for key, fields in aliases.items():
        t, a = key.split(".", 1)
        for f in fields:
            back[f"{t}.{f}"] = f"{a}.{f}"
    out = []
    for table, node in doc.items():
        if not isinstance(node, list):
            continue
        keyf = schema.keys.get(table, "name")
        for row in node:
            rk = slug(row[keyf])
            for fname, v in row.items():
                if fname == keyf or isinstance(v, bool):
                    continue
                base = f"{table}.{rk}.{fname}"
                if isinstance(v, int):
                    alt = [f"{table}.{rk}.{back[f'{table}.{fname}']}"] \
                        if f"{table}.{fname}" in back else []
                    out.append((base, alt, v, table, fname))
                elif isinstance(v, list) and v and all(
                        isinstance(x, int) and not isinstance(x, bool) for x in v):
                    names = schema.vectors.get(f"{table}.{fname}", ())
                    for i, x in enumerate(v):
                        part = names[i] if i < len(names) else str(i)
                        out.append((f"{base}.{part}", [f"{base}.{i}"], x, table,
                                    f"{fname}.{part}"))
    return out


def _tunable_range(schema, table: str, fld: str, value: int) -> tuple[int, int] | None:
    """The allowed range of one number from the schema's ``Tunable`` entries, or None when
    the schema does not declare it tunable."""
    fname, _, part = fld.partition(".")
    for t in schema.tunables:
        if t.table != table:
            continue
        tf, _, tp = t.field.partition(".")
        if tf != fname:
            continue
        if not part and not tp:
            return t.lo, t.hi
        if part and (tp == "all" or tp == part or (tp in ("", "*") and value)):
            return t.lo, t.hi
    return None


def _match(pattern: str, path: str) -> bool:
    a, b = pattern.split("."), path.split(".")
    return len(a) == len(b) and all(fnmatch.fnmatchcase(y, x) for x, y in zip(a, b))


def expand_params(game, patterns: list[str], max_step: int) -> list[Param]:
    """The parameters named by ``patterns`` (data paths with ``*`` wildcards per part, or
    ``option:NAME``): every tunable number they match, with the values it may take (the
    schema's tunable range, within ``max_step`` of the printed value; ``max_step`` 0: the
    whole range). Raises UserError on a pattern that matches no tunable number, naming the
    tunable fields."""
    if not patterns:
        raise UserError("tune: give at least one --param (a data path with wildcards, e.g. "
                        "'structures.*.cost.*', or option:NAME)")
    schema = game.component_schema
    doc = game.component_document()
    leaves = _leaves(doc, schema)
    found: dict[str, Param] = {}
    for pat in patterns:
        pat = pat.strip()
        if pat.startswith("option:"):
            name = pat.split(":", 1)[1]
            opt = game.options.by_name.get(name)
            if opt is None:
                raise UserError(f"--param {pat}: unknown rule option {name!r}; allowed: "
                                f"{', '.join(game.options.by_name)}")
            if opt.kind == "bool":
                choices = (False, True)
            elif opt.allowed:
                choices = tuple(opt.allowed)
            elif opt.min is not None and opt.max is not None and opt.max - opt.min <= 40:
                choices = tuple(range(opt.min, opt.max + 1))
            else:
                raise UserError(f"--param {pat}: {name} has too many values to search "
                                f"({opt.allowed_text()})")
            found[pat] = Param(pat, opt.default, choices)
            continue
        if not re.fullmatch(r"[a-z0-9_*?.\[\]]+", pat.lower()) or ".." in pat:
            raise UserError(f"--param {pat!r}: expected a data path like "
                            "structures.*.cost.* or option:NAME")
        hits = 0
        for path, alts, value, table, fld in leaves:
            if not any(_match(pat.lower(), p) for p in [path, *alts]):
                continue
            if "." in fld and value == 0 and any(c in pat.rsplit(".", 1)[1] for c in "*?["):
                continue  # a wildcard part means the printed ones: a 0 part only by name
            rng = _tunable_range(schema, table, fld, value)
            if rng is None:
                continue
            lo, hi = rng
            if max_step:
                lo, hi = max(lo, value - max_step), min(hi, value + max_step)
            lo, hi = min(lo, value), max(hi, value)
            hits += 1
            if hi > lo:
                found.setdefault(path, Param(path, value, tuple(range(lo, hi + 1))))
        if not hits:
            tun = sorted({f"{t.table}.*.{t.field}" for t in schema.tunables})
            raise UserError(f"--param {pat!r}: matches no tunable number of {game.id}; "
                            f"tunable: {', '.join(tun)}")
    params = sorted(found.values(), key=lambda p: p.path)
    if not params:
        raise UserError("tune: the --param patterns leave nothing to change (every match is "
                        "fixed at its range)")
    if len(params) > MAX_PARAMS:
        raise UserError(f"tune: {len(params)} parameters; at most {MAX_PARAMS} (narrow --param)")
    return params


def edit_cost(params: list[Param], values: dict[str, Any]) -> tuple[int, float]:
    """(changed numbers, total absolute change) of ``values`` against the printed values;
    an option counts 1 changed number and 1 of change."""
    n, tot = 0, 0.0
    for p in params:
        v = values.get(p.path, p.value)
        if v != p.value:
            n += 1
            tot += 1.0 if p.is_option else abs(float(v) - float(p.value))
    return n, tot


def split_values(params: list[Param], values: dict[str, Any]
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
    """(data overrides, rule options) of the changed values."""
    data, opts = {}, {}
    for p in params:
        v = values.get(p.path, p.value)
        if v == p.value:
            continue
        if p.is_option:
            opts[p.path.split(":", 1)[1]] = v
        else:
            data[p.path] = v
    return data, opts


# ---- playing and measuring ---------------------------------------------------------------
@dataclass
class Games:
    """Per-game results of one candidate at one player count (finished and limit games):
    win_share/score ``float64[N, P]``, first_player ``int64[N]``, turns ``float64[N]``,
    finished ``bool[N]``."""

    win_share: np.ndarray
    score: np.ndarray
    first_player: np.ndarray
    turns: np.ndarray
    finished: np.ndarray

    def extend(self, other: Games) -> Games:
        return Games(*(np.concatenate([a, b]) for a, b in zip(self.arrays(), other.arrays())))

    def arrays(self):
        return (self.win_share, self.score, self.first_player, self.turns, self.finished)

    @property
    def n(self) -> int:
        return int(self.turns.shape[0])


def per_game(g: Games, name: str) -> np.ndarray:
    """The per-game values whose mean is the quantity ``name`` (finished games only):
    first_seat in points, length in turns, margin in score points. Balance has none."""
    f = g.finished
    if name == "first_seat":
        return 100.0 * g.win_share[np.arange(g.n), g.first_player][f]
    if name == "length":
        return g.turns[f]
    if name == "margin":
        s = np.sort(g.score[f], axis=1)
        return s[:, -1] - s[:, -2]
    raise KeyError(name)


def balance_of(win_share: np.ndarray, first_player: np.ndarray) -> float:
    """Balance by turn order: 1 - (max - min) of the mean win share of each turn position
    (position 0 = the player who moved first), from ``win_share`` ``float64[N, P]`` and
    ``first_player`` ``int64[N]`` (the report's Balance, never by seat number)."""
    p = win_share.shape[1]
    pos = (np.arange(p)[None, :] - first_player[:, None]) % p
    r = np.array([win_share[pos == k].mean() for k in range(p)])
    return float(1.0 - (r.max() - r.min()))


def measure(g: Games, name: str, interval: bool = False, seed: int = 0
            ) -> tuple[float, float, float]:
    """(estimate, lo, hi) of quantity ``name`` over the finished games; the 95% interval
    (normal for means; a 400-resample bootstrap over games for balance) when ``interval``,
    else NaN. NaN estimate without finished games."""
    nan = float("nan")
    if name == "balance":
        ws, fp = g.win_share[g.finished], g.first_player[g.finished]
        if ws.shape[0] < 2:
            return nan, nan, nan
        est = balance_of(ws, fp)
        if not interval:
            return est, nan, nan
        rng = np.random.default_rng(seed)
        boots = []
        for _ in range(400):
            i = rng.integers(0, ws.shape[0], ws.shape[0])
            boots.append(balance_of(ws[i], fp[i]))
        lo, hi = np.percentile(boots, [2.5, 97.5])
        return est, float(lo), float(hi)
    x = per_game(g, name)
    if x.shape[0] < 2:
        return nan, nan, nan
    m = float(x.mean())
    if not interval:
        return m, nan, nan
    h = 1.959963984540054 * float(x.std(ddof=1)) / math.sqrt(x.shape[0])
    return m, m - h, m + h


def shortfall(x: float, band: tuple[float, float], unit: float) -> float:
    """How far ``x`` lies outside ``band``, in ``unit`` s (0 inside; 1000 for NaN)."""
    if x != x:
        return 1000.0
    lo, hi = band
    return max(0.0, lo - x, x - hi) / unit


def objective_value(distance: float, changed: int, total: float, max_total: float) -> float:
    """``100 * distance + changed + total / (max_total + 1)`` (see the module docstring)."""
    return 100.0 * distance + changed + total / (max_total + 1.0)


def play_part(game_id: str, data: dict[str, Any], options: dict[str, Any], seating: str,
              seed: int, players: int, strategies: list[str], first: int, count: int,
              search_budget: int | None = None) -> tuple[int, Games]:
    """One chunk task of a candidate: games ``first .. first+count-1`` of run ``seed`` with the
    component data ``data`` (overrides) and rule ``options``, seats from
    ``sim.core.seating.seat_matrix(seating, ...)``; every search bot's budget set to
    ``search_budget`` playouts per decision when given (``analysis.lab.tiers``' search tier).
    Returns ``(first, Games)``. A module-level function, so the runner's process backends
    (loky, dask) can ship it."""
    from sim.core.seating import seat_matrix
    from sim.registry import get_game

    game = get_game(game_id, data or None)
    limit = game.end_reasons.index("limit") if "limit" in game.end_reasons else -1
    seats = seat_matrix(seating, seed, first, count, players, len(strategies))
    if search_budget is None:
        r = game.run_chunk(first, count, seed, players, seats, options, strategies)
    else:
        from analysis.lab.tiers import _with_budget

        names = [game.strategy(s).name for s in strategies]
        codes, params = _with_budget(game, names, search_budget)
        st = game._alloc(game.resolve_options(options))
        r = game._play_chunk(st, first, count, np.uint64(int(seed) % 2**64),
                             game.check_players(players), np.ascontiguousarray(seats, np.int64),
                             codes, params)
    return first, Games(np.asarray(r.win_share, np.float64), np.asarray(r.score, np.float64),
                        np.asarray(r.first_player, np.int64), np.asarray(r.turns, np.float64),
                        np.asarray(r.end_reason) != limit)


class Evaluator:
    """Plays candidates on common random numbers and measures the targets.

    ``play(values, players, first, count, seed[, strategies]) -> Games``: games ``first ..
    first+count-1`` of the run seed with the candidate's data and options (default:
    ``play_part`` chunk tasks through the runner's execution layer, ``sim.runner.Executor``
    with ``backend`` (one of ``sim.runner.BACKENDS``) and ``scheduler`` (dask), the games
    split into at most ``jobs`` chunks). Game ``i`` depends only on (seed, i), never on the
    backend or the split. Replaceable for tests (a toy objective). Use as a context manager
    (``with ev:``) to keep one executor (a dask cluster) open across many plays; outside
    ``with``, each play opens its own. Raises UserError on an unknown backend.
    """

    MIN_PART = 50
    """Fewest games per chunk task of the scripted bots (a search bot's chunk: 1 game)."""

    def __init__(self, game_id: str, params: list[Param], players: list[int],
                 strategies: list[str], seating: str, base_options: dict[str, Any],
                 jobs: int = 1, play: Callable | None = None, backend: str = "threading",
                 scheduler: str | None = None):
        from sim.runner import check_backend

        check_backend(backend, scheduler)
        self.game_id = game_id
        self.params = params
        self.players = players
        self.strategies = strategies
        self.seating = seating
        self.base_options = dict(base_options)
        self.jobs = max(1, jobs)
        self.backend, self.scheduler = backend, scheduler
        self.custom_play = play is not None
        self._play = play or self._run_chunks
        self._executor = None
        self.games_played = 0

    def __enter__(self) -> Evaluator:
        from sim.runner import Executor

        if not self.custom_play:
            self._executor = Executor(self.jobs, self.backend, self.scheduler).__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._executor is not None:
            ex, self._executor = self._executor, None
            ex.__exit__(*exc)

    def _run_chunks(self, values: dict[str, Any], players: int, first: int, count: int,
                    seed: int, strategies: list[str] | None = None,
                    seating: str | None = None, search_budget: int | None = None) -> Games:
        from sim.runner import map_tasks

        strategies = strategies or self.strategies
        data, opts = split_values(self.params, values)
        options = {**self.base_options, **opts}
        min_part = 1 if search_budget is not None else self.MIN_PART
        k = min(self.jobs, max(1, count // min_part))
        bounds = np.linspace(first, first + count, k + 1).astype(int)
        tasks = [(self.game_id, data, options, seating or self.seating, seed, players,
                  list(strategies), int(a), int(b - a), search_budget)
                 for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
        if self._executor is not None:
            got = list(self._executor.map(play_part, tasks))
        else:
            got = list(map_tasks(play_part, tasks, self.jobs, self.backend, self.scheduler))
        parts = [g for _, g in sorted(got, key=lambda x: x[0])]
        out = parts[0]
        for p in parts[1:]:
            out = out.extend(p)
        return out

    def play(self, values, players, first, count, seed, strategies=None, seating=None,
             search_budget=None) -> Games:
        """Games ``first .. first+count-1`` of ``seed`` for the candidate ``values`` (see the
        class docstring); ``strategies``/``seating``: another bot mix (the re-check);
        ``search_budget``: the search bot's playouts per decision."""
        self.games_played += count
        if strategies is None and seating is None and search_budget is None:
            return self._play(values, players, first, count, seed)
        if self.custom_play:
            return self._play(values, players, first, count, seed, strategies)
        return self._play(values, players, first, count, seed, strategies, seating,
                          search_budget)


# ---- optuna --------------------------------------------------------------------------------
def _optuna():
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def _trial_seed(seed: int, k: int) -> int:
    h = hashlib.sha256(f"tune-sampler:{seed}:{k}".encode()).digest()
    return int.from_bytes(h[:4], "little")


def _pruner_class():
    optuna = _optuna()

    class RacingPruner(optuna.pruners.BasePruner):
        """Prune a trial at a stage when its value is worse than the median value of the
        finished (complete or pruned) trials at that stage, once ``startup`` of them have
        reached it. Running and failed trials are ignored, so a resumed study decides as an
        uninterrupted one does."""

        def __init__(self, startup: int = 4):
            self.startup = startup

        def prune(self, study, trial) -> bool:
            step = trial.last_step
            if step is None:
                return False
            value = trial.intermediate_values[step]
            done = study.get_trials(deepcopy=False, states=(
                optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED))
            others = [t.intermediate_values[step] for t in done
                      if step in t.intermediate_values and t.number < trial.number]
            if len(others) < self.startup:
                return False
            return value > float(np.median(others))

    return RacingPruner


def RacingPruner(startup: int = 4):  # noqa: N802 - a class made on first use (lazy optuna)
    """The racing rule (see ``_pruner_class``)."""
    return _pruner_class()(startup)


def _sampler(kind: str, seed: int, k: int, n_params: int):
    optuna = _optuna()
    s = _trial_seed(seed, k)
    if kind == "tpe":
        return optuna.samplers.TPESampler(seed=s, n_startup_trials=min(10, 2 + n_params),
                                          multivariate=True)
    if kind == "random":
        return optuna.samplers.RandomSampler(seed=s)
    raise UserError(f"--sampler {kind!r}; allowed: tpe, random")


def _key(values: dict[str, Any]) -> str:
    return json.dumps(values, sort_keys=True, default=str)


MAX_PROBES = 100
"""One-step probes (each number +-1 alone) open the search when there are at most this many."""
SIMPLIFY_SHARE = 0.2
"""The last share of the search (trials, or time) reverts changed numbers of the best."""


def probes(params: list[Param]) -> list[dict[str, Any]]:
    """Every single-number change by one step (down, then up) within its choices, in path
    order; [] when there would be more than ``MAX_PROBES``."""
    printed = {p.path: p.value for p in params}
    out = []
    for p in params:
        if p.is_option:
            out += [{**printed, p.path: c} for c in p.choices if c != p.value]
            continue
        for d in (-1, 1):
            if p.value + d in p.choices:
                out.append({**printed, p.path: p.value + d})
    return out if len(out) <= MAX_PROBES else []


def _revert_next(study, params: list[Param], cache: dict) -> dict[str, Any] | None:
    """The next simplification candidate: the best complete trial with one changed number
    put back to its printed value (the first such not yet played, in path order); None when
    every revert of the best has been played (so none of them is better)."""
    best = best_trials(study, params, 1)
    if not best:
        return None
    vals = best[0]["values"]
    for p in params:
        if vals[p.path] != p.value:
            cand = {**vals, p.path: p.value}
            if _key(cand) not in cache:
                return cand
    return None


def _neighbor_next(study, params: list[Param], cache: dict) -> dict[str, Any] | None:
    """The next local step: the best complete trial with one number moved by one step (down,
    then up, in path order; an option to each other value), the first such not yet played;
    None when all have been played (the best is a local optimum of one-step moves)."""
    best = best_trials(study, params, 1)
    if not best:
        return None
    vals = best[0]["values"]
    for p in params:
        steps = [c for c in p.choices if c != vals[p.path]] if p.is_option else [
            vals[p.path] + d for d in (-1, 1) if vals[p.path] + d in p.choices]
        for v in steps:
            cand = {**vals, p.path: v}
            if _key(cand) not in cache:
                return cand
    return None


def run_study(storage: str, name: str, params: list[Param], targets: list[Target],
              evaluator: Evaluator, stages: list[int], seed: int, n_trials: int | None,
              deadline: float | None, sampler: str = "tpe",
              on_trial: Callable | None = None, stop_after: int | None = None,
              started: float | None = None):
    """Run (or resume) the study ``name`` in ``storage`` until it holds ``n_trials`` finished
    trials or ``deadline`` (a ``time.monotonic()`` value) passes; returns the optuna study.

    The trials, in order: the printed data; the one-step probes (``probes``); then one-step
    moves from the best candidate so far (``_neighbor_next``: a greedy walk that adds or
    removes one step at a time, so it finds small edits) until none of them improves on the
    best; then the sampler's proposals (optuna TPE: the global search); in the last ``SIMPLIFY_SHARE`` of the trials (or of the time from
    ``started`` to ``deadline``) the best candidate with one changed number reverted at a
    time, as long as such reverts remain (a revert that is at least as good becomes the new
    best, and is simplified in turn). ``stages``: the racing sample sizes (games per player
    count, increasing); every trial plays games ``0 .. stages[i]-1`` of ``seed``.
    ``stop_after``: raise KeyboardInterrupt in the middle of the first new trial from that
    number on (tests of an interruption). Each finished trial holds user attrs ``distance``,
    ``changed``, ``total``, ``games``, ``metrics`` (estimate per target and player count),
    ``source`` (printed, probe, sampler, revert).
    """
    optuna = _optuna()
    study = optuna.create_study(storage=storage, study_name=name, direction="minimize",
                                load_if_exists=True, pruner=RacingPruner())
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,
                                                      optuna.trial.TrialState.WAITING)):
        study._storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)
    fin = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    max_total = float(sum(max(abs(c - p.value) for c in p.choices) if not p.is_option else 1
                          for p in params))
    cache: dict[str, dict] = {}
    for t in study.get_trials(deepcopy=False, states=fin):
        cache.setdefault(_key(t.params), {"state": t.state, "iv": t.intermediate_values,
                                          "value": t.value, "attrs": t.user_attrs})
    printed = {p.path: p.value for p in params}
    opening = [printed] + probes(params)
    dists = {p.path: optuna.distributions.CategoricalDistribution(p.choices)
             if p.is_option else optuna.distributions.IntDistribution(
                 min(p.choices), max(p.choices)) for p in params}
    started = time.monotonic() if started is None else started

    def simplifying(k: int) -> bool:
        if n_trials is not None:
            return k >= max(len(opening), int(n_trials * (1 - SIMPLIFY_SHARE)))
        if deadline is None:
            return False
        return time.monotonic() >= deadline - SIMPLIFY_SHARE * (deadline - started)

    while True:
        done = study.get_trials(deepcopy=False, states=fin)
        k = len(done)
        if n_trials is not None and k >= n_trials:
            break
        if deadline is not None and time.monotonic() >= deadline:
            break
        study.sampler = _sampler(sampler, seed, k, len(params))
        fixed, source = None, "sampler"
        if k < len(opening):
            fixed, source = opening[k], ("printed" if k == 0 else "probe")
        elif simplifying(k):
            fixed = _revert_next(study, params, cache)
            source = "revert" if fixed is not None else "sampler"
        if fixed is None and k >= len(opening):
            fixed = _neighbor_next(study, params, cache)  # None at a local optimum: TPE
            source = "step" if fixed is not None else "sampler"
        if fixed is not None:
            study.enqueue_trial(fixed)
        trial = study.ask(dists)
        values = {p.path: trial.params[p.path] for p in params}
        key = _key(values)
        changed, total = edit_cost(params, values)
        hit = cache.get(key)
        if hit is not None:  # the same candidate again: its stored result, no new games
            for step, v in sorted(hit["iv"].items()):
                trial.report(v, step)
            for a, v in hit["attrs"].items():
                trial.set_user_attr(a, v)
            trial.set_user_attr("repeat", True)
            trial.set_user_attr("source", source)
            if hit["state"] == optuna.trial.TrialState.PRUNED:
                study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            else:
                study.tell(trial, hit["value"])
            if on_trial:
                on_trial(study)
            continue
        games = {pp: None for pp in evaluator.players}
        pruned = False
        value = math.inf
        dist = math.inf
        metrics: dict[str, float] = {}
        for step, n in enumerate(stages):
            if stop_after is not None and trial.number >= stop_after and step == 1:
                raise KeyboardInterrupt  # a test of an interruption in the middle of a trial
            dist = 0.0
            for pp in evaluator.players:
                have = 0 if games[pp] is None else games[pp].n
                new = evaluator.play(values, pp, have, n - have, seed)
                games[pp] = new if games[pp] is None else games[pp].extend(new)
                for t in targets:
                    if t.name == "effects":
                        continue  # measured in the final check only (docs/tune.md)
                    est = measure(games[pp], t.name)[0]
                    metrics[f"{t.name}@{pp}"] = est
                    dist += shortfall(est, t.aim(pp), TARGETS[t.name][0])
            value = objective_value(dist, changed, total, max_total)
            trial.report(value, step)
            # the printed data is never pruned: it is the baseline of the race
            if step < len(stages) - 1 and source != "printed" and trial.should_prune():
                pruned = True
                break
        trial.set_user_attr("distance", dist)
        trial.set_user_attr("changed", changed)
        trial.set_user_attr("total", total)
        trial.set_user_attr("games", int(n))
        trial.set_user_attr("metrics", metrics)
        trial.set_user_attr("source", source)
        state = optuna.trial.TrialState.PRUNED if pruned else optuna.trial.TrialState.COMPLETE
        if pruned:
            study.tell(trial, state=state)
        else:
            study.tell(trial, value)
        cache[key] = {"state": state, "iv": dict(trial_iv(study, trial.number)),
                      "value": None if pruned else value,
                      "attrs": study.trials[trial.number].user_attrs}
        if on_trial:
            on_trial(study)
    return study


def trial_iv(study, number: int) -> dict[int, float]:
    return study.trials[number].intermediate_values


def best_trials(study, params: list[Param], k: int) -> list[dict[str, Any]]:
    """The ``k`` best complete trials with distinct candidates: [{number, value, values,
    distance, changed, total}], best first (ties by trial number)."""
    optuna = _optuna()
    seen, out = set(), []
    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    for t in sorted(done, key=lambda t: (t.value, t.number)):
        values = {p.path: t.params[p.path] for p in params}
        key = _key(values)
        if key in seen:
            continue
        seen.add(key)
        out.append({"number": t.number, "value": t.value, "values": values,
                    "distance": t.user_attrs.get("distance"),
                    "changed": t.user_attrs.get("changed"), "total": t.user_attrs.get("total")})
        if len(out) >= k:
            break
    return out


# ---- the whole tune --------------------------------------------------------------------------
@dataclass
class TuneResult:
    """What ``tune`` returns: the output folder, the answer (a candidate dict or None when
    nothing met the targets), the closest candidate and its blocking target, the summary."""

    out: Path
    answer: dict | None
    closest: dict | None
    blocking: str | None
    summary: str
    candidates: list[dict] = field(default_factory=list)


def _fresh_seed(seed: int) -> int:
    h = hashlib.sha256(f"tune-fresh:{seed}".encode()).digest()
    return int.from_bytes(h[:8], "little") >> 1


def _final_check(ev: Evaluator, cands: list[dict], targets: list[Target], n: int, seed: int,
                 strategies: list[str] | None = None, effects_games: int | None = None
                 ) -> None:
    """Play every candidate (``values``) on the fresh seed ``seed``, ``n`` games per player
    count, and add ``checks``: per target and player count the estimate, its 95% interval,
    the band and the status (met: the interval inside the band; missed: outside it;
    undecided), and the paired difference against the first candidate (the printed data)."""
    base_games: dict[int, Games] = {}
    for c in cands:
        checks = []
        for pp in ev.players:
            g = ev.play(c["values"], pp, 0, n, seed, strategies)
            if pp not in base_games:
                base_games[pp] = g
            for t in targets:
                if t.name == "effects":
                    checks.append(_effects_check(ev, c, t, pp, effects_games or n, seed,
                                                 strategies))
                    continue
                checks.append(_target_row(g, base_games[pp], t, pp, seed))
        c["checks"] = checks


def _target_row(g: Games, base: Games, t: Target, pp: int, seed: int) -> dict:
    """One target at ``pp`` players over the games ``g``: estimate, 95% interval, band,
    status (met: the interval inside the band; missed: outside it; undecided), finished and
    limit games, distance, and ``paired`` (difference against ``base``, the printed data's
    games on the same seeds and seatings; not for Balance, nor when ``base is g``)."""
    est, lo, hi = measure(g, t.name, interval=True, seed=seed)
    band = t.band(pp)
    status = ("met" if band[0] <= lo and hi <= band[1] else
              "missed" if hi < band[0] or lo > band[1] else "undecided")
    row = {"target": t.name, "players": pp, "band": band, "estimate": est,
           "lo": lo, "hi": hi, "status": status, "games": int(g.finished.sum()),
           "limit_games": int((~g.finished).sum()),
           "distance": shortfall(est, band, TARGETS[t.name][0])}
    if t.name != "balance" and base is not g:
        both = base.finished & g.finished
        if both.sum() >= 2:
            xb = per_game(Games(*(a[both] for a in base.arrays())), t.name)
            xv = per_game(Games(*(a[both] for a in g.arrays())), t.name)
            d = paired_difference(xb, xv)
            row["paired"] = (d.diff, d.lo, d.hi)
    return row


def _effects_check(ev, cand, target, players, n, seed, strategies=None) -> dict:
    """The effects target through ``effects_hook`` (every component's effect inside the band:
    met when every interval is inside, missed when one lies outside)."""
    hook = effects_hook()
    if hook is None:
        raise UserError("--target effects needs the effects module (analysis/lab/effects.py)")
    data, opts = split_values(ev.params, cand["values"])
    res = hook(ev.game_id, players, strategies or ev.strategies, ev.seating, n, seed,
               {**ev.base_options, **opts}, data, ev.jobs)
    band = target.band(players)
    if res["effect"].size == 0:
        nan = float("nan")
        return {"target": "effects", "players": players, "band": band, "estimate": nan,
                "lo": nan, "hi": nan, "status": "undecided", "games": n, "limit_games": 0,
                "distance": 1000.0}
    lo, hi = float(np.min(res["lo"])), float(np.max(res["hi"]))
    k = int(np.argmax(np.abs(res["effect"])))
    outside = (res["hi"] < band[0]) | (res["lo"] > band[1])
    status = "met" if band[0] <= lo and hi <= band[1] else \
        "missed" if outside.any() else "undecided"
    return {"target": "effects", "players": players, "band": band,
            "estimate": float(res["effect"][k]), "lo": lo, "hi": hi, "status": status,
            "games": n, "limit_games": 0, "worst": str(res["label"][k]),
            "outside": [str(x) for x in res["label"][outside]],
            "distance": float(sum(shortfall(float(e), band, 1.0) for e in res["effect"]))}


def _status_of(c: dict) -> str:
    s = [r["status"] for r in c["checks"]]
    return "met" if all(x == "met" for x in s) else "missed" if "missed" in s else "undecided"


def tune(game_id: str, targets: list[Target], patterns: list[str], players: list[int] | None,
         strategies: list[str] | None = None, options: dict[str, Any] | None = None,
         budget: float = 600.0, trials: int | None = None, games: int | None = None,
         final_games: int | None = None, max_step: int = 3, seed: int = 1, jobs: int = 1,
         out: Path | None = None, sampler: str = "tpe", top: int = 3,
         recheck_strategies: list[str] | None = None, progress: Callable | None = None,
         play: Callable | None = None, stop_after: int | None = None,
         effects_games: int | None = None, backend: str = "threading",
         scheduler: str | None = None, started: float | None = None) -> TuneResult:
    """The whole tune (module docstring): search, fresh-seed check, re-check, report.

    ``players``: player counts (default: the main job's); ``strategies``: the bot mix
    (default: the game's ``RECOMMENDED_MIX`` with pool seating); ``budget``: seconds for the
    whole command (the search gets ``SEARCH_SHARE`` of it); ``trials``: stop the search at
    this many finished trials (reproducible on any machine); ``games``: games per player count
    of the last racing stage (stages: games/16, games/4, games); ``final_games``: games per
    candidate and player count on fresh seeds (default 4 x games); ``effects_games``: games
    per arm of the effects target (default min(final_games, 2000); k + 1 arms per
    candidate); ``recheck_strategies``: the search-bot tier of the re-check (default:
    ``analysis.lab.tiers``' search tier, ``mcts`` in every seat at ``tiers.RUN_STUDY``'s budget,
    when the game has it, else skipped and said; ``_recheck``: as many games as fit the rest
    of ``budget``); ``backend``/``scheduler``: the runner's execution layer for every game
    played (``sim.runner.BACKENDS``; ``scheduler``: a dask scheduler address, with
    ``backend="dask"``; results do not depend on them nor on ``jobs``). Writes
    ``out/tune.md``, ``out/proposed.toml``, ``out/history.png``, ``out/tune.json``,
    ``out/check.json``, ``out/recheck.json`` and the study ``out/study.sqlite3``;
    ``started``: the ``time.monotonic()`` at which the command started (the CLI passes the
    process's start, ``process_started``; default: now), from which ``budget`` counts. Raises
    UserError on bad input.
    """
    from sim.registry import get_game
    from sim.runner import check_backend

    t_start = time.monotonic() if started is None else min(started, time.monotonic())
    check_backend(backend, scheduler)
    check_seed(seed)
    check_targets(targets)
    game = get_game(game_id)
    base_options = game.options.resolve(options or {})
    base_options = game.options.non_default(base_options)
    if players is None:
        plan = next((p for p in game.default_plan() if p.get("role", "main") == "main"), None)
        players = [plan["players"] if plan else game.min_players]
    for pp in players:
        game.check_players(pp)
    if strategies is None:
        mix = list(getattr(game.bots, "RECOMMENDED_MIX", ()) or ())
        if not mix:
            raise UserError(f"{game.id} declares no recommended bot mix; give --strategies")
        strategies, source = mix, "the recommended mix"
    else:
        source = "given"
    for s in strategies:
        game.strategy(s)
    seating = "pool" if len(strategies) > 1 else "fixed"
    check_int("--max-step", max_step, 0, 999)
    check_int("--top", top, 1, 20)
    params = expand_params(game, patterns, max_step)
    if games is None:
        games = 4000
    check_int("--games", games, 16, MAX_GAMES)
    stages = sorted({max(2, games // 16), max(2, games // 4), games})
    final_games = final_games or 4 * games
    check_int("--final-games", final_games, 10, MAX_GAMES)
    if effects_games is not None:
        check_int("--effects-games", effects_games, 10, MAX_GAMES)
    if trials is not None:
        check_int("--trials", trials, 1, 100_000)
    out = Path(out or Path("reports") / game.id / "tune")
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    setup = {"game": game.id, "targets": [t.text for t in targets], "params": patterns,
             "players": players, "strategies": strategies, "options": base_options,
             "max_step": max_step, "seed": seed, "games": games, "sampler": sampler,
             "final_games": final_games, "trials": trials, "budget": budget}
    setup_file = out / "setup.json"
    if setup_file.exists():
        old = json.loads(setup_file.read_text())
        if old != json.loads(json.dumps(setup)):
            raise UserError(f"--out {out} holds another tune ({setup_file}); use a new folder "
                            "or the same command")
    else:
        write_atomic(setup_file, json.dumps(setup, indent=2))
    ev = Evaluator(game.id, params, players, strategies, seating, base_options, jobs, play,
                   backend, scheduler)
    with ev:  # one executor (a dask cluster) for the whole tune
        storage = f"sqlite:///{(out / 'study.sqlite3').resolve()}"
        search_budget = SEARCH_SHARE * budget
        optuna = _optuna()
        study0 = optuna.create_study(storage=storage, study_name="tune", direction="minimize",
                                     load_if_exists=True)
        spent = float(study0.user_attrs.get("search_seconds", 0.0))
        finished = bool(study0.user_attrs.get("search_finished", False))
        t_search = time.monotonic()
        # --trials fixes the search (reproducible anywhere); else the search share of the budget
        deadline = None if trials is not None else t_search + max(0.0, search_budget - spent)
        if finished:
            study = study0
        else:
            def note(st):
                st.set_user_attr("search_seconds", spent + time.monotonic() - t_search)
                if progress:
                    progress(st, min(1.0, (spent + time.monotonic() - t_search) / search_budget))

            study = run_study(storage, "tune", params, targets, ev, stages, seed, trials,
                              deadline, sampler, note, stop_after,
                              t_search - spent if deadline is not None else None)
            study.set_user_attr("search_seconds", spent + time.monotonic() - t_search)
            study.set_user_attr("search_finished", True)
        n_trials = len(study.trials)
        search_games = int(sum(t.user_attrs.get("games", 0) for t in study.trials
                               if not t.user_attrs.get("repeat")) * len(players))
        # the fresh-seed check of the best few and of the printed data (first)
        printed = {p.path: p.value for p in params}
        best = [b for b in best_trials(study, params, top + 1) if b["values"] != printed][:top]
        cands = [{"number": None, "values": printed, "changed": 0, "total": 0.0,
                  "name": "printed"}] + [{**b, "name": f"trial {b['number']}"} for b in best]
        fresh = _fresh_seed(seed)
        check_file = out / "check.json"
        if check_file.exists():
            cands = json.loads(check_file.read_text())
            for c in cands:
                for r in c["checks"]:
                    r["band"] = tuple(r["band"])
        else:
            _final_check(ev, cands, targets, final_games, fresh, None,
                         effects_games or min(final_games, 2000))
            write_atomic(check_file, json.dumps(cands, indent=1, default=_jsonable))
        for c in cands:
            c["status"] = _status_of(c)
            c["distance_fresh"] = float(sum(r["distance"] for r in c["checks"]))
        proposals = cands[1:]
        # the printed data itself, when it already meets every target, is the smallest edit
        meeting = [c for c in cands if c["status"] == "met"]
        answer = min(meeting, key=answer_key) if meeting else None
        closest = answer or (min(proposals, key=lambda c: (c["distance_fresh"], c["changed"]))
                             if proposals else cands[0])
        blocking = None
        if answer is None:
            bad = [r for r in closest["checks"] if r["status"] != "met"]
            if bad:
                r = max(bad, key=lambda r: (r["status"] == "missed", r["distance"]))
                blocking = (f"{r['target']} at {r['players']} players: {r['estimate']:.2f} "
                            f"[{r['lo']:.2f}, {r['hi']:.2f}], band {_g(r['band'][0])}.."
                            f"{_g(r['band'][1])} ({r['status']})")
        # the re-check under the search-bot tier
        left = budget - (time.monotonic() - t_start) - RECHECK_RESERVE
        recheck_note, recheck = _recheck(game, ev, closest, targets, recheck_strategies,
                                         fresh ^ 0x5A5A, RECHECK_MAX, left, out)
        elapsed = time.monotonic() - t_start
        res = _write(out, game, params, targets, cands, answer, closest, blocking, setup, source,
                     budget, n_trials, search_games, final_games, study, recheck_note, recheck,
                     elapsed, float(study.user_attrs.get("search_seconds", 0.0)), base_options)
        return res


def inside_margin(c: dict) -> float:
    """How deep candidate ``c``'s intervals lie inside their bands: the smallest, over its
    checks, of the distance from the interval to the nearer band edge as a share of the band's
    half-width (0: an interval touching an edge; negative: outside)."""
    m = math.inf
    for r in c["checks"]:
        lo, hi = r["band"]
        half = (hi - lo) / 2 if math.isfinite(hi - lo) and hi > lo else 1.0
        m = min(m, min(r["lo"] - lo, hi - r["hi"]) / half)
    return m


def answer_key(c: dict) -> tuple[int, float, float]:
    """The order among candidates that meet every target on fresh seeds: the fewest changed
    numbers, then the smallest total change, then the intervals deepest inside their bands
    (``inside_margin``: of two equally small edits, the one less likely to fall out of a band
    on other seeds)."""
    return (c["changed"], c["total"], -inside_margin(c))


SEARCH_SHARE = 0.65
"""The share of ``--budget`` the search may use; the rest is for the fresh-seed check."""


def _jsonable(x):
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    return str(x)


RECHECK_MAX = 2000
"""At most this many search-tier games per candidate and player count in the re-check."""
RECHECK_RESERVE = 15.0
"""Seconds of ``--budget`` kept for writing the report and the process's exit after the
re-check (measured: about 2 s and 4 s at load 14 on 2 cores)."""
RECHECK_SAFETY = 0.5
"""The re-check starts a chunk only when it is predicted to take at most this share of the
time left: a search-bot game's time varies, and the machine's load can double mid-chunk (a
Province tune with the whole time left as the limit ended at 612-614 s of a 600 s budget when
other work started beside it)."""


def process_started() -> float | None:
    """The ``time.monotonic()`` value at which this process started (Linux ``/proc``), so that
    ``--budget`` counts the interpreter's start and the imports; None elsewhere."""
    import os

    try:
        with open("/proc/self/stat") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        age = uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    return time.monotonic() - max(0.0, age)


def _recheck(game, ev, cand, targets, recheck, seed, n_max, seconds, out):
    """Re-play the printed data and ``cand`` under the search-bot tier: ``analysis.lab.tiers``'
    search tier (``mcts`` in every seat at the tier study's budget, ``tiers.RUN_STUDY``), or
    the bots ``recheck`` (pool seating when several; ``mcts`` among them at that budget), on
    the fresh seed ``seed``: the same games 0 .. N-1 in both arms (paired). N grows by
    doubling chunks while the next chunk fits in ``seconds`` (split over the player counts),
    at most ``n_max``. Stored in ``out/recheck.json`` (a rerun reads it). Returns (note,
    [printed, cand] with ``checks``) or (note, None) when skipped."""
    from analysis.lab import tiers

    if recheck is None:
        if "mcts" not in game.strategies:
            return (f"Re-check under the search-bot tier: skipped: {game.id} has no `mcts` "
                    "bot in its registry in this build.", None)
        recheck = ["mcts"]
    names = [game.strategy(s).name for s in recheck]
    seating = "pool" if len(names) > 1 else "fixed"
    budget = tiers.RUN_STUDY.get(game.id, {}).get("budget") if "mcts" in names else None
    tt = [t for t in targets if t.name != "effects"]
    key = {"strategies": names, "seating": seating, "search_budget": budget, "seed": seed,
           "candidate": cand["values"], "targets": [t.text for t in tt]}
    f = out / "recheck.json"
    if f.exists():
        old = json.loads(f.read_text())
        if old.get("key") == json.loads(json.dumps(key)):
            for c in old["cands"]:
                for r in c["checks"]:
                    r["band"] = tuple(r["band"])
            return old["note"], old["cands"]
    who = ("`mcts` in every seat" if names == ["mcts"] else ", ".join(names)
           + f" ({seating} seating)")
    strength = ""
    if budget is not None:
        who += f" at {budget:,} playouts per decision (the tier study's, `tiers.RUN_STUDY`)"
        strength = " " + tiers.strength_note(game.id, budget)
    if not tt:
        return "Re-check under the search-bot tier: skipped: only the effects target.", None
    if seconds < RECHECK_RESERVE:
        return (f"Re-check under the search-bot tier ({who}): skipped: the budget was spent "
                "by the search and the fresh-seed check." + strength, None)
    cands = [{"values": {p.path: p.value for p in ev.params}, "name": "printed", "checks": []},
             {"values": cand["values"], "name": cand["name"], "checks": []}]
    t0 = time.monotonic()
    played = {}
    for i, pp in enumerate(ev.players):
        until = t0 + seconds * (i + 1) / len(ev.players)
        arms: list[Games | None] = [None, None]
        n, step = 0, min(n_max, 2 * ev.jobs)
        while step > 0:
            t1 = time.monotonic()
            for j, c in enumerate(cands):
                g = ev.play(c["values"], pp, n, step, seed, names, seating, budget)
                arms[j] = g if arms[j] is None else arms[j].extend(g)
            n += step
            per_game_s = (time.monotonic() - t1) / step
            left = until - time.monotonic()
            step = min(n_max - n, n, int(RECHECK_SAFETY * left / max(per_game_s, 1e-9)))
        played[pp] = n
        for c, g in zip(cands, arms):
            c["checks"] += [_target_row(g, arms[0], t, pp, seed) for t in tt]
    secs = time.monotonic() - t0
    note = (f"Re-check under the search-bot tier ({who}), fresh seeds, the same games in both "
            "arms: " + ", ".join(f"{v:,} games at {k} players" for k, v in played.items())
            + f" (as many as fit the rest of the budget, at most {n_max:,}; {secs:.0f} s)."
            + strength)
    write_atomic(f, json.dumps({"key": key, "note": note, "cands": cands}, indent=1,
                               default=_jsonable))
    return note, cands


# ---- writing ---------------------------------------------------------------------------------
def data_toml(overrides: dict[str, Any]) -> str:
    """The overrides ``{path: value}`` as a TOML file that ``--data`` reads (nested tables)."""
    tables: dict[str, dict[str, Any]] = {}
    for path, v in sorted(overrides.items()):
        head, _, last = path.rpartition(".")
        tables.setdefault(head, {})[last] = v
    lines = []
    for head, kv in tables.items():
        lines.append(f"[{head}]")
        for k, v in kv.items():
            lines.append(f"{k} = {json.dumps(v)}")
        lines.append("")
    return "\n".join(lines)


def _fmt_check(r: dict) -> str:
    text = f"{r['estimate']:.2f} [{r['lo']:.2f}, {r['hi']:.2f}] {r['status']}"
    if r.get("worst"):  # the effects target: the largest effect, the span of the intervals
        out = r.get("outside") or []
        text += f" (largest: {r['worst']}; interval outside the band: " + (
            ", ".join(out[:5]) + (f" and {len(out) - 5} more" if len(out) > 5 else "")
            if out else "none") + ")"
    return text


def _history_chart(study, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from analysis.charts import save

    optuna = _optuna()
    xs, ys, px, py = [], [], [], []
    for t in study.trials:
        if t.state == optuna.trial.TrialState.COMPLETE:
            xs.append(t.number)
            ys.append(t.value)
        elif t.state == optuna.trial.TrialState.PRUNED and t.intermediate_values:
            px.append(t.number)
            py.append(t.intermediate_values[max(t.intermediate_values)])
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.scatter(xs, ys, s=14, label="finished trial (last stage)")
    ax.scatter(px, py, s=14, marker="x", color="grey", label="pruned (value at its stage)")
    if xs:
        order = np.argsort(xs)
        ax.step(np.array(xs)[order], np.minimum.accumulate(np.array(ys)[order]), where="post",
                color="C3", label="best so far")
    ax.set_yscale("symlog", linthresh=10)
    from matplotlib.ticker import FuncFormatter

    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))  # plain text labels
    ax.set_xlabel("trial")
    ax.set_ylabel("objective (100 x distance + edit cost)")
    ax.legend(fontsize=7)
    save(fig, path, dpi=90)


def _write(out, game, params, targets, cands, answer, closest, blocking, setup, source, budget,
           n_trials, search_games, final_games, study, recheck_note, recheck, elapsed,
           search_seconds, base_options) -> TuneResult:
    printed = cands[0]
    chosen = answer or closest
    data, opts = split_values(params, chosen["values"])
    toml_path = out / "proposed.toml"
    head = (f"# boardsim tune {game.id}: "
            + ("an edit that meets every target" if answer else
               "the closest edit found (it does not meet every target)")
            + f"; use with --data {toml_path.name}\n")
    if opts:
        head += "# and the rule options: " + " ".join(f"-o {k}={v}" for k, v in opts.items()) \
            + "\n"
    write_atomic(toml_path, head + (data_toml(data) if data else "# (no data change)\n"))
    _history_chart(study, out / "history.png")
    L = [f"# Tune: {game.title}", ""]
    L.append("- Targets: " + "; ".join(f"`{t.text}`" for t in targets))
    L.append(f"- Parameters: {', '.join('`' + p + '`' for p in setup['params'])}: "
             f"{len(params)} numbers, each within its schema range and at most "
             f"{setup['max_step']} from the printed value"
             + (" (0: the whole range)" if not setup['max_step'] else ""))
    L.append(f"- Bots: {', '.join(setup['strategies'])} ({source}, "
             f"{'pool' if len(setup['strategies']) > 1 else 'fixed'} seating); players: "
             f"{', '.join(map(str, setup['players']))}; rule options: "
             f"{base_options or 'as printed'}. **The results hold for these bots.**")
    L.append(f"- Budget {budget:.0f} s: search {search_seconds:.0f} s, {n_trials} trials "
             f"({setup['sampler']} sampler, racing stages "
             f"{', '.join(map(str, sorted({max(2, setup['games'] // 16), max(2, setup['games'] // 4), setup['games']})))}"
             f" games), {search_games:,} games in the search; then {final_games:,} games per "
             f"candidate and player count on fresh seeds; whole command {elapsed:.0f} s "
             "(this invocation, from the process's start).")
    L.append(f"- Seed {setup['seed']}; every search trial plays the same games (common random "
             "numbers); the check plays other seeds.")
    L += ["", "## Answer", ""]
    if answer:
        L.append(f"**{answer['name']}** meets every target on fresh seeds with "
                 f"{answer['changed']} changed number(s) (total change {answer['total']:g}).")
    else:
        L.append(f"**No candidate meets every target on fresh seeds.** The closest is "
                 f"**{closest['name']}** ({closest['changed']} changed numbers); the blocking "
                 f"target: {blocking}.")
    L += ["", "### Changed numbers (printed -> proposed)", ""]
    rows = [[f"`{p.path}`", str(p.value), str(chosen["values"][p.path])] for p in params
            if chosen["values"][p.path] != p.value]
    L.append(md_table(["number", "printed", "proposed"], rows) if rows else "None.")
    if opts:
        L.append("")
        L.append("Rule options: " + ", ".join(f"{k}={v}" for k, v in opts.items()))
    L += ["", "### Targets before and after (fresh seeds, 95% intervals)", ""]
    trows = []
    for rb, ra in zip(printed["checks"], chosen["checks"]):
        pair = ra.get("paired")
        trows.append([f"{ra['target']} ({ra['players']}p)",
                      f"{_g(ra['band'][0])}..{_g(ra['band'][1])}", _fmt_check(rb),
                      _fmt_check(ra),
                      f"{pair[0]:+.2f} [{pair[1]:+.2f}, {pair[2]:+.2f}]" if pair else "-",
                      f"{ra['games']:,} ({ra['limit_games']} at the limit)"])
    L.append(md_table(["target", "band", "printed", "proposed", "change (paired 95%)",
                       "finished games"], trows))
    L += ["", "A target is **met** when its whole 95% interval lies inside the band, "
          "**missed** when the interval lies outside it, **undecided** otherwise.", ""]
    L += ["## Candidates checked on fresh seeds", ""]
    crow = []
    for c in cands:
        crow.append([c["name"], str(c["changed"]), f"{c['total']:g}", c["status"],
                     "; ".join(f"{r['target']}@{r['players']}: {_fmt_check(r)}"
                               for r in c["checks"]),
                     ", ".join(f"{p.path.split('.', 1)[1]}={c['values'][p.path]}"
                               for p in params if c["values"][p.path] != p.value) or "-"])
    L.append(md_table(["candidate", "changed", "total change", "status", "targets", "edit"],
                      crow))
    L += ["", "## Search-bot tier", "", recheck_note]
    if recheck:
        L.append("")
        L.append(md_table(["target", "printed", recheck[1]["name"], "still holds"], [
            [f"{ra['target']} ({ra['players']}p)", _fmt_check(rb), _fmt_check(ra),
             "yes" if ra["status"] == "met" else "no" if ra["status"] == "missed"
             else "undecided"] for rb, ra in zip(recheck[0]["checks"], recheck[1]["checks"])]))
    L += ["", "## Files", "",
          f"- `{toml_path.name}`: the proposed data (`boardsim simulate {game.id} --data "
          f"{toml_path.name}`, also `report`, `compare --variant`)",
          "- `history.png`: the optimisation history", "- `study.sqlite3`: the optuna study "
          "(rerun the same command to resume)", "- `check.json`: the fresh-seed checks", ""]
    md = write_atomic(out / "tune.md", "\n".join(L) + "\n")
    summary = {"answer": answer["name"] if answer else None, "closest": closest["name"],
               "blocking": blocking, "changed": chosen["changed"],
               "overrides": data, "options": opts, "trials": n_trials,
               "search_games": search_games, "search_seconds": search_seconds,
               "elapsed_seconds": elapsed}
    write_atomic(out / "tune.json", json.dumps(summary, indent=2, default=_jsonable))
    text = ((f"{answer['name']} meets every target with {answer['changed']} changed numbers"
             if answer else f"no candidate meets every target; closest {closest['name']}, "
             f"blocking: {blocking}") + "\n" + "\n".join(
        f"  {p}: {printed['values'].get(p)} -> {v}" for p, v in data.items())
        + f"\nreport: {md}")
    return TuneResult(out, answer, closest, blocking, text, cands)


def best_so_far(study) -> tuple[int, str]:
    """(finished trials, the best complete trial's distance as text) for the progress bar."""
    optuna = _optuna()
    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,
                                                    optuna.trial.TrialState.PRUNED))
    comp = [t for t in done if t.state == optuna.trial.TrialState.COMPLETE]
    if not comp:
        return len(done), "-"
    b = min(comp, key=lambda t: (t.value, t.number))
    return len(done), f"{b.user_attrs.get('distance', float('nan')):.2f}"
