"""The host side of network `model-only`: a per-sandbox Unix socket that leads to the model server.

Each model-only sandbox gets its own folder holding `model.sock`, mounted into the container; the
forwarder inside turns it into http://127.0.0.1:PORT. The relay pipes every connection to the real model
endpoint (a Unix socket or a host loopback port). Closing the relay cuts the sandbox off from the model,
which is how verification runs with no network even in a sandbox that had one.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import threading
from pathlib import Path
from urllib.parse import urlparse

from envs.errors import NetworkModeError

SOCKET_NAME = "model.sock"


def parse_endpoint(endpoint: str) -> tuple[str, str | tuple[str, int]]:
    """`unix:/path` -> ("unix", path); `http://host:port` -> ("tcp", (host, port))."""
    if endpoint.startswith("unix:"):
        path = endpoint[len("unix:") :]
        if path.startswith("//"):
            path = path[2:]
        return "unix", path
    url = urlparse(endpoint)
    if url.scheme in ("http", "tcp") and url.hostname and url.port:
        return "tcp", (url.hostname, url.port)
    raise NetworkModeError(f"model endpoint {endpoint!r} is neither unix:/path nor http://host:port")


class ModelRelay:
    """A Unix-socket server in `folder` that forwards every connection to `endpoint`."""

    def __init__(self, folder: Path, endpoint: str) -> None:
        self.folder = Path(folder)
        self.kind, self.target = parse_endpoint(endpoint)
        self.endpoint = endpoint
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.AbstractServer | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def socket_path(self) -> Path:
        return self.folder / SOCKET_NAME

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)
        ready = threading.Event()
        errors: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                self._server = loop.run_until_complete(
                    asyncio.start_unix_server(self._handle, path=str(self.socket_path))
                )
                self.socket_path.chmod(0o666)
            except BaseException as exc:
                errors.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.close()

        self._thread = threading.Thread(target=run, name=f"model-relay-{self.folder.name}", daemon=True)
        self._thread.start()
        ready.wait(10)
        if errors:
            raise NetworkModeError(f"cannot open the model relay socket {self.socket_path}: {errors[0]}")

    async def _open_upstream(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if isinstance(self.target, str):
            return await asyncio.open_unix_connection(self.target)
        host, port = self.target
        return await asyncio.open_connection(host, port)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            up_reader, up_writer = await self._open_upstream()
        except OSError:
            writer.close()
            self._writers.discard(writer)
            return
        self._writers.add(up_writer)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                with contextlib.suppress(OSError, RuntimeError):
                    dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self._writers.discard(writer)
        self._writers.discard(up_writer)

    def close(self) -> None:
        """Stop accepting, drop open connections, remove the socket. Safe to call twice."""
        loop, self._loop = self._loop, None
        if loop is not None and loop.is_running():

            async def shutdown() -> None:
                if self._server is not None:
                    self._server.close()
                for w in list(self._writers):
                    with contextlib.suppress(OSError, RuntimeError):
                        w.close()

            with contextlib.suppress(RuntimeError, TimeoutError):
                asyncio.run_coroutine_threadsafe(shutdown(), loop).result(5)
            loop.call_soon_threadsafe(loop.stop)
            if self._thread is not None:
                self._thread.join(5)
        shutil.rmtree(self.folder, ignore_errors=True)
