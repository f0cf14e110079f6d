# boardsim: every target creates .venv on first use (needs only python3.11 and make).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export MPLBACKEND := Agg

.PHONY: install run test test-cold bench check clean report-shots soak

## pip installs without byte-compiling (its compile is one core for about 35 s); compileall then
## compiles the installed packages on every core, their own test suites left out (never
## imported here): a first `make install` in about 35 s instead of 57 (BENCHMARKS.md, session 14);
## pip itself is not upgraded (the venv's own pip installs the project)
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --no-compile -e '.[test]'
	$(BIN)/python -m compileall -q -j 0 -x '/tests?/' $(VENV)/lib
	touch $(STAMP)

install: $(STAMP)

## the main job: every registered game at its default settings, reports under reports/
run: $(STAMP)
	$(BIN)/boardsim run

## the suite on every core (pytest-xdist, test by test so the long ones spread over the
## workers; a file whose tests share a module-scoped fixture stays on one worker, so the
## fixture is built once: tests/conftest.py); before the workers start, tests/conftest.py compiles every game's engines
## once, one process per game (tests/warm.py), and the workers load them from the cache;
## a single file or -k selection: $(BIN)/python -m pytest tests/FILE.py
## NUMBA_OPT=1 (TEST_NUMBA_OPT): LLVM's optimisation level 1 compiles the engines in about two
## thirds of level 3's CPU time and plays the suite's games about as fast (BENCHMARKS.md,
## "make test at NUMBA_OPT=1"); its versions live in their own cache folder (sim/__init__.py),
## so `make run` and `make bench` still load level-3 code; TEST_NUMBA_OPT=3 tests the release build
TEST_NUMBA_OPT ?= 1
## BOARDSIM_QUICK_LINK=1 (TEST_QUICK_LINK): a compiled function's linked module is not optimised
## again as a whole (its functions were, one by one): about half of the compile, the games
## within a few per cent as fast (sim/__init__.py, BENCHMARKS.md session 12); with it, one
## compiled version per call, no cfunc wrappers and machine code at LLVM's codegen level 0
## (the games about 2.9x slower, the first make test 533 -> 459 s with the session's other
## cuts: BENCHMARKS.md session 15); TEST_QUICK_LINK=0 tests numba's own link step
TEST_QUICK_LINK ?= 1
## the project's modules are byte-compiled first (on every core; only changed files) and
## the run may write bytecode (PYTHONDONTWRITEBYTECODE cleared): every process of the suite
## (the warm-up's, the workers, the CLI children) then loads them, and the second worker
## reads the first one's rewritten test modules, instead of each compiling them again
test: $(STAMP)
	$(BIN)/python -m compileall -q -j 0 sim strategies analysis tests
	PYTHONDONTWRITEBYTECODE= NUMBA_OPT=$(TEST_NUMBA_OPT) BOARDSIM_QUICK_LINK=$(TEST_QUICK_LINK) $(BIN)/python -m pytest -n auto --dist loadgroup --durations=15

## a newcomer's first `make test`, timed: a fresh clone of this repository's HEAD under
## $(COLD_DIR) (install and compile included), with the load before and after and the
## wall, user and sys seconds; COLD_DIR=/tmp/boardsim-cold by default, removed first
COLD_DIR ?= /tmp/boardsim-cold
test-cold:
	rm -rf $(COLD_DIR) && git clone -q . $(COLD_DIR)
	@uptime
	cd $(COLD_DIR) && /usr/bin/time -f "make test (fresh clone, install included): %e s wall, %U s user, %S s sys" $(MAKE) test
	@uptime

bench: $(STAMP)
	$(BIN)/python -m tests.bench

## the long soak and the bots' fuzz on multi-field state mutants (issue 29; not in the suite):
## per game, SOAK_GAMES games with the invariants after every decision (boardsim soak), then
## FUZZ_MUTANTS state dicts with 2-5 fields changed, every bot's decision on each accepted one
## (tests/fuzz_worker.py, mode bots). Counts: BENCHMARKS.md, "Soak and bots' fuzz".
SOAK_GAMES ?= 100000
FUZZ_MUTANTS ?= 100000
soak: $(STAMP)
	for g in $$($(BIN)/python -c "import sim; print(' '.join(sim.list_games()))"); do \
	  nice -n 10 $(BIN)/boardsim soak $$g -n $(SOAK_GAMES) -q || exit 1; \
	  nice -n 10 $(BIN)/python -m tests.fuzz_worker $$g bots $(FUZZ_MUTANTS) 1 \
	    .fuzz-current-$$g.json || exit 1; \
	done

check: $(STAMP)
	$(BIN)/ruff check sim strategies analysis tests

clean:
	rm -rf $(VENV) .numba_cache reports/_runs

## screenshots of every reports/*/report.html and reports/index.html (headless Chromium;
## skips with a reason when none is installed): reports/_shots/<page>.png and <page>-full.png
report-shots: $(STAMP)
	$(BIN)/python -m analysis.shots reports --out reports/_shots
