"""boardsim analysis: the floors above the engines and the bots (docs/house-pattern.md).

* read-only libraries: lazy polars queries over run folders (``analysis.queries``), interval
  helpers (``analysis.stats``), charts (``analysis.charts``), documents (``analysis.doc``);
* the lab, ``analysis.lab``: experiments that play games (effects, ladder, tiers, tune,
  compare, sweep, suggest);
* the app: the command line (``analysis.cli``), the balance report (``analysis.report``,
  ``write_report(run_dirs, out_dir)``) and the index of reports (``analysis.index``).

This package imports nothing itself, so importing one floor does not load another.
"""
