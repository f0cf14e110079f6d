"""Findings across skill tiers (``boardsim tiers GAME``; issue 14, part 5).

Does a balance finding of the scripted bots hold when the players are stronger? The same
games (run seed and game index: the same chance seeds, common random numbers) are played
under three **tiers**:

* ``random``: every seat plays ``random`` (the floor);
* ``scripted``: the competent scripted mix (the run's bots and seating; by default the game's
  ``RECOMMENDED_MIX`` drawn per seat, pool seating);
* ``search``: every seat plays the search bot ``mcts`` (strategies/search.py, SO-ISMCTS) at
  its default budget or a stated smaller one (``budget``, playouts per decision).

The random and scripted tiers play ``n_scripted`` games (cheap), the search tier the first
``n_search`` of the same games (dear); the paired difference search - scripted is taken over
those ``n_search`` games, game by game.

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
and verdict) and ``tiers.md``. ``tiers_for_run`` finds the study of a results run for its
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

from analysis.doc import md_table, signed_ci, write_atomic
from analysis.stats import cluster_difference, cluster_mean, wilson_interval
from sim.core.errors import UserError

__all__ = ["TIERS", "VERDICTS", "RUN_STUDY", "MIN_HOLDERS", "TIERS_DIR", "classify",
           "play_tier", "run_tiers", "tiers_for_run", "run_tiers_of", "headline",
           "heads_up", "load_tiers", "findings_table"]

TIERS = ("random", "scripted", "search")
"""The tiers, weakest first."""

VERDICTS = ("holds", "flips", "weakens", "undecided", "appears", "none")
"""A finding's verdict under search play (``classify``)."""

MIN_HOLDERS = 30
"""A component is a finding candidate only with at least this many holder seat-games (and as
many non-holder seat-games) in the scripted tier."""

MIN_DECIDE = 50
"""A verdict other than ``undecided``/``none`` needs at least this many finished search-tier
games: below it the clustered intervals (few clusters) are not trusted."""

TOP_COMPONENTS = 3
"""The strongest and the weakest this many components of the scripted tier are checked."""

TIERS_DIR = "tiers"
"""The folder inside a results run where ``boardsim run`` writes that run's tier study."""

RUN_STUDY: dict[str, dict[str, int]] = {
    "go-town": {"n_search": 200, "budget": 200, "n_scripted": 4000},
    "three-little-wolves": {"n_search": 12, "budget": 1200, "n_scripted": 4000},
    "little-town": {"n_search": 30, "budget": 100, "n_scripted": 4000},
    "suburbia": {"n_search": 10, "budget": 50, "n_scripted": 2000},
    "province": {"n_search": 20, "budget": 100, "n_scripted": 2000},
}
"""``boardsim run``'s small tier study per game (2 players, on the main 2-player run's
settings): search-tier games, the search bot's budget (playouts per decision) and the games of
the random and scripted tiers. Chosen so that the five studies add about one minute to
``make run`` on 2 cores (docs/bots.md, "Skill tiers"); at these sizes most findings are
``undecided`` and the report says so with the full command."""


STRENGTH: dict[str, dict[int, tuple[str, float, float, float, int]]] = {
    "go-town": {200: ("attacker", 0.675, 0.520, 0.799, 40),
                1000: ("attacker", 0.752, 0.708, 0.792, 400)},
    "three-little-wolves": {400: ("greedy-2p", 0.562, 0.410, 0.704, 40),
                            1200: ("greedy-2p", 0.740, 0.688, 0.786, 300)},
    "little-town": {10: ("greedy", 0.0, 0.0, 0.088, 40),
                    30: ("greedy", 0.0, 0.0, 0.114, 30),
                    100: ("greedy", 0.254, 0.185, 0.339, 120),
                    400: ("greedy", 0.400, 0.219, 0.613, 20),
                    1000: ("greedy", 0.875, 0.739, 0.945, 40)},
    "province": {10: ("denial", 0.0, 0.0, 0.194, 16),
                 30: ("denial", 0.100, 0.018, 0.404, 10),
                 100: ("denial", 0.375, 0.185, 0.614, 16)},
    "suburbia": {10: ("commercial", 0.0, 0.0, 0.161, 20),
                 30: ("commercial", 0.0, 0.0, 0.194, 16),
                 50: ("commercial", 0.100, 0.028, 0.301, 20),
                 200: ("commercial", 0.500, 0.237, 0.763, 10)},
}
"""Measured strength of ``mcts`` at a budget: ``budget -> (opponent, win share, Wilson 95% lo,
hi, games)`` heads-up at 2 players, seats alternated (BENCHMARKS.md, "branch mcts" and
"branch tiers"). The tier study states it, so a reader sees whether the search tier is
stronger than the scripted one at the budget played."""


