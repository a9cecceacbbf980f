"""The verification gate: a task ships only if its reference solution scores the top of its reward
range (every run), doing nothing scores the bottom, every built-in forgery (`envs.forgery`) scores the
bottom too, and its image holds neither the tests nor the solution.

Writes `verified.json` beside each task. One run that fails in an unexpected way is recorded on that run
(class and traceback) and never stops the other tasks. A task stops at its first failed stage: an oracle
run short of the top ends its gate before the nop, and a nop above the bottom before the forgeries (what
they would find cannot make a refused task verified; a broken task costs one or two sandboxes, not nine).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
import traceback
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Literal

import docker
from pydantic import BaseModel, Field

from envs.errors import BuildError, EnvsError
from envs.forgery import ATTACKS, FORGED_REWARD_ENV, NEEDS_MODEL, ROLLOUT_ENV, Canary, attack_script
from envs.image_builder import build_image
from envs.model_relay import rollout_routes
from envs.parallel import run_parallel
from envs.sandbox import Sandbox, create_sandbox
from envs.steps import combine_rewards, min_reward_met, prepare_step, step_timeout
from envs.task import Task, TaskStep, resolve_env
from envs.task_config import NetworkMode
from envs.task_sandbox import task_sandbox_spec, wait_until_healthy
from envs.verifier import VerifierResult, VerifyOptions, run_verifier
from envs.verifier_image import verify_options

VERIFIED_FILE = "verified.json"
SOLUTION_DIR = "/solution"
ORACLE_HOME = "/tmp/forge-oracle-home"
"""The solution runs with a fresh, empty HOME, as an agent's commands do (every harness runs with a
private HOME): a task whose setup lives in the image user's ~/.gitconfig or ~/.bashrc fails here."""
ATTACK_FILE = "/tmp/forge-forgery.sh"
FORGERY_TIMEOUT_SEC = 120.0
LEAK_MIN_BYTES = 16
"""Smaller test/solution files are too likely to match an unrelated file to count as a leak."""
STDERR_TAIL = 2000
NO_REWARD_CLASSES = frozenset(
    {"RewardFileMissing", "RewardFileEmpty", "RewardFileInvalid", "RewardFileTooLarge", "VerifierTimeout"}
)
"""A forgery that leaves the tests without a reward got nothing either (training scores it 0)."""


def tool_version() -> str:
    try:
        return version("openforge")
    except PackageNotFoundError:
        return "unknown"


class RunRecord(BaseModel):
    """One oracle, nop or forgery run."""

    kind: str
    """oracle, nop or forgery."""
    attack: str | None = None
    """The forgery's name."""
    reward: float | None = None
    error: str | None = None
    error_class: str | None = None
    solution_exit_code: int | None = None
    """The exit status of solve.sh (oracle) or of the attack (forgery)."""
    verifier_exit_code: int | None = None
    """The exit status of tests/test.sh."""
    verifier_stderr: str = ""
    """The end of the tests' stderr (a CRLF test.sh shows `$'\r': command not found` here)."""
    verifier_stdout: str = ""
    """The end of the tests' stdout (pytest's summary, say)."""
    steps: list[float | None] = Field(default_factory=list)
    """Each step's reward, for a multi-step task (`reward` combines them)."""
    killed: int = 0
    """Processes of the run still alive when it ended, killed before the tests."""
    breaches: list[str] = Field(default_factory=list)
    """Control-plane forgery: requests that reached the model endpoint outside the sandbox's routes."""
    traceback: str | None = None
    """Set when the run failed in a way the gate did not expect."""
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
    verifier_image: str | None = None
    """The image the tests ran on when not the task's: a separate verifier environment's, or a prepared
    verifier layer."""
    verifier_network: bool = False
    """Whether the tests had the network their task declares (the `--verifier-network` opt-in)."""
    runs: int
    reward_range: tuple[float, float] = (0.0, 1.0)
    oracle: list[RunRecord] = Field(default_factory=list)
    nop: RunRecord | None = None
    forgeries: list[RunRecord] = Field(default_factory=list)
    """Empty when the forgery stage was skipped (`--no-forgery`, or the gate stopped before it)."""
    stopped_at: Literal["oracle", "nop"] | None = None
    """The stage whose failure ended the gate, its later stages not run; None when every stage ran."""
    leaks: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    """What the sandboxes could not enforce for this task (e.g. its storage_mb)."""
    duration_sec: float = 0.0
    tool_version: str = Field(default_factory=tool_version)
    verified_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    @property
    def oracle_rewards(self) -> list[float | None]:
        return [r.reward for r in self.oracle]


def _hidden_files(task: Task) -> dict[int, dict[str, str]]:
    """size -> {sha256: relative path} of every tests/ and solution/ file worth scanning for."""
    found: dict[int, dict[str, str]] = defaultdict(dict)
    steps = [folder for step in task.steps for folder in (step.tests_dir, step.solution_dir) if folder]
    for folder in (task.tests_dir, task.solution_dir, *steps):
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


