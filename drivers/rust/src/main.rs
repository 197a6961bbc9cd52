//! cbdriver-rust is cryptobench's Rust driver: it speaks the JSON-lines
//! driver protocol (docs/protocol.md, version 5) on stdin/stdout for one
//! provider, selected by `--provider`.

mod input;
mod leak;
mod ops;
mod protocol;
mod timing;

#[cfg(test)]
mod tests;

use std::io::{self, BufRead, BufReader, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;

use ops::{Alg, CellParams, Op, Provider, PROVIDER_IDS};
use protocol::{
    encode_response, one_line, BenchResponse, CaseResult, ClockInfo, HelloResponse,
    KeypairResponse, OkResponse, RawCase, Request, VerifyResponse, DEFAULT_TARGET_NS,
    PROTOCOL_VERSION,
};

const USAGE: &str = "usage: cbdriver-rust --provider <id>";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let id = match args.as_slice() {
        [flag, id] if flag == "--provider" || flag == "-provider" => id.clone(),
        [arg] => match arg.strip_prefix("--provider=") {
            Some(id) => id.to_string(),
            None => return usage(),
        },
        _ => return usage(),
    };
    let Some(p) = ops::provider(&id) else {
        eprintln!(
            "cbdriver-rust: unknown provider {id:?} (known: {})",
            PROVIDER_IDS.join(", ")
        );
        return ExitCode::from(2);
    };
    let d = Driver::new(p);
    let stdin = io::stdin().lock();
    let stdout = io::stdout().lock();
    match d.serve(stdin, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cbdriver-rust: {e}");
            ExitCode::from(1)
        }
    }
}

fn usage() -> ExitCode {
    eprintln!(
        "cbdriver-rust: {USAGE} (known: {})",
        PROVIDER_IDS.join(", ")
    );
    ExitCode::from(2)
}

/// Serves one provider.
pub struct Driver {
    prov: Box<dyn Provider>,
    resolution_ns: u64,
}

impl Driver {
    /// Measures the clock resolution once, at start-up.
    pub fn new(prov: Box<dyn Provider>) -> Self {
        Driver {
            prov,
            resolution_ns: timing::probe_resolution(),
        }
    }

    /// Runs the request loop until bye or end of input. Lines may be
    /// arbitrarily long (verify requests carry several MB of hex).
    pub fn serve(&self, input: impl Read, output: impl Write) -> io::Result<()> {
        let mut r = BufReader::with_capacity(1 << 20, input);
        let mut w = io::BufWriter::new(output);
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = r.read_until(b'\n', &mut line)?;
            if n == 0 {
                return Ok(()); // end of input means bye
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let (resp, quit) = self.handle_line(&line);
            w.write_all(resp.as_bytes())?;
            w.write_all(b"\n")?;
            w.flush()?;
            if quit {
                return Ok(());
            }
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
        let req = match protocol::decode_request(line) {
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
