"""Every attack through `forge-env verify`: the attack is the task's reference solution, so the gate's
oracle run is the attack, and it must score 0 (scored, not an infrastructure error). On both backends:
local Docker, and k8s against an API server whose pods are real containers (tests/envs/k8s_docker_api)."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.envs.k8s_docker_api import DockerKubeApi
from tests.redteam.attacks import ATTACKS, VERIFIER_SANDBOXES, attack_task_name, write_attack_catalog

pytestmark = pytest.mark.docker
FORGE_ENV = str(Path(sys.executable).with_name("forge-env"))
INFRA_CLASSES = {
    "SandboxError", "SandboxStartError", "NetworkModeError", "BuildError",
    "ClusterError", "ImagePullFailed", "PodUnschedulable", "PodCrashed", "PodStartTimeout",
}  # fmt: skip


@pytest.fixture(scope="module", params=["docker", "k8s"])
def verified(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, base_image: str
) -> Iterator[dict[str, dict[str, Any]]]:
    root = write_attack_catalog(tmp_path_factory.mktemp("redteam") / "catalog")
    command = [FORGE_ENV, "verify", "--catalog", str(root), "--runs", "1", "--no-forgery", "--jobs", "2"]
    with contextlib.ExitStack() as stack:
        if request.param == "k8s":
            api = stack.enter_context(DockerKubeApi())
            kubeconfig = api.write_kubeconfig(root.parent / "kubeconfig", "forge-redteam")
            command += ["--backend", "k8s", "--kubeconfig", str(kubeconfig), "--namespace", "forge-redteam"]
        yield _verify(command, root)


def _verify(command: list[str], root: Path) -> dict[str, dict[str, Any]]:
    run = subprocess.run(command, capture_output=True, text=True, timeout=1500)
    records = {}
    for task in root.iterdir():
        path = task / "verified.json"
        assert path.is_file(), (
            f"no verified.json for {task.name}:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
        )
        records[task.name] = json.loads(path.read_text())
    assert run.returncode == 1, "no attack may pass the gate"
    return records


@pytest.mark.parametrize("sandbox", VERIFIER_SANDBOXES)
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_attack_scores_zero_through_the_gate(
    verified: dict[str, dict[str, Any]], attack: str, sandbox: str
) -> None:
    record = verified[attack_task_name(attack, sandbox)]
    (oracle,) = record["oracle"]
    assert oracle["reward"] == 0.0, f"the attack was not scored 0: {oracle}"
    assert oracle["error_class"] not in INFRA_CLASSES, oracle
    assert not record["verified"]
