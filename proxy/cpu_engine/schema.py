"""The wire shapes of the local engine, modelled on SGLang's native `/generate`.

One engine client can then drive SGLang on a GPU box and this engine on a laptop. Unknown fields are
rejected rather than ignored: a sampling option silently dropped would make training data lie.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class SamplingParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    temperature: float = Field(default=1.0, ge=0.0)
    """0 means greedy."""
    top_p: float = Field(default=1.0, gt=0.0, le=1.0)
    top_k: int = Field(default=-1, ge=-1)
    """-1 (or 0) means no top-k cut."""
    max_new_tokens: int = Field(default=128, ge=1)
    stop_token_ids: list[int] = Field(default_factory=list)
    ignore_eos: bool = False
    """Do not stop at the model's eos ids (the `stop_token_ids` still apply)."""
    skip_special_tokens: bool = True
    """Only for `text`; `output_ids` always holds every sampled id."""
    no_stop_trim: bool = False
    """Keep the matched stop id's text at the end of `text` (it is always the last of `output_ids`)."""
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    """Per-request sampling seed: the same seed gives the same tokens, batched or alone."""


class GenerateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    input_ids: list[int] = Field(min_length=1)
    sampling_params: SamplingParams = Field(default_factory=lambda: SamplingParams())
    return_logprob: bool = False
    image_data: list[str] = Field(default_factory=list)
    """Base64 bytes of the prompt's images, in order (SGLang's field), for a vision-language model; the
    prompt's image pads must already be expanded to what the model's processor makes of them."""
    rid: str | None = None
    """Request id, echoed as `meta_info.id` (one is made up when absent)."""

    @field_validator("input_ids")
    @classmethod
    def _non_negative(cls, ids: list[int]) -> list[int]:
        if min(ids) < 0:
            raise ValueError("token ids must be >= 0")
        return ids


class FinishReason(BaseModel):
    type: Literal["stop", "length"]
    matched: int | None = None
    """The stop or eos id that ended the output (it is the last of `output_ids`)."""
    length: int | None = None
    """For `length`: how many tokens were generated."""


class MetaInfo(BaseModel):
    id: str
    finish_reason: FinishReason
    prompt_tokens: int
    completion_tokens: int
    output_token_logprobs: list[tuple[float, int, None]] | None = None
    """`[logprob, token_id, null]` per output id, SGLang's layout; present when `return_logprob`."""
    weight_version: int
    e2e_latency: float
    """Seconds from arrival to answer, queueing included."""


class GenerateResponse(BaseModel):
    text: str
    output_ids: list[int]
    meta_info: MetaInfo


class ReloadRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str | None = None
    """A model directory with safetensors weights of the same architecture; default: the current one."""
    weight_version: int | None = None
    """Set the version to this; default: the current version + 1."""


class ReloadResponse(BaseModel):
    weight_version: int
    path: str
    seconds: float


class ModelInfo(BaseModel):
    model_path: str
    vocab_size: int
    max_context_length: int
    eos_token_ids: list[int]
    weight_version: int
    max_batch_size: int


class Metrics(BaseModel):
    requests: int = 0
    batches: int = 0
    max_batch_size_seen: int = 0
    prompt_tokens: int = 0
    generated_tokens: int = 0
    reloads: int = 0
    weight_version: int = 0
    queued: int = 0