def strength_note(game_id: str, budget: int) -> str:
    """One sentence: the search bot's measured heads-up strength at ``budget``, or that it was
    not measured at that budget (with the budgets that were)."""
    got = STRENGTH.get(game_id, {})
    if budget in got:
        opp, rate, lo, hi, n = got[budget]
        verdict = ("stronger than" if lo > 0.5 else "weaker than" if hi < 0.5
                   else "not distinguishable from")
        return (f"`mcts` at {budget:,} playouts per decision won {rate:.3f} [{lo:.3f}, "
                f"{hi:.3f}] of {n} heads-up games against `{opp}` (2 players, seats "
                f"alternated, Wilson 95%): {verdict} that scripted bot (BENCHMARKS.md).")
    known = ", ".join(f"{b:,}" for b in sorted(got)) or "none"
    return (f"`mcts`'s strength at {budget:,} playouts per decision was not measured "
            f"(measured budgets: {known}; BENCHMARKS.md): the search tier may not be stronger "
            "than the scripted one.")


# ---- the verdict ----------------------------------------------------------------------------
def _sig(lo: float, hi: float) -> int:
    """+1 / -1 when the interval lies above / below 0, 0 when it includes 0 or is NaN."""
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return 0
    return 1 if lo > 0 else (-1 if hi < 0 else 0)


def classify(scripted: tuple[float, float, float], search: tuple[float, float, float],
             diff: tuple[float, float, float] | None = None, n_search: int | None = None
             ) -> str:
    """The verdict of one finding under search play (one of ``VERDICTS``).

    ``scripted``, ``search``: ``(estimate, lo, hi)`` of the finding in the scripted and the
    search tier (any unit; 95% interval); ``diff``: ``(estimate, lo, hi)`` of the paired
    difference search - scripted over the same games, or None. NaN bounds count as an interval
    that includes 0. ``n_search``: finished search-tier games; below ``MIN_DECIDE`` a scripted
    finding is ``undecided`` and any other ``none`` whatever the intervals say.

    * ``holds``: both intervals exclude 0 on the same side;
    * ``flips``: both exclude 0, on opposite sides;
    * ``weakens``: the scripted interval excludes 0, the search interval does not, and the
      paired difference excludes 0 on the side towards 0 (the finding shrinks measurably);
    * ``undecided``: the scripted interval excludes 0, the search interval does not (too few
      search games to say);
    * ``appears``: only the search interval excludes 0;
    * ``none``: neither excludes 0.
    """
    a = _sig(scripted[1], scripted[2])
    b = _sig(search[1], search[2])
    if n_search is not None and n_search < MIN_DECIDE:
        return "undecided" if a else "none"
    if a == 0:
        return "appears" if b else "none"
    if b == a:
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
    from strategies import search

    codes, params = game.bots.params_matrix(names)
    if budget is not None:
        for i in range(len(names)):
            if int(codes[i]) == search.SEARCH_CODE:
                params[i, search.P_BUDGET] = float(budget)
    return codes, params


