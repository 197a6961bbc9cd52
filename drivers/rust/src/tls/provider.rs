//! The TLS providers: `rust:rustls` (the aws-lc-rs CryptoProvider),
//! `rust:rustls-ring` (the ring one) and `rust:boring` (BoringSSL). Their
//! catalogue is the TLS cells their library can negotiate, nothing else
//! (the crypto primitives are the other providers').

#[cfg(feature = "boring")]
use super::bssl;
use super::cell::{Library, TlsCell};
use super::{Configs, Files, Flavour, Spec, AUTHS, GROUP_CODES};
use crate::ops::{crate_versions, Alg, Cell, CellParams, Failure, Op, Provider};

const OPS: &[Op] = &[Op::Handshake, Op::Client, Op::Server];

pub fn provider(f: Flavour) -> Provider {
    let (id, library, version, notes): (_, _, _, &'static [&'static [&'static str]]) = match f {
        Flavour::AwsLc => (
            "rust:rustls",
            "rustls (aws-lc-rs provider)",
            format!(
                "{} (AWS-LC {} as reported at run time by aws_lc_rs::awslc_version())",
                crate_versions(&["rustls", "rustls-webpki", "aws-lc-rs", "aws-lc-sys"]),
                aws_lc_rs::awslc_version()
            ),
            &[NOTES, AWS_LC_NOTES],
        ),
        Flavour::Ring => (
            "rust:rustls-ring",
            "rustls (ring provider)",
            crate_versions(&["rustls", "rustls-webpki", "ring"]),
            &[NOTES, RING_NOTES],
        ),
    };
    let algs = algs(
        |g, a| f.kx_group(g).is_some() && f.auths().contains(&a),
        move |spec, files| Configs::new(f, spec, files, true),
    );
    Provider::new(id, library, version, notes, [algs])
}

#[cfg(feature = "boring")]
pub fn boring_provider() -> Provider {
    let version = format!(
        "{} (BoringSSL vendored and built by boring-sys; {})",
        crate_versions(&["boring", "boring-sys"]),
        boring::version::version()
    );
    let algs = algs(bssl::offers, |spec, files| {
        bssl::Configs::new(spec, files, true)
    });
    Provider::new(
        "rust:boring",
        "BoringSSL (boring crate)",
        version,
        &[NOTES_BORING],
        [algs],
    )
}

/// Every cell a library offers (`offers(group, auth)`), full and resumed;
/// `configs` makes a cell's configurations.
fn algs<L: Library + 'static>(
    offers: impl Fn(&str, &str) -> bool,
    configs: impl Fn(Spec, &Files) -> Result<L, String> + Copy + 'static,
) -> Vec<Alg> {
    let mut algs = Vec::new();
    for (group, _) in GROUP_CODES {
        for auth in AUTHS {
            if !offers(group, auth) {
                continue;
            }
            for resume in [false, true] {
                let spec = Spec {
                    group,
                    auth,
                    resume,
                };
                // one leak per cell name for the process's life (`Alg::name`)
                let name: &'static str = Box::leak(spec.name().into_boxed_str());
                algs.push(Alg::new(
                    name,
                    OPS,
                    false,
                    |_| {
                        Err(Failure::Unsupported(
                            "a TLS cell has no verify cases (it is verified by interop)".into(),
                        ))
                    },
                    move |p: &CellParams| {
                        let files = p.tls.ok_or("tls: no PKI in the request")?;
                        let lib = configs(spec, files)?;
                        Ok(Box::new(TlsCell::new(p.op, spec, lib)?) as Box<dyn Cell>)
                    },
                ));
            }
        }
    }
    debug_assert!(algs.iter().all(|a| Spec::parse(a.name).is_some()));
    algs
}

