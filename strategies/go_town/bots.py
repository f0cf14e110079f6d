"""Go Town scripted bots (spec §8.2), as numba functions of (state, legal actions, rng, params).

Two kernels: ``random_bot`` (uniform over legal actions) and ``scripted_bot``, a priority bot:
each legal action gets a priority from the strategy's parameter vector and simple features of
the position (who leads, who is about to win, what the hand holds); the highest priority is
played, ties broken uniformly at random, and the turn ends (END_TURN, priority 0) when nothing
scores above 0. The named strategies are parameter vectors (data), so a designer can add one
without touching code.
"""

import numpy as np
from numba import njit

from sim.core.game import StrategySpec
from sim.core.rng import rand_below
from sim.go_town import constants as K
from sim.go_town.kernels import GoTownState, derive_hands
from strategies import common

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
    "donut_rivals",
    "thief",          # THIEF
    "master",         # MASTER thief
    "leader_bonus",   # added when the target of an attack or steal is the leader
    "attack_gap",     # attack (drill/milk) only rivals with >= own floors + attack_gap
)
N_PARAMS = len(PARAM_NAMES)


def _params(**kw) -> tuple:
    return common.param_vector(PARAM_NAMES, dict(wreck_gap=2, donut_gap=1, donut_rivals=2, attack_gap=0), **kw)


