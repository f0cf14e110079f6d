"""The Three Little Wolves kernels: setup, legal actions, effects and scoring over ``TLWState``.

Every function is ``@njit(cache=True)`` and works in place on the state's arrays; the Python API
in ``game.py`` copies before applying. Rules: shared/rules/three_little_wolves.md (cited as §);
encoding and flow: docs/games/three_little_wolves.md (cited as doc §).

The flow (doc §5) is a driver loop over continuation codes (``K_*``) instead of mutually
recursive procedures: each step returns the next code, ``K_DONE`` when a decision is pending or
the game is over. The work is done by array kernels (``init_arrays``, ``legal_into``,
``apply_arrays``); ``init_state``, ``legal_actions_into``, ``apply_inplace`` and
``compute_points`` are their entry points over a ``TLWState``. See the performance note below
before changing a signature.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.bits import lowest_bit, nonneg, nth_bit, popcount, zero
from sim.core.contract import implements, register
from sim.core.rng import next_u64, rand_below, shuffle
from sim.three_little_wolves import constants as K


class TLWState(NamedTuple):
    """Three Little Wolves state: plain numpy arrays (dict form: doc §9).

    meta     int64[24]        slots M_* (players, owners, stage, phase, current, turn player,
                              turn, decisions, end reason, deck size, pigs revealed, mustache,
                              drawer, pig card, effect step, final turns left, round step,
                              dummy card, cards under the last pig, tie count)
    rng      uint64[1]        SplitMix64 state
    opts     int64[20]        encoded rule options (slots O_*)
    cards    int64[59, 4]     number, colour, icon, mark per card id (component data)
    consts   int64[16]        pig effects, token faces, wolf faces, points (component data)
    deck     int64[59]        draw pile, bottom first; top = deck[deck_n - 1]
    hands    int64[4, 8]      hand card ids per seat, ascending; size in seat[p, S_HN]
    discard  int64[59]        1 if the card is in the discard pile
    pigs     int64[3]         pig card ids in reveal order (M_NPIGS of them)
    tokens   int64[3]         state of each pig token: T_LEFT, T_PLACED, T_LOST
    tie      int64[3]         house indexes offered in phase pig_tie (M_NTIE of them)
    seat     int64[4, 12]     houses, hand size, wolves used[3], passing card, committed card,
                              stats build/wolf/discard (slots S_*)
    hs       int64[4, 3, 13]  per house: colour, floors, basements, top number, last basement
                              number, height, has B3, pig face, wolves, wolf seats/values (H_*)
    hf       int64[4, 3, 14]  floor card ids, bottom to top
    hb       int64[4, 3, 3]   basement card ids in placement order (top to bottom)
    """

    meta: np.ndarray
    rng: np.ndarray
    opts: np.ndarray
    cards: np.ndarray
    consts: np.ndarray
    deck: np.ndarray
    hands: np.ndarray
    discard: np.ndarray
    pigs: np.ndarray
    tokens: np.ndarray
    tie: np.ndarray
    seat: np.ndarray
    hs: np.ndarray
    hf: np.ndarray
    hb: np.ndarray


def alloc_state(opts: np.ndarray, cards: np.ndarray, consts: np.ndarray) -> TLWState:
    """Empty state arrays for the given option and data arrays (copied)."""
    return TLWState(
        meta=np.zeros(K.N_META, np.int64),
        rng=np.zeros(1, np.uint64),
        opts=opts.astype(np.int64).copy(),
        cards=cards.astype(np.int64).copy(),
        consts=consts.astype(np.int64).copy(),
        deck=np.zeros(K.NCARD, np.int64),
        hands=np.zeros((K.MAXP, K.HAND_CAP), np.int64),
        discard=np.zeros(K.NCARD, np.int64),
        pigs=np.zeros(3, np.int64),
        tokens=np.zeros(3, np.int64),
        tie=np.zeros(3, np.int64),
        seat=np.zeros((K.MAXP, K.N_SEATF), np.int64),
        hs=np.zeros((K.MAXO, K.MAXH, K.N_HF), np.int64),
        hf=np.zeros((K.MAXO, K.MAXH, K.MAXF), np.int64),
        hb=np.zeros((K.MAXO, K.MAXH, K.MAXB), np.int64),
    )


# ---------------------------------------------------------------------------------------------
# Performance note
#
# numba reference-counts arrays: taking an array out of the NamedTuple (``s.meta``), slicing
# it or passing it to a kernel emits atomic incref/decref pairs, which dominated the run time
# of the game loop. As in Go Town (performance note in sim/go_town/kernels.py):
#
# * Every per-decision kernel takes the plain arrays it needs as arguments, in TLWState field
#   order (meta, rng, opts, cards, consts, deck, hands, discard, pigs, tokens, tie, seat, hs,
#   hf, hb), and indexes 2-D/3-D arrays directly (``hs[o, h, H_NF]``).
# * These array kernels are compiled with ``_nrt=False`` (no reference counting at all; numba
#   refuses an allocation in them): they only read and write arrays their caller holds. The
#   scratch they need (the setup's pile, the bots' value buffers) is allocated once per chunk.
# * The per-decision kernels (``legal_into``, ``apply_arrays`` and the flow, the bots in
#   strategies/three_little_wolves/bots.py) are ``forceinline=True`` (LLVM inlining into the game
#   loop); rarely run ones stay plain calls.
# * The ``TLWState`` entry points at the end of this file (``init_state``,
#   ``legal_actions_into``, ``apply_inplace``, ``compute_points``) unpack the state once and
#   delegate; the batch loop (strategies/three_little_wolves/batch.py) unpacks it once per chunk.
# * The random bot of the batch loop draws the k-th legal action without listing them
#   (``count_legal``/``nth_legal``, in the order of ``legal_into``).


# ---------------------------------------------------------------------------------------------
# small helpers (arrays in, no state)


@njit(cache=True, _nrt=False, forceinline=True)
def hand_add(hands, seat, p, c):
    """Insert card ``c`` into seat ``p``'s hand keeping it ascending."""
    n = seat[p, K.S_HN]
    i = n
    while i > 0 and hands[p, i - 1] > c:
        hands[p, i] = hands[p, i - 1]
        i -= 1
    hands[p, i] = c
    seat[p, K.S_HN] = n + 1


@njit(cache=True, _nrt=False, forceinline=True)
def hand_remove(hands, seat, p, c):
    """Remove card ``c`` from seat ``p``'s hand (it must be there)."""
    n = seat[p, K.S_HN]
    j = 0
    for i in range(n):
        if hands[p, i] != c:
            hands[p, j] = hands[p, i]
            j += 1
    seat[p, K.S_HN] = j


@njit(cache=True, _nrt=False, forceinline=True)
def n_houses(hs, o):
    """Houses of owner ``o`` (counted from the house arrays: a house has >= 1 floor)."""
    k = 0
    for h in range(K.MAXH):
        if hs[o, h, K.H_NF] > 0:
            k += 1
    return k


@njit(cache=True, _nrt=False, forceinline=True)
def has_colour_o(hs, o, col):
    """True if owner ``o`` has a house of colour ``col``."""
    for h in range(K.MAXH):
        if hs[o, h, K.H_NF] > 0 and hs[o, h, K.H_COL] == col:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def height_of(hs, hf, cards, opts, o, h):
    """Height of house (o, h) (§3.9, doc §4)."""
    nf = hs[o, h, K.H_NF]
    c = nf + hs[o, h, K.H_NB]
    if opts[K.O_HEIGHT] == 0:
        v = cards[hf[o, h, nf - 1], K.K_ICON]
        if v > 0:
            return c - 1 + v
    return c


