"""Suburbia batch playouts: many games in one compiled loop, no Python per decision."""

import numpy as np
from numba import njit

from sim.core import contract
from sim.core.bits import nth_bit, popcount
from sim.core.rng import ACTION_HASH_START, fold_action, rand_below, seed_for
from sim.suburbia import constants as K
from sim.suburbia.detail import D_DRY_ROUND, D_DRY_TURNS, D_MARKET_MIN, D_PASSES, detail_row
from sim.suburbia.kernels import (
    NKT,
    NPD,
    SuburbiaState,
    action_bits,
    apply_arrays,
    derived_arrays,
    frontier_count,
    frontier_nth,
    init_arrays,
    init_scratch_size,
    kind_tables,
    legal_actions_arrays,
)
from strategies import search, soak
from strategies.common import bot_address, call_bot
from strategies.suburbia.bots import CELLS, WORK, choose_arrays


@njit(cache=True)
def chunk_arrays(s):
    """The derived arrays (kernels.py) of a chunk of games on the rules and data of ``s``: the
    kind tables ``kt`` int64[NK, NKT] (filled here, once per chunk), the seat rows ``pd``
    int64[MAXP, NPD] (zero; ``init_arrays``/``apply_arrays`` keep them) and ``init_arrays``'
    scratch ``work`` (int64). Inlined into ``run_games`` and ``soak_chunk``."""
    kt = np.zeros((K.NK, NKT), np.int64)
    pd = np.zeros((K.MAXP, NPD), np.int64)
    kind_tables(s.opts, s.tiles, s.goals, kt)
    return kt, pd, np.empty(init_scratch_size(s.tiles), np.int64)


@njit(cache=True)
def state_arrays(s):
    """The arrays of ``s`` in the order the kernels take them (meta, rng, opts, tiles, goals,
    lines, consts, geo, pile, market, discard, box, supply, gpub, goffer, gpriv, pl, tk, grid,
    kc), bound once per chunk: a loop that passes ``s.<field>`` at every call pays a reference
    count per array and call."""
    return (s.meta, s.rng, s.opts, s.tiles, s.goals, s.lines, s.consts, s.geo, s.pile, s.market,
            s.discard, s.box, s.supply, s.gpub, s.goffer, s.gpriv, s.pl, s.tk, s.grid, s.kc)


def run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, keys, detail, ahash):
    """Play games ``first_game ..`` of run ``run_seed`` into the output arrays.

    s: a SuburbiaState used as scratch (its opts and data select the rules);
    seat_idx int64[n_games, n_players]: row of ``codes``/``params`` playing each seat;
    outputs: turns, decisions, end_reason int64[n_games]; keys int64[n_games, n_players, 4]
    (population, reputation, income, money: the ranking keys); detail
    int64[n_games, n_players, N_DETAIL];
    ahash uint64[n_games]: each game's action-sequence hash
    (sim.core.rng.fold_action over its actions in order).
    Game i uses seed_for(run_seed, i, 0) for chance and seed_for(run_seed, i, 1) for its bots.
    (The compiled loop ``_run_games`` calls the search through the bots' entry point's
    address: sim/core/fnptr.py.)"""
    return _run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params, turns,
                      decisions, end_reason, keys, detail, ahash,
                      bot_address(s, params))


