"""Wording rules every report follows (issue 16): orderings only from separated intervals,
association words for associations, bot mixes named from the runs' manifests.

``order_text`` states "a > b" only when the two 95% intervals do not overlap, else that the
two are indistinguishable at this sample size; ``rare_text`` says "rare" only of what is rare;
``mix_label`` names a run's bots from its manifest (a random-only run is never a pool of
scripted bots); ``CAUSAL_PHRASES`` lists the wordings an association must not use (the scan
test reads reports for them).
"""

from __future__ import annotations

import math

__all__ = ["order_text", "ranking_text", "separated", "rare_text", "mix_label", "CAUSAL_PHRASES",
           "RARE_BELOW"]

CAUSAL_PHRASES = ("moves the win rate", "decides games", "decide games", "causes", "caused by",
                  "hands a third seat the win", "hands the win")
"""Causal wordings that no association in a report may use (an association is not an
effect)."""

RARE_BELOW = 0.10
"""A component used in fewer than this share of seat-games is called "rare"; one used in more
than ``1 - RARE_BELOW`` "almost always used"."""


def _ok(*xs) -> bool:
    return all(x is not None and not (isinstance(x, float) and math.isnan(x)) for x in xs)


def separated(lo_a, hi_a, lo_b, hi_b) -> int:
    """+1 when interval a lies wholly above interval b, -1 when wholly below, 0 when they
    overlap (or a bound is missing)."""
    if not _ok(lo_a, hi_a, lo_b, hi_b):
        return 0
    if lo_a > hi_b:
        return 1
    if hi_a < lo_b:
        return -1
    return 0


def order_text(a: str, lo_a, hi_a, b: str, lo_b, hi_b) -> str:
    """``"a > b"`` / ``"b > a"`` when the 95% intervals of a and b separate, else
    ``"a and b are indistinguishable (overlapping 95% intervals)"``."""
    s = separated(lo_a, hi_a, lo_b, hi_b)
    if s > 0:
        return f"{a} > {b}"
    if s < 0:
        return f"{b} > {a}"
    return f"{a} and {b} are indistinguishable (overlapping 95% intervals)"


def ranking_text(items: list[tuple[str, str, float, float]]) -> str:
    """Several estimates listed by value with the orderings their 95% intervals support.

    ``items``: (name, shown estimate, lo, hi), already sorted by estimate, highest first.
    Returns "a 41.0% [35.2, 47.1], b 38.2% [...], c 30.1% [...] (a > c; the other pairs
    overlap)" or "(... no two separated: overlapping 95% intervals)": an ordering "x > y" only
    for pairs whose intervals do not overlap (``order_text``), never a chain that would imply
    one."""
    listed = ", ".join(f"{n} {est}" for n, est, _, _ in items)
    pairs = [order_text(a[0], a[2], a[3], b[0], b[2], b[3])
             for i, a in enumerate(items) for b in items[i + 1:]
             if separated(a[2], a[3], b[2], b[3])]
    if not pairs:
        return listed + " (no two separated: overlapping 95% intervals)"
    total = len(items) * (len(items) - 1) // 2
    rest = "" if len(pairs) == total else "; the other pairs overlap"
    return listed + " (" + ", ".join(pairs) + rest + ")"


def rare_text(share: float, noun: str, verb: str) -> str:
    """Why a component's difference needs many games, from the share of seat-games that
    ``verb`` it: "a rare {noun} ..." below ``RARE_BELOW``, "a {noun} almost every seat {verb}
    ..." above ``1 - RARE_BELOW``, else "" (an even split is not the reason)."""
    if not _ok(share):
        return ""
    if share < RARE_BELOW:
        return f"a rare {noun} leaves few seats that {verb} it, so it needs many games"
    if share > 1 - RARE_BELOW:
        return (f"a {noun} almost every seat {verb} leaves few seats without it, so it needs "
                "many games")
    return ""


def mix_label(manifest: dict) -> str:
    """The bots of a run as its manifest records them: "random play only (no scripted bot)",
    "pool of 5 scripted bots: a, b, ... (seats drawn at random)", "fixed seats: a, b",
    "rotating seats: a, b", naming ``random`` when it is in a mix ("?" when unrecorded)."""
    names = [str(s) for s in (manifest.get("strategies") or [])]
    if not names:
        return "bots not recorded in the manifest"
    uniq = list(dict.fromkeys(names))
    seating = str(manifest.get("seating", "fixed"))
    if set(uniq) == {"random"}:
        return "random play only (no scripted bot)"
    scripted = [s for s in uniq if s != "random"]
    with_random = " with `random`" if "random" in uniq else ""
    if seating == "pool":
        return (f"pool of {len(scripted)} scripted bot{'s' if len(scripted) > 1 else ''}"
                f"{with_random}: {', '.join(uniq)} (each seat drawn at random)")
    if len(uniq) == 1:
        return f"`{uniq[0]}` in every seat (mirror games)"
    how = "rotating seats" if seating == "rotate" else "fixed seats"
    return f"{how}: {', '.join(names)}"
