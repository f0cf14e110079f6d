"""The kernel contract's entry points, compiled once for every game, for the Python side.

``Game``'s template methods call these; each resolves to the game's own kernel by the type of
the state (sim/core/contract.py) and is cached on disk like any kernel, so a game exports no
per-game wrapper functions for the interface.
"""

from numba import njit

from sim.core import contract


@njit(cache=True)
def init_state(s, n_players, seed):
    contract.init_state(s, n_players, seed)


@njit(cache=True)
def legal_actions_into(s, out):
    return contract.legal_actions_into(s, out)


@njit(cache=True)
def apply_inplace(s, a):
    contract.apply_inplace(s, a)


@njit(cache=True)
def is_over(s):
    return contract.is_over(s)


@njit(cache=True)
def current_seat(s):
    return contract.current_seat(s)


@njit(cache=True)
def n_seats(s):
    return contract.n_seats(s)


@njit(cache=True)
def scores_into(s, out):
    contract.scores_into(s, out)


@njit(cache=True)
def win_shares_into(s, out):
    contract.win_shares_into(s, out)


@njit(cache=True)
def copy_into(src, dst):
    contract.copy_into(src, dst)


@njit(cache=True)
def determinize(s, seat, rng):
    contract.determinize(s, seat, rng)


@njit(cache=True)
def invariants(s):
    return contract.invariants(s)
