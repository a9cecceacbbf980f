"""When a trial passes, pass@k, pass^k and bootstrap confidence intervals over tasks.

A trial passes when its reward reaches PASS_REWARD (1.0): whatever the task's `[verifier] reward_range`,
a partial reward below it is a failure, and of a multi-score reward.json only the scalar (its `reward`
key, else its first number: envs.reward) counts. The GRPO loop's pass rates, the evaluation's
successes, the teacher rollouts kept for SFT and veRL's `passed` metric all use `passed`.

pass@k (Chen et al., 2021): the chance that at least one of k trials drawn without replacement from n
succeeds, estimated without bias from c successes as 1 - C(n-c, k) / C(n, k). pass^k (τ-bench): the
chance that all k trials succeed, C(c, k) / C(n, k). Both are averaged over tasks; their 95% intervals
come from resampling tasks (the unit that varies between benchmarks), with a fixed seed so a table is
reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import comb

from pydantic import BaseModel

PASS_REWARD = 1.0
"""A trial passes when its reward reaches this."""


def passed(reward: float | None) -> bool:
    """Whether a trial with this reward passed (no reward, as for a failed rollout: it did not)."""
    return reward is not None and reward >= PASS_REWARD


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one task with c successes out of n trials (needs n >= k)."""
    _check(n, c, k)
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k for one task: the chance that k trials drawn from the n all succeed."""
    _check(n, c, k)
    return comb(c, k) / comb(n, k)


def _check(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n:
        raise ValueError(f"successes c={c} must be between 0 and trials n={n}")
    if not 1 <= k <= n:
        raise ValueError(f"k={k} must be between 1 and the number of trials n={n}")


class Interval(BaseModel):
    """A value and its bootstrap 95% confidence interval."""

    value: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


def bootstrap(
    values: Sequence[float],
    statistic: Callable[[Sequence[float]], float] = lambda xs: sum(xs) / len(xs),
    resamples: int = 2000,
    seed: int = 0,
) -> Interval:
    """The statistic (the mean by default) and its 2.5 to 97.5 percentile interval over resamples."""
    if not values:
        raise ValueError("bootstrap needs at least one value")
    rng = random.Random(seed)
    n = len(values)
    stats = sorted(statistic([values[rng.randrange(n)] for _ in range(n)]) for _ in range(resamples))
    low = stats[int(0.025 * (resamples - 1))]
    high = stats[int(0.975 * (resamples - 1))]
    return Interval(value=statistic(values), low=low, high=high)
