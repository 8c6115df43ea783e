# Two commands: `make reproduce` (everything in config/config.yaml) and `make test` (lint, unit + statistical tests,
# the library at its oldest supported versions, the API reference, then the quick workflow end to end). Both create
# .venv from requirements.lock if it is missing or stale.
# `make test-fast` is the edit loop: unit tests without Snakemake runs, slow tests or the SLURM test (about 1.3 min).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CORES ?= all
# Python keeps compiled modules in __pycache__ (ignored by git) and pytest its rewritten test modules there, even
# where the environment sets PYTHONDONTWRITEBYTECODE: otherwise every test process, Snakemake run and job compiles
# them again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: reproduce verify-reproduction compare-reproduction test test-units test-workflow test-fast test-oldest docs-api \
	lint install report clean

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -c "import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()['purelib'], 'privtest_artifact.pth').write_text('$(CURDIR)/src\n')"
	touch $(STAMP)

install: $(STAMP)

reproduce: $(STAMP)
	$(BIN)/snakemake --cores $(CORES)

# The reproduction check (docs/reproduction.md): after `make reproduce` on a clean checkout, `git status` stays clean:
# the committed text results (and the generated blocks of README.md and the other documents) are rewritten
# byte-identically. Prints what changed (`git status --porcelain`: modified, deleted, or new files that are not
# ignored) and fails if anything did, or if no results are committed. VERIFY_PATHS narrows the check.
VERIFY_PATHS ?= .
verify-reproduction:
	@git ls-files --error-unmatch figures/claims.csv >/dev/null 2>&1 || \
		{ echo "verify-reproduction: no committed results (figures/claims.csv is not tracked)"; exit 1; }
	@changed="$$(git status --porcelain --untracked-files=all -- $(VERIFY_PATHS))"; \
	if [ -n "$$changed" ]; then \
		echo "$$changed"; \
		echo "verify-reproduction: the files above differ from the commit (numerically: make compare-reproduction)"; \
		exit 1; \
	fi; \
	echo "verify-reproduction: git status is clean: the committed results are reproduced byte-identically"

# On another platform numbers may differ in the last digits: compare the run with the committed results within a
# relative tolerance RTOL (and absolute ATOL); workflow/scripts/compare_runs.py lists every difference beyond it.
RTOL ?= 1e-6
ATOL ?= 0
compare-reproduction: $(STAMP)
	$(BIN)/python workflow/scripts/compare_runs.py git:HEAD . --rtol $(RTOL) --atol $(ATOL)

report: $(STAMP)
	$(BIN)/snakemake --report figures/report.html

lint: $(STAMP)
	$(BACKGROUND) $(BIN)/ruff check src tests workflow benchmarks
	$(BACKGROUND) $(BIN)/ruff format --check src tests workflow benchmarks
	$(BACKGROUND) $(BIN)/snakefmt --check Snakefile workflow/rules
	$(BACKGROUND) $(BIN)/snakemake --lint --cores 1

# The linters and two pytest sessions at once (tests/conftest.py): the unit and statistical tests on every core
# (pytest-xdist), and the workflow tests on two workers sharing one quick build (the second worker runs the tests
# that need no build while the first builds). The quick build and the workflow tests after it are the longest
# chain, so the linters and the unit tier run at a lower CPU priority (BACKGROUND) and fill the cores the chain
# leaves idle. -O: each one's output in one piece.
# --durations: the slowest tests of each tier, in the log (where the time goes).
# --dist worksteal: a unit-tier worker that runs out of tests takes over part of the other's queue (with the default
# --dist load, the session ended on one core, working through the queue one worker still held).
# The unit tier includes test-oldest's test and the API reference's build (tests/test_api_reference.py runs
# docs-api's Sphinx command, warnings as errors, into a temporary directory), so docs-api is not run a second time.
BACKGROUND ?=
test: $(STAMP)
	$(MAKE) --no-print-directory -j3 -O lint test-units test-workflow BACKGROUND="nice -n 10"

test-units: $(STAMP)
	$(BACKGROUND) $(BIN)/python -m pytest -n auto --dist worksteal -m "not workflow and not slurm" --durations=10

test-workflow: $(STAMP)
	$(BIN)/python -m pytest -n 2 -m "workflow and not slurm" --durations=20

test-fast: $(STAMP)
	$(BIN)/python -m pytest -n auto -m "not workflow and not slow and not slurm"

# The library at the lower bounds of pyproject.toml's ranges (numpy, scipy, mpmath, opendp; SPEC 0): a fresh venv with
# exactly those versions from the index and the wheel, then the library's own tests and doctests in it
# (tests/test_oldest_versions.py, a test of make test's unit tier; about a minute, needs the index).
test-oldest: $(STAMP)
	$(BIN)/python -m pytest -s tests/test_oldest_versions.py

# The API reference (docs/api): Sphinx autodoc + napoleon over the library's docstrings, into build/api (open
# build/api/index.html). Warnings are errors (-W); --keep-going lists them all before failing; -E: every page is
# read again (an incremental build would not repeat the warnings of the modules that did not change).
docs-api: $(STAMP)
	$(BACKGROUND) $(BIN)/python -m sphinx -W --keep-going -E -q -b html -d build/api/.doctrees docs/api build/api

# The archive to deposit for the Available badge (README "Archive and cite", ARTIFACT-APPENDIX A.7):
# dist/privtest-<version>-<commit>.tar.gz = `git archive` of HEAD (source, requirements.lock, committed results,
# .zenodo.json) + the three data wheels at resources/wheels/ + SHA256SUMS, each wheel checked against its pinned
# sha256 (workflow/scripts/archive.py). .zenodo.json is rendered from CITATION.cff first; the build refuses a commit
# whose .zenodo.json differs from that rendering (commit it, then run make archive again).
.PHONY: archive
archive: $(STAMP)
	$(BIN)/python workflow/scripts/archive.py --zenodo
	$(BIN)/python workflow/scripts/archive.py

clean:
	rm -rf results .snakemake