def play_tier(game_id: str, n: int, players: int, strategies: list[str], seating: str,
              seed: int, options: dict[str, Any], holders: list[str], budget: int | None = None,
              jobs: int = 1, chunk_size: int = 500,
              tick: Callable[[int], None] | None = None) -> dict[str, np.ndarray]:
    """Play games ``0 .. n-1`` of run ``seed`` (``Game.run_chunk``'s games: chance seed
    ``seed_for(seed, i, 0)``, seating ``sim.core.seating.seat_matrix``), with every search
    bot's budget set to ``budget`` playouts per decision when given. Returns per-game arrays:
    ``win_share`` float64 ``[n, players]``, ``finished`` bool ``[n]`` (neither at the length
    limit nor a deadlock), ``first_player`` int64 ``[n]`` and, for each name of ``holders``,
    ``h:<name>`` int16 ``[n, players]`` (that seat-detail column). ``jobs``: threads. Raises
    UserError on bad input (unknown bot, seating, players, options)."""
    from joblib import Parallel, delayed

    from sim.core.game import UNFINISHED
    from sim.core.seating import seat_matrix
    from sim.registry import get_game

    game = get_game(game_id)
    players = game.check_players(players)
    names = [game.strategy(s).name for s in strategies]
    resolved = game.resolve_options(options)
    codes, params = _with_budget(game, names, budget)
    bad = [game.end_reasons.index(r) for r in UNFINISHED if r in game.end_reasons]

    def one(first: int):
        count = min(chunk_size, n - first)
        idx = seat_matrix(seating, seed, first, count, players, len(names))
        s = game._alloc(resolved)
        res = game._play_chunk(s, first, count, np.uint64(int(seed) % 2**64), players,
                               np.ascontiguousarray(idx, np.int64), codes.copy(), params.copy())
        if tick is not None:
            tick(count)
        return res

    parts = Parallel(n_jobs=jobs, backend="threading")(
        delayed(one)(f) for f in range(0, n, chunk_size))
    out = {
        "win_share": np.concatenate([r.win_share for r in parts]).astype(np.float64),
        "finished": ~np.isin(np.concatenate([r.end_reason for r in parts]), bad),
        "first_player": np.concatenate([r.first_player for r in parts]).astype(np.int64),
    }
    for h in holders:
        out["h:" + h] = np.concatenate([r.seat_detail[h] for r in parts]).astype(np.int16)
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
        r = cluster_difference(v, g, c)
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
        r = cluster_difference(v, g, c)
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
RUN_KEYS = ("game", "players", "strategies", "seating", "seed", "options", "overrides",
            "engine_version")
"""The fields of a run's manifest that its tier study must share (as in analysis.effects)."""


def run_tiers(game_id: str, n_search: int = 200, players: int | None = None,
              strategies: list[str] | None = None, seed: int = 1, jobs: int = 1,
              out: str | os.PathLike | None = None, options: dict[str, Any] | None = None,
              budget: int | None = None, n_scripted: int | None = None,
              seating: str | None = None, run: dict[str, Any] | None = None,
              progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play the three tiers of ``game_id`` on the same seeds and write ``tiers.json`` and
    ``tiers.md`` into ``out`` (default ``reports/<game>/tiers``).

    ``n_search``: games of the search tier (1..100,000); ``n_scripted``: games of the random and
    scripted tiers (default ``max(n_search, 4000)``; at least ``n_search``); ``players``:
    default 2; ``strategies``/``seating``: the scripted tier (default the game's recommended
    mix, pool seating); ``budget``: the search bot's playouts per decision (default: its
    registry value); ``run``: the manifest fields of the results run this study belongs to
    (``tiers_for_run``). Returns ``{"data": the tiers.json dict, "markdown": path, "summary":
    text}``. Raises UserError (one line) for a game without ``mcts``, bad counts or budget,
    unknown bots or options."""
    from sim.core.integrity import MAX_GAMES, check_int, check_seed
    from sim.core.seating import check_seating
    from sim.registry import get_game

    game = get_game(game_id)
    if "mcts" not in game.strategies:
        raise UserError(f"tiers: {game.id} has no search bot `mcts` (it needs the game's "
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
    if "mcts" in strategies:
        raise UserError("tiers: the scripted tier may not hold `mcts` (the search tier is "
                        "`mcts` in every seat); give scripted bots to --strategies")
    check_seating(seating, len(strategies), players)
    options = dict(options or {})
    game.resolve_options(options)
    from strategies import search

    default_budget = int(game.strategy("mcts").params[search.P_BUDGET])
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
            progress(done[0], total)

    arms: dict[str, dict] = {}
    seconds: dict[str, float] = {}
    plan = [("random", n_scripted, ["random"], "fixed", 2000),
            ("scripted", n_scripted, list(strategies), seating, 2000),
            ("search", n_search, ["mcts"], "fixed", 1)]
    cpu: dict[str, float] = {}
    for tier, n, names, seat, chunk in plan:
        t0, c0 = time.perf_counter(), time.process_time()
        arms[tier] = play_tier(game.id, n, players, names, seat, seed, options, holders,
                               used_budget if tier == "search" else None, jobs, chunk, tick)
        seconds[tier] = round(time.perf_counter() - t0, 2)
        cpu[tier] = round(time.process_time() - c0, 2)
    # at 2 players the second position mirrors the first (win shares sum to 1): one finding
    findings = [_position_finding(arms, k, n_search) for k in range(players if players > 2
                                                                     else 1)]
    for label, col, hmin in _pick_components(arms["scripted"], comps):
        findings.append(_component_finding(arms, label, col, hmin, n_search))
    for f in findings:
        t = f["tiers"]
        dd = f.get("diff")
        f["verdict"] = classify(tup(t["scripted"]), tup(t["search"]),
                                tup(dd) if dd else None, t["search"]["n"])
    setup = {"game": game.id, "title": game.title, "players": players,
             "strategies": list(strategies), "seating": seating, "seed": seed,
             "options": options, "version": game.version, "n_search": n_search,
             "n_scripted": n_scripted, "n_random": n_scripted, "budget": used_budget,
             "default_budget": default_budget,
             "playout": _playout_name(game), "seconds": seconds, "cpu_seconds": cpu,
             "strength": strength_note(game.id, used_budget),
             "components_checked": len(comps), "run": run}
    data = {**setup, "findings": findings}
    data["headline"] = headline(data)
    data["command"] = command_for(data)
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / "tiers.json", json.dumps(data, indent=2, default=str) + "\n")
    md = markdown(data)
    write_atomic(out / "tiers.md", md)
    return {"data": data, "markdown": out / "tiers.md",
            "summary": data["headline"] + f"\nreport: {out / 'tiers.md'}"}


def _nan(x):
    return math.nan if x is None else x


def tup(d: dict[str, Any]) -> tuple[float, float, float]:
    """``(est, lo, hi)`` of a finding's cell, None as NaN (for ``classify``)."""
    return (_nan(d["est"]), _nan(d["lo"]), _nan(d["hi"]))


