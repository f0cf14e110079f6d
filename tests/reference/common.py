"""Helpers shared by the plain-Python references (tests/reference/<package>.py): checking a
reference's rule options, and a whole game by random play (``make bench``). Plumbing only: each
reference's rules stay its own, written from the spec and the docs page alone."""

from __future__ import annotations

import pickle
import random


def copy_data(d):
    """An independent copy of a JSON-like value (dicts, lists, numbers, strings): what
    ``copy.deepcopy`` gives, about five times faster (a pickle round trip). The references'
    ``to_dict`` copies their data at every decision of the engine-vs-reference replays."""
    return pickle.loads(pickle.dumps(d, pickle.HIGHEST_PROTOCOL))


def merge_options(options: dict | None, defaults: dict, rules: dict) -> dict:
    """``defaults`` overlaid with ``options``, every value checked by its rule
    ``rules[name] = (kind, allowed)``: ``"bool"``; ``"str"`` or ``"int"``, one of ``allowed``
    (an int never a bool); ``"intrange"``, an int in ``allowed = (lo, hi)``. Keys in the order
    of ``defaults``. Raises ValueError naming the option."""
    opts = dict(defaults)
    if options:
        for k, v in options.items():
            if k not in defaults:
                raise ValueError(f"unknown option: {k!r}")
            opts[k] = v
    for k, v in opts.items():
        kind, allowed = rules[k]
        if kind == "bool":
            if not isinstance(v, bool):
                raise ValueError(f"option {k} must be a bool, got {v!r}")
        elif kind == "str":
            if not isinstance(v, str) or v not in allowed:
                raise ValueError(f"option {k} must be one of {allowed}, got {v!r}")
        elif kind == "int":
            if isinstance(v, bool) or not isinstance(v, int) or v not in allowed:
                raise ValueError(f"option {k} must be one of {allowed}, got {v!r}")
        else:  # intrange
            lo, hi = allowed
            if isinstance(v, bool) or not isinstance(v, int) or not (lo <= v <= hi):
                raise ValueError(f"option {k} must be an int in {lo}..{hi}, got {v!r}")
    return opts


def play_random(cls, n_players: int, seed: int, options: dict | None = None,
                bot_seed: int = 0):
    """Play a whole game of the reference class ``cls`` choosing uniformly among the legal
    actions with ``random.Random(bot_seed)``; returns the finished game."""
    rnd = random.Random(bot_seed)
    g = cls(n_players, seed, options)
    while not g.is_terminal():
        g.apply(rnd.choice(g.legal_actions()))
    return g


def check_state_head(d: dict, keys, game_id: str, defaults: dict, lo: int = 2,
                     hi: int = 4) -> int:
    """The checks that open a reference's ``from_dict``: every key of ``keys``, the game's id,
    ``n_players`` an int in ``lo..hi`` and every option of ``defaults`` present. Returns
    ``n_players``; raises ValueError naming the problem."""
    for k in keys:
        if k not in d:
            raise ValueError(f"state dict lacks key {k!r}")
    if d["game"] != game_id:
        raise ValueError(f"not a {game_id} state: {d['game']!r}")
    n = d["n_players"]
    if isinstance(n, bool) or not isinstance(n, int) or not (lo <= n <= hi):
        raise ValueError(f"n_players must be {lo}..{hi}, got {n!r}")
    missing = [k for k in defaults if k not in d["options"]]
    if missing:
        raise ValueError(f"options lack {missing}")
    return n
