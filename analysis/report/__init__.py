"""The balance report: Markdown and self-contained HTML built from the same blocks.

``write_report(run_dirs, out_dir)`` reads one or more run folders (see ``analysis.queries``),
writes ``report.md`` with its PNG charts next to it and ``report.html`` (the same content, charts
embedded as base64 data URIs), and returns the paths plus a short plain-text summary.
Runs with the same player count are pooled in every table (the report says so).

Modules: ``writer`` (``write_report``, the steps in order), ``manifests`` (run metadata and
component-data overrides), ``header``, ``headlines``, ``sections`` (the generic sections),
``sample_size``, ``summary`` (``summary.json``) and ``context`` (``ReportContext``, what a game's
extension in ``analysis.games`` works with). Documents and formatting: ``analysis.doc``.
"""

from analysis.report.context import ReportContext
from analysis.report.manifests import load_manifests, overrides_of, overrides_text
from analysis.report.sections import CAUTION
from analysis.report.writer import DEFAULT_IMPACT_GROUPS, write_report

__all__ = ["write_report", "load_manifests", "overrides_of", "overrides_text", "ReportContext",
           "CAUTION", "DEFAULT_IMPACT_GROUPS"]
