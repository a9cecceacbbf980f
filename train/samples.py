"""A rollout's chains as TrainingSamples: the form a policy update takes, one sample per chain.

The GRPO loop builds them from the chains each rollout built when it ended (`RolloutResult.trajectory`),
so a rollout's chains are built once; only a rollout read back from results.jsonl (a resumed step) has
its chains built again, from the proxy's records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from proxy.store import CallStore
from proxy.trajectory import Chain, build_chains
from train.rollout import RolloutResult
from train.trainer import TrainingSample


def samples_from_chains(rollout_id: str, chains: Sequence[Chain], advantage: float) -> list[TrainingSample]:
    """One sample per chain, each with the rollout's advantage."""
    return [
        TrainingSample(
            rollout_id=rollout_id,
            prompt_ids=chain.prompt_ids,
            response_ids=chain.response_ids,
            response_mask=chain.response_mask,
            logprobs=chain.response_logprobs,
            advantage=advantage,
        )
        for chain in chains
    ]


def samples_from_store(store: CallStore, advantages: Mapping[str, float]) -> list[TrainingSample]:
    """Every chain of every rollout that has an advantage, built token-exactly from the proxy's records
    (for rollouts known only by id)."""
    samples: list[TrainingSample] = []
    for rollout_id, advantage in advantages.items():
        if calls := store.calls(rollout_id):
            samples.extend(samples_from_chains(rollout_id, build_chains(calls, rollout_id).chains, advantage))
    return samples


def samples_from_results(
    results: Sequence[RolloutResult], advantages: Mapping[str, float], store: CallStore
) -> list[TrainingSample]:
    """Every chain of every rollout that has an advantage, in the order of `results`."""
    samples: list[TrainingSample] = []
    for result in results:
        advantage = advantages.get(result.rollout_id)
        if advantage is None:
            continue
        trajectory = result.trajectory
        if trajectory is None and (calls := store.calls(result.rollout_id)):
            trajectory = build_chains(calls, result.rollout_id)
        if trajectory is not None:
            samples.extend(samples_from_chains(result.rollout_id, trajectory.chains, advantage))
    return samples
