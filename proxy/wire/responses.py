"""OpenAI Responses: `POST /v1/responses`, streamed or not (the wire Codex CLI speaks).

Input items (`message` incl. `developer`, `function_call`, `function_call_output`, `reasoning`) become
conversation turns. A reasoning item's `encrypted_content` carries the reasoning text back to us
exactly (opaque to the client), so a resent history reproduces the tokens that were sampled.

Tools in a `namespace` (Codex sends each MCP server's tools as one: `{"type": "namespace", "name":
"mcp__playwright", "tools": [...]}`) are flattened to `<namespace>__<name>` for the model, the name Codex
itself gives them on the Chat Completions wire; a call of one goes back as `{"name": <name>,
"namespace": <namespace>}`, and a call in the history comes in that way too.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from proxy.conversation import Generation, GenerationRequest, Message, SamplingParams, Tool, ToolCall
from proxy.errors import BadRequest, ProxyError
from proxy.images import ImageBudget, ImagePart, from_url
from proxy.wire.common import ImageReader, chunks, content_of_parts, sse, validate

_TEXT_PARTS = ("input_text", "output_text", "text", "refusal")
_REASONING_TAG = "forge:"
NAMESPACE_SEPARATOR = "__"


def flat_name(namespace: str | None, name: str) -> str:
    """A namespaced tool's name as the model sees it: `mcp__playwright` + `browser_click` ->
    `mcp__playwright__browser_click`."""
    return f"{namespace}{NAMESPACE_SEPARATOR}{name}" if namespace else name


class _In(BaseModel):
    model_config = ConfigDict(extra="allow")


class ReasoningIn(_In):
    effort: str | None = None
    summary: str | None = None


class ResponsesRequestIn(_In):
    model: str
    input: str | list[dict[str, Any]]
    instructions: str | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: str | dict[str, Any] | None = None
    parallel_tool_calls: bool | None = None
    temperature: float | None = Field(default=None, ge=0)
    top_p: float | None = Field(default=None, gt=0, le=1)
    max_output_tokens: int | None = Field(default=None, gt=0)
    stream: bool = False
    store: bool | None = None
    reasoning: ReasoningIn | None = None
    previous_response_id: str | None = None


def encode_reasoning(text: str) -> str:
    return _REASONING_TAG + base64.b64encode(text.encode()).decode()


def decode_reasoning(item: dict[str, Any]) -> str | None:
    blob = item.get("encrypted_content")
    if isinstance(blob, str) and blob.startswith(_REASONING_TAG):
        try:
            return base64.b64decode(blob[len(_REASONING_TAG) :]).decode()
        except (ValueError, UnicodeDecodeError):
            return None
    parts = item.get("content") or item.get("summary") or []
    texts = [p.get("text", "") for p in parts if isinstance(p, dict)]
    return "\n".join(texts) if texts else None


def read_input_image(part: dict[str, Any], where: str, budget: ImageBudget, offset: int) -> ImagePart:
    """`{"type": "input_image", "image_url": "data:image/png;base64,..."}`; file ids are refused."""
    if part.get("file_id") and not part.get("image_url"):
        raise BadRequest(
            f"{where}.file_id: file ids are not supported; send image_url", param=f"{where}.file_id"
        )
    return from_url(part.get("image_url"), f"{where}.image_url", budget, offset)


IMAGE_PARTS: dict[str, ImageReader] = {"input_image": read_input_image}


def items_to_messages(items: list[dict[str, Any]], budget: ImageBudget | None = None) -> list[Message]:
    budget = budget or ImageBudget()
    messages: list[Message] = []
    pending_reasoning: str | None = None

    def open_assistant() -> Message:
        nonlocal pending_reasoning
        last = messages[-1] if messages else None
        if last is not None and last.role == "assistant":
            return last
        message = Message(role="assistant", reasoning=pending_reasoning)
        pending_reasoning = None
        messages.append(message)
        return message

    for i, item in enumerate(items):
        where = f"input[{i}]"
        if not isinstance(item, dict):
            raise BadRequest(f"{where}: every input item must be an object", param=where)
        kind = item.get("type", "message" if "role" in item else None)
        if kind == "message":
            role = item.get("role")
            if role not in ("user", "assistant", "system", "developer"):
                raise BadRequest(f"{where}.role: unknown role {role!r}", param=f"{where}.role")
            text, images = content_of_parts(
                item.get("content"),
                f"{where}.content",
                budget,
                _TEXT_PARTS,
                IMAGE_PARTS if role == "user" else None,
            )
            if role == "assistant":
                message = open_assistant()
                message.content += text
            else:
                messages.append(
                    Message(role="system" if role == "developer" else role, content=text, images=images)
                )
        elif kind == "function_call":
            for key in ("call_id", "name"):
                if not isinstance(item.get(key), str):
                    raise BadRequest(f"{where}.{key}: required", param=f"{where}.{key}")
            arguments = item.get("arguments", "{}")
            namespace = item.get("namespace")
            if namespace is not None and not isinstance(namespace, str):
                raise BadRequest(f"{where}.namespace: must be a string", param=f"{where}.namespace")
            open_assistant().tool_calls.append(
                ToolCall(
                    id=item["call_id"],
                    name=flat_name(namespace, item["name"]),
                    arguments=arguments if isinstance(arguments, str) else json.dumps(arguments),
                )
            )
        elif kind == "function_call_output":
            if not isinstance(item.get("call_id"), str):
                raise BadRequest(f"{where}.call_id: required", param=f"{where}.call_id")
            output, images = content_of_parts(
                item.get("output"), f"{where}.output", budget, _TEXT_PARTS, IMAGE_PARTS
            )
            messages.append(Message(role="tool", content=output, images=images, tool_call_id=item["call_id"]))
        elif kind == "reasoning":
            pending_reasoning = decode_reasoning(item)
            if messages and messages[-1].role == "assistant" and not messages[-1].reasoning:
                pending_reasoning = None  # belongs to an assistant turn already opened (unusual order)
        else:
            raise BadRequest(
                f"{where}.type: input items of type {kind!r} are not supported", param=f"{where}.type"
            )
    return messages


def parse_request(
    body: Any, budget: ImageBudget | None = None
) -> tuple[GenerationRequest, ResponsesRequestIn]:
    req = validate(ResponsesRequestIn, body)
    if req.previous_response_id:
        raise BadRequest(
            "previous_response_id is not supported: send the whole input (store=false)",
            param="previous_response_id",
        )
    messages: list[Message] = []
    if req.instructions:
        messages.append(Message(role="system", content=req.instructions))
    if isinstance(req.input, str):
        messages.append(Message(role="user", content=req.input))
    else:
        messages.extend(items_to_messages(req.input, budget))
    if not messages:
        raise BadRequest("input: must not be empty", param="input")
    tools = [tool for _, _, tool in _function_tools(req)]
    return (
        GenerationRequest(
            model=req.model,
            messages=messages,
            tools=tools,
            tool_choice=req.tool_choice,
            parallel_tool_calls=req.parallel_tool_calls is not False,
            sampling=SamplingParams(
                temperature=req.temperature, top_p=req.top_p, max_tokens=req.max_output_tokens
            ),
        ),
        req,
    )


def _function_tools(req: ResponsesRequestIn) -> list[tuple[str | None, str, Tool]]:
    """The request's function tools, those inside a namespace flattened: (namespace, name, tool)."""
    found: list[tuple[str | None, str, Tool]] = []

    def add(t: dict[str, Any], where: str, namespace: str | None) -> None:
        if not isinstance(t.get("name"), str):
            raise BadRequest(f"{where}.name: required", param=f"{where}.name")
        tool = Tool(
            name=flat_name(namespace, t["name"]),
            description=t.get("description") or "",
            parameters=t.get("parameters") or {"type": "object", "properties": {}},
        )
        found.append((namespace, t["name"], tool))

    for i, t in enumerate(req.tools or []):
        if t.get("type") == "function":
            add(t, f"tools[{i}]", None)
        elif t.get("type") == "namespace":
            if not isinstance(t.get("name"), str) or not isinstance(t.get("tools"), list):
                raise BadRequest(f"tools[{i}]: a namespace needs a name and tools", param=f"tools[{i}]")
            for j, inner in enumerate(t["tools"]):
                if isinstance(inner, dict) and inner.get("type", "function") == "function":
                    add(inner, f"tools[{i}].tools[{j}]", t["name"])
        # hosted tools (web_search, …) are not ours to run
    return found


