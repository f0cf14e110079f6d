"""``boardsim ARGS`` run inside the test process, with the result of a subprocess.

A new interpreter per command costs 1-2 CPU seconds of imports and cache loading (numba,
polars, scipy, statsmodels, optuna) before the command does anything, most of a bad-input
test's cost. ``boardsim`` here calls the console entry point (``analysis.cli.main``) in this
process instead and returns what ``subprocess.run(..., capture_output=True, text=True)``
would: the exit code ``main`` ends with (``SystemExit``; an uncaught exception is 1, with its
traceback on stderr, as the interpreter would print it), stdout and stderr. The working
folder, the environment, ``sys.argv`` and the signal handlers are restored afterwards.

tests/test_cli.py keeps running the real process (``python -m analysis.cli``), so the
console entry point itself stays tested end to end.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import traceback


def boardsim(*args, cwd=None) -> subprocess.CompletedProcess:
    """``boardsim ARGS`` in this process (from ``cwd`` if given): a CompletedProcess."""
    from analysis import cli

    argv = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    here, env, sys_argv = os.getcwd(), dict(os.environ), sys.argv[:]
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    code = 0
    try:
        if cwd is not None:
            os.chdir(cwd)
        sys.argv = ["boardsim", *argv]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                cli.main(argv)
            except SystemExit as e:
                if e.code is None or isinstance(e.code, int):
                    code = e.code or 0
                else:  # sys.exit("message"): the interpreter prints it and exits 1
                    print(e.code, file=sys.stderr)
                    code = 1
            except Exception:  # noqa: BLE001 - as an uncaught exception ends a process
                traceback.print_exc()
                code = 1
    finally:
        os.chdir(here)
        os.environ.clear()
        os.environ.update(env)
        sys.argv = sys_argv
        for s, h in handlers.items():
            signal.signal(s, h)
    return subprocess.CompletedProcess(["boardsim", *argv], code, out.getvalue(),
                                       err.getvalue())
