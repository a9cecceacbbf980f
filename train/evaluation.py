"""Scoring rollouts: pass@k, pass^k and mean reward per task, and averaged over tasks per domain, per
harness and overall, each with a bootstrap 95% interval over tasks.

A task's trials are its rollouts with one harness, pooled over the rollout sets given (within a set, the
latest result of each sample: a redone sample replaces its failed one). A trial succeeds when it
passes (train.pass_at_k.passed: a reward of at least 1). Infrastructure failures are dropped or scored
0, per `infra`. pass@k and pass^k are given for every k up to the smallest number of trials a task has.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, Field

from train.errors import NotEnoughTrials
from train.pass_at_k import Interval, bootstrap, pass_at_k, pass_hat_k, passed
from train.rollout import RolloutResult
from train.rollout_set import InfraPolicy, latest_by_sample, scored_reward


class TaskScore(BaseModel):
    task: str
    harness: str
    domain: str | None
    trials: int
    successes: int
    mean_reward: float
    pass_at: dict[int, float]
    pass_hat: dict[int, float]
    infra_errors: int = 0


class GroupScore(BaseModel):
    """Tasks averaged: one row of a per-domain, per-harness or overall table."""

    group: str
    tasks: int
    trials: int
    mean_reward: Interval
    pass_at: dict[int, Interval]
    pass_hat: dict[int, Interval]


class Evaluation(BaseModel):
    ks: list[int]
    infra: InfraPolicy
    tasks: list[TaskScore]
    overall: GroupScore | None = None
    by_domain: list[GroupScore] = Field(default_factory=list)
    by_harness: list[GroupScore] = Field(default_factory=list)


def score_tasks(
    rollout_sets: Sequence[Sequence[RolloutResult]], infra: InfraPolicy = "drop"
) -> list[TaskScore]:
    """Per (task, harness), the trials of every rollout set (e.g. the run directories of several runs)."""
    trials: dict[tuple[str, str], list[float]] = defaultdict(list)
    infra_errors: dict[tuple[str, str], int] = defaultdict(int)
    domains: dict[tuple[str, str], str | None] = {}
    latest = [result for results in rollout_sets for result in latest_by_sample(results).values()]
    for result in latest:
        key = (result.task, result.harness)
        domains[key] = result.domain
        infra_errors[key] += result.status == "infra-error"
        value = scored_reward(result, infra)
        if value is not None:
            trials[key].append(value)
    scores = []
    for (task, harness), rewards in sorted(trials.items()):
        n, c = len(rewards), sum(1 for r in rewards if passed(r))
        scores.append(
            TaskScore(
                task=task,
                harness=harness,
                domain=domains[(task, harness)],
                trials=n,
                successes=c,
                mean_reward=sum(rewards) / n,
                pass_at={k: pass_at_k(n, c, k) for k in range(1, n + 1)},
                pass_hat={k: pass_hat_k(n, c, k) for k in range(1, n + 1)},
                infra_errors=infra_errors[(task, harness)],
            )
        )
    return scores


def _group(name: str, scores: Sequence[TaskScore], ks: Sequence[int]) -> GroupScore:
    return GroupScore(
        group=name,
        tasks=len(scores),
        trials=sum(s.trials for s in scores),
        mean_reward=bootstrap([s.mean_reward for s in scores]),
        pass_at={k: bootstrap([s.pass_at[k] for s in scores]) for k in ks},
        pass_hat={k: bootstrap([s.pass_hat[k] for s in scores]) for k in ks},
    )


def evaluate(
    rollout_sets: Sequence[Sequence[RolloutResult]],
    ks: Sequence[int] | None = None,
    infra: InfraPolicy = "drop",
) -> Evaluation:
    """Score every (task, harness) over the rollout sets; `ks` defaults to 1 and the largest k every task
    allows."""
    scores = score_tasks(rollout_sets, infra)
    if not scores:
        return Evaluation(ks=[], infra=infra, tasks=[])
    most = min(s.trials for s in scores)
    wanted = sorted(set(ks)) if ks else sorted({1, most})
    if bad := [k for k in wanted if not 1 <= k <= most]:
        raise NotEnoughTrials(
            f"k={bad[0]} needs at least {bad[0]} trials of every task; the fewest is {most}"
        )
    by_domain: dict[str, list[TaskScore]] = defaultdict(list)
    by_harness: dict[str, list[TaskScore]] = defaultdict(list)
    for score in scores:
        by_domain[score.domain or "-"].append(score)
        by_harness[score.harness].append(score)
    return Evaluation(
        ks=wanted,
        infra=infra,
        tasks=scores,
        overall=_group("all", scores, wanted),
        by_domain=[_group(f"domain {name}", group, wanted) for name, group in sorted(by_domain.items())],
        by_harness=[_group(f"harness {name}", group, wanted) for name, group in sorted(by_harness.items())],
    )


def to_markdown(evaluation: Evaluation) -> str:
    """The tables as Markdown: groups first, then every task."""
    ks = evaluation.ks
    head = ["group", "tasks", "trials", "mean reward", *(f"pass@{k}" for k in ks), *(f"pass^{k}" for k in ks)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    groups = [evaluation.overall] if evaluation.overall else []
    groups += evaluation.by_domain + evaluation.by_harness
    for g in groups:
        cells = [g.group, str(g.tasks), str(g.trials), str(g.mean_reward)]
        cells += [str(g.pass_at[k]) for k in ks] + [str(g.pass_hat[k]) for k in ks]
        lines.append("| " + " | ".join(cells) + " |")
    task_head = ["task", "harness", "trials", "successes", "mean reward", *(f"pass@{k}" for k in ks)]
    lines += ["", "| " + " | ".join(task_head) + " |", "|" + "---|" * len(task_head)]
    for t in evaluation.tasks:
        cells = [t.task, t.harness, str(t.trials), str(t.successes), f"{t.mean_reward:.3f}"]
        cells += [f"{t.pass_at[k]:.3f}" for k in ks]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
