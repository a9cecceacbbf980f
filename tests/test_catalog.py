"""The shipped catalogs: every task is well formed, and every task passes the verification gate."""

from __future__ import annotations

from pathlib import Path

import docker
import pytest

from envs.gate import verify_tasks
from envs.task import find_task_dirs, inspect_task, load_task
from tests.conftest import REPO

CLAW = REPO / "catalog" / "claw"


def test_claw_catalog_is_well_formed() -> None:
    dirs = find_task_dirs(CLAW)
    assert len(dirs) >= 15
    for d in dirs:
        task, problems = inspect_task(d)
        assert task is not None and problems == [], [str(p) for p in problems]
        assert task.config.metadata.domain == "claw"
        assert task.name == d.name
        assert task.dockerfile.read_text().startswith(
            "ARG FORGE_BASE=openforge/base:latest\nFROM ${FORGE_BASE}"
        )
        assert task.has_solution


def test_claw_readme_lists_every_task() -> None:
    readme = (CLAW / "README.md").read_text()
    for d in find_task_dirs(CLAW):
        assert f"[`{d.name}`]({d.name}/instruction.md)" in readme, d.name


@pytest.mark.docker
def test_claw_catalog_passes_the_gate(client: docker.DockerClient, base_image: str, tmp_path: Path) -> None:
    tasks = [load_task(d) for d in find_task_dirs(CLAW)]
    records = verify_tasks(client, tasks, runs=1, jobs=2, write=False)
    failures = {r.task: r.reasons for r in records if not r.verified}
    assert not failures, failures
