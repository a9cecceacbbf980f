"""Images a cluster pulls: task images pushed to a registry, and harness bundles made into images.

A pod cannot mount a folder of the driver's machine, so a harness bundle reaches it as an image holding
the bundle at /bundle (FROM the base image, for its `cp`): the pod's init container copies it into an
emptyDir that the task container mounts read-only where Docker would bind-mount the folder. Tags are the
content's: a task image's tag is its content hash, a bundle image's its bundle key (name, version,
installer fingerprint), so pushing again what the registry holds is skipped.
"""

from __future__ import annotations

import contextlib
import io
import re
import tarfile
import tempfile
from pathlib import Path

import docker
import docker.errors

from envs import labels
from envs.base_image import base_image_tag
from envs.errors import ImageError

BUNDLE_REPOSITORY = "openforge/bundle"
BUNDLE_PATH = "/bundle"


def bundle_image_tag(folder: Path) -> str:
    """The image tag of the bundle in `folder` (named by its bundle key)."""
    return f"{BUNDLE_REPOSITORY}:{re.sub(r'[^A-Za-z0-9_.-]', '-', folder.name)[:128]}"


def build_bundle_image(client: docker.DockerClient, folder: Path, force: bool = False) -> str:
    """The bundle's image, built once from the base image and the folder; returns its tag."""
    tag = bundle_image_tag(folder)
    if not force:
        with contextlib.suppress(docker.errors.ImageNotFound):
            client.images.get(tag)
            return tag
    dockerfile = f"FROM {base_image_tag()}\nCOPY --chown=0:0 bundle/ {BUNDLE_PATH}/\n".encode()
    # The build context is made here, not the folder itself: nothing in a bundle (a .dockerignore of its
    # own, say) is read as build instructions, and the folder is left untouched.
    with tempfile.TemporaryFile() as context:
        with tarfile.open(fileobj=context, mode="w") as tar:
            info = tarfile.TarInfo("Dockerfile")
            info.size = len(dockerfile)
            tar.addfile(info, io.BytesIO(dockerfile))
            tar.add(str(folder), arcname="bundle")
        context.seek(0)
        try:
            client.images.build(
                fileobj=context,
                custom_context=True,
                tag=tag,
                labels={labels.MANAGED: "true", "openforge.bundle": folder.name},
                network_mode="none",
                rm=True,
                forcerm=True,
            )
        except (docker.errors.BuildError, docker.errors.APIError) as exc:
            raise ImageError(f"the bundle image of {folder.name} could not be built: {exc}") from exc
    return tag


def remote_ref(local_tag: str, registry: str) -> str:
    return f"{registry.rstrip('/')}/{local_tag}"


def push_image(client: docker.DockerClient, local_tag: str, registry: str) -> tuple[str, bool]:
    """Push `local_tag` as `<registry>/<local_tag>`; returns (remote ref, pushed). An image the registry
    already holds under that tag (the same content, since tags are content hashes) is not pushed again."""
    remote = remote_ref(local_tag, registry)
    with contextlib.suppress(docker.errors.APIError, docker.errors.NotFound):
        client.images.get_registry_data(remote)
        return remote, False
    try:
        image = client.images.get(local_tag)
        repository, _, tag = remote.rpartition(":")
        image.tag(repository, tag)
        for line in client.images.push(repository, tag=tag, stream=True, decode=True):
            if isinstance(line, dict) and line.get("error"):
                raise ImageError(f"pushing {remote} failed: {line['error']}")
    except docker.errors.DockerException as exc:
        raise ImageError(f"pushing {remote} failed: {exc}") from exc
    return remote, True
