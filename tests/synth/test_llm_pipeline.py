"""The LLM path end to end, against a scripted OpenAI-compatible server that answers as models do, and
fails as they do: each failure lands in the right stage's drop or refine path, and nothing crashes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import docker
import pytest

from synth.llm import LLMConfig, LLMProposer
from synth.pipeline import PipelineOptions, run_pipeline
from synth.pools import load_pools
from synth.prune import PruneConfig
from synth.run_dir import RunDir, RunSettings
from synth.stages.prune import decisions
from synth.status import run_status
from tests.synth.scripted_llm import (
    Script,
    Status,
    broken_dockerfile,
    claw_task,
    crashing_checker,
    near_duplicate,
    scripted_llm,
    zero_oracle,
)


@pytest.fixture
def pool(tmp_path: Path) -> Path:
    folder = tmp_path / "pool"
    folder.mkdir()
    (folder / "sales.csv").write_text("region,amount\nnorth,3\nsouth,4\n")
    (folder / "README.md").write_text("# shop exports\n")
    return folder


def test_each_way_a_model_fails_lands_in_its_stage(tmp_path: Path, pool: Path, base_image: str) -> None:
    good = claw_task(0)
    script = Script(
        propose=[
            good,
            "Sure! Here is your task: {title: oops",  # not JSON: rejected at propose
            broken_dockerfile(claw_task(1), "run_false"),  # build fails -> refine
            crashing_checker(claw_task(2)),  # the tests leave no reward -> refine
            zero_oracle(claw_task(3)),  # the reference solution scores 0 -> refine
            near_duplicate(good),  # dropped by prune as a duplicate of the first
        ],
        # the first refine answer is not JSON (the refine is rejected and recorded, the run goes on),
        # the others are the good task each broken one came from
        refine=["not json at all"],
    )
    with scripted_llm(script) as url:
        settings = RunSettings(
            domain="claw", proposer="llm", seed=5, pools=[str(pool)], model_url=url, model_name="scripted"
        )
        run = RunDir.create(tmp_path / "run", settings)
        proposer = LLMProposer(
            "claw",
            load_pools([pool]),
            LLMConfig(base_url=url, model="scripted", api_key="x", retry_wait_sec=0.01),
        )
        # The scripted tasks come from one template (8 themes x 3 operations): at the default semantic
        # threshold some are rightly one task to the embedder; here each must reach its own stage.
        prune = PruneConfig(semantic=False)
        options = PipelineOptions(n=6, max_proposals=6, max_rounds=1, forgery=False, prune=prune)
        accepted = run_pipeline(run, proposer, docker.from_env(), options, writer=proposer)

    ids = [f"llm-5-{i:04d}" for i in range(6)]
    [rejected] = run.rejected()
    assert (rejected.id, rejected.stage, rejected.error_class) == (ids[1], "propose", "ProposalInvalid")
    judged = decisions(run)
    assert (
        judged[ids[5]].rule in ("near-duplicate", "semantic-duplicate")
        and judged[ids[5]].duplicate_of == ids[0]
    )
    builds, tests = run.builds(), run.tests()
    assert not builds[ids[2]].ok and builds[ids[2]].error_class == "BuildError" and builds[ids[2]].log_tail
    assert tests[ids[3]].side == "task" and "RewardFile" in tests[ids[3]].reasons[0]
    assert tests[ids[4]].side == "task" and "scored 0" in tests[ids[4]].reasons[0]
    refinements = {r.id: r for r in run.refinements()}
    assert set(refinements) == {ids[2], ids[3], ids[4]}
    rejected_refine = [r for r in refinements.values() if r.new_id is None]
    assert len(rejected_refine) == 1 and rejected_refine[0].error_class == "ProposalInvalid"
    fixed = sorted(r.new_id for r in refinements.values() if r.new_id)
    status = run_status(run)
    assert sorted(status.accepted) == sorted([ids[0], *fixed]) and accepted == 3
    assert status.prompt_tokens > 0 and status.completion_tokens > 0  # the ledger counts the model's tokens
    # the refine prompt showed the evidence: the build log's tail, or the checker's output
    refine_prompts = script.prompts("refine")
    assert len(refine_prompts) == 3 and any("BuildError" in p for p in refine_prompts)


def test_an_endpoint_that_keeps_failing_stops_the_run_cleanly_and_it_resumes(
    tmp_path: Path, pool: Path
) -> None:
    """Retried, then a clear error; the proposals made before are kept and the rerun goes on."""
    script = Script(propose=[claw_task(0), Status(500), Status(500), Status(500), Status(500)])
    with scripted_llm(script) as url:
        argv = [
            "propose", "--out", str(tmp_path / "run"), "--model", url, "--model-name", "scripted",
            "--pool", str(pool), "--n", "3", "--seed", "1",
        ]  # fmt: skip
        env = {**os.environ, "OPENAI_API_KEY": "x"}
        out = subprocess.run(
            [sys.executable, "-c", "from synth.cli import app; app()", *argv],
            capture_output=True, text=True, timeout=300, env=env,
        )  # fmt: skip
        assert out.returncode == 1, out.stdout + out.stderr
        assert "rerun the same command to go on" in " ".join(out.stderr.split()), out.stderr
        run = RunDir.open(tmp_path / "run")
        assert [p.id for p in run.proposals()] == ["llm-1-0000"]
        again = subprocess.run(
            [sys.executable, "-c", "from synth.cli import app; app()", *argv],
            capture_output=True, text=True, timeout=300, env=env,
        )  # fmt: skip
        assert again.returncode == 0, again.stdout + again.stderr
        assert [p.id for p in run.proposals()] == ["llm-1-0000", "llm-1-0001", "llm-1-0002"]
