"""Go Town, 2 players: how often can *any* player beat ``random``? (issue #13, "best scripted bot
beats random in 95% of 2-player games").

A flat Monte Carlo bot with **perfect information** plays against ``random``: at each of its
decisions it plays every legal action out ``rollouts`` times on copies of the true state (so it
sees the deck order and the rival's hand), a policy bot (default ``attacker``) in its own seat
and ``random`` in the rival's, and takes the action with the best mean win share. Its win share
is an upper-bound probe: a bot that does not see the deck does no better than one that does and
plays the same way. Game ``i`` has chance seed ``seed_for(7, i, 0)``; the Monte Carlo bot sits
in seat ``i % 2``. Unfinished games (the length limit) count as losses.

Usage: ``python -m tests.bot_audit.go_town_bound [-n GAMES] [-r ROLLOUTS] [--policy BOT]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import sim
from sim.core import contract
from sim.core.rng import rand_below, seed_for
from strategies import common


@njit(cache=True)
def _value(s, tmp, a, me, codes, params, rows, legal, brng, k_roll, maxd):
    """Mean win share of seat ``me`` over ``k_roll`` playouts of ``s`` after action ``a``."""
    tot = 0.0
    ws = np.zeros(2)
    for _ in range(k_roll):
        contract.copy_into(s, tmp)
        contract.apply_inplace(tmp, a)
        common.play_out(tmp, codes, params, rows, legal, brng, maxd)
        if contract.is_over(tmp):
            contract.win_shares_into(tmp, ws)
            tot += ws[me]
    return tot / k_roll


@njit(cache=True)
def _play(s, tmp, n_games, mc_seat, codes, params, k_roll, maxd, out):
    """Play ``n_games``; ``out[g]``: the Monte Carlo bot's win share (-1: unfinished)."""
    legal = np.empty(512, np.int32)
    legal2 = np.empty(512, np.int32)
    brng = np.empty(1, np.uint64)
    ws = np.zeros(2)
    rows = np.zeros(2, np.int64)
    for g in range(n_games):
        gi = np.uint64(g)
        contract.init_state(s, 2, seed_for(np.uint64(7), gi, np.uint64(0)))
        brng[0] = seed_for(np.uint64(7), gi, np.uint64(1))
        me = mc_seat[g]
        rows[me] = 0
        rows[1 - me] = 1
        d = 0
        while not contract.is_over(s) and d < maxd:
            n = contract.legal_actions_into(s, legal)
            if contract.current_seat(s) == me:
                a = legal[0]
                best = -1.0
                for i in range(n if n > 1 else 0):
                    v = _value(s, tmp, legal[i], me, codes, params, rows, legal2, brng, k_roll,
                               maxd - d)
                    if v > best:
                        best = v
                        a = legal[i]
            else:
                a = legal[rand_below(brng, n)]
            contract.apply_inplace(s, a)
            d += 1
        if contract.is_over(s):
            contract.win_shares_into(s, ws)
            out[g] = ws[me]
        else:
            out[g] = -1.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--games", type=int, default=300)
    ap.add_argument("-r", "--rollouts", type=int, default=64)
    ap.add_argument("--policy", default="attacker", help="the playouts' bot in its own seat")
    a = ap.parse_args(argv)
    game = sim.get_game("go-town")
    s = game.new_state(2, 1)
    tmp = game.copy_state(s)
    codes, params = game.bots.params_matrix([a.policy, "random"])
    seat = (np.arange(a.games) % 2).astype(np.int64)
    out = np.zeros(a.games)
    t0 = time.process_time()
    _play(s, tmp, a.games, seat, codes, params, a.rollouts, game.max_game_length(), out)
    share = np.where(out < 0, 0.0, out)
    m = share.mean()
    half = 1.96 * share.std(ddof=1) / np.sqrt(a.games)
    print(f"perfect-information Monte Carlo ({a.rollouts} playouts per action, policy "
          f"{a.policy}) vs random, 2 players, {a.games} games: win share {100 * m:.1f}% "
          f"(95% interval {100 * (m - half):.1f}-{100 * (m + half):.1f}%), unfinished "
          f"{int((out < 0).sum())}; {time.process_time() - t0:.0f} CPU-s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
