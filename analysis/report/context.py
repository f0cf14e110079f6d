"""``ReportContext``: what a game's report extension (``analysis.games``) works with."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from analysis.doc import Doc

__all__ = ["ReportContext"]


@dataclass
class ReportContext:
    """What a game's report extension (``analysis/games/<package>/``) works with."""

    doc: Doc
    games: pl.LazyFrame
    seats: pl.LazyFrame
    run_dirs: list[str]
    manifests: list[dict]
    roles: dict[int, str]
    out_dir: str
    charts: dict[str, str]
    headline_block: list[str]
    summary: list[str]
    rule_holes: list[dict] = field(default_factory=list)
    details: list[str] = field(default_factory=list)

    def add_chart(self, name: str, path: str) -> None:
        """Register a chart the extension wrote (``name`` -> ``path``, returned by
        ``write_report``)."""
        self.charts[name] = path

    def headline(self, text: str, summary_line: str | None = None,
                 detail: str | None = None) -> None:
        """A bullet of the verdict's game-specific answers (and a line of the terminal
        summary). Keep ``text`` to one line (the number, its interval, n and a short reading,
        so that the verdict fits one screen); ``detail``, the same answer with its explanation,
        goes to the folded section "Game-specific answers in full"."""
        self.headline_block.append(text)
        if detail:
            self.details.append(detail)
        if summary_line:
            self.summary.append(summary_line)

    def runs_with_role(self, role: str) -> list[int]:
        """Indices of the runs whose role is ``role`` (runs without a role are "main")."""
        return [i for i in range(len(self.run_dirs)) if self.roles.get(i, "main") == role]

    def rule_hole(self, finding: str, count: int, n: int, unit: str, reading: str,
                  fix: str | None = None) -> None:
        """Report a rule hole found in the runs (issue #16): ``count`` of ``n`` ``unit``
        ("games", "seat-games", "holders") show ``finding`` (e.g. "the game cannot end: two
        players hold 8 cards neither can play"); ``reading`` is the plain-language line for the
        designer, ``fix`` the rule option or data change that closes the hole, if one exists.
        The generic report lists every hole, with its rate and 95% Wilson interval, in the
        verdict's "Rule holes" section ("none found" when the list is empty). Raises ValueError
        when ``count`` is outside ``[0, n]``."""
        if not 0 <= int(count) <= int(n):
            raise ValueError(f"rule hole {finding!r}: count {count} outside [0, {n}]")
        self.rule_holes.append(dict(finding=finding, count=int(count), n=int(n), unit=unit,
                                    reading=reading, fix=fix))
