# Two commands for a fresh machine with Python 3.11+ and make: `make run`, `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run venue test lint bench bench-load mutation clean

# One install at a time: a second `make` in the same checkout waits for the first and
# then finds the environment installed (flock, where the system has it: Linux), rather
# than reinstalling it under the first one's running tests.
LOCK := $(shell command -v flock >/dev/null 2>&1 && echo flock .venv.lock)

$(STAMP): pyproject.toml
	$(LOCK) sh -c '[ $(STAMP) -nt pyproject.toml ] || { \
		{ [ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV); } && \
		$(BIN)/python -m pip install --quiet --upgrade pip && \
		$(BIN)/python -m pip install --quiet -e ".[dev,deploy]" && \
		touch $(STAMP); }'

# The translations (locale/*/LC_MESSAGES/*.po) compiled to the .mo files Django reads, with
# polib: no GNU gettext needed; again for each .po that changed. docs/tournament.md, Languages
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/*.po))
locale/%.mo: locale/%.po | $(STAMP)
	$(BIN)/python manage.py compile_catalogues $<

# The ASGI server (pages, API, online play's WebSocket), restarted when a file changes;
# DEBUG on, so huckley/asgi.py serves /static/ as runserver does. docs/operations.md
run: $(STAMP) $(CATALOGUES)
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py load_demo --if-empty
	$(BIN)/uvicorn huckley.asgi:application --host 127.0.0.1 --port 8000 \
		--ws-per-message-deflate false \
		--reload --reload-include '*.html' --reload-exclude '.venv/*'

# A club night on one laptop: the app on the local network with a production server
# (PORT, default 8000; DATABASE_URL when set, else SQLite in WAL mode). docs/operations.md
venue: $(STAMP) $(CATALOGUES)
	$(BIN)/python -m huckley.venue

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo

# The whole suite on the embedded default, one pytest-xdist worker a core (TEST_WORKERS=0:
# one process). docs/operations.md, "Tests and CI".
TEST_WORKERS ?= auto
test: lint $(CATALOGUES)
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/tournament.py

# The crowd after a movement: gunicorn on PostgreSQL and Redis under wrk (bench/load.py)
bench-load: $(STAMP)
	$(BIN)/python bench/load.py

# Mutation testing of the pure modules against the pure tests (docs/performance.md,
# "Mutation testing"): slow, and part of neither `make test` nor CI. One mutmut run per
# scope, so a scope can be run alone: make mutation MUTATE=engine.games.huckley.play
MUTATE ?= tournaments.format engine.games.huckley engine.games._common \
	engine.games.buck_euchre engine.games.ten_point_buck engine.games.bluke
MUTATION_JOBS ?= 2
mutation: $(STAMP)
	@for scope in $(MUTATE); do \
		$(BIN)/mutmut run --max-children $(MUTATION_JOBS) "$$scope.*" || exit 1; \
	done
	$(BIN)/mutmut results

clean:
	rm -rf $(VENV) db.sqlite3 mutants
