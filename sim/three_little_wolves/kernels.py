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
from sim.core.contract import implements, meta_hooks
from sim.core.rng import rand_below, shuffle
from sim.three_little_wolves.constants import (
    A_BASE,
    A_COMMIT,
    A_DBASE,
    A_DDISC,
    A_DFLOOR,
    A_DISC,
    A_DNEW,
    A_PASS,
    A_PIGTIE,
    A_PLACE,
    A_WOLF,
    C_BONUS_PTS,
    C_COLLAPSE_PTS,
    C_EFFECT,
    C_HOUSE_PTS,
    C_PACKET,
    C_TOKEN,
    C_WOLF,
    D_BONUS_TIE,
    D_BUILT,
    D_COLLAPSED,
    D_SAVED_TIE,
    D_WOLVES,
    D_WOLVES_STANDING,
    DUMMY,
    E_HOUSE,
    E_LEFT,
    E_NONE,
    E_RIGHT,
    END_LIMIT,
    END_SCORED,
    H_B3,
    H_COL,
    H_HT,
    H_LB,
    H_NB,
    H_NF,
    H_NW,
    H_PIG,
    H_TOP,
    H_W0S,
    H_W0V,
    H_W1S,
    H_W1V,
    HAND_CAP,
    K_AFTER_TOKEN,
    K_AFTER_USE,
    K_COL,
    K_COMMIT_NEXT,
    K_DONE,
    K_END_ROUND,
    K_END_TURN,
    K_HOUSE_NEXT,
    K_ICON,
    K_MARK,
    K_NUM,
    K_PASS_NEXT,
    K_PLACE_TOKEN,
    K_RESOLVE_NEXT,
    K_REVEAL,
    K_START_ROUND,
    M_CUR,
    M_DCARD,
    M_DEC,
    M_DECKN,
    M_DRAWER,
    M_END,
    M_ESTEP,
    M_FLEFT,
    M_MUST,
    M_NOWN,
    M_NP,
    M_NPIGS,
    M_NTIE,
    M_PHASE,
    M_PIGCARD,
    M_RSTEP,
    M_STAGE,
    M_TP,
    M_TURN,
    M_UNDER,
    MAX_DECISIONS,
    MAXB,
    MAXF,
    MAXH,
    MAXO,
    MAXP,
    N_HF,
    N_META,
    N_SEATF,
    NBUILD,
    NCARD,
    O_B3_SAME,
    O_COLBASE_U,
    O_DUMMY_PIGS,
    O_DUMMY_POLICY,
    O_FINAL_WHITE_PASS,
    O_HAND,
    O_HEIGHT,
    O_KIDS,
    O_KIDS_TOKENS,
    O_LONE_BONUS,
    O_LONE_COLLAPSES,
    O_MARKS_COLLAPSED,
    O_PIG_DRAWER_FIRST,
    O_PIG_SAME_OWNER,
    O_PURE_DISC,
    O_TB_NET,
    O_TWO_SLOT,
    O_UNPLACED,
    O_WOLF_FREE,
    P_BONUSES,
    P_COLLAPSES,
    P_HOUSES,
    P_MARKS,
    P_PIGS,
    P_WOLVES,
    PH_COMMIT,
    PH_DUMMY,
    PH_HOUSE,
    PH_OVER,
    PH_PASS,
    PH_PIGTIE,
    PH_PLAY,
    PH_WOLF,
    PIG0,
    S_BUILD,
    S_COMMIT,
    S_DISCN,
    S_HN,
    S_PASS,
    S_WOLFN,
    S_WU,
    ST_FINAL,
    ST_FINAL2P,
    ST_NORMAL,
    ST_OVER,
    T_LEFT,
    T_LOST,
    T_PLACED,
    UNASSIGNED,
    W,
)


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
        meta=np.zeros(N_META, np.int64),
        rng=np.zeros(1, np.uint64),
        opts=opts.astype(np.int64).copy(),
        cards=cards.astype(np.int64).copy(),
        consts=consts.astype(np.int64).copy(),
        deck=np.zeros(NCARD, np.int64),
        hands=np.zeros((MAXP, HAND_CAP), np.int64),
        discard=np.zeros(NCARD, np.int64),
        pigs=np.zeros(3, np.int64),
        tokens=np.zeros(3, np.int64),
        tie=np.zeros(3, np.int64),
        seat=np.zeros((MAXP, N_SEATF), np.int64),
        hs=np.zeros((MAXO, MAXH, N_HF), np.int64),
        hf=np.zeros((MAXO, MAXH, MAXF), np.int64),
        hb=np.zeros((MAXO, MAXH, MAXB), np.int64),
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
    n = seat[p, S_HN]
    i = n
    while i > 0 and hands[p, i - 1] > c:
        hands[p, i] = hands[p, i - 1]
        i -= 1
    hands[p, i] = c
    seat[p, S_HN] = n + 1


@njit(cache=True, _nrt=False, forceinline=True)
def hand_remove(hands, seat, p, c):
    """Remove card ``c`` from seat ``p``'s hand (it must be there)."""
    n = seat[p, S_HN]
    j = 0
    for i in range(n):
        if hands[p, i] != c:
            hands[p, j] = hands[p, i]
            j += 1
    seat[p, S_HN] = j


