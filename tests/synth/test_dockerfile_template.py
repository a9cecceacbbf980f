"""The shared Dockerfile template copies every environment file, whatever its name, into the image."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import docker
import pytest

from envs.base_image import current_base_id
from envs.image_builder import build_image, image_tag
from envs.task import load_task
from synth.families.base import Draft
from synth.pools import Pools
from tests.conftest import write_task
from tests.synth.tiny_family import SumNumbers

ODD_NAMES = ["my notes.txt", "it's.csv", 'say "hi".md', "tab\there.log", "back\\slash.txt", "cost $HOME.txt"]


class OddNames(SumNumbers):
    """SumNumbers whose environment also holds files named with spaces, quotes, `\\` and `$`."""

    name = "odd-names"

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        made = super().generate(rng, pools, difficulty)
        made.files |= {f"environment/{name}": f"{name}\n" for name in ODD_NAMES}
        return made


def _dockerfile(family: SumNumbers) -> str:
    return family.draft(random.Random(3), Pools([], []), 1).files["environment/Dockerfile"]


def test_plain_names_keep_the_plain_copy_form() -> None:
    copies = [line for line in _dockerfile(SumNumbers()).splitlines() if line.startswith("COPY")]
    assert len(copies) == 1
    source = copies[0].split()[1]
    assert copies[0] == f"COPY {source} /app/{source}"


@pytest.mark.docker
def test_files_with_odd_names_are_built_into_the_image(
    client: docker.DockerClient, base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    draft = OddNames().draft(random.Random(3), Pools([], []), 1)
    env_files = {rel: text for rel, text in draft.files.items() if rel.startswith("environment/")}
    dockerfile = env_files.pop("environment/Dockerfile")
    task = load_task(write_task(tmp_path, "odd-names", dockerfile=dockerfile, files=env_files))
    tag = image_tag(task, current_base_id(client))
    try:
        build_image(client, task)
        for name in ODD_NAMES:
            out = client.containers.run(
                tag,
                ["cat", f"/app/{name}"],
                remove=True,
                network_mode="none",
                labels={"openforge.managed": "true"},
            )
            assert out.decode() == f"{name}\n"
    finally:
        with contextlib.suppress(docker.errors.ImageNotFound):
            client.images.remove(tag, force=True)
