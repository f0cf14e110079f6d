"""Robustness of the headline findings (``boardsim robustness GAME``; issue 28).

Each headline of a report is one number under one bot mix and one guess at every unconfirmed
component number. This study re-measures the headlines on **common seeds** (game *i* of every
setting has the same chance seed, ``seed_for(seed, i, 0)``, and the same seating draws) across
four axes:

* **play**: the scripted tier (the recommended mix, pool seating) against the search tier
  (the search bot ``search``, ``analysis.lab.tiers.SEARCH_BOT``, in every seat at ``budget``
  playouts per decision, by default the bot's own default budget, the bot reached through the
  registry, ``analysis.lab.tiers``' budget setting);
* **bot mix**: the recommended mix, each mirror of the mix's bots (every seat the same bot)
  and, when the baseline seats its bots in a fixed order, the same bots with pool seating
  (each seat drawn per game);
* **data**: each unconfirmed number of the game's component table (``ComponentSchema.ranges``,
  ``boardsim games GAME``) at its low and its high, one at a time, paired with the baseline on
  the same games; every number of a field at its low and at its high together (corners); a
  Latin-hypercube design over all of them together (``scipy.stats.qmc``); each interpreted
  rule option's alternatives (``ComponentSchema.interpretations``);
* **crossed**: the inputs (numbers or corners) that moved the first seat most under the
  scripted tier, at their low and high under the search tier too, compared with the search
  tier's own baseline (Province shows play and data interact); and, when the mix plays rows
  tuned by self-play (``<bot>-tuned``), every number and corner under the hand-set rows too
  (``handset_mix``), compared with the hand-set rows' own baseline (the bots and the data
  interact as well: Province's reconstructed coin costs +1 give 34.7% first-seat wins with
  hand-set `greedy`, 44.4% with `greedy-tuned`).

The headlines: the first player's win share (by turn order) minus parity, the strongest and
the weakest component of each family (holders' win rate minus the others', an association,
``analysis.lab.effects`` families), game length (player-turns per player). Each gets a cell
(``robustness_cell``): ``holds`` when its category (the sign of the interval; the component's
name; the length within 25%) stays on every axis, otherwise what it depends on. A setting too
small to decide leaves the cell ``undecided`` and says so.

Every setting is a resumable folder of Parquet files under ``<out>/arms/<key>/`` (one row per
game: first player, turns, finished, each seat's win share and holder columns; its identity in
``setting.json``), written with the runner's atomic writer; a rerun plays only the missing
games, and a larger ``-n`` adds games.
``robustness.json`` holds every measurement, ``robustness.md`` the tables, ``tornado.png`` the
one-at-a-time chart. Method: docs/robustness.md.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.doc import md_table, write_atomic
from analysis.lab.tiers import SEARCH_BOT
from analysis.results.robustness import (  # noqa: F401 (re-exported)
    ROBUSTNESS_DIR,
    RUN_KEYS,
    _base_text,
    _d,
    _pct,
    cell_for_row,
    load_robustness,
    robustness_for_run,
    run_fields,
)
from analysis.stats import Z95, cluster_difference
from sim.core.components import slug
from sim.core.errors import UserError

__all__ = ["Setting", "plan_settings", "play_setting", "measure", "robustness_cell",
           "run_robustness", "run_robustness_of", "robustness_for_run", "load_robustness",
           "cell_for_row", "RUN_STUDY", "ROBUSTNESS_DIR", "MIN_GAMES", "LENGTH_BAND"]


MIN_GAMES = 100
"""A setting decides a finding's category only with at least this many finished games (and,
for the first seat, an interval no wider than +-``WIDE`` points where it includes parity); a
smaller one leaves the cell undecided (and says so)."""

WIDE = 10.0
"""A setting whose first-seat interval includes parity but is wider than +-WIDE points says
nothing about a change of category (undecided), rather than 'no advantage'."""

LENGTH_BAND = 1.25
"""Game length 'holds' while every setting's mean stays within this factor of the baseline's."""

CHUNK = 500
"""Games per Parquet chunk (scripted settings); the search tier plays chunks of 20."""

RUN_STUDY: dict[str, dict[str, Any]] = {
    "province": {"n": 2000, "n_search": 100, "budget": None, "design": 16, "crossed": 2,
                 "oat": 1},
    "go-town": {"n": 600, "n_search": 100, "budget": None, "design": 0, "crossed": 0,
                "oat": 1},
    "little-town": {"n": 400, "n_search": 100, "budget": None, "design": 0, "crossed": 0,
                    "oat": 1},
    "three-little-wolves": {"n": 600, "n_search": 100, "budget": None, "design": 0,
                            "crossed": 0, "oat": 1},
    "suburbia": {"n": 200, "n_search": 60, "budget": None, "design": 8, "crossed": 0,
                 "oat": 0},
}
"""``boardsim run``'s robustness study per game (on the main 2-player run's settings): games
per scripted setting, search-tier games and budget, Latin-hypercube points (0: none) and
crossed inputs, and whether each number is also played one at a time (``oat``; Suburbia's
20 goal bonuses only in the design). Sized so the five studies add a few minutes of 2 cores (BENCHMARKS.md, branch
robustness); findings a study this small cannot decide say 'undecided' with the command."""


OLDER_SEARCH_BOTS = ("mcts",)
"""Search bots played as further play settings by ``boardsim robustness`` (not by ``boardsim
run``'s study): ``mcts``, the search tier before ``search`` (issue 28's table measured
Province under it: the first seat at 64.7% in 780 games, 14.2 turns per player)."""


STUDY_VERSION = 2
"""The study's plan version, stored in robustness.json: ``boardsim run`` keeps an earlier study
of the same sizes only when it has this version (2: the hand-set rows' data axis and the older
search bot); the settings already played are reused either way (resumable folders)."""

OLDER_CROSSED = 2
"""An older search bot's play setting crosses at most this many inputs (its games cost about
four times the search tier's in Province: 0.35 against 0.08 CPU s)."""


