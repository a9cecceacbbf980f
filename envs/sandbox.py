"""The sandbox interface every backend implements: start, exec, upload, download, cut_model, stop.

Callers only see this module. The local Docker backend lives in `envs.docker_sandbox`; a Kubernetes
backend (one pod per rollout, exec and tar streams over the API) implements the same six methods, so no
caller changes when it arrives. Backends are named in one registry, imported lazily.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from pydantic import BaseModel, Field

from envs.errors import NetworkModeError
from envs.task_config import NetworkMode


class ExecResult(BaseModel):
    """What one command in a sandbox did."""

    exit_code: int | None
    """None when the command was killed at its timeout before reporting a code."""
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    duration_sec: float = 0.0

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


class Mount(BaseModel):
    """A host directory shown inside the sandbox (harness bundles are mounted read-only this way)."""

    source: Path
    target: str
    read_only: bool = True


class SandboxSpec(BaseModel):
    """Everything needed to start one sandbox."""

    image: str
    network: NetworkMode = NetworkMode.NONE
    model_endpoint: str | None = None
    """For `model-only`: the host's model server, as `unix:/path/to.sock` or `http://127.0.0.1:PORT`."""
    model_port: int = 8000
    """Port of the loopback forwarder inside the sandbox (the agent uses http://127.0.0.1:PORT)."""
    allow_host_network: bool = False
    """`host` networking is refused unless this is set (an explicit opt-in)."""
    cpus: float | None = 1.0
    memory_mb: int | None = 2048
    pids_limit: int | None = 4096
    workdir: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    mounts: list[Mount] = Field(default_factory=list)
    labels: dict[str, str] = Field(default_factory=dict)
    """Extra labels; `openforge.*` identity labels are always added."""
    task: str = ""
    run: str = ""
    role: str = "agent"
    """What the sandbox is for: agent, oracle, nop, verify, test."""

    def check(self) -> None:
        if self.network is NetworkMode.HOST and not self.allow_host_network:
            raise NetworkModeError(
                "network 'host' gives the sandbox the host's whole network; it needs an explicit opt-in "
                "(allow_host_network=True, or --allow-host-network on the command line)"
            )
        if self.network is NetworkMode.MODEL_ONLY and not self.model_endpoint:
            raise NetworkModeError(
                "network 'model-only' needs model_endpoint (unix:/path or http://127.0.0.1:PORT)"
            )


class Sandbox(ABC):
    """One isolated container for one rollout. Use as a context manager so it is always stopped."""

    spec: SandboxSpec

    @abstractmethod
    def start(self) -> None:
        """Create and start the sandbox; returns when it is ready for exec."""

    @abstractmethod
    def exec(
        self,
        command: str | Sequence[str],
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        workdir: str | None = None,
        user: str | None = None,
    ) -> ExecResult:
        """Run a command (a string runs under bash -c). At the timeout its whole process tree is killed,
        not the sandbox."""

    @abstractmethod
    def upload(self, source: Path, target: str) -> None:
        """Copy a host file or directory to `target` in the sandbox (a directory's contents go into it)."""

    @abstractmethod
    def download(self, source: str, target: Path) -> None:
        """Copy a sandbox file or directory to `target` on the host (a directory's contents go into it)."""

    @abstractmethod
    def cut_model(self) -> None:
        """Close the sandbox's way to the model (network model-only) so that from now on it reaches
        nothing; the verifier calls this before the hidden tests run. A no-op for other networks."""

    @abstractmethod
    def stop(self) -> None:
        """Stop and remove the sandbox and everything it holds. Safe to call twice."""

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


BACKENDS: dict[str, str] = {
    "docker": "envs.docker_sandbox:DockerSandbox",
}
"""Backend name -> `module:Class`; a `module:Class` path not listed here works too."""


def create_sandbox(spec: SandboxSpec, backend: str = "docker", **options: Any) -> Sandbox:
    """A sandbox (not yet started) of the named backend; `options` go to its constructor (e.g. client)."""
    target = BACKENDS.get(backend, backend)
    if ":" not in target:
        raise ValueError(f"unknown sandbox backend {backend!r}; known: {', '.join(sorted(BACKENDS))}")
    module_name, class_name = target.split(":", 1)
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls(spec, **options)
