"""Go Town batch playouts: many games in one compiled loop, no Python per decision."""

import numpy as np
from numba import njit

from sim.core.bits import nonneg
from sim.core.rng import ACTION_HASH_START, fold_action, rand_below, seed_for
from sim.go_town import constants as K
from sim.go_town.kernels import (
    N_BOARD,
    GoTownState,
    apply_arrays,
    count_legal,
    derived_arrays,
    init_arrays,
    legal_bits,
    list_legal,
    nth_legal,
)
from strategies import search
from strategies.common import bot_address, call_bot
from strategies.go_town.bots import choose_arrays, own_hold


@njit(cache=True, _nrt=False)
def attack_target(a):
    """The seat an action attacks (STEAL, BONE, DRILL, WRECK, MILK, THIEF), else -1."""
    if K.A_STEAL <= a < K.A_DOG:
        return (a - K.A_STEAL) // 4
    if K.A_BONE <= a < K.A_DRILL:
        return (a - K.A_BONE) // K.MAXF
    if K.A_DRILL <= a < K.A_DONUT:
        return (a - K.A_DRILL) % 4
    return -1


def run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, first_player, winner, score, played, ahash, watch,
              deny, denied):
    """Play games ``first_game ..`` of run ``run_seed`` into the output arrays.

    s: a GoTownState used as scratch (its opts/counts/consts select the rules and data);
    seat_idx int64[n_games, n_players]: row of ``codes``/``params`` playing each seat;
    outputs: turns, decisions, end_reason, first_player, winner int64[n_games];
    score int64[n_games, n_players]; played int64[n_games, n_players, 18].
    ahash uint64[n_games]: each game's action-sequence hash
    (sim.core.rng.fold_action over its actions in order).
    watch int64[n_games, n_players, 2]: what the report reads besides the results (it changes
    no game): ``[..., 0]`` bit k = the seat held a card of type k at some point;
    ``[..., 1]`` bit v = the seat attacked seat v (STEAL, BONE, DRILL, WRECK, MILK or THIEF
    aimed at v) while v led alone one floor (or less) from the target and the seat had at
    least 2 floors fewer than v (it could not win on its next turn).
    Game i uses seed_for(run_seed, i, 0) for chance and seed_for(run_seed, i, 1) for its bots.
    deny int8[num_actions], denied int64[n_games] (``boardsim effects``' denial arm,
    strategies/go_town/deny.py): in game g the seat ``denied[g]`` (-1: none) never chooses an
    action ``a`` with ``deny[a] != 0`` while it has another legal action (its legal list is
    filtered before its bot sees it; when every legal action is denied, or none is, the list is
    kept whole). Every other seat, and every game with ``denied[g] == -1``, plays exactly as
    without them (same bot generator draws), so game g of a denial run and of the baseline run
    are common random numbers.
    (The compiled loop ``_run_games`` calls the search through the bots' entry point's
    address: sim/core/fnptr.py.)"""
    return _run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params, turns,
                      decisions, end_reason, first_player, winner, score, played, ahash, watch,
                      deny, denied,
                      bot_address(s, params))


