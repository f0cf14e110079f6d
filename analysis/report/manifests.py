"""Run metadata of a report: the manifests, their rule options and component-data overrides,
and the game's title."""

from __future__ import annotations

import json
import os

__all__ = ["load_manifests", "options_text", "overrides_of", "overrides_text",
           "check_overrides", "game_title", "one_or_each"]


def load_manifests(run_dirs: list[str]) -> list[dict]:
    """The ``manifest.json`` of each run folder (``{}`` when missing)."""
    out = []
    for run in run_dirs:
        path = os.path.join(run, "manifest.json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                out.append(json.load(f))
        else:
            out.append({})
    return out


def options_text(raw: str) -> str:
    """The options JSON of a run -> 'name=value, ...' ('defaults' when empty)."""
    try:
        opts = json.loads(raw) if raw else {}
    except json.JSONDecodeError:
        return raw
    if not opts:
        return "defaults"
    return ", ".join(f"{k}={json.dumps(v) if not isinstance(v, str) else v}"
                     for k, v in sorted(opts.items()))


def overrides_of(manifest: dict) -> dict:
    """The component-data overrides a run's manifest records (``"overrides"``: a flat dict
    such as ``{"buildings.church.vp": 7}``); absent or ``{}`` means the data as printed."""
    ov = manifest.get("overrides") or {}
    if not isinstance(ov, dict):
        from sim.core.errors import UserError

        raise UserError(f"manifest overrides must be a dict of name: value, got {ov!r}")
    return ov


def overrides_text(ov: dict) -> str:
    """``{"b.church.vp": 7}`` -> ``"b.church.vp=7"``; ``{}`` -> ``"component data as printed"``."""
    if not ov:
        return "component data as printed"
    return ", ".join(f"{k}={v if isinstance(v, str) else json.dumps(v)}"
                     for k, v in sorted(ov.items()))


def check_overrides(run_dirs: list[str], manifests: list[dict]) -> dict:
    """The overrides shared by every run; UserError (a ValueError) when they differ, so that
    results of different component data never mix in one report."""
    ovs = [overrides_of(m) for m in manifests]
    if len({json.dumps(o, sort_keys=True) for o in ovs}) > 1:
        from sim.core.errors import UserError

        each = "; ".join(f"{os.path.basename(os.path.normpath(r))}: {overrides_text(o)}"
                         for r, o in zip(run_dirs, ovs, strict=True))
        raise UserError(f"runs have different component-data overrides ({each}); "
                        "report each set of overrides separately")
    return ovs[0] if ovs else {}


def game_title(game_id: str, manifests: list[dict]) -> str:
    """The game's display title: from a manifest, else the registry, else the id."""
    for m in manifests:
        if m.get("title"):
            return str(m["title"])
    try:  # optional: the registry knows the display title
        from sim.registry import get_game

        return get_game(game_id).title or game_id
    except Exception:
        return game_id


def one_or_each(values: list[str]) -> str:
    """The value when every run has the same, else 'run 1: a; run 2: b'."""
    uniq = list(dict.fromkeys(values))
    if len(uniq) == 1:
        return uniq[0]
    return "; ".join(f"run {i + 1}: {v}" for i, v in enumerate(values))
