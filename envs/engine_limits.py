"""What the container engine can give one container, so a task asking for more fails at `forge-env check`
instead of at `docker run` in the middle of a catalog."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

QUERY_TIMEOUT_SEC = 5
"""`check` must stay quick when DOCKER_HOST points at an engine that does not answer."""


class EngineLimits(BaseModel):
    """The most one container can get: the engine's CPUs and memory (`docker info` NCPU, MemTotal)."""

    model_config = ConfigDict(frozen=True)

    cpus: float = Field(gt=0)
    memory_mb: int = Field(gt=0)

    @classmethod
    def from_info(cls, info: dict[str, Any]) -> EngineLimits | None:
        """From `docker info`'s answer; None when it lacks NCPU or MemTotal (then no engine check)."""
        ncpu, mem_bytes = info.get("NCPU"), info.get("MemTotal")
        if not isinstance(ncpu, int) or not isinstance(mem_bytes, int) or ncpu <= 0 or mem_bytes <= 0:
            return None
        return cls(cpus=float(ncpu), memory_mb=max(1, mem_bytes // (1024 * 1024)))


def engine_limits(timeout: int = QUERY_TIMEOUT_SEC) -> EngineLimits | None:
    """Ask the Docker engine for its limits; None when it cannot be reached (checks then use only the
    schema's static bounds, so `forge-env check` works on a machine without Docker)."""
    import docker
    import docker.errors
    import requests

    try:
        client = docker.from_env(timeout=timeout)
        try:
            info = client.info()
        finally:
            client.close()
    except (docker.errors.DockerException, requests.exceptions.RequestException, OSError):
        return None
    return EngineLimits.from_info(info) if isinstance(info, dict) else None
