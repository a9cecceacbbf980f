"""The offline proposer: procedural families, no model. Diverse by construction: proposal i of a run
comes from family i mod F (among those the pools can feed), its own seed, and a difficulty drawn from
the run's seed, so a run with the same seed and pools proposes the same tasks."""

from __future__ import annotations

import random
from collections.abc import Iterator

from synth.errors import PoolError, ProposalInvalid
from synth.families import families
from synth.families.base import Family
from synth.pools import Pools
from synth.spec import (
    Evidence,
    Proposal,
    ProposeRequest,
    Provenance,
    Rejected,
    TaskFiles,
    Usage,
    attempt_id,
    attempt_index,
    params_sha256,
    refined_difficulty,
)

DIFFICULTY_WEIGHTS = {1: 0.3, 2: 0.5, 3: 0.2}


def task_seed(run_seed: int, family: str, index: int, version: int = 1) -> int:
    """A proposal's own seed: stable per (run seed, family, index, version), independent of the others."""
    return random.Random(f"{run_seed}:{family}:{index}:{version}").randrange(2**31)


def make_proposal(
    family: Family,
    pools: Pools,
    seed: int,
    index: int,
    difficulty: int,
    version: int = 1,
    parent: str | None = None,
) -> Proposal:
    """Draft one task of `family` and wrap it as a proposal (raises ProposalInvalid if it is not one)."""
    own_seed = task_seed(seed, family.name, index, version)
    draft = family.draft(random.Random(own_seed), pools, difficulty)
    base_id = attempt_id(family.name, seed, index)
    try:
        return Proposal(
            id=base_id if version == 1 else f"{base_id}-v{version}",
            title=draft.title,
            instruction=draft.instruction,
            category=family.category,
            difficulty=difficulty,  # type: ignore[arg-type]
            keywords=draft.keywords,
            workdir=draft.workdir,
            healthcheck=draft.healthcheck,
            files=TaskFiles(files=draft.files),
            provenance=Provenance(
                domain=family.domain,
                proposer="offline",
                family=family.name,
                seed=own_seed,
                params={"difficulty": difficulty, **draft.params},
                prompt_sha256=params_sha256(draft.params),
                pool_items=[item.ref for item in draft.pool_items],
                parent=parent,
                version=version,
            ),
        )
    except ValueError as exc:
        raise ProposalInvalid(f"{base_id}: the family's draft is not a task: {exc}") from exc


class OfflineProposer:
    """Proposals from the domain's procedural families."""

    name = "offline"

    def __init__(self, domain: str, pools: Pools, family_names: list[str] | None = None) -> None:
        self.domain = domain
        self.pools = pools
        every = families(domain, family_names)
        self.families = [f for f in every if f.usable(pools)]
        if not self.families:
            kinds = sorted({k for f in every for k in f.pool_kinds})
            raise PoolError(
                f"the pools ({', '.join(pools.sources)}) hold nothing the {domain} families can use "
                f"(they need items of the kinds {', '.join(kinds)})"
            )
        self.by_name = {f.name: f for f in self.families}

    def propose(self, request: ProposeRequest) -> Iterator[tuple[Proposal | Rejected, Usage]]:
        for index in range(request.start, request.start + request.n):
            family = self.families[index % len(self.families)]
            rng = random.Random(f"{request.seed}:difficulty:{index}")
            difficulty = rng.choices(list(DIFFICULTY_WEIGHTS), weights=list(DIFFICULTY_WEIGHTS.values()))[0]
            try:
                made: Proposal | Rejected = make_proposal(family, self.pools, request.seed, index, difficulty)
            except (ProposalInvalid, ValueError, KeyError, IndexError) as exc:
                made = Rejected(
                    id=attempt_id(family.name, request.seed, index),
                    stage="propose",
                    error_class=type(exc).__name__,
                    error=str(exc),
                )
            yield made, Usage()

    def refine(
        self, proposal: Proposal, evidence: Evidence, run_seed: int
    ) -> tuple[Proposal | Rejected, Usage]:
        """A new version: harder if the policy always passed, easier if it never did, the same difficulty
        with a fresh seed if the task was broken."""
        family = self.by_name.get(proposal.provenance.family or "")
        base_id = proposal.base_id
        if family is None:
            return Rejected(
                id=base_id, stage="refine", error_class="UnknownFamily", error=proposal.id
            ), Usage()
        version = proposal.provenance.version + 1
        difficulty = refined_difficulty(proposal.difficulty, evidence)
        index = attempt_index(base_id)
        try:
            made = make_proposal(
                family, self.pools, run_seed, index, difficulty, version=version, parent=proposal.id
            )
        except (ProposalInvalid, ValueError, KeyError, IndexError) as exc:
            return Rejected(
                id=base_id, stage="refine", error_class=type(exc).__name__, error=str(exc)
            ), Usage()
        return made, Usage()
