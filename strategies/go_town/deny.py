"""Go Town denial playouts for ``boardsim effects`` (analysis/effects.py, docs/effects.md):
the batch loop of ``batch.run_games`` with one seat per game barred from playing one card
type, and the map from action ids to the card types they play (docs/games/go_town.md §6)."""

import numpy as np
from numba import njit

from sim.core.bits import nonneg
from sim.core.rng import ACTION_HASH_START, fold_action, rand_below, seed_for
from sim.go_town import constants as K
from sim.go_town.kernels import (
    N_BOARD,
    apply_arrays,
    count_legal,
    init_arrays,
    legal_bits,
    list_legal,
    nth_legal,
)
from strategies.go_town.bots import choose_arrays


def deny_mask(card_type: int) -> np.ndarray:
    """``int8[num_actions]``: 1 for every action that plays a card of ``card_type`` (1..17:
    the numbers 1..8, ``?`` = 9, DOG .. MASTER = 10..17): the BUILDs that use it, and the
    special card's own actions. DISCARD and END_TURN are never denied, nor STEAL (no card)."""
    m = np.zeros(K.NUM_ACTIONS, np.int8)
    for a in range(1, 5):  # BUILD lo + hi
        if card_type in (a, 9 - a):
            m[a] = 1
    for a in range(5, 13):  # BUILD ? + n
        if card_type in (K.QM, a - 4):
            m[a] = 1
    spans = {K.DOG: (29, 101), K.BONE: (101, 173), K.DRILL: (173, 177), K.WRECK: (177, 181),
             K.MILK: (181, 185), K.THIEF: (185, 189), K.DONUT: (189, 190),
             K.MASTER: (190, 191)}
    if card_type in spans:
        lo, hi = spans[card_type]
        m[lo:hi] = 1
    return m


def play_chunk_denied(game, first_game, n_games, run_seed, n_players, seat_idx, options,
                      strategy_names, card_type, denied):
    """``Game.run_chunk`` of a Go Town instance with seat ``denied[g]`` of game g barred from
    ``card_type``; returns ``(win_share float64[n, p], end_reason int64[n], first_player
    int64[n], turns int64[n])``."""
    names = [game.strategy(n).name for n in strategy_names]
    s = game._alloc(game.resolve_options(options))
    codes, params = game.bots.params_matrix(names)
    n = int(n_games)
    out = [np.zeros(n, np.int64) for _ in range(5)]
    score = np.zeros((n, n_players), np.int64)
    played = np.zeros((n, n_players, K.NT), np.int64)
    ahash = np.zeros(n, np.uint64)
    run_games_denied(s, int(first_game), n, np.uint64(int(run_seed) % 2**64), n_players,
                     np.ascontiguousarray(seat_idx, dtype=np.int64), codes, params, *out,
                     score, played, ahash, deny_mask(card_type),
                     np.ascontiguousarray(denied, dtype=np.int64))
    turns, _decisions, end_reason, first, winner = out
    share = np.zeros((n, n_players), np.float64)
    rows = np.nonzero(winner >= 0)[0]
    share[rows, winner[rows]] = 1.0
    return share, end_reason, first, turns


@njit(cache=True, nogil=True)
def run_games_denied(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
                     turns, decisions, end_reason, first_player, winner, score, played, ahash,
                     deny, denied):
    """``batch.run_games`` with one seat per game denied a component: in game g the seat
    ``denied[g]`` (-1: none) never chooses an action ``a`` with ``deny[a] != 0`` while it has
    another legal action (its legal list is filtered before its bot sees it; when every legal
    action is denied, the list is kept whole). Every other seat, and the denied seat when
    nothing it could do is denied, plays exactly as in ``run_games`` (same bot generator
    draws), so game g of a denial run and of the baseline run are common random numbers.
    ``deny``: int8[num_actions]; ``denied``: int64[n_games]. Other arguments and outputs as
    ``run_games``.
    """
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
                    n_floors, skips, milk, s_played, hn, hm, dogbits, board, n_players,
                    seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        h = ACTION_HASH_START
        first_player[g] = meta[K.M_CUR]
        for p in range(n_players):
            bot[p] = codes[seat_idx[g, p]]
        while meta[K.M_PHASE] != K.PH_OVER:
            lo, d0, d1, b0, b1, hi = legal_bits(meta, opts, consts, skips, hn, hm, board)
            c = nonneg(meta[K.M_CUR])
            m = 0
            if c == denied[g]:
                n = list_legal(lo, d0, d1, b0, b1, hi, legal)
                for i in range(n):
                    if deny[legal[i]] == 0:
                        legal[m] = legal[i]
                        m += 1
                if m == n or m == 0:
                    m = 0  # nothing denied among the legal actions, or nothing else legal
            if m > 0:
                if bot[c] == 0:
                    a = legal[rand_below(brng, m)]
                else:
                    k = nonneg(seat_idx[g, c])
                    a = choose_arrays(bot[c], params, k, meta, opts, consts, counts, discard,
                                      hands, floors, values, dogs, n_floors, skips, hn, legal,
                                      m, brng)
            elif bot[c] == 0:
                # the random bot, legal[rand_below(n)], from the bit sets without listing them
                a = nth_legal(lo, d0, d1, b0, b1, hi,
                              rand_below(brng, count_legal(lo, d0, d1, b0, b1, hi)))
            else:
                n = list_legal(lo, d0, d1, b0, b1, hi, legal)
                k = nonneg(seat_idx[g, c])
                a = choose_arrays(bot[c], params, k, meta, opts, consts, counts, discard, hands,
                                  floors, values, dogs, n_floors, skips, hn, legal, n, brng)
            h = fold_action(h, a)
            apply_arrays(meta, rng, opts, counts, consts, deck, discard, hands, floors, values,
                         dogs, n_floors, skips, milk, s_played, hn, hm, dogbits, board, a)
        turns[g] = meta[K.M_TURN]
        decisions[g] = meta[K.M_DEC]
        ahash[g] = h
        end_reason[g] = meta[K.M_END]
        winner[g] = meta[K.M_WINNER]
        for p in range(n_players):
            score[g, p] = n_floors[p]
            for j in range(played.shape[2]):
                played[g, p, j] = s_played[p, j]
