"""The refine stage: what failed goes back to its proposer with the evidence, and comes back as a new
version (which then goes through prune, build and test like any proposal). Task-side failures carry the
build log's tail or the gate's runs (checker output, oracle result); agent-side ones the pass rate, so an
offline family makes the task harder (always passed) or easier (never passed)."""

from __future__ import annotations

import time
from collections.abc import Callable

from synth.errors import ModelUnavailable
from synth.proposer import Proposer
from synth.records import LedgerEntry, RefineRecord
from synth.run_dir import RunDir
from synth.spec import Evidence, Proposal, Rejected
from synth.task_writer import read_task_files


def evidence_for(run: RunDir, proposal: Proposal) -> Evidence | None:
    """Why `proposal` failed, or None if it did not (or failed for a reason of ours)."""
    build = run.builds().get(proposal.id)
    if build is not None and not build.ok:
        if build.side == "none":
            return None
        return Evidence(
            stage="build",
            side="task",
            reason=f"{build.error_class}: {build.error}",
            detail=build.log_tail,
        )
    test = run.tests().get(proposal.id)
    if test is None or test.accepted or test.infra or test.side == "none":
        return None
    return Evidence(
        stage="test",
        side=test.side,
        reason="; ".join(test.reasons),
        detail=test.detail,
        pass_rate=test.pass_rate,
    )


def refine_stage(
    run: RunDir,
    proposer: Proposer,
    max_rounds: int = 1,
    on_done: Callable[[RefineRecord], None] = lambda record: None,
) -> list[RefineRecord]:
    """Send back every failed proposal not yet refined whose version is at most `max_rounds`."""
    refined = {r.id for r in run.refinements()}
    made: list[RefineRecord] = []
    seed = run.settings.seed
    for proposal in run.proposals():
        if proposal.id in refined or proposal.provenance.version > max_rounds:
            continue
        evidence = evidence_for(run, proposal)
        if evidence is None:
            continue
        started = time.monotonic()
        if proposal.files is None:  # an LLM's: its files were written in the build stage
            proposal = proposal.model_copy(update={"files": read_task_files(run.task_dir(proposal.id))})
        try:
            new, usage = proposer.refine(proposal, evidence, seed)
        except ModelUnavailable as exc:  # not recorded as refined: the next refine asks again
            made.append(
                RefineRecord(
                    id=proposal.id,
                    round=proposal.provenance.version,
                    reason=evidence.reason,
                    side=evidence.side,
                    error_class=type(exc).__name__,
                    error=str(exc),
                )
            )
            continue
        record = RefineRecord(
            id=proposal.id,
            round=proposal.provenance.version,
            reason=evidence.reason[:500],
            side=evidence.side,
        )
        if isinstance(new, Rejected):
            record.error_class, record.error = new.error_class, new.error
        elif isinstance(new, Proposal):
            run.append("proposals.jsonl", [new])
            record.new_id = new.id
        run.append("refine.jsonl", [record])
        run.append(
            "ledger.jsonl",
            [LedgerEntry(stage="refine", id=proposal.id, seconds=time.monotonic() - started, usage=usage)],
        )
        made.append(record)
        on_done(record)
    return made
