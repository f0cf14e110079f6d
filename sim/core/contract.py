"""The kernel-level contract: the compiled entry points every game exports, under one name each.

Generic compiled code (a playout loop, a tree search, a rating ladder) calls the functions of
this module, never a game's own kernels. Each call is resolved at compile time, by the type of
the state it is given, to the kernel the game registered for its state class with
``implements``. So one generic function compiles once per game, keeps numba's on-disk cache
(the call is typed, not a first-class function value), and costs nothing at run time.

Every game's ``sim/<game>/kernels.py`` registers, for its state NamedTuple class ``S``::

    @implements(S, "init_state")          init_state(s, n_players, seed: uint64) -> None
    @implements(S, "legal_actions_into")  legal_actions_into(s, out: int32[num_actions]) -> int
    @implements(S, "apply_inplace")       apply_inplace(s, a: int) -> None  (no legality check)
    @implements(S, "is_over")             is_over(s) -> bool
    @implements(S, "current_seat")        current_seat(s) -> int  (the seat to act; -1 if over)
    @implements(S, "n_seats")             n_seats(s) -> int
    @implements(S, "scores_into")         scores_into(s, out: float64[>= n]) -> None
    @implements(S, "win_shares_into")     win_shares_into(s, out: float64[>= n]) -> None
                                          (1/k for each of k winners; all 0 while not over or
                                          stopped at the length limit)
    @implements(S, "copy_into")           copy_into(src, dst) -> None  (same allocation shape)
    @implements(S, "chance_rng")          chance_rng(s) -> uint64[1]  (the game's generator)
    @implements(S, "determinize")         determinize(s, seat, rng: uint64[1]) -> None
                                          (in place: resample, from ``rng``, everything ``seat``
                                          cannot know, consistent with what it has seen, and
                                          reseed the state's chance generator from ``rng``)
    @implements(S, "invariants")          invariants(s) -> int  (0 if the game's conservation
                                          laws hold, else the code of the first broken law;
                                          reads only, safe on any field-checked state)

``copy_into`` and ``chance_rng`` have defaults written once here: every array field of the
NamedTuple copied in place, and the field ``rng``. A game registers its own only when its
layout needs it.

The layout behind ``s`` is the game's own (docs/house-pattern.md says why and how). The state
given to every entry point is the NamedTuple of numpy arrays that ``Game.new_state`` returns;
a game that keeps derived arrays or a flat array for speed does so inside it.
"""

from __future__ import annotations

from numba.extending import overload

HOOKS = ("init_state", "legal_actions_into", "apply_inplace", "is_over", "current_seat",
         "n_seats", "scores_into", "win_shares_into", "copy_into", "chance_rng", "determinize",
         "invariants")

_IMPL: dict[tuple[type, str], object] = {}


def implements(state_cls: type, hook: str):
    """Decorator: register the ``@njit`` function ``fn`` as ``hook`` for states of
    ``state_cls``. Raises ValueError on an unknown hook name (see ``HOOKS``)."""
    if hook not in HOOKS:
        raise ValueError(f"unknown contract hook {hook!r}; allowed: {', '.join(HOOKS)}")

    def deco(fn):
        _IMPL[(state_cls, hook)] = fn
        return fn

    return deco


def register(state_cls: type, meta: dict | None = None, **hooks) -> None:
    """Register several entry points at once: ``hooks`` maps hook names to ``@njit``
    functions; ``meta`` (optional) holds the arguments of ``meta_hooks``."""
    for hook, fn in hooks.items():
        implements(state_cls, hook)(fn)
    if meta is not None:
        meta_hooks(state_cls, **meta)


def meta_hooks(state_cls: type, field: str, phase: int, over: int, current: int,
               n_players: int | None = None, fixed_players: int | None = None) -> None:
    """Register ``is_over``, ``current_seat`` and ``n_seats`` for a state that keeps its phase,
    current seat and player count in slots of one int array ``field`` (``meta``, or Province's
    flat ``x``): the game is over when ``s.<field>[phase] == over``; the seat to act is
    ``s.<field>[current]``; the player count is ``s.<field>[n_players]`` or ``fixed_players``.
    Written once here instead of three small kernels per game."""
    if (n_players is None) == (fixed_players is None):
        raise ValueError("give exactly one of n_players (a slot) and fixed_players")
    ns: dict = {}
    np_expr = f"s.{field}[{int(n_players)}]" if n_players is not None else str(int(fixed_players))
    exec(  # generated from the integer slots and a field name only
        f"def is_over(s):\n    return s.{field}[{int(phase)}] == {int(over)}\n"
        f"def current_seat(s):\n"
        f"    return -1 if s.{field}[{int(phase)}] == {int(over)} else s.{field}[{int(current)}]\n"
        f"def n_seats(s):\n    return {np_expr}\n", ns)
    for hook in ("is_over", "current_seat", "n_seats"):
        _IMPL[(state_cls, hook)] = ns[hook]


def registered(state_cls: type) -> list[str]:
    """The hooks ``state_cls`` implements (the conformance test wants all of ``HOOKS``)."""
    return [h for h in HOOKS if (state_cls, h) in _IMPL]


