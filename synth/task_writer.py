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
BROWSER_MEMORY_MB = 2048
"""Chromium (the agent's, and the replayed solution's) needs more than a shell task."""
BROWSER_ARTIFACTS = ["/var/lib/forge-web", "/app"]
"""What the verifier reads: the site's database and the final answer (catalog/browser's tasks keep them)."""
SITE_HEALTHCHECK = {"interval_sec": 1, "start_interval_sec": 0.5, "start_period_sec": 30, "retries": 30}
"""The site starts with the container: the agent waits until it answers (as catalog/browser's tasks do)."""


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
    browser = proposal.provenance.domain == "browser"
    environment: dict[str, Any] = {
        "cpus": 1,
        "memory_mb": BROWSER_MEMORY_MB if browser else MEMORY_MB,
        "workdir": proposal.workdir,
    }
    if proposal.healthcheck:
        timing = SITE_HEALTHCHECK if browser else {"timeout_sec": 60}
        environment["healthcheck"] = {"command": proposal.healthcheck, **timing}
    metadata: dict[str, Any] = {
        "domain": proposal.provenance.domain,
        "difficulty": DIFFICULTY_NAMES[proposal.difficulty],
        "category": proposal.category,
        "source": "openforge-synth",
    }
    agent: dict[str, Any] = {"timeout_sec": AGENT_TIMEOUT_SEC}
    verifier: dict[str, Any] = {"timeout_sec": VERIFIER_TIMEOUT_SEC}
    if browser:  # as catalog/browser's tasks: the agent is the image's `agent`, the site is tagged
        site = proposal.provenance.params.get("site")
        metadata["tags"] = ["browser", *([f"site:{site}"] if site else []), proposal.category]
        agent["user"] = "agent"
        verifier["artifacts"] = BROWSER_ARTIFACTS
    metadata |= {"proposal_sha256": proposal.content_sha256, "provenance": provenance}
    return {
        "task": {"name": proposal.id, "description": proposal.title, "keywords": proposal.keywords},
        "metadata": metadata,
        "agent": agent,
        "verifier": verifier,
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
