"""The soak (``boardsim soak GAME -n N``): games played by the scripted bots with the game's
invariants (the compiled ``invariants`` kernel, the one definition behind
``Game.check_invariants``) checked after the set-up and after every decision, in the compiled
loop ``soak_chunk`` of the game's bot package, reached through the registry's pairing
(``game.bots.soak_chunk`` and its codes ``game.bots.SOAK_CODES``, as the runner reaches
``game.bots.run_games``): the rules under ``sim/`` import no bots. Little Town, Province and
Suburbia play it on their batch loop's kernels (``strategies/<game>/batch.py``: the derived
arrays kept, no per-call allocation), Go Town and the Wolves in the generic loop over the
kernel contract (``strategies/soak.py``); every loop checks the same things and returns the
same counts.

Game ``i`` is exactly the game ``boardsim replay GAME -p P -s BOTS --seed SEED --index i``
replays (chance from ``seed_for(seed, i, 0)``, bots from ``seed_for(seed, i, 1)``, fixed
seating), so every violation is reported with the command that replays it. Without
``players``, game ``i`` has ``min + i mod (max - min + 1)`` players (with more than one
strategy named, as many players as names); without ``strategies``, seat ``k`` of game ``i``
plays bot ``(i + k) mod m`` of the game's ``m`` bots (``Game.pool_strategies``).
``play_checked`` plays one game the same way through the Python interface.
"""

from __future__ import annotations

import os
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sim.core.errors import UserError
from sim.core.integrity import MAX_GAMES, check_int, check_jobs, check_seed
from sim.core.rng import seed_for_py
from sim.core.seating import seat_matrix
from sim.registry import get_game


@dataclass
class SoakResult:
    """``games`` and ``decisions`` played, ``seconds`` taken, and each violation as
    ``(game index, message, replay command)``."""

    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    violations: list[tuple[int, str, str]] = field(default_factory=list)


def _replay_cmd(gid: str, p: int, names: list[str], seed: int, i: int,
                options: dict[str, Any]) -> str:
    opts = " ".join(f"-o {shlex.quote(f'{k}={v}')}" for k, v in options.items())
    return (f"boardsim replay {gid} -p {p} -s {shlex.quote(','.join(names))} --seed {seed} "
            f"--index {i}" + (f" {opts}" if opts else ""))


def play_checked(game, players: int, names: list[str], seed: int, i: int,
                 options: dict[str, Any]) -> tuple[int, str | None]:
    """Play game ``i`` (as ``boardsim replay`` does) with the invariants after every decision;
    return (decisions, None) or (decisions so far, the violation)."""
    seats = seat_matrix("fixed", seed, i, 1, players, len(names))[0]
    seat_names = [names[k] for k in seats]
    s = game.new_state(players, seed_for_py(seed, i, 0), options)
    rng = game.bot_rng(seed_for_py(seed, i, 1))
    codes, params = game.bots.params_matrix(seat_names)
    limit = game.max_game_length(options)
    steps = 0
    try:
        game.check_invariants(s)
        while not game.is_terminal(s):
            legal = game.legal_actions(s)
            if len(legal) == 0:
                return steps, "no legal action in a running game"
            p = game.current_player(s)
            a = int(game.bots.choose(codes[p], params, p, s, legal, len(legal), rng))
            s = game.apply_action(s, a)  # UserError if the bot chose an illegal action
            steps += 1
            game.check_invariants(s)
            if steps > limit:
                return steps, f"no end within max_game_length {limit}"
    except AssertionError as e:
        return steps, f"invariant broken after decision {steps}: {e}"
    except Exception as e:  # noqa: BLE001 - any failure of a game is a soak finding
        return steps, f"{type(e).__name__} after decision {steps}: {e}"
    return steps, None


CHUNK = 20_000  # games per compiled call (the progress and the parallel unit)


def _names(pool: list[str], strategies: list[str] | None, p: int, i: int) -> list[str]:
    if strategies:
        return list(strategies)
    return [pool[(i + k) % len(pool)] for k in range(p)]


