"""The search of ``boardsim tune`` (optuna): the seeded sampler, the racing pruner, the
simplification probes, the study loop and its best trials.
(The package docstring, analysis/lab/tune/__init__.py, describes the method.)"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from analysis.lab.tune.measure import Evaluator, measure, objective_value, shortfall
from analysis.lab.tune.params import Param, edit_cost
from analysis.lab.tune.targets import TARGETS, Target
from sim.core.errors import UserError


def _optuna():
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def _trial_seed(seed: int, k: int) -> int:
    h = hashlib.sha256(f"tune-sampler:{seed}:{k}".encode()).digest()
    return int.from_bytes(h[:4], "little")


def _pruner_class():
    optuna = _optuna()

    class RacingPruner(optuna.pruners.BasePruner):
        """Prune a trial at a stage when its value is worse than the median value of the
        finished (complete or pruned) trials at that stage, once ``startup`` of them have
        reached it. Running and failed trials are ignored, so a resumed study decides as an
        uninterrupted one does."""

        def __init__(self, startup: int = 4):
            self.startup = startup

        def prune(self, study, trial) -> bool:
            step = trial.last_step
            if step is None:
                return False
            value = trial.intermediate_values[step]
            done = study.get_trials(deepcopy=False, states=(
                optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED))
            others = [t.intermediate_values[step] for t in done
                      if step in t.intermediate_values and t.number < trial.number]
            if len(others) < self.startup:
                return False
            return value > float(np.median(others))

    return RacingPruner


def RacingPruner(startup: int = 4):  # noqa: N802 - a class made on first use (lazy optuna)
    """The racing rule (see ``_pruner_class``)."""
    return _pruner_class()(startup)


def _sampler(kind: str, seed: int, k: int, n_params: int):
    optuna = _optuna()
    s = _trial_seed(seed, k)
    if kind == "tpe":
        return optuna.samplers.TPESampler(seed=s, n_startup_trials=min(10, 2 + n_params),
                                          multivariate=True)
    if kind == "random":
        return optuna.samplers.RandomSampler(seed=s)
    raise UserError(f"--sampler {kind!r}; allowed: tpe, random")


def _key(values: dict[str, Any]) -> str:
    return json.dumps(values, sort_keys=True, default=str)


MAX_PROBES = 100
"""One-step probes (each number +-1 alone) open the search when there are at most this many."""


SIMPLIFY_SHARE = 0.2
"""The last share of the search (trials, or time) reverts changed numbers of the best."""


def probes(params: list[Param]) -> list[dict[str, Any]]:
    """Every single-number change by one step (down, then up) within its choices, in path
    order; [] when there would be more than ``MAX_PROBES``."""
    printed = {p.path: p.value for p in params}
    out = []
    for p in params:
        if p.is_option:
            out += [{**printed, p.path: c} for c in p.choices if c != p.value]
            continue
        for d in (-1, 1):
            if p.value + d in p.choices:
                out.append({**printed, p.path: p.value + d})
    return out if len(out) <= MAX_PROBES else []


def _revert_next(study, params: list[Param], cache: dict) -> dict[str, Any] | None:
    """The next simplification candidate: the best complete trial with one changed number
    put back to its printed value (the first such not yet played, in path order); None when
    every revert of the best has been played (so none of them is better)."""
    best = best_trials(study, params, 1)
    if not best:
        return None
    vals = best[0]["values"]
    for p in params:
        if vals[p.path] != p.value:
            cand = {**vals, p.path: p.value}
            if _key(cand) not in cache:
                return cand
    return None


def _neighbor_next(study, params: list[Param], cache: dict) -> dict[str, Any] | None:
    """The next local step: the best complete trial with one number moved by one step (down,
    then up, in path order; an option to each other value), the first such not yet played;
    None when all have been played (the best is a local optimum of one-step moves)."""
    best = best_trials(study, params, 1)
    if not best:
        return None
    vals = best[0]["values"]
    for p in params:
        steps = [c for c in p.choices if c != vals[p.path]] if p.is_option else [
            vals[p.path] + d for d in (-1, 1) if vals[p.path] + d in p.choices]
        for v in steps:
            cand = {**vals, p.path: v}
            if _key(cand) not in cache:
                return cand
    return None


def run_study(storage: str, name: str, params: list[Param], targets: list[Target],
              evaluator: Evaluator, stages: list[int], seed: int, n_trials: int | None,
              deadline: float | None, sampler: str = "tpe",
              on_trial: Callable | None = None, stop_after: int | None = None,
              started: float | None = None):
    """Run (or resume) the study ``name`` in ``storage`` until it holds ``n_trials`` finished
    trials or ``deadline`` (a ``time.monotonic()`` value) passes; returns the optuna study.

    The trials, in order: the printed data; the one-step probes (``probes``); then one-step
    moves from the best candidate so far (``_neighbor_next``: a greedy walk that adds or
    removes one step at a time, so it finds small edits) until none of them improves on the
    best; then the sampler's proposals (optuna TPE: the global search); in the last ``SIMPLIFY_SHARE`` of the trials (or of the time from
    ``started`` to ``deadline``) the best candidate with one changed number reverted at a
    time, as long as such reverts remain (a revert that is at least as good becomes the new
    best, and is simplified in turn). ``stages``: the racing sample sizes (games per player
    count, increasing); every trial plays games ``0 .. stages[i]-1`` of ``seed``.
    ``stop_after``: raise KeyboardInterrupt in the middle of the first new trial from that
    number on (tests of an interruption). Each finished trial holds user attrs ``distance``,
    ``changed``, ``total``, ``games``, ``metrics`` (estimate per target and player count),
    ``source`` (printed, probe, sampler, revert).

    With a ``deadline``, a stage starts only when its games are predicted (the evaluator's
    seconds per game so far, ``Evaluator.seconds_per_game``, read from ``evaluator.clock``)
    to end by the deadline; otherwise the trial is ended as failed (played again on a resume)
    and the search stops, so the search does not run past its share of ``--budget``.
    """
    optuna = _optuna()
    study = optuna.create_study(storage=storage, study_name=name, direction="minimize",
                                load_if_exists=True, pruner=RacingPruner())
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,
                                                      optuna.trial.TrialState.WAITING)):
        study._storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)
    fin = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    max_total = float(sum(max(abs(c - p.value) for c in p.choices) if not p.is_option else 1
                          for p in params))
    cache: dict[str, dict] = {}
    for t in study.get_trials(deepcopy=False, states=fin):
        cache.setdefault(_key(t.params), {"state": t.state, "iv": t.intermediate_values,
                                          "value": t.value, "attrs": t.user_attrs})
    printed = {p.path: p.value for p in params}
    opening = [printed] + probes(params)
    dists = {p.path: optuna.distributions.CategoricalDistribution(p.choices)
             if p.is_option else optuna.distributions.IntDistribution(
                 min(p.choices), max(p.choices)) for p in params}
    clock = getattr(evaluator, "clock", time.monotonic)
    started = clock() if started is None else started

    def simplifying(k: int) -> bool:
        if n_trials is not None:
            return k >= max(len(opening), int(n_trials * (1 - SIMPLIFY_SHARE)))
        if deadline is None:
            return False
        return clock() >= deadline - SIMPLIFY_SHARE * (deadline - started)

    def overruns(games: dict, n: int) -> bool:
        """Whether playing every player count up to ``n`` games would pass the deadline."""
        if deadline is None:
            return False
        rate = getattr(evaluator, "seconds_per_game", lambda pp: None)
        need = sum((n - (0 if games[pp] is None else games[pp].n)) * (rate(pp) or 0.0)
                   for pp in evaluator.players)
        return clock() + need > deadline

    while True:
        done = study.get_trials(deepcopy=False, states=fin)
        k = len(done)
        if n_trials is not None and k >= n_trials:
            break
        if deadline is not None and clock() >= deadline:
            break
        study.sampler = _sampler(sampler, seed, k, len(params))
        fixed, source = None, "sampler"
        if k < len(opening):
            fixed, source = opening[k], ("printed" if k == 0 else "probe")
        elif simplifying(k):
            fixed = _revert_next(study, params, cache)
            source = "revert" if fixed is not None else "sampler"
        if fixed is None and k >= len(opening):
            fixed = _neighbor_next(study, params, cache)  # None at a local optimum: TPE
            source = "step" if fixed is not None else "sampler"
        if fixed is not None:
            study.enqueue_trial(fixed)
        trial = study.ask(dists)
        values = {p.path: trial.params[p.path] for p in params}
        key = _key(values)
        changed, total = edit_cost(params, values)
        hit = cache.get(key)
        if hit is not None:  # the same candidate again: its stored result, no new games
            for step, v in sorted(hit["iv"].items()):
                trial.report(v, step)
            for a, v in hit["attrs"].items():
                trial.set_user_attr(a, v)
            trial.set_user_attr("repeat", True)
            trial.set_user_attr("source", source)
            if hit["state"] == optuna.trial.TrialState.PRUNED:
                study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            else:
                study.tell(trial, hit["value"])
            if on_trial:
                on_trial(study)
            continue
        games = {pp: None for pp in evaluator.players}
        pruned = False
        value = math.inf
        dist = math.inf
        metrics: dict[str, float] = {}
        out_of_time = False
        refused: str | None = None
        for step, n in enumerate(stages):
            if stop_after is not None and trial.number >= stop_after and step == 1:
                raise KeyboardInterrupt  # a test of an interruption in the middle of a trial
            if overruns(games, n):
                out_of_time = True
                break
            dist = 0.0
            for pp in evaluator.players:
                have = 0 if games[pp] is None else games[pp].n
                try:
                    new = evaluator.play(values, pp, have, n - have, seed)
                except UserError as e:  # data the game refuses (Go Town: over 36 cards)
                    if source == "printed":
                        raise
                    refused = str(e)
                    break
                games[pp] = new if games[pp] is None else games[pp].extend(new)
                for t in targets:
                    if t.name == "effects":
                        continue  # measured in the final check only (docs/tune.md)
                    est = measure(games[pp], t.name)[0]
                    metrics[f"{t.name}@{pp}"] = est
                    dist += shortfall(est, t.aim(pp), TARGETS[t.name][0])
            if refused is not None:  # not a candidate: pruned before its first result
                pruned, dist = True, math.inf
                break
            value = objective_value(dist, changed, total, max_total)
            trial.report(value, step)
            # the printed data is never pruned: it is the baseline of the race
            if step < len(stages) - 1 and source != "printed" and trial.should_prune():
                pruned = True
                break
        if out_of_time:  # cut by the budget: not a result (a resume plays it again)
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
            break
        trial.set_user_attr("distance", dist)
        trial.set_user_attr("changed", changed)
        trial.set_user_attr("total", total)
        trial.set_user_attr("games", int(n))
        trial.set_user_attr("metrics", metrics)
        trial.set_user_attr("source", source)
        if refused is not None:
            trial.set_user_attr("refused", refused)
        state = optuna.trial.TrialState.PRUNED if pruned else optuna.trial.TrialState.COMPLETE
        if pruned:
            study.tell(trial, state=state)
        else:
            study.tell(trial, value)
        cache[key] = {"state": state, "iv": dict(trial_iv(study, trial.number)),
                      "value": None if pruned else value,
                      "attrs": study.trials[trial.number].user_attrs}
        if on_trial:
            on_trial(study)
    return study


def trial_iv(study, number: int) -> dict[int, float]:
    return study.trials[number].intermediate_values


def best_trials(study, params: list[Param], k: int) -> list[dict[str, Any]]:
    """The ``k`` best complete trials with distinct candidates: [{number, value, values,
    distance, changed, total}], best first (ties by trial number)."""
    optuna = _optuna()
    seen, out = set(), []
    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    for t in sorted(done, key=lambda t: (t.value, t.number)):
        values = {p.path: t.params[p.path] for p in params}
        key = _key(values)
        if key in seen:
            continue
        seen.add(key)
        out.append({"number": t.number, "value": t.value, "values": values,
                    "distance": t.user_attrs.get("distance"),
                    "changed": t.user_attrs.get("changed"), "total": t.user_attrs.get("total")})
        if len(out) >= k:
            break
    return out
