# Two commands matter: `make run` (play SCOUT in the terminal) and `make test` (everything).
# Both bootstrap .venv from the pinned lock file on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.bigtop-installed

.PHONY: run test lint typecheck unit bench lock clean postgresql

$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "bigtop needs Python >= 3.11")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/bigtop play scout --players 3

test: postgresql lint typecheck unit

# The server's tests start a throwaway PostgreSQL cluster (initdb/pg_ctl from Debian's
# postgresql, run as an unprivileged user in a temporary directory): install it when missing.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql; }

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2 --doctest-modules src/bigtop tests

bench: $(STAMP)
	$(BIN)/python bench/bench_games.py

# Re-pin after changing dependencies in pyproject.toml (needs the registry).
lock: $(STAMP)
	$(BIN)/python -m pip freeze --all --exclude-editable | grep -iv -e '^bigtop' -e '^pip==' > requirements.lock

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
