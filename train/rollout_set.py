"""A set of rollouts (tasks by samples, one harness) in a run directory: run concurrently, resumable.

Each finished rollout is appended to `<run_dir>/results.jsonl` as soon as it is done, so an interrupted
run loses nothing finished; running the same set again skips every (task, sample) already scored and
redoes only what is missing or failed for infrastructure reasons. Calls are recorded by the proxy in
`<run_dir>/calls.sqlite`, logs go to `<run_dir>/rollouts/<rollout id>/`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Literal

from envs.task import Task
from harnesses.bundle import Bundle
from harnesses.harness import Harness
from proxy.session import ProxySession
from train.rollout import RolloutResult, run_rollout

RESULTS_FILE = "results.jsonl"
InfraPolicy = Literal["drop", "zero"]
"""What an infrastructure failure counts as when scoring: left out, or a reward of 0."""


def load_results(run_dir: Path) -> list[RolloutResult]:
    """Every rollout result of a run directory, in the order they finished (a torn last line, from a
    crash mid-write, is skipped)."""
    path = Path(run_dir) / RESULTS_FILE
    if not path.is_file():
        return []
    lines = path.read_text().splitlines()
    results = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            results.append(RolloutResult.model_validate_json(line))
        except ValueError as exc:
            if number == len(lines):
                continue
            raise ValueError(f"{path}:{number}: not a rollout result: {exc}") from exc
    return results


def latest_by_sample(results: Sequence[RolloutResult]) -> dict[tuple[str, str, int], RolloutResult]:
    """(task, harness, sample) -> its last result (a redone rollout replaces the failed one)."""
    return {(r.task, r.harness, r.sample): r for r in results}


def scored_reward(result: RolloutResult, infra: InfraPolicy) -> float | None:
    """The reward a result counts for: None means left out."""
    if result.reward is not None:
        return result.reward
    if result.status == "infra-error" and infra == "drop":
        return None
    return 0.0


class ResultWriter:
    """Appends results to results.jsonl, one whole line per write, from many threads."""

    def __init__(self, run_dir: Path) -> None:
        self.path = Path(run_dir) / RESULTS_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def write(self, result: RolloutResult) -> None:
        line = json.dumps(result.model_dump(mode="json")) + "\n"
        with self._lock, open(self.path, "a") as f:
            f.write(line)
            f.flush()


def run_rollout_set(
    tasks: Sequence[tuple[Task, str]],
    harness: Harness,
    bundle: Bundle,
    proxy: ProxySession,
    *,
    samples: int,
    run_dir: Path,
    model: str,
    concurrency: int = 2,
    timeout: float | None = None,
    max_turns: int | None = None,
    on_done: Callable[[RolloutResult], None] = lambda result: None,
    rollout_ids: Callable[[Task, int], str] | None = None,
    verifier_network: bool = False,
) -> list[RolloutResult]:
    """Run `samples` rollouts of every (task, image), skipping those results.jsonl already has scored.

    Returns this set's results (old ones found plus new ones), ordered by task and sample."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    done = {key: r for key, r in latest_by_sample(load_results(run_dir)).items() if r.status != "infra-error"}
    writer = ResultWriter(run_dir)
    todo = [
        (task, image, k)
        for task, image in tasks
        for k in range(samples)
        if (task.name, harness.name, k) not in done
    ]
    found = [
        done[(task.name, harness.name, k)]
        for task, _ in tasks
        for k in range(samples)
        if (task.name, harness.name, k) in done
    ]
    for result in found:
        on_done(result)

    def one(task: Task, image: str, k: int) -> RolloutResult:
        result = run_rollout(
            task,
            image,
            harness,
            bundle,
            proxy,
            model=model,
            logs_root=run_dir / "rollouts",
            rollout_id=rollout_ids(task, k) if rollout_ids else None,
            sample=k,
            run=run_dir.name,
            timeout=timeout,
            max_turns=max_turns,
            verifier_network=verifier_network,
        )
        writer.write(result)
        return result

    new: list[RolloutResult] = []
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="rollout") as pool:
        futures = [pool.submit(one, task, image, k) for task, image, k in todo]
        for future in as_completed(futures):
            result = future.result()
            new.append(result)
            on_done(result)
    order = {task.name: i for i, (task, _) in enumerate(tasks)}
    return sorted([*found, *new], key=lambda r: (order[r.task], r.sample))
