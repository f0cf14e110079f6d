"""Go Town bot audit: the blunders of issue #13, counted decision by decision.

Every game is game i of run ``seed`` exactly as ``Game.run_chunk`` plays it (chance from
``seed_for(seed, i, 0)``, bots from ``seed_for(seed, i, 1)``, seats from ``seat_matrix``), played
through the kernel contract and ``strategies.common.bot_choose``; the state is inspected before
each decision. Counted per strategy (a "turn" is one seat's turn in phase ``play``):

* ``threat``: turns in which a rival stands within one floor of the target and the bot can hit
  that rival now (a legal DRILL, WRECK or MILK on it, the DONUT, a STEAL from its top floor, or
  a BONE on its top-floor dog while holding a DRILL or a card that then steals that floor);
  ``answered``: the bot played one of those on a near-winner in that turn. Turns the bot won
  itself are left out of both.
* ``bone-steal``: turns in which the bot holds a BONE, a rival's top floor carries exactly one
  dog (the BONE on it is legal), and the hand holds a card that steals that floor once the dog
  is gone; ``played``: a BONE on a rival's top floor followed by a STEAL from that rival in the
  same turn. Turns the bot won before it played the pattern are left out.
* ``drill-stealable``: DRILLs on a rival from whom a STEAL was legal at the same decision.
* ``donut``: turns in which the DONUT was legal; DONUTs played.
* ``bone-no-drill``: BONEs played without a DRILL in hand.
* ``stuck-pass``: END_TURN with a hand at the hand limit (no draw next turn) while another
  action was legal.
* games without a winner, split into rules deadlocks (engine version 2 ends them at once with
  end reason ``deadlock``; a game stopped at the turn limit also counts as one when its last
  ``2 x players`` decisions each had END_TURN as the only legal action with the hand at the
  limit: nothing can change any more) and the rest (games stopped at the turn limit).
"""

from __future__ import annotations

import hashlib

import numpy as np
from numba import njit

import sim
from sim.core import contract
from sim.core.rng import seed_for
from sim.core.seating import seat_matrix
from sim.go_town import constants as K
from strategies import common

POOL = ["random", "greedy", "attacker", "thief-first", "defender"]
C_DEC, C_TURNS, C_THREAT, C_ANSWER, C_THREAT_WON, C_BS, C_BS_PLAYED, C_DRILL, C_DRILL_ST, \
    C_DONUT_LEGAL, C_DONUT, C_BONE, C_BONE_ND, C_STUCK, C_WINS, C_SEATS = range(16)
N_C = 16
G_GAMES, G_LIMIT, G_DEADLOCK, G_TURNS = range(4)


@njit(cache=True, inline="always")
def _hand(s, c):
    t = 0
    for k in range(1, K.NT):
        t += s.hands[c, k]
    return t


@njit(cache=True, inline="always")
def _payer(s, c, t, f):
    """Does seat ``c`` hold a card that steals a slot of ``t``'s floor ``f`` (once unguarded)?"""
    for slot in range(2):
        x = s.floors[t, f, slot]
        w = s.values[t, f, slot]
        if x != K.QM:
            if s.hands[c, 9 - w] > 0:
                return True
        else:
            if s.opts[K.O_QM_BY_NUM] == 1 and s.hands[c, 9 - w] > 0:
                return True
            if s.opts[K.O_QM_BY_QM] == 1 and s.hands[c, K.QM] > 0:
                return True
    return False


