# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BENCH_VENV := .venv-bench

.PHONY: run test bench lint clean screenshots soak

# `make run` installs only the game and what it runs on (aiohttp and segno for its
# page); `make test` adds the developer tools (pytest, hypothesis, ruff, mypy, playwright)
# once, recorded by its own stamp.
DEV_STAMP := $(VENV)/.dev-installed

# setup.py and the C file: the compiled capture search (engine/native_captures.py), built by
# pip where a C compiler exists and skipped without one; rebuilt when they change.
NATIVE := setup.py engine/capture_search.c

$(BIN)/draughtsboard: pyproject.toml $(NATIVE)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): $(BIN)/draughtsboard
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# The simulated board with its page: prints the address and opens a browser where
# one exists. The typed game is `draughtsboard play`.
run: $(BIN)/draughtsboard
	$(BIN)/draughtsboard run --board sim --open

# ruff, then mypy (its files and exceptions: pyproject.toml), then the tests.
test: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest

lint: $(DEV_STAMP)
	$(BIN)/ruff check .

# The hand families of issue 7 (tests/host/hands), long: SOAK_STREAMS seeds per family
# and variant from seed SOAK_FIRST (make test plays seed ci-0 only), first with the
# setting each stream asks for, then with touch-move forced on, then with every switch
# change at its own millisecond (bounce and all, as recorded streams), then with the
# hands' durations drawn from measured human timings instead of the model's
# (tests/host/hands/timing.py names the sources). Prints the table of wrong, false,
# missed and illegal per family; fails if any is not 0.
SOAK_STREAMS ?= 100
SOAK_FIRST ?= 1000
soak: $(DEV_STAMP)
	cd tests/host && ../../$(BIN)/python -m hands -v \
		--streams $(SOAK_STREAMS) --first-seed $(SOAK_FIRST)
	cd tests/host && ../../$(BIN)/python -m hands -v \
		--streams $(SOAK_STREAMS) --first-seed $(SOAK_FIRST) --touch-move on
	cd tests/host && ../../$(BIN)/python -m hands -v \
		--streams $(SOAK_STREAMS) --first-seed $(SOAK_FIRST) --scan 1 3
	cd tests/host && ../../$(BIN)/python -m hands -v \
		--streams $(SOAK_STREAMS) --first-seed $(SOAK_FIRST) --timing human

# Benchmarks run in their own environment: pydraughts and dame-rs (the draughts
# engines we compare against) and aiomqtt (the MQTT client we did not choose,
# measured beside paho-mqtt) are installed there only, never as dependencies of
# the product. dame-rs ships x86 wheels only.
$(BENCH_VENV)/bin/python: pyproject.toml $(NATIVE)
	test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet -e '.[dev]' pydraughts==0.6.7 aiomqtt==2.5.1 \
		dame-rs==0.2.0
	touch $@

bench: $(BENCH_VENV)/bin/python
	$(BENCH_VENV)/bin/python -m bench --write docs/BENCHMARKS.md

# The README's and docs/web.md's pictures, taken by the browser tests (needs Debian's
# chromium): the page's journeys (tests/web/test_web_page.py, test_page_*.py).
screenshots: $(DEV_STAMP)
	DRAUGHTSBOARD_SCREENSHOTS=docs/screenshots DRAUGHTSBOARD_REQUIRE=chromium \
		$(BIN)/pytest tests/web/test_web_page.py tests/web/test_page_play.py \
		tests/web/test_page_views.py tests/web/test_page_access.py \
		tests/web/test_review_page.py tests/web/test_web_clock.py

clean:
	rm -rf $(VENV) $(BENCH_VENV) build *.egg-info engine/_capture_search.*.so
