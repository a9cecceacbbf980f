"""Processes and helper files an agent could use to outlive its phase or rewrite the sandbox's own
machinery."""

from __future__ import annotations

import pytest

from envs.sandbox import SandboxSpec, create_sandbox

pytestmark = pytest.mark.docker

ESCAPE = (
    "( ( setsid bash -c 'trap \"\" TERM HUP INT; exec -a forge-escapee sleep 1000' "
    "</dev/null >/dev/null 2>&1 & ) & ); sleep 600"
)


def _spec(image: str) -> SandboxSpec:
    return SandboxSpec(image=image, task="escape", role="test", memory_mb=256)


def test_an_exec_timeout_kills_a_reparented_setsid_child_that_ignores_signals(base_image: str) -> None:
    with create_sandbox(_spec(base_image)) as sandbox:
        result = sandbox.exec(ESCAPE, timeout=3)
        assert result.timed_out
        left = sandbox.exec(["ps", "-eo", "pid,args"], timeout=10)
        assert "forge-escapee" not in left.stdout, left.stdout
        assert sandbox.exec("echo alive", timeout=10).stdout.strip() == "alive", "the sandbox lives on"


def test_every_process_started_after_the_sandbox_was_ready_can_be_killed(base_image: str) -> None:
    with create_sandbox(_spec(base_image)) as sandbox:
        before = sandbox.exec(["ps", "-eo", "pid="], timeout=10).stdout.split()
        started = sandbox.exec(ESCAPE.replace("; sleep 600", "; echo started"), timeout=10)
        assert started.ok and "started" in started.stdout
        assert "forge-escapee" in sandbox.exec(["ps", "-eo", "args"], timeout=10).stdout
        killed = sandbox.kill_strays()
        assert killed >= 1
        after = sandbox.exec(["ps", "-eo", "pid,args"], timeout=10).stdout
        assert "forge-escapee" not in after
        survivors = {line.split()[0] for line in after.splitlines()[1:] if "ps -eo" not in line}
        assert survivors <= set(before), f"only the sandbox's own processes remain: {after}"


def test_the_sandbox_helper_files_cannot_be_changed(base_image: str) -> None:
    with create_sandbox(_spec(base_image)) as sandbox:
        listing = sandbox.exec("ls /opt/forge/sandbox", timeout=10).stdout.split()
        assert "init.sh" in listing and "forward.py" in listing
        for name in listing:
            attempt = sandbox.exec(f"echo 'exit 0' > /opt/forge/sandbox/{name}", timeout=10)
            assert attempt.exit_code != 0, f"/opt/forge/sandbox/{name} is writable"
        replaced = sandbox.exec("rm -rf /opt/forge/sandbox && mkdir -p /opt/forge/sandbox", timeout=10)
        assert replaced.exit_code != 0, "the helper folder could be replaced"
