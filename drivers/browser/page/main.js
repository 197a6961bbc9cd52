// The page side of the browser bridge: builds one provider from the
// JavaScript driver's runtime-neutral modules (drivers/js/src, loaded as
// native ES modules; their npm packages resolved by the page's import map)
// with the browser's clock, and answers request lines with the same
// Driver.handleLine as the Node entry point (main_node.js).
//
// The bridge (bridge.mjs) calls, through the DevTools protocol:
//   window.cbStart(config)   once: config = { provider, runtime,
//                            libraryVersion (browser:webcrypto), notes }
//   window.cbHandleLine(line) -> [response line, quit]   per request line
//
// Everything a request does (verify cases, warm-up, calibration, samples)
// runs here, in the page's main thread; the bridge only relays lines.

import { Driver } from "/js/src/protocol.js";
import { PROVIDERS } from "/page/providers.js";

// The clock: performance.now() is a DOMHighResTimeStamp in milliseconds (a
// double), monotonic, relative to the page's time origin. Chromium coarsens
// it (5 µs with jitter in a cross-origin-isolated page, 100 µs otherwise):
// the page is served with COOP/COEP headers so it is isolated.
export const clock = {
  source: "performance.now() (DOMHighResTimeStamp, ms as a double; ns = ms × 1e6)",
  now: () => performance.now(),
  diffNs: (t0, t1) => (t1 - t0) * 1e6,
};

// gc: a full collection before each cell's warm-up, as in Node; window.gc
// exists because the bridge starts Chromium with --js-flags=--expose-gc.
const gc = typeof globalThis.gc === "function" ? () => globalThis.gc() : undefined;

// packageVersions reads each package's version from the package.json served
// next to the files the page loads (what is actually loaded).
async function packageVersions(names) {
  const out = {};
  for (const name of names) {
    try {
      const r = await fetch(`/node_modules/${name}/package.json`);
      const pkg = await r.json();
      out[name] = pkg.name === name && typeof pkg.version === "string" ? pkg.version : "(version unknown)";
    } catch {
      out[name] = "(version unknown)";
    }
  }
  return out;
}

let driver = null;

async function start(config) {
  if (driver !== null) throw new Error("cbStart called twice");
  const entry = Object.hasOwn(PROVIDERS, config.provider) ? PROVIDERS[config.provider] : null;
  if (entry === null) throw new Error(`unknown provider ${JSON.stringify(config.provider)}`);
  if (entry.wasi) {
    // a WASI program answering the protocol itself (page/wasi_driver.js): no Driver around it
    driver = await (await import(entry.module)).startDriver(config, entry);
    const isolated = globalThis.crossOriginIsolated === true;
    return { crossOriginIsolated: isolated, resolutionNs: 0, algs: 0, versions: {}, userAgent: navigator.userAgent };
  }
  const versions = await packageVersions(entry.packages);
  const notes = [...(config.notes || [])];
  if (gc) notes.push("A full GC (window.gc, exposed with --js-flags=--expose-gc) runs before each cell's warm-up.");
  const env = {
    id: config.provider,
    runtime: config.runtime,
    packageVersion: (name) => versions[name] ?? "(version unknown)",
    notes,
  };
  if (config.libraryVersion) env.libraryVersion = config.libraryVersion;
  const mod = await import(entry.module);
  const provider = await mod.createProvider(env);
  // peak_rss_kb: the page cannot read its own process's resident set; the
  // bridge fills it in (bench responses) from /proc.
  const d = new Driver(provider, { clock, peakRssKb: () => 0, gc });
  provider.notes.push(
    `Clock in this page: crossOriginIsolated = ${globalThis.crossOriginIsolated === true} (served with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp); measured resolution of performance.now() ${d.resolutionNs} ns (smallest non-zero step of 20000 successive readings). Chromium coarsens performance.now() to 5 µs with jitter in cross-origin-isolated pages (100 µs otherwise), so batches are calibrated to target_ns and only two readings are taken per batch.`,
  );
  driver = d;
  return {
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    resolutionNs: d.resolutionNs,
    algs: provider.algs.length,
    versions,
    userAgent: navigator.userAgent,
  };
}

// handleLine answers one request line: [response line, quit after it].
async function handleLine(line) {
  if (driver === null) throw new Error("cbStart has not run");
  const resp = await driver.handleLine(line);
  return [resp, driver.quit];
}

window.cbStart = start;
window.cbHandleLine = handleLine;
