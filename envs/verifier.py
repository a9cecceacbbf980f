"""Run a task's hidden tests in a sandbox and read the reward.

The tests reach the sandbox only now, after the agent (or the solution) is done: `tests/` is uploaded to
/tests, the model relay is cut so the tests run with no network, `bash /tests/test.sh` runs under the
verifier timeout, and the reward file is parsed. A missing, empty or garbage reward is recorded as its
own error class, never raised out of here as a crash.
"""

from __future__ import annotations

import time

from pydantic import BaseModel, Field

from envs.errors import RewardError
from envs.reward import REWARD_JSON, REWARD_TXT, VERIFIER_DIR, parse_reward
from envs.sandbox import Sandbox
from envs.task import Task
from envs.task_sandbox import resolve_env

TESTS_DIR = "/tests"


class VerifierResult(BaseModel):
    """The outcome of one verification."""

    reward: float | None = None
    """None when no usable reward was produced (see error)."""
    details: dict[str, float] = Field(default_factory=dict)
    error: str | None = None
    error_class: str | None = None
    """RewardFileMissing, RewardFileEmpty, RewardFileInvalid, VerifierTimeout."""
    exit_code: int | None = None
    timed_out: bool = False
    duration_sec: float = 0.0
    stdout: str = ""
    stderr: str = ""


def _read(sandbox: Sandbox, path: str) -> str | None:
    result = sandbox.exec(
        ["/bin/sh", "-c", f'[ -f "{path}" ] || exit 3; cat "{path}"'], timeout=60, user="root"
    )
    if result.exit_code == 3:
        return None
    return result.stdout


def run_verifier(sandbox: Sandbox, task: Task) -> VerifierResult:
    """Upload the tests, run them, parse the reward."""
    started = time.monotonic()
    sandbox.cut_model()
    verifier = task.config.verifier
    sandbox.exec(
        [
            "/bin/sh",
            "-c",
            f"rm -rf {TESTS_DIR} {VERIFIER_DIR} && mkdir -p {VERIFIER_DIR} && chmod 777 {VERIFIER_DIR}",
        ],
        timeout=60,
        user="root",
    )
    sandbox.upload(task.tests_dir, TESTS_DIR)
    run = sandbox.exec(
        ["bash", f"{TESTS_DIR}/test.sh"],
        timeout=verifier.timeout_sec,
        env=resolve_env(task, verifier.env, "verifier"),
        workdir=task.config.environment.workdir,
        user=verifier.user,
    )
    result = VerifierResult(
        exit_code=run.exit_code,
        timed_out=run.timed_out,
        stdout=run.stdout[-20000:],
        stderr=run.stderr[-20000:],
    )
    try:
        reward = parse_reward(_read(sandbox, REWARD_JSON), _read(sandbox, REWARD_TXT))
    except RewardError as exc:
        result.error = str(exc)
        result.error_class = type(exc).__name__
        if run.timed_out:
            result.error = f"tests timed out after {verifier.timeout_sec:.0f}s and left no reward"
            result.error_class = "VerifierTimeout"
    else:
        result.reward = reward.value
        result.details = reward.details
    result.duration_sec = time.monotonic() - started
    return result