@njit(cache=True, _nrt=False, forceinline=True)
def n_houses(hs, o):
    """Houses of owner ``o`` (counted from the house arrays: a house has >= 1 floor)."""
    k = 0
    for h in range(MAXH):
        if hs[o, h, H_NF] > 0:
            k += 1
    return k


@njit(cache=True, _nrt=False, forceinline=True)
def has_colour_o(hs, o, col):
    """True if owner ``o`` has a house of colour ``col``."""
    for h in range(MAXH):
        if hs[o, h, H_NF] > 0 and hs[o, h, H_COL] == col:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def height_of(hs, hf, cards, opts, o, h):
    """Height of house (o, h) (§3.9, doc §4)."""
    nf = hs[o, h, H_NF]
    c = nf + hs[o, h, H_NB]
    if opts[O_HEIGHT] == 0:
        v = cards[hf[o, h, nf - 1], K_ICON]
        if v > 0:
            return c - 1 + v
    return c


@njit(cache=True, _nrt=False, forceinline=True)
def can_floor(hs, cards, o, h, c):
    """Card ``c`` legal on top of existing house (o, h) (§3.5a, doc §4)."""
    if cards[c, K_NUM] <= hs[o, h, H_TOP]:
        return False
    col = cards[c, K_COL]
    hc = hs[o, h, H_COL]
    if col == W or hc == col:
        return True
    return hc == UNASSIGNED and not has_colour_o(hs, o, col)


@njit(cache=True, _nrt=False, forceinline=True)
def can_new(hs, cards, o, c):
    """Card ``c`` legal as the first card of a new house of owner ``o`` (§3.5a)."""
    if n_houses(hs, o) >= MAXH:
        return False
    col = cards[c, K_COL]
    return col == W or not has_colour_o(hs, o, col)


@njit(cache=True, _nrt=False, forceinline=True)
def can_base(hs, cards, opts, o, h, c):
    """Card ``c`` legal as a basement under house (o, h) (§3.5b, doc §4)."""
    k = cards[c, K_NUM]
    if k > 3 or k <= hs[o, h, H_LB]:
        return False
    col = cards[c, K_COL]
    hc = hs[o, h, H_COL]
    if col == W or hc == col:
        return True
    return opts[O_COLBASE_U] == 1 and hc == UNASSIGNED and not has_colour_o(hs, o, col)


@njit(cache=True, _nrt=False, forceinline=True)
def wolf_target_ok(hs, opts, n_own, p, o, h):
    """Seat ``p`` may put a wolf on house (o, h) (§3.6, doc §4)."""
    if o >= n_own or hs[o, h, H_NF] == 0:
        return False
    if opts[O_KIDS] == 1:
        if o != p:
            return False
    elif o == p:
        return False
    nw = hs[o, h, H_NW]
    cap = 1
    if opts[O_TWO_SLOT] == 0:
        if hs[o, h, H_B3] == 1:
            cap = 2
    elif hs[o, h, H_NB] > 0:
        cap = 2
    if nw >= cap:
        return False
    if nw == 1 and opts[O_B3_SAME] == 0 and hs[o, h, H_W0S] == p:
        return False
    return True


@njit(cache=True, _nrt=False, forceinline=True)
def wolf_value_ok(seat, opts, p, v):
    """Seat ``p`` may place its wolf ``v`` (0..2) now (§3.6, option wolf_order_free)."""
    if seat[p, S_WU + v] == 1:
        return False
    if opts[O_WOLF_FREE] == 0:
        for u in range(v):
            if seat[p, S_WU + u] == 0:
                return False
    return True


@njit(cache=True, _nrt=False, forceinline=True)
def wolf_targets(hs, opts, n_own, p):
    """Bit set of the houses seat ``p`` may put a wolf on: bit 3o + h (rules of
    ``wolf_target_ok``, written out)."""
    kids = opts[O_KIDS] == 1
    b3rule = opts[O_TWO_SLOT] == 0
    same = opts[O_B3_SAME] == 1
    targets = 0
    for o in range(n_own):
        if kids != (o == p):
            continue
        for h in range(MAXH):
            if hs[o, h, H_NF] == 0:
                break
            nw = hs[o, h, H_NW]
            ok = nw == 0
            if nw == 1:
                two = hs[o, h, H_B3] == 1 if b3rule else hs[o, h, H_NB] > 0
                ok = two and (same or hs[o, h, H_W0S] != p)
            if ok:
                targets |= 1 << (3 * o + h)
    return targets


@njit(cache=True, _nrt=False, forceinline=True)
def any_wolf_move(hs, seat, opts, n_own, p):
    """True if seat ``p`` has some legal (wolf value, target) pair (rules of
    ``wolf_value_ok``/``wolf_target_ok``)."""
    if seat[p, S_WU] + seat[p, S_WU + 1] + seat[p, S_WU + 2] == 3:
        return False
    return wolf_targets(hs, opts, n_own, p) != 0


@njit(cache=True, _nrt=False, forceinline=True)
def set_height(hs, hf, cards, opts, o, h):
    hs[o, h, H_HT] = height_of(hs, hf, cards, opts, o, h)


