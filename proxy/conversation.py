"""The proxy's one internal shape of a model call, whatever wire API it came in on.

Chat Completions, Responses and Messages requests are all translated into a `GenerationRequest`; every
engine answers with a `Generation`; the wire adapters translate that back. Token ids and log-probs ride
along on `Generation`, so recording never depends on which API the harness spoke.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from proxy.images import ImagePart

Role = Literal["system", "user", "assistant", "tool"]
FinishReason = Literal["stop", "length", "tool_calls"]


class ToolCall(BaseModel):
    """A call of one of the client's tools, as the model made it."""

    id: str
    name: str
    arguments: str = "{}"
    """JSON text, exactly as sampled (clients parse it themselves)."""


class Message(BaseModel):
    """One turn of the conversation. Developer messages are system messages here."""

    role: Role
    content: str = ""
    reasoning: str | None = None
    """Thinking / reasoning text of an assistant turn, when the client sent it back."""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    """For role `tool`: which call this is the result of."""
    name: str | None = None
    images: list[ImagePart] = Field(default_factory=list)
    """Images of the turn, each at its character offset into `content` (where it was sent)."""

    def parts(self) -> list[str | ImagePart]:
        """The content as text pieces and images, in the order they were sent."""
        out: list[str | ImagePart] = []
        at = 0
        for image in sorted(self.images, key=lambda p: p.offset):
            if image.offset > at:
                out.append(self.content[at : image.offset])
                at = image.offset
            out.append(image)
        if at < len(self.content) or not out:
            out.append(self.content[at:])
        return out

    def template_parts(self) -> list[dict[str, str]]:
        """The content as chat-template parts (Hugging Face / TRL vision format): `{"type": "text"}`
        pieces and a `{"type": "image"}` where each image was."""
        return [
            {"type": "text", "text": p} if isinstance(p, str) else {"type": "image"} for p in self.parts()
        ]


class Tool(BaseModel):
    """A function tool the client offers the model."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})


class SamplingParams(BaseModel):
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    stop: list[str] = Field(default_factory=list)
    seed: int | None = None


class GenerationRequest(BaseModel):
    """What every engine is asked."""

    model: str
    messages: list[Message]
    tools: list[Tool] = Field(default_factory=list)
    tool_choice: str | dict[str, Any] | None = None
    parallel_tool_calls: bool = True
    sampling: SamplingParams = Field(default_factory=SamplingParams)
    rollout_id: str | None = None
    task: str | None = None
    """The task the rollout is of, from its per-rollout config (proxy.config), for engines that answer
    per task (the oracle); None when the rollout named none."""

    @property
    def images(self) -> list[ImagePart]:
        """Every image of the conversation, in order."""
        return [image for m in self.messages for image in m.images]


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class Generation(BaseModel):
    """What every engine answers: parsed output plus, where the engine has them, exact tokens."""

    text: str = ""
    reasoning: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    finish_reason: FinishReason = "stop"
    usage: Usage = Field(default_factory=Usage)
    prompt_ids: list[int] | None = None
    completion_ids: list[int] | None = None
    logprobs: list[float] | None = None
    """One log-prob per completion id."""
    model: str | None = None
    upstream: str | None = None
    """Which engine / replica served it."""
