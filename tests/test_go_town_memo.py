"""Go Town's memo: the seats' public observation log of their END_TURN positions
(sim/go_town/kernels.py ``memo_record``, docs/games/go_town.md section 8.1).

Hand-built positions with the exact record words after an END_TURN, the count of cards taken
by THIEF / MASTER, the ring of MEMO_HJ records, the determinization and the dict form; and a
property check over random games."""

import random

import numpy as np

import sim
from sim.go_town import constants as K
from tests.test_reference_go_town import blank, fl

GAME = sim.get_game("go-town")
TYPE = {n: k for k, n in enumerate(K.CARD_NAMES) if k}


def bits(*names):
    return sum(1 << (TYPE[n] if isinstance(n, str) else n) for n in names)


def rec(s, p, j):
    """Record ``j`` of seat ``p``: (mask, board, out)."""
    r = K.MEMO_REC + 3 * j
    return tuple(int(x) for x in s.memo[p, r: r + 3])


def board(hn, nf, top_dog, most):
    return hn | (nf << 8) | (top_dog << 16) | (most << 24)


def test_layout_constants():
    assert (K.MEMO_HJ, K.MEMO_W, K.MEMO_N, K.MEMO_TAKEN, K.MEMO_REC) == (6, 20, 0, 1, 2)
    assert (K.MR_MASK, K.MR_BOARD, K.MR_OUT) == (0, 1, 2)
    s = GAME.new_state(3, 1)
    assert s._fields.index("memo") == s._fields.index("played") + 1
    assert s.memo.shape == (K.MAXP, K.MEMO_W) and s.memo.dtype == np.int64
    assert not s.memo.any()


def test_two_players_steal_numbers_and_specials():
    """The rival's top floor is an unguarded 3+6 and it holds cards; the ender's top floor is
    guarded, its ground floor not; a dog on the rival's ground floor."""
    d = blank(2)
    d["hands"] = [{"1": 1}, {"5": 2}]
    d["buildings"] = [[fl("2", "7"), fl("4", "5", dogs=1)], [fl("1", "8", dogs=1), fl("3", "6")]]
    d["played"] = [{"2": 1, "7": 1, "4": 1, "5": 1, "DOG": 1}, {"1": 1, "8": 1}]
    d["deck"] = ["1", "1"]
    s = GAME.apply_action(GAME.position_from_dict(d), K.A_END)
    mask, brd, out = rec(s, 0, 0)
    assert mask == (bits(3, 6, "DOG", "BONE", "DRILL", "WRECK", "MILK", "DONUT", "THIEF",
                         "MASTER") | 1 << K.MF_BONE_LOW)
    assert not mask & (1 << K.MF_DOG_OWN_TOP) and not mask & (1 << K.MF_BONE_TOP)
    assert brd == board(1, 2, 1, 2)
    assert out == 5
    assert s.memo[0, K.MEMO_N] == 1 and s.memo[0, K.MEMO_TAKEN] == 0
    assert not s.memo[1].any()
    # the record was written before the refill: seat 0 now holds 3 cards
    assert s.hands[0].sum() == 3


def test_question_mark_and_flags_three_players():
    """Seat 1's top floor: 4 + ? (locked 5), unguarded; seat 2's top floor guarded (a bone on
    a rival's top), the ender's own top floor unguarded (a dog on its top)."""
    d = blank(3)
    d["hands"] = [{"DRILL": 1, "2": 1}, {}, {"1": 1}]
    d["buildings"] = [[fl("1", "8")], [fl("4", "?", 4, 5)], [fl("2", "7", dogs=1)]]
    d["deck"] = ["1", "1", "1"]
    s0 = GAME.position_from_dict(d)
    s = GAME.apply_action(s0, K.A_END)
    mask, brd, out = rec(s, 0, 0)
    # steal slot 0 (value 4) with a 5; the ? (value 5) with a 4 or with a ?
    assert mask == (bits(4, 5, "?", "DOG", "BONE", "DRILL", "WRECK", "MILK", "DONUT",
                         "THIEF", "MASTER") | 1 << K.MF_DOG_OWN_TOP | 1 << K.MF_BONE_TOP)
    assert brd == board(2, 1, 0, 1)
    assert out == 0
    # D5 routes off: the ? slot pays nothing
    s = GAME.apply_action(GAME.position_from_dict(
        {**d, "options": {**d["options"], "qm_steal_by_qm": False,
                          "qm_steal_by_number": False}}), K.A_END)
    assert rec(s, 0, 0)[0] == (bits(5, "DOG", "BONE", "DRILL", "WRECK", "MILK", "DONUT",
                                    "THIEF", "MASTER")
                               | 1 << K.MF_DOG_OWN_TOP | 1 << K.MF_BONE_TOP)
    # no rival holds a card: no THIEF, no MASTER
    d2 = dict(d, hands=[{"DRILL": 1, "2": 1}, {}, {}])
    s = GAME.apply_action(GAME.position_from_dict(d2), K.A_END)
    assert rec(s, 0, 0)[0] == (bits(4, 5, "?", "DOG", "BONE", "DRILL", "WRECK", "MILK",
                                    "DONUT") | 1 << K.MF_DOG_OWN_TOP | 1 << K.MF_BONE_TOP)


