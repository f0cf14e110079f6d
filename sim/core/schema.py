"""A game's state declared once: the dict form and its checks generated from the declaration.

Pgx's approach (each environment's state is a declared structure of typed arrays), applied to
the dict form of ``Game.state_to_dict`` / ``Game.state_from_dict``: a game lists its state's
fields once, as ``Field`` rows of a ``StateSchema``, each with

- ``key``: where it sits in the dict (``"placement.seat"`` an object inside the dict,
  ``"players[].coins"`` one object per seat, ``"hands[]"`` one entry per seat);
- ``at``: where it sits in the state (``("meta", K.M_CUR)``, ``("seat", "p", K.SE_COINS)``:
  ``"p"`` is the seat; a slice is a list), so its dtype and shape are the state array's;
- ``kind``: its form in the dict: ``int``, ``bool``, ``enum`` (a name of ``names``, stored as its
  index + ``base``), ``rng`` (a hex string), ``ints`` (a list of whole numbers), ``names`` (a list
  of names), ``counts`` (``{name: count}`` of a row, zeros left out), ``record`` (``{name:
  number}`` of a row, every name present), ``bitset`` (the names of an int's set bits),
  ``members`` (the names, or
  indices, of a 0/1 row's set entries), or ``hook`` (the game's own ``get``/``put``, for the
  few nested layouts: a Go Town building, a Little Town goal slot);
- ``lo``/``hi``: its allowed range (numbers, or functions of the ``Ctx``: the player count,
  the resolved options, the state holding the component data);
- ``count``: for a list of variable length, the state slot holding its length (a pile: ``at``
  its storage, ``count`` its height);
- ``hidden``: information some seat does not see (the determinization resamples it).

``StateSchema.to_dict`` and ``StateSchema.from_dict`` are generated from the rows: every
field read with ``DictReader`` (one ``UserError`` line naming the field, the value and the
allowed range for a wrong type, shape or value), then the game's cross-field checks (its
``check`` hook: deliberate rules of that game, kept in its package). ``StateSchema.coverage``
compares the declaration with a state: every state array is declared (a field, the component
data or a derived array) and every declared array exists (tests/test_schema.py).

The header (``game``, ``n_players``, ``options``, ``data``) is read first by the game's
``start`` hook, which allocates the state from the data block; its rows are ``header``
fields (written by ``to_dict``, read by ``start``).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.core.checks import DictReader
from sim.core.errors import UserError

BIG = 1_000_000
KINDS = ("int", "bool", "enum", "rng", "ints", "names", "counts", "record", "members", "bitset",
         "hook", "header")


@dataclass
class Ctx:
    """What a field's range may depend on: the game, the player count, the resolved options
    and the state (allocated with the component data) being filled; ``extra`` for a game's
    own (Little Town's data arrays, Province's goal names)."""

    game: Any
    n: int
    resolved: dict
    s: Any
    extra: dict = field(default_factory=dict)

    @property
    def v(self):
        """The state's named arrays (``StateSchema.views``)."""
        return self.game.state_schema.views(self.s)


Bound = "int | Callable[[Ctx], int]"


@dataclass(frozen=True)
class Field:
    key: str
    at: tuple = ()
    kind: str = "int"
    lo: Any = 0
    hi: Any = BIG
    names: Any = None  # a sequence of names, or a function of the Ctx
    base: int = 0  # enum/names/counts/members: stored value = index in names + base
    refuse: tuple = ()  # names the field never holds (a Lake in the pile)
    null: int | None = None  # enum/names: the stored value shown as None (an empty slot)
    count: tuple | None = None  # ("meta", K.M_DECKN): the slot holding a list's length
    length: Any = None  # ints: the list's length when not the state slice's
    same_count: bool = False  # a list as long as an earlier field's ``count`` (already read)
    hidden: bool = False
    uses: tuple = ()  # hook: the state arrays it reads and writes
    get: Callable | None = None  # hook/header: (game, state, views, n) -> dict value
    put: Callable | None = None  # hook: (game, r, value, ctx, where) -> None (checks, writes)
    doc: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"schema field {self.key}: kind {self.kind!r}; allowed {KINDS}")
        if self.kind in ("hook", "header") and self.get is None:
            raise ValueError(f"schema field {self.key}: a {self.kind} field needs get")
        if self.kind not in ("hook", "header") and not self.at:
            raise ValueError(f"schema field {self.key}: needs at (array, index ...)")

    @property
    def array(self) -> str | None:
        return self.at[0] if self.at else None

    @property
    def per_seat(self) -> bool:
        return "[]" in self.key

    def arrays(self) -> set[str]:
        out = ({self.at[0]} if self.at else set()) | set(self.uses)
        if self.count:
            out.add(self.count[0])
        return out


