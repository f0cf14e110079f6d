"""Which strategy plays which seat in game i of a run (a deterministic function of the seed)."""

import numpy as np
from numba import njit

from sim.core.errors import UserError
from sim.core.rng import rand_below, seed_for

SEATINGS = ("fixed", "rotate", "pool")


@njit(cache=True)
def _pool(run_seed, first, n, players, k, out):
    r = np.empty(1, np.uint64)
    for g in range(n):
        r[0] = seed_for(run_seed, np.uint64(first + g), np.uint64(2))
        for p in range(players):
            out[g, p] = rand_below(r, k)


def check_seating(seating: str, n_strategies: int, players: int) -> None:
    """Raise UserError if ``seating`` cannot seat ``n_strategies`` names at ``players`` seats."""
    if seating not in SEATINGS:
        raise UserError(f"unknown seating {seating!r}; allowed: {', '.join(SEATINGS)}")
    if seating in ("fixed", "rotate") and n_strategies not in (1, players):
        raise UserError(
            f"seating {seating}: give 1 strategy or one per seat ({players}), got {n_strategies}"
            "; use --seating pool to draw seats from a longer list"
        )


def seat_matrix(seating: str, run_seed: int, first: int, n: int, players: int,
                n_strategies: int) -> np.ndarray:
    """``int64[n, players]``: index into the run's strategy list for each seat of games
    ``first .. first+n-1``.

    fixed: seat p plays strategy p (or 0 if one name is given); rotate: game i shifts the list by
    i mod players, so each strategy plays each seat equally often; pool: each seat draws a
    strategy uniformly from the list with generator stream 2 of the game seed.
    """
    check_seating(seating, n_strategies, players)
    if seating == "pool":
        out = np.zeros((n, players), np.int64)
        _pool(np.uint64(run_seed % 2**64), first, n, players, n_strategies, out)
        return out
    base = np.arange(players, dtype=np.int64) if n_strategies == players else np.zeros(
        players, np.int64)
    if seating == "fixed" or n_strategies == 1:
        return np.tile(base, (n, 1))
    games = np.arange(first, first + n, dtype=np.int64)
    return (base[None, :] + games[:, None]) % players
