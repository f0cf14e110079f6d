"""Suburbia bot audit (issue #13): the income step, the private goal, investment markers.

Figures per bot (mirror matches) and player count:

- ``turns whose income step is not paid in full``: turns at whose income step (spec §5.2 step
  2) Income is negative and the seat's money is less than it owes, over the seat's turns; the
  state at the income step is found by resolving the turn's last action on a copy of the state
  (``place_tile``, ``invest``, the discard's surcharge); ``population lost to unpaid income
  (mean per seat-game)``: the population the missing dollars cost (1 per $, down to 0);
- ``seat-games ending at Income -5``;
- ``private goal achieved``: seat-games whose private goal is among its goals achieved at the
  end (solo: no goals);
- ``investment markers (mean per seat-game)`` and ``investment markers on a Lake`` (all seats);
- ``population (mean)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core import contract
from sim.core.rng import mix
from sim.suburbia import constants as K
from sim.suburbia.kernels import derived_arrays, invest, place_tile
from tests.bot_audit import _common
from tests.bot_audit._common import Row

GAME = "suburbia"
PLAYERS = [1, 2, 3, 4]
BOTS = ("greedy", "goal-greedy", "denier", "residential-civic", "industrial-airports",
        "commercial", "random")
(S_TURNS, S_UNPAID, S_POP_LOST, S_INC_END, S_PRIV, S_PRIV_DONE, S_INV, S_INV_LAKE, S_POP,
 S_LAKES) = range(10)
NS = 10


@njit(cache=True)
def _pre_income(s, s2, a, c):
    """(money, income, population) of seat ``c`` at the income step that follows action ``a``
    in ``s`` if ``a`` ends the action step; the resolution is done on the copy ``s2``."""
    ph = s.meta[K.M_PHASE]
    contract.copy_into(s, s2)
    kt, pd = derived_arrays(s2)
    if ph == K.PH_PLACE:
        place_tile(s2.meta, s2.opts, s2.tiles, s2.lines, s2.consts, s2.geo, s2.pl, s2.tk,
                   s2.grid, s2.kc, kt, pd, c, s2.meta[K.M_PKIND], a - K.A_PLACE,
                   s2.meta[K.M_PFROM])
    elif ph == K.PH_ACTION and K.A_INVEST <= a < K.A_DISCARD:
        invest(s2.meta, s2.opts, s2.tiles, s2.lines, s2.consts, s2.geo, s2.pl, s2.tk, s2.grid,
               s2.kc, kt, pd, c, a - K.A_INVEST)
    elif ph == K.PH_DISCARD:
        s2.pl[c, K.P_MONEY] -= s2.consts[K.C_SUR0 + a - K.A_DISCARD]
    inc = s2.pl[c, K.P_INC]
    if s2.opts[K.O_CLAMP] == 1:
        inc = max(-5, min(15, inc))
    return s2.pl[c, K.P_MONEY], inc, s2.pl[c, K.P_POP]


@njit(cache=True)
def _play(s, s2, first, n_games, run_seed, n_players, seat_idx, codes, params, reps, out,
          hashes):
    """Play games ``first ..`` (deal ``g // reps`` for chance, game index ``g`` for the bots)
    and fill ``out[g, p, :]`` (columns S_*) and ``hashes[g]`` (the action sequence)."""
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    meta = s.meta
    pl = s.pl
    for g in range(n_games):
        h = _common.start_game(s, first, g, reps, run_seed, n_players, brng, out)
        while not contract.is_over(s):
            _n, c, a = _common.bot_move(s, g, seat_idx, codes, params, legal, brng)
            ph = meta[K.M_PHASE]
            may_end = (ph == K.PH_PLACE or ph == K.PH_DISCARD
                       or (ph == K.PH_ACTION and (a >= K.A_INVEST or a == K.A_PASS)))
            money = 0
            inc = 0
            pop = 0
            if may_end:
                money, inc, pop = _pre_income(s, s2, a, c)
            if ph == K.PH_ACTION and K.A_INVEST <= a < K.A_DISCARD:
                out[g, c, S_INV] += 1
                if s.tk[c, a - K.A_INVEST, K.K_KIND] == K.K_LAKE:
                    out[g, c, S_INV_LAKE] += 1
            contract.apply_inplace(s, a)
            h = mix(h ^ np.uint64(a + 1))
            ph2 = meta[K.M_PHASE]
            if may_end and not (ph2 == K.PH_PLACE or ph2 == K.PH_DISCARD):
                # the action step is over: the income step used (money, inc)
                out[g, c, S_TURNS] += 1
                if inc < 0 and money < -inc:
                    out[g, c, S_UNPAID] += 1
                    miss = -inc - money
                    out[g, c, S_POP_LOST] += miss if miss < pop else pop
        hashes[g] = h
        for p in range(n_players):
            out[g, p, S_INC_END] = pl[p, K.P_INC]
            out[g, p, S_POP] = pl[p, K.P_POP]
            out[g, p, S_LAKES] = s.kc[p, K.K_LAKE]
            gp = s.gpriv[p]
            out[g, p, S_PRIV] = 1 if gp >= 0 else 0
            if gp >= 0 and (pl[p, K.P_GOALBITS] >> gp) & 1:
                out[g, p, S_PRIV_DONE] = 1


def play(n_players: int, names: list[str], seats: np.ndarray, seed: int, reps: int = 1,
         options: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(out int64[n, p, NS], hashes uint64[n])`` of ``n = len(seats)`` games."""
    return _common.play_loop(GAME, _play, NS, n_players, names, seats, seed, reps, options,
                             copies=2)


def _rows(row, out, sg):
    """The audit rows of one bot and player count (see _common.mirror_rows)."""
    return [
        row("turns whose income step is not paid in full", float(out[:, :, S_UNPAID].sum()),
            float(out[:, :, S_TURNS].sum())),
        row("population lost to unpaid income (mean)", float(out[:, :, S_POP_LOST].mean())),
        row("seat-games ending at Income -5", float((out[:, :, S_INC_END] == -5).sum()),
            float(sg)),
        row("private goal achieved", float(out[:, :, S_PRIV_DONE].sum()),
            float(out[:, :, S_PRIV].sum())),
        row("investment markers (mean per seat-game)", float(out[:, :, S_INV].mean())),
        row("investment markers on a Lake", float(out[:, :, S_INV_LAKE].sum()),
            float(out[:, :, S_INV].sum())),
        row("Lakes placed (mean)", float(out[:, :, S_LAKES].mean())),
        row("population (mean)", float(out[:, :, S_POP].mean())),
    ]


def audit(n_games: int, players: list[int], bots: list[str], seed: int = 1) -> list[Row]:
    """The blunder rows of each bot (mirror matches) at each player count."""
    return _common.mirror_rows(GAME, play, n_games, players, bots, seed, _rows)


def cross_check(n_games: int = 100, seed: int = 3) -> None:
    """The loop plays run_chunk's games: equal final income, population and markers."""
    _common.cross_check(GAME, play, (1, 2, 3, 4), n_games, seed,
                        {S_INC_END: lambda r: r.seat_detail["final_income"],
                         S_INV: lambda r: r.seat_detail["investments"],
                         S_LAKES: lambda r: r.seat_detail["lakes"]})
