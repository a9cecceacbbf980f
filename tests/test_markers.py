"""A test that uses a Docker fixture is marked `docker` without a mark written on it, so the fast part
(`-m "not docker and not netns and not gpu and not cluster"`) never reaches for an engine."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import DOCKER_FIXTURES, REPO, pytest_collection_modifyitems


@dataclass
class _Item:
    fixturenames: list[str]
    nodeid: str = "tests/test_x.py::test_x"
    marks: list[Any] = field(default_factory=list)

    def add_marker(self, marker: Any) -> None:
        self.marks.append(marker.mark if hasattr(marker, "mark") else marker)


@pytest.mark.parametrize("fixture", sorted(DOCKER_FIXTURES))
def test_a_test_using_a_docker_fixture_is_marked_docker(fixture: str, request: pytest.FixtureRequest) -> None:
    items = [_Item(["tmp_path", fixture]), _Item(["tmp_path", "tiny_model_dir"])]
    pytest_collection_modifyitems(request.config, items)  # type: ignore[arg-type]
    assert [[m.name for m in item.marks] for item in items] == [["docker"], []]


def test_the_longest_modules_go_first_and_stay_whole(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The two workers take modules in this order (`--dist loadscope --no-loadscope-reorder`)."""
    seconds = tmp_path / "module_seconds.json"
    seconds.write_text(json.dumps({"tests/b.py": 50.0, "tests/c.py": 9.5}))
    monkeypatch.setattr("tests.conftest.MODULE_SECONDS", seconds)
    ids = ["tests/a.py::test_a[1]", "tests/c.py::test_c", "tests/a.py::test_a[2]", "tests/b.py::test_b"]
    items = [_Item([], node) for node in ids]
    pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    assert [item.nodeid for item in items] == [ids[3], ids[1], ids[0], ids[2]]


def test_the_markers_that_say_what_a_test_needs_are_registered() -> None:
    options = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    registered = {line.split(":", 1)[0] for line in options["markers"]}
    assert {"docker", "netns", "gpu", "cluster"} <= registered
    assert "--strict-markers" in options["addopts"]
    assert options["filterwarnings"][0] == "error"


def test_this_fast_test_is_not_marked(request: pytest.FixtureRequest) -> None:
    assert not any(request.node.get_closest_marker(name) for name in ("docker", "netns", "gpu", "cluster"))
