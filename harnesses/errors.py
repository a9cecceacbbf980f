"""Every error harnesses/ raises or records, in one place.

    HarnessError
    ├── UnknownHarness      a harness name (or `module:Class`) that does not resolve to an adapter
    │                       (a ValueError: the caller's choice is wrong)
    ├── InstallError        a bundle could not be installed; says what failed and how to retry
    │                       (a RuntimeError, as callers catch it)
    ├── HarnessNotStarted   the launch could not be prepared in the sandbox (HarnessRun status
    │                       "not-started"): infrastructure, never the agent's doing
    └── HarnessNoModel      the harness ran but never got an answer from its model (no call of the
                            rollout was answered): the machinery failed, not the agent

The last two describe a rollout's outcome rather than a raised error: a rollout records their class
name as its `error_class` (train/rollout.py), so the names are defined here once.
"""

from __future__ import annotations


class HarnessError(Exception):
    """Base class for everything harnesses/ raises on purpose."""


class UnknownHarness(HarnessError, ValueError):
    """A harness name that is neither in the registry nor an importable `module:Class` adapter."""


class InstallError(HarnessError, RuntimeError):
    """A bundle could not be installed; the message says what failed and how to retry."""


class HarnessNotStarted(HarnessError):
    """The harness's launch could not be prepared in the sandbox (the sandbox failed first)."""


class HarnessNoModel(HarnessError):
    """The harness never got an answer from its model: a wrong route, a refused request shape, an
    engine down. Scoring such a rollout would train on the infrastructure."""
