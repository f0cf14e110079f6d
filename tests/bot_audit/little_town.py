"""Little Town bot audit (issue #13): unfed workers, coins spent on cubes before the feeding,
exchanges paid for nothing, cubes left over, the Cathedral and the Residence.

Figures per bot (mirror matches) and player count:

- ``seat-games with an unfed worker``: seat-games with ``stats.unfed > 0`` (a -3 VP penalty);
- ``... after buying cubes that round``: of those, the seat-games where the seat bought cubes
  with coins (not food at the feeding) in a round in which it then left a worker unfed;
- ``Carpenter paid with no wood in the supply``: Carpenter activations while the supply held no
  wood (the coin buys nothing), over Carpenter activations; ``exchanges paid for nothing``: any
  activation of an exchange building whose every output was capped to zero by the supply;
- ``cubes held at the end (mean)``: unused cubes (they score nothing);
- ``Cathedral built in round``: mean round, and the share built in the last round;
  ``Cathedral VP from workers (mean per build)``; ``Residence built (games with it on offer)``;
- ``score (mean)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core import contract
from sim.core.rng import mix
from sim.little_town import constants as K
from tests.bot_audit import _common
from tests.bot_audit._common import Row

GAME = "little-town"
PLAYERS = [2, 3, 4]
BOTS = ("greedy", "builder", "gatherer", "greedy-draft-random", "random")
B_CARPENTER = 6
(S_UNFED, S_UNFED_AFTER_BUY, S_CARP, S_CARP_DRY, S_EXCH, S_EXCH_DRY, S_CUBES_END, S_CATH_ROUND,
 S_CATH_VP, S_RES_BUILT, S_RES_OFFER, S_SCORE, S_COINS_END, S_BOUGHT) = range(14)
NS = 14


@njit(cache=True)
def _play(s, first, n_games, run_seed, n_players, seat_idx, codes, params, reps, out, hashes):
    """Play games ``first ..`` (deal ``g // reps`` for chance, game index ``g`` for the bots)
    and fill ``out[g, p, :]`` (columns S_*) and ``hashes[g]`` (the action sequence)."""
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    sc = np.zeros(4, np.float64)
    bought = np.zeros(4, np.int64)  # non-food cubes bought this round, per seat
    nb = np.zeros(4, np.int64)
    unfed0 = np.zeros(4, np.int64)
    meta = s.meta
    seat = s.seat
    for g in range(n_games):
        h = _common.start_game(s, first, g, reps, run_seed, n_players, brng, out)
        for p in range(n_players):
            bought[p] = 0
        while not contract.is_over(s):
            _n, c, a = _common.bot_move(s, g, seat_idx, codes, params, legal, brng)
            ph = meta[K.M_PHASE]
            if (ph == K.PH_ACT or ph == K.PH_RES) and K.A_ACT <= a < K.A_PAWN:
                x = s.geo[meta[K.P_CELL], K.GE_NBR + a - K.A_ACT]
                b = s.cells[K.CE_BLD, x]
                if s.bdata[b, K.BD_KIND] == K.K_X:
                    gets = s.bdata[b, K.BD_OUTVP] + s.bdata[b, K.BD_OUTC]
                    for t in range(4):
                        if s.bdata[b, K.BD_OUT + t] > 0:
                            gets += min(s.bdata[b, K.BD_OUT + t], meta[K.M_SUPPLY + t])
                    out[g, c, S_EXCH] += 1
                    if gets == 0:
                        out[g, c, S_EXCH_DRY] += 1
                if b == B_CARPENTER:
                    out[g, c, S_CARP] += 1
                    if meta[K.M_SUPPLY + K.WOOD] == 0:
                        out[g, c, S_CARP_DRY] += 1
            rnd = meta[K.M_ROUND]
            for p in range(n_players):
                nb[p] = (seat[p, K.SE_STATS + K.ST_CUBES_BOUGHT]
                         - seat[p, K.SE_STATS + K.ST_FOOD_BOUGHT])
                unfed0[p] = seat[p, K.SE_STATS + K.ST_UNFED]
            contract.apply_inplace(s, a)
            h = mix(h ^ np.uint64(a + 1))
            for p in range(n_players):
                bought[p] += (seat[p, K.SE_STATS + K.ST_CUBES_BOUGHT]
                              - seat[p, K.SE_STATS + K.ST_FOOD_BOUGHT]) - nb[p]
                if seat[p, K.SE_STATS + K.ST_UNFED] > unfed0[p] and bought[p] > 0:
                    out[g, p, S_UNFED_AFTER_BUY] = 1
            if meta[K.M_ROUND] != rnd:
                for p in range(n_players):
                    bought[p] = 0
        hashes[g] = h
        contract.scores_into(s, sc)
        for p in range(n_players):
            out[g, p, S_UNFED] = seat[p, K.SE_STATS + K.ST_UNFED]
            cubes = 0
            for t in range(4):
                cubes += seat[p, K.SE_CUBES + t]
            out[g, p, S_CUBES_END] = cubes
            out[g, p, S_CATH_ROUND] = s.sb[p, K.SB_BROUND, K.B_CATHEDRAL]
            out[g, p, S_CATH_VP] = seat[p, K.SE_STATS + K.ST_VP_CATH]
            out[g, p, S_RES_BUILT] = s.sb[p, K.SB_BUILT, K.B_RESIDENCE]
            out[g, p, S_RES_OFFER] = 1 if s.mkt[K.MK_START, K.B_RESIDENCE] > 0 else 0
            out[g, p, S_SCORE] = np.int64(sc[p])
            out[g, p, S_COINS_END] = seat[p, K.SE_COINS]
            out[g, p, S_BOUGHT] = (seat[p, K.SE_STATS + K.ST_CUBES_BOUGHT]
                                   - seat[p, K.SE_STATS + K.ST_FOOD_BOUGHT])


def play(n_players: int, names: list[str], seats: np.ndarray, seed: int, reps: int = 1,
         options: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(out int64[n, p, NS], hashes uint64[n])`` of ``n = len(seats)`` games."""
    return _common.play_loop(GAME, _play, NS, n_players, names, seats, seed, reps, options)


def _rows(row, out, sg):
    """The audit rows of one bot and player count (see _common.mirror_rows)."""
    unfed = out[:, :, S_UNFED] > 0
    cath = out[:, :, S_CATH_ROUND] > 0
    offer = out[:, 0, S_RES_OFFER] > 0
    last = 4  # default rounds
    return [
        row("seat-games with an unfed worker", float(unfed.sum()), float(sg)),
        row("... after buying cubes that round", float(out[:, :, S_UNFED_AFTER_BUY].sum()),
            float(sg)),
        row("unfed workers per seat-game (mean)", float(out[:, :, S_UNFED].mean())),
        row("Carpenter paid with no wood in the supply", float(out[:, :, S_CARP_DRY].sum()),
            float(out[:, :, S_CARP].sum())),
        row("exchanges paid for nothing", float(out[:, :, S_EXCH_DRY].sum()),
            float(out[:, :, S_EXCH].sum())),
        row("cubes held at the end (mean)", float(out[:, :, S_CUBES_END].mean())),
        row("cubes bought with coins (mean)", float(out[:, :, S_BOUGHT].mean())),
        row("Cathedral built (seat-games)", float(cath.sum()), float(sg)),
        row("Cathedral built in the last round", float((out[:, :, S_CATH_ROUND] == last).sum()),
            float(cath.sum())),
        row("Cathedral VP from workers (mean per build)",
            float(out[:, :, S_CATH_VP][cath].mean()) if cath.any() else 0.0),
        row("Residence built (games with it on offer)",
            float(out[offer][:, :, S_RES_BUILT].sum()), float(offer.sum())),
        row("score (mean)", float(out[:, :, S_SCORE].mean())),
    ]


def audit(n_games: int, players: list[int], bots: list[str], seed: int = 1) -> list[Row]:
    """The blunder rows of each bot (mirror matches) at each player count."""
    return _common.mirror_rows(GAME, play, n_games, players, bots, seed, _rows)


def cross_check(n_games: int = 200, seed: int = 3) -> None:
    """The loop plays run_chunk's games: equal scores and unfed counts, bots seated at random."""
    _common.cross_check(GAME, play, (2, 3, 4), n_games, seed,
                        {S_SCORE: lambda r: r.score, S_UNFED: lambda r: r.seat_detail["unfed"]})
