"""The fake OpenAI-compatible upstream: a raw asyncio protocol with httptools' parser on uvloop that answers
every call at once (or after `--upstream-delay-ms`) with bytes built up front, so that it costs a few tens
of microseconds a request and the numbers measure the proxies, not it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from .calls import COMPLETION_TEXT, MODEL, STREAM_PIECES


def _upstream_answers() -> tuple[bytes, bytes, bytes, bytes]:
    """(plain answer, stream head, stream tail with usage, stream tail without), built once."""
    created = 1_700_000_000
    completion = {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
        "created": created,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": COMPLETION_TEXT},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 96, "completion_tokens": 12, "total_tokens": 108},
    }
    body = json.dumps(completion, separators=(",", ":")).encode()
    plain = (
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(body) + body
    )

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-bench",
            "object": "chat.completion.chunk",
            "created": created,
            "model": MODEL,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
        }

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": piece}) for piece in STREAM_PIECES]
    events.append(chunk({}, "stop"))
    usage = {**chunk({}), "choices": [], "usage": completion["usage"]}

    def framed(datas: list[Any]) -> bytes:
        out = []
        for data in datas:
            payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
            event = f"data: {payload}\n\n".encode()
            out.append(b"%x\r\n%s\r\n" % (len(event), event))
        return b"".join(out)

    head = (
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n"
        b"transfer-encoding: chunked\r\n\r\n"
    )
    stream = head + framed(events)
    usage_and_done = framed([usage, "[DONE]"]) + b"0\r\n\r\n"
    done = framed(["[DONE]"]) + b"0\r\n\r\n"
    return plain, stream, usage_and_done, done


def serve_upstream(port: int, delay_ms: float) -> None:
    """Serve chat completions and the model list on 127.0.0.1:`port` until stopped."""
    import httptools
    import uvloop

    plain, stream_head, stream_usage_tail, stream_tail = _upstream_answers()
    models = json.dumps({"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "b"}]})
    models_answer = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s" % (
        len(models),
        models.encode(),
    )
    missing = b'{"error":{"message":"not found"}}'
    not_found = (
        b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s"
        % (len(missing), missing)
    )
    delay = delay_ms / 1000

    class Upstream(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            self.transport = transport
            self.parser = httptools.HttpRequestParser(self)
            self.url = b""
            self.body: list[bytes] = []

        def data_received(self, data: bytes) -> None:
            try:
                self.parser.feed_data(data)
            except httptools.HttpParserError:
                self.transport.write(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
                self.transport.close()

        def on_message_begin(self) -> None:
            self.url = b""
            self.body = []

        def on_url(self, url: bytes) -> None:
            self.url += url

        def on_body(self, body: bytes) -> None:
            self.body.append(body)

        def on_message_complete(self) -> None:
            keep = self.parser.should_keep_alive()
            path = self.url.split(b"?", 1)[0]
            if path.endswith(b"/chat/completions") and self.parser.get_method() == b"POST":
                try:
                    request = json.loads(b"".join(self.body))
                except ValueError:
                    request = {}
                if request.get("stream") is True:
                    usage = (request.get("stream_options") or {}).get("include_usage")
                    answer = stream_head + (stream_usage_tail if usage else stream_tail)
                else:
                    answer = plain
            elif path.endswith(b"/models"):
                answer = models_answer
            else:
                answer = not_found
            if delay:
                asyncio.get_running_loop().call_later(delay, self._send, answer, keep)
            else:
                self._send(answer, keep)

        def _send(self, answer: bytes, keep: bool) -> None:
            if self.transport.is_closing():
                return
            self.transport.write(answer)
            if not keep:
                self.transport.close()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(Upstream, "127.0.0.1", port, backlog=4096, reuse_address=True)
        async with server:
            await server.serve_forever()

    uvloop.run(main())
