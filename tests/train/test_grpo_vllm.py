"""GRPO with the real vLLM as the engine: two steps in real containers through forge-react and the proxy,
with `GRPORunConfig(engine="vllm")`; vLLM is started by the run and serves each step's weights.

The task's hidden tests score a rollout with a pseudo-random number (nanoseconds of the clock), so every
group has a signal and every step updates the weights: this test is about the plumbing (rollouts sampled
by vLLM, scored, trained on token-exactly, the new weights synced into vLLM), not about learning.
"""

from __future__ import annotations

import json
from pathlib import Path

import docker
import pytest

from envs.image_builder import build_image
from envs.task import load_task
from harnesses.bundle import build_bundle
from harnesses.forge_react import ForgeReact
from proxy.store import CallStore
from proxy.vllm_env import ensure_vllm_env
from tests.conftest import write_task
from tests.proxy.test_vllm_real import build_vllm_model, max_gap, transformers_logprobs
from train.grpo_loop import CHECKPOINTS, GRPORunConfig, run_grpo
from train.local_trainer import LocalTrainer, LocalTrainerConfig

pytestmark = pytest.mark.vllm


@pytest.mark.docker
def test_two_grpo_steps_with_vllm_serving_each_steps_weights(
    client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    ensure_vllm_env()  # cached: installed once per machine
    model_dir = build_vllm_model(tmp_path / "model")
    task_dir = write_task(
        tmp_path / "tasks",
        "random-score",
        test_sh='echo "0.$(date +%N)" > /logs/verifier/reward.txt\n',
    )
    task = load_task(task_dir)
    tasks = [(task, build_image(client, task).tag or "")]
    harness = ForgeReact()
    config = GRPORunConfig(
        engine="vllm",
        steps=2,
        batch_tasks=1,
        group_size=2,
        concurrency=2,
        max_tokens=24,
        max_turns=2,
        agent_timeout=120,
        local=LocalTrainerConfig(lr=1e-2),  # a step moves the weights well past float noise
    )
    run_dir = tmp_path / "run"
    trainer = LocalTrainer(model_dir, config.local, config.grpo)
    records = run_grpo(tasks, [(harness, build_bundle(harness))], trainer, model_dir, run_dir, config)

    assert [r.step for r in records] == [0, 1]
    assert [r.policy_version for r in records] == [1, 2]  # each step synced its weights
    for record in records:
        assert record.rollouts == 2 and record.infra_errors == 0, record
        assert record.groups == 1 and record.skipped_groups == 0, record  # scored, and unequal
        assert record.update is not None and record.update.trained_tokens > 0, record
        # The trainer recomputed the sampling log-probs under the weights it holds: vLLM served the
        # very weights the trainer had at that step (step 1: the ones synced after step 0).
        assert record.update.approx_kl_old < 1e-6, record.update
    log = (run_dir / "vllm" / "server.log").read_text()
    assert log.count("Reloading weights inplace") >= 1 and "Resetting prefix cache" in log

    v1 = run_dir / CHECKPOINTS / "step-0000" / "model"  # the weights step 0 trained: policy version 1
    with CallStore.for_run(run_dir) as store:
        for step, version, weights in ((0, 0, model_dir), (1, 1, v1)):
            results = (run_dir / "steps" / f"{step:04d}" / "results.jsonl").read_text().splitlines()
            rollouts = [json.loads(line)["rollout_id"] for line in results]
            assert len(rollouts) == 2
            calls = [c for r in rollouts for c in store.calls(r)]
            assert calls and {c.policy_version for c in calls} == {version}
            for call in calls:
                assert call.prompt_ids and call.completion_ids and call.logprobs
                served = transformers_logprobs(weights, call.prompt_ids, call.completion_ids)
                assert max_gap(call.logprobs, served) < 1e-4
        # and step 1 was not served from the starting weights
        late = store.calls(json.loads(results[0])["rollout_id"])[0]
        stale = transformers_logprobs(model_dir, late.prompt_ids or [], late.completion_ids or [])
        assert max_gap(late.logprobs or [], stale) > 1e-2
