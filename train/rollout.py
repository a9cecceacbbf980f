"""One rollout: a task's sandbox (network model-only: its relay passes only this rollout's model routes),
a harness run headless in it under the task's agent timeout, then the hidden tests. A harness crash or
timeout is recorded as such and the verifier still runs. Only a failure of the machinery before the
harness ran (image, sandbox, engine, harness launch), or a harness that never got an answer from its
model (a wrong route, a refused request), is an infrastructure error: once the agent has run, whatever
it broke is scored (see envs.verifier). An unexpected exception is recorded on the rollout with its class
and traceback and never ends the set. The proxy's record of the rollout's reward is replaced by
the verifier's outcome, whatever was posted to it before.
"""

from __future__ import annotations

import json
import time
import traceback
import uuid
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from envs.errors import EnvsError
from envs.model_relay import rollout_routes
from envs.sandbox import create_sandbox
from envs.steps import combine_rewards, min_reward_met, prepare_step, step_timeout
from envs.task import Task, TaskStep
from envs.task_config import NetworkMode
from envs.task_sandbox import task_sandbox_spec, wait_until_healthy
from envs.verifier import VerifierResult, run_verifier
from envs.verifier_image import verify_options
from harnesses.bundle import Bundle
from harnesses.harness import Harness
from harnesses.headless import HarnessRun, run_headless
from proxy.app import KEY_PREFIX
from proxy.engines.oracle import ROLLOUT_TASK_SEPARATOR
from proxy.records import CallStatus
from proxy.session import ProxySession
from proxy.trajectory import build_chains

HARNESS_LABEL = "openforge.harness"
RESULT_FILE = "result.json"

RolloutStatus = Literal["scored", "verifier-error", "infra-error"]
"""scored: the hidden tests gave a reward. verifier-error: they ran but left no usable reward (the agent
may have broken what they need). infra-error: the machinery failed (image, sandbox, engine, harness
launch) and the rollout says nothing about the agent."""


class StepOutcome(BaseModel):
    """One step of a multi-step task: the agent's run and its tests."""

    name: str
    harness_run: HarnessRun
    verifier: VerifierResult


class RolloutResult(BaseModel):
    """What one rollout did, as written to `<logs_dir>/result.json`."""

    rollout_id: str
    task: str
    domain: str | None = None
    """The task's `[metadata] domain`, else its catalog folder's name."""
    harness: str
    harness_version: str
    model: str
    status: RolloutStatus
    sample: int = 0
    """Which of the task's samples this is (rollouts of one task with one harness form a group)."""
    reward: float | None = None
    harness_run: HarnessRun | None = None
    """The (last step's) harness run."""
    verifier: VerifierResult | None = None
    """The (last step's) verification."""
    steps: list[StepOutcome] = Field(default_factory=list)
    """Each step reached, for a multi-step task; `reward` combines theirs (envs.steps)."""
    error: str | None = None
    error_class: str | None = None
    """For infra-error: the exception class (SandboxStartError, BuildError, ...); for a scored rollout
    whose agent broke verification: the AgentFault (VerifierTampered, SandboxBroken, ...)."""
    traceback: str | None = None
    """Set when the rollout failed in a way the code did not expect."""
    calls: int = 0
    """Model calls the proxy recorded for this rollout."""
    chains: int = 0
    """Token-exact trajectories built from those calls."""
    timings: dict[str, float] = Field(default_factory=dict)
    logs_dir: Path


def new_rollout_id(task: Task, harness: Harness) -> str:
    """`<task slug>--<harness>-<random>`: names the task for the oracle engine, stays unique, and is one
    safe path component (the rollout's log folder and model route are built from it)."""
    return f"{task.slug}{ROLLOUT_TASK_SEPARATOR}{harness.name}-{uuid.uuid4().hex[:8]}"


