"""Playing and measuring a candidate of ``boardsim tune`` on common random numbers: the games, the
measured quantities, the distance to the targets and the objective, and the ``Evaluator`` that
races a candidate through its stages.
(The package docstring, analysis/lab/tune/__init__.py, describes the method.)"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from analysis.lab.tune.params import Param, split_values
from sim.core.ending import finished_mask


@dataclass
class Games:
    """Per-game results of one candidate at one player count (finished and limit games):
    win_share/score ``float64[N, P]``, first_player ``int64[N]``, turns ``float64[N]``,
    finished ``bool[N]`` (ended with a result, ``sim.core.ending``), deadlock ``bool[N]``
    (Go Town's deadlocks, counted apart from the limit games; all False by default)."""

    win_share: np.ndarray
    score: np.ndarray
    first_player: np.ndarray
    turns: np.ndarray
    finished: np.ndarray
    deadlock: np.ndarray | None = None

    def __post_init__(self):
        if self.deadlock is None:
            self.deadlock = np.zeros(np.asarray(self.turns).shape[0], bool)

    def extend(self, other: Games) -> Games:
        return Games(*(np.concatenate([a, b]) for a, b in zip(self.arrays(), other.arrays())))

    def arrays(self):
        return (self.win_share, self.score, self.first_player, self.turns, self.finished,
                self.deadlock)

    @property
    def n(self) -> int:
        return int(self.turns.shape[0])


def per_game(g: Games, name: str) -> np.ndarray:
    """The per-game values whose mean is the quantity ``name`` (finished games only):
    first_seat in points, length in turns, margin in score points. Balance has none."""
    f = g.finished
    if name == "first_seat":
        return 100.0 * g.win_share[np.arange(g.n), g.first_player][f]
    if name == "length":
        return g.turns[f]
    if name == "margin":
        s = np.sort(g.score[f], axis=1)
        return s[:, -1] - s[:, -2]
    raise KeyError(name)


def balance_of(win_share: np.ndarray, first_player: np.ndarray) -> float:
    """Balance by turn order: 1 - (max - min) of the mean win share of each turn position
    (position 0 = the player who moved first), from ``win_share`` ``float64[N, P]`` and
    ``first_player`` ``int64[N]`` (the report's Balance, never by seat number)."""
    p = win_share.shape[1]
    pos = (np.arange(p)[None, :] - first_player[:, None]) % p
    r = np.array([win_share[pos == k].mean() for k in range(p)])
    return float(1.0 - (r.max() - r.min()))


def measure(g: Games, name: str, interval: bool = False, seed: int = 0
            ) -> tuple[float, float, float]:
    """(estimate, lo, hi) of quantity ``name`` over the finished games; the 95% interval
    (normal for means; a 400-resample bootstrap over games for balance) when ``interval``,
    else NaN. NaN estimate without finished games."""
    nan = float("nan")
    if name == "balance":
        ws, fp = g.win_share[g.finished], g.first_player[g.finished]
        if ws.shape[0] < 2:
            return nan, nan, nan
        est = balance_of(ws, fp)
        if not interval:
            return est, nan, nan
        rng = np.random.default_rng(seed)
        boots = []
        for _ in range(400):
            i = rng.integers(0, ws.shape[0], ws.shape[0])
            boots.append(balance_of(ws[i], fp[i]))
        lo, hi = np.percentile(boots, [2.5, 97.5])
        return est, float(lo), float(hi)
    x = per_game(g, name)
    if x.shape[0] < 2:
        return nan, nan, nan
    m = float(x.mean())
    if not interval:
        return m, nan, nan
    h = 1.959963984540054 * float(x.std(ddof=1)) / math.sqrt(x.shape[0])
    return m, m - h, m + h


def shortfall(x: float, band: tuple[float, float], unit: float) -> float:
    """How far ``x`` lies outside ``band``, in ``unit`` s (0 inside; 1000 for NaN)."""
    if x != x:
        return 1000.0
    lo, hi = band
    return max(0.0, lo - x, x - hi) / unit


def objective_value(distance: float, changed: int, total: float, max_total: float) -> float:
    """``100 * distance + changed + total / (max_total + 1)`` (see the module docstring)."""
    return 100.0 * distance + changed + total / (max_total + 1.0)


def play_part(game_id: str, data: dict[str, Any], options: dict[str, Any], seating: str,
              seed: int, players: int, strategies: list[str], first: int, count: int,
              search_budget: int | None = None) -> tuple[int, Games]:
    """One chunk task of a candidate: games ``first .. first+count-1`` of run ``seed`` with the
    component data ``data`` (overrides) and rule ``options``, seats from
    ``sim.core.seating.seat_matrix(seating, ...)``; every search bot's budget set to
    ``search_budget`` playouts per decision when given (``analysis.lab.tiers``' search tier).
    Returns ``(first, Games)``. A module-level function, so the runner's process backends
    (loky, dask) can ship it."""
    from sim.core.seating import seat_matrix
    from sim.registry import get_game

    game = get_game(game_id, data or None)
    seats = seat_matrix(seating, seed, first, count, players, len(strategies))
    if search_budget is None:
        r = game.run_chunk(first, count, seed, players, seats, options, strategies)
    else:
        from analysis.lab.tiers import _with_budget

        names = [game.strategy(s).name for s in strategies]
        codes, params = _with_budget(game, names, search_budget)
        st = game._alloc(game.resolve_options(options))
        r = game._play_chunk(st, first, count, np.uint64(int(seed) % 2**64),
                             game.check_players(players), np.ascontiguousarray(seats, np.int64),
                             codes, params)
    return first, Games(np.asarray(r.win_share, np.float64), np.asarray(r.score, np.float64),
                        np.asarray(r.first_player, np.int64), np.asarray(r.turns, np.float64),
                        finished_mask(game, np.asarray(r.end_reason)),
                        np.asarray(r.end_reason) == (game.end_reasons.index("deadlock")
                                                     if "deadlock" in game.end_reasons else -1))


class Evaluator:
    """Plays candidates on common random numbers and measures the targets.

    ``play(values, players, first, count, seed[, strategies]) -> Games``: games ``first ..
    first+count-1`` of the run seed with the candidate's data and options (default:
    ``play_part`` chunk tasks through the runner's execution layer, ``sim.runner.Executor``
    with ``backend`` (one of ``sim.runner.BACKENDS``) and ``scheduler`` (dask), the games
    split into at most ``jobs`` chunks). Game ``i`` depends only on (seed, i), never on the
    backend or the split. Replaceable for tests (a toy objective). Use as a context manager
    (``with ev:``) to keep one executor (a dask cluster) open across many plays; outside
    ``with``, each play opens its own. Raises UserError on an unknown backend.
    """

    MIN_PART = 50
    """Fewest games per chunk task of the scripted bots (a search bot's chunk: 1 game)."""

    def __init__(self, game_id: str, params: list[Param], players: list[int],
                 strategies: list[str], seating: str, base_options: dict[str, Any],
                 jobs: int = 1, play: Callable | None = None, backend: str = "threading",
                 scheduler: str | None = None, clock: Callable[[], float] = time.monotonic):
        from sim.runner import check_backend

        check_backend(backend, scheduler)
        self.clock = clock
        self.timed: dict[int, list[float]] = {}  # players -> [seconds, games] of the main mix
        self.game_id = game_id
        self.params = params
        self.players = players
        self.strategies = strategies
        self.seating = seating
        self.base_options = dict(base_options)
        self.jobs = max(1, jobs)
        self.backend, self.scheduler = backend, scheduler
        self.custom_play = play is not None
        self._play = play or self._run_chunks
        self._executor = None
        self.games_played = 0

    def __enter__(self) -> Evaluator:
        from sim.runner import Executor

        if not self.custom_play:
            self._executor = Executor(self.jobs, self.backend, self.scheduler).__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._executor is not None:
            ex, self._executor = self._executor, None
            ex.__exit__(*exc)

    def _run_chunks(self, values: dict[str, Any], players: int, first: int, count: int,
                    seed: int, strategies: list[str] | None = None,
                    seating: str | None = None, search_budget: int | None = None) -> Games:
        from sim.runner import map_tasks

        strategies = strategies or self.strategies
        data, opts = split_values(self.params, values)
        options = {**self.base_options, **opts}
        min_part = 1 if search_budget is not None else self.MIN_PART
        k = min(self.jobs, max(1, count // min_part))
        bounds = np.linspace(first, first + count, k + 1).astype(int)
        tasks = [(self.game_id, data, options, seating or self.seating, seed, players,
                  list(strategies), int(a), int(b - a), search_budget)
                 for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
        if self._executor is not None:
            got = list(self._executor.map(play_part, tasks))
        else:
            got = list(map_tasks(play_part, tasks, self.jobs, self.backend, self.scheduler))
        parts = [g for _, g in sorted(got, key=lambda x: x[0])]
        out = parts[0]
        for p in parts[1:]:
            out = out.extend(p)
        return out

    def seconds_per_game(self, players: int) -> float | None:
        """Wall seconds per game of the main mix at ``players`` players, over every game
        played so far (``clock``); None before the first."""
        s, n = self.timed.get(players, (0.0, 0.0))
        return s / n if n else None

    def play(self, values, players, first, count, seed, strategies=None, seating=None,
             search_budget=None) -> Games:
        """Games ``first .. first+count-1`` of ``seed`` for the candidate ``values`` (see the
        class docstring); ``strategies``/``seating``: another bot mix (the re-check);
        ``search_budget``: the search bot's playouts per decision."""
        self.games_played += count
        if strategies is None and seating is None and search_budget is None:
            t0 = self.clock()
            out = self._play(values, players, first, count, seed)
            acc = self.timed.setdefault(players, [0.0, 0.0])
            acc[0] += self.clock() - t0
            acc[1] += count
            return out
        if self.custom_play:
            return self._play(values, players, first, count, seed, strategies)
        return self._play(values, players, first, count, seed, strategies, seating,
                          search_budget)
