//! Allocations per timed operation (Rust heap only: memory AWS-LC takes
//! with its own malloc is not seen here), for the record: none where the
//! library lets us avoid them.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell as StdCell;

use super::drivers;
use crate::input::decode_hex;
use crate::ops::CellParams;

struct Counting;

thread_local! {
    static ALLOCS: StdCell<u64> = const { StdCell::new(0) };
}

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocs() -> u64 {
    ALLOCS.with(StdCell::get)
}

#[test]
fn cell_allocations() {
    const RUNS: u64 = 50;
    for d in drivers() {
        // public-key libraries allocate inside their calls (big integers,
        // signatures as Vec, AWS-LC contexts): only the symmetric cells here
        for a in d.prov.algs().iter().filter(|a| !super::bench::is_pk(a)) {
            for &op in a.ops {
                let (key, iv) = super::bench::key_iv(a.name);
                let (key, iv) = (
                    decode_hex("key", &key).unwrap(),
                    decode_hex("iv", &iv).unwrap(),
                );
                for chunk in [0, 64] {
                    if chunk > 0 && !a.stream {
                        continue;
                    }
                    let p = CellParams {
                        op,
                        key: &key,
                        iv: &iv,
                        seed: 1,
                        size: 1024,
                        chunk,
                        tls: None,
                    };
                    let mut c = (a.new_cell)(&p).unwrap();
                    c.run();
                    let before = allocs();
                    for _ in 0..RUNS {
                        c.run();
                    }
                    let per_op = (allocs() - before) as f64 / RUNS as f64;
                    println!(
                        "{} {} {} chunk {chunk}: {per_op:.1} allocs/op",
                        d.prov.id(),
                        a.name,
                        op.name()
                    );
                    // aws-lc-rs's streaming AES-CTR rebuilds its key per operation.
                    let may_alloc = d.prov.id() == "rust:aws-lc-rs" && chunk > 0;
                    assert!(
                        per_op == 0.0 || may_alloc,
                        "{} {} {} chunk {chunk}: {per_op} allocations per operation",
                        d.prov.id(),
                        a.name,
                        op.name()
                    );
                }
            }
        }
    }
}
