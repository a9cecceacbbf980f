"""The proxy's model app: every model call a harness makes is served, and recorded, here.

Routes (each also under `/rollouts/{rollout_id}`, which is how a rollout is named without any client
change; an API key `forge-<rollout_id>` names it too):

    POST /v1/chat/completions      OpenAI Chat Completions
    POST /v1/responses             OpenAI Responses
    POST /v1/messages              Anthropic Messages   (+ /v1/messages/count_tokens)
    GET  /v1/models                GET /health

This is the app sandboxes reach, so it has nothing else: rewards, rollout records, per-rollout settings
and pause / drain / resume are on the control app (proxy/control_app.py, `create_control_app(server)`
on the same `ProxyServer`, or both at once with `create_apps`), served on a socket sandboxes never see;
here every such path is a 404. Bodies are bounded (size, and 128 levels of JSON nesting: proxy/bodies.py)
and a call whose record cannot be committed is answered with an error, never as a success.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import math
import re
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.routing import Route

from proxy.blob_store import BlobStore
from proxy.bodies import load_json
from proxy.config import ProxyConfig
from proxy.control import Control
from proxy.control_app import create_control_app
from proxy.engines.base import Engine
from proxy.errors import BadRequest, BodyTooLarge, NotRecorded, Paused, ProxyError, UnknownModel
from proxy.image_fetch import inline_image_urls
from proxy.images import ImageBudget, ImagePart, redact_images
from proxy.record_writer import RecordWriter
from proxy.records import UNTAGGED, CallRecord, CallStatus, WireApi
from proxy.store import CallStore
from proxy.wire import WIRE_ADAPTERS, messages

log = logging.getLogger("forge.proxy")
KEY_PREFIX = "forge-"
_REJECTED = (BadRequest, UnknownModel, Paused)


def rollout_from_headers(request: Request) -> str | None:
    """`Authorization: Bearer forge-<id>` or `x-api-key: forge-<id>` -> id."""
    keys = [request.headers.get("x-api-key", "")]
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        keys.append(auth[7:].strip())
    for key in keys:
        if key.startswith(KEY_PREFIX) and len(key) > len(KEY_PREFIX):
            return key[len(KEY_PREFIX) :]
    return None


class ProxyServer:
    """Serves calls through one engine and records each in the store."""

    def __init__(self, engine: Engine, store: CallStore, config: ProxyConfig | None = None) -> None:
        self.engine = engine
        self.store = store
        self.blobs = BlobStore.beside(store.path)
        self.writer = RecordWriter(store)
        self.config = config or ProxyConfig()
        self.control = Control(self.config.retry_after_sec)

    def check_model(self, model: str) -> None:
        if not self.config.accept_any_model and model not in self.config.models:
            raise UnknownModel(f"model {model!r} is not served here; served: {', '.join(self.config.models)}")

    async def keep_images(self, record: CallRecord, body: Any, parts: list[ImagePart]) -> None:
        """Refuse the images if the engine takes text only (keeping none of them: a sandbox must not fill
        the disk with images no one can use); else put them in the blob store, before the record naming
        them is committed, and record them by hash."""
        if not self.engine.accepts_images:
            raise BadRequest(
                f"model {record.model!r} takes text only (engine {self.engine.name}); the request has "
                f"{len(parts)} image(s), the first at {parts[0].where}",
                param=parts[0].where,
            )
        await asyncio.to_thread(lambda: [self.blobs.put(p.data) for p in parts])
        record.images = [p.ref for p in parts]
        record.request = redact_images(body, parts)

    async def serve(self, api: WireApi, request: Request, rollout_id: str | None) -> Response:
        wire = WIRE_ADAPTERS[api]
        started, clock = time.time(), time.perf_counter()
        call_id = f"{wire.id_prefix}{uuid.uuid4().hex[:24]}"
        rollout = rollout_id or rollout_from_headers(request) or UNTAGGED
        record = CallRecord(
            rollout_id=rollout,
            call_id=call_id,
            wire_api=api,
            started_at=started,
            policy_version=self.control.policy_version,
        )
        try:
            raw = await request.body()
            try:
                body = load_json(raw, self.config.max_body_bytes)
            except BodyTooLarge:
                record.request = f"<{len(raw)} bytes, not kept>"
                raise
            except BadRequest:
                record.request = raw.decode("utf-8", errors="replace")[:100_000]
                raise
            # image bytes never go into a row: every data URI / base64 payload is replaced (by its blob's
            # name once the image is kept, else by a note)
            may_hold_images = _may_hold_images(raw)
            record.request = redact_images(body, []) if may_hold_images else body
            if isinstance(body, dict):
                record.stream = bool(body.get("stream"))
                record.model = body.get("model") if isinstance(body.get("model"), str) else None
            budget = ImageBudget(self.config.images)
            if self.config.images.fetch_urls and b"http" in raw:  # only when configured: see image_fetch
                body = await inline_image_urls(copy.deepcopy(body), self.config.images)
            if may_hold_images or self.config.images.fetch_urls:
                # decoding megabytes of images must not stall the other calls
                generation_request, parsed = await asyncio.to_thread(wire.parse, body, budget)
            else:
                generation_request, parsed = wire.parse(body, budget)
            self.check_model(generation_request.model)
            if generation_request.images:
                await self.keep_images(record, body, generation_request.images)
            overrides = self.config.overrides.merged(self.control.rollout_overrides.get(rollout))
            generation_request = overrides.apply(generation_request)
            generation_request.rollout_id = rollout
            async with self.control.admit() as version:
                record.policy_version = version
                generation = await self.engine.generate(generation_request)
            record.response = wire.render(generation, parsed, call_id)
            record.prompt_ids = generation.prompt_ids
            record.completion_ids = generation.completion_ids
            record.logprobs = generation.logprobs
            record.finish_reason = generation.finish_reason
            record.upstream = generation.upstream
            try:
                await self._record(record, clock)
            except Exception as exc:
                log.exception("call %s was served but could not be recorded", call_id)
                reason = f"the call was served but could not be recorded: {type(exc).__name__}: {exc}"
                return await self._error(record, wire.error, NotRecorded(reason), clock)
            if record.stream:
                # the whole generation is known: the events go out in one body, parsed incrementally as ever
                events = "".join(wire.stream(generation, parsed, call_id))
                return Response(events, media_type="text/event-stream", headers={"cache-control": "no-cache"})
            return JSONResponse(record.response)
        except ProxyError as exc:
            return await self._error(record, wire.error, exc, clock)
        except Exception as exc:
            log.exception("call %s failed", call_id)
            return await self._error(record, wire.error, ProxyError(f"internal error: {exc}"), clock)

    async def _record(self, record: CallRecord, clock: float) -> None:
        record.latency_ms = (time.perf_counter() - clock) * 1000
        await self.writer.write(record)

    async def _error(self, record: CallRecord, render: Any, exc: ProxyError, clock: float) -> Response:
        record.status = CallStatus.REJECTED if isinstance(exc, _REJECTED) else CallStatus.FAILED
        record.http_status = exc.status
        record.error = exc.message
        record.response = render(exc)
        try:
            await self._record(record, clock)
        except Exception:  # the client still gets its answer
            log.exception("call %s: its error could not be recorded either", record.call_id)
        headers = {"retry-after": str(math.ceil(exc.retry_after))} if isinstance(exc, Paused) else None
        return JSONResponse(record.response, status_code=exc.status, headers=headers)


_IMAGE_HINT = re.compile(rb"(?i)base64|\\u")


def _may_hold_images(raw: bytes) -> bool:
    """Whether a body may carry image data (a data URI or a base64 source, in any case, or spelled with
    JSON escapes): most calls skip the walk."""
    return _IMAGE_HINT.search(raw) is not None


def create_app(engine: Engine, store: CallStore, config: ProxyConfig | None = None) -> FastAPI:
    """The model app (what sandboxes reach); its `ProxyServer` is `app.state.server`, for
    `create_control_app`."""
    return _model_app(ProxyServer(engine, store, config))


@dataclass(frozen=True)
class ProxyApps:
    """One proxy's two apps: `model` for harnesses (sandboxes), `control` for the trainer only."""

    server: ProxyServer
    model: FastAPI
    control: FastAPI


