"""JSON report (schema `cryptobench-result`, docs/results-schema.md): the records, as they are."""

from __future__ import annotations

from cryptobench.report import jsontext
from cryptobench.report.model import Report
from cryptobench.report.records import to_dict


def render(rep: Report) -> str:
    return jsontext.dumps(to_dict(rep), indent=2, ensure_ascii=False) + "\n"
