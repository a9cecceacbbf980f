"""GRPO's algorithm settings, apart from the torch code that uses them, so the CLI and the veRL recipe
take their defaults from here without importing torch. They belong to the GRPO run
(`train.grpo_loop.GRPORunConfig.grpo`), not to a trainer: the trainer's own are its optimiser's."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

CLIP_LOW = 0.2
CLIP_HIGH = 0.28
"""DAPO's clip-higher: the one default of the model, the CLI and the veRL recipe."""


class GRPOConfig(BaseModel):
    """The knobs of the objective: advantages (`scale_by_std`, `eps`) and the loss (clips, KL)."""

    model_config = ConfigDict(extra="forbid")

    clip_low: float = Field(default=CLIP_LOW, gt=0, lt=1)
    """eps_low: the ratio is clipped below at 1 - ε_low."""
    clip_high: float = Field(default=CLIP_HIGH, gt=0)
    """eps_high: clipped above at 1 + ε_high (DAPO's clip-higher sets it above ε_low)."""
    kl_coef: float = Field(default=0.0, ge=0)
    """Weight of the KL penalty to the reference policy (0: no reference model is kept)."""
    scale_by_std: bool = True
    """Divide by the group's reward std (GRPO); False keeps only the mean subtraction (Dr. GRPO)."""
    eps: float = Field(default=1e-6, gt=0)
    temperature: float = Field(default=1.0, gt=0, le=2)
    """The policy is the model's distribution at this temperature: rollouts sample at it (the proxy forces
    it on every call, the engines record log-probs at it) and the loss computes its log-probs at it, as
    veRL's actor does with `rollout.temperature`."""
