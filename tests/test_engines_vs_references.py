"""Each engine against its plain-Python reference (``tests/reference/<package>.py``, written
from the game's contract in docs/games/ without reading the engine), decision by decision: the
same legal action list and the same state dict after every action, from the same seed.

The games come from the registry and the references from the naming convention (the module's
``REFERENCE`` class and ``REFERENCE_GAMES``), so a new game is covered without editing this
file. Cases: ``REFERENCE_GAMES`` games at the default options, spread over the player counts,
and every rule option value (``Game.conformance_values``) on 4 games each.
"""

import importlib
import random

import pytest

import sim
from tests.reference.go_town import seed_for

PER_OPTION_VALUE = 4


def _cases():
    out = []
    for gid in sim.list_games():
        game = sim.get_game(gid)
        pkg = type(game).__module__.split(".")[1]
        counts = list(range(game.min_players, game.max_players + 1))
        out.append(pytest.param(gid, pkg, {}, counts, None, id=f"{gid}-default"))
        for name, values in game.conformance_values().items():
            for v in values:
                out.append(pytest.param(gid, pkg, {name: v}, counts, PER_OPTION_VALUE,
                                        id=f"{gid}-{name}={v}"))
    return out


@pytest.mark.parametrize("gid,pkg,options,counts,n_games", _cases())
def test_engine_matches_reference(gid, pkg, options, counts, n_games):
    game = sim.get_game(gid)
    try:
        mod = importlib.import_module(f"tests.reference.{pkg}")
    except ModuleNotFoundError:
        pytest.fail(f"tests/reference/{pkg}.py is missing")
    ref_cls = mod.REFERENCE
    n_games = n_games or mod.REFERENCE_GAMES
    decisions = 0
    for i in range(n_games):
        players = counts[i % len(counts)]
        seed = seed_for(4242, i + 1000 * players + 7919 * len(options))
        ref = ref_cls(players, seed, options)
        st = game.new_state(players, seed, options)
        assert game.state_to_dict(st) == ref.to_dict(), (gid, i, "setup")
        rnd = random.Random(i)
        while not ref.is_terminal():
            legal = ref.legal_actions()
            assert game.legal_actions(st).tolist() == legal, (gid, i, decisions)
            a = rnd.choice(legal)
            ref.apply(a)
            st = game.apply_action(st, a)
            assert game.state_to_dict(st) == ref.to_dict(), (gid, i, decisions, a)
            decisions += 1
        assert game.is_terminal(st)
        assert game.legal_actions(st).tolist() == []
        assert game.scores(st).tolist() == list(ref.scores())
    assert decisions > n_games * 5
