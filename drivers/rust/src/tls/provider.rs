//! The two rustls providers: `rust:rustls` (the aws-lc-rs CryptoProvider)
//! and `rust:rustls-ring` (the ring one). Their catalogue is the TLS cells
//! their provider can negotiate, nothing else (the crypto primitives are
//! the `rust:aws-lc-rs` and `rust:ring` providers').

use super::cell::TlsCell;
use super::{Configs, Flavour, Spec, GROUP_CODES};
use crate::ops::{crate_versions, Alg, CellParams, Failure, Op, Provider};

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
    Provider::new(id, library, version, notes, [algs(f)])
}

/// Every cell the flavour offers: its groups × its auths, full and resumed.
fn algs(f: Flavour) -> Vec<Alg> {
    let mut algs = Vec::new();
    for (group, _) in GROUP_CODES {
        if f.kx_group(group).is_none() {
            continue;
        }
        for &auth in f.auths() {
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
                        let cfg = Configs::new(f, spec, files, true)?;
                        Ok(Box::new(TlsCell::new(p.op, spec, cfg)?) as Box<dyn crate::ops::Cell>)
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
