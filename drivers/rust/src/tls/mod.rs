//! TLS 1.3 handshakes (docs/protocol.md, "TLS 1.3 handshakes (version
//! 7)"): the cells' vocabulary, the test PKI of a request, what a finished
//! handshake reports, the libraries behind the providers, and rustls'
//! client and server configurations of a cell. The bench cell is
//! `cell.rs` (rustls' endpoints `rustls_conn.rs`), the loopback interop
//! `interop.rs`, BoringSSL's configurations and connections `bssl.rs`, the
//! providers' catalogues `provider.rs`.

#[cfg(feature = "boring")]
mod bssl;
mod cell;
pub mod interop;
mod provider;
mod record;
mod rustls_conn;

use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;

use rustls::client::Resumption;
use rustls::crypto::{CryptoProvider, SupportedKxGroup};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::server::ProducesTickets;
use rustls::sign::{CertifiedKey, SingleCertAndKey};
use rustls::{ClientConfig, ConnectionCommon, HandshakeKind, RootCertStore, ServerConfig};
use serde::{Deserialize, Serialize};

#[cfg(feature = "boring")]
pub use provider::boring_provider;
pub use provider::provider;

/// The TLS library behind a provider id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lib {
    Rustls(Flavour),
    /// `rust:boring`: BoringSSL through the `boring` crate (`--features boring`).
    #[cfg(feature = "boring")]
    Boring,
}

impl Lib {
    /// The library of a provider id, `None` for the non-TLS providers.
    pub fn of(id: &str) -> Option<Lib> {
        match id {
            #[cfg(feature = "boring")]
            "rust:boring" => Some(Lib::Boring),
            _ => Flavour::of(id).map(Lib::Rustls),
        }
    }
}

/// `tls-serve`: the cell's server in a background thread (`interop.rs`).
pub fn serve(
    lib: Lib,
    spec: Spec,
    f: &Files,
    connections: u32,
    timeout: std::time::Duration,
) -> Result<(u16, interop::Serving), String> {
    match lib {
        Lib::Rustls(fl) => {
            let cfg = Configs::new(fl, spec, f, true)?;
            interop::serve(
                move |s| interop::rustls_serve(&cfg, s),
                connections,
                timeout,
            )
        }
        #[cfg(feature = "boring")]
        Lib::Boring => {
            let cfg = bssl::Configs::new(spec, f, true)?;
            interop::serve(move |s| cfg.serve(s), connections, timeout)
        }
    }
}

/// `tls-connect`: the cell's client, `connections` times.
pub fn connect(
    lib: Lib,
    spec: Spec,
    f: &Files,
    port: u16,
    connections: u32,
    timeout: std::time::Duration,
) -> Result<Vec<Handshake>, String> {
    match lib {
        Lib::Rustls(fl) => {
            let cfg = Configs::new(fl, spec, f, false)?;
            interop::connect(
                |s| interop::rustls_connect(&cfg, s),
                port,
                connections,
                timeout,
            )
        }
        #[cfg(feature = "boring")]
        Lib::Boring => {
            let cfg = bssl::Configs::new(spec, f, false)?;
            interop::connect(|s| cfg.connect(s), port, connections, timeout)
        }
    }
}

/// The exporter every side derives (protocol.md, "The exporter").
pub const EXPORTER_LABEL: &[u8] = b"EXPORTER-cryptobench";
pub const EXPORTER_CONTEXT: &[u8] = b"cryptobench tls13";

/// Which rustls CryptoProvider a provider id runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// `rust:rustls`: rustls::crypto::aws_lc_rs (hybrid groups, ML-DSA).
    AwsLc,
    /// `rust:rustls-ring`: rustls::crypto::ring (classical only).
    Ring,
}

impl Flavour {
    /// The flavour behind a provider id, `None` for the other providers.
    pub fn of(id: &str) -> Option<Flavour> {
        match id {
            "rust:rustls" => Some(Flavour::AwsLc),
            "rust:rustls-ring" => Some(Flavour::Ring),
            _ => None,
        }
    }