@njit(cache=True, _nrt=False, forceinline=True)
def can_floor(hs, cards, o, h, c):
    """Card ``c`` legal on top of existing house (o, h) (§3.5a, doc §4)."""
    if cards[c, K.K_NUM] <= hs[o, h, K.H_TOP]:
        return False
    col = cards[c, K.K_COL]
    hc = hs[o, h, K.H_COL]
    if col == K.W or hc == col:
        return True
    return hc == K.UNASSIGNED and not has_colour_o(hs, o, col)


@njit(cache=True, _nrt=False, forceinline=True)
def can_new(hs, cards, o, c):
    """Card ``c`` legal as the first card of a new house of owner ``o`` (§3.5a)."""
    if n_houses(hs, o) >= K.MAXH:
        return False
    col = cards[c, K.K_COL]
    return col == K.W or not has_colour_o(hs, o, col)


@njit(cache=True, _nrt=False, forceinline=True)
def can_base(hs, cards, opts, o, h, c):
    """Card ``c`` legal as a basement under house (o, h) (§3.5b, doc §4)."""
    k = cards[c, K.K_NUM]
    if k > 3 or k <= hs[o, h, K.H_LB]:
        return False
    col = cards[c, K.K_COL]
    hc = hs[o, h, K.H_COL]
    if col == K.W or hc == col:
        return True
    return opts[K.O_COLBASE_U] == 1 and hc == K.UNASSIGNED and not has_colour_o(hs, o, col)


@njit(cache=True, _nrt=False, forceinline=True)
def wolf_target_ok(hs, opts, n_own, p, o, h):
    """Seat ``p`` may put a wolf on house (o, h) (§3.6, doc §4)."""
    if o >= n_own or hs[o, h, K.H_NF] == 0:
        return False
    if opts[K.O_KIDS] == 1:
        if o != p:
            return False
    elif o == p:
        return False
    nw = hs[o, h, K.H_NW]
    cap = 1
    if opts[K.O_TWO_SLOT] == 0:
        if hs[o, h, K.H_B3] == 1:
            cap = 2
    elif hs[o, h, K.H_NB] > 0:
        cap = 2
    if nw >= cap:
        return False
    if nw == 1 and opts[K.O_B3_SAME] == 0 and hs[o, h, K.H_W0S] == p:
        return False
    return True


@njit(cache=True, _nrt=False, forceinline=True)
def wolf_value_ok(seat, opts, p, v):
    """Seat ``p`` may place its wolf ``v`` (0..2) now (§3.6, option wolf_order_free)."""
    if seat[p, K.S_WU + v] == 1:
        return False
    if opts[K.O_WOLF_FREE] == 0:
        for u in range(v):
            if seat[p, K.S_WU + u] == 0:
                return False
    return True


@njit(cache=True, _nrt=False, forceinline=True)
def wolf_targets(hs, opts, n_own, p):
    """Bit set of the houses seat ``p`` may put a wolf on: bit 3o + h (rules of
    ``wolf_target_ok``, written out)."""
    kids = opts[K.O_KIDS] == 1
    b3rule = opts[K.O_TWO_SLOT] == 0
    same = opts[K.O_B3_SAME] == 1
    targets = 0
    for o in range(n_own):
        if kids != (o == p):
            continue
        for h in range(K.MAXH):
            if hs[o, h, K.H_NF] == 0:
                break
            nw = hs[o, h, K.H_NW]
            ok = nw == 0
            if nw == 1:
                two = hs[o, h, K.H_B3] == 1 if b3rule else hs[o, h, K.H_NB] > 0
                ok = two and (same or hs[o, h, K.H_W0S] != p)
            if ok:
                targets |= 1 << (3 * o + h)
    return targets


@njit(cache=True, _nrt=False, forceinline=True)
def any_wolf_move(hs, seat, opts, n_own, p):
    """True if seat ``p`` has some legal (wolf value, target) pair (rules of
    ``wolf_value_ok``/``wolf_target_ok``)."""
    if seat[p, K.S_WU] + seat[p, K.S_WU + 1] + seat[p, K.S_WU + 2] == 3:
        return False
    return wolf_targets(hs, opts, n_own, p) != 0


@njit(cache=True, _nrt=False, forceinline=True)
def set_height(hs, hf, cards, opts, o, h):
    hs[o, h, K.H_HT] = height_of(hs, hf, cards, opts, o, h)


@njit(cache=True, _nrt=False, forceinline=True)
def put_floor(hs, hf, cards, opts, o, h, c):
    """Card ``c`` on top of house (o, h); ``h`` = number of houses starts a new one."""
    col = cards[c, K.K_COL]
    nf = hs[o, h, K.H_NF]
    if nf == 0:
        for k in range(K.N_HF):
            hs[o, h, k] = 0
        hs[o, h, K.H_COL] = K.UNASSIGNED if col == K.W else col
    elif col != K.W and hs[o, h, K.H_COL] == K.UNASSIGNED:
        hs[o, h, K.H_COL] = col
    hf[o, h, nf] = c
    hs[o, h, K.H_NF] = nf + 1
    hs[o, h, K.H_TOP] = cards[c, K.K_NUM]
    set_height(hs, hf, cards, opts, o, h)


@njit(cache=True, _nrt=False, forceinline=True)
def put_base(hs, hf, hb, cards, opts, o, h, c):
    """Card ``c`` as the new lowest basement of house (o, h)."""
    col = cards[c, K.K_COL]
    if col != K.W and hs[o, h, K.H_COL] == K.UNASSIGNED:
        hs[o, h, K.H_COL] = col
    nb = hs[o, h, K.H_NB]
    hb[o, h, nb] = c
    hs[o, h, K.H_NB] = nb + 1
    k = cards[c, K.K_NUM]
    hs[o, h, K.H_LB] = k
    if k == 3:
        hs[o, h, K.H_B3] = 1
    set_height(hs, hf, cards, opts, o, h)


@njit(cache=True, _nrt=False, forceinline=True)
def put_wolf(hs, seat, consts, p, v, o, h):
    """Seat ``p``'s wolf ``v`` onto house (o, h)."""
    nw = hs[o, h, K.H_NW]
    val = consts[K.C_WOLF + v]
    if nw == 0:
        hs[o, h, K.H_W0S] = p
        hs[o, h, K.H_W0V] = val
    else:
        hs[o, h, K.H_W1S] = p
        hs[o, h, K.H_W1V] = val
    hs[o, h, K.H_NW] = nw + 1
    seat[p, K.S_WU + v] = 1


# ---------------------------------------------------------------------------------------------
# setup (§3.2, doc §3)
@njit(cache=True, _nrt=False, forceinline=True)
def shuffle_at(r, a, off, n):
    """``shuffle`` (sim.core.rng) of ``a[off:off + n]`` in place: the same draws."""
    for i in range(n - 1, 0, -1):
        j = rand_below(r, i + 1)
        t = a[off + i]
        a[off + i] = a[off + j]
        a[off + j] = t


