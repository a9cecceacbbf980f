"""Image builds against the real Docker engine."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import docker
import pytest

from envs.base_image import current_base_id
from envs.errors import BuildError
from envs.image_builder import build_image, build_images, image_tag
from envs.task import load_task
from tests.conftest import write_task

pytestmark = pytest.mark.docker


def _cleanup_images(client: docker.DockerClient, tags: list[str]) -> None:
    for tag in tags:
        with contextlib.suppress(docker.errors.ImageNotFound):
            client.images.remove(tag, force=True)


def test_content_hash_reuse_makes_the_second_build_cheap(
    client: docker.DockerClient, base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    nonce = str(time.time_ns())
    tasks = [
        load_task(
            write_task(
                tmp_path,
                f"hash-reuse-{i}",
                dockerfile=(
                    "ARG FORGE_BASE=openforge/base:latest\nFROM ${FORGE_BASE}\n"
                    f"RUN echo {nonce}-{i} > /nonce && sleep 1\nWORKDIR /app\n"
                ),
            )
        )
        for i in range(2)
    ]
    tags = [image_tag(t, current_base_id(client)) for t in tasks]
    try:
        started = time.monotonic()
        first = build_images(client, tasks, jobs=2)
        first_sec = time.monotonic() - started
        assert all(r.ok and r.built for r in first), first
        started = time.monotonic()
        second = build_images(client, tasks, jobs=2)
        second_sec = time.monotonic() - started
        assert all(r.ok and not r.built for r in second), second
        assert [r.tag for r in second] == tags
        assert second_sec < 0.1 * first_sec, (first_sec, second_sec)
        assert Path(first[0].log_path or "").read_text().count("Step ") >= 3
        image = client.images.get(tags[0])
        assert image.labels["openforge.task"] == "hash-reuse-0"
    finally:
        _cleanup_images(client, tags)


def test_a_changed_file_or_base_changes_the_tag(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path, "change"))
    before = image_tag(task, "sha256:aaa")
    (task.environment_dir / "extra.txt").write_text("x")
    assert image_tag(task, "sha256:aaa") != before
    assert image_tag(task, "sha256:bbb") != image_tag(task, "sha256:aaa")
    foreign = load_task(write_task(tmp_path, "foreign", dockerfile="FROM debian:bookworm\n"))
    assert image_tag(foreign, "sha256:aaa") == image_tag(foreign, "sha256:bbb")


def test_failing_build_names_task_and_step_and_others_still_build(
    client: docker.DockerClient, base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    good = load_task(write_task(tmp_path, "good-build"))
    bad = load_task(
        write_task(
            tmp_path,
            "bad-build",
            dockerfile="ARG FORGE_BASE=openforge/base:latest\nFROM ${FORGE_BASE}\nRUN true\nRUN exit 7\n",
        )
    )
    try:
        with pytest.raises(BuildError) as info:
            build_image(client, bad)
        assert "bad-build" in str(info.value)
        assert info.value.step is not None and "RUN exit 7" in info.value.step
        assert info.value.step.startswith("Step 4/")
        assert Path(info.value.log_path or "").is_file()
        results = build_images(client, [bad, good], jobs=2)
        assert not results[0].ok and "RUN exit 7" in (results[0].failed_step or "")
        assert results[1].ok
    finally:
        _cleanup_images(client, [image_tag(good, current_base_id(client))])


def test_tests_and_solution_never_enter_the_image(
    client: docker.DockerClient, base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    task = load_task(
        write_task(
            tmp_path,
            "context-only",
            dockerfile="ARG FORGE_BASE=openforge/base:latest\nFROM ${FORGE_BASE}\nCOPY . /ctx/\n",
        )
    )
    try:
        result = build_image(client, task)
        listing = client.containers.run(result.tag, ["find", "/ctx"], remove=True, network_mode="none")
        assert sorted(listing.decode().split()) == ["/ctx", "/ctx/Dockerfile"]
    finally:
        _cleanup_images(client, [image_tag(task, current_base_id(client))])
