"""OpenAI Chat Completions: `POST /v1/chat/completions`, streamed or not.

Besides the standard fields, vLLM's extensions are honoured so token-aware clients get what vLLM would
give them: `reasoning_content` on messages and deltas, and `return_token_ids` (prompt and completion ids
in the response).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from proxy.conversation import Generation, GenerationRequest, Message, SamplingParams, Tool, ToolCall
from proxy.errors import BadRequest, ProxyError
from proxy.images import ImageBudget, ImagePart, from_url
from proxy.wire.common import ImageReader, chunks, content_of_parts, sse, validate


class _In(BaseModel):
    model_config = ConfigDict(extra="allow")


class FunctionIn(_In):
    name: str
    arguments: str | dict[str, Any] = "{}"


class ToolCallIn(_In):
    id: str
    type: str = "function"
    function: FunctionIn


class MessageIn(_In):
    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[Any] | None = None
    name: str | None = None
    tool_calls: list[ToolCallIn] | None = None
    tool_call_id: str | None = None
    reasoning_content: str | None = None
    reasoning: str | None = None


class FunctionDefIn(_In):
    name: str
    description: str | None = None
    parameters: dict[str, Any] | None = None


class ToolIn(_In):
    type: str = "function"
    function: FunctionDefIn


class StreamOptionsIn(_In):
    include_usage: bool = False


class ChatRequestIn(_In):
    model: str
    messages: list[MessageIn] = Field(min_length=1)
    tools: list[ToolIn] | None = None
    tool_choice: str | dict[str, Any] | None = None
    parallel_tool_calls: bool | None = None
    temperature: float | None = Field(default=None, ge=0)
    top_p: float | None = Field(default=None, gt=0, le=1)
    max_tokens: int | None = Field(default=None, gt=0)
    max_completion_tokens: int | None = Field(default=None, gt=0)
    stop: str | list[str] | None = None
    seed: int | None = None
    n: int = Field(default=1, ge=1, le=1)
    stream: bool = False
    stream_options: StreamOptionsIn | None = None
    return_token_ids: bool = False


def read_image_url(part: dict[str, Any], where: str, budget: ImageBudget, offset: int) -> ImagePart:
    """`{"type": "image_url", "image_url": {"url": "data:image/png;base64,..."}}` (or the URL bare)."""
    image_url = part.get("image_url")
    url = image_url.get("url") if isinstance(image_url, dict) else image_url
    return from_url(url, f"{where}.image_url.url", budget, offset)


IMAGE_PARTS: dict[str, ImageReader] = {"image_url": read_image_url}


def parse_request(body: Any, budget: ImageBudget | None = None) -> tuple[GenerationRequest, ChatRequestIn]:
    req = validate(ChatRequestIn, body)
    budget = budget or ImageBudget()
    messages = []
    for i, m in enumerate(req.messages):
        where = f"messages[{i}].content"
        role = "system" if m.role == "developer" else ("tool" if m.role == "function" else m.role)
        text, images = content_of_parts(
            m.content, where, budget, images=IMAGE_PARTS if role in ("user", "tool") else None
        )
        calls = [
            ToolCall(
                id=c.id,
                name=c.function.name,
                arguments=c.function.arguments
                if isinstance(c.function.arguments, str)
                else json.dumps(c.function.arguments),
            )
            for c in m.tool_calls or []
        ]
        if role == "tool" and not m.tool_call_id and m.role == "tool":
            raise BadRequest(
                f"messages[{i}].tool_call_id: required for role 'tool'", f"messages[{i}].tool_call_id"
            )
        messages.append(
            Message(
                role=role,
                content=text,
                images=images,
                reasoning=m.reasoning_content or m.reasoning,
                tool_calls=calls,
                tool_call_id=m.tool_call_id,
                name=m.name,
            )
        )
    tools = [
        Tool(
            name=t.function.name,
            description=t.function.description or "",
            parameters=t.function.parameters or {"type": "object", "properties": {}},
        )
        for t in req.tools or []
        if t.type == "function"
    ]
    stop = [req.stop] if isinstance(req.stop, str) else list(req.stop or [])
    return (
        GenerationRequest(
            model=req.model,
            messages=messages,
            tools=tools,
            tool_choice=req.tool_choice,
            parallel_tool_calls=req.parallel_tool_calls is not False,
            sampling=SamplingParams(
                temperature=req.temperature,
                top_p=req.top_p,
                max_tokens=req.max_completion_tokens or req.max_tokens,
                stop=stop,
                seed=req.seed,
            ),
        ),
        req,
    )


def chat_content(message: Message) -> str | list[dict[str, Any]]:
    """A turn's content: its text, or text and `image_url` parts (data URIs) when it has images."""
    if not message.images:
        return message.content
    return [
        {"type": "text", "text": piece}
        if isinstance(piece, str)
        else {"type": "image_url", "image_url": {"url": piece.data_uri()}}
        for piece in message.parts()
    ]