# ---- the settings --------------------------------------------------------------------------
@dataclass
class Setting:
    """One setting of the study: its folder ``key``, ``axis`` (baseline, play, mix, data,
    corner, design, option, crossed), a ``label``, the bots and seating, component-data
    ``overrides``, rule ``options``, its games ``n``, ``tier`` (scripted or search), the
    ``input`` it moves (a data path, a field, an option) and the ``level`` (low, high, a
    value)."""

    key: str
    axis: str
    label: str
    strategies: list[str]
    seating: str
    n: int
    overrides: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    tier: str = "scripted"
    input: str = ""
    level: str = ""
    point: dict[str, int] = field(default_factory=dict)
    ref: str = ""
    """A crossed setting's reference: the key of the setting it is compared with (``search``,
    ``search-mcts``, ``handset``); "" for the baseline."""
    budget: int | None = None
    """A search-tier setting's playouts per decision (None: the study's ``--budget``)."""


def _field_of(path: str) -> str:
    """``structures.camp.coins`` -> ``structures.coins`` (the table and the field)."""
    parts = path.split(".")
    return f"{parts[0]}.{parts[-1]}" if len(parts) >= 3 else path


def design_points(ranges: list[dict[str, Any]], m: int, seed: int) -> list[dict[str, int]]:
    """``m`` points of a Latin-hypercube design (``scipy.stats.qmc.LatinHypercube``, scrambled,
    seeded) over every range together, each coordinate mapped to a whole number in
    ``low..high`` (each of the ``high - low + 1`` values an equal share of [0, 1))."""
    if m <= 0 or not ranges:
        return []
    from scipy.stats import qmc

    u = qmc.LatinHypercube(d=len(ranges), seed=seed).random(m)
    out = []
    for row in u:
        pt = {}
        for r, x in zip(ranges, row):
            k = r["high"] - r["low"] + 1
            pt[r["path"]] = int(r["low"] + min(k - 1, int(x * k)))
        out.append(pt)
    return out


def _value_slug(value: Any) -> str:
    """An option value as a folder name that keeps its sign (``slug`` gives ``-1`` and ``1``
    the same name: Suburbia's ``red_line_offset`` alternatives -1 and 1 collided)."""
    text = str(value)
    return ("minus_" + slug(text[1:])) if text.startswith("-") else slug(text)


def plan_settings(game, players: int, n: int, n_search: int, strategies: list[str],
                  seating: str, options: dict[str, Any], design: int, seed: int,
                  oat: bool = True, older: dict[str, int] | None = None) -> list[Setting]:
    """The scripted and search settings of the study of ``game`` (the crossed ones come after
    the first measurements, ``crossed_settings``). ``older``: other search bots (name ->
    playouts per decision) played in every seat too, as further play settings (``mcts``,
    the search tier before ``search``)."""
    base = dict(strategies=list(strategies), seating=seating, options=dict(options))
    out = [Setting("baseline", "baseline", "recommended mix (baseline)", n=n, **base)]
    if n_search > 0 and SEARCH_BOT in game.strategies:
        out.append(Setting("search", "play", f"search tier ({SEARCH_BOT} in every seat)",
                           [SEARCH_BOT], "fixed", n_search, options=dict(options),
                           tier="search"))
    for b, bud in (older or {}).items() if n_search > 0 else ():
        out.append(Setting(f"search-{slug(b)}", "play", f"older search bot (`{b}` in every "
                           f"seat, {bud:,} playouts per decision)", [b], "fixed", n_search,
                           options=dict(options), tier="search", budget=bud))
    bots = [b for b in dict.fromkeys(strategies) if b not in ("random", "mcts", SEARCH_BOT)]
    for b in bots:
        out.append(Setting(f"mirror-{slug(b)}", "mix", f"`{b}` mirror", [b], "fixed", n,
                           options=dict(options)))
    hand = handset_mix(game, strategies)
    if hand != list(strategies):
        out.append(Setting("handset", "mix", "hand-set rows ("
                           + ", ".join(f"`{h}` for `{t}`" for t, h in zip(strategies, hand)
                                       if t != h) + ")", hand, seating, n,
                           options=dict(options)))
    if seating != "pool" and len(bots) > 1:  # the same bots, each seat drawn per game
        out.append(Setting("pool", "mix", "the same bots, pool seating", bots, "pool", n,
                           options=dict(options)))
    ranges = game.plausible_ranges()
    if oat:
        for r in ranges:
            for level in ("low", "high"):
                v = r[level]
                if v == r["value"]:
                    continue
                out.append(Setting(f"data-{slug(r['path'])}-{level}", "data",
                                   f"{r['path']} = {v} ({level}; printed {r['value']})",
                                   n=n, overrides={r["path"]: v}, input=r["path"],
                                   level=level, **base))
    fields: dict[str, list[dict]] = {}
    for r in ranges:
        fields.setdefault(_field_of(r["path"]), []).append(r)
    for f, rs in fields.items():
        if len(rs) < 2:
            continue
        for level in ("low", "high"):
            ov = {r["path"]: r[level] for r in rs}
            out.append(Setting(f"corner-{slug(f)}-{level}", "corner",
                               f"every unconfirmed {f} at its {level}", n=n, overrides=ov,
                               input=f"{f} (all)", level=level, **base))
    for i, pt in enumerate(design_points(ranges, design, seed)):
        out.append(Setting(f"design-{i:03d}", "design", f"design point {i}", n=n,
                           overrides=pt, point=pt, **base))
    for it in game.interpretations():
        for alt in it["alternatives"]:
            opts = {**options, it["option"]: alt}
            out.append(Setting(f"option-{slug(it['option'])}-{_value_slug(alt)}", "option",
                               f"option {it['option']}={alt} (default {it['default']})",
                               list(strategies), seating, n, options=opts,
                               input=f"option {it['option']}", level=str(alt)))
    if hand != list(strategies):  # the data axis under the hand-set rows too
        out += [Setting(f"handset-{s.key}", "crossed", f"{s.label}, hand-set rows", hand,
                        seating, n, overrides=dict(s.overrides), options=dict(s.options),
                        input=s.input, level=s.level, ref="handset")
                for s in list(out) if s.axis in ("data", "corner")]
    return out


