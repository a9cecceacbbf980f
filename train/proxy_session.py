"""An in-process recording proxy on a Unix socket, for rollouts on this machine.

Sandboxes reach it through their model relay (`unix:<socket>`), so no sandbox needs any network but
loopback; every call is recorded in `<run_dir>/calls.sqlite`.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from types import TracebackType
from typing import Self

from proxy.app import create_app
from proxy.config import ProxyConfig
from proxy.engines.base import Engine
from proxy.serving import BackgroundServer
from proxy.store import CallStore


def _socket_path() -> Path:
    """A short path: Unix socket paths are capped at 108 bytes."""
    root = Path(os.environ.get("FORGE_RUN_DIR", f"/tmp/openforge-{os.getuid()}")) / "proxies"
    root.mkdir(parents=True, exist_ok=True)
    return root / f"{uuid.uuid4().hex[:12]}.sock"


class ProxySession:
    """`with ProxySession(engine, run_dir) as proxy:` serves and records until the block ends."""

    def __init__(self, engine: Engine, run_dir: Path, config: ProxyConfig | None = None) -> None:
        self.engine = engine
        self.run_dir = run_dir
        self.config = config or ProxyConfig(accept_any_model=True)
        self.socket = _socket_path()
        self.store: CallStore | None = None
        self._server: BackgroundServer | None = None

    @property
    def endpoint(self) -> str:
        """What a sandbox spec's `model_endpoint` takes."""
        return f"unix:{self.socket}"

    def start(self) -> Self:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.store = CallStore.for_run(self.run_dir)
        try:
            self._server = BackgroundServer(create_app(self.engine, self.store, self.config), uds=self.socket)
            self._server.start()
        except BaseException:
            self.store.close()
            raise
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None
        if self.store is not None:
            self.store.close()
            self.store = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
