"""Each command's examples and exit statuses: the epilog of its `--help`."""

from __future__ import annotations

from cryptobench.plan.leak_classes import CLASSES as LEAK_CLASSES

EXAMPLES = {
    "run": """examples:
  cryptobench run                                   # the default suite on every available provider
  cryptobench run --alg 'aes-*-gcm' --size 16KiB,1MiB --md report.md
  cryptobench run --provider c:openssl --alg aes-256-ctr --size 8KiB   # any cell, listed by a suite or not
  cryptobench run --alg sha256 --alg sha512 --provider go:stdlib       # repeated flags add up
  cryptobench run --suite my-suite.toml --provider 'c:*,go:*' --baseline go:stdlib --json out.json
  cryptobench run --suite versions --cpu-features no-aesni --label 'AES-NI off'
  cryptobench run --plugin mine.py --alg sha256      # your own library (docs/plugins.md) beside c:openssl
  cryptobench run --plugin ./libcb_mine.so --alg sha256   # a C/C++ plugin (docs/plugin-abi.md)
  cryptobench run --machine-label 'pi5, 2.4 GHz'      # this machine's name in `runs` and the reports
  cryptobench run --precision 0.5                     # aim every cell at a ±0.5% interval (default: ±1%)
  cryptobench run --unit cpb,mbs                      # TSC reference cycles per byte beside MB/s
  cryptobench run --metric instructions --provider c:openssl --alg sha256   # instructions/op, exact on a busy machine
  cryptobench run --suite tls                         # TLS 1.3 handshakes, classical and hybrid, interop-verified
  cryptobench run --alg 'tls13-x25519*-ecdsa-p256' --provider go:stdlib --workers 1,2   # handshakes/s per core
exit status: 0 when every cell was measured (or is not offered), 1 when a cell, a verification or a
  cross-verification failed or --leak found a leak (the last line names them), 2 when it could not run
  (bad input, no database), 130 when interrupted (every cell measured so far is kept)""",
    "verify": """examples:
  cryptobench verify                                  # the default suite's algorithms and providers
  cryptobench verify --provider '*' --alg 'aes-*' --md conformance.md
  cryptobench verify --provider c:openssl --alg sha256 --inputs 2000     # more differential inputs
  cryptobench verify --plugin mine.py                 # your plugin against c:openssl, nothing timed
  cryptobench verify --provider test:x --alg sha256 --replay 'op=hash,size=57,seed=2654435769,chunk=7'
exit status: 0 when nothing failed, 1 when a provider failed a case (for a library's CI; --replay: when
  the providers' outputs differ), 2 on bad input, 130 when interrupted""",
    "leak": """examples:
  cryptobench leak                                    # the leak suite: tag checks, AES, X25519, ECDSA, RSA, ML-KEM
  cryptobench leak --provider c:openssl --alg aes-128-gcm --class tag --seconds 20
  cryptobench leak --provider c:openssl --alg x25519 --target-effect 0.5%   # until a 0.5% shift would show
  cryptobench leak --cpu-features no-aesni --alg aes-128-ecb --md leak.md     # OpenSSL without AES-NI
  cryptobench leak --plugin ./libcb_mine.so --alg aes-128-gcm --html leak.html  # your library, a chart per check
  cryptobench run --leak --alg x25519                 # throughput, then the leak checks of the same cells
classes: """
    + ", ".join(LEAK_CLASSES)
    + """ (docs/leak.md)
exit status: 0 when no leak was detected, 1 when one was, a check failed or a checked provider failed
  another operation's verification (for a library's CI), 2 on bad input, 130 when interrupted""",
    "list": """examples:
  cryptobench list providers     # language, library, version, algorithms offered
  cryptobench list providers --provider 'go:*,c:openssl'
  cryptobench list algorithms
  cryptobench list suites
exit status: 0 (a provider that cannot start is listed with why: `doctor` fails on it), 2 on bad input""",
    "doctor": """example:
  cryptobench doctor             # which drivers are built and usable, and the command that fixes each
exit status: 0 when every provider starts (the optional heavy builds of `build --all` may be missing), 1
  when one does not or the vectors are missing, 2 on bad input (a providers file that does not parse)""",
    "show": """examples:
  cryptobench show latest                    # the newest run, as terminal tables
  cryptobench show 3 --md run3.md --json run3.json --csv run3.csv
  cryptobench show latest --html report.html      # charts, one self-contained file
  cryptobench show latest~1 --format md      # the run before the newest, Markdown on stdout
  cryptobench show latest --warnings         # every warning of the run in full, by kind
  cryptobench show latest --unit cpb --unit ns    # cycles per byte (TSC reference cycles), then ns
exit status: 0 when shown (a run with failed cells too: `run` said so), 2 when it cannot be (no such run
  or database, bad input)""",
    "runs": """examples:
  cryptobench runs --db results/cryptobench.db
  cryptobench runs --machine pi5 --json --db postgresql://cb_read@fleet/cryptobench
exit status: 0 when listed, 2 when the database cannot be read""",
    "compare": """examples:
  cryptobench compare latest~1 latest                # two stored runs, e.g. before and after an upgrade
  cryptobench compare --providers c:openssl,go:stdlib latest --md cmp.md
  cryptobench compare 4 7 --fail-on-regression 5     # exit 1 if any cell got significantly slower by > 5%
  cryptobench compare 4 7 --fail-on-regression 0.5   # runs with --metric instructions: > 0.5% more instructions
  cryptobench compare --machines laptop,pi5 --suite default     # each machine's latest run, per cycle too
  cryptobench compare --machines laptop,pi5,ci --layout matrix --html machines.html   # machines × algorithms
exit status: 0 when compared, 1 with --fail-on-regression when a cell got slower by more than PCT (the
  last line names them), 2 on bad input (no such run, nothing in common), 130 when interrupted""",
    "reference": """examples:
  cryptobench reference add paper-table4.toml      # a paper's figures, with their source and machine
  cryptobench reference list
  cryptobench reference remove 3
  cryptobench show latest --normalise '0.55:Pi 5 core at 2.4 GHz vs 4.4 GHz here'   # opt in to ratios
file format (TOML):
  source = "Example et al. 2025, Table 4"
  machine = "Raspberry Pi 5 (Cortex-A76, 2.4 GHz)"
  [[figure]]
  alg = "ml-kem-512"
  op = "keygen"
  ops_per_s = 23168
exit status: 0 when done, 2 on bad input (a file that does not parse, no such id)""",
    "check-driver": """examples:
  cryptobench check-driver                             # every built provider against the driver rules
  cryptobench check-driver --provider 'c:*' --json rules.json
  cryptobench check-driver --providers-file mine.toml --provider mine:lib   # your own driver
rules: docs/protocol.md § The measurement loop
exit status: 0 when every driver keeps every rule, 1 when one breaks a rule, 2 on bad input (no provider
  to check), 130 when interrupted""",
    "plugin": """examples:
  cryptobench plugin new mylib                   # ./mylib/mylib_provider.py, a working plugin to make yours
  cryptobench plugin check mylib/mylib_provider.py   # every vector and differential input, no timing
  cryptobench plugin new mylib --lang c && make -C mylib   # a C plugin: ./mylib/libcb_mylib.so
  cryptobench plugin check ./mylib/libcb_mylib.so
  cryptobench plugin check ./mylib/libcb_mylib.so --alg 'aes-*-gcm'   # the fast loop; the last line is the verdict
  cryptobench plugin new mylib --lang rust && cargo build --release --manifest-path mylib/Cargo.toml
  cryptobench plugin check ./mylib/target/release/libcb_mylib.so   # a Rust cdylib plugin
  cryptobench run --plugin mylib/mylib_provider.py --alg sha256      # then measure it
exit status: 0 when `new` wrote it or `check` passed, 1 when a case fails or a driver rule is broken
  (docs/plugins.md), 2 when the plugin cannot be loaded or on bad input, 130 when interrupted""",
    "build": """examples:
  cryptobench build              # build every driver, say which could not be built and why
  cryptobench build c go
  cryptobench build --all        # also OpenSSL 1.1.1, 3.x and 4.0 from source (minutes once, then cached)
  cryptobench build wasm-openssl # OpenSSL 3.6.3 as wasm32-wasi, for wasmtime, Node and Chromium (docs/wasm.md)
  cryptobench build c:openssl-3.6.3   # one provider of a driver: here one OpenSSL version
  cryptobench build python:cryptography@41.0.7 rust:ring@0.16   # releases from the registries (cached)
  cryptobench build go:stdlib@1.26 go:stdlib@1.27   # our Go driver built by the machine's Go and by 1.27.3
  cryptobench build --list       # the cached version builds: size, build time, last use
  cryptobench build --prune rust:ring --unused-for 30
exit status: 0 when every build named was built (--list, --prune: done), 1 when one failed (the line
  says why), 2 on bad input (an unknown driver), 130 when interrupted""",
}