@njit(cache=True, _nrt=False, forceinline=True)
def put_floor(hs, hf, cards, opts, o, h, c):
    """Card ``c`` on top of house (o, h); ``h`` = number of houses starts a new one."""
    col = cards[c, K_COL]
    nf = hs[o, h, H_NF]
    if nf == 0:
        for k in range(N_HF):
            hs[o, h, k] = 0
        hs[o, h, H_COL] = UNASSIGNED if col == W else col
    elif col != W and hs[o, h, H_COL] == UNASSIGNED:
        hs[o, h, H_COL] = col
    hf[o, h, nf] = c
    hs[o, h, H_NF] = nf + 1
    hs[o, h, H_TOP] = cards[c, K_NUM]
    set_height(hs, hf, cards, opts, o, h)


@njit(cache=True, _nrt=False, forceinline=True)
def put_base(hs, hf, hb, cards, opts, o, h, c):
    """Card ``c`` as the new lowest basement of house (o, h)."""
    col = cards[c, K_COL]
    if col != W and hs[o, h, H_COL] == UNASSIGNED:
        hs[o, h, H_COL] = col
    nb = hs[o, h, H_NB]
    hb[o, h, nb] = c
    hs[o, h, H_NB] = nb + 1
    k = cards[c, K_NUM]
    hs[o, h, H_LB] = k
    if k == 3:
        hs[o, h, H_B3] = 1
    set_height(hs, hf, cards, opts, o, h)


@njit(cache=True, _nrt=False, forceinline=True)
def put_wolf(hs, seat, consts, p, v, o, h):
    """Seat ``p``'s wolf ``v`` onto house (o, h)."""
    nw = hs[o, h, H_NW]
    val = consts[C_WOLF + v]
    if nw == 0:
        hs[o, h, H_W0S] = p
        hs[o, h, H_W0V] = val
    else:
        hs[o, h, H_W1S] = p
        hs[o, h, H_W1V] = val
    hs[o, h, H_NW] = nw + 1
    seat[p, S_WU + v] = 1


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
    meta[M_NP] = n_players
    meta[M_NOWN] = n_players if n_players >= 3 else 3
    meta[M_DRAWER] = -1
    meta[M_PIGCARD] = -1
    meta[M_DCARD] = -1
    meta[M_UNDER] = -1
    meta[M_MUST] = 0 if n_players == 2 else -1
    for p in range(MAXP):
        seat[p, S_PASS] = -1
        seat[p, S_COMMIT] = -1
    for i in range(NBUILD):
        pile[i] = i
    shuffle(rng, pile, NBUILD)
    top = NBUILD
    for p in range(n_players):
        for _ in range(opts[O_HAND]):
            top -= 1
            hand_add(hands, seat, p, pile[top])
    npk = consts[C_PACKET]
    for i in range(npk):
        top -= 1
        deck[i] = pile[top]
    j = rand_below(rng, 3)
    deck[npk] = PIG0 + j
    shuffle(rng, deck, npk + 1)
    off = npk + 1
    for i in range(top):
        deck[off + i] = pile[i]
    k = top
    for q in range(3):
        if q != j:
            deck[off + k] = PIG0 + q
            k += 1
    shuffle_at(rng, deck, off, top + 2)
    meta[M_DECKN] = off + top + 2
    start_turn(meta, 0)


@njit(cache=True, _nrt=False, forceinline=True)
def start_turn(meta, p):
    """A real player's turn begins (doc §5)."""
    meta[M_TURN] += 1
    meta[M_TP] = p
    meta[M_CUR] = p
    meta[M_PHASE] = PH_PLAY


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
    for h in range(MAXH):
        if hs[p, h, H_NF] == 0:
            break
        nh += 1
        col = hs[p, h, H_COL]
        if col != UNASSIGNED:
            mask |= 1 << col
        if h == 0:
            c0 = col
            t0 = hs[p, h, H_TOP]
            b0 = hs[p, h, H_LB]
        elif h == 1:
            c1 = col
            t1 = hs[p, h, H_TOP]
            b1 = hs[p, h, H_LB]
        else:
            c2 = col
            t2 = hs[p, h, H_TOP]
            b2 = hs[p, h, H_LB]
    # a missing house has top and last basement 1 << 30: no card goes on or under it
    u0 = c0 == UNASSIGNED
    u1 = c1 == UNASSIGNED
    u2 = c2 == UNASSIGNED
    room = nh < MAXH
    colbase_u = opts[O_COLBASE_U] == 1
    fb = 0
    sel = 0
    hn = seat[p, S_HN]
    for i in range(hn):
        c = hands[p, i]
        if only >= 0 and c != only:
            continue
        sel |= 1 << i
        k = cards[c, K_NUM]
        col = cards[c, K_COL]
        white = col == W
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
    if (fb == 0 and wolf == 0) or opts[O_PURE_DISC] == 1:
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
        return A_BASE + 3 * hands[p, nonneg(i)] + (j - 3 * i)
    k -= nf
    ns = popcount(sel)
    if wolf == 1:
        if k < ns:
            return A_WOLF + hands[p, nth_bit(sel, k)]
        k -= ns
    return A_DISC + hands[p, nth_bit(sel, k)]


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
        out[n] = A_BASE + 3 * hands[p, nonneg(i)] + (b - 3 * i)
        n += 1
    if wolf == 1:
        m = sel
        while m != 0:
            out[n] = A_WOLF + hands[p, lowest_bit(m)]
            m &= m - 1
            n += 1
    if disc == 1:
        m = sel
        while m != 0:
            out[n] = A_DISC + hands[p, lowest_bit(m)]
            m &= m - 1
            n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def wolf_values(seat, opts, p):
    """Bit set of the wolves ``v`` (0..2) seat ``p`` may place now (``wolf_value_ok``)."""
    vs = 0
    for v in range(3):
        vs |= np.int64(seat[p, S_WU + v] == 0) << v
    if opts[O_WOLF_FREE] == 0:
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
            out[n] = A_PLACE + 12 * v + lowest_bit(m)
            m &= m - 1
            n += 1
    return n


