"""A minimal image registry for tests: the OCI Distribution API (Docker Registry HTTP API v2), in memory.

No registry image can be pulled here, so `docker push` is tested against this one: plain HTTP on
127.0.0.1 at a free port, served by aiohttp on its own event loop in a background thread. The Docker
daemon treats a registry on 127.0.0.0/8 as insecure (it may speak plain HTTP to it) without any
`insecure-registries` setting; it first tries HTTPS, gets an HTTP answer to its TLS handshake and falls
back to HTTP.

What the daemon uses, and so what is served:

* ``GET /v2/``: the API version check (200 and ``Docker-Distribution-API-Version: registry/2.0``).
* ``HEAD /v2/<name>/blobs/<digest>``: whether a layer is there already (then it is not uploaded), and
  ``GET`` of a blob (``get_registry_data`` reads the image's config for its platform).
* ``POST /v2/<name>/blobs/uploads/``: a new upload (202 and its ``Location``); with ``?mount=&from=`` (a
  cross-repository mount the daemon tries for a layer it pushed to another repository here) it answers
  202 too, which starts a normal upload.
* ``PATCH`` of the upload's location (the layer's bytes, streamed), then ``PUT <location>?digest=`` that
  ends it: the bytes must hash to the digest (sha256), or it is refused with ``DIGEST_INVALID``.
* ``PUT /v2/<name>/manifests/<tag>``: each blob the manifest names must be in the repository
  (``MANIFEST_BLOB_UNKNOWN`` otherwise); it is kept under its tag and its digest, with its media type.
* ``HEAD``/``GET /v2/<name>/manifests/<tag or digest>``: ``Docker-Content-Digest`` and the media type it
  was pushed with as ``Content-Type`` (the daemon's inspect takes the digest from a HEAD by tag, then
  GETs the manifest by digest).

Repository names may contain slashes (``openforge/task-x``); blobs are linked per repository, as in a
real registry. ``requests`` logs each request as ``METHOD path[?query] -> status``, and ``server_errors``
what the HTTP server could not handle (a handler's exception, a TLS handshake on its plain port).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import threading
import uuid
from dataclasses import dataclass, field
from types import TracebackType
from typing import Self

from aiohttp import web
from aiohttp.typedefs import Handler

API_HEADERS = {"Docker-Distribution-API-Version": "registry/2.0"}
DIGEST = r"sha256:[a-f0-9]{64}"
_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
NAME = rf"{_COMPONENT}(?:/{_COMPONENT})*"
TAG = r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}"
_ROUTES: list[tuple[str, re.Pattern[str]]] = [
    ("upload", re.compile(rf"(?P<name>{NAME})/blobs/uploads/(?P<upload>[A-Za-z0-9-]+)")),
    ("uploads", re.compile(rf"(?P<name>{NAME})/blobs/uploads/?")),
    ("blob", re.compile(rf"(?P<name>{NAME})/blobs/(?P<digest>{DIGEST})")),
    ("manifest", re.compile(rf"(?P<name>{NAME})/manifests/(?P<reference>{TAG}|{DIGEST})")),
    ("tags", re.compile(rf"(?P<name>{NAME})/tags/list")),
]
CHUNK = 1 << 20
TLS_PROBE = "HTTPS traffic on an HTTP port"
"""What aiohttp says of a TLS handshake on its plain HTTP port: the daemon's first try, before HTTP."""


