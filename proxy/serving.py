"""Running an ASGI app with uvicorn in a background thread, on a loopback port or a Unix socket.

Tests, benchmarks and the training loop start proxies and engines in-process this way. A Unix socket
is 0666 by default (the model socket: sandbox relays under other users reach it); the proxy's control
socket is made 0600.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

import uvicorn

BACKLOG = 2048


def listen_socket(
    uds: Path | None = None, host: str = "127.0.0.1", port: int = 0, mode: int = 0o666
) -> socket.socket:
    """A listening socket for uvicorn: the Unix socket `uds` (replacing a stale one, then chmod `mode`),
    or host:port. It listens at once, so a client that sees the socket file may connect before the server
    has started (it waits in the backlog). Raises OSError saying which path or address failed."""
    if uds is not None:
        uds.unlink(missing_ok=True)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(str(uds))
            uds.chmod(mode)
            sock.listen(BACKLOG)
        except OSError as exc:
            sock.close()
            raise OSError(f"cannot listen on the Unix socket {uds}: {exc.strerror or exc}") from exc
        return sock
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    return sock


def _config(app: Any, log_level: str, lifespan: Literal["auto", "on"]) -> uvicorn.Config:
    """How every OpenForge server runs under uvicorn."""
    return uvicorn.Config(
        app, log_level=log_level, lifespan=lifespan, timeout_keep_alive=30, backlog=BACKLOG, access_log=False
    )


class BackgroundServer:
    """`with BackgroundServer(app) as server: server.url` — stops (and joins) on exit."""

    def __init__(
        self,
        app: Any,
        host: str = "127.0.0.1",
        port: int = 0,
        uds: Path | None = None,
        log_level: str = "warning",
        mode: int = 0o666,
    ) -> None:
        self.uds = uds
        self._socket = listen_socket(uds, host, port, mode)
        self.host = host
        self.port: int = self._socket.getsockname()[1] if uds is None else 0
        self._server = uvicorn.Server(_config(app, log_level, lifespan="on"))
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


class _SharedLoopServer(uvicorn.Server):
    """A uvicorn server that leaves signals to `serve_together` (each would otherwise take SIGINT and
    SIGTERM for itself alone, and only the last one installed would stop)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def serve_together(apps: Sequence[tuple[Any, socket.socket]], log_level: str = "warning") -> None:
    """Serve each app on its socket with uvicorn, all in this thread's one event loop, until SIGINT or
    SIGTERM (or until one of them stops): the foreground `forge-proxy serve`."""
    servers = [_SharedLoopServer(_config(app, log_level, lifespan="auto")) for app, _ in apps]

    def stop() -> None:
        for server in servers:
            server.should_exit = True

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop)
        tasks = [
            asyncio.create_task(s.serve(sockets=[sock])) for s, (_, sock) in zip(servers, apps, strict=True)
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop()
            await asyncio.gather(*tasks)

    with asyncio.Runner(loop_factory=servers[0].config.get_loop_factory()) as runner:
        runner.run(main())
