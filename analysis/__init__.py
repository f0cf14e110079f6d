"""boardsim analysis: lazy polars queries over run folders, charts and the balance report.

Public entry point: ``write_report(run_dirs, out_dir)``; the queries live in
``analysis.queries``, the interval helpers in ``analysis.stats``, charts in ``analysis.charts``.
"""

from analysis.report import write_report
from analysis.stats import newcombe_difference, wilson_interval

__all__ = ["write_report", "wilson_interval", "newcombe_difference"]
