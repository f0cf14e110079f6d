"""Replay one game decision by decision, as readable text (``boardsim replay``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sim.core.errors import UserError
from sim.core.integrity import MAX_GAMES, check_seed
from sim.core.rng import seed_for
from sim.core.seating import seat_matrix
from sim.registry import get_game, list_games


def replay_lines(target: str, index: int = 0, players: int = 2,
                 strategies: list[str] | None = None, seed: int = 0,
                 options: dict[str, Any] | None = None, show_states: bool = True
                 ) -> Iterator[str]:
    """Lines of the replay of game ``index``: of the results folder ``target``, or of a run of
    game id ``target`` with the given players/strategies/seed/options (seating fixed).

    Game i is replayed exactly as the runner played it: chance from seed_for(seed, i, 0), bots
    from seed_for(seed, i, 1), seats as the run's seating assigned them.
    Raises UserError for an unknown game/folder or an index outside the run.
    """
    if Path(target).is_dir():
        from sim.runner import load_manifest

        m = load_manifest(target)  # checked: shape, values, engine version
        game = get_game(m["game"], m.get("overrides") or None)
        players, strategies, seed = m["players"], m["strategies"], m["seed"]
        options, seating = m["options"], m["seating"]
        if not 0 <= index < m["n_games"]:
            raise UserError(f"--index must be 0..{m['n_games'] - 1} for {target}")
        from sim.verify import verify_chunk_of

        verify_chunk_of(target, m, index)  # the game's chunk: present, whole, this run's
    elif target in list_games():
        game = get_game(target)
        strategies = strategies or ["random"]
        for s in strategies:
            game.strategy(s)
        seating = "fixed"
        if not 0 <= index < MAX_GAMES:
            raise UserError(f"--index must be 0..{MAX_GAMES - 1:,}, got {index}")
        check_seed(seed)
        game.check_players(players)
    else:
        raise UserError(f"{target!r} is neither a results folder nor a game id; "
                        f"game ids: {', '.join(list_games())}")
    seats = seat_matrix(seating, seed, index, 1, players, len(strategies))[0]
    names = [strategies[k] for k in seats]
    options = game.resolve_options(options)
    state = game.new_state(players, int(seed_for(seed % 2**64, index, 0)), options)
    rng = game.bot_rng(int(seed_for(seed % 2**64, index, 1)))
    yield f"{game.title}: game {index} of run seed {seed}; seats: " + ", ".join(
        f"P{p}={n}" for p, n in enumerate(names))
    nd = game.options.non_default(options)
    if nd:
        yield "options: " + ", ".join(f"{k}={v}" for k, v in nd.items())
    if game.overrides:
        yield "component data overrides: " + ", ".join(
            f"{k}={v}" for k, v in game.overrides.items())
    if show_states:
        yield game.state_to_string(state)
    step = 0
    while not game.is_terminal(state):
        p = game.current_player(state)
        a = game.choose_action(state, names[p], rng)
        step += 1
        yield f"#{step} P{p} ({names[p]}): {game.action_to_string(state, a)}"
        state = game.apply_action(state, a)
        if show_states:
            yield game.state_to_string(state)
    yield (f"result: scores {game.scores(state).tolist()}, winners "
           f"{[f'P{w}' for w in game.winners(state)] or 'none'}")
