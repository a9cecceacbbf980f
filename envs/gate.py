"""The verification gate: a task ships only if its reference solution scores 1 (every run), doing
nothing scores 0, and its image holds neither the tests nor the solution.

Writes `verified.json` beside each task.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version

import docker
from pydantic import BaseModel, Field

from envs.errors import BuildError, EnvsError
from envs.image_builder import build_image
from envs.parallel import run_parallel
from envs.sandbox import Sandbox, create_sandbox
from envs.task import Task
from envs.task_config import NetworkMode
from envs.task_sandbox import resolve_env, task_sandbox_spec, wait_until_healthy
from envs.verifier import VerifierResult, run_verifier

VERIFIED_FILE = "verified.json"
SOLUTION_DIR = "/solution"
ORACLE_HOME = "/tmp/forge-oracle-home"
"""The solution runs with a fresh, empty HOME, as an agent's commands do (every harness runs with a
private HOME): a task whose setup lives in the image user's ~/.gitconfig or ~/.bashrc fails here."""
LEAK_MIN_BYTES = 16
"""Smaller test/solution files are too likely to match an unrelated file to count as a leak."""


def tool_version() -> str:
    try:
        return version("openforge")
    except PackageNotFoundError:
        return "unknown"


class RunRecord(BaseModel):
    """One oracle or nop run."""

    kind: str
    reward: float | None = None
    error: str | None = None
    error_class: str | None = None
    solution_exit_code: int | None = None
    duration_sec: float = 0.0


class VerificationRecord(BaseModel):
    """What `verified.json` holds."""

    task: str
    verified: bool
    reasons: list[str] = Field(default_factory=list)
    """Why the task failed the gate (empty when verified)."""
    image: str | None = None
    image_digest: str | None = None
    """The local image id (sha256 of its config): the exact image the gate ran."""
    runs: int
    oracle: list[RunRecord] = Field(default_factory=list)
    nop: RunRecord | None = None
    leaks: list[str] = Field(default_factory=list)
    duration_sec: float = 0.0
    tool_version: str = Field(default_factory=tool_version)
    verified_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    @property
    def oracle_rewards(self) -> list[float | None]:
        return [r.reward for r in self.oracle]


def _hidden_files(task: Task) -> dict[int, dict[str, str]]:
    """size -> {sha256: relative path} of every tests/ and solution/ file worth scanning for."""
    found: dict[int, dict[str, str]] = defaultdict(dict)
    for folder in (task.tests_dir, task.solution_dir):
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            if path.is_file() and not path.is_symlink() and path.stat().st_size >= LEAK_MIN_BYTES:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                found[path.stat().st_size][digest] = path.relative_to(task.path).as_posix()
    return found


def scan_for_leaks(sandbox: Sandbox, task: Task) -> list[str]:
    """Names of hidden files whose exact bytes are somewhere in the sandbox, plus /tests or /solution."""
    leaks: list[str] = []
    probe = sandbox.exec(
        ["/bin/sh", "-c", "for d in /tests /solution; do [ -e $d ] && echo $d; done; true"],
        timeout=60,
        user="root",
    )
    leaks.extend(f"{line} exists in the image" for line in probe.stdout.split())
    hidden = _hidden_files(task)
    if not hidden:
        return leaks
    sizes = " -o ".join(f"-size {size}c" for size in sorted(hidden))
    find = (
        f"find / -xdev -type f \\( {sizes} \\) -not -path '/opt/forge/*' -not -path '/proc/*' "
        "-exec sha256sum {} + 2>/dev/null; true"
    )
    scan = sandbox.exec(["/bin/sh", "-c", find], timeout=300, user="root")
    by_digest = {digest: rel for per_size in hidden.values() for digest, rel in per_size.items()}
    for line in scan.stdout.splitlines():
        digest, _, where = line.partition("  ")
        if digest in by_digest:
            leaks.append(f"{by_digest[digest]} is in the image at {where}")
    return leaks


