"""How a proxy is configured: which model names it serves and the sampling it forces."""

from __future__ import annotations

from pydantic import BaseModel, Field

from proxy.conversation import GenerationRequest

MAX_BODY_BYTES = 32 * 1024 * 1024


class SamplingOverrides(BaseModel):
    """Settings forced on calls, whatever the harness asked (per proxy, or per rollout)."""

    model: str | None = None
    """Upstream model name to use instead of the one the client sent."""
    temperature: float | None = Field(default=None, ge=0)
    top_p: float | None = Field(default=None, gt=0, le=1)
    max_tokens: int | None = Field(default=None, gt=0)
    """A cap: the client's max_tokens is lowered to this, never raised."""

    def merged(self, other: SamplingOverrides | None) -> SamplingOverrides:
        """`other` (per rollout) wins field by field over self (per proxy)."""
        if other is None:
            return self
        return SamplingOverrides(
            **{**self.model_dump(exclude_none=True), **other.model_dump(exclude_none=True)}
        )

    def apply(self, request: GenerationRequest) -> GenerationRequest:
        sampling = request.sampling.model_copy()
        if self.temperature is not None:
            sampling.temperature = self.temperature
        if self.top_p is not None:
            sampling.top_p = self.top_p
        if self.max_tokens is not None:
            sampling.max_tokens = min(sampling.max_tokens or self.max_tokens, self.max_tokens)
        return request.model_copy(update={"sampling": sampling, "model": self.model or request.model})


class ProxyConfig(BaseModel):
    models: list[str] = Field(default_factory=lambda: ["forge-policy"])
    """Model names clients may ask for (shown by GET /v1/models)."""
    accept_any_model: bool = False
    """Serve any model name (harnesses with hard-coded names); otherwise unknown names get 404."""
    overrides: SamplingOverrides = Field(default_factory=SamplingOverrides)
    max_body_bytes: int = MAX_BODY_BYTES
    retry_after_sec: float = 2.0
    """Retry-After sent with 429 while paused."""
