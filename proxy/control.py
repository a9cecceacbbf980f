"""Pause / drain / resume for weight updates, the policy version, and per-rollout settings.

Training pauses the proxy (new calls get 429 + Retry-After), drains it (waits until no call is in
flight), swaps the engine's weights, then resumes with a new policy version; every call records the
version that served it.

The control app and the model app may run on different event loops (threads), so this state is
guarded by a thread lock and `drain` polls instead of waiting on an asyncio primitive bound to one loop.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from proxy.config import SamplingOverrides
from proxy.errors import Paused

MAX_POLICY_VERSION = 2**53
"""Policy versions are 0..2**53: exact as JSON numbers anywhere, and far inside SQLite's int64."""
DEFAULT_DRAIN_TIMEOUT_SEC = 600.0
MAX_DRAIN_TIMEOUT_SEC = 3600.0
_DRAIN_POLL_SEC = 0.005


def check_policy_version(version: object) -> int:
    """The version if it is an int in 0..MAX_POLICY_VERSION; else ValueError naming the field."""
    if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version <= MAX_POLICY_VERSION:
        raise ValueError(f"policy_version must be an integer from 0 to 2**53, got {version!r}")
    return version


def check_drain_timeout(timeout: float) -> float:
    if not math.isfinite(timeout) or not 0 <= timeout <= MAX_DRAIN_TIMEOUT_SEC:
        raise ValueError(f"timeout must be a finite number of seconds from 0 to 3600, got {timeout!r}")
    return timeout


class Control:
    def __init__(self, retry_after_sec: float = 2.0) -> None:
        self.paused = False
        self.policy_version = 0
        self.in_flight = 0
        self.retry_after_sec = retry_after_sec
        self.rollout_overrides: dict[str, SamplingOverrides] = {}
        self._lock = threading.Lock()

    @asynccontextmanager
    async def admit(self) -> AsyncIterator[int]:
        """Admit one call (or raise Paused); yields the policy version serving it."""
        with self._lock:
            if self.paused:
                raise Paused("the proxy is paused for a weight update; retry shortly", self.retry_after_sec)
            self.in_flight += 1
            version = self.policy_version
        try:
            yield version
        finally:
            with self._lock:
                self.in_flight -= 1

    def pause(self) -> None:
        with self._lock:
            self.paused = True

    async def drain(self, timeout: float = DEFAULT_DRAIN_TIMEOUT_SEC) -> int:
        """Pause, then wait (at most `timeout` s) until nothing is in flight; returns how many calls are
        still in flight."""
        deadline = time.monotonic() + check_drain_timeout(timeout)
        self.pause()
        while self.in_flight and time.monotonic() < deadline:
            await asyncio.sleep(_DRAIN_POLL_SEC)
        return self.in_flight

    def resume(self, policy_version: int | None = None) -> int:
        """Admit calls again, served by `policy_version` from now on (unchanged when None)."""
        with self._lock:
            if policy_version is not None:
                self.policy_version = check_policy_version(policy_version)
            self.paused = False
            return self.policy_version
