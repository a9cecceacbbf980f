"""The trainer interface every backend implements, and what it trains on.

A `TrainingSample` is one chain of a rollout (veRL's AgentLoopOutput fields: prompt ids, response ids,
response mask, the sampling log-probs) with its rollout's advantage. The `local` backend trains a small
model with torch on CPU; the `verl` backend hands the same samples to veRL on GPUs. Backends are named
in one registry, imported lazily.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, model_validator

from proxy.store import CallStore
from proxy.trajectory import build_chains


class TrainingSample(BaseModel):
    """One chain of one rollout, ready for a policy update."""

    rollout_id: str
    prompt_ids: list[int]
    response_ids: list[int]
    response_mask: list[int]
    """1 where the model sampled the token (trained), 0 elsewhere (tool results, framing)."""
    logprobs: list[float] | None = None
    """Sampling log-prob per response token (0.0 where the mask is 0); None if the engine gave none."""
    advantage: float = 0.0

    @model_validator(mode="after")
    def _aligned(self) -> TrainingSample:
        n = len(self.response_ids)
        if len(self.response_mask) != n or (self.logprobs is not None and len(self.logprobs) != n):
            raise ValueError(
                f"rollout {self.rollout_id!r}: response ids, mask and log-probs differ in length"
            )
        return self


class StepMetrics(BaseModel):
    """What one policy update did."""

    loss: float
    policy_loss: float = 0.0
    kl: float = 0.0
    clip_fraction: float = 0.0
    approx_kl_old: float = 0.0
    grad_norm: float = 0.0
    samples: int = 0
    rollouts: int = 0
    trained_tokens: int = 0
    seconds: float = 0.0
    extra: dict[str, float] = Field(default_factory=dict)


def samples_from_store(store: CallStore, advantages: Mapping[str, float]) -> list[TrainingSample]:
    """Every chain of every rollout that has an advantage, built token-exactly from the proxy's records."""
    samples: list[TrainingSample] = []
    for rollout_id, advantage in advantages.items():
        calls = store.calls(rollout_id)
        if not calls:
            continue
        for chain in build_chains(calls, rollout_id).chains:
            samples.append(
                TrainingSample(
                    rollout_id=rollout_id,
                    prompt_ids=chain.prompt_ids,
                    response_ids=chain.response_ids,
                    response_mask=chain.response_mask,
                    logprobs=chain.response_logprobs,
                    advantage=advantage,
                )
            )
    return samples


class Trainer(ABC):
    """A policy being trained: GRPO and SFT updates, weights out for the engine, checkpoints."""

    @abstractmethod
    def grpo_step(self, samples: Sequence[TrainingSample]) -> StepMetrics:
        """One GRPO update on these samples (their advantages already set)."""

    @abstractmethod
    def sft_step(self, samples: Sequence[TrainingSample]) -> StepMetrics:
        """One supervised update: next-token loss on the masked (model-sampled) response tokens."""

    @abstractmethod
    def export_weights(self, out_dir: Path) -> Path:
        """Write the current policy as a model directory an engine can load or reload."""

    @abstractmethod
    def save_checkpoint(self, out_dir: Path) -> None:
        """Everything needed to resume training exactly (weights, optimizer, step)."""

    @abstractmethod
    def load_checkpoint(self, checkpoint_dir: Path) -> None:
        """Resume from `save_checkpoint`'s directory."""


TRAINERS: dict[str, str] = {
    "local": "train.local_trainer:LocalTrainer",
    "verl": "train.verl_trainer:VerlTrainer",
}
"""Trainer backend name -> `module:Class`."""


def create_trainer(name: str, **options: Any) -> Trainer:
    target = TRAINERS.get(name, name)
    if ":" not in target:
        raise ValueError(f"unknown trainer {name!r}; known: {', '.join(TRAINERS)}")
    module_name, class_name = target.split(":", 1)
    trainer = getattr(importlib.import_module(module_name), class_name)(**options)
    if not isinstance(trainer, Trainer):
        raise TypeError(f"{target} is not a Trainer")
    return trainer
