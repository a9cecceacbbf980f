"""Our data in veRL's shapes: the task dataset its dataloader reads, and training samples as a DataProto.

`write_task_dataset` writes one parquet row per catalog task, in the columns veRL's `RLHFDataset` reads
(`prompt`, `data_source`, `agent_name`, `extra_info`); the agent loop finds the task again through
`extra_info.task_dir`.

`samples_to_dataproto` lays out `TrainingSample`s (any number of chains per rollout) as veRL's actor
update takes them: `prompts` left-padded, `responses` right-padded, `input_ids`, `attention_mask` and
`position_ids` over both, `response_mask` (1 only on sampled tokens), `rollout_log_probs` when every
sample has them, `advantages`/`returns` (the rollout's advantage on its sampled tokens, as veRL's GRPO
writes them) and `token_level_scores`/`token_level_rewards` (the rollout's reward on the last response
token, as veRL's agent loop writes `rm_scores`). `non_tensor_batch` carries `uid` (the GRPO group),
`rollout_id`, `session_id` (the rollout's place in its group), `chain_index`, and `key`
(`{uid}_{session}_{chain}`, the key veRL's v1 trainer gives each agent-loop output), so veRL's own
advantage code (`verl_grpo_advantages`) can be run on the batch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from envs.task import Task
from train.grpo import RolloutReward
from train.trainer import TrainingSample
from train.verl.config import AGENT_LOOP_NAME

DATA_SOURCE = "openforge"


def task_rows(tasks: Sequence[Task]) -> list[dict[str, Any]]:
    """One veRL dataset row per task (the instruction as the prompt; the harness builds the real one)."""
    rows = []
    for index, task in enumerate(tasks):
        rows.append(
            {
                "data_source": DATA_SOURCE,
                "prompt": [{"role": "user", "content": task.instruction}],
                "agent_name": AGENT_LOOP_NAME,
                "ability": "agent",
                "reward_model": {"style": "verifier", "ground_truth": ""},
                "extra_info": {
                    "index": index,
                    "task": task.name,
                    "task_dir": str(Path(task.path).resolve()),
                },
            }
        )
    return rows


def write_task_dataset(tasks: Sequence[Task], path: Path, *, min_tasks: int = 1) -> Path:
    """Write the tasks as veRL's parquet dataset; `min_tasks` is the batch veRL must fill (it drops an
    incomplete last batch, so fewer tasks than `data.train_batch_size` would train nothing)."""
    import pandas as pd

    if len(tasks) < min_tasks:
        raise ValueError(
            f"{len(tasks)} task(s), but every step takes {min_tasks}: add tasks or lower tasks_per_step"
        )
    names = [t.name for t in tasks]
    if len(set(names)) != len(names):
        raise ValueError(f"task names repeat: {sorted({n for n in names if names.count(n) > 1})}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.parquet")
    pd.DataFrame(task_rows(tasks)).to_parquet(tmp, index=False)
    tmp.replace(path)
    return path


def _usable(sample: TrainingSample) -> bool:
    """What the local trainer trains on too: a prompt and at least one sampled token."""
    return bool(sample.prompt_ids) and any(sample.response_mask)


def samples_to_dataproto(
    samples: Sequence[TrainingSample],
    rewards: Sequence[RolloutReward],
    *,
    pad_token_id: int = 0,
    prompt_length: int | None = None,
    response_length: int | None = None,
    old_logprobs_from_rollout: bool = False,
) -> Any:
    """A `verl.DataProto` batch of the samples (see the module docstring).

    `rewards` names each rollout's group and reward. Samples with no prompt or no sampled token are
    left out (as the local trainer does). `prompt_length`/`response_length` pad to fixed widths (default:
    the longest in the batch); a longer sequence is an error, never cut. `old_logprobs_from_rollout`
    also sets `old_log_probs` to the sampling log-probs (veRL's rollout-correction bypass mode)."""
    from verl import DataProto
    from verl.utils.model import compute_position_id_with_mask

    reward_of: Mapping[str, RolloutReward] = {r.rollout_id: r for r in rewards}
    kept = [s for s in samples if _usable(s)]
    if not kept:
        raise ValueError("no sample has both a prompt and a sampled response token")
    if missing := sorted({s.rollout_id for s in kept if s.rollout_id not in reward_of}):
        raise ValueError(f"no reward (group) for rollout(s) {missing}")
    session: dict[str, int] = {}
    per_group: dict[str, int] = {}
    for reward in rewards:
        if reward.rollout_id not in session:
            session[reward.rollout_id] = per_group.get(reward.group, 0)
            per_group[reward.group] = session[reward.rollout_id] + 1
    longest_prompt = max(len(s.prompt_ids) for s in kept)
    longest_response = max(len(s.response_ids) for s in kept)
    width_p = prompt_length or longest_prompt
    width_r = response_length or longest_response
    if longest_prompt > width_p or longest_response > width_r:
        raise ValueError(
            f"a sample ({longest_prompt} prompt / {longest_response} response tokens) exceeds the widths "
            f"{width_p} / {width_r}"
        )
    n = len(kept)
    prompts = torch.full((n, width_p), pad_token_id, dtype=torch.int64)
    prompt_attention = torch.zeros((n, width_p), dtype=torch.int64)
    responses = torch.full((n, width_r), pad_token_id, dtype=torch.int64)
    response_attention = torch.zeros((n, width_r), dtype=torch.int64)
    response_mask = torch.zeros((n, width_r), dtype=torch.int64)
    logprobs = torch.zeros((n, width_r), dtype=torch.float32)
    scores = torch.zeros((n, width_r), dtype=torch.float32)
    advantages = torch.zeros((n, width_r), dtype=torch.float32)
    chain_of: dict[str, int] = {}
    uids, rollout_ids, sessions, chains, keys = [], [], [], [], []
    for i, s in enumerate(kept):
        p, r = len(s.prompt_ids), len(s.response_ids)
        prompts[i, width_p - p :] = torch.tensor(s.prompt_ids)
        prompt_attention[i, width_p - p :] = 1
        responses[i, :r] = torch.tensor(s.response_ids)
        response_attention[i, :r] = 1
        response_mask[i, :r] = torch.tensor(s.response_mask)
        if s.logprobs is not None:
            logprobs[i, :r] = torch.tensor(s.logprobs)
        reward = reward_of[s.rollout_id]
        scores[i, r - 1] = reward.reward
        advantages[i, :r] = s.advantage * response_mask[i, :r]
        chain = chain_of.get(s.rollout_id, 0)
        chain_of[s.rollout_id] = chain + 1
        uids.append(reward.group)
        rollout_ids.append(s.rollout_id)
        sessions.append(session[s.rollout_id])
        chains.append(chain)
        keys.append(f"{reward.group}_{session[s.rollout_id]}_{chain}")
    attention_mask = torch.cat([prompt_attention, response_attention], dim=1)
    tensors: dict[str, torch.Tensor] = {
        "prompts": prompts,
        "responses": responses,
        "input_ids": torch.cat([prompts, responses], dim=1),
        "attention_mask": attention_mask,
        "position_ids": compute_position_id_with_mask(attention_mask),
        "response_mask": response_mask,
        "token_level_scores": scores,
        "token_level_rewards": scores.clone(),
        "advantages": advantages,
        "returns": advantages.clone(),
    }
    if all(s.logprobs is not None for s in kept):
        tensors["rollout_log_probs"] = logprobs
        if old_logprobs_from_rollout:
            tensors["old_log_probs"] = logprobs.clone()
    elif old_logprobs_from_rollout:
        raise ValueError("old_logprobs_from_rollout: some samples have no sampling log-probs")
    non_tensors = {
        "uid": np.array(uids, dtype=object),
        "rollout_id": np.array(rollout_ids, dtype=object),
        "session_id": np.array(sessions, dtype=np.int64),
        "chain_index": np.array(chains, dtype=np.int64),
        "key": np.array(keys, dtype=object),
    }
    meta = {"global_token_num": attention_mask.sum(dim=-1).tolist()}
    return DataProto.from_dict(tensors=tensors, non_tensors=non_tensors, meta_info=meta)


def verl_grpo_advantages(data: Any, *, norm_adv_by_std_in_grpo: bool = True) -> dict[str, float]:
    """Per-rollout advantages as veRL's v1 trainer computes them on this batch: GRPO over each
    rollout's final chain grouped by `uid` (`compute_advantage_for_multi_trajectories`), then broadcast
    to the rollout's other chains. Returns rollout id -> advantage."""
    from verl.trainer.ppo.core_algos import AdvantageEstimator
    from verl.trainer.ppo.v1.utils import compute_advantage_for_multi_trajectories

    work = data.select(deepcopy=True)
    work = compute_advantage_for_multi_trajectories(
        work,
        batch_keys=[str(k) for k in work.non_tensor_batch["key"]],
        adv_estimator=AdvantageEstimator.GRPO,
        norm_adv_by_std_in_grpo=norm_adv_by_std_in_grpo,
    )
    mask = work.batch["response_mask"]
    first = mask.argmax(dim=1)
    values = work.batch["advantages"][torch.arange(len(work)), first]
    return {str(rid): float(v) for rid, v in zip(work.non_tensor_batch["rollout_id"], values, strict=True)}
