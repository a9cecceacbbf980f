"""Helpers the wire adapters share: validation errors, SSE framing, ids, text chunking."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from proxy.errors import BadRequest

M = TypeVar("M", bound=BaseModel)
STREAM_CHUNK_CHARS = 24
"""Text deltas of a replayed stream are cut to about this many characters."""


def validate(model: type[M], body: Any) -> M:
    """Validate a request body; the first problem becomes a BadRequest naming its field."""
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        param = ".".join(str(p) for p in err["loc"])
        raise BadRequest(f"{param}: {err['msg']}", param=param) from None


def sse(data: Any, event: str | None = None) -> str:
    """One server-sent event."""
    payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    return (f"event: {event}\n" if event else "") + f"data: {payload}\n\n"


def chunks(text: str, size: int = STREAM_CHUNK_CHARS) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


def text_of_parts(content: Any, where: str, text_types: tuple[str, ...] = ("text",)) -> str:
    """Content that is a string or a list of text parts, as one string; other parts are refused."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise BadRequest(f"{where}: content must be a string or a list of parts", param=where)
    texts = []
    for i, part in enumerate(content):
        if isinstance(part, str):
            texts.append(part)
            continue
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in text_types:
            texts.append(str(part.get("text", "")))
        else:
            raise BadRequest(
                f"{where}[{i}]: content part of type {kind!r} is not supported (text only)",
                param=f"{where}[{i}].type",
            )
    return "".join(texts)


def parse_arguments(arguments: str) -> dict[str, Any]:
    """Tool-call arguments as an object (for APIs that want one); unparseable text is kept raw."""
    try:
        value = json.loads(arguments) if arguments.strip() else {}
    except json.JSONDecodeError:
        return {"_raw_arguments": arguments}
    return value if isinstance(value, dict) else {"_value": value}
