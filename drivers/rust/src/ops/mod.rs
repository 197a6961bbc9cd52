//! The provider interface: a catalogue of algorithms, each with a case
//! executor (for `verify`) and a cell factory (for `bench`), plus the cell
//! shapes every library file builds on.
//!
//! A provider is one file (`rustcrypto.rs`, `ring.rs`, `awslc.rs`) whose
//! `provider()` fills in a [`Provider`]; [`provider`] maps `--provider` ids
//! to them.
//!
//! A [`Cell`] is prepared once (keys, contexts, buffers, for decrypt/open
//! the ciphertext) and `run` performs exactly one operation. Two shapes:
//!
//! - [`one_shot`]: a closure `op(input, out) -> output length` over a whole
//!   message held by the cell;
//! - [`streamed`]: a [`StreamOp`] that feeds the message through a
//!   streaming API piece by piece ([`Pieces`]). With `chunk > 0` the pieces
//!   are read straight from the doubled 1 MiB pattern (the message is never
//!   materialised) and each piece's output overwrites one piece-sized
//!   buffer; the checksum of the whole output stream is folded in the one
//!   untimed operation through a [`Hook`], which is a no-op (compiled away)
//!   in the timed runs.

pub mod awslc;
pub mod awslc_pk;
pub mod backbone;
pub mod pk;
pub mod ring;
mod ring_family;
pub mod ring_pk;
pub mod rustcrypto;
pub mod rustcrypto_pk;

use std::sync::Arc;
use std::time::Instant;

use crate::input::{self, Fnv, PATTERN_LEN};

/// The providers this driver serves, sorted (`rust:boring` only in the build
/// with `--features boring`: BoringSSL takes minutes to build).
#[cfg(not(feature = "boring"))]
pub const PROVIDER_IDS: &[&str] = &[
    "rust:aws-lc-rs",
    "rust:backbone",
    "rust:ring",
    "rust:rustcrypto",
    "rust:rustls",
    "rust:rustls-ring",
];
#[cfg(feature = "boring")]
pub const PROVIDER_IDS: &[&str] = &[
    "rust:aws-lc-rs",
    "rust:backbone",
    "rust:boring",
    "rust:ring",
    "rust:rustcrypto",
    "rust:rustls",
    "rust:rustls-ring",
];

/// The provider for an id, or `None` for an unknown one.
pub fn provider(id: &str) -> Option<Provider> {
    match id {
        "rust:aws-lc-rs" => Some(awslc::provider()),
        "rust:backbone" => Some(backbone::provider()),
        #[cfg(feature = "boring")]
        "rust:boring" => Some(crate::tls::boring_provider()),
        "rust:ring" => Some(ring::provider()),
        "rust:rustcrypto" => Some(rustcrypto::provider()),
        "rust:rustls" => Some(crate::tls::provider(crate::tls::Flavour::AwsLc)),
        "rust:rustls-ring" => Some(crate::tls::provider(crate::tls::Flavour::Ring)),
        _ => None,
    }
}

/// A provider as data: each library file's `provider()` fills one in (its
/// id, library name and versions, how its operations are written, and its
/// catalogue), so the files differ only in what differs.
pub struct Provider {
    /// `rust:<name>`.
    pub id: &'static str,
    /// The library's name for reports.
    pub library: &'static str,
    /// The versions of the crates (and C library) actually linked.
    pub library_version: String,
    /// How each operation is written, for the reports (symmetric, then
    /// public-key notes; the build note is added by `notes()`).
    pub notes: &'static [&'static [&'static str]],
    /// The catalogue: every algorithm offered (anything else is absent).
    pub algs: Vec<Alg>,
}

impl Provider {
    /// A provider: the empty operation, then every algorithm of `algs`
    /// (symmetric, then public-key), and its notes in the same order.
    pub fn new(
        id: &'static str,
        library: &'static str,
        library_version: String,
        notes: &'static [&'static [&'static str]],
        algs: impl IntoIterator<Item = Vec<Alg>>,
    ) -> Provider {
        let algs = std::iter::once(noop_alg()).chain(algs.into_iter().flatten());
        Provider {
            id,
            library,
            library_version,
            notes,
            algs: algs.collect(),
        }
    }
    pub fn id(&self) -> &'static str {
        self.id
    }
    pub fn library(&self) -> &'static str {
        self.library
    }
    pub fn library_version(&self) -> String {
        self.library_version.clone()
    }
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = self
            .notes
            .iter()
            .flat_map(|n| n.iter())
            .map(|s| s.to_string())
            .collect();
        notes.push(build_note());
        notes
    }
    pub fn algs(&self) -> &[Alg] {
        &self.algs
    }
    pub fn alg(&self, name: &str) -> Option<&Alg> {
        self.algs.iter().find(|a| a.name == name)
    }
}

