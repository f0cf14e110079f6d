"""Each game's hooks for the generic suites, ``tests/games/<package>.py`` (the package of
``sim/<package>/``), found by the game's package name, never by a table of game ids:

- ``view(state_dict, seat)``: what ``seat`` sees (every public quantity and its own hidden
  items), and ``swap(game, state, seat, rnd)``: a state that differs only in what ``seat``
  cannot see (or None), for tests/test_determinize.py; ``DETERMINIZE_OPTIONS``: rule options
  whose hidden information differs. Needed exactly when the game declares imperfect
  information (``Game.information``); a perfect-information game's view is the whole state.
- ``invariants(state)``: the game's conservation laws in plain numpy, written apart from the
  compiled ``invariants`` kernel (tests/test_soak.py compares the two); raises AssertionError
  (or IndexError/ValueError on a value out of range) when a law is broken. Every game.
- ``EFFECT_FAMILIES``: the component families of its effects study (tests/test_effects.py);
  ``CRASH_CASES``: state dicts that must be refused (tests/test_hostile.py); ``BENCH_SCALE``:
  games per engine measurement of ``make bench`` relative to Go Town's (tests/bench.py).

A game without its hooks module fails these suites with the file to add; none is skipped."""

from __future__ import annotations

import importlib
from types import ModuleType


def package_of(game) -> str:
    """The game's package name: ``sim.<package>.game`` defines its class."""
    return type(game).__module__.split(".")[1]


def hooks(game) -> ModuleType:
    """``tests.games.<package>`` of ``game``. Raises AssertionError naming the file to add."""
    pkg = package_of(game)
    try:
        return importlib.import_module(f"{__name__}.{pkg}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{pkg}":
            raise
        raise AssertionError(f"{game.id}: no tests/games/{pkg}.py (the game's hooks for the "
                             "generic suites: invariants; view and swap when its information "
                             "is imperfect)") from None


def view(game, d: dict, seat: int):
    """What ``seat`` sees of the state dict ``d``: the game's ``view`` when its information is
    imperfect, else the whole state but the chance generator."""
    if game.information == "imperfect":
        return hooks(game).view(d, seat)
    d = dict(d)
    d.pop("rng", None)
    return d


def swap(game, st, seat: int, rnd):
    """The game's ``swap`` when its information is imperfect, else None (nothing is hidden)."""
    return hooks(game).swap(game, st, seat, rnd) if game.information == "imperfect" else None


def determinize_options(game) -> list[dict]:
    """Rule options whose hidden information differs ([] for perfect information)."""
    return list(hooks(game).DETERMINIZE_OPTIONS) if game.information == "imperfect" else []


def reach(game, n_players: int, seed: int, k: int):
    """The state after ``k`` decisions of the ``random`` bot in every seat (bot generator
    ``game.bot_rng(seed)``) from ``game.new_state(n_players, seed)``: a position that stays the
    same when the scripted bots change (tests/test_bots_<package>.py)."""
    s = game.new_state(n_players, seed)
    rng = game.bot_rng(seed)
    for _ in range(k):
        s = game.apply_action(s, game.choose_action(s, "random", rng))
    return s
