"""Pig's hooks for the generic suites (tests/games/__init__.py): its conservation laws in
plain numpy, and no component families (no component data). Perfect information: no view or
swap is needed."""

from __future__ import annotations

EFFECT_FAMILIES: set[str] = set()
CRASH_CASES = [(["current"], 9, 2), (["scores", 0], 10**6, 3)]
BENCH_SCALE = 1.0


def invariants(state) -> None:
    meta, score, opts = state.meta, state.score, state.opts
    n, cur, phase, tt, winner, end = (int(meta[i]) for i in (0, 1, 2, 3, 7, 6))
    target = int(opts[0])
    assert 2 <= n <= 4 and phase in (0, 1) and 0 <= cur < n and -1 <= winner < n
    assert all(int(x) >= 0 for x in score) and all(int(x) == 0 for x in score[n:])
    assert all(int(score[p]) < target or p == winner for p in range(n)), "score past target"
    assert tt >= 0 and tt != 1 and (phase == 0 or tt == 0), "turn total"
    assert phase == 1 or int(score[cur]) + tt < target, "turn total"
    assert (phase == 1) == (end != 0), "end"