# code 0: random_bot; code 1: scripted_bot with the vector below
STRATEGIES = {
    "random": StrategySpec("random", 0, "uniform over the legal actions, END_TURN included"),
    "greedy": StrategySpec(
        "greedy", 1,
        "one step ahead: build when it can, else steal a floor (from the leader first), else "
        "hit the leader (drill, milkshake, thieves); a dog on its own top floor",
        _params(build=90, build_qm=80, steal=70, leader_bonus=5, drill=40, bone=30,
                bone_needs_drill=1, wreck=35, wreck_gap=5, milk=30, donut=25, donut_gap=5,
                donut_rivals=1, thief=50, master=55, dog_top=20, attack_gap=1),
        PARAM_NAMES,
    ),
    "attacker": StrategySpec(
        "attacker", 1,
        "spec §8.2 attacker: bone->drill->steal on the leader, wrecking ball on a guarded "
        "near-winner, milkshake the leader, donut when two rivals are close, then build",
        _params(build=40, build_qm=35, steal=85, leader_bonus=10, bone=95, bone_needs_drill=1,
                drill=90, wreck=92, wreck_gap=2, milk=80, donut=75, donut_gap=1,
                donut_rivals=2, thief=60, master=65, dog_top=20, attack_gap=0),
        PARAM_NAMES,
    ),
    "thief-first": StrategySpec(
        "thief-first", 1,
        "greedy, but opens every turn with all its thief cards (seed tip 2)",
        _params(build=90, build_qm=80, steal=70, leader_bonus=5, drill=40, bone=30,
                bone_needs_drill=1, wreck=35, wreck_gap=5, milk=30, donut=25, donut_gap=5,
                donut_rivals=1, thief=99, master=100, dog_top=20, attack_gap=1),
        PARAM_NAMES,
    ),
    "defender": StrategySpec(
        "defender", 1,
        "spec §8.2 defender: builds, keeps a dog on its top floor after building, attacks "
        "only a player one floor from winning",
        _params(build=90, build_qm=85, steal=80, leader_bonus=5, dog_top=50, bone=30,
                bone_needs_drill=1, drill=60, wreck=70, wreck_gap=1, milk=60, donut=55,
                donut_gap=1, donut_rivals=1, thief=40, master=45, attack_gap=99),
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
def _priority(a, c, leader, mine, target, np_, hands, n_floors, skips, hn, p, k):
    """Priority of the legal action ``a`` for seat ``c`` under the parameter row ``p[k]``.

    ``leader``: the rival ``_leader`` picks; ``mine``: ``c``'s floors; ``target``: the option.
    """
    if a == K.A_END:
        return 0.0
    if a <= 4:
        return p[k, 0]
    if a < K.A_STEAL:
        return p[k, 1]
    if a < K.A_DOG:
        v = (a - K.A_STEAL) // 4
        bonus = p[k, 15] if v == leader else 0.0
        return p[k, 2] + bonus + 0.1 * n_floors[v]
    if a < K.A_BONE:
        i = a - K.A_DOG
        t = i // K.MAXF
        f = i % K.MAXF
        if t == c and f == mine - 1:
            return p[k, 3]
        return -1.0
    if a < K.A_DRILL:
        i = a - K.A_BONE
        t = i // K.MAXF
        f = i % K.MAXF
        if f != n_floors[t] - 1:
            return -1.0
        if p[k, 5] > 0 and hands[c, K.DRILL] == 0:
            return -1.0
        if n_floors[t] < mine + p[k, 16]:
            return -1.0
        return p[k, 4] + (p[k, 15] if t == leader else 0.0)
    if a < K.A_WRECK:
        t = a - K.A_DRILL
        if n_floors[t] < mine + p[k, 16]:
            return -1.0
        return p[k, 6] + (p[k, 15] if t == leader else 0.0) + 0.1 * n_floors[t]
    if a < K.A_MILK:
        t = a - K.A_WRECK
        if n_floors[t] < target - p[k, 8]:
            return -1.0
        return p[k, 7] + (p[k, 15] if t == leader else 0.0) + 0.1 * n_floors[t]
    if a < K.A_THIEF:
        t = a - K.A_MILK
        if n_floors[t] < mine + p[k, 16] or skips[t] > 0:
            return -1.0
        return p[k, 9] + (p[k, 15] if t == leader else 0.0) + 0.1 * n_floors[t]
    if a < K.A_DONUT:
        t = a - K.A_THIEF
        return p[k, 13] + 0.1 * hn[t]
    if a == K.A_DONUT:
        close = 0
        for t in range(np_):
            if t != c and n_floors[t] >= target - p[k, 11]:
                close += 1
        if close < p[k, 12]:
            return -1.0
        return p[k, 10]
    if a == K.A_MASTER:
        return p[k, 14]
    return -1.0  # dead plays: never


@njit(cache=True, _nrt=False, forceinline=True)
def scripted_arrays(meta, opts, hands, n_floors, skips, hn, legal, n, rng, p, k):
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
    best = K.A_END
    bp = 0.0
    ties = 1
    for i in range(n):
        a = legal[i]
        pr = _priority(a, c, leader, mine, target, np_, hands, n_floors, skips, hn, p, k)
        if pr > bp:
            bp = pr
            best = a
            ties = 1
        elif pr == bp and pr > 0:
            ties += 1
            if rand_below(rng, ties) == 0:
                best = a
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def choose_arrays(code, params, k, meta, opts, hands, n_floors, skips, hn, legal, n, rng):
    """``choose`` on the state's arrays with the strategy's parameters as row ``k`` of the
    matrix ``params`` (float64[:, N_PARAMS]); the batch loop's entry point."""
    if code == 0:
        return legal[rand_below(rng, n)]
    return scripted_arrays(meta, opts, hands, n_floors, skips, hn, legal, n, rng, params, k)


@njit(cache=True)
def choose(code, params, k, s, legal, n, rng):
    """The action of bot ``code`` with parameter row ``params[k]`` in ``s`` (legal actions
    ``legal[:n]``); the one bot signature, docs/house-pattern.md §3."""
    if code == 0:
        return random_bot(s, legal, n, rng)
    hn = np.empty(K.MAXP, np.int64)
    hm = np.empty(K.MAXP, np.int64)
    derive_hands(s.hands, hn, hm)
    return scripted_arrays(s.meta, s.opts, s.hands, s.n_floors, s.skips, hn, legal, n, rng,
                           params, k)


def params_matrix(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``int64[k]`` and parameter rows ``float64[k, N_PARAMS]`` of the named strategies."""
    return common.params_matrix(STRATEGIES, N_PARAMS, names)


common.bots_for(GoTownState, choose)
