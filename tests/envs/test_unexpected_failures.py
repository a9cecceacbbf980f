"""A failure nobody planned for (a bug of ours, a library's) inside one gate run or one rollout is
recorded there with its class and traceback; the other tasks and rollouts of the set go on. And what
the engine cannot enforce (a storage limit on this engine) is said by name, not ignored."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import docker
import pytest

import envs.gate
import train.rollout
from envs.image_builder import build_image
from envs.sandbox import Sandbox
from envs.task import Task, load_task
from envs.verifier import VerifierResult, VerifyOptions, run_verifier
from harnesses.bundle import build_bundle
from harnesses.forge_react import ForgeReact
from proxy.engines.oracle import NopEngine
from proxy.session import ProxySession
from tests.conftest import write_task
from train.rollout_set import run_rollout_set

pytestmark = pytest.mark.docker


def _explodes_for(name: str) -> Any:
    def verifier(
        sandbox: Sandbox, task: Task, backend: str = "docker", options: VerifyOptions | None = None
    ) -> VerifierResult:
        if task.name == name:
            raise RuntimeError("a bug in the verifier")
        return run_verifier(sandbox, task, backend, options)

    return verifier


def test_an_unexpected_error_in_one_gate_run_is_recorded_and_the_others_go_on(
    client: docker.DockerClient, base_image: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(envs.gate, "run_verifier", _explodes_for("explodes"))
    tasks = [load_task(write_task(tmp_path, name)) for name in ("explodes", "fine")]
    records = {r.task: r for r in envs.gate.verify_tasks(client, tasks, runs=1, forgery=False, write=False)}
    broken = records["explodes"].oracle[0]
    assert broken.error_class == "RuntimeError" and broken.error == "a bug in the verifier"
    assert broken.traceback is not None and "RuntimeError: a bug in the verifier" in broken.traceback
    assert not records["explodes"].verified
    assert records["fine"].verified, records["fine"].reasons


def test_an_unexpected_error_in_one_rollout_is_recorded_and_the_set_goes_on(
    client: docker.DockerClient, base_image: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(train.rollout, "run_verifier", _explodes_for("explodes"))
    tasks = []
    for name in ("explodes", "fine"):
        task = load_task(write_task(tmp_path / "tasks", name))
        built = build_image(client, task)
        assert built.tag is not None
        tasks.append((task, built.tag))
    harness = ForgeReact()
    with ProxySession(NopEngine(), tmp_path / "run") as proxy:
        results = run_rollout_set(
            tasks, harness, build_bundle(harness), proxy, samples=1, run_dir=tmp_path / "run", model="m"
        )
    by_task = {r.task: r for r in results}
    broken = by_task["explodes"]
    assert broken.status == "infra-error" and broken.error_class == "RuntimeError"
    assert broken.traceback is not None and "a bug in the verifier" in broken.traceback
    assert by_task["fine"].status == "scored" and by_task["fine"].reward == 0.0


def test_a_storage_limit_the_engine_cannot_enforce_is_named(
    client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    toml = textwrap.dedent(
        """
        [task]
        name = "wants-storage"
        [environment]
        workdir = "/app"
        memory_mb = 512
        storage_mb = 200
        """
    )
    task = load_task(write_task(tmp_path, "wants-storage", toml=toml))
    record = envs.gate.verify_task(client, task, runs=1, forgery=False, write=False)
    assert record.verified, record.reasons
    if record.warnings:  # this engine cannot limit a container's disk: said, by field and value
        assert "[environment].storage_mb = 200 is not enforced" in record.warnings[0]
    else:  # the engine took the limit (e.g. overlay2 on xfs with pquota): the sandbox has it
        info = client.info()
        assert info.get("Driver") != "overlay2" or "xfs" in str(info.get("DriverStatus"))