    /// The cell's group in this flavour's provider, `None` where it has none.
    fn kx_group(self, group: &str) -> Option<&'static dyn SupportedKxGroup> {
        use rustls::crypto::{aws_lc_rs::kx_group as a, ring::kx_group as r};
        Some(match (self, group) {
            (Flavour::AwsLc, "x25519") => a::X25519,
            (Flavour::AwsLc, "p256") => a::SECP256R1,
            (Flavour::AwsLc, "x25519mlkem768") => a::X25519MLKEM768,
            (Flavour::AwsLc, "secp256r1mlkem768") => a::SECP256R1MLKEM768,
            (Flavour::Ring, "x25519") => r::X25519,
            (Flavour::Ring, "p256") => r::SECP256R1,
            _ => return None,
        })
    }

    /// The server certificate keys this flavour signs with and verifies.
    fn auths(self) -> &'static [&'static str] {
        match self {
            Flavour::AwsLc => &["ecdsa-p256", "ed25519", "rsa-2048", "mldsa-44", "mldsa-65"],
            Flavour::Ring => &["ecdsa-p256", "ed25519", "rsa-2048"],
        }
    }

    /// The provider's defaults, narrowed to one group and one suite.
    fn crypto(self, kx: &'static dyn SupportedKxGroup) -> CryptoProvider {
        let (base, suite) = match self {
            Flavour::AwsLc => (
                rustls::crypto::aws_lc_rs::default_provider(),
                rustls::crypto::aws_lc_rs::cipher_suite::TLS13_AES_128_GCM_SHA256,
            ),
            Flavour::Ring => (
                rustls::crypto::ring::default_provider(),
                rustls::crypto::ring::cipher_suite::TLS13_AES_128_GCM_SHA256,
            ),
        };
        CryptoProvider {
            kx_groups: vec![kx],
            cipher_suites: vec![suite],
            ..base
        }
    }

    /// Stateless tickets, as OpenSSL and Go issue by default (rustls'
    /// default is a stateful session cache).
    fn ticketer(self) -> Result<Arc<dyn ProducesTickets>, String> {
        match self {
            Flavour::AwsLc => rustls::crypto::aws_lc_rs::Ticketer::new(),
            Flavour::Ring => rustls::crypto::ring::Ticketer::new(),
        }
        .map_err(|e| format!("tls: ticketer: {e}"))
    }
}

/// Every group a cell name may carry and its IANA code point
/// (protocol.md, "The cells"; `cryptobench/core/tls.py`).
pub const GROUP_CODES: [(&str, u16); 5] = [
    ("x25519", 0x001d),
    ("p256", 0x0017),
    ("x25519mlkem768", 0x11ec),
    ("secp256r1mlkem768", 0x11eb),
    ("secp384r1mlkem1024", 0x11ed),
];

/// Every server authentication a cell name may carry.
pub const AUTHS: [&str; 5] = ["ecdsa-p256", "ed25519", "rsa-2048", "mldsa-44", "mldsa-65"];

/// A TLS cell name taken apart: `tls13-<group>-<auth>[-resume]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub group: &'static str,
    pub auth: &'static str,
    pub resume: bool,
}

impl Spec {
    pub fn parse(name: &str) -> Option<Spec> {
        let rest = name.strip_prefix("tls13-")?;
        let (rest, resume) = match rest.strip_suffix("-resume") {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let (group, _) = GROUP_CODES
            .iter()
            .find(|(g, _)| rest.strip_prefix(*g).is_some_and(|a| a.starts_with('-')))?;
        let auth = &rest[group.len() + 1..];
        let auth = AUTHS.into_iter().find(|a| *a == auth)?;
        Some(Spec {
            group,
            auth,
            resume,
        })
    }

    /// The group's IANA code point.
    pub fn group_code(&self) -> u16 {
        GROUP_CODES
            .iter()
            .find(|(g, _)| *g == self.group)
            .map_or(0, |(_, c)| *c)
    }

    pub fn name(&self) -> String {
        let r = if self.resume { "-resume" } else { "" };
        format!("tls13-{}-{}{r}", self.group, self.auth)
    }
}

/// The request's `tls` object: the test PKI's files.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Files {
    pub chain: String,
    pub key: String,
    pub ca: String,
    pub server_name: String,
}

/// One cell's configurations, made once (outside any timed region), and
/// the signature schemes its wrappers saw (0: none since the last reset).
pub struct Configs {
    pub client: Arc<ClientConfig>,
    pub server: Option<Arc<ServerConfig>>,
    pub server_name: ServerName<'static>,
    /// The scheme of the server's last CertificateVerify (its own view).
    pub signed: Arc<AtomicU16>,
    /// The scheme of the last CertificateVerify the client verified.
    pub verified: Arc<AtomicU16>,
}

impl Configs {
    /// The client side (`ca`, `server_name`) and, with `server`, the server
    /// side (`chain`, `key`) of `spec` in `flavour`.
    pub fn new(flavour: Flavour, spec: Spec, f: &Files, server: bool) -> Result<Configs, String> {
        let kx = flavour
            .kx_group(spec.group)
            .ok_or_else(|| format!("tls: group {} not offered", spec.group))?;
        let crypto = Arc::new(flavour.crypto(kx));
        let signed = Arc::new(AtomicU16::new(0));
        let verified = Arc::new(AtomicU16::new(0));
        let server_name = ServerName::try_from(f.server_name.clone())
            .map_err(|e| format!("tls: server_name {:?}: {e}", f.server_name))?;
        let server = if server {
            Some(Arc::new(server_config(
                flavour,
                spec,
                f,
                crypto.clone(),
                signed.clone(),
            )?))
        } else {
            None
        };
        let client = client_config(f, crypto, verified.clone())?;
        Ok(Configs {
            client: Arc::new(client),
            server,
            server_name,
            signed,
            verified,
        })
    }
}

