"""Run a task's hidden tests and read the reward, on a userland the agent could not touch.

The tests reach a sandbox only now, after the agent (or the solution) is done. First the way to the model
is cut and every process the agent phase started is killed from outside the sandbox (frozen, then
SIGKILLed: nothing it did to escape helps). Then, by `[verifier] sandbox`:

- `fresh` (the default): a new sandbox from the task image, with no network, gets the agent's
  `[verifier] artifacts` (its work product, read through the engine) and runs the tests. Nothing else
  of the agent's sandbox, its processes or its changes to the userland, exists there.
- `agent`: the tests run in the agent's own sandbox, and only if the engine's filesystem diff shows no
  change under the system paths (`envs.tamper`); else the rollout scores 0 as VerifierTampered.

Either way `/tests` and `/logs/verifier` are made fresh through the engine (never with the sandbox's own
`rm`/`mkdir`), `/logs/verifier` belongs to the user the tests run as and is not world-writable, the tests
start as `/bin/bash /tests/test.sh` (no PATH lookup) without user-site or shell start-up hooks, anything
they leave running is killed before the reward is read, and the reward files are read through the engine,
capped in size, and held to `[verifier] reward_range` (`envs.reward`). A missing, empty or garbage reward is
its own RewardError class; a sandbox the agent left unusable is an AgentFault, scored as the bottom of the
range: never an infrastructure error, which training would drop and redo.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from pydantic import BaseModel, Field

from envs.artifacts import PackedArtifacts, artifact_paths, pack_artifacts
from envs.errors import (
    AgentFault,
    ArchiveTooLarge,
    ArtifactsInvalid,
    PreloadError,
    RewardError,
    RewardFileInvalid,
    RewardFileTooLarge,
    SandboxBroken,
    SandboxError,
    SandboxNotReady,
    TaskLoadError,
    VerifierTampered,
)
from envs.reward import MAX_REWARD_FILE_BYTES, REWARD_JSON, REWARD_TXT, VERIFIER_DIR, parse_reward
from envs.sandbox import Preload, Sandbox, create_sandbox
from envs.tamper import protected_patterns, tampered_paths
from envs.task import TASK_TOML, Task
from envs.task_config import NetworkMode, VerifierSandbox
from envs.task_sandbox import resolve_env, task_sandbox_spec, wait_until_healthy

TESTS_DIR = "/tests"
TEST_SHELL = "/bin/bash"
HARDENED_ENV = {"PYTHONNOUSERSITE": "1", "BASH_ENV": "", "ENV": ""}
"""No user-site packages (start-up hooks under HOME) and no shell start-up files for the tests; a task's
own `[verifier] env` may still set these."""
OUTPUT_TAIL = 20_000
PASSWD_MAX_BYTES = 4 * 1024 * 1024


class VerifierResult(BaseModel):
    """The outcome of one verification."""

    reward: float | None = None
    """None when no usable reward was produced (see error)."""
    details: dict[str, float] = Field(default_factory=dict)
    error: str | None = None
    error_class: str | None = None
    """RewardFileMissing, RewardFileEmpty, RewardFileInvalid, VerifierTimeout; or an AgentFault
    (VerifierTampered, SandboxBroken, ArtifactsInvalid, ArtifactsTooLarge), which comes with a reward."""
    sandbox: VerifierSandbox = VerifierSandbox.FRESH
    exit_code: int | None = None
    """test.sh's exit status."""
    timed_out: bool = False
    duration_sec: float = 0.0
    stdout: str = ""
    stderr: str = ""
    killed: int = 0
    """Processes of the agent phase still running when it ended, killed before the tests."""
    artifacts: PackedArtifacts | None = None
    timings: dict[str, float] = Field(default_factory=dict)
    """Seconds per step: kill, artifacts, sandbox (the fresh one's start), tamper_check, tests."""


def _numeric_user(sandbox: Sandbox, task: Task) -> tuple[int, int]:
    """uid and gid of `[verifier] user` (root when unset), from the sandbox's /etc/passwd read through
    the engine."""
    user = task.config.verifier.user
    if user in (None, "", "root", "0"):
        return 0, 0
    assert user is not None
    if user.isdigit():
        return int(user), int(user)
    passwd = sandbox.read_file("/etc/passwd", PASSWD_MAX_BYTES) or b""
    for line in passwd.decode("utf-8", errors="replace").splitlines():
        fields = line.split(":")
        if len(fields) >= 4 and fields[0] == user and fields[2].isdigit() and fields[3].isdigit():
            return int(fields[2]), int(fields[3])
    raise TaskLoadError(
        task.name, TASK_TOML, f"user {user!r} is not in the image's /etc/passwd", "[verifier].user"
    )


def _read_reward_file(sandbox: Sandbox, path: str) -> bytes | None:
    try:
        return sandbox.read_file(path, MAX_REWARD_FILE_BYTES)
    except ArchiveTooLarge:
        raise RewardFileTooLarge(
            f"{path} is too large: more than the {MAX_REWARD_FILE_BYTES} bytes a reward file may hold"
        ) from None
    except SandboxError as exc:
        if sandbox.alive():
            raise RewardFileInvalid(f"{path}: {exc}") from None
        raise SandboxBroken(f"the sandbox stopped while the tests ran: {exc}") from exc


