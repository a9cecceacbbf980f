"""Calling an upstream over HTTP with retries, and sticky routing of rollouts to replicas.

aiohttp rather than httpx here: on the proxy's hot path httpx's connection pool costs more per call than
the whole rest of the proxy (see docs/benchmarks.md). The first attempt runs bare; only a retryable
failure (429, 5xx, timeout, connection error) enters tenacity's backoff loop, with jitter and
Retry-After honoured. The last failure becomes an UpstreamError.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import re
import threading
from typing import Any

import aiohttp
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter

from proxy.errors import ContextOverflow, EngineConfigError, UpstreamError

RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
LARGE_BODY_BYTES = 1024 * 1024
"""Request bodies over this go to the upstream as a stream of pieces (aiohttp warns of one large write)."""
_BACKOFF = wait_exponential_jitter(multiplier=0.2, max=5.0)
_OVERFLOW = re.compile(
    r"context[ _]length|maximum context|context window|prompt is too long|too many tokens", re.I
)


class _Retryable(Exception):
    def __init__(self, message: str, status: int, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def _retry_after(headers: Any) -> float | None:
    try:
        return float(headers.get("retry-after", ""))
    except (TypeError, ValueError):
        return None


def _wait(state: Any) -> float:
    exc = state.outcome.exception() if state.outcome else None
    return max(_BACKOFF(state), getattr(exc, "retry_after", None) or 0.0)


class UpstreamClient:
    """POSTs JSON to one of several replicas of an upstream; a rollout sticks to its replica."""

    def __init__(
        self,
        base_urls: str | list[str],
        headers: dict[str, str] | None = None,
        timeout: float = 600.0,
        max_attempts: int = 4,
    ) -> None:
        urls = [base_urls] if isinstance(base_urls, str) else list(base_urls)
        if not urls:
            raise EngineConfigError("give at least one upstream URL")
        self.base_urls = [u.rstrip("/") for u in urls]
        self.headers = dict(headers or {})
        self.timeout = timeout
        self.max_attempts = max_attempts
        self._sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession] = {}
        self._sticky: dict[str, str] = {}
        self._next = itertools.cycle(self.base_urls)
        self._lock = threading.Lock()

    def replica(self, rollout_id: str | None) -> str:
        """The replica for a rollout: chosen round-robin on its first call, the same ever after."""
        with self._lock:
            if rollout_id is None:
                return next(self._next)
            if rollout_id not in self._sticky:
                self._sticky[rollout_id] = next(self._next)
            return self._sticky[rollout_id]

    def _session(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        session = self._sessions.get(loop)
        if session is None or session.closed:
            session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=1024, limit_per_host=0, keepalive_timeout=30),
                headers=self.headers,
                timeout=aiohttp.ClientTimeout(total=self.timeout, connect=10.0),
                json_serialize=json.dumps,
            )
            self._sessions[loop] = session
        return session

    async def _attempt(self, url: str, body: dict[str, Any], headers: dict[str, str] | None) -> Any:
        payload = json.dumps(body).encode()
        # a body of screenshots is megabytes: aiohttp sends a file-like one in pieces, not in one write
        data: bytes | io.BytesIO = io.BytesIO(payload) if len(payload) > LARGE_BODY_BYTES else payload
        headers = {**(headers or {}), "content-type": "application/json"}
        try:
            async with self._session().post(url, data=data, headers=headers) as response:
                if response.status in RETRY_STATUSES:
                    raise _Retryable(
                        f"{response.status}: {(await response.text())[:500]}",
                        502,
                        _retry_after(response.headers),
                    )
                if response.status >= 400:
                    text = await response.text()
                    if response.status in (400, 413) and _OVERFLOW.search(text):
                        raise ContextOverflow(f"upstream {url}: {text[:500]}", status=400)
                    raise UpstreamError(
                        f"upstream {url} answered {response.status}: {text[:1000]}", status=502
                    )
                return await response.json(content_type=None)
        except TimeoutError as exc:
            raise _Retryable(f"timed out after {self.timeout:.0f}s", 504) from exc
        except aiohttp.ClientError as exc:
            raise _Retryable(f"cannot reach {url}: {exc}", 502) from exc

    async def post(
        self,
        path: str,
        body: dict[str, Any],
        rollout_id: str | None = None,
        headers: dict[str, str] | None = None,
        from_root: bool = False,
    ) -> tuple[Any, str]:
        """POST and return (JSON body, replica URL). `from_root`: `path` is below the server's root, not
        below its OpenAI base (the replica's URL less a trailing `/v1`)."""
        base = self.replica(rollout_id)
        url = f"{base.removesuffix('/v1') if from_root else base}{path}"
        try:
            try:
                return await self._attempt(url, body, headers), base
            except _Retryable:
                if self.max_attempts <= 1:
                    raise
            async for attempt in AsyncRetrying(
                retry=retry_if_exception_type(_Retryable),
                wait=_wait,
                stop=stop_after_attempt(self.max_attempts - 1),
                reraise=True,
            ):
                with attempt:
                    return await self._attempt(url, body, headers), base
        except _Retryable as exc:
            raise UpstreamError(
                f"upstream {url} failed after {self.max_attempts} attempts: {exc}", status=exc.status
            ) from exc
        raise UpstreamError(f"upstream {url} gave no answer")  # pragma: no cover - reraise=True

    async def get(self, path: str) -> Any:
        """GET from the first replica (model info and the like); None when it fails."""
        try:
            async with self._session().get(f"{self.base_urls[0]}{path}") as response:
                return await response.json(content_type=None) if response.status < 400 else None
        except (aiohttp.ClientError, TimeoutError, ValueError):
            return None

    async def aclose(self) -> None:
        for session in list(self._sessions.values()):
            await session.close()
        self._sessions.clear()