def _bound(b, ctx: Ctx) -> int:
    return int(b(ctx)) if callable(b) else int(b)


def _names(f: Field, ctx: Ctx | None, game=None, s=None) -> Sequence[str]:
    if callable(f.names):
        return f.names(ctx if ctx is not None else Ctx(game, 0, {}, s))
    return f.names


_INDEX: dict[tuple, tuple] = {}  # (id(at), p) -> (at, index)


def _index(at: tuple, p: int | None) -> tuple:
    """The index into ``at[0]`` for seat ``p`` ("p" in ``at`` replaced), memoised: the dict
    forms of every decision of the engine-vs-reference replays ask for the same few."""
    key = (id(at), p)  # ``at`` may hold slices (unhashable before Python 3.12)
    hit = _INDEX.get(key)
    if hit is None or hit[0] is not at:
        hit = _INDEX[key] = (at, tuple(p if i == "p" else i for i in at[1:]))
    return hit[1]


class StateSchema:
    """The declared state of a game: its fields in dict order, the component-data and derived
    arrays (not in the dict's state part), and the hooks."""

    def __init__(self, fields: Sequence[Field], *, data: Sequence[str] = (),
                 derived: Sequence = (), unsaved: Sequence = (), views: Callable | None = None,
                 start: Callable | None = None, check: Callable | None = None,
                 finish: Callable | None = None, n_of: Callable | None = None,
                 game_id: str = ""):
        self.fields = tuple(fields)
        keys = [f.key for f in self.fields]
        dup = {k for k in keys if keys.count(k) > 1}
        if dup:
            raise ValueError(f"schema {game_id}: fields declared twice: {sorted(dup)}")
        self.data = tuple(data)  # arrays from the component data / options (the dict's header)
        # rebuilt from the others (``finish``) or scratch: array names, or (array, index ...)
        # for a slot of an array the fields declare
        self.derived = tuple(derived)
        # slots of declared arrays the dict form does not carry (recorded-only counters)
        self.unsaved = tuple(unsaved)
        self._views = views
        self.start = start  # (game, r, d) -> Ctx: reads the header, allocates the state
        self.check = check  # (game, r, ctx) -> None: the game's cross-field rules
        self.finish = finish  # (game, s, ctx) -> None: derived arrays rebuilt
        self.n_of = n_of  # (views) -> the player count (default: the game's min_players)
        self._memo: dict[tuple, tuple] = {}  # the ``data`` header by game and arrays' bytes

    # ---- what the schema declares -------------------------------------------------------
    def views(self, state):
        return state if self._views is None else self._views(state)

    def declared_arrays(self) -> set[str]:
        out = set(self.data) | {x for x in self.derived if isinstance(x, str)}
        for f in self.fields:
            out |= f.arrays()
        return out

    def live(self, state) -> dict[str, np.ndarray]:
        """Copies of the state's arrays as far as they are the position: derived arrays and
        slots left out (zeroed), a list's storage past its count zeroed. Two states with the
        same dict have the same ``live`` arrays (tests/test_schema.py)."""
        v = self.views(state)
        out = {a: np.array(getattr(v, a)) for a in self.declared_arrays()
               if a not in self.derived}
        for x in self.derived + self.unsaved:
            if not isinstance(x, str):
                out[x[0]][x[1:]] = 0
        n = self.n_of(v) if self.n_of else None
        for f in self.fields:  # seats past the player count
            if n is not None and "p" in f.at:
                for p in range(int(n), getattr(v, f.at[0]).shape[f.at.index("p") - 1]):
                    out[f.at[0]][_index(f.at, p)] = 0
        for f in self.fields:
            if f.count is None:
                continue
            seats = (getattr(v, f.at[0]).shape[f.at.index("p") - 1] if "p" in f.at else 1)
            for p in range(seats):
                k = int(getattr(v, f.count[0])[_index(f.count, p)])
                out[f.at[0]][_index(f.at, p)][k:] = 0
        return out

    def hidden_keys(self) -> list[str]:
        return [f.key for f in self.fields if f.hidden]

    def coverage(self, state) -> list[str]:
        """The mismatches between the declaration and a state: arrays of the state no field
        declares, and declared arrays the state lacks (empty when they agree)."""
        v = self.views(state)
        have = set(v._fields) if hasattr(v, "_fields") else {
            k for k, x in vars(v).items() if isinstance(x, np.ndarray)}
        decl = self.declared_arrays()
        return ([f"state array {a!r} is not declared" for a in sorted(have - decl)]
                + [f"declared array {a!r} is not in the state" for a in sorted(decl - have)])

    # ---- state -> dict ------------------------------------------------------------------
    def to_dict(self, game, state) -> dict:
        """The state's dict form. Runs ``_to_dict_code``: the same reading of every row as
        ``to_dict_by_rows`` (tests/test_schema.py compares them on every game), generated
        once per schema as straight-line Python (the engine-vs-reference replays build a
        dict at every decision: BENCHMARKS.md, session 14)."""
        fn = self.__dict__.get("_to_dict_fn")
        if fn is None:
            fn = self._to_dict_fn = self._to_dict_code()
        return fn(game, state)

    def to_dict_by_rows(self, game, state) -> dict:
        """The dict form read row by row (``_get``): the definition ``to_dict``'s generated
        code must equal."""
        v = self.views(state)
        n = self._n(game, state)
        out: dict = {}
        for f, seat_head, tail, parts in self._plan():
            if seat_head is not None:
                if tail:
                    seats = _slot(out, seat_head, lambda: [{} for _ in range(n)])
                    for p in range(n):
                        seats[p][tail] = self._get(f, game, state, v, n, p)
                else:
                    _put_parts(out, seat_head,
                               [self._get(f, game, state, v, n, p) for p in range(n)])
            else:
                _put_parts(out, parts, self._get(f, game, state, v, n, None))
        return out

    def _to_dict_code(self) -> Callable:
        """``to_dict_by_rows`` compiled for this schema: one block per row, in dict order, with
        the row's array, index, count slot, names and kind fixed in the code (the rows are
        read once here, not at every dict). Only identifiers, integer literals and names
        bound to the rows' own values enter the source."""
        env: dict = {"np": np, "_tolist": _tolist, "_names": _names, "_slot": _slot,
                     "schema": self}
        body: list[str] = []

        def const(value, name: str) -> str:
            env[name] = value
            return name

        def index(at: tuple, seat: bool, tag: str) -> str:
            if not seat or "p" not in at[1:]:
                return const(tuple(at[1:]), f"I_{tag}")
            parts = ["p" if e == "p" else const(e, f"C_{tag}_{j}") for j, e in enumerate(at[1:])]
            return "(" + ", ".join(parts) + ",)"

        def value(i: int, f: Field, seat: bool, ind: str) -> list[str]:
            """Lines that leave the row's value in ``val`` (``p`` the seat when ``seat``)."""
            F = const(f, f"F{i}")
            if f.kind == "header" and f.key == "data" and not seat and self.data:
                return [f"{ind}val = schema._data_header({F}, game, state, v, n)"]
            if f.kind in ("hook", "header"):
                return [f"{ind}val = {F}.get(game, state, v, n{', p' if seat else ''})"]
            out = [f"{ind}x = v.{f.at[0]}[{index(f.at, seat, str(i))}]"]
            if f.count is not None:
                out.append(f"{ind}x = x[: int(v.{f.count[0]}[{index(f.count, seat, f'c{i}')}])]")
            k, base = f.kind, int(f.base)
            null = None if f.null is None else const(f.null, f"NULL{i}")
            if k == "int":
                return out + [f"{ind}val = int(x)"]
            if k == "bool":
                return out + [f"{ind}val = bool(x)"]
            if k == "rng":
                return out + [f"{ind}val = '0x%016x' % int(x)"]
            if f.names is None:
                nm = "None"
            elif callable(f.names):
                nm = f"_names({F}, None, game, state)"
            else:
                nm = const(f.names, f"NM{i}")
            out.append(f"{ind}nm = {nm}")
            if k == "enum":
                expr = f"nm[int(x) - {base}]"
                return out + [f"{ind}val = None if x == {null} else {expr}" if null else
                              f"{ind}val = {expr}"]
            if k == "ints":
                return out + [f"{ind}val = _tolist(x)"]
            if k == "names":
                item = (f"None if c == {null} else nm[int(c) - {base}]" if null else
                        f"nm[int(c) - {base}]")
                return out + [f"{ind}val = [{item} for c in x]"]
            if k == "bitset":
                return out + [f"{ind}val = [name for i, name in enumerate(nm) "
                              f"if (int(x) >> i) & 1]"]
            if k == "counts":
                return out + [f"{ind}val = {{nm[i - {base}]: int(x[i]) for i in "
                              f"range({base}, {base} + len(nm)) if x[i]}}"]
            if k == "record":
                return out + [f"{ind}val = {{name: int(x[i + {base}]) for i, name in "
                              f"enumerate(nm)}}"]
            if k == "members":
                return out + [f"{ind}idx = [int(i) for i in np.nonzero(x)[0]]",
                              f"{ind}val = [nm[i - {base}] for i in idx] if nm is not None "
                              f"else idx"]
            raise AssertionError(k)

        def box(parts: tuple) -> str:
            return "out" + "".join(f".setdefault({k!r}, {{}})" for k in parts)

        for i, (f, seat_head, tail, parts) in enumerate(self._plan()):
            if seat_head is not None and tail:
                body.append(f"    seats = _slot(out, {seat_head!r}, "
                            f"lambda: [{{}} for _ in range(n)])")
                body.append("    for p in range(n):")
                body += value(i, f, True, "        ")
                body.append(f"        seats[p][{tail!r}] = val")
            elif seat_head is not None:
                body.append("    vals = []")
                body.append("    for p in range(n):")
                body += value(i, f, True, "        ")
                body.append("        vals.append(val)")
                body.append(f"    {box(seat_head[:-1])}[{seat_head[-1]!r}] = vals")
            else:
                body += value(i, f, False, "    ")
                body.append(f"    {box(parts[:-1])}[{parts[-1]!r}] = val")
        src = ("def to_dict(game, state):\n    v = schema.views(state)\n"
               "    n = schema._n(game, state)\n    out = {}\n" + "\n".join(body)
               + "\n    return out\n")
        exec(compile(src, f"<{self.__class__.__name__} to_dict>", "exec"), env)
        return env["to_dict"]

    def _plan(self) -> list:
        """Per field, in dict order: ``(field, seat head or None, seat tail, key parts)``, the
        key split once (a state dict is built at every decision of the replays)."""
        plan = self.__dict__.get("_plan_cache")
        if plan is None:
            plan = []
            for f in self.fields:
                if f.per_seat:
                    head, _, tail = f.key.partition("[]")
                    plan.append((f, tuple(head.split(".")), tail.lstrip("."), None))
                else:
                    plan.append((f, None, "", tuple(f.key.split("."))))
            self._plan_cache = plan
        return plan

    def _n(self, game, state) -> int:
        return int(self.n_of(self.views(state))) if self.n_of else int(game.min_players)

    def _data_header(self, f: Field, game, state, v, n: int):
        """The ``data`` header (the component data as a dict), memoised by the bytes of the
        data and option arrays: it is the same at every decision of a game, and rebuilding it
        was most of a dict form. Each call gets its own copy (a pickle round trip), so a
        caller may change what it gets."""
        # the game instance too (its own names may enter the header: Province's goal names):
        # its id, with the instance kept beside the blob and compared, so an id reused by
        # another instance never hits
        key = (id(game), n) + tuple((a, getattr(v, a).dtype.str, getattr(v, a).shape,
                                     getattr(v, a).tobytes())
                                    for a in sorted(set(self.data) | {"opts"}) if hasattr(v, a))
        hit = self._memo.get(key)
        if hit is None or hit[0] is not game:
            if len(self._memo) >= 8:
                self._memo.clear()
            hit = self._memo[key] = (game, pickle.dumps(f.get(game, state, v, n), protocol=5))
        return pickle.loads(hit[1])

    def _get(self, f: Field, game, state, v, n: int, p: int | None):
        if f.kind == "header" and f.key == "data" and p is None and self.data:
            return self._data_header(f, game, state, v, n)
        if f.kind in ("hook", "header"):
            return f.get(game, state, v, n) if p is None else f.get(game, state, v, n, p)
        arr = getattr(v, f.at[0])
        x = arr[_index(f.at, p)]
        if f.count is not None:
            x = x[: int(getattr(v, f.count[0])[_index(f.count, p)])]
        k = f.kind
        if k == "int":
            return int(x)
        if k == "bool":
            return bool(x)
        if k == "rng":
            return "0x%016x" % int(x)
        names = _names(f, None, game, state) if f.names is not None else None
        if k == "enum":
            return None if f.null is not None and x == f.null else names[int(x) - f.base]
        if k == "ints":
            return _tolist(x)
        if k == "names":
            return [None if f.null is not None and c == f.null else names[int(c) - f.base]
                    for c in x]
        if k == "bitset":
            return [name for i, name in enumerate(names) if (int(x) >> i) & 1]
        if k == "counts":
            return {names[i - f.base]: int(x[i]) for i in range(f.base, f.base + len(names))
                    if x[i]}
        if k == "record":
            return {name: int(x[i + f.base]) for i, name in enumerate(names)}
        if k == "members":
            idx = [int(i) for i in np.nonzero(x)[0]]
            return [names[i - f.base] for i in idx] if names is not None else idx
        raise AssertionError(k)

    # ---- dict -> state ------------------------------------------------------------------
    def from_dict(self, game, d: dict):
        r = DictReader(game.id)
        r.dict(d, "state")
        ctx = self.start(game, r, d)
        v = self.views(ctx.s)
        for f in self.fields:
            if f.kind == "header":
                continue
            if f.per_seat:
                head, _, tail = f.key.partition("[]")
                tail = tail.lstrip(".")
                if tail:
                    seats = r.list(_get_path(r, d, head), head, ctx.n)
                    for p in range(ctx.n):
                        w = f"{head}[{p}]"
                        obj = r.dict(seats[p], w)
                        self._read(f, r, r.get(obj, tail, f"{w}.{tail}"), f"{w}.{tail}", ctx,
                                   v, p)
                else:
                    vals = r.list(_get_path(r, d, head), head, ctx.n)
                    for p in range(ctx.n):
                        self._read(f, r, vals[p], f"{head}[{p}]", ctx, v, p)
            else:
                self._read(f, r, _get_path(r, d, f.key), f.key, ctx, v, None)
        if self.check is not None:
            self.check(game, r, ctx)
        if self.finish is not None:
            self.finish(game, ctx.s, ctx)
        return ctx.s

    def _read(self, f: Field, r: DictReader, x, where: str, ctx: Ctx, v, p: int | None):
        if f.kind == "hook":
            f.put(game=ctx.game, r=r, value=x, ctx=ctx, where=where, p=p)
            return
        arr = getattr(v, f.at[0])
        idx = _index(f.at, p)
        k = f.kind
        if k == "bitset":
            names = _names(f, ctx)
            items = r.list(x, where, max_len=len(names))
            bits = [_choose(f, r, c, f"{where}[{i}]", names) for i, c in enumerate(items)]
            arr[idx] = sum(1 << b for b in set(bits))
            return
        if k in ("int", "bool", "enum", "rng"):
            if k == "int":
                arr[idx] = r.int(x, where, _bound(f.lo, ctx), _bound(f.hi, ctx))
            elif k == "bool":
                arr[idx] = int(r.bool(x, where))
            elif k == "enum":
                arr[idx] = _choose(f, r, x, where, _names(f, ctx))
            else:
                arr[idx] = np.uint64(r.rng(x, where))
            return
        view = arr[idx]
        cap = view.shape[0]
        names = _names(f, ctx) if f.names is not None else None
        if k == "counts":
            r.dict(x, where)
            row = np.zeros(cap, view.dtype)
            lo, hi = _bound(f.lo, ctx), _bound(f.hi, ctx)
            for name, c in x.items():
                i = _choose(f, r, name, where, names)
                row[i] = r.int(c, f"{where}.{name}", lo, hi)
            view[:] = row
            return
        if k == "record":
            r.dict(x, where)
            lo, hi = _bound(f.lo, ctx), _bound(f.hi, ctx)
            for name in x:
                if name not in names:
                    raise r.fail(where, name, f"unknown entry; allowed: {', '.join(names)}")
            for i, name in enumerate(names):
                view[i + f.base] = r.int(r.get(x, name, f"{where}.{name}"), f"{where}.{name}",
                                         lo, hi)
            return
        if f.same_count:
            items = r.list(x, where, int(getattr(v, f.count[0])[_index(f.count, p)]))
        elif f.count is not None or k == "members":
            items = r.list(x, where, max_len=_bound(f.length, ctx) if f.length is not None
                           else cap)
        else:
            items = r.list(x, where, _bound(f.length, ctx) if f.length is not None else cap)
        if k == "ints":
            vals = [r.int(c, f"{where}[{i}]", _bound(f.lo, ctx), _bound(f.hi, ctx))
                    for i, c in enumerate(items)]
        elif k == "names":
            vals = [_choose(f, r, c, f"{where}[{i}]", names) for i, c in enumerate(items)]
        elif k == "members":
            if names is not None:
                vals = [_choose(f, r, c, f"{where}[{i}]", names) for i, c in enumerate(items)]
            else:
                vals = [r.int(c, f"{where}[{i}]", _bound(f.lo, ctx), _bound(f.hi, ctx))
                        for i, c in enumerate(items)]
            if len(set(vals)) != len(vals):
                raise r.fail(where, x, "each entry once")
            row = np.zeros(cap, view.dtype)
            row[vals] = 1
            view[:] = row
            return
        else:
            raise AssertionError(k)
        if f.count is not None:
            view[: len(vals)] = vals
            getattr(v, f.count[0])[_index(f.count, p)] = len(vals)
        else:
            view[: len(vals)] = vals


