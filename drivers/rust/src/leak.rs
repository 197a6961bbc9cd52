//! The leak request (protocol version 5, protocol.md § leak): single
//! operations timed one call at a time for the orchestrator's dudect-style
//! check. Each measurement gets its own decoded copy of its input.
//!
//! Symmetric algorithms only: their case executor makes the library's key
//! object and performs one operation, as a bench cell's message does (the
//! key schedule is inside the call, the same for both classes of a `tag` or
//! `plaintext` check). The public-key executors import their keys inside
//! the call (a PKCS#8 parse, a scalar multiplication for a bare EC scalar),
//! which would drown the operation: those answer `not offered`.

use std::hint::black_box;
use std::time::Instant;

use serde::Serialize;

use crate::ops::{Alg, Failure, Op};
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
    let op = Op::parse(name)
        .filter(|o| a.offers(*o))
        .ok_or_else(|| format!("not offered: {} {name:?}", a.name))?;
    if a.keypair.is_some() {
        return Err(format!(
            "not offered: {} {}: this driver's public-key case executors import their keys inside the call",
            a.name,
            op.name()
        ));
    }
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
    for (i, c) in cases.iter().enumerate() {
        let t0 = Instant::now();
        let r = black_box((a.exec)(black_box(c)));
        times[i] = t0.elapsed().as_nanos() as u64;
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
