"""The suite's start: before the xdist workers start, compile every game's engines once, one
process per game in parallel (tests/warm.py), so the workers load them from numba's disk cache
instead of each compiling the same engines (``make test``'s cold start).

Only on the xdist controller of a run over the whole suite (``pytest -n N`` with no file or
``-k`` selection); a single file, a run without xdist, or ``BOARDSIM_WARM=0`` skips it. With a
warm cache it only loads (seconds per game).
"""

from __future__ import annotations

import os


def _wants_warm_up(config) -> bool:
    if os.environ.get("BOARDSIM_WARM", "1") == "0" or hasattr(config, "workerinput"):
        return False
    if not getattr(config.option, "numprocesses", None):
        return False
    if getattr(config.option, "keyword", "") or getattr(config.option, "markexpr", ""):
        return False
    args = [a for a in config.args if not a.startswith("-")]
    root = str(config.rootpath)
    return all(os.path.abspath(os.path.join(root, a)) in (root, os.path.join(root, "tests"))
               or os.path.abspath(a) in (root, os.path.join(root, "tests")) for a in args)


def pytest_sessionstart(session):
    config = session.config
    if not _wants_warm_up(config):
        return
    from tests.warm import warm

    tr = config.pluginmanager.get_plugin("terminalreporter")
    log = (lambda m: tr.write_line(m)) if tr is not None else print
    warm(log=log)
