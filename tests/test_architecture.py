"""The package's import graph: no circle, and no arrow pointing up the layers (docs/architecture.md).

Every import counts, those inside functions too: an import hidden in a function is still an arrow.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cryptobench"

# bottom to top: a module may import its own layer and the layers below it, never one above
LAYERS = [
    "core",
    "analysis",
    "plan",
    "drivers",
    "versions",
    "measure",
    "verify",
    "leak",
    "icount",
    "store",
    "run",
    "report",
    "fleet",
    "cli",
]
ORCHESTRATOR_LIMIT = 500  # lines per module


def _modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = ["cryptobench", *path.relative_to(PACKAGE).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def _imports(name: str, path: Path, is_package: bool, modules: dict) -> set[str]:
    """The cryptobench modules `name` imports, resolved to modules (not names inside them)."""
    here = name.split(".") if is_package else name.split(".")[:-1]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.add(full if full in modules else base)
    resolved = set()
    for target in targets:
        while target not in modules and "." in target:
            target = target.rsplit(".", 1)[0]
        if target in modules and target != name and target.startswith("cryptobench"):
            resolved.add(target)
    return resolved


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, is_pkg, modules) for name, (path, is_pkg) in modules.items()}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) == 1:
        return -1  # cryptobench/__init__.py: the version numbers, below everything
    if parts[1] == "__main__":
        return len(LAYERS)
    if parts[1] not in LAYERS:
        return None
    return LAYERS.index(parts[1])


def test_every_module_belongs_to_a_layer():
    loose = sorted(m for m in _graph() if _layer(m) is None)
    assert not loose, f"modules outside the declared layers (add the package to LAYERS and docs): {loose}"


def test_the_import_graph_has_no_circle():
    graph = _graph()
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as circle:
        pytest.fail(f"import circle: {' -> '.join(circle.args[1])}")


def test_no_import_points_up_the_layers():
    upward = [
        f"{module} -> {target}"
        for module, targets in _graph().items()
        for target in targets
        if (_layer(module) or 0) < (_layer(target) or 0)
    ]
    assert not upward, "imports pointing to a higher layer:\n" + "\n".join(sorted(upward))


def test_the_checks_see_a_circle_and_an_upward_arrow():
    """The walk must find what it forbids: a made-up graph with both is caught."""
    with pytest.raises(graphlib.CycleError):
        tuple(graphlib.TopologicalSorter({"a": {"b"}, "b": {"a"}}).static_order())
    assert _layer("cryptobench.core.units") < _layer("cryptobench.report.model")
    graph = _graph()
    assert "cryptobench.core.errors" in graph["cryptobench.run.measuring"], "the walk missed a plain import"


def test_no_orchestrator_module_is_over_the_limit():
    long = {
        str(path.relative_to(PACKAGE)): n
        for path, _ in _modules().values()
        if (n := len(path.read_text().splitlines())) > ORCHESTRATOR_LIMIT
    }
    assert not long, f"modules over {ORCHESTRATOR_LIMIT} lines: {long}"
