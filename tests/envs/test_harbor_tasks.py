"""Harbor-format tasks written as Harbor users write them (tests/envs/harbor_tasks), through the gate
unchanged: WORKDIR only in the Dockerfile, an `org/name` name, an ENTRYPOINT that starts a service, a
multi-score reward.json, a multi-step task, a separate verifier environment, a test.sh that installs its
runner at verify time; a compose task is refused at `check`."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import docker
import docker.errors
import pytest

from envs.gate import VerificationRecord, verify_task
from envs.image_builder import build_image
from envs.task import Task, inspect_task, load_task
from envs.task_config import NetworkMode
from envs.verifier_image import prepared_tag
from tests.conftest import HARBOR_RUNNABLE, HARBOR_TASKS

pytestmark = pytest.mark.docker


def _task(name: str, tmp_path: Path) -> Task:
    """A copy, so nothing the gate writes lands in the repository."""
    return load_task(shutil.copytree(HARBOR_TASKS / name, tmp_path / name))


def _explain(record: VerificationRecord) -> str:
    runs = [*record.oracle, *([record.nop] if record.nop else []), *record.forgeries]
    tails = "\n".join(
        f"{r.kind} {r.attack or ''}: reward={r.reward} {r.error_class}: {r.error}\n"
        f"  stdout: {r.verifier_stdout[-400:]}\n  stderr: {r.verifier_stderr[-400:]}"
        for r in runs
    )
    return f"{record.reasons}\n{tails}"


@pytest.mark.parametrize("name", HARBOR_RUNNABLE)
def test_a_harbor_task_passes_the_gate_unchanged(
    client: docker.DockerClient, base_image: str, name: str, tmp_path: Path
) -> None:
    task = _task(name, tmp_path)
    forgery = name in ("multi-step", "separate-verifier")  # the verification paths that are new here
    record = verify_task(client, task, runs=2, write=False, forgery=forgery)
    assert record.verified, _explain(record)
    assert record.oracle_rewards == [1.0, 1.0] and record.nop is not None and record.nop.reward == 0.0
    assert record.verifier_network is False
    assert record.oracle[0].verifier_exit_code is not None
    if name == "multi-step":
        assert [r.steps for r in record.oracle] == [[1.0, 1.0], [1.0, 1.0]]
        assert record.nop.steps == [0.0, 0.0]  # the first step has no min_reward: the second runs too
    if name == "separate-verifier":
        assert record.verifier_image is not None and record.verifier_image.startswith("openforge/verifier-")


def test_the_scalar_of_a_multi_score_reward_is_its_first_number(
    client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    """No `reward` key: the first number (`correctness`) is the reward, `notes` (text) is ignored."""
    from envs.reward import parse_reward

    reward = parse_reward(b'{"correctness": 1, "style": 0.5, "notes": "checked"}', None)
    assert reward.value == 1.0 and reward.details == {"correctness": 1.0, "style": 0.5}


def test_a_compose_task_is_refused_at_check_with_a_clear_message() -> None:
    task, problems = inspect_task(HARBOR_TASKS / "compose-sidecar")
    assert task is None
    errors = [p for p in problems if p.severity == "error"]
    assert len(errors) == 1 and "docker-compose.yaml" in errors[0].file, errors
    assert "compose" in errors[0].message and "not supported" in errors[0].message


def test_a_test_sh_that_installs_its_runner_fails_offline_and_passes_with_the_opt_in(
    client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    """Our default verifies with no network, so the runner cannot be installed and the oracle scores 0;
    `--verifier-network` gives the tests the network the task declares (Harbor's default: public)."""
    task = _task("installs-runner", tmp_path)
    built = build_image(client, task)
    assert built.tag is not None
    with contextlib.suppress(docker.errors.ImageNotFound):  # a layer another test prepared would pass
        client.images.remove(prepared_tag(built.tag), force=True)
    offline = verify_task(client, task, runs=1, write=False, forgery=False)
    assert not offline.verified and offline.oracle_rewards == [0.0], _explain(offline)
    assert "bc" in offline.oracle[0].verifier_stderr + offline.oracle[0].verifier_stdout
    online = verify_task(client, task, runs=1, write=False, forgery=False, verifier_network=True)
    assert online.verified, _explain(online)
    assert online.verifier_network is True


def test_the_verifier_network_opt_in_keeps_every_forgery_at_zero(
    client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    """With the host's network in the tests' sandbox, the agent's processes are still gone (a fresh
    sandbox) and every built-in forgery still scores the bottom."""
    task = _task("org-name", tmp_path)
    record = verify_task(client, task, runs=1, write=False, forgery=True, verifier_network=True)
    assert record.verified, _explain(record)
    assert record.verifier_network is True and len(record.forgeries) >= 6


def test_a_task_that_declares_no_network_gets_none_even_with_the_opt_in(tmp_path: Path) -> None:
    from envs.verifier import VerifyOptions, _verifier_network

    root = shutil.copytree(HARBOR_TASKS / "org-name", tmp_path / "org-name")
    toml = (
        (root / "task.toml")
        .read_text()
        .replace("[environment]\n", '[environment]\nnetwork_mode = "no-network"\n')
    )
    (root / "task.toml").write_text(toml)
    task = load_task(root)
    assert _verifier_network(task, VerifyOptions(network=True)) is NetworkMode.NONE
    assert _verifier_network(_task("multi-score", tmp_path), VerifyOptions(network=True)) is NetworkMode.HOST
    assert _verifier_network(_task("multi-step", tmp_path), VerifyOptions(network=False)) is NetworkMode.NONE


def test_a_prepared_verifier_layer_lets_the_installing_tests_pass_offline(
    base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    """For machines whose tests may not have a network: `forge-env build --prepare-verifier` runs the
    tests once with it (no agent, no solution) and keeps what they installed; `forge-env verify` then
    passes with no network, and says which image the tests ran on. A second build reuses the layer."""
    from tests.envs.test_catalog_cli import _forge_env

    task_dir = shutil.copytree(HARBOR_TASKS / "installs-runner", tmp_path / "installs-runner")
    built = _forge_env("build", str(task_dir), "--prepare-verifier", forge_home=forge_home)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "verifier layer" in built.stdout and "prepared" in built.stdout, built.stdout
    again = _forge_env("build", str(task_dir), "--prepare-verifier", forge_home=forge_home)
    assert again.returncode == 0 and "is current" in again.stdout, again.stdout + again.stderr
    out = _forge_env("verify", str(task_dir), "--runs", "1", "--no-forgery", forge_home=forge_home)
    assert out.returncode == 0, out.stdout + out.stderr
    record = json.loads((task_dir / "verified.json").read_text())
    assert record["verified"] is True and record["verifier_network"] is False
    assert record["verifier_image"].endswith("-verifier"), record["verifier_image"]
