"""Pass-through engines: forward calls to an OpenAI-compatible or Anthropic-compatible upstream.

Used for teacher models (SFT data) and any hosted API. Whatever wire API the harness spoke, the call is
translated to the upstream's (Chat Completions or Messages) and the answer back, so a Codex CLI
(Responses) can be served by a chat-completions teacher. Token ids are recorded when the upstream
returns them (vLLM's `return_token_ids`).
"""

from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING, Any, Self

from proxy.conversation import Generation, GenerationRequest, Message, ToolCall, Usage
from proxy.engines.base import Engine
from proxy.engines.upstream_http import UpstreamClient
from proxy.errors import ContextOverflow, UpstreamError
from proxy.wire.chat import chat_message, chat_tool
from proxy.wire.common import parse_arguments

if TYPE_CHECKING:
    from proxy.engine_options import EngineOptions

_FINISH = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "stop",
    "end_turn": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "refusal": "stop",
}


def _chat_messages(messages: list[Message], reasoning: bool) -> list[dict[str, Any]]:
    """Chat Completions messages. A tool result's images go in a user message right after the results
    (Chat Completions takes text only in tool messages)."""
    out: list[dict[str, Any]] = []
    pending: list[Message] = []
    for m in messages:
        if pending and m.role != "tool":
            out += [_tool_images(p) for p in pending]
            pending = []
        if m.role == "tool" and m.images:
            out.append(chat_message(m.model_copy(update={"images": []}), reasoning=reasoning))
            pending.append(m)
        else:
            out.append(chat_message(m, reasoning=reasoning))
    return out + [_tool_images(p) for p in pending]


def _tool_images(m: Message) -> dict[str, Any]:
    parts: list[dict[str, Any]] = [
        {"type": "text", "text": f"Images of the result of tool call {m.tool_call_id}:"}
    ]
    parts += [{"type": "image_url", "image_url": {"url": image.data_uri()}} for image in m.images]
    return {"role": "user", "content": parts}


def _anthropic_blocks(m: Message) -> list[dict[str, Any]]:
    """A turn's content as Messages blocks: text, and base64 image blocks where its images were."""
    blocks: list[dict[str, Any]] = []
    for piece in m.parts():
        if isinstance(piece, str):
            if piece or not m.images:
                blocks.append({"type": "text", "text": piece})
        else:
            source = {"type": "base64", "media_type": piece.ref.media_type, "data": piece.base64()}
            blocks.append({"type": "image", "source": source})
    return blocks


class OpenAIPassthrough(Engine):
    """Forward as Chat Completions to `base_url` (…/v1)."""

    name = "openai"
    needs_upstream = True
    accepts_images = True

    def __init__(
        self,
        base_url: str | list[str],
        api_key: str = "",
        model: str | None = None,
        request_token_ids: bool = False,
        timeout: float = 600.0,
        max_attempts: int = 4,
    ) -> None:
        headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = UpstreamClient(base_url, headers=headers, timeout=timeout, max_attempts=max_attempts)
        self.model = model
        self.request_token_ids = request_token_ids

    @classmethod
    def from_options(cls, options: EngineOptions) -> Self:
        return cls(base_url=options.upstream, api_key=options.api_key(), model=options.upstream_model)

    def build(self, request: GenerationRequest) -> dict[str, Any]:
        # vLLM-style upstreams take reasoning back; others may refuse the field
        messages = _chat_messages(request.messages, reasoning=self.request_token_ids)
        body: dict[str, Any] = {"model": self.model or request.model, "messages": messages, "stream": False}
        if request.tools:
            body["tools"] = [chat_tool(t) for t in request.tools]
            body["parallel_tool_calls"] = request.parallel_tool_calls
            if isinstance(request.tool_choice, str) and request.tool_choice in ("auto", "none", "required"):
                body["tool_choice"] = request.tool_choice
        s = request.sampling
        for key, value in (
            ("temperature", s.temperature),
            ("top_p", s.top_p),
            ("max_tokens", s.max_tokens),
            ("seed", s.seed),
        ):
            if value is not None:
                body[key] = value
        if s.stop:
            body["stop"] = s.stop
        if self.request_token_ids:
            body["return_token_ids"] = True
            body["logprobs"] = True
        return body

    @staticmethod
    def parse(body: dict[str, Any]) -> Generation:
        try:
            choice = body["choices"][0]
            message = choice["message"]
        except (KeyError, IndexError, TypeError) as exc:
            raise UpstreamError(
                f"the upstream's answer has no choices[0].message: {str(body)[:500]}"
            ) from exc
        calls = [
            ToolCall(
                id=c.get("id") or f"call_{uuid.uuid4().hex[:24]}",
                name=c["function"]["name"],
                arguments=c["function"].get("arguments") or "{}",
            )
            for c in message.get("tool_calls") or []
        ]
        usage = body.get("usage") or {}
        logprobs = None
        content_logprobs = (choice.get("logprobs") or {}).get("content")
        if content_logprobs:
            logprobs = [float(t["logprob"]) for t in content_logprobs]
        return Generation(
            text=message.get("content") or "",
            reasoning=message.get("reasoning_content") or message.get("reasoning"),
            tool_calls=calls,
            finish_reason=_FINISH.get(choice.get("finish_reason") or "stop", "stop"),  # type: ignore[arg-type]
            usage=Usage(
                prompt_tokens=usage.get("prompt_tokens", 0),
                completion_tokens=usage.get("completion_tokens", 0),
            ),
            prompt_ids=body.get("prompt_token_ids"),
            completion_ids=choice.get("token_ids"),
            logprobs=logprobs if logprobs and len(logprobs) == len(choice.get("token_ids") or []) else None,
            model=body.get("model"),
        )

    async def generate(self, request: GenerationRequest) -> Generation:
        try:
            answer, replica = await self.client.post(
                "/chat/completions", self.build(request), request.rollout_id
            )
        except ContextOverflow:
            return Generation(finish_reason="length", model=request.model, upstream=self.name)
        generation = self.parse(answer)
        generation.upstream = replica
        return generation

    async def aclose(self) -> None:
        await self.client.aclose()


