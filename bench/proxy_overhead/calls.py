"""The call every mode sends, and what counts as a right answer to it: one place, so that the upstream,
the load generator and the readiness check cannot disagree."""

from __future__ import annotations

import base64
import io
import json
import secrets
from typing import Any

MODEL = "bench-model"
COMPLETION_TEXT = "The weather in Paris is sunny and 22 degrees Celsius."
STREAM_PIECES = ["The weather in Paris ", "is sunny and ", "22 degrees Celsius."]
API_KEY = "sk-" + secrets.token_hex(24)
"""Sent with every request; LiteLLM's master key (it refuses to start without one). Ours ignores it."""
MODES = ("direct", "ours", "litellm")
LABELS = {"direct": "direct", "ours": "ours", "litellm": "LiteLLM"}


def screenshot_png(kilobytes: int) -> bytes:
    """A PNG of about `kilobytes` KB: flat screen colour with a band of noise (which PNG cannot squeeze),
    like a browser screenshot with text and pictures."""
    import numpy as np
    from PIL import Image

    width = 1280
    rng = np.random.default_rng(0)
    rows = max(1, kilobytes * 1024 // (width * 3))
    pixels = np.full((800, width, 3), 235, dtype=np.uint8)
    pixels[100 : 100 + min(rows, 700)] = rng.integers(0, 256, (min(rows, 700), width, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG")
    return out.getvalue()


def request_body(stream: bool, image: bytes | None = None) -> bytes:
    """A short chat with a tool definition and a tool round trip, as JSON; with `image`, the tool's
    result is followed by a user turn holding it as a PNG data URI (what a browser agent sends)."""
    body: dict[str, Any] = {
        "model": MODEL,
        "messages": [
            {"role": "system", "content": "You are a helpful assistant. Use the tools when they help."},
            {"role": "user", "content": "What is the weather in Paris right now?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_0",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_0", "content": '{"sky": "sunny", "celsius": 22}'},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Current weather of a city.",
                    "parameters": {
                        "type": "object",
                        "properties": {"city": {"type": "string", "description": "City name"}},
                        "required": ["city"],
                    },
                },
            }
        ],
        "max_tokens": 64,
        "stream": stream,
    }
    if image is not None:
        uri = "data:image/png;base64," + base64.b64encode(image).decode()
        body["messages"].append(
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "The screen now:"},
                    {"type": "image_url", "image_url": {"url": uri}},
                ],
            }
        )
    return json.dumps(body).encode()


def http_request(port: int, body: bytes) -> bytes:
    """The whole HTTP/1.1 request, built once per cell and written as is for every call."""
    head = (
        f"POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n"
        f"content-type: application/json\r\naccept: */*\r\nauthorization: Bearer {API_KEY}\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


def answer_ok(body: bytes, stream: bool) -> bool:
    """The answer carries the upstream's completion (for streams: the deltas joined, then [DONE])."""
    try:
        if not stream:
            return json.loads(body)["choices"][0]["message"]["content"] == COMPLETION_TEXT
        text, done = [], False
        for line in body.decode().splitlines():
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                done = True
                continue
            for choice in json.loads(data).get("choices") or []:
                text.append((choice.get("delta") or {}).get("content") or "")
        return done and "".join(text) == COMPLETION_TEXT
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return False