@njit(cache=True, _nrt=False)
def init_arrays(meta, rng, opts, cards, consts, deck, hands, discard, pigs, tokens, tie, seat,
                hs, hf, hb, pile, n_players, seed):
    """Set up a new game in the state arrays: shuffle, deal, bottom packet, upper deck.

    ``seed``: uint64; ``pile`` int64[>= 56] scratch. Options and data already in
    ``opts/cards/consts``. The deck is the packet (bottom) followed by the upper deck, each
    shuffled where it lies.
    """
    zero(meta)
    zero(hands)
    zero(discard)
    zero(pigs)
    zero(tokens)
    zero(tie)
    zero(seat)
    zero(hs)
    zero(hf)
    zero(hb)
    rng[0] = seed
    meta[K.M_NP] = n_players
    meta[K.M_NOWN] = n_players if n_players >= 3 else 3
    meta[K.M_DRAWER] = -1
    meta[K.M_PIGCARD] = -1
    meta[K.M_DCARD] = -1
    meta[K.M_UNDER] = -1
    meta[K.M_MUST] = 0 if n_players == 2 else -1
    for p in range(K.MAXP):
        seat[p, K.S_PASS] = -1
        seat[p, K.S_COMMIT] = -1
    for i in range(K.NBUILD):
        pile[i] = i
    shuffle(rng, pile, K.NBUILD)
    top = K.NBUILD
    for p in range(n_players):
        for _ in range(opts[K.O_HAND]):
            top -= 1
            hand_add(hands, seat, p, pile[top])
    npk = consts[K.C_PACKET]
    for i in range(npk):
        top -= 1
        deck[i] = pile[top]
    j = rand_below(rng, 3)
    deck[npk] = K.PIG0 + j
    shuffle(rng, deck, npk + 1)
    off = npk + 1
    for i in range(top):
        deck[off + i] = pile[i]
    k = top
    for q in range(3):
        if q != j:
            deck[off + k] = K.PIG0 + q
            k += 1
    shuffle_at(rng, deck, off, top + 2)
    meta[K.M_DECKN] = off + top + 2
    start_turn(meta, 0)


@njit(cache=True, _nrt=False, forceinline=True)
def start_turn(meta, p):
    """A real player's turn begins (doc §5)."""
    meta[K.M_TURN] += 1
    meta[K.M_TP] = p
    meta[K.M_CUR] = p
    meta[K.M_PHASE] = K.PH_PLAY


# ---------------------------------------------------------------------------------------------
# legal actions (doc §6)
@njit(cache=True, _nrt=False, forceinline=True)
def play_bits(opts, cards, hands, seat, hs, n_own, p, only):
    """Phase play: the legal actions of seat ``p`` as bit sets over the hand indexes ``i``
    (``only`` >= 0 restricts to that card, 2p end). Returns (fb, sel, wolf, disc):

    fb    bit 4i + h: FLOOR of card i on house h (h = 3: new house); bit 32 + 3i + h: BASEMENT
          of card i under house h (rules of ``can_floor``/``can_new``/``can_base``);
    sel   bit i: card i may be used (all cards, or only ``only``);
    wolf  1 if every selected card may be discarded for a wolf (WOLF ids), else 0;
    disc  1 if every selected card may be discarded for nothing (DISCARD ids), else 0.

    The legal ids, ascending, are the FLOORs in bit order, the BASEMENTs in bit order, then the
    WOLFs and the DISCARDs of the selected cards in hand order (``play_actions_into``,
    ``nth_play``). Computed with masks, without branches per card.
    """
    # own houses: colour, top number, last basement number (houses are created in order)
    nh = 0
    mask = 0  # bit c: p has a house of colour c
    c0 = c1 = c2 = -1
    t0 = t1 = t2 = 1 << 30
    b0 = b1 = b2 = 1 << 30
    for h in range(K.MAXH):
        if hs[p, h, K.H_NF] == 0:
            break
        nh += 1
        col = hs[p, h, K.H_COL]
        if col != K.UNASSIGNED:
            mask |= 1 << col
        if h == 0:
            c0 = col
            t0 = hs[p, h, K.H_TOP]
            b0 = hs[p, h, K.H_LB]
        elif h == 1:
            c1 = col
            t1 = hs[p, h, K.H_TOP]
            b1 = hs[p, h, K.H_LB]
        else:
            c2 = col
            t2 = hs[p, h, K.H_TOP]
            b2 = hs[p, h, K.H_LB]
    # a missing house has top and last basement 1 << 30: no card goes on or under it
    u0 = c0 == K.UNASSIGNED
    u1 = c1 == K.UNASSIGNED
    u2 = c2 == K.UNASSIGNED
    room = nh < K.MAXH
    colbase_u = opts[K.O_COLBASE_U] == 1
    fb = 0
    sel = 0
    hn = seat[p, K.S_HN]
    for i in range(hn):
        c = hands[p, i]
        if only >= 0 and c != only:
            continue
        sel |= 1 << i
        k = cards[c, K.K_NUM]
        col = cards[c, K.K_COL]
        white = col == K.W
        free = white | ((mask >> col) & 1 == 0)  # may take an unassigned house / start new
        f = (np.int64((k > t0) & (white | (c0 == col) | (u0 & free)))
             | (np.int64((k > t1) & (white | (c1 == col) | (u1 & free))) << 1)
             | (np.int64((k > t2) & (white | (c2 == col) | (u2 & free))) << 2)
             | (np.int64(room & free) << 3))
        ufree = colbase_u & (not white) & ((mask >> col) & 1 == 0)
        low = k <= 3
        g = (np.int64(low & (k > b0) & (white | (c0 == col) | (u0 & ufree)))
             | (np.int64(low & (k > b1) & (white | (c1 == col) | (u1 & ufree))) << 1)
             | (np.int64(low & (k > b2) & (white | (c2 == col) | (u2 & ufree))) << 2))
        fb |= (f << (4 * i)) | (g << (32 + 3 * i))
    wolf = 0
    if sel != 0 and any_wolf_move(hs, seat, opts, n_own, p):
        wolf = 1
    disc = 0
    if (fb == 0 and wolf == 0) or opts[K.O_PURE_DISC] == 1:
        disc = 1
    return fb, sel, wolf, disc


@njit(cache=True, _nrt=False, forceinline=True)
def nth_play(hands, p, fb, sel, wolf, k):
    """The ``k``-th (from 0) legal id of phase play from the bit sets of ``play_bits``."""
    nf = popcount(fb)
    if k < nf:
        b = nth_bit(fb, k)
        if b < 32:
            return 4 * hands[p, nonneg(b >> 2)] + (b & 3)
        j = b - 32
        i = j // 3
        return K.A_BASE + 3 * hands[p, nonneg(i)] + (j - 3 * i)
    k -= nf
    ns = popcount(sel)
    if wolf == 1:
        if k < ns:
            return K.A_WOLF + hands[p, nth_bit(sel, k)]
        k -= ns
    return K.A_DISC + hands[p, nth_bit(sel, k)]


@njit(cache=True, _nrt=False, forceinline=True)
def play_actions_into(opts, cards, hands, seat, hs, n_own, p, only, out, n):
    """Phase play: append FLOOR, BASEMENT, WOLF, DISCARD ids for seat ``p`` to ``out`` from
    index ``n``; ``only`` >= 0 restricts to that card (2p end). Returns the new count."""
    fb, sel, wolf, disc = play_bits(opts, cards, hands, seat, hs, n_own, p, only)
    m = fb & 0xFFFFFFFF
    while m != 0:
        b = lowest_bit(m)
        m &= m - 1
        out[n] = 4 * hands[p, nonneg(b >> 2)] + (b & 3)
        n += 1
    m = fb >> 32
    while m != 0:
        b = lowest_bit(m)
        m &= m - 1
        i = b // 3
        out[n] = K.A_BASE + 3 * hands[p, nonneg(i)] + (b - 3 * i)
        n += 1
    if wolf == 1:
        m = sel
        while m != 0:
            out[n] = K.A_WOLF + hands[p, lowest_bit(m)]
            m &= m - 1
            n += 1
    if disc == 1:
        m = sel
        while m != 0:
            out[n] = K.A_DISC + hands[p, lowest_bit(m)]
            m &= m - 1
            n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def wolf_values(seat, opts, p):
    """Bit set of the wolves ``v`` (0..2) seat ``p`` may place now (``wolf_value_ok``)."""
    vs = 0
    for v in range(3):
        vs |= np.int64(seat[p, K.S_WU + v] == 0) << v
    if opts[K.O_WOLF_FREE] == 0:
        vs &= -vs  # the lowest unused only
    return vs


