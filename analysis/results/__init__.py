"""The read side of the lab's studies (``analysis.lab``): what a study wrote, read back, and
the fits over it (``effects``, ``ladder``, ``tiers``). Reads files and arrays; plays no game,
so the reports (the app floor) use it without the lab (docs/house-pattern.md, "The floors").

Here: which study folder belongs to a results run (``study_of_run``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RUN_KEYS = ("game", "players", "strategies", "seating", "seed", "options", "overrides",
            "engine_version")
"""The fields of a run's manifest that a study of that run must share (``run_fields``)."""


def run_fields(manifest: dict[str, Any]) -> dict[str, Any]:
    """The fields of a results run's manifest (``RUN_KEYS``) that define which study belongs
    to it: game, players, strategies, seating, seed, rule options, component-data overrides
    ({} when absent) and engine version (None when absent)."""
    out = {k: manifest.get(k) for k in RUN_KEYS}
    out["overrides"] = dict(manifest.get("overrides") or {})
    out["options"] = dict(manifest.get("options") or {})
    return out


def study_of_run(folder: Path, record: str, manifest: dict[str, Any]) -> dict | None:
    """The JSON object ``folder/record`` (a study's ``effects.json`` or ``tiers.json``) when
    its ``run`` fields record the run of ``manifest`` (``run_fields``: the same game, players,
    bots, seating, seed, options, overrides and engine version), else None: a report never
    shows a study of another run, other data or other settings."""
    if not manifest.get("game"):
        return None
    try:
        data = json.loads((Path(folder) / record).read_text())
    except (OSError, ValueError):
        return None
    rec = data.get("run") if isinstance(data, dict) else None
    if not isinstance(rec, dict) or {k: rec.get(k) for k in RUN_KEYS} != run_fields(manifest):
        return None
    return data
