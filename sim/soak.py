"""The soak (``boardsim soak GAME -n N``): games played through the public interface with the
game's invariants (``Game.check_invariants``) checked after every decision.

Game ``i`` is exactly the game ``boardsim replay GAME -p P -s BOTS --seed SEED --index i``
replays (chance from ``seed_for(seed, i, 0)``, bots from ``seed_for(seed, i, 1)``, fixed
seating), so every violation is reported with the command that replays it. Without
``players``, game ``i`` has ``min + i mod (max - min + 1)`` players; without ``strategies``,
seat ``k`` of game ``i`` plays bot ``(i + k) mod m`` of the game's ``m`` bots.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sim.core.errors import UserError
from sim.core.integrity import MAX_GAMES, check_int, check_seed
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


def soak(game_id: str, n_games: int, players: int | None = None,
         strategies: list[str] | None = None, seed: int = 0,
         options: dict[str, Any] | None = None, first: int = 0,
         progress: Callable[[int, int, int], None] | None = None,
         max_violations: int = 20) -> SoakResult:
    """Play games ``first .. first + n_games - 1`` with the invariants checked after every
    decision (module docstring). ``progress(done, total, violations)`` is called now and
    then. Stops early after ``max_violations``. Raises UserError on bad input."""
    game = get_game(game_id)
    n_games = check_int("-n (games)", n_games, 1, MAX_GAMES)
    first = check_int("--first", first, 0, MAX_GAMES)
    seed = check_seed(seed)
    resolved = game.resolve_options(options)
    nd = game.options.non_default(resolved)
    if players is not None:
        game.check_players(players)
    for s in strategies or []:
        game.strategy(s)
    pool = game.pool_strategies
    lo, hi = game.min_players, game.max_players
    res = SoakResult()
    t0 = time.perf_counter()
    last = t0
    for i in range(first, first + n_games):
        p = players if players is not None else lo + i % (hi - lo + 1)
        if strategies:
            names = list(strategies)
            if len(names) not in (1, p):
                raise UserError(f"give one strategy for every seat or one per seat ({p})")
        else:
            names = [pool[(i + k) % len(pool)] for k in range(p)]
        steps, err = play_checked(game, p, names, seed, i, resolved)
        res.games += 1
        res.decisions += steps
        if err:
            res.violations.append((i, err, _replay_cmd(game.id, p, names, seed, i, nd)))
            if len(res.violations) >= max_violations:
                break
        now = time.perf_counter()
        if progress and now - last > 1.0:
            progress(res.games, n_games, len(res.violations))
            last = now
    res.seconds = time.perf_counter() - t0
    if progress:
        progress(res.games, n_games, len(res.violations))
    return res
