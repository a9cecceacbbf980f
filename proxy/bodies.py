"""Reading a JSON request body with bounds: size, and nesting depth.

Without a depth bound a body of 100,000 `[` makes `json.loads` raise RecursionError, and one nested a
few hundred deep parses but breaks whatever walks it recursively later (validation, `json.dumps` when it
is recorded). Every proxy route, model or control, reads its body here, so both are a 400 naming the
problem, never a 500. The depth is checked without recursion.
"""

from __future__ import annotations

import json
from typing import Any

from proxy.errors import BadRequest, BodyTooLarge

MAX_JSON_DEPTH = 128
"""Nesting depth of arrays and objects a body may have (`[]` is 1); real requests stay far below."""


def json_depth_exceeds(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether `value` (parsed JSON) nests arrays/objects deeper than `limit`; iterative."""
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        for child in node.values() if isinstance(node, dict) else node:
            if isinstance(child, dict | list):
                stack.append((child, depth + 1))
    return False


def load_json(raw: bytes, max_bytes: int, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The parsed body, or BadRequest (BodyTooLarge) saying what is wrong with it."""
    if len(raw) > max_bytes:
        raise BodyTooLarge(f"the request body is {len(raw)} bytes; the limit is {max_bytes}")
    too_deep = f"the request body nests JSON too deeply (the limit is {max_depth} levels of arrays/objects)"
    try:
        body = json.loads(raw)
    except RecursionError:
        raise BadRequest(too_deep) from None
    except ValueError as exc:
        raise BadRequest(f"the request body is not valid JSON: {exc}") from None
    # a body cannot nest deeper than its number of opening brackets: most skip the walk
    if raw.count(b"[") + raw.count(b"{") > max_depth and json_depth_exceeds(body, max_depth):
        raise BadRequest(too_deep)
    return body
