"""The test stage: the verification gate on every built task, then (given a policy) K rollouts and the
band. Every failure is classified: task-side (the task is broken: its oracle fails, doing nothing or a
forgery passes, a hidden file leaks, its checker crashes), agent-side (the task is sound, the policy's
pass rate is outside the band), or infrastructure (ours: retried by the next `test`)."""

from __future__ import annotations

import time
from collections.abc import Callable

import docker

from envs.gate import RunRecord, VerificationRecord, verify_tasks
from envs.task import Task, load_task
from synth.records import LedgerEntry, TestRecord
from synth.run_dir import RunDir
from synth.trial import Band, PolicyTrial
from train.rollout import RolloutResult

INFRA_CLASSES = frozenset(
    {"SandboxStartError", "SandboxNotReady", "PreloadError", "APIError", "DockerException", "ReadTimeout",
     "ConnectionError", "ImageNotFound"}
)  # fmt: skip
"""Run errors that are the machinery's, not the task's."""
OURS_UNLESS_REPEATED = frozenset({"SandboxBroken"})
"""On the oracle's or the do-nothing run, the sandbox could not be frozen for the tests (seen under load:
`OCI runtime pause failed: unable to freeze`): ours the first time; a task whose own solution breaks the
sandbox fails again and, after MAX_INFRA_RETRIES, counts as broken."""
MAX_INFRA_RETRIES = 2
"""After this many infrastructure failures a task counts as broken: it keeps failing the same way."""
DETAIL_CHARS = 4000


def _run_lines(run: RunRecord) -> str:
    name = run.kind + (f" {run.attack}" if run.attack else "")
    parts = [f"{name}: reward {run.reward!r}"]
    if run.error_class:
        parts.append(f"{run.error_class}: {run.error}")
    if run.solution_exit_code not in (None, 0) and run.kind == "oracle":
        parts.append(f"solve.sh exited {run.solution_exit_code}")
    if run.verifier_stdout.strip():
        parts.append("checker stdout:\n" + run.verifier_stdout.strip()[-1200:])
    if run.verifier_stderr.strip():
        parts.append("checker stderr:\n" + run.verifier_stderr.strip()[-1200:])
    return "\n".join(parts)


def classify_gate(record: VerificationRecord) -> tuple[str, bool, str]:
    """(side, infra, detail) of a gate verdict that is not `verified`."""
    runs = [*record.oracle, *([record.nop] if record.nop else []), *record.forgeries]
    infra = any(
        r.error_class in INFRA_CLASSES
        or r.traceback
        or (r.kind != "forgery" and r.error_class in OURS_UNLESS_REPEATED)
        for r in runs
    ) or any("the gate failed unexpectedly" in reason for reason in record.reasons)
    low, high = record.reward_range
    bad = [
        r
        for r in runs
        if r.reward is None
        or (r.kind == "oracle" and r.reward != high)
        or (r.kind != "oracle" and r.reward != low)
    ]
    detail = "\n\n".join(_run_lines(r) for r in bad)[-DETAIL_CHARS:]
    return ("none" if infra else "task"), infra, detail


def _judge_band(record: TestRecord, rate: float, band: Band) -> TestRecord:
    accepted = band.holds(rate)
    why = f"pass rate {rate:.2f} over {len(record.rewards)} rollouts is outside {band}"
    return record.model_copy(
        update={
            "pass_rate": rate,
            "accepted": accepted,
            "side": "none" if accepted else "agent",
            "reasons": [] if accepted else [why],
        }
    )


def test_stage(
    run: RunDir,
    client: docker.DockerClient,
    jobs: int = 2,
    runs: int = 2,
    forgery: bool = True,
    trial: PolicyTrial | None = None,
    band: Band | None = None,
    on_done: Callable[[TestRecord], None] = lambda record: None,
    on_rollout: Callable[[RolloutResult], None] = lambda result: None,
) -> list[TestRecord]:
    """Gate every built task not yet tested (or whose last test failed for a reason of ours), then run the
    policy on the verified ones that have no pass rate yet; returns this call's final records."""
    band = band or Band()
    builds, history = run.builds(), run.records("test.jsonl", TestRecord)
    tests = {record.id: record for record in history}
    infra_counts: dict[str, int] = {}
    for record in history:
        infra_counts[record.id] = infra_counts.get(record.id, 0) + record.infra
    todo: list[Task] = []
    for pid, build in builds.items():
        if not build.ok or build.task_dir is None:
            continue
        last = tests.get(pid)
        if last is None or (last.infra and infra_counts.get(pid, 0) < MAX_INFRA_RETRIES):
            todo.append(load_task(build.task_dir))
    finals: list[TestRecord] = []
    gated: dict[str, TestRecord] = {}

    def gate_done(verdict: VerificationRecord) -> None:
        record = TestRecord(
            id=verdict.task,
            verified=verdict.verified,
            forgery_stage=forgery,
            gate_seconds=verdict.duration_sec,
        )
        if not verdict.verified:
            side, infra, detail = classify_gate(verdict)
            retried_enough = infra and infra_counts.get(verdict.task, 0) + 1 >= MAX_INFRA_RETRIES
            record.side, record.infra = ("task", False) if retried_enough else (side, infra)  # type: ignore[assignment]
            record.reasons, record.detail = verdict.reasons, detail
        else:
            record.accepted = trial is None
        run.append("test.jsonl", [record])
        run.append("ledger.jsonl", [LedgerEntry(stage="test", id=record.id, seconds=verdict.duration_sec)])
        gated[record.id] = record
        if not record.verified or trial is None:
            finals.append(record)
            on_done(record)

    if todo:
        verify_tasks(client, todo, runs=runs, jobs=jobs, on_done=gate_done, forgery=forgery)
    if trial is None:
        return finals

    tests = run.tests()
    for record in tests.values():  # a band given anew re-judges the pass rates already measured
        if record.pass_rate is not None and band.holds(record.pass_rate) != record.accepted:
            rejudged = _judge_band(record, record.pass_rate, band)
            run.append("test.jsonl", [rejudged])
            finals.append(rejudged)
            on_done(rejudged)
    pending = [
        (load_task(builds[pid].task_dir or ""), builds[pid].image or "")
        for pid, record in tests.items()
        if record.verified and record.pass_rate is None and pid in builds
    ]
    if not pending:
        return finals
    started = time.monotonic()
    trials = trial.run(pending, on_done=on_rollout)
    share = (time.monotonic() - started) / len(pending)
    for task, _ in pending:
        outcome = trials[task.name]
        record = tests[task.name].model_copy(update={"rewards": outcome.rewards, "rollout_seconds": share})
        rate = outcome.pass_rate
        if rate is None:  # still verified, no pass rate: the next `test` runs its rollouts again
            record.reasons = [f"{outcome.infra_errors} rollout(s), all infrastructure errors"]
        else:
            record = _judge_band(record, rate, band)
        run.append("test.jsonl", [record])
        run.append("ledger.jsonl", [LedgerEntry(stage="rollouts", id=task.name, seconds=share)])
        finals.append(record)
        on_done(record)
    return finals


test_stage.__test__ = False  # type: ignore[attr-defined]  # a stage, not a pytest test
