"""GRPO's advantages and loss against hand-computed examples."""

from __future__ import annotations

import math

import pytest
import torch

from train.grpo import LossParts, RolloutReward, group_advantages, policy_loss
from train.grpo_config import GRPOConfig


def _rewards(**groups: list[float]) -> list[RolloutReward]:
    return [
        RolloutReward(rollout_id=f"{g}{i}", group=g, reward=r)
        for g, rewards in groups.items()
        for i, r in enumerate(rewards)
    ]


def test_advantages_are_normalised_within_each_group() -> None:
    adv = group_advantages(_rewards(a=[1, 0, 0, 1], b=[1, 1, 1], c=[0.5]))
    std = math.sqrt(1 / 3) + 1e-6  # unbiased std, (4 * 0.25) / 3, plus eps
    expected = {"a0": 0.5 / std, "a1": -0.5 / std, "a2": -0.5 / std, "a3": 0.5 / std}
    assert adv.values == pytest.approx(expected)
    assert (adv.groups, adv.skipped_groups) == (3, 2)  # b has no variance, c a single rollout


def test_without_std_scaling_only_the_mean_is_subtracted() -> None:
    adv = group_advantages(_rewards(a=[1, 0, 0, 0]), GRPOConfig(scale_by_std=False))
    assert adv.values == pytest.approx({"a0": 0.75, "a1": -0.25, "a2": -0.25, "a3": -0.25})


def test_a_non_finite_reward_is_refused() -> None:
    with pytest.raises(ValueError, match="not finite"):
        group_advantages(_rewards(a=[1, math.nan]))


def _loss(
    logp: list[float],
    old: list[float],
    adv: list[float],
    index: list[int],
    n: int,
    ref: list[float] | None = None,
    **config: float,
) -> tuple[float, LossParts, list[float]]:
    logprobs = torch.tensor(logp, requires_grad=True)
    loss, parts = policy_loss(
        logprobs,
        torch.tensor(old),
        torch.tensor(adv),
        torch.tensor(index),
        n,
        GRPOConfig(**config),  # type: ignore[arg-type]
        ref_logprobs=None if ref is None else torch.tensor(ref),
    )
    loss.backward()
    assert logprobs.grad is not None
    return float(loss.detach()), parts, logprobs.grad.tolist()


def test_each_rollout_weighs_the_same_however_long() -> None:
    # rollout 0: two tokens with A=+1; rollout 1: one token with A=-1; ratio 1 everywhere.
    loss, parts, grad = _loss([-1.0, -2.0, -0.5], [-1.0, -2.0, -0.5], [1.0, 1.0, -1.0], [0, 0, 1], 2)
    assert loss == pytest.approx(0.0)  # rollout means -1 and +1 average to 0 (a token mean: -1/3)
    assert parts.clip_fraction == 0.0 and parts.ratio_mean == pytest.approx(1.0)
    assert grad == pytest.approx([-0.25, -0.25, 0.5])  # -A/len(rollout), halved by the mean of 2


def test_the_ratio_is_clipped_only_where_it_helps_the_advantage() -> None:
    up = math.log(1.5)
    loss, parts, grad = _loss([up, up], [0.0, 0.0], [1.0, -1.0], [0, 1], 2, clip_low=0.2, clip_high=0.2)
    # A=+1: min(1.5, 1.2) = 1.2, clipped, no gradient. A=-1: min(-1.5, -1.2) = -1.5, not clipped.
    assert loss == pytest.approx((-1.2 + 1.5) / 2)
    assert parts.clip_fraction == pytest.approx(0.5)
    assert grad == pytest.approx([0.0, 1.5 / 2])
    assert parts.approx_kl_old == pytest.approx(1 / 1.5 + math.log(1.5) - 1)


def test_clip_higher_widens_the_upper_bound() -> None:
    _, parts, grad = _loss([math.log(1.25)], [0.0], [1.0], [0], 1, clip_low=0.2, clip_high=0.28)
    assert parts.clip_fraction == 0.0 and grad == pytest.approx([-1.25])


def test_kl_to_the_reference_is_the_k3_estimate() -> None:
    loss, parts, _ = _loss([-1.0], [-1.0], [0.0], [0], 1, ref=[-1.0 + math.log(2)], kl_coef=0.5)
    assert parts.kl == pytest.approx(2 - math.log(2) - 1)
    assert loss == pytest.approx(0.5 * (2 - math.log(2) - 1))


def test_misaligned_inputs_are_refused() -> None:
    index = torch.zeros(3, dtype=torch.long)
    with pytest.raises(ValueError, match="advantages has shape"):
        policy_loss(torch.zeros(3), torch.zeros(3), torch.zeros(2), index, 1, GRPOConfig())


@pytest.mark.parametrize("bad", [{"clip_low": 0}, {"clip_low": 1.2}, {"kl_coef": -1}, {"eps": 0}])
def test_bad_config_values_get_clear_errors(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=next(iter(bad))):
        GRPOConfig(**bad)  # type: ignore[arg-type]