def _playout_name(game) -> str:
    from strategies import search

    row = game.strategy("mcts").params
    return list(game.strategies)[int(row[search.P_PLAYOUT])]


def command_for(data: dict[str, Any], n_search: int | None = None) -> str:
    """The ``boardsim tiers`` command that plays this study's setup with ``n_search`` search
    games (default: the study's) at the search bot's default budget."""
    parts = [f"boardsim tiers {data['game']}", f"-n {n_search or data['n_search']}",
             f"--players {data['players']}", f"--seed {data['seed']}"]
    if data.get("strategies"):
        parts.append(f"--strategies {','.join(data['strategies'])} --seating "
                     f"{data['seating']}")
    import sim

    defaults = sim.get_game(data["game"]).options.defaults()
    for k, v in (data.get("options") or {}).items():
        if k not in defaults or defaults[k] != v:  # the rule options that differ only
            parts.append(f"-o {k}={v}")
    return " ".join(parts)


def headline(data: dict[str, Any]) -> str:
    """One sentence: how many findings hold, flip, weaken, stay undecided or appear under
    search play, with the search tier's size and budget; the first-player finding first."""
    fs = data["findings"]
    counts = {v: sum(f["verdict"] == v for f in fs) for v in VERDICTS}
    found = sum(counts[v] for v in ("holds", "flips", "weakens", "undecided"))
    fp = fs[0]
    who = (f"search tier: `mcts` in every seat, {data['budget']:,} playouts per decision, "
           f"n={data['n_search']:,} games; scripted tier n={data['n_scripted']:,}")
    few = fp["tiers"]["search"]["n"] < MIN_DECIDE
    fv = {"none": ("no scripted finding, search play undecided at "
                   f"n={fp['tiers']['search']['n']:,}" if few else "in neither tier"),
          "undecided": f"undecided at n={data['n_search']:,}"}.get(fp["verdict"], fp["verdict"])
    first = (f"first-player advantage: {fv} (scripted {_fmt(fp['tiers']['scripted'])}, "
             f"search {_fmt(fp['tiers']['search'])} points)")
    if found == 0:
        lead = "No scripted-tier finding to check (every interval includes 0)"
    elif counts["undecided"] == found:
        lead = (f"Undecided at n={data['n_search']:,} search games: none of the "
                f"{found} scripted finding(s) can be confirmed or refuted")
    else:
        lead = (f"Of {found} scripted findings under search play: {counts['holds']} "
                f"{'holds' if counts['holds'] == 1 else 'hold'}, {counts['flips']} "
                f"{'flips' if counts['flips'] == 1 else 'flip'}, {counts['weakens']} "
                f"{'weakens' if counts['weakens'] == 1 else 'weaken'}, {counts['undecided']} "
                "undecided")
    extra = (f"; {counts['appears']} new under search play only" if counts["appears"] else "")
    return f"{lead}{extra}; {first} ({who})."


