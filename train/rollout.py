"""One rollout: a task's sandbox (network model-only: its relay passes only this rollout's model routes),
a harness run headless in it under the task's agent timeout, then the hidden tests. A harness crash or
timeout is recorded as such and the verifier still runs. Only a failure of the machinery before the
harness ran (image, sandbox, engine, harness launch), or a harness that never got an answer from its
model (a wrong route, a refused request), is an infrastructure error: once the agent has run, whatever
it broke is scored (see envs.verifier). An unexpected exception is recorded on the rollout with its class
and traceback and never ends the set.

Before the sandbox starts, the rollout tells the proxy which task it is of (its per-rollout config),
for engines that answer per task (the oracle); its id (train.rollout_key) only names it. When it ends,
its chains are built from the proxy's records once and carried on the result, and the proxy's record
of its reward is replaced by the verifier's outcome, whatever was posted to it before.
"""

from __future__ import annotations

import json
import time
import traceback
from pathlib import Path
from typing import Literal

import httpx
from pydantic import BaseModel, Field, model_validator

from envs import labels
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
from harnesses.errors import HarnessNoModel, HarnessNotStarted
from harnesses.harness import Harness
from harnesses.headless import HarnessRun, run_headless
from proxy.app import KEY_PREFIX
from proxy.blob_store import BlobStore
from proxy.records import CallStatus
from proxy.session import RunningProxy
from proxy.sft import call_answer
from proxy.trajectory import Trajectory, build_chains
from train.errors import JudgeError, RolloutNotConfigured
from train.judge import JudgeVerdict, WebJudge
from train.pass_at_k import passed
from train.rollout_key import RolloutKey

RESULT_FILE = "result.json"
CONTROL_TIMEOUT_SEC = 30.0
"""How long the proxy's control app may take to take a rollout's config."""

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
    """What one rollout did, as written to `<logs_dir>/result.json` (and a line of its set's results.jsonl).

    Its outcome is `status` and `reward`, which agree (a reward exactly when scored); `passed` is derived
    from the reward. The proxy's record of the rollout's reward is overwritten with this one when the
    rollout ends; `verifier.reward` is the last step's raw verdict it was computed from."""

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
    policy_version: int | None = None
    """The version of the policy being trained that played it (None: a fixed policy)."""
    reward: float | None = None
    """The rollout's reward (a multi-step task's combines its steps', envs.steps); None unless scored."""
    harness_run: HarnessRun | None = None
    """The (last step's) harness run."""
    verifier: VerifierResult | None = None
    """The (last step's) verification."""
    steps: list[StepOutcome] = Field(default_factory=list)
    """Each step reached, for a multi-step task; `reward` combines theirs (envs.steps)."""
    judge: JudgeVerdict | None = None
    """The judge's verdict, for a `[verifier] judge = true` task whose tests passed (train.judge)."""
    error: str | None = None
    error_class: str | None = None
    """For infra-error: the exception class (SandboxStartError, BuildError, HarnessNotStarted, ...); for
    a scored rollout whose agent broke verification: the AgentFault (VerifierTampered, SandboxBroken, ...)."""
    traceback: str | None = None
    """Set when the rollout failed in a way the code did not expect."""
    calls: int = 0
    """Model calls the proxy recorded for this rollout."""
    chains: int = 0
    """Token-exact trajectories built from those calls."""
    timings: dict[str, float] = Field(default_factory=dict)
    logs_dir: Path
    trajectory: Trajectory | None = Field(default=None, exclude=True)
    """The chains themselves, as built when the rollout ended (in memory only: a result read back from
    disk has None, and its chains are in the proxy's records)."""

    @model_validator(mode="after")
    def _one_outcome(self) -> RolloutResult:
        if (self.status == "scored") != (self.reward is not None):
            raise ValueError(
                f"rollout {self.rollout_id!r}: status {self.status!r} with reward {self.reward!r} (a reward "
                "comes with status 'scored', and only with it)"
            )
        return self

    @property
    def key(self) -> RolloutKey:
        return RolloutKey(
            task=self.task, harness=self.harness, sample=self.sample, policy_version=self.policy_version
        )

    @property
    def passed(self) -> bool:
        return passed(self.reward)


