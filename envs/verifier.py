"""Run a task's hidden tests and read the reward, on a userland the agent could not touch.

The tests reach a sandbox only now, after the agent (or the solution) is done. First the way to the model
is cut and every process the agent phase started is killed from outside the sandbox (frozen, then
SIGKILLed: nothing it did to escape helps). Then, by `[verifier] sandbox`:

- `fresh` (the default): a new sandbox from the task image, with no network, gets the agent's
  `[verifier] artifacts` (its work product, read through the engine) and runs the tests. Nothing else
  of the agent's sandbox, its processes or its changes to the userland, exists there. A Harbor task's
  separate verifier environment is a fresh sandbox of its own image (built from tests/), given
  /logs/artifacts and the task's artifacts, as Harbor gives them. A prepared verifier layer
  (`envs.verifier_image`) may stand in for the task image; the network is the task's declared one only
  with the `--verifier-network` opt-in (`VerifyOptions.network`).
- `agent`: the tests run in the agent's own sandbox, and only if the engine's filesystem diff shows no
  change under the system paths (`envs.tamper`); else the rollout scores 0 as VerifierTampered.

Either way `/tests` and `/logs/verifier` are made fresh through the engine (never with the sandbox's own
`rm`/`mkdir`), `/logs/verifier` belongs to the user the tests run as and is not world-writable, the tests
start as `/bin/bash /tests/test.sh` (no PATH lookup) without user-site or shell start-up hooks, anything
they leave running is killed before the reward is read, and the reward files are read through the engine,
capped in size, and held to `[verifier] reward_range` (`envs.reward`). A missing, empty or garbage reward is
its own RewardError class; a sandbox the agent left unusable is an AgentFault, scored as the bottom of the
range: never an infrastructure error, which training would drop and redo. The tests' whole output and
the files they leave in /logs/verifier are kept with the rollout's logs (`VerifyOptions.logs_dir`).
"""

from __future__ import annotations

import contextlib
import shutil
import tarfile
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
    VerifierImageMissing,
    VerifierTampered,
    VerifierTimeout,
)
from envs.reward import MAX_REWARD_FILE_BYTES, REWARD_JSON, REWARD_TXT, VERIFIER_DIR, parse_reward
from envs.sandbox import ExecResult, Preload, Sandbox, create_sandbox
from envs.tamper import protected_patterns, tampered_paths
from envs.task import TASK_TOML, Task, TaskStep, resolve_env
from envs.task_config import NetworkMode, VerifierSandbox, harbor_artifact_paths, verifier_network_declared
from envs.task_sandbox import task_sandbox_spec, wait_until_healthy

TESTS_DIR = "/tests"
TEST_SHELL = "/bin/bash"
HARDENED_ENV = {"PYTHONNOUSERSITE": "1", "BASH_ENV": "", "ENV": ""}
"""No user-site packages (start-up hooks under HOME) and no shell start-up files for the tests; a task's
own `[verifier] env` may still set these."""
OUTPUT_TAIL = 20_000
TEST_STDOUT = "test-stdout.txt"
TEST_STDERR = "test-stderr.txt"
KEPT_FILES_MAX_BYTES = 64 * 1024 * 1024
"""At most this much of what the tests leave in /logs/verifier is kept with the rollout's logs."""
LOGS_ARTIFACTS = "/logs/artifacts"
PASSWD_MAX_BYTES = 4 * 1024 * 1024


class VerifyOptions(BaseModel):
    """How one verification runs, beyond what task.toml says."""

    network: bool = False
    """The `--verifier-network` opt-in of whoever runs it: a `fresh` verification gets the host's network
    when the task declares one for it (Harbor's `network_mode` / `allow_internet`, public by default).
    Without it, verification never has a network."""
    image: str | None = None
    """The image the `fresh` verifier sandbox starts from instead of the agent's: a separate verifier
    environment's, or a prepared verifier layer (`envs.verifier_image`)."""
    extra_env: dict[str, str] = Field(default_factory=dict)
    """Set for the tests (a prepared layer's offline switches); the task's own env wins."""
    step: TaskStep | None = None
    """The step of a multi-step task being verified: its tests go over the task's, its script and
    timeout win."""
    keep_model: bool = False
    """Leave the agent's way to the model open (a multi-step task's next step needs it); the agent's
    processes are killed all the same, so nothing uses it while the tests run."""
    logs_dir: Path | None = None
    """Where the tests' output (test-stdout.txt, test-stderr.txt) and their /logs/verifier files are kept."""

    model_config = {"arbitrary_types_allowed": True}


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
    network: NetworkMode = NetworkMode.NONE
    """What the tests could reach."""
    image: str | None = None
    """The image the tests ran on, when not the agent's."""
    warnings: list[str] = Field(default_factory=list)
    """What was asked and not done (a declared network in an `agent` verification)."""


