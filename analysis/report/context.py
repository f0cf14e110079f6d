"""``ReportContext``: what a game's report extension (``analysis.games``) works with."""

from __future__ import annotations

from dataclasses import dataclass

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

    def add_chart(self, name: str, path: str) -> None:
        """Register a chart the extension wrote (``name`` -> ``path``, returned by
        ``write_report``)."""
        self.charts[name] = path

    def headline(self, text: str, summary_line: str | None = None) -> None:
        """A bullet under "Headline answers" (and a line of the terminal summary)."""
        self.headline_block.append(text)
        if summary_line:
            self.summary.append(summary_line)

    def runs_with_role(self, role: str) -> list[int]:
        """Indices of the runs whose role is ``role`` (runs without a role are "main")."""
        return [i for i in range(len(self.run_dirs)) if self.roles.get(i, "main") == role]
