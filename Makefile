# Two commands matter: `make run` (the server: play in the browser) and `make test` (everything).
# Both bootstrap .venv from the lock on a fresh machine: pip installs uv (hashed, from
# requirements-bootstrap.txt), uv installs bigtop[all] and the dev tools (requirements.lock:
# every package pinned and hashed, exported from uv.lock; docs/install.md).
PYTHON ?= python3
# Python writes each module's bytecode on first import. An environment that forbids it (some CI
# images set PYTHONDONTWRITEBYTECODE) makes every process compile every module it imports from
# source again: a server start took 5.2 s of CPU instead of 2.0, and the suite starts hundreds.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.bigtop-installed
# The editable install also compiles the hot modules with mypyc where a C compiler exists
# (setup.py; BIGTOP_PURE=1 skips it). BUILT re-runs that build when a compiled module's
# source changed, so tests and benchmarks never meet a stale extension module.
BUILT := $(VENV)/.bigtop-built
COMPILED_SOURCES := $(shell $(PYTHON) setup.py --compiled-sources 2>/dev/null)
INSTALL_SELF := $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps \
	--no-build-isolation -e .

.PHONY: run test lint typecheck unit bench bench-server lock wheel clean postgresql chromium hosting system bytecode \
	screenshots

$(STAMP): requirements.lock requirements-bootstrap.txt pyproject.toml setup.py
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "bigtop needs Python >= 3.11")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes \
		-r requirements-bootstrap.txt
	$(BIN)/uv pip install --quiet --python $(BIN)/python --require-hashes -r requirements.lock
	BIGTOP_PURE=1 $(INSTALL_SELF)
	rm -f $(BUILT)
	touch $(STAMP)

# The compiled modules: after every bootstrap (above: pure Python, so that the lint and the
# type check need not wait for the C compiler), and when a compiled module's source changed.
# They come out of the platform wheel, built from the sdist as a user's pip builds it, into
# build/wheel/: its extension modules go beside the sources (where an in-place build puts
# them) and tests/test_wheel.py checks that same wheel while it holds this tree's files.
# One mypyc build instead of two (the wheel test built its own: a minute of CPU).
# gcc's -O1, not a release's -O3 (`make wheel`): the engines run as fast (the suite's engine
# tests took the same CPU at -O1 and -O3, docs/install.md) and the build costs a quarter less
# CPU, on the path before the first test.
WHEEL_DIR := build/wheel
BUILD_OPT ?= 1
$(BUILT): $(STAMP) $(COMPILED_SOURCES)
	@if [ -f $(BUILT) ] && [ -z "$$(find $(COMPILED_SOURCES) setup.py -newer $(BUILT))" ]; \
		then :; else rm -rf $(WHEEL_DIR) && mkdir -p $(WHEEL_DIR) && \
		{ BIGTOP_OPT_LEVEL=$(BUILD_OPT) $(BIN)/python -m build --no-isolation --outdir $(WHEEL_DIR) . \
			> $(WHEEL_DIR)/build.log 2>&1 || { tail -40 $(WHEEL_DIR)/build.log; exit 1; }; } && \
		$(BIN)/python setup.py --unpack-compiled $(WHEEL_DIR)/bigtop-*.whl; fi
	touch $(BUILT)

# The server on SQLite (in the user's data directory) with the lobby at the printed address.
HOST ?= 127.0.0.1
PORT ?= 8000
run: $(BUILT)
	@echo "bigtop: open http://$(HOST):$(PORT)/ in a browser (Ctrl-C stops the server)"
	$(BIN)/bigtop serve --host $(HOST) --port $(PORT)

# The compiled build first (ruff beside it), with both cores: mypyc's analysis, then one gcc
# a core. Then the type check beside the tests: its half a minute of CPU falls in the tests'
# waits (servers starting, clocks running out, browsers) instead of slowing the build that
# the first test waits for.
test: system
	$(MAKE) --no-print-directory -j2 $(BUILT) lint bytecode
	$(MAKE) --no-print-directory -j2 typecheck unit

# Bytecode for what every test process imports (pytest and its plugins, the test modules,
# bigtop, the server's and lab's packages: some 1,700 modules), written once beside the
# build: on a fresh clone the three test processes, starting at once, each compiled them
# from source (8.5 s of CPU each here). Pure Python: the build is unpacking the extension
# modules meanwhile. Nothing fails here that the tests would not report themselves.
bytecode: $(STAMP)
	-@BIGTOP_PURE=1 $(BIN)/pytest --collect-only -q -p no:xdist -p no:cacheprovider \
		--doctest-modules src/bigtop tests >/dev/null 2>&1

