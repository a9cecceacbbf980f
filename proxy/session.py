"""An in-process recording proxy on two Unix sockets, for rollouts on this machine.

Sandboxes reach the model app through their model relay (`endpoint`, `unix:<socket>`), so no sandbox
needs any network but loopback; every call is recorded in `<run_dir>/calls.sqlite`. The control app
(rewards, rollout records and settings, pause / drain / resume) is on `control_socket` (mode 0600, in a
folder of its own), which no sandbox is ever given.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from proxy.app import create_apps
from proxy.config import ProxyConfig
from proxy.engines.base import Engine
from proxy.serving import BackgroundServer
from proxy.store import CallStore


def _socket_root() -> Path:
    """A short path: Unix socket paths are capped at 108 bytes."""
    return Path(os.environ.get("FORGE_RUN_DIR", f"/tmp/openforge-{os.getuid()}"))


def _socket_path(folder: str, suffix: str = "", mode: int = 0o777) -> Path:
    root = _socket_root() / folder
    root.mkdir(mode=mode, parents=True, exist_ok=True)
    return root / f"{uuid.uuid4().hex[:12]}{suffix}.sock"


@dataclass(frozen=True)
class RunningProxy:
    """A started `ProxySession`: what its users reach while it serves, none of it missing."""

    engine: Engine
    run_dir: Path
    config: ProxyConfig
    socket: Path
    """The model app's Unix socket."""
    control_socket: Path
    """The control app's Unix socket (rewards, `/rollouts/{id}`, `/admin/*`): for the trainer, never for
    a sandbox."""
    store: CallStore
    """Where every call is recorded (`<run_dir>/calls.sqlite`), open while the session serves."""

    @property
    def endpoint(self) -> str:
        """What a sandbox spec's `model_endpoint` takes: the model app only."""
        return f"unix:{self.socket}"


class ProxySession:
    """`with ProxySession(engine, run_dir) as proxy:` serves and records until the block ends; `proxy`
    is the RunningProxy."""

    def __init__(self, engine: Engine, run_dir: Path, config: ProxyConfig | None = None) -> None:
        self.engine = engine
        self.run_dir = run_dir
        self.config = config or ProxyConfig(accept_any_model=True)
        self.socket = _socket_path("proxies")
        self.control_socket = _socket_path("proxy-control", ".control", mode=0o700)
        self._store: CallStore | None = None
        self._servers: list[BackgroundServer] = []

    def start(self) -> RunningProxy:
        """Open the store and serve both apps; `stop` ends it (also when starting fails half-way)."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        store = self._store = CallStore.for_run(self.run_dir)
        try:
            apps = create_apps(self.engine, store, self.config)
            # the model app's lifespan closes the engine and the record writer: it stops last
            self._servers.append(BackgroundServer(apps.model, uds=self.socket).start())
            self._servers.append(BackgroundServer(apps.control, uds=self.control_socket, mode=0o600).start())
        except BaseException:
            self.stop()
            raise
        return RunningProxy(
            engine=self.engine,
            run_dir=self.run_dir,
            config=self.config,
            socket=self.socket,
            control_socket=self.control_socket,
            store=store,
        )

    def stop(self) -> None:
        while self._servers:
            self._servers.pop().stop()
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> RunningProxy:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
