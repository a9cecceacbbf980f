"""What flows between the stages, as pydantic models: a proposal (with its provenance) and the files of
the task it becomes.

A proposal is born in `propose`, judged in `prune`, becomes a task directory in `build` and is accepted
or dropped in `test`; `refine` makes a new version of it (`version` + 1, `parent` naming the old id).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from envs.task_config import check_task_name

Proposer = Literal["offline", "llm"]
Difficulty = Literal[1, 2, 3]
"""1 easy, 2 medium, 3 hard: what an offline family's parameters scale with, and what refine moves."""
DIFFICULTY_NAMES = {1: "easy", 2: "medium", 3: "hard"}


class PoolRef(BaseModel):
    """One pool item a proposal is grounded in."""

    model_config = ConfigDict(frozen=True)

    pool: str
    """The pool's name (its directory name, or `hf:<name>`)."""
    path: str
    """The item's path inside its pool (or the dataset's split and row range)."""
    sha256: str


class Provenance(BaseModel):
    """Where a proposal came from; written into its task's `[metadata]`."""

    domain: str
    proposer: Proposer
    family: str | None = None
    """The offline family that generated it."""
    model: str | None = None
    """The LLM that wrote it (`--model-name`)."""
    seed: int
    params: dict[str, Any] = Field(default_factory=dict)
    """The family's parameters (offline): with `family` and `seed`, enough to render the task again."""
    prompt_sha256: str | None = None
    """The sha256 of the prompt the LLM was given (llm), or of the family's parameters (offline)."""
    pool_items: list[PoolRef] = Field(default_factory=list)
    persona: str | None = None
    parent: str | None = None
    """The id of the proposal this one refines."""
    version: int = 1


class TaskFiles(BaseModel):
    """A task's files, relative to its directory (`environment/Dockerfile`, `tests/test.sh`, ...).

    task.toml is not among them: build writes it from the proposal (name, provenance, timeouts).
    """

    files: dict[str, str]

    @field_validator("files")
    @classmethod
    def _paths(cls, files: dict[str, str]) -> dict[str, str]:
        for path in files:
            parts = path.split("/")
            if path.startswith("/") or any(p in ("", ".", "..") for p in parts) or "\\" in path:
                raise ValueError(f"{path!r}: must be a relative path inside the task directory")
            if parts[0] not in ("environment", "tests", "solution", "instruction.md"):
                raise ValueError(f"{path!r}: must be instruction.md or under environment/, tests/, solution/")
            if path == "task.toml":
                raise ValueError("task.toml is written by the build stage, not by a proposal")
        for required in ("environment/Dockerfile", "tests/test.sh", "solution/solve.sh"):
            if required not in files:
                raise ValueError(f"{required} is missing")
        return files


class Proposal(BaseModel):
    """A task idea with its provenance; offline proposals carry their files, LLM ones get them in build."""

    id: str
    """Unique in the run, and the task's name: `<family or llm>-<seed>-<index>[-v<version>]`."""
    title: str
    """One line: what the agent must do."""
    instruction: str
    category: str
    difficulty: Difficulty = 2
    keywords: list[str] = Field(default_factory=list)
    provenance: Provenance
    workdir: str = "/app"
    healthcheck: str | None = None
    """`[environment.healthcheck] command`: a service the task starts must answer before the agent runs."""
    files: TaskFiles | None = None
    """Set for offline proposals (rendered from the family's templates); LLM proposals get theirs in
    build."""

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if "/" in value:
            raise ValueError("must be one name, without '/'")
        return check_task_name(value)

    @property
    def base_id(self) -> str:
        """The id of its first version (`<family or llm>-<seed>-<index>`)."""
        return self.id.rsplit("-v", 1)[0] if self.provenance.version > 1 else self.id

    @property
    def next_id(self) -> str:
        """The id its refined version gets."""
        return f"{self.base_id}-v{self.provenance.version + 1}"

    @property
    def content_sha256(self) -> str:
        """The hash of what the agent would face: instruction and files (exact duplicates share it)."""
        body = {"instruction": self.instruction.strip(), "files": self.files.files if self.files else {}}
        return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def params_sha256(params: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(params, sort_keys=True, default=str).encode()).hexdigest()


class Usage(BaseModel):
    """What one model call cost (the ledger sums it per task)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            calls=self.calls + other.calls,
        )


class ProposeRequest(BaseModel):
    """One batch of proposals to make."""

    domain: str
    n: int = Field(ge=1)
    seed: int
    start: int = 0
    """Index of the first proposal of the batch (a resumed or later batch goes on from here)."""
    personas: list[str] = Field(default_factory=list)
    """Who would ask for the task ("a data analyst at a shop", ...): varies what an LLM proposes."""


class Rejected(BaseModel):
    """A proposal attempt that produced no proposal (invalid JSON, a draft that failed validation)."""

    id: str
    stage: str
    error_class: str
    error: str
    usage: Usage = Field(default_factory=Usage)


Side = Literal["task", "agent", "none"]
"""Who a failure is on: the task (broken: build error, oracle fails, checker crashes, forgery passes) or
the agent (the task is sound; the policy's pass rate is outside the band)."""


class Evidence(BaseModel):
    """Why a proposal goes back to its proposer: what `refine` shows the LLM, or tells the family."""

    stage: Literal["build", "test"]
    side: Side
    reason: str
    """One line: the build error, the gate's reasons, the band it missed."""
    detail: str = ""
    """The build log's tail, the checker's output, the oracle's result."""
    pass_rate: float | None = None
    """The policy's pass rate, when the test stage ran rollouts."""


def attempt_id(prefix: str, seed: int, index: int) -> str:
    """The id of a run's first attempt number `index` (`prefix`: the family's name, or `llm`)."""
    return f"{prefix}-{seed}-{index:04d}"


def attempt_index(first_id: str) -> int:
    """The index of a first attempt's id (of a refined version: of its `base_id`)."""
    return int(first_id.rsplit("-", 1)[1])


def refined_difficulty(difficulty: int, evidence: Evidence) -> int:
    """What a refined version aims at: harder if the policy always passed, easier if it never did (or
    sometimes, outside a band), the same if the task was broken."""
    if evidence.side == "agent" and evidence.pass_rate is not None:
        return min(3, difficulty + 1) if evidence.pass_rate >= 1.0 else max(1, difficulty - 1)
    return difficulty