def run_rollout(
    task: Task,
    image: str,
    harness: Harness,
    bundle: Bundle,
    proxy: RunningProxy,
    *,
    model: str,
    logs_root: Path,
    sample: int = 0,
    policy_version: int | None = None,
    rollout_id: str | None = None,
    run: str = "",
    timeout: float | None = None,
    max_turns: int | None = None,
    trace: bool = False,
    backend: str | None = None,
    verifier_network: bool = False,
    judge: WebJudge | None = None,
) -> RolloutResult:
    """Run `harness` on `task` once (each step in turn, for a multi-step task), score it, attach the reward
    to the proxy's record of the rollout; the result carries the chains built from its calls. The id is
    the key's (`sample`, `policy_version`: RolloutKey) unless the caller gives one. `verifier_network` is
    the opt-in that lets the tests have the network their task declares (envs.verifier.VerifyOptions).
    A `[verifier] judge = true` task whose tests pass passes only if `judge` says so too."""
    key = RolloutKey(task=task.name, harness=harness.name, sample=sample, policy_version=policy_version)
    rollout_id = rollout_id or key.new_rollout_id()
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
        policy_version=policy_version,
        logs_dir=logs_dir,
    )
    started = time.monotonic()
    try:
        _configure(proxy, rollout_id, task)
        spec = task_sandbox_spec(
            task, image, role="agent", run=run, network=NetworkMode.MODEL_ONLY, model_endpoint=proxy.endpoint
        )
        spec.model_routes = rollout_routes(rollout_id)
        spec.mounts.append(bundle.mount())
        spec.labels[labels.HARNESS] = harness.name
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
                calls_before = len(proxy.store.calls(rollout_id))
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
                    browser=result.domain == "browser",
                )
                result.harness_run = harness_run
                result.timings["agent_sec"] = result.timings.get("agent_sec", 0.0) + harness_run.duration_sec
                unanswered = _never_answered(proxy, rollout_id, since=calls_before)
                if harness_run.status == "not-started":
                    result.error, result.error_class = harness_run.error, HarnessNotStarted.__name__
                    return _finish(result, proxy, task, harness, started)
                if unanswered is not None:
                    result.error = _no_model_message(harness_run, unanswered, step)
                    result.error_class = HarnessNoModel.__name__
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
            # scored before the sandbox is removed: a container the agent made hard to remove (a fork
            # bomb) is recorded as an error beside its score, never turns its score into an infra error
            result.reward = rewards[0] if not task.steps else combine_rewards(task, rewards)
            result.status = "scored"
    except (EnvsError, RolloutNotConfigured) as exc:
        result.error, result.error_class = str(exc), type(exc).__name__
    except Exception as exc:  # a bug of ours, or of a library: recorded here, the set goes on
        result.status, result.reward = "infra-error", None
        result.error, result.error_class = str(exc), type(exc).__name__
        result.traceback = traceback.format_exc()
    if result.status == "scored" and task.config.verifier.judge and passed(result.reward or 0.0):
        try:  # after the sandbox is gone: a judge model may take minutes
            result.judge = _judged(judge, task, proxy, rollout_id, result.harness_run)
            result.reward = result.reward if result.judge.success else 0.0
        except JudgeError as exc:
            result.status, result.reward = "verifier-error", None
            result.error, result.error_class = str(exc), "JudgeError"
    return _finish(result, proxy, task, harness, started)


def _judged(
    judge: WebJudge | None, task: Task, proxy: RunningProxy, rollout_id: str, run: HarnessRun | None
) -> JudgeVerdict:
    """The judge's verdict on a rollout: the screenshots the harness sent the model (distinct, in order),
    the model's turns as its actions, the harness's final message as its answer."""
    if judge is None:
        raise JudgeError(f"task {task.name} needs a judge ([verifier] judge = true); none is configured")
    blobs = BlobStore.beside(proxy.store.path)
    seen: set[str] = set()
    screenshots: list[bytes] = []
    actions: list[str] = []
    for call in proxy.store.calls(rollout_id):
        if call.status is not CallStatus.OK:
            continue
        for image in call.images:
            if image.sha256 not in seen:
                seen.add(image.sha256)
                screenshots.append(blobs.get(image.sha256))
        turn = call_answer(call)
        if turn is not None:
            said = [turn.content.strip()] if turn.content.strip() else []
            actions.append(" ".join(said + [f"{c.name}({c.arguments})" for c in turn.tool_calls]))
    return judge.judge(task.instruction, run.final_message if run else None, actions, screenshots)


