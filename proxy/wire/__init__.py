"""The three wire APIs harnesses speak, each translated to and from `proxy.conversation`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from proxy.conversation import Generation, GenerationRequest
from proxy.errors import ProxyError
from proxy.images import ImageBudget
from proxy.records import WireApi
from proxy.wire import chat, messages, responses


@dataclass(frozen=True)
class WireAdapter:
    """How one wire API parses requests and renders answers, streams and errors."""

    api: WireApi
    id_prefix: str
    parse: Callable[[Any, ImageBudget | None], tuple[GenerationRequest, Any]]
    render: Callable[[Generation, Any, str], dict[str, Any]]
    stream: Callable[[Generation, Any, str], Iterator[str]]
    error: Callable[[ProxyError], dict[str, Any]]


WIRE_ADAPTERS: dict[WireApi, WireAdapter] = {
    WireApi.CHAT: WireAdapter(
        WireApi.CHAT,
        "chatcmpl-",
        chat.parse_request,
        chat.render_response,
        chat.render_stream,
        chat.render_error,
    ),
    WireApi.RESPONSES: WireAdapter(
        WireApi.RESPONSES,
        "resp_",
        responses.parse_request,
        responses.render_response,
        responses.render_stream,
        responses.render_error,
    ),
    WireApi.MESSAGES: WireAdapter(
        WireApi.MESSAGES,
        "msg_",
        messages.parse_request,
        messages.render_response,
        messages.render_stream,
        messages.render_error,
    ),
}
