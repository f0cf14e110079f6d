"""Each engine against its plain-Python reference (tests/reference/<game>.py, written from the
game's contract in docs/games/ without reading the engine), decision by decision: the same
legal action list and the same state dict after every action, from the same seed.

Go Town has its own, longer version in tests/test_go_town_vs_reference.py.
"""

import importlib
import random

import pytest

import sim
from tests.reference.go_town import seed_for

# game id -> (reference module, class, list of (players, options) cases, games per case)
CASES = {
    "little-town": ("little_town", "LittleTownRef", [
        (n, {"market": m, "board_side": side})
        for n in (2, 3, 4) for m in ("random", "beginner", "draft", "one-of-two")
        for side in ("A", "B")
    ], 42),  # 24 cases x 42 = 1,008 games
    "three-little-wolves": ("three_little_wolves", "ThreeLittleWolvesRef",
                            [(n, {}) for n in (2, 3, 4)], 334),
    "province": ("province", "ProvinceRef", [(2, {})], 1000),
    "suburbia": ("suburbia", "SuburbiaRef", [(n, {}) for n in (1, 2, 3, 4)], 50),
}

PARAMS = []
for gid, (mod, cls, cases, n_games) in CASES.items():
    for players, options in cases:
        PARAMS.append(pytest.param(gid, mod, cls, players, options, n_games,
                                   id=f"{gid}-{players}p-" + (
                                       ",".join(f"{k}={v}" for k, v in options.items())
                                       or "default")))


@pytest.mark.parametrize("gid,mod,cls,players,options,n_games", PARAMS)
def test_engine_matches_reference(gid, mod, cls, players, options, n_games):
    if gid not in sim.list_games():
        pytest.fail(f"{gid} is not registered")
    game = sim.get_game(gid)
    try:
        ref_cls = getattr(importlib.import_module(f"tests.reference.{mod}"), cls)
    except ModuleNotFoundError:
        pytest.fail(f"tests/reference/{mod}.py is missing")
    # the option values the engine rejects must be rejected by this test too
    game.resolve_options(options)
    decisions = 0
    for i in range(n_games):
        seed = seed_for(4242, i + 1000 * players)
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
        assert game.scores(st).tolist() == list(ref.scores())
    assert decisions > n_games * 5
