"""What a step-by-step trainer is (`Trainer`), and what it trains on.

A `TrainingSample` is one chain of a rollout (veRL's AgentLoopOutput fields: prompt ids, response ids,
response mask, the sampling log-probs, the images) with its rollout's advantage.
`train.local_trainer.LocalTrainer` is the one implementation: torch, on CPU, driven step by step by
`train.grpo_loop` and `train.sft`.
veRL is not one: on GPUs it owns the whole loop itself and calls OpenForge per rollout (`train.verl`:
a config generator plus an agent loop), so it has nothing to implement here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, Field, model_validator


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
    images: list[Path] = Field(default_factory=list)
    """The files of the prompt's images, in order (the run's blob store): a vision-language model reads
    their pixel values, through its own processor, wherever the ids hold their pads."""

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
    mismatch_kl: float | None = None
    """k3 of the trainer's log-probs against the engine's recorded ones on the step's first mini-batch,
    before any update moved the policy: what engine and trainer disagree on (numerics, a wrong
    temperature, weights not synced), apart from the step's own drift that `approx_kl_old` also holds.
    None when the samples carry no recorded log-probs."""
    mismatch_max: float | None = None
    """The largest |log-ratio| of those tokens: one token far off shows here, not in a mean."""
    grad_norm: float = 0.0
    samples: int = 0
    rollouts: int = 0
    trained_tokens: int = 0
    seconds: float = 0.0
    extra: dict[str, float] = Field(default_factory=dict)


class Trainer(Protocol):
    """A policy being trained step by step: GRPO and SFT updates, weights out for the engine, checkpoints.

    A protocol, so the loops take any object with these methods (a test double, another backend)."""

    def grpo_step(self, samples: Sequence[TrainingSample]) -> StepMetrics:
        """One GRPO update on these samples (their advantages already set)."""

    def sft_step(self, samples: Sequence[TrainingSample]) -> StepMetrics:
        """One supervised update: next-token loss on the masked (model-sampled) response tokens."""

    def export_weights(self, out_dir: Path) -> Path:
        """Write the current policy as a model directory an engine can load or reload."""

    def save_checkpoint(self, out_dir: Path) -> None:
        """Everything needed to resume training exactly (weights, optimizer, step)."""

    def load_checkpoint(self, checkpoint_dir: Path) -> None:
        """Resume from `save_checkpoint`'s directory."""
