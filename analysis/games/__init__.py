"""Game-specific report sections.

A game adds sections to its report with a package ``analysis/games/<package>/`` (package =
the game's ``sim`` package name, e.g. ``little_town``; a single module ``<package>.py`` works
too) whose ``__init__`` exposes::

    def extend_report(ctx: analysis.report.ReportContext) -> None

It reads ``ctx.games`` / ``ctx.seats`` (lazy polars frames over ALL the runs passed to the
report, with a ``run`` column = index into ``ctx.run_dirs`` / ``ctx.manifests``), and
``ctx.roles`` (run index -> role string from the game's ``default_plan``, "main" by default),
writes charts into ``ctx.out_dir`` (register each with ``ctx.add_chart(name, path)``), adds
headline bullets with ``ctx.headline(markdown_text, summary_line=None)`` and sections with
``ctx.doc`` (h/p/ul/table/img). The generic sections use only the runs whose role is "main".
The building blocks are public: ``analysis.doc`` (Doc, Table, formatters), ``analysis.charts``
(``save``, ``empty``, ...), ``analysis.queries`` and ``analysis.stats``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

_PACKAGES = {
    "go-town": "go_town", "little-town": "little_town",
    "three-little-wolves": "three_little_wolves", "province": "province",
    "suburbia": "suburbia",
}


def load(game_id: str) -> ModuleType | None:
    """The report extension module of ``game_id``, or None if the game has none."""
    pkg = _PACKAGES.get(game_id, game_id.replace("-", "_"))
    try:
        return importlib.import_module(f"analysis.games.{pkg}")
    except ModuleNotFoundError as e:
        if e.name == f"analysis.games.{pkg}":
            return None
        raise
