# Two commands: `make reproduce` (everything in config/config.yaml) and `make test` (lint, unit + statistical tests,
# then the quick workflow end to end). Both create .venv from requirements.lock if it is missing or stale.
# `make test-fast` is the edit loop: unit tests without Snakemake runs, slow tests or the SLURM test (about 1.3 min).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CORES ?= all

.PHONY: reproduce test test-units test-workflow test-fast lint install report clean

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

install: $(STAMP)

reproduce: $(STAMP)
	$(BIN)/snakemake --cores $(CORES)

report: $(STAMP)
	$(BIN)/snakemake --report figures/report.html

lint: $(STAMP)
	$(BIN)/ruff check src tests workflow benchmarks
	$(BIN)/ruff format --check src tests workflow benchmarks
	$(BIN)/snakefmt --check Snakefile workflow/rules
	$(BIN)/snakemake --lint --cores 1

# The linters and two pytest sessions at once (tests/conftest.py): the unit and statistical tests on every core
# (pytest-xdist), and the workflow tests in one process sharing one quick build. -O: each one's output in one piece.
test: $(STAMP)
	$(MAKE) --no-print-directory -j3 -O lint test-units test-workflow

test-units: $(STAMP)
	$(BIN)/python -m pytest -n auto -m "not workflow and not slurm"

test-workflow: $(STAMP)
	$(BIN)/python -m pytest -m "workflow and not slurm"

test-fast: $(STAMP)
	$(BIN)/python -m pytest -n auto -m "not workflow and not slow and not slurm"

clean:
	rm -rf results .snakemake
