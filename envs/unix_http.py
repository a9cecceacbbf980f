"""An aiohttp app served on a Unix socket from a thread of its own (with its own event loop), so that
synchronous code (a sandbox, the gate) can run one beside it: the sandboxes' model relays and the
gate's control-plane canary are served this way."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path

from aiohttp import web

SHUTDOWN_SEC = 1.0
"""How long open connections get to finish when the server closes."""


class UnixHttpServer:
    """`start()` serves `app` on `socket` (mode `mode`) until `close()`; both are safe to call twice."""

    def __init__(self, app: web.Application, socket: Path, name: str, mode: int = 0o666) -> None:
        self.app = app
        self.socket = socket
        self.name = name
        self.mode = mode
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    async def _serve(self) -> None:
        self._runner = web.AppRunner(
            self.app, handle_signals=False, access_log=None, shutdown_timeout=SHUTDOWN_SEC
        )
        await self._runner.setup()
        await web.UnixSite(self._runner, str(self.socket)).start()
        self.socket.chmod(self.mode)

    def start(self) -> None:
        """Returns once the socket accepts; re-raises whatever kept it from opening."""
        ready = threading.Event()
        errors: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self._serve())
            except BaseException as exc:
                errors.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.close()

        self._thread = threading.Thread(target=run, name=self.name, daemon=True)
        self._thread.start()
        ready.wait(10)
        if errors:
            raise errors[0]

    def close(self) -> None:
        """Stop accepting, drop open connections (the app's cleanup hooks run), stop the thread."""
        loop, self._loop = self._loop, None
        if loop is None or not loop.is_running():
            return

        async def shutdown() -> None:
            if self._runner is not None:
                await self._runner.cleanup()

        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            asyncio.run_coroutine_threadsafe(shutdown(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(5)