def _choose(f: Field, r: DictReader, x, where: str, names: Sequence[str]) -> int:
    """The stored value of the name ``x`` (None: the field's ``null``)."""
    if x is None and f.null is not None:
        return f.null
    allowed = [n for n in names if n not in f.refuse]
    if x in f.refuse and isinstance(x, str):
        raise r.fail(where, x, f"not allowed here; allowed: {', '.join(map(str, allowed))}")
    return r.choice(x, where, names) + f.base


def _tolist(x) -> list:
    if isinstance(x, np.ndarray) and x.dtype.kind in "iu":
        return x.tolist()  # Python ints at every depth, as int(y) gives
    return [_tolist(y) for y in x] if np.ndim(x) > 1 else [int(y) for y in x]


def _slot(out: dict, key: str | tuple, make: Callable) -> Any:
    box = out
    parts = key.split(".") if isinstance(key, str) else key
    for k in parts[:-1]:
        box = box.setdefault(k, {})
    if parts[-1] not in box:
        box[parts[-1]] = make()
    return box[parts[-1]]


def _put_parts(out: dict, parts: tuple, value: Any) -> None:
    box = out
    for k in parts[:-1]:
        box = box.setdefault(k, {})
    box[parts[-1]] = value


def _get_path(r: DictReader, d: dict, key: str) -> Any:
    box = d
    parts = key.split(".")
    for i, k in enumerate(parts):
        if i:
            box = r.dict(box, ".".join(parts[:i]))
        box = r.get(box, k, ".".join(parts[: i + 1]))
    return box


def read_header(game, r: DictReader, d: dict, players: bool = True) -> tuple[int, dict]:
    """The player count (when the dict has one) and the resolved options of a state dict."""
    n = (r.int(r.get(d, "n_players", "n_players"), "n_players", game.min_players,
               game.max_players) if players else int(game.min_players))
    resolved = game.resolve_options(r.dict(r.get(d, "options", "options"), "options"))
    return n, resolved


def header_fields(data_get: Callable | None = None, players: bool = True,
                  game: bool = True) -> list[Field]:
    """The rows a dict starts with: ``game``, ``n_players`` (unless the player count is
    fixed), ``options`` and ``data`` (when the dict carries the component data)."""
    out = [Field("game", kind="header", get=lambda g, s, v, n: g.id)] if game else []
    if players:
        out.append(Field("n_players", kind="header", get=lambda g, s, v, n: n))
    out.append(Field("options", kind="header", get=lambda g, s, v, n: g.options.decode(v.opts)))
    if data_get is not None:
        out.append(Field("data", kind="header", get=data_get))
    return out


def fail(game_id: str, what: str) -> UserError:
    return UserError(f"{game_id} state dict: {what}")
