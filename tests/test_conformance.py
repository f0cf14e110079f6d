"""The cross-game checks, once, over every game the registry holds (docs/house-pattern.md).

A game registered in the registry is covered by every test here without editing this file:
- random play to the end for every game x player count x rule option value: legal actions
  non-empty, ascending and in range until the end; the game's own conservation laws; length
  within the declared maximum; JSON round trip of the state dict; the same seed gives the same
  game; the old state unchanged after ``apply_action``; no legal action once the game is over;
- the template methods' errors: an illegal, out-of-range or non-integer action, a finished game;
- the kernel contract: every entry point registered for the game's state class;
- every named bot returns a legal action in every state it meets, and leaves the state as it
  was (the search bot with 4 playouts per decision);
- the batch loop (``run_chunk``) plays exactly the games that the public interface plays, and
  so does the generic compiled playout (strategies/common.py, over the kernel contract);
- derived arrays kept beside the state equal a fresh derivation after every action (for each
  game that keeps them);
- rule options' slots: the encoded option array has one slot per option, in the list's order.
The engine against its plain-Python reference is in tests/test_engines_vs_references.py.
"""

import importlib
import json
import random

import numpy as np
import pytest

import sim
from sim.core import contract
from sim.core.errors import UserError
from sim.core.rng import action_hash_py, seed_for_py
from strategies import common

GAMES = sim.list_games()


@pytest.fixture(autouse=True)
def _tiny_search_budget(monkeypatch):
    """The search bot plays with 4 playouts per decision here (legality, determinism and the
    batch loop do not depend on its budget; the default budget would make each game minutes)."""
    from tests.budget import small_search_budget

    for gid in GAMES:
        small_search_budget(monkeypatch, sim.get_game(gid), 4)
CASES = []
for gid in GAMES:
    g = sim.get_game(gid)
    for n in range(g.min_players, g.max_players + 1):
        CASES.append((gid, n, {}))
        for name, values in g.conformance_values().items():
            for v in values:
                CASES.append((gid, n, {name: v}))


def _ids(cases):
    return [f"{g}-{n}p-{','.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
            for g, n, o in cases]


def _arrays_equal(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


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
        assert 0 <= game.current_player(st) < n
        a = int(legal[rnd.randrange(len(legal))])
        assert game.action_to_string(st, a)
        before = game.copy_state(st)
        nxt = game.apply_action(st, a)
        assert _arrays_equal(before, st), "apply_action changed the state it was given"
        st = nxt
        trace.append(a)
        steps += 1
        assert steps <= limit
        if steps % check_every == 0:
            game.check_invariants(st)
            d = game.state_to_dict(st)
            assert game.state_to_dict(game.state_from_dict(json.loads(json.dumps(d)))) == d
    game.check_invariants(st)
    assert len(game.legal_actions(st)) == 0
    assert game.current_player(st) == -1
    assert len(game.scores(st)) == n
    shares = game.win_shares(st)
    assert len(shares) == n and (shares >= 0).all() and shares.sum() <= 1 + 1e-9
    assert game.winners(st) == [p for p in range(n) if shares[p] > 0]
    assert game.state_to_string(st)
    return trace, game.state_to_dict(st)


@pytest.mark.parametrize("gid,n,options", CASES, ids=_ids(CASES))
def test_random_play(gid, n, options):
    game = sim.get_game(gid)
    for seed in range(3):
        first = _play(game, n, options, seed, check_every=7)
        if seed == 0:
            assert _play(game, n, options, seed, check_every=10**9) == first


@pytest.mark.parametrize("gid", GAMES)
def test_interface_errors(gid):
    game = sim.get_game(gid)
    st = game.new_state(game.min_players, 1)
    legal = set(game.legal_actions(st).tolist())
    illegal = next(a for a in range(game.num_actions) if a not in legal) \
        if len(legal) < game.num_actions else None
    for bad in ([illegal] if illegal is not None else []) + [-1, game.num_actions, 2**70, "1",
                                                             1.0, True, None]:
        with pytest.raises(UserError, match="not legal here; legal: "):
            game.apply_action(st, bad)
    with pytest.raises(UserError):
        game.new_state(game.max_players + 1, 1)
    with pytest.raises(UserError):
        game.new_state(game.min_players, 1, {"no_such_option": 1})
    with pytest.raises(UserError):
        game.choose_action(st, "no-such-bot", game.bot_rng(1))
    rnd = random.Random(0)
    while not game.is_terminal(st):
        legal = game.legal_actions(st)
        st = game.apply_action(st, int(legal[rnd.randrange(len(legal))]))
    with pytest.raises(UserError, match="game is over"):
        game.choose_action(st, "random", game.bot_rng(1))
    with pytest.raises(UserError, match="legal: none"):
        game.apply_action(st, 0)


@pytest.mark.parametrize("gid", GAMES)
def test_kernel_contract_complete(gid):
    game = sim.get_game(gid)
    st = game.new_state(game.min_players, 3)
    assert set(contract.registered(type(st))) >= set(contract.HOOKS) - {"copy_into",
                                                                          "chance_rng"}
    assert game.seat_detail and len(set(game.seat_detail)) == len(game.seat_detail)
    assert game.version and isinstance(game.version, str)


@pytest.mark.parametrize("gid", GAMES)
def test_option_slots_follow_the_option_list(gid):
    """The encoded options have one slot per option in the list's order, and the kernels'
    ``O_*`` slot constants (derived by name) are exactly those slots, each once."""
    game = sim.get_game(gid)
    resolved = game.resolve_options({})
    enc = game.options.encode(resolved)
    assert len(enc) == len(game.options.options)
    assert game.options.decode(enc) == resolved
    consts = importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".constants")
    slots = sorted(getattr(consts, n) for n in dir(consts) if n.startswith("O_"))
    assert slots == list(range(len(game.options.options)))
    assert consts.N_OPTS == len(game.options.options)


