"""Go Town, 2 players: where does a scripted bot lose to ``random``? (issue #13, "best scripted
bot beats random in 95% of 2-player games").

Plays ``n`` games of ``bot`` against ``random`` (game i: chance ``seed_for(seed, i, 0)``, bots
``seed_for(seed, i, 1)``, the bot in seat ``i % 2``) and classifies every game the bot does not
win by its end: a rules deadlock (no winner), or ``random`` reaching the target. Each lost game
is then replayed (the same seeds give the same game) and every decision of the bot is scored by
a flat Monte Carlo over what the bot's seat can see (every legal action played out
``rollouts`` times, each from a determinization of the state for the bot's seat, so the deck
order and the rival's hand are resampled; the bot in its seat, ``random`` in the other):
the decisions whose chosen action's value falls more than ``margin`` below the best action's,
confirmed by a second estimate of both with 8x the playouts, are the bot's likely mistakes,
tallied by (chosen kind -> best kind). The values are noisy estimates (``rollouts`` playouts
each), so the tally points at families of decisions worth a rule, not at single plays.
``--show BUILD,END`` prints each such decision of one family (hand, floors, rival's top floor).

Usage: ``python -m tests.bot_audit.go_town_losses [-n GAMES] [-r ROLLOUTS] [--bot BOT]
[--margin M] [--replay N] [--show KIND,KIND]``
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np
from numba import njit

import sim
from sim.core import contract
from sim.core.rng import seed_for
from sim.go_town import constants as K
from strategies import common

NAMES = ("-", "1", "2", "3", "4", "5", "6", "7", "8", "?", "DOG", "BONE", "DRILL", "WRECK",
         "MILK", "DONUT", "THIEF", "MASTER")
KINDS = ("END", "BUILD", "BUILD?", "STEAL", "DOG", "BONE", "DRILL", "WRECK", "MILK", "THIEF",
         "DONUT", "MASTER", "DISCARD")


def kind(a: int) -> str:
    """The action family of action id ``a`` (docs/games/go_town.md §6)."""
    if a == K.A_END:
        return "END"
    if a <= 4:
        return "BUILD"
    if a < K.A_STEAL:
        return "BUILD?"
    for lo, name in ((K.A_DOG, "STEAL"), (K.A_BONE, "DOG"), (K.A_DRILL, "BONE"),
                     (K.A_WRECK, "DRILL"), (K.A_MILK, "WRECK"), (K.A_THIEF, "MILK"),
                     (K.A_DONUT, "THIEF")):
        if a < lo:
            return name
    return {K.A_DONUT: "DONUT", K.A_MASTER: "MASTER"}.get(a, "DISCARD")


@njit(cache=True)
def _value(s, tmp, a, me, codes, params, rows, legal, brng, k_roll, maxd):
    tot = 0.0
    ws = np.zeros(2)
    for _ in range(k_roll):
        contract.copy_into(s, tmp)
        contract.determinize(tmp, me, brng)
        contract.apply_inplace(tmp, a)
        common.play_out(tmp, codes, params, rows, legal, brng, maxd)
        if contract.is_over(tmp):
            contract.win_shares_into(tmp, ws)
            tot += ws[me]
    return tot / k_roll


@njit(cache=True)
def _play(s, tmp, g, seed, codes, params, maxd, k_roll, rec, nrec, mrng, margin):
    """Play game ``g`` (bot = row 0 in seat g % 2, random = row 1); with ``k_roll > 0`` record
    each of the bot's decisions in ``rec[i] = (turn, chosen, v_chosen*1e6, best, v_best*1e6,
    my floors, rival floors, my hand)``; returns the end (0 bot won, 1 random won, 2 no
    winner) and sets ``nrec[0]``."""
    legal = np.empty(512, np.int32)
    legal2 = np.empty(512, np.int32)
    brng = np.empty(1, np.uint64)
    ws = np.zeros(2)
    rows = np.zeros(2, np.int64)
    gi = np.uint64(g)
    contract.init_state(s, 2, seed_for(seed, gi, np.uint64(0)))
    brng[0] = seed_for(seed, gi, np.uint64(1))
    me = g % 2
    rows[me] = 0
    rows[1 - me] = 1
    d = 0
    m = 0
    while not contract.is_over(s) and d < maxd:
        n = contract.legal_actions_into(s, legal)
        c = contract.current_seat(s)
        k = rows[c]
        a = common.bot_choose(codes[k], params, k, s, legal, n, brng)
        if c == me and k_roll > 0 and n > 1 and m < rec.shape[0]:
            va = 0.0
            vb = -1.0
            b = a
            for i in range(n):
                v = _value(s, tmp, legal[i], me, codes, params, rows, legal2, mrng, k_roll,
                           maxd - d)
                if legal[i] == a:
                    va = v
                if v > vb:
                    vb = v
                    b = legal[i]
            if vb - va > margin and b != a:
                # confirm a likely mistake with 8x the playouts (the max over noisy values is
                # biased upwards)
                va = _value(s, tmp, a, me, codes, params, rows, legal2, mrng, 8 * k_roll,
                            maxd - d)
                vb = _value(s, tmp, b, me, codes, params, rows, legal2, mrng, 8 * k_roll,
                            maxd - d)
            hn = 0
            for t in range(1, K.NT):
                hn += s.hands[me, t]
            rec[m, 0] = s.meta[K.M_TURN]
            rec[m, 1] = a
            rec[m, 2] = int(va * 1e6)
            rec[m, 3] = b
            rec[m, 4] = int(vb * 1e6)
            rec[m, 5] = s.n_floors[me]
            rec[m, 6] = s.n_floors[1 - me]
            rec[m, 7] = hn
            for t in range(1, K.NT):
                rec[m, 7 + t] = s.hands[me, t]  # 8..24: the bot's hand counts
            o = 1 - me
            if s.n_floors[o] > 0:
                f = s.n_floors[o] - 1
                rec[m, 25] = s.floors[o, f, 0]
                rec[m, 26] = s.floors[o, f, 1]
                rec[m, 27] = s.dogs[o, f]
            if s.n_floors[me] > 0:
                rec[m, 28] = s.dogs[me, s.n_floors[me] - 1]
            rec[m, 29] = 0
            for t in range(1, K.NT):
                rec[m, 29] += s.hands[o, t]
            m += 1
        contract.apply_inplace(s, a)
        d += 1
    nrec[0] = m
    if not contract.is_over(s):
        return 2
    contract.win_shares_into(s, ws)
    if ws[me] > 0:
        return 0
    if ws[1 - me] > 0:
        return 1
    return 2


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--games", type=int, default=2000)
    ap.add_argument("-r", "--rollouts", type=int, default=32)
    ap.add_argument("--bot", default="attacker")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--margin", type=float, default=0.1,
                    help="a decision is a likely mistake when its value is this far below the "
                         "best (win share, 0..1)")
    ap.add_argument("--show", default=None, help="print the decisions of this kind pair, "
                    "e.g. BUILD,END")
    ap.add_argument("--replay", type=int, default=300, help="lost games replayed at most")
    a = ap.parse_args(argv)
    game = sim.get_game("go-town")
    s = game.new_state(2, 1)
    tmp = game.copy_state(s)
    codes, params = game.bots.params_matrix([a.bot, "random"])
    maxd = game.max_game_length()
    seed = np.uint64(a.seed % 2**64)
    rec = np.zeros((4000, 32), np.int64)
    nrec = np.zeros(1, np.int64)
    mrng = np.array([12345], np.uint64)
    ends = np.array([_play(s, tmp, g, seed, codes, params, maxd, 0, rec, nrec, mrng, 1.0)
                     for g in range(a.games)])
    n = a.games
    w = int((ends == 0).sum())
    print(f"{a.bot} vs random, 2 players, {n} games (seed {a.seed}): {a.bot} wins {w} "
          f"({100 * w / n:.1f}%), random wins {int((ends == 1).sum())}, no winner (deadlock or "
          f"limit) {int((ends == 2).sum())}")
    lost = np.nonzero(ends == 1)[0][:a.replay]
    t0 = time.process_time()
    pairs: collections.Counter = collections.Counter()
    regret: collections.Counter = collections.Counter()
    per_game = []
    for g in lost:
        _play(s, tmp, int(g), seed, codes, params, maxd, a.rollouts, rec, nrec, mrng, a.margin)
        r = rec[:nrec[0]]
        bad = r[(r[:, 4] - r[:, 2]) > a.margin * 1e6]
        per_game.append(len(bad))
        for row in bad:
            key = (kind(int(row[1])), kind(int(row[3])))
            pairs[key] += 1
            if a.show and ",".join(key) == a.show:
                hand = " ".join(f"{NAMES[t]}x{row[7 + t]}" if row[7 + t] > 1 else NAMES[t]
                                for t in range(1, K.NT) if row[7 + t])
                print(f"  g{g} t{row[0]} floors {row[5]}-{row[6]} hand [{hand}] rival top "
                      f"{NAMES[row[25]]}+{NAMES[row[26]]} dog {row[27]} my dog {row[28]} "
                      f"rival hand {row[29]}: {row[1]} {row[2] / 1e6:.2f} vs {row[3]} "
                      f"{row[4] / 1e6:.2f}")
            regret[key] += (row[4] - row[2]) / 1e6
    print(f"replayed {len(lost)} games lost to random ({a.rollouts} playouts per action, "
          f"{time.process_time() - t0:.0f} CPU-s); games with no decision worse than the best "
          f"by {a.margin}: {sum(1 for x in per_game if x == 0)}")
    print("chosen -> best (decisions, summed value lost):")
    for key, cnt in sorted(pairs.items(), key=lambda kv: -regret[kv[0]]):
        print(f"  {key[0]:8s} -> {key[1]:8s} {cnt:5d}  {regret[key]:7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
