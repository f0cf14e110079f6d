"""Component data a designer can read and override (the balance lab).

A game's component data is a *document*: a JSON-able dict of tables. A table is either a list
of rows (dicts, one per component, named by the table's key field: a building's ``name``, a
goal card's ``card`` number) or a dict of named values (constants). One number is named by a
dotted *path*:

* ``table.row.field``: a field of a row of a list table; the row by its key spelled as a slug
  (``buildings.gold_mine.vp``; ``goals.13.vp``);
* ``table.name``: a value of a dict table (``constants.hand_limit``);
* a further part indexes a vector field by position or by the part's name
  (``buildings.church.cost.stone`` = ``buildings.church.cost.1``).

Overrides come from a TOML file (its nested tables flatten to paths) and from ``--set
path=value`` options; both are validated against the printed data (unknown paths, wrong types
and impossible values are refused with a message naming the allowed keys), then the game's own
constructor checks the whole data again. A run records its overrides in its manifest.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.core.errors import UserError

# the sane range of a component number unless the schema states one (every value of the printed
# data is far inside it; the kernels' arrays are int64 and every sum of such numbers fits)
DEFAULT_LIMIT = (0, 999)
DEFAULT_SIGNED_LIMIT = (-999, 999)
MAX_LIST = 64  # entries of a list value
MAX_TEXT = 200  # characters of a text value


def slug(text: Any) -> str:
    """``"Gold Mine"`` -> ``"gold_mine"``; numbers as their decimal text."""
    return re.sub(r"[^a-z0-9]+", "_", str(text).lower()).strip("_")


@dataclass(frozen=True)
class Tunable:
    """A number ``boardsim suggest`` may change, in every row of ``table``.

    ``field``: a scalar field, or ``field.part`` / ``field.*`` (every non-zero part of a vector
    field) / ``field.all`` (every part); ``effect``: +1 if raising the number makes the component stronger for its owner,
    -1 if weaker; ``lo``/``hi``: the values it may take.
    """

    table: str
    field: str
    effect: int
    lo: int = 0
    hi: int = 99


@dataclass(frozen=True)
class ImpactLink:
    """Ties a per-seat detail column group of the results to a component table: the column of
    row ``key`` is ``prefix + fmt.format(key)`` (``fmt`` default: the key's slug)."""

    prefix: str
    table: str
    fmt: str | None = None
    title: str = ""

    def column(self, key: Any) -> str:
        return self.prefix + (self.fmt.format(key) if self.fmt else slug(key))


@dataclass(frozen=True)
class PlausibleRange:
    """The plausible range of one component number the specification marks as reconstructed
    (RECON) or assumed: the printed value is a guess, ``low``..``high`` (whole numbers, the
    printed value inside) what the sources leave possible, ``reason`` one line saying why
    (docs/robustness.md). ``path`` is a data path (``structures.camp.coins``)."""

    path: str
    low: int
    high: int
    reason: str


@dataclass(frozen=True)
class Interpretation:
    """A rule option the specification marks as an interpretation or assumption: its
    ``alternatives`` (default: every allowed value) are the discrete readings a robustness
    study plays; ``reason`` one line (what the sources leave open)."""

    option: str
    reason: str
    alternatives: tuple[Any, ...] = ()


def interpretations_of(options, names: tuple[str, ...], mark: str) -> tuple[Interpretation, ...]:
    """``Interpretation``s of the options ``names`` of the ``OptionSet`` ``options``, each
    with the reason "``mark`` (its section): its description" and every allowed value."""
    by = {o.name: o for o in options}
    return tuple(Interpretation(n, f"{mark} ({by[n].section}): {by[n].doc}") for n in names)


@dataclass(frozen=True)
class ComponentSchema:
    """How to read a game's component document.

    keys: list table -> its key field; vectors: ``"table.field"`` -> names of its parts;
    signed: ``"table.field"`` entries that may be negative (others must be >= 0);
    limits: ``"table.field"`` -> ``(lo, hi)``, the sane range of each whole number of that
    field (default ``DEFAULT_LIMIT``, or ``DEFAULT_SIGNED_LIMIT`` for a signed field); the game's
    own constructor then checks what the fixed arrays of its kernels can hold;
    tunables: what ``suggest`` may change; impact: the detail columns measuring each table's
    components; docs: table -> one line (what it is, and whether the data is confirmed);
    aliases: ``"table.alias"`` -> fields that ``boardsim tune``'s wildcard paths may also
    spell ``table.row.alias.field`` (Province: ``structures.*.cost.*`` = the labor and coins
    of every structure); a data path always uses the field itself;
    ranges: the plausible range of every number the specification marks as reconstructed or
    assumed (``PlausibleRange``); interpretations: the rule options it marks as
    interpretations, each with its discrete alternatives (``Interpretation``); both are what
    ``boardsim robustness`` varies and ``boardsim games GAME`` lists.
    """

    keys: dict[str, str] = field(default_factory=dict)
    vectors: dict[str, tuple[str, ...]] = field(default_factory=dict)
    signed: tuple[str, ...] = ()
    limits: dict[str, tuple[int, int]] = field(default_factory=dict)
    tunables: tuple[Tunable, ...] = ()
    impact: tuple[ImpactLink, ...] = ()
    docs: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    ranges: tuple[PlausibleRange, ...] = ()
    interpretations: tuple[Interpretation, ...] = ()


# ---- reading override input ------------------------------------------------------------------
def flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested TOML tables -> ``{"a.b.c": value}``."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        p = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(flatten(v, p + "."))
        else:
            out[p] = v
    return out


MAX_FILE_BYTES = 1 << 20  # an override file


def load_override_file(path: str | Path) -> dict[str, Any]:
    """The overrides of a TOML file (UTF-8, at most MAX_FILE_BYTES) as ``{path: value}``.
    Raises UserError if it is unreadable, too large, not UTF-8 or not TOML."""
    p = Path(path)
    try:
        if p.is_dir():
            raise UserError(f"override file {p}: a folder, expected a TOML file")
        with open(p, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise UserError(f"override file {p}: cannot read it ({e.strerror})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise UserError(f"override file {p}: larger than {MAX_FILE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UserError(f"override file {p}: not UTF-8 text (byte {e.start}); save it as "
                        "UTF-8 TOML") from None
    try:
        flat = flatten(tomllib.loads(text))
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as e:
        msg = " ".join(str(e).split())[:160]
        raise UserError(f"override file {p}: malformed TOML ({msg})") from None

    def plain(v) -> bool:
        if isinstance(v, list):
            return all(plain(x) for x in v)
        return isinstance(v, (bool, int, float, str))

    for k, v in flat.items():
        if not plain(v):
            raise UserError(f"override file {p}: {k} = {str(v)[:40]}: a {type(v).__name__}; "
                            "expected a number, true/false, text or a list of them")
    return flat


def parse_set_args(items: list[str] | None) -> dict[str, str]:
    """``["a.b=1", ...]`` -> ``{"a.b": "1"}``. Raises UserError on an item without ``=``."""
    out: dict[str, str] = {}
    for item in items or []:
        if "=" not in item:
            raise UserError(f"--set {item!r}: expected path=value, e.g. buildings.church.vp=7")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def gather_overrides(files: list[str | Path] | None = None,
                     sets: list[str] | None = None) -> dict[str, Any]:
    """Overrides from TOML files then ``--set`` items (later ones win)."""
    out: dict[str, Any] = {}
    for f in files or []:
        out.update(load_override_file(f))
    out.update(parse_set_args(sets))
    return out


# ---- resolving and applying ----------------------------------------------------------------
def _allowed(keys) -> str:
    keys = list(keys)
    text = ", ".join(str(k) for k in keys[:40])
    return text + (f", ... ({len(keys)} in all)" if len(keys) > 40 else "")


def _locate(doc: dict, schema: ComponentSchema, path: str, game_id: str):
    """(container, key, canonical path, vector part names or None, 'table.field') of ``path``."""
    parts = [p for p in path.split(".")]
    if not path or any(not p for p in parts):
        raise UserError(f"{game_id}: bad data path {path!r}; use table.row.field")
    table = parts[0]
    if table not in doc:
        raise UserError(f"{game_id}: unknown data table {table!r}; allowed: {_allowed(doc)}")
    node = doc[table]
    canon = [table]
    rest = parts[1:]
    tf = table
    if isinstance(node, list):
        keyf = schema.keys.get(table, "name")
        rows = {slug(r[keyf]): r for r in node}
        if not rest:
            raise UserError(f"{game_id}: {path}: name a row of {table}; allowed: {_allowed(rows)}")
        row = rows.get(slug(rest[0]))
        if row is None:
            raise UserError(f"{game_id}: unknown {table} row {rest[0]!r}; allowed: "
                            f"{_allowed(rows)}")
        canon.append(slug(rest[0]))
        node, rest = row, rest[1:]
        fields = [k for k in row if k != keyf]
        if not rest:
            raise UserError(f"{game_id}: {path}: name a field; allowed: {_allowed(fields)}")
        if rest[0] not in fields:
            raise UserError(f"{game_id}: unknown field {rest[0]!r} of {table}; allowed: "
                            f"{_allowed(fields)}")
    elif isinstance(node, dict):
        if not rest:
            raise UserError(f"{game_id}: {path}: name a value of {table}; allowed: "
                            f"{_allowed(node)}")
        if rest[0] not in node:
            raise UserError(f"{game_id}: unknown {table} entry {rest[0]!r}; allowed: "
                            f"{_allowed(node)}")
    else:
        raise UserError(f"{game_id}: {table} is a single value; use {table}=value")
    key = rest[0]
    canon.append(key)
    tf = f"{table}.{key}"
    rest = rest[1:]
    if rest:
        vec = node[key]
        if not isinstance(vec, list) or len(rest) > 1:
            raise UserError(f"{game_id}: {path}: {'.'.join(canon)} has no parts")
        names = schema.vectors.get(tf, ())
        part = rest[0]
        if part.isascii() and part.isdigit() and len(part) < 5 and int(part) < len(vec):
            idx = int(part)
        elif part in names:
            idx = names.index(part)
        else:
            allowed = list(names) or [str(i) for i in range(len(vec))]
            raise UserError(f"{game_id}: unknown part {part!r} of {'.'.join(canon)}; allowed: "
                            f"{_allowed(allowed)}")
        canon.append(names[idx] if idx < len(names) else str(idx))
        return vec, idx, ".".join(canon), tf
    return node, key, ".".join(canon), tf


def _coerce(old: Any, new: Any, path: str, game_id: str, signed: bool,
            limit: tuple[int, int] | None = None) -> Any:
    """``new`` as the type of ``old`` (text from --set is parsed), a whole number within
    ``limit`` (default: DEFAULT_LIMIT, or DEFAULT_SIGNED_LIMIT when ``signed``). Raises
    UserError naming the path, the value and the allowed range."""
    def bad(what: str) -> UserError:
        shown = repr(new)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        return UserError(f"{game_id}: {path} = {shown}: {what}")

    lo, hi = limit or (DEFAULT_SIGNED_LIMIT if signed else DEFAULT_LIMIT)

    if isinstance(old, bool):
        if isinstance(new, bool):
            return new
        if isinstance(new, str) and new.lower() in ("true", "false", "1", "0", "yes", "no"):
            return new.lower() in ("true", "1", "yes")
        raise bad("expected true or false")
    if isinstance(old, int):
        if isinstance(new, bool):
            raise bad("expected a whole number")
        if isinstance(new, str):
            text = new.strip()
            if len(text) > 40 or not re.fullmatch(r"[+-]?\d+", text):
                raise bad(f"expected a whole number in {lo}..{hi}")
            new = int(text)
        if isinstance(new, float):
            if not new.is_integer():
                raise bad(f"expected a whole number in {lo}..{hi}")
            new = int(new)
        if not isinstance(new, int):
            raise bad(f"expected a whole number in {lo}..{hi}")
        if new < 0 and not signed and lo >= 0:
            raise bad(f"must be 0 or more (allowed {lo}..{hi})")
        if not lo <= new <= hi:
            raise bad(f"out of range; allowed {lo}..{hi}")
        return new
    if isinstance(old, float):
        try:
            x = float(new)
        except (TypeError, ValueError):
            raise bad("expected a number") from None
        if not (lo <= x <= hi):
            raise bad(f"out of range; allowed {lo}..{hi}")
        return x
    if isinstance(old, str):
        if not isinstance(new, str):
            raise bad("expected text")
        if len(new) > MAX_TEXT or not new.isprintable():
            raise bad(f"expected one line of at most {MAX_TEXT} printable characters")
        return new
    if isinstance(old, list):
        items = new
        if isinstance(new, str):
            items = [x.strip() for x in new.strip("[]").split(",") if x.strip()]
        if not isinstance(items, list):
            raise bad(f"expected a list of {len(old)}")
        if old and all(not isinstance(x, (list, dict)) for x in old) and len(items) != len(old):
            raise bad(f"expected {len(old)} values")
        if len(items) > MAX_LIST:
            raise bad(f"at most {MAX_LIST} values")
        proto = old[0] if old else items[0] if items else 0
        if isinstance(proto, (list, dict)):
            raise bad("this value cannot be overridden")
        return [_coerce(proto, x, path, game_id, signed, limit) for x in items]
    raise bad("this value cannot be overridden")


def apply_to_document(doc: dict, schema: ComponentSchema, overrides: dict[str, Any],
                      game_id: str) -> tuple[dict, dict[str, Any]]:
    """A copy of ``doc`` with ``overrides`` applied, and the canonical overrides (paths in
    canonical spelling, typed values, sorted). Raises UserError naming the allowed keys."""
    new = copy.deepcopy(doc)
    canon: dict[str, Any] = {}
    for path, value in overrides.items():
        box, key, cpath, tf = _locate(new, schema, str(path).strip(), game_id)
        value = _coerce(box[key], value, cpath, game_id, tf in schema.signed,
                        schema.limits.get(tf))
        box[key] = value
        canon[cpath] = value
    return new, dict(sorted(canon.items()))


def get_path(doc: dict, schema: ComponentSchema, path: str, game_id: str = "") -> Any:
    box, key, _, _ = _locate(doc, schema, path, game_id)
    return box[key]


def overrides_key(overrides: dict[str, Any] | None) -> str:
    """A stable text key of an overrides dict ('' when there are none)."""
    return json.dumps(overrides, sort_keys=True) if overrides else ""


# ---- listing ------------------------------------------------------------------------------
def table_rows(doc: dict, schema: ComponentSchema, table: str) -> list[dict[str, Any]]:
    """Rows of a table for display: list tables as they are (vector fields spelled out by part
    name where the schema names them), dict tables as ``name``/``value`` rows."""
    node = doc[table]
    if isinstance(node, list):
        out = []
        for r in node:
            row = {}
            for k, v in r.items():
                names = schema.vectors.get(f"{table}.{k}")
                if names and isinstance(v, list) and len(v) == len(names):
                    row[k] = " ".join(f"{n}={x}" for n, x in zip(names, v) if x) or "-"
                else:
                    row[k] = v
            out.append(row)
        return out
    if isinstance(node, dict):
        out = []
        for k, v in node.items():
            names = schema.vectors.get(f"{table}.{k}")
            if names and isinstance(v, list) and len(v) == len(names):
                v = " ".join(f"{n}={x}" for n, x in zip(names, v))
            out.append({"name": k, "value": v})
        return out
    return [{"name": table, "value": node}]


def row_keys(doc: dict, schema: ComponentSchema, table: str) -> list[Any]:
    node = doc[table]
    if isinstance(node, list):
        keyf = schema.keys.get(table, "name")
        return [r[keyf] for r in node]
    return list(node)


def tunable_paths(doc: dict, schema: ComponentSchema, table: str, key: Any
                  ) -> list[tuple[str, int, int, int, int]]:
    """For one component: ``(path, value, effect, lo, hi)`` of every tunable number."""
    out = []
    keyf = schema.keys.get(table, "name")
    node = doc[table]
    row = next((r for r in node if slug(r[keyf]) == slug(key)), None) if isinstance(node, list) \
        else None
    if row is None:
        return out
    for t in schema.tunables:
        if t.table != table:
            continue
        fname, _, part = t.field.partition(".")
        if fname not in row:
            continue
        v = row[fname]
        base = f"{table}.{slug(key)}.{fname}"
        if isinstance(v, list):
            names = schema.vectors.get(f"{table}.{fname}", ())
            for i, x in enumerate(v):
                pname = names[i] if i < len(names) else str(i)
                if (part in ("", "*") and x) or part in ("all", pname):
                    out.append((f"{base}.{pname}", int(x), t.effect, t.lo, t.hi))
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append((base, int(v), t.effect, t.lo, t.hi))
    return out
