# Two commands on a fresh machine with python3 and make:
#   make run    — lazaretto serve with an embedded SQLite database and a demo campaign
#   make test   — lint, type checks and the whole test suite on SQLite and PostgreSQL:
#                 installs Chromium, PostgreSQL and fonts first when they are missing
#                 (apt-get, as root; otherwise it says the one command to run) and
#                 starts a throw-away PostgreSQL cluster for the run
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run demo test test-deps lint typecheck pytest bench rehearse mutate wheel clean

# pytest's arguments: empty (the whole suite) in CI; e.g. PYTEST_ARGS="tests/unit -k dice"
PYTEST_ARGS ?=

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

test: test-deps lint typecheck pytest

test-deps:
	@scripts/test-deps.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	scripts/pg-test-cluster.sh run $(BIN)/pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/bench_cli.py
	$(BIN)/python bench/bench_dice.py
	$(BIN)/python bench/bench_odds.py
	$(BIN)/python bench/bench_sim.py
	$(BIN)/python bench/bench_pages.py
	$(BIN)/python bench/bench_http.py

# The game-weekend rehearsal (bench/bench_rehearsal.py): a LARP day through the real
# server on SQLite, then PostgreSQL with two workers; MET / NOT MET per line.
rehearse: $(STAMP)
	$(BIN)/python bench/bench_rehearsal.py

# The mutation run over the rulesets' data and rule modules (long: not part of `make test`).
mutate: $(STAMP)
	$(BIN)/python bench/mutate.py

# The field laptop's wheel (README, "On a field laptop"): dist/lazaretto-*.whl, built
# offline with the venv's setuptools; build/ is removed first so no stale file slips in.
wheel: $(STAMP)
	rm -rf build
	$(BIN)/python -m build --wheel --no-isolation --outdir dist .

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
