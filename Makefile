# The two commands of the README:
#   make run    set up (packages, Python env, drivers) and run the default suite -> ./cryptobench.db
#   make test   set up, lint everything, run every driver's native tests and the orchestrator's tests
#               (these at once, then the tests that judge measured speeds alone)
# docs/testing.md: how the loop is organised, how to run one part, what is cached and how to force it.
PY := .venv/bin/python
CB := .venv/bin/cryptobench

.PHONY: run test setup lint native-test pytest pytest-parallel pytest-timing

run: setup
	$(CB) run $(ARGS)

# pytest's workers, the native suites and the linters mostly wait on processes: run at once, they share
# both cores (pytest-parallel first: it is the longest). Output comes whole, each part when it ends.
TEST_JOBS ?= 3
test: setup
	$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target pytest-parallel native-test lint
	$(MAKE) --no-print-directory pytest-timing

setup:
	./scripts/setup.sh

# ARM64 under emulation (docs/platforms.md): the C and Go drivers cross-built for aarch64, their native
# tests and `cryptobench verify` under qemu-aarch64. Minutes of emulation: not part of `make test`.
.PHONY: test-arm64
test-arm64:
	scripts/arm64/test.sh

# ---- cached parts -------------------------------------------------------------------------------
# A native suite or linter whose inputs (files under each --in, tool versions) are the same as at its
# last green run is skipped with one line (scripts/cached-run, keys under ~/.cache/cryptobench/
# test-runs). FORCE=1 runs everything: `make test FORCE=1`, `make native-test-go FORCE=1`.
CACHED := python3 scripts/cached-run
CBCACHE := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/cryptobench
export FORCE
# what every driver's vector tests read (exported by setup from cryptobench/vectors)
CASES := --in build/cases
CC_TOOLS := --tool 'gcc --version' --tool 'g++ --version' --tool 'clang-format --version'
DEB_LIBS := --tool 'dpkg-query -W libssl-dev libjansson-dev libsodium-dev libbotan-2-dev'
GO_TOOLS := --tool 'go version' --tool 'go env GOFLAGS GOARCH GOAMD64 CGO_ENABLED'
RUST_TOOLS := --tool 'rustc -vV' --tool 'cargo -V' --tool 'cargo clippy -V'
NODE_TOOLS := --tool 'node --version'
JAVA_TOOLS := --tool 'java -version' --tool 'mvn -v'
VENV_TOOLS := --tool '$(PY) -c "import importlib.metadata as m, sys; print(sys.version, sorted((d.metadata[\"Name\"], d.version) for d in m.distributions()))"'

# one target per driver, so make -j schedules them side by side; the longest first (CPU seconds on the
# 2-core machine of docs/testing.md: c 155, rust 123, java 68, js 64, python 55, go 34, browser 12,
# pqntor 9), so no long suite starts last and runs alone
NATIVE := c rust java js python go browser pqntor
.PHONY: $(addprefix native-test-,$(NATIVE))
native-test: $(addprefix native-test-,$(NATIVE))

# drivers/c/tests/crosscheck.py imports cryptobench.core and cryptobench.verify
native-test-c:
	@$(CACHED) native-c --in drivers/c --in include --in protocols/pqntor/c $(CASES) --in $(CBCACHE)/liboqs \
	  --in cryptobench/core --in cryptobench/verify \
	  $(CC_TOOLS) $(DEB_LIBS) --tool 'python3 --version' -- $(MAKE) -C drivers/c test
# go test's 10-minute default is a hang guard that a loaded CI runner hits (TestVectors alone ran 10 min at load 30)
native-test-go:
	@$(CACHED) native-go --in drivers/go $(CASES) $(GO_TOOLS) -- sh -c 'cd drivers/go && go test -timeout 30m ./...'
native-test-python:
	@$(CACHED) native-python --in drivers/python $(CASES) $(VENV_TOOLS) -- $(PY) -m pytest -q drivers/python/tests
native-test-js:
	@$(CACHED) native-js --in drivers/js $(CASES) $(NODE_TOOLS) -- sh -c 'cd drivers/js && npm test --silent'
native-test-browser:
	@$(CACHED) native-browser --in drivers/browser --in drivers/js $(CASES) $(NODE_TOOLS) \
	  --tool 'chromium --version' -- sh -c 'cd drivers/browser && npm test --silent'
# the test harness is the driver crate compiled again (cfg(test)): in one codegen unit, for it alone (the
# dependencies and `make run`'s binary keep the release profile), 36 -> 32 CPU s to build, 10 s more wall
native-test-rust:
	@$(CACHED) native-rust --in drivers/rust $(CASES) $(RUST_TOOLS) \
	  -- sh -c 'cd drivers/rust && cargo test --quiet --release --locked \
	  --config "profile.release.package.cbdriver-rust.codegen-units=1"'
