"""Anthropic Messages: `POST /v1/messages` (also `?beta=true`) and `/v1/messages/count_tokens`.

A user turn holding `tool_result` blocks becomes one tool message per result, then a user message with
any remaining text (Claude Code appends system reminders that way). A thinking block's `signature`
carries the thinking text back to us exactly, as `encrypted_content` does for Responses.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from proxy.conversation import Generation, GenerationRequest, Message, SamplingParams, Tool, ToolCall
from proxy.errors import BadRequest, ProxyError
from proxy.images import ImageBudget, ImagePart, from_base64, from_url
from proxy.wire.common import (
    ImageReader,
    chunks,
    content_of_parts,
    parse_arguments,
    sse,
    text_of_parts,
    validate,
)

_SIGNATURE_TAG = "forge:"
_STOP_REASON = {"stop": "end_turn", "length": "max_tokens", "tool_calls": "tool_use"}


class _In(BaseModel):
    model_config = ConfigDict(extra="allow")


class MessageIn(_In):
    role: Literal["user", "assistant", "system"]
    """`system` mid-conversation: newer Claude Code sends such turns."""
    content: str | list[dict[str, Any]]


class ToolIn(_In):
    name: str
    description: str | None = None
    input_schema: dict[str, Any] | None = None
    type: str | None = None


class MessagesRequestIn(_In):
    model: str
    messages: list[MessageIn] = Field(min_length=1)
    max_tokens: int = Field(gt=0)
    system: str | list[dict[str, Any]] | None = None
    tools: list[ToolIn] | None = None
    tool_choice: dict[str, Any] | None = None
    temperature: float | None = Field(default=None, ge=0, le=1)
    top_p: float | None = Field(default=None, gt=0, le=1)
    stop_sequences: list[str] | None = None
    stream: bool = False


class CountTokensIn(_In):
    model: str
    messages: list[MessageIn] = Field(min_length=1)
    system: str | list[dict[str, Any]] | None = None
    tools: list[ToolIn] | None = None


def _signature(thinking: str) -> str:
    return _SIGNATURE_TAG + base64.b64encode(thinking.encode()).decode()


def _thinking_text(block: dict[str, Any]) -> str:
    signature = block.get("signature")
    if isinstance(signature, str) and signature.startswith(_SIGNATURE_TAG):
        try:
            return base64.b64decode(signature[len(_SIGNATURE_TAG) :]).decode()
        except (ValueError, UnicodeDecodeError):
            pass
    return str(block.get("thinking", ""))


def read_image_block(block: dict[str, Any], where: str, budget: ImageBudget, offset: int) -> ImagePart:
    """`{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "..."}}`, or a
    `url` source holding a data URI."""
    source = block.get("source")
    if not isinstance(source, dict):
        raise BadRequest(f"{where}.source: required", param=f"{where}.source")
    kind = source.get("type")
    if kind == "base64":
        data = source.get("data")
        if not isinstance(data, str):
            raise BadRequest(f"{where}.source.data: required", param=f"{where}.source.data")
        return from_base64(data, source.get("media_type"), where, budget, offset)
    if kind == "url":
        return from_url(source.get("url"), f"{where}.source.url", budget, offset)
    raise BadRequest(
        f"{where}.source.type: image sources of type {kind!r} are not supported (base64 or url)",
        param=f"{where}.source.type",
    )


IMAGE_BLOCKS: dict[str, ImageReader] = {"image": read_image_block}


def _convert_messages(messages: list[MessageIn], budget: ImageBudget | None = None) -> list[Message]:
    budget = budget or ImageBudget()
    out: list[Message] = []
    for i, m in enumerate(messages):
        where = f"messages[{i}].content"
        if isinstance(m.content, str) or m.role == "system":
            out.append(Message(role=m.role, content=text_of_parts(m.content, where)))
            continue
        if m.role == "assistant":
            turn = Message(role="assistant")
            for j, block in enumerate(m.content):
                kind = block.get("type")
                if kind == "text":
                    turn.content += str(block.get("text", ""))
                elif kind == "thinking":
                    turn.reasoning = (turn.reasoning or "") + _thinking_text(block)
                elif kind == "redacted_thinking":
                    continue
                elif kind == "tool_use":
                    turn.tool_calls.append(
                        ToolCall(
                            id=str(block.get("id")),
                            name=str(block.get("name")),
                            arguments=json.dumps(block.get("input", {})),
                        )
                    )
                else:
                    raise BadRequest(
                        f"{where}[{j}].type: {kind!r} blocks are not supported", f"{where}[{j}].type"
                    )
            out.append(turn)
            continue
        user = Message(role="user")
        for j, block in enumerate(m.content):
            kind = block.get("type")
            if kind == "tool_result":
                content, images = content_of_parts(
                    block.get("content"), f"{where}[{j}].content", budget, images=IMAGE_BLOCKS
                )
                if block.get("is_error"):
                    marked = f"[error] {content}" if content else "[error]"
                    shift = len(marked) - len(content)
                    content = marked
                    for image in images:
                        image.offset += shift
                out.append(
                    Message(
                        role="tool",
                        content=content,
                        images=images,
                        tool_call_id=str(block.get("tool_use_id")),
                    )
                )
            elif kind == "text":
                user.content += str(block.get("text", ""))
            elif kind == "image":
                user.images.append(read_image_block(block, f"{where}[{j}]", budget, len(user.content)))
            else:
                raise BadRequest(
                    f"{where}[{j}].type: {kind!r} blocks are not supported (text or images)",
                    f"{where}[{j}].type",
                )
        if user.content or user.images:
            out.append(user)
    return out


def _system(system: str | list[dict[str, Any]] | None) -> list[Message]:
    text = text_of_parts(system, "system")
    return [Message(role="system", content=text)] if text else []


def _tools(tools: list[ToolIn] | None) -> list[Tool]:
    return [
        Tool(
            name=t.name,
            description=t.description or "",
            parameters=t.input_schema or {"type": "object", "properties": {}},
        )
        for t in tools or []
        if t.type in (None, "custom")  # server tools (web_search_…) are not ours to run
    ]


def parse_request(
    body: Any, budget: ImageBudget | None = None
) -> tuple[GenerationRequest, MessagesRequestIn]:
    req = validate(MessagesRequestIn, body)
    choice = req.tool_choice or {}
    return (
        GenerationRequest(
            model=req.model,
            messages=_system(req.system) + _convert_messages(req.messages, budget),
            tools=_tools(req.tools),
            tool_choice=choice or None,
            parallel_tool_calls=not choice.get("disable_parallel_tool_use", False),
            sampling=SamplingParams(
                temperature=req.temperature,
                top_p=req.top_p,
                max_tokens=req.max_tokens,
                stop=list(req.stop_sequences or []),
            ),
        ),
        req,
    )


def parse_count_tokens(body: Any, budget: ImageBudget | None = None) -> GenerationRequest:
    req = validate(CountTokensIn, body)
    return GenerationRequest(
        model=req.model,
        messages=_system(req.system) + _convert_messages(req.messages, budget),
        tools=_tools(req.tools),
    )


def _blocks(gen: Generation) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if gen.reasoning:
        blocks.append({"type": "thinking", "thinking": gen.reasoning, "signature": _signature(gen.reasoning)})
    if gen.text or not gen.tool_calls:
        blocks.append({"type": "text", "text": gen.text})
    for call in gen.tool_calls:
        blocks.append(
            {"type": "tool_use", "id": call.id, "name": call.name, "input": parse_arguments(call.arguments)}
        )
    return blocks


def _envelope(req: MessagesRequestIn, message_id: str, gen: Generation) -> dict[str, Any]:
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": req.model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {
            "input_tokens": gen.usage.prompt_tokens,
            "output_tokens": 0,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        },
    }


def render_response(gen: Generation, req: MessagesRequestIn, call_id: str) -> dict[str, Any]:
    body = _envelope(req, call_id, gen)
    body["content"] = _blocks(gen)
    body["stop_reason"] = _STOP_REASON[gen.finish_reason]
    body["usage"]["output_tokens"] = gen.usage.completion_tokens
    return body


def render_stream(gen: Generation, req: MessagesRequestIn, call_id: str) -> Iterator[str]:
    def event(kind: str, **data: Any) -> str:
        return sse({"type": kind, **data}, event=kind)

    yield event("message_start", message=_envelope(req, call_id, gen))
    for index, block in enumerate(_blocks(gen)):
        kind = block["type"]
        if kind == "thinking":
            yield event(
                "content_block_start",
                index=index,
                content_block={"type": "thinking", "thinking": "", "signature": ""},
            )
            for piece in chunks(block["thinking"]):
                yield event(
                    "content_block_delta", index=index, delta={"type": "thinking_delta", "thinking": piece}
                )
            yield event(
                "content_block_delta",
                index=index,
                delta={"type": "signature_delta", "signature": block["signature"]},
            )
        elif kind == "text":
            yield event("content_block_start", index=index, content_block={"type": "text", "text": ""})
            for piece in chunks(block["text"]):
                yield event("content_block_delta", index=index, delta={"type": "text_delta", "text": piece})
        else:
            yield event(
                "content_block_start",
                index=index,
                content_block={"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}},
            )
            for piece in chunks(json.dumps(block["input"])):
                yield event(
                    "content_block_delta",
                    index=index,
                    delta={"type": "input_json_delta", "partial_json": piece},
                )
        yield event("content_block_stop", index=index)
    yield event(
        "message_delta",
        delta={"stop_reason": _STOP_REASON[gen.finish_reason], "stop_sequence": None},
        usage={"output_tokens": gen.usage.completion_tokens},
    )
    yield event("message_stop")


def render_error(error: ProxyError) -> dict[str, Any]:
    kind = "overloaded_error" if error.status == 529 else error.kind
    return {"type": "error", "error": {"type": kind, "message": error.message}}


def render_count(tokens: int) -> dict[str, Any]:
    return {"input_tokens": tokens}
