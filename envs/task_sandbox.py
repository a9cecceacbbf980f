"""Sandbox specs for a task: its image, limits, workdir and environment from task.toml."""

from __future__ import annotations

from envs.sandbox import SandboxSpec
from envs.task import Task
from envs.task_config import NetworkMode


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
        workdir=environment.workdir,
        env=dict(environment.env),
        task=task.name,
        run=run,
        role=role,
    )
