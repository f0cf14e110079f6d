"""The search bot (strategies/search.py, issue 14): its registration in every game whose
determinize is registered, its parameter rows, and its information sets.

The information-set test: for the seat to act in positions reached by random play, a state
``B`` that differs from ``A`` only in what that seat cannot see (``B = determinize(A, seat,
other seed)``, and the game's direct swap of a hidden item, tests/games/<package>.py) gives
exactly the same search decision from the same bot generator, and the generators end equal.
Registry-driven: a game joins as soon as its determinize is registered.
"""

import dataclasses
import random

import pytest

import sim
from sim.core import contract
from strategies import search
from tests import games as H

GAMES = sim.list_games()


def _state_cls(game):
    return type(game.new_state(game.min_players, 1))


SEARCHABLE = [gid for gid in GAMES if search.available(_state_cls(sim.get_game(gid)))]


def test_search_bot_listed_exactly_where_determinize_is_registered():
    for gid in GAMES:
        game = sim.get_game(gid)
        has = "determinize" in contract.registered(_state_cls(game))
        for name in ("mcts", "search"):
            assert (name in game.strategies) == has, gid
            if has:
                spec = game.strategies[name]
                assert spec.code == search.SEARCH_CODE and spec.search
                assert name not in game.pool_strategies
        if has:
            assert game.strategies["mcts"].params[search.P_ALGO] == 0.0
            assert game.strategies["search"].params[search.P_ALGO] == 1.0


@pytest.mark.parametrize("gid", SEARCHABLE)
def test_every_search_bot_caps_its_playouts(gid):
    """issue 29: a decision of ``mcts`` and ``search`` costs at most ``budget x max_len`` bot
    moves whatever the state; ``mcts`` had no cap (max_len 0), so a state from which the game
    never ends made its decision loop."""
    game = sim.get_game(gid)
    for name in ("mcts", "search"):
        if name in game.strategies:
            row = game.strategies[name].params
            assert row[search.P_MAXLEN] == search.SEARCH_DEFAULTS["max_len"] == 2000, name


@pytest.mark.parametrize("gid", SEARCHABLE)
def test_params_matrix_appends_the_playout_row(gid):
    game = sim.get_game(gid)
    order = list(game.strategies)
    spec = game.strategies["mcts"]
    playout = order[int(spec.params[search.P_PLAYOUT])]
    codes, params = game.bots.params_matrix(["random", "mcts", "mcts"])
    assert codes.tolist() == [0, search.SEARCH_CODE, search.SEARCH_CODE,
                              game.strategies[playout].code]
    assert params.shape == (4, game.bots.N_PARAMS)
    assert params[1, search.P_PROW] == 3 and params[2, search.P_PROW] == 3
    assert params[1, search.P_PCODE] == game.strategies[playout].code
    assert params[3].tolist() == list(game.strategies[playout].params)
    # without a search bot the matrix is the named rows only
    codes, params = game.bots.params_matrix(["random", playout])
    assert codes.shape == (2,) and params.shape == (2, game.bots.N_PARAMS)


@pytest.mark.parametrize("gid", SEARCHABLE)
def test_params_matrix_appends_the_experts_of_the_rollout_search(gid):
    game = sim.get_game(gid)
    order = list(game.strategies)
    spec = game.strategies["search"]
    playout = order[int(spec.params[search.P_PLAYOUT])]
    pcode = game.strategies[playout].code
    experts = [e for e in order if e != playout and game.strategies[e].code == pcode]
    assert experts and "random" not in experts and "mcts" not in experts
    # ``mcts`` may play its playouts with another bot (Province: ``denial``, ``search``
    # ``greedy-tuned``): then that bot's row follows the experts
    mplayout = order[int(game.strategies["mcts"].params[search.P_PLAYOUT])]
    extra = [] if mplayout == playout else [mplayout]
    codes, params = game.bots.params_matrix(["search", "mcts", "search"])
    # rows: search, mcts, search, the playout bot, the experts in the game's order, then
    # ``mcts``'s playout bot where it is another
    assert codes.tolist() == ([search.SEARCH_CODE] * 3 + [pcode] * (1 + len(experts))
                              + [game.strategies[e].code for e in extra])
    for i in (0, 2):
        assert params[i, search.P_PROW] == 3
        assert params[i, search.P_EROW] == 4 and params[i, search.P_NEXP] == len(experts)
        assert params[i, search.P_ECODE] == pcode
    mrow = 3 if not extra else 4 + len(experts)
    assert params[1, search.P_PROW] == mrow and params[1, search.P_NEXP] == 0
    assert params[mrow].tolist() == list(game.strategies[mplayout].params)
    for j, e in enumerate(experts):
        assert params[4 + j].tolist() == list(game.strategies[e].params)


def _tiny(game, budget, name="mcts"):
    spec = game.strategies[name]
    row = list(spec.params)
    row[search.P_BUDGET] = budget
    return dataclasses.replace(spec, params=tuple(row))


def _positions(game, n, seed):
    """States reached by random play at 10%, 50% and 90% of a game."""
    st = game.new_state(n, seed)
    rnd = random.Random(seed)
    trace = [st]
    while not game.is_terminal(st):
        legal = game.legal_actions(st)
        st = game.apply_action(st, int(legal[rnd.randrange(len(legal))]))
        trace.append(st)
    return [trace[int(f * (len(trace) - 1))] for f in (0.1, 0.5, 0.9)]


@pytest.mark.parametrize("name", ["mcts", "search"])
@pytest.mark.parametrize("gid", SEARCHABLE)
def test_same_information_set_same_decision(gid, name, monkeypatch):
    game = sim.get_game(gid)
    monkeypatch.setitem(game.strategies, name, _tiny(game, 48, name))
    rnd = random.Random(5)
    checked = changed = 0
    for n in sorted({game.min_players, min(game.max_players, 4)}):
        for seed in (1, 2):
            for a in _positions(game, n, seed):
                if game.is_terminal(a) or len(game.legal_actions(a)) < 2:
                    continue
                seat = game.current_player(a)
                others = [game.determinize(a, seat, 1000 + seed)]
                b = H.swap(game, a, seat, rnd)  # the game's own swap (None: nothing hidden)
                if b is not None:
                    others.append(b)
                ra = game.bot_rng(77)
                da = game.choose_action(a, name, ra)
                for b in others:
                    changed += game.state_to_dict(b) != game.state_to_dict(a)
                    rb = game.bot_rng(77)
                    assert game.choose_action(b, name, rb) == da
                    assert ra.tolist() == rb.tolist()
                    checked += 1
    assert checked >= 6
    assert changed >= 1, "no position had hidden information to change"
