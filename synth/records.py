"""What each stage records in the run directory, one JSONL line per proposal and stage (append-only:
a later line about the same proposal replaces an earlier one, so a rerun of an infrastructure failure
or a refined version never rewrites history)."""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, Field

from synth.spec import Side, Usage


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class BuildRecord(BaseModel):
    """build.jsonl: the task directory was written, loads, and its image builds."""

    id: str
    ok: bool
    task_dir: str | None = None
    image: str | None = None
    error_class: str | None = None
    error: str | None = None
    log_tail: str = ""
    """The end of the image build's log (what refine shows an LLM)."""
    side: Side = "none"
    seconds: float = 0.0
    at: str = Field(default_factory=now)


class TestRecord(BaseModel):
    """test.jsonl: the gate's verdict, then (with a policy) the pass rate and the band."""

    __test__ = False  # not a pytest class

    id: str
    verified: bool
    reasons: list[str] = Field(default_factory=list)
    """The gate's reasons, or the band it missed."""
    detail: str = ""
    """The failing runs' checker output and errors (what refine shows)."""
    side: Side = "none"
    infra: bool = False
    """The gate or a rollout failed for a reason of ours: the next `test` tries this task again."""
    pass_rate: float | None = None
    rewards: list[float | None] = Field(default_factory=list)
    accepted: bool = False
    forgery_stage: bool = True
    """Whether the gate's forgery stage was on for this task (`--no-forgery` turns it off; the export
    names the accepted tasks it was off for)."""
    gate_seconds: float = 0.0
    rollout_seconds: float = 0.0
    at: str = Field(default_factory=now)


class RefineRecord(BaseModel):
    """refine.jsonl: a failed proposal went back to its proposer."""

    id: str
    round: int
    new_id: str | None = None
    """The new version's id (None: the proposer could not make one, see error)."""
    reason: str
    side: Side
    error_class: str | None = None
    error: str | None = None
    at: str = Field(default_factory=now)


class LedgerEntry(BaseModel):
    """ledger.jsonl: time (and model tokens) spent on one proposal in one stage; the run's cost per
    accepted task is the sum over every proposal, accepted or not."""

    stage: str
    id: str
    seconds: float
    usage: Usage = Field(default_factory=Usage)
    at: str = Field(default_factory=now)
