"""Fuzz of every game's hostile inputs (tests/fuzz_worker.py), each game in a child process so
that a crash (a segfault of a kernel fed an unchecked value) fails the test instead of killing
the suite.

Per game: mutants of mid-game state dicts (every field: boundary and out-of-range values,
wrong types, lists longer, shorter or empty) and of component-data overrides (every path).
Each mutant is refused with ``UserError`` or plays to the end with the game's invariants
holding after every decision.

The default run is bounded (``BOARDSIM_FUZZ_EXAMPLES`` state mutants per game, default 1,000,
and a fifth of that in overrides: about 35 s of CPU for the five games, measured); set
``BOARDSIM_FUZZ_EXAMPLES=20000`` for a long run. ``test_fuzz_under_boundscheck`` runs the
same under ``NUMBA_BOUNDSCHECK=1`` (its own numba cache: a first run compiles every engine
again, minutes) and is marked ``boundscheck``: it runs when ``BOARDSIM_BOUNDSCHECK=1`` is set
or with ``-m boundscheck``.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import sim

ROOT = Path(__file__).resolve().parents[1]
GAMES = sim.list_games()
EXAMPLES = int(os.environ.get("BOARDSIM_FUZZ_EXAMPLES", "1000"))


def _run_worker(game_id: str, tmp_path: Path, env_extra: dict[str, str], examples: int,
                timeout: int) -> None:
    current = tmp_path / f"current-{game_id}.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT), **env_extra)
    r = subprocess.run([sys.executable, "-m", "tests.fuzz_worker", game_id, "state,override",
                        str(examples), "1", str(current)], capture_output=True, text=True,
                       cwd=ROOT, env=env, timeout=timeout)
    where = current.read_text() if current.exists() else ""
    assert r.returncode == 0, (
        f"fuzz worker of {game_id} exited {r.returncode}"
        + (" (SIGALRM: a kernel in an endless loop)" if r.returncode == -14 else
           f" (signal {-r.returncode}: a crash)" if r.returncode < 0 else "")
        + f"; last mutant: {where}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    assert "0 failures" in r.stdout and "FAIL" not in r.stdout, r.stdout


@pytest.mark.parametrize("game_id", GAMES)
def test_fuzz_state_dicts_and_overrides(game_id, tmp_path):
    _run_worker(game_id, tmp_path, {}, EXAMPLES, 1800)


def _boundscheck_cache() -> str:
    return str(ROOT / ".numba_cache" / f"boundscheck-{sim.kernel_key(ROOT)}{sim.opt_suffix()}")


@pytest.mark.boundscheck
@pytest.mark.skipif(os.environ.get("BOARDSIM_BOUNDSCHECK") != "1",
                    reason="set BOARDSIM_BOUNDSCHECK=1 (compiles every engine again)")
@pytest.mark.parametrize("game_id", GAMES)
def test_fuzz_under_boundscheck(game_id, tmp_path):
    """The same fuzz with numba's bounds checks on: an out-of-bounds access by a kernel is an
    IndexError (a failure) instead of a silent read or a crash."""
    _run_worker(game_id, tmp_path, {"NUMBA_BOUNDSCHECK": "1",
                                    "NUMBA_CACHE_DIR": _boundscheck_cache()},
                max(10, EXAMPLES // 2), 3600)


BOT_MUTANTS = int(os.environ.get("BOARDSIM_FUZZ_BOT_MUTANTS", "40"))
BOT_BUDGET = 8  # the search bots' playouts per decision in the suite's bots fuzz


@pytest.mark.parametrize("game_id", GAMES)
def test_every_bot_decides_on_multi_field_mutants(game_id, tmp_path):
    """Issue 29: a state dict with 2-5 fields changed at once that ``state_from_dict``
    accepts gets a legal decision from every bot, the search bot included, or a ``UserError``;
    a decision that does not return within the watchdog (``BOARDSIM_FUZZ_DECISION_SECONDS``,
    here 240 s of wall time on a loaded machine) ends the child process and fails the test,
    naming the mutant. The search bots (``mcts``, ``search``) play ``BOT_BUDGET`` playouts per
    decision here (their own budgets cost seconds per decision: the suite's run stays short);
    the benchmark's long run keeps their own budgets (100,000 mutants per game, each decision
    under 5 s of CPU): ``make soak``, BENCHMARKS.md."""
    current = tmp_path / f"current-{game_id}.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT), BOARDSIM_FUZZ_DECISION_SECONDS="240",
               BOARDSIM_FUZZ_BUDGET=str(BOT_BUDGET))
    r = subprocess.run([sys.executable, "-m", "tests.fuzz_worker", game_id, "bots",
                        str(BOT_MUTANTS), "3", str(current)], capture_output=True, text=True,
                       cwd=ROOT, env=env, timeout=3600)
    where = current.read_text() if current.exists() else ""
    assert r.returncode != -14, f"a decision did not return (SIGALRM); mutant: {where}"
    assert r.returncode == 0 or "took" in r.stdout, (
        f"fuzz worker of {game_id} exited {r.returncode}; last mutant: {where}\n"
        f"{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    fails = [x for x in r.stdout.splitlines() if x.startswith("FAIL") and " took " not in x]
    assert fails == [], fails  # a decision over 5 s of CPU is the benchmark's count, not here
    assert f"fuzz {game_id} bots: {BOT_MUTANTS} examples" in r.stdout, r.stdout