native-test-java:
	@$(CACHED) native-java --in drivers/java $(CASES) $(JAVA_TOOLS) -- sh -c 'cd drivers/java && mvn -B -q test'
native-test-pqntor:
	@$(CACHED) native-pqntor --in protocols/pqntor --in include/cryptobench/hex.h --in $(CBCACHE)/openssl/3.6.3 $(CC_TOOLS) $(GO_TOOLS) \
	  --tool 'python3 --version' -- $(MAKE) -C protocols/pqntor test

# the bench/ scripts are Python without a .py suffix: name them, or ruff skips them
BENCH_PY = $(shell grep -l '^\#!/usr/bin/env python3' bench/* 2>/dev/null) bench/peerlib.py
PY_LINTED = cryptobench tests drivers/python drivers/c/wasm plugins scripts/cached-run scripts/acvp/refetch scripts/acvp/ascon-kat scripts/kat/refetch $(BENCH_PY)

LINTERS := rust java python c go js browser pqntor web
.PHONY: $(addprefix lint-,$(LINTERS))
lint: $(addprefix lint-,$(LINTERS))

lint-python:  # ruff is quick and its inputs change all the time: not cached
	$(PY) -m ruff check $(PY_LINTED)
	$(PY) -m ruff format --check $(PY_LINTED)
lint-c:
	@$(CACHED) lint-c --in drivers/c --in plugins/c --in include --in .clang-format $(CC_TOOLS) \
	  -- sh -c '$(MAKE) -C drivers/c lint && $(MAKE) -C plugins/c lint'
lint-go:
	@$(CACHED) lint-go --in drivers/go $(GO_TOOLS) -- sh -c 'cd drivers/go && \
	  { test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }; } && go vet ./...'
lint-js:
	@$(CACHED) lint-js --in drivers/js $(NODE_TOOLS) -- sh -c 'cd drivers/js && npm run --silent lint'
lint-browser:
	@$(CACHED) lint-browser --in drivers/browser $(NODE_TOOLS) -- sh -c 'cd drivers/browser && npm run --silent lint'
lint-rust:
	@$(CACHED) lint-rust --in drivers/rust --in bench/criterion-rust $(RUST_TOOLS) -- sh -c \
	  'cd drivers/rust && cargo fmt --check && cargo clippy --quiet --release --locked --all-targets -- -D warnings && \
	   cd ../../bench/criterion-rust && cargo fmt --check'
lint-java:
	@$(CACHED) lint-java --in drivers/java $(JAVA_TOOLS) -- sh -c 'cd drivers/java && mvn -B -q spotless:check'
# the report's and the published site's scripts and styles, and the browser checks of them: prettier
# as the JavaScript drivers configure it (quick: not cached)
WEB_LINTED = cryptobench/report/assets/*.js cryptobench/report/assets/*.css tools/html-check/*.mjs
lint-web:
	drivers/js/node_modules/.bin/prettier --print-width 120 --check --log-level warn $(WEB_LINTED)
lint-pqntor:
	@$(CACHED) lint-pqntor --in protocols/pqntor $(CC_TOOLS) $(GO_TOOLS) -- $(MAKE) -C protocols/pqntor lint

# The tests mostly wait on drivers and subprocesses, so more workers than cores pay; tests sharing a
# module's fixture run in one worker (tests/conftest.py), and the longest are handed out first
# (tests/durations.tsv; --no-loadscope-reorder keeps that order). Tests marked `timing` pass or fail on
# measured speeds, so they run after the others, alone on the machine. PYTEST_WORKERS=0: one process.
PYTEST_WORKERS ?= 4
pytest:
	$(MAKE) --no-print-directory pytest-parallel
	$(MAKE) --no-print-directory pytest-timing

# The orchestrator's tests start every driver, PostgreSQL and Chromium: their key is the whole tree (any
# edit anywhere runs them again), the exported cases, the cached libraries and every toolchain.
PYTEST_INPUTS := --in . $(CASES) --in $(CBCACHE)/openssl --in $(CBCACHE)/liboqs $(CC_TOOLS) $(DEB_LIBS) \
  $(GO_TOOLS) $(RUST_TOOLS) $(NODE_TOOLS) $(JAVA_TOOLS) $(VENV_TOOLS) --tool 'chromium --version' \
  --tool 'dpkg-query -W postgresql valgrind libmbedtls-dev libwolfssl-dev libgcrypt20-dev nettle-dev \
  libcrypto++-dev libtomcrypt-dev libgnutls28-dev'
pytest-parallel:
	@$(CACHED) pytest-parallel $(PYTEST_INPUTS) \
	  -- $(PY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup --no-loadscope-reorder -m "not timing" tests

pytest-timing:
	@$(CACHED) pytest-timing $(PYTEST_INPUTS) -- $(PY) -m pytest -q -m timing tests
