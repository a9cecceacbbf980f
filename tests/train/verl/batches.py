"""A hand-made batch for the veRL data and loss tests: three groups of rollouts, two of them split into two
chains, with our group advantages on them."""

from __future__ import annotations

from train.grpo import RolloutReward, group_advantages
from train.grpo_config import GRPOConfig
from train.trainer import TrainingSample


def make_sample(
    rollout_id: str, prompt: list[int], response: list[int], mask: list[int], adv: float
) -> TrainingSample:
    logprobs = [-0.1 * (i + 1) if m else 0.0 for i, m in enumerate(mask)]
    return TrainingSample(
        rollout_id=rollout_id,
        prompt_ids=prompt,
        response_ids=response,
        response_mask=mask,
        logprobs=logprobs,
        advantage=adv,
    )


def hand_batch(
    config: GRPOConfig | None = None,
) -> tuple[list[TrainingSample], list[RolloutReward], dict[str, float]]:
    """Three groups: rewards with signal (one rollout in two chains), and one group of equal rewards."""
    rewards = [
        RolloutReward(rollout_id="a0", group="org/task_a", reward=1.0),
        RolloutReward(rollout_id="a1", group="org/task_a", reward=0.0),
        RolloutReward(rollout_id="a2", group="org/task_a", reward=0.5),
        RolloutReward(rollout_id="a3", group="org/task_a", reward=0.0),
        RolloutReward(rollout_id="b0", group="task_b", reward=0.0),
        RolloutReward(rollout_id="b1", group="task_b", reward=1.0),
        RolloutReward(rollout_id="b2", group="task_b", reward=1.0),
        RolloutReward(rollout_id="c0", group="task-c", reward=1.0),
        RolloutReward(rollout_id="c1", group="task-c", reward=1.0),
    ]
    ours = group_advantages(rewards, config).values
    samples = []
    for i, r in enumerate(rewards):
        adv = ours.get(r.rollout_id, 0.0)
        prompt = list(range(10, 13 + i % 3))
        samples.append(
            make_sample(
                r.rollout_id, prompt, [40 + i, 41, 42, 43][: 2 + i % 3], [1, 0, 1, 1][: 2 + i % 3], adv
            )
        )
        if r.rollout_id in ("a1", "b2"):  # a second chain (e.g. after a context compaction)
            samples.append(make_sample(r.rollout_id, [10, 99], [50, 51, 52, 53, 54], [1, 1, 0, 0, 1], adv))
    return samples, rewards, ours
