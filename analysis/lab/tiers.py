"""Findings across skill tiers (``boardsim tiers GAME``; issue 14, part 5).

Does a balance finding of the scripted bots hold when the players are stronger? The same
games (run seed and game index: the same chance seeds, common random numbers) are played
under three **tiers**:

* ``random``: every seat plays ``random`` (the floor);
* ``scripted``: the competent scripted mix (the run's bots and seating; by default the game's
  ``RECOMMENDED_MIX`` drawn per seat, pool seating);
* ``search``: every seat plays the search bot ``search`` (``SEARCH_BOT``; strategies/search.py,
  rollout policy improvement over the scripted bots, issue 27) at its default budget or a
  stated one (``budget``, playouts per decision).

The random and scripted tiers play ``n_scripted`` games (cheap), the search tier the first
of the same games until ``n_search`` of them are finished (dear; ``play_search_tier``: games 0
.. n_search-1, then the next indices, at most ``SEARCH_CAP`` x n_search games); the paired
difference search - scripted is taken over the search games played, game by game.

Findings, each measured in every tier, in points (win share x 100):

* **first-player advantage**: the win rate of the seat at turn position k (k = 0 moved first)
  minus parity 1/p, per position; 95% interval of the mean over games (each game one value
  per position: the game is the cluster);
* **component association** (games whose seats record a component: ``analysis.lab.effects``'
  holder columns): win rate of the seats that took the component minus the others', 95%
  interval clustered by game (``analysis.stats.cluster_difference``); the three strongest and
  the three weakest of the scripted tier with at least ``MIN_HOLDERS`` holder seat-games, an
  association, not an effect (a tier with fewer than ``MIN_HOLDERS`` holder or other
  seat-games shows the estimate without an interval, so it decides nothing).

Every rate is over the tier's finished games (a game stopped at the length limit or in a
deadlock is neither a win nor a loss). Each finding gets a verdict (``classify``) from the
scripted tier's interval and the search tier's: ``holds`` (both exclude 0, same sign),
``flips`` (both exclude 0, opposite signs), ``weakens`` (search's includes 0 while the paired
difference search - scripted excludes 0, towards 0), ``undecided`` (a scripted finding whose
search interval includes 0: too few search games to say), ``appears`` (only the search
interval excludes 0) or ``none`` (neither excludes 0).

Outputs (``--out``, default ``reports/<game>/tiers``; ``<run>/tiers`` for ``boardsim run``):
``tiers.json`` (the setup, the run it belongs to, wall and process-CPU seconds per tier
(numba's compile included where it happened) and every finding with its numbers
and verdict; ``search_played`` and ``search_finished``, the search games played and finished),
``tiers.md`` and ``search_games.parquet`` (the search tier's games, one row each, so its numbers
can be recomputed from disk). ``tiers_for_run`` finds the study of a results run for its
report (analysis/report/tiers_section.py).
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from analysis.doc import write_atomic
from analysis.results.tiers import (  # the read side, for the reports
    FDR,
    HOLD_FACTOR,
    MIN_DECIDE,
    MIN_HOLDERS,
    TIERS,
    TIERS_DIR,
    VERDICTS,
    command_for,
    findings_table,
    headline,
    load_tiers,
    markdown,
    run_fields,
    tiers_for_run,
    tup,
)
from analysis.stats import cluster_difference, cluster_mean, wilson_interval
from sim.core.errors import UserError

__all__ = ["TIERS", "VERDICTS", "DEFAULT_STUDY", "tier_study", "MIN_HOLDERS", "TIERS_DIR", "classify",
           "play_tier", "play_search_tier", "SEARCH_CAP", "SEARCH_GAMES", "run_tiers",
           "tiers_for_run", "run_tiers_of", "headline",
           "heads_up", "load_tiers", "findings_table"]





TOP_COMPONENTS = 3
"""The strongest and the weakest this many components of the scripted tier are checked."""


SEARCH_BOT = "search"
"""The search tier's bot (every seat): the strong search bot of issue 27 (``mcts``, the
SO-ISMCTS bot of issue 14, was weaker than the scripted bots in three games)."""

DEFAULT_STUDY = {"n_search": 10, "n_scripted": 2000}
"""The tier study of a game whose bot package declares no ``TIER_STUDY`` (at the search
bot's default budget)."""


def tier_study(game) -> dict[str, int]:
    """``boardsim run``'s small tier study of ``game`` (2 players, on the main 2-player run's
    settings): its bot package's ``TIER_STUDY`` (search-tier games ``n_search``, the search
    bot's ``budget`` in playouts per decision, ``n_scripted`` games of the random and scripted
    tiers), else ``DEFAULT_STUDY`` at the search bot's default budget. The declared sizes were
    chosen so that the five studies add about one minute to ``make run`` on 2 cores
    (docs/bots.md, "Skill tiers"); at these sizes most findings are ``undecided`` and the
    report says so with the full command. Raises UserError when the game has no search bot."""
    if SEARCH_BOT not in game.strategies:
        raise UserError(f"{game.id}: no search bot `{SEARCH_BOT}` (it needs the game's determinize "
                        "kernel, docs/house-pattern.md), so no tier study")
    declared = getattr(game.bots, "TIER_STUDY", None)
    if declared:
        return dict(declared)
    search = game.bots.search
    return {**DEFAULT_STUDY, "budget": int(game.strategy(SEARCH_BOT).params[search.P_BUDGET])}


def __getattr__(name: str):
    """``RUN_STUDY`` (the per-game table this module once held): ``{game id: tier_study}`` for
    every registered game with a search bot, built from the declarations."""
    if name == "RUN_STUDY":
        import sim

        return {gid: tier_study(sim.get_game(gid)) for gid in sim.list_games()
                if SEARCH_BOT in sim.get_game(gid).strategies}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


STRENGTH: dict[str, dict[int, tuple[str, float, float, float, int]]] = {
    "go-town": {800: ("attacker", 0.662, 0.632, 0.691, 1000)},
    "three-little-wolves": {96: ("greedy-2p", 0.6375, 0.483, 0.768, 40),
                            256: ("greedy-2p", 0.565, 0.467, 0.658, 100),
                            400: ("greedy-2p", 0.725, 0.697, 0.752, 1000)},
    "little-town": {32: ("greedy", 0.975, 0.871, 0.996, 40),
                    96: ("greedy-tuned", 0.9455, 0.930, 0.958, 1000)},
    "suburbia": {32: ("commercial", 0.797, 0.771, 0.821, 1000),
                 96: ("commercial", 0.875, 0.739, 0.945, 40)},
    "province": {96: ("greedy-tuned", 0.823, 0.798, 0.845, 1000)},
}
"""Measured strength of ``SEARCH_BOT`` at a budget: ``budget -> (opponent, win share, Wilson
95% lo, hi, games)`` heads-up at 2 players, seats alternated (BENCHMARKS.md, "branch search" and
"branch search-s9": the Wolves' 400 are the 1,000 games of search-s9; "session 11": Go Town's
1,000 with its hooks, Province's 96 against greedy-tuned with greedy-tuned's playouts;
"session 12": Little Town's 96 against greedy-tuned, the mix's top bot since then, where
against the hand-set greedy it was 0.958 [0.944, 0.969]; Go Town's 800, its default since;
"session 17": Go Town's 800 with the history test and the own-seat hold rule, on fresh deals,
over 1,000 finished games (seed 17101; 1,009 played, 9 deadlocks). Go Town's rows at 200, 400
and 1,000 playouts measured the search before session 17 and were dropped: a study at another
budget says "not measured").
The tier study states it, so a reader sees whether the search tier is stronger than the
scripted one at the budget played. (Go Town's play every legal action as a candidate,
``n_random`` 64, as its default does; the Wolves' 96 and 256 only the experts', their 400 every
legal action with ``bias`` 0.05, as their default.)"""


def strength_note(game_id: str, budget: int) -> str:
    """One sentence: the search bot's measured heads-up strength at ``budget``, or that it was
    not measured at that budget (with the budgets that were)."""
    got = STRENGTH.get(game_id, {})
    if budget in got:
        opp, rate, lo, hi, n = got[budget]
        verdict = ("stronger than" if lo > 0.5 else "weaker than" if hi < 0.5
                   else "not distinguishable from")
        return (f"`{SEARCH_BOT}` at {budget:,} playouts per decision won {rate:.3f} [{lo:.3f}, "
                f"{hi:.3f}] of {n} heads-up games against `{opp}` (2 players, seats "
                f"alternated, Wilson 95%): {verdict} that scripted bot (BENCHMARKS.md).")
    known = ", ".join(f"{b:,}" for b in sorted(got)) or "none"
    return (f"`{SEARCH_BOT}`'s strength at {budget:,} playouts per decision was not measured "
            f"(measured budgets: {known}; BENCHMARKS.md): the search tier may not be stronger "
            "than the scripted one.")




# ---- the verdict ----------------------------------------------------------------------------
def _sig(lo: float, hi: float) -> int:
    """+1 / -1 when the interval lies above / below 0, 0 when it includes 0 or is NaN."""
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return 0
    return 1 if lo > 0 else (-1 if hi < 0 else 0)


def classify(scripted: tuple[float, float, float], search: tuple[float, float, float],
             diff: tuple[float, float, float] | None = None, n_search: int | None = None,
             q: tuple[float | None, float | None] | None = None) -> str:
    """The verdict of one finding under search play (one of ``VERDICTS``).

    ``scripted``, ``search``: ``(estimate, lo, hi)`` of the finding in the scripted and the
    search tier (any unit; 95% interval); ``diff``: ``(estimate, lo, hi)`` of the paired
    difference search - scripted over the same games, or None. NaN bounds count as an interval
    that includes 0. ``n_search``: finished search-tier games; below ``MIN_DECIDE`` a scripted
    finding is ``undecided`` and any other ``none`` whatever the intervals say.

    * ``holds``: both intervals exclude 0 on the same side, and the search estimate is within
      ``HOLD_FACTOR`` of the scripted one (else ``holds, larger`` / ``holds, smaller``);
    * ``flips``: both exclude 0, on opposite sides;
    * ``weakens``: the scripted interval excludes 0, the search interval does not, and the
      paired difference excludes 0 on the side towards 0 (the finding shrinks measurably);
    * ``undecided``: the scripted interval excludes 0, the search interval does not (too few
      search games to say);
    * ``appears``: only the search interval excludes 0;
    * ``none``: neither excludes 0.

    ``q``: the Benjamini-Hochberg q-values of the finding in the scripted and the search tier
    (over the study's findings, ``bh_findings``); a tier whose q is not below ``FDR`` counts as
    an interval that includes 0.
    """
    a = _sig(scripted[1], scripted[2])
    b = _sig(search[1], search[2])
    if q is not None:
        a = a if q[0] is not None and q[0] < FDR else 0
        b = b if q[1] is not None and q[1] < FDR else 0
    if n_search is not None and n_search < MIN_DECIDE:
        return "undecided" if a else "none"
    if a == 0:
        return "appears" if b else "none"
    if b == a:
        ratio = search[0] / scripted[0] if scripted[0] else math.inf
        if ratio > HOLD_FACTOR:
            return "holds, larger"
        if ratio < 1.0 / HOLD_FACTOR:
            return "holds, smaller"
        return "holds"
    if b == -a:
        return "flips"
    if diff is not None and _sig(diff[1], diff[2]) == -a:
        return "weakens"
    return "undecided"


# ---- playing a tier ------------------------------------------------------------------------
def _with_budget(game, names: list[str], budget: int | None):
    """Codes and parameter rows of ``names`` with every search bot's budget set to ``budget``
    (unchanged when None)."""
    search = game.bots.search  # the bots only through the registry

    codes, params = game.bots.params_matrix(names)
    if budget is not None:
        for i in range(len(names)):
            if int(codes[i]) == search.SEARCH_CODE:
                params[i, search.P_BUDGET] = float(budget)
    return codes, params


def play_tier(game_id: str, n: int, players: int, strategies: list[str], seating: str,
              seed: int, options: dict[str, Any], holders: list[str], budget: int | None = None,
              jobs: int = 1, chunk_size: int = 500,
              tick: Callable[[int], None] | None = None, start: int = 0
              ) -> dict[str, np.ndarray]:
    """Play games ``start .. start+n-1`` of run ``seed`` (``Game.run_chunk``'s games: chance
    seed ``seed_for(seed, i, 0)``, seating ``sim.core.seating.seat_matrix``: game i is the same
    game whichever call plays it), with every search
    bot's budget set to ``budget`` playouts per decision when given. Returns per-game arrays:
    ``win_share`` float64 ``[n, players]``, ``finished`` bool ``[n]`` (neither at the length
    limit nor a deadlock), ``first_player`` int64 ``[n]`` and, for each name of ``holders``,
    ``h:<name>`` int16 ``[n, players]`` (that seat-detail column). ``jobs``: threads. Raises
    UserError on bad input (unknown bot, seating, players, options)."""
    from joblib import Parallel, delayed

    from sim.core.ending import finished_mask
    from sim.core.seating import seat_matrix
    from sim.registry import get_game

    game = get_game(game_id)
    players = game.check_players(players)
    names = [game.strategy(s).name for s in strategies]
    resolved = game.resolve_options(options)
    codes, params = _with_budget(game, names, budget)

    def one(first: int):
        count = min(chunk_size, start + n - first)
        idx = seat_matrix(seating, seed, first, count, players, len(names))
        s = game._alloc(resolved)
        res = game._play_chunk(s, first, count, np.uint64(int(seed) % 2**64), players,
                               np.ascontiguousarray(idx, np.int64), codes.copy(), params.copy())
        if tick is not None:
            tick(count)
        return res

    parts = Parallel(n_jobs=jobs, backend="threading")(
        delayed(one)(f) for f in range(start, start + n, chunk_size))
    out = {
        "win_share": np.concatenate([r.win_share for r in parts]).astype(np.float64),
        "finished": finished_mask(game, np.concatenate([r.end_reason for r in parts])),
        "first_player": np.concatenate([r.first_player for r in parts]).astype(np.int64),
    }
    for h in holders:
        out["h:" + h] = np.concatenate([r.seat_detail[h] for r in parts]).astype(np.int16)
    return out


SEARCH_CAP = 2
"""The search tier plays games until ``n_search`` of them are finished (``play_search_tier``),
but never more than ``SEARCH_CAP x n_search`` games (nor more than the scripted tier's games,
with which it is paired game by game): a game whose search games rarely finish states its
shortfall instead of playing on."""


def play_search_tier(game_id: str, n_search: int, cap: int, players: int, seed: int,
                     options: dict[str, Any], holders: list[str], budget: int | None,
                     jobs: int = 1, tick: Callable[[int], None] | None = None
                     ) -> dict[str, np.ndarray]:
    """The search tier (``SEARCH_BOT`` in every seat) until ``n_search`` finished games: games
    ``0 .. n_search-1`` of run ``seed`` first, then, while fewer than ``n_search`` of the games
    played are finished (a game stopped at the length limit or in a deadlock has no result),
    the next game indices, as many as finished games are missing, and so on, up to ``cap``
    games in all. Game i is always ``play_tier``'s game i (chance seed ``seed_for(seed, i, 0)``),
    none is played twice and none is left out: the games played are the shortest prefix
    ``0 .. m-1`` of the run's games holding ``n_search`` finished ones (or the first ``cap``),
    whatever ``jobs``. Returns ``play_tier``'s arrays over the ``m`` games played."""
    parts: list[dict[str, np.ndarray]] = []
    played = finished = 0
    while finished < n_search and played < cap:
        k = min(n_search - finished, cap - played)
        arm = play_tier(game_id, k, players, [SEARCH_BOT], "fixed", seed, options, holders,
                        budget, jobs, 1, tick, start=played)
        parts.append(arm)
        played += k
        finished += int(arm["finished"].sum())
    return {key: np.concatenate([a[key] for a in parts]) for key in parts[0]}


def load_run_arm(run_dir: str | os.PathLike, holders: list[str]) -> dict[str, np.ndarray]:
    """The scripted tier read from a results run instead of played: per game of the run (in
    game order) ``win_share`` float64 ``[n, players]``, ``finished`` (``sim.core.ending``, the
    game's declared end reasons), ``first_player`` and, for each name of ``holders``,
    ``h:<name>`` int16 ``[n, players]``: the same arrays as ``play_tier``, so the tier study
    reads the very games of the run (and of its report) on their seeds."""
    import polars as pl

    from sim.core.ending import finished_mask
    from sim.registry import get_game
    from sim.runner import load_manifest

    m = load_manifest(run_dir)
    game = get_game(m["game"])
    p = int(m["players"])
    games = (pl.scan_parquet(os.path.join(run_dir, "games", "chunk-*.parquet"))
             .select("game", "first_player", "end_reason").sort("game").collect())
    names = pl.scan_parquet(os.path.join(run_dir, "seats", "chunk-*.parquet")
                            ).collect_schema().names()
    cols = ["game", "seat", "win_share"] + [h for h in holders if h in names]
    seats = (pl.scan_parquet(os.path.join(run_dir, "seats", "chunk-*.parquet"))
             .select(cols).sort("game", "seat").collect())
    n = games.height
    out = {"win_share": seats["win_share"].to_numpy().astype(np.float64).reshape(n, p),
           "finished": finished_mask(game, games["end_reason"].to_numpy()),
           "first_player": games["first_player"].to_numpy().astype(np.int64)}
    for h in holders:
        out["h:" + h] = (seats[h].fill_null(0).to_numpy().astype(np.int16).reshape(n, p)
                         if h in names else np.zeros((n, p), np.int16))
    return out


# ---- measuring -------------------------------------------------------------------------------
def _position_shares(arm: dict[str, np.ndarray], k: int) -> np.ndarray:
    """Win share of the seat at turn position ``k`` in each game ``float64[n]``."""
    ws = arm["win_share"]
    p = ws.shape[1]
    seat = (arm["first_player"] + k) % p
    return ws[np.arange(ws.shape[0]), seat]


def _interval(r: dict, scale: float = 100.0, shift: float = 0.0) -> dict[str, float]:
    def f(x):
        return None if x is None or math.isnan(x) else (x - shift) * scale

    return {"est": f(r["est"]), "lo": f(r["lo"]), "hi": f(r["hi"])}


def _position_finding(arms: dict[str, dict], k: int, n_search: int) -> dict[str, Any]:
    p = next(iter(arms.values()))["win_share"].shape[1]
    out: dict[str, Any] = {"kind": "first-player advantage", "key": f"position {k}",
                           "name": (f"turn position {k + 1} of {p} (moved "
                                    f"{_ordinal(k + 1)}) win rate - parity {100 / p:.1f}%"),
                           "tiers": {}}
    for tier, arm in arms.items():
        keep = arm["finished"]
        v = _position_shares(arm, k)[keep]
        r = cluster_mean(v, np.arange(v.shape[0]))
        out["tiers"][tier] = {**_interval(r, shift=1.0 / p), "n": int(keep.sum())}
    if "search" in arms:
        sa, sc = arms["search"], arms["scripted"]
        m = n_search
        both = sa["finished"][:m] & sc["finished"][:m]
        d = _position_shares(sa, k)[:m][both] - _position_shares(
            {key: val[:m] for key, val in sc.items()}, k)[both]
        out["diff"] = {**_interval(cluster_mean(d, np.arange(d.shape[0]))),
                       "n": int(both.sum())}
    return out


def _ordinal(i: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}.get(i, f"{i}th")


def _holder_share(arm: dict[str, np.ndarray], col: str, hmin: int):
    keep = arm["finished"]
    ws = arm["win_share"][keep]
    held = arm["h:" + col][keep] >= hmin
    games = np.repeat(np.arange(ws.shape[0]), ws.shape[1])
    return ws.ravel(), held.ravel(), games


def _component_finding(arms: dict[str, dict], label: str, col: str, hmin: int,
                       n_search: int) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": "component association", "key": label,
                           "name": f"{label}: holders' win rate - others'", "tiers": {}}
    for tier, arm in arms.items():
        v, g, c = _holder_share(arm, col, hmin)
        r = cluster_difference(v, g, c, bounds=(-1.0, 1.0))
        cell = {**_interval(r), "n": int(arm["finished"].sum()), "holders": int(r["n1"])}
        if min(r["n1"], r["n0"]) < MIN_HOLDERS:  # no interval from a handful of seat-games
            cell.update(lo=None, hi=None)
        out["tiers"][tier] = cell
    if "search" in arms:
        sc = {key: val[:n_search] for key, val in arms["scripted"].items()}
        sa = arms["search"]
        both = sa["finished"] & sc["finished"]
        vs, gs, cs = _holder_share({**sa, "finished": both}, col, hmin)
        vr, gr, cr = _holder_share({**sc, "finished": both}, col, hmin)
        # the paired difference of the two associations, clustered by game: the two tiers'
        # seat-games stacked, each game one cluster, the contrast as a difference of
        # differences (linearised like cluster_difference, per tier)
        out["diff"] = {**_did(vs, gs, cs, vr, gr, cr), "n": int(both.sum())}
        if min(gs.sum(), (~gs).sum(), gr.sum(), (~gr).sum()) < MIN_HOLDERS:
            out["diff"].update(lo=None, hi=None)
    return out