/// The operations of protocol.md's bench tables (symmetric, then
/// public-key and post-quantum).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Op {
    #[default]
    Noop,
    Hash,
    Mac,
    Encrypt,
    Decrypt,
    Seal,
    Open,
    Keygen,
    Sign,
    Verify,
    Derive,
    Encaps,
    Decaps,
    /// TLS 1.3 cells (protocol 7): the whole handshake, or one side's calls.
    Handshake,
    Client,
    Server,
    /// The leak request's comparison of two secrets (a MAC's, protocol.md § leak).
    Compare,
}

impl Op {
    pub fn parse(s: &str) -> Option<Op> {
        Some(match s {
            "noop" => Op::Noop,
            "hash" => Op::Hash,
            "mac" => Op::Mac,
            "encrypt" => Op::Encrypt,
            "decrypt" => Op::Decrypt,
            "seal" => Op::Seal,
            "open" => Op::Open,
            "keygen" => Op::Keygen,
            "sign" => Op::Sign,
            "verify" => Op::Verify,
            "derive" => Op::Derive,
            "encaps" => Op::Encaps,
            "decaps" => Op::Decaps,
            "handshake" => Op::Handshake,
            "client" => Op::Client,
            "server" => Op::Server,
            "compare" => Op::Compare,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Op::Noop => "noop",
            Op::Hash => "hash",
            Op::Mac => "mac",
            Op::Encrypt => "encrypt",
            Op::Decrypt => "decrypt",
            Op::Seal => "seal",
            Op::Open => "open",
            Op::Keygen => "keygen",
            Op::Sign => "sign",
            Op::Verify => "verify",
            Op::Derive => "derive",
            Op::Encaps => "encaps",
            Op::Decaps => "decaps",
            Op::Handshake => "handshake",
            Op::Client => "client",
            Op::Server => "server",
            Op::Compare => "compare",
        }
    }

    /// Whether a bench cell of this op reads a `size`-byte message
    /// (keygen, derive, encaps, decaps and the TLS ops take none).
    pub fn takes_message(self) -> bool {
        !matches!(
            self,
            Op::Keygen
                | Op::Derive
                | Op::Encaps
                | Op::Decaps
                | Op::Handshake
                | Op::Client
                | Op::Server
        )
    }
}

/// One decoded verify case. The public-key fields (since protocol version 2)
/// are empty when the case does not carry them.
#[derive(Clone, Debug, Default)]
pub struct Case {
    pub op: Op,
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
    pub msg: Vec<u8>,
    pub counter: u32,
    pub public: Vec<u8>,
    pub private: Vec<u8>,
    pub sig: Vec<u8>,
    pub seed: Vec<u8>,
    /// ML-KEM: the 32-byte `m` of a deterministic encapsulation.
    pub m: Option<Vec<u8>>,
    /// ML-DSA: the context string (empty when absent).
    pub ctx: Vec<u8>,
    /// ML-DSA: sign with rnd = 0^32 (FIPS 204's deterministic variant).
    pub deterministic: bool,
}

/// Why a verify case has no output.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// The library refused the input (an open whose tag does not verify, a
    /// signature that does not verify, a malformed key).
    Rejected,
    /// The driver could not run the case.
    Error(String),
    /// The library has no API for this variant of the operation.
    Unsupported(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Self {
        Failure::Error(e)
    }
}

/// What a bench cell is prepared from. `op` is already checked against the
/// algorithm's `ops`, `chunk` against `stream` and 1 MiB.
pub struct CellParams<'a> {
    pub op: Op,
    pub key: &'a [u8],
    pub iv: &'a [u8],
    pub seed: u32,
    pub size: usize,
    /// 0: one-shot; > 0: the streaming API in pieces of `chunk` bytes.
    pub chunk: usize,
    /// A TLS cell's test PKI (the request's `tls`), `None` elsewhere.
    pub tls: Option<&'a crate::tls::Files>,
}

