"""The soak's compiled loop, written once over the kernel contract (sim/core/contract.py) and
the bots' entry point (``common.call_bot``, through its address): games played by scripted bots with the game's
``invariants`` kernel checked after every decision. It lives beside the bots because it plays
them; each bot package exports it (or its own copy on the batch loop's kernels, in
``strategies/<game>/batch.py``, same arguments and counts) as ``soak_chunk`` with ``CODES`` as
``SOAK_CODES``, and ``sim/soak.py`` reaches it as ``game.bots.soak_chunk``, so the rules under
``sim/`` import no bots.

Game ``i`` is exactly the game ``Game.new_state(p, seed_for(seed, i, 0))`` played with the bot
generator ``seed_for(seed, i, 1)`` and seat ``k`` played by parameter row ``rows[k]`` (or
``(i + k) mod m`` in the rotation of ``m`` bots): what ``boardsim replay`` replays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core import contract
from sim.core.rng import seed_for
from strategies.common import bot_address, call_bot

NO_LEGAL = -1  # a running game without a legal action
ILLEGAL = -2  # a bot chose an action outside the legal set
TOO_LONG = -3  # no end within the game's declared maximum length
CODES = {NO_LEGAL: "no legal action in a running game",
         ILLEGAL: "a bot chose an illegal action",
         TOO_LONG: "no end within max_game_length"}
"""The loop's own violation codes (negative); a positive code is the game's invariant code."""


@njit(cache=True)
def listed(a, legal, n):
    """True if the action ``a`` is one of ``legal[:n]``."""
    for j in range(n):
        if legal[j] == a:
            return True
    return False


@njit(cache=True)
def players_of(i, p_fixed, lo, span):
    """The player count of game ``i``: ``p_fixed`` if > 0, else ``lo + i mod span``."""
    return p_fixed if p_fixed > 0 else lo + i % span


@njit(cache=True)
def seat_row(i, seat, m_rot, rows):
    """The parameter row playing ``seat`` in game ``i``: ``(i + seat) mod m_rot`` in the
    rotation of ``m_rot`` > 0 bots, else ``rows[seat]``."""
    return (i + seat) % m_rot if m_rot > 0 else rows[seat]


@njit(cache=True)
def start_game(s0, s, run_seed, i, brng):
    """Begin game ``i`` of run ``run_seed``: the fresh allocation ``s0`` copied into ``s`` (as
    ``Game.new_state`` starts) and the bot generator ``brng`` (uint64[1]) set to
    ``seed_for(run_seed, i, 1)``. Returns the chance seed ``seed_for(run_seed, i, 0)``
    (uint64) for the game's set-up kernel."""
    contract.copy_into(s0, s)
    brng[0] = seed_for(np.uint64(run_seed), np.uint64(i), np.uint64(1))
    return seed_for(np.uint64(run_seed), np.uint64(i), np.uint64(0))


@njit(cache=True)
def check_step(s, steps, limit):
    """The verdict after a decision, ``steps`` of them so far: the game's invariant code
    (``contract.invariants``) if one is broken, else ``TOO_LONG`` past ``limit`` decisions,
    else 0."""
    code = contract.invariants(s)
    if code == 0 and steps > limit:
        code = TOO_LONG
    return code


@njit(cache=True)
def record_violation(out, i, steps, code, max_bad, bad_idx, bad_code, bad_step):
    """Count game ``i`` (``steps`` decisions, verdict ``code``) in ``out`` (int64[3]: games,
    decisions, violations) and, if ``code`` != 0, record it as violation ``out[2]`` in
    ``bad_idx``/``bad_code``/``bad_step``. Returns True once ``max_bad`` violations are
    recorded (the loop stops)."""
    out[0] += 1
    out[1] += steps
    if code == 0:
        return False
    nbad = out[2]
    bad_idx[nbad] = i
    bad_code[nbad] = code
    bad_step[nbad] = steps
    out[2] = nbad + 1
    return nbad + 1 >= max_bad


def taking_the_bots(loop):
    """``soak_chunk`` (the arguments of ``_soak_chunk`` but the last) from a compiled soak
    loop ``loop`` whose last argument is the bots' entry point's address
    (``common.bot_address``, sim/core/fnptr.py): the address is taken here, once per call."""

    def soak_chunk(s, s0, first, n_games, run_seed, p_fixed, lo, span, rows, m_rot, codes,
                   params, limit, max_bad, bad_idx, bad_code, bad_step, legal):
        return loop(s, s0, first, n_games, run_seed, p_fixed, lo, span, rows, m_rot, codes,
                    params, limit, max_bad, bad_idx, bad_code, bad_step, legal,
                    bot_address(s, params))

    soak_chunk.__doc__ = loop.__doc__
    return soak_chunk


@njit(cache=True)
def _soak_chunk(s, s0, first, n_games, run_seed, p_fixed, lo, span, rows, m_rot, codes, params,
                limit, max_bad, bad_idx, bad_code, bad_step, legal, fn):
    """Play games ``first .. first + n_games - 1`` of run ``run_seed`` and check the game's
    invariants (``contract.invariants``) after the set-up and after every decision.

    s, s0: two states of the same allocation; ``s0`` is a fresh ``Game._alloc`` (never
    played), copied into ``s`` before each game so every game starts as ``Game.new_state``
    does. Players: ``p_fixed`` if > 0, else ``lo + i mod span``. Seat ``k`` of game ``i`` is
    played by row ``(i + k) mod m_rot`` of ``codes``/``params`` if ``m_rot`` > 0, else by row
    ``rows[k]`` (int64[4]). ``limit``: the game's ``max_game_length`` (decisions).
    Violations go to ``bad_idx`` (game index), ``bad_code`` (invariant code >= 1, or
    ``NO_LEGAL``/``ILLEGAL``/``TOO_LONG``) and ``bad_step`` (decisions before it), at most
    ``max_bad`` of them (int64 arrays of that size); the loop stops at the ``max_bad``-th.
    ``legal``: int32 scratch of the game's action count.
    Returns int64[3]: games played, decisions checked, violations found.
    ``fn``: the bots' entry point's address (``taking_the_bots``)."""
    out = np.zeros(3, np.int64)
    brng = np.empty(1, np.uint64)
    for g in range(n_games):
        i = first + g
        seed = start_game(s0, s, run_seed, i, brng)
        contract.init_state(s, players_of(i, p_fixed, lo, span), seed)
        steps = 0
        code = contract.invariants(s)
        while code == 0 and not contract.is_over(s):
            n = contract.legal_actions_into(s, legal)
            if n == 0:
                code = NO_LEGAL
                break
            k = seat_row(i, contract.current_seat(s), m_rot, rows)
            a = call_bot(fn, (np.int64(codes[k]), params, np.int64(k), s, legal, np.int64(n),
                              brng))
            if not listed(a, legal, n):
                code = ILLEGAL
                break
            contract.apply_inplace(s, a)
            steps += 1
            code = check_step(s, steps, limit)
        if record_violation(out, i, steps, code, max_bad, bad_idx, bad_code, bad_step):
            break
    return out


soak_chunk = taking_the_bots(_soak_chunk)