def _did(vs, gs, cs, vr, gr, cr) -> dict[str, float | None]:
    """(search association) - (scripted association) over the same games, with a 95% interval
    clustered by game (sum of the two per-game linearisations; paired by game), in points."""
    from analysis.stats import Z95

    def lin(v, g, c):
        if v.size == 0:
            return math.nan, None
        nc = int(c.max()) + 1
        s1 = np.bincount(c, np.where(g, v, 0.0), nc)
        n1 = np.bincount(c, g.astype(float), nc)
        s0 = np.bincount(c, np.where(g, 0.0, v), nc)
        n0 = np.bincount(c, (~g).astype(float), nc)
        b1, b0 = n1.sum(), n0.sum()
        if b1 == 0 or b0 == 0:
            return math.nan, None
        m1, m0 = s1.sum() / b1, s0.sum() / b0
        return m1 - m0, (s1 - m1 * n1) / b1 - (s0 - m0 * n0) / b0

    es, us = lin(vs, gs, cs)
    er, ur = lin(vr, gr, cr)
    if us is None or ur is None or us.shape != ur.shape or us.shape[0] < 2:
        return {"est": None if math.isnan(es - er) else 100 * (es - er), "lo": None, "hi": None}
    u = us - ur
    g = u.shape[0]
    se = math.sqrt(g / (g - 1) * float((u ** 2).sum()))
    est = es - er
    return {"est": 100 * est, "lo": 100 * (est - Z95 * se), "hi": 100 * (est + Z95 * se)}


