"""Supervised fine-tuning on teacher trajectories.

`collect` keeps the successful rollouts of a teacher run (reward 1), builds their chains token-exactly
from the proxy's records and their chat conversations (messages + tools, the OpenAI / TRL format), and
drops duplicates. `save_dataset` writes both forms as one Hugging Face `datasets` dataset (one row per
chain: `prompt_ids`, `response_ids`, `response_mask`, the hashes of its images in the run's blob store,
plus the rollout's conversation as JSON);
`train` fine-tunes on it, learning only the tokens the teacher produced (mask 1).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from proxy.blob_store import BLOBS_DIRNAME, BlobStore
from proxy.sft import conversations
from proxy.store import CallStore
from train.pass_at_k import PASS_REWARD
from train.rollout import RolloutResult
from train.samples import samples_from_results
from train.trainer import StepMetrics, Trainer, TrainingSample


def collect(
    store: CallStore, results: Sequence[RolloutResult]
) -> tuple[list[TrainingSample], dict[str, str]]:
    """Samples of every successful rollout (duplicates dropped) and each rollout's conversation (JSON)."""
    winners = {r.rollout_id: 0.0 for r in results if r.passed}
    seen: set[str] = set()
    samples: list[TrainingSample] = []
    for sample in samples_from_results(results, winners, store):
        key = hashlib.sha256(json.dumps([sample.prompt_ids, sample.response_ids]).encode()).hexdigest()
        if key not in seen:
            seen.add(key)
            samples.append(sample)
    chats: dict[str, str] = {}
    for rollout_id in winners:
        examples = conversations(
            store.calls(rollout_id), reward=PASS_REWARD, blobs=BlobStore.beside(store.path)
        )
        if examples:
            longest = max(examples, key=lambda e: len(e.messages))
            chat: dict[str, Any] = {"messages": longest.messages, "tools": longest.tools}
            if longest.images:  # by hash: the bytes are in the run's blob store
                chat["images"] = [image.sha256 for image in longest.images]
            chats[rollout_id] = json.dumps(chat)
    return samples, chats


def save_dataset(samples: Sequence[TrainingSample], chats: dict[str, str], out_dir: Path) -> Path:
    """One row per chain, token-level and chat form, as a `datasets` dataset on disk."""
    from datasets import Dataset

    rows = {
        "rollout_id": [s.rollout_id for s in samples],
        "prompt_ids": [s.prompt_ids for s in samples],
        "response_ids": [s.response_ids for s in samples],
        "response_mask": [s.response_mask for s in samples],
        "conversation": [chats.get(s.rollout_id, "") for s in samples],
        "images": [[path.name for path in s.images] for s in samples],
    }
    Dataset.from_dict(rows).save_to_disk(str(out_dir))
    return out_dir


def load_dataset_samples(path: Path) -> list[TrainingSample]:
    """The samples of a dataset written by `save_dataset`; their images (by hash) from the blob store of
    the run it was written in (`<run>/blobs` beside `<run>/dataset`)."""
    from datasets import load_from_disk

    try:
        data = load_from_disk(str(path))
    except FileNotFoundError as exc:
        raise FileNotFoundError(f"{path} is not a dataset written by `forge-train sft-data`") from exc
    missing = {"rollout_id", "prompt_ids", "response_ids", "response_mask"} - set(data.column_names)
    if missing:
        raise ValueError(f"{path}: the dataset lacks the columns {sorted(missing)}")
    blobs = BlobStore(path.parent / BLOBS_DIRNAME)
    samples = []
    for row in data:
        images = [blobs.path(digest) for digest in row.get("images") or []]
        if absent := [image for image in images if not image.is_file()]:
            raise FileNotFoundError(f"{path}: image {absent[0]} of rollout {row['rollout_id']} is missing")
        samples.append(
            TrainingSample(
                rollout_id=row["rollout_id"],
                prompt_ids=row["prompt_ids"],
                response_ids=row["response_ids"],
                response_mask=row["response_mask"],
                images=images,
            )
        )
    return samples


def train(
    trainer: Trainer,
    samples: Sequence[TrainingSample],
    epochs: int,
    batch_size: int = 4,
    seed: int = 0,
    on_step: Callable[[int, StepMetrics], None] = lambda epoch, metrics: None,
) -> list[float]:
    """`epochs` passes over the samples in shuffled mini-batches; the mean loss of each epoch."""
    if epochs < 1 or batch_size < 1:
        raise ValueError(f"epochs ({epochs}) and batch_size ({batch_size}) must be at least 1")
    if not samples:
        raise ValueError("no samples to train on (did any teacher rollout succeed?)")
    rng = random.Random(seed)
    order = list(samples)
    losses = []
    for epoch in range(epochs):
        rng.shuffle(order)
        total, batches = 0.0, 0
        for start in range(0, len(order), batch_size):
            metrics = trainer.sft_step(order[start : start + batch_size])
            on_step(epoch, metrics)
            total, batches = total + metrics.loss, batches + 1
        losses.append(total / batches)
    return losses