class AnthropicPassthrough(Engine):
    """Forward as Anthropic Messages to `base_url` (without /v1)."""

    name = "anthropic"
    needs_upstream = True
    accepts_images = True

    def __init__(
        self,
        base_url: str | list[str],
        api_key: str = "",
        model: str | None = None,
        default_max_tokens: int = 4096,
        timeout: float = 600.0,
        max_attempts: int = 4,
    ) -> None:
        headers = {"anthropic-version": "2023-06-01"}
        if api_key:
            headers["x-api-key"] = api_key
        self.client = UpstreamClient(base_url, headers=headers, timeout=timeout, max_attempts=max_attempts)
        self.model = model
        self.default_max_tokens = default_max_tokens

    @classmethod
    def from_options(cls, options: EngineOptions) -> Self:
        return cls(base_url=options.upstream, api_key=options.api_key(), model=options.upstream_model)

    def build(self, request: GenerationRequest) -> dict[str, Any]:
        system = "\n\n".join(m.content for m in request.messages if m.role == "system")
        turns: list[dict[str, Any]] = []

        def add(role: str, blocks: list[dict[str, Any]]) -> None:
            if turns and turns[-1]["role"] == role:
                turns[-1]["content"].extend(blocks)
            else:
                turns.append({"role": role, "content": blocks})

        for m in request.messages:
            if m.role == "system":
                continue
            if m.role == "tool":
                content = _anthropic_blocks(m) if m.images else m.content
                add("user", [{"type": "tool_result", "tool_use_id": m.tool_call_id, "content": content}])
            elif m.role == "assistant":
                blocks: list[dict[str, Any]] = [{"type": "text", "text": m.content}] if m.content else []
                blocks += [
                    {"type": "tool_use", "id": c.id, "name": c.name, "input": parse_arguments(c.arguments)}
                    for c in m.tool_calls
                ]
                add("assistant", blocks or [{"type": "text", "text": ""}])
            else:
                add("user", _anthropic_blocks(m))
        body: dict[str, Any] = {
            "model": self.model or request.model,
            "messages": turns,
            "max_tokens": request.sampling.max_tokens or self.default_max_tokens,
        }
        if system:
            body["system"] = system
        if request.tools:
            body["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters}
                for t in request.tools
            ]
        s = request.sampling
        if s.temperature is not None:
            body["temperature"] = min(s.temperature, 1.0)
        if s.top_p is not None:
            body["top_p"] = s.top_p
        if s.stop:
            body["stop_sequences"] = s.stop
        return body

    @staticmethod
    def parse(body: dict[str, Any]) -> Generation:
        if not isinstance(body.get("content"), list):
            raise UpstreamError(f"the upstream's answer has no content list: {str(body)[:500]}")
        text, reasoning, calls = "", "", []
        for block in body["content"]:
            if block.get("type") == "text":
                text += block.get("text", "")
            elif block.get("type") == "thinking":
                reasoning += block.get("thinking", "")
            elif block.get("type") == "tool_use":
                calls.append(
                    ToolCall(id=block["id"], name=block["name"], arguments=json.dumps(block.get("input", {})))
                )
        usage = body.get("usage") or {}
        return Generation(
            text=text,
            reasoning=reasoning or None,
            tool_calls=calls,
            finish_reason=_FINISH.get(body.get("stop_reason") or "end_turn", "stop"),  # type: ignore[arg-type]
            usage=Usage(
                prompt_tokens=usage.get("input_tokens", 0), completion_tokens=usage.get("output_tokens", 0)
            ),
            model=body.get("model"),
        )

    async def generate(self, request: GenerationRequest) -> Generation:
        try:
            answer, replica = await self.client.post("/v1/messages", self.build(request), request.rollout_id)
        except ContextOverflow:
            return Generation(finish_reason="length", model=request.model, upstream=self.name)
        generation = self.parse(answer)
        generation.upstream = replica
        return generation

    async def aclose(self) -> None:
        await self.client.aclose()