def _pick_components(arm: dict[str, np.ndarray], comps: list[tuple[str, str, int]]
                     ) -> list[tuple[str, str, int]]:
    """The ``TOP_COMPONENTS`` strongest and weakest associations of the scripted tier among
    components with at least ``MIN_HOLDERS`` holder and non-holder seat-games."""
    scored = []
    for label, col, hmin in comps:
        v, g, c = _holder_share(arm, col, hmin)
        if g.sum() < MIN_HOLDERS or (~g).sum() < MIN_HOLDERS:
            continue
        r = cluster_difference(v, g, c, bounds=(-1.0, 1.0))
        if not math.isnan(r["est"]):
            scored.append((r["est"], label, col, hmin))
    scored.sort(key=lambda x: -x[0])
    pick = scored[:TOP_COMPONENTS] + [x for x in scored[-TOP_COMPONENTS:]
                                      if x not in scored[:TOP_COMPONENTS]]
    return [(label, col, hmin) for _, label, col, hmin in pick]


def _components(game) -> list[tuple[str, str, int]]:
    """(label, holder column, holder minimum) of every component of the game's families that
    has a per-seat column (``analysis.lab.effects``), once per column."""
    from analysis.lab.effects import FAMILIES, components_for

    if game.id not in FAMILIES:
        return []
    cols = set(game.seat_detail)
    seen: dict[str, tuple[str, str, int]] = {}
    for c in components_for(game):
        if c.holder and c.holder in cols and c.holder not in seen:
            seen[c.holder] = (c.label, c.holder, c.holder_min)
    return list(seen.values())


