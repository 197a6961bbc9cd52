"""The TLS cells' test PKI (docs/tls.md § The test PKI): per server authentication a throw-away
root, an intermediate and a leaf for `server.cryptobench.test`, made once per run with the pinned
OpenSSL's `openssl` command (ML-DSA needs OpenSSL 3.5 or later; the system's 3.0 makes the
classical ones when no pinned build is there).

    python -m cryptobench.verify.tls_pki DIR [AUTH...]     # make DIR/<auth>/{root,chain}.pem, leaf.key
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from cryptobench.core import tls
from cryptobench.versions import cache

PINNED = ("3.6.3", "4.0.3")  # builds of scripts/openssl/build.sh that carry bin/openssl
DAYS = "3650"

_KEYGEN = {
    "ecdsa-p256": ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
    "ed25519": ["-algorithm", "ED25519"],
    "rsa-2048": ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"],
    "mldsa-44": ["-algorithm", "ML-DSA-44"],
    "mldsa-65": ["-algorithm", "ML-DSA-65"],
}
_DIGEST = {"ecdsa-p256": ["-sha256"], "rsa-2048": ["-sha256"]}  # the others sign the message whole

_CONFIG = """[req]
distinguished_name = dn
prompt = no
[dn]
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[intermediate]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:{name}
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
"""


class PkiError(Exception):
    pass


@dataclass(frozen=True)
class Pki:
    """One authentication's files, as a TLS bench or interop request passes them."""

    folder: Path

    @property
    def chain(self) -> Path:
        return self.folder / "chain.pem"

    @property
    def key(self) -> Path:
        return self.folder / "leaf.key"

    @property
    def root(self) -> Path:
        return self.folder / "root.pem"

    def request(self) -> dict:
        return {"chain": str(self.chain), "key": str(self.key), "ca": str(self.root), "server_name": tls.SERVER_NAME}

    def fingerprint(self) -> str:
        """SHA-256 of the leaf and intermediate PEMs: which PKI a stored figure was measured with."""
        return hashlib.sha256(self.chain.read_bytes()).hexdigest()


def openssl_command() -> tuple[str, str] | None:
    """(path, version) of the newest pinned `openssl` command, else the system's; None: neither."""
    for ver in reversed(PINNED):
        exe = cache.base() / "openssl" / ver / "bin" / "openssl"
        if os.access(exe, os.X_OK):
            return str(exe), ver
    exe = shutil.which("openssl")
    if exe:
        out = subprocess.run([exe, "version"], capture_output=True, text=True).stdout.split()
        return exe, out[1] if len(out) > 1 else "?"
    return None


def _run(exe: str, args: list[str], cwd: Path) -> None:
    env = {**os.environ, "OPENSSL_CONF": str(cwd / "openssl.cnf")}
    p = subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True, env=env)
    if p.returncode:
        last = (p.stderr.strip().splitlines() or ["no message"])[-1]
        m = re.search(r"error:[0-9A-Fa-f]+:[^:]*:[^:]*:([^:]+):", last)  # OpenSSL's lib:func:reason: the reason
        raise PkiError(f"openssl {args[0]} failed: {m.group(1) if m else last}")


def make_one(folder: Path, auth: str, exe: str) -> Pki:
    """root → intermediate → leaf, all keys of `auth`'s algorithm."""
    if auth not in _KEYGEN:
        raise PkiError(f"no test PKI for {auth!r} (one of {', '.join(_KEYGEN)})")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "openssl.cnf").write_text(_CONFIG.format(name=tls.SERVER_NAME))
    dig = _DIGEST.get(auth, [])
    for who in ("root", "inter", "leaf"):
        _run(exe, ["genpkey", *_KEYGEN[auth], "-out", f"{who}.key"], folder)
    _run(exe, ["req", "-x509", "-new", "-key", "root.key", "-subj", f"/CN=cryptobench test root {auth}",
               "-days", DAYS, "-extensions", "ca", *dig, "-out", "root.pem"], folder)  # fmt: skip
    for who, issuer, ext, cn in (("inter", "root", "intermediate", f"cryptobench test intermediate {auth}"),
                                 ("leaf", "inter", "leaf", tls.SERVER_NAME)):  # fmt: skip
        _run(exe, ["req", "-new", "-key", f"{who}.key", "-subj", f"/CN={cn}", "-out", f"{who}.csr"], folder)
        _run(exe, ["x509", "-req", "-in", f"{who}.csr", "-CA", f"{issuer}.pem", "-CAkey", f"{issuer}.key",
                   "-set_serial", "0x" + os.urandom(8).hex(), "-days", DAYS, "-extfile", "openssl.cnf",
                   "-extensions", ext, *dig, "-out", f"{who}.pem"], folder)  # fmt: skip
    (folder / "chain.pem").write_text((folder / "leaf.pem").read_text() + (folder / "inter.pem").read_text())
    for f in ("root.key", "inter.key", "inter.csr", "leaf.csr"):
        (folder / f).unlink()  # the CA keys are thrown away: nothing can be issued under this root again
    return Pki(folder)


def make(folder: Path, auths=None) -> tuple[dict[str, Pki], dict[str, str]]:
    """A PKI per authentication under `folder`: ({auth: Pki}, {auth: why it could not be made})."""
    found = openssl_command()
    made, missing = {}, {}
    for auth in auths or tls.AUTHS:
        if found is None:
            missing[auth] = "no `openssl` command (run `make run` to build the pinned OpenSSL)"
            continue
        try:
            made[auth] = make_one(folder / auth, auth, found[0])
        except PkiError as e:
            missing[auth] = f"{e} (OpenSSL {found[1]})"
    return made, missing


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip().splitlines()[-1].strip())
        return 0 if argv else 2
    made, missing = make(Path(argv[0]), argv[1:] or None)
    for auth, pki in made.items():
        print(f"{auth}: {pki.folder}")
    for auth, why in missing.items():
        print(f"{auth}: not made: {why}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
