"""The gate's forgery stage is a real attack suite: it passes a sound task and fails one whose
verification can be forged, and each attack does what it claims when nothing stops it."""

from __future__ import annotations

import time
from pathlib import Path

import docker
import pytest

from envs.errors import SandboxError
from envs.forgery import FORGED_REWARD_ENV, ROLLOUT_ENV, Canary, attack_script
from envs.gate import verify_task
from envs.reward import REWARD_JSON
from envs.sandbox import Sandbox, SandboxSpec, create_sandbox
from envs.task import load_task
from envs.task_config import NetworkMode
from tests.conftest import write_task
from tests.redteam.attacks import CHECK_PY, TEST_SH

pytestmark = pytest.mark.docker


def _task(root: Path, name: str, verifier: str) -> Path:
    return write_task(root, name, test_sh=TEST_SH, files={"tests/check.py": CHECK_PY}, verifier=verifier)


@pytest.mark.parametrize("verifier", ['sandbox = "fresh"', 'sandbox = "agent"'])
def test_a_sound_task_holds_against_every_forgery(
    client: docker.DockerClient, base_image: str, tmp_path: Path, verifier: str
) -> None:
    record = verify_task(client, load_task(_task(tmp_path, "sound", verifier)), runs=1, write=False)
    assert record.verified, record.reasons
    assert [f.attack for f in record.forgeries] == [
        "daemon",
        "shadowed-interpreter",
        "shadowed-shell",
        "startup-hook",
        "prewritten-reward",
        "control-plane",
    ]
    assert all(f.reward == 0.0 for f in record.forgeries), record.forgeries
    assert next(f for f in record.forgeries if f.attack == "daemon").killed >= 1


def test_a_task_that_carries_the_userland_into_its_verifier_fails_the_gate(
    client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    """Listing /usr/local/bin as an artifact lets the agent's fake interpreter and tools into the
    tests: the forgery stage finds it."""
    task = _task(tmp_path, "carries-userland", 'artifacts = ["/app", "/usr/local/bin"]')
    record = verify_task(client, load_task(task), runs=1, write=False)
    assert record.oracle_rewards == [1.0] and record.nop is not None and record.nop.reward == 0.0
    assert not record.verified
    forged = {f.attack: f.reward for f in record.forgeries}
    assert forged["shadowed-interpreter"] == 1.0 and forged["shadowed-shell"] == 1.0
    assert any(r.startswith("forgery shadowed-interpreter scored 1") for r in record.reasons), record.reasons


def _run_attack(sandbox: Sandbox, name: str, env: dict[str, str]) -> None:
    sandbox.upload(attack_script(name), "/tmp/attack.sh")
    result = sandbox.exec(["bash", "/tmp/attack.sh"], timeout=60, env=env)
    assert result.exit_code == 0, result


def _written_again(sandbox: Sandbox) -> bytes | None:
    """reward.json once it is there again (read while the daemon may be rewriting it: a torn read is
    tried again), or None after 2 s."""
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        try:
            found = sandbox.read_file(REWARD_JSON, 1024)
        except SandboxError:
            continue
        if found:
            return found
        time.sleep(0.05)
    return None


def test_the_daemon_attack_rewrites_the_reward_until_it_is_killed(base_image: str) -> None:
    spec = SandboxSpec(image=base_image, task="forgery-daemon", role="test", memory_mb=256)
    with create_sandbox(spec) as sandbox:
        _run_attack(sandbox, "daemon", {FORGED_REWARD_ENV: "1"})
        sandbox.make_dir("/logs/verifier")
        assert _written_again(sandbox) == b'{"reward": 1}\n', "the daemon is alive and writing"
        assert sandbox.kill_strays() >= 1
        sandbox.make_dir("/logs/verifier")
        time.sleep(0.5)
        assert sandbox.read_file(REWARD_JSON, 1024) is None, "nothing writes the reward any more"


def test_the_control_plane_attack_reaches_an_open_relay_and_not_a_closed_one(
    base_image: str, tmp_path: Path
) -> None:
    own = ["/rollouts/me--x-1/v1/"]
    for routes, breached in ((["/"], True), (own, False)):
        with Canary(tmp_path / f"canary-{breached}.sock") as canary:
            spec = SandboxSpec(
                image=base_image,
                network=NetworkMode.MODEL_ONLY,
                model_endpoint=canary.endpoint,
                model_routes=routes,
                task="forgery-control",
                role="test",
            )
            with create_sandbox(spec) as sandbox:
                _run_attack(sandbox, "control-plane", {FORGED_REWARD_ENV: "1", ROLLOUT_ENV: "me--x-1"})
            breaches = canary.breaches(own)
        assert bool(breaches) is breached, breaches
        if breached:
            assert "POST /rollouts/me--x-1/reward" in breaches and "POST /admin/pause" in breaches
