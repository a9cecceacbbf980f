"""The files, notes and config families: organize-files, archive-checksums, backup-retention,
notes-index, redact-secrets.

Fast tests: each is deterministic, diverse (60 proposals as a run draws them, difficulties mixed),
writes valid task files, and its reference solution passes its own checker while the untouched starting
state fails it. That last check runs each task in-process, in a temporary folder standing in for `/app`
(the task's quoted `/app` paths are rewritten to it), with the host's bash and python3. The docker
tests run the real gate on one task per difficulty of each family.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import docker
import pytest

from envs.gate import verify_tasks
from envs.task import load_task
from synth.families import families
from synth.offline import DIFFICULTY_WEIGHTS, make_proposal
from synth.pools import SHIPPED_POOLS, Pools, load_pools
from synth.similarity import shingles
from synth.spec import Proposal, TaskFiles
from synth.task_writer import write_task

NAMES = ["organize-files", "archive-checksums", "backup-retention", "notes-index", "redact-secrets"]
VARIANT_KEY = {"redact-secrets": "mode"}
"""The param that names a proposal's sub-variant (`variant` for the others)."""
VARIANTS = {
    "organize-files": {"extension", "date", "size", "dedupe", "rename", "flatten"},
    "archive-checksums": {"report", "quarantine", "repair", "rebuild"},
    "backup-retention": {"gfs", "per-set", "age", "budget", "tiered"},
    "notes-index": {"tag-index", "todo", "backlinks", "broken-links", "rename-tag", "catalog"},
    "redact-secrets": {"inplace", "copy", "externalize", "audit"},
}
QUOTED_APP = re.compile(r"""(['"])/app(?=[/'"])""")


@pytest.fixture(scope="module")
def pools() -> Pools:
    return load_pools([SHIPPED_POOLS / "claw"])


def run_of(name: str, pools: Pools, seed: int = 1, n: int = 60) -> list[Proposal]:
    """Proposals 0..n-1 of the family as a run with this seed makes them (difficulty drawn per index)."""
    family = families("claw", [name])[0]
    out = []
    for index in range(n):
        rng = random.Random(f"{seed}:difficulty:{index}")
        difficulty = rng.choices(list(DIFFICULTY_WEIGHTS), weights=list(DIFFICULTY_WEIGHTS.values()))[0]
        out.append(make_proposal(family, pools, seed, index, difficulty))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_proposal(name: str, pools: Pools) -> None:
    family = families("claw", [name])[0]
    for difficulty in (1, 2, 3):
        first = make_proposal(family, pools, 5, difficulty, difficulty)
        again = make_proposal(family, pools, 5, difficulty, difficulty)
        assert first.model_dump() == again.model_dump()
    other = make_proposal(family, pools, 6, 1, 1)
    assert other.content_sha256 != make_proposal(family, pools, 5, 1, 1).content_sha256


@pytest.mark.parametrize("name", NAMES)
def test_sixty_proposals_are_diverse(name: str, pools: Pools) -> None:
    proposals = run_of(name, pools)
    instructions = [p.instruction for p in proposals]
    assert len(set(instructions)) >= 40
    # greedy near-duplicate filter on word 3-gram shingles (exact Jaccard), as the prune stage's MinHash
    kept: list[set[str]] = []
    for text in instructions:
        grams = shingles(text)
        if all(len(grams & other) / len(grams | other) < 0.8 for other in kept):
            kept.append(grams)
    assert len(kept) >= 40, f"only {len(kept)} of 60 instructions are not near-duplicates"
    key = VARIANT_KEY.get(name, "variant")
    seen = {p.provenance.params[key] for p in proposals}
    assert seen == VARIANTS[name], f"sub-variants drawn in 60 proposals: {sorted(seen)}"
    assert len({p.title for p in proposals}) >= 8


@pytest.mark.parametrize("name", NAMES)
def test_task_files_are_valid_and_small(name: str, pools: Pools) -> None:
    for proposal in run_of(name, pools, seed=3, n=12):
        assert proposal.files is not None
        files = TaskFiles(files=proposal.files.files).files
        assert {"environment/Dockerfile", "tests/test.sh", "tests/check.py", "solution/solve.sh"} <= set(
            files
        )
        size = sum(len(text.encode()) for path, text in files.items() if path.startswith("environment/"))
        assert size < 200_000, f"{proposal.id}: environment of {size} bytes"
        assert "/app/" in proposal.instruction
        assert "\n" not in proposal.title.strip()
        assert proposal.provenance.pool_items, f"{proposal.id} is grounded in no pool item"
        compile(files["tests/check.py"], "check.py", "exec")


def run_here(files: dict[str, str], root: Path) -> dict[str, subprocess.CompletedProcess[str]]:
    """Build the starting state under root/app, then check (nop), solve, check again (oracle)."""
    app = root / "app"
    app.mkdir()

    def local(text: str) -> str:
        return QUOTED_APP.sub(lambda m: m.group(1) + str(app), text)

    for rel, text in files.items():
        if rel.startswith("environment/") and rel not in ("environment/Dockerfile", "environment/setup.sh"):
            target = app / rel.removeprefix("environment/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    scripts = {}
    for rel in ("environment/setup.sh", "solution/solve.sh", "tests/check.py"):
        if rel in files:
            scripts[rel] = root / rel.replace("/", "_")
            scripts[rel].write_text(local(files[rel]), encoding="utf-8")

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(argv, cwd=app, capture_output=True, text=True, timeout=120)

    out = {}
    if "environment/setup.sh" in scripts:
        out["setup"] = run("bash", str(scripts["environment/setup.sh"]))
    out["nop"] = run(sys.executable, str(scripts["tests/check.py"]))
    out["solve"] = run("bash", str(scripts["solution/solve.sh"]))
    out["oracle"] = run(sys.executable, str(scripts["tests/check.py"]))
    return out


@pytest.mark.parametrize("difficulty", [1, 2, 3])
@pytest.mark.parametrize("name", NAMES)
def test_solution_passes_and_doing_nothing_fails(
    name: str, difficulty: int, pools: Pools, tmp_path: Path
) -> None:
    family = families("claw", [name])[0]
    for seed in (21, 22):
        draft = family.draft(random.Random(f"{seed}:{difficulty}"), pools, difficulty)
        root = tmp_path / f"s{seed}"
        root.mkdir()
        result = run_here(draft.files, root)
        assert result.get("setup") is None or result["setup"].returncode == 0, result["setup"].stderr
        assert result["nop"].returncode != 0, f"the starting state passes:\n{result['nop'].stdout}"
        assert "FAIL" in result["nop"].stdout
        assert result["solve"].returncode == 0, result["solve"].stderr
        assert result["oracle"].returncode == 0, f"{draft.params}\n{result['oracle'].stdout}"


@pytest.mark.parametrize("name", NAMES)
def test_the_gate_verifies_one_task_per_difficulty(
    name: str, pools: Pools, client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    family = families("claw", [name])[0]
    tasks = []
    for difficulty in (1, 2, 3):
        proposal = make_proposal(family, pools, 2024, difficulty, difficulty)
        assert proposal.files is not None
        tasks.append(load_task(write_task(proposal, proposal.files, tmp_path / proposal.id)))
    # The oracle once: the gate's every-run check is test_gate's (good runs twice); the families' tasks in
    # catalog/claw-synth passed the whole gate, oracle twice, when synthesized (docs/benchmarks.md).
    records = verify_tasks(client, tasks, runs=1, jobs=2, write=False, forgery=False)
    failed = {r.task: r.reasons for r in records if not r.verified}
    assert not failed, failed
