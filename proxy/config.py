"""How a proxy is configured: which model names it serves and the sampling it forces.

Per-rollout settings (`PUT /rollouts/{id}/config` on the control app) can only tighten what the proxy
forces: a per-rollout `max_tokens` lowers the proxy's cap (never raises it), and a per-rollout
temperature, top_p or model that differs from one the proxy forces is refused (`ForcedSetting`), so
that whatever reaches the control socket cannot change what the trainer relies on (the sampling
temperature whose log-probs it trains on). A rollout's settings also name its task, for engines that
answer per task (the oracle); the rollout code registers it before the harness starts.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from proxy.conversation import GenerationRequest
from proxy.images import ImageLimits

MAX_BODY_BYTES = 32 * 1024 * 1024
MAX_TOKENS_LIMIT = 2**31 - 1
"""The largest max_tokens anyone may set (token counts are int32 everywhere downstream)."""
MAX_TEMPERATURE = 10.0


class ForcedSetting(ValueError):
    """A per-rollout setting differs from one the proxy forces (answered with 409)."""


class SamplingOverrides(BaseModel):
    """Settings forced on calls, whatever the harness asked (per proxy, or per rollout)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    model: str | None = Field(default=None, min_length=1, max_length=1024)
    """Upstream model name to use instead of the one the client sent."""
    temperature: float | None = Field(default=None, ge=0, le=MAX_TEMPERATURE)
    top_p: float | None = Field(default=None, gt=0, le=1)
    max_tokens: int | None = Field(default=None, gt=0, le=MAX_TOKENS_LIMIT)
    """A cap: the client's max_tokens is lowered to this, never raised."""
    task: str | None = Field(default=None, min_length=1, max_length=1024)
    """The task the calls are for (`GenerationRequest.task`): not sampling, but it travels with the
    rollout's settings, and nothing else tells an engine which task a rollout is of."""

    def merged(self, other: SamplingOverrides | None) -> SamplingOverrides:
        """Self (per proxy) tightened by `other` (per rollout): the lower max_tokens cap; other's
        model / temperature / top_p / task where self forces none. Raises ForcedSetting where other sets one
        that self forces to something else."""
        if other is None:
            return self
        forced = []
        for field in ("model", "temperature", "top_p", "task"):
            mine, theirs = getattr(self, field), getattr(other, field)
            if mine is not None and theirs is not None and mine != theirs:
                forced.append(f"{field} is forced to {mine!r} by the proxy (asked: {theirs!r})")
        if forced:
            raise ForcedSetting("; ".join(forced))
        caps = [cap for cap in (self.max_tokens, other.max_tokens) if cap is not None]
        return SamplingOverrides(
            model=self.model or other.model,
            temperature=self.temperature if self.temperature is not None else other.temperature,
            top_p=self.top_p if self.top_p is not None else other.top_p,
            max_tokens=min(caps) if caps else None,
            task=self.task or other.task,
        )

    def apply(self, request: GenerationRequest) -> GenerationRequest:
        sampling = request.sampling.model_copy()
        if self.temperature is not None:
            sampling.temperature = self.temperature
        if self.top_p is not None:
            sampling.top_p = self.top_p
        if self.max_tokens is not None:
            sampling.max_tokens = min(sampling.max_tokens or self.max_tokens, self.max_tokens)
        update: dict[str, object] = {"sampling": sampling, "model": self.model or request.model}
        if self.task is not None:
            update["task"] = self.task
        return request.model_copy(update=update)


class ProxyConfig(BaseModel):
    models: list[str] = Field(default_factory=lambda: ["forge-policy"])
    """Model names clients may ask for (shown by GET /v1/models)."""
    accept_any_model: bool = False
    """Serve any model name (harnesses with hard-coded names); otherwise unknown names get 404."""
    overrides: SamplingOverrides = Field(default_factory=SamplingOverrides)
    max_body_bytes: int = MAX_BODY_BYTES
    images: ImageLimits = Field(default_factory=ImageLimits)
    """Bounds on a request's images, and whether image URLs are fetched."""
    retry_after_sec: float = 2.0
    """Retry-After sent with 429 while paused."""


def forge_home() -> Path:
    """Where OpenForge keeps caches outside the repository (`$FORGE_HOME`, else ~/.cache/openforge): the
    built models and the vLLM environment."""
    return Path(os.environ.get("FORGE_HOME") or Path.home() / ".cache" / "openforge")
