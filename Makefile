# Two set-up commands on a fresh machine: `make demo` and `make test`.
# Each creates the virtual environment when needed and installs the package into it.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.tdadp-installed
# Test processes (pytest-xdist): one per core; the tests share no files or ports. Each runs
# its BLAS on one thread: two workers with threaded OpenBLAS on two cores busy-wait on each
# other (a mixture fit went from 7 s to 92 s, a notebook from 30 s to 194 s).
TEST_WORKERS ?= auto
TEST_ENV := MPLBACKEND=Agg OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

BENCH_VENV  ?= .venv-bench
BENCH_PY    := $(BENCH_VENV)/bin/python
BENCH_STAMP := $(BENCH_VENV)/.tdadp-installed

PYTEST_ARGS ?=

EXPERIMENTS := shrinkage mechanisms convergence clustering realnets rates ergm pufferfish mesa ergm_node

.PHONY: demo figures test lint test-slow test-all bench install clean docs

$(PY):
	$(PYTHON) -m venv $(VENV)

# Re-install whenever the project's metadata changes.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

install: $(STAMP)

# The end-to-end example, then quick versions of the ten experiments (within 3 minutes).
demo: $(STAMP)
	MPLBACKEND=Agg $(PY) pipelines/demo.py --out figures
	@for e in $(EXPERIMENTS); do \
	  MPLBACKEND=Agg $(VENV)/bin/tdadp run $$e --quick --out results/quick/$$e || exit 1; \
	done
	@echo "quick experiment figures: results/quick/<experiment>/<experiment>.png"

# The full-size figures committed in figures/ (tables and provenance beside them), and the
# executed copies of the notebooks (with their plots) in figures/notebooks/.
figures: $(STAMP)
	@for e in $(EXPERIMENTS); do \
	  MPLBACKEND=Agg $(VENV)/bin/tdadp run $$e --out figures/$$e --n-jobs 2 || exit 1; \
	done
	MPLBACKEND=Agg $(PY) notebooks/_execute.py figures/notebooks

# The linter first (seconds), then the default suite.
lint: $(STAMP)
	$(VENV)/bin/ruff check .

test: lint
	$(TEST_ENV) $(PY) -m pytest -m "not slow" -n $(TEST_WORKERS) $(PYTEST_ARGS)

test-slow: $(STAMP)
	$(TEST_ENV) $(PY) -m pytest -m slow -n $(TEST_WORKERS) $(PYTEST_ARGS)

test-all: $(STAMP)
	$(TEST_ENV) $(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

# The documentation site (docs/, Sphinx) into docs/_build/html, warnings as errors: a broken
# cross-reference, a bad numpydoc section or a failing gallery example fails it. Then the
# doctests of its pages.
DOCS_STAMP := $(VENV)/.tdadp-docs-installed
DOCS_PAGES := docs/getting_started.rst docs/user_guide docs/theory docs/experiments

$(DOCS_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet -e ".[test,docs]"
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	$(TEST_ENV) $(PY) -m sphinx -b html -W --keep-going docs docs/_build/html
	$(TEST_ENV) $(PY) -m pytest -p no:cacheprovider -o addopts="" \
	  -o doctest_optionflags="NORMALIZE_WHITESPACE ELLIPSIS" --doctest-glob="*.rst" $(DOCS_PAGES)

# The benchmarks compare against graspologic, which pins older numpy: keep it out of the
# main environment.
$(BENCH_PY):
	$(PYTHON) -m venv $(BENCH_VENV)

$(BENCH_STAMP): pyproject.toml Makefile | $(BENCH_PY)
	$(BENCH_PY) -m pip install --quiet --upgrade pip
	$(BENCH_PY) -m pip install --quiet -e ".[dask]" graspologic
	touch $(BENCH_STAMP)

# Every benchmark; the rows of the speed targets go to benchmarks/results.md (README, Speed).
# BENCH_ARGS: --quick (small sizes, nothing written), --targets (only the table's rows),
# --only bench_<name>, --suite (also make test on a clean clone).
bench: $(BENCH_STAMP)
	MPLBACKEND=Agg $(BENCH_PY) -m benchmarks $(BENCH_ARGS)

clean:
	rm -rf $(VENV) $(BENCH_VENV) build *.egg-info .pytest_cache .hypothesis
	rm -rf docs/_build docs/api/generated docs/api/folders docs/api/backrefs docs/auto_examples \
	  docs/notebooks docs/experiments/_tables
