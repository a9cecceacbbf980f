"""Imports point one way (architecture.md): envs imports nothing of ours, harnesses only envs, proxy only
envs' task loader and its dependency-free plugin resolver, synth envs and train, train envs, harnesses
and proxy. Every import statement counts, including those inside functions."""

from __future__ import annotations

import ast
import contextlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("envs", "harnesses", "proxy", "synth", "train")
ALLOWED: dict[str, set[str]] = {
    "envs": set(),
    "harnesses": {"envs"},
    "proxy": {"envs.task", "envs.task_config", "envs.errors", "envs.plugins"},
    "synth": {"envs", "train"},
    "train": {"envs", "harnesses", "proxy"},
}
"""What each package may import of the others: a package name allows all of it, a module name just it.

proxy takes the task loader (the oracle runs tasks' solutions) and `envs.plugins`, the one `module:Class`
resolver every registry uses: it imports nothing but `envs.errors`, so it brings no Docker or sandbox
code into the proxy."""


def _parse(path: Path) -> ast.Module:
    """The file's syntax tree. CPython 3.11 keeps the AST converter's recursion depth in state shared by
    every thread, so a parse while another thread of the worker compiles code can fail with "AST
    constructor recursion depth mismatch" (seen once on two xdist workers); that failure is the
    interpreter's, not the file's, so the parse is tried again."""
    source = path.read_text()
    for _ in range(2):
        with contextlib.suppress(SystemError):
            return ast.parse(source, filename=str(path))
    return ast.parse(source, filename=str(path))  # the third failure is raised


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in a file."""
    found = []
    for node in ast.walk(_parse(path)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def _allowed(package: str, module: str) -> bool:
    top = module.split(".")[0]
    if top not in PACKAGES or top == package:
        return True
    return any(module == rule or module.startswith(rule + ".") for rule in ALLOWED[package])


def violations(root: Path = REPO) -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for line, module in _imports(path):
                if not _allowed(package, module):
                    found.append(f"{path.relative_to(root)}:{line} imports {module}")
    return found


def test_imports_point_one_way() -> None:
    assert violations() == []


@pytest.mark.parametrize(
    ("package", "module", "ok"),
    [
        ("envs", "train.rollout", False),
        ("envs", "harnesses.bundle", False),
        ("harnesses", "envs.sandbox", True),
        ("harnesses", "proxy.app", False),
        ("proxy", "envs.task", True),
        ("proxy", "envs.plugins", True),
        ("proxy", "envs.sandbox", False),
        ("proxy", "envs.task_sandbox", False),
        ("train", "synth", False),
        ("synth", "train.rollout_set", True),
        ("envs", "docker", True),
    ],
)
def test_the_rule_itself(package: str, module: str, ok: bool) -> None:
    assert _allowed(package, module) is ok


def test_the_plugin_resolver_stays_dependency_free() -> None:
    """proxy may import envs.plugins because it brings nothing of envs along but its errors."""
    ours = {m for _, m in _imports(REPO / "envs" / "plugins.py") if m.split(".")[0] in PACKAGES}
    assert ours <= {"envs.errors"}, sorted(ours)
    errors = {m for _, m in _imports(REPO / "envs" / "errors.py") if m.split(".")[0] in PACKAGES}
    assert errors == set(), sorted(errors)


def test_a_wrong_import_is_found(tmp_path: Path) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "envs" / "bad.py").write_text("def f():\n    from proxy.app import create_app\n")
    assert violations(tmp_path) == ["envs/bad.py:2 imports proxy.app"]
