// Checks a site written by `cryptobench publish` in one headless Chromium: every page reachable from
// index.html, each as check.mjs checks a report (lib.mjs: console errors, requests leaving the files,
// charts drawn), and every link and script of every page resolving to a file of the site.
//
//   node tools/html-check/site.mjs SITE_DIR SCREENSHOT_DIR
//
// Follows a, script, link and img elements as the drawn page holds them; a page reached with an
// address hash (#q=2&m=0: a chart chosen from the changes list) is checked once more with the first
// such hash, since its script reads it. One browser tab loads every page in turn. Writes full-page
// screenshots into SCREENSHOT_DIR: the index, every view of an algorithm page and the first page of
// each other folder (every page with CRYPTOBENCH_ALL_SHOTS=1); prints one JSON line:
//   {"pages": [{"page": "alg/x.html#q=1", "charts": N, "expected_charts": M, ...problems}],
//    "broken_links": [[page, href]], "outside_links": [[page, href]], "not_reached": [file],
//    "problems": N}
// Exit status: 0 clean; 1 any problem (a page's, a link to no file, a link leaving the site, an
// HTML file of the site no page links to); 2 bad usage or the browser could not be started.
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { checkPage, openBrowser } from "./lib.mjs";

const [siteArg, shotsArg] = process.argv.slice(2);
if (!siteArg || !shotsArg) {
  console.error("usage: node site.mjs SITE_DIR SCREENSHOT_DIR");
  process.exit(2);
}
const site = resolve(siteArg);
if (!existsSync(join(site, "index.html"))) {
  console.error(`${join(site, "index.html")} not found`);
  process.exit(2);
}
mkdirSync(shotsArg, { recursive: true });

function htmlFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...htmlFiles(p));
    else if (name.endsWith(".html")) out.push(relative(site, p));
  }
  return out;
}

const report = { pages: [], broken_links: [], outside_links: [], not_reached: [], problems: 0 };
const seen = new Set(); // file: URLs with their hash
const hashed = new Set(); // files already visited with a hash
const reached = new Set(); // files of the site
const queue = [pathToFileURL(join(site, "index.html")).href];
seen.add(queue[0]);
const browser = await openBrowser();
const tab = await browser.context.newPage();
const shotTaken = new Set(); // folders with a screenshot: one page each (every page of alg/ and the index)
try {
  while (queue.length) {
    const url = queue.shift();
    const file = fileURLToPath(url.split("#")[0]);
    const rel = relative(site, file);
    const shown = rel + (url.includes("#") ? "#" + url.split("#")[1] : "");
    const shot = join(shotsArg, shown.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120) + ".png");
    const folder = rel.includes(sep) ? rel.split(sep)[0] : rel;
    const wanted = process.env.CRYPTOBENCH_ALL_SHOTS || folder === "alg" || !shotTaken.has(folder);
    shotTaken.add(folder);
    const r = await checkPage(browser, url, wanted ? shot : null, tab);
    const { links, title, status, ...rest } = r;
    const entry = { page: shown, title, charts: r.charts, expected_charts: r.expected_charts };
    for (const k of ["console_errors", "external_requests", "blank_charts"]) if (rest[k].length) entry[k] = rest[k];
    report.pages.push(entry);
    report.problems += status;
    for (const link of links) {
      if (!link.startsWith("file:")) {
        report.outside_links.push([shown, link]);
        continue;
      }
      const [bare, hash] = link.split("#");
      const target = fileURLToPath(bare);
      if (target !== site && !target.startsWith(site + sep)) {
        report.outside_links.push([shown, link]);
        continue;
      }
      if (!existsSync(target) || !statSync(target).isFile()) {
        report.broken_links.push([shown, relative(site, target)]);
        continue;
      }
      if (!target.endsWith(".html")) continue;
      reached.add(relative(site, target));
      const plain = pathToFileURL(target).href;
      if (!seen.has(plain)) {
        seen.add(plain);
        queue.push(plain);
      }
      if (hash && hash.includes("=") && !hashed.has(target)) {
        hashed.add(target);
        const withHash = `${plain}#${hash}`;
        seen.add(withHash);
        queue.push(withHash);
      }
    }
  }
} finally {
  await browser.close();
}
reached.add("index.html");
report.not_reached = htmlFiles(site)
  .filter((f) => !reached.has(f))
  .sort();
report.problems += report.broken_links.length + report.outside_links.length + report.not_reached.length;
console.log(JSON.stringify(report));
process.exit(report.problems ? 1 : 0);