def _numeric_user(sandbox: Sandbox, task: Task, user: str | None) -> tuple[int, int]:
    """uid and gid of the tests' user (root when unset), from the sandbox's /etc/passwd read through
    the engine."""
    if user is None or user in ("", "root", "0"):
        return 0, 0
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


def _keep_output(sandbox: Sandbox, run: ExecResult, logs_dir: Path | None) -> None:
    """The tests' whole output as Harbor keeps it (test-stdout.txt; stderr beside it), and the files
    they left in /logs/verifier (a CTRF report, say), read through the engine, capped."""
    if logs_dir is None:
        return
    folder = logs_dir / "verifier"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / TEST_STDOUT).write_text(run.stdout)
    (folder / TEST_STDERR).write_text(run.stderr)
    with tempfile.TemporaryFile() as buf:
        try:
            if not sandbox.export(VERIFIER_DIR, buf, KEPT_FILES_MAX_BYTES):
                return
        except (ArchiveTooLarge, SandboxError) as exc:
            (folder / "NOT-KEPT.txt").write_text(f"{VERIFIER_DIR} was not kept: {exc}\n")
            return
        buf.seek(0)
        with tempfile.TemporaryDirectory(prefix="forge-verifier-logs-") as tmp:
            try:
                with tarfile.open(fileobj=buf) as tar:
                    tar.extractall(tmp, filter="data")  # no links out, no devices, no absolute names
            except (tarfile.TarError, OSError) as exc:
                (folder / "NOT-KEPT.txt").write_text(f"{VERIFIER_DIR} was not kept whole: {exc}\n")
            kept = Path(tmp) / "verifier"
            for item in kept.iterdir() if kept.is_dir() else ():
                if item.name in (TEST_STDOUT, TEST_STDERR) or item.is_symlink():
                    continue
                target = folder / item.name
                if target.is_dir():
                    shutil.rmtree(target)
                shutil.move(str(item), target)


def _run_tests(sandbox: Sandbox, task: Task, result: VerifierResult, options: VerifyOptions) -> None:
    """Prepare /tests and /logs/verifier through the engine, run the tests, read the reward."""
    verifier = task.config.verifier
    step = options.step
    timeout = step.config.verifier.timeout_sec if step is not None else verifier.timeout_sec
    env = verifier.env | (step.config.verifier.env if step is not None else {})
    user = (step.config.verifier.user if step is not None else None) or verifier.user
    started = time.monotonic()
    uid, gid = _numeric_user(sandbox, task, user)
    try:
        if not task.separate_verifier:  # a separate verifier's image holds its own /tests
            sandbox.make_dir(TESTS_DIR)
            if task.tests_dir.is_dir():
                sandbox.upload(task.tests_dir, TESTS_DIR)
            if step is not None and step.tests_dir is not None:
                sandbox.upload(step.tests_dir, TESTS_DIR)
        sandbox.make_dir(VERIFIER_DIR, uid, gid, 0o755)
    except SandboxError as exc:
        raise SandboxBroken(f"cannot prepare {TESTS_DIR} and {VERIFIER_DIR} for the tests: {exc}") from exc
    try:
        run = sandbox.exec(
            [TEST_SHELL, f"{TESTS_DIR}/test.sh"],
            timeout=timeout,
            env=HARDENED_ENV | options.extra_env | resolve_env(task, env, "verifier"),
            workdir=task.config.environment.workdir,
            user=user,
        )
        sandbox.kill_strays()  # nothing the tests started may write the reward after they end
    except SandboxError as exc:
        raise SandboxBroken(f"the tests could not run: {exc}") from exc
    result.exit_code, result.timed_out = run.exit_code, run.timed_out
    result.stdout, result.stderr = run.stdout[-OUTPUT_TAIL:], run.stderr[-OUTPUT_TAIL:]
    result.timings["tests"] = time.monotonic() - started
    _keep_output(sandbox, run, options.logs_dir)
    try:
        reward = parse_reward(
            _read_reward_file(sandbox, REWARD_JSON),
            _read_reward_file(sandbox, REWARD_TXT),
            verifier.reward_range,
        )
    except RewardError as exc:
        fault: RewardError = exc
        if run.timed_out:
            fault = VerifierTimeout(f"tests timed out after {timeout:.0f}s and left no reward ({exc})")
        result.error, result.error_class = str(fault), type(fault).__name__
    else:
        result.reward = reward.value
        result.details = reward.details


