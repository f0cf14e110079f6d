"""``boardsim tune``: the smallest change to the printed components that meets the designer's
targets (issue 18; method and measurements: docs/tune.md).

A **target** is a band on one measured quantity, per player count:

* ``first_seat``: the first player's win share in points (percent), by turn order (the seat
  that moved first in each game, whatever its seat number): ``first_seat=50±2`` (``50+-2``),
  ``first_seat=parity±2`` (``100/players`` +- 2), ``first_seat=48..52``;
* ``balance``: ``1 - (max - min)`` of the win rates by turn position (the report's Balance):
  ``balance>=0.9``;
* ``length``: the mean game length in turns: ``length=13..16``;
* ``margin``: the mean score margin, winner's score minus the runner-up's: ``margin=2..6``;
* ``effects``: every component's causal effect (win-rate points, ``analysis.lab.effects``) within
  a band: ``effects=±3``. It needs the effects module; without it the target is refused.

A **parameter** is a data path with wildcards over the game's component schema
(``structures.*.cost.*``, ``goals.*.vp``); every number it matches that the schema declares
tunable (``Tunable``: its allowed range) becomes one integer parameter, searched within that
range and at most ``max_step`` from its printed value (a wildcard over the parts of a vector
means its non-zero parts: ``buildings.*.cost.*`` is each building's printed cost; a 0 part is
searched only when named); ``option:NAME`` makes a rule option a categorical parameter. A schema may name alias spellings of fields (``ComponentSchema.aliases``:
Province's ``structures.X.cost.labor`` is ``structures.X.labor``).

The search (optuna, seeded TPE by default) minimises one number per candidate::

    objective = 100 * distance + changed + total_change / (max_total_change + 1)

``distance``: the sum over targets and player counts of how far each estimate lies outside
its band (in the target's unit: points, turns, 0.01 of Balance), the band shrunk by
``SAFETY`` of its half-width so that a candidate on the edge is not preferred; ``changed``:
the number of changed numbers (and options); ``total_change``: the sum of the absolute
changes. So any reduction of the distance by 0.01 outweighs one more changed number, and
among candidates that meet the targets the one with the fewest changed numbers, then the
smallest total change, wins.

Every candidate is played on **common random numbers**: the same run seed, game indices and
seatings (``Game.run_chunk`` directly, seat matrix from ``sim.core.seating``). **Racing**:
a trial plays ``stages[0]`` games, reports, plays up to ``stages[1]`` (the same first games
plus new ones), ...; after each stage but the last it is pruned (``RacingPruner``) when it is
worse than the median of the earlier trials at that stage. The search stops when the trial
count or the search share of the budget is spent; then the best candidates and the printed
data are re-played on fresh seeds (``final_games`` each) and every target is shown with its
95% interval; a candidate *meets* a target when the whole interval lies in the band.

Resumable and reproducible: the study lives in ``out/study.sqlite3``; trial ``k``'s sampler is
seeded from ``(seed, k)`` and the pruner reads finished trials only, so an interrupted tune
resumes with the same trials, and the same command and seed give the same answer (with
``--trials``; with a time budget alone, the trials run are the same sequence, cut where the
time ends).
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from analysis.doc import write_atomic
from analysis.lab.tune.measure import (  # noqa: F401 (the package names them)
    Evaluator,
    Games,
    balance_of,
    measure,
    objective_value,
    per_game,
    play_part,
    shortfall,
)
from analysis.lab.tune.params import (  # noqa: F401 (the package names them)
    MAX_PARAMS,
    Param,
    _edit_name,
    _leaves,
    _match,
    _tunable_range,
    edit_cost,
    expand_params,
    split_values,
)
from analysis.lab.tune.search import (  # noqa: F401 (the package names them)
    MAX_PROBES,
    SIMPLIFY_SHARE,
    RacingPruner,
    _key,
    _neighbor_next,
    _optuna,
    _pruner_class,
    _revert_next,
    _sampler,
    _trial_seed,
    best_trials,
    probes,
    run_study,
    trial_iv,
)
from analysis.lab.tune.targets import (  # noqa: F401 (the package names them)
    _NUM,
    _PM,
    SAFETY,
    TARGETS,
    Target,
    _g,
    parse_budget,
    parse_target,
    parse_targets_file,
)
from analysis.lab.tune.write import (  # noqa: F401 (the package names them)
    TuneResult,
    _fmt_check,
    _history_chart,
    _jsonable,
    _write,
    best_so_far,
    data_toml,
    distinguishable,
)
from analysis.paired import paired_difference
from sim.core.errors import UserError
from sim.core.integrity import MAX_GAMES, check_int, check_seed

__all__ = ["Target", "Param", "parse_target", "parse_targets_file", "parse_budget",
           "expand_params", "Evaluator", "RacingPruner", "objective_value", "run_study",
           "tune", "TARGETS", "SAFETY"]

EFFECTS_HOOK = "analysis.lab.effects"


# ---- targets ------------------------------------------------------------------------------


def check_targets(targets: list[Target]) -> None:
    """At least one target, each name once; the effects target needs the effects module."""
    if not targets:
        raise UserError("tune: give at least one --target (e.g. --target first_seat=50±2); "
                        f"names: {', '.join(TARGETS)}")
    names = [t.name for t in targets]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise UserError(f"tune: target {dup[0]} given twice; give each target once")
    if "effects" in names and effects_hook() is None:
        raise UserError("--target effects needs the effects module (analysis/lab/effects.py, "
                        "issue 15), which this build does not have")


def effects_hook() -> Callable | None:
    """The component-effect measurement for the ``effects`` target: ``component_effects``
    below when ``analysis.lab.effects`` (issue 15) offers ``components_for``, ``play_arm`` and
    ``measure``; None when it does not (the target is then refused)."""
    import importlib

    try:
        mod = importlib.import_module(EFFECTS_HOOK)
    except ModuleNotFoundError:
        return None
    if not all(hasattr(mod, f) for f in ("components_for", "play_arm", "measure")):
        return None
    return component_effects


def component_effects(game_id: str, players: int, strategies: list[str], seating: str,
                      n: int, seed: int, options: dict[str, Any], data: dict[str, Any],
                      jobs: int = 1) -> dict[str, np.ndarray]:
    """Every component's causal effect (``analysis.lab.effects``: the holders' win share in the
    candidate's data minus in its one-step nudge arm, paired games, clustered 95% interval)
    around the candidate data ``data``: ``{"effect", "lo", "hi": float64[k] in points,
    "label": object[k]}``. Plays ``n`` games of ``seed`` per arm (k + 1 arms)."""
    from analysis.lab import effects as E
    from sim.registry import get_game

    game = get_game(game_id, data or None)
    comps = E.components_for(game, options)
    holders = sorted({c.holder for c in comps if c.holder})
    base = E.play_arm(game_id, data, n, players, strategies, seating, seed, options, holders,
                      jobs, max(1, min(2000, n)))
    eff, lo, hi, labels = [], [], [], []
    for c in comps:
        arm = E.play_arm(game_id, {**data, c.path: c.new}, n, players, strategies, seating,
                         seed, options, [], jobs, max(1, min(2000, n)))
        r = E.measure(base, arm, c)
        if r["effect"] != r["effect"]:
            continue
        eff.append(100.0 * r["effect"])
        lo.append(100.0 * r["lo"])
        hi.append(100.0 * r["hi"])
        labels.append(c.label)
    return {"effect": np.array(eff), "lo": np.array(lo), "hi": np.array(hi),
            "label": np.array(labels, dtype=object)}


# ---- parameters ---------------------------------------------------------------------------


# ---- playing and measuring ---------------------------------------------------------------


# ---- optuna --------------------------------------------------------------------------------


# ---- the whole tune --------------------------------------------------------------------------


def _fresh_seed(seed: int) -> int:
    h = hashlib.sha256(f"tune-fresh:{seed}".encode()).digest()
    return int.from_bytes(h[:8], "little") >> 1


def _final_check(ev: Evaluator, cands: list[dict], targets: list[Target], n: int, seed: int,
                 strategies: list[str] | None = None, effects_games: int | None = None
                 ) -> None:
    """Play every candidate (``values``) on the fresh seed ``seed``, ``n`` games per player
    count, and add ``checks``: per target and player count the estimate, its 95% interval,
    the band and the status (met: the interval inside the band; missed: outside it;
    undecided), and the paired difference against the first candidate (the printed data)."""
    base_games: dict[int, Games] = {}
    for c in cands:
        checks = []
        for pp in ev.players:
            g = ev.play(c["values"], pp, 0, n, seed, strategies)
            if pp not in base_games:
                base_games[pp] = g
            for t in targets:
                if t.name == "effects":
                    checks.append(_effects_check(ev, c, t, pp, effects_games or n, seed,
                                                 strategies))
                    continue
                checks.append(_target_row(g, base_games[pp], t, pp, seed))
        c["checks"] = checks


def _target_row(g: Games, base: Games, t: Target, pp: int, seed: int) -> dict:
    """One target at ``pp`` players over the games ``g``: estimate, 95% interval, band,
    status (met: the interval inside the band; missed: outside it; undecided), finished and
    limit games, distance, and ``paired`` (difference against ``base``, the printed data's
    games on the same seeds and seatings; not for Balance, nor when ``base is g``)."""
    est, lo, hi = measure(g, t.name, interval=True, seed=seed)
    band = t.band(pp)
    status = ("met" if band[0] <= lo and hi <= band[1] else
              "missed" if hi < band[0] or lo > band[1] else "undecided")
    row = {"target": t.name, "players": pp, "band": band, "estimate": est,
           "lo": lo, "hi": hi, "status": status, "games": int(g.finished.sum()),
           "limit_games": int((~g.finished & ~g.deadlock).sum()),
           "deadlock_games": int(g.deadlock.sum()),
           "distance": shortfall(est, band, TARGETS[t.name][0])}
    if t.name != "balance" and base is not g:
        both = base.finished & g.finished
        if both.sum() >= 2:
            xb = per_game(Games(*(a[both] for a in base.arrays())), t.name)
            xv = per_game(Games(*(a[both] for a in g.arrays())), t.name)
            d = paired_difference(xb, xv)
            row["paired"] = (d.diff, d.lo, d.hi)
    return row


def _effects_check(ev, cand, target, players, n, seed, strategies=None) -> dict:
    """The effects target through ``effects_hook`` (every component's effect inside the band:
    met when every interval is inside, missed when one lies outside)."""
    hook = effects_hook()
    if hook is None:
        raise UserError("--target effects needs the effects module (analysis/lab/effects.py)")
    data, opts = split_values(ev.params, cand["values"])
    res = hook(ev.game_id, players, strategies or ev.strategies, ev.seating, n, seed,
               {**ev.base_options, **opts}, data, ev.jobs)
    band = target.band(players)
    if res["effect"].size == 0:
        nan = float("nan")
        return {"target": "effects", "players": players, "band": band, "estimate": nan,
                "lo": nan, "hi": nan, "status": "undecided", "games": n, "limit_games": 0,
                "distance": 1000.0}
    lo, hi = float(np.min(res["lo"])), float(np.max(res["hi"]))
    k = int(np.argmax(np.abs(res["effect"])))
    outside = (res["hi"] < band[0]) | (res["lo"] > band[1])
    status = "met" if band[0] <= lo and hi <= band[1] else \
        "missed" if outside.any() else "undecided"
    return {"target": "effects", "players": players, "band": band,
            "estimate": float(res["effect"][k]), "lo": lo, "hi": hi, "status": status,
            "games": n, "limit_games": 0, "worst": str(res["label"][k]),
            "outside": [str(x) for x in res["label"][outside]],
            "distance": float(sum(shortfall(float(e), band, 1.0) for e in res["effect"]))}


def _status_of(c: dict) -> str:
    s = [r["status"] for r in c["checks"]]
    return "met" if all(x == "met" for x in s) else "missed" if "missed" in s else "undecided"


def tune(game_id: str, targets: list[Target], patterns: list[str], players: list[int] | None,
         strategies: list[str] | None = None, options: dict[str, Any] | None = None,
         budget: float = 600.0, trials: int | None = None, games: int | None = None,
         final_games: int | None = None, max_step: int = 3, seed: int = 1, jobs: int = 1,
         out: Path | None = None, sampler: str = "tpe", top: int = 3,
         recheck_strategies: list[str] | None = None, progress: Callable | None = None,
         play: Callable | None = None, stop_after: int | None = None,
         effects_games: int | None = None, backend: str = "threading",
         scheduler: str | None = None, started: float | None = None,
         recheck_budget: int | None = None,
         clock: Callable[[], float] = time.monotonic) -> TuneResult:
    """The whole tune (module docstring): search, fresh-seed check, re-check, report.
    ``recheck_budget``: the search bots' playouts per decision in the re-check (default: the
    tier study's, ``tiers.RUN_STUDY``).

    ``players``: player counts (default: the main job's); ``strategies``: the bot mix
    (default: the game's ``RECOMMENDED_MIX`` with pool seating); ``budget``: seconds for the
    whole command (the search gets ``SEARCH_SHARE`` of it); ``trials``: stop the search at
    this many finished trials (reproducible on any machine); ``games``: games per player count
    of the last racing stage (stages: games/16, games/4, games); ``final_games``: games per
    candidate and player count on fresh seeds (default 4 x games); ``effects_games``: games
    per arm of the effects target (default min(final_games, 2000); k + 1 arms per
    candidate); ``recheck_strategies``: the search-bot tier of the re-check (default:
    ``analysis.lab.tiers``' search tier, ``tiers.SEARCH_BOT`` in every seat at
    ``tiers.tier_study``'s budget,
    when the game has it, else skipped and said; ``_recheck``: as many games as fit the rest
    of ``budget``); ``backend``/``scheduler``: the runner's execution layer for every game
    played (``sim.runner.BACKENDS``; ``scheduler``: a dask scheduler address, with
    ``backend="dask"``; results do not depend on them nor on ``jobs``). Writes
    ``out/tune.md``, ``out/proposed.toml``, ``out/history.png``, ``out/tune.json``,
    ``out/check.json``, ``out/recheck.json`` and the study ``out/study.sqlite3``;
    ``started``: the ``time.monotonic()`` at which the command started (the CLI passes the
    process's start, ``process_started``; default: now), from which ``budget`` counts;
    ``clock``: the wall clock every time decision reads (tests inject one). Without
    ``trials``, the whole command keeps to ``budget`` (``budget_plan``): the search stops
    at its share, the fresh-seed check plays as many of ``final_games`` as fit its share of the
    rest (at least ``MIN_FINAL_GAMES``), the re-check the rest, less a reserve for writing.
    Raises UserError on bad input.
    """
    from sim.registry import get_game
    from sim.runner import check_backend

    t_start = clock() if started is None else min(started, clock())
    check_backend(backend, scheduler)
    check_seed(seed)
    check_targets(targets)
    game = get_game(game_id)
    base_options = game.options.resolve(options or {})
    base_options = game.options.non_default(base_options)
    if players is None:
        plan = next((p for p in game.default_plan() if p.get("role", "main") == "main"), None)
        players = [plan["players"] if plan else game.min_players]
    for pp in players:
        game.check_players(pp)
    if strategies is None:
        mix = list(getattr(game.bots, "RECOMMENDED_MIX", ()) or ())
        if not mix:
            raise UserError(f"{game.id} declares no recommended bot mix; give --strategies")
        strategies, source = mix, "the recommended mix"
    else:
        source = "given"
    for s in strategies:
        game.strategy(s)
    seating = "pool" if len(strategies) > 1 else "fixed"
    check_int("--max-step", max_step, 0, 999)
    check_int("--top", top, 1, 20)
    params = expand_params(game, patterns, max_step)
    if games is None:
        games = 4000
    check_int("--games", games, 16, MAX_GAMES)
    stages = sorted({max(2, games // 16), max(2, games // 4), games})
    final_games = 4 * games if final_games is None else final_games  # 0 is refused, not 4 x
    check_int("--final-games", final_games, 10, MAX_GAMES)
    if effects_games is not None:
        check_int("--effects-games", effects_games, 10, MAX_GAMES)
    if trials is not None:
        check_int("--trials", trials, 1, 100_000)
    out = Path(out or Path("reports") / game.id / "tune")
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    setup = {"game": game.id, "targets": [t.text for t in targets], "params": patterns,
             "players": players, "strategies": strategies, "options": base_options,
             "max_step": max_step, "seed": seed, "games": games, "sampler": sampler,
             "final_games": final_games, "trials": trials, "budget": budget}
    setup_file = out / "setup.json"
    if setup_file.exists():
        old = json.loads(setup_file.read_text())
        if old != json.loads(json.dumps(setup)):
            raise UserError(f"--out {out} holds another tune ({setup_file}); use a new folder "
                            "or the same command")
    else:
        write_atomic(setup_file, json.dumps(setup, indent=2))
    ev = Evaluator(game.id, params, players, strategies, seating, base_options, jobs, play,
                   backend, scheduler, clock)
    reserve = write_reserve(budget)
    with ev:  # one executor (a dask cluster) for the whole tune
        storage = f"sqlite:///{(out / 'study.sqlite3').resolve()}"
        search_budget = SEARCH_SHARE * budget
        optuna = _optuna()
        study0 = optuna.create_study(storage=storage, study_name="tune", direction="minimize",
                                     load_if_exists=True)
        spent = float(study0.user_attrs.get("search_seconds", 0.0))
        finished = bool(study0.user_attrs.get("search_finished", False))
        t_search = clock()
        # --trials fixes the search (reproducible anywhere); else the search share of the budget
        deadline = None if trials is not None else min(
            t_search + max(0.0, search_budget - spent), t_start + budget - reserve)
        if finished:
            study = study0
        else:
            def note(st):
                st.set_user_attr("search_seconds", spent + clock() - t_search)
                if progress:
                    progress(st, min(1.0, (spent + clock() - t_search) / search_budget))

            study = run_study(storage, "tune", params, targets, ev, stages, seed, trials,
                              deadline, sampler, note, stop_after,
                              t_search - spent if deadline is not None else None)
            study.set_user_attr("search_seconds", spent + clock() - t_search)
            study.set_user_attr("search_finished", True)
        n_trials = len(study.trials)
        search_games = int(sum(t.user_attrs.get("games", 0) for t in study.trials
                               if not t.user_attrs.get("repeat")) * len(players))
        # the fresh-seed check of the best few and of the printed data (first)
        printed = {p.path: p.value for p in params}
        best = [b for b in best_trials(study, params, top + 1) if b["values"] != printed][:top]
        cands = [{"number": None, "values": printed, "changed": 0, "total": 0.0,
                  "name": "printed"}] + [{**b, "name": f"trial {b['number']}"} for b in best]
        fresh = _fresh_seed(seed)
        check_file = out / "check.json"
        if check_file.exists():
            cands = json.loads(check_file.read_text())
            for c in cands:
                for r in c["checks"]:
                    r["band"] = tuple(r["band"])
        else:
            if trials is None:  # the fresh-seed check's share of the time left
                left = budget - (clock() - t_start) - reserve
                rechecks = recheck_planned(game, targets, recheck_strategies) and (
                    1 - FINAL_SHARE) * left >= RECHECK_MIN
                share = FINAL_SHARE if rechecks else 1.0
                final_games = budget_plan(left * share, [ev.seconds_per_game(pp)
                                                         for pp in players],
                                          len(cands), final_games)
            _final_check(ev, cands, targets, final_games, fresh, None,
                         effects_games or min(final_games, 2000))
            for c in cands:
                c["final_games"] = final_games
            write_atomic(check_file, json.dumps(cands, indent=1, default=_jsonable))
        final_games = int(cands[0].get("final_games", final_games))
        for c in cands:
            c["status"] = _status_of(c)
            c["distance_fresh"] = float(sum(r["distance"] for r in c["checks"]))
        proposals = cands[1:]
        # the printed data itself, when it already meets every target, is the smallest edit
        meeting = [c for c in cands if c["status"] == "met"]
        answer = min(meeting, key=answer_key) if meeting else None
        closest = answer or (min(proposals, key=lambda c: (c["distance_fresh"], c["changed"]))
                             if proposals else cands[0])
        blocking = None
        if answer is not None and answer is not cands[0] and not distinguishable(answer):
            # it meets the targets, but its own check cannot tell it from the printed data
            answer = None
            blocking = (f"{closest['name']}'s change cannot be told from the printed data on "
                        "its own check (every paired 95% interval of the change holds 0)")
        if answer is None and blocking is None:
            bad = [r for r in closest["checks"] if r["status"] != "met"]
            if bad:
                r = max(bad, key=lambda r: (r["status"] == "missed", r["distance"]))
                blocking = (f"{r['target']} at {r['players']} players: {r['estimate']:.2f} "
                            f"[{r['lo']:.2f}, {r['hi']:.2f}], band {_g(r['band'][0])}.."
                            f"{_g(r['band'][1])} ({r['status']})")
        # the re-check under the search-bot tier
        left = budget - (clock() - t_start) - reserve
        recheck_note, recheck = _recheck(game, ev, closest, targets, recheck_strategies,
                                         fresh ^ 0x5A5A, RECHECK_MAX, left, out,
                                         recheck_budget, clock)
        elapsed = clock() - t_start
        res = _write(out, game, params, targets, cands, answer, closest, blocking, setup, source,
                     budget, n_trials, search_games, final_games, study, recheck_note, recheck,
                     elapsed, float(study.user_attrs.get("search_seconds", 0.0)), base_options)
        return res


def inside_margin(c: dict) -> float:
    """How deep candidate ``c``'s intervals lie inside their bands: the smallest, over its
    checks, of the distance from the interval to the nearer band edge as a share of the band's
    half-width (0: an interval touching an edge; negative: outside)."""
    m = math.inf
    for r in c["checks"]:
        lo, hi = r["band"]
        half = (hi - lo) / 2 if math.isfinite(hi - lo) and hi > lo else 1.0
        m = min(m, min(r["lo"] - lo, hi - r["hi"]) / half)
    return m


def answer_key(c: dict) -> tuple[int, float, float]:
    """The order among candidates that meet every target on fresh seeds: the fewest changed
    numbers, then the smallest total change, then the intervals deepest inside their bands
    (``inside_margin``: of two equally small edits, the one less likely to fall out of a band
    on other seeds)."""
    return (c["changed"], c["total"], -inside_margin(c))


SEARCH_SHARE = 0.65
"""The share of ``--budget`` the search may use; the rest is for the fresh-seed check."""


FINAL_SHARE = 0.6
"""The share of the time left after the search that the fresh-seed check may use when a
re-check follows (the re-check gets the rest); without a re-check, all of it."""
FINAL_SAFETY = 0.85
"""The fresh-seed check plans its games to take this share of its time: the seconds per game
are the search's (the same bots), and the machine's load can change."""
MIN_FINAL_GAMES = 10
"""The fresh-seed check plays at least this many games per candidate and player count, even
past the budget (``--final-games`` allows no fewer)."""


def budget_plan(seconds: float, per_game: list[float | None], n_cands: int,
                final_games: int) -> int:
    """Games per candidate and player count of the fresh-seed check: ``final_games``, or
    fewer so that ``n_cands`` candidates at every player count (``per_game``: seconds per game
    at each, None when unknown) take at most ``FINAL_SAFETY`` x ``seconds``; never fewer than
    ``MIN_FINAL_GAMES``. Unknown speeds (no game played yet) leave ``final_games``."""
    known = [s for s in per_game if s is not None]
    if not known or len(known) < len(per_game):
        return final_games
    per_round = n_cands * sum(known)  # one game per candidate at every player count
    if per_round <= 0:
        return final_games
    fit = int(FINAL_SAFETY * max(0.0, seconds) / per_round)
    return max(MIN_FINAL_GAMES, min(final_games, fit))


def write_reserve(budget: float) -> float:
    """Seconds of ``budget`` kept for writing the report and the process's exit after the
    re-check: ``RESERVE_SHARE`` of it, within 2 s .. ``RECHECK_RESERVE``."""
    return min(RECHECK_RESERVE, max(2.0, RESERVE_SHARE * budget))


def recheck_planned(game, targets: list[Target], recheck: list[str] | None) -> bool:
    """Whether ``_recheck`` will play games (a search bot or given bots, and a target other
    than effects): then the fresh-seed check leaves it ``1 - FINAL_SHARE`` of the time."""
    from analysis.lab import tiers

    if not any(t.name != "effects" for t in targets):
        return False
    return recheck is not None or tiers.SEARCH_BOT in game.strategies


RESERVE_SHARE = 0.02
"""The share of ``--budget`` kept for writing (``write_reserve``)."""
RECHECK_MAX = 2000
"""At most this many search-tier games per candidate and player count in the re-check."""
RECHECK_RESERVE = 15.0
"""At most this many seconds of ``--budget`` are kept for writing the report and the
process's exit after the re-check (``write_reserve``; measured: about 2 s and 4 s at load 14
on 2 cores)."""
RECHECK_CHUNK = 5.0
"""A re-check chunk is predicted to take at most this many seconds (then the time is read
again), so one slow chunk cannot carry the re-check far past its time."""
RECHECK_MIN = 5.0
"""The re-check is skipped when less than this many seconds are left for it."""
RECHECK_SAFETY = 0.5
"""The re-check starts a chunk only when it is predicted to take at most this share of the
time left: a search-bot game's time varies, and the machine's load can double mid-chunk (a
Province tune with the whole time left as the limit ended at 612-614 s of a 600 s budget when
other work started beside it)."""


def process_started() -> float | None:
    """The ``time.monotonic()`` value at which this process started (Linux ``/proc``), so that
    ``--budget`` counts the interpreter's start and the imports; None elsewhere."""
    import os

    try:
        with open("/proc/self/stat") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        age = uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    return time.monotonic() - max(0.0, age)


def _recheck(game, ev, cand, targets, recheck, seed, n_max, seconds, out, search_budget=None,
             clock=time.monotonic):
    """Re-play the printed data and ``cand`` under the search-bot tier: ``analysis.lab.tiers``'
    search tier (``tiers.SEARCH_BOT`` in every seat at the tier study's budget,
    ``tiers.tier_study``), or the bots ``recheck`` (pool seating when several; a search
    bot among them at that budget), on
    the fresh seed ``seed``: the same games 0 .. N-1 in both arms (paired). N grows by
    doubling chunks while the next chunk fits in ``seconds`` (split over the player counts),
    at most ``n_max``. Stored in ``out/recheck.json`` (a rerun reads it). Returns (note,
    [printed, cand] with ``checks``) or (note, None) when skipped. ``search_budget``: the
    search bots' playouts per decision instead of the tier study's (``--recheck-budget``)."""
    from analysis.lab import tiers
    from sim.core.game import check_budget

    if recheck is None:
        if tiers.SEARCH_BOT not in game.strategies:
            return (f"Re-check under the search-bot tier: skipped: {game.id} has no "
                    f"`{tiers.SEARCH_BOT}` bot in its registry in this build.", None)
        recheck = [tiers.SEARCH_BOT]
    names = [game.strategy(s).name for s in recheck]
    seating = "pool" if len(names) > 1 else "fixed"
    budget = tiers.tier_study(game)["budget"] if tiers.SEARCH_BOT in names else None
    if search_budget is not None:
        budget = check_budget(game, names, search_budget)
    tt = [t for t in targets if t.name != "effects"]
    key = {"strategies": names, "seating": seating, "search_budget": budget, "seed": seed,
           "candidate": cand["values"], "targets": [t.text for t in tt]}
    f = out / "recheck.json"
    if f.exists():
        old = json.loads(f.read_text())
        if old.get("key") == json.loads(json.dumps(key)):
            for c in old["cands"]:
                for r in c["checks"]:
                    r["band"] = tuple(r["band"])
            return old["note"], old["cands"]
    who = (f"`{tiers.SEARCH_BOT}` in every seat" if names == [tiers.SEARCH_BOT]
           else ", ".join(names) + f" ({seating} seating)")
    strength = ""
    if budget is not None and search_budget is not None:
        who += f" at {budget:,} playouts per decision (`--recheck-budget`)"
    elif budget is not None:
        who += f" at {budget:,} playouts per decision (the tier study's, `tiers.tier_study`)"
        strength = " " + tiers.strength_note(game.id, budget)
    if not tt:
        return "Re-check under the search-bot tier: skipped: only the effects target.", None
    if seconds < RECHECK_MIN:
        return (f"Re-check under the search-bot tier ({who}): skipped: the budget was spent "
                "by the search and the fresh-seed check." + strength, None)
    cands = [{"values": {p.path: p.value for p in ev.params}, "name": "printed", "checks": []},
             {"values": cand["values"], "name": cand["name"], "checks": []}]
    t0 = clock()
    played = {}
    for i, pp in enumerate(ev.players):
        until = t0 + seconds * (i + 1) / len(ev.players)
        arms: list[Games | None] = [None, None]
        n, step = 0, min(n_max, 2 * ev.jobs)
        per_game_s = 0.0
        t_arms = clock()
        while step > 0:
            t1 = clock()
            for j, c in enumerate(cands):
                g = ev.play(c["values"], pp, n, step, seed, names, seating, budget)
                arms[j] = g if arms[j] is None else arms[j].extend(g)
            n += step
            # the slowest chunk's time per game so far, not the last chunk's: a search-bot
            # game's time varies several-fold, and a fast chunk must not license a long one
            per_game_s = max(per_game_s, (clock() - t1) / step)
            left = until - clock()
            # the next chunk: at most double, predicted to take at most RECHECK_SAFETY of the
            # time left and at most RECHECK_CHUNK seconds (a search-bot game's time varies by
            # several times: a long chunk predicted from a short one overran by 30 s)
            step = min(n_max - n, n, int(min(RECHECK_SAFETY * left, RECHECK_CHUNK)
                                         / max(per_game_s, 1e-9)))
            # the tail: one game (both arms) at a time while the time left covers the mean
            # game's time so far, so the re-check ends within about one game of ``until``
            # (the slowest game's pace as the rule left ~20 s of a 3-minute tune unused)
            if step == 0 and n < n_max and left >= (clock() - t_arms) / n:
                step = 1
        played[pp] = n
        for c, g in zip(cands, arms):
            c["checks"] += [_target_row(g, arms[0], t, pp, seed) for t in tt]
    secs = clock() - t0
    note = (f"Re-check under the search-bot tier ({who}), fresh seeds, the same games in both "
            "arms: " + ", ".join(f"{v:,} games at {k} players" for k, v in played.items())
            + f" (as many as fit the rest of the budget, at most {n_max:,}; {secs:.0f} s)."
            + strength)
    write_atomic(f, json.dumps({"key": key, "note": note, "cands": cands}, indent=1,
                               default=_jsonable))
    return note, cands


# ---- writing ---------------------------------------------------------------------------------


