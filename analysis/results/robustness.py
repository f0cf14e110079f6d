"""The read side of the robustness study (``boardsim robustness``,
``analysis.lab.robustness``): which study belongs to a results run, its ``robustness.json``, the
robustness cell of a verdict row and the formatting the report shares. Reads files; plays no
game."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

ROBUSTNESS_DIR = "robustness"
"""The folder inside a results run where ``boardsim run`` writes its robustness study."""

RUN_KEYS = ("game", "players", "strategies", "seating", "seed", "options")


def _pct(r: dict | None, players: int) -> str:
    if not r or r.get("est") is None:
        return "n/a"
    par = 100.0 / players
    return f"{r['est'] + par:.1f}% [{r['lo'] + par:.1f}, {r['hi'] + par:.1f}]"


def _d(r: dict | None) -> str:
    if not r or r.get("est") is None:
        return ""
    return f"{r['est']:+.1f} [{r['lo']:+.1f}, {r['hi']:+.1f}]"


def _base_text(f: dict, p: int) -> str:
    b = f["baseline"]
    if f["key"].startswith("first:"):
        return _pct(b, p)
    if f["key"].startswith("length:"):
        return "n/a" if b.get("est") is None else f"{b['est']:.1f} turns per player"
    return f"{b['est']} ({b.get('lo', 0):+.1f} to {b.get('hi', 0):+.1f} points)" \
        if "lo" in b else str(b["est"])


def run_fields(m: dict[str, Any]) -> dict[str, Any]:
    return {k: m.get(k) for k in RUN_KEYS}


def robustness_for_run(run_dir: str | os.PathLike, manifest: dict[str, Any] | None = None
                       ) -> Path | None:
    """``<run_dir>/robustness`` when it holds a study of that run, else None."""
    folder = Path(run_dir) / ROBUSTNESS_DIR
    f = folder / "robustness.json"
    if not f.is_file():
        return None
    if manifest is not None:
        try:
            d = json.loads(f.read_text())
        except (OSError, ValueError):
            return None
        if json.dumps(d.get("run"), sort_keys=True, default=str) != json.dumps(
                run_fields(manifest), sort_keys=True, default=str):
            return None
    return folder


def load_robustness(folder: str | os.PathLike) -> dict[str, Any]:
    return json.loads((Path(folder) / "robustness.json").read_text())


def cell_for_row(question: str, data: dict[str, Any] | None) -> str:
    """The robustness cell of a verdict row named ``question`` ("First player, 2p (turn
    order)", "Strongest buildings, 2p", "Game length, 2p, 3p", "Rule hole: ...") from the
    study ``data`` (None: no study)."""
    q = question.strip()
    if q.startswith("Rule hole"):
        return "not varied (a rule check)"
    if data is None:
        return "not studied (`boardsim robustness`)"
    p = data["players"]
    by = {f["key"]: f for f in data["findings"]}
    if q.startswith("First player"):
        f = by.get(f"first:{p}")
        if f and f"{p}p" in q:
            return f["cell"]
        return f"not studied at this count (study: {p}p)"
    if q.startswith("Game length"):
        f = by.get(f"length:{p}")
        return (f["cell"] + (f" (at {p}p)" if "," in q.split("length", 1)[1] else "")) \
            if f and f"{p}p" in q else f"not studied at this count (study: {p}p)"
    recon = data.get("reconstructed_families") or {}
    for which in ("Strongest", "Weakest"):
        if q.startswith(which + " "):
            fam = q[len(which) + 1:].rsplit(",", 1)[0].strip()
            f = by.get(f"{which.lower()}:{fam}")
            if f and f"{p}p" in q:
                return f["cell"]
            return _recon_cell(recon.get(fam)) or "not studied for this family or count"
    m = re.match(r"(?:(?:Largest|Smallest) leverage|Leverage), (.+?)(?: \([^)]*\))?, [\d, p]+$",
                 q)
    if m:  # a leverage row (a paired nudge): the study does not re-measure leverage
        fam = m.group(1).strip()
        return (_recon_cell(recon.get(fam) or recon.get(fam.lower()))
                or "not studied (the study re-measures associations, not leverage)")
    fam = q.rsplit(",", 1)[0].strip()
    f = by.get(f"strongest:{fam}") or by.get(f"strongest:{fam.lower()}")
    if f:
        return f["cell"]
    return _recon_cell(recon.get(fam) or recon.get(fam.lower())) or "not studied"


def _recon_cell(what: str | None) -> str:
    """The cell of a family the study could not re-measure but whose numbers are unconfirmed."""
    if not what:
        return ""
    return f"undecided, not re-measured here: rests on unconfirmed data ({what})"
