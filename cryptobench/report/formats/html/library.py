"""The charting library the pages inline (Apache ECharts, pinned in report/assets/package.json) with
its licences, and JSON that is inert inside a page's <script>."""

from __future__ import annotations

import json
from pathlib import Path

from cryptobench.core.errors import UserError
from cryptobench.report import jsontext

ASSETS = Path(__file__).parents[2] / "assets"  # report/assets


LIBRARY = ASSETS / "node_modules" / "echarts"


LIBRARY_JS = LIBRARY / "dist" / "echarts.min.js"


# Licence texts carried into the page with the library: ECharts (Apache-2.0, with its NOTICE and the
# d3 subcomponent's BSD licence) bundles ZRender (BSD-3-Clause) and tslib (0BSD, header already in the file).
LICENCE_FILES = [
    LIBRARY / "NOTICE",
    LIBRARY / "LICENSE",
    LIBRARY / "licenses" / "LICENSE-d3",
    ASSETS / "node_modules" / "zrender" / "LICENSE",
]


INSTALL = "npm ci --prefix cryptobench/report/assets"


def charting_library() -> tuple[str, str, str]:
    """(version, licence comment, minified code) of the charting library, or a UserError naming the install."""
    try:
        meta = json.loads((LIBRARY / "package.json").read_text())
        code = LIBRARY_JS.read_text(encoding="utf-8")
        notices = [f.read_text(encoding="utf-8") for f in LICENCE_FILES]
    except (OSError, ValueError) as e:
        raise UserError(
            f"the HTML report needs its charting library, which is not installed ({e.__class__.__name__}: "
            f"{getattr(e, 'filename', None) or e}); install it with: {INSTALL}"
        ) from None
    version = meta.get("version", "?")
    text = "\n\n".join(n.strip() for n in notices)
    text = text.replace("*/", "* /")  # stays one comment whatever the files say
    comment = (
        f"/*! Apache ECharts {version}, inlined unmodified below (dist/echarts.min.js), with ZRender and tslib.\n"
        f"Licence notices:\n\n{text}\n*/\n"
    )
    for bad in ("</script", "<!--"):
        if bad in code.lower() or bad in comment.lower():
            raise UserError(f"the charting library contains {bad!r} and cannot be inlined; reinstall it: {INSTALL}")
    return version, comment, code


def ensure_available() -> None:
    """Raise the UserError naming the install now, before a long run whose report would need it."""
    charting_library()


def json_for_script(data) -> str:
    """JSON that is inert inside <script>: no '<', '>' or '&' (so no '</script>' and no '<!--')."""
    text = jsontext.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
