// A Web Worker that runs a wasm32-wasi command module (the C driver's cbdriver-openssl.wasm,
// docs/wasm.md) with a minimal WASI preview1 shim: arguments, standard input from the page
// (blocking, through a SharedArrayBuffer and Atomics.wait: the page is cross-origin isolated),
// standard output and error to the page line by line, the clock (performance.now()), random bytes
// (crypto.getRandomValues) and exit. Every other WASI call answers ENOSYS; no file system. This is
// I/O glue only: the protocol, the timing loop and the cryptography are the module's own.
//
// Messages: in  {url, args, sab}            once: fetch, compile, instantiate, run _start
//           out {ready} | {need} | {out: line} | {err: text} | {exit: code} | {error: message}

const ESUCCESS = 0;
const EBADF = 8;
const ENOSYS = 52;
const FILETYPE_CHARACTER_DEVICE = 2;

class Exit extends Error {
  constructor(code) {
    super(`exit ${code}`);
    this.code = code;
  }
}

function run({ url, args, sab }, bytes) {
  const ctrl = new Int32Array(sab, 0, 2); // [0]: 0 empty, 1 data ready, 2 end of input; [1]: length
  const shared = new Uint8Array(sab, 8);
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const argv = args.map((a) => enc.encode(a + "\0"));
  let memory = null;
  let pending = new Uint8Array(0); // standard input received, not yet read
  let eof = false;
  let outBuf = "";

  const view = () => new DataView(memory.buffer);
  const u8 = () => new Uint8Array(memory.buffer);

  // block until the page sends more input (or end of input)
  function refill() {
    postMessage({ need: true });
    Atomics.wait(ctrl, 0, 0);
    if (Atomics.load(ctrl, 0) === 2) {
      eof = true;
    } else {
      pending = shared.slice(0, ctrl[1]);
    }
    Atomics.store(ctrl, 0, 0);
  }

  function iovecs(iovs, n) {
    const v = view();
    const out = [];
    for (let i = 0; i < n; i++) out.push([v.getUint32(iovs + 8 * i, true), v.getUint32(iovs + 8 * i + 4, true)]);
    return out;
  }

  const now = (id) => {
    const ms = id === 0 ? performance.timeOrigin + performance.now() : performance.now();
    return BigInt(Math.round(ms * 1e6));
  };

  const wasi = {
    args_sizes_get(countPtr, sizePtr) {
      const v = view();
      v.setUint32(countPtr, argv.length, true);
      v.setUint32(
        sizePtr,
        argv.reduce((s, a) => s + a.length, 0),
        true,
      );
      return ESUCCESS;
    },
    args_get(argvPtr, bufPtr) {
      const v = view();
      const m = u8();
      argv.forEach((a, i) => {
        v.setUint32(argvPtr + 4 * i, bufPtr, true);
        m.set(a, bufPtr);
        bufPtr += a.length;
      });
      return ESUCCESS;
    },
    environ_sizes_get(countPtr, sizePtr) {
      const v = view();
      v.setUint32(countPtr, 0, true);
      v.setUint32(sizePtr, 0, true);
      return ESUCCESS;
    },
    environ_get() {
      return ESUCCESS;
    },
    clock_res_get(id, out) {
      view().setBigUint64(out, 1000n, true);
      return ESUCCESS;
    },
    clock_time_get(id, precision, out) {
      view().setBigUint64(out, now(id), true);
      return ESUCCESS;
    },
    random_get(buf, len) {
      const m = u8();
      for (let off = 0; off < len; off += 65536)
        crypto.getRandomValues(m.subarray(buf + off, buf + Math.min(len, off + 65536)));
      return ESUCCESS;
    },
    fd_fdstat_get(fd, out) {
      if (fd > 2) return EBADF;
      const v = view();
      v.setUint8(out, FILETYPE_CHARACTER_DEVICE);
      v.setUint16(out + 2, 0, true);
      v.setBigUint64(out + 8, 0n, true);
      v.setBigUint64(out + 16, 0n, true);
      return ESUCCESS;
    },
    fd_prestat_get() {
      return EBADF; // no preopened directories
    },
    fd_close(fd) {
      return fd <= 2 ? ESUCCESS : EBADF;
    },
    fd_read(fd, iovs, n, nreadPtr) {
      if (fd !== 0) return EBADF;
      if (pending.length === 0 && !eof) refill();
      let total = 0;
      for (const [ptr, len] of iovecs(iovs, n)) {
        const take = Math.min(len, pending.length);
        u8().set(pending.subarray(0, take), ptr);
        pending = pending.subarray(take);
        total += take;
        if (pending.length === 0) break;
      }
      view().setUint32(nreadPtr, total, true);
      return ESUCCESS;
    },
    fd_write(fd, iovs, n, nwrittenPtr) {
      if (fd !== 1 && fd !== 2) return EBADF;
      let total = 0;
      let text = "";
      for (const [ptr, len] of iovecs(iovs, n)) {
        text += dec.decode(u8().subarray(ptr, ptr + len), { stream: true });
        total += len;
      }
      if (fd === 2) {
        postMessage({ err: text });
      } else {
        outBuf += text;
        let nl;
        while ((nl = outBuf.indexOf("\n")) >= 0) {
          postMessage({ out: outBuf.slice(0, nl) });
          outBuf = outBuf.slice(nl + 1);
        }
      }
      view().setUint32(nwrittenPtr, total, true);
      return ESUCCESS;
    },
    proc_exit(code) {
      throw new Exit(code);
    },
    sched_yield() {
      return ESUCCESS;
    },
  };

  const module = new WebAssembly.Module(bytes);
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== "function") continue;
    const ns = (imports[imp.module] ??= {});
    ns[imp.name] =
      imp.module === "wasi_snapshot_preview1" && Object.hasOwn(wasi, imp.name) ? wasi[imp.name] : () => ENOSYS;
  }
  const instance = new WebAssembly.Instance(module, imports);
  memory = instance.exports.memory;
  postMessage({ ready: true });
  try {
    instance.exports._start();
    postMessage({ exit: 0 });
  } catch (e) {
    if (e instanceof Exit) postMessage({ exit: e.code });
    else postMessage({ error: `the module failed: ${String((e && e.message) || e).split("\n")[0]}` });
  }
}

self.onmessage = async (ev) => {
  try {
    const r = await fetch(ev.data.url);
    if (!r.ok)
      throw new Error(`${ev.data.url}: HTTP ${r.status} (not built: \`cryptobench build wasm-openssl\` adds it)`);
    run(ev.data, await r.arrayBuffer());
  } catch (e) {
    postMessage({ error: String((e && e.message) || e) });
  }
};
