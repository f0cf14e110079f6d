"""The pairing check of the effects study (docs/effects.md, "Pairing by construction").

A nudge is paired by construction when the arm replays the baseline game action for action
until the changed component first comes into play. ``trace`` plays a run's games with their
actions recorded (``game.bots.trace_games``: ``strategies/trace.py``, the batch loop's games
over the kernel contract, exported by every bot package) and ``component_event`` says, per game, where each component family first comes into
play; ``pairing(base, arm)`` is the share of games whose arm agrees with the baseline up to
that decision. tests/test_pairing.py checks it on 1,000 games per component family of every
game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Watch:
    """Where a component comes into play: a flat view of the state field ``field``, whose
    cells ``cells`` become non-zero (e.g. a hand holds the card), and/or the action ids
    ``actions`` that become legal (e.g. a BUILD of the building)."""

    field: str | None = None
    cells: tuple[int, ...] = ()
    actions: tuple[int, ...] = ()
    values: tuple[int, ...] = ()  # per cell: the id it must hold (-1 or absent: non-zero)
    setup: Any = None  # state -> bool: in play from the set-up on (a dealt goal); or None


def trace(game, watch: Watch, first: int, n: int, seed: int, players: int,
          seat_idx: np.ndarray, strategies: list[str], options: dict[str, Any] | None = None,
          cap: int = 4096) -> dict[str, np.ndarray]:
    """Games ``first .. first+n-1`` of run ``seed`` of ``game`` (an instance: its component
    data is the arm's), seats ``seat_idx`` (rows into ``strategies``): ``actions``
    int32[n, cap], ``lengths`` int64[n] and ``event`` int64[n] (the decision before which the
    watched component first came into play; the length when never)."""
    names = [game.strategy(s).name for s in strategies]
    s = game._alloc(game.resolve_options(options or {}))
    codes, params = game.bots.params_matrix(names)
    if watch.field is not None:
        view = getattr(s, watch.field).reshape(-1)
    else:
        view = np.zeros(1, np.int64)
    cells = np.array(watch.cells, np.int64)
    values = np.full(len(cells), -1, np.int64)
    values[:len(watch.values)] = watch.values
    mask = np.zeros(game.num_actions, np.int8)
    mask[list(watch.actions)] = 1
    actions = np.empty((n, cap), np.int32)
    lengths = np.empty(n, np.int64)
    event = np.empty(n, np.int64)
    game.bots.trace_games(s, int(first), int(n), np.uint64(int(seed) % 2**64), int(players),
                np.ascontiguousarray(seat_idx, dtype=np.int64), codes, params,
                np.empty(game.num_actions, np.int32), view, cells, values, mask, actions,
                lengths, event)
    if watch.setup is not None:
        from sim.core.rng import seed_for_py

        for g in range(n):
            st = game.new_state(players, seed_for_py(int(seed), first + g), options)
            if watch.setup(st):
                event[g] = 0
    return {"actions": actions, "lengths": lengths, "event": event}


def paired(base: dict[str, np.ndarray], arm: dict[str, np.ndarray]) -> np.ndarray:
    """``bool[n]``: game i of the arm plays the baseline's actions up to the first decision at
    which the component came into play in either arm (the whole game when it never did)."""
    ev = np.minimum(base["event"], arm["event"])
    cols = np.arange(base["actions"].shape[1])[None, :]
    before = cols < ev[:, None]
    same = (base["actions"] == arm["actions"]) | ~before
    return same.all(axis=1)


def watch_for(game, comp) -> Watch:
    """Where the component ``comp`` (``analysis.lab.effects.Component``) of ``game`` first comes
    into play (docs/effects.md, "Pairing by construction"):

    - Go Town card types: a card of the type in any hand (every card enters play through a
      hand; the removed copy is drawn at the earliest with the type's first copy);
    - Little Town buildings: a BUILD of it is legal (the bots weigh its numbers only then);
      goal cards: the card in a seat's goal slots;
    - the Wolves' card marks and floor icons: a card whose data the nudge changes in a hand
      (cards enter play through a hand); house and bonus points: a new house legal (the bots
      value every house a seat could own with them); pig tokens: the first token handed out
      (the game hands out the smallest face left); wolf faces: a wolf card playable or that
      wolf placeable;
    - Province structures: from the set-up (all eight are on offer and the bots plan towards
      them every turn); goal tokens: the token among the set-up's drawn tokens;
    - Suburbia tiles: the tile in the real estate market (the three supply tiles are on sale
      from the start); goals: the goal public or offered to a seat at the set-up;
    - any other component: never before the game's end, so the whole game must agree."""
    gid = game.id
    if gid == "go-town":
        from sim.go_town import constants as K

        k = K.CARD_NAMES.index({"question_mark": "?"}.get(comp.key, comp.key))
        return Watch("hands", tuple(p * K.NT + k for p in range(K.MAXP)))
    if gid == "little-town":
        from sim.little_town import constants as K

        if comp.family == "buildings":
            from sim.little_town import data

            keys = [str(r) for r in data.SLUGS]
            b = keys.index(slug_of(comp.key))
            return Watch(actions=(54 + b,))
        cells = tuple(p * K.SE_N + K.SE_GOALS + i for p in range(K.MAXP) for i in range(K.MAXG))
        return Watch("seat", cells, values=(int(comp.key),) * len(cells))
    if gid == "three-little-wolves" and comp.family in ("card marks", "floor icons"):
        from sim.three_little_wolves import constants as K

        base = game.new_state(2, 0).cards
        arm = game.with_overrides({comp.path: comp.new}).new_state(2, 0).cards
        ids = [int(i) for i in np.flatnonzero((base != arm).any(axis=1))]
        hand = K.MAXP * 8
        return Watch("hands", tuple(c for c in range(hand) for _ in ids),
                     values=tuple(i for _ in range(hand) for i in ids))
    if gid == "three-little-wolves":  # the scoring numbers
        from sim.three_little_wolves import constants as K

        name = comp.key
        if name.startswith("pig_tokens."):  # the game hands out the smallest face left
            return Watch("tokens", (0, 1, 2))
        if name.startswith("wolf_values."):  # a wolf card playable or a wolf placeable
            v = int(name[-1]) - 1
            return Watch(actions=tuple(range(K.A_WOLF, K.A_PLACE))
                         + tuple(range(K.A_PLACE + 12 * v, K.A_PLACE + 12 * v + 12)))
        # house and bonus points: valued with every house a bot could own (a new house legal)
        return Watch(actions=tuple(K.A_FLOOR + 4 * c + 3 for c in range((K.A_BASE - K.A_FLOOR) // 4))
                     + tuple(range(K.A_DNEW, K.A_DNEW + 3)))
    if gid == "province":
        from sim.province import constants as K

        if comp.family == "structures":  # all eight on offer from the start, and the bots
            return Watch(setup=_always)   # plan towards them (labor needed, VP) every turn
        g = [r["name"] for r in game.component_document()["goals"]].index(comp.key)
        return Watch(setup=lambda s, g=g: g in [
            int(s.x[K.X_GS + i]) for i in range(int(s.x[K.M_GN]))])
    if gid == "suburbia":
        from sim.suburbia import constants as K
        from sim.suburbia import data

        if comp.family == "tiles":
            k = data.KIND_OF[comp.key]
            if k in _SUBURBIA_SUPPLY:
                return Watch(setup=_always)
            return Watch("market", tuple(range(K.NSLOTS)), values=(k,) * K.NSLOTS)
        g = data.GOAL_NAMES.index(comp.key)
        return Watch(setup=lambda s, g=g: g in s.gpub.tolist() or g in s.goffer.ravel().tolist())
    return Watch()


_SUBURBIA_SUPPLY = (1, 2, 3)  # Suburbs, Community Park, Heavy Factory: on sale at every turn


def _always(state) -> bool:
    """In play from the set-up on (only the set-up itself can be compared:
    ``same_setup``)."""
    return True


def same_setup(base_game, arm_game, first: int, n: int, seed: int, players: int,
               options: dict[str, Any] | None = None) -> np.ndarray:
    """``bool[n]``: game i's set-up (every state array after ``init_state``, the cells that
    hold the changed component data left out: those that differ between the two empty
    states) is the baseline's: the deal and every set-up draw are kept."""
    from sim.core.rng import seed_for_py

    eb = base_game._alloc(base_game.resolve_options(options or {}))
    ea = arm_game._alloc(arm_game.resolve_options(options or {}))
    data = [np.asarray(x) != np.asarray(y) for x, y in zip(eb, ea)]
    out = np.empty(n, bool)
    for g in range(n):
        sd = seed_for_py(int(seed), first + g)
        sb = base_game.new_state(players, sd, options)
        sa = arm_game.new_state(players, sd, options)
        out[g] = all(((np.asarray(x) == np.asarray(y)) | d).all()
                     for x, y, d in zip(sb, sa, data))
    return out


def slug_of(key: str) -> str:
    from analysis.doc import slug

    return slug(key)


def first_reached(base_game, arm_game, first: int, n: int, seed: int, players: int,
                  seat_idx: np.ndarray, strategies: list[str],
                  options: dict[str, Any] | None = None) -> np.ndarray:
    """``int64[n]``: per game of run ``seed``, the seat that the arm's change reaches first
    (``strategies/trace.py`` ``first_reached``): for Go Town's removed copy, the seat that
    draws its slot in the baseline (its hand is the first to differ), or the seat whose bot
    first acts on the changed deck count; -1 when the games never part (the copy's slot was
    never drawn). ``base_game``/``arm_game``: instances of one game (the arm's data)."""
    from sim.go_town import constants as K

    if base_game.id != "go-town":
        raise ValueError("first_reached: Go Town's hands only")
    names = [base_game.strategy(s).name for s in strategies]
    opts = base_game.resolve_options(options or {})
    sb = base_game._alloc(opts)
    sa = arm_game._alloc(arm_game.resolve_options(options or {}))
    codes, params = base_game.bots.params_matrix(names)
    out = np.empty(n, np.int64)
    base_game.bots.first_reached(
        sb, sa, int(first), int(n), np.uint64(int(seed) % 2**64), int(players),
        np.ascontiguousarray(seat_idx, dtype=np.int64), codes, params,
        np.empty(base_game.num_actions, np.int32), sb.hands.reshape(-1), sa.hands.reshape(-1),
        K.NT, out)
    return out
