"""Go Town scripted bots (spec §8.2), as numba functions of (state, legal actions, rng, params).

Two kernels: ``random_bot`` (uniform over legal actions) and ``scripted_bot``, a priority bot:
each legal action gets a priority from the strategy's parameter vector and simple features of
the position (who leads, who is about to win, what the hand holds, what a bone would uncover);
the highest priority is played and the turn ends (END_TURN, priority 0) when nothing scores
above 0. Near-ties are broken at random from the bot generator: each positive priority gets
uniform noise in ``[0, noise)`` (parameter ``noise``; at 0, exact ties are broken uniformly).
With a full hand (no draw next turn) any playable card beats passing (``unstick``). The named
strategies are parameter vectors (data), so a designer can add one without touching code.
"""

import json
from pathlib import Path

import numpy as np
from numba import njit

from sim.core.game import StrategySpec
from sim.core.rng import next_u64, rand_below, shuffle
from sim.go_town import constants as K
from sim.go_town.kernels import GoTownState, derive_hands
from strategies import common, search

ALL_TYPES = (1 << K.NT) - 2  # bits 1..17: every card type (history_ok)

# parameter slots of scripted_bot
PARAM_NAMES = (
    "build",          # BUILD with two numbered cards
    "build_qm",       # BUILD with a ?
    "steal",          # STEAL (gains a floor, removes one from a rival)
    "dog_top",        # DOG on own unguarded top floor
    "bone",           # BONE on a rival's dog
    "bone_needs_drill",  # 1: only bone a top-floor dog when holding a DRILL (seed tip 1)
    "drill",          # DRILL a rival's top floor
    "wreck",          # WRECK a rival's top floor
    "wreck_gap",      # WRECK only a rival within this many floors of the target
    "milk",           # MILK a rival
    "donut",          # DONUT
    "donut_gap",      # DONUT only if >= donut_rivals rivals are within this many floors of the target
    "donut_rivals",   # (capped at the number of rivals: at 2 players one rival suffices)
    "thief",          # THIEF
    "master",         # MASTER thief
    "leader_bonus",   # added when the target of an attack or steal is the leader
    "attack_gap",     # attack (drill/milk/bone) only rivals with >= own floors + attack_gap
    "threat_gap",     # a rival within this many floors of the target is a threat: every attack
    #                   on it is allowed whatever the gaps above say (< 0: never)
    "threat_bonus",   # added to a steal or an attack aimed at a threat
    "bone_steal",     # BONE on a rival's top-floor dog when the hand can then steal that floor
    "drill_stealable",  # 1: may DRILL a floor it could STEAL instead (0: steal it, never drill)
    "unstick",        # priority of any card play while the hand is at the hand limit (no draw
    #                   next turn) and nothing else scores: the bot never passes forever
    "noise",          # near-ties: each positive priority gets uniform noise in [0, noise)
    #                   from the bot generator (0: exact ties only, broken uniformly)
    "qm_dup",         # added to BUILD ?+n per extra copy of n in hand (pair the ? with a
    #                   duplicate, keep a varied hand)
    "qm_scarce",      # added to BUILD ?+n times the share of the 9-n cards already seen (card
    #                   counting: pair the ? with the number least likely to find its match)
    "bone_low",       # BONE on a dog below a rival's unguarded top floor (it would guard the
    #                   floor again once the floors above are stolen or drilled; 0: never)
    "steal_qm_cost",  # subtracted from a STEAL paid with a ? (pay with a number, keep the ?)
    "steal_dup",      # added to a STEAL paid with the number n per extra copy of n in hand
    "hold_gap",       # last floors in one burst: with own floors >= target - hold_gap, a dog on
    #                   its top floor, no DOG in hand, no threat and too few pairs in hand to
    #                   reach the target this turn, keep the pairs rather than build an
    #                   unguarded floor a rival can steal (< 0: never hold)
    "milk_stack",     # 1: MILK a rival who already owes a skipped turn (skips stack, D10: at 2
    #                   players each milkshake is one more turn of its own); 0: never
)
N_SCRIPTED = len(PARAM_NAMES)
# padded to the search row's width: its parameters and the own-seat rule (``HOLD_NAMES``,
# below; docs/house-pattern.md §3: a game pads ``PARAM_NAMES`` for the search's columns)
PARAM_NAMES = PARAM_NAMES + tuple(
    f"pad_{i}" for i in range(N_SCRIPTED, search.N_SEARCH + 11 * 16))