@njit(cache=True, _nrt=False)
def dummy_actions_into(opts, cards, hs, x, out, n):
    """Phase dummy: the legal placements of card ``x`` for the dummy (doc §5.3)."""
    n0 = n
    col = cards[x, K_COL]
    for h in range(MAXH):
        if hs[DUMMY, h, H_NF] > 0 and can_floor(hs, cards, DUMMY, h, x):
            out[n] = A_DFLOOR + h
            n += 1
    if n_houses(hs, DUMMY) < MAXH:
        for c in range(3):
            if (col == W or col == c) and not has_colour_o(hs, DUMMY, c):
                out[n] = A_DNEW + c
                n += 1
    if cards[x, K_NUM] <= 3:
        for h in range(MAXH):
            if hs[DUMMY, h, H_NF] > 0 and can_base(hs, cards, opts, DUMMY, h, x):
                out[n] = A_DBASE + h
                n += 1
    if n == n0:
        out[n] = A_DDISC
        n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def legal_into(meta, opts, cards, hands, tie, seat, hs, out):
    """Write the legal action ids into ``out`` (int32[>= 665]) ascending; return the count."""
    ph = meta[M_PHASE]
    if ph == PH_OVER:
        return 0
    p = nonneg(meta[M_CUR])
    if ph == PH_PLAY:
        only = -1
        if meta[M_STAGE] == ST_FINAL2P:
            only = seat[p, S_COMMIT]
        return play_actions_into(opts, cards, hands, seat, hs, meta[M_NOWN], p, only, out, 0)
    if ph == PH_WOLF or ph == PH_HOUSE:
        return place_actions_into(opts, seat, hs, meta[M_NOWN], p, out, 0)
    if ph == PH_PASS or ph == PH_COMMIT:
        base = A_PASS if ph == PH_PASS else A_COMMIT
        for i in range(seat[p, S_HN]):
            out[i] = base + hands[p, i]
        return seat[p, S_HN]
    if ph == PH_PIGTIE:
        for i in range(meta[M_NTIE]):
            out[i] = A_PIGTIE + tie[i]
        return meta[M_NTIE]
    return dummy_actions_into(opts, cards, hs, meta[M_DCARD], out, 0)


