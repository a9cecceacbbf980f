"""The proxy's HTTP app: every model call a harness makes is served, and recorded, here.

Routes (each also under `/rollouts/{rollout_id}`, which is how a rollout is named without any client
change; an API key `forge-<rollout_id>` names it too):

    POST /v1/chat/completions      OpenAI Chat Completions
    POST /v1/responses             OpenAI Responses
    POST /v1/messages              Anthropic Messages   (+ /v1/messages/count_tokens)
    GET  /v1/models

    POST /rollouts/{id}/reward     attach rewards        GET /rollouts/{id}   the rollout and its calls
    PUT  /rollouts/{id}/config     per-rollout sampling overrides
    POST /admin/pause | /admin/drain | /admin/resume     weight updates;   GET /admin/status, /health
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from starlette.routing import Route

from proxy.config import ProxyConfig, SamplingOverrides
from proxy.control import Control
from proxy.engines.base import Engine
from proxy.errors import BadRequest, BodyTooLarge, Paused, ProxyError, UnknownModel
from proxy.record_writer import RecordWriter
from proxy.records import UNTAGGED, CallRecord, CallStatus, WireApi
from proxy.store import CallStore
from proxy.wire import WIRE_ADAPTERS, messages

log = logging.getLogger("forge.proxy")
KEY_PREFIX = "forge-"
_REJECTED = (BadRequest, UnknownModel, Paused)


class RewardIn(BaseModel):
    reward: float | None = None
    rewards: dict[str, float] | None = None
    metadata: dict[str, Any] | None = None


class ResumeIn(BaseModel):
    policy_version: int | None = None


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
        self.writer = RecordWriter(store)
        self.config = config or ProxyConfig()
        self.control = Control(self.config.retry_after_sec)

    def check_model(self, model: str) -> None:
        if not self.config.accept_any_model and model not in self.config.models:
            raise UnknownModel(f"model {model!r} is not served here; served: {', '.join(self.config.models)}")

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
            if len(raw) > self.config.max_body_bytes:
                record.request = f"<{len(raw)} bytes, not kept>"
                raise BodyTooLarge(
                    f"the request body is {len(raw)} bytes; the limit is {self.config.max_body_bytes}"
                )
            try:
                body = json.loads(raw)
            except ValueError as exc:
                record.request = raw.decode("utf-8", errors="replace")[:100_000]
                raise BadRequest(f"the request body is not valid JSON: {exc}") from None
            record.request = body
            if isinstance(body, dict):
                record.stream = bool(body.get("stream"))
                record.model = body.get("model") if isinstance(body.get("model"), str) else None
            generation_request, parsed = wire.parse(body)
            self.check_model(generation_request.model)
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
            await self._record(record, clock)
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
        await self._record(record, clock)
        headers = {"retry-after": str(math.ceil(exc.retry_after))} if isinstance(exc, Paused) else None
        return JSONResponse(record.response, status_code=exc.status, headers=headers)


def create_app(engine: Engine, store: CallStore, config: ProxyConfig | None = None) -> FastAPI:
    server = ProxyServer(engine, store, config)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await engine.aclose()
        server.writer.close()

    app = FastAPI(title="OpenForge proxy", docs_url=None, redoc_url=None, lifespan=lifespan)
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

    @app.post("/rollouts/{rollout_id}/reward")
    async def reward(rollout_id: str, body: RewardIn) -> JSONResponse:
        values: dict[str, float] = dict(body.rewards or {})
        if body.reward is not None:
            values["reward"] = body.reward
        if not values:
            return JSONResponse({"error": {"message": "give reward or rewards"}}, status_code=400)
        try:
            rollout = await asyncio.to_thread(server.store.attach_reward, rollout_id, values, body.metadata)
        except ValueError as exc:
            return JSONResponse({"error": {"message": str(exc)}}, status_code=400)
        return JSONResponse(rollout.model_dump(mode="json", exclude={"calls"}))

    @app.get("/rollouts/{rollout_id}")
    async def rollout(rollout_id: str) -> JSONResponse:
        found = await asyncio.to_thread(server.store.rollout, rollout_id)
        if found is None:
            return JSONResponse({"error": {"message": f"no rollout {rollout_id!r}"}}, status_code=404)
        return JSONResponse(found.model_dump(mode="json"))

    @app.put("/rollouts/{rollout_id}/config")
    async def rollout_config(rollout_id: str, body: SamplingOverrides) -> dict[str, Any]:
        server.control.rollout_overrides[rollout_id] = body
        return body.model_dump(exclude_none=True)

    @app.post("/admin/pause")
    async def pause() -> dict[str, Any]:
        server.control.pause()
        return _status(server)

    @app.post("/admin/drain")
    async def drain(timeout: float | None = None) -> dict[str, Any]:
        await server.control.drain(timeout)
        return _status(server)

    @app.post("/admin/resume")
    async def resume(body: ResumeIn | None = None) -> dict[str, Any]:
        server.control.resume(body.policy_version if body else None)
        return _status(server)

    @app.get("/admin/status")
    async def status() -> dict[str, Any]:
        return _status(server)

    return app


def _status(server: ProxyServer) -> dict[str, Any]:
    c = server.control
    return {"paused": c.paused, "in_flight": c.in_flight, "policy_version": c.policy_version}


def _endpoint(server: ProxyServer, api: WireApi) -> Any:
    async def endpoint(request: Request) -> Response:
        return await server.serve(api, request, request.path_params.get("rollout_id"))

    return endpoint


def _count_tokens(server: ProxyServer) -> Any:
    async def endpoint(request: Request, rollout_id: str | None = None) -> Response:
        try:
            try:
                body = json.loads(await request.body())
            except ValueError as exc:
                raise BadRequest(f"the request body is not valid JSON: {exc}") from None
            generation_request = messages.parse_count_tokens(body)
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