N_PARAMS = len(PARAM_NAMES)
(P_BUILD, P_BUILD_QM, P_STEAL, P_DOG_TOP, P_BONE, P_BONE_DRILL, P_DRILL, P_WRECK, P_WRECK_GAP,
 P_MILK, P_DONUT, P_DONUT_GAP, P_DONUT_RIVALS, P_THIEF, P_MASTER, P_LEADER, P_ATTACK_GAP,
 P_THREAT_GAP, P_THREAT_BONUS, P_BONE_STEAL, P_DRILL_STEALABLE, P_UNSTICK, P_NOISE, P_QM_DUP,
 P_QM_SCARCE, P_BONE_LOW, P_STEAL_QM_COST, P_STEAL_DUP, P_HOLD_GAP, P_MILK_STACK) = range(N_SCRIPTED)


def _params(**kw) -> tuple:
    return common.param_vector(
        PARAM_NAMES, dict(wreck_gap=2, donut_gap=1, donut_rivals=2, attack_gap=0, threat_gap=1,
                          threat_bonus=20, unstick=0.5, noise=0.25, hold_gap=-1), **kw)


# code 0: random_bot; code 1: scripted_bot with the vector below. Every scripted vector answers
# a rival one floor from the target (threat_gap 1), plays bone-then-steal, steals rather than
# drills a stealable floor, never passes with a full hand while a card can be played, and
# breaks near-ties (within ``noise``) at random.
_GREEDY = dict(build=90, build_qm=80, steal=70, leader_bonus=5, drill=40, bone=30,
               bone_needs_drill=1, wreck=35, wreck_gap=5, milk=30, donut=25, donut_gap=5,
               donut_rivals=1, thief=50, master=55, dog_top=20, attack_gap=1, bone_steal=69)
STRATEGIES = {
    "random": StrategySpec("random", 0, "uniform over the legal actions, END_TURN included"),
    "greedy": StrategySpec(
        "greedy", 1,
        "one step ahead: build when it can, else steal a floor (from the leader first; a bone "
        "first if a dog guards it), else hit the leader (drill, milkshake, thieves); a dog on "
        "its own top floor; always hits a rival one floor from winning",
        _params(**_GREEDY),
        PARAM_NAMES,
    ),
    "attacker": StrategySpec(
        "attacker", 1,
        "spec §8.2 attacker: bone->drill->steal on the leader (steal, never drill, a floor it "
        "can steal), attacking any rival however far behind, wrecking ball on any rival with a "
        "floor, donut when a rival is within five floors, milkshake (stacked on a rival already "
        "skipping), then build; pairs a ? with a duplicate or the number whose match is most "
        "seen, lures reserve dogs away, and over its own guarded top floor keeps its pairs "
        "until they finish the building (or a DOG, or a threat, comes)",
        # tuned against random at 2 players (docs/bots.md, Go Town): bones without a drill,
        # attacks rivals up to 2 floors behind (attack_gap -2), donut and wreck earlier
        # second round (issue #13, 95% target): card counting and hand shape for its wilds and
        # steals (qm_dup, qm_scarce, steal_qm_cost, steal_dup), reserve dogs lured away
        # (bone_low) and the last floors built in one burst over a guarded top (hold_gap)
        # third round (session 6): every attack on any rival (attack_gap -5, wreck_gap 5: at
        # 2 players a rival far behind is still the only one) and milkshakes stacked
        # (milk_stack: at 2 players each is one more turn), +0.26 points against random
        _params(build=40, build_qm=35, steal=85, leader_bonus=22, bone=95, bone_needs_drill=0,
                drill=94, wreck=93, wreck_gap=5, milk=47, donut=89, donut_gap=5,
                donut_rivals=2, thief=60, master=65, dog_top=20, attack_gap=-5, bone_steal=96,
                qm_dup=3, qm_scarce=3, bone_low=10, steal_qm_cost=3, steal_dup=1, hold_gap=4,
                milk_stack=1),
        PARAM_NAMES,
    ),
    "thief-first": StrategySpec(
        "thief-first", 1,
        "greedy, but opens every turn with all its thief cards (seed tip 2)",
        _params(**dict(_GREEDY, thief=99, master=100)),
        PARAM_NAMES,
    ),
    "defender": StrategySpec(
        "defender", 1,
        "spec §8.2 defender: builds, keeps a dog on its top floor after building, attacks "
        "only a player one floor from winning (then with every card that hits them)",
        _params(build=90, build_qm=85, steal=80, leader_bonus=5, dog_top=50, bone=30,
                bone_needs_drill=1, drill=60, wreck=70, wreck_gap=1, milk=60, donut=55,
                donut_gap=1, donut_rivals=1, thief=40, master=45, attack_gap=99, bone_steal=79),
        PARAM_NAMES,
    ),
}
for _name, _spec in STRATEGIES.items():
    assert _spec.code == 0 or len(_spec.params) == N_PARAMS, _name


