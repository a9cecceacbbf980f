"""A rollout's chains as TrainingSamples: the form a policy update takes, one sample per chain.

The GRPO loop builds them from the chains each rollout built when it ended (`RolloutResult.trajectory`),
so a rollout's chains are built once; only a rollout read back from results.jsonl (a resumed step) has
its chains built again, from the proxy's records. A chain's images go with it as their files in the run's
blob store (beside the call store).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from proxy.blob_store import BlobStore
from proxy.store import CallStore
from proxy.trajectory import Chain, build_chains
from train.rollout import RolloutResult
from train.trainer import TrainingSample


def samples_from_chains(
    rollout_id: str, chains: Sequence[Chain], advantage: float, blobs: BlobStore | None = None
) -> list[TrainingSample]:
    """One sample per chain, each with the rollout's advantage; a chain's images are named by their file
    in `blobs` (the run's blob store), which a chain with images needs."""
    samples = []
    for chain in chains:
        if chain.images and blobs is None:
            raise ValueError(f"rollout {rollout_id!r}: its chain has images, but no blob store was given")
        samples.append(
            TrainingSample(
                rollout_id=rollout_id,
                prompt_ids=chain.prompt_ids,
                response_ids=chain.response_ids,
                response_mask=chain.response_mask,
                logprobs=chain.response_logprobs,
                advantage=advantage,
                images=[blobs.path(image.sha256) for image in chain.images] if blobs else [],
            )
        )
    return samples


def samples_from_store(store: CallStore, advantages: Mapping[str, float]) -> list[TrainingSample]:
    """Every chain of every rollout that has an advantage, built token-exactly from the proxy's records
    (for rollouts known only by id)."""
    samples: list[TrainingSample] = []
    for rollout_id, advantage in advantages.items():
        if calls := store.calls(rollout_id):
            chains = build_chains(calls, rollout_id).chains
            samples.extend(samples_from_chains(rollout_id, chains, advantage, BlobStore.beside(store.path)))
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
            samples.extend(
                samples_from_chains(
                    result.rollout_id, trajectory.chains, advantage, BlobStore.beside(store.path)
                )
            )
    return samples