def _verifier_network(task: Task, options: VerifyOptions) -> NetworkMode:
    """None, unless whoever runs it opted in and the task declares a network for its tests."""
    if options.network and verifier_network_declared(task.config) == "public":
        return NetworkMode.HOST
    return NetworkMode.NONE


def _fresh_artifacts(task: Task, agent: Sandbox) -> list[str]:
    """A separate verifier environment gets what Harbor gives it (/logs/artifacts and the task's
    artifacts); a fresh sandbox of the task image gets `[verifier] artifacts` (default: the working
    directory) and Harbor's artifacts."""
    harbor = harbor_artifact_paths(task.config)
    if task.separate_verifier:
        return sorted({LOGS_ARTIFACTS, *harbor})
    paths = artifact_paths(task, agent.process_defaults().workdir)
    return paths + [p for p in harbor if p not in paths]


def _in_fresh_sandbox(
    agent: Sandbox, task: Task, backend: str | None, result: VerifierResult, options: VerifyOptions
) -> None:
    if task.separate_verifier and options.image is None:
        raise VerifierImageMissing(
            task.name, f"the separate verifier environment ({task.verifier_context.name}/) was not built"
        )
    started = time.monotonic()
    paths = _fresh_artifacts(task, agent)
    max_bytes = task.config.verifier.artifacts_max_mb * 1024 * 1024
    with tempfile.TemporaryDirectory(prefix="forge-artifacts-") as tmp:
        archive = Path(tmp) / "artifacts.tar"
        result.artifacts = pack_artifacts(agent, paths, max_bytes, archive)
        result.timings["artifacts"] = time.monotonic() - started
        started = time.monotonic()
        result.network = _verifier_network(task, options)
        result.image = options.image
        spec = task_sandbox_spec(
            task,
            options.image or agent.spec.image,
            role="verify",
            run=agent.spec.run,
            network=result.network,
            allow_host_network=result.network is NetworkMode.HOST,
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
        _run_tests(fresh, task, result, options)
    finally:
        fresh.stop()


def _in_agent_sandbox(sandbox: Sandbox, task: Task, result: VerifierResult, options: VerifyOptions) -> None:
    started = time.monotonic()
    if _verifier_network(task, options) is not NetworkMode.NONE:
        result.warnings.append(
            f"task '{task.name}': its tests declare a network, but [verifier] sandbox = 'agent' runs them "
            "in the agent's own sandbox, which never gets one; they ran with none"
        )
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
    try:
        _run_tests(sandbox, task, result, options)
    finally:
        if options.keep_model:  # the next step's agent must not find these tests
            with contextlib.suppress(SandboxError):
                sandbox.make_dir(TESTS_DIR)


def run_verifier(
    sandbox: Sandbox, task: Task, backend: str | None = None, options: VerifyOptions | None = None
) -> VerifierResult:
    """End the agent phase in `sandbox`, then run the hidden tests (see the module docstring).

    `backend` starts the fresh verifier sandbox. Raises only for the machinery (an engine that cannot
    start a sandbox, a task whose settings cannot work); what the agent caused is in the result."""
    options = options or VerifyOptions()
    started = time.monotonic()
    mode = VerifierSandbox.FRESH if task.separate_verifier else task.config.verifier.sandbox
    result = VerifierResult(sandbox=mode)
    try:
        if not options.keep_model:
            sandbox.cut_model()
        try:
            result.killed = sandbox.kill_strays()
        except SandboxError as exc:
            raise SandboxBroken(f"the agent's processes could not be stopped: {exc}") from exc
        result.timings["kill"] = time.monotonic() - started
        if mode is VerifierSandbox.FRESH:
            _in_fresh_sandbox(sandbox, task, backend, result, options)
        else:
            _in_agent_sandbox(sandbox, task, result, options)
    except AgentFault as exc:
        result.reward = task.config.verifier.reward_range[0]
        result.details = {}
        result.error, result.error_class = str(exc), type(exc).__name__
    result.duration_sec = time.monotonic() - started
    return result
