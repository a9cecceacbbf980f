"""Images for a cluster against a real push: task images and bundle images pushed by the Docker daemon to
an in-memory registry on loopback (tests/envs/registry_server.py; no registry image can be pulled here).

Each test has its own registry at a new port, and removes the `<registry>/...` tags the pushes left."""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docker
import docker.errors
import pytest

from envs import labels
from envs.cluster_images import BUNDLE_PATH, build_bundle_image, push_image
from tests.envs.registry_server import LocalRegistry

REPO = Path(__file__).resolve().parents[2]
FORGE_ENV = str(Path(sys.executable).with_name("forge-env"))
TASK = REPO / "catalog" / "claw" / "csv-sales-summary"
SCHEMA2 = "application/vnd.docker.distribution.manifest.v2+json"


@pytest.fixture
def registry(client: docker.DockerClient) -> Iterator[LocalRegistry]:
    """A fresh registry; afterwards every local tag naming it is removed (the images stay under their own
    tags), and the server must not have failed on any request."""
    with LocalRegistry() as served:
        try:
            yield served
        finally:
            prefix = f"{served.address}/"
            for image in client.api.images():
                for tag in image.get("RepoTags") or []:
                    if tag.startswith(prefix):
                        client.images.remove(tag)
    assert served.unexpected_errors == []


def split_ref(remote: str, registry: LocalRegistry) -> tuple[str, str]:
    """`<registry>/<name>:<tag>` -> (name, tag)."""
    assert remote.startswith(f"{registry.address}/"), remote
    name, _, tag = remote.removeprefix(f"{registry.address}/").rpartition(":")
    return name, tag


def manifest_json(registry: LocalRegistry, remote: str) -> dict[str, Any]:
    """The manifest the registry holds for `<registry>/<name>:<tag>`, parsed."""
    manifest = registry.manifest(*split_ref(remote, registry))
    assert manifest is not None, f"{remote} not in the registry: {registry.requests}"
    parsed: dict[str, Any] = json.loads(manifest.body)
    return parsed


def layers(registry: LocalRegistry, remote: str) -> list[str]:
    return [layer["digest"] for layer in manifest_json(registry, remote)["layers"]]


def assert_holds(registry: LocalRegistry, remote: str, client: docker.DockerClient) -> None:
    """The registry has the image's manifest under its tag, every blob it names, and the daemon reads it
    back (get_registry_data) with the same digest and the local image's platform."""
    name, tag = split_ref(remote, registry)
    manifest = registry.manifest(name, tag)
    assert manifest is not None, f"{name}:{tag} not in the registry: {registry.requests}"
    assert manifest.media_type == SCHEMA2
    body = json.loads(manifest.body)
    for blob in [body["config"], *body["layers"]]:
        assert registry.has_blob(name, blob["digest"]), blob
    # The config blob is the local image's config: its digest is the image id.
    assert body["config"]["digest"] == client.images.get(remote).id
    data = client.images.get_registry_data(remote)
    assert data.id == manifest.digest
    assert data.has_platform("linux/amd64")


def test_push_image_pushes_once_and_an_unchanged_image_never_again(
    client: docker.DockerClient, base_image: str, registry: LocalRegistry
) -> None:
    remote, pushed = push_image(client, base_image, registry.address)
    assert (remote, pushed) == (f"{registry.address}/{base_image}", True)
    name, tag = split_ref(remote, registry)
    assert registry.tags(name) == [tag]
    assert registry.manifest_puts == 1
    assert registry.blob_uploads >= 2  # the config and at least one layer
    assert_holds(registry, remote, client)
    # Plain HTTP, with no insecure-registries setting: the daemon tried HTTPS first and fell back.
    assert registry.tls_probes >= 1

    uploads, requests = registry.blob_uploads, len(registry.requests)
    assert push_image(client, base_image, registry.address) == (remote, False)
    assert (registry.manifest_puts, registry.blob_uploads) == (1, uploads)
    # Only asked about, nothing sent: no upload started, no manifest put.
    again = registry.requests[requests:]
    assert again and all(r.split()[0] in ("GET", "HEAD") for r in again), again


