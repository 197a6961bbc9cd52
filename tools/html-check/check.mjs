// Opens a cryptobench HTML report in headless Chromium and checks it as a reader would see it.
//
//   node tools/html-check/check.mjs REPORT.html SCREENSHOT.png
//
// Waits for the page's charts, collects console errors, page errors and dialogs, blocks and
// records every request that leaves the file (the report must load nothing), counts the charts
// that were drawn (a canvas or svg with ink on it inside each .chart), writes a full-page
// screenshot and prints one JSON line:
//   {"console_errors": [...], "charts": N, "expected_charts": M, "blank_charts": [...],
//    "external_requests": [...], "title": "..."}
// Exit status: 0 clean; 1 errors, external requests, or fewer charts drawn than the page has;
// 2 bad usage or the browser could not be started.
// The browser is Debian's chromium (/usr/bin/chromium, or $CHROMIUM); playwright-core never downloads one.
import { existsSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const [report, screenshot] = process.argv.slice(2);
if (!report || !screenshot) {
  console.error("usage: node check.mjs REPORT.html SCREENSHOT.png");
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
if (!existsSync(executablePath)) {
  console.error(`${executablePath} not found: install Debian's chromium (apt-get install -y chromium)`);
  process.exit(2);
}
if (!existsSync(report)) {
  console.error(`${report} not found`);
  process.exit(2);
}

const profile = mkdtempSync(join(tmpdir(), "cryptobench-html-check-"));
const args = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];
const result = { console_errors: [], charts: 0, expected_charts: null, blank_charts: [], external_requests: [], title: "" };
let context;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath, args, headless: true, viewport: { width: 1360, height: 900 }, deviceScaleFactor: 1,
  });
} catch (e) {
  console.error(`could not start ${executablePath}: ${e.message}`);
  rmSync(profile, { recursive: true, force: true });
  process.exit(2);
}
let status = 0;
try {
  // Anything but the report itself (and data: URLs it builds) is a fetch from the network: refuse and record it.
  await context.route(/^(?!file:|data:|blob:|about:)/, (route) => {
    result.external_requests.push(route.request().url());
    return route.abort();
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on("console", (msg) => {
    if (msg.type() === "error") result.console_errors.push(msg.text());
  });
  page.on("pageerror", (err) => result.console_errors.push(`pageerror: ${err.message}`));
  page.on("dialog", (d) => {
    result.console_errors.push(`dialog (${d.type()}): ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  page.on("requestfailed", (req) => {
    const url = req.url();
    if (url.startsWith("file:") && url !== pathToFileURL(resolve(report)).href) {
      result.console_errors.push(`request failed: ${url}`);
    }
  });
  await page.goto(pathToFileURL(resolve(report)).href, { waitUntil: "load" });
  try {
    await page.waitForFunction(() => document.body && document.body.dataset.ready === "1", null, { timeout: 30000 });
  } catch {
    result.console_errors.push("the charts did not finish drawing within 30 s (body[data-ready] never set)");
  }
  result.title = await page.title();
  const counted = await page.evaluate(() => {
    const out = { charts: 0, blank: [], expected: Number(document.body.dataset.expectedCharts ?? NaN) };
    for (const el of document.querySelectorAll(".chart")) {
      const drawn = [...el.querySelectorAll("canvas, svg")].some((c) => {
        const r = c.getBoundingClientRect();
        if (r.width < 10 || r.height < 10) return false;
        if (c.tagName.toLowerCase() === "svg") return c.querySelectorAll("path, text").length > 0;
        const ctx = c.getContext("2d");
        if (!ctx) return false;
        const { data } = ctx.getImageData(0, 0, c.width, c.height);
        let ink = 0;
        for (let i = 3; i < data.length; i += 16) if (data[i] > 0) ink++;
        return ink > 50;
      });
      if (drawn) out.charts++;
      else out.blank.push(el.id || "(no id)");
    }
    return out;
  });
  result.charts = counted.charts;
  result.blank_charts = counted.blank;
  result.expected_charts = Number.isNaN(counted.expected) ? null : counted.expected;
  await page.screenshot({ path: screenshot, fullPage: true });
  if (result.console_errors.length || result.external_requests.length || result.blank_charts.length) status = 1;
  if (result.expected_charts !== null && result.charts !== result.expected_charts) status = 1;
} catch (e) {
  result.console_errors.push(`check failed: ${e.message}`);
  status = 1;
} finally {
  await context.close().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
process.exit(status);
