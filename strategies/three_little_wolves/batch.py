"""The Three Little Wolves batch playouts: many games in one compiled loop, no Python per
decision."""

import numpy as np
from numba import njit

from sim.core.bits import nonneg
from sim.core.rng import ACTION_HASH_START, fold_action, seed_for
from sim.three_little_wolves import constants as K
from sim.three_little_wolves.kernels import (
    TLWState,
    apply_arrays,
    init_arrays,
    legal_into,
    points_arrays,
    random_legal,
)
from strategies import search
from strategies.common import bot_address, call_bot
from strategies.three_little_wolves.bots import choose_arrays


def run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, pts, tb, det, acts, under, ahash):
    """Play games ``first_game ..`` of run ``run_seed`` into the output arrays.

    s: a TLWState used as scratch (its opts/cards/consts select the rules and data);
    seat_idx int64[n_games, n_players]: row of ``codes``/``params`` playing each seat;
    outputs: turns, decisions, end_reason, under (cards under the last pig) int64[n_games];
    pts int64[n_games, n_players, 6] score components; tb int64[n_games, n_players] tie-break;
    det int64[n_games, n_players, 6] detail (D_*); acts int64[n_games, n_players, 3]
    (build, wolf, discard actions);
    ahash uint64[n_games]: each game's action-sequence hash
    (sim.core.rng.fold_action over its actions in order).
    Game i uses seed_for(run_seed, i, 0) for chance and seed_for(run_seed, i, 1) for its bots.
    (The compiled loop ``_run_games`` calls the search through the bots' entry point's
    address: sim/core/fnptr.py.)"""
    return _run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params, turns,
                      decisions, end_reason, pts, tb, det, acts, under, ahash,
                      bot_address(s, params))


@njit(cache=True, nogil=True)
def _run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, pts, tb, det, acts, under, ahash, fn):
    # Unpack the state once; the loop only indexes arrays and calls the array kernels, which
    # are compiled without reference counting (performance note in kernels.py).
    meta = s.meta
    rng = s.rng
    opts = s.opts
    cards = s.cards
    consts = s.consts
    deck = s.deck
    hands = s.hands
    discard = s.discard
    pigs = s.pigs
    tokens = s.tokens
    tie = s.tie
    seat = s.seat
    hs = s.hs
    hf = s.hf
    hb = s.hb
    pile = np.empty(K.NBUILD, np.int64)
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    vals = np.empty(K.NUM_ACTIONS, np.float64)
    cst = np.empty((3, 5), np.int64)
    buf = np.empty(K.NUM_ACTIONS, np.int32)
    pv = np.empty(K.NUM_ACTIONS, np.float64)
    rel = np.empty((16, 5), np.int64)
    relp = np.empty((16, 3), np.float64)
    p_ = np.zeros((4, 6), np.int64)
    t_ = np.zeros(4, np.int64)
    d_ = np.zeros((4, 6), np.int64)
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        init_arrays(meta, rng, opts, cards, consts, deck, hands, discard, pigs, tokens, tie, seat,
                    hs, hf, hb, pile, n_players, seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        h = ACTION_HASH_START
        while meta[K.M_PHASE] != K.PH_OVER:
            k = nonneg(seat_idx[g, nonneg(meta[K.M_CUR])])
            if codes[k] == 0:
                # the random bot, legal[rand_below(n)], mostly without listing (kernels.py)
                a = random_legal(meta, opts, cards, hands, tie, seat, hs, legal, brng)
            elif codes[k] == search.SEARCH_CODE:
                n = legal_into(meta, opts, cards, hands, tie, seat, hs, legal)
                a = call_bot(fn, (np.int64(search.SEARCH_CODE), params, np.int64(k), s, legal,
                                  np.int64(n), brng))
            else:
                n = legal_into(meta, opts, cards, hands, tie, seat, hs, legal)
                a = choose_arrays(codes[k], meta, opts, cards, consts, hands, seat, hs, hf, hb,
                                  legal, n, brng, params, k, vals, cst, buf, pv, rel, relp)
            h = fold_action(h, a)
            apply_arrays(meta, opts, cards, consts, deck, hands, discard, pigs, tokens, tie, seat,
                         hs, hf, hb, np.int32(a))
        turns[g] = meta[K.M_TURN]
        decisions[g] = meta[K.M_DEC]
        ahash[g] = h
        end_reason[g] = meta[K.M_END]
        under[g] = meta[K.M_UNDER]
        points_arrays(meta, opts, cards, consts, hs, hf, cst, p_, t_, d_)
        for p in range(n_players):
            tb[g, p] = t_[p]
            for j in range(6):
                pts[g, p, j] = p_[p, j]
                det[g, p, j] = d_[p, j]
            acts[g, p, 0] = seat[p, K.S_BUILD]
            acts[g, p, 1] = seat[p, K.S_WOLFN]
            acts[g, p, 2] = seat[p, K.S_DISCN]


@njit(cache=True)
def play_out_fast(s, code, params, k, rng, max_d):
    """Play the game in ``s`` in place, to its end or ``max_d`` decisions, with bot ``code``
    (row ``k``) in every seat, drawing from ``rng``: the batch loop's body, the search bot's
    playouts (strategies/search.py). Returns the decisions taken."""
    meta = s.meta
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    vals = np.empty(K.NUM_ACTIONS, np.float64)
    cst = np.empty((3, 5), np.int64)
    buf = np.empty(K.NUM_ACTIONS, np.int32)
    pv = np.empty(K.NUM_ACTIONS, np.float64)
    rel = np.empty((16, 5), np.int64)
    relp = np.empty((16, 3), np.float64)
    d = 0
    while meta[K.M_PHASE] != K.PH_OVER and d < max_d:
        if code == 0:
            a = random_legal(meta, s.opts, s.cards, s.hands, s.tie, s.seat, s.hs, legal, rng)
        else:
            n = legal_into(meta, s.opts, s.cards, s.hands, s.tie, s.seat, s.hs, legal)
            a = choose_arrays(code, meta, s.opts, s.cards, s.consts, s.hands, s.seat, s.hs, s.hf,
                              s.hb, legal, n, rng, params, k, vals, cst, buf, pv, rel, relp)
        apply_arrays(meta, s.opts, s.cards, s.consts, s.deck, s.hands, s.discard, s.pigs,
                     s.tokens, s.tie, s.seat, s.hs, s.hf, s.hb, np.int32(a))
        d += 1
    return d


search.register_playout(TLWState, play_out_fast)
