# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BENCH_VENV := .venv-bench

.PHONY: run test bench lint clean

# `make run` installs only the game (no dependency); `make test` adds the
# developer tools (pytest, hypothesis, ruff) once, recorded by its own stamp.
DEV_STAMP := $(VENV)/.dev-installed

$(BIN)/draughtsboard: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): $(BIN)/draughtsboard
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

run: $(BIN)/draughtsboard
	$(BIN)/draughtsboard play

test: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest

lint: $(DEV_STAMP)
	$(BIN)/ruff check .

# Benchmarks run in their own environment: pydraughts (the peer we compare
# against) is installed there only, never as a dependency of the product.
$(BENCH_VENV)/bin/python: pyproject.toml
	test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet -e '.[dev]' pydraughts==0.6.7
	touch $@

bench: $(BENCH_VENV)/bin/python
	$(BENCH_VENV)/bin/python -m bench --write docs/BENCHMARKS.md

clean:
	rm -rf $(VENV) $(BENCH_VENV) build *.egg-info
