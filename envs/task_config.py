"""The `task.toml` schema, as pydantic models.

Our own spelling and Harbor's / Terminal-Bench 2's both load, so their tasks run unchanged:
`memory = "2G"` and `storage = "10G"` become `memory_mb` / `storage_mb`, Harbor's
`network_mode = "no-network"` becomes `network = "none"`, `[metadata] author_name` and any other key we
do not know are kept (each section allows extra keys), never dropped.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator


class NetworkMode(StrEnum):
    """What a sandbox can reach."""

    NONE = "none"
    """Nothing but its own loopback. Verification always runs this way."""
    MODEL_ONLY = "model-only"
    """Exactly one endpoint, the model proxy, through a Unix socket and a loopback forwarder."""
    HOST = "host"
    """The host's network. Only with an explicit opt-in by whoever runs the task."""


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)
_MB_PER_UNIT = {"": 1 / (1024 * 1024), "k": 1 / 1024, "m": 1, "g": 1024, "t": 1024 * 1024}


def parse_size_mb(value: str | int | float) -> int:
    """'2G' / '512M' / '1.5g' / bare bytes -> MiB, as Harbor's older `memory = "2G"` spelling means."""
    if isinstance(value, bool):
        raise ValueError(f"expected a size like '2G' or '512M', got {value!r}")
    if isinstance(value, int | float):
        return int(value)
    match = _SIZE.match(value)
    if not match:
        raise ValueError(f"expected a size like '2G' or '512M', got {value!r}")
    number, unit = float(match.group(1)), match.group(2).lower()
    return max(1, round(number * _MB_PER_UNIT[unit]))


class _Section(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class TaskSection(_Section):
    """`[task]`: who the task is."""

    name: str | None = None
    """Task name (Harbor allows "org/name"); defaults to the directory's name."""
    description: str = ""
    keywords: list[str] = Field(default_factory=list)
    authors: list[Any] = Field(default_factory=list)


class Metadata(_Section):
    """`[metadata]`: free form. These keys are ours; any other key is kept."""

    domain: Literal["claw", "browser", "computer"] | None = None
    difficulty: str | None = None
    category: str | None = None
    source: str | None = None
    tags: list[str] = Field(default_factory=list)


User = Annotated[str | None, BeforeValidator(lambda v: str(v) if isinstance(v, int) else v)]
"""A user name or a numeric uid (Harbor allows both)."""


class AgentSection(_Section):
    """`[agent]`: how the agent (or the reference solution) runs."""

    timeout_sec: float = Field(default=600.0, gt=0)
    user: User = None


class VerifierSection(_Section):
    """`[verifier]`: how the hidden tests run."""

    timeout_sec: float = Field(default=600.0, gt=0)
    user: User = None
    env: dict[str, str] = Field(default_factory=dict)


class SolutionSection(_Section):
    """`[solution]`: how the reference solution runs (Harbor)."""

    env: dict[str, str] = Field(default_factory=dict)


class Healthcheck(_Section):
    """`[environment.healthcheck]`: a command that must pass before anything runs in the sandbox
    (Harbor's, mirroring Docker HEALTHCHECK)."""

    command: str
    interval_sec: float = Field(default=5.0, gt=0)
    timeout_sec: float = Field(default=30.0, gt=0)
    start_period_sec: float = Field(default=0.0, ge=0)
    start_interval_sec: float = Field(default=5.0, gt=0)
    retries: int = Field(default=3, ge=1)


class EnvironmentSection(_Section):
    """`[environment]`: the container the task runs in."""

    cpus: float = Field(default=1.0, gt=0)
    memory_mb: int = Field(default=2048, gt=0)
    storage_mb: int | None = Field(default=None, gt=0)
    network: NetworkMode = NetworkMode.MODEL_ONLY
    """Network for agent runs. Verification always runs with `none`."""
    build_timeout_sec: float = Field(default=600.0, gt=0)
    workdir: str | None = None
    docker_image: str | None = None
    """A prebuilt image to use instead of `environment/Dockerfile` (Harbor)."""
    env: dict[str, str] = Field(default_factory=dict)
    """Set in the sandbox; `${VAR}` and `${VAR:-default}` are filled from the host's environment."""
    healthcheck: Healthcheck | None = None

    @model_validator(mode="before")
    @classmethod
    def _harbor_spellings(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if "memory" in data and "memory_mb" not in data:
            data["memory_mb"] = parse_size_mb(data["memory"])
        if "storage" in data and "storage_mb" not in data:
            data["storage_mb"] = parse_size_mb(data["storage"])
        harbor_mode = data.get("network_mode")
        if "network" not in data and harbor_mode == "no-network":
            data["network"] = NetworkMode.NONE.value
        if "network" not in data and data.get("allow_internet") is False:
            data["network"] = NetworkMode.NONE.value
        return data

    @field_validator("workdir")
    @classmethod
    def _absolute_workdir(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith("/"):
            raise ValueError(f"must be an absolute path inside the container, got {value!r}")
        return value


class TaskConfig(_Section):
    """A whole `task.toml`."""

    version: str | None = None
    schema_version: str | None = None
    task: TaskSection = Field(default_factory=TaskSection)
    metadata: Metadata = Field(default_factory=Metadata)
    agent: AgentSection = Field(default_factory=AgentSection)
    verifier: VerifierSection = Field(default_factory=VerifierSection)
    environment: EnvironmentSection = Field(default_factory=EnvironmentSection)
    solution: SolutionSection = Field(default_factory=SolutionSection)
