"""What every page of the published site shares: file names, the page shell (the run report's
stylesheet, a navigation bar), links and tables whose cells are already escaped HTML."""

from __future__ import annotations

import hashlib
import html
import re
from datetime import datetime

from cryptobench.report.formats.html.library import ASSETS

SAFE = re.compile(r"[A-Za-z0-9._-]{1,80}")

# The site's own additions to the run report's stylesheet (report/assets/report.css).
STYLE = (
    ".controls{display:flex;gap:16px;flex-wrap:wrap;margin:8px 0 12px}.controls label{font-weight:600}"
    ".controls select{margin-left:6px;max-width:420px}details{margin:8px 0}summary{cursor:pointer;font-weight:600}"
    "td.faster,span.faster{color:var(--ok);font-weight:600}td.slower,span.slower{color:var(--bad);font-weight:600}"
    ".machine-block{margin:16px 0 28px}.machine-block h3{font-size:17px}.lead{font-size:15px}"
    "td a,li a,p a{color:var(--accent)}"
)

MEASURED, VERIFY, LEAK, EMPTY = "measured", "verification", "leak checks", "nothing measured"


def slug(text: str) -> str:
    """A file name for a name from the store: the name itself when it is plain, else its plain
    characters and a hash of the whole (two names never share a file)."""
    if SAFE.fullmatch(text) and text not in (".", ".."):
        return text
    plain = re.sub(r"[^A-Za-z0-9._-]", "_", text)[:40].strip(".")
    return f"{plain}-{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()[:10]}"


def run_file(run: dict | object) -> str:
    uid = run["uid"] if isinstance(run, dict) else run.uid
    return f"runs/{uid}.html"


def machine_file(machine: str) -> str:
    return f"machines/{slug(machine)}.html"


def alg_file(alg: str) -> str:
    return f"alg/{slug(alg)}.html"


def compare_file(uid_a: str, uid_b: str) -> str:
    return f"compare/{uid_a}-{uid_b}.html"


def machine_of(run: dict) -> str:
    """A listed run's machine, as the history names it (store.series_cells)."""
    return run.get("machine_label") or run.get("hostname") or "?"


def kind_of(run: dict) -> str:
    """What a complete run holds: measurements, or only verification or leak checks."""
    suite = str(run.get("suite") or "")
    if suite.startswith("verify:"):
        return VERIFY
    if suite.startswith("leak:"):
        return LEAK
    return MEASURED if run.get("cells_ok") else EMPTY


def epoch_ms(started: str) -> int | None:
    try:
        return int(datetime.fromisoformat(str(started)).timestamp() * 1000)
    except ValueError:
        return None


def a(href: str, text: str) -> str:
    """A link; both escaped."""
    return f'<a href="{html.escape(href)}">{html.escape(text)}</a>'


def link_table(headers: list[str], rows: list[list[str]], classes: list[str] | None = None, attrs=None) -> str:
    """A table whose cells are HTML already (escaped by the caller); `attrs[i]`: the row's attributes."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = []
    for i, row in enumerate(rows):
        cls = f' class="{classes[i]}"' if classes and classes[i] else ""
        extra = f" {attrs[i]}" if attrs and attrs[i] else ""
        body.append(f"<tr{cls}{extra}>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>")
    return f'<div class="tablewrap"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def page(title: str, body: str, root: str, scripts: str = "", charts: bool = False, sub: str = "") -> str:
    """A page of the site: the run report's stylesheet and the site's navigation; `charts`: its
    script sets body[data-ready] when drawn (tools/html-check waits for it)."""
    style = (ASSETS / "report.css").read_text(encoding="utf-8")
    if "</style" in style.lower():
        raise ValueError("report.css must not contain '</style': it is inlined into the page")
    ready = "" if charts else ' data-ready="1" data-expected-charts="0"'
    e = html.escape
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="referrer" content="no-referrer"><title>{e(title)}</title>'
        f"<style>{style}{STYLE}</style></head><body{ready}>"
        f"<nav><a href=\"{root}index.html\">cryptobench results</a> <a href=\"{root}index.html#changes\">Changes</a> "
        f"<a href=\"{root}index.html#machines\">Machines</a> <a href=\"{root}index.html#algorithms\">Algorithms</a> "
        f"<a href=\"{root}index.html#runs\">Runs</a></nav>"
        f"<header><h1>{e(title)}</h1>{f'<p class=meta>{sub}</p>' if sub else ''}</header><main>{body}</main>"
        "<footer>A static page of cryptobench's published site: it loads nothing from the network. Charts drawn by "
        f"Apache ECharts (Apache License 2.0), from {root}assets/echarts.min.js with its licence notices.</footer>"
        f"{scripts}</body></html>\n"
    )  # fmt: skip
