"""One way to get a Docker client, with an error that says what to do when the engine is not there."""

from __future__ import annotations

import os
from pathlib import Path

import docker
import docker.errors

from envs.errors import SandboxError

MAX_POOL_SIZE = 256
"""Connections kept open to the engine; every running exec holds one while it streams."""


class DockerUnavailable(SandboxError):
    """The Docker engine cannot be reached."""


def docker_client(timeout: int = 600) -> docker.DockerClient:
    try:
        client = docker.from_env(timeout=timeout, max_pool_size=MAX_POOL_SIZE)
        client.ping()
    except docker.errors.DockerException as exc:
        where = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
        raise DockerUnavailable(
            f"cannot reach the Docker engine at {where}: {exc}. Start it with "
            "`dockerd --bridge=none --iptables=false &` (see .ci/run)."
        ) from exc
    return client


def forge_home() -> Path:
    """Where OpenForge keeps build logs, sandbox sockets and other state ($FORGE_HOME)."""
    home = Path(os.environ.get("FORGE_HOME", Path.home() / ".cache" / "openforge"))
    home.mkdir(parents=True, exist_ok=True)
    return home


def relay_root() -> Path:
    """Short folder for per-sandbox model sockets (a Unix socket path must stay under 108 bytes)."""
    root = Path(os.environ.get("FORGE_RUN_DIR", f"/tmp/openforge-{os.getuid()}")) / "relays"
    root.mkdir(parents=True, exist_ok=True)
    return root
