"""A synthesis run's directory: its settings (`run.json`, with the format version), and the records of
every stage. Every stage appends as each proposal finishes, so Ctrl-C loses nothing done, and rerunning
a stage goes on from where it stopped.

    RUN_DIR/
      run.json             settings; a resume with other settings, or of another format, is refused
      proposals.jsonl      every proposal, refined versions too (synth.spec.Proposal)
      rejected.jsonl       proposal attempts that produced no proposal (invalid model output)
      prune-report.jsonl   one decision per proposal: kept, or which rule / which proposal dropped it
      build.jsonl          task written, loaded, image built (synth.records.BuildRecord)
      test.jsonl           gate verdict, pass rate, band, accepted (synth.records.TestRecord)
      refine.jsonl         what went back to the proposer and what came back
      ledger.jsonl         seconds and tokens per proposal and stage
      embeddings.npz       the prune stage's embedding cache
      tasks/<id>/          the built task directories
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, Field

from envs.gate import tool_version
from synth.errors import RunDirError, RunDirMismatch, RunDirVersionMismatch
from synth.records import BuildRecord, LedgerEntry, RefineRecord, TestRecord, now
from synth.spec import Proposal, Rejected
from train.jsonl import append_jsonl, read_jsonl

FORMAT_VERSION = 1
RUN_FILE = "run.json"
_Record = TypeVar("_Record", bound=BaseModel)


class RunSettings(BaseModel):
    """What a run was started with; a resume must match (the stage options that may change between
    invocations, such as jobs or the band, are not here)."""

    domain: str
    proposer: str
    """offline or llm."""
    seed: int
    pools: list[str] = Field(default_factory=list)
    model_url: str | None = None
    """The LLM's OpenAI-compatible base URL (llm); its key comes from the environment, never the file."""
    model_name: str | None = None
    families: list[str] = Field(default_factory=list)
    """The offline families asked for (empty: all)."""


class RunManifest(BaseModel):
    format_version: int = FORMAT_VERSION
    tool_version: str = Field(default_factory=tool_version)
    created_at: str = Field(default_factory=now)
    settings: RunSettings


class RunDir:
    """One run directory: open (or create) it with the settings it must have."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.tasks = self.path / "tasks"

    # ---- settings -------------------------------------------------------------------------------
    @classmethod
    def create(cls, path: Path, settings: RunSettings) -> RunDir:
        """A new run, or the resume of one started with the same settings."""
        run = cls(path)
        if (run.path / RUN_FILE).is_file():
            found = run.manifest()
            changed = [
                f"{key}: {getattr(found.settings, key)!r} -> {value!r}"
                for key, value in settings.model_dump().items()
                if getattr(found.settings, key) != value
            ]
            if changed:
                raise RunDirMismatch(
                    f"{run.path} was started with other settings ({'; '.join(changed)}); "
                    "use another --out, or the same settings to resume"
                )
            return run
        run.path.mkdir(parents=True, exist_ok=True)
        run.tasks.mkdir(exist_ok=True)
        manifest = RunManifest(settings=settings)
        (run.path / RUN_FILE).write_text(json.dumps(manifest.model_dump(mode="json"), indent=2) + "\n")
        return run

    @classmethod
    def open(cls, path: Path) -> RunDir:
        """An existing run (for prune, build, test, refine, status, export)."""
        run = cls(path)
        if not (run.path / RUN_FILE).is_file():
            raise RunDirError(
                f"{run.path}: not a synthesis run directory (no {RUN_FILE}; start one with propose)"
            )
        run.manifest()
        return run

    def manifest(self) -> RunManifest:
        file = self.path / RUN_FILE
        try:
            data: dict[str, Any] = json.loads(file.read_text())
        except (OSError, ValueError) as exc:
            raise RunDirError(f"{file}: cannot read it as JSON: {exc}") from exc
        version = data.get("format_version")
        if version != FORMAT_VERSION:
            raise RunDirVersionMismatch(
                f"{file}: written by run format {version!r} (OpenForge {data.get('tool_version', '?')}), "
                f"this is format {FORMAT_VERSION}; start a new run directory"
            )
        try:
            return RunManifest.model_validate(data)
        except ValueError as exc:
            raise RunDirError(f"{file}: not a run manifest: {exc}") from exc

    @property
    def settings(self) -> RunSettings:
        return self.manifest().settings

    # ---- records --------------------------------------------------------------------------------
    def records(self, name: str, model: type[_Record]) -> list[_Record]:
        """Every record of one of the run's JSONL files, in the order written."""
        return read_jsonl(self.path / name, model)

    def append(self, name: str, records: Iterable[BaseModel]) -> None:
        append_jsonl(self.path / name, records)

    def proposals(self) -> list[Proposal]:
        """Every proposal, in the order made (the first line for an id wins: ids are never reused)."""
        seen: dict[str, Proposal] = {}
        for proposal in self.records("proposals.jsonl", Proposal):
            seen.setdefault(proposal.id, proposal)
        return list(seen.values())

    def rejected(self) -> list[Rejected]:
        return self.records("rejected.jsonl", Rejected)

    def latest(self, name: str, model: type[_Record]) -> dict[str, _Record]:
        """The last record per proposal id of a stage's file."""
        return {getattr(r, "id"): r for r in self.records(name, model)}  # noqa: B009

    def builds(self) -> dict[str, BuildRecord]:
        return self.latest("build.jsonl", BuildRecord)

    def tests(self) -> dict[str, TestRecord]:
        return self.latest("test.jsonl", TestRecord)

    def refinements(self) -> list[RefineRecord]:
        return self.records("refine.jsonl", RefineRecord)

    def ledger(self) -> list[LedgerEntry]:
        return self.records("ledger.jsonl", LedgerEntry)

    def task_dir(self, proposal_id: str) -> Path:
        return self.tasks / proposal_id
