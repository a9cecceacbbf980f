"""The shipped catalogs: every task is well formed, and every task passes the verification gate."""

from __future__ import annotations

from pathlib import Path

import docker
import pytest

from envs.gate import VerificationRecord, verify_task
from envs.parallel import run_parallel
from envs.task import Task, find_task_dirs, inspect_task, load_task
from proxy.engines.oracle import solution_command
from tests.conftest import REPO

CATALOGS = {"claw": 15, "basics": 12, "claw-synth": 100}
"""Catalog -> the fewest tasks it must hold."""
GATED_WHOLE = ["basics", "claw"]
"""Catalogs small enough to prove whole in CI; claw-synth is proven by a sample (below)."""


@pytest.mark.parametrize("name", sorted(CATALOGS))
def test_catalog_is_well_formed(name: str) -> None:
    dirs = find_task_dirs(REPO / "catalog" / name)
    assert len(dirs) >= CATALOGS[name]
    for d in dirs:
        task, problems = inspect_task(d)
        assert task is not None and problems == [], [str(p) for p in problems]
        assert task.config.metadata.domain == "claw"
        assert task.name == d.name
        assert task.dockerfile.read_text().startswith(
            "ARG FORGE_BASE=openforge/base:latest\nFROM ${FORGE_BASE}"
        )
        assert task.has_solution


@pytest.mark.parametrize("name", sorted(CATALOGS))
def test_readme_lists_every_task(name: str) -> None:
    catalog = REPO / "catalog" / name
    readme = (catalog / "README.md").read_text()
    for d in find_task_dirs(catalog):
        assert f"[`{d.name}`]({d.name}/instruction.md)" in readme, d.name


def test_basics_solutions_are_one_short_command() -> None:
    """catalog/basics is the CPU learning demo: the oracle sends each solution as its own text, a target
    a tiny model can learn."""
    for d in find_task_dirs(REPO / "catalog" / "basics"):
        task = load_task(d)
        lines = [x for x in (task.solution_dir / "solve.sh").read_text().splitlines() if x and x[0] != "#"]
        assert len(lines) == 1 and len(lines[0]) <= 80, d.name
        assert solution_command(task) == f"cd /app && {lines[0]}"


def _forgery_sample(tasks: list[Task]) -> set[str]:
    """One task per distinct way of verifying (the [verifier] table and the working directory): the
    built-in forgeries attack the verifier's sandbox, not the task, so one task proves the stage for all
    tasks verified alike (tests/redteam attacks every defence on its own)."""
    first: dict[str, str] = {}
    for task in tasks:
        first.setdefault(
            task.config.verifier.model_dump_json() + str(task.config.environment.workdir), task.name
        )
    return set(first.values())


def _gate(client: docker.DockerClient, tasks: list[Task]) -> list[VerificationRecord]:
    """The gate on every task (oracle 1, nop 0, no hidden file in the image), the forgery stage on
    `_forgery_sample`'s tasks."""
    attacked = _forgery_sample(tasks)
    records = run_parallel(
        lambda task: verify_task(client, task, runs=1, write=False, forgery=task.name in attacked), tasks, 2
    )
    assert sum(len(r.forgeries) >= 6 for r in records) == len(attacked), "the forgery stage ran on the sample"
    return records


@pytest.mark.docker
@pytest.mark.parametrize("name", GATED_WHOLE)
def test_catalog_passes_the_gate(
    name: str, client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    tasks = [load_task(d) for d in find_task_dirs(REPO / "catalog" / name)]
    records = _gate(client, tasks)
    failures = {r.task: r.reasons for r in records if not r.verified}
    assert not failures, failures


@pytest.mark.docker
def test_a_sample_of_claw_synth_passes_the_gate(client: docker.DockerClient, base_image: str) -> None:
    """Every task of catalog/claw-synth passed the full gate when synthesized (docs/benchmarks.md); one
    task of every fourth family is proven again here (all of them would take over an hour)."""
    by_family: dict[str, Path] = {}
    for d in find_task_dirs(REPO / "catalog" / "claw-synth"):
        by_family.setdefault(d.name.rsplit("-", 2)[0], d)
    sample = [load_task(by_family[f]) for f in sorted(by_family)[::4]]
    records = _gate(client, sample)
    failures = {r.task: r.reasons for r in records if not r.verified}
    assert len(sample) >= 3 and not failures, failures


def test_claw_synth_is_disjoint_from_the_evaluation_catalog() -> None:
    """No synthesized training task copies a catalog/claw task (prune's blocklist: MinHash here)."""
    from synth.prune import blocklist_from_catalogs
    from synth.similarity import minhash, normalise

    held = [minhash(normalise(b.instruction)) for b in blocklist_from_catalogs([REPO / "catalog" / "claw"])]
    held_names = {d.name for d in find_task_dirs(REPO / "catalog" / "claw")}
    for d in find_task_dirs(REPO / "catalog" / "claw-synth"):
        assert d.name not in held_names
        mine = minhash(normalise(load_task(d).instruction))
        assert max(mine.jaccard(h) for h in held) < 0.5, d.name
