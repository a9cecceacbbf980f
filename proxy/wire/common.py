"""Helpers the wire adapters share: validation errors, SSE framing, ids, text chunking, content parts."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from proxy.errors import BadRequest
from proxy.images import ImageBudget, ImagePart

M = TypeVar("M", bound=BaseModel)
ImageReader = Callable[[dict[str, Any], str, ImageBudget, int], ImagePart]
"""Reads one image part of a wire API (the part, where it is, the bounds, its offset into the text)."""
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
    text, _ = content_of_parts(content, where, ImageBudget(), text_types)
    return text


def content_of_parts(
    content: Any,
    where: str,
    budget: ImageBudget,
    text_types: tuple[str, ...] = ("text",),
    images: Mapping[str, ImageReader] | None = None,
) -> tuple[str, list[ImagePart]]:
    """Content that is a string or a list of parts, as its text and its images (each at its offset into
    the text). `images` maps the wire API's image part types to their readers; any other part is
    refused, naming it."""
    if content is None:
        return "", []
    if isinstance(content, str):
        return content, []
    if not isinstance(content, list):
        raise BadRequest(f"{where}: content must be a string or a list of parts", param=where)
    texts: list[str] = []
    found: list[ImagePart] = []
    at = 0
    for i, part in enumerate(content):
        if isinstance(part, str):
            texts.append(part)
            at += len(part)
            continue
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in text_types:
            texts.append(str(part.get("text", "")))
            at += len(texts[-1])
        elif images is not None and isinstance(kind, str) and kind in images:
            found.append(images[kind](part, f"{where}[{i}]", budget, at))
        else:
            allowed = "text or images" if images else "text only"
            raise BadRequest(
                f"{where}[{i}]: content part of type {kind!r} is not supported here ({allowed})",
                param=f"{where}[{i}].type",
            )
    return "".join(texts), found


def parse_arguments(arguments: str) -> dict[str, Any]:
    """Tool-call arguments as an object (for APIs that want one); unparseable text is kept raw."""
    try:
        value = json.loads(arguments) if arguments.strip() else {}
    except json.JSONDecodeError:
        return {"_raw_arguments": arguments}
    return value if isinstance(value, dict) else {"_value": value}