@njit(cache=True, _nrt=False, forceinline=True)
def place_actions_into(opts, seat, hs, n_own, p, out, n):
    """Phases wolf and house: PLACE ids (A_PLACE + 12v + 3o + h, ascending) of seat ``p``."""
    targets = wolf_targets(hs, opts, n_own, p)
    vs = wolf_values(seat, opts, p)
    while vs != 0:
        v = lowest_bit(vs)
        vs &= vs - 1
        m = targets
        while m != 0:
            out[n] = K.A_PLACE + 12 * v + lowest_bit(m)
            m &= m - 1
            n += 1
    return n


@njit(cache=True, _nrt=False)
def dummy_actions_into(opts, cards, hs, x, out, n):
    """Phase dummy: the legal placements of card ``x`` for the dummy (doc §5.3)."""
    n0 = n
    col = cards[x, K.K_COL]
    for h in range(K.MAXH):
        if hs[K.DUMMY, h, K.H_NF] > 0 and can_floor(hs, cards, K.DUMMY, h, x):
            out[n] = K.A_DFLOOR + h
            n += 1
    if n_houses(hs, K.DUMMY) < K.MAXH:
        for c in range(3):
            if (col == K.W or col == c) and not has_colour_o(hs, K.DUMMY, c):
                out[n] = K.A_DNEW + c
                n += 1
    if cards[x, K.K_NUM] <= 3:
        for h in range(K.MAXH):
            if hs[K.DUMMY, h, K.H_NF] > 0 and can_base(hs, cards, opts, K.DUMMY, h, x):
                out[n] = K.A_DBASE + h
                n += 1
    if n == n0:
        out[n] = K.A_DDISC
        n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def legal_into(meta, opts, cards, hands, tie, seat, hs, out):
    """Write the legal action ids into ``out`` (int32[>= 665]) ascending; return the count."""
    ph = meta[K.M_PHASE]
    if ph == K.PH_OVER:
        return 0
    p = nonneg(meta[K.M_CUR])
    if ph == K.PH_PLAY:
        only = -1
        if meta[K.M_STAGE] == K.ST_FINAL2P:
            only = seat[p, K.S_COMMIT]
        return play_actions_into(opts, cards, hands, seat, hs, meta[K.M_NOWN], p, only, out, 0)
    if ph == K.PH_WOLF or ph == K.PH_HOUSE:
        return place_actions_into(opts, seat, hs, meta[K.M_NOWN], p, out, 0)
    if ph == K.PH_PASS or ph == K.PH_COMMIT:
        base = K.A_PASS if ph == K.PH_PASS else K.A_COMMIT
        for i in range(seat[p, K.S_HN]):
            out[i] = base + hands[p, i]
        return seat[p, K.S_HN]
    if ph == K.PH_PIGTIE:
        for i in range(meta[K.M_NTIE]):
            out[i] = K.A_PIGTIE + tie[i]
        return meta[K.M_NTIE]
    return dummy_actions_into(opts, cards, hs, meta[K.M_DCARD], out, 0)


