"""The proxy's control app: rewards, rollout records, per-rollout settings, pause / drain / resume.

It is served apart from the model app (`forge-proxy serve` puts it on `<run_dir>/control.sock`, mode
0600; `ProxySession.control_socket` in-process), because the model app is what sandboxes reach: an agent
must not be able to post its own reward, pause the shared proxy, relabel the policy version or lift its
own sampling limits.

    POST /rollouts/{id}/reward     {"reward": x} and/or {"rewards": {...}}, "metadata": {...}; merged
    GET  /rollouts/{id}            the rollout, its rewards and every call
    PUT  /rollouts/{id}/config     per-rollout settings: sampling, and the rollout's task (409 where the
                                   proxy forces another)
    POST /admin/pause | /admin/drain?timeout=S | /admin/resume {"policy_version": N}
    GET  /admin/status

Every input is bounded: policy_version 0..2**53, drain timeout finite and at most 3600 s (default 600),
rewards and sampling settings finite, bodies at most 1 MiB and 128 levels deep. Errors are
`{"error": {"message": ...}}` with 400 (unreadable body), 409 (forced setting) or 422 (a field out of
bounds, named in the message).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from proxy.bodies import load_json
from proxy.config import ForcedSetting, SamplingOverrides
from proxy.control import DEFAULT_DRAIN_TIMEOUT_SEC, MAX_DRAIN_TIMEOUT_SEC, MAX_POLICY_VERSION
from proxy.errors import BadRequest

if TYPE_CHECKING:
    from proxy.app import ProxyServer

CONTROL_MAX_BODY_BYTES = 1024 * 1024


class RewardIn(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    reward: float | None = None
    rewards: dict[str, float] | None = None
    metadata: dict[str, Any] | None = None


class ResumeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    policy_version: StrictInt | None = Field(default=None, ge=0, le=MAX_POLICY_VERSION)


class DrainIn(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    timeout: float = Field(default=DEFAULT_DRAIN_TIMEOUT_SEC, ge=0, le=MAX_DRAIN_TIMEOUT_SEC)


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"message": message}}, status_code=status)


def _invalid(exc: ValidationError) -> JSONResponse:
    """422 naming each offending field."""
    problems = [f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in exc.errors()]
    return _error("; ".join(problems), 422)


async def _body(request: Request) -> Any:
    """The JSON body ({} when empty), bounded in size and depth; BadRequest otherwise."""
    raw = await request.body()
    return {} if not raw.strip() else load_json(raw, CONTROL_MAX_BODY_BYTES)


def create_control_app(server: ProxyServer) -> FastAPI:
    """The control routes of `server` (the model app's `ProxyServer`); never serve this to sandboxes."""
    app = FastAPI(title="OpenForge proxy control", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.server = server
    control, store = server.control, server.store

    @app.exception_handler(BadRequest)
    async def bad_request(request: Request, exc: BadRequest) -> JSONResponse:
        return _error(exc.message, exc.status)

    @app.exception_handler(ValidationError)
    async def invalid(request: Request, exc: ValidationError) -> JSONResponse:
        return _invalid(exc)

    @app.post("/rollouts/{rollout_id}/reward")
    async def reward(rollout_id: str, request: Request) -> JSONResponse:
        body = RewardIn.model_validate(await _body(request))
        values: dict[str, float] = dict(body.rewards or {})
        if body.reward is not None:
            values["reward"] = body.reward
        if not values:
            return _error("give reward or rewards", 400)
        try:
            rollout = await asyncio.to_thread(store.attach_reward, rollout_id, values, body.metadata)
        except ValueError as exc:
            return _error(str(exc), 400)
        return JSONResponse(rollout.model_dump(mode="json", exclude={"calls"}))

    @app.get("/rollouts/{rollout_id}")
    async def rollout(rollout_id: str) -> JSONResponse:
        found = await asyncio.to_thread(store.rollout, rollout_id)
        if found is None:
            return _error(f"no rollout {rollout_id!r}", 404)
        return JSONResponse(found.model_dump(mode="json"))

    @app.put("/rollouts/{rollout_id}/config")
    async def rollout_config(rollout_id: str, request: Request) -> JSONResponse:
        body = SamplingOverrides.model_validate(await _body(request))
        try:
            server.config.overrides.merged(body)
        except ForcedSetting as exc:
            return _error(str(exc), 409)
        control.rollout_overrides[rollout_id] = body
        return JSONResponse(body.model_dump(exclude_none=True))

    @app.post("/admin/pause")
    async def pause() -> dict[str, Any]:
        control.pause()
        return status_of(server)

    @app.post("/admin/drain")
    async def drain(request: Request) -> JSONResponse:
        body = DrainIn.model_validate(dict(request.query_params))
        await control.drain(body.timeout)
        return JSONResponse(status_of(server))

    @app.post("/admin/resume")
    async def resume(request: Request) -> JSONResponse:
        body = ResumeIn.model_validate(await _body(request))
        control.resume(body.policy_version)
        return JSONResponse(status_of(server))

    @app.get("/admin/status")
    async def status() -> dict[str, Any]:
        return status_of(server)

    return app


def status_of(server: ProxyServer) -> dict[str, Any]:
    c = server.control
    return {"paused": c.paused, "in_flight": c.in_flight, "policy_version": c.policy_version}
