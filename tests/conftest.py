"""The suite's start: before the xdist workers start, compile every game's engines once, one
process per game in parallel (tests/warm.py), so the workers load them from numba's disk cache
instead of each compiling the same engines (``make test``'s cold start).

Only on the xdist controller of a run over the whole suite (``pytest -n N`` with no file or
``-k`` selection); a single file, a run without xdist, or ``BOARDSIM_WARM=0`` skips it.
``BOARDSIM_WARM=all`` (or a comma list of game ids) warms those games before any xdist run.
With a warm cache it only loads (seconds per game).
"""

from __future__ import annotations

import os


def _wants_warm_up(config):
    """The games to warm (None: every game), or False."""
    env = os.environ.get("BOARDSIM_WARM", "")
    if env == "0" or hasattr(config, "workerinput"):
        return False
    if not getattr(config.option, "numprocesses", None):
        return False
    if env:
        return None if env == "all" else [g for g in env.split(",") if g]
    if getattr(config.option, "keyword", "") or getattr(config.option, "markexpr", ""):
        return False
    args = [a for a in config.args if not a.startswith("-")]
    root = str(config.rootpath)
    whole = (root, os.path.join(root, "tests"))
    if all(os.path.abspath(os.path.join(root, a)) in whole for a in args):
        return None
    return False


def pytest_sessionstart(session):
    config = session.config
    games = _wants_warm_up(config)
    if games is False:
        return
    from tests.warm import warm

    tr = config.pluginmanager.get_plugin("terminalreporter")
    log = (lambda m: tr.write_line(m)) if tr is not None else print
    warm(games, log=log)


def pytest_collection_modifyitems(config, items):
    """``make test`` distributes tests one by one (``--dist loadgroup``), so the long ones
    spread over the workers; a file whose tests share a module- or class-scoped fixture is
    kept on one worker (an ``xdist_group`` of its own), so that fixture is still built once."""
    import pytest

    shared = set()
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        defs = info.name2fixturedefs.values() if info is not None else ()
        if any(fd.scope in ("module", "class", "package") for fds in defs for fd in fds):
            shared.add(item.path)
    for item in items:
        if item.path in shared and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.path.name))
