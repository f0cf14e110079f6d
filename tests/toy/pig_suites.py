"""Pig's run through the generic suites and the commands (tests/test_toy_game.py runs this file
in a child process, with its own numba cache, on a copy of tests/toy/ named by
``BOARDSIM_TOY``): the game is registered for this module only by extending the package paths
of ``sim``, ``strategies`` and ``tests.games`` (the registry finds games in every folder of
``sim``). Not collected by the suite itself (the file name does not start with ``test_``)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import sim
import strategies
from sim import registry
from tests import games as H
from tests.test_soak import _run_cli as _cli

NEW = ("sim.pig", "strategies.pig", "tests.games.pig")


@pytest.fixture(scope="module")
def pig():
    root = Path(os.environ["BOARDSIM_TOY"])  # the copy tests/test_toy_game.py made
    mp = pytest.MonkeyPatch()
    mp.setattr(sim, "__path__", [*sim.__path__, str(root / "sim")])
    mp.setattr(strategies, "__path__", [*strategies.__path__, str(root / "strategies")])
    mp.setattr(H, "__path__", [*H.__path__, str(root / "games")])
    mp.setattr(registry, "_GAMES", {})
    mp.setattr(registry, "_VARIANTS", {})
    try:
        yield sim.get_game("pig")
    finally:
        mp.undo()
        for name in [m for m in sys.modules if m in NEW or m.startswith(tuple(f"{n}." for n in NEW))]:
            del sys.modules[name]


def test_the_toy_game_is_registered_as_it_declares(pig):
    assert "pig" in sim.list_games() and sim.list_games()[:1] == ["go-town"]
    assert (pig.information, pig.chance, pig.hidden, pig.results) == (
        "perfect", "sampled", (), ("target",))
    assert (pig.min_players, pig.max_players, pig.finished_codes()) == (2, 4, (1,))
    assert set(pig.strategies) == {"random", "hold-20", "hold-12", "mcts"}
    assert H.view(pig, {"a": 1, "rng": 5}, 0) == {"a": 1} and H.determinize_options(pig) == []


def test_a_worked_example(pig):
    """Seat 0 rolls a 4 and holds: 4 points, seat 1 to act (chance from the state's seed)."""
    st = pig.new_state(2, 3)
    cur = pig.current_player(st)
    assert list(pig.legal_actions(st)) == [0]
    d = pig.state_to_dict(st)
    assert (d["turn_total"], d["scores"], d["phase"]) == (0, [0, 0], "play")
    s2 = pig.apply_action(st, 0)
    tt = pig.state_to_dict(s2)["turn_total"]
    if tt:  # not a 1: hold banks it
        s3 = pig.apply_action(s2, 1)
        assert pig.state_to_dict(s3)["scores"][cur] == tt and tt in (2, 3, 4, 5, 6)
        assert pig.current_player(s3) == 1 - cur
    else:  # a 1: the turn passes with nothing banked
        assert pig.current_player(s2) == 1 - cur


def test_the_conformance_suite(pig):
    from tests import test_conformance as C

    for n in range(2, 5):
        C.test_random_play("pig", n, {})
    C.test_random_play("pig", 3, {"target": 20})
    C.test_interface_errors("pig")
    C.test_kernel_contract_complete("pig")
    C.test_option_slots_follow_the_option_list("pig")
    for name in ("random", "hold-20"):
        C.test_every_bot_plays_legal_actions("pig", 3, name)
    C.test_batch_loop_plays_the_interface_games("pig", 2, {}, 3)
    C.test_batch_loop_plays_the_interface_games("pig", 4, {"max_turns": 100}, 1)


def test_the_determinize_suite(pig):
    from tests import test_determinize as D

    D.test_registered_and_python_entry("pig")
    D.test_information_set("pig")
    D.test_keeps_view_invariants_and_legal_actions("pig")
    D.test_hidden_part_changes_with_the_seed("pig")
    D.test_every_position_of_a_game("pig", {})


def test_the_soak_suite(pig, monkeypatch):
    from tests import test_soak as S

    S.test_compiled_and_numpy_invariants_agree("pig")
    S.test_compiled_soak_plays_the_replayed_games("pig")
    S.test_planted_endless_game_found_mid_game(monkeypatch, "pig")


def test_simulate_report_ladder_tiers(pig, tmp_path, capsys):
    run = tmp_path / "run"
    code, out, err = _cli(capsys, "simulate", "pig", "-n", "400", "-p", "3", "--seed", "2",
                          "--out", run)
    assert code == 0, err
    m = json.loads((run / "manifest.json").read_text())
    assert (m["game"], m["n_games"], m["players"], m["complete"]) == ("pig", 400, 3, True)
    assert m["strategies"] == ["hold-20", "hold-12"] and m["seating"] == "pool"
    code, out, err = _cli(capsys, "report", run, "--out", tmp_path / "report")
    assert code == 0, err
    text = (tmp_path / "report" / "report.md").read_text()
    assert "Pig" in text and "hold-20" in text
    code, out, err = _cli(capsys, "ladder", "pig", "-p", "2", "-n", "120", "-s",
                          "hold-20,hold-12,random", "--out", tmp_path / "ladder")
    assert code == 0, err
    assert (tmp_path / "ladder" / "ladder.md").is_file()
    code, out, err = _cli(capsys, "tiers", "pig", "-n", "4", "--scripted-games", "200",
                          "--budget", "8", "--out", tmp_path / "tiers")
    assert code == 0, err
    data = json.loads((tmp_path / "tiers" / "tiers.json").read_text())
    assert (data["game"], data["n_search"], data["budget"]) == ("pig", 4, 8)
    assert data["findings"][0]["name"].startswith("turn position 1 of 2 (moved first)")
