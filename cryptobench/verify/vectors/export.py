"""Write every algorithm's cases, with expected answers, as JSON lines.

Drivers' native tests read these files (one `<alg>.jsonl` per algorithm) and
judge their own case executor with the same rules as the orchestrator:

    python -m cryptobench.verify.vectors.export build/cases
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cryptobench.core.algorithms import ALGORITHMS
from cryptobench.verify.vectors.cases import cases_for


def export(out_dir: Path, vectors_dir: Path | None = None) -> dict[str, int]:
    out_dir.mkdir(parents=True, exist_ok=True)
    counts = {}
    for alg in ALGORITHMS:
        cases = cases_for(alg, vectors_dir)
        if not cases:
            continue
        with open(out_dir / f"{alg}.jsonl", "w", encoding="utf-8") as f:
            for c in cases:
                f.write(json.dumps(c.to_export(), separators=(",", ":")) + "\n")
        counts[alg] = len(cases)
    return counts


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print("usage: python -m cryptobench.verify.vectors.export OUT_DIR [VECTORS_DIR]", file=sys.stderr)
        return 2
    counts = export(Path(argv[0]), Path(argv[1]) if len(argv) == 2 else None)
    print(f"wrote {sum(counts.values())} cases for {len(counts)} algorithms to {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