def handset_mix(game, strategies: list[str]) -> list[str]:
    """``strategies`` with each row tuned by self-play (``<bot>-tuned``, ``boardsim
    train-bot``) replaced by the hand-set row it was tuned from: the mix whose data axis is
    crossed too, as the data's effect depends on the bots (Province's every reconstructed
    coin cost +1: 34.7% first-seat wins with hand-set `greedy`, 44.4% with `greedy-tuned`)."""
    out = []
    for b in strategies:
        base = b[:-len("-tuned")] if b.endswith("-tuned") else ""
        out.append(base if base and base in game.strategies else b)
    return out


def crossed_settings(settings: list[Setting], oat_table: list[dict], top: int,
                     n_search: int) -> list[Setting]:
    """The data axis under the search tier (and under each older search bot's play setting):
    the ``top`` inputs (single numbers or a field's corner) whose swing of the first seat was
    largest under the scripted tier, each at its low and high."""
    plays = [s for s in settings if s.axis == "play" and s.tier == "search"]
    if not plays or n_search <= 0:
        return []
    ranked = [r["input"] for r in sorted(oat_table, key=lambda r: -r["swing"])]
    out = []
    for search in plays:
        tag = "" if search.key == "search" else search.key[len("search-"):] + "-"
        who = "search tier" if search.key == "search" else f"`{search.strategies[0]}` tier"
        chosen = set(ranked[:top if search.key == "search" else min(top, OLDER_CROSSED)])
        for s in settings:
            if s.axis in ("corner", "data") and s.input in chosen:
                out.append(Setting(f"crossed-{tag}{s.key}", "crossed", f"{s.label}, {who}",
                                   list(search.strategies), "fixed", n_search,
                                   overrides=dict(s.overrides), options=dict(search.options),
                                   tier="search", input=s.input, level=s.level,
                                   ref=search.key, budget=search.budget))
    return out


# ---- playing a setting (resumable Parquet) -------------------------------------------------
def _holders(game) -> list[tuple[str, str, str, int]]:
    """(family, component label, holder column, holder minimum) of every component of the
    game's effect families that has a per-seat column."""
    from analysis.lab.effects import FAMILIES, components_for

    if game.id not in FAMILIES:
        return []
    cols = set(game.seat_detail)
    seen: dict[str, tuple[str, str, str, int]] = {}
    for c in components_for(game):
        if c.holder and c.holder in cols and c.holder not in seen:
            seen[c.holder] = (c.family, c.key, c.holder, c.holder_min)
    return list(seen.values())


def _identity(game_id: str, s: Setting, players: int, seed: int, budget: int | None
              ) -> dict[str, Any]:
    """What defines a setting's games (a folder holding games of another identity is
    refused); the game count is not part of it: a larger ``-n`` adds games."""
    return {"game": game_id, "players": players, "seed": seed, "strategies": s.strategies,
            "seating": s.seating, "overrides": s.overrides, "options": s.options,
            "tier": s.tier, "budget": budget if s.tier == "search" else None}


def play_setting(game_id: str, s: Setting, players: int, seed: int, root: Path,
                 holders: list[str], budget: int | None = None, jobs: int = 1,
                 tick: Callable[[int], None] | None = None) -> pl.DataFrame:
    """Play games ``0 .. s.n-1`` of setting ``s`` into ``root/arms/<key>/`` (those not yet
    there, in Parquet files ``games-<first>-<end>.parquet`` of at most ``CHUNK`` games, 20
    for the search tier) and return its per-game table. Raises UserError when the folder holds another
    setting's games (a changed identity)."""
    from joblib import Parallel, delayed

    from analysis.lab.tiers import _with_budget
    from sim.core.game import UNFINISHED
    from sim.core.seating import seat_matrix
    from sim.registry import get_game
    from sim.runner import write_parquet_atomic

    chunk = 20 if s.tier == "search" else CHUNK
    folder = root / "arms" / s.key
    if s.budget is not None:
        budget = s.budget
    ident = json.loads(json.dumps(_identity(game_id, s, players, seed, budget), default=str))
    idf = folder / "setting.json"
    if idf.exists():
        old = json.loads(idf.read_text())
        if old != ident:
            raise UserError(f"{folder}: holds another setting's games; give another --out or "
                            "remove that folder")
    else:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(idf, json.dumps(ident, indent=1, sort_keys=True))
    game = get_game(game_id, s.overrides or None)
    names = [game.strategy(x).name for x in s.strategies]
    resolved = game.resolve_options(s.options)
    codes, params = _with_budget(game, names, budget if s.tier == "search" else None)
    bad = [game.end_reasons.index(r) for r in UNFINISHED if r in game.end_reasons]
    have = np.zeros(s.n, bool)
    for f in folder.glob("games-*.parquet"):
        a, b = (int(x) for x in f.stem.split("-")[1:3])
        have[a:min(b, s.n)] = True
    todo = []
    i = 0
    while i < s.n:  # the missing games in runs of at most `chunk`
        if have[i]:
            i += 1
            continue
        j = i
        while j < s.n and not have[j] and j - i < chunk:
            j += 1
        todo.append((i, j - i))
        i = j

    def one(first: int, count: int):
        idx = seat_matrix(s.seating, seed, first, count, players, len(names))
        st = game._alloc(resolved)
        r = game._play_chunk(st, first, count, np.uint64(int(seed) % 2**64), players,
                             np.ascontiguousarray(idx, np.int64), codes.copy(), params.copy())
        cols: dict[str, Any] = {
            "game": np.arange(first, first + count, dtype=np.int64),
            "first_player": r.first_player.astype(np.int8),
            "turns": r.turns.astype(np.int32),
            "finished": ~np.isin(r.end_reason, bad),
        }
        ws = np.asarray(r.win_share, np.float64)
        for j in range(players):
            cols[f"ws_{j}"] = ws[:, j]
        for h in holders:  # a column another setting's data lacks reads as never held
            a = (np.asarray(r.seat_detail[h]).astype(np.int16) if h in r.seat_detail
                 else np.zeros((count, players), np.int16))
            for j in range(players):
                cols[f"{h}@{j}"] = a[:, j]
        write_parquet_atomic(pl.DataFrame(cols),
                             folder / f"games-{first:09d}-{first + count:09d}.parquet")
        if tick is not None:
            tick(count)

    if todo:
        Parallel(n_jobs=jobs, backend="threading")(delayed(one)(a, c) for a, c in todo)
    files = sorted(folder.glob("games-*.parquet"))
    return (pl.concat([pl.read_parquet(f) for f in files], how="vertical_relaxed")
            .unique("game", keep="first").sort("game").filter(pl.col("game") < s.n))


