"""The engine interface and its registry.

An engine turns a `GenerationRequest` into a `Generation`. Engines are named in one registry, imported
lazily; a `module:Class` path not listed works too. Each engine says what it needs from the command line
(`needs_upstream`, `needs_tokenizer`) and builds itself from those options (`from_options`), so adding
an engine is its module plus one `ENGINES` line.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar, Self

from envs.plugins import load_plugin

if TYPE_CHECKING:  # annotations only: `forge-proxy --help` lists ENGINES without importing pydantic models
    from proxy.conversation import Generation, GenerationRequest
    from proxy.engine_options import EngineOptions


class Engine(ABC):
    """Something that answers model calls."""

    name: str = "engine"
    context_window: int | None = None
    """Tokens of context, when the engine knows it (prompt + completion)."""
    needs_upstream: ClassVar[bool] = False
    """It forwards to a server: `forge-proxy serve` refuses to start it without `--upstream URL`."""
    needs_tokenizer: ClassVar[bool] = False
    """It works on token ids: refused without `--tokenizer DIR`."""
    accepts_images: bool = False
    """It can take images in a prompt; requests with images to one that cannot are a 400."""

    @classmethod
    def from_options(cls, options: EngineOptions) -> Self:
        """The engine the command line asked for. `needs_upstream` / `needs_tokenizer` are checked
        before this is called; raise proxy.errors.EngineConfigError for any other option it cannot do
        without. An engine that takes no options (the default) is built with none."""
        return cls()

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
    "scripted-tokens": "proxy.engines.scripted:ScriptedTokenEngine",
    "oracle": "proxy.engines.oracle:OracleEngine",
    "nop": "proxy.engines.oracle:NopEngine",
    "local": "proxy.engines.sglang:LocalEngine",
    "sglang": "proxy.engines.sglang:SGLangEngine",
    "vllm": "proxy.engines.vllm:VLLMEngine",
    "openai": "proxy.engines.passthrough:OpenAIPassthrough",
    "anthropic": "proxy.engines.passthrough:AnthropicPassthrough",
}
"""Engine name -> `module:Class` (the order `forge-proxy serve --help` lists them in)."""


def engine_class(name: str) -> type[Engine]:
    """The engine class `name` (a registry name or `module:Class`) stands for, imported now.

    Raises envs.plugins.PluginError when it does not resolve (PluginDependencyMissing: a package its
    module needs is not installed), TypeError when it resolves to something that is not an Engine."""
    found = load_plugin(name, ENGINES, "engine")
    if not (isinstance(found, type) and issubclass(found, Engine)):
        raise TypeError(f"{ENGINES.get(name, name)} is not an Engine")
    return found