@njit(cache=True, nogil=True)
def _run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, first_player, winner, score, played, ahash, watch,
              deny, denied, fn):
    # Unpack the state once; the loop only indexes arrays and calls the array kernels, which
    # are compiled without reference counting (performance note in kernels.py).
    meta = s.meta
    rng = s.rng
    opts = s.opts
    counts = s.counts
    consts = s.consts
    deck = s.deck
    discard = s.discard
    hands = s.hands
    floors = s.floors
    values = s.values
    dogs = s.dogs
    n_floors = s.n_floors
    skips = s.skips
    milk = s.milk
    s_played = s.played
    memo = s.memo
    # the derived arrays (kernels.py), set up by init_arrays and kept by the kernels
    hn = np.empty(K.MAXP, np.int64)
    hm = np.empty(K.MAXP, np.int64)
    dogbits = np.empty(K.MAXP, np.int64)
    board = np.empty(N_BOARD, np.int64)
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    bot = np.empty(K.MAXP, np.int64)  # strategy code of each seat in the current game
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        init_arrays(meta, rng, opts, counts, consts, deck, discard, hands, floors, values, dogs,
                    n_floors, skips, milk, s_played, memo, hn, hm, dogbits, board, n_players,
                    seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        h = ACTION_HASH_START
        first_player[g] = meta[K.M_CUR]
        record = False  # the memo is written only when a search seat may read it
        for p in range(n_players):
            bot[p] = codes[seat_idx[g, p]]
            record |= bot[p] == search.SEARCH_CODE
            watch[g, p, 0] = hm[p]
            watch[g, p, 1] = 0
        while meta[K.M_PHASE] != K.PH_OVER:
            lo, d0, d1, b0, b1, hi = legal_bits(meta, opts, consts, skips, hn, hm, board)
            c = nonneg(meta[K.M_CUR])
            m = 0  # > 0: the denied seat's filtered legal list legal[:m]
            if c == denied[g]:
                n = list_legal(lo, d0, d1, b0, b1, hi, legal)
                for i in range(n):
                    if deny[legal[i]] == 0:
                        legal[m] = legal[i]
                        m += 1
                if m == n or m == 0:
                    m = 0  # nothing denied among the legal actions, or nothing else legal
            if m > 0:
                k = nonneg(seat_idx[g, c])
                if bot[c] == 0:
                    a = legal[rand_below(brng, m)]
                elif bot[c] == search.SEARCH_CODE:
                    a = call_bot(fn, (np.int64(search.SEARCH_CODE), params, np.int64(k), s, legal,
                                      np.int64(m), brng))
                else:
                    a = choose_arrays(bot[c], params, k, meta, opts, consts, counts, discard,
                                      hands, floors, values, dogs, n_floors, skips, hn, legal,
                                      m, brng)
            elif bot[c] == 0:
                # the random bot, legal[rand_below(n)], from the bit sets without listing them
                a = nth_legal(lo, d0, d1, b0, b1, hi,
                              rand_below(brng, count_legal(lo, d0, d1, b0, b1, hi)))
            elif bot[c] == search.SEARCH_CODE:
                n = list_legal(lo, d0, d1, b0, b1, hi, legal)
                a = call_bot(fn, (np.int64(search.SEARCH_CODE), params, np.int64(nonneg(seat_idx[g,
                                  c])), s, legal, np.int64(n), brng))
            else:
                n = list_legal(lo, d0, d1, b0, b1, hi, legal)
                k = nonneg(seat_idx[g, c])
                a = choose_arrays(bot[c], params, k, meta, opts, consts, counts, discard, hands,
                                  floors, values, dogs, n_floors, skips, hn, legal, n, brng)
            h = fold_action(h, a)
            v = attack_target(a)
            if (v >= 0 and n_floors[v] >= opts[K.O_TARGET] - 1
                    and n_floors[v] >= n_floors[c] + 2):
                alone = True
                for u in range(n_players):
                    if u != v and n_floors[u] >= n_floors[v]:
                        alone = False
                if alone:
                    watch[g, c, 1] |= 1 << v
            apply_arrays(meta, rng, opts, counts, consts, deck, discard, hands, floors, values,
                         dogs, n_floors, skips, milk, s_played, memo, hn, hm, dogbits, board,
                         np.int32(a), record)
            for p in range(n_players):
                watch[g, p, 0] |= hm[p]
        turns[g] = meta[K.M_TURN]
        decisions[g] = meta[K.M_DEC]
        ahash[g] = h
        end_reason[g] = meta[K.M_END]
        winner[g] = meta[K.M_WINNER]
        for p in range(n_players):
            score[g, p] = n_floors[p]
            for j in range(played.shape[2]):
                played[g, p, j] = s_played[p, j]


@njit(cache=True)
def play_out_fast(s, code, params, k, rng, max_d):
    """Play the game in ``s`` in place, to its end or ``max_d`` decisions, with bot ``code``
    (row ``k``) in every seat, drawing from ``rng``: the batch loop's body (derived arrays
    kept), the search bot's playouts (strategies/search.py). Returns the decisions taken. The
    memo is not written (``apply_arrays``' ``record``): a playout's state is never read by a
    search, so its memo stays as the playout found it. ``play_out_self`` with no seat
    following the own-seat rule (the same loop: the same draws and moves)."""
    return play_out_self(s, code, params, k, rng, max_d, -1, k)


@njit(cache=True)
def play_out_self(s, code, params, k, rng, max_d, me, ks):
    """``play_out_fast`` with seat ``me`` (the searching seat) following the search's
    own-seat rule on top of row ``k`` (``bots.own_hold``, its numbers in the search row ``ks``
    after ``search.N_SEARCH``): the search's playouts (``search.register_playout_self``).
    ``me`` -1: every seat plays row ``k`` (``play_out_fast``); with the rule's numbers all
    zero, the same moves as that."""
    hn, hm, dogbits, board = derived_arrays(s)
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    meta = s.meta
    prow = params[ks]
    d = 0
    while meta[K.M_PHASE] != K.PH_OVER and d < max_d:
        lo, d0, d1, b0, b1, hi = legal_bits(meta, s.opts, s.consts, s.skips, hn, hm, board)
        if code == 0:
            a = nth_legal(lo, d0, d1, b0, b1, hi,
                          rand_below(rng, count_legal(lo, d0, d1, b0, b1, hi)))
        else:
            n = list_legal(lo, d0, d1, b0, b1, hi, legal)
            a = choose_arrays(code, params, k, meta, s.opts, s.consts, s.counts, s.discard,
                              s.hands, s.floors, s.values, s.dogs, s.n_floors, s.skips, hn,
                              legal, n, rng)
            if meta[K.M_CUR] == me and own_hold(a, me, meta, s.opts, s.consts, s.hands,
                                                s.dogs, s.n_floors, s.skips, hn, prow,
                                                search.N_SEARCH):
                a = K.A_END
        apply_arrays(meta, s.rng, s.opts, s.counts, s.consts, s.deck, s.discard, s.hands,
                     s.floors, s.values, s.dogs, s.n_floors, s.skips, s.milk, s.played, s.memo,
                     hn, hm, dogbits, board, np.int32(a), False)
        d += 1
    return d


search.register_playout(GoTownState, play_out_fast)
search.register_playout_self(GoTownState, play_out_self)
