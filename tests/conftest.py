"""Shared fixtures. Docker tests use the real engine and the real base image, never a mock."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest
from docker.models.containers import Container

from envs import cleanup, labels
from envs.base_image import build_base_image
from envs.docker_client import docker_client
from envs.reaper import owner_alive
from harnesses.bundle import Bundle, build_bundle, find_bundle
from harnesses.harness import Harness
from proxy.cpu_engine.model_init import init_model

REPO = Path(__file__).resolve().parent.parent


HARBOR_TASKS = Path(__file__).parent / "envs" / "harbor_tasks"
"""Harbor-format tasks written as Harbor users write them (see docs/harbor.md)."""
HARBOR_RUNNABLE = (
    "workdir-from-dockerfile",
    "org-name",
    "entrypoint-service",
    "multi-score",
    "multi-step",
    "separate-verifier",
)
"""Those that verify and run with no network (installs-runner needs one or a prepared layer; the compose
task is refused)."""


def sigint_default() -> None:
    """preexec_fn for a command a test interrupts with SIGINT: a shell that starts the suite in the
    background (`cmd &` without job control) makes its children ignore SIGINT, as they inherit it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


DOCKER_FIXTURES = frozenset({"client", "base_image"})
"""Fixtures that reach the Docker engine: a test using one (directly or through another fixture) is
marked `docker`, so `-m "not docker"` leaves it out without a mark written on it."""


MODULE_SECONDS = Path(__file__).parent / "module_seconds.json"
"""Seconds each test module took in a measured full run (`.ci/durations.py F --write`). Under `-n 2 --dist
loadscope --no-loadscope-reorder` (pyproject's addopts) each module runs on one worker, so its
module-scoped fixtures (images, servers, rollouts) are made once, and the modules go out in collection
order: longest first, so the two workers end together. A stale or missing figure only costs time."""


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by mark
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if DOCKER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.docker)
    seconds: dict[str, float] = json.loads(MODULE_SECONDS.read_text()) if MODULE_SECONDS.is_file() else {}
    # stable: a module's tests stay together and in their order
    items.sort(key=lambda item: -seconds.get(item.nodeid.split("::", 1)[0], 0.0))


@pytest.fixture(scope="session")
def client() -> docker.DockerClient:
    return docker_client()


