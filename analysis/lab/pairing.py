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
    mask = np.zeros(game.num_actions, np.int8)
    mask[list(watch.actions)] = 1
    actions = np.empty((n, cap), np.int32)
    lengths = np.empty(n, np.int64)
    event = np.empty(n, np.int64)
    game.bots.trace_games(s, int(first), int(n), np.uint64(int(seed) % 2**64), int(players),
                np.ascontiguousarray(seat_idx, dtype=np.int64), codes, params,
                np.empty(game.num_actions, np.int32), view, cells, mask, actions, lengths,
                event)
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
    - every other family: never before the game's end, so the whole game must agree (the
      number is read by the scoring only)."""
    if game.id == "go-town":
        from sim.go_town import constants as K

        k = K.CARD_NAMES.index({"question_mark": "?"}.get(comp.key, comp.key))
        return Watch("hands", tuple(p * K.NT + k for p in range(K.MAXP)))
    if game.id == "little-town" and comp.family == "buildings":
        from sim.little_town import data

        keys = [str(r) for r in data.SLUGS]
        b = keys.index(slug_of(comp.key))
        return Watch(actions=(54 + b,))
    return Watch()


def slug_of(key: str) -> str:
    from analysis.doc import slug

    return slug(key)
