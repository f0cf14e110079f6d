"""Go Town's hooks for the rollout search (strategies/go_town/bots.py, session 11):
``allowed`` (no full-hand END_TURN where the playout bot plays a card) and ``plausible`` (a
determinization whose rival holds what ``attacker`` would have played on its last turn is
redrawn)."""

import numpy as np
import pytest

import sim
from sim.go_town import constants as K
from strategies.go_town import bots


def _state(turn):
    game = sim.get_game("go-town")
    s = game.new_state(2, 5)
    s.meta[K.M_TURN] = turn
    s.meta[K.M_CUR] = 0
    s.hands[:] = 0
    return game, s


def _plausible(s, params, k, seed=1):
    """``bots.plausible`` for seat 0, as the search calls it (its generator and scratch)."""
    return bots.plausible(s, np.int64(0), params, k, np.full(1, seed, np.uint64),
                          np.zeros(128, np.int64))


def _attacker_row():
    codes, params = bots.params_matrix(["attacker"])
    return params, 0


def test_allowed_vetoes_only_a_full_hand_pass_against_a_card_play():
    _, s = _state(5)
    s.hands[0, 1] = 1
    s.hands[0, 8] = 1
    s.hands[0, 2] = 6  # 8 cards: the hand limit
    assert not bots.allowed(s, np.int32(K.A_END), np.int32(1))
    assert bots.allowed(s, np.int32(K.A_END), np.int32(K.A_END))
    assert bots.allowed(s, np.int32(1), np.int32(K.A_END))
    s.hands[0, 2] = 5  # 7 cards: it draws next turn, so a pass changes the position
    assert bots.allowed(s, np.int32(K.A_END), np.int32(1))


def test_plausible_rejects_a_rival_hand_attacker_would_have_played():
    params, k = _attacker_row()
    _, s = _state(4)
    s.hands[1, 2] = 2
    s.hands[1, 3] = 2  # 4 cards, no pair summing to 9, no special card
    assert _plausible(s, params, k)
    s.hands[1, K.MILK] = 1
    assert not _plausible(s, params, k)
    s.hands[1, K.MILK] = 0
    s.hands[1, 7] = 1  # 2 + 7: a floor attacker builds
    assert not _plausible(s, params, k)
    # refill_to (3) cards or fewer: some may have been drawn after its END_TURN
    s.hands[1, :] = 0
    s.hands[1, 2] = 1
    s.hands[1, 7] = 1
    s.hands[1, K.THIEF] = 1
    assert _plausible(s, params, k)
    # before the rival's first turn nothing is known
    _, s = _state(1)
    s.hands[1, K.DONUT] = 1
    s.hands[1, 2] = 4
    assert _plausible(s, params, k)


def _rule(**kw):
    """A row of the own-seat rule's numbers (``bots.HOLD_NAMES``), zero but for ``kw``."""
    return np.array([float(kw.get(n, 0.0)) for n in bots.HOLD_NAMES])


def test_own_hold_worked_example():
    _, s = _state(6)
    s.n_floors[0] = 2
    s.dogs[0, 1] = 1  # its top floor guarded
    s.n_floors[1] = 3
    s.hands[0, 1] = 2
    s.hands[0, 8] = 1  # one 1+8 pair, a leftover 1
    s.hands[0, K.QM] = 1  # the ? pairs with the leftover: 2 pairs
    s.hands[0, K.MILK] = 1  # 5 cards
    s.meta[K.M_DECKN] = 20
    hn = np.array([5, 4, 0, 0], np.int64)
    # build: 1.0 - 0.5 x 2 floors - 0.1 x 3 rival floors + 0.4 (guarded) + 0.3 x 5 cards
    # - 0.8 x 2 pairs - 0.25 x 20 / 10 (the pile) + 1.0 x 6 / 10 (the turn) = 0.1: it holds
    p = _rule(hold_build_one=1.0, hold_build_my_fl=-0.5, hold_build_op_fl=-0.1,
              hold_build_my_dog=0.4, hold_build_my_h=0.3, hold_build_my_pairs=-0.8,
              hold_build_deck10=-0.25, hold_build_turn10=1.0)

    def hold(a, p=p, hn=hn):
        return bots.own_hold(np.int32(a), 0, s.meta, s.opts, s.consts, s.hands, s.dogs,
                             s.n_floors, s.skips, hn, p, 0)

    assert hold(1)
    p[bots.HOLD_NAMES.index("hold_build_one")] = 0.85  # -0.05: it builds
    assert not hold(1)
    assert not hold(K.A_BUILDQ + 1)  # a ? build: its own numbers (all 0)
    # MILK: its own numbers
    assert not hold(K.A_MILK)
    p[bots.HOLD_NAMES.index("hold_milk_my_qm")] = 0.1  # 0.1 x one ?
    assert hold(K.A_MILK)
    assert not hold(K.A_END)  # END_TURN is no card
    assert not hold(K.A_MILK, hn=np.array([8, 4, 0, 0], np.int64))  # a full hand never passes
    s.meta[K.M_NP] = 4  # 2 players only
    assert not hold(K.A_MILK)
    s.meta[K.M_NP] = 2
    assert not hold(K.A_MILK, p=_rule())  # with every number zero it never holds


