//! cbdriver-rust is cryptobench's Rust driver: it speaks the JSON-lines
//! driver protocol (docs/protocol.md, version 7) on stdin/stdout for one
//! provider, selected by `--provider`.

mod input;
mod leak;
mod ops;
mod protocol;
mod timing;
mod tls;

#[cfg(test)]
mod tests;

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::ExitCode;

use ops::PROVIDER_IDS;
pub use protocol::{run_case, Driver};

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

/// The stdin loop (docs/drivers.md): one request line in, one response
/// line out; `protocol.rs` dispatches and answers each line.
impl Driver {
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
}
