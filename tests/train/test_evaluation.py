"""Scoring rollouts into pass@k / pass^k tables, per task, domain, harness and overall."""

from __future__ import annotations

from pathlib import Path

import pytest

from train.evaluation import evaluate, score_tasks, to_markdown
from train.rollout import RolloutResult, RolloutStatus


def _result(task: str, sample: int, reward: float | None, harness: str = "h", domain: str = "claw",
            status: RolloutStatus = "scored") -> RolloutResult:  # fmt: skip
    return RolloutResult(
        rollout_id=f"{task}--{harness}-{sample}",
        task=task,
        domain=domain,
        harness=harness,
        harness_version="1",
        model="m",
        status=status,
        sample=sample,
        reward=reward,
        logs_dir=Path("/tmp"),
    )


RESULTS = [
    *(_result("a", k, r) for k, r in enumerate([1.0, 0.0, 1.0, 1.0])),
    *(_result("b", k, r) for k, r in enumerate([0.0, 0.0, 1.0, 0.0])),
    _result("b", 4, None, status="infra-error"),
]


def test_per_task_counts_and_estimators() -> None:
    a, b = score_tasks([RESULTS])
    assert (a.task, a.trials, a.successes) == ("a", 4, 3)
    assert a.pass_at[1] == pytest.approx(0.75) and a.pass_at[2] == pytest.approx(1.0)
    assert a.pass_hat[2] == pytest.approx(3 / 6)
    assert (b.trials, b.successes, b.infra_errors) == (4, 1, 1)  # the infra error is dropped


def test_infra_errors_can_count_as_failures() -> None:
    _, b = score_tasks([RESULTS], infra="zero")
    assert (b.trials, b.successes, b.mean_reward) == (5, 1, pytest.approx(0.2))


def test_a_redone_sample_replaces_the_failed_one() -> None:
    redone = [*RESULTS, _result("b", 4, 1.0)]
    _, b = score_tasks([redone])
    assert (b.trials, b.successes, b.infra_errors) == (5, 2, 0)


def test_rollout_sets_pool_their_samples() -> None:
    """Two runs number their samples alike; each run's samples are trials of their own."""
    _, b = score_tasks([RESULTS, RESULTS])
    assert (b.trials, b.successes, b.infra_errors) == (8, 2, 2)


def test_groups_average_tasks_with_intervals() -> None:
    evaluation = evaluate([RESULTS], ks=[1, 4])
    overall = evaluation.overall
    assert overall is not None and overall.tasks == 2 and overall.trials == 8
    assert overall.pass_at[1].value == pytest.approx((0.75 + 0.25) / 2)
    assert overall.pass_at[4].value == pytest.approx(1.0)
    assert overall.pass_hat[4].value == pytest.approx(0.0)
    assert overall.pass_at[1].low <= overall.pass_at[1].value <= overall.pass_at[1].high
    assert [g.group for g in evaluation.by_domain] == ["domain claw"]
    assert [g.group for g in evaluation.by_harness] == ["harness h"]
    markdown = to_markdown(evaluation)
    assert "| all | 2 | 8 |" in markdown and "pass^4" in markdown


def test_k_beyond_the_trials_is_refused() -> None:
    with pytest.raises(ValueError, match="k=5 needs at least 5 trials"):
        evaluate([RESULTS], ks=[5])