# ---- the study ---------------------------------------------------------------------------------


def run_tiers(game_id: str, n_search: int = 200, players: int | None = None,
              strategies: list[str] | None = None, seed: int = 1, jobs: int = 1,
              out: str | os.PathLike | None = None, options: dict[str, Any] | None = None,
              budget: int | None = None, n_scripted: int | None = None,
              seating: str | None = None, run: dict[str, Any] | None = None,
              progress: Callable[[int, int], None] | None = None,
              scripted_run: str | os.PathLike | None = None) -> dict[str, Any]:
    """Play the three tiers of ``game_id`` on the same seeds and write ``tiers.json`` and
    ``tiers.md`` into ``out`` (default ``reports/<game>/tiers``).

    ``n_search``: finished games of the search tier (1..100,000): it plays games 0 ..
    n_search-1, then further game indices until ``n_search`` of them are finished, at most
    ``SEARCH_CAP`` x n_search games and no more than the scripted tier's
    (``play_search_tier``; ``tiers.json`` records ``search_played`` and ``search_finished``,
    and ``search_games.parquet`` the games); ``n_scripted``: games of the random and
    scripted tiers (default ``max(n_search, 4000)``; at least ``n_search``); ``players``:
    default 2; ``strategies``/``seating``: the scripted tier (default the game's recommended
    mix, pool seating); ``budget``: the search bot's playouts per decision (default: its
    registry value); ``run``: the manifest fields of the results run this study belongs to
    (``tiers_for_run``); ``scripted_run``: that results run's folder: the scripted tier is then
    **read** from its games (every game of the run, the same seeds: ``load_run_arm``), not
    replayed, so the study and the run's report measure the same games. Returns ``{"data":
    the tiers.json dict, "markdown": path, "summary": text}``. Raises UserError (one line)
    for a game without ``SEARCH_BOT``, bad counts or budget,
    unknown bots or options."""
    from sim.core.integrity import MAX_GAMES, check_int, check_seed
    from sim.core.seating import check_seating
    from sim.registry import get_game

    game = get_game(game_id)
    if SEARCH_BOT not in game.strategies:
        raise UserError(f"tiers: {game.id} has no search bot `{SEARCH_BOT}` (it needs the game's "
                        "determinize); games with it: see `boardsim games`")
    seed = check_seed(seed)
    n_search = check_int("-n (search-tier games)", n_search, 1, 100_000)
    n_scripted = check_int("--scripted-games", max(n_search, 4000) if n_scripted is None
                           else n_scripted, n_search, MAX_GAMES)
    if budget is not None:
        budget = check_int("--budget (playouts per decision)", budget, 1, 100_000)
    players = game.check_players(2 if players is None else players)
    if strategies is None:
        from sim.registry import default_strategies

        strategies, seating = default_strategies(game.id, players), seating or "pool"
    seating = seating or "fixed"
    for s in strategies:
        game.strategy(s)
    if any(game.strategy(s).search for s in strategies):
        raise UserError(f"tiers: the scripted tier may not hold a search bot (the search tier "
                        f"is `{SEARCH_BOT}` in every seat); give scripted bots to --strategies")
    check_seating(seating, len(strategies), players)
    options = dict(options or {})
    game.resolve_options(options)
    search = game.bots.search

    default_budget = int(game.strategy(SEARCH_BOT).params[search.P_BUDGET])
    used_budget = default_budget if budget is None else budget
    comps = _components(game)
    holders = [c[1] for c in comps]
    out = Path(out or Path("reports") / game.id / TIERS_DIR)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a folder")
    total = 2 * n_scripted + n_search
    done = [0]

    def tick(k: int) -> None:
        done[0] += k
        if progress is not None:
            progress(done[0], max(total, done[0]))  # the search tier may top up

    arms: dict[str, dict] = {}
    seconds: dict[str, float] = {}
    plan = [("random", n_scripted, ["random"], "fixed", 2000),
            ("scripted", n_scripted, list(strategies), seating, 2000),
            ("search", n_search, [SEARCH_BOT], "fixed", 1)]
    cpu: dict[str, float] = {}
    n_run = None
    for tier, n, names, seat, chunk in plan:
        t0, c0 = time.perf_counter(), time.process_time()
        if tier == "scripted" and scripted_run is not None:
            arms[tier] = load_run_arm(scripted_run, holders)
            n_run = int(arms[tier]["finished"].shape[0])
            if n_run < n_search:
                raise UserError(f"tiers: the run {scripted_run} has {n_run:,} games, fewer "
                                f"than the {n_search:,} search-tier games")
            tick(n)
        elif tier == "search":  # until n_search finished games, paired with the scripted
            cap = min(SEARCH_CAP * n_search, int(arms["scripted"]["finished"].shape[0]))
            arms[tier] = play_search_tier(game.id, n_search, cap, players, seed, options,
                                          holders, used_budget, jobs, tick)
        else:
            arms[tier] = play_tier(game.id, n, players, names, seat, seed, options, holders,
                                   None, jobs, chunk, tick)
        seconds[tier] = round(time.perf_counter() - t0, 2)
        cpu[tier] = round(time.process_time() - c0, 2)
    played = int(arms["search"]["finished"].shape[0])  # search games 0 .. played-1
    finished = int(arms["search"]["finished"].sum())
    # at 2 players the second position mirrors the first (win shares sum to 1): one finding
    findings = [_position_finding(arms, k, played) for k in range(players if players > 2
                                                                   else 1)]
    for label, col, hmin in _pick_components(arms["scripted"], comps):
        findings.append(_component_finding(arms, label, col, hmin, played))
    bh_findings(findings)
    for f in findings:
        t = f["tiers"]
        dd = f.get("diff")
        f["verdict"] = classify(tup(t["scripted"]), tup(t["search"]),
                                tup(dd) if dd else None, t["search"]["n"],
                                (t["scripted"].get("q"), t["search"].get("q")))
    setup = {"game": game.id, "title": game.title, "players": players,
             "strategies": list(strategies), "seating": seating, "seed": seed,
             "options": options, "version": game.version, "n_search": n_search,
             "search_played": played, "search_finished": finished, "search_cap": cap,
             "n_scripted": n_run or n_scripted, "n_random": n_scripted,
             "scripted_source": ("the results run's own games (read, not replayed)"
                                 if n_run else "played"), "budget": used_budget,
             "default_budget": default_budget, "search_bot": SEARCH_BOT,
             "playout": _playout_name(game), "seconds": seconds, "cpu_seconds": cpu,
             "strength": strength_note(game.id, used_budget),
             "components_checked": len(comps), "run": run}
    data = {**setup, "findings": findings}
    data["headline"] = headline(data)
    data["command"] = command_for(data)
    out.mkdir(parents=True, exist_ok=True)
    _write_search_games(out / SEARCH_GAMES, arms["search"], holders)
    write_atomic(out / "tiers.json", json.dumps(data, indent=2, default=str) + "\n")
    md = markdown(data)
    write_atomic(out / "tiers.md", md)
    return {"data": data, "markdown": out / "tiers.md",
            "summary": data["headline"] + f"\nreport: {out / 'tiers.md'}"}


