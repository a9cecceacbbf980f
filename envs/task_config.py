"""The `task.toml` schema, as pydantic models.

Our own spelling and Harbor's / Terminal-Bench 2's both load, so their tasks run unchanged:
`memory = "2G"` and `storage = "10G"` become `memory_mb` / `storage_mb`, Harbor's
`network_mode = "no-network"` becomes `network = "none"`, `[metadata] author_name` and any other key we
do not know are kept (each section allows extra keys), never dropped. Harbor's own fields (`[[steps]]`,
`artifacts`, `[verifier.environment]`, the per-phase `network_mode` / `allowed_hosts`, `os`, `gpus`,
`mcp_servers`, `skills_dir`) are typed, so that envs.task can refuse or warn about what we do not run as
Harbor does, instead of dropping it silently.
"""

from __future__ import annotations

import math
import posixpath
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)


class NetworkMode(StrEnum):
    """What a sandbox can reach."""

    NONE = "none"
    """Nothing but its own loopback. Verification always runs this way."""
    MODEL_ONLY = "model-only"
    """Exactly one endpoint, the model proxy, through a Unix socket and a loopback forwarder."""
    HOST = "host"
    """The host's network. Only with an explicit opt-in by whoever runs the task."""


MAX_SECONDS = 7 * 24 * 3600
"""A week: the longest any timeout (agent, verifier, build, healthcheck) may be; more is a typo."""
MAX_CPUS = 1024
"""Static bound on `[environment].cpus`; the engine check (envs.engine_limits) is usually tighter."""
MIN_MEMORY_MB = 6
"""Docker refuses a container with less than 6 MiB of memory."""
MAX_MEMORY_MB = 16 * 1024 * 1024
"""16 TiB in MiB: static bound on `memory_mb` and `storage_mb`."""
MAX_ARTIFACTS_MB = 1024 * 1024
"""1 TiB in MiB: static bound on `[verifier].artifacts_max_mb`."""
MAX_NAME_CHARS = 128
"""A task name longer than this could not be a log folder's name (the file system allows 255 bytes)."""

_NAME_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def check_task_name(name: str) -> str:
    """A task name must be a safe slug (or Harbor's `org/name`): log folders and image tags are built
    from it, so `..`, spaces, slashes at either end or backslashes could escape or break them."""
    rule = (
        "a name like 'my-task' or 'org/my-task' "
        "(letters, digits, '.', '_', '-'; not starting with '.' or '-')"
    )
    if len(name) > MAX_NAME_CHARS:
        raise ValueError(f"must be at most {MAX_NAME_CHARS} characters long, not {len(name)}")
    parts = name.split("/")
    if len(parts) > 2 or not all(_NAME_PART.fullmatch(part) for part in parts):
        raise ValueError(f"must be {rule}")
    return name


def check_step_name(name: str) -> str:
    """A step's name is one safe path component (no '/'): its files live in `steps/<name>/`, and log
    folders are named after it."""
    if len(name) > MAX_NAME_CHARS:
        raise ValueError(f"must be at most {MAX_NAME_CHARS} characters long, not {len(name)}")
    if not _NAME_PART.fullmatch(name):
        raise ValueError(
            "must be a name like 'step-1' (letters, digits, '.', '_', '-'; not starting with '.' or '-'; "
            "no '/')"
        )
    return name


def _plain_number(value: Any) -> Any:
    """pydantic reads `true` as 1 for a number, and would report `inf` as merely too large; in a
    task.toml both are mistakes, said plainly."""
    if isinstance(value, bool):
        raise ValueError("must be a number, not true/false")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


PlainNumber = BeforeValidator(_plain_number)
Seconds = Annotated[float, PlainNumber, Field(gt=0, le=MAX_SECONDS, allow_inf_nan=False)]
"""A timeout or interval: finite, > 0, at most a week."""
FiniteFloat = Annotated[float, PlainNumber, Field(allow_inf_nan=False)]

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)
_MB_PER_UNIT = {"": 1 / (1024 * 1024), "k": 1 / 1024, "m": 1, "g": 1024, "t": 1024 * 1024}


