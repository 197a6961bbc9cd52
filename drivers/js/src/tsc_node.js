// The time-stamp counter for Node, read beside the clock in every timed
// batch (docs/protocol.md, bench: samples_tsc). JavaScript cannot execute
// rdtsc, so a one-function Node-API addon does (native/tsc.c, built by
// native/Makefile into native/build/tsc.node on x86-64). Where it cannot be
// loaded, `counter` is null and `counterStatus` (hello's clock.counter, and
// one line on stderr) says why: no ticks are sent, cycles are converted.

import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { arch } from "node:process";
import { fileURLToPath } from "node:url";

const ADDON = fileURLToPath(new URL("../native/build/tsc.node", import.meta.url));

function load() {
  if (arch !== "x64") return [null, `none: no time-stamp counter on ${arch}`];
  if (!existsSync(ADDON)) return [null, `none: ${ADDON} is missing (make -C drivers/js/native builds it)`, true];
  try {
    const { rdtsc } = createRequire(import.meta.url)(ADDON);
    rdtsc(); // an addon without the function fails here, not in a timed batch
    return [rdtsc, `rdtsc through a Node-API addon (${ADDON})`];
  } catch (e) {
    return [null, `none: ${ADDON} did not load: ${String(e.message).split("\n")[0]}`, true];
  }
}

const [fn, status, warn] = load();
if (warn) process.stderr.write(`cbdriver-js: no cycle counter (${status}): cycles are converted\n`);

// counter: () => ticks since the addon loaded (a Number), or null.
export const counter = fn;
export const counterStatus = status;
