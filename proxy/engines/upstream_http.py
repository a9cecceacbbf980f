"""Calling an upstream over HTTP with retries, and sticky routing of rollouts to replicas.

Retries: 429, 5xx, timeouts and connection errors are retried with exponential backoff and jitter
(honouring Retry-After); anything else fails at once. The last failure becomes an UpstreamError.
"""

from __future__ import annotations

import itertools
import re
import threading
from typing import Any

import httpx
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from proxy.errors import ContextOverflow, UpstreamError

RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
_BACKOFF = wait_exponential_jitter(multiplier=0.2, max=5.0)
_OVERFLOW = re.compile(
    r"context[ _]length|maximum context|context window|prompt is too long|too many tokens", re.I
)


class _Retryable(Exception):
    def __init__(self, message: str, status: int, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return float(response.headers.get("retry-after", ""))
    except ValueError:
        return None


class UpstreamClient:
    """POSTs JSON to one of several replicas of an upstream; a rollout sticks to its replica."""

    def __init__(
        self,
        base_urls: list[str],
        headers: dict[str, str] | None = None,
        timeout: float = 600.0,
        max_attempts: int = 4,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if not base_urls:
            raise ValueError("give at least one upstream URL")
        self.base_urls = [u.rstrip("/") for u in base_urls]
        self.max_attempts = max_attempts
        self._client = httpx.AsyncClient(
            headers=headers,
            timeout=httpx.Timeout(timeout, connect=10.0),
            limits=httpx.Limits(max_connections=1024, max_keepalive_connections=256),
            transport=transport,
        )
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

    async def post(
        self,
        path: str,
        body: dict[str, Any],
        rollout_id: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[dict[str, Any], str]:
        """POST and return (JSON body, replica URL)."""
        base = self.replica(rollout_id)
        url = f"{base}{path}"

        def retryable(exc: BaseException) -> bool:
            return isinstance(exc, _Retryable)

        def wait(state: Any) -> float:
            exc = state.outcome.exception() if state.outcome else None
            hinted = getattr(exc, "retry_after", None)
            backoff = _BACKOFF(state)
            return max(backoff, hinted or 0.0)

        try:
            async for attempt in AsyncRetrying(
                retry=retry_if_exception(retryable),
                wait=wait,
                stop=stop_after_attempt(self.max_attempts),
                reraise=True,
            ):
                with attempt:
                    try:
                        response = await self._client.post(url, json=body, headers=headers)
                    except httpx.TimeoutException as exc:
                        raise _Retryable(f"timed out: {exc}", 504) from exc
                    except httpx.TransportError as exc:
                        raise _Retryable(f"cannot reach {base}: {exc}", 502) from exc
                    if response.status_code in RETRY_STATUSES:
                        raise _Retryable(
                            f"{response.status_code}: {response.text[:500]}", 502, _retry_after(response)
                        )
                    if response.status_code in (400, 413) and _OVERFLOW.search(response.text):
                        raise ContextOverflow(f"upstream {url}: {response.text[:500]}", status=400)
                    if response.is_error:
                        raise UpstreamError(
                            f"upstream {url} answered {response.status_code}: {response.text[:1000]}",
                            status=502,
                        )
                    return response.json(), base
        except _Retryable as exc:
            raise UpstreamError(
                f"upstream {url} failed after {self.max_attempts} attempts: {exc}", status=exc.status
            ) from exc
        raise UpstreamError(f"upstream {url} gave no answer")  # pragma: no cover - reraise=True

    async def aclose(self) -> None:
        await self._client.aclose()
