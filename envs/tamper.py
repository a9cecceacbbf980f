"""Whether the agent changed the userland its hidden tests would run on, read from the engine's own
filesystem diff of the sandbox (which the agent cannot forge: it is computed by the engine from the
overlay, outside the container).

Used when a task verifies in the agent's own sandbox (`[verifier] sandbox = "agent"`): a change, an
addition or a deletion under a system path (the interpreters, the shell, the libraries and their loader
configuration, site-packages, every PATH folder, our own /opt/forge) means the tests cannot be trusted to
run as written, and the rollout scores 0 as VerifierTampered instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fnmatch import fnmatchcase

from envs.sandbox import PathChange

SYSTEM_PATHS = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/ld.so*",
    "/etc/python3*",
    "/etc/alternatives",
    "/opt/forge",
)
"""Folders (or glob patterns of folders and files) nothing may change below."""
PACKAGE_FOLDERS = ("site-packages", "dist-packages")
"""Anywhere (a venv, the user site under HOME): start-up hooks (`.pth`) and modules live here."""
ACCOUNT_FILES = ("/etc/passwd", "/etc/group", "/etc/shadow")
"""Protected too when the tests run as a named user: they decide who that user is."""


def protected_patterns(path_env: str | None, named_user: bool) -> list[str]:
    """SYSTEM_PATHS, every absolute folder on `path_env` (a PATH value), and the account files when the
    tests run as a named user."""
    patterns = list(SYSTEM_PATHS)
    for folder in (path_env or "").split(":"):
        folder = folder.rstrip("/")
        if folder.startswith("/") and folder not in patterns:
            patterns.append(folder)
    if named_user:
        patterns.extend(ACCOUNT_FILES)
    return patterns


def _protected(path: str, patterns: Sequence[str]) -> bool:
    parts = [p for p in path.split("/") if p]
    if any(p in PACKAGE_FOLDERS for p in parts):
        return True
    prefix = ""
    for part in parts:
        prefix += "/" + part
        if any(fnmatchcase(prefix, pattern) for pattern in patterns):
            return True
    return False


def tampered_paths(changes: Iterable[PathChange], patterns: Sequence[str]) -> list[str]:
    """The changes under protected paths, as `<kind> <path>`. A folder listed as changed only because
    something below it changed is not counted itself (what changed below it is)."""
    changes = list(changes)
    has_changes_below: set[str] = set()
    for change in changes:
        parent = change.path.rstrip("/")
        while (parent := parent.rsplit("/", 1)[0]) and parent not in has_changes_below:
            has_changes_below.add(parent)
    return [
        f"{change.kind} {change.path}"
        for change in changes
        if not (change.kind == "changed" and change.path.rstrip("/") in has_changes_below)
        and _protected(change.path, patterns)
    ]