def digest_of(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


class RegistryError(Exception):
    """An error answered in the API's form: ``{"errors": [{"code", "message"}]}``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def response(self, method: str) -> web.Response:
        if method == "HEAD":
            return web.Response(status=self.status, headers=API_HEADERS)
        body = {"errors": [{"code": self.code, "message": self.message, "detail": None}]}
        return web.json_response(body, status=self.status, headers=API_HEADERS)


class _ErrorLog(logging.Handler):
    """Keeps what the aiohttp server logs, each record as its message and exception."""

    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.DEBUG)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        self.into.append(f"{record.getMessage()}: {error!r}" if error else record.getMessage())


@dataclass
class _Upload:
    name: str
    data: bytearray = field(default_factory=bytearray)


@dataclass(frozen=True)
class Manifest:
    media_type: str
    body: bytes

    @property
    def digest(self) -> str:
        return digest_of(self.body)


class LocalRegistry:
    """The registry, started with `start()` (or `with`) and stopped with `close()`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._blobs: dict[str, bytes] = {}
        self._links: dict[str, set[str]] = {}
        """Repository name -> the digests of the blobs it holds."""
        self._manifests: dict[str, dict[str, Manifest]] = {}
        """Repository name -> reference (tag or digest) -> manifest."""
        self._uploads: dict[str, _Upload] = {}
        self.manifest_puts = 0
        """Manifests accepted (PUT)."""
        self.blob_uploads = 0
        """Blob uploads completed (the final PUT with a matching digest)."""
        self.mount_requests = 0
        """Upload starts that asked for a cross-repository mount (each answered with a normal upload)."""
        self.requests: list[str] = []
        self.server_errors: list[str] = []
        # Not registered with logging (and so never propagated to the root logger): these records are
        # this registry's alone, and a TLS probe is expected, not an error to print.
        self._logger = logging.Logger("local-registry")
        self._logger.addHandler(_ErrorLog(self.server_errors))
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._address: str | None = None

    # ---- lifecycle -------------------------------------------------------------------------------

    @property
    def address(self) -> str:
        """``127.0.0.1:PORT``, the registry part of an image reference."""
        if self._address is None:
            raise RuntimeError("the registry is not started")
        return self._address

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the registry was started already")
        loop = asyncio.new_event_loop()
        self._loop = loop
        self._thread = threading.Thread(target=loop.run_forever, name="local-registry", daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._astart(), loop).result(timeout=30)

    async def _astart(self) -> None:
        app = web.Application(middlewares=[self._log])
        app.router.add_route("*", "/v2/{tail:.*}", self._handle)
        self._runner = web.AppRunner(
            app, access_log=None, shutdown_timeout=1.0, handler_cancellation=True, logger=self._logger
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._address = f"127.0.0.1:{self._runner.addresses[0][1]}"

    def close(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None or loop.is_closed():
            return
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=30)
        loop.close()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ---- what a test reads -----------------------------------------------------------------------

    def manifest(self, name: str, reference: str) -> Manifest | None:
        """The manifest of repository `name` under a tag or digest, if pushed."""
        with self._lock:
            return self._manifests.get(name, {}).get(reference)

    def tags(self, name: str) -> list[str]:
        with self._lock:
            return sorted(ref for ref in self._manifests.get(name, {}) if not ref.startswith("sha256:"))

    @property
    def tls_probes(self) -> int:
        """TLS handshakes received (the daemon tries HTTPS first)."""
        return sum(TLS_PROBE in e for e in list(self.server_errors))

    @property
    def unexpected_errors(self) -> list[str]:
        """What the server logged besides TLS probes: a handler's exception, a malformed request."""
        return [e for e in list(self.server_errors) if TLS_PROBE not in e]

    def has_blob(self, name: str, digest: str) -> bool:
        with self._lock:
            return digest in self._links.get(name, set())

    # ---- the API ---------------------------------------------------------------------------------

    @web.middleware
    async def _log(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        response = await handler(request)
        query = f"?{request.query_string}" if request.query_string else ""
        with self._lock:
            self.requests.append(f"{request.method} {request.path}{query} -> {response.status}")
        return response

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        try:
            return await self._route(request)
        except RegistryError as exc:
            return exc.response(request.method)

    async def _route(self, request: web.Request) -> web.StreamResponse:
        tail = request.match_info["tail"]
        method = request.method
        if tail == "":
            if method in ("GET", "HEAD"):
                return web.json_response({}, headers=API_HEADERS)
            raise RegistryError(405, "UNSUPPORTED", f"{method} /v2/")
        for kind, pattern in _ROUTES:
            match = pattern.fullmatch(tail)
            if match is None:
                continue
            args = match.groupdict()
            match kind, method:
                case "upload", "PATCH":
                    return await self._patch_upload(request, args["name"], args["upload"])
                case "upload", "PUT":
                    return await self._finish_upload(request, args["name"], args["upload"])
                case "upload", "GET":
                    return self._upload_status(args["name"], args["upload"])
                case "upload", "DELETE":
                    with self._lock:
                        self._uploads.pop(args["upload"], None)
                    return web.Response(status=204, headers=API_HEADERS)
                case "uploads", "POST":
                    return self._start_upload(request, args["name"])
                case "blob", "GET" | "HEAD":
                    return self._get_blob(method, args["name"], args["digest"])
                case "manifest", "GET" | "HEAD":
                    return self._get_manifest(method, args["name"], args["reference"])
                case "manifest", "PUT":
                    return await self._put_manifest(request, args["name"], args["reference"])
                case "tags", "GET":
                    return web.json_response(
                        {"name": args["name"], "tags": self.tags(args["name"])}, headers=API_HEADERS
                    )
            raise RegistryError(405, "UNSUPPORTED", f"{method} on {kind}")
        raise RegistryError(404, "NAME_UNKNOWN", f"no route for /v2/{tail}")

    def _upload_headers(self, name: str, upload_id: str, size: int) -> dict[str, str]:
        return {
            **API_HEADERS,
            "Location": f"/v2/{name}/blobs/uploads/{upload_id}",
            "Docker-Upload-UUID": upload_id,
            "Range": f"0-{max(size - 1, 0)}",
            "Content-Length": "0",
        }

    def _upload(self, name: str, upload_id: str) -> _Upload:
        with self._lock:
            upload = self._uploads.get(upload_id)
        if upload is None or upload.name != name:
            raise RegistryError(404, "BLOB_UPLOAD_UNKNOWN", f"no upload {upload_id} in {name}")
        return upload

    def _start_upload(self, request: web.Request, name: str) -> web.Response:
        if "mount" in request.query:
            with self._lock:
                self.mount_requests += 1
        upload_id = str(uuid.uuid4())
        with self._lock:
            self._uploads[upload_id] = _Upload(name)
        return web.Response(status=202, headers=self._upload_headers(name, upload_id, 0))

    def _upload_status(self, name: str, upload_id: str) -> web.Response:
        upload = self._upload(name, upload_id)
        return web.Response(status=204, headers=self._upload_headers(name, upload_id, len(upload.data)))

    async def _read_into(self, request: web.Request, upload: _Upload) -> None:
        content_range = request.headers.get("Content-Range")
        if content_range:
            start = int(content_range.split("-", 1)[0])
            if start != len(upload.data):
                raise RegistryError(416, "BLOB_UPLOAD_INVALID", f"range starts at {start}")
        async for chunk in request.content.iter_chunked(CHUNK):
            upload.data.extend(chunk)

    async def _patch_upload(self, request: web.Request, name: str, upload_id: str) -> web.Response:
        upload = self._upload(name, upload_id)
        await self._read_into(request, upload)
        return web.Response(status=202, headers=self._upload_headers(name, upload_id, len(upload.data)))

    async def _finish_upload(self, request: web.Request, name: str, upload_id: str) -> web.Response:
        upload = self._upload(name, upload_id)
        expected = request.query.get("digest", "")
        if not re.fullmatch(DIGEST, expected):
            raise RegistryError(400, "DIGEST_INVALID", f"not a sha256 digest: {expected!r}")
        await self._read_into(request, upload)
        data = bytes(upload.data)
        actual = digest_of(data)
        with self._lock:
            self._uploads.pop(upload_id, None)
        if actual != expected:
            raise RegistryError(400, "DIGEST_INVALID", f"the upload is {actual}, not {expected}")
        with self._lock:
            self._blobs[actual] = data
            self._links.setdefault(name, set()).add(actual)
            self.blob_uploads += 1
        headers = {
            **API_HEADERS,
            "Location": f"/v2/{name}/blobs/{actual}",
            "Docker-Content-Digest": actual,
            "Content-Length": "0",
        }
        return web.Response(status=201, headers=headers)

    def _get_blob(self, method: str, name: str, digest: str) -> web.Response:
        with self._lock:
            data = self._blobs.get(digest) if digest in self._links.get(name, set()) else None
        if data is None:
            raise RegistryError(404, "BLOB_UNKNOWN", f"no blob {digest} in {name}")
        headers = {**API_HEADERS, "Docker-Content-Digest": digest, "Content-Type": "application/octet-stream"}
        if method == "HEAD":
            return web.Response(status=200, headers={**headers, "Content-Length": str(len(data))})
        return web.Response(status=200, body=data, headers=headers)

    def _get_manifest(self, method: str, name: str, reference: str) -> web.Response:
        manifest = self.manifest(name, reference)
        if manifest is None:
            raise RegistryError(404, "MANIFEST_UNKNOWN", f"no manifest {reference} in {name}")
        headers = {**API_HEADERS, "Docker-Content-Digest": manifest.digest}
        if method == "HEAD":
            headers |= {"Content-Type": manifest.media_type, "Content-Length": str(len(manifest.body))}
            return web.Response(status=200, headers=headers)
        # Given as a header, not content_type=: aiohttp would add "; charset=" to a text-like type.
        return web.Response(
            status=200, body=manifest.body, headers=headers | {"Content-Type": manifest.media_type}
        )

    async def _put_manifest(self, request: web.Request, name: str, reference: str) -> web.Response:
        body = await request.read()
        try:
            parsed = json.loads(body)
        except ValueError as exc:
            raise RegistryError(400, "MANIFEST_INVALID", f"not JSON: {exc}") from exc
        if not isinstance(parsed, dict):
            raise RegistryError(400, "MANIFEST_INVALID", "not a JSON object")
        media_type = request.headers.get("Content-Type") or parsed.get("mediaType") or ""
        if not media_type:
            raise RegistryError(400, "MANIFEST_INVALID", "no media type")
        manifest = Manifest(media_type.split(";")[0].strip(), body)
        if reference.startswith("sha256:") and reference != manifest.digest:
            raise RegistryError(400, "DIGEST_INVALID", f"the manifest is {manifest.digest}, not {reference}")
        blobs = [parsed.get("config") or {}, *(parsed.get("layers") or [])]
        wanted_blobs = [str(b.get("digest")) for b in blobs if isinstance(b, dict) and b]
        wanted_manifests = [
            str(m.get("digest")) for m in parsed.get("manifests") or [] if isinstance(m, dict)
        ]
        with self._lock:
            linked = self._links.get(name, set())
            held = self._manifests.get(name, {})
            missing = [d for d in wanted_blobs if d not in linked] + [
                d for d in wanted_manifests if d not in held
            ]
            if missing:
                raise RegistryError(400, "MANIFEST_BLOB_UNKNOWN", f"not in {name}: {', '.join(missing)}")
            refs = self._manifests.setdefault(name, {})
            refs[reference] = manifest
            refs[manifest.digest] = manifest
            self.manifest_puts += 1
        headers = {
            **API_HEADERS,
            "Location": f"/v2/{name}/manifests/{manifest.digest}",
            "Docker-Content-Digest": manifest.digest,
            "Content-Length": "0",
        }
        return web.Response(status=201, headers=headers)
