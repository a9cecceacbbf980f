"""One line naming every bad setting of a pydantic validation error, for the CLIs' error messages."""

from __future__ import annotations

from pydantic import ValidationError


def describe_problems(exc: ValidationError, prefix: str = "") -> str:
    """`lr: Input should be greater than 0; group_size: ...`; `prefix` names the section they are in."""
    return "; ".join(f"{prefix}{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
