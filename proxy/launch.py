"""Building an engine from command-line options, and serving the proxy (`forge-proxy serve`)."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from proxy.config import ProxyConfig
from proxy.engines.base import ENGINES, Engine, create_engine

NEEDS_UPSTREAM = {"local", "sglang", "vllm", "openai", "anthropic"}
NEEDS_TOKENIZER = {"local", "sglang", "vllm", "scripted-tokens"}
CONTROL_SOCKET_NAME = "control.sock"
"""The control app's Unix socket in the run directory, unless `--control-uds` or `--control-port`."""
CONTROL_HOST = "127.0.0.1"


class EngineOptions(BaseModel):
    """What `forge-proxy serve` was told about its engine."""

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


def build_engine(options: EngineOptions) -> Engine:
    name = options.engine
    if name not in ENGINES and ":" not in name:
        raise ValueError(f"unknown engine {name!r}; known: {', '.join(sorted(ENGINES))}")
    if name in NEEDS_UPSTREAM and not options.upstream:
        raise ValueError(f"engine {name!r} needs --upstream URL")
    if name in NEEDS_TOKENIZER and options.tokenizer is None:
        raise ValueError(f"engine {name!r} needs --tokenizer DIR (the model's tokenizer and chat template)")
    if name == "vllm" and not options.upstream_model:
        raise ValueError("engine 'vllm' needs --upstream-model NAME (the model name vLLM serves)")
    api_key = os.environ.get(options.api_key_env, "") if options.api_key_env else ""
    if options.api_key_env and not api_key:
        raise ValueError(f"--api-key-env {options.api_key_env}: that environment variable is not set")
    if name == "oracle" and not options.catalog:
        raise ValueError("engine 'oracle' needs --catalog DIR (the tasks whose solutions it runs)")
    kwargs: dict[str, object] = {}
    if name == "oracle":
        kwargs = {"catalog": options.catalog, "tokenizer": options.tokenizer}
    elif name == "nop":
        kwargs = {"tokenizer": options.tokenizer}
    elif name == "scripted":
        kwargs = {"commands": options.commands or None}
    elif name == "scripted-tokens":
        kwargs = {"tokenizer": options.tokenizer, "commands": options.commands or None}
    elif name in ("local", "sglang"):
        kwargs = {"base_url": options.upstream, "tokenizer": options.tokenizer}
    elif name == "vllm":
        kwargs = {
            "base_url": options.upstream,
            "tokenizer": options.tokenizer,
            "model": options.upstream_model,
            "api_key": api_key,
        }
    elif name in ("openai", "anthropic"):
        kwargs = {"base_url": options.upstream, "api_key": api_key, "model": options.upstream_model}
    return create_engine(name, **kwargs)


def serve(
    options: EngineOptions,
    config: ProxyConfig,
    run_dir: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    uds: Path | None = None,
    *,
    control_uds: Path | None = None,
    control_port: int | None = None,
    announce: Callable[[str, str], None] | None = None,
) -> None:
    """Serve until interrupted; every call is recorded under `run_dir`.

    The model app listens on `uds` or host:port (what harnesses and sandbox relays reach), the control
    app on `control_uds` (default `<run_dir>/control.sock`, mode 0600) or on 127.0.0.1:`control_port`;
    both in this process's one event loop. `announce(what, where)` is told each address once bound."""
    from proxy.app import create_apps
    from proxy.serving import listen_socket, serve_together
    from proxy.store import CallStore

    if control_uds is not None and control_port is not None:
        raise ValueError("give --control-uds PATH or --control-port N, not both")
    engine = build_engine(options)
    run_dir.mkdir(parents=True, exist_ok=True)
    control_path = None if control_port is not None else (control_uds or run_dir / CONTROL_SOCKET_NAME)
    store = CallStore.for_run(run_dir)
    sockets: list[socket.socket] = []
    try:
        if uds is not None:
            uds.parent.mkdir(parents=True, exist_ok=True)
        if control_path is not None:
            control_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            sockets.append(listen_socket(uds, host, port))
            sockets.append(listen_socket(control_path, CONTROL_HOST, control_port or 0, mode=0o600))
        except OSError as exc:
            raise ValueError(str(exc)) from exc
        apps = create_apps(engine, store, config)
        if announce is not None:
            announce("model", _where(sockets[0], uds))
            announce("control", _where(sockets[1], control_path))
        serve_together([(apps.model, sockets[0]), (apps.control, sockets[1])])
    finally:
        for sock, path in zip(sockets, (uds, control_path), strict=False):
            sock.close()
            if path is not None:  # only the sockets bound here
                path.unlink(missing_ok=True)
        store.close()


def _where(sock: socket.socket, path: Path | None) -> str:
    if path is not None:
        return f"unix:{path}"
    host, port = sock.getsockname()[:2]
    return f"http://{host}:{port}"