def test_build_bundle_image_holds_the_folder_at_bundle_and_pushes(
    client: docker.DockerClient, base_image: str, registry: LocalRegistry, tmp_path: Path
) -> None:
    folder = tmp_path / f"testbundle-{uuid.uuid4().hex[:12]}"
    (folder / "bin").mkdir(parents=True)
    (folder / "a.txt").write_text("hello bundle\n")
    tool = folder / "bin" / "tool"
    tool.write_text("#!/bin/sh\necho tool ran\n")
    tool.chmod(0o755)
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    # The pod's init container: `cp -a /bundle/. <emptyDir>/`, then the task container runs from it.
    script = (
        f"mkdir /out && cp -a {BUNDLE_PATH}/. /out/ && cd /out && "
        "find . -mindepth 1 | sort | while read -r f; do stat -c '%n %a %u' \"$f\"; done && "
        "cat a.txt && ./bin/tool"
    )
    copied = [
        "./a.txt 644 0",
        "./bin 755 0",
        "./bin/tool 755 0",
        "hello bundle",
        "tool ran",
    ]

    def run(tag: str) -> list[str]:
        out = client.containers.run(tag, ["/bin/sh", "-c", script], network_mode="none", remove=True)
        return bytes(out).decode().splitlines()

    tag = build_bundle_image(client, folder)
    first = client.images.get(tag).id
    assert first is not None
    try:
        image = client.images.get(tag)
        assert image.labels.get(labels.MANAGED) == "true"
        assert image.labels.get("openforge.bundle") == folder.name
        # Only the folder's files, owned by root, modes kept: no Dockerfile or .dockerignore copied.
        assert run(tag) == copied
        # The folder is as it was: the temporary Dockerfile and .dockerignore are gone.
        assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == before
        assert stat.S_IMODE(tool.stat().st_mode) == 0o755

        # Built once: a bundle's folder is named by its key, so the same folder name is the same bundle
        # and a second call is not a build (a file added meanwhile does not make a new image) ...
        (folder / "b.txt").write_text("added later\n")
        assert build_bundle_image(client, folder) == tag
        assert client.images.get(tag).id == image.id
        assert not (folder / ".forge-bundle.Dockerfile").exists()
        assert not (folder / ".dockerignore").exists()
        # ... unless forced. A .dockerignore of the bundle's own is a file of it, not build rules.
        (folder / ".dockerignore").write_text("a.txt\n")
        assert build_bundle_image(client, folder, force=True) == tag
        assert client.images.get(tag).id != image.id
        assert run(tag) == ["./.dockerignore 644 0", *copied[:1], "./b.txt 644 0", *copied[1:]]
        (folder / ".dockerignore").unlink()

        # As `forge-env harness build --push` does, into a registry that holds the base image already
        # (the daemon asks to mount its layer from openforge/base: a normal upload answers).
        push_image(client, base_image, registry.address)
        remote, pushed = push_image(client, tag, registry.address)
        assert (remote, pushed) == (f"{registry.address}/{tag}", True)
        assert_holds(registry, remote, client)
        base = layers(registry, f"{registry.address}/{base_image}")
        assert layers(registry, remote)[: len(base)] == base
        assert len(layers(registry, remote)) == len(base) + 1
        assert push_image(client, tag, registry.address) == (remote, False)
        assert registry.manifest_puts == 2
    finally:
        client.images.remove(tag, force=True)
        with contextlib.suppress(docker.errors.ImageNotFound):
            client.images.remove(first)  # the first build, left untagged by the forced one


