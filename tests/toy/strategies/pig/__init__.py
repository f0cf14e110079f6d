"""Pig's bots (the toy game of tests/test_toy_game.py), paired with ``sim/pig/`` by the
registry."""

from strategies import search
from strategies.pig.batch import run_games
from strategies.pig.bots import N_PARAMS, PARAM_NAMES, STRATEGIES, choose, params_matrix
from strategies.soak import CODES as SOAK_CODES
from strategies.soak import soak_chunk

RECOMMENDED_MIX = ("hold-20", "hold-12")
TIER_STUDY = {"n_search": 4, "budget": 20, "n_scripted": 200}

__all__ = ["N_PARAMS", "PARAM_NAMES", "RECOMMENDED_MIX", "STRATEGIES", "TIER_STUDY", "choose",
           "params_matrix", "SOAK_CODES", "run_games", "soak_chunk", "search"]
