"""Find and remove leftover OpenForge containers: the crash watchdog and `forge-env gc`.

python -m envs.reaper watch --owner OWNER   # blocks on stdin; on EOF removes OWNER's containers
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import sys
import time
from pathlib import Path

import docker
import docker.errors

from envs import labels

MODEL_MOUNT = "/run/forge-model"
"""Where a model-only sandbox has its relay folder mounted (envs.docker_sandbox)."""
WATCH_RETRY_SEC = 600.0
"""How long the watchdog goes on removing containers the engine refuses to remove. A fork-bombed
container under load was once refused ("did not receive an exit event") for minutes, past every wait
of the process it belonged to, and a single try left it behind."""
WATCH_PAUSE_SEC = 2.0


def owner_alive(owner: str) -> bool:
    """True when `owner` is a process on this host that still runs (we cannot judge other hosts)."""
    parts = owner.split(":")
    if len(parts) < 2 or parts[0] != socket.gethostname():
        return True
    try:
        os.kill(int(parts[1]), 0)
    except (ProcessLookupError, ValueError):
        return False
    except PermissionError:
        return True
    return True


def remove_containers(
    client: docker.DockerClient,
    owner: str | None = None,
    include_live_owners: bool = False,
    task: str | None = None,
) -> list[str]:
    """Remove managed containers (of one owner, or every one whose owner is gone). Returns their names."""
    label_filters = [f"{labels.MANAGED}=true"]
    if owner:
        label_filters.append(f"{labels.OWNER}={owner}")
    if task:
        label_filters.append(f"{labels.TASK}={task}")
    removed: list[str] = []
    for container in client.containers.list(all=True, ignore_removed=True, filters={"label": label_filters}):
        container_owner = container.labels.get(labels.OWNER, "")
        if not owner and not include_live_owners and owner_alive(container_owner):
            continue
        relays = [
            Path(m["Source"])
            for m in container.attrs.get("Mounts") or []
            if m.get("Destination") == MODEL_MOUNT
        ]
        try:
            container.remove(force=True, v=True)
            removed.append(str(container.name))
            for folder in relays:  # the sandbox's model relay folder goes with it
                shutil.rmtree(folder, ignore_errors=True)
        except docker.errors.NotFound:
            pass
        except docker.errors.APIError as exc:
            if exc.status_code == 409:  # already being removed
                continue
            print(f"could not remove {container.name}: {exc}", file=sys.stderr)
    return removed


def remove_until_gone(
    client: docker.DockerClient,
    owner: str,
    within: float | None = None,
    pause: float = WATCH_PAUSE_SEC,
) -> list[str]:
    """Remove `owner`'s containers, trying again while the engine refuses some, for `within` seconds
    (default WATCH_RETRY_SEC). Returns the names still there when it gave up."""
    deadline = time.monotonic() + (WATCH_RETRY_SEC if within is None else within)
    filters: dict[str, str | list[str] | bool] = {
        "label": [f"{labels.MANAGED}=true", f"{labels.OWNER}={owner}"]
    }
    while True:
        remove_containers(client, owner=owner)
        left = [str(c.name) for c in client.containers.list(all=True, ignore_removed=True, filters=filters)]
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(pause)


def remove_relay_folders(root: Path, owner: str | None = None) -> None:
    """Remove model-relay folders whose owner process is gone."""
    if not root.is_dir():
        return
    for folder in root.iterdir():
        marker = folder / "owner"
        folder_owner = marker.read_text().strip() if marker.is_file() else ""
        if (owner and folder_owner == owner) or (not owner and not owner_alive(folder_owner)):
            shutil.rmtree(folder, ignore_errors=True)


def watch(owner: str) -> None:
    """Block until our parent closes the pipe (it exited or died), then clean up after it."""
    try:
        while sys.stdin.buffer.read(1):
            pass
    except (OSError, KeyboardInterrupt):
        pass
    try:
        client = docker.from_env(timeout=120)
        left = remove_until_gone(client, owner)
        if left:
            print(f"watchdog gave up on {', '.join(left)} after {WATCH_RETRY_SEC:.0f}s", file=sys.stderr)
    except docker.errors.DockerException as exc:
        print(f"watchdog could not clean up for {owner}: {exc}", file=sys.stderr)
    from envs.docker_client import relay_root

    remove_relay_folders(relay_root(), owner=owner)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m envs.reaper")
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("watch")
    w.add_argument("--owner", required=True)
    args = parser.parse_args(argv)
    if args.command == "watch":
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        watch(args.owner)


if __name__ == "__main__":
    main()
