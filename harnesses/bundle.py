"""Bundles: each harness installed once, into a directory keyed by name and version, that every task
container mounts read-only at /opt/forge/harness/<name>. Nothing is installed per rollout.

A bundle is built into a staging directory and renamed into place only when its installer succeeded,
so an interrupted build is redone rather than trusted; a lock keeps two processes from building the same
bundle at once. `.bundle.json` records what went in.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel

from envs.cluster_images import bundle_image_tag
from envs.docker_client import forge_home
from envs.sandbox import Mount
from harnesses.errors import InstallError
from harnesses.harness import HARNESS_MOUNT, Harness

MANIFEST = ".bundle.json"


class Bundle(BaseModel):
    """A built bundle: where it is and what it holds."""

    harness: str
    version: str
    path: Path
    installer: str
    size_bytes: int
    build_sec: float
    built_at: str
    cached: bool = False
    """True when this call found it already built."""

    def mount(self) -> Mount:
        return Mount(
            source=self.path,
            target=f"{HARNESS_MOUNT}/{self.harness}",
            read_only=True,
            image=bundle_image_tag(self.path),
        )


def bundles_root() -> Path:
    """$FORGE_BUNDLES, else $FORGE_HOME/harness-bundles."""
    root = Path(os.environ.get("FORGE_BUNDLES") or forge_home() / "harness-bundles")
    root.mkdir(parents=True, exist_ok=True)
    return root


def bundle_dir(harness: Harness) -> Path:
    fingerprint = harness.installer.fingerprint()
    key = f"{harness.name}-{harness.version}" + (f"-{fingerprint}" if fingerprint else "")
    return bundles_root() / key


def find_bundle(harness: Harness) -> Bundle | None:
    """The harness's built bundle, or None."""
    path = bundle_dir(harness)
    manifest = path / MANIFEST
    if not manifest.is_file():
        return None
    return Bundle.model_validate({**json.loads(manifest.read_text()), "path": path, "cached": True})


def _size(path: Path) -> int:
    """Bytes on disk: symlinks are skipped and hard-linked files counted once (npm links binaries)."""
    total = 0
    seen: set[tuple[int, int]] = set()
    for root, _dirs, files in os.walk(path):
        for name in files:
            stat = (Path(root) / name).lstat()
            if (Path(root) / name).is_symlink() or (stat.st_dev, stat.st_ino) in seen:
                continue
            seen.add((stat.st_dev, stat.st_ino))
            total += stat.st_size
    return total


@contextmanager
def _lock(path: Path) -> Iterator[None]:
    with open(path.with_name(path.name + ".lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_bundle(harness: Harness, force: bool = False) -> Bundle:
    """Install the harness into its bundle unless that bundle is already built."""
    if not force and (found := find_bundle(harness)) is not None:
        return found
    if reason := harness.unavailable_reason():
        raise InstallError(f"harness {harness.name!r} cannot be installed: {reason}")
    path = bundle_dir(harness)
    with _lock(path):
        if not force and (found := find_bundle(harness)) is not None:
            return found  # another process built it while we waited
        staging = path.with_name(f"{path.name}.partial-{os.getpid()}")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        started = time.monotonic()
        try:
            harness.installer.install(staging)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        bundle = Bundle(
            harness=harness.name,
            version=harness.version,
            path=path,
            installer=harness.installer.describe(),
            size_bytes=_size(staging),
            build_sec=round(time.monotonic() - started, 2),
            built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        manifest = bundle.model_dump(mode="json", exclude={"path", "cached"})
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        shutil.rmtree(path, ignore_errors=True)
        staging.rename(path)
        return bundle
