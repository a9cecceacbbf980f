"""A rollout set's loop without Docker: real rollouts (train.rollout, the verifier, the headless runner,
a recording proxy) on FakeSandboxes, with NullHarness played by the sandbox's handler. Resuming skips
every rollout already scored and redoes only what is missing or failed for the infrastructure; what an
infrastructure failure counts for is the set's policy."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from envs.errors import SandboxError
from envs.sandbox import ExecResult
from envs.task import Task, load_task
from proxy.engines.scripted import ScriptedEngine
from proxy.session import ProxySession, RunningProxy
from tests.conftest import write_task
from tests.doubles import (
    ExecCall,
    ExecHandler,
    FakeBackend,
    FakeSandbox,
    NullHarness,
    ask_model,
    is_launch,
    null_bundle,
)
from train.rollout import RolloutResult
from train.rollout_set import RESULTS_FILE, latest_by_sample, load_results, run_rollout_set, scored_reward

TESTS = ["/bin/bash", "/tests/test.sh"]


def _agent(*, answers: Callable[[str], bool] = lambda task: True) -> ExecHandler:
    """A handler playing an agent that asks its model once (when `answers(task)`) and solves task `a`,
    and tests that reward 1 when /app/done exists, else 0."""

    def handler(sandbox: FakeSandbox, call: ExecCall) -> ExecResult | None:
        if is_launch(call):
            if answers(sandbox.spec.task):
                ask_model(sandbox, call).raise_for_status()
            if sandbox.spec.task == "a":
                sandbox.put_file("/app/done", "")
        elif call.argv == TESTS:
            done = sandbox.host_path("/app/done").exists()
            sandbox.put_file("/logs/verifier/reward.txt", "1" if done else "0")
        return None

    return handler


@pytest.fixture
def tasks(tmp_path: Path) -> list[tuple[Task, str]]:
    """Two tasks whose tests run in the agent's sandbox (a fresh one would ask Docker for a prepared
    verifier image)."""
    return [
        (load_task(write_task(tmp_path / "catalog", name, verifier='sandbox = "agent"')), "fake-image")
        for name in ("a", "b")
    ]


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[RunningProxy]:
    with ProxySession(ScriptedEngine(), tmp_path / "proxy") as running:
        yield running


def _run(
    tasks: list[tuple[Task, str]], proxy: RunningProxy, run_dir: Path, **options: object
) -> list[RolloutResult]:
    return run_rollout_set(
        tasks,
        NullHarness(),
        null_bundle(run_dir.parent / "bundle"),
        proxy,
        samples=2,
        run_dir=run_dir,
        model="m",
        concurrency=2,
        **options,  # type: ignore[arg-type]
    )


def _backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, handler: ExecHandler) -> FakeBackend:
    backend = FakeBackend(tmp_path / "sandboxes", handler=handler)
    backend.install(monkeypatch, "docker")  # run_rollout_set starts its sandboxes on the default backend
    return backend


def test_a_set_runs_each_task_by_sample_and_a_rerun_redoes_nothing_finished(
    tasks: list[tuple[Task, str]], proxy: RunningProxy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = _backend(tmp_path, monkeypatch, _agent())
    run_dir = tmp_path / "set"
    seen: list[RolloutResult] = []
    first = _run(tasks, proxy, run_dir, on_done=seen.append)
    assert [(r.task, r.sample, r.status, r.reward) for r in first] == [
        ("a", 0, "scored", 1.0),
        ("a", 1, "scored", 1.0),
        ("b", 0, "scored", 0.0),
        ("b", 1, "scored", 0.0),
    ], [(r.task, r.error) for r in first]
    assert sorted(r.rollout_id for r in seen) == sorted(r.rollout_id for r in first)
    assert all(r.calls == 1 for r in first)  # each rollout's one call, on its own route
    assert len(backend.sandboxes) == 4 and all(s.stopped for s in backend.sandboxes)
    assert len({s.spec.model_routes[0] for s in backend.sandboxes}) == 4
    lines = (run_dir / RESULTS_FILE).read_text().splitlines()
    assert len(lines) == 4

    again: list[RolloutResult] = []
    second = _run(tasks, proxy, run_dir, on_done=again.append)
    assert [r.rollout_id for r in second] == [r.rollout_id for r in first]
    assert len(again) == 4 and len(backend.sandboxes) == 4, "a finished rollout was run again"
    assert (run_dir / RESULTS_FILE).read_text().splitlines() == lines


def test_infrastructure_failures_count_by_policy_and_only_they_are_redone(
    tasks: list[tuple[Task, str]], proxy: RunningProxy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent of task b never reaches its model: that is the machinery's failure (HarnessNoModel),
    left out or scored 0 by the set's policy, and redone when the set runs again."""
    handler = {"now": _agent(answers=lambda task: task != "b")}
    backend = _backend(tmp_path, monkeypatch, lambda sandbox, call: handler["now"](sandbox, call))
    run_dir = tmp_path / "set"
    first = _run(tasks, proxy, run_dir)
    failed = [r for r in first if r.task == "b"]
    assert [(r.status, r.error_class, r.reward) for r in failed] == [
        ("infra-error", "HarnessNoModel", None)
    ] * 2
    assert [scored_reward(r, "drop") for r in failed] == [None, None]
    assert [scored_reward(r, "zero") for r in failed] == [0.0, 0.0]
    assert [scored_reward(r, "drop") for r in first if r.task == "a"] == [1.0, 1.0]

    handler["now"] = _agent()
    second = _run(tasks, proxy, run_dir)
    assert len(backend.sandboxes) == 6, "only the two failed rollouts are redone"
    assert [r.rollout_id for r in second if r.task == "a"] == [r.rollout_id for r in first if r.task == "a"]
    redone = [r for r in second if r.task == "b"]
    assert [(r.status, r.reward) for r in redone] == [("scored", 0.0)] * 2
    assert not {r.rollout_id for r in redone} & {r.rollout_id for r in failed}, (
        "a redone rollout has a new id"
    )
    assert len(load_results(run_dir)) == 6
    latest = latest_by_sample(load_results(run_dir))
    assert {key.task: r.status for key, r in latest.items()} == {"a": "scored", "b": "scored"}


