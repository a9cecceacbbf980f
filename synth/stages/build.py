"""The build stage: each surviving proposal becomes a task directory (its files from the family's
templates, or written by the LLM), which must load as a task and whose image must build (content-hash
tags: an unchanged task is never rebuilt). A browser task's action script (`solution/actions.json`) is
then recorded in its image: each click's point from its selector, as `forge-env record` does; a script
whose selector is missing or off screen fails the build with the replayer's message."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import docker

from envs.browser_record import actions_path, record_actions
from envs.errors import BuildError, EnvsError
from envs.image_builder import build_image
from envs.parallel import run_parallel
from envs.task import inspect_task
from synth.errors import ModelUnavailable, ProposalInvalid
from synth.proposer import FileWriter
from synth.records import BuildRecord, LedgerEntry
from synth.run_dir import RunDir
from synth.spec import Proposal, Usage
from synth.stages.prune import alive
from synth.task_writer import write_task

LOG_TAIL = 3000


def _tail(path: str | None) -> str:
    if not path or not Path(path).is_file():
        return ""
    return Path(path).read_text(errors="replace")[-LOG_TAIL:]


def build_one(
    run: RunDir, client: docker.DockerClient, proposal: Proposal, writer: FileWriter | None
) -> tuple[BuildRecord, Usage]:
    started = time.monotonic()
    usage = Usage()

    def failed(error: Exception, side: str = "task", log: str = "") -> tuple[BuildRecord, Usage]:
        return BuildRecord(
            id=proposal.id,
            ok=False,
            error_class=type(error).__name__,
            error=str(error),
            log_tail=log,
            side=side,  # type: ignore[arg-type]
            seconds=time.monotonic() - started,
        ), usage

    files = proposal.files
    if files is None:
        if writer is None:
            return failed(
                ProposalInvalid(f"{proposal.id}: has no files and no model is configured to write them")
            )
        try:
            files, usage = writer.write_files(proposal)
        except ProposalInvalid as exc:
            return failed(exc)
        except ModelUnavailable as exc:
            return failed(exc, side="none")
    dest = write_task(proposal, files, run.task_dir(proposal.id))
    task, problems = inspect_task(dest)
    errors = [p for p in problems if p.severity == "error"]
    if task is None or errors:
        return failed(ProposalInvalid("the task does not load: " + "; ".join(str(p) for p in errors)))
    try:
        built = build_image(client, task)
        if actions_path(task).is_file():
            record_actions(client, task, built.tag or "")
    except BuildError as exc:
        return failed(exc, log=_tail(exc.log_path))
    except EnvsError as exc:  # the recording's sandbox did not start: ours, the next build tries again
        return failed(exc, side="none")
    return BuildRecord(
        id=proposal.id,
        ok=True,
        task_dir=str(dest),
        image=built.tag,
        seconds=time.monotonic() - started,
    ), usage


def build_stage(
    run: RunDir,
    client: docker.DockerClient,
    writer: FileWriter | None = None,
    jobs: int = 2,
    on_done: Callable[[BuildRecord], None] = lambda record: None,
) -> list[BuildRecord]:
    """Build every alive proposal without a build record (or whose model was unavailable last time)."""
    records = run.builds()
    todo = [
        p
        for p in alive(run)
        if p.id not in records or (records[p.id].side == "none" and not records[p.id].ok)
    ]

    def one(proposal: Proposal) -> BuildRecord:
        record, usage = build_one(run, client, proposal, writer)
        run.append("build.jsonl", [record])
        run.append(
            "ledger.jsonl", [LedgerEntry(stage="build", id=proposal.id, seconds=record.seconds, usage=usage)]
        )
        on_done(record)
        return record

    return run_parallel(one, todo, jobs)
