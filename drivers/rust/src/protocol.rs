//! Protocol version 7 (docs/protocol.md): request and response shapes,
//! decoding, the dispatch of one request line to its handler (`hello`,
//! `verify`, `bench`, `keypair`, `leak`, the TLS interop commands, `bye`),
//! encoding, and turning any error into `{"ok":false,"error":...}`. The
//! stdin loop is `main.rs`'s.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::input::{self, decode_hex};
use crate::ops::{self, Alg, Case, CellParams, Op, Provider};
use crate::{leak, timing, tls};

/// The highest protocol version this driver implements (hello answers
/// with it whenever the orchestrator asks for version 1 or later).
pub const PROTOCOL_VERSION: i64 = 7;

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

    // TLS cells (bench) and interop (tls-serve, tls-connect)
    pub tls: Option<tls::Files>,
    pub port: Option<u16>,
    pub connections: Option<u32>,
    pub timeout_ms: Option<u64>,
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
    // public-key and post-quantum cases (since version 2)
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
    /// TLS cells: what the untimed handshake showed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls: Option<tls::Report>,
}

#[derive(Serialize)]
pub struct PortResponse {
    pub ok: bool,
    pub port: u16,
}

#[derive(Serialize)]
pub struct HandshakesResponse {
    pub ok: bool,
    pub handshakes: Vec<tls::Handshake>,
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

// ---- dispatch and the request handlers ------------------------------------------

/// Serves one provider.
pub struct Driver {
    pub prov: Provider,
    resolution_ns: u64,
    /// The background server of the last `tls-serve`, until `tls-result`.
    serving: Mutex<Option<tls::interop::Serving>>,
}

impl Driver {
    /// Measures the clock resolution once, at start-up.
    pub fn new(prov: Provider) -> Self {
        Driver {
            prov,
            resolution_ns: timing::probe_resolution(),
            serving: Mutex::new(None),
        }
    }

    /// Answers one request line with one response line (without the
    /// newline); `quit` is true after bye. A panic becomes an error response.
    pub fn handle_line(&self, line: &[u8]) -> (String, bool) {
        panic::catch_unwind(AssertUnwindSafe(|| self.dispatch(line))).unwrap_or_else(|e| {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            (
                encode_response::<OkResponse>(Err(format!("internal error: {msg}"))),
                false,
            )
        })
    }

    fn dispatch(&self, line: &[u8]) -> (String, bool) {
        let req = match decode_request(line) {
            Ok(r) => r,
            Err(e) => return (encode_response::<OkResponse>(Err(e)), false),
        };
        match req.cmd.as_deref().unwrap_or("") {
            "hello" => (encode_response(self.hello(&req)), false),
            "verify" => (encode_response(self.verify(&req)), false),
            "bench" => (encode_response(self.bench(&req)), false),
            "keypair" => (encode_response(self.keypair(&req)), false),
            "leak" => (
                encode_response(
                    self.lookup(req.alg.as_deref())
                        .and_then(|a| leak::leak(a, &req)),
                ),
                false,
            ),
            "tls-serve" => (encode_response(self.tls_serve(&req)), false),
            "tls-result" => (encode_response(self.tls_result()), false),
            "tls-connect" => (encode_response(self.tls_connect(&req)), false),
            "bye" => (encode_response(Ok(OkResponse { ok: true })), true),
            other => (
                encode_response::<OkResponse>(Err(format!("unknown cmd {other:?}"))),
                false,
            ),
        }
    }

    fn hello(&self, req: &Request) -> Result<HelloResponse, String> {
        // Any version from 1 on is accepted; the answer is the highest
        // version implemented, and the orchestrator speaks the lower one.
        if let Some(v) = req.protocol {
            if v < 1 {
                return Err(format!(
                    "protocol {v} not supported (this driver speaks 1 to {PROTOCOL_VERSION})"
                ));
            }
        }
        let algs = self.prov.algs();
        let offers = algs
            .iter()
            .map(|a| {
                let ops = a.ops.iter().map(|o| o.name().to_string()).collect();
                (a.name.to_string(), ops)
            })
            .collect();
        let mut stream: Vec<String> = algs
            .iter()
            .filter(|a| a.stream)
            .map(|a| a.name.to_string())
            .collect();
        stream.sort();
        Ok(HelloResponse {
            ok: true,
            protocol: PROTOCOL_VERSION,
            provider: self.prov.id().to_string(),
            language: "rust",
            library: self.prov.library().to_string(),
            library_version: self.prov.library_version(),
            runtime: runtime(),
            clock: ClockInfo {
                source: timing::CLOCK_SOURCE,
                resolution_ns: self.resolution_ns,
                probe_reads: timing::PROBE_READS,
            },
            offers,
            stream,
            notes: self.prov.notes(),
        })
    }

