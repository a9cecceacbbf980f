"""Every error synth/ raises on purpose, in one place.

    SynthError
    ├── PoolError              a pool that does not exist, is empty, or holds nothing a family can use
    ├── UnknownDomain          a domain with no generator (names the domains there are)
    ├── RunDirError            a run directory that cannot be used as asked
    │   ├── RunDirVersionMismatch   ...written by another version of the run format
    │   └── RunDirMismatch          ...resumed with other settings than it was started with
    ├── ProposalInvalid        a proposal (a model's answer, a family's draft) that is not a task
    ├── ModelUnavailable       a model endpoint that refused or timed out after its retries
    └── StageOrderError        a stage asked for before the stage it needs has run

All but ModelUnavailable are also ValueErrors: the caller's input is what is wrong. A single proposal's
failure in a stage never leaves that stage: it is recorded (prune-report.jsonl, build.jsonl, test.jsonl)
with the class name of what went wrong, and the run goes on.
"""

from __future__ import annotations


class SynthError(Exception):
    """Base class for everything synth/ raises on purpose."""


class PoolError(SynthError, ValueError):
    """A pool that does not exist, is empty, or holds nothing the domain's families can use."""


class UnknownDomain(SynthError, ValueError):
    """A domain with no generator."""

    def __init__(self, domain: str, known: list[str]) -> None:
        self.domain = domain
        super().__init__(f"no generator for domain {domain!r}; domains: {', '.join(known)}")


class RunDirError(SynthError, ValueError):
    """A run directory that cannot be used as asked."""


class RunDirVersionMismatch(RunDirError):
    """The run directory was written by another version of the run format."""


class RunDirMismatch(RunDirError):
    """The run directory was started with other settings; names each one that changed."""


class ProposalInvalid(SynthError, ValueError):
    """A proposal that is not a task: says which proposal, which field and what is wrong."""


class ModelUnavailable(SynthError):
    """The model endpoint refused or timed out after its retries."""


class StageOrderError(SynthError, ValueError):
    """A stage asked for before the stage it needs (e.g. build before propose)."""