impl CellParams<'_> {
    /// The whole fixed input (one-shot cells).
    pub fn message(&self) -> Vec<u8> {
        input::message(self.seed, self.size)
    }

    /// Where a streamed cell reads its pieces: the doubled pattern.
    pub fn pattern(&self) -> Source {
        Source::Pattern(input::pattern(self.seed))
    }
}

type Exec = Box<dyn Fn(&Case) -> Result<Vec<u8>, Failure>>;
type NewCell = Box<dyn Fn(&CellParams) -> Result<Box<dyn Cell>, String>>;
type NewKeypair = Box<dyn Fn() -> Result<KeyPair, String>>;
/// One operation prepared for the leak request: the keys already imported,
/// the input already copied; calling it performs the operation alone.
pub type Prepared = Box<dyn FnMut() -> Result<(), Failure>>;
/// A library's constant-time comparison of two byte strings (true: equal),
/// for the leak request's `compare` of a MAC.
pub type Compare = fn(&[u8], &[u8]) -> bool;
type Prepare = Box<dyn Fn(&Case) -> Result<Prepared, Failure>>;

/// A key pair in protocol.md's encodings (the `keypair` command).
#[derive(Clone, Debug, Default)]
pub struct KeyPair {
    pub public: Vec<u8>,
    pub private: Vec<u8>,
}

/// One algorithm of a provider.
pub struct Alg {
    pub name: &'static str,
    /// The operations offered (protocol.md, bench table).
    pub ops: &'static [Op],
    /// The algorithm accepts `chunk > 0` in bench.
    pub stream: bool,
    /// Why it does not, for the `not offered:` error.
    pub no_stream: &'static str,
    /// Runs one verify case: the output, or `Failure::Rejected` when the
    /// library refused the input.
    pub exec: Exec,
    /// Prepares one bench cell.
    pub new_cell: NewCell,
    /// A fresh key pair from the provider's generator (public-key
    /// algorithms; `None` elsewhere).
    pub keypair: Option<NewKeypair>,
    /// Public-key algorithms: a case's private-key operation (sign, derive,
    /// decrypt, decaps) with its keys imported outside the call, for the
    /// leak request (`None`: that request answers `not offered`).
    pub prepare: Option<Prepare>,
}

impl Alg {
    pub fn new(
        name: &'static str,
        ops: &'static [Op],
        stream: bool,
        exec: impl Fn(&Case) -> Result<Vec<u8>, Failure> + 'static,
        new_cell: impl Fn(&CellParams) -> Result<Box<dyn Cell>, String> + 'static,
    ) -> Alg {
        Alg {
            name,
            ops,
            stream,
            no_stream: "no streaming API",
            exec: Box::new(exec),
            new_cell: Box::new(new_cell),
            keypair: None,
            prepare: None,
        }
    }

    /// Adds the leak request's preparation of one case: `f` imports the
    /// case's keys and returns the operation alone (its output is dropped).
    pub fn with_prepare(mut self, f: impl Fn(&Case) -> Result<Prepared, Failure> + 'static) -> Alg {
        self.prepare = Some(Box::new(f));
        self
    }