def _fmt(d: dict[str, Any]) -> str:
    if d.get("est") is None:
        return "n/a"
    if d.get("lo") is None:
        return f"{d['est']:+.1f}"
    return signed_ci(d["est"], d["lo"], d["hi"])


def findings_table(data: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the findings table (markdown and the report): finding, each tier's
    estimate with its 95% interval and n, the paired difference and the verdict."""
    head = ["finding", "random", "scripted", "search", "search - scripted (paired)",
            "verdict"]
    rows = []
    for f in data["findings"]:
        t = f["tiers"]
        cells = [f["name"]]
        for tier in TIERS:
            d = t.get(tier, {})
            extra = f", {d['holders']:,} holder seat-games" if "holders" in d else ""
            if "holders" in d and d.get("lo") is None and d.get("est") is not None:
                extra += f"; no interval below {MIN_HOLDERS}"
            cells.append(f"{_fmt(d)} (n={d.get('n', 0):,}{extra})")
        dd = f.get("diff") or {}
        cells.append(f"{_fmt(dd)} (n={dd.get('n', 0):,})" if dd else "n/a")
        v = f["verdict"]
        cells.append(f"**{v}**" + (f" at n={t['search']['n']:,}" if v == "undecided" else ""))
        rows.append(cells)
    return head, rows


def markdown(data: dict[str, Any]) -> str:
    """``tiers.md``: setup, headline, the findings table and how to read it."""
    sec = data.get("seconds", {})
    lines = [f"# Findings across skill tiers: {data['title']}", "",
             f"- {data['players']} players, seed {data['seed']}, rule options "
             f"{data['options'] or 'defaults'}; every tier plays the same games (common random "
             "numbers: game i has the same chance seed in each tier).",
             f"- Tiers: **random** (`random` in every seat, {data['n_random']:,} games, "
             f"{sec.get('random', 0):.1f} s); **scripted** ({', '.join(data['strategies'])}, "
             f"{data['seating']} seating, {data['n_scripted']:,} games, "
             f"{sec.get('scripted', 0):.1f} s); **search** (`mcts` in every seat, "
             f"{data['budget']:,} playouts per decision (default {data['default_budget']:,}), "
             f"playouts by `{data['playout']}`, games 0..{data['n_search'] - 1}, "
             f"{sec.get('search', 0):.1f} s). {data.get('strength', '')}",
             "- Values in points (win rate x 100) with 95% intervals clustered by game; "
             "first-player rows: the win rate of a turn position minus parity; component "
             "rows: holders' win rate minus the others' (an association, not an effect; the "
             f"three strongest and weakest of the scripted tier with >= {MIN_HOLDERS} holder "
             "seat-games). Finished games only (no length-limit or deadlock games).",
             "- Verdict: holds (scripted and search intervals exclude 0, same sign), flips "
             "(opposite signs), weakens (search includes 0 and the paired difference moves "
             "towards 0), undecided (search interval includes 0: too few search games), "
             "appears (only search excludes 0), none (neither).", "",
             f"**Headline:** {data['headline']}", ""]
    head, rows = findings_table(data)
    lines += [md_table(head, rows), ""]
    if any(f["verdict"] == "undecided" for f in data["findings"]):
        lines += [f"To decide more findings, play more search games: `{command_for(data, 2000)}`"
                  " (2,000 search games; see docs/bots.md, \"Skill tiers\", for the time).", ""]
    return "\n".join(lines)


# ---- a results run's study ------------------------------------------------------------------
def run_fields(manifest: dict[str, Any]) -> dict[str, Any]:
    """The fields of a results run's manifest that define which tier study belongs to it
    (``RUN_KEYS``; {} for absent options/overrides)."""
    out = {k: manifest.get(k) for k in RUN_KEYS}
    out["overrides"] = dict(manifest.get("overrides") or {})
    out["options"] = dict(manifest.get("options") or {})
    return out


def load_tiers(folder: str | os.PathLike) -> dict[str, Any]:
    """The ``tiers.json`` of a tier-study folder. Raises UserError when it is absent or
    unreadable."""
    path = Path(folder) / "tiers.json"
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        raise UserError(f"{folder}: no readable tiers.json (run `boardsim tiers GAME --out "
                        f"{folder}` first)") from None
    if not isinstance(data, dict) or "findings" not in data:
        raise UserError(f"{path}: not a tier study")
    return data


def tiers_for_run(run_dir: str | os.PathLike, manifest: dict[str, Any]) -> Path | None:
    """The tier-study folder of results run ``run_dir`` (``<run_dir>/tiers``), or None when
    there is none or its ``tiers.json`` records another run (game, players, bots, seating,
    seed, options, overrides, engine version): a report never shows another run's study."""
    folder = Path(run_dir) / TIERS_DIR
    if not manifest.get("game"):
        return None
    try:
        data = json.loads((folder / "tiers.json").read_text())
    except (OSError, ValueError):
        return None
    rec = data.get("run") if isinstance(data, dict) else None
    if not isinstance(rec, dict) or {k: rec.get(k) for k in RUN_KEYS} != run_fields(manifest):
        return None
    return folder


def run_tiers_of(run_dir: str | os.PathLike, jobs: int = 1, n_search: int | None = None,
                 budget: int | None = None, n_scripted: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Path:
    """Play the tier study of the finished results run ``run_dir`` on its own game, players,
    bots, seating, seed and options (the scripted tier's game i is the run's game i) and write
    it into ``<run_dir>/tiers``. Sizes default to ``RUN_STUDY[game]``; a study already there
    for this run with the same sizes is kept (a rerun of ``boardsim run``). Returns the folder.
    Raises UserError for an unfinished run or one with component-data overrides."""
    from sim.runner import load_manifest

    m = load_manifest(run_dir)
    if not m.get("complete"):
        raise UserError(f"{run_dir}: the run is not finished; a tier study needs a finished run")
    if m.get("overrides"):
        raise UserError(f"{run_dir}: the run has component-data overrides; the tier study "
                        "plays the printed data only")
    plan = RUN_STUDY.get(m["game"], {"n_search": 10, "budget": 10, "n_scripted": 2000})
    out = Path(run_dir) / TIERS_DIR
    n_search, budget = n_search or plan["n_search"], budget or plan["budget"]
    n_scripted = n_scripted or plan["n_scripted"]
    if tiers_for_run(run_dir, m) is not None:  # a rerun of `boardsim run` keeps a same study
        old = load_tiers(out)
        if (old.get("n_search"), old.get("budget"), old.get("n_scripted")) == (
                n_search, budget, n_scripted):
            return out
    run_tiers(m["game"], n_search, int(m["players"]), list(m["strategies"]), int(m["seed"]),
              jobs, out, dict(m.get("options") or {}), budget, n_scripted,
              str(m["seating"]), run_fields(m), progress)
    return out


# ---- strength: the search bot heads-up ----------------------------------------------------------
def heads_up(game_id: str, opponent: str, budget: int, n: int, seed: int = 1,
             jobs: int = 1) -> dict[str, Any]:
    """``mcts`` at ``budget`` playouts per decision against ``opponent`` at 2 players, seats
    alternated game by game (rotate seating), games ``0 .. n-1`` of run ``seed``. Returns
    ``{"wins": mcts win shares summed over finished games, "games": finished games, "rate",
    "lo", "hi" (Wilson 95%), "seconds": wall time, "cpu": process CPU seconds}``."""
    t0, c0 = time.perf_counter(), time.process_time()
    arm = play_tier(game_id, n, 2, ["mcts", opponent], "rotate", seed, {}, [], budget,
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
