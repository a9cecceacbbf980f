"""Killing a container's processes from outside it: freeze the container (the engine's cgroup freezer),
list its processes as the host sees them, SIGKILL every one that is not spared, thaw.

Inside the sandbox an agent can fork faster than a killer walks /proc, start a new session, double-fork
to get reparented, ignore every catchable signal, or overwrite the killer itself. Frozen, it can do
none of these; a SIGKILL sent from the host while it is frozen takes effect at the thaw, before it runs
one more instruction. A process is named by its host pid and its start time (in clock ticks since boot),
so a recycled pid is never mistaken for a process we meant to spare.

This needs the Docker engine on this host: the container's processes must be in our /proc.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

import docker.errors
from docker.models.containers import Container

from envs.errors import SandboxError

DEATH_WAIT_SEC = 5.0
"""How long to wait for the killed processes to be gone after the thaw."""
THAW_WAIT_SEC = 10.0
"""How long a refused unpause of a still-paused container is retried."""
FREEZE_ATTEMPTS = 4
"""A freeze the engine could not complete is tried this many times (0.25 s, 0.5 s, 0.75 s apart)."""
UNFROZEN_ROUNDS_SEC = 5.0
"""Then, unfrozen, kill rounds go on until a round finds nothing to kill, for at most this long."""


@dataclass(frozen=True, order=True)
class HostProcess:
    """One process, for ever: its host pid and start time (field 22 of /proc/PID/stat)."""

    pid: int
    start_ticks: int


def boot_ticks() -> int:
    """Now, in the clock ticks since boot that start times are counted in."""
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) * os.sysconf("SC_CLK_TCK"))


def start_ticks(pid: int) -> int | None:
    """When host process `pid` started, in clock ticks since boot; None when it is gone (a zombie is
    gone: it runs nothing more)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # the command name (field 2) may hold spaces and parentheses: fields 3.. follow the last ')'
    fields = stat[stat.rfind(b")") + 2 :].split()
    if fields[0] in (b"Z", b"X"):
        return None
    return int(fields[19])


def _listed_pids(container: Container) -> list[int]:
    try:
        top = container.top(ps_args="-o pid")
    except docker.errors.APIError as exc:
        if exc.status_code in (404, 409):  # gone, or not running: nothing left to kill
            return []
        raise SandboxError(f"cannot list the processes of {container.name}: {exc}") from exc
    return [int(row[0]) for row in top.get("Processes") or []]


def container_processes(container: Container) -> set[HostProcess]:
    """Every process now in the container, as the host names it."""
    found = set()
    listed = _listed_pids(container)
    for pid in listed:
        ticks = start_ticks(pid)
        if ticks is not None:
            found.add(HostProcess(pid, ticks))
    if listed and not found:
        raise SandboxError(
            f"the processes of {container.name} are not visible in this host's /proc: killing them from "
            "outside needs the Docker engine on this machine (not a remote DOCKER_HOST)"
        )
    return found


def _kill(process: HostProcess) -> bool:
    """SIGKILL `process` if that very process still exists (pidfd: no pid recycled in between)."""
    try:
        fd = os.pidfd_open(process.pid)
    except OSError:
        return False
    try:
        if start_ticks(process.pid) != process.start_ticks:
            return False
        with contextlib.suppress(OSError):
            signal.pidfd_send_signal(fd, signal.SIGKILL)
            return True
        return False
    finally:
        os.close(fd)


def _thaw(container: Container) -> None:
    """Unpause, and make sure of it: under load the engine can answer 409 while the freezer is still
    settling, which once left a sandbox paused (its next exec refused) after the agent's processes died."""
    deadline = time.monotonic() + THAW_WAIT_SEC
    while True:
        try:
            container.unpause()
            return
        except docker.errors.APIError as exc:
            if exc.status_code == 404:
                return
            try:
                container.reload()
            except docker.errors.NotFound:
                return
            if container.status != "paused":  # the engine thawed it, or it never froze ("is not paused")
                return
            if exc.status_code != 409:
                raise SandboxError(f"cannot thaw {container.name}: {exc}") from exc
            if time.monotonic() > deadline:
                raise SandboxError(f"cannot thaw {container.name}: {exc}") from exc
        time.sleep(0.05)


def _freeze(container: Container) -> bool | None:
    """Pause `container`: True once frozen; None when it is not running (nothing to kill); False when
    the engine could not freeze it in FREEZE_ATTEMPTS tries. runc gives up on a cgroup whose freeze
    does not settle in time ("unable to freeze"): on a busy host that is the engine's trouble, and an
    agent's 0 must not come of it."""
    for attempt in range(1, FREEZE_ATTEMPTS + 1):
        try:
            container.pause()
            return True
        except docker.errors.APIError as exc:
            if exc.status_code in (404, 409):
                return None
            if attempt == FREEZE_ATTEMPTS:
                return False
        time.sleep(0.25 * attempt)
    return False


def _kill_unfrozen(container: Container, spare: Callable[[HostProcess], bool]) -> list[HostProcess]:
    """Kill rounds on a running container until a round finds nothing left to kill: a forker can outrun
    one round, not a loop of them for long. Raises SandboxError if one is still there at the end."""
    killed: set[HostProcess] = set()  # one killed but not yet gone is listed, and killed, again
    deadline = time.monotonic() + UNFROZEN_ROUNDS_SEC
    while True:
        left = [p for p in sorted(container_processes(container)) if not spare(p)]
        if not left:
            return sorted(killed)
        if time.monotonic() > deadline:
            raise SandboxError(
                f"cannot freeze {container.name}, and {len(left)} of its processes outlived "
                f"{UNFROZEN_ROUNDS_SEC:.0f}s of killing"
            )
        killed.update(p for p in left if _kill(p))
        time.sleep(0.02)


def kill_processes(container: Container, spare: Callable[[HostProcess], bool]) -> int:
    """Freeze `container`, SIGKILL every process for which `spare` is false, thaw; returns how many were
    killed, after waiting (briefly) for them to be gone. A container that is not running has none. When
    the engine cannot freeze it, the processes are killed in rounds instead (`_kill_unfrozen`)."""
    frozen = _freeze(container)
    if frozen is None:
        return 0
    killed: list[HostProcess] = []
    if frozen:
        try:
            for process in sorted(container_processes(container)):
                if not spare(process) and _kill(process):
                    killed.append(process)
        finally:
            _thaw(container)
    else:
        _thaw(container)  # runc thaws a freeze it gave up on; made sure of here
        killed = _kill_unfrozen(container, spare)
    deadline = time.monotonic() + DEATH_WAIT_SEC
    while time.monotonic() < deadline and any(start_ticks(p.pid) == p.start_ticks for p in killed):
        time.sleep(0.01)
    return len(killed)
