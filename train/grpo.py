"""GRPO's maths: group-normalised advantages and the PPO-clip policy loss, with an optional KL penalty
to a reference policy.

Advantages: within a group (the rollouts of one task in one step), A_i = (r_i - mean) / (std + eps),
std unbiased as in veRL's `compute_grpo_outcome_advantage` (or no std division, Dr. GRPO's choice).
Groups whose rewards are all equal carry no signal and are skipped. A rollout split into several chains
gives every chain its advantage.

Loss: the clipped surrogate per token, -min(r A, clip(r, 1-eps_low, 1+eps_high) A) with r = exp(logp - old),
plus `kl_coef` times the k3 estimate of KL(pi || pi_ref). Token losses are averaged within each rollout
first, over all of its chains, and those per-rollout means are averaged: a long rollout weighs as much
as a short one.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

import torch
from pydantic import BaseModel

from train.grpo_config import GRPOConfig


class RolloutReward(BaseModel):
    rollout_id: str
    group: str
    reward: float


class Advantages(BaseModel):
    """Per-rollout advantages, and what was skipped."""

    values: dict[str, float]
    """rollout id -> advantage, for rollouts of groups with signal."""
    groups: int
    skipped_groups: int
    """Groups with equal rewards (or a single rollout): no advantage, left out of the update."""


def group_advantages(rewards: Sequence[RolloutReward], config: GRPOConfig | None = None) -> Advantages:
    config = config or GRPOConfig()
    by_group: dict[str, list[RolloutReward]] = defaultdict(list)
    for reward in rewards:
        if not math.isfinite(reward.reward):
            raise ValueError(f"rollout {reward.rollout_id!r}: reward {reward.reward} is not finite")
        by_group[reward.group].append(reward)
    values: dict[str, float] = {}
    skipped = 0
    for members in by_group.values():
        scores = [m.reward for m in members]
        mean = sum(scores) / len(scores)
        if len(scores) < 2 or all(s == scores[0] for s in scores):
            skipped += 1
            continue
        std = math.sqrt(sum((s - mean) ** 2 for s in scores) / (len(scores) - 1))
        scale = std + config.eps if config.scale_by_std else 1.0
        for member in members:
            values[member.rollout_id] = (member.reward - mean) / scale
    return Advantages(values=values, groups=len(by_group), skipped_groups=skipped)


class LossParts(BaseModel):
    """The loss's terms and diagnostics, as plain numbers."""

    loss: float
    policy_loss: float
    kl: float
    """Mean k3 KL(pi || pi_ref) per token (0 without a reference)."""
    clip_fraction: float
    """Share of tokens where the clipped branch set the gradient to zero."""
    approx_kl_old: float
    """Mean k3 KL between the old (sampling) policy and the current one."""
    ratio_mean: float


class TokenLosses(BaseModel, arbitrary_types_allowed=True):
    """Per-token terms of the objective (flat tensors over trained tokens)."""

    loss: torch.Tensor
    """The clipped surrogate plus the weighted KL, per token (differentiable)."""
    surrogate: torch.Tensor
    kl: torch.Tensor
    clipped: torch.Tensor
    """1.0 where the clipped branch set the gradient to zero."""
    log_ratio: torch.Tensor


def token_losses(
    logprobs: torch.Tensor,
    old_logprobs: torch.Tensor,
    advantages: torch.Tensor,
    config: GRPOConfig,
    ref_logprobs: torch.Tensor | None = None,
) -> TokenLosses:
    """The objective's per-token terms; `policy_loss` averages them per rollout."""
    n = logprobs.shape[0]
    for name, t in (("old_logprobs", old_logprobs), ("advantages", advantages)):
        if t.shape != (n,):
            raise ValueError(f"{name} has shape {tuple(t.shape)}, expected ({n},)")
    log_ratio = logprobs - old_logprobs
    ratio = torch.exp(log_ratio)
    unclipped = ratio * advantages
    clipped = torch.clamp(ratio, 1 - config.clip_low, 1 + config.clip_high) * advantages
    surrogate = -torch.minimum(unclipped, clipped)
    kl = torch.zeros_like(logprobs)
    if ref_logprobs is not None and config.kl_coef > 0:
        kl = k3(logprobs - ref_logprobs)
    with torch.no_grad():
        was_clipped = (clipped < unclipped).to(logprobs.dtype)
    return TokenLosses(
        loss=surrogate + config.kl_coef * kl,
        surrogate=surrogate,
        kl=kl,
        clipped=was_clipped,
        log_ratio=log_ratio.detach(),
    )


def k3(log_ratio: torch.Tensor) -> torch.Tensor:
    """Schulman's k3 estimate of KL(pi || q) per token, from log pi - log q of tokens sampled from pi:
    never negative, 0 where the two agree."""
    return torch.exp(-log_ratio) + log_ratio - 1


def token_weights(rollout_index: torch.Tensor, num_rollouts: int, dtype: torch.dtype) -> torch.Tensor:
    """Each trained token's weight in the loss: 1 / (rollouts with tokens * the tokens of its own rollout),
    so the loss is the mean over rollouts of each rollout's mean token loss (a long rollout weighs no more
    than a short one). The local trainer applies these same weights sample by sample."""
    counts = torch.zeros(num_rollouts, dtype=dtype).index_add(
        0, rollout_index, torch.ones(rollout_index.shape[0], dtype=dtype)
    )
    present = int((counts > 0).sum())
    if present == 0:
        return torch.zeros(rollout_index.shape[0], dtype=dtype)
    return 1.0 / (present * counts[rollout_index])


def policy_loss(
    logprobs: torch.Tensor,
    old_logprobs: torch.Tensor,
    advantages: torch.Tensor,
    rollout_index: torch.Tensor,
    num_rollouts: int,
    config: GRPOConfig,
    ref_logprobs: torch.Tensor | None = None,
) -> tuple[torch.Tensor, LossParts]:
    """The GRPO loss over trained tokens (only response tokens the model sampled, mask 1).

    Every argument is a flat vector over those tokens: `rollout_index` says which rollout (0 ..
    num_rollouts-1) each token belongs to, `advantages` repeats its rollout's advantage."""
    n = logprobs.shape[0]
    if rollout_index.shape != (n,):
        raise ValueError(f"rollout_index has shape {tuple(rollout_index.shape)}, expected ({n},)")
    terms = token_losses(logprobs, old_logprobs, advantages, config, ref_logprobs)
    loss = (terms.loss * token_weights(rollout_index, num_rollouts, terms.loss.dtype)).sum()
    with torch.no_grad():
        lr = terms.log_ratio
        parts = LossParts(
            loss=float(loss.detach()),
            policy_loss=float(terms.surrogate.mean()) if n else 0.0,
            kl=float(terms.kl.mean()) if n else 0.0,
            clip_fraction=float(terms.clipped.mean()) if n else 0.0,
            approx_kl_old=float(k3(lr).mean()) if n else 0.0,
            ratio_mean=float(torch.exp(lr).mean()) if n else 1.0,
        )
    return loss, parts
