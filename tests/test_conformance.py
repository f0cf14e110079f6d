"""One generic conformance test for every registered game x player count x rule option value.

Random play to the end: legal actions non-empty until terminal and valid ids; the game's own
conservation laws after every decision; length within the declared maximum; JSON round trip of
the state dict; the same seed gives the same game.
"""

import json
import random

import numpy as np
import pytest

import sim

CASES = []
for gid in sim.list_games():
    g = sim.get_game(gid)
    for n in range(g.min_players, g.max_players + 1):
        CASES.append((gid, n, {}))
        for name, values in g.conformance_values().items():
            for v in values:
                CASES.append((gid, n, {name: v}))


def _play(game, n, options, seed, check_every=1):
    st = game.new_state(n, seed, options)
    rnd = random.Random(seed)
    trace = []
    limit = game.max_game_length(options)
    steps = 0
    while not game.is_terminal(st):
        legal = game.legal_actions(st)
        assert legal.dtype == np.int32 and len(legal) > 0
        assert ((legal >= 0) & (legal < game.num_actions)).all()
        assert (np.diff(legal) > 0).all()
        a = int(legal[rnd.randrange(len(legal))])
        assert game.action_to_string(st, a)
        st = game.apply_action(st, a)
        trace.append(a)
        steps += 1
        assert steps <= limit
        if steps % check_every == 0:
            game.check_invariants(st)
            d = game.state_to_dict(st)
            assert game.state_to_dict(game.state_from_dict(json.loads(json.dumps(d)))) == d
    game.check_invariants(st)
    assert len(game.legal_actions(st)) == 0
    assert len(game.scores(st)) == n
    assert game.state_to_string(st)
    return trace, game.state_to_dict(st)


@pytest.mark.parametrize("gid,n,options", CASES,
                         ids=[f"{g}-{n}p-{','.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
                              for g, n, o in CASES])
def test_conformance(gid, n, options):
    game = sim.get_game(gid)
    for seed in range(3):
        first = _play(game, n, options, seed, check_every=7)
        if seed == 0:
            assert _play(game, n, options, seed, check_every=10**9) == first
