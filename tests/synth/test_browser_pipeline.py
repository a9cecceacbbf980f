"""The browser domain through the whole pipeline: offline proposals from the browser families, pruned
against catalog/browser, built on the browser image with their action scripts recorded, and gated
(the recorded script scores 1, doing nothing 0). The forgery stage on a browser task (the site, its
agent user, the extra artifacts) is tests/envs/test_browser_env.py::test_browser_tasks_pass_the_gate's."""

from __future__ import annotations

import json
from pathlib import Path

import docker
import pytest

from synth.families.web import WEB_POOL
from synth.offline import OfflineProposer
from synth.pipeline import PipelineOptions, run_pipeline
from synth.pools import load_pools
from synth.prune import PruneConfig
from synth.run_dir import RunDir, RunSettings
from synth.status import run_status

FAMILIES = ["shop-order", "wiki-edit"]
"""Two sites, a form through several pages each (the costlier kind): the gate runs each 9 times."""


@pytest.mark.docker
def test_two_browser_proposals_are_built_recorded_and_accepted(
    tmp_path: Path, client: docker.DockerClient, base_image: str
) -> None:
    settings = RunSettings(
        domain="browser", proposer="offline", seed=11, pools=[str(WEB_POOL)], families=FAMILIES
    )
    run = RunDir.create(tmp_path / "run", settings)
    proposer = OfflineProposer("browser", load_pools([WEB_POOL]), FAMILIES)
    options = PipelineOptions(
        n=2, max_proposals=2, max_rounds=0, forgery=False, prune=PruneConfig(semantic=False)
    )
    accepted = run_pipeline(run, proposer, client, options)
    status = run_status(run)
    builds = run.builds()
    failures = {i: (b.error or "")[-1500:] for i, b in builds.items() if not b.ok}
    assert accepted == 2, (failures, {i: (t.reasons, t.detail) for i, t in run.tests().items()})
    for name in status.accepted:
        steps = json.loads((run.task_dir(name) / "solution" / "actions.json").read_text())
        pointed = [s for s in steps if s["action"] in ("click", "type")]
        assert pointed and all(isinstance(s.get("x"), int) and isinstance(s.get("y"), int) for s in pointed)
        record = run.tests()[name]
        assert record.verified and record.accepted
        verified = json.loads((run.task_dir(name) / "verified.json").read_text())
        assert [r["reward"] for r in verified["oracle"]] == [1.0, 1.0] and verified["nop"]["reward"] == 0.0
        assert verified["forgeries"] == []  # skipped here (see the docstring)
