"""A task's sandbox: its spec from task.toml (image, limits, workdir, environment) and its readiness."""

from __future__ import annotations

import time

from envs.errors import SandboxStartError
from envs.sandbox import Sandbox, SandboxSpec
from envs.task import Task, resolve_env
from envs.task_config import Healthcheck, NetworkMode


def task_sandbox_spec(
    task: Task,
    image: str,
    role: str,
    run: str = "",
    network: NetworkMode | None = None,
    model_endpoint: str | None = None,
    allow_host_network: bool = False,
) -> SandboxSpec:
    """The spec for one sandbox of `task`. `network` defaults to the task's own setting."""
    environment = task.config.environment
    return SandboxSpec(
        image=image,
        network=network or environment.network,
        model_endpoint=model_endpoint,
        allow_host_network=allow_host_network,
        cpus=environment.cpus,
        memory_mb=environment.memory_mb,
        storage_mb=environment.storage_mb,
        workdir=environment.workdir,
        env=resolve_env(task, environment.env, "environment"),
        task=task.name,
        run=run,
        role=role,
    )


def wait_until_healthy(sandbox: Sandbox, task: Task) -> None:
    """Run `[environment.healthcheck]` until it passes, with Docker HEALTHCHECK's semantics: failures
    in the start period do not count; `retries` consecutive failures after it mean the sandbox is broken.
    Then the processes running (the task's services among them) become the sandbox's baseline: the
    ones the end of the agent phase spares."""
    check = task.config.environment.healthcheck
    if check is not None:
        run_healthcheck(sandbox, task, check)
    sandbox.mark_baseline()


def run_healthcheck(sandbox: Sandbox, task: Task, check: Healthcheck) -> None:
    """Run `check` until it passes (Docker HEALTHCHECK's semantics, as in wait_until_healthy)."""
    started = time.monotonic()
    failures = 0
    last = ""
    while True:
        result = sandbox.exec(check.command, timeout=check.timeout_sec)
        if result.ok:
            return
        last = (result.stderr or result.stdout).strip()[-500:]
        in_start_period = time.monotonic() - started < check.start_period_sec
        if not in_start_period:
            failures += 1
            if failures >= check.retries:
                raise SandboxStartError(
                    f"task '{task.name}': healthcheck `{check.command}` failed {failures} time(s) in a row"
                    + (f": {last}" if last else "")
                )
        time.sleep(check.start_interval_sec if in_start_period else check.interval_sec)
