"""Verifier images on the real engine: a prepared image lets tests that install their runner at verify
time (as Terminal-Bench 2's do) run with no network; a separate verifier's image is built from tests/
and cached like a task image."""

from __future__ import annotations

import contextlib
import io
import tarfile
import time
import uuid
from pathlib import Path

import docker
import pytest

from envs import labels
from envs.docker_sandbox import SANDBOX_FILES, DockerSandbox
from envs.errors import BuildError
from envs.image_builder import build_image
from envs.reward import REWARD_TXT, VERIFIER_DIR
from envs.sandbox import SandboxSpec
from envs.task import Task, load_task
from envs.task_config import NetworkMode
from envs.verifier_image import (
    APT_OFFLINE_CONF,
    PREPARED_ENV,
    hash_of_tests,
    prepare_verifier_image,
    prepared_tag,
    prepared_verifier_image,
    separate_verifier_image,
    verify_options,
)
from tests.conftest import write_task

pytestmark = pytest.mark.docker

INSTALLS_TREE = """\
apt-get update
apt-get install -y --no-install-recommends tree
if tree -a /tests > /logs/verifier/tree.txt; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
"""
"""A test.sh in Terminal-Bench 2's manner: its runner (here `tree`, which the base lacks) is installed
when it runs, each step on its own line, so an install that fails offline does not stop the rest."""


def _remove_images(client: docker.DockerClient, *tags: str) -> None:
    for tag in tags:
        with contextlib.suppress(docker.errors.ImageNotFound):
            client.images.remove(tag, force=True)


def _offline_reward(image: str, task: Task, env: dict[str, str]) -> tuple[bytes | None, str, float]:
    """test.sh run as the verifier runs it, with network none: the reward.txt it wrote, its output and
    how long it took."""
    spec = SandboxSpec(image=image, network=NetworkMode.NONE, task=task.name, role="test")
    with DockerSandbox(spec) as sandbox:
        sandbox.make_dir("/tests")
        sandbox.upload(task.tests_dir, "/tests")
        sandbox.make_dir(VERIFIER_DIR)
        run = sandbox.exec(["/bin/bash", "/tests/test.sh"], timeout=60, env=env)
        return sandbox.read_file(REWARD_TXT, 1024), run.stdout + run.stderr, run.duration_sec