BOT_CASES = [(gid, n, name) for gid in GAMES
             for n in range(sim.get_game(gid).min_players, sim.get_game(gid).max_players + 1)
             for name in sim.get_game(gid).strategies]


@pytest.mark.parametrize("gid,n,name", BOT_CASES, ids=[f"{g}-{n}p-{b}" for g, n, b in BOT_CASES])
def test_every_bot_plays_legal_actions(gid, n, name):
    """choose_action raises RuntimeError if a bot returns an illegal action. Two games per
    bot and player count, each checked for its first 1,500 decisions (a random Province game
    runs to tens of thousands through the Python interface)."""
    game = sim.get_game(gid)
    for seed in range(2):
        st = game.new_state(n, seed)
        rng = game.bot_rng(seed)
        steps = 0
        while not game.is_terminal(st) and steps < 1500:
            steps += 1
            before = game.copy_state(st)
            a = game.choose_action(st, name, rng)
            assert _arrays_equal(before, st), "choose_action changed the state"
            st = game.apply_action(st, a)


def _batch_cases():
    out = []
    for gid in GAMES:
        g = sim.get_game(gid)
        for n in range(g.min_players, g.max_players + 1):
            out.append((gid, n, {}, 3))
        k = 0
        for name, values in g.conformance_values().items():
            for v in values:
                out.append((gid, g.min_players + k % (g.max_players - g.min_players + 1),
                            {name: v}, 1))
                k += 1
    return out


BATCH = _batch_cases()


@pytest.mark.parametrize("gid,n,options,n_games", BATCH,
                         ids=_ids([(g, n, o) for g, n, o, _ in BATCH]))
def test_batch_loop_plays_the_interface_games(gid, n, options, n_games):
    """Game i of run_chunk equals the same game replayed alone through new_state,
    choose_action and apply_action (chance seed_for(run, i, 0), bots seed_for(run, i, 1)),
    and through the generic compiled playout over the kernel contract; its action hash is the
    hash of the replayed action sequence (sim.core.rng.action_hash_py)."""
    game = sim.get_game(gid)
    names = list(game.strategies)
    run, first = 77, 5
    seats = np.array([[(i + p) % len(names) for p in range(n)] for i in range(n_games)],
                     np.int64)
    res = game.run_chunk(first, n_games, run, n, seats, game.resolve_options(options), names)
    codes, params = game.bots.params_matrix(names)
    assert res.action_hash.dtype == np.uint64 and res.action_hash.shape == (n_games,)
    for i in range(n_games):
        st = game.new_state(n, seed_for_py(run, first + i, 0), options)
        gen = game.new_state(n, seed_for_py(run, first + i, 0), options)
        rng = game.bot_rng(seed_for_py(run, first + i, 1))
        actions = []
        while not game.is_terminal(st):
            name = names[seats[i, game.current_player(st)]]
            actions.append(game.choose_action(st, name, rng))
            st = game.apply_action(st, actions[-1])
        assert len(actions) == res.decisions[i]
        assert action_hash_py(actions) == int(res.action_hash[i])
        assert game.scores(st).tolist() == res.score[i].tolist()
        assert np.allclose(game.win_shares(st), res.win_share[i])
        assert game.ranks(st).tolist() == res.rank[i].tolist()
        legal = np.empty(game.num_actions, np.int32)
        grng = game.bot_rng(seed_for_py(run, first + i, 1))
        d = common.play_out(gen, codes, params, seats[i], legal, grng,
                            game.max_game_length(options))
        assert d == res.decisions[i]
        assert game.state_to_dict(gen) == game.state_to_dict(st)


DERIVED = [gid for gid in GAMES if sim.get_game(gid).keeps_derived]


@pytest.mark.parametrize("gid", DERIVED)
def test_derived_arrays_equal_a_fresh_derivation(gid):
    game = sim.get_game(gid)
    checked = 0
    rnd = random.Random(1)
    for n in range(game.min_players, game.max_players + 1):
        for options in [{}] + [{k: v[0]} for k, v in game.conformance_values().items() if v][:6]:
            for seed in range(3):
                st = game.new_state(n, seed, options)
                while not game.is_terminal(st):
                    legal = game.legal_actions(st)
                    st, ok = game.apply_checking_derived(st, int(legal[rnd.randrange(len(legal))]))
                    assert ok, (gid, n, options, seed, checked)
                    checked += 1
    assert checked > 500