def _take_verdict(record: RunRecord, verdict: VerifierResult) -> None:
    record.reward, record.error, record.error_class = verdict.reward, verdict.error, verdict.error_class
    record.verifier_exit_code = verdict.exit_code
    record.verifier_stderr = verdict.stderr[-STDERR_TAIL:]
    record.verifier_stdout = verdict.stdout[-STDERR_TAIL:]
    record.killed = verdict.killed


def _act(
    sandbox: Sandbox, task: Task, attack: str | None, rollout: str, step: TaskStep | None = None
) -> int | None:
    """The oracle's solution (the step's own, for a step that has one) or, given an attack, that
    forgery, run as the agent would; returns its exit status."""
    agent = task.config.agent
    home = {"HOME": ORACLE_HOME}
    if attack is None:
        solution = step.solution_dir if step is not None and step.solution_dir is not None else None
        sandbox.make_dir(SOLUTION_DIR)
        sandbox.upload(solution or task.solution_dir, SOLUTION_DIR)
        script, env = SOLUTION_DIR + "/solve.sh", resolve_env(task, task.config.solution.env, "solution")
        timeout = step_timeout(task, step)
    else:
        sandbox.upload(attack_script(attack), ATTACK_FILE)
        top = task.config.verifier.reward_range[1]
        script, env = ATTACK_FILE, {FORGED_REWARD_ENV: f"{top:g}", ROLLOUT_ENV: rollout}
        timeout = min(agent.timeout_sec, FORGERY_TIMEOUT_SEC)
    run = sandbox.exec(
        ["bash", "-c", f'mkdir -p "$HOME" && exec bash {script}'],
        timeout=timeout,
        env=env | home,
        workdir=task.config.environment.workdir,
        user=(step.config.agent.user if step is not None else None) or agent.user,
    )
    return run.exit_code


def _act_and_verify(
    sandbox: Sandbox,
    task: Task,
    backend: str | None,
    kind: str,
    attack: str | None,
    rollout: str,
    record: RunRecord,
    verify: VerifyOptions,
) -> None:
    """Act (oracle, forgery; nop does nothing) and verify, step by step for a multi-step task (a
    forgery acts in the first step only); the record's reward combines the steps' (envs.steps)."""
    steps: list[TaskStep | None] = list(task.steps) or [None]
    workdir = sandbox.process_defaults().workdir
    rewards: list[float] = []
    for index, step in enumerate(steps):
        if step is not None:
            prepare_step(sandbox, task, step, workdir)
        if kind == "oracle" or (kind == "forgery" and index == 0):
            record.solution_exit_code = _act(
                sandbox, task, attack if kind == "forgery" else None, rollout, step
            )
        options = verify.model_copy(update={"step": step, "keep_model": index < len(steps) - 1})
        verdict = run_verifier(sandbox, task, backend, options)
        _take_verdict(record, verdict)
        if step is not None:
            record.steps.append(verdict.reward)
        if verdict.reward is None:
            return
        rewards.append(verdict.reward)
        if step is not None and not min_reward_met(step, verdict.reward, verdict.details):
            break
    if task.steps:
        record.reward = combine_rewards(task, rewards)


def _run_once(
    backend: str | None,
    task: Task,
    image: str,
    kind: str,
    run_id: str,
    leak_scan: bool = False,
    attack: str | None = None,
    warnings: list[str] | None = None,
    verify: VerifyOptions | None = None,
) -> tuple[RunRecord, list[str]]:
    verify = verify or VerifyOptions()
    started = time.monotonic()
    record = RunRecord(kind=kind, attack=attack)
    leaks: list[str] = []
    rollout = f"forgery-{uuid.uuid4().hex[:8]}"
    try:
        with ExitStack() as stack:
            canary = None
            network, endpoint = NetworkMode.NONE, None
            if attack in NEEDS_MODEL:
                folder = Path(tempfile.mkdtemp(prefix="forge-canary-"))
                stack.callback(shutil.rmtree, folder, True)
                canary = stack.enter_context(Canary(folder / "model.sock"))
                network, endpoint = NetworkMode.MODEL_ONLY, canary.endpoint
            spec = task_sandbox_spec(
                task, image, role=kind, run=run_id, network=network, model_endpoint=endpoint
            )
            spec.model_routes = rollout_routes(rollout)
            sandbox = stack.enter_context(create_sandbox(spec, backend))
            if warnings is not None:
                warnings.extend(w for w in sandbox.warnings if w not in warnings)
            wait_until_healthy(sandbox, task)
            if leak_scan:
                leaks = scan_for_leaks(sandbox, task)
            _act_and_verify(sandbox, task, backend, kind, attack, rollout, record, verify)
            if canary is not None:
                record.breaches = canary.breaches(spec.model_routes)
    except EnvsError as exc:
        record.error, record.error_class = str(exc), type(exc).__name__
    except Exception as exc:  # a bug of ours, or of a library: this run's record says so, the rest go on
        record.error, record.error_class = str(exc), type(exc).__name__
        record.traceback = traceback.format_exc()
    record.duration_sec = time.monotonic() - started
    return record, leaks


