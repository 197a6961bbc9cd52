"""Which providers exist, which driver serves each, and how that driver is built.

A *driver* is a program (one per language/library family); a *provider* is
what a user names (`c:openssl`, `go:stdlib`). Providers from a user's own
`--providers-file` (TOML, `[[provider]] id = ... command = [...]`) join the
built-in ones, so any program that speaks docs/protocol.md can be measured.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from dataclasses import replace
from pathlib import Path

from cryptobench.core import declared
from cryptobench.core.errors import UserError
from cryptobench.core.textsafe import printable
from cryptobench.core.tomlfile import read_toml
from cryptobench.drivers import cpu_features
from cryptobench.drivers.programs import (
    C_HOST,
    C_ONLY_PLUGINS,
    C_PLUGINS,
    DRIVERS,
    PLUGINS,
    PROVIDER_ID,
    REPO,
    Driver,
    Provider,
    _python,
    c_plugin_argv,
    openssl_versions,
)

WASM_OPENSSL = "3.6.3"  # the OpenSSL the wasm build compiles (scripts/wasm/build.sh)


def _builtin() -> list[Provider]:
    def c(pid: str, plugin: str, lib: str, driver: str = "c", where: Path = C_PLUGINS) -> Provider:
        """A C or C++ library (its language is the id's prefix) as a plugin of the generic C driver."""
        path = where / plugin
        return Provider(pid, pid.split(":")[0], lib, driver, c_plugin_argv(path), path)

    def only_plugin(pid: str, name: str, lib: str) -> Provider:  # plugins/c: the libraries that are only plugins
        return c(pid, f"libcb_{name}.so", lib, "c-plugins", C_ONLY_PLUGINS)

    go = REPO / "drivers/go/build/cbdriver-go"
    py = (_python(), "-m", "cbdriver")
    js = ("node", str(REPO / "drivers/js/src/main_node.js"))
    js_built = REPO / "drivers/js/node_modules/.package-lock.json"
    browser = ("node", str(REPO / "drivers/browser/bridge.mjs"))
    browser_built = REPO / "drivers/browser/node_modules/.package-lock.json"
    rust = REPO / "drivers/rust/target/release/cbdriver-rust"
    wasm = REPO / "drivers/c/build/wasm/cbdriver-openssl.wasm"  # `cryptobench build wasm-openssl` (docs/wasm.md)
    wasm_lib = f"OpenSSL {WASM_OPENSSL} compiled to wasm32-wasi (no-asm: portable C, no AES-NI)"
    rust_boring = REPO / "drivers/rust/target/boring/release/cbdriver-rust"  # `cryptobench build rust:boring`
    jar = REPO / "drivers/java/target/cbdriver-java.jar"
    providers = [
        c("c:openssl", "libcb_openssl.so", "OpenSSL (system libcrypto, EVP)"),
        c("c:libsodium", "libcb_sodium.so", "libsodium (Debian)"),
        c("cpp:botan", "libcb_botan.so", "Botan 2 C++ API (Debian)"),
        c("c:botan-ffi", "libcb_botan-ffi.so", "Botan 2 C FFI (Debian)"),
        only_plugin("c:mbedtls", "mbedtls", "Mbed TLS 2.28 (Debian, plugin)"),
        only_plugin("c:wolfssl", "wolfssl", "wolfSSL 5.5 wolfCrypt (Debian, plugin)"),
        only_plugin("c:gnutls", "gnutls", "GnuTLS 3.7, TLS 1.3 only (Debian, plugin)"),
        only_plugin("c:libgcrypt", "gcrypt", "libgcrypt 1.10 (Debian, plugin)"),
        only_plugin("c:nettle", "nettle", "GNU Nettle 3.8 (Debian, plugin)"),
        only_plugin("cpp:cryptopp", "cryptopp", "Crypto++ 8.7, C++ (Debian, plugin)"),
        only_plugin("c:libtomcrypt", "tomcrypt", "LibTomCrypt 1.18 (Debian, plugin)"),
        Provider("go:stdlib", "go", "Go standard library + golang.org/x/crypto", "go", (str(go),), go),
        Provider("go:gmsm", "go", "github.com/emmansun/gmsm (SM2/SM3/SM4)", "go", (str(go),), go),
        Provider(
            "go:circl", "go", "github.com/cloudflare/circl (X-Wing, ML-KEM, ML-DSA, SLH-DSA)", "go", (str(go),), go
        ),
        Provider("python:cryptography", "python", "pyca/cryptography", "python", py),
        Provider("python:hashlib", "python", "CPython hashlib/hmac", "python", py),
        Provider(
            "python:ref", "python", "PyPI reference implementations (slh-dsa): correctness, not speed", "python", py
        ),
        Provider("python:pqcrypto", "python", "PyPI pqcrypto: Backbone's Rust HQC and SLH-DSA (PyO3)", "python", py),
        # plugins shipped with cryptobench: the same interface a user's own library uses (docs/plugins.md)
        Provider(
            "python:pycryptodome",
            "python",
            "PyCryptodome (plugin)",
            "python",
            (*py, "--plugin", str(PLUGINS / "pycryptodome_provider.py")),
        ),
        Provider(
            "python:pynacl",
            "python",
            "PyNaCl over libsodium (plugin)",
            "python",
            (*py, "--plugin", str(PLUGINS / "pynacl_provider.py")),
        ),
        Provider(
            "python:cryptography-bytewise",
            "python",
            "TEST PATH: pyca/cryptography fed 1 byte per update()",
            "python",
            py,
            hidden=True,
        ),  # fmt: skip
        *[
            Provider(pid, lang, lib, "js", js, js_built)
            for pid, lang, lib in (
                ("js:node", "javascript", "node:crypto (Node's OpenSSL)"),
                ("js:webcrypto", "javascript", "WebCrypto (crypto.subtle) in Node"),
                ("js:noble", "javascript", "@noble/hashes, ciphers, curves, post-quantum (pure JS)"),
                ("js:asmcrypto", "javascript", "asmcrypto.js (asm.js AES, SHA-2, HMAC)"),
                ("js:jsrsasign", "javascript", "jsrsasign (pure JS RSA, ECDSA)"),
                ("js:liboqs", "wasm", "@oqs/liboqs-js: liboqs 0.15 compiled to WebAssembly"),
                ("wasm:hash-wasm", "wasm", "hash-wasm (WebAssembly)"),
            )
        ],
        *[
            Provider(pid, lang, lib, "browser", browser, browser_built)
            for pid, lang, lib in (
                ("browser:webcrypto", "javascript", "WebCrypto (crypto.subtle) in headless Chromium"),
                ("browser:noble", "javascript", "@noble/* (pure JS) in headless Chromium"),
                ("browser:asmcrypto", "javascript", "asmcrypto.js (asm.js) in headless Chromium"),
                ("browser:jsrsasign", "javascript", "jsrsasign (pure JS RSA, ECDSA) in headless Chromium"),
                ("browser:wasm", "wasm", "hash-wasm (WebAssembly) in headless Chromium"),
            )
        ],
        *[
            Provider(pid, "rust", lib, "rust", (str(rust),), rust)
            for pid, lib in (
                ("rust:rustcrypto", "RustCrypto crates"),
                ("rust:ring", "ring"),
                ("rust:aws-lc-rs", "aws-lc-rs (AWS-LC)"),
                ("rust:backbone", "Backbone's HQC (backbone-hqc crate), native Rust"),
                ("rust:rustls", "rustls (aws-lc-rs provider)"),
                ("rust:rustls-ring", "rustls (ring provider)"),
            )
        ],
        # the same .wasm on three engines: wasmtime (PyPI), Node's WASI (V8), Chromium (V8, a Web Worker)
        Provider(
            "wasm:openssl-wasmtime",
            "wasm",
            f"{wasm_lib} in wasmtime (PyPI wasmtime)",
            "wasm-openssl",
            (_python(), str(REPO / "drivers/c/wasm/run_wasmtime.py"), str(wasm)),
            wasm,
        ),
        Provider(
            "wasm:openssl-node",
            "wasm",
            f"{wasm_lib} in Node's WASI (node:wasi, V8)",
            "wasm-openssl",
            ("node", "--no-warnings", str(REPO / "drivers/js/src/wasi_node.mjs"), str(wasm)),
            wasm,
        ),
        Provider(
            "browser:openssl-wasm",
            "wasm",
            f"{wasm_lib} in headless Chromium (a Web Worker)",
            "wasm-openssl",
            browser,
            wasm,
        ),
        Provider("rust:boring", "rust", "BoringSSL (boring crate)", "rust-boring", (str(rust_boring),), rust_boring),
        *[
            Provider(pid, "java", lib, "java", (str(REPO / "drivers/java/cbdriver-java"),), jar)
            for pid, lib in (
                ("java:jca", "JDK providers (SUN, SunJCE, SunEC, SunRsaSign)"),
                ("java:bouncycastle", "BouncyCastle JCA provider"),
                ("java:bouncycastle-lw", "BouncyCastle lightweight API"),
                ("java:jsse", "SunJSSE (the JDK's TLS 1.3)"),
            )
        ],
    ]
    providers.append(c("c:liboqs", "libcb_liboqs.so", "liboqs", driver="liboqs"))
    for pid, version in openssl_versions():
        lib = f"OpenSSL {version} (static, from crates.io openssl-src)"
        pin = c(f"c:openssl@{version}", f"libcb_openssl-{version}.so", lib, driver="openssl-versions")
        providers.append(replace(pin, version=version, serves=pid, family="c-openssl"))
        if version == WASM_OPENSSL:  # the wasm build's twin without hardware AES: the fair native figure
            providers.append(
                replace(
                    pin,
                    id=f"c:openssl-no-aesni@{version}",
                    library=f"{lib}, AES-NI and VAES off (OPENSSL_ia32cap): no hardware AES, as in wasm",
                    version=version,
                    serves=pid,
                    family="c-openssl",
                    extra_env=(("OPENSSL_ia32cap", cpu_features.ia32cap(["aesni"])),),
                )
            )
    return providers


def aliases() -> dict[str, str]:
    """Old ids that still work: `c:openssl-3.6.3` is `c:openssl@3.6.3` (the pinned OpenSSL builds)."""
    return {pid: f"c:openssl@{version}" for pid, version in openssl_versions()}


class Registry:
    def __init__(self, providers_file: str | Path | None = None, plugins: list[str] | None = None,
                 load_timeout: float = 60):  # fmt: skip
        self.providers: dict[str, Provider] = {p.id: p for p in _builtin()}
        if providers_file:
            for p in _load_providers_file(Path(providers_file)):
                self.providers[p.id] = p
        self.plugin_ids: list[str] = []  # what `--plugin` added, in the order given
        self.aliases = aliases()
        self.build_errors: dict[str, str] = {}  # versioned provider -> why its build failed
        for spec in plugins or []:
            p = plugin_provider(spec, Path.cwd(), load_timeout)
            self.providers[p.id] = p
            self.plugin_ids.append(p.id)
        # what they declare joins this process's catalogue (refused in one line when it conflicts)
        declared.register([d for p in self.providers.values() for d in p.declares])

    def selectable(self, named: list[str] | None) -> list[str]:
        """Providers a run may use: every visible one, and hidden test paths named exactly."""
        named = named or []
        return [pid for pid, p in self.providers.items() if not p.hidden or pid in named]

    def canonical(self, pid: str) -> str:
        return self.aliases.get(pid, pid)

    def add(self, p: Provider) -> None:
        self.providers[p.id] = p

    def get(self, pid: str) -> Provider:
        try:
            return self.providers[self.canonical(pid)]
        except KeyError:
            raise UserError(f"unknown provider {pid!r} (see `cryptobench list providers`)") from None

    def driver_of(self, p: Provider) -> Driver | None:
        return DRIVERS.get(p.driver) if p.driver else None

    def usable(self, p: Provider) -> tuple[bool, str]:
        """(True, '') when the provider can run, else (False, what is missing and the fix)."""
        d = self.driver_of(p)
        if p.id in self.build_errors:
            return False, self.build_errors[p.id]
        if p.command[:1] == (str(C_HOST),) and not C_HOST.exists():
            return False, "the generic C driver is not built: `cryptobench build c` adds it"
        if p.family and d is None:  # a version built on demand (docs/versions.md)
            if p.artifact is not None and not p.artifact.exists():
                return False, f"not built: `cryptobench build {p.id}` adds it"
            return True, ""
        if d is None:
            exe = p.command[0] if p.command else ""
            if exe and not (Path(exe).exists() or shutil.which(exe)):
                return False, f"command {exe!r} not found"
            return True, ""
        if p.artifact is not None and not p.artifact.exists():
            return False, f"driver not built: `{d.fix_for(p.id)}` adds it"
        return True, ""

    def env_for(self, p: Provider) -> dict:
        env = {"PYTHONPATH": str(DRIVERS["python"].directory)} if p.driver == "python" else {}
        return {**env, **dict(p.extra_env)}


def plugin_provider(spec: str, base: Path, load_timeout: float = 60) -> Provider:
    """The provider a plugin serves: a C plugin (`FILE.so`, include/cryptobench/provider.h) under the
    generic C driver, or a Python plugin (`FILE.py[:NAME]` or `module[:NAME]`, docs/plugins.md) under
    the Python driver. Its id is the plugin's own, asked of the driver (its hello, which also says what it declares), which loads
    the plugin once to answer: a plugin that does not load is refused here, in one line."""
    where, sep, name = spec.rpartition(":") if ":" in Path(spec).name else (spec, "", "")
    if where.endswith((".dylib", ".dll")):
        raise UserError(f"plugin {spec}: only Linux shared objects (.so) and Python plugins are supported")
    path = base / where
    if where.endswith(".so"):
        if sep:
            raise UserError(f"plugin {spec}: a C plugin is one provider; name the file alone")
        if not path.is_file():
            raise UserError(f"plugin {spec}: no such file")
        if not C_HOST.exists():
            raise UserError(f"plugin {spec}: the generic C driver is not built: `cryptobench build c` adds it")
        argv = c_plugin_argv(path.resolve())
        pid, decls = _ask_plugin(spec, argv, dict(os.environ), load_timeout)
        lang = pid.split(":")[0] if not pid.startswith("plugin:") else "c"
        return Provider(pid, lang, f"plugin {spec}", None, argv, declares=decls)
    if where.endswith(".py") or path.exists():
        if not path.is_file():
            raise UserError(f"plugin {spec}: no such file")
        spec = str(path.resolve()) + sep + name
    argv = (_python(), "-m", "cbdriver", "--plugin", spec)
    env = {**os.environ, "PYTHONPATH": str(DRIVERS["python"].directory)}
    pid, decls = _ask_plugin(spec, argv, env, load_timeout)
    return Provider(pid, "python", f"plugin {spec}", "python", argv, declares=decls)


def _ask_plugin(spec: str, argv: tuple[str, ...], env: dict, timeout: float = 60):
    """(the provider id a plugin serves, what it declares), from its driver's hello (the driver
    serves the plugin's own id when started without --provider); a one-line UserError when the
    plugin does not load (missing symbol, other ABI, an init that fails, crashes or hangs)."""
    import json

    from cryptobench import PROTOCOL_VERSION
    from cryptobench.drivers.client import (
        spawn,  # a plugin hanging in its init dies with a killed cryptobench, as drivers do
    )

    hello = json.dumps({"cmd": "hello", "protocol": PROTOCOL_VERSION}) + "\n"
    proc = spawn([*argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        out, err = proc.communicate(hello, timeout=timeout)
    except subprocess.TimeoutExpired:  # `plugin check --timeout` bounds this wait too
        proc.kill()
        proc.communicate()
        raise UserError(f"plugin {spec}: loading it took over {timeout:g} s") from None
    if proc.returncode != 0:
        lines = err.strip().splitlines()
        # the plugin's own words (an exception it raised, what it wrote): shown as text, never as escapes
        why = printable((lines or [_exit_reason(proc.returncode)])[-1].removeprefix("cbdriver: "))
        raise UserError(why if why.startswith("plugin ") else f"plugin {spec}: {why}")
    lines = out.strip().splitlines()
    try:
        said = json.loads(lines[-1]) if lines else {}
    except ValueError:
        said = {}
    if not isinstance(said, dict) or len(lines) != 1 or not said.get("ok"):
        why = printable(str(said.get("error", "")))[:200] if isinstance(said, dict) and said.get("error") else ""
        hint = " (did the plugin print to standard output while loading?)" if len(lines) > 1 else ""
        raise UserError(f"plugin {spec}: its driver did not answer hello{': ' + why if why else ''}"
                        f" ({printable(repr(out[:80]))}){hint}")  # fmt: skip
    pid = said.get("provider")
    if not isinstance(pid, str) or not PROVIDER_ID.fullmatch(pid):  # stored, compared, printed: the catalogue's shape
        raise UserError(
            f"plugin {spec}: its provider id {printable(repr(pid))[:120]} is not of the form lang:name[@version] "
            f"(letters, digits, '.', '-', '_', '+')"
        )
    decls = said.get("declares") or []
    if not isinstance(decls, list):
        raise UserError(f"plugin {spec}: its hello's declares is not a list")
    return pid, tuple(declared.parse(d, pid, context=f"plugin {spec}") for d in decls)


def _exit_reason(code: int) -> str:
    if code < 0:
        return f"its driver died of {signal.Signals(-code).name} while loading it"
    return f"its driver exited with code {code} while loading it"


def _load_providers_file(path: Path) -> list[Provider]:
    data = read_toml(path, "providers file", f"providers file {str(path)!r}")
    out = []
    for i, entry in enumerate(data.get("provider", [])):
        if isinstance(entry.get("plugin"), str):  # [[provider]] plugin = "./mine.py"
            p = plugin_provider(entry["plugin"], path.parent)
            out.append(replace(p, declares=p.declares + _declares(entry, p.id, path)))
            continue
        pid, cmd = entry.get("id"), entry.get("command")
        if not isinstance(pid, str) or ":" not in pid:
            raise UserError(f"providers file {str(path)!r}: provider #{i + 1} needs an id like 'lang:library'")
        if not isinstance(cmd, list) or not cmd or not all(isinstance(c, str) for c in cmd):
            raise UserError(f'providers file {str(path)!r}: provider {pid!r} needs command = ["program", ...]')
        cmd = [str((path.parent / c).resolve()) if c.startswith("./") else c for c in cmd]
        serves = entry.get("serves")  # another build of a provider under its own id (bench/same-figures)
        if serves is not None and (not isinstance(serves, str) or ":" not in serves):
            raise UserError(f"providers file {str(path)!r}: provider {pid!r}: serves must be an id like 'lang:library'")
        lang, lib = entry.get("language", pid.split(":")[0]), entry.get("library", pid)
        decls = _declares(entry, pid, path)
        if entry.get("declares_in_hello") is True:  # asked now, once: the plan needs them before any run starts
            argv = (*cmd, "--provider", serves or pid)
            said, more = _ask_plugin(f"{pid} (providers file {str(path)!r})", argv, dict(os.environ))
            if said != (serves or pid):
                raise UserError(f"providers file {str(path)!r}: provider {pid!r}: hello names provider {said}")
            decls += more
        out.append(Provider(pid, lang, lib, None, tuple(cmd), serves=serves, declares=decls))
    return out


def _declares(entry: dict, pid: str, path: Path) -> tuple[declared.Declaration, ...]:
    """An entry's `[[provider.declare]]` tables (docs/providers-file.md): algorithms of its own, for a
    driver whose hello cannot say them; a relative `kat` is the file's neighbour."""
    tables = entry.get("declare", [])
    if not isinstance(tables, list):
        raise UserError(f"providers file {str(path)!r}: provider {pid!r}: declare must be [[provider.declare]] tables")
    return tuple(declared.parse(t, pid, path.parent, f"providers file {str(path)!r}: provider {pid}") for t in tables)
