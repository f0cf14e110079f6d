"""Rule options: named, typed, validated, and encoded into an int64 array for the kernels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.core.errors import UserError

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


@dataclass(frozen=True)
class RuleOption:
    """One rule option of a game.

    ``kind`` is ``"int"``, ``"bool"`` or ``"choice"``. A choice is encoded as the index of its
    value in ``allowed``; a bool as 0/1; an int as itself. ``section`` cites the spec.
    """

    name: str
    kind: str
    default: Any
    section: str
    doc: str
    allowed: tuple = ()
    min: int | None = None
    max: int | None = None

    def allowed_text(self) -> str:
        if self.kind == "bool":
            return "true, false"
        if self.kind == "choice":
            return ", ".join(str(a) for a in self.allowed)
        if self.allowed:
            return ", ".join(str(a) for a in self.allowed)
        return f"{self.min}..{self.max}"

    def parse(self, raw: Any) -> Any:
        """Validate ``raw`` (a str from the CLI or a JSON value); return the typed value.

        Raises UserError naming the option and its allowed values.
        """
        shown = " ".join(str(raw).split())
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        bad = UserError(
            f"option {self.name}: bad value {shown}; allowed: {self.allowed_text()}"
        )
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.lower() in _TRUE | _FALSE:
                return raw.lower() in _TRUE
            if isinstance(raw, int) and raw in (0, 1):
                return bool(raw)
            raise bad
        if self.kind == "int":
            if isinstance(raw, bool):
                raise bad
            try:
                v = int(raw)
            except (TypeError, ValueError, OverflowError):
                raise bad from None
            if isinstance(raw, float) and raw != v:
                raise bad
            if self.allowed and v not in self.allowed:
                raise bad
            if self.min is not None and v < self.min or self.max is not None and v > self.max:
                raise bad
            return v
        if self.kind == "choice":
            if raw not in self.allowed:
                raise bad
            return raw
        raise AssertionError(self.kind)

    def encode(self, value: Any) -> int:
        if self.kind == "choice":
            return self.allowed.index(value)
        return int(value)

    def decode(self, code: int) -> Any:
        if self.kind == "choice":
            return self.allowed[int(code)]
        if self.kind == "bool":
            return bool(code)
        return int(code)


class OptionSet:
    """The ordered rule options of one game; index i is slot i of the encoded array."""

    def __init__(self, options: list[RuleOption]):
        self.options = tuple(options)
        self.by_name = {o.name: o for o in options}

    def __iter__(self):
        return iter(self.options)

    def slots(self) -> dict[str, int]:
        """Option name -> its slot in the encoded array (the kernels' ``O_*`` constants are
        derived from this, so the order is never kept by hand)."""
        return {o.name: i for i, o in enumerate(self.options)}

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def resolve(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        """Full option dict: defaults overlaid with validated ``raw``. Raises UserError."""
        out = self.defaults()
        if raw is not None and not isinstance(raw, dict):
            raise UserError(f"options must be a dict of name: value, got {type(raw).__name__}")
        for k, v in (raw or {}).items():
            if k not in self.by_name:
                raise UserError(
                    f"unknown option {k!r}; allowed: {', '.join(self.by_name)}"
                )
            out[k] = self.by_name[k].parse(v)
        return out

    def encode(self, resolved: dict[str, Any]) -> np.ndarray:
        """``int64[len(options)]`` for the kernels."""
        return np.array([o.encode(resolved[o.name]) for o in self.options], dtype=np.int64)

    def decode(self, arr: np.ndarray) -> dict[str, Any]:
        return {o.name: o.decode(arr[i]) for i, o in enumerate(self.options)}

    def non_default(self, resolved: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in resolved.items() if self.by_name[k].default != v}


def parse_option_args(items: list[str] | None) -> dict[str, str]:
    """``["name=value", ...]`` from the CLI into a dict. Raises UserError on a malformed item."""
    out: dict[str, str] = {}
    for item in items or []:
        for part in item.split(","):
            part = part.strip()
            if not part:
                continue
            if "=" not in part:
                raise UserError(f"bad option {part!r}; expected name=value")
            k, v = part.split("=", 1)
            out[k.strip()] = v.strip()
    return out
