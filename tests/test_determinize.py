"""The determinization kernels (issue 14, item 2): every registered game, 2-4 players where
allowed, positions reached by random play from several seeds (early, middle, near the end).

For a seat ``p`` and a position ``A``:
- the information set: a state ``B`` that differs from ``A`` only in what ``p`` cannot see
  (``B = determinize(A, p, other seed)``, and a game's own direct change of hidden items) gives
  ``determinize(A, p, r) == determinize(B, p, r)`` array by array;
- the determinized state keeps ``p``'s view (the game's ``view``, tests/games/<package>.py:
  every public quantity and ``p``'s own hidden items, from the state dict; the whole state of
  a game that declares perfect information), passes ``check_invariants``, and keeps the legal
  actions when ``p`` is the seat to act;
- it plays to the end by random play (Python interface and the compiled ``play_out``);
- the hidden part changes across seeds (a no-op determinize fails), and nothing but the
  chance generator changes in a game that declares perfect information (``Game.information``).
Each game's hidden items are listed in docs/games/<game>.md, "Hidden information and
determinization".
"""

import random

import numpy as np
import pytest

import sim
from sim.core.errors import UserError
from tests import games as H

GAMES = sim.list_games()
SEEDS = (1, 2, 3)
FRACTIONS = (0.0, 0.1, 0.5, 0.9)


# ---- positions ---------------------------------------------------------------------------------
def _positions(gid):
    """(n_players, seed, state) reached by random play at each of FRACTIONS of a game."""
    game = sim.get_game(gid)
    out = []
    for n in range(game.min_players, game.max_players + 1):
        for seed in SEEDS:
            st = game.new_state(n, seed)
            rnd = random.Random(seed)
            trace = [st]
            while not game.is_terminal(st):
                legal = game.legal_actions(st)
                st = game.apply_action(st, int(legal[rnd.randrange(len(legal))]))
                trace.append(st)
            for f in FRACTIONS:
                out.append((n, seed, trace[min(int(f * len(trace)), len(trace) - 2)]))
    return out


_CACHE: dict = {}


def positions(gid):
    if gid not in _CACHE:
        _CACHE[gid] = _positions(gid)
    return _CACHE[gid]


