//! The leak request (protocol version 5, protocol.md § leak): single
//! operations timed one call at a time for the orchestrator's dudect-style
//! check. Each measurement gets its own decoded copy of its input.
//!
//! Symmetric algorithms: their case executor makes the library's key object
//! and performs one operation, as a bench cell's message does (the key
//! schedule is inside the call, the same for both classes of a `tag` or
//! `plaintext` check). Public-key algorithms: the catalogue's `prepare`
//! imports the case's keys (a PKCS#8 parse, a scalar's public point, a
//! ciphertext copied) before the first measurement, as the C driver does,
//! and the timed call is the private-key operation alone; an algorithm
//! without one answers `not offered`.

use std::hint::black_box;
use std::time::Instant;

use serde::Serialize;

use crate::ops::{Alg, Failure, Op, Prepared};
use crate::protocol::Request;

#[derive(Serialize)]
pub struct LeakResponse {
    pub ok: bool,
    pub counter: &'static str,
    pub times: Vec<u64>,
    pub outcomes: Vec<&'static str>,
}

pub fn leak(a: &Alg, req: &Request) -> Result<LeakResponse, String> {
    let name = req.op.as_deref().unwrap_or("");
    // a MAC's leak-only operations: verify a tag, compare two secrets (the library's own calls)
    let mac_only = |o: Op| a.offers(Op::Mac) && matches!(o, Op::Verify | Op::Compare);
    let op = Op::parse(name)
        .filter(|o| a.offers(*o) || mac_only(*o))
        .ok_or_else(|| format!("not offered: {} {name:?}", a.name))?;
    // public-key operations and a MAC's verify/compare run prepared (keys imported outside the call)
    let prepare = if a.keypair.is_some() || mac_only(op) {
        Some(a.prepare.as_ref().ok_or_else(|| {
            format!(
                "not offered: {} {}: no preparation of its keys outside the call",
                a.name,
                op.name()
            )
        })?)
    } else {
        None
    };
    if req.inputs.is_empty() || req.order.is_empty() {
        return Err("fields inputs and order must be non-empty arrays".into());
    }
    let mut cases = Vec::with_capacity(req.order.len());
    for (i, &k) in req.order.iter().enumerate() {
        let rc = usize::try_from(k)
            .ok()
            .and_then(|k| req.inputs.get(k))
            .ok_or_else(|| {
                format!(
                    "order[{i}] is not an index into inputs (0 .. {})",
                    req.inputs.len() - 1
                )
            })?;
        let mut rc = rc.clone();
        rc.op = name.to_string();
        cases.push(rc.decode().map_err(|e| format!("input {k}: {e}"))?);
    }
    let mut times = vec![0u64; cases.len()];
    let mut refused = vec![false; cases.len()];
    let mut ready: Vec<Prepared> = Vec::new();
    if let Some(prep) = prepare {
        // every key imported before the first measurement, as the cells of bench
        ready.reserve(cases.len());
        for (c, &k) in cases.iter().zip(&req.order) {
            ready.push(prep(c).map_err(|e| match e {
                Failure::Rejected => format!("input {k}: the library refused its key"),
                Failure::Unsupported(e) => format!("not offered: {} {}: {e}", a.name, op.name()),
                Failure::Error(e) => format!("input {k}: {e}"),
            })?);
        }
    }
    for (i, c) in cases.iter().enumerate() {
        let r = if let Some(f) = ready.get_mut(i) {
            let t0 = Instant::now();
            let r = black_box(f());
            times[i] = t0.elapsed().as_nanos() as u64;
            r
        } else {
            let t0 = Instant::now();
            let r = black_box((a.exec)(black_box(c)));
            times[i] = t0.elapsed().as_nanos() as u64;
            r.map(drop) // the output freed after the reading
        };
        match r {
            Ok(_) => {}
            Err(Failure::Rejected) => refused[i] = true,
            Err(Failure::Error(e)) | Err(Failure::Unsupported(e)) => {
                return Err(format!("measurement {i}: {e}"))
            }
        }
    }
    let mut outcomes = vec!["unused"; req.inputs.len()];
    for (&k, &r) in req.order.iter().zip(&refused) {
        let o = &mut outcomes[k as usize];
        if *o == "unused" {
            *o = if r { "rejected" } else { "ok" };
        }
    }
    Ok(LeakResponse {
        ok: true,
        counter: "clock",
        times,
        outcomes,
    })
}
