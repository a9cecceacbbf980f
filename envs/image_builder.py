"""Build task images with the Docker SDK, tagged by the content hash of `environment/`.

Only `environment/` is the build context, so neither `tests/` nor `solution/` can enter an image. An
unchanged task (same files, modes, build args and base) has the same tag and is never rebuilt. Builds use
the host network (no bridge exists here). Every build keeps its log; a failing build names the task and
the Dockerfile step that failed, and does not stop the others.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import docker
import docker.errors
from pydantic import BaseModel

from envs import labels
from envs.base_image import current_base_id
from envs.browser_image import BROWSER_REPOSITORY, BrowserRecipe, build_browser_image
from envs.content_hash import hash_directory
from envs.docker_client import forge_home
from envs.errors import BaseImageError, BuildError
from envs.parallel import run_parallel
from envs.task import Task


@dataclass(frozen=True)
class BuildContext:
    """What an image is built from: the task's `environment/` by default, or another folder of the task
    (a separate verifier's `tests/`, envs.verifier_image), cached the same way."""

    directory: Path
    repository: str
    prebuilt: str | None = None
    """A `docker_image` used as it is when the folder has no Dockerfile."""
    build_timeout_sec: float = 600.0

    @property
    def dockerfile(self) -> Path:
        return self.directory / "Dockerfile"


def task_context(task: Task) -> BuildContext:
    environment = task.config.environment
    return BuildContext(
        task.environment_dir, task.image_repository, environment.docker_image, environment.build_timeout_sec
    )


class BuildResult(BaseModel):
    """What happened to one task's image."""

    task: str
    tag: str | None = None
    image_id: str | None = None
    built: bool = False
    """False when an image with this content hash already existed."""
    seconds: float = 0.0
    log_path: str | None = None
    error: str | None = None
    failed_step: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def uses_forge_base(task: Task, context: BuildContext | None = None) -> bool:
    """Whether the task's Dockerfile builds on our base (and so must rebuild when the base changes)."""
    dockerfile = (context or task_context(task)).dockerfile
    return dockerfile.is_file() and "FORGE_BASE" in dockerfile.read_text(errors="replace")


def uses_forge_browser(task: Task, context: BuildContext | None = None) -> bool:
    """Whether the task's Dockerfile builds on the browser image (a browser task)."""
    dockerfile = (context or task_context(task)).dockerfile
    return dockerfile.is_file() and "FORGE_BROWSER" in dockerfile.read_text(errors="replace")


def build_args(task: Task, base_id: str, context: BuildContext | None = None) -> dict[str, str]:
    """FORGE_BASE: the base's exact id; FORGE_BROWSER: the browser image's content tag on that base."""
    args = {"FORGE_BASE": base_id} if uses_forge_base(task, context) else {}
    if uses_forge_browser(task, context):
        args["FORGE_BROWSER"] = f"{BROWSER_REPOSITORY}:{BrowserRecipe().digest(base_id)}"
    return args


def image_tag(task: Task, base_id: str, context: BuildContext | None = None) -> str:
    """`openforge/task-<name>:<hash>`; a prebuilt `[environment].docker_image` is used as it is."""
    context = context or task_context(task)
    if context.prebuilt and not context.dockerfile.is_file():
        return context.prebuilt
    digest = hash_directory(context.directory, extra=build_args(task, base_id, context))[:16]
    return f"{context.repository}:{digest}"


def _log_path(context: BuildContext, tag: str) -> Path:
    folder = forge_home() / "build-logs" / context.repository.split("/", 1)[1]
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{tag.rsplit(':', 1)[1]}.log"


def build_image(
    client: docker.DockerClient,
    task: Task,
    base_id: str | None = None,
    force: bool = False,
    on_line: Callable[[str], None] = lambda line: None,
    context: BuildContext | None = None,
) -> BuildResult:
    """Build one task's image (of `context`, default its `environment/`) unless its content-hash tag
    already exists. Raises BuildError on failure."""
    started = time.monotonic()
    context = context or task_context(task)
    browser = uses_forge_browser(task, context)
    if base_id is None and (browser or uses_forge_base(task, context)):
        try:
            base_id = current_base_id(client)
        except BaseImageError as exc:
            raise BuildError(task.name, str(exc)) from exc
    if browser:  # first, so the FROM always names an image that exists (else the engine asks a registry)
        try:
            build_browser_image(client, log=on_line, base_id=base_id)
        except BaseImageError as exc:
            raise BuildError(task.name, str(exc)) from exc
    tag = image_tag(task, base_id or "", context)
    if not force:
        try:
            image = client.images.get(tag)
        except docker.errors.ImageNotFound:
            pass
        else:
            return BuildResult(task=task.name, tag=tag, image_id=image.id, seconds=time.monotonic() - started)
    if not context.dockerfile.is_file():
        raise BuildError(task.name, f"prebuilt image {tag} is not present locally and cannot be pulled here")

    log_path = _log_path(context, tag)
    timeout = context.build_timeout_sec
    deadline = started + timeout
    step: str | None = None
    with log_path.open("w", encoding="utf-8") as log:

        def emit(line: str) -> None:
            log.write(line + "\n")
            log.flush()
            on_line(line)

        try:
            stream = client.api.build(
                path=str(context.directory),
                tag=tag,
                network_mode="host",
                rm=True,
                forcerm=True,
                buildargs=build_args(task, base_id or "", context),
                decode=True,
                timeout=int(timeout) + 5,
                labels={
                    labels.MANAGED: "true",
                    labels.TASK: task.name,
                    labels.CONTENT_HASH: tag.rsplit(":", 1)[1],
                },
            )
            for chunk in stream:
                text = chunk.get("stream", "")
                for line in text.splitlines():
                    if line.startswith("Step "):
                        step = line.strip()
                    emit(line)
                if "error" in chunk:
                    emit(f"ERROR: {chunk['error']}")
                    raise BuildError(task.name, chunk["error"].strip(), step=step, log_path=str(log_path))
                if time.monotonic() > deadline:
                    raise BuildError(
                        task.name,
                        f"timed out after {timeout:.0f}s ([environment].build_timeout_sec)",
                        step=step,
                        log_path=str(log_path),
                    )
        except docker.errors.APIError as exc:
            emit(f"ERROR: {exc}")
            raise BuildError(
                task.name, str(exc.explanation or exc), step=step, log_path=str(log_path)
            ) from exc
        except docker.errors.DockerException as exc:  # read timeouts and transport errors
            emit(f"ERROR: {exc}")
            raise BuildError(task.name, str(exc), step=step, log_path=str(log_path)) from exc
    image = client.images.get(tag)
    return BuildResult(
        task=task.name,
        tag=tag,
        image_id=image.id,
        built=True,
        seconds=time.monotonic() - started,
        log_path=str(log_path),
    )


def build_images(
    client: docker.DockerClient,
    tasks: Sequence[Task],
    jobs: int = 2,
    base_id: str | None = None,
    force: bool = False,
    on_done: Callable[[BuildResult], None] = lambda result: None,
) -> list[BuildResult]:
    """Build many images in parallel; a failure is recorded in its result and the others go on."""

    if base_id is None and any(uses_forge_base(t) or uses_forge_browser(t) for t in tasks):
        with contextlib.suppress(BaseImageError):
            base_id = current_base_id(client)  # once for all; a missing base fails each task clearly

    def one(task: Task) -> BuildResult:
        started = time.monotonic()
        try:
            return build_image(client, task, base_id=base_id, force=force)
        except BuildError as exc:
            return BuildResult(
                task=task.name,
                error=str(exc),
                failed_step=exc.step,
                log_path=exc.log_path,
                seconds=time.monotonic() - started,
            )

    return run_parallel(one, tasks, jobs, on_done)