def _run_chunk(game_id: str, resolved: dict[str, Any], seed: int, players: int | None,
               strategies: list[str] | None, first: int, n: int,
               max_bad: int) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Games ``first .. first + n - 1`` in the compiled loop: (games, decisions, violations as
    (game index, code, decisions before it)). Runs in a joblib worker too."""
    import numpy as np

    game = get_game(game_id)
    lo, hi = game.min_players, game.max_players
    pool = game.pool_strategies
    rows = np.zeros(4 if hi <= 4 else hi, np.int64)
    if strategies:
        codes, params = game.bots.params_matrix(list(strategies))
        seats = seat_matrix("fixed", seed, first, 1, players or lo, len(strategies))[0] \
            if len(strategies) > 1 else np.zeros(hi, np.int64)
        rows[:len(seats)] = seats
        m_rot = 0
    else:
        codes, params = game.bots.params_matrix(pool)
        m_rot = len(pool)
    s = game._alloc(resolved)
    s0 = game._alloc(resolved)
    bad = [np.zeros(max_bad, np.int64) for _ in range(3)]
    legal = np.empty(game.num_actions, np.int32)
    out = game.bots.soak_chunk(s, s0, first, n, np.uint64(seed), players or 0, lo, hi - lo + 1,
                               rows, m_rot, np.asarray(codes, np.int64),
                               np.asarray(params, np.float64), game.max_game_length(resolved),
                               max_bad, bad[0], bad[1], bad[2], legal)
    k = int(out[2])
    return int(out[0]), int(out[1]), [(int(bad[0][j]), int(bad[1][j]), int(bad[2][j]))
                                      for j in range(k)]


def _message(game, code: int, step: int) -> str:
    if code < 0:
        return f"{game.bots.SOAK_CODES.get(code, 'unknown failure')} (after decision {step})"
    msgs = game.invariant_messages
    msg = msgs[code - 1] if 0 < code <= len(msgs) else "unknown violation"
    return f"invariant broken after decision {step}: {msg} (invariant code {code})"


def soak(game_id: str, n_games: int, players: int | None = None,
         strategies: list[str] | None = None, seed: int = 0,
         options: dict[str, Any] | None = None, first: int = 0,
         progress: Callable[[int, int, int], None] | None = None,
         max_violations: int = 20, jobs: int = 1, chunk: int = CHUNK) -> SoakResult:
    """Play games ``first .. first + n_games - 1`` with the invariants checked after every
    decision, in the compiled loop (module docstring), ``chunk`` games per call, over ``jobs``
    joblib processes (1: in this process; -1: every core). ``progress(done, total,
    violations)`` is called once the inputs are checked and after every chunk. Stops early
    after ``max_violations``. Raises UserError on bad input (a count, seed, player count,
    strategy or option out of range)."""
    game = get_game(game_id)
    n_games = check_int("-n (games)", n_games, 1, MAX_GAMES)
    first = check_int("--first", first, 0, MAX_GAMES - 1)
    if first + n_games > MAX_GAMES:
        raise UserError(f"--first + -n must be at most {MAX_GAMES:,} (the game indexes "
                        f"`boardsim replay --index` takes), got {first + n_games:,}")
    jobs = check_jobs(jobs)
    if jobs == -1:
        jobs = os.cpu_count() or 1
    chunk = check_int("chunk", chunk, 1, 10**7)
    max_violations = check_int("max_violations", max_violations, 1, 10**6)
    seed = check_seed(seed)
    resolved = game.resolve_options(options)
    nd = game.options.non_default(resolved)
    if players is not None:
        players = game.check_players(players)
    for s in strategies or []:
        game.strategy(s)
    if strategies and len(strategies) > 1:
        if players is None:
            players = game.check_players(len(strategies))
        if len(strategies) != players:
            raise UserError(f"give one strategy for every seat or one per seat ({players}); "
                            f"got {len(strategies)}")
    pool = game.pool_strategies
    lo, hi = game.min_players, game.max_players
    res = SoakResult()
    t0 = time.perf_counter()
    spans = [(a, min(chunk, first + n_games - a)) for a in range(first, first + n_games, chunk)]
    args = (game.id, resolved, seed, players, list(strategies) if strategies else None)
    if progress:
        progress(0, n_games, 0)  # every input is valid: the caller may show its bar now
    if jobs == 1:
        results = (_run_chunk(*args, a, n, max_violations) for a, n in spans)
    else:
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=jobs, return_as="generator")(
            delayed(_run_chunk)(*args, a, n, max_violations) for a, n in spans)
    for games, decisions, bad in results:
        res.games += games
        res.decisions += decisions
        for i, code, step in bad:
            p = players if players is not None else lo + i % (hi - lo + 1)
            names = _names(pool, strategies, p, i)
            res.violations.append((i, _message(game, code, step),
                                   _replay_cmd(game.id, p, names, seed, i, nd)))
        if progress:
            progress(res.games, n_games, len(res.violations))
        if len(res.violations) >= max_violations:
            del res.violations[max_violations:]
            break
    res.seconds = time.perf_counter() - t0
    return res


def soak_python(game_id: str, n_games: int, players: int | None = None,
                strategies: list[str] | None = None, seed: int = 0,
                options: dict[str, Any] | None = None, first: int = 0,
                max_violations: int = 20) -> SoakResult:
    """The same games as ``soak`` played through the Python interface (``play_checked``): the
    check that the compiled loop plays exactly the games ``boardsim replay`` replays (8 to 38
    games/s; tests only)."""
    game = get_game(game_id)
    resolved = game.resolve_options(options)
    nd = game.options.non_default(resolved)
    if strategies and len(strategies) > 1 and players is None:
        players = len(strategies)
    pool = game.pool_strategies
    lo, hi = game.min_players, game.max_players
    res = SoakResult()
    t0 = time.perf_counter()
    for i in range(first, first + n_games):
        p = players if players is not None else lo + i % (hi - lo + 1)
        names = _names(pool, strategies, p, i)
        steps, err = play_checked(game, p, names, seed, i, resolved)
        res.games += 1
        res.decisions += steps
        if err:
            res.violations.append((i, err, _replay_cmd(game.id, p, names, seed, i, nd)))
            if len(res.violations) >= max_violations:
                break
    res.seconds = time.perf_counter() - t0
    return res