def test_a_prepared_image_runs_tests_that_install_their_runner_offline(
    client: docker.DockerClient, base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    task = load_task(write_task(tmp_path, f"prep-apt-{uuid.uuid4().hex[:8]}", test_sh=INSTALLS_TREE))
    image = build_image(client, task).tag
    assert image is not None
    try:
        prepared = prepare_verifier_image(task, image, client)
        assert prepared.image == f"{image}-verifier"
        assert prepared.exit_code == 0 and not prepared.timed_out, prepared.output_tail
        assert "Setting up tree" in prepared.output_tail
        assert prepared_verifier_image(task, image, client) == prepared.image
        offline = verify_options(task, image, network=False, client=client)
        assert (offline.image, offline.extra_env) == (prepared.image, PREPARED_ENV)
        online = verify_options(task, image, network=True, client=client)
        assert (online.image, online.extra_env) == (prepared.image, {}), "no offline switches with a network"

        made, source = client.images.get(prepared.image), client.images.get(image)
        assert made.id == prepared.image_id
        assert made.labels["openforge.managed"] == "true"
        assert made.labels[labels.VERIFIER_TASK_IMAGE] == source.id
        assert made.labels[labels.VERIFIER_TESTS_HASH] == hash_of_tests(task)
        assert made.labels["openforge.owner"] == "", "no dead owner's label on containers made from it"
        for key in ("Cmd", "Env", "WorkingDir", "Entrypoint"):  # no CA variable, no init, same WORKDIR
            assert made.attrs["Config"][key] == source.attrs["Config"][key], key
        assert set(made.attrs["Config"]["Volumes"] or {}) <= {SANDBOX_FILES}, "only our own bind's folder"
        layer = client.containers.create(
            prepared.image, entrypoint=["/bin/true"], labels={"openforge.managed": "true"}
        )
        try:  # read the committed filesystem itself, before any init ran in it
            bits, _ = layer.get_archive("/run")
            with tarfile.open(fileobj=io.BytesIO(b"".join(bits))) as tar:
                assert [m.name for m in tar.getmembers() if m.name.startswith("run/forge")] == []
        finally:
            layer.remove(force=True)

        spec = SandboxSpec(image=prepared.image, network=NetworkMode.NONE, task=task.name, role="test")
        with DockerSandbox(spec) as sandbox:
            assert sandbox.exec(["test", "-e", "/tests"]).exit_code == 1, "no hidden test left in it"
            left = sandbox.exec(
                ["find", VERIFIER_DIR, "/opt/forge", "-mindepth", "1", "-not", "-path", "*/sandbox*"]
            )
            assert left.stdout == f"{APT_OFFLINE_CONF}\n", "no reward file and no CA bundle left in it"
            assert sandbox.exec("command -v tree").stdout.strip() == "/usr/bin/tree"

        reward, output, seconds = _offline_reward(prepared.image, task, PREPARED_ENV)
        assert reward == b"1\n", output
        assert "tree is already the newest version" in output
        assert seconds < 4, f"apt-get update offline must not back off and retry ({seconds:.1f}s)"
        reward, output, _ = _offline_reward(image, task, PREPARED_ENV)
        assert reward == b"0\n", "without preparation the runner cannot be installed offline"
        assert "tree: command not found" in output

        with (task.tests_dir / "test.sh").open("a") as script:
            script.write("# changed\n")
        assert prepared_verifier_image(task, image, client) is None, "tests changed: the layer is stale"
        stale = verify_options(task, image, client=client)
        assert (stale.image, stale.extra_env) == (None, {})
    finally:
        _remove_images(client, f"{image}-verifier", image)


def test_a_separate_verifier_is_built_from_tests_and_cached(
    client: docker.DockerClient, base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    nonce = uuid.uuid4().hex[:8]
    path = write_task(
        tmp_path,
        f"sep-verifier-{nonce}",
        verifier='environment_mode = "separate"',
        files={"tests/Dockerfile": f"FROM {base_image}\nCOPY . /tests/\n", "tests/nonce": nonce},
    )
    task = load_task(path)
    tag = ""
    try:
        started = time.monotonic()
        tag = separate_verifier_image(task, client)
        first_sec = time.monotonic() - started
        assert tag.startswith(f"openforge/verifier-sep-verifier-{nonce}:")
        logs = list((forge_home / "build-logs" / f"verifier-sep-verifier-{nonce}").glob("*.log"))
        assert [log.name for log in logs] == [f"{tag.rsplit(':', 1)[1]}.log"], (
            "built now, logged as tasks are"
        )
        image = client.images.get(tag)
        assert image.labels["openforge.managed"] == "true"
        spec = SandboxSpec(image=tag, network=NetworkMode.NONE, task=task.name, role="test")
        with DockerSandbox(spec) as sandbox:
            assert sandbox.read_file("/tests/nonce", 100) == nonce.encode()

        logged = logs[0].stat().st_mtime_ns
        started = time.monotonic()
        assert separate_verifier_image(task, client) == tag
        second_sec = time.monotonic() - started
        assert client.images.get(tag).id == image.id
        assert logs[0].stat().st_mtime_ns == logged, "not built again"
        assert verify_options(task, "openforge/task-unused:0", client=client).image == tag
        assert second_sec < 1.0 and second_sec < first_sec, (first_sec, second_sec)
    finally:
        if tag:
            _remove_images(client, tag)


def test_a_verifier_docker_image_is_used_as_it_is(tmp_path: Path) -> None:
    prebuilt = write_task(
        tmp_path, "sep-prebuilt", verifier='[verifier.environment]\ndocker_image = "example/verifier:1"'
    )
    assert separate_verifier_image(load_task(prebuilt)) == "example/verifier:1"
    with pytest.raises(BuildError, match="no separate verifier"):
        separate_verifier_image(load_task(write_task(tmp_path, "shared-verifier")))


def test_tests_in_the_agents_sandbox_get_no_verifier_image(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path, "in-agent", verifier='sandbox = "agent"'))
    options = verify_options(task, "openforge/task-in-agent:0")
    assert (options.image, options.extra_env) == (None, {})


def test_the_prepared_tag_extends_the_images_own() -> None:
    assert prepared_tag("openforge/task-x:0123abcd") == "openforge/task-x:0123abcd-verifier"
    assert prepared_tag("localhost:5000/team/img") == "localhost:5000/team/img:latest-verifier"
    assert prepared_tag("img@sha256:" + "ab" * 32) == "img:abababababababab-verifier"


def _prepared_steps_task(root: Path, name: str) -> Path:
    """Two steps: `first` brings its own tests (and a file only it has), `second` runs the task's tests/
    with its own env; each test.sh leaves a trace in the image, as an installer would."""
    toml = f"""
    [task]
    name = "{name}"
    [agent]
    timeout_sec = 60
    [environment]
    workdir = "/app"
    [[steps]]
    name = "first"
    [[steps]]
    name = "second"
    [steps.verifier]
    env = {{ LEVEL = "2" }}
    """
    trace = "mkdir -p /opt/prep && echo {what} >> /opt/prep/ran; echo 0 > /logs/verifier/reward.txt\n"
    return write_task(
        root,
        name,
        toml=toml,
        test_sh="test -e /tests/only-first && echo leaked >> /opt/prep/ran\n"
        + trace.format(what="second:$LEVEL"),
        files={
            "steps/first/instruction.md": "Make the first file.\n",
            "steps/first/tests/test.sh": "#!/bin/bash\n" + trace.format(what="first"),
            "steps/first/tests/only-first": "x\n",
            "steps/second/instruction.md": "Now the second.\n",
        },
    )


def test_the_tests_hash_covers_each_steps_tests_and_settings(tmp_path: Path) -> None:
    """A prepared layer of a multi-step task is stale when any step's tests or their settings change."""
    path = _prepared_steps_task(tmp_path, "steps-hash")
    before = hash_of_tests(load_task(path))
    (path / "steps" / "first" / "tests" / "only-first").write_text("y\n")
    after_tests = hash_of_tests(load_task(path))
    toml = path / "task.toml"
    toml.write_text(toml.read_text().replace('LEVEL = "2"', 'LEVEL = "3"'))
    after_env = hash_of_tests(load_task(path))
    assert len({before, after_tests, after_env}) == 3


def test_a_multi_step_tasks_tests_are_prepared_step_by_step(
    client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    """Each step's verification puts its own tests together; preparation runs each of them, in order,
    with the step's env, on a /tests that holds nothing of the step before (it once ran only tests/)."""
    task = load_task(_prepared_steps_task(tmp_path, f"steps-prep-{uuid.uuid4().hex[:8]}"))
    built = build_image(client, task)
    assert built.ok and built.tag, built.error
    image = built.tag
    try:
        prepared = prepare_verifier_image(task, image, client)
        assert prepared.exit_code == 0 and not prepared.timed_out, prepared.output_tail
        assert prepared_verifier_image(task, image, client) == prepared.image
        spec = SandboxSpec(image=prepared.image, network=NetworkMode.NONE, task=task.name, role="test")
        with DockerSandbox(spec) as sandbox:
            assert sandbox.read_file("/opt/prep/ran", 1024) == b"first\nsecond:2\n"
            assert sandbox.exec(["test", "-e", "/tests"]).exit_code != 0, "no tests left in the layer"
    finally:
        _remove_images(client, f"{image}-verifier", image)
