"""A set of rollouts (tasks by samples, each task with a harness) in a run directory: concurrent,
resumable.

Each finished rollout is appended to `<run_dir>/results.jsonl` as soon as it is done, so an interrupted
run loses nothing finished; running the same set again skips every rollout (its RolloutKey: task,
harness, sample, policy version) already scored and redoes only what is missing or failed for
infrastructure reasons. Calls are recorded by the proxy in `<run_dir>/calls.sqlite`, logs go to
`<run_dir>/rollouts/<rollout id>/`.

Rollouts run on envs.parallel's pool, which Ctrl-C (or SIGTERM, under the CLIs' `interruptible`)
interrupts at once: no queued rollout starts, the caller stops the live sandboxes (envs.cleanup), and a
rollout cut short that way is not written, so resuming redoes it rather than counting it as an
infrastructure failure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal, NamedTuple

from envs import cleanup
from envs.parallel import run_parallel
from envs.task import Task
from harnesses.bundle import Bundle
from harnesses.harness import Harness
from proxy.session import RunningProxy
from train.jsonl import append_jsonl, read_jsonl
from train.judge import WebJudge
from train.rollout import RolloutResult, run_rollout
from train.rollout_key import RolloutKey

RESULTS_FILE = "results.jsonl"
InfraPolicy = Literal["drop", "zero"]
"""What an infrastructure failure counts as when scoring: left out, or a reward of 0."""


def load_results(run_dir: Path) -> list[RolloutResult]:
    """Every rollout result of a run directory, in the order they finished (a torn last line, from a
    crash mid-write, is skipped)."""
    return read_jsonl(Path(run_dir) / RESULTS_FILE, RolloutResult)


def latest_by_sample(results: Sequence[RolloutResult]) -> dict[RolloutKey, RolloutResult]:
    """Each rollout's last result (a redone rollout replaces the failed one)."""
    return {r.key: r for r in results}


def scored_reward(result: RolloutResult, infra: InfraPolicy) -> float | None:
    """The reward a result counts for: None means left out."""
    if result.reward is not None:
        return result.reward
    if result.status == "infra-error" and infra == "drop":
        return None
    return 0.0


class ResultWriter:
    """Appends results to results.jsonl, one whole line per write, from many threads (a torn last line
    left by a crash is cut off first, so resuming never glues a result onto it)."""

    def __init__(self, run_dir: Path) -> None:
        self.path = Path(run_dir) / RESULTS_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def write(self, result: RolloutResult) -> None:
        append_jsonl(self.path, [result])


def run_rollout_set(
    tasks: Sequence[tuple[Task, str]],
    harness: Harness,
    bundle: Bundle,
    proxy: RunningProxy,
    *,
    samples: int,
    run_dir: Path,
    model: str,
    concurrency: int = 2,
    timeout: float | None = None,
    max_turns: int | None = None,
    on_done: Callable[[RolloutResult], None] = lambda result: None,
    policy_version: int | None = None,
    verifier_network: bool = False,
    judge: WebJudge | None = None,
) -> list[RolloutResult]:
    """Run `samples` rollouts of every (task, image) with one harness, skipping those results.jsonl
    already has scored; `policy_version` is the trained policy's version serving them (None for a fixed
    policy).

    Returns this set's results (old ones found plus new ones), ordered by task and sample. Rollouts of
    this run carry their chains (`RolloutResult.trajectory`); those found in results.jsonl do not."""
    return run_assigned_rollouts(
        [Assignment(task, image, harness, bundle) for task, image in tasks],
        proxy,
        samples=samples,
        run_dir=run_dir,
        model=model,
        concurrency=concurrency,
        timeout=timeout,
        max_turns=max_turns,
        on_done=on_done,
        policy_version=policy_version,
        verifier_network=verifier_network,
        judge=judge,
    )


class Assignment(NamedTuple):
    """A task (and its image) and the harness its rollouts run with."""

    task: Task
    image: str
    harness: Harness
    bundle: Bundle


def run_assigned_rollouts(
    assigned: Sequence[Assignment],
    proxy: RunningProxy,
    *,
    samples: int,
    run_dir: Path,
    model: str,
    concurrency: int = 2,
    timeout: float | None = None,
    max_turns: int | None = None,
    on_done: Callable[[RolloutResult], None] = lambda result: None,
    policy_version: int | None = None,
    verifier_network: bool = False,
    judge: WebJudge | None = None,
) -> list[RolloutResult]:
    """`run_rollout_set` where each task comes with its own harness (a task may come more than once, with
    other harnesses): one pool, so a run that mixes harnesses keeps every slot busy.

    Ordered as `assigned`, then by sample."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    done = {key: r for key, r in latest_by_sample(load_results(run_dir)).items() if r.status != "infra-error"}
    writer = ResultWriter(run_dir)
    wanted = [
        (a, RolloutKey(task=a.task.name, harness=a.harness.name, sample=k, policy_version=policy_version))
        for a in assigned
        for k in range(samples)
    ]
    found = [done[key] for _, key in wanted if key in done]
    todo = [item for item in wanted if item[1] not in done]
    for result in found:
        on_done(result)

    def one(item: tuple[Assignment, RolloutKey]) -> RolloutResult:
        a, key = item
        result = run_rollout(
            a.task,
            a.image,
            a.harness,
            a.bundle,
            proxy,
            model=model,
            logs_root=run_dir / "rollouts",
            sample=key.sample,
            policy_version=key.policy_version,
            run=run_dir.name,
            timeout=timeout,
            max_turns=max_turns,
            verifier_network=verifier_network,
            judge=judge,
        )
        if not cleanup.shutting_down():  # cut short by Ctrl-C / SIGTERM: not an outcome, redone on resume
            writer.write(result)
        return result

    new = run_parallel(one, todo, concurrency, on_done)
    order = {(a.task.name, a.harness.name): i for i, a in enumerate(assigned)}
    return sorted([*found, *new], key=lambda r: (order[(r.task, r.harness)], r.sample))