@pytest.fixture(scope="session")
def base_image(client: docker.DockerClient) -> str:
    """The project's base image (built here if .ci/run has not built it already)."""
    tag, _ = build_base_image(client)
    return tag


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Every removal the engine refused past stop()'s wait, and how it ended: a slow engine is visible in
    the log even when the containers were removed in the end."""
    handed = cleanup.removals()
    if handed:
        terminalreporter.section("removals handed to the background")
        for removal in handed:
            ended = removal.outcome or "going on"
            terminalreporter.write_line(f"{removal.name}: refused ({removal.why}); {ended}")


def _engine_answers() -> bool:
    """Whether the engine's Unix socket takes a connection. docker-py leaves the socket of a failed
    connect unclosed (a ResourceWarning, an error under the suite's filters), so it is not asked at all
    where there is no engine."""
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    if not host.startswith("unix://"):
        return True
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(host.removeprefix("unix://"))
        except OSError:
            return False
    return True


@pytest.fixture(scope="session", autouse=True)
def no_container_left_behind() -> Iterator[None]:
    """After the whole suite, not one container started by it (or its children) may remain.

    Containers of other live processes (another run on the same engine) are not ours to judge.
    """
    yield
    if not _engine_answers():
        return
    cleanup.wait_for_removals(cleanup.REMOVAL_WAIT_AT_EXIT_SEC)  # as the exit does
    try:
        engine = docker.from_env()
    except docker.errors.DockerException:
        return
    with contextlib.closing(engine):  # its pooled connections, unclosed, are a ResourceWarning
        try:
            managed = engine.containers.list(
                all=True, ignore_removed=True, filters={"label": f"{labels.MANAGED}=true"}
            )
        except docker.errors.DockerException:
            return
        me = str(os.getpid())
        leftovers = [
            c
            for c in managed
            if c.labels.get(labels.OWNER, "").split(":")[1:2] == [me]
            or not owner_alive(c.labels.get(labels.OWNER, ""))
        ]
        said = [_leftover(c) for c in leftovers]
        for c in leftovers:
            c.remove(force=True)
    assert not said, "containers left behind by the suite:\n" + "\n".join(said)


def _leftover(container: Container) -> str:
    """What is known of a container left behind: its labels and state, and whether this process still had
    its sandbox (never stopped) or handed its removal to the background (and how that ended)."""
    created = int(container.labels.get(labels.CREATED, "0") or 0)
    state = container.attrs.get("State") or {}
    live = [s for s in cleanup.live_sandboxes() if getattr(s, "name", None) == container.name]
    handed = [r for r in cleanup.removals() if r.name == container.name]
    tags = container.labels
    return (
        f"{container.name}: role={tags.get(labels.ROLE)} run={tags.get(labels.RUN)!r} "
        f"harness={tags.get(labels.HARNESS)} owner={tags.get(labels.OWNER)} "
        f"created {time.time() - created:.0f}s ago; state {state.get('Status')} (pid {state.get('Pid')}, "
        f"error {state.get('Error')!r}); "
        + ("its sandbox was never stopped; " if live else "")
        + (f"removal handed to the background: {handed}" if handed else "no background removal")
    )


@pytest.fixture
def forge_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "forge-home"
    monkeypatch.setenv("FORGE_HOME", str(home))
    return home


def write_task(
    root: Path,
    name: str,
    *,
    dockerfile: str = "ARG FORGE_BASE=openforge/base:latest\nFROM ${FORGE_BASE}\nWORKDIR /app\n",
    test_sh: str = "if [ -f /app/done ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n",
    solve_sh: str | None = "echo ok > /app/done\n",
    toml: str | None = None,
    instruction: str = "Create the file /app/done.\n",
    files: dict[str, str] | None = None,
    verifier: str = "",
) -> Path:
    """Write a small task directory in the Harbor layout; `verifier` adds lines to the default
    task.toml's [verifier] section."""
    task = root / name
    (task / "environment").mkdir(parents=True)
    (task / "tests").mkdir()
    (task / "environment" / "Dockerfile").write_text(dockerfile)
    (task / "tests" / "test.sh").write_text("#!/bin/bash\n" + test_sh)
    if solve_sh is not None:
        (task / "solution").mkdir()
        (task / "solution" / "solve.sh").write_text("#!/bin/bash\n" + solve_sh)
    (task / "instruction.md").write_text(instruction)
    default_toml = textwrap.dedent(
        f"""
        [task]
        name = "{name}"
        [agent]
        timeout_sec = 60
        [verifier]
        timeout_sec = 30
        """
    )
    default_toml += (verifier.strip() + "\n" if verifier.strip() else "") + (
        '[environment]\nworkdir = "/app"\nmemory_mb = 512\n'
    )
    (task / "task.toml").write_text(textwrap.dedent(toml) if toml is not None else default_toml)
    for rel, text in (files or {}).items():
        path = task / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return task


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny `init-model` directory (vocab 2048, hidden 64, 2 layers, context 512), built once.

    Shared by the whole session: treat it as read-only and copy it before changing anything in it.
    """
    return init_model(
        tmp_path_factory.mktemp("tiny-model") / "model",
        vocab_size=2048,
        hidden_size=64,
        layers=2,
        max_position_embeddings=512,
    )


def harness_bundle(harness: Harness) -> Bundle:
    """The harness's bundle; a missing one fails under CI (its setup builds them all), else skips."""
    if harness.name == "forge-react":
        return build_bundle(harness)
    bundle = find_bundle(harness)
    if bundle is None:
        message = f"no bundle for {harness.name}: run `forge-env harness build {harness.name}`"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return bundle
