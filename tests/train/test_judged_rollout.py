"""An open-ended browser task in a real container (docker): catalog/browser's invoice lookup with
`[verifier] judge = true`, forge-web driven by the oracle. Its tests pass, and the judge decides: it
gets the screenshots forge-web sent the model and its final answer; a judge that says failure makes the
rollout 0; without a judge the rollout is a verifier error (JudgeError), never a 0 for the agent."""

from __future__ import annotations

import shutil
from pathlib import Path

import docker
import pytest

from envs.image_builder import build_image
from envs.task import load_task
from harnesses.registry import get_harness
from proxy.engines.oracle import OracleEngine
from proxy.session import ProxySession
from tests.conftest import harness_bundle
from tests.train.judge_server import JudgePolicy, judge_endpoint
from train.judge import WebJudge
from train.rollout import run_rollout

pytestmark = pytest.mark.docker

REPO = Path(__file__).resolve().parents[2]
LOOKUP = REPO / "catalog" / "browser" / "mail-lookup-invoice-amount"


def test_the_judge_decides_an_open_ended_tasks_reward(
    client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    catalog = tmp_path / "catalog"
    shutil.copytree(LOOKUP, catalog / LOOKUP.name)
    toml = catalog / LOOKUP.name / "task.toml"
    toml.write_text(toml.read_text().replace("[verifier]\n", "[verifier]\njudge = true\n", 1))
    task = load_task(catalog / LOOKUP.name)
    assert task.config.verifier.judge
    built = build_image(client, task)
    assert built.ok and built.tag, built.error
    harness = get_harness("forge-web")
    bundle = harness_bundle(harness)
    approving, refusing = JudgePolicy(), JudgePolicy(expect=None)
    with (
        ProxySession(OracleEngine(catalog), tmp_path / "run") as proxy,
        judge_endpoint(tmp_path / "a", approving) as (yes, _),
        judge_endpoint(tmp_path / "b", refusing) as (no, _),
    ):
        outcomes = {}
        for name, judge in (("approved", WebJudge(yes)), ("refused", WebJudge(no)), ("none", None)):
            outcomes[name] = run_rollout(
                task, built.tag, harness, bundle, proxy, model="forge-policy", logs_root=tmp_path, judge=judge
            )
    approved, refused, none = outcomes["approved"], outcomes["refused"], outcomes["none"]
    assert approved.status == "scored" and approved.reward == 1.0, (approved.error, approved.logs_dir)
    assert approved.judge is not None and approved.judge.success
    screenshots = len(approved.judge.screenshots)
    assert screenshots >= 3 and approved.judge.evidence, "forge-web's screenshots were judged"
    (verdict,) = approving.verdicts
    assert "1,190.25 GBP" in verdict.messages[-1].content, "the harness's answer reached the judge"
    assert refused.status == "scored" and refused.reward == 0.0 and refused.verifier is not None
    assert refused.verifier.reward == 1.0, "the tests passed: the judge made it 0"
    assert none.status == "verifier-error" and none.reward is None and none.error_class == "JudgeError"
