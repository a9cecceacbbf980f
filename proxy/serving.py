"""Running an ASGI app with uvicorn in a background thread, on a loopback port or a Unix socket.

Tests, benchmarks and the training loop start proxies and engines in-process this way.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import uvicorn


class BackgroundServer:
    """`with BackgroundServer(app) as server: server.url` — stops (and joins) on exit."""

    def __init__(
        self,
        app: Any,
        host: str = "127.0.0.1",
        port: int = 0,
        uds: Path | None = None,
        log_level: str = "warning",
    ) -> None:
        self.uds = uds
        if uds is not None:
            uds.unlink(missing_ok=True)
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self._socket.bind(str(uds))
            uds.chmod(0o666)
        else:
            self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._socket.bind((host, port))
        self.host = host
        self.port: int = self._socket.getsockname()[1] if uds is None else 0
        config = uvicorn.Config(
            app, log_level=log_level, lifespan="on", timeout_keep_alive=30, backlog=2048, access_log=False
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, name="forge-server", daemon=True
        )

    @property
    def url(self) -> str:
        """Base URL (for a Unix socket: the URL clients use with a UDS transport)."""
        return f"http://{self.host}:{self.port}" if self.uds is None else "http://localhost"

    def start(self) -> Self:
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(10)
        self._socket.close()
        if self.uds is not None:
            self.uds.unlink(missing_ok=True)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