# The bot kernels take the state's arrays, not the state, read the parameter matrix by row
# (``params[k, j]``) and are compiled without reference counting and inlined into the game loop:
# see the performance note in sim/go_town/kernels.py. ``choose`` is the entry point over a
# GoTownState and a parameter vector; the batch loop calls ``choose_arrays``.


@njit(cache=True)
def random_bot(s, legal, n, rng):
    return legal[rand_below(rng, n)]


@njit(cache=True, _nrt=False, forceinline=True)
def _leader(hn, n_floors, np_, c):
    """Rival with most floors (ties: more cards in hand, then lower seat)."""
    best = -1
    best_key = -1
    for t in range(np_):
        key = (n_floors[t] << 32) + hn[t]  # floors, then cards (branch-free comparisons)
        better = (t != c) & (key > best_key)
        best = t if better else best
        best_key = key if better else best_key
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def _unit(rng):
    """A uniform float64 in [0, 1) from the bot generator."""
    return (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False, forceinline=True)
def _can_steal_after_bone(c, t, f, opts, hands, floors, values, dogs):
    """Once a bone removes the one dog of ``t``'s floor ``f``, does ``c``'s hand steal a card of
    it (§4.2, §4.3; D5 options)?"""
    if dogs[t, f] != 1:
        return False
    for slot in range(2):
        w = values[t, f, slot]
        if floors[t, f, slot] != K.QM:
            if hands[c, 9 - w] > 0:
                return True
        elif (opts[K.O_QM_BY_NUM] == 1 and hands[c, 9 - w] > 0) or (
                opts[K.O_QM_BY_QM] == 1 and hands[c, K.QM] > 0):
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def _hold(c, mine, target, np_, hands, dogs, n_floors, p, k):
    """``hold_gap``: does seat ``c`` keep its pairs this turn (own top floor guarded, no DOG in
    hand, within ``hold_gap`` floors of the target, no rival within ``threat_gap`` of it, and
    the pairs in hand, each number pair and then each ? with a leftover number, do not reach
    the target)?"""
    if mine < 1 or mine < target - p[k, P_HOLD_GAP] or dogs[c, mine - 1] == 0:
        return False
    if hands[c, K.DOG] > 0:
        return False
    tgap = p[k, P_THREAT_GAP]
    for t in range(np_):
        if t != c and tgap >= 0 and n_floors[t] >= target - tgap:
            return False
    return mine + pairs_in_hand(hands, c) < target


@njit(cache=True, _nrt=False, forceinline=True)
def pairs_in_hand(hands, c):
    """The floors seat ``c``'s hand can build: each number pair (n, 9 - n), then each ? with a
    number left over."""
    pairs = 0
    left = 0
    for lo in range(1, 5):
        a = hands[c, lo]
        b = hands[c, 9 - lo]
        pairs += min(a, b)
        left += abs(a - b)
    return pairs + min(hands[c, K.QM], left)


@njit(cache=True, _nrt=False, forceinline=True)
def _seen(c, v, np_, discard, hands, floors, n_floors):
    """Cards of type ``v`` that seat ``c`` can see: in its hand, on the discard pile and in
    every building (§2: the deck's counts are public, so the rest are in the draw pile or a
    rival's hand)."""
    t = hands[c, v] + discard[v]
    for q in range(np_):
        for f in range(n_floors[q]):
            t += (floors[q, f, 0] == v) + (floors[q, f, 1] == v)
    return t


