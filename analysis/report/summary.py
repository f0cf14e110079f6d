"""``summary.json``: the report's headline numbers, read by the cross-game index
(``analysis.index``)."""

from __future__ import annotations

import math
import os
from datetime import datetime, timezone

import polars as pl

from analysis.report.headlines import first_phrase

__all__ = ["clean", "summary_json"]


def clean(x):
    """JSON-safe number: NaN/None -> None, numpy scalars -> Python."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def summary_json(game_id, title, run_dirs, manifests, role_of, main_idx, per_run,
                 order_rates, firsts, ss, overrides, headlines, answers, verdict: str = "",
                 chart: str | None = None) -> dict:
    """The report's headline numbers (``summary.json``), read by ``analysis.index``.

    Rates are proportions in [0, 1]; ``verdict`` is the report's one-line verdict and
    ``chart`` the file name of its one-screen chart (both shown by the index); ``first_seat`` comes from the runs whose role is "main"
    (the generic sections); ``games_played`` and ``players`` cover every run."""
    runs = []
    for i, (run, m) in enumerate(zip(run_dirs, manifests, strict=True)):
        r = per_run.filter(pl.col("run") == i)
        runs.append({
            "folder": os.path.basename(os.path.normpath(run)),
            "role": role_of.get(i, "main"),
            "players": [int(x) for x in r["players"][0].split(",")] if len(r) else [],
            "games": int(r["n"][0]) if len(r) else 0,
            "strategies": list(m.get("strategies") or []),
            "seating": m.get("seating"),
            "seed": m.get("seed"),
        })
    first = []
    for r in order_rates.filter(pl.col("position") == 0).iter_rows(named=True):
        p = int(r["players"])
        need = ss["first"].get(p)
        first.append({
            "players": p,
            "who": first_phrase(p, firsts),
            "n": int(r["n"]),
            "win_rate": clean(r["win_rate"]),
            "lo": clean(r["lo"]),
            "hi": clean(r["hi"]),
            "parity": 1.0 / p,
            "games_for_1_point": clean(need.games_need) if need else None,
        })
    main_mix = [f"{', '.join(manifests[i].get('strategies') or ['?'])} "
                f"({manifests[i].get('seating', '?')})" for i in main_idx]
    return {
        "game": game_id,
        "title": title,
        "generated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "games_played": sum(x["games"] for x in runs),
        "players": sorted({p for x in runs for p in x["players"]}),
        "first_seat": first,
        "data_status": "; ".join(dict.fromkeys(
            str(m.get("data_status", "unknown")) for m in manifests)),
        "overrides": overrides,
        "bot_mix": "; ".join(dict.fromkeys(main_mix)),
        "seeds": list(dict.fromkeys(m.get("seed") for m in manifests)),
        "boardsim_version": "; ".join(dict.fromkeys(
            str(m.get("boardsim_version", "unknown")) for m in manifests)),
        "runs": runs,
        "headlines": list(headlines),
        "answers": list(answers),
        "verdict": verdict,
        "chart": chart,
        "report_md": "report.md",
        "report_html": "report.html",
    }