@njit(cache=True, _nrt=False, forceinline=True)
def random_legal(meta, opts, cards, hands, tie, seat, hs, out, rng):
    """``out[rand_below(rng, n)]`` after ``n = legal_into(.., out)`` (the random bot), mostly
    without listing the legal actions: the same draw and the same action."""
    ph = meta[M_PHASE]
    p = nonneg(meta[M_CUR])
    if ph == PH_PLAY:
        only = -1
        if meta[M_STAGE] == ST_FINAL2P:
            only = seat[p, S_COMMIT]
        fb, sel, wolf, disc = play_bits(opts, cards, hands, seat, hs, meta[M_NOWN], p, only)
        n = popcount(fb) + (wolf + disc) * popcount(sel)
        return nth_play(hands, p, fb, sel, wolf, rand_below(rng, n))
    if ph == PH_WOLF or ph == PH_HOUSE:
        targets = wolf_targets(hs, opts, meta[M_NOWN], p)
        vs = wolf_values(seat, opts, p)
        nt = popcount(targets)
        k = rand_below(rng, popcount(vs) * nt)
        v = nth_bit(vs, k // nt)
        return A_PLACE + 12 * v + nth_bit(targets, k - (k // nt) * nt)
    if ph == PH_PASS or ph == PH_COMMIT:
        base = A_PASS if ph == PH_PASS else A_COMMIT
        return base + hands[p, rand_below(rng, seat[p, S_HN])]
    if ph == PH_PIGTIE:
        return A_PIGTIE + tie[rand_below(rng, meta[M_NTIE])]
    n = dummy_actions_into(opts, cards, hs, meta[M_DCARD], out, 0)
    return out[rand_below(rng, n)]


# ---------------------------------------------------------------------------------------------
# pig tokens (§3.7.1, §3.8.1, doc §5.1)
@njit(cache=True, _nrt=False, forceinline=True)
def current_token(meta, opts, consts, tokens):
    """Index of the pig token the pig being resolved hands out, or -1 if none is left."""
    if opts[O_UNPLACED] == 0:
        t = meta[M_NPIGS] - 1
        return t if tokens[t] == T_LEFT else -1
    best = -1
    for t in range(3):
        if tokens[t] == T_LEFT and (best < 0 or consts[C_TOKEN + t] < consts[C_TOKEN + best]):
            best = t
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def token_eligible(meta, opts, hs, o, h):
    """House (o, h) may receive a pig token (§3.7.1, options)."""
    if hs[o, h, H_NF] == 0 or hs[o, h, H_PIG] != 0:
        return False
    if meta[M_NP] == 2 and o == DUMMY and opts[O_DUMMY_PIGS] == 0:
        return False
    if opts[O_KIDS] == 1 and opts[O_KIDS_TOKENS] == 0:
        return False
    return True


@njit(cache=True, _nrt=False, forceinline=True)
def give_token(hs, tokens, consts, t, o, h):
    hs[o, h, H_PIG] = consts[C_TOKEN + t]
    tokens[t] = T_PLACED


@njit(cache=True, _nrt=False)
def place_token(meta, opts, consts, tokens, hs, tie):
    """Hand the current pig token to the tallest eligible house (doc §5.1); may suspend."""
    t = current_token(meta, opts, consts, tokens)
    if t < 0:
        return K_AFTER_TOKEN
    n_own = meta[M_NOWN]
    best = -1
    for o in range(n_own):
        for h in range(MAXH):
            if token_eligible(meta, opts, hs, o, h) and hs[o, h, H_HT] > best:
                best = hs[o, h, H_HT]
    if best < 0:
        if opts[O_UNPLACED] == 0:
            tokens[t] = T_LOST
        return K_AFTER_TOKEN
    d = meta[M_DRAWER]
    start = d if opts[O_PIG_DRAWER_FIRST] == 1 else d + 1
    for i in range(n_own):
        o = (start + i) % n_own
        k = 0
        for h in range(MAXH):
            if token_eligible(meta, opts, hs, o, h) and hs[o, h, H_HT] == best:
                tie[k] = h
                k += 1
        if k == 0:
            continue
        if k == 1:
            give_token(hs, tokens, consts, t, o, tie[0])
            return K_AFTER_TOKEN
        if (meta[M_NP] == 2 and o == DUMMY) or opts[O_PIG_SAME_OWNER] == 1:
            bh = tie[0]
            for j in range(1, k):
                if hs[o, tie[j], H_COL] < hs[o, bh, H_COL]:
                    bh = tie[j]
            give_token(hs, tokens, consts, t, o, bh)
            return K_AFTER_TOKEN
        meta[M_NTIE] = k
        meta[M_PHASE] = PH_PIGTIE
        meta[M_CUR] = o
        return K_DONE
    return K_AFTER_TOKEN


# ---------------------------------------------------------------------------------------------
# the dummy (§3.10, doc §5.3)
@njit(cache=True, _nrt=False)
def neutral_dummy_action(opts, cards, hs, x):
    """The neutral placement of card ``x`` as a DUMMY_* action id (§3.10.5)."""
    col = cards[x, K_COL]
    k = cards[x, K_NUM]
    if col != W:
        hc = -1
        for h in range(MAXH):
            if hs[DUMMY, h, H_NF] > 0 and hs[DUMMY, h, H_COL] == col:
                hc = h
        if hc >= 0 and k > hs[DUMMY, hc, H_TOP]:
            return A_DFLOOR + hc
        if hc < 0:
            if n_houses(hs, DUMMY) < MAXH:
                return A_DNEW + col
            return A_DDISC
        if k <= 3 and can_base(hs, cards, opts, DUMMY, hc, x):
            return A_DBASE + hc
        return A_DDISC
    # white: smallest positive gap, ties R < Y < G
    bh = -1
    bgap = 1 << 30
    for c in range(3):
        for h in range(MAXH):
            if hs[DUMMY, h, H_NF] > 0 and hs[DUMMY, h, H_COL] == c:
                gap = k - hs[DUMMY, h, H_TOP]
                if gap > 0 and gap < bgap:
                    bgap = gap
                    bh = h
    if bh >= 0:
        return A_DFLOOR + bh
    if n_houses(hs, DUMMY) < MAXH:
        for c in range(3):
            if not has_colour_o(hs, DUMMY, c):
                return A_DNEW + c
    if k <= 3:
        bh = -1
        bht = 1 << 30
        for c in range(3):
            for h in range(MAXH):
                if hs[DUMMY, h, H_NF] > 0 and hs[DUMMY, h, H_COL] == c:
                    if can_base(hs, cards, opts, DUMMY, h, x) and hs[DUMMY, h, H_HT] < bht:
                        bht = hs[DUMMY, h, H_HT]
                        bh = h
        if bh >= 0:
            return A_DBASE + bh
    return A_DDISC


@njit(cache=True, _nrt=False)
def dummy_apply(meta, opts, cards, discard, hs, hf, hb, x, a):
    """Apply DUMMY_* action ``a`` to card ``x``; return the next continuation (doc §5.3)."""
    placed = True
    if a == A_DDISC:
        discard[x] = 1
        placed = False
    elif a >= A_DBASE:
        put_base(hs, hf, hb, cards, opts, DUMMY, a - A_DBASE, x)
    elif a >= A_DNEW:
        h = n_houses(hs, DUMMY)
        put_floor(hs, hf, cards, opts, DUMMY, h, x)
        hs[DUMMY, h, H_COL] = a - A_DNEW
    else:
        put_floor(hs, hf, cards, opts, DUMMY, a - A_DFLOOR, x)
    white = placed and cards[x, K_COL] == W
    if meta[M_STAGE] == ST_NORMAL:
        if white:
            meta[M_MUST] = 1 - meta[M_MUST]
        return K_END_TURN
    if white and opts[O_FINAL_WHITE_PASS] == 1:
        meta[M_MUST] = 1 - meta[M_MUST]
    return K_END_ROUND


@njit(cache=True, _nrt=False)
def dummy_reveal(meta, opts, cards, discard, hs, hf, hb, x):
    """The dummy's card ``x``: placed at once (neutral) or offered to the holder (doc §5.3)."""
    if opts[O_DUMMY_POLICY] == 0:
        return dummy_apply(meta, opts, cards, discard, hs, hf, hb, x,
                           neutral_dummy_action(opts, cards, hs, x))
    meta[M_DCARD] = x
    meta[M_PHASE] = PH_DUMMY
    meta[M_CUR] = meta[M_MUST]
    return K_DONE


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
        for h in range(MAXH):
            if hs[o, h, H_NF] == 0:
                continue
            c = hs[o, h, H_COL]
            if c == UNASSIGNED:
                continue
            ht = hs[o, h, H_HT]
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
    n = meta[M_NP]
    n_own = meta[M_NOWN]
    zero(pts)
    zero(tb)
    zero(det)
    colour_stats(hs, n_own, cst)
    collapse_pts = consts[C_COLLAPSE_PTS]
    for o in range(n_own):
        for h in range(MAXH):
            if hs[o, h, H_NF] == 0:
                continue
            c = hs[o, h, H_COL]
            ht = hs[o, h, H_HT]
            cc = c if c < 3 else 0
            cnt = cst[cc, 0]
            mn = cst[cc, 1]
            cmn = cst[cc, 2]
            mx = cst[cc, 3]
            cmx = cst[cc, 4]
            bonus = False
            if c == UNASSIGNED:
                stand = False
            elif cnt == 1:
                stand = opts[O_LONE_COLLAPSES] == 0
                bonus = opts[O_LONE_BONUS] == 1
            else:
                stand = not (ht == mn and cmn == 1)
                bonus = ht == mx and cmx == 1
            nw = hs[o, h, H_NW]
            for w in range(nw):
                q = hs[o, h, H_W0S + 2 * w]
                if stand:
                    val = hs[o, h, H_W0V + 2 * w]
                    pts[q, P_WOLVES] += val
                    tb[q] += val
                    det[q, D_WOLVES_STANDING] += 1
                else:
                    pts[q, P_WOLVES] += collapse_pts
                det[q, D_WOLVES] += 1
            if o >= n:
                continue  # the dummy scores nothing
            det[o, D_BUILT] += 1
            if stand:
                pts[o, P_HOUSES] += consts[C_HOUSE_PTS]
                if hs[o, h, H_PIG] > 0:
                    pts[o, P_PIGS] += hs[o, h, H_PIG]
            else:
                pts[o, P_COLLAPSES] += collapse_pts
                det[o, D_COLLAPSED] += 1
                if hs[o, h, H_PIG] > 0:
                    pts[o, P_PIGS] += collapse_pts
            if bonus:
                pts[o, P_BONUSES] += consts[C_BONUS_PTS]
            if stand or opts[O_MARKS_COLLAPSED] == 1:
                pts[o, P_MARKS] += cards[hf[o, h, hs[o, h, H_NF] - 1], K_MARK]
            if c != UNASSIGNED and cnt >= 2:
                if ht == mn and cmn >= 2:
                    det[o, D_SAVED_TIE] += 1
                if ht == mx and cmx >= 2:
                    det[o, D_BONUS_TIE] += 1
    if opts[O_TB_NET] == 1:
        for p in range(n):
            tb[p] = pts[p, P_WOLVES]
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def finish_game(meta, reason):
    meta[M_STAGE] = ST_OVER
    meta[M_PHASE] = PH_OVER
    meta[M_CUR] = -1
    meta[M_END] = reason


# ---------------------------------------------------------------------------------------------
# the flow driver (doc §5)
@njit(cache=True, _nrt=False, forceinline=True)
def run_flow_arrays(meta, opts, cards, consts, deck, hands, discard, pigs, tokens, tie, seat,
                    hs, hf, hb, k):
    """Run continuation ``k`` and its successors until a decision is pending or the game ends."""
    n = meta[M_NP]
    while k != K_DONE:
        if k == K_AFTER_USE:
            p = meta[M_TP]
            st = meta[M_STAGE]
            if st == ST_NORMAL:
                k = K_REVEAL
            elif st == ST_FINAL:
                meta[M_FLEFT] -= 1
                if meta[M_FLEFT] == 0:
                    finish_game(meta, END_SCORED)
                else:
                    start_turn(meta, (p + 1) % n)
                k = K_DONE
            else:
                seat[p, S_COMMIT] = -1
                meta[M_RSTEP] += 1
                k = K_RESOLVE_NEXT
        elif k == K_REVEAL:
            if meta[M_DECKN] == 0:
                k = K_END_TURN
                continue
            meta[M_DECKN] -= 1
            x = deck[nonneg(meta[M_DECKN])]
            tp = meta[M_TP]
            if x >= PIG0:
                pigs[meta[M_NPIGS]] = x
                meta[M_NPIGS] += 1
                meta[M_PIGCARD] = x
                meta[M_DRAWER] = tp if tp < n else meta[M_MUST]
                k = K_PLACE_TOKEN
            elif tp < n:
                hand_add(hands, seat, tp, x)
                k = K_END_TURN
            else:
                k = dummy_reveal(meta, opts, cards, discard, hs, hf, hb, x)
        elif k == K_PLACE_TOKEN:
            k = place_token(meta, opts, consts, tokens, hs, tie)
        elif k == K_AFTER_TOKEN:
            if meta[M_NPIGS] == 3:
                meta[M_UNDER] = meta[M_DECKN]
                d = meta[M_DRAWER]
                meta[M_DRAWER] = -1
                meta[M_PIGCARD] = -1
                if n >= 3:
                    meta[M_STAGE] = ST_FINAL
                    meta[M_FLEFT] = 2 * n
                    start_turn(meta, (d + 1) % n)
                    k = K_DONE
                else:
                    meta[M_STAGE] = ST_FINAL2P
                    k = K_START_ROUND
                continue
            e = consts[C_EFFECT + meta[M_PIGCARD] - PIG0]
            if opts[O_KIDS] == 1:
                e = E_NONE
            meta[M_ESTEP] = 0
            if e == E_LEFT or e == E_RIGHT:
                k = K_PASS_NEXT
            elif e == E_HOUSE:
                k = K_HOUSE_NEXT
            else:
                meta[M_PIGCARD] = -1
                meta[M_DRAWER] = -1
                k = K_REVEAL
        elif k == K_PASS_NEXT:
            d = meta[M_DRAWER]
            k = K_REVEAL
            while meta[M_ESTEP] < n:
                q = (d + meta[M_ESTEP]) % n
                if seat[q, S_HN] > 0:
                    meta[M_PHASE] = PH_PASS
                    meta[M_CUR] = q
                    k = K_DONE
                    break
                meta[M_ESTEP] += 1
            if k == K_DONE:
                continue
            e = consts[C_EFFECT + meta[M_PIGCARD] - PIG0]
            for q in range(n):
                c = seat[q, S_PASS]
                if c < 0:
                    continue
                if n == 2:
                    r = 1 - q
                elif e == E_LEFT:
                    r = (q + 1) % n
                else:
                    r = (q + n - 1) % n
                hand_add(hands, seat, r, c)
                seat[q, S_PASS] = -1
            meta[M_PIGCARD] = -1
            meta[M_DRAWER] = -1
            meta[M_ESTEP] = 0
        elif k == K_HOUSE_NEXT:
            d = meta[M_DRAWER]
            k = K_REVEAL
            while meta[M_ESTEP] < n:
                q = (d + meta[M_ESTEP]) % n
                if any_wolf_move(hs, seat, opts, meta[M_NOWN], q):
                    meta[M_PHASE] = PH_HOUSE
                    meta[M_CUR] = q
                    k = K_DONE
                    break
                meta[M_ESTEP] += 1
            if k == K_REVEAL:
                meta[M_PIGCARD] = -1
                meta[M_DRAWER] = -1
                meta[M_ESTEP] = 0
        elif k == K_END_TURN:
            tp = meta[M_TP]
            k = K_DONE
            if n >= 3:
                start_turn(meta, (tp + 1) % n)
            elif tp == 0:
                start_turn(meta, 1)
            elif tp == 1:
                meta[M_TP] = DUMMY
                k = K_REVEAL
            else:
                start_turn(meta, 0)
        elif k == K_START_ROUND:
            if seat[0, S_HN] == 0 and seat[1, S_HN] == 0:
                finish_game(meta, END_SCORED)
                k = K_DONE
            else:
                meta[M_RSTEP] = 0
                k = K_COMMIT_NEXT
        elif k == K_COMMIT_NEXT:
            k = K_RESOLVE_NEXT
            while meta[M_RSTEP] < 2:
                q = meta[M_MUST] if meta[M_RSTEP] == 0 else 1 - meta[M_MUST]
                if seat[q, S_HN] > 0:
                    meta[M_PHASE] = PH_COMMIT
                    meta[M_CUR] = q
                    k = K_DONE
                    break
                meta[M_RSTEP] += 1
        elif k == K_RESOLVE_NEXT:
            k = K_DONE
            while meta[M_RSTEP] < 4:
                q = meta[M_MUST] if meta[M_RSTEP] == 2 else 1 - meta[M_MUST]
                if seat[q, S_COMMIT] >= 0:
                    start_turn(meta, q)
                    break
                meta[M_RSTEP] += 1
            if meta[M_RSTEP] == 4:
                if meta[M_DECKN] > 0:
                    meta[M_DECKN] -= 1
                    meta[M_TP] = DUMMY
                    k = dummy_reveal(meta, opts, cards, discard, hs, hf, hb,
                                     deck[nonneg(meta[M_DECKN])])
                else:
                    k = K_END_ROUND
        elif k == K_END_ROUND:
            meta[M_MUST] = 1 - meta[M_MUST]
            k = K_START_ROUND


# ---------------------------------------------------------------------------------------------
# apply (doc §6)
@njit(cache=True, _nrt=False, forceinline=True)
def apply_arrays(meta, opts, cards, consts, deck, hands, discard, pigs, tokens, tie, seat, hs,
                 hf, hb, a):
    """Apply the legal action ``a`` in place (doc §6)."""
    ph = meta[M_PHASE]
    p = nonneg(meta[M_CUR])
    meta[M_DEC] += 1
    k = K_DONE
    if ph == PH_PLAY:
        if a < A_BASE:
            c = a // 4
            h = a % 4
            hand_remove(hands, seat, p, c)
            if h == 3:
                h = n_houses(hs, p)
            put_floor(hs, hf, cards, opts, p, h, c)
            seat[p, S_BUILD] += 1
            k = K_AFTER_USE
        elif a < A_WOLF:
            c = (a - A_BASE) // 3
            hand_remove(hands, seat, p, c)
            put_base(hs, hf, hb, cards, opts, p, (a - A_BASE) % 3, c)
            seat[p, S_BUILD] += 1
            k = K_AFTER_USE
        elif a < A_PLACE:
            c = a - A_WOLF
            hand_remove(hands, seat, p, c)
            discard[c] = 1
            seat[p, S_WOLFN] += 1
            meta[M_PHASE] = PH_WOLF
        else:
            c = a - A_DISC
            hand_remove(hands, seat, p, c)
            discard[c] = 1
            seat[p, S_DISCN] += 1
            k = K_AFTER_USE
    elif ph == PH_WOLF or ph == PH_HOUSE:
        i = a - A_PLACE
        put_wolf(hs, seat, consts, p, i // 12, (i % 12) // 3, i % 3)
        if ph == PH_WOLF:
            k = K_AFTER_USE
        else:
            meta[M_ESTEP] += 1
            k = K_HOUSE_NEXT
    elif ph == PH_PASS:
        c = a - A_PASS
        hand_remove(hands, seat, p, c)
        seat[p, S_PASS] = c
        meta[M_ESTEP] += 1
        k = K_PASS_NEXT
    elif ph == PH_PIGTIE:
        give_token(hs, tokens, consts, current_token(meta, opts, consts, tokens), p,
                   a - A_PIGTIE)
        meta[M_NTIE] = 0
        k = K_AFTER_TOKEN
    elif ph == PH_DUMMY:
        x = meta[M_DCARD]
        meta[M_DCARD] = -1
        k = dummy_apply(meta, opts, cards, discard, hs, hf, hb, x, a)
    elif ph == PH_COMMIT:
        seat[p, S_COMMIT] = a - A_COMMIT
        meta[M_RSTEP] += 1
        k = K_COMMIT_NEXT
    run_flow_arrays(meta, opts, cards, consts, deck, hands, discard, pigs, tokens, tie, seat, hs,
                    hf, hb, k)
    if meta[M_PHASE] != PH_OVER and meta[M_DEC] >= MAX_DECISIONS:
        finish_game(meta, END_LIMIT)


# ---------------------------------------------------------------------------------------------
# entry points over a TLWState (the Python API; they unpack the state once and delegate)
@njit(cache=True)
def init_state(s, n_players, seed):
    """Set up a new game in the arrays of ``s`` (``init_arrays``). ``seed``: uint64."""
    pile = np.empty(NBUILD, np.int64)
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
                 s.tie, s.seat, s.hs, s.hf, s.hb, a)


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
    for o in range(MAXO):
        for h in range(MAXH):
            nf = hs[o, h, H_NF]
            if nf == 0:
                continue
            hs[o, h, H_TOP] = cards[hf[o, h, nf - 1], K_NUM]
            nb = hs[o, h, H_NB]
            hs[o, h, H_LB] = cards[hb[o, h, nb - 1], K_NUM] if nb > 0 else 0
            hs[o, h, H_B3] = 0
            for b in range(nb):
                if cards[hb[o, h, b], K_NUM] == 3:
                    hs[o, h, H_B3] = 1
            set_height(hs, hf, cards, opts, o, h)


# ---------------------------------------------------------------------------------------------
# The kernel contract (sim/core/contract.py, docs/house-pattern.md): init_state,
# legal_actions_into and apply_inplace above, and these; copy_into and chance_rng are the
# contract's defaults.
implements(TLWState, "init_state")(init_state)
implements(TLWState, "legal_actions_into")(legal_actions_into)
implements(TLWState, "apply_inplace")(apply_inplace)
meta_hooks(TLWState, "meta", phase=M_PHASE, over=PH_OVER, current=M_CUR, n_players=M_NP)





@implements(TLWState, "scores_into")
@njit(cache=True)
def scores_into(s, out):
    """Total points per seat (spec §3.12), as if the game ended now."""
    pts = np.zeros((4, 6), np.int64)
    tb = np.zeros(4, np.int64)
    det = np.zeros((4, 6), np.int64)
    compute_points(s, pts, tb, det)
    for p in range(s.meta[M_NP]):
        out[p] = pts[p].sum()


@implements(TLWState, "win_shares_into")
@njit(cache=True)
def win_shares_into(s, out):
    """1/k for each of the k seats with the best (points, tie-break) of a finished game
    (spec §3.12, doc §7); all 0 while running."""
    n = s.meta[M_NP]
    pts = np.zeros((4, 6), np.int64)
    tb = np.zeros(4, np.int64)
    det = np.zeros((4, 6), np.int64)
    compute_points(s, pts, tb, det)
    k = 0
    for p in range(n):
        out[p] = 0.0
    if s.meta[M_PHASE] != PH_OVER or s.meta[M_END] != 1:
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
