"""A run's state: counts per stage, why proposals were dropped, and what each accepted task cost."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from synth.records import TestRecord
from synth.run_dir import RunDir
from synth.stages.prune import decisions


def gate_reason_class(record: TestRecord) -> str:
    """A short class for a test failure: oracle, nop, forgery, leak, band, infra, other."""
    if record.infra:
        return "infra"
    if record.side == "agent":
        return "band"
    text = " ".join(record.reasons)
    for word, name in (
        ("oracle", "oracle fails"),
        ("doing nothing", "nop passes"),
        ("forger", "forgery passes"),
        ("leak", "hidden file in image"),
        ("no solution", "no solution"),
    ):
        if word in text:
            return name
    return "other"


@dataclass
class RunStatus:
    first_attempts: int = 0
    proposals: int = 0
    refined_versions: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    kept: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    built: int = 0
    build_failed: Counter[str] = field(default_factory=Counter)
    verified: int = 0
    test_failed: Counter[str] = field(default_factory=Counter)
    accepted: list[str] = field(default_factory=list)
    refinements: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    by_family: Counter[str] = field(default_factory=Counter)

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())

    def per_accepted(self) -> tuple[float | None, float | None]:
        """(seconds, tokens) per accepted task: everything spent, over what was accepted."""
        if not self.accepted:
            return None, None
        tokens = self.prompt_tokens + self.completion_tokens
        return self.total_seconds / len(self.accepted), tokens / len(self.accepted)


def run_status(run: RunDir) -> RunStatus:
    status = RunStatus()
    proposals = run.proposals()
    by_id = {p.id: p for p in proposals}
    status.proposals = len(proposals)
    status.refined_versions = sum(p.provenance.version > 1 for p in proposals)
    for rejected in run.rejected():
        status.rejected[rejected.error_class] += 1
    status.first_attempts = (len(proposals) - status.refined_versions) + sum(
        r.stage == "propose" for r in run.rejected()
    )
    for decision in decisions(run).values():
        if decision.kept:
            status.kept += 1
        else:
            status.dropped[decision.rule or "?"] += 1
    for build in run.builds().values():
        if build.ok:
            status.built += 1
        else:
            status.build_failed[build.error_class or "?"] += 1
    for test in run.tests().values():
        status.verified += test.verified
        if test.accepted:
            status.accepted.append(test.id)
            proposal = by_id.get(test.id)
            if proposal is not None:
                status.by_family[proposal.provenance.family or proposal.provenance.proposer] += 1
        else:
            status.test_failed[gate_reason_class(test)] += 1
    status.refinements = len(run.refinements())
    for entry in run.ledger():
        status.seconds[entry.stage] = status.seconds.get(entry.stage, 0.0) + entry.seconds
        status.prompt_tokens += entry.usage.prompt_tokens
        status.completion_tokens += entry.usage.completion_tokens
    return status
