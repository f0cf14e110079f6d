"""Bot plumbing written once for every game: parameter vectors and the parameter matrix.

A game's bots (``strategies/<package>/``) are numba kernels selected by an integer ``code``,
each reading its numbers from one row of a ``float64`` parameter matrix. A named strategy is a
``StrategySpec``: its code and its parameter vector (data, not code), so a designer adds a bot
by adding a row.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from numba import njit
from numba.extending import overload

from sim.core import contract, fnptr
from sim.core.game import StrategySpec
from sim.core.rng import rand_below
from strategies import search

__all__ = ["StrategySpec", "TUNED_FILE", "add_tuned", "bot_choose", "bots_for", "param_vector",
           "params_matrix", "pick_near_best", "play_out", "tuned_rows"]

# The rows ``boardsim train-bot`` tuned (analysis/lab/train_bot.py), as data beside the
# hand-set ones: ``strategies/<package>/tuned.json``, one entry per tuned strategy.
TUNED_FILE = "tuned.json"


def tuned_rows(package_dir: str | Path) -> dict:
    """The entries of the package's ``tuned.json`` (name -> {"base", "params", ...}); {} when
    there is none."""
    path = Path(package_dir) / TUNED_FILE
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def add_tuned(strategies: dict, package_dir: str | Path) -> None:
    """Add each tuned row of the package's ``tuned.json`` to ``strategies`` as a named bot:
    the base strategy's code and row with the tuned numbers (``params``: name -> value)
    overlaid. Raises KeyError for an unknown base strategy or parameter."""
    for name, entry in tuned_rows(package_dir).items():
        base = strategies[entry["base"]]
        strategies[name] = StrategySpec(
            name, base.code,
            f"{entry['base']} with its parameter row tuned by self-play (boardsim train-bot, "
            f"{entry.get('players', '?')} players; docs/bots.md)",
            param_vector(base.param_names, dict(zip(base.param_names, base.params)),
                         **entry["params"]),
            base.param_names)


def param_vector(names: Sequence[str], base: Mapping[str, float], **kw: float) -> tuple:
    """The parameter vector in the order of ``names``: ``base`` (every name's default)
    overlaid with ``kw``. Raises KeyError naming an unknown parameter."""
    values = {k: float(base.get(k, 0.0)) for k in names}
    for k, v in kw.items():
        if k not in values:
            raise KeyError(f"unknown bot parameter {k!r}; allowed: {', '.join(names)}")
        values[k] = float(v)
    return tuple(values[k] for k in names)


def params_matrix(strategies: Mapping[str, StrategySpec], n_params: int,
                  names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``int64[k]`` and parameter rows ``float64[k, n_params]`` of the named
    strategies (a row of zeros for a bot without parameters, such as ``random``). When a
    search bot is named (strategies/search.py), its playout bot's row is appended after the
    ``k`` rows (so the arrays may be longer than ``names``; row ``i`` is still ``names[i]``)."""
    codes = np.array([strategies[n].code for n in names], dtype=np.int64)
    params = np.zeros((len(names), n_params), dtype=np.float64)
    for i, n in enumerate(names):
        if strategies[n].params:
            params[i] = strategies[n].params
    return search.resolve_rows(strategies, list(names), codes, params)


# ---- the bots' compiled entry point for generic code ------------------------------------------
# ``bot_choose(code, params, k, s, legal, n, rng)`` is resolved at compile time, by the type of
# the state ``s``, to the ``choose`` of the game's bot package (registered with ``bots_for``),
# exactly as sim/core/contract.py resolves the rules' entry points. Generic compiled code (the
# playout loop below, a tree search) is written once for every game.
_CHOOSE: dict[type, object] = {}


def bots_for(state_cls: type, choose) -> None:
    """Register the ``@njit`` bot entry point ``choose`` for states of ``state_cls``."""
    _CHOOSE[state_cls] = choose


def install_bots(state_cls: type, strategies: dict, n_params: int, choose_scripted,
                 num_actions: int, playout: str, budget: int, search_values=None,
                 search_playout: str | None = None, search_extra=None):
    """Install a game's bots, written once for every game: register ``choose_scripted`` (the
    game's scripted-only entry point, ``(code, params, k, s, legal, n, rng)``) and its action
    count with the search bot, list the search bot ``mcts`` in ``strategies`` (once the game
    registers the contract's ``determinize``: it never plays with hidden information in view)
    with ``playout`` (a name already in ``strategies``) as its playout bot and ``budget``
    playouts per decision, and the strong search bot ``search`` (rollout policy improvement
    over the scripted bots, ``search.SEARCH_DEFAULTS`` overlaid with ``search_values``; only
    when the game's rows have ``search.N_SEARCH`` columns; its playouts are played by
    ``search_playout`` when given, else by ``playout``; ``search_extra``, name -> number, the
    game's own numbers in its row after the search parameters, ``search.strategy``), and
    register ``search.choose`` as the game's bot entry point.
    Returns ``search.choose`` (the game package's ``choose``). Raises KeyError for an unknown
    playout bot, ValueError when ``n_params`` is too small for the search parameters."""
    if search.available(state_cls):
        strategies["mcts"] = search.strategy(
            "mcts", strategies, n_params, playout=playout,
            doc="information-set Monte Carlo tree search (strategies/search.py): budget playouts "
                "per decision, each from a determinization of what the seat cannot see, played "
                f"out by {playout}; maximises its win share, then its score margin; each "
                f"playout at most {int(search.SEARCH_DEFAULTS['max_len']):,} decisions",
            budget=budget, max_len=search.SEARCH_DEFAULTS["max_len"])
        values = dict(search.SEARCH_DEFAULTS, **(search_values or {}))
    if search.available(state_cls) and n_params >= search.N_SEARCH:
        sp = search_playout or playout
        strategies["search"] = search.strategy(
            "search", strategies, n_params, playout=sp,
            doc="rollout policy improvement (strategies/search.py): the moves the scripted bots "
                "would make, each valued by playouts of " + sp + " in every seat from "
                "determinizations of what the seat cannot see (common random numbers, "
                f"sequential halving over {int(values['budget'])} playouts per decision)",
            extra=search_extra, **values)
    search.register(state_cls, choose_scripted, num_actions)
    bots_for(state_cls, search.choose)
    return search.choose


def bot_choose(code, params, k, s, legal, n, rng):
    """The action of bot ``code`` (parameter row ``params[k]``) in ``s``; compiled code only."""
    raise NotImplementedError("compiled code only; use Game.choose_action from Python")


@overload(bot_choose)
def _ov_bot_choose(code, params, k, s, legal, n, rng):
    fn = _CHOOSE.get(getattr(s, "instance_class", None))
    return None if fn is None else getattr(fn, "py_func", fn)


@njit(cache=True, _nrt=False, forceinline=True)
def pick_near_best(vals, legal, n, rng, near, floor):
    """One of the actions ``legal[:n]`` whose value ``vals[i]`` is within ``max(near, floor)``
    of the best, uniformly at random from the bot generator ``rng`` (one draw per candidate
    after the first): the scripted bots' tie-break, so mirror games are samples."""
    best = vals[0]
    for i in range(1, n):
        if vals[i] > best:
            best = vals[i]
    lo = best - (near if near > floor else floor)
    pick = legal[0]
    ties = 0
    for i in range(n):
        if vals[i] >= lo:
            ties += 1
            if ties == 1 or rand_below(rng, ties) == 0:
                pick = legal[i]
    return pick


# ``call_bot(fn, (code, params, k, s, legal, n, rng))``: the game's bot entry point called
# through its address ``fn`` (``bot_address``), so a generic loop does not carry the bots and
# the search in its own machine code (sim/core/fnptr.py); the arguments as ``bot_address``
# types them: code, k and n int64, legal int32[::1], rng uint64[::1]
def _bot_entry(argtys):
    """The bot entry point ``call_bot`` calls, for its arguments' numba types: the types must
    be ``bot_address``'s (so the address was taken for the same version), else a compile
    error (never a call with another layout)."""
    from numba.core import types
    from numba.core.errors import TypingError

    state = argtys[3]
    fn = _CHOOSE.get(getattr(state, "instance_class", None))
    i64 = types.int64
    want = (i64, types.Array(types.float64, 2, "C"), i64, state,
            types.Array(types.int32, 1, "C"), i64, types.Array(types.uint64, 1, "C"))
    if fn is None or tuple(argtys) != want:
        raise TypingError(f"call_bot: arguments {tuple(argtys)}; allowed {want} for a state "
                          "with registered bots")
    return fn


call_bot = fnptr.caller(_bot_entry)


def bot_address(s, params) -> int:
    """The address of the game's bot entry point (``bots_for``) for a state like ``s`` and the
    parameter matrix ``params`` (float64, 2-D, C order): what a loop calling ``call_bot`` takes
    as its ``fn``, for the argument types ``_bot_entry`` allows."""
    fn = _CHOOSE.get(type(s))
    if fn is None:
        raise KeyError(f"no bots registered for {type(s).__name__}")
    if not (isinstance(params, np.ndarray) and params.dtype == np.float64 and params.ndim == 2
            and params.flags.c_contiguous and params.flags.writeable):
        raise ValueError("bot_address: params must be a writeable C-order float64 matrix")
    z = np.int64(0)
    return fnptr.address(fn, (z, params, z, s, np.empty(1, np.int32), z,
                              np.empty(1, np.uint64)))


def play_out(s, codes, params, seat_rows, legal, rng, max_decisions):
    """Play the game in ``s`` to its end in place: the seat ``c`` to act is played by bot
    ``codes[seat_rows[c]]`` with parameter row ``params[seat_rows[c]]``; ``legal`` is an int32
    scratch of the game's action count; ``rng`` the bots' generator uint64[1]. Stops after
    ``max_decisions`` decisions (the game's declared maximum); returns the decisions taken.
    (The compiled loop ``_play_out`` calls the bots through their address.)"""
    return _play_out(s, codes, params, seat_rows, legal, rng, max_decisions,
                     bot_address(s, params))


@njit(cache=True)
def _play_out(s, codes, params, seat_rows, legal, rng, max_decisions, fn):
    d = 0
    while not contract.is_over(s) and d < max_decisions:
        n = contract.legal_actions_into(s, legal)
        k = seat_rows[contract.current_seat(s)]
        contract.apply_inplace(s, call_bot(fn, (np.int64(codes[k]), params, np.int64(k), s,
                                                legal, np.int64(n), rng)))
        d += 1
    return d