# ---- measuring -----------------------------------------------------------------------------
def _first_share(t: pl.DataFrame, players: int) -> np.ndarray:
    ws = np.stack([t[f"ws_{j}"].to_numpy() for j in range(players)], axis=1)
    fp = t["first_player"].to_numpy().astype(np.int64)
    return ws[np.arange(ws.shape[0]), fp]


def _mean_ci(v: np.ndarray) -> dict[str, float | None]:
    n = int(v.size)
    if n == 0:
        return {"est": None, "lo": None, "hi": None, "n": 0}
    m = float(v.mean())
    h = Z95 * float(v.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return {"est": m, "lo": m - h, "hi": m + h, "n": n}


def _share_ci(fs: np.ndarray, players: int) -> dict[str, float | None]:
    """The first seat's win share (per game in [0, 1]; a draw's share is fractional) minus
    parity, in points, with a Wilson 95% interval (inside 0..100%: a normal interval of 199
    wins in 200 games read 99.5% [98.5, 100.5])."""
    n = int(fs.size)
    if n == 0:
        return {"est": None, "lo": None, "hi": None, "n": 0}
    p = float(fs.mean())
    z2 = Z95 * Z95
    c = (p + z2 / (2 * n)) / (1 + z2 / n)
    h = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    par = 100.0 / players
    return {"est": 100 * p - par, "lo": 100 * max(0.0, c - h) - par,
            "hi": 100 * min(1.0, c + h) - par, "n": n}


def measure(t: pl.DataFrame, players: int, comps: list[tuple[str, str, str, int]]
            ) -> dict[str, Any]:
    """The headlines of one setting's games ``t``: ``first`` (first seat's win share minus
    parity, points), ``length`` (player-turns per player), ``limit`` (share of unfinished
    games) and, per family, every component's association (points) with ``strongest`` and
    ``weakest``."""
    fin = t["finished"].to_numpy()
    f = t.filter(pl.col("finished"))
    fs = _first_share(f, players) if f.height else np.zeros(0)
    first = _share_ci(fs, players)
    length = _mean_ci(f["turns"].to_numpy().astype(np.float64) / players)
    out: dict[str, Any] = {"games": int(t.height), "finished": int(fin.sum()),
                           "limit": float(1 - fin.mean()) if t.height else 0.0,
                           "first": first, "length": length, "families": {}}
    if not f.height:
        return out
    ws = np.stack([f[f"ws_{j}"].to_numpy() for j in range(players)], axis=1).ravel()
    games = np.repeat(np.arange(f.height), players)
    for fam, label, col, hmin in comps:
        held = np.stack([f[f"{col}@{j}"].to_numpy() for j in range(players)],
                        axis=1).ravel() >= hmin
        if held.sum() < 30 or (~held).sum() < 30:
            continue
        r = cluster_difference(ws, held, games, bounds=(-1.0, 1.0))
        if r["est"] is None or math.isnan(r["est"]):
            continue
        out["families"].setdefault(fam, {})[label] = {
            "est": 100 * r["est"], "lo": 100 * r["lo"], "hi": 100 * r["hi"],
            "holders": int(held.sum())}
    for d in out["families"].values():
        order = sorted(d, key=lambda k: -d[k]["est"])
        d["_strongest"], d["_weakest"] = order[0], order[-1]
    return out


def paired_first(a: pl.DataFrame, b: pl.DataFrame, players: int) -> dict[str, float | None]:
    """Setting ``a`` minus setting ``b``: the first seat's win share on the same games (both
    finished), mean difference with a 95% interval over games, points."""
    j = a.join(b, on="game", suffix="_b").filter(pl.col("finished") & pl.col("finished_b"))
    if j.height < 2:
        return {"est": None, "lo": None, "hi": None, "n": j.height}
    fa = _first_share(j, players)
    bb = j.select(["game", "first_player_b"] + [f"ws_{k}_b" for k in range(players)]).rename(
        {"first_player_b": "first_player", **{f"ws_{k}_b": f"ws_{k}" for k in range(players)}})
    return _mean_ci((fa - _first_share(bb, players)) * 100)


# ---- the cell ------------------------------------------------------------------------------
def _cat_first(r: dict) -> str | None:
    """'+' (first seat favoured), '-' (disfavoured), '0' (interval holds parity and is narrow),
    None (too few games or too wide to tell)."""
    if r.get("est") is None or r.get("n", 0) < MIN_GAMES:
        return None
    if r["lo"] > 0:
        return "+"
    if r["hi"] < 0:
        return "-"
    return "0" if (r["hi"] - r["lo"]) / 2 <= WIDE else None


_AXIS_WORDS = {"play": "play", "mix": "the bot mix"}
_DATA_AXES = ("data", "corner", "design", "option", "crossed")


def robustness_cell(kind: str, base: dict, arms: list[dict], players: int = 2,
                    unit: str = "") -> dict[str, Any]:
    """The robustness cell of one finding.

    ``kind``: ``first`` (``base``/arms: est, lo, hi, n in points of first-seat win share
    minus parity), ``length`` (est = mean player-turns per player, n) or ``component``
    (est = the component's name; ``lo``/``hi`` unused; n = finished games; arms may carry
    ``separated``: True when the arm's top component's interval clears the baseline's
    component's). ``arms``: dicts with ``axis`` (play, mix, data, corner, design, option,
    crossed), ``label``, ``input`` and the measurement; a crossed setting (the data under
    the search tier) carries ``ref``, the search tier's own measurement, which it is compared
    with (so a change of play is not counted as one of data). Returns ``{"cell": text, "status":
    holds|depends|undecided, "axes": [...], "range": (lo, hi) or None}``."""
    par = 100.0 / players
    if base.get("est") is None:
        return {"cell": "undecided: no finished baseline game", "status": "undecided",
                "axes": [], "range": None}
    if kind == "first":
        c0 = _cat_first(base)
        if c0 is None:
            return {"cell": f"undecided: the baseline has {base.get('n', 0):,} games "
                    f"(at least {MIN_GAMES} needed)", "status": "undecided", "axes": [],
                    "range": None}
    changed: dict[str, list[dict]] = {}
    undecided = []
    for a in arms:
        if a.get("est") is None or a.get("n", 0) < (MIN_GAMES if kind != "component" else 30):
            undecided.append(a)
            continue
        ref = a.get("ref") or base  # a crossed setting compares with the search tier
        if kind == "first":
            c, cr = _cat_first(a), (_cat_first(ref) if a.get("ref") else c0)
            if c is None or cr is None:
                undecided.append(a)
                continue
            moved = c != cr
        elif kind == "length":
            ratio = a["est"] / ref["est"] if ref.get("est") else math.inf
            moved = not (1 / LENGTH_BAND <= ratio <= LENGTH_BAND)
        else:
            moved = a["est"] != ref.get("est") and bool(a.get("separated", True))
        if moved:
            changed.setdefault(a["axis"], []).append(a)
    allv = [base] + [a for a in arms if a.get("est") is not None and a not in undecided]

    def span(vals: list[dict]) -> str:
        xs = [v["est"] for v in vals if isinstance(v.get("est"), (int, float))]
        if not xs:
            return ""
        lo, hi = min(xs), max(xs)
        if kind == "first":
            return f"{lo + par:.1f}-{hi + par:.1f}% first-seat wins"
        if kind == "length":
            return f"{lo:.1f}-{hi:.1f} {unit or 'turns per player'}"
        return ""

    def comp_span(vals: list[dict]) -> str:
        xs = [v["value"] for v in vals if isinstance(v.get("value"), (int, float))]
        if not xs:
            return ""
        return (f"{base['est']}'s association {min(xs):+.1f} to {max(xs):+.1f} points over "
                f"{len(xs)} settings")

    parts, axes = [], []
    for axis in ("play", "mix"):
        if axis in changed:
            axes.append(axis)
            parts.append(f"depends on {_AXIS_WORDS[axis]}: {span([base] + changed[axis])}"
                         if kind != "component" else
                         f"depends on {_AXIS_WORDS[axis]} ("
                         + ", ".join(f"{a['label']}: {a['est']}" for a in changed[axis][:2])
                         + ")")
    data_moved = [a for ax in _DATA_AXES for a in changed.get(ax, [])]
    if data_moved:
        axes.append("data")
        data_all = [base] + [a for a in allv if a.get("axis") in _DATA_AXES]
        which = _which(data_moved, base, kind)
        if kind == "component":
            parts.append(f"depends on unconfirmed data ({which}: "
                         f"{data_moved[0]['est']})")
        else:
            parts.append(f"depends on unconfirmed data: {span(data_all)} ({which})")
    xs = [a["est"] for a in allv if isinstance(a.get("est"), (int, float))]
    rng = (min(xs), max(xs)) if xs else None
    if parts:
        return {"cell": "; ".join(parts), "status": "depends", "axes": axes, "range": rng}
    if undecided:
        what = ", ".join(dict.fromkeys(a["label"] for a in undecided[:3]))
        return {"cell": f"undecided: too few games in {len(undecided)} setting"
                f"{'s' if len(undecided) != 1 else ''} ({what}); so far holds"
                + (f" ({span(allv)})" if span(allv) else ""),
                "status": "undecided", "axes": [], "range": rng}
    sp = comp_span(allv) if kind == "component" else span(allv)
    return {"cell": "holds" + (f" ({sp})" if sp else ""), "status": "holds",
            "axes": [], "range": rng}


def _which(moved: list[dict], base: dict, kind: str) -> str:
    """The input whose setting moved the finding furthest from the baseline."""
    if kind == "component":
        return moved[0].get("input") or moved[0]["label"]
    best = max(moved, key=lambda a: abs(a["est"] - base["est"]))
    return best.get("input") or best["label"]


# ---- the study -----------------------------------------------------------------------------
def _oat_table(settings: list[Setting], meas: dict[str, dict], paired: dict[str, dict],
               base_first: float) -> list[dict[str, Any]]:
    """One row per data input: the first seat's change at its low and high (paired, points)
    and the swing (the larger absolute change)."""
    rows: dict[str, dict[str, Any]] = {}
    for s in settings:
        if s.axis not in ("data", "corner", "option") or s.tier != "scripted":
            continue
        r = rows.setdefault(s.input, {"input": s.input, "axis": s.axis, "low": None,
                                      "high": None, "levels": {}})
        d = paired.get(s.key)
        r["levels"][s.level] = {"label": s.label, "first": meas[s.key]["first"], "diff": d}
        if s.level in ("low", "high"):
            r[s.level] = d
    out = []
    for r in rows.values():
        ds = [v["diff"]["est"] for v in r["levels"].values()
              if v["diff"] and v["diff"]["est"] is not None]
        r["swing"] = max((abs(x) for x in ds), default=0.0)
        out.append(r)
    return sorted(out, key=lambda r: -r["swing"])


def _sensitivity(settings: list[Setting], meas: dict[str, dict], ranges: list[dict]
                 ) -> list[dict[str, Any]]:
    """Over the Latin-hypercube points: each input's standardised regression coefficient on
    the first seat's win share and its square (the first-order Sobol index of a linear model;
    ``r2`` says how linear the response is)."""
    pts = [s for s in settings if s.axis == "design" and meas.get(s.key, {}).get("first", {})
           .get("est") is not None]
    if len(pts) < len(ranges) + 2 or not ranges:
        return []
    X = np.array([[s.point[r["path"]] for r in ranges] for s in pts], np.float64)
    y = np.array([meas[s.key]["first"]["est"] for s in pts])
    sd = X.std(axis=0)
    keep = sd > 0
    if not keep.any() or y.std() == 0:
        return []
    Z = (X[:, keep] - X[:, keep].mean(axis=0)) / sd[keep]
    A = np.column_stack([np.ones(len(y)), Z])
    coef, *_ = np.linalg.lstsq(A, (y - y.mean()) / y.std(), rcond=None)
    pred = A @ coef
    r2 = 1 - float(((y - y.mean()) / y.std() - pred).var()) / 1.0
    names = [r["path"] for r, k in zip(ranges, keep) if k]
    rows = [{"input": n, "src": float(c), "s1": float(c * c), "r2": r2}
            for n, c in zip(names, coef[1:])]
    return sorted(rows, key=lambda r: -r["s1"])


def _findings(settings: list[Setting], meas: dict[str, dict], players: int
              ) -> list[dict[str, Any]]:
    base = meas["baseline"]
    arms = [(s, meas[s.key]) for s in settings if s.key != "baseline"]

    def ref_of(s: Setting) -> dict | None:
        """The measurement a crossed setting is compared with (its ``ref`` setting's)."""
        return meas.get(s.ref or "search") if s.axis == "crossed" else None

    def arm(s: Setting, r: dict, what: str) -> dict:
        out = {"axis": s.axis, "label": s.label, "input": s.input, "key": s.key, **r}
        ref = ref_of(s)
        if ref is not None:
            out["ref"] = ref[what]
        return out

    out = []
    fb = base["first"]
    out.append({"key": f"first:{players}", "name": f"First player, {players}p",
                "baseline": fb, **robustness_cell(
                    "first", fb, [arm(s, m["first"], "first") for s, m in arms], players)})
    out.append({"key": f"length:{players}", "name": f"Game length, {players}p",
                "baseline": base["length"], **robustness_cell(
                    "length", base["length"], [arm(s, m["length"], "length") for s, m in arms],
                    players)})
    for fam, d in base["families"].items():
        for which in ("strongest", "weakest"):
            name = d[f"_{which}"]
            b = {"est": name, "n": base["finished"]}
            items = []
            for s, m in arms:
                od = m["families"].get(fam)
                if not od:
                    items.append({"axis": s.axis, "label": s.label, "input": s.input,
                                  "est": None, "n": 0})
                    continue
                top = od[f"_{which}"]
                ref = ref_of(s)
                if ref is not None and ref["families"].get(fam):
                    name_ref = ref["families"][fam][f"_{which}"]
                    items.append({"axis": s.axis, "label": s.label, "input": s.input,
                                  "est": top, "n": m["finished"], "ref": {"est": name_ref},
                                  "separated": True,
                                  "value": od[name]["est"] if name in od else None})
                    continue
                sep = True
                if top != name and name in od:
                    a, c = od[top], od[name]
                    sep = (a["lo"] > c["hi"]) if which == "strongest" else (a["hi"] < c["lo"])
                items.append({"axis": s.axis, "label": s.label, "input": s.input, "est": top,
                              "n": m["finished"], "separated": sep,
                              "value": od[name]["est"] if name in od else None})
            b["value"] = d[name]["est"]
            out.append({"key": f"{which}:{fam}", "name": f"{which.title()} {fam}",
                        "baseline": {**d[name], "value": d[name]["est"], "est": name},
                        **robustness_cell("component", b, items, players)})
    return out


def reconstructed_families(game, options: dict[str, Any]) -> dict[str, str]:
    """The component families (``analysis.lab.effects.FAMILIES``) whose table holds unconfirmed
    numbers or is chosen by an interpreted option: family -> one line naming them (the cell
    of a family the study cannot re-measure from per-seat columns)."""
    from analysis.lab.effects import FAMILIES

    ranges = game.plausible_ranges()
    interp = {i["option"]: i for i in game.interpretations()}
    resolved = game.resolve_options(options)
    try:
        tables = dict(getattr(game._components(), "INTERPRETATION_TABLES", {}))
    except UserError:
        tables = {}
    out = {}
    for fam in FAMILIES.get(game.id, ()):
        parts = []
        m = re.fullmatch(r"\{(\w+)\}", fam.table)
        table = str(resolved.get(m.group(1))) if m else fam.table
        opts = ([m.group(1)] if m else []) + [o for o, t in tables.items()
                                              if t == fam.table]
        for o in opts:
            if o in interp:
                it = interp[o]
                parts.append(f"option {it['option']}: {it['default']} or "
                             + ", ".join(str(a) for a in it["alternatives"]))
        rs = [r for r in ranges if r["path"].startswith(table + ".")]
        if rs:
            parts.append(", ".join(f"{r['path']} {r['low']}..{r['high']}" for r in rs[:3])
                         + (f" and {len(rs) - 3} more" if len(rs) > 3 else ""))
        if parts:
            out[fam.name] = "; ".join(parts)
    return out


def run_robustness(game_id: str, players: int | None = None, n: int = 4000,
                   n_search: int = 200, budget: int | None = None, design: int = 32,
                   crossed: int = 4, seed: int = 1, jobs: int = 1,
                   out: str | os.PathLike | None = None,
                   strategies: list[str] | None = None, seating: str | None = None,
                   options: dict[str, Any] | None = None, run: dict[str, Any] | None = None,
                   oat: bool = True, older_search: bool = True,
                   progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play the robustness study of ``game_id`` and write ``robustness.json``,
    ``robustness.md`` and ``tornado.png`` into ``out`` (default
    ``reports/<game>/robustness``). ``n``: games per scripted setting; ``n_search``: games per
    search-tier setting (0: no play axis); ``budget``: the search bot's playouts per decision
    (default its registry value); ``design``: Latin-hypercube points; ``crossed``: inputs
    (numbers or corners) replayed under the search tier; ``older_search``: also play each
    older search bot of the registry (``OLDER_SEARCH_BOTS``: ``mcts``) in every seat at its own
    default budget, with the crossed inputs under it too. Returns ``{"data", "markdown",
    "summary"}``. Raises UserError (one line) on bad input."""
    from sim.core.integrity import MAX_GAMES, check_int, check_seed
    from sim.core.seating import check_seating
    from sim.registry import get_game

    game = get_game(game_id)
    seed = check_seed(seed)
    n = check_int("-n (games per setting)", n, 1, MAX_GAMES)
    n_search = check_int("--search-games", n_search, 0, 100_000)
    design = check_int("--design (design points)", design, 0, 4096)
    crossed = check_int("--crossed", crossed, 0, 1000)
    if budget is not None:
        budget = check_int("--budget (playouts per decision)", budget, 1, 100_000)
    players = game.check_players(2 if players is None else players)
    if strategies is None:
        mix = list(getattr(game.bots, "RECOMMENDED_MIX", ()) or ())
        if not mix:
            raise UserError(f"{game.id} declares no recommended bot mix")
        strategies, seating = mix, seating or "pool"
    seating = seating or "fixed"
    for x in strategies:
        game.strategy(x)
    check_seating(seating, len(strategies), players)
    options = dict(options or {})
    game.resolve_options(options)
    if SEARCH_BOT not in game.strategies:
        n_search = 0
    used_budget = budget
    if n_search and budget is None:
        from analysis.lab.tiers import _with_budget

        c, p = _with_budget(game, [SEARCH_BOT], None)
        used_budget = int(p[0, 0])
    older = {}
    if n_search and older_search:
        from analysis.lab.tiers import _with_budget

        for b in OLDER_SEARCH_BOTS:
            if b in game.strategies and b != SEARCH_BOT:
                older[b] = int(_with_budget(game, [b], None)[1][0, 0])
    root = Path(out or Path("reports") / game.id / ROBUSTNESS_DIR)
    if root.exists() and not root.is_dir():
        raise UserError(f"--out {root} exists and is not a folder")
    settings = plan_settings(game, players, n, n_search, strategies, seating, options,
                             design, seed, oat, older)
    comps = _holders(game)
    holders = [c[2] for c in comps]
    total = [sum(s.n for s in settings)]
    done = [0]

    def tick(k: int) -> None:
        done[0] += k
        if progress is not None:
            progress(done[0], total[0])

    tables: dict[str, pl.DataFrame] = {}
    meas: dict[str, dict] = {}
    cpu: dict[str, float] = {}

    def play(ss: list[Setting]) -> None:
        for s in ss:
            c0 = time.process_time()
            tables[s.key] = play_setting(game.id, s, players, seed, root, holders,
                                         used_budget, jobs, tick)
            cpu[s.key] = round(time.process_time() - c0, 2)
            meas[s.key] = measure(tables[s.key], players, comps)

    t0, c0 = time.perf_counter(), time.process_time()
    play(settings)
    base = tables["baseline"]
    paired = {s.key: paired_first(tables[s.key], tables[s.ref] if s.ref else base, players)
              for s in settings if s.tier == "scripted" and s.key != "baseline"}
    oat_rows = _oat_table(settings, meas, paired, meas["baseline"]["first"]["est"] or 0.0)
    cross = crossed_settings(settings, [r for r in oat_rows if r["axis"] != "option"],
                             crossed, n_search)
    total[0] += sum(s.n for s in cross)
    play(cross)
    if "search" in tables:
        for s in cross:
            paired[s.key] = paired_first(tables[s.key], tables[s.ref], players)
    settings = settings + cross
    ranges = game.plausible_ranges()
    sens = _sensitivity(settings, meas, ranges)
    findings = _findings(settings, meas, players)
    data = {
        "game": game.id, "players": players, "seed": seed, "n": n, "n_search": n_search,
        "version": STUDY_VERSION,
        "budget": used_budget, "search_bot": SEARCH_BOT, "design": design, "crossed": crossed,
        "strategies": list(strategies), "seating": seating, "options": options,
        "run": run or {}, "ranges": ranges, "interpretations": game.interpretations(),
        "settings": [{**asdict(s), "measure": meas[s.key], "paired": paired.get(s.key),
                      "cpu": cpu.get(s.key)} for s in settings],
        "oat": oat_rows, "sensitivity": sens, "findings": findings,
        "reconstructed_families": reconstructed_families(game, options),
        "seconds": round(time.perf_counter() - t0, 1),
        "cpu_seconds": round(time.process_time() - c0, 1),
    }
    root.mkdir(parents=True, exist_ok=True)
    chart = tornado_chart(oat_rows, meas["baseline"]["first"], players, root / "tornado.png")
    data["chart"] = chart.name if chart else None
    write_atomic(root / "robustness.json", json.dumps(data, indent=1, default=str))
    md = root / "robustness.md"
    write_atomic(md, markdown(data))
    return {"data": data, "markdown": md, "summary": summary(data)}


def tornado_chart(oat: list[dict], base: dict, players: int, path: Path,
                  top: int = 15) -> Path | None:
    """The one-at-a-time chart: per input (largest swing first), the first seat's win share at
    its low and at its high around the baseline's."""
    rows = [r for r in oat if r["low"] or r["high"]][:top]
    if not rows or base.get("est") is None:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    par = 100.0 / players
    b = base["est"] + par
    fig, ax = plt.subplots(figsize=(7.5, 0.38 * len(rows) + 1.2))
    for i, r in enumerate(reversed(rows)):
        for lvl, colour in (("low", "#4c78a8"), ("high", "#e45756")):
            d = r[lvl]
            if d and d["est"] is not None:
                ax.barh(i, d["est"], left=b, color=colour, alpha=0.8,
                        label=lvl if i == 0 else None)
    ax.axvline(b, color="black", lw=0.8)
    ax.axvline(par, color="grey", lw=0.8, ls="--")
    ax.set_yticks(range(len(rows)), [r["input"] for r in reversed(rows)], fontsize=8)
    ax.set_xlabel("first seat's win share, % (baseline line; parity dashed)")
    ax.set_title("Which unconfirmed input moves the first seat most (one at a time, paired)",
                 fontsize=9)
    h, lab = ax.get_legend_handles_labels()
    if h:
        ax.legend(h, ["at its low", "at its high"][:len(h)], fontsize=8, loc="lower right")
    fig.tight_layout()
    from sim.core.io import atomic_path

    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=110, format="png")
    plt.close(fig)
    return path


def summary(data: dict[str, Any]) -> str:
    """One line: the first-seat finding's cell."""
    f = next((x for x in data["findings"] if x["key"].startswith("first:")), None)
    return f"{data['game']}: first player: {f['cell']}" if f else data["game"]


def markdown(data: dict[str, Any]) -> str:
    p = data["players"]
    lines = [f"# Robustness of the headlines: {data['game']}, {p} players", "",
             f"Common seeds (seed {data['seed']}): {data['n']:,} games per scripted setting, "
             + (f"{data['n_search']:,} per search-tier setting "
                f"(`{data.get('search_bot', 'mcts')}`, {data['budget']} "
                "playouts per decision)" if data["n_search"] else "no search tier")
             + f". Baseline: {', '.join(data['strategies'])} ({data['seating']} "
             f"seating). CPU {data['cpu_seconds']:,} s. Method: docs/robustness.md.", "",
             "## Findings", ""]
    lines.append(md_table(["Finding", "Baseline", "Robustness"], [
        [f["name"], _base_text(f, p), f["cell"]] for f in data["findings"]]))
    lines += ["", "## First seat's win share in every setting", ""]
    rows = []
    for s in data["settings"]:
        m = s["measure"]
        rows.append([s["axis"], s["label"], f"{m['finished']:,}", _pct(m["first"], p),
                     _d(s.get("paired")),
                     "" if m["length"]["est"] is None else f"{m['length']['est']:.1f}"])
    lines.append(md_table(["Axis", "Setting", "Games", "First seat wins (95% CI)",
                           "Paired change, points", "Turns per player"], rows,
                          [False, False, True, True, True, True]))
    if any(s["axis"] == "crossed" for s in data["settings"]):
        lines += ["", "Paired change: against the baseline; a crossed setting against its own "
                  "reference on the same games (`search tier`: the search tier's baseline; "
                  "`hand-set rows`: the hand-set rows' baseline)."]
    if data["oat"]:
        lines += ["", "## One at a time: each unconfirmed input at its low and high", "",
                  "Paired with the baseline on the same games (points of the first seat's win "
                  "share); largest swing first." + (" ![tornado](tornado.png)"
                                                    if data.get("chart") else ""), ""]
        lines.append(md_table(["Input", "At low", "At high", "Swing"], [
            [r["input"], _d(r["low"]) or _levels(r), _d(r["high"]), f"{r['swing']:.1f}"]
            for r in data["oat"]], [False, True, True, True]))
    if data["sensitivity"]:
        r2 = data["sensitivity"][0]["r2"]
        lines += ["", "## All together: Latin-hypercube design", "",
                  f"{data['design']} points over every range; standardised regression "
                  f"coefficients of the first seat's win share (their squares are first-order "
                  f"Sobol indices of the linear fit; R² {r2:.2f}).", ""]
        lines.append(md_table(["Input", "SRC", "S1 (linear)"], [
            [r["input"], f"{r['src']:+.2f}", f"{r['s1']:.2f}"] for r in data["sensitivity"][:15]],
            [False, True, True]))
    lines += ["", "## Plausible ranges", ""]
    lines.append(md_table(["Number", "Printed", "Low", "High", "Reason"], [
        [r["path"], str(r["value"]), str(r["low"]), str(r["high"]), r["reason"]]
        for r in data["ranges"]]) if data["ranges"] else "None: no number is marked "
        "reconstructed or assumed.")
    return "\n".join(lines) + "\n"


def _levels(r: dict) -> str:
    return "; ".join(f"{k}: {_d(v['diff'])}" for k, v in r["levels"].items())


# ---- a results run's study (boardsim run, the report) -------------------------------------


def run_robustness_of(run_dir: str | os.PathLike, jobs: int = 1, scale: float = 1.0,
                      progress: Callable[[int, int], None] | None = None) -> Path:
    """Play the robustness study (``RUN_STUDY``) of the finished results run ``run_dir`` on
    its own players, bots, seating, seed and options into ``<run_dir>/robustness``; a study
    already there with the same sizes is kept. Returns the folder."""
    from sim.runner import load_manifest

    m = load_manifest(run_dir)
    if not m.get("complete"):
        raise UserError(f"{run_dir}: the run is not finished")
    plan = RUN_STUDY.get(m["game"], {"n": MIN_GAMES, "n_search": 0, "budget": 10,
                                     "design": 0, "crossed": 0})
    k = min(scale, 1.0)
    n = max(2 * MIN_GAMES, int(plan["n"] * k))
    n_search = max(2, int(plan["n_search"] * k)) if plan["n_search"] else 0
    out = Path(run_dir) / ROBUSTNESS_DIR
    if robustness_for_run(run_dir, m) is not None:
        old = load_robustness(out)
        if (old.get("n"), old.get("n_search"), old.get("design"), old.get("version")) == (
                n, n_search, plan["design"], STUDY_VERSION):
            return out
    run_robustness(m["game"], int(m["players"]), n, n_search, plan["budget"], plan["design"],
                   plan["crossed"], int(m["seed"]), jobs, out, list(m["strategies"]),
                   str(m["seating"]), dict(m.get("options") or {}), run_fields(m),
                   oat=bool(plan.get("oat", 1)), older_search=False, progress=progress)
    return out


