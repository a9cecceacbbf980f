"""`train.verl.data` on CPU, checked with veRL's own classes and functions (veRL 0.9.1 is installed): our
samples as veRL's DataProto, veRL's GRPO (the v1 trainer's multi-chain advantage code and core_algos)
giving our group advantages, and the task dataset read by veRL's RLHFDataset."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch
from verl import DataProto
from verl.trainer.ppo.core_algos import compute_grpo_outcome_advantage
from verl.utils.dataset.rl_dataset import RLHFDataset

from envs.task import load_task
from tests.train.verl.batches import hand_batch, make_sample
from train.grpo import RolloutReward, group_advantages
from train.grpo_config import GRPOConfig
from train.verl.config import AGENT_LOOP_NAME, VerlRecipe, build_verl_config
from train.verl.data import samples_to_dataproto, verl_grpo_advantages, write_task_dataset


def test_samples_become_verls_actor_layout() -> None:
    samples, rewards, _ = hand_batch()
    data = samples_to_dataproto(samples, rewards, pad_token_id=0)
    assert isinstance(data, DataProto)
    data.check_consistency()
    assert len(data) == len(samples) == 11
    b = data.batch
    width_p, width_r = b["prompts"].shape[1], b["responses"].shape[1]
    assert (width_p, width_r) == (
        max(len(s.prompt_ids) for s in samples),
        max(len(s.response_ids) for s in samples),
    )
    for i, s in enumerate(samples):
        p, r = len(s.prompt_ids), len(s.response_ids)
        assert b["prompts"][i, width_p - p :].tolist() == s.prompt_ids  # left-padded
        assert b["prompts"][i, : width_p - p].eq(0).all()
        assert b["responses"][i, :r].tolist() == s.response_ids  # right-padded
        assert b["input_ids"][i].tolist() == b["prompts"][i].tolist() + b["responses"][i].tolist()
        assert b["attention_mask"][i].tolist() == [0] * (width_p - p) + [1] * (p + r) + [0] * (width_r - r)
        assert b["position_ids"][i, width_p - p :].tolist()[: p + r] == list(range(p + r))
        assert b["response_mask"][i].tolist() == s.response_mask + [0] * (width_r - r)
        assert b["rollout_log_probs"][i, :r].tolist() == pytest.approx(s.logprobs)
        assert b["advantages"][i].tolist() == pytest.approx(
            [s.advantage * m for m in s.response_mask] + [0] * (width_r - r)
        )
        reward = next(x.reward for x in rewards if x.rollout_id == s.rollout_id)
        assert b["token_level_scores"][i].tolist() == pytest.approx(
            [0.0] * (r - 1) + [reward] + [0.0] * (width_r - r)
        )
    nt = data.non_tensor_batch
    assert list(nt["rollout_id"]) == [s.rollout_id for s in samples]
    assert list(nt["uid"][:4]) == ["org/task_a"] * 4
    assert list(nt["key"][:4]) == ["org/task_a_0_0", "org/task_a_1_0", "org/task_a_1_1", "org/task_a_2_0"]
    assert data.meta_info["global_token_num"] == b["attention_mask"].sum(-1).tolist()
    assert b["prompts"].dtype == torch.int64 and b["advantages"].dtype == torch.float32
    assert "old_log_probs" not in b.keys()  # noqa: SIM118 - TensorDict has no `in`
    # veRL's own batch operations work on it.
    assert len(data.select_idxs([0, 2])) == 2
    assert [len(c) for c in data.chunk(1)] == [11]


def test_verls_grpo_gives_our_group_advantages() -> None:
    for scale in (True, False):
        config = GRPOConfig(scale_by_std=scale)
        samples, rewards, ours = hand_batch(config)
        data = samples_to_dataproto(samples, rewards)
        theirs = verl_grpo_advantages(data, norm_adv_by_std_in_grpo=scale)
        # Groups with equal rewards carry no signal: ours leaves them out, veRL gives them 0.
        assert set(ours) == {r.rollout_id for r in rewards if r.group != "task-c"}
        for r in rewards:
            assert theirs[r.rollout_id] == pytest.approx(ours.get(r.rollout_id, 0.0), rel=1e-5, abs=1e-6)
        # core_algos directly, one row per rollout: the same numbers.
        rows = [i for i, k in enumerate(data.non_tensor_batch["key"]) if k.endswith("_0")]
        single = data.select_idxs(rows)
        adv, _ = compute_grpo_outcome_advantage(
            token_level_rewards=single.batch["token_level_rewards"],
            response_mask=single.batch["response_mask"],
            index=single.non_tensor_batch["uid"],
            norm_adv_by_std_in_grpo=scale,
        )
        # ...and per token it is what the DataProto already carries (advantage on sampled tokens).
        assert torch.allclose(adv, single.batch["advantages"], atol=1e-5)
    # Hand values: group a has rewards 1, 0, .5, 0 (mean .375, unbiased std .4787).
    _, _, scaled = hand_batch()
    assert scaled["a0"] == pytest.approx(0.625 / 0.47871355, rel=1e-5)
    assert ours["a0"] == pytest.approx(0.625)  # Dr. GRPO: the mean subtracted only


def test_a_lone_rollout_differs_between_verl_and_us() -> None:
    """A group left with one rollout (its siblings dropped for infrastructure errors): veRL's GRPO uses
    mean 0 and std 1, so the raw reward becomes the advantage; ours has no signal and skips it."""
    rewards = [RolloutReward(rollout_id="x0", group="lone", reward=1.0)]
    assert group_advantages(rewards).values == {}
    data = samples_to_dataproto([make_sample("x0", [1, 2], [3, 4], [1, 1], 0.0)], rewards)
    assert verl_grpo_advantages(data)["x0"] == pytest.approx(1.0, rel=1e-5)


def test_conversion_errors_and_options() -> None:
    samples, rewards, _ = hand_batch()
    with pytest.raises(ValueError, match="no reward"):
        samples_to_dataproto(samples, rewards[1:])
    with pytest.raises(ValueError, match="exceeds"):
        samples_to_dataproto(samples, rewards, response_length=2)
    with pytest.raises(ValueError, match="no sample"):
        samples_to_dataproto([make_sample("a0", [1], [2], [0], 0.0)], rewards)
    fixed = samples_to_dataproto(
        [*samples, make_sample("a0", [], [7], [1], 0.0)],
        rewards,
        prompt_length=8,
        response_length=16,
        old_logprobs_from_rollout=True,
    )
    assert len(fixed) == len(samples)  # the sample without a prompt is left out
    assert fixed.batch["prompts"].shape[1] == 8 and fixed.batch["responses"].shape[1] == 16
    assert torch.equal(fixed.batch["old_log_probs"], fixed.batch["rollout_log_probs"])
    no_logprobs = [s.model_copy(update={"logprobs": None}) for s in samples]
    plain = samples_to_dataproto(no_logprobs, rewards)
    assert "rollout_log_probs" not in plain.batch.keys()  # noqa: SIM118
    with pytest.raises(ValueError, match="log-probs"):
        samples_to_dataproto(no_logprobs, rewards, old_logprobs_from_rollout=True)


def test_task_dataset_reads_through_verls_dataset(recipe: VerlRecipe, catalog: Path, tokenizer: Any) -> None:
    tasks = [load_task(p) for p in sorted(catalog.iterdir())]
    path = write_task_dataset(tasks, recipe.dataset_path, min_tasks=8)
    config = build_verl_config(recipe)
    dataset = RLHFDataset(str(path), tokenizer, config.data)
    assert len(dataset) == 8
    row = dataset[3]
    assert row["agent_name"] == AGENT_LOOP_NAME
    assert row["extra_info"]["task"] == "task-3"
    assert Path(row["extra_info"]["task_dir"]) == (catalog / "task-3").resolve()
    assert row["raw_prompt"][0]["content"] == "Create the file /app/done-3.\n"
    assert row["index"] == 3
    with pytest.raises(ValueError, match="every step takes 9"):
        write_task_dataset(tasks, recipe.dataset_path, min_tasks=9)
