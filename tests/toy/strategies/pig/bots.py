"""Pig's scripted bots: ``random`` (code 0) and hold-at-``n`` (code 1: roll until the turn's
total reaches ``hold_at``). Parameter rows have 7 columns (the search bot's)."""

from numba import njit

from sim.core.rng import rand_below
from sim.pig import constants as K
from sim.pig.kernels import PigState
from strategies import common
from strategies.common import StrategySpec

PARAM_NAMES = ("hold_at", "pad_1", "pad_2", "pad_3", "pad_4", "pad_5", "pad_6")
N_PARAMS = len(PARAM_NAMES)


def _params(hold_at: float) -> tuple:
    return common.param_vector(PARAM_NAMES, {}, hold_at=hold_at)


STRATEGIES = {
    "random": StrategySpec("random", 0, "uniform over the legal actions"),
    "hold-20": StrategySpec("hold-20", 1, "rolls until the turn's total reaches 20",
                            _params(20), PARAM_NAMES),
    "hold-12": StrategySpec("hold-12", 1, "rolls until the turn's total reaches 12",
                            _params(12), PARAM_NAMES),
}


@njit(cache=True)
def choose_scripted(code, params, k, s, legal, n, rng):
    if code == 0:
        return legal[rand_below(rng, n)]
    if n > 1 and s.meta[K.M_TT] >= params[k, 0]:
        return K.A_HOLD
    return K.A_ROLL


def params_matrix(names):
    return common.params_matrix(STRATEGIES, N_PARAMS, names)


choose = common.install_bots(PigState, STRATEGIES, N_PARAMS, choose_scripted, K.NUM_ACTIONS,
                             playout="hold-20", budget=50)