def _finish(
    result: RolloutResult, proxy: RunningProxy, task: Task, harness: Harness, started: float
) -> RolloutResult:
    result.timings["total_sec"] = time.monotonic() - started
    _record_outcome(proxy, result, task, harness)
    (result.logs_dir / RESULT_FILE).write_text(json.dumps(result.model_dump(mode="json"), indent=2) + "\n")
    return result


def _never_answered(proxy: RunningProxy, rollout_id: str, since: int = 0) -> int | None:
    """How many calls the harness made after the rollout's first `since` calls (this run of it: a step
    of a multi-step task is a run of its own), when none of them was answered (None otherwise). A
    harness's first call comes before the model has said anything, so a run without one answered call
    is the machinery failing (a wrong route, a refused request shape, an engine down), never the agent's
    doing: scoring it 0 would train on the infrastructure."""
    calls = proxy.store.calls(rollout_id)[since:]
    if any(call.status is CallStatus.OK for call in calls):
        return None
    return len(calls)


def _no_model_message(run: HarnessRun, calls: int, step: TaskStep | None = None) -> str:
    run_of = "this rollout" if step is None else f"step {step.name!r}"
    seen = (
        f"the proxy recorded no call for {run_of} (is the harness's base URL its route?)"
        if calls == 0
        else f"none of the {calls} call(s) recorded for {run_of} was answered (see their errors there)"
    )
    tail = (run.stderr_tail or run.stdout_tail).strip()[-400:]
    return (
        f"the harness never got an answer from its model: {seen}; it ended {run.status} "
        + (f"(exit {run.exit_code})" if run.exit_code is not None else "")
        + (f": {tail}" if tail else "")
    )


def _configure(proxy: RunningProxy, rollout_id: str, task: Task) -> None:
    """Tell the proxy which task the rollout is of (`PUT /rollouts/{id}/config` on its control socket),
    for engines that answer per task (the oracle). Refused or unreachable: RolloutNotConfigured."""
    transport = httpx.HTTPTransport(uds=str(proxy.control_socket))
    try:
        with httpx.Client(transport=transport, base_url="http://proxy", timeout=CONTROL_TIMEOUT_SEC) as http:
            response = http.put(f"/rollouts/{rollout_id}/config", json={"task": task.name})
    except httpx.HTTPError as exc:
        raise RolloutNotConfigured(f"the proxy's control socket {proxy.control_socket}: {exc}") from exc
    if response.is_error:
        raise RolloutNotConfigured(
            f"the proxy refused the rollout's config (HTTP {response.status_code}): {response.text[:400]}"
        )


def _record_outcome(proxy: RunningProxy, result: RolloutResult, task: Task, harness: Harness) -> None:
    """Build the rollout's chains (once: the result carries them), count its calls, and make the store's
    reward the verifier's outcome."""
    store = proxy.store
    try:
        calls = store.calls(result.rollout_id)
        result.calls = len(calls)
        result.trajectory = build_chains(calls, result.rollout_id) if calls else None
        result.chains = len(result.trajectory.chains) if result.trajectory is not None else 0
        rewards = None if result.reward is None else {"reward": result.reward}
        outcome = {"task": task.name, "harness": harness.name, "status": result.status}
        if result.error_class:
            outcome["error_class"] = result.error_class
        store.set_rollout_reward(result.rollout_id, rewards, outcome)
    except Exception as exc:
        result.error = result.error or f"the proxy's records of this rollout could not be read: {exc}"
        result.traceback = result.traceback or traceback.format_exc()