@njit(cache=True)
def audit(s, first, n_games, run_seed, n_players, seat_idx, codes, params, cnt, gcnt, hashes):
    """Play the games and add the counters: ``cnt`` float64[rows, N_C] per strategy row,
    ``gcnt`` int64[4] per run; ``hashes`` uint64[n_games] a hash of each game's actions."""
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    near = np.zeros(K.MAXP, np.int64)
    boned = np.zeros(K.MAXP, np.int64)
    limit = s.consts[K.C_LIMIT]
    for g in range(n_games):
        gi = np.uint64(first + g)
        contract.init_state(s, n_players, seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        target = s.opts[K.O_TARGET]
        h = np.uint64(1469598103934665603)
        last_turn = -1
        last_c = -1
        f_threat = False
        f_answer = False
        f_bs = False
        f_bs_played = False
        f_donut = False
        frozen = 0
        while not contract.is_over(s):
            n = contract.legal_actions_into(s, legal)
            c = s.meta[K.M_CUR]
            k = seat_idx[g, c]
            turn = s.meta[K.M_TURN]
            if turn != last_turn:
                if last_c >= 0:
                    r = seat_idx[g, last_c]
                    cnt[r, C_TURNS] += 1
                    cnt[r, C_THREAT] += f_threat
                    cnt[r, C_ANSWER] += f_threat and f_answer
                    cnt[r, C_BS] += f_bs
                    cnt[r, C_BS_PLAYED] += f_bs and f_bs_played
                    cnt[r, C_DONUT_LEGAL] += f_donut
                f_threat = f_answer = f_bs = f_bs_played = f_donut = False
                for t in range(K.MAXP):
                    boned[t] = 0
                last_turn = turn
                last_c = c
            play = s.meta[K.M_PHASE] == K.PH_PLAY
            hn = _hand(s, c)
            for t in range(K.MAXP):
                near[t] = 1 if (t != c and t < n_players and s.n_floors[t] >= target - 1) else 0
            # what this decision offers
            hit = np.int64(0)  # bit t: the bot can hit near-winner t now; bit 8: the DONUT
            bs = np.int64(0)  # bit t: bone-then-steal on t is on offer
            for i in range(n):
                a = legal[i]
                if K.A_STEAL <= a < K.A_DOG:
                    v = (a - K.A_STEAL) // 4
                    if near[v]:
                        hit |= 1 << v
                elif K.A_BONE <= a < K.A_DRILL:
                    t = (a - K.A_BONE) // K.MAXF
                    f = (a - K.A_BONE) % K.MAXF
                    if f == s.n_floors[t] - 1:
                        pay = _payer(s, c, t, f)
                        if s.dogs[t, f] == 1 and pay:
                            bs |= 1 << t
                        if near[t] and (pay or s.hands[c, K.DRILL] > 0):
                            hit |= 1 << t
                elif K.A_DRILL <= a < K.A_THIEF:
                    t = (a - K.A_DRILL) % 4
                    if near[t]:
                        hit |= 1 << t
                elif a == K.A_DONUT:
                    f_donut = True
                    for t in range(K.MAXP):
                        if near[t]:
                            hit |= 1 << 8
            if play and hit != 0:
                f_threat = True
            if play and bs != 0:
                f_bs = True
            a = common.bot_choose(codes[k], params, k, s, legal, n, brng)
            h = (h ^ np.uint64(a + 1)) * np.uint64(1099511628211)
            cnt[k, C_DEC] += 1
            # what the bot did
            if K.A_STEAL <= a < K.A_DOG:
                v = (a - K.A_STEAL) // 4
                if (hit >> v) & 1:
                    f_answer = True
                if boned[v]:
                    f_bs_played = True
            elif K.A_BONE <= a < K.A_DRILL:
                t = (a - K.A_BONE) // K.MAXF
                f = (a - K.A_BONE) % K.MAXF
                cnt[k, C_BONE] += 1
                if s.hands[c, K.DRILL] == 0:
                    cnt[k, C_BONE_ND] += 1
                if f == s.n_floors[t] - 1:
                    boned[t] = 1
                    if (hit >> t) & 1:
                        f_answer = True
            elif K.A_DRILL <= a < K.A_THIEF:
                t = (a - K.A_DRILL) % 4
                if (hit >> t) & 1:
                    f_answer = True
                if a < K.A_WRECK:
                    cnt[k, C_DRILL] += 1
                    for i in range(n):
                        b = legal[i]
                        if K.A_STEAL <= b < K.A_DOG and (b - K.A_STEAL) // 4 == t:
                            cnt[k, C_DRILL_ST] += 1
                            break
            elif a == K.A_DONUT:
                cnt[k, C_DONUT] += 1
                if (hit >> 8) & 1:
                    f_answer = True
            elif a == K.A_END and play and hn >= limit and n > 1:
                cnt[k, C_STUCK] += 1
            frozen = frozen + 1 if (n == 1 and hn >= limit) else 0
            contract.apply_inplace(s, a)
        # the last turn: a turn the bot won itself is left out of the threat and bone-steal
        # counts (counted apart when it was a threat turn)
        if last_c >= 0:
            r = seat_idx[g, last_c]
            won = s.meta[K.M_WINNER] == last_c
            cnt[r, C_TURNS] += 1
            if won:
                cnt[r, C_THREAT_WON] += f_threat
                cnt[r, C_BS] += f_bs and f_bs_played
                cnt[r, C_BS_PLAYED] += f_bs and f_bs_played
            else:
                cnt[r, C_THREAT] += f_threat
                cnt[r, C_ANSWER] += f_threat and f_answer
                cnt[r, C_BS] += f_bs
                cnt[r, C_BS_PLAYED] += f_bs and f_bs_played
            cnt[r, C_DONUT_LEGAL] += f_donut
        gcnt[G_GAMES] += 1
        gcnt[G_TURNS] += s.meta[K.M_TURN]
        if s.meta[K.M_END] == K.END_LIMIT:
            gcnt[G_LIMIT] += 1
            if frozen >= 2 * n_players:
                gcnt[G_DEADLOCK] += 1
        elif s.meta[K.M_END] == K.END_DEADLOCK:  # engine version 2 ends a deadlock at once
            gcnt[G_LIMIT] += 1
            gcnt[G_DEADLOCK] += 1
        w = s.meta[K.M_WINNER]
        for p in range(n_players):
            cnt[seat_idx[g, p], C_SEATS] += 1
            if w == p:
                cnt[seat_idx[g, p], C_WINS] += 1
        hashes[g] = h


def run(names: list[str], players: int, n: int, seed: int, seating: str,
        options: dict | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Counters ``[len(names), N_C]``, run counters ``[4]`` and per-game hashes for ``n`` games
    of ``names`` at ``players`` seats (``seating`` as in ``boardsim simulate``)."""
    game = sim.get_game("go-town")
    s = game._alloc(game.resolve_options(options or {}))
    seats = seat_matrix(seating, seed, 0, n, players, len(names))
    codes, params = game.bots.params_matrix(names)
    cnt = np.zeros((len(names), N_C))
    gcnt = np.zeros(4, np.int64)
    hashes = np.zeros(n, np.uint64)
    audit(s, 0, n, np.uint64(seed % 2**64), players, seats, codes, params, cnt, gcnt, hashes)
    return cnt, gcnt, hashes


def _pct(a: float, b: float) -> str:
    return f"{100 * a / b:5.1f}% ({int(a):,}/{int(b):,})" if b else "    - (0/0)"


def _distinct(hashes: np.ndarray) -> float:
    return len(np.unique(hashes)) / len(hashes)


def main(n: int, players: list[int] | None, seed: int, only: set[str] | None) -> None:
    players = players or [2, 3, 4]

    def want(name: str) -> bool:
        return only is None or name in only

    if want("pool"):
        for p in players:
            cnt, gcnt, _ = run(POOL, p, n, seed, "pool")
            g = gcnt[G_GAMES]
            print(f"== go-town pool ({', '.join(POOL)}), {p} players, {g:,} games, "
                  f"mean turns {gcnt[G_TURNS] / g:.1f}")
            print(f"  stopped at the turn limit: {_pct(gcnt[G_LIMIT], g)}; rules deadlocks "
                  f"{_pct(gcnt[G_DEADLOCK], g)}; other (bot) stalls "
                  f"{_pct(gcnt[G_LIMIT] - gcnt[G_DEADLOCK], g)}")
            for r, name in enumerate(POOL):
                c = cnt[r]
                print(f"  {name:12s} win {_pct(c[C_WINS], c[C_SEATS])}")
                print(f"    threat answered {_pct(c[C_ANSWER], c[C_THREAT])}  "
                      f"bone-steal played {_pct(c[C_BS_PLAYED], c[C_BS])}  "
                      f"drills on a stealable floor {_pct(c[C_DRILL_ST], c[C_DRILL])}")
                print(f"    donut played/turns legal {_pct(c[C_DONUT], c[C_DONUT_LEGAL])}  "
                      f"bones without drill {_pct(c[C_BONE_ND], c[C_BONE])}  "
                      f"stuck passes per 1000 turns {1000 * c[C_STUCK] / max(c[C_TURNS], 1):.2f}")
    if want("mirrors"):
        for p in players:
            for b in POOL[1:]:
                cnt, gcnt, hashes = run([b], p, n, seed, "fixed")
                c = cnt[0]
                g = gcnt[G_GAMES]
                print(f"== {b} mirror, {p} players: limit {_pct(gcnt[G_LIMIT], g)} "
                      f"(deadlocks {_pct(gcnt[G_DEADLOCK], g)}); distinct games "
                      f"{100 * _distinct(hashes):.1f}%; threat answered "
                      f"{_pct(c[C_ANSWER], c[C_THREAT])}; bone-steal "
                      f"{_pct(c[C_BS_PLAYED], c[C_BS])}; stealable drills "
                      f"{_pct(c[C_DRILL_ST], c[C_DRILL])}; donut {_pct(c[C_DONUT], c[C_DONUT_LEGAL])}")
    if want("vs-random"):
        for b in POOL[1:]:
            cnt, gcnt, _ = run([b, "random"], 2, n, seed, "rotate")
            print(f"== {b} vs random, 2 players, seats rotated: {b} wins "
                  f"{_pct(cnt[0, C_WINS], cnt[0, C_SEATS])}, limit {_pct(gcnt[G_LIMIT], n)}")


def outputs_digest(n: int = 2000, seed: int = 1) -> str:
    """A digest of the action hashes of pool games at 2..4 players (a quick regression key)."""
    d = hashlib.sha256()
    for p in (2, 3, 4):
        d.update(run(POOL, p, n, seed, "pool")[2].tobytes())
    return d.hexdigest()[:16]
