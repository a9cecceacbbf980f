"""The project's base image, built without any image registry.

No image can be pulled here, so the base is made from Debian packages: `debootstrap` into a folder, then
`docker import`. It is tagged by a hash of its recipe (suite, packages, this recipe's version), so a
second `forge-env base` is a no-op and a changed recipe gets a new tag. Where a registry is reachable,
`--from IMAGE` installs the same packages on a pulled image instead.

Catalog Dockerfiles start with::

    ARG FORGE_BASE=openforge/base:latest
    FROM ${FORGE_BASE}

and the builder passes the exact image id of the current base as FORGE_BASE (see `current_base_id`).
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, AnyStr

import docker
import docker.errors
from pydantic import BaseModel, Field

from envs.errors import BaseImageError

BASE_REPOSITORY = "openforge/base"
RECIPE_VERSION = 1


class BaseRecipe(BaseModel):
    """What goes into the base image; its hash is the image tag."""

    suite: str = "bookworm"
    mirror: str = "http://deb.debian.org/debian"
    packages: list[str] = Field(
        default_factory=lambda: [
            "bash",
            "coreutils",
            "ca-certificates",
            "curl",
            "git",
            "jq",
            "procps",
            "python3",
            "less",
            "file",
            "strace",
        ]
    )
    from_image: str | None = None
    """Build on this (pulled) image with apt-get instead of debootstrap."""

    def digest(self) -> str:
        payload = self.model_dump(exclude={"mirror"})
        payload["recipe_version"] = RECIPE_VERSION
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:12]

    @property
    def tag(self) -> str:
        return f"{BASE_REPOSITORY}:{self.digest()}"


def base_image_tag(recipe: BaseRecipe | None = None) -> str:
    return (recipe or BaseRecipe()).tag


def current_base_id(client: docker.DockerClient) -> str:
    """Image id of `openforge/base:latest`, the base the last `forge-env base` made (recipe or --from).

    Task images are built FROM this exact id (the FORGE_BASE build argument) and it is part of their
    content hash, so rebuilding the base rebuilds the tasks that use it.
    """
    try:
        return str(client.images.get(f"{BASE_REPOSITORY}:latest").id)
    except docker.errors.ImageNotFound:
        raise BaseImageError("there is no base image yet: run `forge-env base` first") from None


def base_image_exists(client: docker.DockerClient, recipe: BaseRecipe | None = None) -> bool:
    try:
        client.images.get(base_image_tag(recipe))
    except docker.errors.ImageNotFound:
        return False
    return True


def build_base_image(
    client: docker.DockerClient,
    recipe: BaseRecipe | None = None,
    force: bool = False,
    log: Callable[[str], None] = lambda line: None,
) -> tuple[str, bool]:
    """Build the base image if its tag is missing. Returns (tag, built_now)."""
    recipe = recipe or BaseRecipe()
    tag = recipe.tag
    if not force and base_image_exists(client, recipe):
        _tag_latest(client, tag)
        return tag, False
    if recipe.from_image:
        _build_from_image(client, recipe, tag, log)
    else:
        _build_with_debootstrap(client, recipe, tag, log)
    _tag_latest(client, tag)
    return tag, True


def _tag_latest(client: docker.DockerClient, tag: str) -> None:
    client.images.get(tag).tag(BASE_REPOSITORY, "latest")


def _changes() -> list[str]:
    return [
        "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "ENV LANG=C.UTF-8",
        'CMD ["/bin/bash"]',
        "LABEL org.opencontainers.image.title=openforge-base",
    ]


def _build_with_debootstrap(
    client: docker.DockerClient, recipe: BaseRecipe, tag: str, log: Callable[[str], None]
) -> None:
    if shutil.which("debootstrap") is None:
        raise BaseImageError(
            "debootstrap is not installed (apt-get install -y debootstrap), or use --from IMAGE"
        )
    with tempfile.TemporaryDirectory(prefix="forge-base-") as tmp:
        rootfs = Path(tmp) / "rootfs"
        cmd = [
            "debootstrap",
            "--variant=minbase",
            f"--include={','.join(recipe.packages)}",
            recipe.suite,
            str(rootfs),
            recipe.mirror,
        ]
        log("$ " + " ".join(cmd))
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        tail: list[str] = []
        for line in _pipe(proc.stdout):
            log(line.rstrip())
            tail = [*tail[-19:], line.rstrip()]
        if proc.wait() != 0:
            raise BaseImageError("debootstrap failed:\n" + "\n".join(tail))
        # Small and reproducible-ish: no apt caches, no docs, a sources.list for later apt-get installs.
        for junk in ("var/cache/apt/archives", "var/lib/apt/lists", "usr/share/doc", "usr/share/man"):
            shutil.rmtree(rootfs / junk, ignore_errors=True)
            (rootfs / junk).mkdir(parents=True, exist_ok=True)
        (rootfs / "etc/apt/sources.list").write_text(f"deb {recipe.mirror} {recipe.suite} main\n")
        log(f"importing rootfs as {tag}")
        tar = subprocess.Popen(
            ["tar", "-C", str(rootfs), "--numeric-owner", "-c", "."], stdout=subprocess.PIPE
        )
        stream = _pipe(tar.stdout)
        try:
            client.api.import_image_from_stream(
                stream, repository=tag.split(":")[0], tag=tag.split(":")[1], changes=_changes()
            )
        except docker.errors.APIError as exc:
            raise BaseImageError(f"docker import failed: {exc}") from exc
        finally:
            stream.close()
            tar.wait()


def _pipe(stream: IO[AnyStr] | None) -> IO[AnyStr]:
    """A child's stdout opened with stdout=PIPE (never None then; typed as optional by Popen)."""
    if stream is None:
        raise BaseImageError("a child process was started without its output pipe")
    return stream


def _build_from_image(
    client: docker.DockerClient, recipe: BaseRecipe, tag: str, log: Callable[[str], None]
) -> None:
    dockerfile = (
        f"FROM {recipe.from_image}\n"
        "ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8\n"
        "RUN apt-get update && apt-get install -y --no-install-recommends "
        f"{' '.join(recipe.packages)} && rm -rf /var/lib/apt/lists/*\n"
        'CMD ["/bin/bash"]\n'
    )
    try:
        client.images.get(recipe.from_image or "")
        pull = False  # present locally: no registry needed
    except docker.errors.ImageNotFound:
        pull = True
    try:
        for chunk in client.api.build(
            fileobj=io.BytesIO(dockerfile.encode()),
            tag=tag,
            network_mode="host",
            rm=True,
            forcerm=True,
            pull=pull,
            decode=True,
        ):
            if "stream" in chunk:
                log(chunk["stream"].rstrip())
            if "error" in chunk:
                raise BaseImageError(f"building the base on {recipe.from_image} failed: {chunk['error']}")
    except docker.errors.APIError as exc:
        raise BaseImageError(f"building the base on {recipe.from_image} failed: {exc}") from exc