def chat_message(message: Message, reasoning: bool = True) -> dict[str, Any]:
    """A conversation turn as a Chat Completions message (vLLM's `reasoning_content` when `reasoning`);
    images as `image_url` parts."""
    item: dict[str, Any] = {"role": message.role, "content": chat_content(message)}
    if reasoning and message.reasoning:
        item["reasoning_content"] = message.reasoning
    if message.tool_calls:
        item["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in message.tool_calls
        ]
        item["content"] = message.content or None
    if message.role == "tool":
        item["tool_call_id"] = message.tool_call_id
    return item


def chat_tool(tool: Tool) -> dict[str, Any]:
    """A function tool in the Chat Completions (and Hugging Face chat template) shape."""
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": tool.parameters},
    }


def _message(gen: Generation) -> dict[str, Any]:
    return chat_message(
        Message(role="assistant", content=gen.text, reasoning=gen.reasoning, tool_calls=gen.tool_calls)
    )


def _usage(gen: Generation) -> dict[str, int]:
    return {
        "prompt_tokens": gen.usage.prompt_tokens,
        "completion_tokens": gen.usage.completion_tokens,
        "total_tokens": gen.usage.total_tokens,
    }


def render_response(gen: Generation, req: ChatRequestIn, call_id: str) -> dict[str, Any]:
    choice: dict[str, Any] = {
        "index": 0,
        "message": _message(gen),
        "finish_reason": gen.finish_reason,
        "logprobs": None,
    }
    body: dict[str, Any] = {
        "id": call_id,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": req.model,
        "choices": [choice],
        "usage": _usage(gen),
    }
    if req.return_token_ids:
        body["prompt_token_ids"] = gen.prompt_ids
        choice["token_ids"] = gen.completion_ids
    return body


def render_stream(gen: Generation, req: ChatRequestIn, call_id: str) -> Iterator[str]:
    created = int(time.time())

    def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> str:
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None, **extra}
        return sse(
            {
                "id": call_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": req.model,
                "choices": [choice],
            }
        )

    first: dict[str, Any] = {"role": "assistant", "content": ""}
    if req.return_token_ids:
        yield sse(
            {
                "id": call_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": req.model,
                "prompt_token_ids": gen.prompt_ids,
                "choices": [{"index": 0, "delta": first, "finish_reason": None, "logprobs": None}],
            }
        )
    else:
        yield chunk(first)
    for piece in chunks(gen.reasoning or ""):
        yield chunk({"reasoning_content": piece})
    for piece in chunks(gen.text):
        yield chunk({"content": piece})
    for index, call in enumerate(gen.tool_calls):
        yield chunk(
            {
                "tool_calls": [
                    {
                        "index": index,
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": ""},
                    }
                ]
            }
        )
        for piece in chunks(call.arguments):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    extra = {"token_ids": gen.completion_ids} if req.return_token_ids else {}
    yield chunk({}, gen.finish_reason, **extra)
    if req.stream_options and req.stream_options.include_usage:
        yield sse(
            {
                "id": call_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": req.model,
                "choices": [],
                "usage": _usage(gen),
            }
        )
    yield sse("[DONE]")


def render_error(error: ProxyError) -> dict[str, Any]:
    return {
        "error": {
            "message": error.message,
            "type": error.kind,
            "param": getattr(error, "param", None),
            "code": None,
        }
    }