    fn lookup(&self, name: Option<&str>) -> Result<&Alg, String> {
        let name = match name {
            None | Some("") => return Err("request has no \"alg\"".into()),
            Some(n) => n,
        };
        self.prov
            .alg(name)
            .ok_or_else(|| format!("not offered: alg {name:?} by {}", self.prov.id()))
    }

    fn verify(&self, req: &Request) -> Result<VerifyResponse, String> {
        let a = self.lookup(req.alg.as_deref())?;
        let results = req.cases.iter().map(|c| run_case(a, c)).collect();
        Ok(VerifyResponse { ok: true, results })
    }

    /// A fresh key pair from the provider's own generator (protocol.md,
    /// `keypair`), for cross-verification between providers.
    fn keypair(&self, req: &Request) -> Result<KeypairResponse, String> {
        let a = self.lookup(req.alg.as_deref())?;
        let gen = a.keypair.as_ref().ok_or_else(|| {
            format!(
                "not offered: keypair: {} has no key pairs in {}",
                a.name,
                self.prov.id()
            )
        })?;
        let kp = panic::catch_unwind(AssertUnwindSafe(gen))
            .unwrap_or_else(|_| Err("panic in the library call".into()))?;
        Ok(KeypairResponse {
            ok: true,
            public: input::encode_hex(&kp.public),
            private: input::encode_hex(&kp.private),
        })
    }

    fn bench(&self, req: &Request) -> Result<BenchResponse, String> {
        let a = self.lookup(req.alg.as_deref())?;
        let op_name = req.op.as_deref().unwrap_or("");
        if op_name.is_empty() {
            return Err("request has no \"op\"".into());
        }
        let op = Op::parse(op_name).filter(|&o| a.offers(o)).ok_or_else(|| {
            format!(
                "not offered: op {op_name:?} for {} by {}",
                a.name,
                self.prov.id()
            )
        })?;
        let size = req.size.ok_or("request has no \"size\"")?;
        if !(0..=1 << 31).contains(&size) {
            return Err(format!("size {size} out of range"));
        }
        let seed = req.seed.ok_or("request has no \"seed\"")?;
        let seed = u32::try_from(seed)
            .ok()
            .filter(|&s| s != 0)
            .ok_or_else(|| format!("seed {seed} must be a non-zero 32-bit integer"))?;
        let samples = req.samples.unwrap_or(0);
        if !(1..=1_000_000).contains(&samples) {
            return Err("\"samples\" must be between 1 and 1000000".into());
        }
        let (chunk, batch, target_ns, warmup_ns) = (
            req.chunk.unwrap_or(0),
            req.batch.unwrap_or(0),
            req.target_ns.unwrap_or(DEFAULT_TARGET_NS),
            req.warmup_ns.unwrap_or(0),
        );
        if chunk < 0 || batch < 0 || target_ns < 0 || warmup_ns < 0 {
            return Err("chunk, batch, target_ns and warmup_ns must not be negative".into());
        }
        if chunk > 0 && !a.stream {
            return Err(format!(
                "not offered: chunk {chunk}: {} in {}: {}",
                a.name,
                self.prov.id(),
                a.no_stream
            ));
        }
        if chunk > input::PATTERN_LEN as i64 {
            return Err(format!("chunk {chunk} is larger than 1 MiB (protocol.md)"));
        }
        let key = input::decode_hex("key", req.key.as_deref().unwrap_or(""))?;
        let iv = input::decode_hex("iv", req.iv.as_deref().unwrap_or(""))?;

        let params = CellParams {
            op,
            key: &key,
            iv: &iv,
            seed,
            // keygen, derive, encaps, decaps take no message (size 0)
            size: if op.takes_message() { size as usize } else { 0 },
            chunk: chunk as usize,
            tls: req.tls.as_ref(),
        };
        let mut cell = (a.new_cell)(&params)?;

        // The checksum of one operation on the fixed input, outside any timing.
        let checksum = cell.checksum();
        if let Some(e) = cell.err() {
            return Err(e.to_string());
        }

        let m = timing::measure(
            cell.as_mut(),
            batch as u64,
            target_ns as u64,
            warmup_ns as u64,
            samples as usize,
        );
        // one more operation, untimed: state leaking between operations shows here
        let checksum_after = cell.checksum();
        if let Some(e) = cell.err() {
            return Err(e.to_string());
        }
        Ok(BenchResponse {
            ok: true,
            batch: m.batch,
            samples_ns: m.samples_ns,
            samples_tsc: m.samples_tsc,
            checksum,
            checksum_after,
            sink: m.sink,
            warmup: m.warmup,
            peak_rss_kb: timing::peak_rss_kb(),
            tls: cell.tls_report(),
        })
    }