def _impl(s, hook):
    cls = getattr(s, "instance_class", None)
    fn = _IMPL.get((cls, hook))
    if fn is None:
        return _DEFAULTS.get(hook, lambda t: None)(s)
    return getattr(fn, "py_func", fn)


def _default_copy_into(state_type):
    """``copy_into`` for any NamedTuple of arrays: ``dst.f[...] = src.f`` for every field."""
    fields = getattr(state_type, "fields", None)
    if fields is None:
        return None
    body = "".join(f"    dst.{f}[...] = src.{f}\n" for f in fields) or "    pass\n"
    ns: dict = {}
    exec(f"def copy_into(src, dst):\n{body}", ns)  # generated from the field names only
    return ns["copy_into"]


def _default_chance_rng(state_type):
    """``chance_rng`` for a state whose generator is the field ``rng``."""
    if "rng" not in getattr(state_type, "fields", ()):
        return None

    def chance_rng(s):
        return s.rng

    return chance_rng


_DEFAULTS = {"copy_into": _default_copy_into, "chance_rng": _default_chance_rng}


def init_state(s, n_players, seed):
    """Set up a new game in the arrays of ``s`` (the game's setup rules)."""
    raise NotImplementedError("compiled code only; use Game.new_state from Python")


def legal_actions_into(s, out):
    """Write the legal action ids of ``s`` ascending into ``out``; return their count."""
    raise NotImplementedError("compiled code only; use Game.legal_actions from Python")


def apply_inplace(s, a):
    """Apply the legal action ``a`` to ``s`` in place (no legality check)."""
    raise NotImplementedError("compiled code only; use Game.apply_action from Python")


def is_over(s):
    """True when the game has ended (a result or the length limit)."""
    raise NotImplementedError("compiled code only; use Game.is_terminal from Python")


def current_seat(s):
    """The seat to act, -1 when the game is over."""
    raise NotImplementedError("compiled code only; use Game.current_player from Python")


def n_seats(s):
    """The number of players of the game in ``s``."""
    raise NotImplementedError("compiled code only")


def scores_into(s, out):
    """Each seat's score (the game's own measure) into ``out[:n]`` as float64."""
    raise NotImplementedError("compiled code only; use Game.scores from Python")


def win_shares_into(s, out):
    """Each seat's win share into ``out[:n]``: 1/k for k winners, else 0."""
    raise NotImplementedError("compiled code only")


def copy_into(src, dst):
    """Copy every array of ``src`` into the same-shaped arrays of ``dst``."""
    raise NotImplementedError("compiled code only; use Game.copy_state from Python")


def chance_rng(s):
    """The game's chance generator, ``uint64[1]`` (SplitMix64, sim/core/rng.py)."""
    raise NotImplementedError("compiled code only")


def determinize(s, seat, rng):
    """A determinization of ``s`` from ``seat``'s point of view, in place (the search bot's
    information sets): every value hidden from ``seat`` (rivals' hands, deck order, face-down
    tokens, stacks) is resampled from the searcher's generator ``rng`` (uint64[1]) among the
    values consistent with what ``seat`` has seen, public quantities and the game's invariants
    are kept, and the state's chance generator is reseeded from ``rng`` so future chance is
    unknown too. Two states that differ only in what ``seat`` cannot see give the same result
    from the same ``rng``."""
    raise NotImplementedError("compiled code only")


def invariants(s):
    """0 if ``s`` keeps the game's conservation laws, else a violation code ``c >= 1`` (the
    game's ``invariants.MESSAGES[c - 1]``, ``Game.invariant_messages``): the laws of
    ``Game.check_invariants``, written once as a kernel so the compiled soak can check them
    after every decision. Reads only and never indexes out of bounds, even on a state whose
    counts are wrong (a field out of range is a violation code of its own)."""
    raise NotImplementedError("compiled code only; use Game.check_invariants from Python")


# the typers, one per hook, with the stub's own argument names (numba checks them)


@overload(init_state)
def _ov_init_state(s, n_players, seed):
    return _impl(s, "init_state")


@overload(legal_actions_into)
def _ov_legal_actions_into(s, out):
    return _impl(s, "legal_actions_into")


@overload(apply_inplace)
def _ov_apply_inplace(s, a):
    return _impl(s, "apply_inplace")


@overload(is_over)
def _ov_is_over(s):
    return _impl(s, "is_over")


@overload(current_seat)
def _ov_current_seat(s):
    return _impl(s, "current_seat")


@overload(n_seats)
def _ov_n_seats(s):
    return _impl(s, "n_seats")


@overload(scores_into)
def _ov_scores_into(s, out):
    return _impl(s, "scores_into")


@overload(win_shares_into)
def _ov_win_shares_into(s, out):
    return _impl(s, "win_shares_into")


@overload(copy_into)
def _ov_copy_into(src, dst):
    return _impl(src, "copy_into")


@overload(chance_rng)
def _ov_chance_rng(s):
    return _impl(s, "chance_rng")


@overload(determinize)
def _ov_determinize(s, seat, rng):
    return _impl(s, "determinize")


@overload(invariants)
def _ov_invariants(s):
    return _impl(s, "invariants")
