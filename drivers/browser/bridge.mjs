#!/usr/bin/env node
// cryptobench's browser driver: the JavaScript driver's runtime-neutral
// modules (drivers/js/src) running in Debian's Chromium, headless, driven
// over the DevTools protocol by playwright-core. This process is a bridge
// speaking the JSON-lines driver protocol (docs/protocol.md) on
// stdin/stdout:
//
//   node drivers/browser/bridge.mjs --provider browser:noble
//
// It serves the page and the modules from 127.0.0.1 (server.mjs), starts
// Chromium, opens the page, has the page build the provider
// (window.cbStart), then relays every stdin line to the page
// (window.cbHandleLine through page.evaluate) and writes the page's
// response line to stdout. stdout carries protocol lines only; everything
// else (the page's console, diagnostics) goes to stderr. The bridge adds one
// thing to the page's answers: peak_rss_kb of a bench response, the Chromium
// renderer's peak resident set read from /proc (the page cannot see it).
//
// End of input or bye: the browser is closed and the bridge exits 0.
// Exit 2: bad arguments, unknown provider, a driver not built, or Chromium
// that cannot be started (one line on stderr naming the fix).

import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { parseArgs, runIfMain, write } from "../js/src/main_node.js";
import { providerIds } from "./page/providers.js";
import { chromiumPath, HEADLESS_ARGS } from "./chromium.mjs";
import { HERE, startServer } from "./server.mjs";

const NAME = "cbdriver-browser";

// Chromium as chromium.mjs starts it, plus --js-flags=--expose-gc: the page
// gets window.gc for a full collection before each cell's warm-up.
// playwright gives each launch a fresh, temporary --user-data-dir and
// removes it at close.
export const CHROMIUM_ARGS = [...HEADLESS_ARGS, "--js-flags=--expose-gc"];

export { chromiumPath };

const SETUP_HINT = "install Debian's Chromium with `apt-get install -y chromium` (scripts/setup.sh does)";

function log(msg) {
  process.stderr.write(`${NAME}: ${msg}\n`);
}

function fail(code, msg) {
  log(msg);
  process.exit(code);
}

function firstLine(e) {
  const s = String((e && e.message) || e);
  const line = s.split("\n").find((l) => l.trim() !== "") || s;
  return line.trim();
}

function packageVersion(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
  } catch {
    return "(version unknown)";
  }
}

// ---- a private temporary directory ----------------------------------------

// Chromium's profile (a fresh --user-data-dir per launch) and playwright's
// artifacts directory are made under os.tmpdir(): the bridge points TMPDIR
// at a directory of its own before loading playwright, removes it at exit,
// and at start removes those of bridges that are gone (a driver killed by
// the orchestrator after a timeout cannot clean up after itself).
const TMP_PREFIX = "cbdriver-browser-";

function sweepStale(base) {
  for (const name of readdirSync(base)) {
    const m = /^cbdriver-browser-(\d+)-/.exec(name);
    if (!m || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
      continue; // still running
    } catch (e) {
      if (e.code !== "ESRCH") continue;
    }
    rmSync(join(base, name), { recursive: true, force: true });
  }
}

