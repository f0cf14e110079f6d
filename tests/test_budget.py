"""The budget knob (issue 27, item 2): the search bots' playouts per decision, set by
``--budget`` for simulate, compare and ladder (``--recheck-budget`` for tune's re-check), part
of a run's identity and manifest only when given."""

import pytest

import sim
from sim.core.errors import UserError
from sim.core.game import check_budget, set_search_budget
from sim.verify import run_identity
from strategies import search


def test_budget_sets_every_search_row_and_nothing_else():
    game = sim.get_game("go-town")
    names = ["greedy", "mcts", "search"]
    _, params = game.bots.params_matrix(names)
    before = params.copy()
    set_search_budget(game, names, params, 7)
    assert params[1, search.P_BUDGET] == 7.0 and params[2, search.P_BUDGET] == 7.0
    assert params[0].tolist() == before[0].tolist()
    assert params[3:].tolist() == before[3:].tolist()  # the appended playout and expert rows


def test_budget_is_checked():
    game = sim.get_game("little-town")
    assert check_budget(game, ["greedy"], None) is None
    assert check_budget(game, ["search", "greedy"], 12) == 12
    with pytest.raises(UserError, match="none of the strategies is a search bot"):
        check_budget(game, ["greedy", "builder"], 12)
    for bad in (0, 100_001, -3):
        with pytest.raises(UserError, match="--budget"):
            check_budget(game, ["search"], bad)


def test_budget_in_the_identity_only_when_given():
    base = run_identity("go-town", 10, 2, ["search", "greedy"], "rotate", 1, {}, 10)
    assert "budget" not in base
    got = run_identity("go-town", 10, 2, ["search", "greedy"], "rotate", 1, {}, 10, None, 50)
    assert got == {**base, "budget": 50}


def test_simulate_refuses_a_budget_without_a_search_bot(tmp_path):
    from sim.runner import simulate

    with pytest.raises(UserError, match="none of the strategies is a search bot"):
        simulate("go-town", 4, 2, ["greedy", "attacker"], out=tmp_path / "r", budget=5)
    assert not (tmp_path / "r").exists()
