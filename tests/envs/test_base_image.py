"""The base image: built from Debian packages, tagged by its recipe, a second run is a no-op."""

from __future__ import annotations

import time

import docker
import pytest

from envs.base_image import BaseRecipe, build_base_image

pytestmark = pytest.mark.docker


def test_base_image_has_the_tools_and_a_second_run_is_a_no_op(
    client: docker.DockerClient, base_image: str
) -> None:
    assert base_image == BaseRecipe().tag
    started = time.monotonic()
    tag, built = build_base_image(client)
    assert (tag, built) == (base_image, False)
    assert time.monotonic() - started < 5
    assert client.images.get("openforge/base:latest").id == client.images.get(base_image).id
    out = client.containers.run(
        base_image,
        [
            "sh",
            "-c",
            "for t in python3 bash git curl jq ls; do command -v $t; done;"
            " test -s /etc/ssl/certs/ca-certificates.crt && echo certs",
        ],
        remove=True,
        network_mode="none",
    ).decode()
    for tool in ("python3", "bash", "git", "curl", "jq", "ls", "certs"):
        assert tool in out


def test_recipe_hash_tracks_the_recipe() -> None:
    assert BaseRecipe().tag == BaseRecipe().tag
    assert BaseRecipe(packages=["bash"]).tag != BaseRecipe().tag
    assert BaseRecipe(from_image="debian:bookworm").tag != BaseRecipe().tag
    assert BaseRecipe(mirror="http://mirror.example/debian").tag == BaseRecipe().tag


def test_from_image_builds_the_same_recipe_on_another_image(
    client: docker.DockerClient, base_image: str
) -> None:
    """--from IMAGE: here the 'pulled' image is our own base (no registry is reachable in CI)."""
    recipe = BaseRecipe(from_image=base_image)
    try:
        tag, built = build_base_image(client, recipe)
        assert built and tag == recipe.tag
        out = client.containers.run(tag, ["jq", "--version"], remove=True, network_mode="none").decode()
        assert out.startswith("jq-")
    finally:
        client.images.remove(recipe.tag, force=True)
        client.images.get(base_image).tag("openforge/base", "latest")