def _eq(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


# ---- the tests ---------------------------------------------------------------------------------
@pytest.mark.parametrize("gid", GAMES)
def test_registered_and_python_entry(gid):
    game = sim.get_game(gid)
    st = game.new_state(game.min_players, 5)
    before = game.copy_state(st)
    d = game.determinize(st, 0, 7)
    assert _eq(before, st), "determinize changed the state it was given"
    assert _eq(d, game.determinize(st, 0, 7))
    for bad in (-1, game.min_players, 1.0, True, "0"):
        with pytest.raises(UserError, match="seat must be"):
            game.determinize(st, bad, 1)
    with pytest.raises(UserError, match="seed must be"):
        game.determinize(st, 0, "1")


@pytest.mark.parametrize("gid", GAMES)
def test_information_set(gid):
    """Two states ``seat`` cannot tell apart give the same determinization."""
    game = sim.get_game(gid)
    rnd = random.Random(11)
    swaps = 0
    for n, seed, st in positions(gid):
        for seat in range(n):
            r = 1000 * seed + seat
            a = game.determinize(st, seat, r)
            b_states = [game.determinize(st, seat, r + 1), game.determinize(st, seat, r + 2)]
            swap = H.swap(game, st, seat, rnd)
            if swap is not None:
                game.check_invariants(swap)
                b_states.append(swap)
                swaps += 1
            for b in b_states:
                assert H.view(game, game.state_to_dict(b), seat) == \
                    H.view(game, game.state_to_dict(st), seat)
                assert _eq(a, game.determinize(b, seat, r)), (n, seed, seat)
    assert swaps > 0 or game.information == "perfect", \
        "the direct change of hidden items was never tried"


@pytest.mark.parametrize("gid", GAMES)
def test_keeps_view_invariants_and_legal_actions(gid):
    game = sim.get_game(gid)
    for n, seed, st in positions(gid):
        view = {seat: H.view(game, game.state_to_dict(st), seat) for seat in range(n)}
        cur = game.current_player(st)
        for seat in range(n):
            d = game.determinize(st, seat, 77 * seed + seat)
            game.check_invariants(d)
            assert H.view(game, game.state_to_dict(d), seat) == view[seat], (n, seed, seat)
            assert game.is_terminal(d) == game.is_terminal(st)
            assert game.current_player(d) == cur
            if seat == cur:
                assert np.array_equal(game.legal_actions(d), game.legal_actions(st))
            # the dict round trip holds (the state is a legal position)
            assert game.state_to_dict(game.state_from_dict(game.state_to_dict(d))) == \
                game.state_to_dict(d)


@pytest.mark.parametrize("gid", GAMES)
def test_determinized_states_play_to_the_end(gid):
    from strategies import common

    game = sim.get_game(gid)
    codes, params = game.bots.params_matrix(["random"])
    for i, (n, seed, st) in enumerate(positions(gid)):
        seat = i % n
        d = game.determinize(st, seat, seed + 31 * i)
        rnd = random.Random(i)
        steps = 0
        while not game.is_terminal(d):
            legal = game.legal_actions(d)
            d = game.apply_action(d, int(legal[rnd.randrange(len(legal))]))
            steps += 1
            assert steps <= game.max_game_length({})
        game.check_invariants(d)
        # the compiled playout over the contract from a determinized state
        d2 = game.determinize(st, seat, seed + 31 * i)
        legal = np.empty(game.num_actions, np.int32)
        common.play_out(d2, codes, params, np.zeros(4, np.int64), legal, game.bot_rng(i),
                        game.max_game_length({}))
        assert game.is_terminal(d2)
        game.check_invariants(d2)


@pytest.mark.parametrize("gid", GAMES)
def test_hidden_part_changes_with_the_seed(gid):
    """Over a handful of seeds the determinized states differ (beyond the chance generator)
    in positions with hidden items; and the chance generator is always reseeded."""
    game = sim.get_game(gid)
    changed = 0
    tried = 0
    for n, _seed, st in positions(gid):
        if game.is_terminal(st):
            continue
        for seat in range(n):
            ds = [game.determinize(st, seat, r) for r in range(6)]
            assert len({int(d.rng[0]) if hasattr(d, "rng") else 0 for d in ds}) == 6
            dicts = []
            for d in ds:
                dd = game.state_to_dict(d)
                dd.pop("rng", None)
                dicts.append(repr(dd))
            tried += 1
            changed += len(set(dicts)) > 1
    assert tried > 0
    if game.information == "perfect":  # nothing hidden: only the generator is reseeded
        assert changed == 0, (changed, tried)
    else:  # most positions have something hidden (a rival's hand, the deck order, ...)
        assert changed >= tried // 2, (changed, tried)


# rule options whose hidden information differs (each game's DETERMINIZE_OPTIONS: the draft
# variants, the 2-player dummy placed by its holder, smaller hands, the eager reshuffle)
OPTION_CASES = [(gid, {}) for gid in GAMES] + [
    (gid, o) for gid in GAMES for o in H.determinize_options(sim.get_game(gid))]


@pytest.mark.parametrize("gid,options", OPTION_CASES,
                         ids=[f"{g}-{','.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
                              for g, o in OPTION_CASES])
def test_every_position_of_a_game(gid, options):
    """Every position of one random game per player count (every phase the game reaches):
    the seat to act and one rival keep their views, the invariants hold, and the information
    set holds for ``B = determinize(A, seat, other seed)``."""
    game = sim.get_game(gid)
    for n in range(game.min_players, game.max_players + 1):
        st = game.new_state(n, 100 + n, options)
        rnd = random.Random(n)
        i = 0
        while not game.is_terminal(st):
            cur = game.current_player(st)
            for seat in (cur, (cur + 1 + i) % n):
                a = game.determinize(st, seat, i)
                game.check_invariants(a)
                assert H.view(game, game.state_to_dict(a), seat) == \
                    H.view(game, game.state_to_dict(st), seat), (n, i, seat)
                b = game.determinize(st, seat, i + 1)
                assert _eq(game.determinize(b, seat, 5), game.determinize(st, seat, 5))
                if seat == cur:
                    assert np.array_equal(game.legal_actions(a), game.legal_actions(st))
            legal = game.legal_actions(st)
            st = game.apply_action(st, int(legal[rnd.randrange(len(legal))]))
            i += 1
