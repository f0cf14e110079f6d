"""The engine against tests/reference/go_town.py, decision by decision (same legal actions,
same state dict after every action), on seeded random games and on option variants."""

import random

import numpy as np
import pytest

import sim
from tests.reference.go_town import GoTownRef

GAME = sim.get_game("go-town")


def _play_both(n_players, seed, options, bot_seed):
    ref = GoTownRef(n_players, seed, options)
    st = GAME.new_state(n_players, seed, options)
    assert GAME.state_to_dict(st) == ref.to_dict()
    rnd = random.Random(bot_seed)
    steps = 0
    while not ref.is_terminal():
        legal = ref.legal_actions()
        assert GAME.legal_actions(st).tolist() == legal, (seed, steps)
        a = rnd.choice(legal)
        ref.apply(a)
        st = GAME.apply_action(st, a)
        assert GAME.state_to_dict(st) == ref.to_dict(), (seed, steps, a)
        steps += 1
    assert GAME.is_terminal(st)
    assert GAME.legal_actions(st).tolist() == []
    assert GAME.scores(st).tolist() == ref.scores()
    return steps


def test_engine_matches_reference_on_1000_games():
    total = 0
    for i in range(1000):
        n = 2 + i % 3
        total += _play_both(n, seed=10_000 + i, options=None, bot_seed=i)
    assert total > 50_000  # the games were real games


VARIANTS = [
    {"target_floors": 4},
    {"win_check": "end_of_turn"},
    {"hand_limit_mode": "cap_gain"},
    {"hand_limit_mode": "discard_to_8"},
    {"reshuffle_timing": "eager"},
    {"qm_steal_by_qm": False},
    {"qm_steal_by_number": False},
    {"dog_placement": "top_only", "dog_moves_up": True},
    {"donut_scope": "all", "skip_stacking": "no_stack"},
    {"skip_means": "no_play_but_refill", "milk_discard": "immediate"},
    {"milk_on_self": True, "destroy_self_allowed": True, "bone_on_own": True,
     "dog_on_others": True},
    {"dogs_per_floor_max": 3, "bone_target": "top_only"},
    {"allow_dead_plays": True},
    {"max_turns": 10},
    {"first_player": "random"},
]


@pytest.mark.parametrize("options", VARIANTS, ids=[",".join(v) for v in VARIANTS])
def test_engine_matches_reference_under_options(options):
    for i in range(40):
        _play_both(2 + i % 3, seed=777 + i, options=options, bot_seed=i)


def test_batch_kernel_replays_like_the_interface():
    """run_chunk's per-game results equal a game replayed alone through the interface."""
    from sim.core.rng import seed_for_py

    names = ["greedy", "attacker", "thief-first", "random"]
    seats = np.array([[0, 1, 2, 3]] * 5, np.int64)
    res = GAME.run_chunk(100, 5, 99, 4, seats, {}, names)
    for g in range(5):
        st = GAME.new_state(4, seed_for_py(99, 100 + g, 0))
        bot_rng = np.array([seed_for_py(99, 100 + g, 1)], np.uint64)
        from strategies import go_town as bots

        codes, params = bots.params_matrix(names)
        while not GAME.is_terminal(st):
            legal = GAME.legal_actions(st)
            k = seats[g, GAME.current_player(st)]
            a = int(bots.choose(codes[k], params[k], st, legal, len(legal), bot_rng))
            st = GAME.apply_action(st, a)
        assert GAME.scores(st).tolist() == res.score[g].tolist()
        assert int(st.meta[3]) == res.turns[g]
        assert int(st.meta[4]) == res.decisions[g]