def test_play_out_self_is_play_out_fast_without_a_rule_and_holds_with_one():
    from strategies.go_town.batch import play_out_fast, play_out_self
    from strategies.search import N_SEARCH

    game = sim.get_game("go-town")
    codes, params = bots.params_matrix(["search", "attacker"])
    k = int(params[0, bots.search.P_PROW])
    params[0, N_SEARCH:] = 0.0
    s = game.new_state(2, 3)
    a, b = game.copy_state(s), game.copy_state(s)
    ra = np.array([7], np.uint64)
    rb = np.array([7], np.uint64)
    da = play_out_fast(a, 1, params, k, ra, 1 << 30)
    db = play_out_self(b, 1, params, k, rb, 1 << 30, 0, 0)
    assert da == db and ra[0] == rb[0]
    assert (a.hands == b.hands).all() and (a.n_floors == b.n_floors).all()
    assert (a.meta == b.meta).all()
    # a rule that holds every build of seat 0: seat 0 builds only with a full hand
    params[0, N_SEARCH + bots.HOLD_NAMES.index("hold_build_one")] = 100.0
    params[0, N_SEARCH + bots.HOLD_NAMES.index("hold_buildq_one")] = 100.0
    c = game.copy_state(s)
    dc = play_out_self(c, 1, params, k, np.array([7], np.uint64), 1 << 30, 0, 0)
    assert (dc, c.n_floors[0]) != (da, a.n_floors[0])


def test_search_row_carries_the_own_seat_rule(tmp_path):
    from strategies.search import N_SEARCH

    spec = sim.get_game("go-town").strategy("search")
    assert spec.param_names[N_SEARCH:] == bots.HOLD_NAMES
    rule = bots.hold_rule()
    assert spec.params[N_SEARCH:] == tuple(rule.values())
    assert rule["hold_build_one"] != 0.0  # hold.json is read
    (tmp_path / bots.HOLD_FILE).write_text('{"milk": {"my_h": 0.5}}')
    assert bots.hold_rule(tmp_path)["hold_milk_my_h"] == 0.5
    assert sum(v != 0.0 for v in bots.hold_rule(tmp_path).values()) == 1
    (tmp_path / bots.HOLD_FILE).write_text('{"milk": {"hand": 0.5}}')
    with pytest.raises(KeyError):
        bots.hold_rule(tmp_path)


def test_own_hold_sums_hold_feature():
    """The straight-line sum of ``own_hold`` is the rule over ``hold_feature`` (what the lab
    logs and fits), feature by feature."""
    game = sim.get_game("go-town")
    rng = np.random.default_rng(5)
    for seed in range(4):
        s = game.new_state(2, seed)
        for _ in range(6 + 5 * seed):  # a few moves in: floors, dogs, a smaller pile
            legal = game.legal_actions(s)
            s = game.apply_action(s, int(legal[-1 if len(legal) > 1 else 0]))
        c = int(s.meta[K.M_CUR])
        hn = s.hands.sum(axis=1)[:4].astype(np.int64)
        x = np.array([bots.hold_feature(j, c, s.meta, s.opts, s.hands, s.dogs, s.n_floors,
                                        s.skips, hn) for j in range(bots.N_HF)])
        for _ in range(10):
            p = rng.normal(size=bots.N_HOLD)
            for a in (1, K.A_BUILDQ + 1, K.A_MILK, K.A_MASTER):
                k = int(bots.hold_category(np.int32(a)))
                want = p[k * bots.N_HF:(k + 1) * bots.N_HF] @ x > 0.0
                got = bots.own_hold(np.int32(a), c, s.meta, s.opts, s.consts, s.hands, s.dogs,
                                    s.n_floors, s.skips, hn, p, 0)
                assert got == (want and hn[c] < 8 and s.meta[K.M_PHASE] == K.PH_PLAY)


def _history(s, params, k, seed=1):
    """``bots.history_ok`` for the rival (seat 1) of the searching seat 0."""
    return bots.history_ok(s, np.int64(1), params, k, np.full(1, seed, np.uint64),
                           np.zeros(128, np.int64))


def _record(s, r, mask, hand, floors=0, top_dog=0, most=0, out=0):
    """Write one END_TURN record (the engine's memo words) for seat ``r`` in ``s``."""
    n = s.memo[r, K.MEMO_N]
    j = K.MEMO_REC + 3 * (n % K.MEMO_HJ)
    s.memo[r, j + K.MR_MASK] = mask
    s.memo[r, j + K.MR_BOARD] = hand | (floors << 8) | (top_dog << 16) | (most << 24)
    s.memo[r, j + K.MR_OUT] = out
    s.memo[r, K.MEMO_N] = n + 1


