"""SplitMix64, the one generator of every chance event (docs/games/go_town.md section 2).

The generator state is a ``uint64[1]`` array kept inside each game state, so a game can be
copied, saved to a dict and replayed exactly. The same arithmetic is written in plain Python in
``tests/reference`` and must give the same numbers. The functions that take the generator array
are compiled with ``_nrt=False`` (no reference counting: they never allocate, and the hot game
loops call them per decision; see the performance note in sim/go_town/kernels.py).
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U32 = np.uint64(32)


@njit(cache=True)
def _finalize(x):
    """The SplitMix64 output function of the (already advanced) state ``x`` (uint64)."""
    z = (x ^ (x >> _U30)) * _M1
    z = (z ^ (z >> _U27)) * _M2
    return z ^ (z >> _U31)


@njit(cache=True, _nrt=False)
def next_u64(r):
    """Advance the generator ``r`` (``uint64[1]``, changed in place); return 64 random bits."""
    x = r[0] + _GOLDEN
    r[0] = x
    return _finalize(x)


@njit(cache=True, _nrt=False)
def rand_below(r, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (multiply-shift on the top 32 bits)."""
    return np.int64(((next_u64(r) >> _U32) * np.uint64(n)) >> _U32)


@njit(cache=True, _nrt=False)
def shuffle(r, a, n):
    """Fisher-Yates shuffle of ``a[:n]`` in place, i = n-1 down to 1, j = rand_below(i+1)."""
    for i in range(n - 1, 0, -1):
        j = rand_below(r, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@njit(cache=True)
def mix(x):
    """One SplitMix64 output from a generator whose state is ``x`` (uint64); no allocation."""
    return _finalize(np.uint64(x) + _GOLDEN)


@njit(cache=True)
def seed_for(run_seed, game_index, stream):
    """Seed of game ``game_index`` of a run: ``mix(mix(mix(run_seed) ^ index) ^ stream)``.

    Streams: 0 the game's chance events, 1 the bots of that game, 2 the seat draw of the
    ``pool`` seating. Independent of chunking, job count and backend.
    """
    return mix(mix(mix(np.uint64(run_seed)) ^ np.uint64(game_index)) ^ np.uint64(stream))


def seed_for_py(run_seed: int, game_index: int, stream: int = 0) -> int:
    """``seed_for`` returning a Python int (for manifests and the CLI)."""
    return int(seed_for(np.uint64(run_seed % 2**64), np.uint64(game_index), np.uint64(stream)))


# ---- the action-sequence hash: how many distinct games a run holds ----------------------------
# A game's hash starts at ACTION_HASH_START and folds each action id in order:
# h = mix(h ^ a). The batch loops (strategies/<game>/batch.py) keep it per game; it draws
# nothing from any generator, so it changes no game.
ACTION_HASH_START = np.uint64(0)
_MASK64 = (1 << 64) - 1


@njit(cache=True, _nrt=False, forceinline=True)
def fold_action(h, a):
    """The action hash ``h`` (uint64) after one more action id ``a`` (a non-negative int):
    ``mix(h ^ a)``, the SplitMix64 output of the generator state ``h ^ a``. Returns uint64."""
    return _finalize((np.uint64(h) ^ np.uint64(a)) + _GOLDEN)


def _finalize_py(x: int) -> int:
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def action_hash_py(actions) -> int:
    """The hash of an action sequence (iterable of non-negative int action ids) in plain
    Python, equal to folding ``fold_action`` from ``ACTION_HASH_START``: a Python int in
    ``[0, 2**64)``."""
    h = int(ACTION_HASH_START)
    for a in actions:
        h = _finalize_py(((h ^ int(a)) + 0x9E3779B97F4A7C15) & _MASK64)
    return h
