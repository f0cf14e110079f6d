"""Go Town denial playouts for ``boardsim effects`` (analysis/lab/effects.py, docs/effects.md):
the batch loop ``batch.run_games`` with one seat per game barred from playing one card type
(its ``deny``/``denied`` arguments), and the map from action ids to the card types they play
(docs/games/go_town.md §6)."""

import numpy as np

from sim.go_town import constants as K
from strategies.go_town.batch import run_games


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
    ``card_type`` (``denied[g] == -1``: nobody, the game ``run_chunk`` plays). Returns a dict:
    ``win_share`` float64[n, p], ``end_reason``, ``first_player``, ``turns``, ``decisions``
    int64[n], ``action_hash`` uint64[n], ``seat_detail`` ({``played_<card>``: int64[n, p]})
    and ``held`` int64[n, p] (bit k: the seat held a card of type k at some point)."""
    names = [game.strategy(n).name for n in strategy_names]
    s = game._alloc(game.resolve_options(options))
    codes, params = game.bots.params_matrix(names)
    n = int(n_games)
    out = [np.zeros(n, np.int64) for _ in range(5)]
    score = np.zeros((n, n_players), np.int64)
    played = np.zeros((n, n_players, K.NT), np.int64)
    ahash = np.zeros(n, np.uint64)
    watch = np.zeros((n, n_players, 2), np.int64)
    run_games(s, int(first_game), n, np.uint64(int(run_seed) % 2**64), n_players,
              np.ascontiguousarray(seat_idx, dtype=np.int64), codes, params, *out, score,
              played, ahash, watch, deny_mask(card_type),
              np.ascontiguousarray(denied, dtype=np.int64))
    turns, decisions, end_reason, first, winner = out
    share = np.zeros((n, n_players), np.float64)
    rows = np.nonzero(winner >= 0)[0]
    share[rows, winner[rows]] = 1.0
    return {"win_share": share, "end_reason": end_reason, "first_player": first,
            "turns": turns, "decisions": decisions, "action_hash": ahash,
            "seat_detail": {f"played_{K.CARD_NAMES[k]}": played[:, :, k]
                            for k in range(1, K.NT)},
            "held": watch[:, :, 0].copy()}