    /// `with_prepare` for the algorithm's one private-key operation `op`: a
    /// case of another op is refused before `f` sees it.
    pub fn with_prepare_of(
        self,
        op: Op,
        f: impl Fn(&Case) -> Result<Prepared, Failure> + 'static,
    ) -> Alg {
        let name = self.name;
        self.with_prepare(move |c| {
            if c.op != op {
                return Err(pk::no_case(name, c.op));
            }
            f(c)
        })
    }

    /// Adds the `keypair` command's generator.
    pub fn with_keypair(mut self, f: impl Fn() -> Result<KeyPair, String> + 'static) -> Alg {
        self.keypair = Some(Box::new(f));
        self
    }

    /// Says why `chunk > 0` is not offered (when the library has a
    /// streaming API that does not fit, e.g. padding only).
    pub fn no_stream_because(mut self, why: &'static str) -> Alg {
        self.no_stream = why;
        self
    }

    pub fn offers(&self, op: Op) -> bool {
        self.ops.contains(&op)
    }
}

/// One prepared bench cell.
pub trait Cell {
    /// Performs exactly one operation and returns a small value folded from
    /// its output for the sink: its first byte (a streamed cell: the first
    /// byte of its last non-empty piece), 0 for an empty output.
    fn run(&mut self) -> u64;
    /// The output of the most recent `run` (for a streamed cell: of its last
    /// piece).
    fn output(&self) -> &[u8];
    /// The first failure a `run` met (an open rejecting), if any.
    fn err(&self) -> Option<&str>;
    /// Runs one operation, untimed, and returns the checksum of its whole
    /// output (protocol.md).
    fn checksum(&mut self) -> String {
        self.run();
        input::checksum(self.output())
    }
    /// Time spent inside `run` on work that is not the operation (a big
    /// decrypt's ciphertext made again), in ns since the last call: the
    /// timed batch subtracts it. 0 for every other cell.
    fn take_untimed_ns(&mut self) -> u64 {
        0
    }
    /// Public-key cells: the keys the cell was prepared with, encoded as
    /// protocol.md says (the native tests check the outputs with them).
    #[cfg_attr(not(test), allow(dead_code))]
    fn keys(&self) -> Option<&pk::Keys> {
        None
    }
    /// TLS cells: what the untimed handshake of `checksum` showed (the
    /// bench response's `tls`).
    fn tls_report(&self) -> Option<crate::tls::Report> {
        None
    }
}

/// The sink contribution of one output.
#[inline(always)]
pub fn first(b: &[u8]) -> u64 {
    b.first().map_or(0, |&c| u64::from(c))
}

// ---- noop -------------------------------------------------------------------

struct NoopCell;

impl Cell for NoopCell {
    fn run(&mut self) -> u64 {
        0
    }
    fn output(&self) -> &[u8] {
        &[]
    }
    fn err(&self) -> Option<&str> {
        None
    }
}

/// The empty operation through the same loop: the driver's per-call floor.
pub fn noop_alg() -> Alg {
    Alg::new(
        "noop",
        &[Op::Noop],
        false,
        |_| Ok(Vec::new()),
        |_| Ok(Box::new(NoopCell)),
    )
}

// ---- one-shot cells ---------------------------------------------------------

struct OneShot<F> {
    input: Vec<u8>,
    out: Vec<u8>,
    len: usize,
    op: F,
    err: Option<String>,
    /// A public-key cell's keys (pk::op_cell), for the checks of its output.
    keys: Option<pk::Keys>,
}

impl<F> Cell for OneShot<F>
where
    F: FnMut(&[u8], &mut [u8]) -> Result<usize, String>,
{
    fn run(&mut self) -> u64 {
        match (self.op)(&self.input, &mut self.out) {
            Ok(n) => {
                self.len = n;
                first(&self.out[..n])
            }
            Err(e) => {
                self.err.get_or_insert(e);
                0
            }
        }
    }
    fn output(&self) -> &[u8] {
        &self.out[..self.len]
    }
    fn err(&self) -> Option<&str> {
        self.err.as_deref()
    }
    fn keys(&self) -> Option<&pk::Keys> {
        self.keys.as_ref()
    }
}

