"""The policy half of the test stage: K rollouts of each verified task by an open policy, through a
harness and the proxy (the same rollout sets `forge-train` runs), and the band of pass rates a task is
kept in (default: strictly between 0 and 1, the tasks GRPO can learn from)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, model_validator

from envs.task import Task
from train.pass_at_k import passed
from train.rollout import RolloutResult
from train.rollout_set import run_rollout_set


class Band(BaseModel):
    """The pass rates a task is kept at: `lo < rate < hi`, or `lo <= rate <= hi` when `inclusive`."""

    lo: float = 0.0
    hi: float = 1.0
    inclusive: bool = False

    @model_validator(mode="after")
    def _order(self) -> Band:
        if not 0.0 <= self.lo <= self.hi <= 1.0:
            raise ValueError(f"--band {self.lo},{self.hi}: needs 0 <= LO <= HI <= 1")
        return self

    @classmethod
    def parse(cls, text: str) -> Band:
        """`LO,HI` (exclusive, the default's meaning) or `[LO,HI]` (inclusive)."""
        inclusive = text.startswith("[") and text.endswith("]")
        parts = text.strip("[]()").split(",")
        if len(parts) != 2:
            raise ValueError(f"--band {text!r}: write LO,HI (e.g. 0,1) or [LO,HI] for an inclusive band")
        try:
            lo, hi = float(parts[0]), float(parts[1])
        except ValueError:
            raise ValueError(f"--band {text!r}: LO and HI must be numbers") from None
        return cls(lo=lo, hi=hi, inclusive=inclusive)

    def holds(self, rate: float) -> bool:
        return self.lo <= rate <= self.hi if self.inclusive else self.lo < rate < self.hi

    def __str__(self) -> str:
        return f"[{self.lo:g},{self.hi:g}]" if self.inclusive else f"({self.lo:g},{self.hi:g})"


@dataclass
class TaskTrial:
    task: str
    rewards: list[float | None]
    infra_errors: int

    @property
    def pass_rate(self) -> float | None:
        scored = [r for r in self.rewards if r is not None]
        return sum(passed(r) for r in scored) / len(scored) if scored else None


@dataclass
class PolicyTrial:
    """A policy served behind a running proxy, and how to run it on tasks. (synth imports only envs and
    train: the harness, its bundle and the running proxy come from `train.cli.common`, typed there.)"""

    harness: Any
    bundle: Any
    proxy: Any
    model: str
    samples: int
    run_dir: Path
    concurrency: int = 2
    timeout: float | None = None
    max_turns: int | None = None

    def run(
        self, tasks: Sequence[tuple[Task, str]], on_done: Callable[[RolloutResult], None] = lambda r: None
    ) -> dict[str, TaskTrial]:
        """`samples` rollouts of each (task, image); resumable (rollouts.jsonl of `run_dir`)."""
        results = run_rollout_set(
            tasks,
            self.harness,
            self.bundle,
            self.proxy,
            samples=self.samples,
            run_dir=self.run_dir,
            model=self.model,
            concurrency=self.concurrency,
            timeout=self.timeout,
            max_turns=self.max_turns,
            on_done=on_done,
        )
        rewards: dict[str, list[float | None]] = defaultdict(list)
        infra: dict[str, int] = defaultdict(int)
        for result in results:
            if result.status == "infra-error":
                infra[result.task] += 1
            else:
                rewards[result.task].append(result.reward if result.status == "scored" else 0.0)
        return {
            task.name: TaskTrial(task.name, rewards.get(task.name, []), infra.get(task.name, 0))
            for task, _ in tasks
        }
