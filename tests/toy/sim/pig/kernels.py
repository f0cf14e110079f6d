"""Pig's compiled kernels and the kernel contract (sim/core/contract.py)."""

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.contract import register
from sim.core.rng import next_u64, rand_below
from sim.pig import constants as K


class PigState(NamedTuple):
    meta: np.ndarray   # int64[N_META]
    score: np.ndarray  # int64[MAXP]
    opts: np.ndarray   # int64[options]
    rng: np.ndarray    # uint64[1]


def alloc_state(opts: np.ndarray) -> PigState:
    return PigState(np.zeros(K.N_META, np.int64), np.zeros(K.MAXP, np.int64),
                    opts.astype(np.int64), np.zeros(1, np.uint64))


@njit(cache=True)
def init_state(s, n_players, seed):
    s.meta[:] = 0
    s.score[:] = 0
    s.rng[0] = seed
    s.meta[K.M_NP] = n_players
    s.meta[K.M_WINNER] = -1
    first = rand_below(s.rng, n_players)
    s.meta[K.M_CUR] = first
    s.meta[K.M_FIRST] = first


@njit(cache=True)
def legal_actions_into(s, out):
    if s.meta[K.M_PHASE] == K.PH_OVER:
        return 0
    out[0] = K.A_ROLL
    if s.meta[K.M_TT] > 0:
        out[1] = K.A_HOLD
        return 2
    return 1


@njit(cache=True)
def _end_turn(s):
    s.meta[K.M_TT] = 0
    s.meta[K.M_TURN] += 1
    s.meta[K.M_CUR] = (s.meta[K.M_CUR] + 1) % s.meta[K.M_NP]
    if s.meta[K.M_TURN] >= s.opts[K.O_MAX_TURNS]:
        s.meta[K.M_PHASE] = K.PH_OVER
        s.meta[K.M_END] = K.END_LIMIT


@njit(cache=True)
def apply_inplace(s, a):
    c = s.meta[K.M_CUR]
    s.meta[K.M_DEC] += 1
    if a == K.A_ROLL:
        face = 1 + rand_below(s.rng, 6)
        if face == 1:
            _end_turn(s)
            return
        s.meta[K.M_TT] += face
        if s.score[c] + s.meta[K.M_TT] < s.opts[K.O_TARGET]:
            return
    s.score[c] += s.meta[K.M_TT]  # a hold, or a roll that reaches the target (banked)
    if s.score[c] >= s.opts[K.O_TARGET]:
        s.meta[K.M_TT] = 0
        s.meta[K.M_TURN] += 1
        s.meta[K.M_PHASE] = K.PH_OVER
        s.meta[K.M_END] = K.END_TARGET
        s.meta[K.M_WINNER] = c
        return
    _end_turn(s)


@njit(cache=True)
def scores_into(s, out):
    for p in range(s.meta[K.M_NP]):
        out[p] = s.score[p]


@njit(cache=True)
def win_shares_into(s, out):
    for p in range(s.meta[K.M_NP]):
        out[p] = 1.0 if s.meta[K.M_WINNER] == p else 0.0


@njit(cache=True)
def determinize(s, seat, rng):
    """Nothing is hidden: only the chance generator is reseeded (the contract)."""
    s.rng[0] = next_u64(rng)


@njit(cache=True)
def invariants(s):
    """0, else 1: a field out of range; 2: a score out of range; 3: a turn total out of
    range; 4: a finished game without its end."""
    n = s.meta[K.M_NP]
    if n < 2 or n > K.MAXP or s.meta[K.M_PHASE] < 0 or s.meta[K.M_PHASE] > 1:
        return 1
    if s.meta[K.M_CUR] < 0 or s.meta[K.M_CUR] >= n or s.meta[K.M_WINNER] < -1 \
            or s.meta[K.M_WINNER] >= n:
        return 1
    for p in range(K.MAXP):
        if s.score[p] < 0 or (p >= n and s.score[p] != 0):
            return 2
        if p < n and s.score[p] >= s.opts[K.O_TARGET] and s.meta[K.M_WINNER] != p:
            return 2
    tt = s.meta[K.M_TT]
    if tt < 0 or tt == 1 or (s.meta[K.M_PHASE] == K.PH_OVER and tt != 0):
        return 3
    if s.meta[K.M_PHASE] == K.PH_PLAY and s.score[s.meta[K.M_CUR]] + tt >= s.opts[K.O_TARGET]:
        return 3
    if (s.meta[K.M_PHASE] == K.PH_OVER) != (s.meta[K.M_END] != 0):
        return 4
    return 0


MESSAGES = ("a field out of range", "a score out of range", "a turn total out of range",
            "a finished game without its end")

register(PigState, init_state=init_state, legal_actions_into=legal_actions_into,
         apply_inplace=apply_inplace, scores_into=scores_into,
         win_shares_into=win_shares_into, determinize=determinize, invariants=invariants,
         meta=dict(field="meta", phase=K.M_PHASE, over=K.PH_OVER, current=K.M_CUR,
                   n_players=K.M_NP))