/// A cell whose operation is `op(input, out)`: it reads the whole `input`
/// (the message, or the ciphertext for decrypt/open), writes into `out`
/// (`out_cap` bytes, allocated here) and returns the output length.
pub fn one_shot<F>(input: Vec<u8>, out_cap: usize, op: F) -> Box<dyn Cell>
where
    F: FnMut(&[u8], &mut [u8]) -> Result<usize, String> + 'static,
{
    one_shot_with_keys(input, out_cap, op, None)
}

/// [`one_shot`] for a public-key cell, which carries its keys.
pub fn one_shot_with_keys<F>(
    input: Vec<u8>,
    out_cap: usize,
    op: F,
    keys: Option<pk::Keys>,
) -> Box<dyn Cell>
where
    F: FnMut(&[u8], &mut [u8]) -> Result<usize, String> + 'static,
{
    Box::new(OneShot {
        input,
        out: vec![0; out_cap],
        len: 0,
        op,
        err: None,
        keys,
    })
}

// ---- streamed cells ---------------------------------------------------------

/// Where the pieces of a message come from.
pub enum Source {
    /// The doubled 1 MiB pattern: piece `[off, off+len)` is
    /// `p[off % 1 MiB..][..len]`, contiguous for `len <= 1 MiB`.
    Pattern(Arc<[u8]>),
    /// A whole buffer: the ciphertext of a decrypt cell, or the message of a
    /// one-shot cell run through a streaming API as a single piece.
    Whole(Vec<u8>),
    /// A big decrypt's ciphertext, each piece made again just before it is
    /// read (docs/protocol.md, "With chunk > 0").
    Regenerated(Regen),
}

impl Source {
    #[inline(always)]
    fn piece(&mut self, off: usize, len: usize) -> &[u8] {
        match self {
            Source::Pattern(p) => pattern_piece(p, off, len),
            Source::Whole(b) => &b[off..off + len],
            Source::Regenerated(r) => r.piece(off, len),
        }
    }
}

#[inline(always)]
fn pattern_piece(p: &[u8], off: usize, len: usize) -> &[u8] {
    let start = off % PATTERN_LEN;
    &p[start..start + len]
}

/// An encrypter fed piece by piece (`piece`, `out` of the same length): the
/// pull-style twin of a decrypt cell's encrypting [`StreamOp`].
pub type PieceFn = Box<dyn FnMut(&[u8], &mut [u8]) -> Result<(), String>>;

/// Makes a fresh [`PieceFn`] (one per operation: IV and counter from the
/// start).
pub type FreshEncrypter = Box<dyn Fn() -> Result<PieceFn, String>>;

thread_local! {
    /// Above this many bytes a streamed decrypt makes its ciphertext again
    /// piece by piece instead of holding all of it. Per thread only so that
    /// a native test can lower it without touching the tests beside it.
    pub static REGENERATE_ABOVE: std::cell::Cell<usize> = const { std::cell::Cell::new(64 << 20) };
}

/// The ciphertext of the pattern, one piece at a time: read in order from
/// offset 0 (a new operation starts a fresh encrypter), the time spent
/// making it kept for `time_batch` to subtract.
pub struct Regen {
    pattern: Arc<[u8]>,
    fresh: FreshEncrypter,
    enc: Option<PieceFn>,
    buf: Vec<u8>,
    untimed_ns: u64,
    err: Option<String>,
}

impl Regen {
    fn piece(&mut self, off: usize, len: usize) -> &[u8] {
        let t0 = Instant::now();
        if off == 0 || self.enc.is_none() {
            match (self.fresh)() {
                Ok(f) => self.enc = Some(f),
                Err(e) => {
                    self.err.get_or_insert(e);
                }
            }
        }
        let out = &mut self.buf[..len];
        match self.enc.as_mut() {
            Some(f) => {
                if let Err(e) = f(pattern_piece(&self.pattern, off, len), out) {
                    self.err.get_or_insert(e);
                }
            }
            None => out.fill(0), // the error above fails the cell
        }
        self.untimed_ns += u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX);
        &self.buf[..len]
    }
}

