"""What `plugin new --lang rust` writes: string.Template templates ($name) of a cdylib crate with the
#[repr(C)] mirror of include/cryptobench/provider.h."""

RUST_CARGO = r"""# plugin:$name — a cryptobench provider plugin in Rust: `cargo build --release` builds
# target/release/libcb_$name.so (docs/plugin-abi.md, ABI version 2).
[package]
name = "cb_$name"
version = "0.1.0"
edition = "2024"
publish = false

[lib]
crate-type = ["cdylib"]

[dependencies]
sha2 = "0.11" # TODO: your library instead

[profile.release]
codegen-units = 1

# its own workspace, wherever it is put
[workspace]
"""

RUST_BUILD = r"""//! Records the toolchain and the library this plugin is built from, for the table's `runtime` and
//! `library_version` (the driver reports them in `hello`; `cryptobench list providers` shows them).

use std::env;
use std::fs;
use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=Cargo.lock");
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "rustc (version unknown)".into());
    println!("cargo:rustc-env=CB_RUSTC={version}");
    // the version of the crate actually compiled in, from Cargo.lock
    let dir = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let lock = fs::read_to_string(Path::new(&dir).join("Cargo.lock")).unwrap_or_default();
    let library = "sha2"; // TODO: the crate your plugin wraps
    println!(
        "cargo:rustc-env=CB_LIBRARY_VERSION={library} {}",
        locked_version(&lock, library)
    );
}

/// The version of package `name` in Cargo.lock ("unknown" when it is not there).
fn locked_version(lock: &str, name: &str) -> String {
    let mut inside = false;
    for line in lock.lines().map(str::trim) {
        if line == "[[package]]" {
            inside = false;
        } else if line == format!("name = \"{name}\"") {
            inside = true;
        } else if let (true, Some(v)) = (inside, line.strip_prefix("version = ")) {
            return v.trim_matches('"').to_string();
        }
    }
    "unknown".into()
}
"""

