// The page side of a WASI driver (browser:openssl-wasm, docs/wasm.md): the C driver compiled to
// wasm32-wasi runs in a Web Worker (wasi_worker.js) and speaks the driver protocol itself, so the
// page only relays lines: each request line goes to the module's standard input, and its next
// standard-output line is the response. The JavaScript driver's Driver class is not involved.
//
// startDriver(config, entry) -> { handleLine(line) -> Promise<response line>, quit }

const CAP = 1 << 20; // bytes of standard input handed over at a time

export async function startDriver(config, entry) {
  if (!globalThis.crossOriginIsolated) throw new Error("the page is not cross-origin isolated: no SharedArrayBuffer");
  const sab = new SharedArrayBuffer(8 + CAP);
  const ctrl = new Int32Array(sab, 0, 2);
  const data = new Uint8Array(sab, 8);
  const enc = new TextEncoder();
  let queue = new Uint8Array(0); // input not yet handed over
  let closed = false;
  let waiting = false; // the module is blocked reading
  const answers = []; // lines the module wrote, not yet taken
  const takers = []; // handleLine calls waiting for a line
  let failure = null;
  let lastErr = ""; // the module's last words on standard error

  const worker = new Worker(new URL("./wasi_worker.js", import.meta.url), { type: "module" });
  const feed = () => {
    if (queue.length === 0 && !closed) return;
    waiting = false;
    if (queue.length === 0) {
      Atomics.store(ctrl, 0, 2);
    } else {
      const n = Math.min(CAP, queue.length);
      data.set(queue.subarray(0, n));
      queue = queue.subarray(n);
      ctrl[1] = n;
      Atomics.store(ctrl, 0, 1);
    }
    Atomics.notify(ctrl, 0);
  };
  const fail = (msg) => {
    failure = new Error(msg);
    while (takers.length) takers.shift().reject(failure);
  };
  let ready;
  const started = new Promise((resolve, reject) => (ready = { resolve, reject }));
  worker.onmessage = ({ data: m }) => {
    if (m.ready) ready.resolve();
    else if (m.need) {
      waiting = true;
      feed();
    } else if (m.out !== undefined) {
      if (takers.length) takers.shift().resolve(m.out);
      else answers.push(m.out);
    } else if (m.err !== undefined) {
      lastErr = m.err.trim() || lastErr;
      console.warn(m.err.trimEnd());
    } else if (m.exit !== undefined) fail(`the module exited (status ${m.exit})${lastErr ? `: ${lastErr}` : ""}`);
    else if (m.error !== undefined) {
      ready.reject(new Error(m.error));
      fail(m.error);
    }
  };
  worker.onerror = (e) => {
    const msg = `worker error: ${e.message}`;
    ready.reject(new Error(msg));
    fail(msg);
  };
  const engine = `${config.runtime.split(", via")[0]}, a Web Worker (WASI shim page/wasi_worker.js, clock performance.now())`;
  worker.postMessage({
    url: entry.wasm,
    args: ["cbdriver-openssl.wasm", "--provider", config.provider, "--engine", engine],
    sab,
  });
  await started;

  const driver = {
    quit: false,
    handleLine(line) {
      if (failure) return Promise.reject(failure);
      try {
        if (JSON.parse(line).cmd === "bye") driver.quit = true;
      } catch {
        // the module answers a malformed line itself
      }
      const more = enc.encode(line + "\n");
      const joined = new Uint8Array(queue.length + more.length);
      joined.set(queue);
      joined.set(more, queue.length);
      queue = joined;
      if (waiting) feed();
      if (answers.length) return Promise.resolve(answers.shift());
      return new Promise((resolve, reject) => takers.push({ resolve, reject }));
    },
  };
  return driver;
}