fn tls_err(what: &str) -> impl Fn(rustls::Error) -> String + '_ {
    move |e| format!("tls: {what}: {e}")
}

fn server_config(
    flavour: Flavour,
    spec: Spec,
    f: &Files,
    crypto: Arc<CryptoProvider>,
    signed: Arc<AtomicU16>,
) -> Result<ServerConfig, String> {
    if f.chain.is_empty() || f.key.is_empty() {
        return Err("tls: no PKI in the request".into());
    }
    let chain = CertificateDer::pem_file_iter(&f.chain)
        .and_then(|it| it.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("tls: chain {}: {e}", f.chain))?;
    let key =
        PrivateKeyDer::from_pem_file(&f.key).map_err(|e| format!("tls: key {}: {e}", f.key))?;
    let key = crypto
        .key_provider
        .load_private_key(key)
        .map_err(tls_err("the server key"))?;
    let key = Arc::new(record::Signing::new(key, signed));
    let certified = CertifiedKey::new(chain, key);
    certified.keys_match().or_else(|e| match e {
        rustls::Error::InconsistentKeys(rustls::InconsistentKeys::Unknown) => Ok(()),
        e => Err(format!("tls: chain and key: {e}")),
    })?;
    let mut sc = ServerConfig::builder_with_provider(crypto)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(tls_err("server config"))?
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(SingleCertAndKey::from(certified)));
    // full cells: no ticket; -resume: exactly one per handshake
    sc.send_tls13_tickets = usize::from(spec.resume);
    if spec.resume {
        sc.ticketer = flavour.ticketer()?;
    }
    Ok(sc)
}

fn client_config(
    f: &Files,
    crypto: Arc<CryptoProvider>,
    verified: Arc<AtomicU16>,
) -> Result<ClientConfig, String> {
    if f.ca.is_empty() {
        return Err("tls: no PKI in the request".into());
    }
    let mut roots = RootCertStore::empty();
    for c in CertificateDer::pem_file_iter(&f.ca).map_err(|e| format!("tls: ca {}: {e}", f.ca))? {
        let c = c.map_err(|e| format!("tls: ca {}: {e}", f.ca))?;
        roots.add(c).map_err(tls_err("the root"))?;
    }
    // webpki's verifier itself, wrapped only to note the scheme it verified
    let webpki = rustls::client::WebPkiServerVerifier::builder_with_provider(
        Arc::new(roots),
        crypto.clone(),
    )
    .build()
    .map_err(|e| format!("tls: verifier: {e}"))?;
    let mut cc = ClientConfig::builder_with_provider(crypto)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(tls_err("client config"))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(record::Verifying::new(webpki, verified)))
        .with_no_client_auth();
    // the client keeps tickets as by default; a full cell's server sends none
    cc.resumption = Resumption::in_memory_sessions(64);
    Ok(cc)
}

/// What a finished handshake agreed on: the fields protocol.md's handshake
/// object and a bench response's `tls` share (flattened into both).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Negotiated {
    pub group: Option<u16>,
    pub cipher: Option<u16>,
    pub sigalg: Option<u16>,
    pub resumed: bool,
}

/// One side's view of a finished handshake (protocol.md's handshake
/// object).
#[derive(Clone, Debug, Serialize)]
pub struct Handshake {
    #[serde(flatten)]
    pub negotiated: Negotiated,
    pub exporter: String,
}

impl Handshake {
    /// Reads a finished connection; `sigalg` is the scheme its wrapper saw
    /// (0 or a resumption: none).
    pub fn of<D>(c: &ConnectionCommon<D>, sigalg: &AtomicU16) -> Result<Handshake, String> {
        let resumed = c.handshake_kind() == Some(HandshakeKind::Resumed);
        let exporter = c
            .export_keying_material([0u8; 32], EXPORTER_LABEL, Some(EXPORTER_CONTEXT))
            .map_err(tls_err("exporter"))?;
        let s = sigalg.load(Ordering::Relaxed);
        Ok(Handshake {
            negotiated: Negotiated {
                group: c
                    .negotiated_key_exchange_group()
                    .map(|g| u16::from(g.name())),
                cipher: c.negotiated_cipher_suite().map(|s| u16::from(s.suite())),
                sigalg: (s != 0 && !resumed).then_some(s),
                resumed,
            },
            exporter: crate::input::encode_hex(&exporter),
        })
    }
}

/// The bench response's `tls` (protocol.md, "`bench` for a TLS cell").
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    #[serde(flatten)]
    pub negotiated: Negotiated,
    pub round_trips: u32,
    pub flights: Flights,
}

/// Bytes the in-memory transport carried, per flight.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Flights {
    pub client_hello: usize,
    pub server_flight: usize,
    pub client_finished: usize,
    pub tickets: usize,
}
