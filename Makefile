# Two commands on a fresh machine with python3 and make:
#   make run    — lazaretto serve with an embedded SQLite database and a demo campaign
#   make test   — lint, type checks and the whole test suite
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run demo test lint typecheck pytest bench mutate clean

$(STAMP): requirements-dev.lock pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check --require-hashes -r requirements-dev.lock
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

DB ?= lazaretto-demo.db

run: $(STAMP)
	LAZARETTO_DB=$(DB) $(BIN)/lazaretto serve --demo

demo: $(STAMP)
	$(BIN)/lazaretto demo

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/bench_dice.py
	$(BIN)/python bench/bench_odds.py
	$(BIN)/python bench/bench_sim.py
	$(BIN)/python bench/bench_pages.py
	$(BIN)/python bench/bench_http.py

# The mutation run over the rulesets' data and rule modules (long: not part of `make test`).
mutate: $(STAMP)
	$(BIN)/python bench/mutate.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