/// Receives every output piece of a streamed operation.
pub trait Hook {
    fn piece(&mut self, out: &[u8]);
}

/// The timed runs: outputs are only overwritten.
pub struct Discard;

impl Hook for Discard {
    #[inline(always)]
    fn piece(&mut self, _: &[u8]) {}
}

/// The untimed checksum run: FNV-1a over the whole output stream.
impl Hook for Fnv {
    fn piece(&mut self, out: &[u8]) {
        self.update(out);
    }
}

/// Collects the output stream (the ciphertext for a decrypt cell, the output
/// of a verify case).
impl Hook for Vec<u8> {
    fn piece(&mut self, out: &[u8]) {
        self.extend_from_slice(out);
    }
}

/// One streamed operation's view of its message and output buffer.
pub struct Pieces<'a, H> {
    src: &'a mut Source,
    size: usize,
    chunk: usize,
    out: &'a mut [u8],
    hook: &'a mut H,
    out_len: usize,
    /// First byte of the last non-empty output (the sink contribution).
    first: u64,
}

impl<H: Hook> Pieces<'_, H> {
    /// Feeds the message to `f` piece by piece; `f` gets the piece and the
    /// output buffer and returns how many bytes of output it wrote there.
    #[inline(always)]
    pub fn each<E>(
        &mut self,
        mut f: impl FnMut(&[u8], &mut [u8]) -> Result<usize, E>,
    ) -> Result<(), E> {
        let mut off = 0;
        while off < self.size {
            let len = self.chunk.min(self.size - off);
            let n = f(self.src.piece(off, len), self.out)?;
            self.emit(n);
            off += len;
        }
        Ok(())
    }

    /// Feeds the message to `f` piece by piece, for APIs that write no
    /// output per piece (hashes, MACs).
    #[inline(always)]
    pub fn absorb(&mut self, mut f: impl FnMut(&[u8])) {
        let mut off = 0;
        while off < self.size {
            let len = self.chunk.min(self.size - off);
            f(self.src.piece(off, len));
            off += len;
        }
    }

    /// The output after the last piece (a digest, a tag, a final block):
    /// `f` writes it into the buffer and returns its length.
    #[inline(always)]
    pub fn finish<E>(&mut self, f: impl FnOnce(&mut [u8]) -> Result<usize, E>) -> Result<(), E> {
        let n = f(self.out)?;
        self.emit(n);
        Ok(())
    }

    #[inline(always)]
    fn emit(&mut self, n: usize) {
        let out = &self.out[..n];
        self.hook.piece(out);
        if let Some(&b) = out.first() {
            self.first = u64::from(b);
        }
        self.out_len = n;
    }
}

/// One whole streamed operation, written against a library's streaming API:
/// set up per message (IV, context), then `Pieces::each`/`absorb`, then
/// `Pieces::finish` where the API has a final output.
pub trait StreamOp: 'static {
    fn run<H: Hook>(&mut self, p: &mut Pieces<'_, H>) -> Result<(), String>;
}

struct Streamed<S> {
    op: S,
    src: Source,
    size: usize,
    chunk: usize,
    out: Vec<u8>,
    out_len: usize,
    err: Option<String>,
}

impl<S: StreamOp> Streamed<S> {
    #[inline(always)]
    fn go<H: Hook>(&mut self, hook: &mut H) -> u64 {
        let mut p = Pieces {
            src: &mut self.src,
            size: self.size,
            chunk: self.chunk,
            out: &mut self.out,
            hook,
            out_len: 0,
            first: 0,
        };
        let mut res = self.op.run(&mut p);
        let sink = p.first;
        self.out_len = p.out_len;
        if let Source::Regenerated(r) = &mut self.src {
            if let Some(e) = r.err.take() {
                res = res.and(Err(format!("making the ciphertext again: {e}")));
            }
        }
        match res {
            Ok(()) => sink,
            Err(e) => {
                self.err.get_or_insert(e);
                0
            }
        }
    }
}

