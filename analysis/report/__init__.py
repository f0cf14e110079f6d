"""The balance report: Markdown and self-contained HTML built from the same blocks.

``write_report(run_dirs, out_dir)`` reads one or more run folders (see ``analysis.queries``),
writes ``report.md`` with its PNG charts next to it and ``report.html`` (the same content, charts
embedded as base64 data URIs), and returns the paths plus a short plain-text summary.
The report opens on the verdict (one screen: answers with interval, n and reading, the rule
holes, the game's answers, two key charts); the rest follows under a table of contents, folded
in the HTML. Main runs of the same player count and settings are pooled; runs with other
settings are shown side by side, never pooled.

Modules: ``writer`` (``write_report``, the steps in order), ``verdict`` (the verdict table,
the component association split by bot), ``arms`` (runs with other settings), ``wording``
(orderings from separated intervals, "rare", bot-mix labels from manifests, causal phrases),
``scan`` (checks a written report), ``manifests`` (run metadata and component-data
overrides), ``header`` ("Runs and settings"), ``headlines``, ``sections`` (the generic
sections), ``sample_size``, ``summary`` (``summary.json``) and ``context`` (``ReportContext``,
what a game's extension in ``analysis.games`` works with). Documents and formatting:
``analysis.doc``.
"""

from analysis.report.context import ReportContext
from analysis.report.manifests import load_manifests, overrides_of, overrides_text
from analysis.report.sections import CAUTION
from analysis.report.writer import DEFAULT_IMPACT_GROUPS, write_report

__all__ = ["write_report", "load_manifests", "overrides_of", "overrides_text", "ReportContext",
           "CAUTION", "DEFAULT_IMPACT_GROUPS"]
