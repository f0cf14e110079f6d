"""Action traces of a run's games over the kernel contract, for the pairing check of the
effects study (docs/effects.md, "Pairing by construction"; tests/test_pairing.py).

``trace_games`` plays games ``first_game ..`` of run ``run_seed`` exactly as the game's batch
loop does (chance seed ``seed_for(run_seed, i, 0)``, bot seed ``seed_for(run_seed, i, 1)``,
the seat's bot row from ``seat_idx``: the generic playout that tests/test_conformance.py checks
against every batch loop) and records each game's actions and the decision at which the
watched component first comes into play: a watched cell of the state becomes non-zero or
holds a watched id (Go Town: a card of the type in a hand; Suburbia: the tile in the market) or an action of the watched set is legal (a building of
the type can be built). Written once for every game; it compiles the game's contract entry
points, so it is for tests and lab measurements, not for the main job's hot path.
"""

import numpy as np
from numba import njit

from sim.core import contract
from sim.core.rng import seed_for
from strategies.common import bot_address, call_bot


def trace_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params, legal,
                watch, cells, values, mask, actions, lengths, first_event):
    """Play games ``first_game .. first_game + n_games - 1`` in the scratch state ``s``.

    ``legal``: int32 scratch of the game's action count; ``watch``: int64[:] a flat view of
    one of ``s``'s arrays, ``cells`` int64[:] the indices of it watched (may be empty) and
    ``values`` int64[:] what each watched cell must hold (-1: anything non-zero; a card or tile
    id otherwise: the cell holds that id);
    ``mask`` int8[num_actions]: the watched actions. Outputs: ``actions`` int32[n_games, L]
    (each game's first L actions, -1 after its end), ``lengths`` int64[n_games] (decisions;
    the game is cut at L), ``first_event`` int64[n_games] (the decision before which the
    component first came into play: a watched cell non-zero in the state the seat sees, or a
    watched action among its legal ones; the game's length when never). (The compiled loop
    ``_trace_games`` calls the bots through their address: sim/core/fnptr.py.)"""
    return _trace_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
                        legal, watch, cells, values, mask, actions, lengths, first_event,
                        bot_address(s, params))


@njit(cache=True, nogil=True)
def _trace_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params, legal,
                 watch, cells, values, mask, actions, lengths, first_event, fn):
    brng = np.empty(1, np.uint64)
    cap = actions.shape[1]
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        contract.init_state(s, n_players, seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        ev = -1
        d = 0
        while not contract.is_over(s) and d < cap:
            n = contract.legal_actions_into(s, legal)
            if ev < 0:
                for i in range(cells.shape[0]):
                    v = watch[cells[i]]
                    if (values[i] < 0 and v != 0) or (values[i] >= 0 and v == values[i]):
                        ev = d
                        break
            if ev < 0:
                for i in range(n):
                    if mask[legal[i]] != 0:
                        ev = d
                        break
            k = seat_idx[g, contract.current_seat(s)]
            a = call_bot(fn, (np.int64(codes[k]), params, np.int64(k), s, legal, np.int64(n),
                              brng))
            actions[g, d] = a
            contract.apply_inplace(s, a)
            d += 1
        for j in range(d, cap):
            actions[g, j] = -1
        lengths[g] = d
        first_event[g] = ev if ev >= 0 else d
    return 0


def first_reached(sb, sa, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
                  legal, view_b, view_a, stride, seat_out):
    """The seat that a paired nudge reaches first, per game (docs/effects.md, "What a
    leverage row measures"): games ``first_game ..`` of run ``run_seed`` played in lockstep
    in the baseline's scratch state ``sb`` and the arm's ``sa`` (same chance and bot seeds,
    seats ``seat_idx``) until they part. ``view_b``/``view_a``: flat views of one per-seat
    array of each state (``stride`` cells per seat: Go Town's hands). ``seat_out[g]``: the
    first seat whose cells differ after the set-up or after an action (scanned from the seat
    that acted, so a refill is told before the next seat's draw), or the seat whose bot first
    chooses differently; -1 when the games never part. (``_first_reached`` calls the bots
    through their address.)"""
    return _first_reached(sb, sa, first_game, n_games, run_seed, n_players, seat_idx, codes,
                          params, legal, view_b, view_a, stride, seat_out,
                          bot_address(sb, params))


@njit(cache=True, nogil=True)
def _first_reached(sb, sa, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
                   legal, view_b, view_a, stride, seat_out, fn):
    brng_b = np.empty(1, np.uint64)
    brng_a = np.empty(1, np.uint64)
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        contract.init_state(sb, n_players, seed_for(run_seed, gi, np.uint64(0)))
        contract.init_state(sa, n_players, seed_for(run_seed, gi, np.uint64(0)))
        brng_b[0] = seed_for(run_seed, gi, np.uint64(1))
        brng_a[0] = brng_b[0]
        found = -1
        c = 0
        while True:
            for j in range(n_players):
                p = (c + j) % n_players
                for i in range(p * stride, (p + 1) * stride):
                    if view_b[i] != view_a[i]:
                        found = p
                        break
                if found >= 0:
                    break
            if found >= 0 or contract.is_over(sb) or contract.is_over(sa):
                break
            c = contract.current_seat(sb)
            k = seat_idx[g, c]
            n = contract.legal_actions_into(sb, legal)
            a = call_bot(fn, (np.int64(codes[k]), params, np.int64(k), sb, legal, np.int64(n),
                              brng_b))
            n = contract.legal_actions_into(sa, legal)
            b = call_bot(fn, (np.int64(codes[k]), params, np.int64(k), sa, legal, np.int64(n),
                              brng_a))
            if a != b:
                found = c
                break
            contract.apply_inplace(sb, a)
            contract.apply_inplace(sa, a)
        seat_out[g] = found
    return 0
