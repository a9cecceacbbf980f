"""Nothing outlives us: Ctrl-C, a SIGKILLed parent, and `forge-env gc`."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import docker
import pytest

from envs import labels
from tests.conftest import REPO, sigint_default, write_task

pytestmark = pytest.mark.docker
FORGE_ENV = str(Path(sys.executable).with_name("forge-env"))


def _containers(client: docker.DockerClient, task: str) -> list[str]:
    found = client.containers.list(all=True, ignore_removed=True, filters={"label": f"{labels.TASK}={task}"})
    return [c.name for c in found]


def _wait_for(predicate, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.25)
    return predicate()


def test_sigkill_of_the_parent_leaves_nothing_running(
    client: docker.DockerClient, base_image: str, forge_home: Path
) -> None:
    script = textwrap.dedent(
        f"""
        import sys, time
        from envs.sandbox import SandboxSpec, create_sandbox
        sandboxes = [create_sandbox(SandboxSpec(image={base_image!r}, task="crash-test", role="test"))
                     for _ in range(2)]
        for sb in sandboxes:
            sb.start()
        print("ready", flush=True)
        time.sleep(300)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        assert len(_containers(client, "crash-test")) == 2
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        assert _wait_for(lambda: not _containers(client, "crash-test"), 30), _containers(client, "crash-test")
    finally:
        proc.kill()


def test_ctrl_c_during_verify_stops_every_sandbox(
    client: docker.DockerClient, base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    task = write_task(tmp_path, "ctrl-c-test", solve_sh="sleep 300\n")
    proc = subprocess.Popen(
        [FORGE_ENV, "verify", str(task), "--runs", "1"],
        preexec_fn=sigint_default,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        assert _wait_for(lambda: bool(_containers(client, "ctrl-c-test")), 60), "no sandbox ever started"
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        proc.wait(60)
        assert proc.returncode == 130, proc.stderr.read() if proc.stderr else ""
        assert not _containers(client, "ctrl-c-test")
    finally:
        proc.kill()


def test_gc_removes_leftovers_of_dead_owners_only(client: docker.DockerClient, base_image: str) -> None:
    dead = f"{socket.gethostname()}:999999999:deadbeef"
    alive = f"{socket.gethostname()}:{os.getpid()}:cafe"
    made = []
    for owner in (dead, alive):
        made.append(
            client.containers.create(
                base_image,
                ["sleep", "60"],
                network_mode="none",
                labels={labels.MANAGED: "true", labels.OWNER: owner, labels.TASK: "gc-test"},
            ).name
        )
    try:
        out = subprocess.run(
            [FORGE_ENV, "gc", "--task", "gc-test"], capture_output=True, text=True, check=True
        )
        assert made[0] in out.stdout
        assert _containers(client, "gc-test") == [made[1]]
        subprocess.run(
            [FORGE_ENV, "gc", "--all", "--task", "gc-test"], capture_output=True, text=True, check=True
        )
        assert _containers(client, "gc-test") == []
    finally:
        for name in made:
            with contextlib.suppress(docker.errors.NotFound):
                client.containers.get(name).remove(force=True)


def test_a_relay_folder_goes_with_its_sandbox_stopped_or_collected(
    client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    from envs.docker_sandbox import DockerSandbox
    from envs.sandbox import SandboxSpec
    from envs.task_config import NetworkMode

    def sandbox() -> DockerSandbox:
        spec = SandboxSpec(
            image=base_image,
            network=NetworkMode.MODEL_ONLY,
            model_endpoint=f"unix:{tmp_path / 'no-model.sock'}",
            task="relay-gc",
            role="test",
        )
        started = DockerSandbox(spec)
        started.start()
        assert started.relay_folder is not None and started.relay_folder.is_dir()
        return started

    stopped = sandbox()
    stopped.stop()
    assert stopped.relay_folder is not None and not stopped.relay_folder.exists()

    collected = sandbox()
    try:
        subprocess.run([FORGE_ENV, "gc", "--all", "--task", "relay-gc"], capture_output=True, check=True)
        assert _containers(client, "relay-gc") == []
        assert collected.relay_folder is not None and not collected.relay_folder.exists()
    finally:
        collected.stop()


def test_importing_our_packages_installs_no_exit_hook_until_a_sandbox_is_registered() -> None:
    """Importing a library must not change how the interpreter exits; the first sandbox does."""
    probe = (
        "import atexit, sys\n"
        "hooks = []\n"
        "register = atexit.register\n"
        "def spy(f, *a, **k):\n"
        '    hooks.append(f\'{getattr(f, "__module__", "")}.{getattr(f, "__qualname__", f)}\')\n'
        "    return register(f, *a, **k)\n"
        "atexit.register = spy\n"
        "import envs.cleanup, envs.docker_sandbox, envs.gate, envs.cli, harnesses.registry, proxy.app\n"
        "import train.cli.env, train.cli.train, train.rollout_set\n"
        "print(sorted(h for h in hooks if h.split('.')[0] in ('envs', 'harnesses', 'proxy', 'train')))\n"
        "envs.cleanup.register(object()); envs.cleanup.register(object())\n"
        "print(sorted(h for h in hooks if h.split('.')[0] in ('envs', 'harnesses', 'proxy', 'train')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=REPO
    ).stdout.splitlines()
    assert out == ["[]", "['envs.cleanup.stop_all']"]


def test_the_watchdog_goes_on_removing_what_the_engine_refuses(
    client: docker.DockerClient, base_image: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fork-bombed container under load was refused removal ("did not receive an exit event") past
    every wait of its process, and the watchdog's single try left it behind the suite. It now tries
    again until the container is gone."""
    import requests
    from docker.models.containers import Container

    from envs import reaper

    owner = f"{socket.gethostname()}:999999998:watchdog-test"
    name = client.containers.create(
        base_image,
        ["sleep", "60"],
        network_mode="none",
        labels={labels.MANAGED: "true", labels.OWNER: owner, labels.TASK: "watchdog-test"},
    ).name
    real_remove = Container.remove
    refusals: list[str] = []

    def refuse_three_times(self: Container, **kwargs: object) -> None:
        if self.name == name and len(refusals) < 3:
            refusals.append(str(self.name))
            response = requests.Response()
            response.status_code = 500
            raise docker.errors.APIError("did not receive an exit event (the test)", response=response)
        real_remove(self, **kwargs)

    monkeypatch.setattr(Container, "remove", refuse_three_times)
    try:
        assert reaper.remove_until_gone(client, owner, within=30, pause=0.1) == []
        assert len(refusals) == 3
        assert _containers(client, "watchdog-test") == []
        monkeypatch.setattr(Container, "remove", lambda self, **kwargs: None)  # refused for good
        kept = client.containers.create(
            base_image,
            ["sleep", "60"],
            network_mode="none",
            labels={labels.MANAGED: "true", labels.OWNER: owner},
        ).name
        assert reaper.remove_until_gone(client, owner, within=0.5, pause=0.1) == [kept]
    finally:
        monkeypatch.undo()
        for leftover in client.containers.list(all=True, filters={"label": f"{labels.OWNER}={owner}"}):
            leftover.remove(force=True)
