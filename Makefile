# The two commands of the README:
#   make run    set up (packages, Python env, drivers) and run the default suite -> ./cryptobench.db
#   make test   set up, lint everything, run every driver's native tests and the orchestrator's tests
#               (these three at once, then the tests that judge measured speeds alone)
PY := .venv/bin/python
CB := .venv/bin/cryptobench

.PHONY: run test setup lint native-test pytest pytest-parallel pytest-timing

run: setup
	$(CB) run $(ARGS)

# lint, native tests and pytest's workers mostly wait on processes: run at once, they share the cores;
# their output comes whole, each part when it ends
test: setup
	$(MAKE) --no-print-directory -j3 --output-sync=target lint native-test pytest-parallel
	$(MAKE) --no-print-directory pytest-timing

setup:
	./scripts/setup.sh

# the bench/ scripts are Python without a .py suffix: name them, or ruff skips them
BENCH_PY = $(shell grep -l '^\#!/usr/bin/env python3' bench/* 2>/dev/null) bench/peerlib.py

lint:
	$(PY) -m ruff check cryptobench tests drivers/python plugins $(BENCH_PY)
	$(PY) -m ruff format --check cryptobench tests drivers/python plugins $(BENCH_PY)
	$(MAKE) -C drivers/c lint
	$(MAKE) -C plugins/c lint
	cd drivers/go && test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	cd drivers/go && go vet ./...
	cd drivers/js && npm run --silent lint
	cd drivers/browser && npm run --silent lint
	cd drivers/rust && cargo fmt --check && cargo clippy --quiet --release --locked --all-targets -- -D warnings
	cd bench/criterion-rust && cargo fmt --check
	cd drivers/java && mvn -B -q spotless:check
	$(MAKE) -C protocols/pqntor lint

native-test:
	$(MAKE) -C drivers/c test
	cd drivers/go && go test ./...
	$(PY) -m pytest -q drivers/python/tests
	cd drivers/js && npm test --silent
	cd drivers/browser && npm test --silent
	cd drivers/rust && cargo test --quiet --release --locked
	cd drivers/java && mvn -B -q test
	$(MAKE) -C protocols/pqntor test

# The tests mostly wait on drivers and subprocesses, so more workers than cores pay; tests sharing a
# module's fixture run in one worker (tests/conftest.py). Tests marked `timing` pass or fail on
# measured speeds, so they run after the others, alone on the machine. PYTEST_WORKERS=0: one process.
PYTEST_WORKERS ?= 4
pytest:
	$(MAKE) --no-print-directory pytest-parallel
	$(MAKE) --no-print-directory pytest-timing

pytest-parallel:
	$(PY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup -m "not timing" tests

pytest-timing:
	$(PY) -m pytest -q -m timing tests
