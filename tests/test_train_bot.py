"""``boardsim train-bot`` (analysis/lab/train_bot.py): the search space, the seats, the candidate
row played in place of the hand-set one, the tuned rows loaded as named bots, resume."""

import json

import numpy as np
import pytest

import sim
from analysis.lab import train_bot as tb
from sim.core.errors import UserError
from strategies import common

GAME = sim.get_game("province")


def test_search_space_is_the_knobs_the_hand_set_rows_turn():
    space = tb.search_space(GAME, "denial")
    # w_deny varies (0 in every bot but denial's 6): range 0..6 widened by 3 each side, floored
    assert space["w_deny"] == (0.0, 9.0)
    # binary switches (grind, hire, steal_ok) and numbers every bot shares are left out
    for name in ("grind", "hire", "steal_ok", "w_vp", "end_lose"):
        assert name not in space
    assert tb.search_space(GAME, "denial", {"w_vp": (5.0, 15.0)})["w_vp"] == (5.0, 15.0)
    with pytest.raises(UserError, match="unknown parameter 'nope'"):
        tb.search_space(GAME, "denial", {"nope": (0.0, 1.0)})
    with pytest.raises(UserError, match="no parameter row"):
        tb.search_space(GAME, "random")


def test_parse_param():
    assert tb.parse_param("w_deny=2..12") == ("w_deny", (2.0, 12.0))
    assert tb.parse_param("noise=-0.5..1e-1") == ("noise", (-0.5, 0.1))
    with pytest.raises(UserError, match="NAME=LO..HI"):
        tb.parse_param("w_deny=2-12")


def test_seats_put_the_candidate_in_every_seat_in_turn():
    idx = tb.seats_for(6, 2, 5, seed=1)
    assert idx.shape == (6, 2)
    assert [int(idx[g, g % 2]) for g in range(6)] == [5] * 6
    assert all(0 <= int(idx[g, 1 - g % 2]) < 5 for g in range(6))
    # games first.. of a longer run are the same games
    assert (tb.seats_for(4, 2, 5, seed=1, first=2) == idx[2:]).all()


def test_a_candidate_row_plays_in_place_of_the_hand_set_one():
    field = list(GAME.bots.RECOMMENDED_MIX)
    spec = GAME.strategy("greedy")
    hand = tb.play_row(GAME, 2, field, "greedy", np.array(spec.params), 0, 40, seed=3)
    # the row of another bot played as "greedy" gives that bot's games
    den = tb.play_row(GAME, 2, field, "greedy", np.array(GAME.strategy("denial").params), 0, 40,
                      seed=3)
    names = [*field, "denial"]
    idx = tb.seats_for(40, 2, len(field), 3)
    res = GAME.run_chunk(0, 40, 3, 2, idx, {}, names)
    assert (den == res.win_share[np.arange(40), np.arange(40) % 2]).all()
    assert hand.shape == (40,) and not (hand == den).all()


def test_tuned_rows_load_as_named_bots(tmp_path):
    strategies = dict(GAME.strategies)
    (tmp_path / common.TUNED_FILE).write_text(json.dumps(
        {"denial-tuned": {"base": "denial", "players": 2, "params": {"w_deny": 3.5}}}))
    common.add_tuned(strategies, tmp_path)
    spec = strategies["denial-tuned"]
    names = list(spec.param_names)
    assert spec.code == GAME.strategy("denial").code
    assert spec.params[names.index("w_deny")] == 3.5
    base = GAME.strategy("denial").params
    assert [a for i, a in enumerate(spec.params) if i != names.index("w_deny")] == \
        [a for i, a in enumerate(base) if i != names.index("w_deny")]
    common.add_tuned(strategies, tmp_path / "none")  # no file: nothing added, no error


def test_train_bot_writes_the_row_and_resumes(tmp_path):
    out = tmp_path / "tb"
    kw = dict(players=2, trials=3, n=16, seed=2, extra=None, ladder_games=4, out=out)
    res = tb.train_bot("province", "denial", **kw)
    entry = json.loads((out / "tuned.json").read_text())["denial-tuned"]
    assert entry["base"] == "denial" and set(entry["params"]) == set(
        tb.search_space(GAME, "denial"))
    assert res["ladder"]["lo"] <= res["ladder"]["diff"] <= res["ladder"]["hi"]
    # the same command resumes the study (no new trial: 3 are done); another is refused
    res2 = tb.train_bot("province", "denial", **kw)
    assert res2["values"] == res["values"]
    with pytest.raises(UserError, match="holds another train-bot"):
        tb.train_bot("province", "denial", **{**kw, "n": 32})
    GAME.strategies.pop("denial-tuned", None)