def run_rollout(
    task: Task,
    image: str,
    harness: Harness,
    bundle: Bundle,
    proxy: ProxySession,
    *,
    model: str,
    logs_root: Path,
    rollout_id: str | None = None,
    sample: int = 0,
    run: str = "",
    timeout: float | None = None,
    max_turns: int | None = None,
    trace: bool = False,
    backend: str = "docker",
    verifier_network: bool = False,
) -> RolloutResult:
    """Run `harness` on `task` once (each step in turn, for a multi-step task), score it, attach the reward
    to the proxy's record of the rollout. `verifier_network` is the opt-in that lets the tests have the
    network their task declares (envs.verifier.VerifyOptions)."""
    rollout_id = rollout_id or new_rollout_id(task, harness)
    logs_dir = logs_root / rollout_id
    logs_dir.mkdir(parents=True, exist_ok=True)
    result = RolloutResult(
        rollout_id=rollout_id,
        task=task.name,
        domain=task.config.metadata.domain or task.path.parent.name,
        harness=harness.name,
        harness_version=harness.version,
        model=model,
        status="infra-error",
        sample=sample,
        logs_dir=logs_dir,
    )
    started = time.monotonic()
    try:
        spec = task_sandbox_spec(
            task, image, role="agent", run=run, network=NetworkMode.MODEL_ONLY, model_endpoint=proxy.endpoint
        )
        spec.model_routes = rollout_routes(rollout_id)
        spec.mounts.append(bundle.mount())
        spec.labels[HARNESS_LABEL] = harness.name
        verify = verify_options(task, image, verifier_network)
        with create_sandbox(spec, backend) as sandbox:
            wait_until_healthy(sandbox, task)
            result.timings["sandbox_start_sec"] = time.monotonic() - started
            workdir = sandbox.process_defaults().workdir
            steps: list[TaskStep | None] = list(task.steps) or [None]
            rewards: list[float] = []
            for index, step in enumerate(steps):
                last = index == len(steps) - 1
                step_logs = logs_dir if step is None else logs_dir / "steps" / step.name
                if step is not None:
                    prepare_step(sandbox, task, step, workdir)
                harness_run = run_headless(
                    sandbox,
                    harness,
                    bundle,
                    instruction=task.instruction if step is None else step.instruction,
                    model=model,
                    base_url=f"http://127.0.0.1:{spec.model_port}/rollouts/{rollout_id}",
                    api_key=f"{KEY_PREFIX}{rollout_id}",
                    timeout=timeout or step_timeout(task, step),
                    workdir=workdir,
                    user=(step.config.agent.user if step is not None else None) or task.config.agent.user,
                    logs_dir=step_logs,
                    max_turns=max_turns,
                    trace=trace,
                )
                result.harness_run = harness_run
                result.timings["agent_sec"] = result.timings.get("agent_sec", 0.0) + harness_run.duration_sec
                unanswered = _never_answered(proxy, rollout_id)
                if harness_run.status == "not-started":
                    result.error, result.error_class = harness_run.error, "HarnessNotStarted"
                    return _finish(result, proxy, task, harness, started)
                if unanswered is not None:
                    result.error = _no_model_message(harness_run, unanswered)
                    result.error_class = "HarnessNoModel"
                    return _finish(result, proxy, task, harness, started)
                verify_started = time.monotonic()
                options = verify.model_copy(
                    update={"step": step, "keep_model": not last, "logs_dir": step_logs}
                )
                verdict = run_verifier(sandbox, task, backend, options)
                result.timings["verify_sec"] = result.timings.get("verify_sec", 0.0) + (
                    time.monotonic() - verify_started
                )
                result.verifier = verdict
                result.error, result.error_class = verdict.error, verdict.error_class
                if step is not None:
                    result.steps.append(
                        StepOutcome(name=step.name, harness_run=harness_run, verifier=verdict)
                    )
                if verdict.reward is None:
                    result.status = "verifier-error"
                    return _finish(result, proxy, task, harness, started)
                rewards.append(verdict.reward)
                if step is not None and not min_reward_met(step, verdict.reward, verdict.details):
                    break
            result.reward = rewards[0] if not task.steps else combine_rewards(task, rewards)
            result.status = "scored"
    except EnvsError as exc:
        result.error, result.error_class = str(exc), type(exc).__name__
    except Exception as exc:  # a bug of ours, or of a library: recorded here, the set goes on
        result.status, result.reward = "infra-error", None
        result.error, result.error_class = str(exc), type(exc).__name__
        result.traceback = traceback.format_exc()
    return _finish(result, proxy, task, harness, started)


def _finish(
    result: RolloutResult, proxy: ProxySession, task: Task, harness: Harness, started: float
) -> RolloutResult:
    result.timings["total_sec"] = time.monotonic() - started
    _record_outcome(proxy, result, task, harness)
    (result.logs_dir / RESULT_FILE).write_text(json.dumps(result.model_dump(mode="json"), indent=2) + "\n")
    return result


def _never_answered(proxy: ProxySession, rollout_id: str) -> int | None:
    """How many calls of the rollout the proxy saw, when none of them was answered (None otherwise, or
    when nothing is recorded). A harness's first call comes before the model has said anything, so a
    rollout without one answered call is the machinery failing (a wrong route, a refused request shape,
    an engine down), never the agent's doing: scoring it 0 would train on the infrastructure."""
    if proxy.store is None:
        return None
    calls = proxy.store.calls(rollout_id)
    if any(call.status is CallStatus.OK for call in calls):
        return None
    return len(calls)


def _no_model_message(run: HarnessRun, calls: int) -> str:
    seen = (
        "the proxy recorded no call for this rollout (is the harness's base URL its route?)"
        if calls == 0
        else f"none of the {calls} call(s) the proxy recorded was answered (see their errors there)"
    )
    tail = (run.stderr_tail or run.stdout_tail).strip()[-400:]
    return (
        f"the harness never got an answer from its model: {seen}; it ended {run.status} "
        + (f"(exit {run.exit_code})" if run.exit_code is not None else "")
        + (f": {tail}" if tail else "")
    )


def _record_outcome(proxy: ProxySession, result: RolloutResult, task: Task, harness: Harness) -> None:
    """Count the rollout's calls and chains, and make the store's reward the verifier's outcome."""
    store = proxy.store
    if store is None:
        return
    try:
        calls = store.calls(result.rollout_id)
        result.calls = len(calls)
        result.chains = len(build_chains(calls, result.rollout_id).chains) if calls else 0
        rewards = None if result.reward is None else {"reward": result.reward}
        outcome = {"task": task.name, "harness": harness.name, "status": result.status}
        if result.error_class:
            outcome["error_class"] = result.error_class
        store.set_rollout_reward(result.rollout_id, rewards, outcome)
    except Exception as exc:
        result.error = result.error or f"the proxy's records of this rollout could not be read: {exc}"
        result.traceback = result.traceback or traceback.format_exc()