    /// A TLS cell this provider offers: its library, the cell, the PKI.
    fn tls_cell<'r>(
        &self,
        req: &'r Request,
    ) -> Result<(tls::Lib, tls::Spec, &'r tls::Files), String> {
        let a = self.lookup(req.alg.as_deref())?;
        let (Some(lib), Some(spec)) = (tls::Lib::of(self.prov.id()), tls::Spec::parse(a.name))
        else {
            return Err(format!(
                "not offered: {} is not a TLS cell of {}",
                a.name,
                self.prov.id()
            ));
        };
        let files = req.tls.as_ref().ok_or("tls: no PKI in the request")?;
        Ok((lib, spec, files))
    }

    fn interop_limits(req: &Request) -> (u32, Duration) {
        (
            req.connections.unwrap_or(1),
            Duration::from_millis(req.timeout_ms.unwrap_or(10_000)),
        )
    }

    fn tls_serve(&self, req: &Request) -> Result<PortResponse, String> {
        let (lib, spec, files) = self.tls_cell(req)?;
        let (connections, timeout) = Self::interop_limits(req);
        let mut serving = self.serving.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = serving.take() {
            old.end(); // one server per process (protocol.md)
        }
        let (port, h) = tls::serve(lib, spec, files, connections, timeout)?;
        *serving = Some(h);
        Ok(PortResponse { ok: true, port })
    }

    fn tls_result(&self) -> Result<HandshakesResponse, String> {
        let h = self
            .serving
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or("tls: no tls-serve to wait for")?;
        let handshakes = h.result()?;
        Ok(HandshakesResponse {
            ok: true,
            handshakes,
        })
    }

    fn tls_connect(&self, req: &Request) -> Result<HandshakesResponse, String> {
        let (lib, spec, files) = self.tls_cell(req)?;
        let port = req.port.ok_or("request has no \"port\"")?;
        let (connections, timeout) = Self::interop_limits(req);
        let handshakes = tls::connect(lib, spec, files, port, connections, timeout)?;
        Ok(HandshakesResponse {
            ok: true,
            handshakes,
        })
    }
}

/// The case executor the verify request and the native vector test share.
pub fn run_case(a: &Alg, rc: &RawCase) -> CaseResult {
    let mut res = CaseResult {
        id: rc.id.clone(),
        ..Default::default()
    };
    let outcome = rc.decode().map_err(ops::Failure::Error).and_then(|c| {
        if !a.offers(c.op) {
            return Err(ops::Failure::Error(format!(
                "not offered: op {:?} for {}",
                c.op.name(),
                a.name
            )));
        }
        panic::catch_unwind(AssertUnwindSafe(|| (a.exec)(&c)))
            .unwrap_or_else(|_| Err(ops::Failure::Error("panic in the library call".into())))
    });
    match outcome {
        Ok(out) => res.out = Some(input::encode_hex(&out)),
        Err(ops::Failure::Rejected) => res.rejected = true,
        Err(ops::Failure::Error(e)) => res.error = Some(one_line(&e)),
        Err(ops::Failure::Unsupported(e)) => res.unsupported = Some(one_line(&e)),
    }
    res
}

/// rustc version, target, profile (build.rs).
fn runtime() -> String {
    let build = env!("CB_BUILD");
    // target, profile and opt-level; the target features go to the notes.
    let short: Vec<&str> = build
        .split(' ')
        .filter(|w| !w.starts_with("target-features="))
        .collect();
    format!("{} {}", env!("CB_RUSTC"), short.join(" "))
}
