"""The TLS 1.3 handshake cells' vocabulary (docs/protocol.md § TLS 1.3 handshakes): a cell's name
`tls13-<group>-<auth>[-resume]` parsed into its named group, its server authentication and whether
it resumes, with the IANA code points a driver reports and the sizes a key share adds."""

from __future__ import annotations

from dataclasses import dataclass

CIPHER_AES_128_GCM_SHA256 = 0x1301
EXPORTER_LABEL = "EXPORTER-cryptobench"
EXPORTER_CONTEXT = "cryptobench tls13"
EXPORTER_LEN = 32
SERVER_NAME = "server.cryptobench.test"


@dataclass(frozen=True)
class Group:
    name: str  # in a cell's name
    iana: str  # the registry's name
    code: int
    client_share: int  # bytes of the client's key_exchange
    server_share: int  # bytes of the server's key_exchange (a hybrid's: the ciphertext ‖ ECDH share)
    classical: str | None  # the group whose share a hybrid adds ML-KEM to (None: a classical group)
    kem: str | None = None  # the ML-KEM inside a hybrid


GROUPS = {
    g.name: g
    for g in (
        Group("x25519", "x25519", 0x001D, 32, 32, None),
        Group("p256", "secp256r1", 0x0017, 65, 65, None),
        Group("x25519mlkem768", "X25519MLKEM768", 0x11EC, 1184 + 32, 1088 + 32, "x25519", "ml-kem-768"),
        Group("secp256r1mlkem768", "SecP256r1MLKEM768", 0x11EB, 65 + 1184, 65 + 1088, "p256", "ml-kem-768"),
        Group("secp384r1mlkem1024", "SecP384r1MLKEM1024", 0x11ED, 97 + 1568, 97 + 1568, None, "ml-kem-1024"),
    )
}


@dataclass(frozen=True)
class Auth:
    name: str  # in a cell's name and the test PKI's folder
    key: str  # the catalogue algorithm of the certificate's key (its sign/verify cells)
    sigalgs: tuple[int, ...]  # the TLS 1.3 signature schemes a CertificateVerify may use


AUTHS = {
    a.name: a
    for a in (
        Auth("ecdsa-p256", "ecdsa-p256", (0x0403,)),
        Auth("ed25519", "ed25519", (0x0807,)),
        Auth("rsa-2048", "rsa-2048-pss", (0x0804, 0x0805, 0x0806)),
        Auth("mldsa-44", "ml-dsa-44", (0x0904,)),
        Auth("mldsa-65", "ml-dsa-65", (0x0905,)),
    )
}

OPS = ("handshake", "client", "server")


@dataclass(frozen=True)
class TlsCell:
    name: str
    group: Group
    auth: Auth
    resume: bool

    @property
    def connections(self) -> int:
        """Interop connections per pair: a resumption needs the ticket of a full handshake first."""
        return 2 if self.resume else 1

    @property
    def classical_twin(self) -> str | None:
        """The same cell with the hybrid's classical group, for "hybrid over classical"."""
        if self.group.classical is None:
            return None
        return name_of(self.group.classical, self.auth.name, self.resume)


def name_of(group: str, auth: str, resume: bool = False) -> str:
    return f"tls13-{group}-{auth}" + ("-resume" if resume else "")


CELLS = {
    name_of(g, a, r): TlsCell(name_of(g, a, r), GROUPS[g], AUTHS[a], r)
    for g in GROUPS
    for a in AUTHS
    for r in (False, True)
}


def parse(name: str) -> TlsCell:
    try:
        return CELLS[name]
    except KeyError:
        raise KeyError(f"not a TLS cell: {name!r} (tls13-<group>-<auth>[-resume])") from None


def is_tls(name: str) -> bool:
    return name in CELLS


def negotiated_wrong(cell: TlsCell, view: dict, who: str = "") -> str:
    """What a handshake's report (a bench's `tls`, an interop side's view) negotiated against the cell:
    another group (a hybrid's downgrade) or another cipher suite; "" when both are the cell's."""
    group, cipher = view.get("group"), view.get("cipher")
    if group != cell.group.code:
        kind = "downgrade" if cell.group.kem else "wrong group"
        return f"{kind}: {who}negotiated {group_name(group)}, the cell is {cell.group.iana}"
    if cipher != CIPHER_AES_128_GCM_SHA256:
        return f"{who}negotiated cipher suite {cipher!r}, the cell is TLS_AES_128_GCM_SHA256 (4865)"
    return ""


def group_name(code: int | None) -> str:
    """A reported code point for people: its registry name, else its hex."""
    for g in GROUPS.values():
        if g.code == code:
            return g.iana
    return "none" if code is None else f"0x{code:04x}"
