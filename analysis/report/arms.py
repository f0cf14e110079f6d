"""Runs with different settings side by side, never pooled (issue 16, item 6).

A report may be given runs of the same player count that differ in their rule options, bot mix
or seating (``boardsim report run-a run-b``). Pooling them would report a mixture as if it were
the default game, so ``split_arms`` keeps the first arm as the "main" runs of the generic
sections and turns every other arm into role ``arm:<label>``; ``arm_rows`` then gives, per
other arm, its first-player win rate and its difference from the main arm: paired (the same
games replayed under the other setting, common random numbers) only when both arms have the
same seed, seating, bot list and number of games, else unpaired (Newcombe), and the row says
which.
"""

from __future__ import annotations

import json

import numpy as np
import polars as pl

from analysis import queries as q
from analysis import stats as st
from analysis.doc import ci, count, pct, pts
from analysis.paired import paired_difference
from analysis.report.manifests import options_text
from analysis.report.verdict import wilson
from analysis.report.wording import mix_label

__all__ = ["arm_key", "arm_label", "split_arms", "arm_rows", "same_seeds"]


def arm_key(m: dict, players) -> tuple:
    """What makes two runs poolable: players, rule options, bot list and seating."""
    return (str(players), json.dumps(m.get("options") or {}, sort_keys=True),
            tuple(m.get("strategies") or ()), str(m.get("seating", "?")))


def arm_label(m: dict) -> str:
    """"options p2_coins=4; pool of 5 scripted bots ..." from a run's manifest."""
    return (f"options {options_text(json.dumps(m.get('options') or {}))}; "
            f"{mix_label(m)}")


def split_arms(manifests: list[dict], players: dict[int, str], role_of: dict[int, str]
               ) -> dict[int, str]:
    """Roles with every main run whose settings differ from the first main run of its player
    count turned into ``arm:<label>``; ``players``: run index -> player counts text."""
    out = dict(role_of)
    first: dict[str, tuple] = {}
    for i in sorted(out):
        if out[i] != "main":
            continue
        key = arm_key(manifests[i], players.get(i, "?"))
        base = first.setdefault(key[0], key)
        if key != base:
            out[i] = "arm:" + arm_label(manifests[i])
    return out


def same_seeds(a: dict, b: dict) -> bool:
    """True when game i of run a and game i of run b are dealt alike (same seed, seating, bot
    list and number of games): only then are their games paired."""
    return all(a.get(k) == b.get(k) for k in ("seed", "seating", "strategies", "n_games")) \
        and a.get("seed") is not None


def _first_share(games: pl.LazyFrame) -> pl.DataFrame:
    """Per finished game: game index and the first player's win share."""
    df = q.collect(games.filter(q.finished_game()).select("game", "first_player", "winners"))
    share = [(1.0 / len(w) if f in list(w) else 0.0) if w is not None and len(w) else 0.0
             for f, w in zip(df["first_player"], df["winners"], strict=True)]
    return pl.DataFrame({"game": df["game"], "share": share})


def arm_rows(all_games: pl.LazyFrame, manifests: list[dict], role_of: dict[int, str],
             players: dict[int, str]) -> list[list]:
    """Verdict rows, one per non-main arm: the first player's win rate in that arm and its
    difference from the main arm of the same player count (paired when ``same_seeds``)."""
    rows = []
    mains = {players[i]: i for i in sorted(role_of) if role_of[i] == "main"}
    for i in sorted(role_of):
        if not role_of[i].startswith("arm:"):
            continue
        base = mains.get(players[i])
        a = _first_share(all_games.filter(pl.col("run") == i))
        n = len(a)
        w = float(a["share"].sum())
        lo, hi = wilson(w, n) if n else (float("nan"),) * 2
        question = f"Other setting, {players[i]} players: {role_of[i][4:]}"
        if base is None or not n:
            rows.append([question, pct(w / n if n else float("nan")), ci(lo, hi),
                         f"{count(n)} games", "First player's win rate in this arm."])
            continue
        b = _first_share(all_games.filter(pl.col("run") == base))
        if same_seeds(manifests[i], manifests[base]):
            j = b.join(a, on="game", suffix="_v")
            d = paired_difference(j["share"].to_numpy(), j["share_v"].to_numpy())
            how = (f"paired over the {count(d.n)} games finished in both arms (same seeds)")
            diff, dlo, dhi = d.diff, d.lo, d.hi
        else:
            diff, dlo, dhi = (float(np.asarray(x).ravel()[0]) for x in st.newcombe_difference(
                w, n, float(b["share"].sum()), len(b)))
            how = "unpaired (the arms were played on different seeds)"
        rows.append([question, pct(w / n), ci(lo, hi), f"{count(n)} games",
                     f"First player's win rate; minus the main arm's: {pts(diff)} points "
                     f"{ci(dlo, dhi)}, {how}. Not pooled with the main runs."])
    return rows