def _wire_names(req: ResponsesRequestIn) -> dict[str, tuple[str, str]]:
    """Flattened name -> (namespace, name) of every namespaced tool of the request."""
    return {tool.name: (ns, name) for ns, name, tool in _function_tools(req) if ns is not None}


def _output_items(
    gen: Generation, ids: dict[str, str], namespaced: dict[str, tuple[str, str]] | None = None
) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    if gen.reasoning:
        items.append(
            {
                "type": "reasoning",
                "id": ids["reasoning"],
                "summary": [{"type": "summary_text", "text": gen.reasoning}],
                "encrypted_content": encode_reasoning(gen.reasoning),
            }
        )
    if gen.text or not gen.tool_calls:
        items.append(
            {
                "type": "message",
                "id": ids["message"],
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": gen.text, "annotations": []}],
            }
        )
    for i, call in enumerate(gen.tool_calls):
        item: dict[str, Any] = {
            "type": "function_call",
            "id": f"{ids['call']}_{i}",
            "call_id": call.id,
            "name": call.name,
            "arguments": call.arguments,
            "status": "completed",
        }
        if (wire := (namespaced or {}).get(call.name)) is not None:
            item["namespace"], item["name"] = wire
        items.append(item)
    return items


def _envelope(req: ResponsesRequestIn, response_id: str, created: int) -> dict[str, Any]:
    return {
        "id": response_id,
        "object": "response",
        "created_at": created,
        "status": "in_progress",
        "error": None,
        "incomplete_details": None,
        "instructions": req.instructions,
        "max_output_tokens": req.max_output_tokens,
        "model": req.model,
        "output": [],
        "parallel_tool_calls": req.parallel_tool_calls is not False,
        "previous_response_id": None,
        "reasoning": {"effort": req.reasoning.effort if req.reasoning else None, "summary": None},
        "store": bool(req.store),
        "temperature": req.temperature,
        "text": {"format": {"type": "text"}},
        "tool_choice": req.tool_choice or "auto",
        "tools": req.tools or [],
        "top_p": req.top_p,
        "truncation": "disabled",
        "usage": None,
        "user": None,
        "metadata": {},
    }


