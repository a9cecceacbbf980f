"""The GRPO loop without Docker: run_grpo on FakeSandboxes, with NullHarness played by the sandbox's
handler (one call to the real CPU engine through the recording proxy), and a trainer that learns nothing
but records what each update was given. Each step samples its tasks deterministically from the seed,
runs a group of rollouts per task, and trains on the recorded tokens with the group's advantages; a run
resumes after its last checkpoint, and a step cut short redoes only its missing rollouts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import ClassVar

import pytest

from envs.sandbox import ExecResult
from envs.task import Task, load_task
from tests.conftest import write_task
from tests.doubles import (
    ExecCall,
    FakeBackend,
    FakeSandbox,
    NullHarness,
    RecordingTrainer,
    ask_model,
    is_launch,
    null_bundle,
)
from train.grpo import RolloutReward, group_advantages
from train.grpo_loop import STATE_FILE, EvalRecord, GRPORunConfig, StepRecord, last_checkpoint, run_grpo
from train.rollout_set import RESULTS_FILE, load_results

TESTS = ["/bin/bash", "/tests/test.sh"]
SAMPLE = re.compile(r"-(\d+)-[0-9a-f]{8}$")
"""The sample index in a rollout id (train.rollout_key: `...-<sample>-<random>`)."""


def _agent(sandbox: FakeSandbox, call: ExecCall) -> ExecResult | None:
    """Asks the policy once; solves its task on even samples only, so every group has two rewards."""
    if is_launch(call):
        ask_model(sandbox, call, f"solve {sandbox.spec.task}").raise_for_status()
        rollout_id = sandbox.spec.model_routes[0].split("/")[2]
        match = SAMPLE.search(rollout_id)
        assert match is not None, rollout_id
        if int(match.group(1)) % 2 == 0:
            sandbox.put_file("/app/done", "")
    elif call.argv == TESTS:
        sandbox.put_file("/logs/verifier/reward.txt", "1" if sandbox.host_path("/app/done").exists() else "0")
    return None


@pytest.fixture
def backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeBackend:
    backend = FakeBackend(tmp_path / "sandboxes", handler=_agent)
    backend.install(monkeypatch, "docker")  # the loop starts its sandboxes on the default backend
    return backend


@pytest.fixture
def tasks(tmp_path: Path) -> list[tuple[Task, str]]:
    return [
        (load_task(write_task(tmp_path / "catalog", name, verifier='sandbox = "agent"')), "fake-image")
        for name in ("a", "b", "c")
    ]


CONFIG = GRPORunConfig(steps=2, batch_tasks=2, group_size=2, concurrency=2, max_tokens=4, max_turns=1, seed=7)


def _grpo(
    tasks: list[tuple[Task, str]],
    trainer: RecordingTrainer,
    model: Path,
    run_dir: Path,
    config: GRPORunConfig,
) -> list[StepRecord]:
    bundle = null_bundle(run_dir.parent / f"{run_dir.name}-bundle")
    return run_grpo(tasks, [(NullHarness(), bundle)], trainer, model, run_dir, config)


def _chosen(run_dir: Path, step: int) -> list[tuple[str, int]]:
    results = load_results(run_dir / "steps" / f"{step:04d}")
    return sorted((r.task, r.sample) for r in results)


def test_each_step_samples_its_tasks_from_the_seed_and_trains_on_their_groups(
    tasks: list[tuple[Task, str]], backend: FakeBackend, tiny_model_dir: Path, tmp_path: Path
) -> None:
    trainer = RecordingTrainer(tiny_model_dir)
    records = _grpo(tasks, trainer, tiny_model_dir, tmp_path / "run", CONFIG)
    assert [(r.step, r.policy_version, r.rollouts, r.infra_errors) for r in records] == [
        (0, 1, 4, 0),
        (1, 2, 4, 0),
    ]
    for step in (0, 1):
        chosen = _chosen(tmp_path / "run", step)
        names = sorted({task for task, _ in chosen})
        assert len(names) == CONFIG.batch_tasks and set(names) <= {"a", "b", "c"}, chosen
        assert chosen == [(task, k) for task in names for k in range(CONFIG.group_size)]

    # The same seed chooses the same tasks, step by step, in another run directory.
    other = RecordingTrainer(tiny_model_dir)
    _grpo(tasks, other, tiny_model_dir, tmp_path / "again", CONFIG)
    assert [_chosen(tmp_path / "again", s) for s in (0, 1)] == [_chosen(tmp_path / "run", s) for s in (0, 1)]

    # Each update trains on every rollout of its step, with its group's advantage.
    assert len(trainer.grpo_updates) == 2
    for step, samples in enumerate(trainer.grpo_updates):
        results = load_results(tmp_path / "run" / "steps" / f"{step:04d}")
        rewards = [
            RolloutReward(rollout_id=r.rollout_id, group=r.task, reward=r.reward or 0.0) for r in results
        ]
        expected = group_advantages(rewards, CONFIG.grpo).values
        assert {s.rollout_id: s.advantage for s in samples} == pytest.approx(expected)
        assert all(s.response_mask and sum(s.response_mask) > 0 and s.logprobs for s in samples)
        passed = {r.rollout_id for r in results if r.reward == 1.0}
        assert passed and all((s.advantage > 0) == (s.rollout_id in passed) for s in samples)
    assert records[0].groups == 2 and records[0].skipped_groups == 0


def test_a_batch_as_large_as_the_catalog_takes_every_task(
    tasks: list[tuple[Task, str]], backend: FakeBackend, tiny_model_dir: Path, tmp_path: Path
) -> None:
    config = CONFIG.model_copy(update={"steps": 1, "batch_tasks": 8})
    _grpo(tasks, RecordingTrainer(tiny_model_dir), tiny_model_dir, tmp_path / "run", config)
    assert {task for task, _ in _chosen(tmp_path / "run", 0)} == {"a", "b", "c"}


def test_a_run_resumes_after_its_checkpoint_and_a_cut_step_redoes_only_what_is_missing(
    tasks: list[tuple[Task, str]], backend: FakeBackend, tiny_model_dir: Path, tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    _grpo(tasks, RecordingTrainer(tiny_model_dir), tiny_model_dir, run_dir, CONFIG)
    assert last_checkpoint(run_dir) == (1, run_dir / "checkpoints" / "step-0001")
    made = len(backend.sandboxes)
    assert made == 8

    finished = RecordingTrainer(tiny_model_dir)
    assert _grpo(tasks, finished, tiny_model_dir, run_dir, CONFIG) == []
    assert finished.loaded == [run_dir / "checkpoints" / "step-0001"] and len(backend.sandboxes) == made

    # Step 1 cut short: its checkpoint never written and one of its rollouts never finished.
    (run_dir / STATE_FILE).write_text(json.dumps({"step": 0, "checkpoint": "step-0000"}) + "\n")
    step_1 = run_dir / "steps" / "0001" / RESULTS_FILE
    kept = step_1.read_text().splitlines()[:-1]
    step_1.write_text("\n".join(kept) + "\n")
    resumed = RecordingTrainer(tiny_model_dir)
    records = _grpo(tasks, resumed, tiny_model_dir, run_dir, CONFIG)
    assert [r.step for r in records] == [1] and resumed.loaded == [run_dir / "checkpoints" / "step-0000"]
    assert len(backend.sandboxes) == made + 1, "only the missing rollout of the cut step is run again"
    assert records[0].rollouts == 4 and len(resumed.grpo_updates[0]) >= 4

    more = RecordingTrainer(tiny_model_dir)
    records = _grpo(tasks, more, tiny_model_dir, run_dir, CONFIG.model_copy(update={"steps": 3}))
    assert [r.step for r in records] == [2] and len(backend.sandboxes) == made + 1 + 4


class OtherNull(NullHarness):
    """A second harness for mixing: its agent never solves anything."""

    name: ClassVar[str] = "null-b"


def _mixed_agent(sandbox: FakeSandbox, call: ExecCall) -> ExecResult | None:
    if is_launch(call) and "--null-b-" in sandbox.spec.model_routes[0]:
        ask_model(sandbox, call, f"solve {sandbox.spec.task}").raise_for_status()
        return None
    return _agent(sandbox, call)


def test_harnesses_mixed_in_one_run_split_each_step_and_are_reported_apart(
    tasks: list[tuple[Task, str]], backend: FakeBackend, tiny_model_dir: Path, tmp_path: Path
) -> None:
    backend.handler = _mixed_agent
    run_dir = tmp_path / "run"
    harnesses = [
        (NullHarness(), null_bundle(tmp_path / "bundle-a")),
        (OtherNull(), null_bundle(tmp_path / "bundle-b")),
    ]
    config = CONFIG.model_copy(update={"batch_tasks": 3, "eval_samples": 1})
    records = run_grpo(tasks, harnesses, RecordingTrainer(tiny_model_dir), tiny_model_dir, run_dir, config)

    assert json.loads((run_dir / "run.json").read_text())["harness"] == "null,null-b"
    for step, record in enumerate(records):
        results = load_results(run_dir / "steps" / f"{step:04d}")
        by_task = {r.task: {x.harness for x in results if x.task == r.task} for r in results}
        assert all(len(h) == 1 for h in by_task.values()), "a group runs with one harness"
        order = [t.name for t, _ in random_sample(tasks, config, step)]
        expected = {name: ["null", "null-b"][(step + i) % 2] for i, name in enumerate(order)}
        assert {task: h.pop() for task, h in by_task.items()} == expected
        counts = {h: sum(1 for r in results if r.harness == h) for h in ("null", "null-b")}
        assert {h: s.scored for h, s in record.per_harness.items()} == counts
        assert record.per_harness["null-b"].pass_rate == 0.0
        assert record.per_harness["null"].pass_rate == 0.5  # even samples solve
    # The held evaluation runs every task with every harness, and reports them apart.
    evals = [
        EvalRecord.model_validate_json(line) for line in (run_dir / "eval.jsonl").read_text().splitlines()
    ]
    assert [e.policy_version for e in evals] == [0, 2]
    for e in evals:
        assert e.rollouts == e.scored == 6
        assert {h: (s.scored, s.passed) for h, s in e.per_harness.items()} == {
            "null": (3, 3),
            "null-b": (3, 0),
        }
        assert e.pass_rate == 0.5
        assert set(e.per_task_harness) == {"a", "b", "c"}
        assert all(e.per_task_harness[t]["null"].pass_rate == 1.0 for t in "abc")


def random_sample(tasks: list[tuple[Task, str]], config: GRPORunConfig, step: int) -> list[tuple[Task, str]]:
    """The tasks step `step` chooses, in the order it chose them (the loop's rule, restated)."""
    import random

    return random.Random(config.seed * 100_003 + step).sample(tasks, min(config.batch_tasks, len(tasks)))
