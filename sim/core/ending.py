"""One definition of a finished game, from each game's declared end reasons.

A game declares its end reasons (``Game.end_reasons``: code 0 is ``"none"``, the game still
running) and, among them, the ones that end the game **with a result**
(``Game.results``: a win, a shared win or a draw). Every other end reason is a
game **without a result**: stopped at the length limit (``"limit"``) or, in Go Town, a rules
deadlock (``"deadlock"``: no player can ever change the state again). Such a game is neither a
win, a loss, a draw nor a length: it is left out of every win rate, score and length and
counted apart, each reason with its own rate.

The runner (ranks null), every query (``analysis.queries.finished_game``), every lab tool
(compare, sweep, suggest, effects, tune, ladder, tiers) and every report use the functions
below. The names of the reasons without a result are a fixed vocabulary (``NO_RESULT``), so a
table that carries only the names (the Parquet ``end_reason`` column) is filtered exactly as
the game's declaration says; ``check_declaration`` (tests/test_finished.py runs it on every
registered game) holds every game to it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

__all__ = ["NO_RESULT", "NO_RESULT_TEXT", "result_reasons", "unfinished_reasons",
           "unfinished_codes", "finished_mask", "unfinished_counts", "check_declaration",
           "describe_unfinished"]

NO_RESULT = ("limit", "deadlock")
"""The names an end reason without a result may have: ``limit`` (stopped at the maximum
length) and ``deadlock`` (no player can ever change the state again)."""

NO_RESULT_TEXT = {"limit": "stopped at the length limit",
                  "deadlock": "ended in a deadlock (no player could ever change the state)"}
"""How a report names each reason without a result."""


def result_reasons(game) -> tuple[str, ...]:
    """The end reasons of ``game`` (a Game or its class) that end it with a result: its
    declared ``results`` (``Game.results``), or, for a game that declares none, every end
    reason except ``"none"`` and the names of ``NO_RESULT``."""
    declared = getattr(game, "results", None)
    if declared:
        return tuple(declared)
    return tuple(r for r in game.end_reasons[1:] if r not in NO_RESULT)


def unfinished_reasons(game) -> tuple[str, ...]:
    """The end reasons of ``game`` without a result, in declaration order (Go Town:
    ``("limit", "deadlock")``; the other games ``("limit",)``)."""
    ok = set(result_reasons(game))
    return tuple(r for r in game.end_reasons[1:] if r not in ok)


def unfinished_codes(game) -> list[int]:
    """The end-reason codes (indices into ``game.end_reasons``) without a result."""
    return [game.end_reasons.index(r) for r in unfinished_reasons(game)]


def finished_mask(game, end_reason: Iterable) -> np.ndarray:
    """``bool[n]``: which games ended with a result. ``end_reason``: the codes (ints, as
    ``ChunkResult.end_reason``) or the names (as the Parquet column; a null/None name counts as
    finished, as in ``analysis.queries.finished_game``)."""
    arr = np.asarray(list(end_reason) if not isinstance(end_reason, np.ndarray)
                     else end_reason)
    if arr.dtype.kind in "iu":
        return ~np.isin(arr, unfinished_codes(game))
    names = np.array([str(x) if x is not None else "" for x in arr.ravel()], dtype=object)
    return ~np.isin(names, list(unfinished_reasons(game))).reshape(arr.shape)


def unfinished_counts(game, end_reason: Iterable) -> dict[str, int]:
    """``{reason: games}`` for every end reason of ``game`` without a result (0 included),
    in declaration order; ``end_reason`` as in ``finished_mask``."""
    arr = np.asarray(list(end_reason) if not isinstance(end_reason, np.ndarray)
                     else end_reason)
    out = {}
    for r in unfinished_reasons(game):
        if arr.dtype.kind in "iu":
            out[r] = int((arr == game.end_reasons.index(r)).sum())
        else:
            out[r] = int(sum(1 for x in arr.ravel() if x == r))
    return out


def describe_unfinished(counts: dict[str, int], total: int) -> str:
    """'stopped at the length limit 0 of 2,000 (0.00%); ended in a deadlock ...': every
    reason without a result with its own count and rate."""
    parts = []
    for r, k in counts.items():
        rate = 100.0 * k / total if total else float("nan")
        parts.append(f"{NO_RESULT_TEXT.get(r, r)} {k:,} of {total:,} ({rate:.2f}%)")
    return "; ".join(parts)


def check_declaration(game) -> None:
    """Raise AssertionError unless ``game``'s end reasons are declared consistently: code 0
    is ``"none"``, every reason with a result is an end reason, and every other reason is a
    name of ``NO_RESULT`` (so name-based filters agree with the declaration)."""
    reasons = tuple(game.end_reasons)
    assert reasons and reasons[0] == "none", f"{game.id}: end reason 0 must be 'none'"
    ok = result_reasons(game)
    assert ok, f"{game.id}: no end reason with a result"
    for r in ok:
        assert r in reasons[1:], f"{game.id}: end_reasons_with_result names {r!r}, not an " \
            f"end reason ({reasons})"
    for r in unfinished_reasons(game):
        assert r in NO_RESULT, f"{game.id}: end reason {r!r} has no result but is not one " \
            f"of {NO_RESULT}"