SEARCH_GAMES = "search_games.parquet"
"""The search tier's games beside ``tiers.json``: one row per game played (``game`` index,
``first_player``, ``finished``, the seats' ``win_share`` and holder columns as lists), so the
study's search-tier numbers can be recomputed from disk (the scripted tier is the run's own
Parquet, or ``play_tier``'s games on the recorded seed)."""


def _write_search_games(path: Path, arm: dict[str, np.ndarray], holders: list[str]) -> None:
    import polars as pl

    n = arm["finished"].shape[0]
    cols = {"game": np.arange(n, dtype=np.int64), "first_player": arm["first_player"],
            "finished": arm["finished"].astype(bool),
            "win_share": [list(map(float, r)) for r in arm["win_share"]]}
    for h in holders:
        cols[h] = [list(map(int, r)) for r in arm["h:" + h]]
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pl.DataFrame(cols).write_parquet(tmp)
    os.replace(tmp, path)


def bh_findings(findings: list[dict[str, Any]]) -> None:
    """Each finding's tier cells get ``p`` (two-sided, from the 95% interval's standard error)
    and ``q`` (Benjamini-Hochberg over the study's findings, each tier apart), in place."""
    from analysis.stats import Z95, bh_adjust, normal_pvalue

    for tier in TIERS:
        cells = [f["tiers"].get(tier) for f in findings]
        ps = []
        for c in cells:
            if c is None or c.get("lo") is None or c.get("est") is None:
                ps.append(math.nan)
            else:
                ps.append(normal_pvalue(c["est"], (c["hi"] - c["lo"]) / (2 * Z95)))
        qs = bh_adjust(np.array(ps, float)) if ps else []
        for c, p_, q_ in zip(cells, ps, qs):
            if c is not None:
                c["p"] = None if math.isnan(p_) else float(p_)
                c["q"] = None if math.isnan(q_) else float(q_)


