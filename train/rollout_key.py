"""What a rollout is of: its task, harness, sample index and the policy version that played it.

`RolloutKey` is the rollout's identity in a rollout set (results.jsonl is resumed by it) and the one
place its id is built. The id only names the rollout (its model route, API key, log folder, records):
nothing reads the task back out of it; the proxy learns the task from the rollout's config
(`PUT /rollouts/{id}/config`, see train.rollout). Each attempt at a key gets an id of its own, so a
rollout redone after an infrastructure failure never mixes its model calls with the failed attempt's.
"""

from __future__ import annotations

import re
import uuid

from pydantic import BaseModel, ConfigDict, Field

from envs.task import task_slug

SEPARATOR = "--"
"""Between the task's slug and the rest of the id, so ids read `<task>--<harness>-...`."""
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


class RolloutKey(BaseModel):
    """One rollout's place: the `sample`-th rollout of `task` with `harness` under `policy_version`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task: str = Field(min_length=1)
    """The task's name (Harbor's `org/name` included)."""
    harness: str = Field(min_length=1)
    sample: int = Field(default=0, ge=0)
    """Which of the task's samples this is (a task's samples with one harness form a GRPO group)."""
    policy_version: int | None = Field(default=None, ge=0)
    """The version of the policy being trained that played it; None for a fixed policy (oracle, an
    API model)."""

    def new_rollout_id(self) -> str:
        """`<task slug>--<harness>[-v<version>]-<sample>-<random>`: readable, unique per attempt, and one
        URL- and path-safe component (letters, digits, `.`, `_`, `-`)."""
        task, harness = _UNSAFE.sub("_", task_slug(self.task)), _UNSAFE.sub("_", self.harness)
        version = "" if self.policy_version is None else f"-v{self.policy_version}"
        return f"{task}{SEPARATOR}{harness}{version}-{self.sample}-{uuid.uuid4().hex[:8]}"