def _run_tests(sandbox: Sandbox, task: Task, result: VerifierResult) -> None:
    """Prepare /tests and /logs/verifier through the engine, run the tests, read the reward."""
    verifier = task.config.verifier
    started = time.monotonic()
    uid, gid = _numeric_user(sandbox, task)
    try:
        sandbox.make_dir(TESTS_DIR)
        sandbox.upload(task.tests_dir, TESTS_DIR)
        sandbox.make_dir(VERIFIER_DIR, uid, gid, 0o755)
    except SandboxError as exc:
        raise SandboxBroken(f"cannot prepare {TESTS_DIR} and {VERIFIER_DIR} for the tests: {exc}") from exc
    try:
        run = sandbox.exec(
            [TEST_SHELL, f"{TESTS_DIR}/test.sh"],
            timeout=verifier.timeout_sec,
            env=HARDENED_ENV | resolve_env(task, verifier.env, "verifier"),
            workdir=task.config.environment.workdir,
            user=verifier.user,
        )
        sandbox.kill_strays()  # nothing the tests started may write the reward after they end
    except SandboxError as exc:
        raise SandboxBroken(f"the tests could not run: {exc}") from exc
    result.exit_code, result.timed_out = run.exit_code, run.timed_out
    result.stdout, result.stderr = run.stdout[-OUTPUT_TAIL:], run.stderr[-OUTPUT_TAIL:]
    result.timings["tests"] = time.monotonic() - started
    try:
        reward = parse_reward(
            _read_reward_file(sandbox, REWARD_JSON),
            _read_reward_file(sandbox, REWARD_TXT),
            verifier.reward_range,
        )
    except RewardError as exc:
        result.error = str(exc)
        result.error_class = type(exc).__name__
        if run.timed_out:
            result.error = f"tests timed out after {verifier.timeout_sec:.0f}s and left no reward ({exc})"
            result.error_class = "VerifierTimeout"
    else:
        result.reward = reward.value
        result.details = reward.details


def _in_fresh_sandbox(agent: Sandbox, task: Task, backend: str, result: VerifierResult) -> None:
    started = time.monotonic()
    paths = artifact_paths(task, agent.process_defaults().workdir)
    max_bytes = task.config.verifier.artifacts_max_mb * 1024 * 1024
    with tempfile.TemporaryDirectory(prefix="forge-artifacts-") as tmp:
        archive = Path(tmp) / "artifacts.tar"
        result.artifacts = pack_artifacts(agent, paths, max_bytes, archive)
        result.timings["artifacts"] = time.monotonic() - started
        started = time.monotonic()
        spec = task_sandbox_spec(
            task, agent.spec.image, role="verify", run=agent.spec.run, network=NetworkMode.NONE
        )
        spec.preload = [Preload(archive=archive)]
        fresh = create_sandbox(spec, backend)
        try:
            fresh.start()  # an engine that cannot start it is an infrastructure error (raised)
        except PreloadError as exc:
            raise ArtifactsInvalid(f"the engine refused the artifacts: {exc}") from exc
        except SandboxNotReady as exc:  # the same image got ready for the agent: the artifacts broke it
            raise SandboxBroken(
                f"the verifier's sandbox, with the agent's artifacts, did not start: {exc}"
            ) from exc
    try:
        try:
            wait_until_healthy(fresh, task)
            if result.artifacts.missing:  # the image's own copies must not stand in for them
                fresh.exec(["rm", "-rf", "--", *result.artifacts.missing], timeout=60, user="root")
        except SandboxError as exc:
            raise SandboxBroken(
                f"the verifier's sandbox, with the agent's artifacts, is not healthy: {exc}"
            ) from exc
        result.timings["sandbox"] = time.monotonic() - started
        _run_tests(fresh, task, result)
    finally:
        fresh.stop()


def _in_agent_sandbox(sandbox: Sandbox, task: Task, result: VerifierResult) -> None:
    started = time.monotonic()
    try:
        if not sandbox.alive():
            raise SandboxBroken("the sandbox stopped during the agent phase (its init was stopped)")
        defaults = sandbox.process_defaults()
        path = task.config.verifier.env.get("PATH") or defaults.env.get("PATH")
        patterns = protected_patterns(path, task.config.verifier.user not in (None, "", "root", "0"))
        changed = tampered_paths(sandbox.changed_paths(), patterns)
    except SandboxError as exc:
        raise SandboxBroken(f"the sandbox the agent left cannot be checked: {exc}") from exc
    result.timings["tamper_check"] = time.monotonic() - started
    if changed:
        shown = ", ".join(changed[:8]) + (f" and {len(changed) - 8} more" if len(changed) > 8 else "")
        raise VerifierTampered(f"the agent changed system paths the tests would run on: {shown}")
    _run_tests(sandbox, task, result)


def run_verifier(sandbox: Sandbox, task: Task, backend: str = "docker") -> VerifierResult:
    """End the agent phase in `sandbox`, then run the hidden tests (see the module docstring).

    `backend` starts the fresh verifier sandbox. Raises only for the machinery (an engine that cannot
    start a sandbox, a task whose settings cannot work); what the agent caused is in the result."""
    started = time.monotonic()
    mode = task.config.verifier.sandbox
    result = VerifierResult(sandbox=mode)
    try:
        sandbox.cut_model()
        try:
            result.killed = sandbox.kill_strays()
        except SandboxError as exc:
            raise SandboxBroken(f"the agent's processes could not be stopped: {exc}") from exc
        result.timings["kill"] = time.monotonic() - started
        if mode is VerifierSandbox.FRESH:
            _in_fresh_sandbox(sandbox, task, backend, result)
        else:
            _in_agent_sandbox(sandbox, task, result)
    except AgentFault as exc:
        result.reward = task.config.verifier.reward_range[0]
        result.details = {}
        result.error, result.error_class = str(exc), type(exc).__name__
    result.duration_sec = time.monotonic() - started
    return result