def test_a_verifier_error_is_kept_and_scores_zero_under_either_policy(
    tasks: list[tuple[Task, str]], proxy: RunningProxy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_reward(sandbox: FakeSandbox, call: ExecCall) -> ExecResult | None:
        if is_launch(call):
            ask_model(sandbox, call).raise_for_status()
        return None  # the tests write no reward file

    backend = _backend(tmp_path, monkeypatch, no_reward)
    results = _run(tasks[:1], proxy, tmp_path / "set")
    assert [(r.status, r.error_class) for r in results] == [("verifier-error", "RewardFileMissing")] * 2
    assert [scored_reward(r, policy) for r in results for policy in ("drop", "zero")] == [0.0] * 4
    _run(tasks[:1], proxy, tmp_path / "set")
    assert len(backend.sandboxes) == 2, "a verifier error is an outcome: it is not redone"


def test_an_unexpected_exception_is_recorded_on_its_rollout_and_the_set_goes_on(
    tasks: list[tuple[Task, str]], proxy: RunningProxy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = _agent()

    def buggy(sandbox: FakeSandbox, call: ExecCall) -> ExecResult | None:
        if is_launch(call) and sandbox.spec.task == "b":
            raise RuntimeError("a bug in the machinery")
        return agent(sandbox, call)

    _backend(tmp_path, monkeypatch, buggy)
    results = _run(tasks, proxy, tmp_path / "set")
    assert [r.status for r in results] == ["scored", "scored", "infra-error", "infra-error"]
    broken = results[2]
    assert (
        broken.error_class == "RuntimeError"
        and broken.traceback
        and "a bug in the machinery" in broken.traceback
    )
    written = [json.loads(line) for line in (tmp_path / "set" / RESULTS_FILE).read_text().splitlines()]
    assert sorted(w["status"] for w in written) == ["infra-error", "infra-error", "scored", "scored"]


def test_a_set_under_another_policy_version_reuses_nothing(
    tasks: list[tuple[Task, str]], proxy: RunningProxy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = _backend(tmp_path, monkeypatch, _agent())
    run_dir = tmp_path / "set"
    v0 = _run(tasks[:1], proxy, run_dir, policy_version=0)
    v1 = _run(tasks[:1], proxy, run_dir, policy_version=1)
    assert [r.policy_version for r in v0] == [0, 0] and [r.policy_version for r in v1] == [1, 1]
    assert len(backend.sandboxes) == 4
    again = _run(tasks[:1], proxy, run_dir, policy_version=1)
    assert [r.rollout_id for r in again] == [r.rollout_id for r in v1] and len(backend.sandboxes) == 4


def test_rollouts_run_concurrently_up_to_the_limit(
    tasks: list[tuple[Task, str]], proxy: RunningProxy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, lock = _agent(), threading.Lock()
    running, most = [0], [0]
    both = threading.Barrier(2, timeout=30)

    def handler(sandbox: FakeSandbox, call: ExecCall) -> ExecResult | None:
        if is_launch(call):
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            both.wait()  # two at once, or this times out
            with lock:
                running[0] -= 1
        return agent(sandbox, call)

    _backend(tmp_path, monkeypatch, handler)
    results = _run(tasks, proxy, tmp_path / "set")
    assert [r.status for r in results] == ["scored"] * 4 and most[0] == 2


@pytest.mark.parametrize(("option", "value"), [("samples", 0), ("concurrency", 0)])
def test_bad_set_sizes_are_refused(option: str, value: int, tmp_path: Path) -> None:
    sizes = {"samples": 1, "concurrency": 1} | {option: value}
    with pytest.raises(ValueError, match=f"{option} must be at least 1"):
        run_rollout_set(
            [],
            NullHarness(),
            null_bundle(tmp_path / "b"),
            None,  # type: ignore[arg-type]  # refused before the proxy is used
            samples=sizes["samples"],
            concurrency=sizes["concurrency"],
            run_dir=tmp_path,
            model="m",
        )


def test_a_sandbox_the_engine_will_not_remove_keeps_the_rollouts_score(
    tasks: list[tuple[Task, str]], proxy: RunningProxy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent can leave its container hard to remove (a fork bomb: "tried to kill container, but did
    not receive an exit event"). The rollout was scored before the removal: the score stands and the
    error is noted beside it; the agent's failure never becomes an infrastructure error."""
    backend = _backend(tmp_path, monkeypatch, _agent())
    stop = FakeSandbox.stop

    def refuse(self: FakeSandbox) -> None:
        stop(self)
        if self.spec.role == "agent":
            raise SandboxError(f"could not remove sandbox {self.name} within 30s: no exit event")

    monkeypatch.setattr(FakeSandbox, "stop", refuse)
    results = _run(tasks, proxy, tmp_path / "set")
    assert [(r.task, r.status, r.reward, r.error_class) for r in results] == [
        ("a", "scored", 1.0, "SandboxError"),
        ("a", "scored", 1.0, "SandboxError"),
        ("b", "scored", 0.0, "SandboxError"),
        ("b", "scored", 0.0, "SandboxError"),
    ]
    assert len(backend.sandboxes) >= 4