def test_options_shape_the_mask():
    """top_only bones (no bone on a lower floor), no_stack skips (a skipping rival takes no
    milkshake; the donut needs a calm one), cap_gain at the hand limit (no THIEF, no MASTER),
    dog_placement top_only with a guarded top (no DOG)."""
    d = blank(2, bone_target="top_only", skip_stacking="no_stack", hand_limit_mode="cap_gain",
              dog_placement="top_only")
    d["hands"] = [{"1": 5, "2": 4}, {"5": 1}]
    d["buildings"] = [[fl("2", "7"), fl("4", "5", dogs=1)], [fl("1", "8", dogs=1), fl("3", "6")]]
    d["pending_skips"] = [0, 1]
    s = GAME.apply_action(GAME.position_from_dict(d), K.A_END)
    mask, brd, out = rec(s, 0, 0)
    assert mask == bits(3, 6, "DRILL", "WRECK")
    assert brd == board(9, 2, 1, 2)
    # the same without the options: everything back, a bone on the rival's lower floor
    d = blank(2)
    d["hands"] = [{"1": 5, "2": 4}, {"5": 1}]
    d["buildings"] = [[fl("2", "7"), fl("4", "5", dogs=1)], [fl("1", "8", dogs=1), fl("3", "6")]]
    d["pending_skips"] = [0, 1]
    s = GAME.apply_action(GAME.position_from_dict(d), K.A_END)
    assert rec(s, 0, 0)[0] == (bits(3, 6, "DOG", "BONE", "DRILL", "WRECK", "MILK", "DONUT",
                                    "THIEF", "MASTER") | 1 << K.MF_BONE_LOW)


def test_taken_counts_thief_and_master():
    d = blank(3)
    d["hands"] = [{"THIEF": 1, "MASTER": 1, "1": 1}, {"5": 2, "DRILL": 1}, {"6": 1}]
    d["buildings"] = [[fl("1", "8")], [fl("2", "7")], [fl("3", "6")]]
    d["deck"] = ["1", "2", "3", "4"]
    s = GAME.position_from_dict(d)
    s = GAME.apply_action(s, K.A_THIEF + 1)
    assert s.memo[:3, K.MEMO_TAKEN].tolist() == [0, 1, 0]
    s = GAME.apply_action(s, K.A_MASTER)  # one card from seat 1, one from seat 2
    assert s.memo[:3, K.MEMO_TAKEN].tolist() == [0, 2, 1]
    assert s.hands[0].sum() == 1 + 3 and s.hands[1].sum() == 1 and s.hands[2].sum() == 0
    s = GAME.apply_action(s, K.A_END)
    assert rec(s, 0, 0)[2] == 2  # THIEF and MASTER played
    assert rec(s, 0, 0)[1] == board(4, 1, 0, 1)
    # seat 1 drew a card; it ends its turn too: out = its taken cards
    assert int(s.meta[K.M_CUR]) == 1
    hn1 = int(s.hands[1].sum())
    s = GAME.apply_action(s, K.A_END)
    assert rec(s, 1, 0)[1:] == (board(hn1, 1, 0, 1), 2)
    assert s.memo[:3, K.MEMO_N].tolist() == [1, 1, 0]


