"""What `--model` / `--engine` on the command line mean: an engine name (oracle, nop, local, vllm, ...)
or an OpenAI-compatible URL, which the proxy serves by pass-through."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from proxy.engines.base import ENGINES
from proxy.launch import EngineOptions


def engine_options(
    model: str, engine: str | None, catalogs: Sequence[Path], **given: object
) -> EngineOptions:
    """EngineOptions for the proxy; the oracle sees `catalogs`. Raises ValueError on a bad choice."""
    options = EngineOptions.model_validate(given)
    if engine is None:
        if model.startswith(("http://", "https://")):
            engine = "openai"
            options.upstream = [model, *options.upstream]
        elif model in ENGINES:
            engine = model
        else:
            raise ValueError(f"--model {model!r} is neither an engine ({', '.join(ENGINES)}) nor a URL")
    options.engine = engine
    options.catalog = [c for c in catalogs if c.exists()]
    return options