impl<S: StreamOp> Cell for Streamed<S> {
    fn run(&mut self) -> u64 {
        self.go(&mut Discard)
    }
    fn output(&self) -> &[u8] {
        &self.out[..self.out_len]
    }
    fn err(&self) -> Option<&str> {
        self.err.as_deref()
    }
    fn checksum(&mut self) -> String {
        let mut f = Fnv::new();
        self.go(&mut f);
        f.checksum()
    }
    fn take_untimed_ns(&mut self) -> u64 {
        match &mut self.src {
            Source::Regenerated(r) => std::mem::take(&mut r.untimed_ns),
            _ => 0,
        }
    }
}

/// A cell running `op` over a `size`-byte message from `src` in pieces of
/// `chunk` bytes, the output of each piece overwriting one `out_cap`-byte
/// buffer (piece length plus whatever slack the API asks for, at least the
/// final output's length).
pub fn streamed<S: StreamOp>(
    op: S,
    src: Source,
    size: usize,
    chunk: usize,
    out_cap: usize,
) -> Box<dyn Cell> {
    Box::new(Streamed {
        op,
        src,
        size,
        chunk: chunk.max(1),
        out: vec![0; out_cap],
        out_len: 0,
        err: None,
    })
}

/// A cell over a streaming API. With `chunk` 0 the whole message is one
/// piece (the same calls the library's one-shot helpers make); with
/// `chunk > 0` the pieces come from the pattern. For decrypt, `encrypt` is
/// run once first, untimed, through the same pieces to make the ciphertext
/// (kept whole), which the cell then reads piece by piece. The output buffer
/// holds one piece plus `slack` bytes (the final output's length, or what
/// the API asks for beyond the piece).
pub fn stream_cell<S: StreamOp>(
    p: &CellParams,
    op: S,
    encrypt: Option<S>,
    slack: usize,
) -> Result<Box<dyn Cell>, String> {
    let (mut src, chunk) = if p.chunk == 0 {
        (Source::Whole(p.message()), p.size)
    } else {
        (p.pattern(), p.chunk)
    };
    if let Some(mut enc) = encrypt {
        src = Source::Whole(collect(&mut enc, &mut src, p.size, chunk, chunk + slack)?);
    }
    Ok(streamed(op, src, p.size, chunk, chunk + slack))
}

/// A streamed decrypt cell: `dec` reads the ciphertext that `enc` makes of
/// the fixed input. Above [`REGENERATE_ABOVE`] bytes with `chunk > 0` the
/// ciphertext is not kept: `fresh` makes each piece again just before `dec`
/// reads it, off the clock, so memory stays bounded (one piece).
pub fn decrypt_cell<S: StreamOp>(
    p: &CellParams,
    dec: S,
    enc: S,
    fresh: impl Fn() -> Result<PieceFn, String> + 'static,
    slack: usize,
) -> Result<Box<dyn Cell>, String> {
    if p.chunk == 0 || p.size <= REGENERATE_ABOVE.get() {
        return stream_cell(p, dec, Some(enc), slack);
    }
    let Source::Pattern(pattern) = p.pattern() else {
        unreachable!("a streamed cell reads the pattern")
    };
    let src = Source::Regenerated(Regen {
        pattern,
        fresh: Box::new(fresh),
        enc: None,
        buf: vec![0; p.chunk],
        untimed_ns: 0,
        err: None,
    });
    Ok(streamed(dec, src, p.size, p.chunk, p.chunk + slack))
}

