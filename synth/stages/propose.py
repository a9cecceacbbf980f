"""The propose stage: ask the proposer for proposals until the run has made `n` first attempts."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from synth.proposer import Proposer
from synth.records import LedgerEntry
from synth.run_dir import RunDir
from synth.spec import Proposal, ProposeRequest, Rejected, attempt_index


def first_attempts(run: RunDir) -> int:
    """How many first attempts the run has made (proposals and rejections), i.e. the next index."""
    indexes = [attempt_index(p.id) for p in run.proposals() if p.provenance.version == 1]
    indexes += [attempt_index(r.id) for r in run.rejected() if r.stage == "propose"]
    return max(indexes, default=-1) + 1


@dataclass
class ProposeSummary:
    made: int = 0
    rejected: int = 0
    total: int = 0
    """First attempts in the run after this call."""


def propose_stage(
    run: RunDir,
    proposer: Proposer,
    n: int,
    personas: list[str] | None = None,
    on_done: Callable[[Proposal | Rejected], None] = lambda made: None,
) -> ProposeSummary:
    """Make first attempts until the run has `n` (a rerun after Ctrl-C goes on, one with a larger `n`
    adds more); each is appended as soon as it is made."""
    settings = run.settings
    start = first_attempts(run)
    summary = ProposeSummary(total=start)
    if start >= n:
        return summary
    request = ProposeRequest(
        domain=settings.domain, n=n - start, seed=settings.seed, start=start, personas=personas or []
    )
    clock = time.monotonic()
    for made, usage in proposer.propose(request):
        seconds, clock = time.monotonic() - clock, time.monotonic()
        if isinstance(made, Proposal):
            run.append("proposals.jsonl", [made])
            summary.made += 1
        else:
            run.append("rejected.jsonl", [made])
            summary.rejected += 1
        run.append("ledger.jsonl", [LedgerEntry(stage="propose", id=made.id, seconds=seconds, usage=usage)])
        summary.total += 1
        on_done(made)
    return summary