def forgery_reason(run: RunRecord, bottom: float) -> str | None:
    """Why a forgery run fails the gate, or None when the attack got nothing."""
    if run.breaches:
        return f"forgery {run.attack}: requests got past the sandbox's model routes: {run.breaches}"
    if run.reward is not None:
        return None if run.reward <= bottom else f"forgery {run.attack} scored {run.reward:g}, not {bottom:g}"
    if run.error_class in NO_REWARD_CLASSES:
        return None
    return f"forgery {run.attack} could not run: {run.error_class}: {run.error}"


def _judge(record: VerificationRecord, task: Task) -> None:
    low, high = task.config.verifier.reward_range
    for i, run in enumerate(record.oracle, 1):
        if run.reward is None:
            record.reasons.append(f"oracle run {i}: {run.error_class}: {run.error}")
        elif run.reward != high:
            why = f": {run.error_class}: {run.error}" if run.error_class else ""
            record.reasons.append(
                f"oracle run {i} scored {run.reward:g}, not the top of [verifier] reward_range {high:g}{why}"
            )
    nop = record.nop
    if nop is not None and nop.reward is None:
        record.reasons.append(f"nop run: {nop.error_class}: {nop.error}")
    elif nop is not None and nop.reward != low:
        record.reasons.append(f"doing nothing scored {nop.reward:g}, not {low:g}")
    for run in record.forgeries:
        if (reason := forgery_reason(run, low)) is not None:
            record.reasons.append(reason)
    record.reasons.extend(f"leak: {leak}" for leak in record.leaks)


def verify_task(
    client: docker.DockerClient,
    task: Task,
    runs: int = 2,
    write: bool = True,
    backend: str | None = None,
    forgery: bool = True,
    verifier_network: bool = False,
) -> VerificationRecord:
    """Run the gate on one task and (by default) write its verified.json.

    `client` builds the image (images are always built on the local engine); `backend` runs the sandboxes;
    `verifier_network` is the opt-in for tests that declare a network (envs.verifier.VerifyOptions).
    """
    started = time.monotonic()
    run_id = f"verify-{uuid.uuid4().hex[:8]}"
    record = VerificationRecord(
        task=task.name, verified=False, runs=runs, reward_range=task.config.verifier.reward_range
    )
    low, high = record.reward_range
    try:
        built = build_image(client, task)
        if not built.ok or built.tag is None:
            raise BuildError(task.name, built.error or "no image")
        record.image, record.image_digest = built.tag, built.image_id
        verify = verify_options(task, built.tag, verifier_network, client)
        record.verifier_image, record.verifier_network = verify.image, verify.network
        steps_solved = bool(task.steps) and all(step.solution_dir is not None for step in task.steps)
        if not task.has_solution and not steps_solved:
            record.reasons.append("no solution/solve.sh to run")
        else:
            for _ in range(runs):
                record.oracle.append(
                    _run_once(
                        backend, task, built.tag, "oracle", run_id, warnings=record.warnings, verify=verify
                    )[0]
                )
                if record.oracle[-1].reward != high:
                    record.stopped_at = "oracle"
                    break
        if record.stopped_at is None:
            record.nop, record.leaks = _run_once(
                backend, task, built.tag, "nop", run_id, leak_scan=True, verify=verify
            )
            if record.nop.reward != low:
                record.stopped_at = "nop"
        if forgery and record.stopped_at is None:
            for attack in ATTACKS:
                record.forgeries.append(
                    _run_once(backend, task, built.tag, "forgery", run_id, attack=attack, verify=verify)[0]
                )
        _judge(record, task)
    except BuildError as exc:
        record.reasons.append(str(exc))
    except Exception as exc:  # never end the catalog: this task's record says what happened
        record.reasons.append(
            f"the gate failed unexpectedly: {type(exc).__name__}: {exc}\n{traceback.format_exc()}"
        )
    record.verified = not record.reasons
    record.duration_sec = time.monotonic() - started
    if write:
        (task.path / VERIFIED_FILE).write_text(json.dumps(record.model_dump(mode="json"), indent=2) + "\n")
    return record


def verify_tasks(
    client: docker.DockerClient,
    tasks: Sequence[Task],
    runs: int = 2,
    jobs: int = 2,
    on_done: Callable[[VerificationRecord], None] = lambda record: None,
    write: bool = True,
    backend: str | None = None,
    forgery: bool = True,
    verifier_network: bool = False,
) -> list[VerificationRecord]:
    """The gate over many tasks, in parallel (`forgery=False` skips the forgery stage)."""
    return run_parallel(
        lambda task: verify_task(client, task, runs, write, backend, forgery, verifier_network),
        tasks,
        jobs,
        on_done,
    )
