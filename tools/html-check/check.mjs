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
// 2 bad usage or the browser could not be started. The checks themselves are lib.mjs's (site.mjs
// runs them over every page of a published site).
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { checkPage, openBrowser } from "./lib.mjs";

const [report, screenshot] = process.argv.slice(2);
if (!report || !screenshot) {
  console.error("usage: node check.mjs REPORT.html SCREENSHOT.png");
  process.exit(2);
}
if (!existsSync(report)) {
  console.error(`${report} not found`);
  process.exit(2);
}
const browser = await openBrowser();
let result;
try {
  result = await checkPage(browser, pathToFileURL(resolve(report)).href, screenshot);
} finally {
  await browser.close();
}
const { status, links, ...shown } = result;
console.log(JSON.stringify(shown));
process.exit(status);
