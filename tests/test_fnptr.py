"""sim/core/fnptr.py: a compiled loop calls a compiled function through its address (so the
loop does not carry the callee's code): the values and exceptions come through as from a
direct call, and the loop is loaded from numba's disk cache by a later process."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MODULE = textwrap.dedent('''
    import numpy as np
    from numba import njit
    from sim.core import fnptr

    @njit(cache=True)
    def callee(x, arr):
        if x < 0:
            raise ValueError("x must be >= 0")
        return x * 1000 + arr.sum()

    call = fnptr.caller(lambda argtys: callee)

    @njit(cache=True)
    def loop(fn, n, arr):
        t = 0
        for i in range(n):
            t += call(fn, (np.int64(i), arr))
        return t

    @njit(cache=True)
    def bad(fn, arr):
        return call(fn, (np.int64(-1), arr))
''')

MAIN = textwrap.dedent('''
    import numpy as np
    import fnptr_toy as m
    from sim.core import fnptr
    arr = np.arange(4, dtype=np.int64)
    fn = fnptr.address(m.callee, (np.int64(0), arr))
    print(m.loop(fn, 5, arr))
    try:
        m.bad(fn, arr)
    except ValueError as e:
        print("ValueError:", e)
    print(sorted(m.loop.stats.cache_hits.values()), sorted(m.loop.stats.cache_misses.values()))
''')


def test_a_loop_calls_through_an_address_and_is_cached(tmp_path):
    (tmp_path / "fnptr_toy.py").write_text(MODULE)
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}",
               NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    runs = [subprocess.run([sys.executable, "-c", MAIN], env=env, cwd=tmp_path,
                           capture_output=True, text=True, timeout=300) for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr[-2000:]
    first, second = (r.stdout.splitlines() for r in runs)
    # sum over i < 5 of i * 1000 + 6
    assert first[:2] == second[:2] == ["10030", "ValueError: x must be >= 0"]
    assert first[2] == "[] [1]" and second[2] == "[1] []"  # compiled, then loaded