def test_forge_env_build_push_pushes_once(
    client: docker.DockerClient, base_image: str, registry: LocalRegistry, tmp_path: Path, forge_home: Path
) -> None:
    task = shutil.copytree(TASK, tmp_path / TASK.name)
    env = {**os.environ, "COLUMNS": "250", "NO_COLOR": "1"}

    def forge_env_build() -> str:
        done = subprocess.run(
            [FORGE_ENV, "build", str(task), "--push", registry.address],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    first = forge_env_build()
    said = re.search(rf"{TASK.name}: pushed ({re.escape(registry.address)}/\S+)", first)
    assert said, first
    remote = said.group(1)
    name, tag = split_ref(remote, registry)
    assert name.startswith("openforge/task-") and registry.tags(name) == [tag]
    assert registry.manifest_puts == 1
    assert_holds(registry, remote, client)

    second = forge_env_build()
    assert f"{TASK.name}: already in the registry: {remote}" in second, second
    assert "pushed" not in second
    assert registry.manifest_puts == 1


def test_the_registry_checks_digests_and_manifests() -> None:
    """The test registry itself (no Docker): a blob whose bytes do not hash to its digest is refused, a
    manifest naming a blob the repository lacks is refused, and a manifest is served back by tag and by
    digest with its media type; names have slashes; a mount request starts a normal upload."""
    name = "openforge/task-x"
    blob = b"layer bytes\n"
    blob_digest = "sha256:" + hashlib.sha256(blob).hexdigest()

    with LocalRegistry() as served:
        connection = http.client.HTTPConnection(served.address, timeout=10)

        def call(
            method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
        ) -> tuple[int, dict[str, str], bytes]:
            connection.request(method, path, body=body or None, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()

        try:
            status, headers, _ = call("GET", "/v2/")
            assert (status, headers["Docker-Distribution-API-Version"]) == (200, "registry/2.0")

            status, headers, _ = call("POST", f"/v2/{name}/blobs/uploads/")
            assert status == 202 and headers["Location"].startswith(f"/v2/{name}/blobs/uploads/")
            upload = headers["Location"]
            status, headers, _ = call("PATCH", upload, blob)
            assert (status, headers["Range"]) == (202, f"0-{len(blob) - 1}")
            status, _, body = call("PUT", f"{upload}?digest=sha256:{'0' * 64}")
            assert status == 400 and b"DIGEST_INVALID" in body
            assert call("HEAD", f"/v2/{name}/blobs/{blob_digest}")[0] == 404

            status, headers, _ = call(
                "POST", f"/v2/{name}/blobs/uploads/?mount={blob_digest}&from=other/repo"
            )
            assert status == 202 and served.mount_requests == 1
            status, headers, _ = call("PUT", f"{headers['Location']}?digest={blob_digest}", blob)
            assert (status, headers["Docker-Content-Digest"]) == (201, blob_digest)
            status, headers, _ = call("HEAD", f"/v2/{name}/blobs/{blob_digest}")
            assert (status, headers["Content-Length"]) == (200, str(len(blob)))
            assert call("GET", f"/v2/{name}/blobs/{blob_digest}")[2] == blob
            assert call("HEAD", f"/v2/other/repo/blobs/{blob_digest}")[0] == 404  # linked per repository

            missing = "sha256:" + "1" * 64
            manifest = {
                "schemaVersion": 2,
                "mediaType": SCHEMA2,
                "config": {"mediaType": "application/vnd.docker.container.image.v1+json", "digest": missing},
                "layers": [],
            }
            status, _, body = call("PUT", f"/v2/{name}/manifests/v1", json.dumps(manifest).encode())
            assert status == 400 and b"MANIFEST_BLOB_UNKNOWN" in body
            manifest["config"]["digest"] = blob_digest  # type: ignore[index]
            raw = json.dumps(manifest).encode()
            status, headers, _ = call("PUT", f"/v2/{name}/manifests/v1", raw, {"Content-Type": SCHEMA2})
            digest = "sha256:" + hashlib.sha256(raw).hexdigest()
            assert (status, headers["Docker-Content-Digest"]) == (201, digest)
            status, headers, _ = call("HEAD", f"/v2/{name}/manifests/v1")
            assert (status, headers["Docker-Content-Digest"], headers["Content-Type"]) == (
                200,
                digest,
                SCHEMA2,
            )
            status, headers, body = call("GET", f"/v2/{name}/manifests/{digest}")
            assert (status, headers["Content-Type"], body) == (200, SCHEMA2, raw)
            assert call("GET", f"/v2/{name}/manifests/v2")[0] == 404
            assert (served.manifest_puts, served.blob_uploads, served.tags(name)) == (1, 1, ["v1"])
        finally:
            connection.close()
    assert served.unexpected_errors == []
