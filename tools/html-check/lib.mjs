// What check.mjs (one page) and site.mjs (a published site) share: a headless Chromium that
// refuses every request leaving the files, and the check of one page as a reader would see it.
// The browser is Debian's chromium with the browser driver's flags (drivers/browser/chromium.mjs);
// playwright-core never downloads one.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { chromiumPath, HEADLESS_ARGS } from "../../drivers/browser/chromium.mjs";

// Opens the browser; returns {context, close} or prints why not and exits 2.
export async function openBrowser() {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    console.error(`${executablePath} not found: install Debian's chromium (apt-get install -y chromium)`);
    process.exit(2);
  }
  const profile = mkdtempSync(join(tmpdir(), "cryptobench-html-check-"));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      args: HEADLESS_ARGS,
      headless: true,
      viewport: { width: 1360, height: 900 },
      deviceScaleFactor: 1,
    });
  } catch (e) {
    console.error(`could not start ${executablePath}: ${e.message}`);
    rmSync(profile, { recursive: true, force: true });
    process.exit(2);
  }
  const external = [];
  // Anything but the files themselves (and data: URLs they build) is a fetch from the network: refuse and record it.
  await context.route(/^(?!file:|data:|blob:|about:)/, (route) => {
    external.push(route.request().url());
    return route.abort();
  });
  const close = async () => {
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, external, close };
}

// Opens `url` (a file: URL) in a new page, waits for its charts, collects console errors, page errors
// and dialogs, counts the charts that were drawn (a canvas or svg with ink on it inside each .chart),
// writes a full-page screenshot and returns
//   {console_errors, charts, expected_charts, blank_charts, external_requests, title, links, status}
// where links are the resolved href/src of every a, script and link element after drawing, and
// status is 0 (clean) or 1 (errors, external requests, or fewer charts drawn than the page has).
// `tab`: a page to load it in (site.mjs reuses one tab for every page: no new renderer each time).
export async function checkPage(browser, url, screenshot, tab = null) {
  const result = {
    console_errors: [],
    charts: 0,
    expected_charts: null,
    blank_charts: [],
    external_requests: [],
    title: "",
    links: [],
    status: 0,
  };
  const before = browser.external.length;
  const page = tab || (await browser.context.newPage());
  const bare = url.split("#")[0];
  const on = {
    console: (msg) => {
      if (msg.type() === "error") result.console_errors.push(msg.text());
    },
    pageerror: (err) => result.console_errors.push(`pageerror: ${err.message}`),
    dialog: (d) => {
      result.console_errors.push(`dialog (${d.type()}): ${d.message()}`);
      d.dismiss().catch(() => {});
    },
    requestfailed: (req) => {
      const u = req.url();
      if (u.startsWith("file:") && u.split("#")[0] !== bare) result.console_errors.push(`request failed: ${u}`);
    },
  };
  for (const [event, handler] of Object.entries(on)) page.on(event, handler);
  try {
    // a new document even when only the hash differs from the page loaded before
    if (tab) await page.goto("about:blank");
    await page.goto(url, { waitUntil: "load" });
    try {
      await page.waitForFunction(() => document.body && document.body.dataset.ready === "1", null, { timeout: 30000 });
    } catch {
      result.console_errors.push("the charts did not finish drawing within 30 s (body[data-ready] never set)");
    }
    result.title = await page.title();
    const counted = await page.evaluate(() => {
      const out = { charts: 0, blank: [], expected: Number(document.body.dataset.expectedCharts ?? NaN), links: [] };
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
      for (const el of document.querySelectorAll("a[href], script[src], link[href], img[src]")) {
        out.links.push(el.href || el.src);
      }
      return out;
    });
    result.charts = counted.charts;
    result.blank_charts = counted.blank;
    result.links = counted.links;
    result.expected_charts = Number.isNaN(counted.expected) ? null : counted.expected;
    if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  } catch (e) {
    result.console_errors.push(`check failed: ${e.message}`);
  } finally {
    for (const [event, handler] of Object.entries(on)) page.off(event, handler);
    if (!tab) await page.close().catch(() => {});
  }
  result.external_requests = browser.external.slice(before);
  if (result.console_errors.length || result.external_requests.length || result.blank_charts.length) result.status = 1;
  if (result.expected_charts !== null && result.charts !== result.expected_charts) result.status = 1;
  return result;
}
