"""The host side of network `model-only`: a per-sandbox Unix socket that leads to the model server, and
only to the model routes the sandbox is allowed.

Each model-only sandbox gets its own folder holding `model.sock`, mounted into the container; the
forwarder inside turns it into http://127.0.0.1:PORT. The relay is an HTTP reverse proxy (aiohttp), not a
byte pipe: it reads each request, lets through only those whose path starts with one of the sandbox's
`routes` (a rollout's own `/rollouts/<id>/v1/`), made of plain path characters (no `%`, no `..` or
`//`), and answers everything else 403 itself, so nothing from inside a sandbox ever reaches another
rollout's routes or the proxy's control plane. Closing the relay cuts the sandbox off from the model,
which is how verification runs with no network even in a sandbox that had one.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from urllib.parse import urlparse

import aiohttp
from aiohttp import web

from envs.errors import NetworkModeError
from envs.unix_http import UnixHttpServer

SOCKET_NAME = "model.sock"
MAX_BODY_BYTES = 64 * 1024 * 1024
"""Bigger requests are refused by the relay (the proxy's own limit is lower)."""
UPSTREAM_TIMEOUT_SEC = 3600.0
METHODS = frozenset({"GET", "POST"})
_PLAIN_PATH = re.compile(r"^/[A-Za-z0-9._~/-]*$")
_HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
    }
)


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


def rollout_routes(rollout_id: str) -> list[str]:
    """What a rollout's sandbox may reach through its relay: its own model routes, nothing else."""
    return [f"/rollouts/{rollout_id}/v1/"]


def route_allowed(method: str, raw_path: str, routes: Sequence[str]) -> bool:
    """Whether a request line may pass: GET or POST, a plain path under one of `routes`."""
    path = raw_path.split("?", 1)[0]
    if method not in METHODS or not _PLAIN_PATH.match(path):
        return False
    segments = path.split("/")[1:]
    if any(s in ("", ".", "..") for s in segments[:-1]) or segments[-1] in (".", ".."):
        return False
    return any(path.startswith(route) for route in routes)


def _refuse(status: int, message: str) -> web.Response:
    return web.json_response({"error": {"type": "forbidden", "message": message}}, status=status)


class ModelRelay:
    """A Unix-socket HTTP server in `folder` that forwards the allowed requests to `endpoint`."""

    def __init__(self, folder: Path, endpoint: str, routes: Sequence[str] = ("/v1/",)) -> None:
        self.folder = Path(folder)
        self.target = parse_endpoint(endpoint)[1]
        self.routes = tuple(routes)
        self._session: aiohttp.ClientSession | None = None
        app = web.Application(client_max_size=MAX_BODY_BYTES)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        app.cleanup_ctx.append(self._upstream_session)
        self._server = UnixHttpServer(app, self.socket_path, f"model-relay-{self.folder.name}")

    @property
    def socket_path(self) -> Path:
        return self.folder / SOCKET_NAME

    @property
    def _base_url(self) -> str:
        if isinstance(self.target, str):
            return "http://model"
        host, port = self.target
        return f"http://{host}:{port}"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)
        try:
            self._server.start()
        except BaseException as exc:
            raise NetworkModeError(f"cannot open the model relay socket {self.socket_path}: {exc}") from exc

    async def _upstream_session(self, app: web.Application) -> AsyncIterator[None]:
        """One client session to the model server, opened and closed with the relay."""
        connector: aiohttp.BaseConnector = (
            aiohttp.UnixConnector(path=self.target)
            if isinstance(self.target, str)
            else aiohttp.TCPConnector()
        )
        self._session = aiohttp.ClientSession(
            connector=connector,
            timeout=aiohttp.ClientTimeout(total=UPSTREAM_TIMEOUT_SEC),
            auto_decompress=False,
        )
        yield
        await self._session.close()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        raw_path = request.raw_path
        if not route_allowed(request.method, raw_path, self.routes):
            return _refuse(
                403, f"{request.method} {raw_path.split('?', 1)[0]} is not a model route of this sandbox"
            )
        if request.headers.get("upgrade"):
            return _refuse(403, "protocol upgrades are not relayed")
        session = self._session
        if session is None:  # a request before the server's startup finished (or after its shutdown)
            return _refuse(503, "the model relay is not serving")
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP_BY_HOP}
        response: web.StreamResponse | None = None
        try:
            async with session.request(
                request.method, self._base_url + raw_path, headers=headers, data=body, allow_redirects=False
            ) as upstream:
                response = web.StreamResponse(
                    status=upstream.status,
                    headers={k: v for k, v in upstream.headers.items() if k.lower() not in _HOP_BY_HOP},
                )
                await response.prepare(request)
                async for chunk in upstream.content.iter_any():
                    await response.write(chunk)
                await response.write_eof()
                return response
        except (aiohttp.ClientError, OSError) as exc:
            if response is not None:  # the answer had begun: the client sees it cut short
                return response
            return _refuse(502, f"the model server cannot be reached: {exc}")

    def close(self) -> None:
        """Stop accepting, drop open connections, remove the socket. Safe to call twice."""
        self._server.close()
        shutil.rmtree(self.folder, ignore_errors=True)