RUST_LIB = r"""//! plugin:$name — a cryptobench provider plugin in Rust (docs/plugin-abi.md, ABI version 2).
//!
//! Build it:   cargo build --release
//! Check it:   cryptobench plugin check ./target/release/libcb_$name.so
//! Measure it: cryptobench run --plugin ./target/release/libcb_$name.so --alg sha256
//!
//! It offers sha256 through the `sha2` crate as a stand-in: replace it with your library where it
//! says TODO. You never write a timing loop: the generic C driver times `cell_run`.

use std::ffi::{CStr, c_char, c_int};
use std::ptr;

use sha2::{Digest, Sha256}; // TODO: your library instead

// ---- the #[repr(C)] mirror of include/cryptobench/provider.h, ABI version 2 ----
// Every member in the header's order; the assertions below stop the build if one is misplaced.

const CB_PROVIDER_ABI_VERSION: u32 = 2;
const CB_MAX_OPS: usize = 4;
/// cell_run's results besides the first output byte 0..=255
#[allow(dead_code)]
const CB_FAIL: c_int = -1; // the library failed; cell_error says why
#[allow(dead_code)]
const CB_REJECTED: c_int = -2; // the library refused the input (a tag or signature that does not verify)

/// What init, cell_new and keypair return; the message in err says why, without a prefix.
type CbStatus = i32;
const CB_OK: CbStatus = 0;
#[allow(dead_code)]
const CB_ERROR: CbStatus = 1; // unusable parameters or a library failure
const CB_NOT_OFFERED: CbStatus = 2; // the library cannot do this cell at all
#[allow(dead_code)]
const CB_NOT_OFFERED_AT_SIZE: CbStatus = 3; // ... not at this message size
#[allow(dead_code)]
const CB_UNSUPPORTED: CbStatus = 4; // no API for this variant (verify answers "unsupported")

/// One algorithm of the catalogue (`cryptobench list algorithms` has the names), with the lengths
/// the driver checks before cell_new (0: not declared).
#[repr(C)]
pub struct CbAlg {
    name: *const c_char,
    ops: [*const c_char; CB_MAX_OPS + 1], // operation names, null-ended
    stream: c_int,                        // accepts chunk > 0 (then cell_tap is required)
    pk: c_int,                            // public-key (then keypair and free_buf are required)
    fresh: c_int,                         // every operation draws fresh randomness
    key_len: u32,                         // the key, exactly
    iv_len: u32,                          // the IV or nonce, exactly
    tag_len: u32,                         // AEAD: the tag
    out_len: u32,                         // hash / mac: the output
    block: u32,                           // encrypt / decrypt: the message is a multiple of this
}

/// An algorithm the catalogue lacks, declared by the plugin (docs/plugins.md, "Declaring an algorithm
/// of your own"): its kind, operations, known-answer file and sizes. declare_at returns them.
#[repr(C)]
pub struct CbDeclare {
    name: *const c_char,
    kind: *const c_char, // "hash", "xof", "mac", "aead", "cipher", "kem", "sig" or "kex"
    ops: [*const c_char; CB_MAX_OPS + 1], // all null: the kind's operations
    kat: *const c_char,  // the known-answer file, relative to the plugin's folder; null: none
    standard: *const c_char,
    out_len: u32,
    key_len: u32,
    iv_len: u32,
    tag_len: u32,
    block: u32,
    public_key: u32,
    secret_key: u32,
    ciphertext: u32,
    signature: u32,
    shared_secret: u32,
}

/// A protocol-specific input by name (the handshake case's secrets); an array ends at a null key.
#[repr(C)]
pub struct CbExt {
    key: *const c_char,
    data: *const u8,
    len: usize,
}

/// What a cell is prepared from; pointers are borrowed until cell_free. Absent inputs: null, 0.
#[repr(C)]
pub struct CbParams {
    struct_size: u32, // the driver's size of this struct: members past it are absent
    alg: *const c_char,
    op: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    counter: u32,
    aad: *const u8,
    aad_len: usize,
    msg: *const u8, // never null
    msg_len: usize,
    chunk: usize,  // 0: one-shot; c > 0: streaming updates of c bytes
    period: usize, // > 0: a periodic message (streaming cells only, provider.h)
    public: *const u8,
    public_len: usize,
    private: *const u8,
    private_len: usize,
    sig: *const u8,
    sig_len: usize,
    seed: *const u8,
    seed_len: usize,
    m: *const u8,
    m_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    deterministic: c_int,
    out_len: usize,
    ext: *const CbExt, // protocol-specific inputs, or null
}

/// The output tap of a streaming cell (fold every output byte with FNV-1a 64, provider.h).
#[repr(C)]
pub struct CbTap {
    fnv: u64,
    len: u64,
    copy: *mut u8,
    copy_cap: usize,
    overflow: c_int,
}

type Err = *mut c_char; // a one-line message buffer of errlen bytes

/// The table the driver reads. Function members are Option<fn>: None is C's NULL.
#[repr(C)]
pub struct CbProvider {
    abi_version: u32,
    struct_size: u32,
    name: *const c_char,
    id: *const c_char,
    language: *const c_char,
    runtime: *const c_char, // the toolchain that built the plugin
    accepts: Option<unsafe extern "C" fn(*const c_char) -> c_int>,
    init: Option<unsafe extern "C" fn(Err, usize) -> CbStatus>,
    fini: Option<extern "C" fn()>,
    library_name: Option<extern "C" fn() -> *const c_char>,
    library_version: Option<extern "C" fn() -> *const c_char>,
    notes: Option<unsafe extern "C" fn(*const c_char, *mut *const c_char, usize) -> usize>,
    alg_at: Option<extern "C" fn(usize) -> *const CbAlg>,
    cell_new: Option<unsafe extern "C" fn(*const CbParams, *mut *mut Cell, Err, usize) -> CbStatus>,
    cell_run: Option<unsafe extern "C" fn(*mut Cell) -> c_int>,
    cell_prepare: Option<unsafe extern "C" fn(*mut Cell, u64) -> c_int>,
    cell_output: Option<unsafe extern "C" fn(*const Cell, *mut usize) -> *const u8>,
    cell_tap: Option<unsafe extern "C" fn(*mut Cell, *mut CbTap)>,
    cell_error: Option<unsafe extern "C" fn(*const Cell) -> *const c_char>,
    cell_free: Option<unsafe extern "C" fn(*mut Cell)>,
    #[allow(clippy::type_complexity)]
    keypair: Option<
        unsafe extern "C" fn(
            *const c_char,
            *mut *mut u8,
            *mut usize,
            *mut *mut u8,
            *mut usize,
            Err,
            usize,
        ) -> CbStatus,
    >,
    free_buf: Option<unsafe extern "C" fn(*mut u8, usize)>, // what keypair gave, back to this allocator
    regenerates_ciphertext: Option<extern "C" fn() -> c_int>,
    cell_untimed_ns: Option<unsafe extern "C" fn(*mut Cell) -> u64>,
    declare_at: Option<extern "C" fn(usize) -> *const CbDeclare>, // algorithms of your own
}

// The sizes and offsets the C compiler gives these structs on 64-bit Linux (x86-64, aarch64;
// docs/plugin-abi.md, "Struct sizes"): a member out of place fails the build, not a run.
#[cfg(target_pointer_width = "64")]
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<CbAlg>() == 80 && offset_of!(CbAlg, stream) == 48);
    assert!(offset_of!(CbAlg, key_len) == 60 && offset_of!(CbAlg, block) == 76);
    assert!(size_of::<CbExt>() == 24);
    assert!(size_of::<CbParams>() == 232 && offset_of!(CbParams, alg) == 8);
    assert!(offset_of!(CbParams, counter) == 56 && offset_of!(CbParams, deterministic) == 208);
    assert!(offset_of!(CbParams, out_len) == 216 && offset_of!(CbParams, ext) == 224);
    assert!(size_of::<CbTap>() == 40);
    assert!(size_of::<CbProvider>() == 192 && offset_of!(CbProvider, runtime) == 32);
    assert!(offset_of!(CbProvider, declare_at) == 184);
    assert!(size_of::<CbDeclare>() == 112 && offset_of!(CbDeclare, out_len) == 72);
    assert!(offset_of!(CbProvider, cell_new) == 96 && offset_of!(CbProvider, keypair) == 152);
    assert!(offset_of!(CbProvider, free_buf) == 160);
};

/// Statics holding raw pointers are not Sync by themselves; these only point at other statics
/// and are never written, so sharing them between threads is sound.
struct Shared<T>(T);
unsafe impl<T> Sync for Shared<T> {}

// ---- the plugin ----

/// TODO: every algorithm your library offers, with its operations (`cryptobench list algorithms`)
static ALGS: Shared<[CbAlg; 1]> = Shared([CbAlg {
    name: c"sha256".as_ptr(),
    ops: [
        c"hash".as_ptr(),
        ptr::null(),
        ptr::null(),
        ptr::null(),
        ptr::null(),
    ],
    stream: 0,
    pk: 0,
    fresh: 0,
    key_len: 0,
    iv_len: 0,
    tag_len: 0,
    out_len: 32,
    block: 0,
}]);

/// One prepared operation: what cell_new makes once, outside the timed region.
pub struct Cell {
    msg: *const u8, // the input, borrowed from the driver until cell_free
    msg_len: usize,
    out: [u8; 32],
    err: [u8; 200], // a NUL-terminated message for cell_error
}

/// Writes `msg` as a C string into the driver's buffer of `len` bytes.
unsafe fn set_err(buf: Err, len: usize, msg: &str) {
    if buf.is_null() || len == 0 {
        return;
    }
    let n = msg.len().min(len - 1);
    unsafe {
        ptr::copy_nonoverlapping(msg.as_ptr(), buf.cast::<u8>(), n);
        *buf.add(n) = 0;
    }
}

extern "C" fn alg_at(i: usize) -> *const CbAlg {
    ALGS.0.get(i).map_or(ptr::null(), |a| a as *const CbAlg)
}

/// CB_OK with *cell set, or a status (CB_NOT_OFFERED, CB_ERROR, ...) and a one-line message.
unsafe extern "C" fn cell_new(
    p: *const CbParams,
    cell: *mut *mut Cell,
    err: Err,
    errlen: usize,
) -> CbStatus {
    let p = unsafe { &*p };
    let (alg, op) = unsafe { (CStr::from_ptr(p.alg), CStr::from_ptr(p.op)) };
    if alg != c"sha256" || op != c"hash" {
        let why = format!("{} {}", alg.to_string_lossy(), op.to_string_lossy());
        unsafe { set_err(err, errlen, &why) };
        return CB_NOT_OFFERED;
    }
    if p.chunk > 0 {
        unsafe { set_err(err, errlen, "streaming") };
        return CB_NOT_OFFERED;
    }
    // TODO: what is done once per key goes here: key schedule, contexts, parsed keys
    let c = Box::new(Cell {
        msg: p.msg,
        msg_len: p.msg_len,
        out: [0; 32],
        err: [0; 200],
    });
    unsafe { *cell = Box::into_raw(c) };
    CB_OK
}

/// Exactly one operation: the driver times this. Returns the first output byte, CB_REJECTED or
/// CB_FAIL (with a message in the cell's err for cell_error).
unsafe extern "C" fn cell_run(c: *mut Cell) -> c_int {
    let c = unsafe { &mut *c };
    let msg = unsafe { std::slice::from_raw_parts(c.msg, c.msg_len) };
    c.out.copy_from_slice(&Sha256::digest(msg)); // TODO: your library's call
    c_int::from(c.out[0])
}

unsafe extern "C" fn cell_output(c: *const Cell, len: *mut usize) -> *const u8 {
    let c = unsafe { &*c };
    unsafe { *len = c.out.len() };
    c.out.as_ptr()
}

unsafe extern "C" fn cell_error(c: *const Cell) -> *const c_char {
    unsafe { (*c).err.as_ptr().cast() }
}

unsafe extern "C" fn cell_free(c: *mut Cell) {
    if !c.is_null() {
        drop(unsafe { Box::from_raw(c) });
    }
}

/// For a public-key algorithm's keypair: hands `bytes` to the driver as a buffer it gives back
/// through free_buf (this crate's allocator frees it, never the driver's).
#[allow(dead_code)]
unsafe fn give_buf(bytes: Vec<u8>, buf: *mut *mut u8, len: *mut usize) {
    let b = Box::into_raw(bytes.into_boxed_slice());
    unsafe {
        *len = b.len();
        *buf = b.cast::<u8>();
    }
}

/// Frees a buffer give_buf made: the table's free_buf.
unsafe extern "C" fn free_buf(buf: *mut u8, len: usize) {
    if !buf.is_null() {
        drop(unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(buf, len)) });
    }
}

extern "C" fn library_name() -> *const c_char {
    c"$name".as_ptr() // TODO: your library's name
}

extern "C" fn library_version() -> *const c_char {
    // TODO: the version your library reports at run time, if it has a call for it; build.rs
    // records the crate's version from Cargo.lock
    concat!(env!("CB_LIBRARY_VERSION"), "\0").as_ptr().cast()
}

/// The table the driver reads (include/cryptobench/provider.h has every member's contract).
static TABLE: Shared<CbProvider> = Shared(CbProvider {
    abi_version: CB_PROVIDER_ABI_VERSION,
    struct_size: std::mem::size_of::<CbProvider>() as u32,
    // the provider id is plugin:$name, unless `id` says another, e.g. c"rust:$name"
    name: c"$name".as_ptr(),
    id: ptr::null(),
    language: c"rust".as_ptr(),
    runtime: concat!(env!("CB_RUSTC"), "\0").as_ptr().cast(), // rustc --version, from build.rs
    accepts: None,
    init: None,
    fini: None,
    library_name: Some(library_name),
    library_version: Some(library_version),
    notes: None,
    alg_at: Some(alg_at),
    cell_new: Some(cell_new),
    cell_run: Some(cell_run),
    cell_prepare: None,
    cell_output: Some(cell_output),
    cell_tap: None, // only for streaming algorithms
    cell_error: Some(cell_error),
    cell_free: Some(cell_free),
    keypair: None, // only for public-key algorithms (their buffers: give_buf)
    free_buf: Some(free_buf),
    regenerates_ciphertext: None, // with cell_untimed_ns: big streamed decryption
    cell_untimed_ns: None,
    declare_at: None, // an algorithm the catalogue lacks: a CbDeclare, and its name in alg_at
});

/// The one symbol the driver looks up.
#[unsafe(no_mangle)]
pub extern "C" fn cryptobench_provider() -> *const CbProvider {
    &TABLE.0
}
"""

