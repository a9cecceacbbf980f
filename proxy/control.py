"""Pause / drain / resume for weight updates, the policy version, and per-rollout settings.

Training pauses the proxy (new calls get 429 + Retry-After), drains it (waits until no call is in
flight), swaps the engine's weights, then resumes with a new policy version; every call records the
version that served it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from proxy.config import SamplingOverrides
from proxy.errors import Paused


class Control:
    def __init__(self, retry_after_sec: float = 2.0) -> None:
        self.paused = False
        self.policy_version = 0
        self.in_flight = 0
        self.retry_after_sec = retry_after_sec
        self.rollout_overrides: dict[str, SamplingOverrides] = {}
        self._idle = asyncio.Event()
        self._idle.set()

    @asynccontextmanager
    async def admit(self) -> AsyncIterator[int]:
        """Admit one call (or raise Paused); yields the policy version serving it."""
        if self.paused:
            raise Paused("the proxy is paused for a weight update; retry shortly", self.retry_after_sec)
        self.in_flight += 1
        self._idle.clear()
        try:
            yield self.policy_version
        finally:
            self.in_flight -= 1
            if self.in_flight == 0:
                self._idle.set()

    def pause(self) -> None:
        self.paused = True

    async def drain(self, timeout: float | None = None) -> int:
        """Pause, then wait until nothing is in flight; returns how many calls are still in flight."""
        self.pause()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)
        return self.in_flight

    def resume(self, policy_version: int | None = None) -> int:
        """Admit calls again, served by `policy_version` from now on (unchanged when None)."""
        if policy_version is not None:
            self.policy_version = policy_version
        self.paused = False
        return self.policy_version
