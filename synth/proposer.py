"""The proposer interface both proposers implement (synth.offline.OfflineProposer, synth.llm.LLMProposer)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from synth.spec import Evidence, Proposal, ProposeRequest, Rejected, TaskFiles, Usage


class Proposer(Protocol):
    name: str

    def propose(self, request: ProposeRequest) -> Iterator[tuple[Proposal | Rejected, Usage]]:
        """`request.n` attempts, each a proposal or a rejection, with what it cost."""
        ...

    def refine(
        self, proposal: Proposal, evidence: Evidence, run_seed: int
    ) -> tuple[Proposal | Rejected, Usage]:
        """A new version of a failed proposal, made with the evidence of its failure."""
        ...


class FileWriter(Protocol):
    """What writes the files of a proposal that came without them (an LLM's, in the build stage)."""

    def write_files(self, proposal: Proposal) -> tuple[TaskFiles, Usage]: ...