def _hand(s, r, cards):
    s.hands[r, :] = 0
    for c in cards:
        s.hands[r, c] += 1


def test_history_worked_example():
    """``history_ok`` (session 17): the rival's sampled hand against its END_TURN records."""
    params, k = _attacker_row()
    _, s = _state(6)
    bit = lambda *ts: sum(1 << t for t in ts)  # noqa: E731
    # one record: with 4 cards in hand it passed where a 3 or a 6 stole a floor and a THIEF or
    # a MILK was legal
    _record(s, 1, bit(3, 6, K.THIEF, K.MILK), hand=4)
    _hand(s, 1, [1, 1, 2, 2])
    assert _history(s, params, k)
    _hand(s, 1, [1, 1, 2, 3])  # every card kept since: the 3 would have stolen
    assert not _history(s, params, k)
    # a card played since (out 1): 3 of its 4 cards were held then; whether the 3 is among
    # them is the sample's own draw, both occur
    s.played[1, 5] = 1
    seen = {_history(s, params, k, seed) for seed in range(1, 40)}
    assert seen == {True, False}
    # four cards out since: nothing of that hand is left to test
    s.played[1, 5] = 4
    assert _history(s, params, k)
    s.played[1, 5] = 0
    # a DOG only counts where attacker plays it, on its own top floor
    _, s = _state(6)
    _record(s, 1, bit(K.DOG), hand=4, floors=2)
    _hand(s, 1, [1, 1, 2, K.DOG])
    assert _history(s, params, k)
    s.memo[1, K.MEMO_REC + K.MR_MASK] |= 1 << K.MF_DOG_OWN_TOP
    assert not _history(s, params, k)
    # with a full hand (8, the hand limit) attacker plays any legal card (unstick)
    _, s = _state(6)
    _record(s, 1, bit(K.DOG), hand=8, floors=2)
    _hand(s, 1, [1, 1, 1, 2, 2, 2, 3, K.DOG])
    assert not _history(s, params, k)
    # a pair: built unless its hold rule keeps it (a guarded top, within hold_gap 4 of the
    # target 5, no rival within threat_gap 1 of it, the pairs not reaching the target)
    _, s = _state(6)
    _record(s, 1, 0, hand=4, floors=3, top_dog=1, most=2)
    _hand(s, 1, [2, 7, 1, 1])
    assert _history(s, params, k)  # 3 floors + 1 pair < 5: kept
    _, s = _state(6)
    _record(s, 1, 0, hand=4, floors=4, top_dog=1, most=2)
    _hand(s, 1, [2, 7, 1, 1])
    assert not _history(s, params, k)  # 4 + 1 reaches 5: built
    _, s = _state(6)
    _record(s, 1, 0, hand=4, floors=3, top_dog=1, most=4)
    _hand(s, 1, [2, 7, 1, 1])
    assert not _history(s, params, k)  # a rival one floor from the target: built
    # plausible: the records where the memo has them (the board of the rival's END_TURN, not
    # the board now: here it has no floor now, and the pair is still one it kept), else the
    # hand now against the board now (last_turn_ok, a state made from a dict mid-game)
    _, s = _state(6)
    _record(s, 1, 0, hand=4, floors=3, top_dog=1, most=2)
    _hand(s, 1, [2, 7, 1, 1])
    assert _history(s, params, k) and _plausible(s, params, k)
    s.memo[:] = 0
    assert not _plausible(s, params, k)
    s.n_floors[1] = 3
    s.dogs[1, 2] = 1
    assert _plausible(s, params, k)
    # the ring: only the last MEMO_HJ records are read, the most recent first
    _, s = _state(6)
    _record(s, 1, bit(3), hand=4)
    for _ in range(K.MEMO_HJ):
        _record(s, 1, 0, hand=4)
    _hand(s, 1, [1, 1, 2, 3])
    assert _history(s, params, k)  # the record with the 3 was overwritten


def test_determinize_of_a_determinization_is_one_of_the_state():
    """The search's retries determinize the previous try's state again (no copy): Go Town's
    ``determinize`` depends only on what the seat sees and the generator."""
    from sim.go_town.kernels import determinize
    game = sim.get_game("go-town")
    for seed in range(5):
        s = game.new_state(2, seed)
        for _ in range(7):
            legal = game.legal_actions(s)
            s = game.apply_action(s, legal[len(legal) // 2])
        seat = np.int64(s.meta[K.M_CUR])
        d1 = game.copy_state(s)
        determinize(d1, seat, np.full(1, 99, np.uint64))
        d2 = game.copy_state(d1)
        determinize(d2, seat, np.full(1, 7, np.uint64))
        d3 = game.copy_state(s)
        determinize(d3, seat, np.full(1, 7, np.uint64))
        for f in s._fields:
            assert np.array_equal(getattr(d2, f), getattr(d3, f)), f
