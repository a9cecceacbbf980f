"""What the composed console scripts (`forge-env`, `forge-train`) share beyond envs' CLI support: the
catalog and harness options, loading tasks, building their images and the harness bundle, picking an
engine, the default run directory."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from envs.cli_support import console, fail, interruptible, progress_bar
from envs.docker_client import docker_client
from envs.errors import EnvsError
from envs.image_builder import build_image
from envs.task import Task, load_catalog
from harnesses.bundle import Bundle, build_bundle
from harnesses.errors import InstallError, UnknownHarness
from harnesses.harness import Harness
from harnesses.registry import get_harness
from proxy.engine_options import engine_options
from proxy.engines.base import Engine
from proxy.errors import ProxyError
from proxy.launch import build_engine

DEFAULT_CATALOG = Path("catalog/claw")
RUNS = Path("runs")
"""Where a command's run directory goes when none is given."""
USAGE = 2
"""The exit code of a command given something it cannot use (a bad option, a task that does not load)."""

CatalogOpt = Annotated[Path, typer.Option("--catalog", "-c", help="A catalog (or one task directory).")]
TasksOpt = Annotated[list[str], typer.Option("--task", "-t", help="Only these tasks; repeatable.")]
HarnessOpt = Annotated[str, typer.Option("--harness", "-H", help="Harness name.")]


def default_run_dir(kind: str) -> Path:
    """`runs/KIND-YYYYmmdd-HHMMSS`: a new run directory for a command given none."""
    return RUNS / f"{kind}-{datetime.now():%Y%m%d-%H%M%S}"


def quiet_libraries() -> None:
    """Our progress bars only: transformers and datasets draw their own on every load and save."""
    import datasets
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    datasets.disable_progress_bars()


def tasks_or_fail(catalog: Path, names: Sequence[str]) -> list[Task]:
    """The catalog's tasks (only `names` when given), or a usage error saying what is wrong."""
    try:
        return load_catalog(catalog, names)
    except EnvsError as exc:
        raise fail(str(exc), USAGE) from exc


def harness_or_fail(name: str) -> Harness:
    try:
        return get_harness(name)
    except UnknownHarness as exc:
        raise fail(str(exc), USAGE) from exc


def engine_or_fail(
    model: str, engine: str | None, catalogs: Sequence[Path], **options: object
) -> tuple[str, Engine]:
    """The proxy engine `--model`/`--engine` name, with its registry name (the oracle reads its
    solutions from `catalogs`)."""
    try:
        chosen = engine_options(model, engine, list(catalogs), **options)
        return chosen.engine, build_engine(chosen)
    except (ProxyError, ValidationError) as exc:
        raise fail(str(exc), USAGE) from exc


@contextmanager
def prepared(
    tasks: list[Task], harness_name: str
) -> Iterator[tuple[list[tuple[Task, str]], Harness, Bundle]]:
    """Images of every task (content-hash cached) and the harness bundle, under Ctrl-C handling."""
    harness = harness_or_fail(harness_name)
    with interruptible():
        try:
            client = docker_client()
            with progress_bar() as progress:
                bar = progress.add_task("building task images", total=len(tasks))
                images = []
                for task in tasks:
                    built = build_image(client, task)
                    if not built.ok or built.tag is None:
                        raise fail(f"task {task.name}: {built.error}", 1)
                    images.append((task, built.tag))
                    progress.advance(bar)
            with console.status(f"harness bundle {harness.name} {harness.version}"):
                bundle = build_bundle(harness)
        except (EnvsError, InstallError) as exc:
            raise fail(str(exc), 1) from exc
        yield images, harness, bundle
