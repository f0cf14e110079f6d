"""Go Town kernels: setup, legal actions and action effects over ``GoTownState``.

Every function here is ``@njit(cache=True)`` and works in place on the arrays of the state; the
Python API in ``game.py`` copies before applying. Rules: shared/rules/go_town.md (cited as §);
encoding: docs/games/go_town.md. The work is done by kernels over the state's arrays
(``init_arrays``, ``legal_actions_arrays``, ``apply_arrays``); ``init_state``,
``legal_actions_into`` and ``apply_inplace`` are their entry points over a ``GoTownState``.
See the performance note below before changing a signature.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.rng import rand_below, shuffle
from sim.go_town.constants import (
    A_BONE,
    A_BUILDQ,
    A_DISCARD,
    A_DOG,
    A_DONUT,
    A_DRILL,
    A_END,
    A_MASTER,
    A_MILK,
    A_STEAL,
    A_THIEF,
    A_WRECK,
    BONE,
    C_LIMIT,
    C_OPEN,
    C_REFILL,
    DECISIONS_PER_TURN_CAP,
    DOG,
    DONUT,
    DRILL,
    END_LIMIT,
    END_TARGET,
    M_CUR,
    M_DEC,
    M_DECKN,
    M_END,
    M_NP,
    M_PHASE,
    M_TURN,
    M_WINNER,
    MASTER,
    MAXF,
    MAXP,
    MILK,
    N_META,
    NT,
    O_BONE_OWN,
    O_BONE_TARGET,
    O_DEAD_PLAYS,
    O_DESTROY_SELF,
    O_DOG_OTHERS,
    O_DOG_PLACE,
    O_DOG_UP,
    O_DOGS_MAX,
    O_DONUT_SCOPE,
    O_FIRST,
    O_HANDMODE,
    O_MAXTURNS,
    O_MILK_DISCARD,
    O_MILK_SELF,
    O_QM_BY_NUM,
    O_QM_BY_QM,
    O_RESHUFFLE,
    O_SKIP_MEANS,
    O_SKIP_STACK,
    O_TARGET,
    O_WINCHECK,
    PH_DISCARD,
    PH_OVER,
    PH_PLAY,
    QM,
    THIEF,
    WRECK,
)


class GoTownState(NamedTuple):
    """Go Town state: plain numpy arrays (layout of the dict form: docs/games/go_town.md §8).

    meta      int64[8]        n_players, current, phase, turn, decisions, winner, end_reason, deck_n
    rng       uint64[1]       SplitMix64 state
    opts      int64[21]       encoded rule options (slots O_* in constants.py)
    counts    int64[18]       card counts per type (component data)
    consts    int64[3]        opening_hand, hand_limit, refill_to (component data)
    deck      int64[total]    draw pile, bottom first; top = deck[deck_n - 1]
    discard   int64[18]       discard pile, counts per type
    hands     int64[4, 18]    hand counts per seat and type
    floors    int64[4, 18, 2] card types of each floor (0 = empty slot)
    values    int64[4, 18, 2] effective values (a ?'s locked value)
    dogs      int64[4, 18]    dogs on each floor
    n_floors  int64[4]
    skips     int64[4]        pending skipped turns
    milk      int64[4]        milkshakes lying in front of each seat
    played    int64[4, 18]    cards played from hand per seat and type
    """

    meta: np.ndarray
    rng: np.ndarray
    opts: np.ndarray
    counts: np.ndarray
    consts: np.ndarray
    deck: np.ndarray
    discard: np.ndarray
    hands: np.ndarray
    floors: np.ndarray
    values: np.ndarray
    dogs: np.ndarray
    n_floors: np.ndarray
    skips: np.ndarray
    milk: np.ndarray
    played: np.ndarray


def alloc_state(opts: np.ndarray, counts: np.ndarray, consts: np.ndarray) -> GoTownState:
    """Empty state arrays for the given option and data arrays (copied)."""
    total = int(counts.sum())
    return GoTownState(
        meta=np.zeros(N_META, np.int64),
        rng=np.zeros(1, np.uint64),
        opts=opts.astype(np.int64).copy(),
        counts=counts.astype(np.int64).copy(),
        consts=consts.astype(np.int64).copy(),
        deck=np.zeros(max(total, 1), np.int64),
        discard=np.zeros(NT, np.int64),
        hands=np.zeros((MAXP, NT), np.int64),
        floors=np.zeros((MAXP, MAXF, 2), np.int64),
        values=np.zeros((MAXP, MAXF, 2), np.int64),
        dogs=np.zeros((MAXP, MAXF), np.int64),
        n_floors=np.zeros(MAXP, np.int64),
        skips=np.zeros(MAXP, np.int64),
        milk=np.zeros(MAXP, np.int64),
        played=np.zeros((MAXP, NT), np.int64),
    )


# ---------------------------------------------------------------------------------------------
# Performance note: array arguments, ``_nrt=False``, ``forceinline``
#
# numba reference-counts arrays. Taking an array out of the NamedTuple (``s.meta``), slicing a
# row (``hands[c]``) or receiving an array argument emits atomic incref/decref pairs, and its
# refcount-pruning pass cannot remove pairs that straddle branches and loops; in the game loop
# those atomics were ~90% of the run time. Hence:
#
# * Every kernel takes the plain arrays it needs as arguments (always in GoTownState field
#   order: meta, rng, opts, counts, consts, deck, discard, hands, floors, values, dogs,
#   n_floors, skips, milk, played) and indexes 2-D/3-D arrays directly (``hands[c, k]``).
# * The array kernels are compiled with ``_nrt=False`` (numba's switch for compiling without
#   its runtime's reference counting): they contain no refcount operation at all. They only
#   read and write arrays their caller holds, and numba refuses to compile an allocation in
#   them, so nothing can be freed early or leak. Functions that allocate or unpack the state
#   (the entry points at the end of this file, ``run_games``) keep the default.
# * The per-decision kernels (``legal_actions_arrays``, ``apply_arrays`` and the bots in
#   strategies/go_town.py) are ``forceinline=True`` (LLVM-level inlining into the game loop):
#   a call passes each array as its 7-11 struct fields, ~100 machine words per call, and that
#   was ~25% of the run time. Rarely run kernels stay plain calls (LLVM still inlines the small
#   ones); numba-level ``inline="always"`` is not used (with it on every kernel
#   the first compile took ~45 s; now ~8 s).
# * The ``GoTownState`` entry points at the end unpack the state once and delegate; the batch
#   loop (batch.py) unpacks it once per chunk and calls the array kernels directly.


# ---------------------------------------------------------------------------------------------
# small helpers
@njit(cache=True, _nrt=False)
def hsize(hands, p):
    """Hand size of seat ``p`` from the ``hands`` count array."""
    t = 0
    for k in range(1, NT):
        t += hands[p, k]
    return t


@njit(cache=True, _nrt=False)
def dsize(discard):
    """Cards in the discard pile."""
    t = 0
    for k in range(1, NT):
        t += discard[k]
    return t


@njit(cache=True, _nrt=False)
def end_game(meta, winner, reason):
    meta[M_WINNER] = winner
    meta[M_END] = reason
    meta[M_PHASE] = PH_OVER


@njit(cache=True, _nrt=False)
def top_free(n_floors, dogs, t):
    """True if seat ``t`` has a top floor without a dog."""
    nf = n_floors[t]
    return nf > 0 and dogs[t, nf - 1] == 0


# ---------------------------------------------------------------------------------------------
# drawing (§3.2)
@njit(cache=True, _nrt=False)
def reshuffle(meta, rng, deck, discard):
    """The discard pile, laid out in ascending type order, shuffled into a new draw pile."""
    n = 0
    for k in range(1, NT):
        for _ in range(discard[k]):
            deck[n] = k
            n += 1
        discard[k] = 0
    shuffle(rng, deck, n)
    meta[M_DECKN] = n


@njit(cache=True, _nrt=False)
def draw(meta, rng, opts, deck, discard, hands, p):
    """Draw one card for seat ``p``; reshuffle per D4; a draw from two empty piles is lost."""
    if meta[M_DECKN] == 0:
        if dsize(discard) == 0:
            return
        reshuffle(meta, rng, deck, discard)
    n = meta[M_DECKN] - 1
    hands[p, deck[n]] += 1
    meta[M_DECKN] = n
    if opts[O_RESHUFFLE] == 1 and n == 0 and dsize(discard) > 0:
        reshuffle(meta, rng, deck, discard)


@njit(cache=True, _nrt=False)
def refill(meta, rng, opts, consts, deck, discard, hands, p):
    """End-of-turn refill to ``refill_to`` cards (§3.2 step 3)."""
    while hsize(hands, p) < consts[C_REFILL]:
        if meta[M_DECKN] == 0 and dsize(discard) == 0:
            return
        draw(meta, rng, opts, deck, discard, hands, p)


# ---------------------------------------------------------------------------------------------
# turn flow (§3.2, §4.9)
@njit(cache=True, _nrt=False)
def begin_turn(meta, rng, opts, consts, deck, discard, hands, skips, milk, p):
    """Begin the turn of seat ``p``: skipped turns (D9, D10, D15), the turn cap (D17), the draw."""
    n = meta[M_NP]
    while True:
        if meta[M_TURN] >= opts[O_MAXTURNS]:
            end_game(meta, -1, END_LIMIT)
            return
        meta[M_TURN] += 1
        if skips[p] > 0:
            skips[p] -= 1
            if milk[p] > 0:
                milk[p] -= 1
                discard[MILK] += 1
            if opts[O_SKIP_MEANS] == 1:
                refill(meta, rng, opts, consts, deck, discard, hands, p)
            p = (p + 1) % n
            continue
        if hsize(hands, p) < consts[C_LIMIT]:
            draw(meta, rng, opts, deck, discard, hands, p)
        meta[M_CUR] = p
        meta[M_PHASE] = PH_PLAY
        return


@njit(cache=True, _nrt=False)
def finish_turn(meta, rng, opts, consts, deck, discard, hands, skips, milk):
    """End the current seat's turn (refill) and begin the next seat's."""
    c = meta[M_CUR]
    refill(meta, rng, opts, consts, deck, discard, hands, c)
    begin_turn(meta, rng, opts, consts, deck, discard, hands, skips, milk, (c + 1) % meta[M_NP])


@njit(cache=True, _nrt=False)
def init_arrays(meta, rng, opts, counts, consts, deck, discard, hands, floors, values, dogs,
                n_floors, skips, milk, played, n_players, seed):
    """``init_state`` on the state's arrays: first player, shuffle, deal, first turn (§3.1)."""
    meta.fill(0)
    discard.fill(0)
    hands.fill(0)
    floors.fill(0)
    values.fill(0)
    dogs.fill(0)
    n_floors.fill(0)
    skips.fill(0)
    milk.fill(0)
    played.fill(0)
    rng[0] = seed
    meta[M_NP] = n_players
    meta[M_WINNER] = -1
    first = 0
    if opts[O_FIRST] == 1:
        first = rand_below(rng, n_players)
    n = 0
    for k in range(1, NT):
        for _ in range(counts[k]):
            deck[n] = k
            n += 1
    shuffle(rng, deck, n)
    meta[M_DECKN] = n
    for p in range(n_players):
        for _ in range(consts[C_OPEN]):
            draw(meta, rng, opts, deck, discard, hands, p)
    meta[M_CUR] = first
    begin_turn(meta, rng, opts, consts, deck, discard, hands, skips, milk, first)


# ---------------------------------------------------------------------------------------------
# legal actions (docs/games/go_town.md section 6)
@njit(cache=True, _nrt=False, forceinline=True)
def legal_actions_arrays(meta, opts, consts, hands, floors, values, dogs, n_floors, skips, out):
    """``legal_actions_into`` on the state's arrays: ids into ``out`` ascending; return count."""
    ph = meta[M_PHASE]
    if ph == PH_OVER:
        return 0
    c = meta[M_CUR]
    n = 0
    if ph == PH_DISCARD:
        for k in range(1, NT):
            if hands[c, k] > 0:
                out[n] = A_DISCARD + k
                n += 1
        return n
    np_ = meta[M_NP]
    out[n] = A_END
    n += 1
    # §4.1 build from hand
    for lo in range(1, 5):
        if hands[c, lo] > 0 and hands[c, 9 - lo] > 0:
            out[n] = lo
            n += 1
    if hands[c, QM] > 0:
        for v in range(1, 9):
            if hands[c, v] > 0:
                out[n] = A_BUILDQ + v
                n += 1
    # §4.2, §4.3 steal from a rival's unguarded top floor
    for v in range(np_):
        if v == c or not top_free(n_floors, dogs, v):
            continue
        f = n_floors[v] - 1
        for slot in range(2):
            x = floors[v, f, slot]
            w = values[v, f, slot]
            base = A_STEAL + v * 4 + slot * 2
            if x != QM:
                if hands[c, 9 - w] > 0:
                    out[n] = base
                    n += 1
            else:
                if opts[O_QM_BY_NUM] == 1 and hands[c, 9 - w] > 0:
                    out[n] = base
                    n += 1
                if opts[O_QM_BY_QM] == 1 and hands[c, QM] > 0:
                    out[n] = base + 1
                    n += 1
    # §4.4 dog
    n_dog = n
    if hands[c, DOG] > 0:
        for t in range(np_):
            if t != c and opts[O_DOG_OTHERS] == 0:
                continue
            nf = n_floors[t]
            f0 = 0
            if opts[O_DOG_PLACE] == 1:
                f0 = max(nf - 1, 0)
            for f in range(f0, nf):
                if dogs[t, f] < opts[O_DOGS_MAX]:
                    out[n] = A_DOG + t * MAXF + f
                    n += 1
    dog_ok = n > n_dog
    # §4.5 bone
    n_bone = n
    if hands[c, BONE] > 0:
        for t in range(np_):
            if t == c and opts[O_BONE_OWN] == 0:
                continue
            nf = n_floors[t]
            f0 = 0
            if opts[O_BONE_TARGET] == 1:
                f0 = max(nf - 1, 0)
            for f in range(f0, nf):
                if dogs[t, f] > 0:
                    out[n] = A_BONE + t * MAXF + f
                    n += 1
    bone_ok = n > n_bone
    # §4.6 drill, §4.7 wrecking ball
    n_drill = n
    if hands[c, DRILL] > 0:
        for t in range(np_):
            if (t != c or opts[O_DESTROY_SELF] == 1) and top_free(n_floors, dogs, t):
                out[n] = A_DRILL + t
                n += 1
    drill_ok = n > n_drill
    n_wreck = n
    if hands[c, WRECK] > 0:
        for t in range(np_):
            if (t != c or opts[O_DESTROY_SELF] == 1) and n_floors[t] > 0:
                out[n] = A_WRECK + t
                n += 1
    wreck_ok = n > n_wreck
    # §4.9 milkshake
    n_milk = n
    if hands[c, MILK] > 0:
        for t in range(np_):
            if t == c and opts[O_MILK_SELF] == 0:
                continue
            if opts[O_SKIP_STACK] == 1 and skips[t] > 0:
                continue
            out[n] = A_MILK + t
            n += 1
    milk_ok = n > n_milk
    # §4.8 thief
    thief_ok = False
    master_ok = False
    if hands[c, THIEF] > 0 or hands[c, MASTER] > 0:
        cap_gain = opts[O_HANDMODE] == 1
        room = (not cap_gain) or hsize(hands, c) - 1 < consts[C_LIMIT]
        n_thief = n
        if hands[c, THIEF] > 0 and room:
            for t in range(np_):
                if t != c and hsize(hands, t) > 0:
                    out[n] = A_THIEF + t
                    n += 1
        thief_ok = n > n_thief
        if hands[c, MASTER] > 0 and room:
            for t in range(np_):
                if t != c and hsize(hands, t) > 0:
                    master_ok = True
    # §4.9 donut truck
    donut_ok = False
    if hands[c, DONUT] > 0:
        if opts[O_SKIP_STACK] == 0:
            donut_ok = np_ > 1 or opts[O_DONUT_SCOPE] == 1
        else:
            for t in range(np_):
                if (t != c or opts[O_DONUT_SCOPE] == 1) and skips[t] == 0:
                    donut_ok = True
        if donut_ok:
            out[n] = A_DONUT
            n += 1
    # §4.8 master thief
    if master_ok:
        out[n] = A_MASTER
        n += 1
    # D14 dead plays
    if opts[O_DEAD_PLAYS] == 1:
        for k in range(DOG, NT):
            if hands[c, k] == 0:
                continue
            ok = (
                (k == DOG and dog_ok) or (k == BONE and bone_ok) or (k == DRILL and drill_ok)
                or (k == WRECK and wreck_ok) or (k == MILK and milk_ok)
                or (k == DONUT and donut_ok) or (k == THIEF and thief_ok)
                or (k == MASTER and master_ok)
            )
            if not ok:
                out[n] = A_DISCARD + k
                n += 1
    return n


# ---------------------------------------------------------------------------------------------
# effects
@njit(cache=True, _nrt=False)
def add_floor(meta, opts, floors, values, dogs, n_floors, c, x0, x1, v0, v1):
    """New top floor for ``c`` (§4.1, §4.2); dogs ride up under D7; immediate win check (D2)."""
    f = n_floors[c]
    floors[c, f, 0] = x0
    floors[c, f, 1] = x1
    values[c, f, 0] = v0
    values[c, f, 1] = v1
    dogs[c, f] = 0
    if opts[O_DOG_UP] == 1 and f > 0 and dogs[c, f - 1] > 0:
        dogs[c, f] = dogs[c, f - 1]
        dogs[c, f - 1] = 0
    n_floors[c] = f + 1
    if opts[O_WINCHECK] == 0 and f + 1 >= opts[O_TARGET]:
        end_game(meta, c, END_TARGET)


@njit(cache=True, _nrt=False)
def remove_top(discard, floors, values, dogs, n_floors, t, to_discard):
    """Remove ``t``'s top floor; its cards (if ``to_discard``) and its dogs go to the discard."""
    f = n_floors[t] - 1
    if to_discard:
        discard[floors[t, f, 0]] += 1
        discard[floors[t, f, 1]] += 1
    discard[DOG] += dogs[t, f]
    floors[t, f, 0] = 0
    floors[t, f, 1] = 0
    values[t, f, 0] = 0
    values[t, f, 1] = 0
    dogs[t, f] = 0
    n_floors[t] = f


@njit(cache=True, _nrt=False)
def take_random_card(rng, hands, c, v):
    """Move one uniformly random card of ``v``'s hand to ``c``'s (§4.8; encoding §6.2)."""
    r = rand_below(rng, hsize(hands, v))
    for k in range(1, NT):
        if r < hands[v, k]:
            hands[v, k] -= 1
            hands[c, k] += 1
            return
        r -= hands[v, k]


@njit(cache=True, _nrt=False)
def play_card(hands, played, c, k):
    """Card ``k`` leaves ``c``'s hand as a play (counted in ``played``)."""
    hands[c, k] -= 1
    played[c, k] += 1


@njit(cache=True, _nrt=False, forceinline=True)
def apply_arrays(meta, rng, opts, consts, deck, discard, hands, floors, values, dogs, n_floors,
                 skips, milk, played, a):
    """``apply_inplace`` on the state's arrays (docs/games/go_town.md section 6)."""
    c = meta[M_CUR]
    np_ = meta[M_NP]
    meta[M_DEC] += 1
    limit = consts[C_LIMIT]
    if meta[M_PHASE] == PH_DISCARD:
        k = a - A_DISCARD
        hands[c, k] -= 1
        discard[k] += 1
        if hsize(hands, c) <= limit:
            finish_turn(meta, rng, opts, consts, deck, discard, hands, skips, milk)
    elif a == A_END:
        if opts[O_WINCHECK] == 1 and n_floors[c] >= opts[O_TARGET]:
            end_game(meta, c, END_TARGET)
        elif opts[O_HANDMODE] == 2 and hsize(hands, c) > limit:
            meta[M_PHASE] = PH_DISCARD
        else:
            finish_turn(meta, rng, opts, consts, deck, discard, hands, skips, milk)
    elif a < A_BUILDQ + 1:  # BUILD lo+hi
        lo = a
        hi = 9 - a
        play_card(hands, played, c, lo)
        play_card(hands, played, c, hi)
        add_floor(meta, opts, floors, values, dogs, n_floors, c, lo, hi, lo, hi)
    elif a < A_STEAL:  # BUILD ?+n
        v = a - A_BUILDQ
        play_card(hands, played, c, v)
        play_card(hands, played, c, QM)
        add_floor(meta, opts, floors, values, dogs, n_floors, c, v, QM, v, 9 - v)
    elif a < A_DOG:  # STEAL v slot by_qm
        i = a - A_STEAL
        v = i // 4
        slot = (i // 2) % 2
        by_qm = i % 2
        f = n_floors[v] - 1
        x = floors[v, f, slot]
        w = values[v, f, slot]
        other = floors[v, f, 1 - slot]
        paid = QM if by_qm == 1 else 9 - w
        play_card(hands, played, c, paid)
        discard[other] += 1
        remove_top(discard, floors, values, dogs, n_floors, v, False)
        add_floor(meta, opts, floors, values, dogs, n_floors, c, paid, x, 9 - w, w)
    elif a < A_BONE:  # DOG t f
        i = a - A_DOG
        play_card(hands, played, c, DOG)
        dogs[i // MAXF, i % MAXF] += 1
    elif a < A_DRILL:  # BONE t f
        i = a - A_BONE
        play_card(hands, played, c, BONE)
        dogs[i // MAXF, i % MAXF] -= 1
        discard[DOG] += 1
        discard[BONE] += 1
    elif a < A_WRECK:
        play_card(hands, played, c, DRILL)
        discard[DRILL] += 1
        remove_top(discard, floors, values, dogs, n_floors, a - A_DRILL, True)
    elif a < A_MILK:
        play_card(hands, played, c, WRECK)
        discard[WRECK] += 1
        remove_top(discard, floors, values, dogs, n_floors, a - A_WRECK, True)
    elif a < A_THIEF:
        t = a - A_MILK
        play_card(hands, played, c, MILK)
        skips[t] += 1
        if opts[O_MILK_DISCARD] == 0:
            milk[t] += 1
        else:
            discard[MILK] += 1
    elif a < A_DONUT:
        play_card(hands, played, c, THIEF)
        discard[THIEF] += 1
        take_random_card(rng, hands, c, a - A_THIEF)
    elif a == A_DONUT:
        play_card(hands, played, c, DONUT)
        discard[DONUT] += 1
        for t in range(np_):
            if t == c and opts[O_DONUT_SCOPE] == 0:
                continue
            if opts[O_SKIP_STACK] == 0:
                skips[t] += 1
            elif skips[t] == 0:
                skips[t] = 1
    elif a == A_MASTER:
        play_card(hands, played, c, MASTER)
        discard[MASTER] += 1
        cap_gain = opts[O_HANDMODE] == 1
        for i in range(1, np_):
            v = (c + i) % np_
            if hsize(hands, v) > 0 and ((not cap_gain) or hsize(hands, c) < limit):
                take_random_card(rng, hands, c, v)
    else:  # DISCARD k in phase play: a dead play (D14)
        k = a - A_DISCARD
        play_card(hands, played, c, k)
        discard[k] += 1
    if meta[M_PHASE] != PH_OVER and meta[M_DEC] >= opts[O_MAXTURNS] * DECISIONS_PER_TURN_CAP:
        end_game(meta, -1, END_LIMIT)


# ---------------------------------------------------------------------------------------------
# GoTownState entry points (the Python API in game.py); each unpacks the state once
@njit(cache=True)
def init_state(s, n_players, seed):
    """Set up a new game in the arrays of ``s`` (§3.1): first player, shuffle, deal, first turn.

    ``seed``: uint64 generator seed. Options and data already in ``opts/counts/consts``.
    """
    init_arrays(s.meta, s.rng, s.opts, s.counts, s.consts, s.deck, s.discard, s.hands,
                s.floors, s.values, s.dogs, s.n_floors, s.skips, s.milk, s.played,
                n_players, seed)


@njit(cache=True)
def legal_actions_into(s, out):
    """Write the legal action ids of ``s`` into ``out`` (int32[>= 208]) ascending; return count."""
    return legal_actions_arrays(s.meta, s.opts, s.consts, s.hands, s.floors, s.values, s.dogs,
                                s.n_floors, s.skips, out)


@njit(cache=True)
def apply_inplace(s, a):
    """Apply the legal action ``a`` to ``s`` in place (docs/games/go_town.md section 6)."""
    apply_arrays(s.meta, s.rng, s.opts, s.consts, s.deck, s.discard, s.hands, s.floors,
                 s.values, s.dogs, s.n_floors, s.skips, s.milk, s.played, a)


@njit(cache=True)
def is_legal(s, a, buf):
    n = legal_actions_into(s, buf)
    for i in range(n):
        if buf[i] == a:
            return True
    return False
