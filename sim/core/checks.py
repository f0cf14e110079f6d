"""Checks of outside values before a kernel sees them (the kernels run without bounds checks).

``DictReader`` reads the fields of a state dict (``Game.state_from_dict``): each read names the
field, the value and the allowed range in the ``UserError`` it raises. ``check_doc_limits``
checks every whole number of a component document against its schema's stated ranges (the
same ranges ``--set``/``--data`` overrides are checked against).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sim.core.errors import UserError

I32 = 2**31 - 1


def _show(v: Any) -> str:
    t = repr(v)
    return t if len(t) <= 60 else t[:57] + "..."


class DictReader:
    """Typed, range-checked reads of a state dict's fields; every error is one UserError line
    ``<game> state dict: <field> = <value>: <problem>``."""

    def __init__(self, game_id: str):
        self.gid = game_id

    def fail(self, where: str, value: Any, what: str) -> UserError:
        return UserError(f"{self.gid} state dict: {where} = {_show(value)}: {what}")

    def get(self, d: Any, key: Any, where: str) -> Any:
        if isinstance(d, dict):
            if key not in d:
                raise UserError(f"{self.gid} state dict: {where} missing")
            return d[key]
        if isinstance(d, list) and isinstance(key, int):
            if not 0 <= key < len(d):
                raise UserError(f"{self.gid} state dict: {where} missing")
            return d[key]
        raise self.fail(where.rsplit(".", 1)[0] or where, d, "expected an object")

    def int(self, v: Any, where: str, lo: int, hi: int) -> int:
        """A whole number (not a bool) in ``lo..hi``."""
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise self.fail(where, v, f"expected a whole number in {lo}..{hi}")
        if not lo <= int(v) <= hi:
            raise self.fail(where, v, f"out of range; allowed {lo}..{hi}")
        return int(v)

    def bool(self, v: Any, where: str) -> bool:
        if isinstance(v, bool) or (isinstance(v, int) and v in (0, 1)):
            return bool(v)
        raise self.fail(where, v, "expected true or false")

    def choice(self, v: Any, where: str, allowed: Sequence[str]) -> int:
        """The index of ``v`` in ``allowed``."""
        if not isinstance(v, str) or v not in allowed:
            raise self.fail(where, v, f"allowed: {', '.join(map(str, allowed))}")
        return list(allowed).index(v)

    def list(self, v: Any, where: str, n: int | None = None, max_len: int | None = None
             ) -> list:
        """A list of exactly ``n`` (or at most ``max_len``) items."""
        if not isinstance(v, list):
            raise self.fail(where, v, "expected a list")
        if n is not None and len(v) != n:
            raise self.fail(where, v, f"expected {n} entries, got {len(v)}")
        if max_len is not None and len(v) > max_len:
            raise self.fail(where, v, f"at most {max_len} entries, got {len(v)}")
        return v

    def ints(self, v: Any, where: str, lo: int, hi: int, n: int | None = None,
             max_len: int | None = None) -> list[int]:
        items = self.list(v, where, n, max_len)
        return [self.int(x, f"{where}[{i}]", lo, hi) for i, x in enumerate(items)]

    def dict(self, v: Any, where: str) -> dict:
        if not isinstance(v, dict):
            raise self.fail(where, v, "expected an object")
        return v

    def rng(self, v: Any, where: str = "rng") -> int:
        """The generator state: a hex string of at most 64 bits."""
        if not isinstance(v, str) or len(v) > 18:
            raise self.fail(where, v, "expected a hex string 0x0..0xffffffffffffffff")
        try:
            x = int(v, 16)
        except ValueError:
            raise self.fail(where, v, "expected a hex string 0x0..0xffffffffffffffff") from None
        if not 0 <= x < 2**64:
            raise self.fail(where, v, "expected a hex string 0x0..0xffffffffffffffff")
        return x


def check_invariants_as_user_error(game, state, what: str = "state dict") -> None:
    """``game.check_invariants(state)``, its AssertionError (or an index error of a value out
    of range) turned into one UserError line."""
    try:
        game.check_invariants(state)
    except (AssertionError, IndexError, ValueError, TypeError, OverflowError) as e:
        msg = " ".join(str(e).split())[:200] or type(e).__name__
        raise UserError(f"{game.id} {what}: breaks the game's invariants ({msg})") from None


def check_doc_limits(doc: dict, schema, game_id: str, where: str = "data",
                     like: dict | None = None) -> None:
    """Every whole number of a component document within its schema's range
    (``ComponentSchema.limits``, or the default ranges of sim/core/components.py) and every
    list of at most ``MAX_LIST`` entries; with ``like`` (the printed document), a number where
    ``like`` has a number (never true/false) and true/false where it has one. Raises UserError
    naming the path."""
    from sim.core.components import DEFAULT_LIMIT, DEFAULT_SIGNED_LIMIT, MAX_LIST, slug

    kinds: dict[str, type] = {}
    if like is not None:
        for table, node in like.items():
            rows = node if isinstance(node, list) else [node]
            for r in rows:
                if isinstance(r, dict):
                    for f, v in r.items():
                        x = v[0] if isinstance(v, list) and v else v
                        if isinstance(x, bool):
                            kinds[f"{table}.{f}"] = bool
                        elif isinstance(x, int):
                            kinds[f"{table}.{f}"] = int

    def num(v, path, tf):
        want = kinds.get(tf)
        if want is int and not isinstance(v, list) and (
                isinstance(v, bool) or not isinstance(v, (int, np.integer))):
            raise UserError(f"{game_id} {where}: {path} = {_show(v)}: expected a whole number")
        if want is bool and not isinstance(v, bool) and not isinstance(v, list):
            raise UserError(f"{game_id} {where}: {path} = {_show(v)}: expected true or false")
        lo, hi = schema.limits.get(tf) or (
            DEFAULT_SIGNED_LIMIT if tf in schema.signed else DEFAULT_LIMIT)
        if isinstance(v, bool) or isinstance(v, str) or v is None:
            return
        if isinstance(v, (int, np.integer)):
            if not lo <= int(v) <= hi:
                raise UserError(f"{game_id} {where}: {path} = {_show(v)}: out of range; "
                                f"allowed {lo}..{hi}")
        elif isinstance(v, float):
            if not (lo <= v <= hi):
                raise UserError(f"{game_id} {where}: {path} = {_show(v)}: out of range; "
                                f"allowed {lo}..{hi}")
        elif isinstance(v, list):
            if len(v) > MAX_LIST:
                raise UserError(f"{game_id} {where}: {path}: at most {MAX_LIST} entries")
            for i, x in enumerate(v):
                num(x, f"{path}.{i}", tf)

    if not isinstance(doc, dict):
        raise UserError(f"{game_id} {where}: expected an object of tables")
    for table, node in doc.items():
        if isinstance(node, list):
            keyf = schema.keys.get(table, "name")
            for r in node:
                if not isinstance(r, dict):
                    raise UserError(f"{game_id} {where}: {table}: rows must be objects")
                for f, v in r.items():
                    if f != keyf:
                        num(v, f"{table}.{slug(r.get(keyf, '?'))}.{f}", f"{table}.{f}")
        elif isinstance(node, dict):
            for f, v in node.items():
                num(v, f"{table}.{f}", f"{table}.{f}")
