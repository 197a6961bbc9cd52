//! The driver's native tests (drivers.md): `input` (the check values of
//! protocol.md), `vectors` (every shared case of every offered algorithm
//! through the verify request, for each provider), `bench` (one small
//! bench request per offered algorithm/op through the request handler) and
//! `pk` (public-key cells, key pairs, self- and cross-provider checks).

mod alloc;
mod bench;
mod input;
mod pk;
mod tls;
mod vectors;

use crate::ops::{self, PROVIDER_IDS};
use crate::Driver;

/// A driver for each provider this binary serves, but the TLS ones
/// (rustls, BoringSSL): their cells need a test PKI and have their own
/// test (`tls`).
fn drivers() -> Vec<Driver> {
    PROVIDER_IDS
        .iter()
        .filter(|id| crate::tls::Lib::of(id).is_none())
        .map(|id| driver(id))
        .collect()
}

/// Providers of one post-quantum scheme only (rust:backbone: HQC), which
/// have none of the symmetric algorithms every other provider offers.
fn pq_only(d: &Driver) -> bool {
    d.prov.id() == "rust:backbone"
}

/// The driver of one provider.
fn driver(id: &str) -> Driver {
    Driver::new(ops::provider(id).expect("known provider"))
}

/// Sends one request line through the handler and parses the response.
fn call(d: &Driver, line: &str) -> serde_json::Value {
    let (out, quit) = d.handle_line(line.as_bytes());
    assert!(!quit, "{line:.80} asked to quit");
    assert!(!out.contains('\n'), "response spans lines: {out:.200}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("response {out:.200} is not JSON: {e}"))
}