@njit(cache=True, nogil=True)
def _run_games(s, first_game, n_games, run_seed, n_players, seat_idx, codes, params,
              turns, decisions, end_reason, keys, detail, ahash, fn):
    meta = s.meta
    rng = s.rng
    opts = s.opts
    tiles = s.tiles
    goals = s.goals
    lines = s.lines
    consts = s.consts
    geo = s.geo
    pile = s.pile
    market = s.market
    discard = s.discard
    box = s.box
    supply = s.supply
    gpub = s.gpub
    goffer = s.goffer
    gpriv = s.gpriv
    pl = s.pl
    tk = s.tk
    grid = s.grid
    kc = s.kc
    kt, pd, work = chunk_arrays(s)
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    cells = np.zeros(CELLS, np.int64)
    w = np.zeros(WORK, np.float64)
    brng = np.empty(1, np.uint64)
    passes = np.zeros(K.MAXP, np.int64)
    dry = np.zeros(K.MAXP, np.int64)
    for g in range(n_games):
        gi = np.uint64(first_game + g)
        init_arrays(meta, rng, opts, tiles, goals, lines, consts, geo, pile, market, discard,
                    box, supply, gpub, goffer, gpriv, pl, tk, grid, kc, kt, pd, work, n_players,
                    seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        h = ACTION_HASH_START
        # recorded only (issue 16 rule holes, docs §13): PASS actions and turns begun with a dry
        # market (the pile empty and fewer than NSLOTS tiles), per seat; the first round of
        # such a turn and the fewest tiles in the market at the start of any turn, per game
        for p in range(n_players):
            passes[p] = 0
            dry[p] = 0
        dry_round = 0
        market_min = K.NSLOTS
        last_turn = -1
        while meta[K.M_PHASE] != K.PH_OVER:
            c = meta[1]
            if meta[K.M_TURN] != last_turn:
                last_turn = meta[K.M_TURN]
                in_market = 0
                for i in range(K.NSLOTS):
                    if market[i] != 0:
                        in_market += 1
                if in_market < market_min:
                    market_min = in_market
                if meta[K.M_PILEN] == 0 and in_market < K.NSLOTS:
                    dry[c] += 1
                    if dry_round == 0:
                        dry_round = meta[K.M_ROUND]
            k = seat_idx[g, c]
            ph = meta[K.M_PHASE]
            if codes[k] == 0 and ph == K.PH_PLACE:
                # the random bot, legal[rand_below(n)], from the frontier bits without a list
                a = K.A_PLACE + frontier_nth(pd, c, rand_below(brng, frontier_count(pd, c)))
            elif codes[k] == 0 and ph == K.PH_ACTION:
                # the same from the bit set of the action step
                m = action_bits(tiles, consts, market, supply, pl, tk, pd, c)
                a = nth_bit(m, rand_below(brng, popcount(m)))
            else:
                n = legal_actions_arrays(meta, opts, tiles, consts, market, supply, pl, tk, pd,
                                         legal)
                if codes[k] == 0:
                    a = legal[rand_below(brng, n)]
                elif codes[k] == search.SEARCH_CODE:
                    a = call_bot(fn, (np.int64(search.SEARCH_CODE), params, np.int64(k), s, legal,
                                      np.int64(n), brng))
                else:
                    a = choose_arrays(codes[k], params, k, meta, opts, tiles, goals, lines,
                                      consts, geo, market, supply, gpub, goffer, gpriv, pl, tk,
                                      grid, kc, kt, pd, legal, n, brng, cells, w)
            h = fold_action(h, a)
            if a == K.A_PASS:
                passes[c] += 1
            apply_arrays(meta, rng, opts, tiles, goals, lines, consts, geo, pile, market,
                         discard, box, supply, gpub, goffer, gpriv, pl, tk, grid, kc, kt, pd, np.int32(a))
        turns[g] = meta[K.M_TURN]
        decisions[g] = meta[K.M_DEC]
        ahash[g] = h
        end_reason[g] = meta[K.M_END]
        for p in range(n_players):
            keys[g, p, 0] = pl[p, K.P_POP]
            keys[g, p, 1] = pl[p, K.P_REP]
            keys[g, p, 2] = pl[p, K.P_INC]
            keys[g, p, 3] = pl[p, K.P_MONEY]
            detail_row(meta, tiles, pile, box, gpub, gpriv, pl, tk, kc, p, detail, g)
            detail[g, p, D_PASSES] = passes[p]
            detail[g, p, D_DRY_TURNS] = dry[p]
            detail[g, p, D_DRY_ROUND] = dry_round
            detail[g, p, D_MARKET_MIN] = market_min


@njit(cache=True)
def play_out_fast(s, code, params, k, rng, max_d):
    """Play the game in ``s`` in place, to its end or ``max_d`` decisions, with bot ``code``
    (row ``k``) in every seat, drawing from ``rng``: the batch loop's body (derived arrays
    kept), the search bot's playouts (strategies/search.py). Returns the decisions taken."""
    meta = s.meta
    kt, pd = derived_arrays(s)
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    cells = np.zeros(CELLS, np.int64)
    w = np.zeros(WORK, np.float64)
    d = 0
    while meta[K.M_PHASE] != K.PH_OVER and d < max_d:
        c = meta[1]
        ph = meta[K.M_PHASE]
        if code == 0 and ph == K.PH_PLACE:
            a = K.A_PLACE + frontier_nth(pd, c, rand_below(rng, frontier_count(pd, c)))
        elif code == 0 and ph == K.PH_ACTION:
            m = action_bits(s.tiles, s.consts, s.market, s.supply, s.pl, s.tk, pd, c)
            a = nth_bit(m, rand_below(rng, popcount(m)))
        else:
            n = legal_actions_arrays(meta, s.opts, s.tiles, s.consts, s.market, s.supply, s.pl,
                                     s.tk, pd, legal)
            if code == 0:
                a = legal[rand_below(rng, n)]
            else:
                a = choose_arrays(code, params, k, meta, s.opts, s.tiles, s.goals, s.lines,
                                  s.consts, s.geo, s.market, s.supply, s.gpub, s.goffer, s.gpriv,
                                  s.pl, s.tk, s.grid, s.kc, kt, pd, legal, n, rng, cells, w)
        apply_arrays(meta, s.rng, s.opts, s.tiles, s.goals, s.lines, s.consts, s.geo, s.pile,
                     s.market, s.discard, s.box, s.supply, s.gpub, s.goffer, s.gpriv, s.pl, s.tk,
                     s.grid, s.kc, kt, pd, np.int32(a))
        d += 1
    return d


search.register_playout(SuburbiaState, play_out_fast)


@njit(cache=True)
def _soak_chunk(s, s0, first, n_games, run_seed, p_fixed, lo, span, rows, m_rot, codes, params,
               limit, max_bad, bad_idx, bad_code, bad_step, legal, fn):
    """Suburbia's soak loop: ``strategies.soak.soak_chunk`` (same arguments, same games, same
    outputs) on the batch loop's kernels: the derived arrays (kind tables, seat rows) built
    once per chunk (``chunk_arrays``) and kept by ``init_arrays``/``apply_arrays``, the legal
    set from ``legal_actions_arrays``, the bots through ``choose_arrays``; the ``invariants``
    kernel after the set-up and after every decision. Returns int64[3]: games played,
    decisions checked, violations found.
    ``fn``: the bots' entry point's address (``soak.taking_the_bots``)."""
    (meta, rng, opts, tiles, goals, lines, consts, geo, pile, market, discard, box, supply, gpub,
     goffer, gpriv, pl, tk, grid, kc) = state_arrays(s)
    kt, pd, work = chunk_arrays(s)
    cells = np.zeros(CELLS, np.int64)
    w = np.zeros(WORK, np.float64)
    out = np.zeros(3, np.int64)
    brng = np.empty(1, np.uint64)
    for g in range(n_games):
        i = first + g
        seed = soak.start_game(s0, s, run_seed, i, brng)
        init_arrays(meta, rng, opts, tiles, goals, lines, consts, geo, pile, market, discard,
                    box, supply, gpub, goffer, gpriv, pl, tk, grid, kc, kt, pd, work,
                    soak.players_of(i, p_fixed, lo, span), seed)
        steps = 0
        code = contract.invariants(s)
        while code == 0 and meta[K.M_PHASE] != K.PH_OVER:
            n = legal_actions_arrays(meta, opts, tiles, consts, market, supply, pl, tk, pd,
                                     legal)
            if n == 0:
                code = soak.NO_LEGAL
                break
            k = soak.seat_row(i, meta[1], m_rot, rows)
            if codes[k] == search.SEARCH_CODE:
                a = call_bot(fn, (np.int64(search.SEARCH_CODE), params, np.int64(k), s, legal,
                                  np.int64(n), brng))
            else:
                a = choose_arrays(codes[k], params, k, meta, opts, tiles, goals, lines, consts,
                                  geo, market, supply, gpub, goffer, gpriv, pl, tk, grid, kc, kt,
                                  pd, legal, n, brng, cells, w)
            if not soak.listed(a, legal, n):
                code = soak.ILLEGAL
                break
            apply_arrays(meta, rng, opts, tiles, goals, lines, consts, geo, pile, market,
                         discard, box, supply, gpub, goffer, gpriv, pl, tk, grid, kc, kt, pd, np.int32(a))
            steps += 1
            code = soak.check_step(s, steps, limit)
        if soak.record_violation(out, i, steps, code, max_bad, bad_idx, bad_code, bad_step):
            break
    return out


soak_chunk = soak.taking_the_bots(_soak_chunk)