RUST_README = """# plugin:$name, a cryptobench plugin in Rust

`src/lib.rs` is a working plugin: it offers sha256 through the `sha2` crate. Make it yours:

1. Replace `sha2` with your library where the files say TODO (`cell_new` prepares a cell once,
   outside the timed region; `cell_run` performs exactly one operation; docs/plugin-abi.md has
   every member of the table and what each operation's output is). Put your crate in
   `[dependencies]` of Cargo.toml and its name in build.rs (the version `hello` reports).
2. List every algorithm you offer in `ALGS` (names: `cryptobench list algorithms`).
3. `cargo build --release && cryptobench plugin check ./target/release/libcb_$name.so` — every
   vector case and the differential inputs against c:openssl, no timing; it exits 1 on any
   failure and names the failing case.
4. `cryptobench run --plugin ./target/release/libcb_$name.so --alg sha256 --md report.md` —
   measured beside c:openssl with intervals and a verdict.

The `#[repr(C)]` structs mirror include/cryptobench/provider.h; the `const` assertions stop the
build when a member is out of place (the sizes are in docs/plugin-abi.md). The table says
`language: rust` and, as its `runtime`, the `rustc --version` build.rs recorded: `cryptobench
list providers` shows both. A panic inside the plugin aborts the driver process, which the run
records as that cell's failure. You never write a timing loop: the generic C driver times
`cell_run` (docs/protocol.md).
"""
