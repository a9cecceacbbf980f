"""A proposal's task directory, in the layout envs loads: task.toml (provenance in `[metadata]`),
instruction.md, environment/, tests/, solution/."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path
from typing import Any

import tomli_w

from synth.spec import DIFFICULTY_NAMES, Proposal, TaskFiles

AGENT_TIMEOUT_SEC = 600
VERIFIER_TIMEOUT_SEC = 120
MEMORY_MB = 1024


def _without_none(value: Any) -> Any:
    """TOML has no null: None values inside a family's parameters are left out."""
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(v) for v in value if v is not None]
    return value


def task_config(proposal: Proposal) -> dict[str, Any]:
    """task.toml as a dict: the provenance goes in `[metadata.provenance]`, None fields left out."""
    provenance = _without_none(proposal.provenance.model_dump(mode="json", exclude_none=True))
    environment: dict[str, Any] = {"cpus": 1, "memory_mb": MEMORY_MB, "workdir": proposal.workdir}
    if proposal.healthcheck:
        environment["healthcheck"] = {"command": proposal.healthcheck, "timeout_sec": 60}
    return {
        "task": {"name": proposal.id, "description": proposal.title, "keywords": proposal.keywords},
        "metadata": {
            "domain": proposal.provenance.domain,
            "difficulty": DIFFICULTY_NAMES[proposal.difficulty],
            "category": proposal.category,
            "source": "openforge-synth",
            "proposal_sha256": proposal.content_sha256,
            "provenance": provenance,
        },
        "agent": {"timeout_sec": AGENT_TIMEOUT_SEC},
        "verifier": {"timeout_sec": VERIFIER_TIMEOUT_SEC},
        "environment": environment,
    }


def write_task(proposal: Proposal, files: TaskFiles, dest: Path) -> Path:
    """Write the task directory (replacing one left by an earlier, interrupted build) and return it."""
    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (tmp / "task.toml").write_bytes(tomli_w.dumps(task_config(proposal)).encode())
    contents = dict(files.files)
    contents.setdefault("instruction.md", proposal.instruction.rstrip() + "\n")
    for rel, text in contents.items():
        path = tmp / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if rel.endswith(".sh"):
            path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return dest


def read_task_files(task_dir: Path) -> TaskFiles | None:
    """The files of a written task (what refine shows the model for a proposal whose files the build
    stage had written), or None if there is no such task."""
    if not task_dir.is_dir():
        return None
    files = {
        str(path.relative_to(task_dir)): path.read_text(errors="replace")
        for path in sorted(task_dir.rglob("*"))
        if path.is_file() and path.relative_to(task_dir).parts[0] in ("environment", "tests", "solution")
    }
    try:
        return TaskFiles(files=files)
    except ValueError:
        return None