def _finish(body: dict[str, Any], gen: Generation, items: list[dict[str, Any]]) -> dict[str, Any]:
    body = dict(body)
    incomplete = gen.finish_reason == "length"
    body["status"] = "incomplete" if incomplete else "completed"
    body["incomplete_details"] = {"reason": "max_output_tokens"} if incomplete else None
    body["output"] = items
    body["usage"] = {
        "input_tokens": gen.usage.prompt_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": gen.usage.completion_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": gen.usage.total_tokens,
    }
    return body


def _ids(call_id: str) -> dict[str, str]:
    suffix = call_id.split("_", 1)[-1]
    return {"reasoning": f"rs_{suffix}", "message": f"msg_{suffix}", "call": f"fc_{suffix}"}


def render_response(gen: Generation, req: ResponsesRequestIn, call_id: str) -> dict[str, Any]:
    items = _output_items(gen, _ids(call_id), _wire_names(req))
    return _finish(_envelope(req, call_id, int(time.time())), gen, items)


def render_stream(gen: Generation, req: ResponsesRequestIn, call_id: str) -> Iterator[str]:
    envelope = _envelope(req, call_id, int(time.time()))
    items = _output_items(gen, _ids(call_id), _wire_names(req))
    seq = 0

    def event(kind: str, **data: Any) -> str:
        nonlocal seq
        seq += 1
        return sse({"type": kind, "sequence_number": seq - 1, **data}, event=kind)

    yield event("response.created", response=envelope)
    yield event("response.in_progress", response=envelope)
    for index, item in enumerate(items):
        item_id = item["id"]
        if item["type"] == "reasoning":
            text = item["summary"][0]["text"]
            yield event("response.output_item.added", output_index=index, item={**item, "summary": []})
            part = {"type": "summary_text", "text": ""}
            yield event(
                "response.reasoning_summary_part.added",
                item_id=item_id,
                output_index=index,
                summary_index=0,
                part=part,
            )
            for piece in chunks(text):
                yield event(
                    "response.reasoning_summary_text.delta",
                    item_id=item_id,
                    output_index=index,
                    summary_index=0,
                    delta=piece,
                )
            yield event(
                "response.reasoning_summary_text.done",
                item_id=item_id,
                output_index=index,
                summary_index=0,
                text=text,
            )
            yield event(
                "response.reasoning_summary_part.done",
                item_id=item_id,
                output_index=index,
                summary_index=0,
                part={"type": "summary_text", "text": text},
            )
        elif item["type"] == "message":
            text = item["content"][0]["text"]
            yield event(
                "response.output_item.added",
                output_index=index,
                item={**item, "status": "in_progress", "content": []},
            )
            empty = {"type": "output_text", "text": "", "annotations": []}
            yield event(
                "response.content_part.added",
                item_id=item_id,
                output_index=index,
                content_index=0,
                part=empty,
            )
            for piece in chunks(text):
                yield event(
                    "response.output_text.delta",
                    item_id=item_id,
                    output_index=index,
                    content_index=0,
                    delta=piece,
                    logprobs=[],
                )
            yield event(
                "response.output_text.done",
                item_id=item_id,
                output_index=index,
                content_index=0,
                text=text,
                logprobs=[],
            )
            yield event(
                "response.content_part.done",
                item_id=item_id,
                output_index=index,
                content_index=0,
                part=item["content"][0],
            )
        else:
            yield event(
                "response.output_item.added",
                output_index=index,
                item={**item, "arguments": "", "status": "in_progress"},
            )
            for piece in chunks(item["arguments"]):
                yield event(
                    "response.function_call_arguments.delta", item_id=item_id, output_index=index, delta=piece
                )
            yield event(
                "response.function_call_arguments.done",
                item_id=item_id,
                output_index=index,
                name=item["name"],
                arguments=item["arguments"],
            )
        yield event("response.output_item.done", output_index=index, item=item)
    final = _finish(envelope, gen, items)
    yield event(
        "response.incomplete" if final["status"] == "incomplete" else "response.completed", response=final
    )


def render_error(error: ProxyError) -> dict[str, Any]:
    return {
        "error": {
            "message": error.message,
            "type": error.kind,
            "param": getattr(error, "param", None),
            "code": None,
        }
    }