def parse_size_mb(value: str | int | float) -> int:
    """'2G' / '512M' / '1.5g' / bare bytes -> MiB, as Harbor's older `memory = "2G"` spelling means."""
    if isinstance(value, bool):
        raise ValueError(f"expected a size like '2G' or '512M', got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"must be a finite size, got {value!r}")
    if isinstance(value, int | float):
        return int(value)
    match = _SIZE.match(value)
    if not match:
        raise ValueError(f"expected a size like '2G' or '512M', got {value!r}")
    number, unit = float(match.group(1)), match.group(2).lower()
    return max(1, round(number * _MB_PER_UNIT[unit]))


@dataclass(frozen=True)
class _Unparsed:
    """Harbor's `memory` / `storage` that is not a size, kept so the error lands on `memory_mb` /
    `storage_mb` (a model validator's own error would name only the section)."""

    key: str
    value: Any

    def __repr__(self) -> str:
        return repr(self.value)


class _Section(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class TaskSection(_Section):
    """`[task]`: who the task is."""

    name: Annotated[str, AfterValidator(check_task_name)] | None = None
    """Task name (Harbor allows "org/name"); defaults to the directory's name. See check_task_name."""
    description: str = ""
    keywords: list[str] = Field(default_factory=list)
    authors: list[Any] = Field(default_factory=list)


class Metadata(_Section):
    """`[metadata]`: free form, as Harbor's is (`difficulty = 3`, `tags = "a, b"`, any key, any value,
    all kept). Only our own key is checked, and only when present: `domain`, which groups rollouts."""

    domain: Literal["claw", "browser", "computer"] | None = None


User = Annotated[str | None, BeforeValidator(lambda v: str(v) if isinstance(v, int) else v)]
"""A user name or a numeric uid (Harbor allows both)."""

HarborNetwork = Literal["public", "no-network", "allowlist"]
"""Harbor's `network_mode`; ours is `[environment].network` (see verifier_network_declared)."""


def _check_allowed_hosts(value: list[str] | None, info: ValidationInfo) -> list[str] | None:
    """Harbor refuses `allowed_hosts` without `network_mode = "allowlist"`; a task it refuses is not
    one to run here with a guessed meaning."""
    mode = info.data.get("network_mode")
    if value is not None and (mode is None or (mode != "allowlist" and value)):
        raise ValueError("is only valid with network_mode = 'allowlist'")
    return value


class AgentSection(_Section):
    """`[agent]`: how the agent (or the reference solution) runs."""

    timeout_sec: Seconds = 600.0
    user: User = None
    network_mode: HarborNetwork | None = None
    """Harbor's agent-phase override. Not honoured (envs.task warns): our agent phase is model-only."""
    allowed_hosts: list[str] | None = None

    _allowed_hosts = field_validator("allowed_hosts")(_check_allowed_hosts)


class VerifierSandbox(StrEnum):
    """Where the hidden tests run (see docs/security.md)."""

    FRESH = "fresh"
    """A new container from the task image, with the agent's `artifacts` copied in through the engine:
    nothing the agent did outside them (its processes, a replaced interpreter, a start-up hook) exists
    there."""
    AGENT = "agent"
    """The agent's own container, after its processes are killed, and only if the engine's filesystem
    diff shows no change under the system paths; otherwise the rollout scores 0 (VerifierTampered)."""


def _artifact_path(value: str) -> str:
    """Artifacts are copied by path into a fresh sandbox: `..`, `//` or `/` itself would copy something
    other than what the author meant (or everything)."""
    if not value.startswith("/"):
        raise ValueError("must be an absolute path inside the container")
    if value == "/":
        raise ValueError("must not be '/' (the whole file system)")
    if "\0" in value:
        raise ValueError("must not contain a NUL byte")
    if "//" in value or posixpath.normpath(value) != value:
        meant = posixpath.normpath(re.sub("/+", "/", value))
        raise ValueError(
            f"must be a normalized path (no '..', '.', '//' or trailing '/'); did you mean {meant!r}?"
        )
    return value


class SolutionSection(_Section):
    """`[solution]`: how the reference solution runs (Harbor)."""

    env: dict[str, str] = Field(default_factory=dict)


class Healthcheck(_Section):
    """`[environment.healthcheck]`: a command that must pass before anything runs in the sandbox
    (Harbor's, mirroring Docker HEALTHCHECK)."""

    command: str
    interval_sec: Seconds = 5.0
    timeout_sec: Seconds = 30.0
    start_period_sec: Annotated[float, PlainNumber, Field(ge=0, le=MAX_SECONDS, allow_inf_nan=False)] = 0.0
    start_interval_sec: Seconds = 5.0
    retries: int = Field(default=3, ge=1)


class EnvironmentSection(_Section):
    """`[environment]`: the container the task runs in."""

    cpus: Annotated[float, PlainNumber, Field(gt=0, le=MAX_CPUS, allow_inf_nan=False)] = 1.0
    memory_mb: Annotated[int, PlainNumber, Field(ge=MIN_MEMORY_MB, le=MAX_MEMORY_MB)] = 2048
    storage_mb: Annotated[int, PlainNumber, Field(gt=0, le=MAX_MEMORY_MB)] | None = None
    network: NetworkMode = NetworkMode.MODEL_ONLY
    """Network for agent runs. Verification always runs with `none`."""
    build_timeout_sec: Seconds = 600.0
    workdir: str | None = None
    docker_image: str | None = None
    """A prebuilt image to use instead of `environment/Dockerfile` (Harbor)."""
    env: dict[str, str] = Field(default_factory=dict)
    """Set in the sandbox; `${VAR}` and `${VAR:-default}` are filled from the host's environment."""
    healthcheck: Healthcheck | None = None
    network_mode: HarborNetwork | None = None
    """Harbor's (None: not declared; Harbor's default is "public"). "no-network" makes our `network`
    `none`; it also declares the verification's network (verifier_network_declared)."""
    allow_internet: bool | None = None
    """Harbor's older spelling of network_mode (false: "no-network"), used only when that is not set."""
    allowed_hosts: list[str] | None = None
    os: Annotated[
        Literal["linux", "windows"], BeforeValidator(lambda v: v.lower() if isinstance(v, str) else v)
    ] = "linux"
    """Harbor's target OS (case-insensitive); envs.task refuses "windows": we run Linux containers."""
    gpus: Annotated[int, PlainNumber, Field(ge=0)] | None = None
    mcp_servers: list[dict[str, Any]] = Field(default_factory=list)
    """Harbor's MCP servers for the agent; not given to our harnesses (envs.task warns)."""
    skills_dir: str | None = None
    """Harbor's skills folder in the container; not copied into our harnesses' (envs.task warns)."""

    _allowed_hosts = field_validator("allowed_hosts")(_check_allowed_hosts)

    @model_validator(mode="before")
    @classmethod
    def _harbor_spellings(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for harbor, ours in (("memory", "memory_mb"), ("storage", "storage_mb")):
            if harbor in data and ours not in data:
                try:
                    data[ours] = parse_size_mb(data[harbor])
                except ValueError:
                    data[ours] = _Unparsed(harbor, data[harbor])
        harbor_mode = data.get("network_mode")
        if "network" not in data and harbor_mode == "no-network":
            data["network"] = NetworkMode.NONE.value
        if "network" not in data and harbor_mode is None and data.get("allow_internet") is False:
            data["network"] = NetworkMode.NONE.value
        return data

    @field_validator("memory_mb", "storage_mb", mode="before")
    @classmethod
    def _report_unparsed(cls, value: Any) -> Any:
        """A Harbor size that did not parse is reported at our field, naming what was written."""
        if isinstance(value, _Unparsed):
            raise ValueError(f"{value.key} must be a size like '2G' or '512M', or a number of MiB")
        return value

    @field_validator("workdir")
    @classmethod
    def _absolute_workdir(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith("/"):
            raise ValueError(f"must be an absolute path inside the container, got {value!r}")
        return value


class VerifierSection(_Section):
    """`[verifier]`: how the hidden tests run."""

    timeout_sec: Seconds = 600.0
    user: User = None
    env: dict[str, str] = Field(default_factory=dict)
    sandbox: VerifierSandbox = VerifierSandbox.FRESH
    artifacts: list[Annotated[str, AfterValidator(_artifact_path)]] | None = None
    """What the agent made that the tests read, as absolute paths copied into a `fresh` verifier
    sandbox. Default: the working directory."""
    artifacts_max_mb: Annotated[int, PlainNumber, Field(gt=0, le=MAX_ARTIFACTS_MB)] = 512
    """More than this, in the artifacts' archive, scores 0 (ArtifactsTooLarge)."""
    reward_range: tuple[FiniteFloat, FiniteFloat] = (0.0, 1.0)
    """The lowest and highest reward the tests may write; anything else is RewardFileInvalid. The gate
    wants the reference solution at the top and doing nothing (or a forgery) at the bottom."""
    judge: bool = False
    """An open-ended task: besides its tests, a rollout passes only when a WebJudge-style judge model says
    it succeeded (train.judge). Rollouts score such tasks only when a judge is configured; the gate
    proves the tests alone."""
    network_mode: HarborNetwork | None = None
    """Harbor's verification-phase override; see verifier_network_declared."""
    allowed_hosts: list[str] | None = None
    environment_mode: Literal["shared", "separate"] | None = None
    """Harbor's: "separate" runs the tests in a container of their own (see separate_verifier)."""
    environment: EnvironmentSection | None = None
    """Harbor's `[verifier.environment]`: the separate verifier's container (its presence implies
    "separate"); its image is built from tests/ unless it sets `docker_image`."""

    _allowed_hosts = field_validator("allowed_hosts")(_check_allowed_hosts)

    @field_validator("environment")
    @classmethod
    def _not_shared(cls, value: EnvironmentSection | None, info: ValidationInfo) -> EnvironmentSection | None:
        """As in Harbor: a verifier environment for tests that run in the agent's is a contradiction."""
        if value is not None and info.data.get("environment_mode") == "shared":
            raise ValueError(
                "is set, but [verifier].environment_mode is 'shared'; remove one of them "
                "(or set environment_mode = 'separate')"
            )
        return value

    @field_validator("artifacts")
    @classmethod
    def _distinct_artifacts(cls, value: list[str] | None) -> list[str] | None:
        """The same path twice would be copied twice into the verifier sandbox; surely a mistake."""
        if value is not None:
            twice = sorted({p for p in value if value.count(p) > 1})
            if twice:
                raise ValueError(f"lists {', '.join(map(repr, twice))} more than once")
        return value

    @field_validator("reward_range")
    @classmethod
    def _ordered_range(cls, value: tuple[float, float]) -> tuple[float, float]:
        """The gate needs a top (the solution) above a bottom (doing nothing)."""
        low, high = value
        if not low < high:
            raise ValueError("must be [low, high] with low < high")
        return value


class StepAgentSection(_Section):
    """`[steps.agent]`: one step's agent run."""

    timeout_sec: Seconds | None = None
    """None: the task's `[agent].timeout_sec` (Harbor's rule)."""
    user: User = None


class StepVerifierSection(_Section):
    """`[steps.verifier]`: one step's tests. As in Harbor, `timeout_sec` is not inherited from the
    task's `[verifier]` (Harbor's own default, 600 s, applies), while `env` goes over the task's."""

    timeout_sec: Seconds = 600.0
    env: dict[str, str] = Field(default_factory=dict)
    user: User = None


class StepSection(_Section):
    """One of Harbor's `[[steps]]`: its instruction, tests and solution live in `steps/<name>/`."""

    name: Annotated[str, AfterValidator(check_step_name)]
    agent: StepAgentSection = Field(default_factory=StepAgentSection)
    verifier: StepVerifierSection = Field(default_factory=StepVerifierSection)
    min_reward: float | dict[str, float] | None = None
    """Stop the remaining steps when this step's reward is below it (a float gates the `reward` key)."""
    healthcheck: Healthcheck | None = None


def _artifact_source(value: Any) -> Any:
    """Harbor compares artifact sources without their trailing '/', so `/app/out/` means `/app/out`."""
    if isinstance(value, str) and len(value) > 1:
        return value.rstrip("/") or "/"
    return value


class HarborArtifact(_Section):
    """One of Harbor's top-level `artifacts`: a path in the container collected after the agent's run
    (and, for a separate verifier, copied back to that same path in its container)."""

    source: Annotated[str, BeforeValidator(_artifact_source), AfterValidator(_artifact_path)]
    destination: str | None = None
    exclude: list[str] = Field(default_factory=list)


def _artifact_table(value: Any) -> Any:
    """Harbor writes an artifact as a bare path or as a table; both become a HarborArtifact."""
    return {"source": value} if isinstance(value, str) else value


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
    steps: list[StepSection] | None = None
    """Harbor's `[[steps]]`: a multi-step task, run in order in one sandbox, verified after each step."""
    multi_step_reward_strategy: Literal["mean", "final"] | None = None
    """How the steps' rewards make the task's (Harbor: None means "mean")."""
    artifacts: list[Annotated[HarborArtifact, BeforeValidator(_artifact_table)]] = Field(default_factory=list)
    """Harbor's top-level `artifacts` (see harbor_artifact_paths); ours is `[verifier].artifacts`."""

    @field_validator("steps")
    @classmethod
    def _distinct_steps(cls, value: list[StepSection] | None) -> list[StepSection] | None:
        """Two steps of one name would share `steps/<name>/` and their logs' folder."""
        if value is not None:
            names = [step.name for step in value]
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise ValueError(f"names {', '.join(map(repr, twice))} more than once")
        return value


def harbor_artifact_paths(config: TaskConfig) -> list[str]:
    """The absolute container paths of Harbor's top-level `artifacts`, each once, in order (validated on
    load like `[verifier].artifacts`): what a separate verifier gets back at the same paths."""
    return list(dict.fromkeys(artifact.source for artifact in config.artifacts))


def verifier_network_declared(config: TaskConfig) -> Literal["public", "no-network"]:
    """The network a task declares for its verification phase, by Harbor's rule: `[verifier].network_mode`
    if set, else the verification environment's `network_mode` (`[verifier.environment]` for a separate
    verifier that has one, else `[environment]`), else its `allow_internet` (true: public, false:
    no-network), else Harbor's default, public.

    "allowlist" counts as "public" here: we cannot enforce a host allowlist, so a verification that may
    reach some hosts gets the network or none; the caller warns. Whether it gets any is still the opt-in
    of whoever runs it (`--verifier-network`).
    """
    env = config.environment
    if separate_verifier(config) and config.verifier.environment is not None:
        env = config.verifier.environment
    declared = config.verifier.network_mode or env.network_mode
    if declared is None and env.allow_internet is not None:
        declared = "public" if env.allow_internet else "no-network"
    return "no-network" if declared == "no-network" else "public"


def separate_verifier(config: TaskConfig) -> bool:
    """Harbor's rule: the tests run in a container of their own when `[verifier].environment_mode` is
    "separate" or a `[verifier.environment]` is given ("shared" with one is refused on load)."""
    verifier = config.verifier
    return verifier.environment_mode == "separate" or verifier.environment is not None
