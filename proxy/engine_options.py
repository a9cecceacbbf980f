"""What `--model` / `--engine` and the engine flags on the command line mean: an engine name (oracle, nop,
local, vllm, ...) or an OpenAI-compatible URL, which the proxy serves by pass-through, and the options
every engine builds itself from (`Engine.from_options`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from proxy.engines.base import ENGINES
from proxy.errors import EngineConfigError


class EngineOptions(BaseModel):
    """What `forge-proxy serve` (or a forge-env / forge-train command) was told about its engine."""

    engine: str = "scripted"
    upstream: list[str] = Field(default_factory=list)
    """Base URLs of the engine's replicas (OpenAI-style ones end in /v1)."""
    tokenizer: Path | None = None
    upstream_model: str | None = None
    api_key_env: str | None = None
    """Name of the environment variable holding the upstream's API key (never the key itself)."""
    commands: list[str] = Field(default_factory=list)
    """Scripted engines: the commands to run through the client's shell tool."""
    catalog: list[Path] = Field(default_factory=list)
    """Oracle engine: task folders or catalogs whose reference solutions it runs."""

    def api_key(self) -> str:
        """The upstream's API key, read from `api_key_env` now ("" when none is named).

        Raises EngineConfigError when the variable is named but not set."""
        if not self.api_key_env:
            return ""
        key = os.environ.get(self.api_key_env, "")
        if not key:
            raise EngineConfigError(f"--api-key-env {self.api_key_env}: that environment variable is not set")
        return key

    def tokenizer_dir(self) -> Path:
        """`--tokenizer`, for an engine that cannot do without one; raises EngineConfigError when not
        given."""
        if self.tokenizer is None:
            raise EngineConfigError(
                f"engine {self.engine!r} needs --tokenizer DIR (the model's tokenizer and chat template)"
            )
        return self.tokenizer


def engine_options(
    model: str, engine: str | None, catalogs: Sequence[Path], **given: object
) -> EngineOptions:
    """EngineOptions for the proxy; the oracle sees `catalogs`. Raises EngineConfigError on a bad choice."""
    options = EngineOptions.model_validate(given)
    if engine is None:
        if model.startswith(("http://", "https://")):
            engine = "openai"
            options.upstream = [model, *options.upstream]
        elif model in ENGINES:
            engine = model
        else:
            raise EngineConfigError(
                f"--model {model!r} is neither an engine ({', '.join(ENGINES)}) nor a URL"
            )
    options.engine = engine
    options.catalog = [c for c in catalogs if c.exists()]
    return options