/// Runs a verify case through a streaming API, the message as one piece.
pub fn stream_exec<S: StreamOp>(mut op: S, msg: &[u8], slack: usize) -> Result<Vec<u8>, Failure> {
    let n = msg.len();
    Ok(collect(
        &mut op,
        &mut Source::Whole(msg.to_vec()),
        n,
        n,
        n + slack,
    )?)
}

/// Runs `op` once and returns its whole output stream: the ciphertext a
/// decrypt cell is prepared with, or the output of a verify case.
pub fn collect<S: StreamOp>(
    op: &mut S,
    src: &mut Source,
    size: usize,
    chunk: usize,
    out_cap: usize,
) -> Result<Vec<u8>, String> {
    let mut all = Vec::with_capacity(size + 64);
    let mut out = vec![0; out_cap];
    let mut p = Pieces {
        src,
        size,
        chunk: chunk.max(1),
        out: &mut out,
        hook: &mut all,
        out_len: 0,
        first: 0,
    };
    op.run(&mut p)?;
    Ok(all)
}

// ---- checks shared by the catalogues ------------------------------------------

/// Maps a library's opaque error (ring's and aws-lc-rs's `Unspecified`)
/// to "<what> failed".
pub fn unspecified<E>(what: &'static str) -> impl Fn(E) -> String {
    move |_| format!("{what} failed")
}

pub fn check_len(what: &str, b: &[u8], want: usize) -> Result<(), String> {
    if b.len() != want {
        return Err(format!("{what} must be {want} bytes, got {}", b.len()));
    }
    Ok(())
}

/// ECB and CBC take whole 16-byte blocks (no padding).
pub fn check_blocks(size: usize, alg: &str) -> Result<(), String> {
    if !size.is_multiple_of(16) {
        return Err(format!(
            "size {size} is not a multiple of 16 ({alg} takes whole blocks, no padding)"
        ));
    }
    Ok(())
}

/// A streamed ECB/CBC cell feeds whole blocks.
pub fn check_chunk_blocks(chunk: usize, alg: &str) -> Result<(), String> {
    if !chunk.is_multiple_of(16) {
        return Err(format!(
            "not offered: chunk {chunk} is not a multiple of 16 ({alg} is fed whole blocks)"
        ));
    }
    Ok(())
}

/// The versions of a crate in the Cargo.lock the binary was built from
/// (build.rs embeds them; the build runs with `--locked`), newest first:
/// a crate can be locked twice (rsa 0.9 brings sha2 0.10 next to 0.11).
pub fn locked_versions(name: &str) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = env!("CB_LOCKED_VERSIONS")
        .split(',')
        .filter_map(|e| e.split_once(' '))
        .filter(|(n, _)| *n == name)
        .map(|(_, v)| v)
        .collect();
    let key = |v: &str| -> Vec<u64> {
        v.split(['.', '-', '+'])
            .map(|p| p.parse().unwrap_or(0))
            .collect()
    };
    v.sort_by_key(|b| std::cmp::Reverse(key(b)));
    v
}

/// `name version` of each crate as this crate itself links it: where a
/// crate is locked twice (ring 0.16 pinned beside rustls' ring 0.17), the
/// version of our own dependency; otherwise [`crate_versions`].
pub fn direct_crate_versions(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| {
            env!("CB_DIRECT_VERSIONS")
                .split(',')
                .find(|e| e.split_once(' ').is_some_and(|(d, _)| d == *n))
                .map_or_else(|| crate_versions(&[n]), str::to_string)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `name version` of each crate (`name v1/v2` when locked twice),
/// comma-separated.
pub fn crate_versions(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| {
            let v = locked_versions(n);
            if v.is_empty() {
                format!("{n} (version unknown)")
            } else {
                format!("{n} {}", v.join("/"))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The build as the notes report it.
pub fn build_note() -> String {
    format!(
        "Build: {}, {}; Cargo.toml [profile.release]: {}.",
        env!("CB_RUSTC"),
        env!("CB_BUILD"),
        env!("CB_PROFILE_SETTINGS")
    )
}
