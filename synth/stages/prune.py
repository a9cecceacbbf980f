"""The prune stage: every proposal not yet judged is kept or dropped (synth.prune's rules), against the
evaluation catalogs' tasks and every proposal still alive in the run."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from synth.errors import RunDirError
from synth.prune import PruneConfig, PruneDecision, blocklist_from_catalogs, prune
from synth.records import LedgerEntry
from synth.run_dir import RunDir
from synth.similarity import EmbeddingCache
from synth.spec import Proposal

PRUNE_FILE = "prune-report.jsonl"
EMBEDDINGS_FILE = "embeddings.npz"
CATALOGS = Path(__file__).resolve().parents[2] / "catalog"
DEFAULT_BLOCKLIST = (CATALOGS / "claw",)
"""The catalogs we evaluate on: a training task must never duplicate one of theirs."""


def default_blocklist(domain: str) -> tuple[Path, ...]:
    """The evaluation catalog of the run's domain (`catalog/<domain>`), where there is one."""
    own = CATALOGS / domain
    return (own,) if domain != "claw" and own.is_dir() else DEFAULT_BLOCKLIST


def decisions(run: RunDir) -> dict[str, PruneDecision]:
    return run.latest(PRUNE_FILE, PruneDecision)


def failed(run: RunDir) -> set[str]:
    """Proposals that failed build or test: they no longer stand in the way of a new one (their refined
    version is compared with the others, not with them)."""
    builds, tests = run.builds(), run.tests()
    return {i for i, b in builds.items() if not b.ok and b.side != "none"} | {
        i for i, t in tests.items() if not t.accepted and not t.infra and t.side != "none"
    }


def alive(run: RunDir, proposals: Sequence[Proposal] | None = None) -> list[Proposal]:
    """Kept by prune and not failed since."""
    judged, gone = decisions(run), failed(run)
    return [
        p for p in proposals or run.proposals() if p.id in judged and judged[p.id].kept and p.id not in gone
    ]


def prune_stage(
    run: RunDir,
    config: PruneConfig | None = None,
    blocklist: Sequence[Path] | None = None,
) -> list[PruneDecision]:
    """Judge every proposal the report does not have yet against `blocklist` (default: the evaluation
    catalog of the run's domain); returns this call's decisions."""
    proposals = run.proposals()
    judged = decisions(run)
    todo = [p for p in proposals if p.id not in judged]
    if not todo:
        return []
    default = blocklist is None
    blocklist = default_blocklist(run.settings.domain) if blocklist is None else blocklist
    missing = [str(b) for b in blocklist if not Path(b).is_dir() and not default]
    if missing:
        raise RunDirError(f"--blocklist {missing[0]}: not a catalog directory")
    started = time.monotonic()
    cache = EmbeddingCache(run.path / EMBEDDINGS_FILE)
    made = prune(
        todo,
        kept_before=alive(run, proposals),
        blocklist=blocklist_from_catalogs([Path(b) for b in blocklist if Path(b).is_dir()]),
        config=config or PruneConfig(),
        cache=cache,
    )
    cache.save()
    run.append(PRUNE_FILE, made)
    share = (time.monotonic() - started) / len(todo)
    run.append("ledger.jsonl", [LedgerEntry(stage="prune", id=p.id, seconds=share) for p in todo])
    return made
