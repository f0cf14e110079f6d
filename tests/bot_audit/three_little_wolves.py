"""The Three Little Wolves bot audit (issue #13): free wolves left unplaced on the last turn.

A seat's *last turn* is a play decision after which it plays no more: in 3-4 players its second
turn of the final stage (``final_left <= n``), in 2 players the round of the two-player end in
which it holds one card (the committed one). Figures per bot and player count:

- ``declined a legal wolf on its last turn``: last-turn decisions where a WOLF action was legal
  and the bot chose something else, over last-turn decisions with a WOLF legal;
- ``seat-games: unused wolf while a target existed``: seat-games whose last play decision
  offered a WOLF action (so the seat had an unused wolf and a legal target) and whose bot did
  not take it, over seat-games;
- ``seat-games: declined a wolf that scores more`` (**the blunder**): of those, the ones where
  a wolf would have ended the game with a higher score for the seat on average. Counterfactual:
  the rest of the game is played ``CF_REPS`` times after the chosen action and after every legal
  WOLF action (its placement then chosen by the bot), the i-th playout of every branch from the
  same bot generator state i (common random numbers); the decline is a blunder when the best
  wolf's mean final score exceeds the chosen action's. The points so lost (that difference) per
  seat-game are given too. Why this and not "an unused wolf while a target existed": a seat's
  last turn is one play, and a build can score more than a wolf (it saves a house from
  collapsing or wins a colour bonus), so declining the wolf is then the right play;
- ``seat-games: declined the first wolf, one playout``: the earlier, cruder count (one playout
  each way, only the first legal WOLF action) kept for comparison with the figures of
  docs/bots.md;
- ``unused wolves at the end (mean)``, ``wolves placed (mean)``, ``score (mean)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core import contract
from sim.core.rng import mix
from sim.three_little_wolves import constants as K
from strategies import common
from tests.bot_audit import _common
from tests.bot_audit._common import Row

GAME = "three-little-wolves"
PLAYERS = [2, 3, 4]
BOTS = ("greedy", "greedy-2p", "cautious", "wolf-bettor", "hostile", "random")
# per seat-game columns of _play
(S_LAST_WOLF_LEGAL, S_LAST_DECLINED, S_UNUSED, S_LT_DEC, S_LT_WOLF, S_LT_DECLINED, S_PLACED,
 S_SCORE, S_LT_REGRET, S_LT_REGRET_PTS, S_LT_BLUNDER, S_LT_BLUNDER_PTS) = range(12)
NS = 12
CF_REPS = 8  # playouts per branch of a declined last-turn wolf (common random numbers)


@njit(cache=True)
def _finish(s, seat_idx, g, codes, params, legal, r0, seat, sc):
    """Play ``s`` to its end with the game's bots (generator state ``r0``, copied); return the
    final score of ``seat``."""
    r = np.empty(1, np.uint64)
    r[0] = r0
    while not contract.is_over(s):
        n = contract.legal_actions_into(s, legal)
        k = seat_idx[g, contract.current_seat(s)]
        contract.apply_inplace(s, common.bot_choose(codes[k], params, k, s, legal, n, r))
    contract.scores_into(s, sc)
    return sc[seat]


@njit(cache=True)
def _play(s, s2, first, n_games, run_seed, n_players, seat_idx, codes, params, reps, out,
          hashes, cf_reps):
    """Play games ``first ..`` (deal ``g // reps`` for chance, game index ``g`` for the bots)
    and fill ``out[g, p, :]`` (columns S_*) and ``hashes[g]`` (the action sequence). ``s2``:
    scratch state of the counterfactual playouts: at each declined last-turn wolf, the rest of
    the game is played twice from the same bot generator state, after the chosen action and
    after the first legal WOLF action (its placement chosen by the bot); a regret is a higher
    final score of the seat after the wolf. The blunder (``S_LT_BLUNDER``): ``cf_reps``
    playouts of every branch (the chosen action, each legal WOLF action), the j-th from the same
    bot generator state; the best wolf's mean score above the chosen action's (its excess, in
    thousandths of a point, in ``S_LT_BLUNDER_PTS``)."""
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    leg2 = np.empty(K.NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    sc = np.zeros(4, np.float64)
    for g in range(n_games):
        h = _common.start_game(s, first, g, reps, run_seed, n_players, brng, out)
        meta = s.meta
        while not contract.is_over(s):
            n, c, a = _common.bot_move(s, g, seat_idx, codes, params, legal, brng)
            if meta[K.M_PHASE] == K.PH_PLAY:
                wolf_legal = False
                wa = -1
                for i in range(n):
                    if K.A_WOLF <= legal[i] < K.A_PLACE:
                        wolf_legal = True
                        if wa < 0:
                            wa = legal[i]
                took = K.A_WOLF <= a < K.A_PLACE
                out[g, c, S_LAST_WOLF_LEGAL] = 1 if wolf_legal else 0
                out[g, c, S_LAST_DECLINED] = 1 if (wolf_legal and not took) else 0
                last = ((meta[K.M_STAGE] == K.ST_FINAL and meta[K.M_FLEFT] <= n_players)
                        or (meta[K.M_STAGE] == K.ST_FINAL2P and s.seat[c, K.S_HN] == 1))
                if last:
                    out[g, c, S_LT_DEC] += 1
                    if wolf_legal:
                        out[g, c, S_LT_WOLF] += 1
                        if not took:
                            out[g, c, S_LT_DECLINED] += 1
                            contract.copy_into(s, s2)
                            contract.apply_inplace(s2, a)
                            v_chosen = _finish(s2, seat_idx, g, codes, params, leg2, brng[0], c,
                                               sc)
                            contract.copy_into(s, s2)
                            contract.apply_inplace(s2, wa)
                            v_wolf = _finish(s2, seat_idx, g, codes, params, leg2, brng[0], c,
                                             sc)
                            if v_wolf > v_chosen:
                                out[g, c, S_LT_REGRET] += 1
                                out[g, c, S_LT_REGRET_PTS] += np.int64(v_wolf - v_chosen)
                            # the blunder: the best wolf scores more on average (cf_reps
                            # playouts per branch, the same bot generator states in each)
                            m_chosen = 0.0
                            for j in range(cf_reps):
                                r0 = mix(brng[0] ^ np.uint64(j + 1))
                                contract.copy_into(s, s2)
                                contract.apply_inplace(s2, a)
                                m_chosen += _finish(s2, seat_idx, g, codes, params, leg2, r0,
                                                    c, sc)
                            m_wolf = -1e18
                            for i in range(n):
                                if not (K.A_WOLF <= legal[i] < K.A_PLACE):
                                    continue
                                m = 0.0
                                for j in range(cf_reps):
                                    r0 = mix(brng[0] ^ np.uint64(j + 1))
                                    contract.copy_into(s, s2)
                                    contract.apply_inplace(s2, legal[i])
                                    m += _finish(s2, seat_idx, g, codes, params, leg2, r0, c,
                                                 sc)
                                if m > m_wolf:
                                    m_wolf = m
                            if m_wolf > m_chosen:
                                out[g, c, S_LT_BLUNDER] = 1
                                out[g, c, S_LT_BLUNDER_PTS] += np.int64(
                                    round(1000.0 * (m_wolf - m_chosen) / cf_reps))
            contract.apply_inplace(s, a)
            h = mix(h ^ np.uint64(a + 1))
        hashes[g] = h
        contract.scores_into(s, sc)
        for p in range(n_players):
            u = 0
            for v in range(3):
                if s.seat[p, K.S_WU + v] == 0:
                    u += 1
            out[g, p, S_UNUSED] = u
            out[g, p, S_PLACED] = 3 - u
            out[g, p, S_SCORE] = np.int64(sc[p])


def play(n_players: int, names: list[str], seats: np.ndarray, seed: int, reps: int = 1,
         options: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(out int64[n, p, NS], hashes uint64[n])`` of ``n = len(seats)`` games."""
    return _common.play_loop(GAME, _play, NS, n_players, names, seats, seed, reps, options,
                             copies=2, extra=(CF_REPS,))


def _rows(row, out, sg):
    """The audit rows of one bot and player count (see _common.mirror_rows)."""
    lt_wolf = out[:, :, S_LT_WOLF].sum()
    return [
        row("declined a legal wolf on its last turn", float(out[:, :, S_LT_DECLINED].sum()),
            float(lt_wolf)),
        row("seat-games: unused wolf while a target existed",
            float(out[:, :, S_LAST_DECLINED].sum()), float(sg)),
        row("seat-games: declined a wolf that scores more", float(out[:, :, S_LT_BLUNDER].sum()),
            float(sg),
            note=f"the blunder; {CF_REPS} playouts per branch, best wolf; "
                 f"{out[:, :, S_LT_BLUNDER_PTS].sum() / 1000.0 / sg:.3f} points/seat-game"),
        row("seat-games: declined the first wolf, one playout",
            float(out[:, :, S_LT_REGRET].sum()), float(sg),
            note=f"{out[:, :, S_LT_REGRET_PTS].sum() / sg:.3f} points/seat-game"),
        row("seat-games ending with any unused wolf", float((out[:, :, S_UNUSED] > 0).sum()),
            float(sg)),
        row("unused wolves at the end (mean)", float(out[:, :, S_UNUSED].mean())),
        row("score (mean)", float(out[:, :, S_SCORE].mean())),
    ]


def audit(n_games: int, players: list[int], bots: list[str], seed: int = 1) -> list[Row]:
    """The blunder rows of each bot (mirror matches) at each player count."""
    return _common.mirror_rows(GAME, play, n_games, players, bots, seed, _rows)


def cross_check(n_games: int = 200, seed: int = 3) -> None:
    """The loop plays run_chunk's games: equal scores, every bot seated at random."""
    _common.cross_check(GAME, play, (2, 3, 4), n_games, seed, {S_SCORE: lambda r: r.score})
