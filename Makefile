# boardsim: every target creates .venv on first use (needs only python3.11 and make).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export MPLBACKEND := Agg

.PHONY: install run test bench check clean report-shots

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

## the main job: every registered game at its default settings, reports under reports/
run: $(STAMP)
	$(BIN)/boardsim run

## the suite on every core (pytest-xdist; each test file on one worker, so a file's fixtures
## are built once); a single file or -k selection: $(BIN)/python -m pytest tests/FILE.py
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadfile --durations=15

bench: $(STAMP)
	$(BIN)/python -m tests.bench

check: $(STAMP)
	$(BIN)/ruff check sim strategies analysis tests

clean:
	rm -rf $(VENV) .numba_cache reports/_runs

## screenshots of every reports/*/report.html and reports/index.html (headless Chromium;
## skips with a reason when none is installed): reports/_shots/<page>.png and <page>-full.png
report-shots: $(STAMP)
	$(BIN)/python -m analysis.shots reports --out reports/_shots