def _playout_name(game) -> str:
    search = game.bots.search

    row = game.strategy(SEARCH_BOT).params
    return list(game.strategies)[int(row[search.P_PLAYOUT])]


# ---- a results run's study ------------------------------------------------------------------


def run_tiers_of(run_dir: str | os.PathLike, jobs: int = 1, n_search: int | None = None,
                 budget: int | None = None, n_scripted: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Path:
    """Play the tier study of the finished results run ``run_dir`` on its own game, players,
    bots, seating, seed and options (the scripted tier **is** the run's games, read from its
    Parquet; the search tier's game i is the run's game i on its seed) and write
    it into ``<run_dir>/tiers``. Sizes default to ``tier_study(game)``; a study already there
    for this run with the same sizes is kept (a rerun of ``boardsim run``). Returns the folder.
    Raises UserError for an unfinished run or one with component-data overrides."""
    from analysis.lab.effects import finished_run
    from sim.registry import get_game

    m = finished_run(run_dir, "a tier study needs", "the tier study plays")
    plan = tier_study(get_game(m["game"]))
    out = Path(run_dir) / TIERS_DIR
    n_search, budget = n_search or plan["n_search"], budget or plan["budget"]
    n_scripted = n_scripted or plan["n_scripted"]
    if tiers_for_run(run_dir, m) is not None:  # a rerun of `boardsim run` keeps a same study
        old = load_tiers(out)
        if (old.get("n_search"), old.get("budget"), old.get("n_random"),
                old.get("scripted_source", "played"), "search_finished" in old) == (
                n_search, budget, n_scripted, "the results run's own games (read, not "
                "replayed)", True):  # a study before the top-up (issue 27) is played again
            return out
    run_tiers(m["game"], n_search, int(m["players"]), list(m["strategies"]), int(m["seed"]),
              jobs, out, dict(m.get("options") or {}), budget, n_scripted,
              str(m["seating"]), run_fields(m), progress, scripted_run=run_dir)
    return out


# ---- strength: the search bot heads-up ----------------------------------------------------------
def heads_up(game_id: str, opponent: str, budget: int, n: int, seed: int = 1,
             jobs: int = 1) -> dict[str, Any]:
    """``SEARCH_BOT`` at ``budget`` playouts per decision against ``opponent`` at 2 players, seats
    alternated game by game (rotate seating), games ``0 .. n-1`` of run ``seed``. Returns
    ``{"wins": the search bot's win shares summed over finished games, "games": finished games, "rate",
    "lo", "hi" (Wilson 95%), "seconds": wall time, "cpu": process CPU seconds}``."""
    t0, c0 = time.perf_counter(), time.process_time()
    arm = play_tier(game_id, n, 2, [SEARCH_BOT, opponent], "rotate", seed, {}, [], budget,
                    jobs, 1)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    keep = arm["finished"]
    mseat = np.arange(n) % 2  # rotate: game i shifts the list by i mod 2
    w = float(arm["win_share"][np.arange(n), mseat][keep].sum())
    g = int(keep.sum())
    lo, hi = (float(np.ravel(x)[0]) for x in wilson_interval(w, g)) if g else (math.nan,
                                                                                math.nan)
    return {"game": game_id, "opponent": opponent, "budget": budget, "wins": w, "games": g,
            "rate": w / g if g else math.nan, "lo": float(lo), "hi": float(hi),
            "seconds": wall, "cpu": cpu}


def _main(argv: list[str] | None = None) -> None:
    """``python -m analysis.lab.tiers curve GAME OPPONENT B1,B2,... N [SEED]``: the budget curve
    (``heads_up`` at each budget), one JSON line per budget on stdout."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 5 or args[0] != "curve":
        raise SystemExit("usage: python -m analysis.lab.tiers curve GAME OPPONENT B1,B2 N [SEED]")
    seed = int(args[5]) if len(args) > 5 else 1
    for b in args[3].split(","):
        print(json.dumps(heads_up(args[1], args[2], int(b), int(args[4]), seed)), flush=True)


if __name__ == "__main__":
    _main()
