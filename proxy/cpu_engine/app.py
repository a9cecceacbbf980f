"""HTTP front of the local engine: SGLang-shaped `/generate`, plus reload, health, model info and metrics.

Errors use SGLang's shape, `{"error": {"message": ...}}`, with status 400 for anything the client got wrong
(invalid JSON or fields, ids outside the vocabulary, a prompt longer than the context).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from proxy.cpu_engine.engine import CpuEngine, EngineClosed, EngineError
from proxy.cpu_engine.schema import (
    GenerateRequest,
    GenerateResponse,
    Metrics,
    ModelInfo,
    ReloadRequest,
    ReloadResponse,
)
from proxy.cpu_engine.weights import WeightsError


def create_app(engine: CpuEngine) -> FastAPI:
    """The ASGI app; it starts the engine's worker on startup and stops it on shutdown."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        engine.start()
        try:
            yield
        finally:
            await asyncio.to_thread(engine.close)

    app = FastAPI(title="OpenForge local CPU engine", lifespan=lifespan)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(400, "; ".join(_describe(e) for e in exc.errors()))

    @app.exception_handler(EngineError)
    @app.exception_handler(WeightsError)
    async def refused(_: Request, exc: Exception) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(EngineClosed)
    async def closed(_: Request, exc: Exception) -> JSONResponse:
        return _error(503, str(exc))

    @app.post("/generate")
    async def generate(request: GenerateRequest) -> GenerateResponse:
        return await asyncio.wrap_future(engine.submit(request))

    @app.post("/reload")
    async def reload(request: ReloadRequest | None = None) -> ReloadResponse:
        request = request or ReloadRequest()
        path = Path(request.path) if request.path else None
        return await asyncio.wrap_future(engine.reload(path, request.weight_version))

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/model_info")
    async def model_info() -> ModelInfo:
        return engine.info()

    @app.get("/metrics")
    async def metrics() -> Metrics:
        return engine.metrics()

    return app


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "code": status}}, status_code=status)


def _describe(error: object) -> str:
    """`input_ids: Field required` from one of pydantic's error dicts."""
    if not isinstance(error, dict):
        return str(error)
    where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
    return f"{where or 'body'}: {error.get('msg', 'invalid')}"