const NOTES: &[&str] = &[
    "TLS 1.3 cells: rustls ClientConnection and ServerConnection in one process, pumped through two in-memory Vec<u8> (write_tls into one, read_tls + process_new_packets from it) until neither is handshaking. Each side's CryptoProvider has the cell's one kx group and TLS13_AES_128_GCM_SHA256 only; with_protocol_versions(&[&TLS13]); no client certificate; the client verifies the chain against the root with rustls' WebPkiServerVerifier and sends SNI.",
    "Timed: from ClientConnection::new/ServerConnection::new to the end of the exchange (the server has read the client's Finished, and in -resume cells the client has read the ticket), connections dropped inside. `client`/`server`: the clock is read around every call of the other side and that time is subtracted (untimed_ns), so each side's figure holds its own new/write_tls/read_tls/process_new_packets/drop only.",
    "Full cells: send_tls13_tickets = 0. -resume cells: send_tls13_tickets = 1 with the provider's stateless Ticketer (rustls' default would be a stateful session cache; OpenSSL and Go issue stateless tickets); the client's in-memory store (Resumption::in_memory_sessions) keeps each ticket for the next handshake, the first made by a full handshake when the cell is prepared; every timed handshake is checked to be HandshakeKind::Resumed (full cells: Full).",
    "sigalg: rustls does not expose the scheme of a connection, so the server's signing key and the client's verifier are wrapped (delegating to rustls' own) to note the scheme they signed or verified.",
];

const AWS_LC_NOTES: &[&str] = &[
    "Groups: x25519, secp256r1, X25519MLKEM768, SecP256r1MLKEM768 (rustls::crypto::aws_lc_rs::kx_group). Not offered: SecP384r1MLKEM1024 (not in this rustls' aws-lc-rs provider). Auths: ECDSA P-256, Ed25519, RSA-2048 (PSS), ML-DSA-44/65 (rustls' aws-lc-rs signing keys and rustls-webpki's ML-DSA verification).",
];

const RING_NOTES: &[&str] = &[
    "Groups: x25519, secp256r1 (rustls::crypto::ring::kx_group); ring has no ML-KEM, so no hybrid group. Auths: ECDSA P-256, Ed25519, RSA-2048 (PSS); no ML-DSA in ring.",
];

#[cfg(feature = "boring")]
const NOTES_BORING: &[&str] = &[
    "TLS 1.3 cells: a BoringSSL client and server SSL in one process, each an SslStream (boring crate) over an in-memory Read + Write, driven by SSL_do_handshake and, once done, an SSL_read that takes post-handshake messages (the ticket), the bytes handed over between the two until a turn moves none. Both SSL_CTXs: TLS 1.3 only (min = max), SSL_CTX_set1_group_ids with the cell's one group; no client certificate; the client verifies the chain against the root (SSL_VERIFY_PEER, the host name checked through X509_VERIFY_PARAM) and sends SNI. BoringSSL has no setting for TLS 1.3 cipher suites: the client offers its three, the server picks TLS_AES_128_GCM_SHA256 (with AES hardware), which the checks see.",
    "Timed: from SSL_new for both sides to the end of the exchange (the server has read the client's Finished, and in -resume cells the client has read the ticket), connections freed inside. `client`/`server`: the clock is read around every call of the other side and that time is subtracted (untimed_ns).",
    "Full cells: SSL_CTX_set_num_tickets(0). -resume cells: SSL_CTX_set_num_tickets(1), BoringSSL's stateless tickets; the client's new-session callback keeps the newest session, offered by the next client SSL (SSL_set_session); the first comes from a full handshake when the cell is prepared; every timed handshake is checked to be resumed (SSL_session_reused) on both sides (full cells: not).",
    "sigalg: the server's SSL_get_signature_algorithm_used, noted by an info callback at SSL_CB_HANDSHAKE_DONE (BoringSSL forgets it after the handshake; the callback runs inside the server's time).",
    "Groups: x25519, secp256r1, X25519MLKEM768 (SSL_GROUP_X25519_MLKEM768). Not offered: SecP256r1MLKEM768 and SecP384r1MLKEM1024 (not in BoringSSL); ML-DSA auths (BoringSSL has the SSL_SIGN_ML_DSA_* schemes; not wired up here). Auths: ECDSA P-256, Ed25519, RSA-2048 (PSS).",
];