function privateTmp() {
  const base = tmpdir();
  try {
    sweepStale(base);
  } catch {
    // best effort
  }
  const dir = mkdtempSync(join(base, `${TMP_PREFIX}${process.pid}-`));
  process.env.TMPDIR = dir;
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// ---- peak RSS of the renderer ----------------------------------------------

// rendererPeakKb: the largest VmHWM (peak resident set, kB) among the
// browser's renderer processes, as listed by SystemInfo.getProcessInfo; the
// page's renderer is the largest (the others are an idle spare and the
// first about:blank). 0 where /proc cannot be read.
async function rendererPeakKb(cdp) {
  try {
    const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
    let best = 0;
    for (const p of processInfo) {
      if (p.type !== "renderer") continue;
      try {
        const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${p.id}/status`, "utf8"));
        if (m) best = Math.max(best, Number(m[1]));
      } catch {
        // gone, or no /proc here
      }
    }
    return best;
  } catch {
    return 0;
  }
}

const BENCH_OK = '{"ok":true,"batch":';

// withRss puts the renderer's peak RSS into a successful bench response
// (the only response with peak_rss_kb; recognised by its first field).
async function withRss(resp, cdp) {
  if (!resp.startsWith(BENCH_OK)) return resp;
  const kb = await rendererPeakKb(cdp);
  if (kb <= 0) return resp;
  const r = JSON.parse(resp);
  r.peak_rss_kb = kb;
  return JSON.stringify(r);
}

// ---- start-up ---------------------------------------------------------------

async function loadPlaywright() {
  try {
    return await import("playwright-core");
  } catch (e) {
    fail(2, `playwright-core is not installed in ${HERE} (run \`cryptobench build browser\`): ${firstLine(e)}`);
  }
}

async function launch(chromium) {
  const executablePath = chromiumPath();
  try {
    return await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  } catch (e) {
    fail(2, `cannot start Chromium (${executablePath}): ${firstLine(e)}; ${SETUP_HINT}`);
  }
}

function commonNotes(browserVersion, pwVersion) {
  return [
    `Runs in headless Chromium ${browserVersion} (${chromiumPath()}, started with ${CHROMIUM_ARGS.join(" ")}), driven over the DevTools protocol by playwright-core ${pwVersion}. The bridge (drivers/browser/bridge.mjs) relays each request line to the page with page.evaluate and writes the page's response line: the whole request (verify cases; a bench's preparation, warm-up, calibration and samples) runs inside the page's main thread, so the relay is outside every timed region.`,
    "The page loads the JavaScript driver's own files (drivers/js/src) and packages (drivers/js/node_modules) as native ES modules through an import map, served from 127.0.0.1; nothing is bundled or transpiled. The ops modules are the ones js:webcrypto, js:noble and wasm:hash-wasm run in Node.",
    "peak_rss_kb: the peak resident set (VmHWM from /proc) of the Chromium renderer process running the page, read by the bridge after each bench (the largest among the renderers; the browser, GPU and network processes are not counted); 0 where it cannot be read.",
  ];
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const known = providerIds().join(", ");
  if (args.error) fail(2, `${args.error} (usage: bridge.mjs --provider <id>; known: ${known})`);
  if (!providerIds().includes(args.provider)) {
    fail(2, `unknown provider ${JSON.stringify(args.provider)} (known: ${known})`);
  }
  // stdout carries protocol lines only.
  console.log = console.info = console.debug = console.error;

  privateTmp();
  const { chromium } = await loadPlaywright();
  let served;
  try {
    served = await startServer((m) => log(`http: ${m}`));
  } catch (e) {
    fail(2, firstLine(e));
  }
  const { server, origin } = served;
  const browser = await launch(chromium);
  const browserVersion = browser.version();
  const pwVersion = packageVersion(join(HERE, "node_modules", "playwright-core"));
  let closing = false;
  const shutdown = async (code) => {
    if (closing) return;
    closing = true;
    await browser.close().catch(() => {});
    server.close();
    process.exit(code);
  };
  browser.on("disconnected", () => {
    if (!closing) fail(1, "Chromium exited (disconnected from the DevTools protocol)");
  });

  const cdp = await browser.newBrowserCDPSession();
  let v8 = "";
  try {
    v8 = (await cdp.send("Browser.getVersion")).jsVersion || "";
  } catch {
    // only for the runtime text
  }
  const page = await browser.newPage();
  let crashed = false;
  page.on("crash", () => {
    crashed = true;
    log("the page crashed (renderer process died)");
  });
  page.on("console", (m) => log(`page console.${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => log(`page error: ${firstLine(e)}`));

  const runtime = `Chromium ${browserVersion} headless${v8 ? ` (V8 ${v8})` : ""} ${process.platform}/${process.arch}, via playwright-core ${pwVersion}`;
  const config = {
    provider: args.provider,
    runtime,
    notes: commonNotes(browserVersion, pwVersion),
  };
  if (args.provider === "browser:webcrypto") {
    config.libraryVersion = `WebCrypto of Chromium ${browserVersion} (Blink's crypto.subtle over BoringSSL)`;
    config.notes.push(
      "In Chromium, crypto.subtle runs in the renderer process, in software with BoringSSL (components/webcrypto), on a crypto thread of its own, and resolves each promise in a task posted back to the page's main thread: the figure includes that hand-off.",
    );
  }
  try {
    await page.goto(`${origin}/`, { waitUntil: "load" });
    await page.waitForFunction(() => typeof window.cbStart === "function", null, { timeout: 30000 });
    const started = await page.evaluate((c) => window.cbStart(c), config);
    log(
      `${args.provider} in Chromium ${browserVersion}: crossOriginIsolated ${started.crossOriginIsolated}, clock resolution ${started.resolutionNs} ns`,
    );
  } catch (e) {
    log(`the page did not start: ${firstLine(e)}`);
    await browser.close().catch(() => {});
    process.exit(1);
  }

  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  for await (const line of rl) {
    if (line.trim() === "") continue;
    let resp;
    let quit = false;
    try {
      [resp, quit] = await page.evaluate((l) => window.cbHandleLine(l), line);
      resp = await withRss(resp, cdp);
    } catch (e) {
      if (crashed || page.isClosed()) {
        log(`the page is gone (${firstLine(e)})`);
        await shutdown(1);
        return;
      }
      resp = JSON.stringify({ ok: false, error: `bridge: ${firstLine(e)}` });
    }
    await write(resp + "\n");
    if (quit) break;
  }
  // bye, or end of input (which means bye)
  await shutdown(0);
}

runIfMain(import.meta.url, NAME, main);