@njit(cache=True, _nrt=False, forceinline=True)
def random_legal(meta, opts, cards, hands, tie, seat, hs, out, rng):
    """``out[rand_below(rng, n)]`` after ``n = legal_into(.., out)`` (the random bot), mostly
    without listing the legal actions: the same draw and the same action."""
    ph = meta[K.M_PHASE]
    p = nonneg(meta[K.M_CUR])
    if ph == K.PH_PLAY:
        only = -1
        if meta[K.M_STAGE] == K.ST_FINAL2P:
            only = seat[p, K.S_COMMIT]
        fb, sel, wolf, disc = play_bits(opts, cards, hands, seat, hs, meta[K.M_NOWN], p, only)
        n = popcount(fb) + (wolf + disc) * popcount(sel)
        return nth_play(hands, p, fb, sel, wolf, rand_below(rng, n))
    if ph == K.PH_WOLF or ph == K.PH_HOUSE:
        targets = wolf_targets(hs, opts, meta[K.M_NOWN], p)
        vs = wolf_values(seat, opts, p)
        nt = popcount(targets)
        k = rand_below(rng, popcount(vs) * nt)
        v = nth_bit(vs, k // nt)
        return K.A_PLACE + 12 * v + nth_bit(targets, k - (k // nt) * nt)
    if ph == K.PH_PASS or ph == K.PH_COMMIT:
        base = K.A_PASS if ph == K.PH_PASS else K.A_COMMIT
        return base + hands[p, rand_below(rng, seat[p, K.S_HN])]
    if ph == K.PH_PIGTIE:
        return K.A_PIGTIE + tie[rand_below(rng, meta[K.M_NTIE])]
    n = dummy_actions_into(opts, cards, hs, meta[K.M_DCARD], out, 0)
    return out[rand_below(rng, n)]


# ---------------------------------------------------------------------------------------------
# pig tokens (§3.7.1, §3.8.1, doc §5.1)
@njit(cache=True, _nrt=False, forceinline=True)
def current_token(meta, opts, consts, tokens):
    """Index of the pig token the pig being resolved hands out, or -1 if none is left."""
    if opts[K.O_UNPLACED] == 0:
        t = meta[K.M_NPIGS] - 1
        return t if tokens[t] == K.T_LEFT else -1
    best = -1
    for t in range(3):
        if tokens[t] == K.T_LEFT and (best < 0 or consts[K.C_TOKEN + t] < consts[K.C_TOKEN + best]):
            best = t
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def token_eligible(meta, opts, hs, o, h):
    """House (o, h) may receive a pig token (§3.7.1, options)."""
    if hs[o, h, K.H_NF] == 0 or hs[o, h, K.H_PIG] != 0:
        return False
    if meta[K.M_NP] == 2 and o == K.DUMMY and opts[K.O_DUMMY_PIGS] == 0:
        return False
    if opts[K.O_KIDS] == 1 and opts[K.O_KIDS_TOKENS] == 0:
        return False
    return True


@njit(cache=True, _nrt=False, forceinline=True)
def give_token(hs, tokens, consts, t, o, h):
    hs[o, h, K.H_PIG] = consts[K.C_TOKEN + t]
    tokens[t] = K.T_PLACED


@njit(cache=True, _nrt=False)
def place_token(meta, opts, consts, tokens, hs, tie):
    """Hand the current pig token to the tallest eligible house (doc §5.1); may suspend."""
    t = current_token(meta, opts, consts, tokens)
    if t < 0:
        return K.K_AFTER_TOKEN
    n_own = meta[K.M_NOWN]
    best = -1
    for o in range(n_own):
        for h in range(K.MAXH):
            if token_eligible(meta, opts, hs, o, h) and hs[o, h, K.H_HT] > best:
                best = hs[o, h, K.H_HT]
    if best < 0:
        if opts[K.O_UNPLACED] == 0:
            tokens[t] = K.T_LOST
        return K.K_AFTER_TOKEN
    d = meta[K.M_DRAWER]
    start = d if opts[K.O_PIG_DRAWER_FIRST] == 1 else d + 1
    for i in range(n_own):
        o = (start + i) % n_own
        k = 0
        for h in range(K.MAXH):
            if token_eligible(meta, opts, hs, o, h) and hs[o, h, K.H_HT] == best:
                tie[k] = h
                k += 1
        if k == 0:
            continue
        if k == 1:
            give_token(hs, tokens, consts, t, o, tie[0])
            return K.K_AFTER_TOKEN
        if (meta[K.M_NP] == 2 and o == K.DUMMY) or opts[K.O_PIG_SAME_OWNER] == 1:
            bh = tie[0]
            for j in range(1, k):
                if hs[o, tie[j], K.H_COL] < hs[o, bh, K.H_COL]:
                    bh = tie[j]
            give_token(hs, tokens, consts, t, o, bh)
            return K.K_AFTER_TOKEN
        meta[K.M_NTIE] = k
        meta[K.M_PHASE] = K.PH_PIGTIE
        meta[K.M_CUR] = o
        return K.K_DONE
    return K.K_AFTER_TOKEN


# ---------------------------------------------------------------------------------------------
# the dummy (§3.10, doc §5.3)
@njit(cache=True, _nrt=False)
def neutral_dummy_action(opts, cards, hs, x):
    """The neutral placement of card ``x`` as a DUMMY_* action id (§3.10.5)."""
    col = cards[x, K.K_COL]
    k = cards[x, K.K_NUM]
    if col != K.W:
        hc = -1
        for h in range(K.MAXH):
            if hs[K.DUMMY, h, K.H_NF] > 0 and hs[K.DUMMY, h, K.H_COL] == col:
                hc = h
        if hc >= 0 and k > hs[K.DUMMY, hc, K.H_TOP]:
            return K.A_DFLOOR + hc
        if hc < 0:
            if n_houses(hs, K.DUMMY) < K.MAXH:
                return K.A_DNEW + col
            return K.A_DDISC
        if k <= 3 and can_base(hs, cards, opts, K.DUMMY, hc, x):
            return K.A_DBASE + hc
        return K.A_DDISC
    # white: smallest positive gap, ties R < Y < G
    bh = -1
    bgap = 1 << 30
    for c in range(3):
        for h in range(K.MAXH):
            if hs[K.DUMMY, h, K.H_NF] > 0 and hs[K.DUMMY, h, K.H_COL] == c:
                gap = k - hs[K.DUMMY, h, K.H_TOP]
                if gap > 0 and gap < bgap:
                    bgap = gap
                    bh = h
    if bh >= 0:
        return K.A_DFLOOR + bh
    if n_houses(hs, K.DUMMY) < K.MAXH:
        for c in range(3):
            if not has_colour_o(hs, K.DUMMY, c):
                return K.A_DNEW + c
    if k <= 3:
        bh = -1
        bht = 1 << 30
        for c in range(3):
            for h in range(K.MAXH):
                if hs[K.DUMMY, h, K.H_NF] > 0 and hs[K.DUMMY, h, K.H_COL] == c:
                    if can_base(hs, cards, opts, K.DUMMY, h, x) and hs[K.DUMMY, h, K.H_HT] < bht:
                        bht = hs[K.DUMMY, h, K.H_HT]
                        bh = h
        if bh >= 0:
            return K.A_DBASE + bh
    return K.A_DDISC


@njit(cache=True, _nrt=False)
def dummy_apply(meta, opts, cards, discard, hs, hf, hb, x, a):
    """Apply DUMMY_* action ``a`` to card ``x``; return the next continuation (doc §5.3)."""
    placed = True
    if a == K.A_DDISC:
        discard[x] = 1
        placed = False
    elif a >= K.A_DBASE:
        put_base(hs, hf, hb, cards, opts, K.DUMMY, a - K.A_DBASE, x)
    elif a >= K.A_DNEW:
        h = n_houses(hs, K.DUMMY)
        put_floor(hs, hf, cards, opts, K.DUMMY, h, x)
        hs[K.DUMMY, h, K.H_COL] = a - K.A_DNEW
    else:
        put_floor(hs, hf, cards, opts, K.DUMMY, a - K.A_DFLOOR, x)
    white = placed and cards[x, K.K_COL] == K.W
    if meta[K.M_STAGE] == K.ST_NORMAL:
        if white:
            meta[K.M_MUST] = 1 - meta[K.M_MUST]
        return K.K_END_TURN
    if white and opts[K.O_FINAL_WHITE_PASS] == 1:
        meta[K.M_MUST] = 1 - meta[K.M_MUST]
    return K.K_END_ROUND


@njit(cache=True, _nrt=False)
def dummy_reveal(meta, opts, cards, discard, hs, hf, hb, x):
    """The dummy's card ``x``: placed at once (neutral) or offered to the holder (doc §5.3)."""
    if opts[K.O_DUMMY_POLICY] == 0:
        return dummy_apply(meta, opts, cards, discard, hs, hf, hb, x,
                           np.int32(neutral_dummy_action(opts, cards, hs, x)))
    meta[K.M_DCARD] = x
    meta[K.M_PHASE] = K.PH_DUMMY
    meta[K.M_CUR] = meta[K.M_MUST]
    return K.K_DONE


# ---------------------------------------------------------------------------------------------
# scoring (§3.12, doc §7)
@njit(cache=True, _nrt=False, forceinline=True)
def colour_stats(hs, n_own, cst):
    """``cst[c]`` = (houses, min height, houses at min, max height, houses at max) of colour c
    over the houses of owners ``0 .. n_own - 1`` (all-white houses count for no colour)."""
    for c in range(3):
        cst[c, 0] = 0
        cst[c, 1] = 1 << 30
        cst[c, 2] = 0
        cst[c, 3] = -1
        cst[c, 4] = 0
    for o in range(n_own):
        for h in range(K.MAXH):
            if hs[o, h, K.H_NF] == 0:
                continue
            c = hs[o, h, K.H_COL]
            if c == K.UNASSIGNED:
                continue
            ht = hs[o, h, K.H_HT]
            cst[c, 0] += 1
            if ht < cst[c, 1]:
                cst[c, 1] = ht
                cst[c, 2] = 1
            elif ht == cst[c, 1]:
                cst[c, 2] += 1
            if ht > cst[c, 3]:
                cst[c, 3] = ht
                cst[c, 4] = 1
            elif ht == cst[c, 3]:
                cst[c, 4] += 1


@njit(cache=True, _nrt=False)
def points_arrays(meta, opts, cards, consts, hs, hf, cst, pts, tb, det):
    """Score components ``pts`` int64[4, 6] (P_*), tie-break ``tb`` int64[4] and detail
    ``det`` int64[4, 6] (D_*) of every seat, as if the game ended now (all zeroed first);
    ``cst`` int64[3, 5] scratch (``colour_stats``)."""
    n = meta[K.M_NP]
    n_own = meta[K.M_NOWN]
    zero(pts)
    zero(tb)
    zero(det)
    colour_stats(hs, n_own, cst)
    collapse_pts = consts[K.C_COLLAPSE_PTS]
    for o in range(n_own):
        for h in range(K.MAXH):
            if hs[o, h, K.H_NF] == 0:
                continue
            c = hs[o, h, K.H_COL]
            ht = hs[o, h, K.H_HT]
            cc = c if c < 3 else 0
            cnt = cst[cc, 0]
            mn = cst[cc, 1]
            cmn = cst[cc, 2]
            mx = cst[cc, 3]
            cmx = cst[cc, 4]
            bonus = False
            if c == K.UNASSIGNED:
                stand = False
            elif cnt == 1:
                stand = opts[K.O_LONE_COLLAPSES] == 0
                bonus = opts[K.O_LONE_BONUS] == 1
            else:
                stand = not (ht == mn and cmn == 1)
                bonus = ht == mx and cmx == 1
            nw = hs[o, h, K.H_NW]
            for w in range(nw):
                q = hs[o, h, K.H_W0S + 2 * w]
                if stand:
                    val = hs[o, h, K.H_W0V + 2 * w]
                    pts[q, K.P_WOLVES] += val
                    tb[q] += val
                    det[q, K.D_WOLVES_STANDING] += 1
                else:
                    pts[q, K.P_WOLVES] += collapse_pts
                det[q, K.D_WOLVES] += 1
            if o >= n:
                continue  # the dummy scores nothing
            det[o, K.D_BUILT] += 1
            if stand:
                pts[o, K.P_HOUSES] += consts[K.C_HOUSE_PTS]
                if hs[o, h, K.H_PIG] > 0:
                    pts[o, K.P_PIGS] += hs[o, h, K.H_PIG]
            else:
                pts[o, K.P_COLLAPSES] += collapse_pts
                det[o, K.D_COLLAPSED] += 1
                if hs[o, h, K.H_PIG] > 0:
                    pts[o, K.P_PIGS] += collapse_pts
            if bonus:
                pts[o, K.P_BONUSES] += consts[K.C_BONUS_PTS]
            if stand or opts[K.O_MARKS_COLLAPSED] == 1:
                pts[o, K.P_MARKS] += cards[hf[o, h, hs[o, h, K.H_NF] - 1], K.K_MARK]
            if c != K.UNASSIGNED and cnt >= 2:
                if ht == mn and cmn >= 2:
                    det[o, K.D_SAVED_TIE] += 1
                if ht == mx and cmx >= 2:
                    det[o, K.D_BONUS_TIE] += 1
    if opts[K.O_TB_NET] == 1:
        for p in range(n):
            tb[p] = pts[p, K.P_WOLVES]
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def finish_game(meta, reason):
    meta[K.M_STAGE] = K.ST_OVER
    meta[K.M_PHASE] = K.PH_OVER
    meta[K.M_CUR] = -1
    meta[K.M_END] = reason


# ---------------------------------------------------------------------------------------------
# the flow driver (doc §5)
@njit(cache=True, _nrt=False, forceinline=True)
def run_flow_arrays(meta, opts, cards, consts, deck, hands, discard, pigs, tokens, tie, seat,
                    hs, hf, hb, k):
    """Run continuation ``k`` and its successors until a decision is pending or the game ends."""
    n = meta[K.M_NP]
    while k != K.K_DONE:
        if k == K.K_AFTER_USE:
            p = meta[K.M_TP]
            st = meta[K.M_STAGE]
            if st == K.ST_NORMAL:
                k = K.K_REVEAL
            elif st == K.ST_FINAL:
                meta[K.M_FLEFT] -= 1
                if meta[K.M_FLEFT] == 0:
                    finish_game(meta, K.END_SCORED)
                else:
                    start_turn(meta, (p + 1) % n)
                k = K.K_DONE
            else:
                seat[p, K.S_COMMIT] = -1
                meta[K.M_RSTEP] += 1
                k = K.K_RESOLVE_NEXT
        elif k == K.K_REVEAL:
            if meta[K.M_DECKN] == 0:
                k = K.K_END_TURN
                continue
            meta[K.M_DECKN] -= 1
            x = deck[nonneg(meta[K.M_DECKN])]
            tp = meta[K.M_TP]
            if x >= K.PIG0:
                pigs[meta[K.M_NPIGS]] = x
                meta[K.M_NPIGS] += 1
                meta[K.M_PIGCARD] = x
                meta[K.M_DRAWER] = tp if tp < n else meta[K.M_MUST]
                k = K.K_PLACE_TOKEN
            elif tp < n:
                hand_add(hands, seat, tp, x)
                k = K.K_END_TURN
            else:
                k = dummy_reveal(meta, opts, cards, discard, hs, hf, hb, x)
        elif k == K.K_PLACE_TOKEN:
            k = place_token(meta, opts, consts, tokens, hs, tie)
        elif k == K.K_AFTER_TOKEN:
            if meta[K.M_NPIGS] == 3:
                meta[K.M_UNDER] = meta[K.M_DECKN]
                d = meta[K.M_DRAWER]
                meta[K.M_DRAWER] = -1
                meta[K.M_PIGCARD] = -1
                if n >= 3:
                    meta[K.M_STAGE] = K.ST_FINAL
                    meta[K.M_FLEFT] = 2 * n
                    start_turn(meta, (d + 1) % n)
                    k = K.K_DONE
                else:
                    meta[K.M_STAGE] = K.ST_FINAL2P
                    k = K.K_START_ROUND
                continue
            e = consts[K.C_EFFECT + meta[K.M_PIGCARD] - K.PIG0]
            if opts[K.O_KIDS] == 1:
                e = K.E_NONE
            meta[K.M_ESTEP] = 0
            if e == K.E_LEFT or e == K.E_RIGHT:
                k = K.K_PASS_NEXT
            elif e == K.E_HOUSE:
                k = K.K_HOUSE_NEXT
            else:
                meta[K.M_PIGCARD] = -1
                meta[K.M_DRAWER] = -1
                k = K.K_REVEAL
        elif k == K.K_PASS_NEXT:
            d = meta[K.M_DRAWER]
            k = K.K_REVEAL
            while meta[K.M_ESTEP] < n:
                q = (d + meta[K.M_ESTEP]) % n
                if seat[q, K.S_HN] > 0:
                    meta[K.M_PHASE] = K.PH_PASS
                    meta[K.M_CUR] = q
                    k = K.K_DONE
                    break
                meta[K.M_ESTEP] += 1
            if k == K.K_DONE:
                continue
            e = consts[K.C_EFFECT + meta[K.M_PIGCARD] - K.PIG0]
            for q in range(n):
                c = seat[q, K.S_PASS]
                if c < 0:
                    continue
                if n == 2:
                    r = 1 - q
                elif e == K.E_LEFT:
                    r = (q + 1) % n
                else:
                    r = (q + n - 1) % n
                hand_add(hands, seat, r, c)
                seat[q, K.S_PASS] = -1
            meta[K.M_PIGCARD] = -1
            meta[K.M_DRAWER] = -1
            meta[K.M_ESTEP] = 0
        elif k == K.K_HOUSE_NEXT:
            d = meta[K.M_DRAWER]
            k = K.K_REVEAL
            while meta[K.M_ESTEP] < n:
                q = (d + meta[K.M_ESTEP]) % n
                if any_wolf_move(hs, seat, opts, meta[K.M_NOWN], q):
                    meta[K.M_PHASE] = K.PH_HOUSE
                    meta[K.M_CUR] = q
                    k = K.K_DONE
                    break
                meta[K.M_ESTEP] += 1
            if k == K.K_REVEAL:
                meta[K.M_PIGCARD] = -1
                meta[K.M_DRAWER] = -1
                meta[K.M_ESTEP] = 0
        elif k == K.K_END_TURN:
            tp = meta[K.M_TP]
            k = K.K_DONE
            if n >= 3:
                start_turn(meta, (tp + 1) % n)
            elif tp == 0:
                start_turn(meta, 1)
            elif tp == 1:
                meta[K.M_TP] = K.DUMMY
                k = K.K_REVEAL
            else:
                start_turn(meta, 0)
        elif k == K.K_START_ROUND:
            if seat[0, K.S_HN] == 0 and seat[1, K.S_HN] == 0:
                finish_game(meta, K.END_SCORED)
                k = K.K_DONE
            else:
                meta[K.M_RSTEP] = 0
                k = K.K_COMMIT_NEXT
        elif k == K.K_COMMIT_NEXT:
            k = K.K_RESOLVE_NEXT
            while meta[K.M_RSTEP] < 2:
                q = meta[K.M_MUST] if meta[K.M_RSTEP] == 0 else 1 - meta[K.M_MUST]
                if seat[q, K.S_HN] > 0:
                    meta[K.M_PHASE] = K.PH_COMMIT
                    meta[K.M_CUR] = q
                    k = K.K_DONE
                    break
                meta[K.M_RSTEP] += 1
        elif k == K.K_RESOLVE_NEXT:
            k = K.K_DONE
            while meta[K.M_RSTEP] < 4:
                q = meta[K.M_MUST] if meta[K.M_RSTEP] == 2 else 1 - meta[K.M_MUST]
                if seat[q, K.S_COMMIT] >= 0:
                    start_turn(meta, q)
                    break
                meta[K.M_RSTEP] += 1
            if meta[K.M_RSTEP] == 4:
                if meta[K.M_DECKN] > 0:
                    meta[K.M_DECKN] -= 1
                    meta[K.M_TP] = K.DUMMY
                    k = dummy_reveal(meta, opts, cards, discard, hs, hf, hb,
                                     deck[nonneg(meta[K.M_DECKN])])
                else:
                    k = K.K_END_ROUND
        elif k == K.K_END_ROUND:
            meta[K.M_MUST] = 1 - meta[K.M_MUST]
            k = K.K_START_ROUND


# ---------------------------------------------------------------------------------------------
# apply (doc §6)
@njit(cache=True, _nrt=False, forceinline=True)
def apply_arrays(meta, opts, cards, consts, deck, hands, discard, pigs, tokens, tie, seat, hs,
                 hf, hb, a):
    """Apply the legal action ``a`` in place (doc §6)."""
    ph = meta[K.M_PHASE]
    p = nonneg(meta[K.M_CUR])
    meta[K.M_DEC] += 1
    k = K.K_DONE
    if ph == K.PH_PLAY:
        if a < K.A_BASE:
            c = a // 4
            h = a % 4
            hand_remove(hands, seat, p, c)
            if h == 3:
                h = n_houses(hs, p)
            put_floor(hs, hf, cards, opts, p, h, c)
            seat[p, K.S_BUILD] += 1
            k = K.K_AFTER_USE
        elif a < K.A_WOLF:
            c = (a - K.A_BASE) // 3
            hand_remove(hands, seat, p, c)
            put_base(hs, hf, hb, cards, opts, p, (a - K.A_BASE) % 3, c)
            seat[p, K.S_BUILD] += 1
            k = K.K_AFTER_USE
        elif a < K.A_PLACE:
            c = a - K.A_WOLF
            hand_remove(hands, seat, p, c)
            discard[c] = 1
            seat[p, K.S_WOLFN] += 1
            meta[K.M_PHASE] = K.PH_WOLF
        else:
            c = a - K.A_DISC
            hand_remove(hands, seat, p, c)
            discard[c] = 1
            seat[p, K.S_DISCN] += 1
            k = K.K_AFTER_USE
    elif ph == K.PH_WOLF or ph == K.PH_HOUSE:
        i = a - K.A_PLACE
        put_wolf(hs, seat, consts, p, i // 12, (i % 12) // 3, i % 3)
        if ph == K.PH_WOLF:
            k = K.K_AFTER_USE
        else:
            meta[K.M_ESTEP] += 1
            k = K.K_HOUSE_NEXT
    elif ph == K.PH_PASS:
        c = a - K.A_PASS
        hand_remove(hands, seat, p, c)
        seat[p, K.S_PASS] = c
        meta[K.M_ESTEP] += 1
        k = K.K_PASS_NEXT
    elif ph == K.PH_PIGTIE:
        give_token(hs, tokens, consts, current_token(meta, opts, consts, tokens), p,
                   a - K.A_PIGTIE)
        meta[K.M_NTIE] = 0
        k = K.K_AFTER_TOKEN
    elif ph == K.PH_DUMMY:
        x = meta[K.M_DCARD]
        meta[K.M_DCARD] = -1
        k = dummy_apply(meta, opts, cards, discard, hs, hf, hb, x, np.int32(a))
    elif ph == K.PH_COMMIT:
        seat[p, K.S_COMMIT] = a - K.A_COMMIT
        meta[K.M_RSTEP] += 1
        k = K.K_COMMIT_NEXT
    run_flow_arrays(meta, opts, cards, consts, deck, hands, discard, pigs, tokens, tie, seat, hs,
                    hf, hb, k)
    if meta[K.M_PHASE] != K.PH_OVER and meta[K.M_DEC] >= K.MAX_DECISIONS:
        finish_game(meta, K.END_LIMIT)


# ---------------------------------------------------------------------------------------------
# entry points over a TLWState (the Python API; they unpack the state once and delegate)
@njit(cache=True)
def init_state(s, n_players, seed):
    """Set up a new game in the arrays of ``s`` (``init_arrays``). ``seed``: uint64."""
    pile = np.empty(K.NBUILD, np.int64)
    init_arrays(s.meta, s.rng, s.opts, s.cards, s.consts, s.deck, s.hands, s.discard, s.pigs,
                s.tokens, s.tie, s.seat, s.hs, s.hf, s.hb, pile, n_players, seed)


@njit(cache=True)
def legal_actions_into(s, out):
    """Write the legal action ids of ``s`` into ``out`` (int32[>= 665]) ascending; return count."""
    return legal_into(s.meta, s.opts, s.cards, s.hands, s.tie, s.seat, s.hs, out)


@njit(cache=True)
def apply_inplace(s, a):
    """Apply the legal action ``a`` to ``s`` in place (doc §6)."""
    apply_arrays(s.meta, s.opts, s.cards, s.consts, s.deck, s.hands, s.discard, s.pigs, s.tokens,
                 s.tie, s.seat, s.hs, s.hf, s.hb, np.int32(a))


@njit(cache=True)
def compute_points(s, pts, tb, det):
    """Score components ``pts`` int64[4, 6] (P_*), tie-break ``tb`` int64[4] and detail
    ``det`` int64[4, 6] (D_*) of every seat, as if the game ended now (all zeroed first)."""
    cst = np.empty((3, 5), np.int64)
    return points_arrays(s.meta, s.opts, s.cards, s.consts, s.hs, s.hf, cst, pts, tb, det)


@njit(cache=True)
def refresh_heights(s):
    """Recompute the cached per-house fields (height, top, last basement, B3) from the cards."""
    opts = s.opts
    cards = s.cards
    hs = s.hs
    hf = s.hf
    hb = s.hb
    for o in range(K.MAXO):
        for h in range(K.MAXH):
            nf = hs[o, h, K.H_NF]
            if nf == 0:
                continue
            hs[o, h, K.H_TOP] = cards[hf[o, h, nf - 1], K.K_NUM]
            nb = hs[o, h, K.H_NB]
            hs[o, h, K.H_LB] = cards[hb[o, h, nb - 1], K.K_NUM] if nb > 0 else 0
            hs[o, h, K.H_B3] = 0
            for b in range(nb):
                if cards[hb[o, h, b], K.K_NUM] == 3:
                    hs[o, h, K.H_B3] = 1
            set_height(hs, hf, cards, opts, o, h)


# ---------------------------------------------------------------------------------------------
# The kernel contract (sim/core/contract.py, docs/house-pattern.md): init_state,
# legal_actions_into and apply_inplace above, and these; copy_into and chance_rng are the
# contract's defaults.
register(TLWState, init_state=init_state, legal_actions_into=legal_actions_into,
         apply_inplace=apply_inplace,
         meta=dict(field="meta", phase=K.M_PHASE, over=K.PH_OVER, current=K.M_CUR,
                   n_players=K.M_NP))


@implements(TLWState, "scores_into")
@njit(cache=True)
def scores_into(s, out):
    """Total points per seat (spec §3.12), as if the game ended now."""
    pts = np.zeros((4, 6), np.int64)
    tb = np.zeros(4, np.int64)
    det = np.zeros((4, 6), np.int64)
    compute_points(s, pts, tb, det)
    for p in range(s.meta[K.M_NP]):
        out[p] = pts[p].sum()


@implements(TLWState, "win_shares_into")
@njit(cache=True)
def win_shares_into(s, out):
    """1/k for each of the k seats with the best (points, tie-break) of a finished game
    (spec §3.12, doc §7); all 0 while running."""
    n = s.meta[K.M_NP]
    pts = np.zeros((4, 6), np.int64)
    tb = np.zeros(4, np.int64)
    det = np.zeros((4, 6), np.int64)
    compute_points(s, pts, tb, det)
    k = 0
    for p in range(n):
        out[p] = 0.0
    if s.meta[K.M_PHASE] != K.PH_OVER or s.meta[K.M_END] != 1:
        return
    best = 0
    for p in range(1, n):
        sp, sb = pts[p].sum(), pts[best].sum()
        if sp > sb or (sp == sb and tb[p] > tb[best]):
            best = p
    for p in range(n):
        if pts[p].sum() == pts[best].sum() and tb[p] == tb[best]:
            k += 1
    for p in range(n):
        if pts[p].sum() == pts[best].sum() and tb[p] == tb[best]:
            out[p] = 1.0 / k


# ---------------------------------------------------------------------------------------------
# Determinization (the search bot's information sets; doc §11)
@implements(TLWState, "determinize")
@njit(cache=True, _nrt=False)
def determinize(s, seat, rng):
    """Resample, in place, what ``seat`` cannot see (doc §11), from the searcher's generator
    ``rng`` (uint64[1]); reseed the chance generator ``s.rng`` from ``rng``.

    Unknown building cards: the rivals' hands (without a committed card already revealed in
    the 2-player end), a rival's card set aside face down in a pass effect, the discard pile
    (face down, its size kept) and the building cards of the deck. They are laid out in
    ascending id order, shuffled with ``rng`` and dealt back: rivals' hands (seat order, sizes
    kept, a rival's committed card not yet revealed becomes its first dealt card), the rivals'
    passing cards, the discard pile, then the deck's building cards in shuffled order. The
    pigs not yet revealed go back into the deck where they can be: one (the bottom packet's,
    doc §3) uniformly among the bottom ``bottom_packet + 1`` slots still in the deck, the others
    uniformly among the slots above. The deck's slots above its top are zeroed. No allocation:
    the discard flags and the deck's array are the scratch.
    """
    meta = s.meta
    deck = s.deck
    hands = s.hands
    discard = s.discard
    sa = s.seat
    n = meta[K.M_NP]
    dn = meta[K.M_DECKN]
    hidden_commit = meta[K.M_STAGE] == K.ST_FINAL2P and meta[K.M_RSTEP] < 2
    # 1. every unknown building card flagged in ``discard``; d = the discard pile's size
    d = 0
    for c in range(K.NBUILD):
        d += discard[c]
    u = 3 - meta[K.M_NPIGS]  # pigs still in the deck
    for j in range(dn):
        if deck[j] < K.NBUILD:
            discard[deck[j]] = 1
    for p in range(n):
        if p == seat:
            continue
        keep = -1 if hidden_commit else sa[p, K.S_COMMIT]
        for i in range(sa[p, K.S_HN]):
            if hands[p, i] != keep:
                discard[hands[p, i]] = 1
        if sa[p, K.S_PASS] >= 0:
            discard[sa[p, K.S_PASS]] = 1
    # 2. laid out ascending in deck[:m], flags cleared, shuffled
    m = 0
    for c in range(K.NBUILD):
        if discard[c] == 1:
            deck[m] = c
            m += 1
            discard[c] = 0
    shuffle(rng, deck, m)
    # 3. dealt from the top: the rivals' hands and passing cards, then the discard pile
    for p in range(n):
        if p == seat:
            continue
        keep = -1 if hidden_commit else sa[p, K.S_COMMIT]
        hn = sa[p, K.S_HN]
        sa[p, K.S_HN] = 0
        if keep >= 0:
            hand_add(hands, sa, p, keep)
        first = True
        while sa[p, K.S_HN] < hn:
            m -= 1
            c = deck[m]
            hand_add(hands, sa, p, c)
            if first and hidden_commit and sa[p, K.S_COMMIT] >= 0:
                sa[p, K.S_COMMIT] = c
            first = False
        for i in range(hn, K.HAND_CAP):
            hands[p, i] = 0
        if sa[p, K.S_PASS] >= 0:
            m -= 1
            sa[p, K.S_PASS] = deck[m]
    for _ in range(d):
        m -= 1
        discard[deck[m]] = 1
    # 4. the deck: m = dn - u building cards in deck[:m]; the pigs inserted from the top down
    b = dn - u  # == m
    pb = -1  # the bottom packet's pig slot
    p1 = -1  # the upper pigs' slots
    p2 = -1
    g0 = -1  # the unrevealed pig ids, shuffled: g0 goes to the bottom slot
    g1 = -1
    g2 = -1
    if u > 0:
        for q in range(3):
            revealed = False
            for i in range(meta[K.M_NPIGS]):
                revealed |= s.pigs[i] == K.PIG0 + q
            if not revealed:
                if g0 < 0:
                    g0 = K.PIG0 + q
                elif g1 < 0:
                    g1 = K.PIG0 + q
                else:
                    g2 = K.PIG0 + q
        # shuffle (g0, g1, g2)[:u] as rng.shuffle would
        if u == 3:
            j = rand_below(rng, 3)
            if j == 0:
                g0, g2 = g2, g0
            elif j == 1:
                g1, g2 = g2, g1
        if u >= 2:
            j = rand_below(rng, 2)
            if j == 0:
                g0, g1 = g1, g0
        zp = s.consts[K.C_PACKET] + 1  # the bottom packet: bottom_packet cards and a pig
        pb = rand_below(rng, min(zp, dn))
        if u >= 2:
            top = dn - zp
            p1 = zp + rand_below(rng, top)
            if u == 3:
                p2 = zp + rand_below(rng, top - 1)
                if p2 >= p1:
                    p2 += 1
    j = b - 1
    for pos in range(dn - 1, -1, -1):
        if pos == pb:
            deck[pos] = g0
        elif pos == p1:
            deck[pos] = g1
        elif pos == p2:
            deck[pos] = g2
        else:
            deck[pos] = deck[j]
            j -= 1
    for pos in range(dn, deck.shape[0]):
        deck[pos] = 0
    s.rng[0] = next_u64(rng)
