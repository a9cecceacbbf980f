"""`forge-synth run`: all five stages, until the run has `n` accepted tasks or has spent its proposals.

Each round proposes, prunes, builds and tests, then refines what failed (up to `max_rounds` versions of
a proposal) and takes the new versions through the same stages. If fewer than `n` tasks are accepted,
it proposes again, as many as the acceptance rate so far says are needed, up to `max_proposals` first
attempts in all.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import docker

from synth.proposer import FileWriter, Proposer
from synth.prune import PruneConfig
from synth.run_dir import RunDir
from synth.stages.build import build_stage
from synth.stages.propose import first_attempts, propose_stage
from synth.stages.prune import prune_stage
from synth.stages.refine import refine_stage
from synth.stages.test import test_stage
from synth.status import run_status
from synth.trial import Band, PolicyTrial

MIN_RATE = 0.2
"""The acceptance rate assumed when topping up, at least: a run that accepts almost nothing does not
propose thousands at once."""


@dataclass
class PipelineHooks:
    """Progress callbacks (the CLI's bars); each gets the stage name and a one-line message."""

    stage: Callable[[str, int], None] = lambda name, total: None
    item: Callable[[str, str], None] = lambda name, message: None


@dataclass
class PipelineOptions:
    n: int
    max_proposals: int | None = None
    """First attempts at most (default 3 n)."""
    max_rounds: int = 1
    jobs: int = 2
    gate_runs: int = 2
    forgery: bool = True
    personas: list[str] = field(default_factory=list)
    prune: PruneConfig = field(default_factory=PruneConfig)
    band: Band = field(default_factory=Band)


def run_pipeline(
    run: RunDir,
    proposer: Proposer,
    client: docker.DockerClient,
    options: PipelineOptions,
    writer: FileWriter | None = None,
    trial: PolicyTrial | None = None,
    hooks: PipelineHooks | None = None,
) -> int:
    """Returns the number of accepted tasks."""
    hooks = hooks or PipelineHooks()
    cap = options.max_proposals or 3 * options.n
    attempts = max(options.n, first_attempts(run))
    while True:
        hooks.stage("propose", attempts)
        propose_stage(
            run, proposer, min(attempts, cap), options.personas, lambda p: hooks.item("propose", p.id)
        )
        for round_ in range(options.max_rounds + 1):
            hooks.stage("prune", 0)
            prune_stage(run, options.prune)
            hooks.stage("build", 0)
            build_stage(run, client, writer, options.jobs, lambda r: hooks.item("build", r.id))
            hooks.stage("test", 0)
            test_stage(
                run,
                client,
                jobs=options.jobs,
                runs=options.gate_runs,
                forgery=options.forgery,
                trial=trial,
                band=options.band,
                on_done=lambda r: hooks.item("test", r.id),
            )
            if round_ == options.max_rounds:
                break
            hooks.stage("refine", 0)
            if not any(r.new_id for r in refine_stage(run, proposer, options.max_rounds)):
                break
        accepted = len(run_status(run).accepted)
        made = first_attempts(run)
        if accepted >= options.n or made >= cap:
            return accepted
        rate = max(accepted / made if made else 1.0, MIN_RATE)
        attempts = min(cap, made + math.ceil((options.n - accepted) / rate))