def test_ring_wraps_after_memo_hj_records():
    d = blank(2)
    d["hands"] = [{"DRILL": 1}, {"DRILL": 1}]
    d["buildings"] = [[fl("1", "8")], [fl("2", "7")]]
    d["deck"] = ["1"] * 4 + ["2"] * 4 + ["3"] * 4 + ["4"] * 4
    s = GAME.position_from_dict(d)
    for _ in range(2 * (K.MEMO_HJ + 1)):
        s = GAME.apply_action(s, K.A_END)
    assert s.memo[:2, K.MEMO_N].tolist() == [K.MEMO_HJ + 1] * 2
    # seat 0 ended with 1 card, then (refilled to 3, a draw each turn up to the hand limit)
    # 4, 5, 6, 7, 8, 8; seat 1 with 2, then the same: record 6 overwrote record 0 in slot 0
    assert [rec(s, 0, j)[1] for j in range(K.MEMO_HJ)] == [
        board(h, 1, 0, 1) for h in (8, 4, 5, 6, 7, 8)]
    assert [rec(s, 1, j)[1] for j in range(K.MEMO_HJ)] == [
        board(h, 1, 0, 1) for h in (8, 4, 5, 6, 7, 8)]
    specials = bits("DOG", "DRILL", "WRECK", "MILK", "DONUT", "THIEF", "MASTER")
    for p, steal in ((0, bits(2, 7)), (1, bits(1, 8))):
        for j in range(K.MEMO_HJ):
            assert rec(s, p, j)[0] == specials | steal | 1 << K.MF_DOG_OWN_TOP
            assert rec(s, p, j)[2] == 0


def test_determinize_keeps_memo_and_the_dict_form_leaves_it_out():
    st = GAME.new_state(3, 4)
    rnd = random.Random(4)
    while int(st.memo[:3, K.MEMO_N].sum()) < 8:
        legal = GAME.legal_actions(st)
        st = GAME.apply_action(st, int(legal[rnd.randrange(len(legal))]))
    assert st.memo.any()
    for seat in range(3):
        dz = GAME.determinize(st, seat, 9)
        assert np.array_equal(dz.memo, st.memo)
    d = GAME.state_to_dict(st)
    assert "memo" not in d
    back = GAME.state_from_dict(d)
    assert not back.memo.any()
    assert GAME.state_to_dict(back) == d
    assert np.array_equal(GAME.copy_state(st).memo, st.memo)


def _mask_from_legal(st, c):
    """MR_MASK recomputed from the legal ids of ``st`` with one more card of every type in
    seat ``c``'s hand (the same sets as every type held, but under ``cap_gain``, where the
    hand size counts)."""
    s = GAME.copy_state(st)
    s.hands[c, 1:] += 1
    legal = set(GAME.legal_actions(s).tolist())
    n = int(s.meta[K.M_NP])
    nf = s.n_floors
    m = 0
    for a in legal:
        if K.A_STEAL <= a < K.A_DOG:
            i = a - K.A_STEAL
            v, slot, by_qm = i // 4, (i // 2) % 2, i % 2
            m |= 1 << (K.QM if by_qm else 9 - int(s.values[v, nf[v] - 1, slot]))
        for lo, hi, t in ((K.A_DOG, K.A_BONE, K.DOG), (K.A_BONE, K.A_DRILL, K.BONE),
                          (K.A_DRILL, K.A_WRECK, K.DRILL), (K.A_WRECK, K.A_MILK, K.WRECK),
                          (K.A_MILK, K.A_THIEF, K.MILK), (K.A_THIEF, K.A_DONUT, K.THIEF),
                          (K.A_DONUT, K.A_MASTER, K.DONUT), (K.A_MASTER, K.A_MASTER + 1,
                                                              K.MASTER)):
            if lo <= a < hi:
                m |= 1 << t
    if nf[c] > 0 and K.A_DOG + K.MAXF * c + nf[c] - 1 in legal:
        m |= 1 << K.MF_DOG_OWN_TOP
    for v in range(n):
        if v == c or nf[v] == 0:
            continue
        top = int(nf[v]) - 1
        if K.A_BONE + K.MAXF * v + top in legal:
            m |= 1 << K.MF_BONE_TOP
        if s.dogs[v, top] == 0 and any(K.A_BONE + K.MAXF * v + f in legal for f in range(top)):
            m |= 1 << K.MF_BONE_LOW
    return m


