"""Harbor's multi-step tasks (`[[steps]]`): one sandbox for all steps, each step prepared (its workdir/
files put in the working directory, its setup.sh run, its healthcheck passed), acted on and verified in
turn; the rollout's reward combines the steps'.

Where Harbor leaves it open or differs, we choose, for training: a step that was never reached (an
earlier one missed its `min_reward`) counts as the bottom of `[verifier] reward_range`, so stopping early
never scores better than getting further; `multi_step_reward_strategy = "final"` takes the last step
reached (Harbor's rule), "mean" (the default) the mean over all steps.
"""

from __future__ import annotations

from collections.abc import Sequence

from envs.errors import SandboxStartError
from envs.sandbox import Sandbox
from envs.task import Task, TaskStep
from envs.task_sandbox import run_healthcheck

SETUP_SCRIPT = "setup.sh"
SETUP_TIMEOUT_SEC = 600.0


def prepare_step(sandbox: Sandbox, task: Task, step: TaskStep, workdir: str) -> None:
    """Put the step's workdir/ files in the working directory, run its setup.sh there (as the agent's
    user), then wait for its healthcheck; what is running then is the baseline the step's end spares.
    A failure is the task's, raised as SandboxStartError."""
    if step.workdir_dir is not None:
        sandbox.upload(step.workdir_dir, workdir)
        if (step.workdir_dir / SETUP_SCRIPT).is_file():
            run = sandbox.exec(
                ["bash", SETUP_SCRIPT],
                timeout=SETUP_TIMEOUT_SEC,
                workdir=workdir,
                user=step.config.agent.user or task.config.agent.user,
            )
            if not run.ok:
                tail = (run.stderr or run.stdout).strip()[-500:]
                raise SandboxStartError(
                    f"task '{task.name}': step '{step.name}': {SETUP_SCRIPT} exited {run.exit_code}"
                    + (f": {tail}" if tail else "")
                )
    if step.config.healthcheck is not None:
        run_healthcheck(sandbox, task, step.config.healthcheck)
    sandbox.mark_baseline()  # what setup.sh started is the step's own; the last step's agent is gone


def step_timeout(task: Task, step: TaskStep | None) -> float:
    """The agent timeout of a step (the task's when the step sets none)."""
    if step is not None and step.config.agent.timeout_sec is not None:
        return step.config.agent.timeout_sec
    return task.config.agent.timeout_sec


def min_reward_met(step: TaskStep, reward: float, details: dict[str, float]) -> bool:
    """Harbor's `min_reward`: a number checks the step's reward; a table checks each key (a key the tests
    did not write counts as missing the bar)."""
    bar = step.config.min_reward
    if bar is None:
        return True
    if isinstance(bar, dict):
        return all(details.get(key, float("-inf")) >= value for key, value in bar.items())
    return reward >= bar


def combine_rewards(task: Task, rewards: Sequence[float]) -> float:
    """The rollout's reward from the rewards of the steps reached, in order (see the module docstring)."""
    low = task.config.verifier.reward_range[0]
    if not rewards:
        return low
    if task.config.multi_step_reward_strategy == "final":
        return rewards[-1]
    reached = list(rewards) + [low] * (len(task.steps) - len(rewards))
    return sum(reached) / len(reached)