@njit(cache=True, _nrt=False, forceinline=True)
def _priority(a, c, leader, mine, target, np_, opts, counts, discard, hands, floors, values,
               dogs, n_floors, skips, hn, stealable, p, k):
    """Priority of the legal action ``a`` for seat ``c`` under the parameter row ``p[k]``.

    ``leader``: the rival ``_leader`` picks; ``mine``: ``c``'s floors; ``target``: the option;
    ``stealable``: bit t, a STEAL from seat t is legal now; ``counts``, ``discard``: the deck's
    card counts and the discard pile per type (public: what card counting sees).
    """
    if a == K.A_END:
        return 0.0
    if a < K.A_STEAL and p[k, P_HOLD_GAP] >= 0 and _hold(c, mine, target, np_, hands,
                                                           dogs, n_floors, p, k):
        return -1.0
    if a <= 4:
        return p[k, P_BUILD]
    if a < K.A_STEAL:
        pr = p[k, P_BUILD_QM]
        nv = a - K.A_BUILDQ
        if p[k, P_QM_DUP] != 0:
            pr += p[k, P_QM_DUP] * (hands[c, nv] - 1)
        if p[k, P_QM_SCARCE] != 0 and counts[9 - nv] > 0:
            pr += p[k, P_QM_SCARCE] * _seen(c, 9 - nv, np_, discard, hands, floors,
                                            n_floors) / counts[9 - nv]
        return pr
    tgap = p[k, P_THREAT_GAP]
    if a < K.A_DOG:
        v = (a - K.A_STEAL) // 4
        bonus = p[k, P_LEADER] if v == leader else 0.0
        if tgap >= 0 and n_floors[v] >= target - tgap:
            bonus += p[k, P_THREAT_BONUS]
        if (a - K.A_STEAL) % 2 == 1:  # paid with a ?
            bonus -= p[k, P_STEAL_QM_COST]
        elif p[k, P_STEAL_DUP] != 0:
            w = values[v, n_floors[v] - 1, ((a - K.A_STEAL) // 2) % 2]
            bonus += p[k, P_STEAL_DUP] * (hands[c, 9 - w] - 1)
        return p[k, P_STEAL] + bonus + 0.1 * n_floors[v]
    if a < K.A_BONE:
        i = a - K.A_DOG
        t = i // K.MAXF
        f = i % K.MAXF
        if t == c and f == mine - 1:
            return p[k, P_DOG_TOP]
        return -1.0
    if a > K.A_MASTER:
        return -1.0  # dead plays (D14): never, unless to get unstuck
    if a == K.A_MASTER:
        return p[k, P_MASTER]
    if a == K.A_DONUT:
        close = 0
        threat = False
        for t in range(np_):
            if t != c:
                close += n_floors[t] >= target - p[k, P_DONUT_GAP]
                threat |= tgap >= 0 and n_floors[t] >= target - tgap
        if threat:
            return p[k, P_DONUT] + p[k, P_THREAT_BONUS]
        if close < min(p[k, P_DONUT_RIVALS], np_ - 1):
            return -1.0
        return p[k, P_DONUT]
    if a < K.A_DRILL:
        i = a - K.A_BONE
        t = i // K.MAXF
        f = i % K.MAXF
    elif a < K.A_THIEF:
        t = (a - K.A_DRILL) % 4
    else:
        t = a - K.A_THIEF
        return p[k, P_THIEF] + 0.1 * hn[t]
    bonus = p[k, P_LEADER] if t == leader else 0.0
    threat = tgap >= 0 and n_floors[t] >= target - tgap
    if threat:
        bonus += p[k, P_THREAT_BONUS]
    if a < K.A_DRILL:  # BONE
        if f != n_floors[t] - 1:
            if p[k, P_BONE_LOW] > 0 and dogs[t, n_floors[t] - 1] == 0:
                return p[k, P_BONE_LOW] + 0.1 * f
            return -1.0
        if p[k, P_BONE_STEAL] > 0 and _can_steal_after_bone(c, t, f, opts, hands, floors,
                                                            values, dogs):
            return p[k, P_BONE_STEAL] + bonus
        if p[k, P_BONE_DRILL] > 0 and hands[c, K.DRILL] == 0:
            return -1.0
        if n_floors[t] < mine + p[k, P_ATTACK_GAP] and not threat:
            return -1.0
        return p[k, P_BONE] + bonus
    if a < K.A_MILK:  # DRILL, WRECK: never on a floor a STEAL takes instead
        if p[k, P_DRILL_STEALABLE] == 0 and (stealable >> t) & 1:
            return -1.0
        if a < K.A_WRECK:
            if n_floors[t] < mine + p[k, P_ATTACK_GAP] and not threat:
                return -1.0
            return p[k, P_DRILL] + bonus + 0.1 * n_floors[t]
        if n_floors[t] < target - p[k, P_WRECK_GAP] and not threat:
            return -1.0
        return p[k, P_WRECK] + bonus + 0.1 * n_floors[t]
    # MILK
    if (n_floors[t] < mine + p[k, P_ATTACK_GAP]
            or (skips[t] > 0 and p[k, P_MILK_STACK] == 0)) and not threat:
        return -1.0
    return p[k, P_MILK] + bonus + 0.1 * n_floors[t]


@njit(cache=True, _nrt=False, forceinline=True)
def scripted_arrays(meta, opts, consts, counts, discard, hands, floors, values, dogs, n_floors,
                    skips, hn, legal, n, rng, p, k):
    """Priority bot over the parameter row ``p[k]`` (float64[:, N_PARAMS], see PARAM_NAMES)."""
    c = meta[K.M_CUR]
    if meta[K.M_PHASE] == K.PH_DISCARD:
        # discard the most duplicated card, never a ? while another choice exists
        best = legal[0]
        bc = -1
        for i in range(n):
            kk = legal[i] - K.A_DISCARD
            cnt = hands[c, kk] - (10 if kk == K.QM else 0)
            if cnt > bc:
                bc = cnt
                best = legal[i]
        return best
    np_ = meta[K.M_NP]
    leader = _leader(hn, n_floors, np_, c)
    mine = n_floors[c]
    target = opts[K.O_TARGET]
    # a full hand draws nothing next turn: play any card rather than pass (legal ids ascend,
    # so every STEAL is seen before the DRILLs and WRECKs that ask for ``stealable``)
    full = hn[c] >= consts[K.C_LIMIT]
    noise = p[k, P_NOISE]
    best = K.A_END
    bp = 0.0
    ties = 1
    stealable = 0
    for i in range(n):
        a = legal[i]
        if K.A_STEAL <= a < K.A_DOG:
            stealable |= 1 << ((a - K.A_STEAL) // 4)
        pr = _priority(a, c, leader, mine, target, np_, opts, counts, discard, hands, floors,
                       values, dogs, n_floors, skips, hn, stealable, p, k)
        if full and pr <= 0.0 and a != K.A_END:
            pr = p[k, P_UNSTICK]
        if pr <= 0.0:
            continue
        if noise > 0.0:
            pr += noise * _unit(rng)
            if pr > bp:
                bp = pr
                best = a
        elif pr > bp:
            bp = pr
            best = a
            ties = 1
        elif pr == bp:
            ties += 1
            if rand_below(rng, ties) == 0:
                best = a
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def choose_arrays(code, params, k, meta, opts, consts, counts, discard, hands, floors, values,
                  dogs, n_floors, skips, hn, legal, n, rng):
    """``choose`` on the state's arrays with the strategy's parameters as row ``k`` of the
    matrix ``params`` (float64[:, N_PARAMS]); the batch loop's entry point."""
    if code == 0:
        return legal[rand_below(rng, n)]
    return scripted_arrays(meta, opts, consts, counts, discard, hands, floors, values, dogs,
                           n_floors, skips, hn, legal, n, rng, params, k)


@njit(cache=True)
def choose_scripted(code, params, k, s, legal, n, rng):
    """The action of bot ``code`` with parameter row ``params[k]`` in ``s`` (legal actions
    ``legal[:n]``); the one bot signature, docs/house-pattern.md §3."""
    if code == 0:
        return random_bot(s, legal, n, rng)
    hn = np.empty(K.MAXP, np.int64)
    hm = np.empty(K.MAXP, np.int64)
    derive_hands(s.hands, hn, hm)
    return scripted_arrays(s.meta, s.opts, s.consts, s.counts, s.discard, s.hands, s.floors,
                           s.values, s.dogs, s.n_floors, s.skips, hn, legal, n, rng, params, k)


@njit(cache=True)
def last_turn_ok(s, seat, params, k):
    """Is the determinization ``s`` for ``seat`` consistent with its rival's last turn, the
    rival played by the playout bot (row ``params[k]``, ``attacker``)? The search's filter on
    determinizations (``search.register_plausible``; docs/bots.md, Go Town's search), at 2
    players only. ``attacker`` ends no turn holding a MILK, DONUT, THIEF or MASTER (each is
    legal and ranked above END_TURN whenever its holder has a rival with a card in hand) nor a
    pair it can build (two numbers summing to 9, or a ``?`` and a number) unless its hold rule
    keeps the pair (``_hold``). After END_TURN a hand below ``refill_to`` is refilled, so only a
    hand of more than ``refill_to`` cards is all kept from that turn: only such a hand is
    tested, and only once the rival has begun a turn (``turn >= 2``). Reads the sampled hand
    and public data only."""
    if s.meta[K.M_NP] != 2 or s.meta[K.M_TURN] < 2:
        return True
    r = 1 - seat
    h = 0
    for kk in range(1, K.NT):
        h += s.hands[r, kk]
    if h <= s.consts[K.C_REFILL]:
        return True
    if s.hands[r, K.MILK] + s.hands[r, K.DONUT] + s.hands[r, K.THIEF] + s.hands[r, K.MASTER] > 0:
        return False
    pair = False
    nums = 0
    for lo in range(1, 5):
        if s.hands[r, lo] > 0 and s.hands[r, 9 - lo] > 0:
            pair = True
        nums += s.hands[r, lo] + s.hands[r, 9 - lo]
    if s.hands[r, K.QM] > 0 and nums > 0:
        pair = True
    if pair and not _hold(r, s.n_floors[r], s.opts[K.O_TARGET], 2, s.hands, s.dogs,
                          s.n_floors, params, k):
        return False
    return True


@njit(cache=True)
def plausible(s, seat, params, k, rng, buf):
    """Is the determinization ``s`` for ``seat`` consistent with what its rival did, the rival
    played by the playout bot (row ``params[k]``, ``attacker``)? The search's filter on
    determinizations (``search.register_plausible``; docs/bots.md, Go Town's search), at 2
    players only, once the rival has begun a turn: ``history_ok`` over the rival's END_TURN
    records in the engine's public ``memo`` (its newest record is the board of its last
    END_TURN itself), or, in a state without them (one made from a dict mid-game),
    ``last_turn_ok`` (the hand now, against the board now). ``rng`` and ``buf``: the search's
    generator and scratch, as ``search.register_plausible`` gives them. Reads the sampled hand
    and public data only."""
    if s.meta[K.M_NP] != 2 or s.meta[K.M_TURN] < 2:
        return True
    r = 1 - seat
    if s.memo[r, K.MEMO_N] == 0:
        return last_turn_ok(s, seat, params, k)
    return history_ok(s, r, params, k, rng, buf)


@njit(cache=True, _nrt=False)
def acts_at(cnt, mask, board, target, limit, p, k):
    """Would ``attacker`` (row ``p[k]``) have played a card at an END_TURN of record
    (``mask``, ``board``: the engine's words ``MR_MASK``, ``MR_BOARD``, docs/games/go_town.md
    §8) holding the card counts ``cnt``? Yes for a card of a type with a legal play there (its
    DOG only on its own top floor and its BONE only on a top-floor dog or a lower dog under an
    unguarded top, as ``_priority`` ranks them; every other legal attack it ranks above
    END_TURN) and for a buildable pair its hold rule (``_hold``) does not keep; with a full
    hand (``limit``), for any legal play (its ``unstick``)."""
    full = (board & 0xFF) >= limit
    use = mask & ALL_TYPES
    if not full:
        use &= ~((1 << K.DOG) | (1 << K.BONE))
        if (mask >> K.MF_DOG_OWN_TOP) & 1:
            use |= 1 << K.DOG
        if (mask >> K.MF_BONE_TOP) & 1 or (mask >> K.MF_BONE_LOW) & 1:
            use |= 1 << K.BONE
    for t in range(1, K.NT):
        if cnt[t] > 0 and (use >> t) & 1:
            return True
    pair = False
    nums = 0
    pairs = 0
    left = 0
    for lo in range(1, 5):
        a = cnt[lo]
        b = cnt[9 - lo]
        if a > 0 and b > 0:
            pair = True
        nums += a + b
        pairs += min(a, b)
        left += abs(a - b)
    if cnt[K.QM] > 0 and nums > 0:
        pair = True
    if not pair:
        return False
    if full or p[k, P_HOLD_GAP] < 0:
        return True
    # _hold over the record: own top floor guarded, no DOG held, within hold_gap floors of
    # the target, no rival within threat_gap of it, and the pairs do not reach the target
    mine = (board >> 8) & 0xFF
    if mine < 1 or mine < target - p[k, P_HOLD_GAP] or ((board >> 16) & 1) == 0 or cnt[K.DOG] > 0:
        return True
    if p[k, P_THREAT_GAP] >= 0 and ((board >> 24) & 0xFF) >= target - p[k, P_THREAT_GAP]:
        return True
    pairs += min(cnt[K.QM], left)
    return mine + pairs >= target


@njit(cache=True)
def history_ok(s, r, params, k, rng, buf):
    """Seat ``r``'s sampled hand in ``s`` against its last ``MEMO_HJ`` END_TURN records (the
    engine's public ``memo``, docs/games/go_town.md §8): the cards it has held since record j
    number at least its hand then less the cards that left its hand since (played, or taken by
    a THIEF or MASTER). A random order of the sampled hand (from ``rng``) gives them, oldest
    first, so the kept sets are nested across records; with them ``attacker`` must not act
    (``acts_at``) at any record. ``buf``: scratch, the order in ``buf[:h]`` and the kept
    counts in ``buf[64:64 + NT]`` (a hand of more than 64 cards is not tested). Session 17;
    the lab's ``infer`` 11 (tests/bot_audit/go_town_search_lab.py)."""
    memo = s.memo
    nw = memo[r, K.MEMO_N]
    if nw == 0:
        return True
    h = 0
    for t in range(1, K.NT):
        h += s.hands[r, t]
    if h == 0 or h > 64:
        return True
    i = 0
    for t in range(1, K.NT):
        for _ in range(s.hands[r, t]):
            buf[i] = t
            i += 1
    shuffle(rng, buf, h)
    out = memo[r, K.MEMO_TAKEN]
    for t in range(1, K.NT):
        out += s.played[r, t]
    target = s.opts[K.O_TARGET]
    limit = s.consts[K.C_LIMIT]
    cnt = buf[64:64 + K.NT]
    for jj in range(min(nw, K.MEMO_HJ)):
        j = K.MEMO_REC + 3 * ((nw - 1 - jj) % K.MEMO_HJ)  # the most recent first
        m = (memo[r, j + K.MR_BOARD] & 0xFF) - (out - memo[r, j + K.MR_OUT])
        if m > h:
            m = h
        if m <= 0:
            continue
        for t in range(K.NT):
            cnt[t] = 0
        for i in range(m):
            cnt[buf[i]] += 1
        if acts_at(cnt, memo[r, j + K.MR_MASK], memo[r, j + K.MR_BOARD], target, limit,
                   params, k):
            return False
    return True


@njit(cache=True)
def allowed(s, a, a0):
    """May the search play ``a`` where the playout bot plays ``a0``? Not END_TURN with a hand
    at the hand limit while the playout bot would play a card (its ``unstick`` rule): a full
    hand draws nothing, so such a pass can repeat until the turn limit (the search's rollouts
    value it as the playout bot playing the card a turn later; search games stopped at the
    1,000-turn limit, session 11). ``search.register_allowed``."""
    if a != K.A_END or a0 == K.A_END or s.meta[K.M_PHASE] != K.PH_PLAY:
        return True
    c = s.meta[K.M_CUR]
    h = 0
    for kk in range(1, K.NT):
        h += s.hands[c, kk]
    return h < s.consts[K.C_LIMIT]


# The search's own-seat rule (session 15, a policy-iteration step; strategies/search.py
# ``register_playout_self``): in the search's playouts at 2 players, the searching seat plays
# ``attacker`` except that it ends its turn instead of playing the card attacker picks when
# ``w[category of that card] . features`` is above 0 (``HOLD_FEATURES``: its own hand, both
# boards and public counts, ``hold_features``) and its hand is below the hand limit. The rival's
# seat stays ``attacker`` (what the rival is). ``w`` is data: hold.json, ``{category:
# {feature: weight}}``, a logistic fit per category of the search's END_TURN choices on its
# logged decisions (tests/bot_audit/go_town_hold_fit.py; docs/bots.md, Go Town's search),
# written into the search row's columns after its own parameters (``search_extra`` below,
# ``hold_<category>_<feature>``); all zero: attacker's moves.
HOLD_CATS = ("build", "buildq", "steal", "dog", "bone", "drill", "wreck", "milk", "thief",
             "donut", "master")
HOLD_FEATURES = ("one", "my_fl", "op_fl", "my_dog", "op_dog", "my_h", "op_h", "deck10",
                 "my_pairs", "my_qm", "my_dogs_h", "op_near", "me_near", "my_skip", "op_skip",
                 "turn10")
N_HF = len(HOLD_FEATURES)
HOLD_NAMES = tuple(f"hold_{c}_{f}" for c in HOLD_CATS for f in HOLD_FEATURES)
N_HOLD = len(HOLD_NAMES)
assert N_PARAMS == search.N_SEARCH + N_HOLD  # the search row: its parameters, the hold rule
HOLD_FILE = "hold.json"


def hold_rule(package_dir: str | Path = Path(__file__).parent) -> dict[str, float]:
    """The own-seat rule's numbers by ``HOLD_NAMES`` from the package's hold.json (zeros
    where it names nothing). Raises KeyError for an unknown category or feature."""
    path = Path(package_dir) / HOLD_FILE
    rule = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    out = dict.fromkeys(HOLD_NAMES, 0.0)
    for cat, ws in rule.items():
        for f, v in ws.items():
            key = f"hold_{cat}_{f}"
            if key not in out:
                raise KeyError(f"{path}: unknown hold rule entry {cat!r}/{f!r}; categories "
                               f"{', '.join(HOLD_CATS)}, features {', '.join(HOLD_FEATURES)}")
            out[key] = float(v)
    return out


@njit(cache=True, _nrt=False, forceinline=True)
def hold_category(a):
    """The index in ``HOLD_CATS`` of the card play ``a``; -1 for END_TURN, a discard or a
    dead play."""
    if a == K.A_END or a > K.A_MASTER:
        return -1
    if a <= 4:
        return 0
    if a < K.A_STEAL:
        return 1
    if a < K.A_DOG:
        return 2
    if a < K.A_BONE:
        return 3
    if a < K.A_DRILL:
        return 4
    if a < K.A_WRECK:
        return 5
    if a < K.A_MILK:
        return 6
    if a < K.A_THIEF:
        return 7
    if a < K.A_DONUT:
        return 8
    if a == K.A_DONUT:
        return 9
    return 10


@njit(cache=True, _nrt=False, forceinline=True)
def hold_feature(j, c, meta, opts, hands, dogs, n_floors, skips, hn):
    """Feature ``j`` (``HOLD_FEATURES``) of seat ``c`` at 2 players: 1; its floors; the
    rival's; a dog on its top floor; on the rival's; its cards in hand; the rival's; the draw
    pile / 10; the pairs it can build (as ``_hold`` counts them); its ?s; its DOGs; the rival
    one floor from the target; itself so; its turns to skip > 0; the rival's; the turn / 10."""
    r = 1 - c
    fc = n_floors[c]
    fr = n_floors[r]
    tgt = opts[K.O_TARGET]
    if j == 0:
        return 1.0
    if j == 1:
        return float(fc)
    if j == 2:
        return float(fr)
    if j == 3:
        return 1.0 if fc > 0 and dogs[c, fc - 1] > 0 else 0.0
    if j == 4:
        return 1.0 if fr > 0 and dogs[r, fr - 1] > 0 else 0.0
    if j == 5:
        return float(hn[c])
    if j == 6:
        return float(hn[r])
    if j == 7:
        return meta[K.M_DECKN] / 10.0
    if j == 8:
        return float(pairs_in_hand(hands, c))
    if j == 9:
        return float(hands[c, K.QM])
    if j == 10:
        return float(hands[c, K.DOG])
    if j == 11:
        return 1.0 if fr >= tgt - 1 else 0.0
    if j == 12:
        return 1.0 if fc >= tgt - 1 else 0.0
    if j == 13:
        return 1.0 if skips[c] > 0 else 0.0
    if j == 14:
        return 1.0 if skips[r] > 0 else 0.0
    return meta[K.M_TURN] / 10.0


@njit(cache=True, _nrt=False, forceinline=True)
def own_hold(a, c, meta, opts, consts, hands, dogs, n_floors, skips, hn, p, j0):
    """Does the search's own seat ``c`` end its turn instead of playing ``a`` (the playout
    bot's pick)? The rule above, its numbers ``p[j0:j0 + N_HOLD]`` (``HOLD_NAMES``): only a
    card play in phase play at 2 players with a hand below the hand limit."""
    k = hold_category(a)
    if k < 0 or meta[K.M_PHASE] != K.PH_PLAY or meta[K.M_NP] != 2 or hn[c] >= consts[K.C_LIMIT]:
        return False
    b = j0 + k * N_HF
    # the features of ``hold_feature``, straight-line, summed in ``HOLD_FEATURES`` order
    r = 1 - c
    fc = n_floors[c]
    fr = n_floors[r]
    tgt = opts[K.O_TARGET]
    pairs = pairs_in_hand(hands, c)
    z = p[b]
    z += p[b + 1] * fc
    z += p[b + 2] * fr
    z += p[b + 3] * (1.0 if fc > 0 and dogs[c, fc - 1] > 0 else 0.0)
    z += p[b + 4] * (1.0 if fr > 0 and dogs[r, fr - 1] > 0 else 0.0)
    z += p[b + 5] * hn[c]
    z += p[b + 6] * hn[r]
    z += p[b + 7] * (meta[K.M_DECKN] / 10.0)
    z += p[b + 8] * pairs
    z += p[b + 9] * hands[c, K.QM]
    z += p[b + 10] * hands[c, K.DOG]
    z += p[b + 11] * (1.0 if fr >= tgt - 1 else 0.0)
    z += p[b + 12] * (1.0 if fc >= tgt - 1 else 0.0)
    z += p[b + 13] * (1.0 if skips[c] > 0 else 0.0)
    z += p[b + 14] * (1.0 if skips[r] > 0 else 0.0)
    z += p[b + 15] * (meta[K.M_TURN] / 10.0)
    return z > 0.0


def params_matrix(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``int64[k]`` and parameter rows ``float64[k, N_PARAMS]`` of the named strategies."""
    return common.params_matrix(STRATEGIES, N_PARAMS, names)


# the one bot entry point ``choose`` (docs/house-pattern.md §3) and the search bot ``mcts``
# the rows tuned by self-play (``boardsim train-bot``), data in this package's tuned.json
common.add_tuned(STRATEGIES, Path(__file__).parent)
choose = common.install_bots(GoTownState, STRATEGIES, N_PARAMS, choose_scripted, K.NUM_ACTIONS,
                             playout="attacker", budget=1000,
                             search_values=dict(budget=800, n_random=64),
                             search_extra=hold_rule())
# the search's determinizations conditioned on the rival's last turn (attacker as its model)
search.register_plausible(GoTownState, plausible)
# no full-hand pass where the playout bot plays a card (the stalls to the turn limit)
search.register_allowed(GoTownState, allowed)
