"""What the proxy records: one `CallRecord` per model call, grouped by rollout.

These are the raw material of training: the exact prompt and completion token ids, the log-probs of
the sampled tokens, and everything needed to tell later why a call looked the way it did.
"""

from __future__ import annotations

import time
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from proxy.images import ImageRef

UNTAGGED = "untagged"
"""The rollout id of calls that named no rollout."""


class WireApi(StrEnum):
    CHAT = "chat.completions"
    RESPONSES = "responses"
    MESSAGES = "messages"


class CallStatus(StrEnum):
    OK = "ok"
    FAILED = "failed"
    """The upstream failed (after retries) or the proxy itself did."""
    REJECTED = "rejected"
    """The request was invalid; it never reached an upstream."""


class CallRecord(BaseModel):
    """One model call, as served."""

    rollout_id: str = UNTAGGED
    seq: int = 0
    """Order of the call within its rollout (0, 1, …), assigned by the store."""
    call_id: str
    wire_api: WireApi
    stream: bool = False
    model: str | None = None
    request: Any = None
    """The request body as received (JSON), or the raw text when it was not JSON."""
    response: Any = None
    """The response body as the client saw it; for streams, the equivalent non-streamed body."""
    prompt_ids: list[int] | None = None
    completion_ids: list[int] | None = None
    logprobs: list[float] | None = None
    finish_reason: str | None = None
    policy_version: int = 0
    upstream: str | None = None
    status: CallStatus = CallStatus.OK
    http_status: int = 200
    error: str | None = None
    started_at: float = Field(default_factory=time.time)
    latency_ms: float = 0.0
    images: list[ImageRef] = Field(default_factory=list)
    """The prompt's images in order; their bytes are in the blob store beside the call store."""


class RolloutRecord(BaseModel):
    """A rollout: its calls, and the rewards attached to it afterwards."""

    rollout_id: str
    reward: float | None = None
    rewards: dict[str, float] = Field(default_factory=dict)
    """Every named reward attached (the `reward` key, when present, is `reward`)."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    calls: list[CallRecord] = Field(default_factory=list)
