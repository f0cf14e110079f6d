"""Parameters (``--param``) of ``boardsim tune``: data paths with wildcards over the component
schema, expanded to integer parameters within their tunable ranges, and the edit cost of a
candidate.
(The package docstring, analysis/lab/tune/__init__.py, describes the method.)"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from typing import Any

from sim.core.components import slug
from sim.core.errors import UserError

MAX_PARAMS = 200


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