def _run_once(
    backend: str, task: Task, image: str, kind: str, run_id: str, leak_scan: bool = False
) -> tuple[RunRecord, list[str]]:
    started = time.monotonic()
    record = RunRecord(kind=kind)
    leaks: list[str] = []
    try:
        spec = task_sandbox_spec(task, image, role=kind, run=run_id, network=NetworkMode.NONE)
        with create_sandbox(spec, backend) as sandbox:
            wait_until_healthy(sandbox, task)
            if leak_scan:
                leaks = scan_for_leaks(sandbox, task)
            if kind == "oracle":
                sandbox.upload(task.solution_dir, SOLUTION_DIR)
                solve = sandbox.exec(
                    ["bash", "-c", f'mkdir -p "$HOME" && exec bash {SOLUTION_DIR}/solve.sh'],
                    timeout=task.config.agent.timeout_sec,
                    env=resolve_env(task, task.config.solution.env, "solution") | {"HOME": ORACLE_HOME},
                    workdir=task.config.environment.workdir,
                    user=task.config.agent.user,
                )
                record.solution_exit_code = solve.exit_code
                sandbox.exec(["rm", "-rf", SOLUTION_DIR], timeout=60, user="root")
            verdict: VerifierResult = run_verifier(sandbox, task)
            record.reward, record.error, record.error_class = (
                verdict.reward,
                verdict.error,
                verdict.error_class,
            )
    except EnvsError as exc:
        record.error, record.error_class = str(exc), type(exc).__name__
    record.duration_sec = time.monotonic() - started
    return record, leaks


def verify_task(
    client: docker.DockerClient, task: Task, runs: int = 2, write: bool = True, backend: str = "docker"
) -> VerificationRecord:
    """Run the gate on one task and (by default) write its verified.json.

    `client` builds the image (images are always built on the local engine); `backend` runs the sandboxes.
    """
    started = time.monotonic()
    run_id = f"verify-{uuid.uuid4().hex[:8]}"
    record = VerificationRecord(task=task.name, verified=False, runs=runs)
    try:
        built = build_image(client, task)
    except BuildError as exc:
        record.reasons.append(str(exc))
    else:
        assert built.tag is not None  # build_image always returns the tag it built or found
        record.image, record.image_digest = built.tag, built.image_id
        if not task.has_solution:
            record.reasons.append("no solution/solve.sh to run")
        else:
            for _ in range(runs):
                record.oracle.append(_run_once(backend, task, built.tag, "oracle", run_id)[0])
        record.nop, record.leaks = _run_once(backend, task, built.tag, "nop", run_id, leak_scan=True)
        for i, run in enumerate(record.oracle, 1):
            if run.reward is None:
                record.reasons.append(f"oracle run {i}: {run.error_class}: {run.error}")
            elif run.reward < 1.0:
                record.reasons.append(f"oracle run {i} scored {run.reward:g}, not 1")
        if record.nop.reward is None:
            record.reasons.append(f"nop run: {record.nop.error_class}: {record.nop.error}")
        elif record.nop.reward != 0.0:
            record.reasons.append(f"doing nothing scored {record.nop.reward:g}, not 0")
        record.reasons.extend(f"leak: {leak}" for leak in record.leaks)
        record.verified = not record.reasons
    record.duration_sec = time.monotonic() - started
    if write:
        (task.path / VERIFIED_FILE).write_text(json.dumps(record.model_dump(), indent=2) + "\n")
    return record


def verify_tasks(
    client: docker.DockerClient,
    tasks: Sequence[Task],
    runs: int = 2,
    jobs: int = 2,
    on_done: Callable[[VerificationRecord], None] = lambda record: None,
    write: bool = True,
    backend: str = "docker",
) -> list[VerificationRecord]:
    """The gate over many tasks, in parallel."""
    return run_parallel(lambda task: verify_task(client, task, runs, write, backend), tasks, jobs, on_done)
