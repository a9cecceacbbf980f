"""The engine interface and its registry.

An engine turns a `GenerationRequest` into a `Generation`. Engines are named in one registry, imported
lazily; a `module:Class` path not listed works too.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import Any

from proxy.conversation import Generation, GenerationRequest


class Engine(ABC):
    """Something that answers model calls."""

    name: str = "engine"
    context_window: int | None = None
    """Tokens of context, when the engine knows it (prompt + completion)."""

    @abstractmethod
    async def generate(self, request: GenerationRequest) -> Generation:
        """Answer one call. Raise proxy.errors.UpstreamError when the engine fails (after retries)."""

    async def count_tokens(self, request: GenerationRequest) -> int:
        """Prompt tokens of a request; engines with a tokenizer count exactly, others estimate."""
        text = "".join(m.content + (m.reasoning or "") for m in request.messages)
        return max(1, len(text) // 4)

    async def aclose(self) -> None:  # noqa: B027 - most engines hold nothing to release
        """Release connections and threads."""


ENGINES: dict[str, str] = {
    "scripted": "proxy.engines.scripted:ScriptedEngine",
    "oracle": "proxy.engines.oracle:OracleEngine",
    "nop": "proxy.engines.oracle:NopEngine",
    "scripted-tokens": "proxy.engines.scripted:ScriptedTokenEngine",
    "local": "proxy.engines.sglang:LocalEngine",
    "sglang": "proxy.engines.sglang:SGLangEngine",
    "vllm": "proxy.engines.vllm:VLLMEngine",
    "openai": "proxy.engines.passthrough:OpenAIPassthrough",
    "anthropic": "proxy.engines.passthrough:AnthropicPassthrough",
}
"""Engine name -> `module:Class`."""


def create_engine(name: str, **options: Any) -> Engine:
    target = ENGINES.get(name, name)
    if ":" not in target:
        raise ValueError(f"unknown engine {name!r}; known: {', '.join(sorted(ENGINES))}")
    module_name, class_name = target.split(":", 1)
    engine = getattr(importlib.import_module(module_name), class_name)(**options)
    if not isinstance(engine, Engine):
        raise TypeError(f"{target} is not an Engine")
    return engine
