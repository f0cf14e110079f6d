"""Go Town kernels: setup, legal actions and action effects over ``GoTownState``.

Every function here is ``@njit(cache=True)`` and works in place on the arrays of the state; the
Python API in ``game.py`` copies before applying. Rules: shared/rules/go_town.md (cited as §);
encoding: docs/games/go_town.md. The work is done by kernels over the state's arrays and a few
derived arrays (``init_arrays``, ``legal_bits``, ``apply_arrays``); ``init_state``,
``legal_actions_into`` and ``apply_inplace`` are their entry points over a ``GoTownState``.
See the performance note below before changing a signature or a change to the state.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.bits import lowest_bit, nonneg, nth_bit, popcount, zero
from sim.core.contract import implements, register
from sim.core.rng import next_u64, rand_below, shuffle
from sim.go_town import constants as K


class GoTownState(NamedTuple):
    """Go Town state: plain numpy arrays (layout of the dict form: docs/games/go_town.md §8).

    meta      int64[8]        n_players, current, phase, turn, decisions, winner, end_reason, deck_n
    rng       uint64[1]       SplitMix64 state
    opts      int64[21]       encoded rule options (slots O_* in constants.py)
    counts    int64[18]       card counts per type (component data)
    consts    int64[21]       opening_hand, hand_limit, refill_to, removed copies per type
                              (component data; removed: used by the set-up only)
    deck      int64[total]    draw pile, bottom first; top = deck[deck_n - 1] (total: counts
                              + removed)
    discard   int64[18]       discard pile, counts per type
    hands     int64[4, 18]    hand counts per seat and type
    floors    int64[4, 18, 2] card types of each floor (0 = empty slot)
    values    int64[4, 18, 2] effective values (a ?'s locked value)
    dogs      int64[4, 18]    dogs on each floor
    n_floors  int64[4]
    skips     int64[4]        pending skipped turns
    milk      int64[4]        milkshakes lying in front of each seat
    played    int64[4, 18]    cards played from hand per seat and type
    memo      int64[4, 20]    the seats' public observation log of their END_TURN positions
                              (not rules state, not in the dict form; the search bot's
                              inference reads it): layout in ``memo_record`` and
                              docs/games/go_town.md section 8.1
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
    memo: np.ndarray


def alloc_state(opts: np.ndarray, counts: np.ndarray, consts: np.ndarray) -> GoTownState:
    """Empty state arrays for the given option and data arrays (copied)."""
    total = int(counts.sum() + consts[K.C_REMOVED:].sum())  # the shuffle holds removed copies
    return GoTownState(
        meta=np.zeros(K.N_META, np.int64),
        rng=np.zeros(1, np.uint64),
        opts=opts.astype(np.int64).copy(),
        counts=counts.astype(np.int64).copy(),
        consts=consts.astype(np.int64).copy(),
        deck=np.zeros(max(total, 1), np.int64),
        discard=np.zeros(K.NT, np.int64),
        hands=np.zeros((K.MAXP, K.NT), np.int64),
        floors=np.zeros((K.MAXP, K.MAXF, 2), np.int64),
        values=np.zeros((K.MAXP, K.MAXF, 2), np.int64),
        dogs=np.zeros((K.MAXP, K.MAXF), np.int64),
        n_floors=np.zeros(K.MAXP, np.int64),
        skips=np.zeros(K.MAXP, np.int64),
        milk=np.zeros(K.MAXP, np.int64),
        played=np.zeros((K.MAXP, K.NT), np.int64),
        memo=np.zeros((K.MAXP, K.MEMO_W), np.int64),
    )


# ---------------------------------------------------------------------------------------------
# Performance note
#
# Kernel calls and reference counting. numba reference-counts arrays. Taking an array out of
# the NamedTuple (``s.meta``), slicing a row (``hands[c]``) or receiving an array argument emits
# atomic incref/decref pairs, and its refcount-pruning pass cannot remove pairs that straddle
# branches and loops; in the game loop those atomics were ~90% of the run time. Hence:
#
# * Every kernel takes the plain arrays it needs as arguments (in GoTownState field order:
#   meta, rng, opts, counts, consts, deck, discard, hands, floors, values, dogs, n_floors,
#   skips, milk, played, memo, then the derived arrays hn, hm, dogbits, board) and indexes
#   2-D/3-D arrays directly (``hands[c, k]``).
# * The array kernels are compiled with ``_nrt=False`` (numba's switch for compiling without
#   its runtime's reference counting): they contain no refcount operation at all. They only
#   read and write arrays their caller holds, and numba refuses to compile an allocation in
#   them, so nothing can be freed early or leak. Functions that allocate or unpack the state
#   (the entry points at the end of this file, ``run_games``) keep the default.
# * The per-decision kernels (``legal_bits``, ``apply_arrays``, the turn flow and the bots in
#   strategies/go_town/bots.py) are ``forceinline=True`` (LLVM-level inlining into the game loop):
#   a call passes each array as its 7-11 struct fields, ~100 machine words per call. Rarely
#   run kernels stay plain calls (LLVM still inlines the small ones); numba-level
#   ``inline="always"`` is not used (it made the first compile several times slower).
# * The ``GoTownState`` entry points at the end unpack the state once and delegate; the batch
#   loop (strategies/go_town/batch.py) unpacks it once per chunk and calls the array kernels directly.
#
# Derived arrays. Four small arrays, kept up to date by the kernels, summarise the state so
# that the legal actions of a position take a few dozen bit operations instead of scans of the
# hands and buildings (they are not part of GoTownState: the batch loop keeps them across a
# game, and every entry point derives them afresh from the state, ``derived_arrays``):
#   hn[p]       int64[MAXP]     cards in seat p's hand
#   hm[p]       int64[MAXP]     bit k: seat p holds a card of type k
#   dogbits[p]  int64[MAXP]     bit f: floor f of seat p has a dog; bit FULL + f: it has
#                               dogs_per_floor_max dogs
#   board       int64[N_BOARD]  the buildings as targets of steals, dogs and bones (B_* below)
# Every change of ``hands`` goes through ``hand_add``/``hand_remove``, every change of ``dogs``
# through ``set_dogs``, and every change of a building is followed by ``update_board``.
#
# ``init_arrays`` sets them up with the state. A kernel that changes the state another way
# must keep them too; to check, compare them with ``derive_hands``/``derive_buildings`` of the
# state after every action of many games (all options).
#
# The legal actions are computed as bit sets (``legal_bits``, layout there): the random bot of
# the batch loop draws the k-th member of the set (``nth_legal``) without listing it; the API
# and the scripted bots list it (``list_legal``), ascending, as before.
#
# Branches and indices. The outcomes in the per-decision code are random, so mispredicted
# branches cost much of the time; the hot code therefore computes with masks and conditional
# moves instead of branching where it can (``legal_bits``, ``update_board``, ``_leader`` in the
# bots), and ``nth_bit`` uses the BMI2 instruction ``pdep`` where it is fast (otherwise a loop
# over the bits). ``nonneg`` marks array indices known to be >= 0, which spares the code that
# Python's negative indices need on every access. These bit operations are shared by the
# engines: sim/core/bits.py.
#
# Effect, 4 players, random bots, one core (AMD Zen 5): ~73,000 games/s before these changes,
# ~225,000 after (~35 ns per decision: legal actions, choice and effect). The first compile of
# ``run_games`` takes ~18 s (then it is cached).


# ---------------------------------------------------------------------------------------------
# small helpers


@njit(cache=True, _nrt=False)
def dsize(discard):
    """Cards in the discard pile."""
    t = 0
    for k in range(1, K.NT):
        t += discard[k]
    return t


@njit(cache=True, _nrt=False)
def end_game(meta, winner, reason):
    meta[K.M_WINNER] = winner
    meta[K.M_END] = reason
    meta[K.M_PHASE] = K.PH_OVER


# ---------------------------------------------------------------------------------------------
# derived arrays (see the performance note): hands
@njit(cache=True, _nrt=False)
def derive_hands(hands, hn, hm):
    """Fill ``hn`` and ``hm`` from ``hands``."""
    for p in range(hands.shape[0]):
        t = 0
        m = 0
        for k in range(1, K.NT):
            t += hands[p, k]
            m |= (hands[p, k] > 0) << k
        hn[p] = t
        hm[p] = m


@njit(cache=True, _nrt=False)
def hand_add(hands, hn, hm, p, k):
    """Card ``k`` enters seat ``p``'s hand."""
    p, k = nonneg(p), nonneg(k)
    hands[p, k] += 1
    hn[p] += 1
    hm[p] |= 1 << k


@njit(cache=True, _nrt=False)
def hand_remove(hands, hn, hm, p, k):
    """Card ``k`` (held) leaves seat ``p``'s hand."""
    p, k = nonneg(p), nonneg(k)
    left = hands[p, k] - 1
    hands[p, k] = left
    hn[p] -= 1
    hm[p] ^= (left == 0) << k


# derived arrays: buildings
FULL = K.MAXF  # dogbits[p]: bit f, floor f has a dog; bit FULL + f, it has dogs_per_floor_max
FLOOR_BITS = (1 << K.MAXF) - 1
# board: the buildings as targets; the part of seat v is recomputed by ``update_board``
B_SEATS = 0  # bit v: seat v has a building; bit 4 + v: its top floor has no dog
B_PAY = 1  # B_PAY + v // 2, byte 2 (v % 2) + s: the number cards (bit j: card j + 1) that
#            steal slot s of v's top floor (§4.2, §4.3)
B_QM = 3  # bit 4 v + 2 s + 1: slot s of v's top floor may be stolen with a ? (as the ids)
B_DOG = 4  # B_DOG + v // 2, bit MAXF (v % 2) + f: a dog may guard floor f of v (§4.4)
B_BONE = 6  # B_BONE + v // 2, bit MAXF (v % 2) + f: a bone may target floor f of v (§4.5)
N_BOARD = 8


@njit(cache=True, _nrt=False)
def set_dogs(opts, dogs, dogbits, t, f, d):
    """Put ``d`` dogs on floor ``f`` of seat ``t``."""
    t, f = nonneg(t), nonneg(f)
    dogs[t, f] = d
    b = dogbits[t] & ~((1 << f) | (1 << (FULL + f)))
    dogbits[t] = b | ((d > 0) << f) | ((d >= opts[K.O_DOGS_MAX]) << (FULL + f))


@njit(cache=True, _nrt=False)
def update_board(opts, floors, values, dogs, n_floors, dogbits, board, v):
    """Recompute seat ``v``'s part of ``board`` (after any change to its floors or dogs)."""
    v = nonneg(v)
    nf = n_floors[v]
    f = max(nf - 1, 0)
    built = nf > 0
    free = built & (dogs[v, f] == 0)
    board[B_SEATS] = (board[B_SEATS] & ~(0x11 << v)) | (built << v) | (free << (4 + v))
    # §4.2, §4.3: a number pays 9 - value; a ? is taken by number (D5 route B) or by a ?
    by_num = opts[K.O_QM_BY_NUM] == 1
    by_qm = opts[K.O_QM_BY_QM] == 1
    pay = 0
    qm = 0
    for slot in range(2):
        is_qm = floors[v, f, slot] == K.QM
        pay |= (free & ((not is_qm) | by_num)) << (8 * slot + 8 - values[v, f, slot])
        qm |= (free & is_qm & by_qm) << (2 * slot + 1)
    at = 16 * (v % 2)
    w = B_PAY + v // 2
    board[w] = (board[w] & ~(0xFFFF << at)) | (pay << at)
    board[B_QM] = (board[B_QM] & ~(0xF << (4 * v))) | (qm << (4 * v))
    # §4.4, §4.5 (D6, D12, D13)
    building = (1 << nf) - 1
    top = building & ~(building >> 1)
    db = dogbits[v]
    bone = db & (top if opts[K.O_BONE_TARGET] == 1 else building)
    dog = ~(db >> FULL) & (top if opts[K.O_DOG_PLACE] == 1 else building)
    at = K.MAXF * (v % 2)
    w = B_BONE + v // 2
    board[w] = (board[w] & ~(FLOOR_BITS << at)) | (bone << at)
    w = B_DOG + v // 2
    board[w] = (board[w] & ~(FLOOR_BITS << at)) | (dog << at)


@njit(cache=True, _nrt=False)
def derive_buildings(opts, floors, values, dogs, n_floors, dogbits, board):
    """Fill ``dogbits`` and ``board`` from the buildings."""
    zero(board)
    for v in range(n_floors.shape[0]):
        b = 0
        for f in range(K.MAXF):
            b |= ((dogs[v, f] > 0) << f) | ((dogs[v, f] >= opts[K.O_DOGS_MAX]) << (FULL + f))
        dogbits[v] = b
        update_board(opts, floors, values, dogs, n_floors, dogbits, board, v)


# ---------------------------------------------------------------------------------------------
# drawing (§3.2)
@njit(cache=True, _nrt=False)
def reshuffle(meta, rng, counts, deck, discard):
    """The discard pile, laid out in ascending type order, shuffled into a new draw pile."""
    n = 0
    for k in range(1, K.NT):
        # counts[k] >= discard[k] copies, the extra ones overwritten by the next type or left
        # above the new pile's top: loops of the same lengths in every reshuffle (predictable)
        for j in range(counts[k]):
            deck[n + j] = k
        n += nonneg(discard[k])
        discard[k] = 0
    shuffle(rng, deck, n)
    meta[K.M_DECKN] = n


@njit(cache=True, _nrt=False, forceinline=True)
def draw(meta, rng, opts, counts, deck, discard, hands, hn, hm, p):
    """Draw one card for seat ``p``; reshuffle per D4; a draw from two empty piles is lost."""
    if meta[K.M_DECKN] == 0:
        if dsize(discard) == 0:
            return
        reshuffle(meta, rng, counts, deck, discard)
    n = nonneg(meta[K.M_DECKN] - 1)
    hand_add(hands, hn, hm, p, nonneg(deck[n]))
    meta[K.M_DECKN] = n
    if n == 0 and opts[K.O_RESHUFFLE] == 1 and dsize(discard) > 0:
        reshuffle(meta, rng, counts, deck, discard)


@njit(cache=True, _nrt=False, forceinline=True)
def refill(meta, rng, opts, counts, consts, deck, discard, hands, hn, hm, p):
    """End-of-turn refill to ``refill_to`` cards (§3.2 step 3)."""
    while hn[p] < consts[K.C_REFILL]:
        if meta[K.M_DECKN] == 0 and dsize(discard) == 0:
            return
        draw(meta, rng, opts, counts, deck, discard, hands, hn, hm, p)


# ---------------------------------------------------------------------------------------------
# turn flow (§3.2, §4.9)
@njit(cache=True, _nrt=False)
def skip_turn(meta, rng, opts, counts, consts, deck, discard, hands, skips, milk, hn, hm, p):
    """Seat ``p`` skips its turn (D9, D10, D15). (Not inlined: rare, and keeps the compiled
    game loop smaller.)"""
    skips[p] -= 1
    if milk[p] > 0:
        milk[p] -= 1
        discard[K.MILK] += 1
    if opts[K.O_SKIP_MEANS] == 1:
        refill(meta, rng, opts, counts, consts, deck, discard, hands, hn, hm, p)


@njit(cache=True, _nrt=False, forceinline=True)
def begin_turn(meta, rng, opts, counts, consts, deck, discard, hands, skips, milk, hn, hm, p):
    """Begin the turn of seat ``p``: skipped turns (D9, D10, D15), the turn cap (D17), the draw."""
    n = meta[K.M_NP]
    while True:
        if meta[K.M_TURN] >= opts[K.O_MAXTURNS]:
            end_game(meta, -1, K.END_LIMIT)
            return
        meta[K.M_TURN] += 1
        if skips[p] > 0:
            skip_turn(meta, rng, opts, counts, consts, deck, discard, hands, skips, milk, hn, hm,
                      p)
            p = p + 1 if p + 1 < n else 0
            continue
        if hn[p] < consts[K.C_LIMIT]:
            draw(meta, rng, opts, counts, deck, discard, hands, hn, hm, p)
        meta[K.M_CUR] = p
        meta[K.M_PHASE] = K.PH_PLAY
        return


@njit(cache=True, _nrt=False, forceinline=True)
def finish_turn(meta, rng, opts, counts, consts, deck, discard, hands, skips, milk, hn, hm):
    """End the current seat's turn (refill) and begin the next seat's."""
    c = nonneg(meta[K.M_CUR])
    refill(meta, rng, opts, counts, consts, deck, discard, hands, hn, hm, c)
    nxt = c + 1 if c + 1 < meta[K.M_NP] else 0
    begin_turn(meta, rng, opts, counts, consts, deck, discard, hands, skips, milk, hn, hm, nxt)


@njit(cache=True, _nrt=False)
def init_arrays(meta, rng, opts, counts, consts, deck, discard, hands, floors, values, dogs,
                n_floors, skips, milk, played, memo, hn, hm, dogbits, board, n_players, seed):
    """``init_state`` on the state's arrays: first player, shuffle, deal, first turn (§3.1);
    the derived arrays too."""
    for a in (meta, discard, n_floors, skips, milk, hn, hm, dogbits, board):
        zero(a)
    for a in (hands, dogs, played, memo):
        zero(a)
    for a in (floors, values):
        zero(a)
    rng[0] = seed
    meta[K.M_NP] = n_players
    meta[K.M_WINNER] = -1
    first = 0
    if opts[K.O_FIRST] == 1:
        first = rand_below(rng, n_players)
    n = 0
    for k in range(1, K.NT):
        # the data's removed copies of type k are the last ones of the type, marked -k: the
        # deck is shuffled whole and they leave it after the shuffle, so the other cards keep
        # their order (the effects study's paired nudge; nothing removed: a no-op)
        for j in range(counts[k] + consts[K.C_REMOVED + k]):
            deck[n] = k if j < counts[k] else -k
            n += 1
    shuffle(rng, deck, n)
    m = 0
    for i in range(n):
        if deck[i] > 0:
            deck[m] = deck[i]
            m += 1
    meta[K.M_DECKN] = m
    for p in range(n_players):
        for _ in range(consts[K.C_OPEN]):
            draw(meta, rng, opts, counts, deck, discard, hands, hn, hm, p)
    meta[K.M_CUR] = first
    begin_turn(meta, rng, opts, counts, consts, deck, discard, hands, skips, milk, hn, hm, first)


# ---------------------------------------------------------------------------------------------
# legal actions (docs/games/go_town.md section 6)
#
# ``legal_bits`` gives the set of legal action ids as six int64 bit sets, in ascending id
# order (each below 2**36, so no sign bit is ever involved):
#   lo  ids   0..28   (END, BUILD, STEAL)           bit = id
#   d0  ids  29..64   (DOG on seats 0, 1)           bit = id - A_DOG
#   d1  ids  65..100  (DOG on seats 2, 3)           bit = id - A_DOG - 2 * MAXF
#   b0  ids 101..136  (BONE on seats 0, 1)          bit = id - A_BONE
#   b1  ids 137..172  (BONE on seats 2, 3)          bit = id - A_BONE - 2 * MAXF
#   hi  ids 173..207  (DRILL .. MASTER, DISCARD)    bit = id - A_DRILL
# ``list_legal`` lists the set (ascending ids); the batch loop's random bot draws its k-th
# member directly (``nth_legal``), which is the same action as ``legal[k]``.
HI_DISCARD = K.A_DISCARD - K.A_DRILL  # bit of DISCARD type 0 in ``hi``
# PAIRS[m]: for the cards 5..8 held (m bit j: card 5 + j), bit 9 - (5 + j) = 4 - j, the card
# each pairs with in a BUILD lo+hi (§4.1), at the bit of that card and of the BUILD id
PAIRS = np.array([sum(1 << (4 - j) for j in range(4) if m >> j & 1) for m in range(16)],
                 np.int64)
SPECIAL_BITS = sum(1 << k for k in range(K.DOG, K.NT))
# SEAT_FLOORS[m]: all floor bits of the seats in the 2-seat set m, laid out as board[B_DOG]
SEAT_FLOORS = np.array([(FLOOR_BITS if m & 1 else 0) | ((FLOOR_BITS << K.MAXF) if m & 2 else 0)
                        for m in range(4)], np.int64)


@njit(cache=True, _nrt=False, forceinline=True)
def paying_bytes(x):
    """Bit 2 j for each nonzero byte j of the 32-bit ``x``."""
    # bit 8 j: byte j is nonzero; then the product moves bit 8 j to bit 24 + 2 j (its other
    # terms land on distinct bits outside 24..30, so nothing carries into them)
    x = ((((x & 0x7F7F7F7F) + 0x7F7F7F7F) | x) >> 7) & 0x01010101
    return ((x * 0x1041040) >> 24) & 0x55


@njit(cache=True, _nrt=False, forceinline=True)
def legal_bits(meta, opts, consts, skips, hn, hm, board):
    """The legal action ids of the position as bit sets ``(lo, d0, d1, b0, b1, hi)``."""
    ph = meta[K.M_PHASE]
    if ph == K.PH_OVER:
        return 0, 0, 0, 0, 0, 0
    c = nonneg(meta[K.M_CUR])
    h = hm[c]  # bit k: the hand holds a card of type k
    if ph == K.PH_DISCARD:
        return 0, 0, 0, 0, 0, h << HI_DISCARD
    np_ = meta[K.M_NP]
    # §4.1 build from hand: lo+hi pairs (ids 1..4), ?+n (ids 5..12)
    lo = (1 << K.A_END) | ((h & PAIRS[(h >> 5) & 0xF]) & 0x1E)
    lo |= ((h >> 1) & 0xFF & -((h >> K.QM) & 1)) << (K.A_BUILDQ + 1)
    # seat sets
    everyone = (1 << np_) - 1
    rivals = everyone & ~(1 << c)
    # §4.2, §4.3 steal from a rival's unguarded top floor (ids A_STEAL + 4 v + 2 slot + by_qm)
    held = ((h >> 1) & 0xFF) * 0x01010101  # the number cards held, in each byte of B_PAY
    steal = paying_bytes(board[B_PAY] & held) | (board[B_QM] & -((h >> K.QM) & 1))
    if np_ > 2:
        steal |= paying_bytes(board[B_PAY + 1] & held) << 8
    lo |= (steal & ~(0xF << (4 * c))) << K.A_STEAL
    # §4.4 dog, §4.5 bone: the floors of the seats a dog / bone may go to
    dog_to = (everyone if opts[K.O_DOG_OTHERS] == 1 else 1 << c) & -((h >> K.DOG) & 1)
    bone_to = (everyone if opts[K.O_BONE_OWN] == 1 else rivals) & -((h >> K.BONE) & 1)
    d0 = board[B_DOG] & SEAT_FLOORS[dog_to & 3]
    d1 = board[B_DOG + 1] & SEAT_FLOORS[(dog_to >> 2) & 3]
    b0 = board[B_BONE] & SEAT_FLOORS[bone_to & 3]
    b1 = board[B_BONE + 1] & SEAT_FLOORS[(bone_to >> 2) & 3]
    # §4.6 drill, §4.7 wrecking ball, §4.9 milkshake, §4.8 thieves: seat sets
    built = board[B_SEATS] & 0xF  # seats with a building
    free = (board[B_SEATS] >> 4) & 0xF  # seats with an unguarded top floor
    # (loops over all MAXP seats: short, of constant length; a seat beyond n_players holds no
    # card, and the seat sets calm is used with have only seats below n_players)
    holding = 0  # seats holding cards
    for v in range(K.MAXP):
        holding |= (hn[v] > 0) << v
    calm = 0  # seats without pending skips (needed under no_stack only)
    if opts[K.O_SKIP_STACK] == 1:
        for v in range(K.MAXP):
            calm |= (skips[v] == 0) << v
    hit = everyone if opts[K.O_DESTROY_SELF] == 1 else rivals
    drill = free & hit & -((h >> K.DRILL) & 1)
    wreck = built & hit & -((h >> K.WRECK) & 1)
    milk_to = everyone if opts[K.O_MILK_SELF] == 1 else rivals
    if opts[K.O_SKIP_STACK] == 1:
        milk_to &= calm
    milk = milk_to & -((h >> K.MILK) & 1)
    room = (opts[K.O_HANDMODE] != 1) | (hn[c] - 1 < consts[K.C_LIMIT])
    victims = holding & rivals & -room
    thief = victims & -((h >> K.THIEF) & 1)
    master_ok = ((h >> K.MASTER) & 1 == 1) & (victims != 0)
    # §4.9 donut truck
    donut_ok = False
    if (h >> K.DONUT) & 1:
        if opts[K.O_SKIP_STACK] == 0:
            donut_ok = np_ > 1 or opts[K.O_DONUT_SCOPE] == 1
        else:
            who = everyone if opts[K.O_DONUT_SCOPE] == 1 else rivals
            donut_ok = (who & calm) != 0
    hi = (drill | (wreck << 4) | (milk << 8) | (thief << 12) | (donut_ok << 16)
          | (master_ok << 17))
    # D14 dead plays: a special card whose family has no legal action
    if opts[K.O_DEAD_PLAYS] == 1:
        live = (
            (((d0 | d1) != 0) << K.DOG) | (((b0 | b1) != 0) << K.BONE) | ((drill != 0) << K.DRILL)
            | ((wreck != 0) << K.WRECK) | ((milk != 0) << K.MILK) | (donut_ok << K.DONUT)
            | ((thief != 0) << K.THIEF) | (master_ok << K.MASTER)
        )
        hi |= (h & SPECIAL_BITS & ~live) << HI_DISCARD
    return lo, d0, d1, b0, b1, hi


@njit(cache=True, _nrt=False, forceinline=True)
def list_bits(m, first_id, out, n):
    """Append the ids ``first_id + bit`` of the bit set ``m`` to ``out[n:]``; return the new n."""
    while m != 0:
        out[n] = first_id + lowest_bit(m)
        n += 1
        m &= m - 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def list_legal(lo, d0, d1, b0, b1, hi, out):
    """Write the ids of the bit sets of ``legal_bits`` into ``out`` ascending; return count."""
    n = list_bits(lo, 0, out, 0)
    n = list_bits(d0, K.A_DOG, out, n)
    n = list_bits(d1, K.A_DOG + 2 * K.MAXF, out, n)
    n = list_bits(b0, K.A_BONE, out, n)
    n = list_bits(b1, K.A_BONE + 2 * K.MAXF, out, n)
    return list_bits(hi, K.A_DRILL, out, n)


@njit(cache=True, _nrt=False, forceinline=True)
def count_legal(lo, d0, d1, b0, b1, hi):
    """Number of legal actions in the bit sets of ``legal_bits``."""
    return (popcount(lo) + popcount(d0) + popcount(d1) + popcount(b0) + popcount(b1)
            + popcount(hi))


@njit(cache=True, _nrt=False, forceinline=True)
def nth_legal(lo, d0, d1, b0, b1, hi, k):
    """The ``k``-th (from 0) legal action in ascending order, i.e. ``legal[k]``."""
    n = popcount(lo)
    if k < n:
        return nth_bit(lo, k)
    k -= n
    if (d0 | d1 | b0 | b1) != 0:
        n = popcount(d0)
        if k < n:
            return K.A_DOG + nth_bit(d0, k)
        k -= n
        n = popcount(d1)
        if k < n:
            return K.A_DOG + 2 * K.MAXF + nth_bit(d1, k)
        k -= n
        n = popcount(b0)
        if k < n:
            return K.A_BONE + nth_bit(b0, k)
        k -= n
        n = popcount(b1)
        if k < n:
            return K.A_BONE + 2 * K.MAXF + nth_bit(b1, k)
        k -= n
    return K.A_DRILL + nth_bit(hi, k)


@njit(cache=True, _nrt=False, forceinline=True)
def legal_actions_arrays(meta, opts, consts, skips, hn, hm, board, out):
    """``legal_actions_into`` on the state's arrays: ids into ``out`` ascending; return count."""
    lo, d0, d1, b0, b1, hi = legal_bits(meta, opts, consts, skips, hn, hm, board)
    return list_legal(lo, d0, d1, b0, b1, hi, out)


@njit(cache=True, _nrt=False)
def deadlocked(meta, opts, consts, deck, discard, skips, milk, n_floors, hn, hm, board):
    """True when no player can ever change the state again (docs/games/go_town.md section 5):
    no skipped turn or milkshake pending, no seat would draw at the start of its turn (its hand
    is at the hand limit, or both piles are empty) or refill at its end, none would discard
    down to the limit (discard_to_8) or win by ending its turn (end_of_turn win check), and
    every seat's only legal action in phase play is END_TURN. Called at the start of a turn
    (after the draw); leaves the state as it found it."""
    n = meta[K.M_NP]
    limit = consts[K.C_LIMIT]
    piles = -1  # cards in deck and discard, counted only when needed
    for p in range(n):
        if skips[p] != 0 or milk[p] != 0:
            return False
        if hn[p] < limit or hn[p] < consts[K.C_REFILL]:
            if piles < 0:
                piles = meta[K.M_DECKN] + dsize(discard)
            if piles > 0:
                return False
        if opts[K.O_HANDMODE] == 2 and hn[p] > limit:
            return False
        if opts[K.O_WINCHECK] == 1 and n_floors[p] >= opts[K.O_TARGET]:
            return False
    cur = meta[K.M_CUR]
    phase = meta[K.M_PHASE]
    meta[K.M_PHASE] = K.PH_PLAY
    stuck = True
    for p in range(n):
        meta[K.M_CUR] = p
        lo, d0, d1, b0, b1, hi = legal_bits(meta, opts, consts, skips, hn, hm, board)
        if lo != 1 << K.A_END or (d0 | d1 | b0 | b1 | hi) != 0:
            stuck = False
            break
    meta[K.M_CUR] = cur
    meta[K.M_PHASE] = phase
    return stuck


# ---------------------------------------------------------------------------------------------
# effects
@njit(cache=True, _nrt=False)
def add_floor(meta, opts, floors, values, dogs, n_floors, dogbits, board, c, x0, x1, v0, v1):
    """New top floor for ``c`` (§4.1, §4.2); dogs ride up under D7; immediate win check (D2)."""
    c = nonneg(c)
    f = nonneg(n_floors[c])
    floors[c, f, 0] = x0
    floors[c, f, 1] = x1
    values[c, f, 0] = v0
    values[c, f, 1] = v1
    set_dogs(opts, dogs, dogbits, c, f, 0)
    if opts[K.O_DOG_UP] == 1 and f > 0 and dogs[c, f - 1] > 0:
        set_dogs(opts, dogs, dogbits, c, f, dogs[c, f - 1])
        set_dogs(opts, dogs, dogbits, c, f - 1, 0)
    n_floors[c] = f + 1
    update_board(opts, floors, values, dogs, n_floors, dogbits, board, c)
    if opts[K.O_WINCHECK] == 0 and f + 1 >= opts[K.O_TARGET]:
        end_game(meta, c, K.END_TARGET)


@njit(cache=True, _nrt=False)
def remove_top(opts, discard, floors, values, dogs, n_floors, dogbits, board, t, to_discard):
    """Remove ``t``'s top floor; its cards (if ``to_discard``) and its dogs go to the discard."""
    t = nonneg(t)
    f = nonneg(n_floors[t] - 1)
    if to_discard:
        discard[nonneg(floors[t, f, 0])] += 1
        discard[nonneg(floors[t, f, 1])] += 1
    discard[K.DOG] += dogs[t, f]
    floors[t, f, 0] = 0
    floors[t, f, 1] = 0
    values[t, f, 0] = 0
    values[t, f, 1] = 0
    set_dogs(opts, dogs, dogbits, t, f, 0)
    n_floors[t] = f
    update_board(opts, floors, values, dogs, n_floors, dogbits, board, t)


@njit(cache=True, _nrt=False)
def take_random_card(rng, hands, memo, hn, hm, c, v):
    """Move one uniformly random card of ``v``'s hand to ``c``'s (§4.8; encoding §6.2); the
    memo counts it as taken from ``v``."""
    c, v = nonneg(c), nonneg(v)
    memo[v, K.MEMO_TAKEN] += 1
    r = rand_below(rng, hn[v])
    for k in range(1, K.NT):
        if r < hands[v, k]:
            hand_remove(hands, hn, hm, v, k)
            hand_add(hands, hn, hm, c, k)
            return
        r -= hands[v, k]


@njit(cache=True, _nrt=False)
def play_card(hands, played, hn, hm, c, k):
    """Card ``k`` leaves ``c``'s hand as a play (counted in ``played``)."""
    hand_remove(hands, hn, hm, c, k)
    played[nonneg(c), nonneg(k)] += 1


# ---------------------------------------------------------------------------------------------
# the memo: each seat's recent END_TURN positions, a public observation log (not rules state;
# docs/games/go_town.md section 8.1). Per seat p, memo[p, :]:
#   MEMO_N      END_TURN records written so far (record i is in slot i % MEMO_HJ)
#   MEMO_TAKEN  cards taken from p's hand by other seats' THIEF / MASTER so far
#   record j    memo[p, MEMO_REC + 3 j + w], the words w:
#     MR_MASK   bit t (card type 1..17): one card of type t in p's hand would have given p a
#               legal action other than END_TURN there (``legal_bits`` with every type
#               held); bit MF_DOG_OWN_TOP: a DOG is legal on p's own top floor; MF_BONE_TOP:
#               a BONE is legal on a dog on some rival's top floor; MF_BONE_LOW: a BONE is
#               legal on a dog on a lower floor of a rival whose top floor has no dog
#     MR_BOARD  hn[p] | n_floors[p] << 8 | (p's top floor has a dog) << 16
#               | (the most floors of another seat) << 24
#     MR_OUT    cards that had left p's hand: its played cards plus MEMO_TAKEN
ALL_TYPES = sum(1 << k for k in range(1, K.NT))  # hm with every card type held


@njit(cache=True, _nrt=False, forceinline=True)
def memo_record(meta, opts, consts, n_floors, skips, played, memo, hn, hm, board, c):
    """Write seat ``c``'s record of the END_TURN it plays now (phase play, before the refill).
    Branch-free where it can (it runs at about a third of the decisions of a random game)."""
    c = nonneg(c)
    h = hm[c]
    hm[c] = ALL_TYPES
    lo, d0, d1, b0, b1, hi = legal_bits(meta, opts, consts, skips, hn, hm, board)
    hm[c] = h
    # STEAL ids map to the paying card: with every card held, slot s of rival v's top floor
    # may be stolen by a number exactly when its byte of board[B_PAY + v // 2] is nonzero (as
    # in legal_bits), and that byte holds the one bit 8 - w: the card 9 - w, bit 9 - w of the
    # mask once shifted by one. The rivals' bytes are OR-ed together (the seat's own masked).
    pay = (board[B_PAY] | (board[B_PAY + 1] << 32)) & ~(0xFFFF << (16 * c))
    pay = (pay | (pay >> 32)) & 0xFFFFFFFF
    pay = (pay | (pay >> 16)) & 0xFFFF
    pay = (pay | (pay >> 8)) & 0xFF
    mask = pay << 1
    mask |= (((lo >> K.A_STEAL) & 0xAAAA) != 0) << K.QM  # a by_qm STEAL id (odd bits)
    mask |= (((d0 | d1) != 0) << K.DOG) | (((b0 | b1) != 0) << K.BONE)
    mask |= (((hi & 0xF) != 0) << K.DRILL) | (((hi & 0xF0) != 0) << K.WRECK)
    mask |= (((hi & 0xF00) != 0) << K.MILK) | (((hi & 0xF000) != 0) << K.THIEF)
    mask |= (((hi >> 16) & 1) << K.DONUT) | (((hi >> 17) & 1) << K.MASTER)
    # the flags: the dog / bone bits of seat t, floor f are bit MAXF (t % 2) + f of d0 / b0
    # (t < 2) or of d1 / b1 (t >= 2); board[B_SEATS] bit 4 + t: t's top floor has no dog
    seats = board[B_SEATS]
    nf = n_floors[c]
    top_dog = ((seats >> c) & 1) & ~(seats >> (4 + c))  # built, its top not free
    dc = d0 if c < 2 else d1
    mask |= (((dc >> (K.MAXF * (c % 2) + max(nf - 1, 0))) & 1) & (nf > 0)) << K.MF_DOG_OWN_TOP
    most = 0
    for v in range(K.MAXP):  # the seats beyond n_players have no floor, so no bone target
        nv = n_floors[v]
        other = v != c
        most = max(most, nv * other)
        bones = ((b0 if v < 2 else b1) >> (K.MAXF * (v % 2))) & FLOOR_BITS & -other
        top = 1 << max(nv - 1, 0)
        mask |= ((bones & top) != 0) << K.MF_BONE_TOP
        mask |= (((bones & (top - 1)) != 0) & ((seats >> (4 + v)) & 1 == 1)) << K.MF_BONE_LOW
    out = memo[c, K.MEMO_TAKEN]
    for k in range(1, K.NT):
        out += played[c, k]
    n = memo[c, K.MEMO_N]
    r = nonneg(K.MEMO_REC + 3 * (n % K.MEMO_HJ))
    memo[c, r + K.MR_MASK] = mask
    memo[c, r + K.MR_BOARD] = hn[c] | (nf << 8) | ((top_dog & 1) << 16) | (most << 24)
    memo[c, r + K.MR_OUT] = out
    memo[c, K.MEMO_N] = n + 1


@njit(cache=True, _nrt=False, forceinline=True)
def apply_arrays(meta, rng, opts, counts, consts, deck, discard, hands, floors, values, dogs,
                 n_floors, skips, milk, played, memo, hn, hm, dogbits, board, a, record):
    """``apply_inplace`` on the state's arrays (docs/games/go_town.md section 6). ``record``:
    an END_TURN writes its memo record (``memo_record``); False where no one reads the memo
    (the batch loop's games without a search seat, the search's playouts): it changes no game,
    and writing every record cost 7-12% of the greedy games' throughput (session 17)."""
    c = nonneg(meta[K.M_CUR])
    a = nonneg(a)
    np_ = meta[K.M_NP]
    meta[K.M_DEC] += 1
    limit = consts[K.C_LIMIT]
    turn_over = False  # (one call of finish_turn below, for both ways to end a turn)
    if meta[K.M_PHASE] == K.PH_DISCARD:
        k = nonneg(a - K.A_DISCARD)
        hand_remove(hands, hn, hm, c, k)
        discard[k] += 1
        turn_over = hn[c] <= limit
    elif a == K.A_END:
        if record:
            memo_record(meta, opts, consts, n_floors, skips, played, memo, hn, hm, board, c)
        if opts[K.O_WINCHECK] == 1 and n_floors[c] >= opts[K.O_TARGET]:
            end_game(meta, c, K.END_TARGET)
        elif opts[K.O_HANDMODE] == 2 and hn[c] > limit:
            meta[K.M_PHASE] = K.PH_DISCARD
        else:
            turn_over = True
    elif a < K.A_BUILDQ + 1:  # BUILD lo+hi
        lo = a
        hi = 9 - a
        play_card(hands, played, hn, hm, c, lo)
        play_card(hands, played, hn, hm, c, hi)
        add_floor(meta, opts, floors, values, dogs, n_floors, dogbits, board, c, lo, hi, lo, hi)
    elif a < K.A_STEAL:  # BUILD ?+n
        v = a - K.A_BUILDQ
        play_card(hands, played, hn, hm, c, v)
        play_card(hands, played, hn, hm, c, K.QM)
        add_floor(meta, opts, floors, values, dogs, n_floors, dogbits, board, c, v, K.QM, v, 9 - v)
    elif a < K.A_DOG:  # STEAL v slot by_qm
        i = a - K.A_STEAL
        v = i // 4
        slot = (i // 2) % 2
        by_qm = i % 2
        f = nonneg(n_floors[v] - 1)
        x = floors[v, f, slot]
        w = values[v, f, slot]
        other = nonneg(floors[v, f, 1 - slot])
        paid = K.QM if by_qm == 1 else 9 - w
        play_card(hands, played, hn, hm, c, paid)
        discard[other] += 1
        remove_top(opts, discard, floors, values, dogs, n_floors, dogbits, board, v, False)
        add_floor(meta, opts, floors, values, dogs, n_floors, dogbits, board, c, paid, x, 9 - w,
                  w)
    elif a < K.A_BONE:  # DOG t f
        t = (a - K.A_DOG) // K.MAXF
        f = (a - K.A_DOG) % K.MAXF
        play_card(hands, played, hn, hm, c, K.DOG)
        set_dogs(opts, dogs, dogbits, t, f, dogs[t, f] + 1)
        update_board(opts, floors, values, dogs, n_floors, dogbits, board, t)
    elif a < K.A_DRILL:  # BONE t f
        t = (a - K.A_BONE) // K.MAXF
        f = (a - K.A_BONE) % K.MAXF
        play_card(hands, played, hn, hm, c, K.BONE)
        set_dogs(opts, dogs, dogbits, t, f, dogs[t, f] - 1)
        update_board(opts, floors, values, dogs, n_floors, dogbits, board, t)
        discard[K.DOG] += 1
        discard[K.BONE] += 1
    elif a < K.A_WRECK:
        play_card(hands, played, hn, hm, c, K.DRILL)
        discard[K.DRILL] += 1
        remove_top(opts, discard, floors, values, dogs, n_floors, dogbits, board, a - K.A_DRILL,
                   True)
    elif a < K.A_MILK:
        play_card(hands, played, hn, hm, c, K.WRECK)
        discard[K.WRECK] += 1
        remove_top(opts, discard, floors, values, dogs, n_floors, dogbits, board, a - K.A_WRECK,
                   True)
    elif a < K.A_THIEF:
        t = a - K.A_MILK
        play_card(hands, played, hn, hm, c, K.MILK)
        skips[t] += 1
        if opts[K.O_MILK_DISCARD] == 0:
            milk[t] += 1
        else:
            discard[K.MILK] += 1
    elif a < K.A_DONUT:
        play_card(hands, played, hn, hm, c, K.THIEF)
        discard[K.THIEF] += 1
        take_random_card(rng, hands, memo, hn, hm, c, a - K.A_THIEF)
    elif a == K.A_DONUT:
        play_card(hands, played, hn, hm, c, K.DONUT)
        discard[K.DONUT] += 1
        for t in range(np_):
            if t == c and opts[K.O_DONUT_SCOPE] == 0:
                continue
            if opts[K.O_SKIP_STACK] == 0:
                skips[t] += 1
            elif skips[t] == 0:
                skips[t] = 1
    elif a == K.A_MASTER:
        play_card(hands, played, hn, hm, c, K.MASTER)
        discard[K.MASTER] += 1
        cap_gain = opts[K.O_HANDMODE] == 1
        for i in range(1, np_):
            v = (c + i) % np_
            if hn[v] > 0 and ((not cap_gain) or hn[c] < limit):
                take_random_card(rng, hands, memo, hn, hm, c, v)
    else:  # DISCARD k in phase play: a dead play (D14)
        k = nonneg(a - K.A_DISCARD)
        play_card(hands, played, hn, hm, c, k)
        discard[k] += 1
    if turn_over:
        finish_turn(meta, rng, opts, counts, consts, deck, discard, hands, skips, milk, hn, hm)
        if meta[K.M_PHASE] != K.PH_OVER and deadlocked(meta, opts, consts, deck, discard, skips,
                                                       milk, n_floors, hn, hm, board):
            end_game(meta, -1, K.END_DEADLOCK)
    if meta[K.M_DEC] >= opts[K.O_MAXTURNS] * K.DECISIONS_PER_TURN_CAP and meta[K.M_PHASE] != K.PH_OVER:
        end_game(meta, -1, K.END_LIMIT)


# ---------------------------------------------------------------------------------------------
# GoTownState entry points (the Python API in game.py); each unpacks the state once and
# derives the derived arrays from it
@njit(cache=True)
def derived_arrays(s):
    """New derived arrays ``hn, hm, dogbits, board`` of the state ``s``."""
    hn = np.empty(K.MAXP, np.int64)
    hm = np.empty(K.MAXP, np.int64)
    dogbits = np.empty(K.MAXP, np.int64)
    board = np.empty(N_BOARD, np.int64)
    derive_hands(s.hands, hn, hm)
    derive_buildings(s.opts, s.floors, s.values, s.dogs, s.n_floors, dogbits, board)
    return hn, hm, dogbits, board


@njit(cache=True)
def init_state(s, n_players, seed):
    """Set up a new game in the arrays of ``s`` (§3.1): first player, shuffle, deal, first turn.

    ``seed``: uint64 generator seed. Options and data already in ``opts/counts/consts``.
    """
    hn, hm, dogbits, board = derived_arrays(s)
    init_arrays(s.meta, s.rng, s.opts, s.counts, s.consts, s.deck, s.discard, s.hands,
                s.floors, s.values, s.dogs, s.n_floors, s.skips, s.milk, s.played, s.memo, hn,
                hm, dogbits, board, n_players, seed)


@njit(cache=True)
def legal_actions_into(s, out):
    """Write the legal action ids of ``s`` into ``out`` (int32[>= 208]) ascending; return count."""
    hn, hm, dogbits, board = derived_arrays(s)
    return legal_actions_arrays(s.meta, s.opts, s.consts, s.skips, hn, hm, board, out)


@njit(cache=True)
def apply_inplace(s, a):
    """Apply the legal action ``a`` to ``s`` in place (docs/games/go_town.md section 6)."""
    hn, hm, dogbits, board = derived_arrays(s)
    apply_arrays(s.meta, s.rng, s.opts, s.counts, s.consts, s.deck, s.discard, s.hands,
                 s.floors, s.values, s.dogs, s.n_floors, s.skips, s.milk, s.played, s.memo, hn,
                 hm, dogbits, board, np.int32(a), True)


@njit(cache=True)
def is_legal(s, a, buf):
    n = legal_actions_into(s, buf)
    for i in range(n):
        if buf[i] == a:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# The kernel contract (sim/core/contract.py, docs/house-pattern.md): init_state,
# legal_actions_into and apply_inplace above, and these.
register(GoTownState, init_state=init_state, legal_actions_into=legal_actions_into,
         apply_inplace=apply_inplace,
         meta=dict(field="meta", phase=K.M_PHASE, over=K.PH_OVER, current=K.M_CUR,
                   n_players=K.M_NP))


@implements(GoTownState, "scores_into")
@njit(cache=True)
def scores_into(s, out):
    """Floors built per seat (spec §1.4)."""
    for p in range(s.meta[K.M_NP]):
        out[p] = s.n_floors[p]


@implements(GoTownState, "win_shares_into")
@njit(cache=True)
def win_shares_into(s, out):
    """1 for the winner, 0 for the others; all 0 before the end or at the turn limit."""
    for p in range(s.meta[K.M_NP]):
        out[p] = 0.0
    if s.meta[K.M_PHASE] == K.PH_OVER and s.meta[K.M_WINNER] >= 0:
        out[s.meta[K.M_WINNER]] = 1.0


@njit(cache=True)
def derived_step_ok(s, a):
    """Apply ``a`` keeping the derived arrays as the batch loop does; True if they then equal
    a fresh derivation from the state (the conformance test)."""
    hn, hm, dogbits, board = derived_arrays(s)
    apply_arrays(s.meta, s.rng, s.opts, s.counts, s.consts, s.deck, s.discard, s.hands,
                 s.floors, s.values, s.dogs, s.n_floors, s.skips, s.milk, s.played, s.memo, hn,
                 hm, dogbits, board, np.int32(a), True)
    f_hn, f_hm, f_dogbits, f_board = derived_arrays(s)
    return ((hn == f_hn).all() and (hm == f_hm).all() and (dogbits == f_dogbits).all()
            and (board == f_board).all())



# ---------------------------------------------------------------------------------------------
# Determinization (the search bot's information sets; docs/games/go_town.md section 10)
@implements(GoTownState, "determinize")
@njit(cache=True, _nrt=False)
def determinize(s, seat, rng):
    """Resample, in place, what ``seat`` cannot see: the rivals' hands (their sizes kept) and
    the draw pile (its size kept), from the searcher's generator ``rng`` (uint64[1]); then
    reseed the chance generator ``s.rng`` from ``rng``. The discard pile, the buildings, the
    milkshakes, the played counts and ``seat``'s own hand are public or its own: kept.

    The unknown cards (the rivals' hands and the pile: a multiset fixed by what ``seat`` sees,
    every card minus the visible ones) are laid out in ascending type order, shuffled with
    ``rng`` and dealt back: each rival in seat order takes its hand size from the top, the rest
    is the new pile. The slots above the pile's top (left over from earlier draws) are zeroed,
    so the result depends only on what ``seat`` sees and ``rng``. No allocation: one rival's
    hand row holds the counts and the pile's array (as long as all cards) the shuffle.
    """
    meta = s.meta
    deck = s.deck
    hands = s.hands
    n = meta[K.M_NP]
    dn = meta[K.M_DECKN]
    # the rivals' hand sizes (at most 3 rivals: four scalars, no array)
    sz0 = 0
    sz1 = 0
    sz2 = 0
    sz3 = 0
    acc = -1  # the first rival: its hand row gathers the counts of every unknown card
    for p in range(n):
        if p == seat:
            continue
        t = 0
        for k in range(1, K.NT):
            t += hands[p, k]
        if p == 0:
            sz0 = t
        elif p == 1:
            sz1 = t
        elif p == 2:
            sz2 = t
        else:
            sz3 = t
        if acc < 0:
            acc = p
        else:
            for k in range(1, K.NT):
                hands[acc, k] += hands[p, k]
                hands[p, k] = 0
    if acc < 0:
        s.rng[0] = next_u64(rng)
        return
    for j in range(dn):
        hands[acc, deck[j]] += 1
    m = 0
    for k in range(1, K.NT):
        for _ in range(hands[acc, k]):
            deck[m] = k
            m += 1
        hands[acc, k] = 0
    shuffle(rng, deck, m)
    for p in range(n):
        if p == seat:
            continue
        t = sz0 if p == 0 else (sz1 if p == 1 else (sz2 if p == 2 else sz3))
        for _ in range(t):
            m -= 1
            hands[p, deck[m]] += 1
    for j in range(m, deck.shape[0]):
        deck[j] = 0
    s.rng[0] = next_u64(rng)
