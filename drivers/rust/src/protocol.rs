//! Protocol version 2 (docs/protocol.md): request and response shapes,
//! decoding, encoding, and turning any error into `{"ok":false,"error":...}`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::input::decode_hex;
use crate::ops::{Case, Op};

/// The highest protocol version this driver implements (hello answers
/// with it whenever the orchestrator asks for version 1 or later).
pub const PROTOCOL_VERSION: i64 = 5;

/// The calibration target when a bench request has none (protocol.md).
pub const DEFAULT_TARGET_NS: i64 = 5_000_000;

/// Any request; fields a command does not use are ignored.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Request {
    pub cmd: Option<String>,
    pub protocol: Option<i64>,

    // verify and bench
    pub alg: Option<String>,

    // verify
    pub cases: Vec<RawCase>,

    // leak (and op)
    pub inputs: Vec<RawCase>,
    pub order: Vec<i64>,

    // bench
    pub op: Option<String>,
    pub size: Option<i64>,
    pub chunk: Option<i64>,
    pub key: Option<String>,
    pub iv: Option<String>,
    pub seed: Option<u64>,
    pub batch: Option<i64>,
    pub target_ns: Option<i64>,
    pub warmup_ns: Option<i64>,
    pub samples: Option<i64>,
}

/// A verify case as it arrives (hex strings).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct RawCase {
    pub id: String,
    pub op: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub key: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub iv: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter: Option<u64>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub aad: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub msg: String,
    // public-key and post-quantum cases (version 2)
    #[serde(skip_serializing_if = "String::is_empty")]
    pub public: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub private: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub sig: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub seed: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub m: Option<String>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub ctx: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deterministic: bool,
}

impl RawCase {
    /// Turns the hex fields into bytes.
    pub fn decode(&self) -> Result<Case, String> {
        let counter = match self.counter {
            None => 0,
            Some(c) => u32::try_from(c).map_err(|_| format!("counter {c} does not fit 32 bits"))?,
        };
        let op = Op::parse(&self.op).ok_or_else(|| format!("unknown op {:?}", self.op))?;
        Ok(Case {
            op,
            key: decode_hex("key", &self.key)?,
            iv: decode_hex("iv", &self.iv)?,
            aad: decode_hex("aad", &self.aad)?,
            msg: decode_hex("msg", &self.msg)?,
            counter,
            public: decode_hex("public", &self.public)?,
            private: decode_hex("private", &self.private)?,
            sig: decode_hex("sig", &self.sig)?,
            seed: decode_hex("seed", &self.seed)?,
            m: self.m.as_deref().map(|m| decode_hex("m", m)).transpose()?,
            ctx: decode_hex("ctx", &self.ctx)?,
            deterministic: self.deterministic,
        })
    }
}

#[derive(Serialize)]
pub struct ErrorResponse {
    pub ok: bool,
    pub error: String,
}

#[derive(Serialize)]
pub struct OkResponse {
    pub ok: bool,
}

#[derive(Serialize)]
pub struct ClockInfo {
    pub source: &'static str,
    pub resolution_ns: u64,
    pub probe_reads: u32,
}

#[derive(Serialize)]
pub struct HelloResponse {
    pub ok: bool,
    pub protocol: i64,
    pub provider: String,
    pub language: &'static str,
    pub library: String,
    pub library_version: String,
    pub runtime: String,
    pub clock: ClockInfo,
    pub offers: BTreeMap<String, Vec<String>>,
    pub stream: Vec<String>,
    pub notes: Vec<String>,
}

/// One of `{id, out}`, `{id, rejected: true}`, `{id, error}`,
/// `{id, unsupported}`.
#[derive(Debug, Default, Deserialize, Serialize)]
pub struct CaseResult {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rejected: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsupported: Option<String>,
}

#[derive(Serialize)]
pub struct KeypairResponse {
    pub ok: bool,
    pub public: String,
    pub private: String,
}

#[derive(Serialize)]
pub struct VerifyResponse {
    pub ok: bool,
    pub results: Vec<CaseResult>,
}

#[derive(Serialize)]
pub struct BenchResponse {
    pub ok: bool,
    pub batch: u64,
    pub samples_ns: Vec<u64>,
    /// Optional (docs/protocol.md, bench): the TSC read beside the clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub samples_tsc: Option<Vec<u64>>,
    pub checksum: String,
    pub checksum_after: String,
    pub sink: u64,
    pub warmup: crate::timing::Warmup,
    pub peak_rss_kb: u64,
}

/// Parses one request line.
pub fn decode_request(line: &[u8]) -> Result<Request, String> {
    // serde would also accept a struct written as a JSON array: refuse it.
    if line.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err("cannot parse request: not a JSON object".into());
    }
    let req: Request =
        serde_json::from_slice(line).map_err(|e| format!("cannot parse request: {e}"))?;
    if req.cmd.as_deref().unwrap_or("").is_empty() {
        return Err("request has no \"cmd\"".into());
    }
    Ok(req)
}

/// Squeezes an error message onto one line.
pub fn one_line(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.is_empty() {
        "error".into()
    } else {
        s
    }
}

/// Serialises a response; an error becomes an error response.
pub fn encode_response<T: Serialize>(resp: Result<T, String>) -> String {
    let encoded = match resp {
        Ok(r) => serde_json::to_string(&r).map_err(|e| format!("cannot encode response: {e}")),
        Err(e) => Err(e),
    };
    encoded.unwrap_or_else(|e| {
        serde_json::to_string(&ErrorResponse {
            ok: false,
            error: one_line(&e),
        })
        .unwrap_or_else(|_| r#"{"ok":false,"error":"cannot encode error"}"#.into())
    })
}
