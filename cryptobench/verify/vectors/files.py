"""Where the vector files are and how they are read (each file parsed once per process)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]


def default_vectors_dir() -> Path:
    """`../shared/vectors` beside the checkout, else the copy kept in the repository."""
    shared = REPO_ROOT.parent / "shared" / "vectors"
    return shared if shared.is_dir() else REPO_ROOT / "vectors"


def bundled(rel: Path | str, vectors_dir: Path | str | None = None) -> Path:
    """A set the repository carries beside the shared copy (acvp/, ascon-kat/, xwing/): under
    `vectors_dir` when it has one (`--vectors DIR`), else the repository's `vectors/`."""
    if vectors_dir is not None and (Path(vectors_dir) / rel).exists():
        return Path(vectors_dir) / rel
    return REPO_ROOT / "vectors" / rel


@lru_cache(maxsize=64)
def load(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def wycheproof_groups(vdir: Path, name: str):
    """(group, test) pairs of one Wycheproof file; nothing when the file is absent."""
    path = vdir / "wycheproof" / name
    if not path.exists():
        return
    for group in load(path)["testGroups"]:
        for test in group["tests"]:
            yield group, test