def create_apps(engine: Engine, store: CallStore, config: ProxyConfig | None = None) -> ProxyApps:
    """The model app and the control app of one `ProxyServer`. The model app's lifespan closes the
    engine and the record writer; serve both for as long as either is needed."""
    model = create_app(engine, store, config)
    server: ProxyServer = model.state.server
    return ProxyApps(server=server, model=model, control=create_control_app(server))


def _model_app(server: ProxyServer) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await server.engine.aclose()
        server.writer.close()

    app = FastAPI(title="OpenForge proxy", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.server = server

    for prefix in ("", "/rollouts/{rollout_id}"):
        for path, api in (
            ("/v1/chat/completions", WireApi.CHAT),
            ("/v1/responses", WireApi.RESPONSES),
            ("/v1/messages", WireApi.MESSAGES),
        ):
            # plain Starlette routes: the hot path skips FastAPI's dependency machinery
            app.router.routes.append(Route(prefix + path, _endpoint(server, api), methods=["POST"]))
        app.add_api_route(prefix + "/v1/messages/count_tokens", _count_tokens(server), methods=["POST"])
        app.add_api_route(prefix + "/v1/models", _models(server), methods=["GET"])

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "engine": server.engine.name}

    return app


def _endpoint(server: ProxyServer, api: WireApi) -> Any:
    async def endpoint(request: Request) -> Response:
        return await server.serve(api, request, request.path_params.get("rollout_id"))

    return endpoint


def _count_tokens(server: ProxyServer) -> Any:
    async def endpoint(request: Request, rollout_id: str | None = None) -> Response:
        try:
            raw = await request.body()
            body = load_json(raw, server.config.max_body_bytes)
            budget = ImageBudget(server.config.images)
            if _may_hold_images(raw):
                generation_request = await asyncio.to_thread(messages.parse_count_tokens, body, budget)
            else:
                generation_request = messages.parse_count_tokens(body, budget)
            server.check_model(generation_request.model)
            return JSONResponse(messages.render_count(await server.engine.count_tokens(generation_request)))
        except ProxyError as exc:
            return JSONResponse(messages.render_error(exc), status_code=exc.status)

    return endpoint


def _models(server: ProxyServer) -> Any:
    async def endpoint(request: Request, rollout_id: str | None = None) -> JSONResponse:
        names = server.config.models
        if "anthropic-version" in request.headers:
            data = [
                {"type": "model", "id": n, "display_name": n, "created_at": "2026-01-01T00:00:00Z"}
                for n in names
            ]
            return JSONResponse(
                {
                    "data": data,
                    "has_more": False,
                    "first_id": names[0] if names else None,
                    "last_id": names[-1] if names else None,
                }
            )
        return JSONResponse(
            {
                "object": "list",
                "data": [{"id": n, "object": "model", "created": 0, "owned_by": "openforge"} for n in names],
            }
        )

    return endpoint