# Debian's packages the tests run, each with the check that says it is missing (a shell
# line adding the package to $$need). `make postgresql`, `chromium` and `hosting` install one
# part; `make system`, what `make test` asks of a fresh machine, all that is missing in one
# apt run (one index update, one round of package triggers).
#
# The server's tests start a throwaway PostgreSQL cluster (initdb/pg_ctl from Debian's
# postgresql, run as an unprivileged user in a temporary directory).
NEED_POSTGRESQL := ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need="$$need postgresql";
# Debian's chromium drives the browser tests (tests/web/); Playwright never downloads a browser.
CHROMIUM := /usr/bin/chromium
NEED_CHROMIUM := test -x $(CHROMIUM) || need="$$need chromium";
# The host's programs docs/deploy.md runs, for the tests that run its parts: Debian's nginx
# and Caddy (and openssl for nginx's throwaway certificate) put a real reverse proxy with TLS
# in front of server workers in tests/server/test_proxy.py; systemd's systemd-analyze checks
# the guide's unit in tests/server/test_deploy_unit.py.
NGINX := /usr/sbin/nginx
CADDY := /usr/bin/caddy
NEED_HOSTING := test -x $(NGINX) || need="$$need $$(apt-cache show nginx-light >/dev/null 2>&1 \
	&& echo nginx-light || echo nginx)"; test -x $(CADDY) || need="$$need caddy"; \
	command -v openssl >/dev/null || need="$$need openssl"; \
	command -v systemd-analyze >/dev/null || need="$$need systemd";
APT_NEED := test -z "$$need" || { echo "installing:$$need" && apt-get update && \
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$need; }
postgresql:
	@need=""; $(NEED_POSTGRESQL) $(APT_NEED)
chromium:
	@need=""; $(NEED_CHROMIUM) $(APT_NEED)
hosting:
	@need=""; $(NEED_HOSTING) $(APT_NEED)
system:
	@need=""; $(NEED_POSTGRESQL) $(NEED_CHROMIUM) $(NEED_HOSTING) $(APT_NEED)

# Refresh the pictures of the web pages in docs/img/web/ (the browser tests take them).
screenshots: $(STAMP) chromium
	BIGTOP_WEB_SHOTS=docs/img/web $(BIN)/pytest -p no:xdist -q tests/web

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy

# Compiled modules carry no docstrings: their doctests run on the pure-Python sources.
# Three test processes on two cores: a third of the suite's time is waiting (browsers,
# servers starting, clocks running out), and a third process's work fills it.
TEST_WORKERS ?= 3
# The tests' temporary files (their SQLite databases above all) in memory where /dev/shm is:
# creating a database took 0.3 s of waiting for the disk's fsync and 0.03 s of CPU, and the
# suite creates hundreds. Removed after a green run; kept (and named) after a failure. Mode
# 755: the throwaway PostgreSQL clusters run as another user, in a folder inside it.
unit: $(BUILT) system
	@tmp=$$( { test -d /dev/shm && test -w /dev/shm && mktemp -d /dev/shm/bigtop-tests.XXXXXX; } \
		|| mktemp -d ) && chmod 755 $$tmp && echo "TMPDIR=$$tmp" && \
	if TMPDIR=$$tmp $(BIN)/pytest -n $(TEST_WORKERS) --doctest-modules src/bigtop tests; \
		then rm -rf $$tmp; else echo "the failed run's files: $$tmp"; exit 1; fi
	BIGTOP_PURE=1 $(BIN)/pytest -p no:xdist --doctest-modules $(COMPILED_SOURCES)

bench: $(BUILT)
	$(BIN)/python bench/bench_games.py

# The server's load benchmark beside boardgame.io 0.50 (docs/benchmarks.md): its Node part
# (bench/boardgameio) installs from the lock file, here only, never for the tests. The
# defaults are docs/benchmarks.md's table (about half an hour on a quiet machine); shorter:
# make bench-server BENCH_SERVER_ARGS="--tables 10 100 --seconds 15" BENCH_SERVER_PEOPLE=
BGIO := bench/boardgameio
BENCH_SERVER_ARGS ?= --tables 10 100 1000 --seconds 25
BENCH_SERVER_PEOPLE ?= --tables 1000 --think 2 --think-max 10 --seconds 25
$(BGIO)/node_modules/.installed: $(BGIO)/package.json $(BGIO)/package-lock.json
	@command -v npm >/dev/null || { apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs npm; }
	cd $(BGIO) && npm ci --no-audit --no-fund
	touch $@
bench-server: $(BUILT) $(BGIO)/node_modules/.installed
	$(BIN)/python bench/bench_server.py --beside boardgame.io $(BENCH_SERVER_ARGS)
	$(if $(strip $(BENCH_SERVER_PEOPLE)),$(BIN)/python bench/bench_server.py \
		--beside boardgame.io $(BENCH_SERVER_PEOPLE))


# Re-pin after changing dependencies in pyproject.toml (needs the registry): uv.lock for every
# platform and Python, then the two files pip and uv install from. UPGRADE=1 moves every pin
# to the newest release; otherwise pins change only where pyproject.toml asks.
lock: $(STAMP)
	$(BIN)/uv lock $(if $(UPGRADE),--upgrade)
	$(BIN)/uv export --frozen --all-extras --group dev --no-emit-project \
		-o requirements.lock >/dev/null
	$(BIN)/uv export --frozen --only-group bootstrap --no-emit-project \
		-o requirements-bootstrap.txt >/dev/null

# The sdist and the platform wheel (compiled with mypyc for this interpreter) in dist/, built
# with the lock's setuptools and mypy; docs/install.md says how a release builds the others.
wheel: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build dist bench/boardgameio/node_modules
	find src -name '*.so' -delete
	rm -f src/bigtop/_build.json