def _out(s, p):
    return int(s.played[p].sum() + s.memo[p, K.MEMO_TAKEN])


def test_random_games_property():
    """Over 300 random games (2-4 players, a few rule options): MEMO_N is the seat's number
    of END_TURNs in phase play, the taken counts are the cards THIEF and MASTER moved, the
    newest record holds the ender's hand size, floors and out count at its END_TURN, and no
    record's out count exceeds the seat's current one; its mask is the one the legal ids give
    with every card type added to the hand (but under cap_gain, where the hand size counts)."""
    rnd = random.Random(17)
    variants = [{}, {"hand_limit_mode": "discard_to_8"}, {"win_check": "end_of_turn"},
                {"hand_limit_mode": "cap_gain", "skip_stacking": "no_stack"},
                {"allow_dead_plays": True, "dog_on_others": True, "bone_on_own": True}]
    games = 0
    ends = 0
    for g in range(300):
        n = 2 + g % 3
        options = variants[g % len(variants)]
        st = GAME.new_state(n, 1000 + g, options)
        count = [0] * n
        taken = 0
        while not GAME.is_terminal(st):
            legal = GAME.legal_actions(st)
            a = int(legal[rnd.randrange(len(legal))])
            c = int(st.meta[K.M_CUR])
            play = int(st.meta[K.M_PHASE]) == K.PH_PLAY
            hn = int(st.hands[c].sum())
            nf = int(st.n_floors[c])
            out = _out(st, c)
            before = int(st.hands[c].sum())
            nxt = GAME.apply_action(st, a)
            if a in range(K.A_THIEF, K.A_DONUT) or a == K.A_MASTER:
                taken += int(nxt.hands[c].sum()) - before + 1
            if a == K.A_END and play:
                count[c] += 1
                ends += 1
                j = (count[c] - 1) % K.MEMO_HJ
                mask, brd, o = rec(nxt, c, j)
                assert brd & 0xFF == hn and (brd >> 8) & 0xFF == nf
                assert o == out
                assert mask & ~((1 << K.NT) - 2 | 7 << 20) == 0
                if options.get("hand_limit_mode") != "cap_gain":
                    assert mask == _mask_from_legal(st, c)
            st = nxt
            assert st.memo[:n, K.MEMO_N].tolist() == count
            assert int(st.memo[:n, K.MEMO_TAKEN].sum()) == taken
            for p in range(n):
                for j in range(min(count[p], K.MEMO_HJ)):
                    assert rec(st, p, j)[2] <= _out(st, p)
            assert not st.memo[n:].any()
        games += 1
    assert games == 300 and ends > 3000


def test_batch_loop_records_only_with_a_search_seat():
    """The batch loop writes the memo in a game with a search seat (its bot may read it) and
    not in one without (``apply_arrays``' ``record``: nothing reads it there); the playouts
    never write it. The scratch state keeps the last game's arrays."""
    for names, seats, want in ((["greedy"], [0, 0], False), (["search", "greedy"], [0, 1], True)):
        s = GAME._alloc(GAME.resolve_options({}))
        codes, params = GAME.bots.params_matrix(names)
        params = params.copy()
        params[codes == 9, 0] = 4  # a small search budget
        n = 1
        out = [np.zeros(n, np.int64) for _ in range(5)]
        GAME.bots.run_games(s, 0, n, np.uint64(5), 2, np.array([seats], np.int64), codes,
                            params, *out, np.zeros((n, 2), np.int64),
                            np.zeros((n, 2, K.NT), np.int64), np.zeros(n, np.uint64),
                            np.zeros((n, 2, 2), np.int64), np.zeros(K.NUM_ACTIONS, np.int8),
                            np.full(n, -1, np.int64))
        assert out[1][0] > 10  # decisions
        assert bool(s.memo[:2, K.MEMO_N].sum() > 0) == want
        if want:
            for p in range(2):
                assert 0 < s.memo[p, K.MEMO_N] <= out[0][0]
                for j in range(min(int(s.memo[p, K.MEMO_N]), K.MEMO_HJ)):
                    assert rec(s, p, j)[2] <= _out(s, p)
