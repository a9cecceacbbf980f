"""`forge-env harness list | build`: the harness registry and its bundles."""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from envs.cli_support import console, err, progress_bar
from envs.cluster_images import build_bundle_image, push_image
from envs.docker_client import docker_client
from envs.errors import EnvsError
from harnesses.bundle import Bundle, build_bundle, find_bundle
from harnesses.errors import InstallError, UnknownHarness
from harnesses.registry import HARNESSES, all_harnesses, get_harness

harness_app = typer.Typer(
    help="Agent harnesses and their bundles.", no_args_is_help=True, add_completion=False
)


def _mb(size: int) -> str:
    return f"{size / 2**20:.0f} MB"


@harness_app.command("list")
def list_harnesses() -> None:
    """Every registered harness: version, wire API, tools, and whether its bundle is built."""
    table = Table("harness", "version", "wire API", "tools", "status", title="forge-env harness list")
    notes: list[str] = []
    for name in HARNESSES:
        try:
            harness = get_harness(name)
        except Exception as exc:  # a broken adapter must not hide the others
            table.add_row(name, "-", "-", "-", f"[red]broken[/red]: {escape(str(exc))}")
            continue
        bundle = find_bundle(harness)
        if bundle is not None:
            status = f"[green]built[/green] ({_mb(bundle.size_bytes)})"
        elif reason := harness.unavailable_reason():
            status = "[yellow]unavailable[/yellow] (see below)"
            notes.append(f"{harness.name}: {reason}")
        else:
            status = "not built"
        table.add_row(harness.name, harness.version, harness.wire_api, ", ".join(harness.tools), status)
    console.print(table)
    for note in notes:
        console.print(f"[yellow]{escape(note)}[/yellow]")


@harness_app.command("build")
def build(
    names: Annotated[
        list[str] | None, typer.Argument(help="Harness names (see `list`).", show_default=False)
    ] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every harness installable here.")] = False,
    force: Annotated[bool, typer.Option(help="Reinstall even when the bundle is built.")] = False,
    push: Annotated[
        str | None,
        typer.Option(
            "--push",
            metavar="REGISTRY",
            help="Also make each bundle an image (at /bundle, from the base image) and push it as "
            "REGISTRY/openforge/bundle:<bundle key>, for pods (`--backend k8s`), which cannot mount folders.",
        ),
    ] = None,
) -> None:
    """Install harnesses into their bundles, once: a built bundle is found again in well under a second."""
    if all_:
        chosen = [h for h in all_harnesses() if h.unavailable_reason() is None]
        skipped = [h for h in all_harnesses() if h.unavailable_reason() is not None]
        for harness in skipped:
            err.print(
                f"[yellow]skipping {harness.name}: {escape(harness.unavailable_reason() or '')}[/yellow]"
            )
    elif names:
        try:
            chosen = [get_harness(name) for name in names]
        except UnknownHarness as exc:
            err.print(f"[red]error:[/red] {escape(str(exc))}")
            raise typer.Exit(2) from exc
    else:
        err.print(f"[red]error:[/red] name harnesses ({', '.join(HARNESSES)}) or pass --all")
        raise typer.Exit(2)
    started = time.monotonic()
    built: list[Bundle] = []
    failures: list[str] = []
    with progress_bar() as progress:
        bar = progress.add_task("installing", total=len(chosen))
        for harness in chosen:
            progress.update(bar, description=f"installing {harness.name} {harness.version}")
            try:
                built.append(build_bundle(harness, force=force))
            except InstallError as exc:
                failures.append(f"{harness.name}: {exc}")
            progress.advance(bar)
    table = Table(
        "harness", "version", "bundle", "size", "result", "seconds", title="forge-env harness build"
    )
    for bundle in built:
        result = "cached" if bundle.cached else "built"
        seconds = "-" if bundle.cached else f"{bundle.build_sec:.1f}"
        table.add_row(
            bundle.harness, bundle.version, str(bundle.path), _mb(bundle.size_bytes), result, seconds
        )
    console.print(table)
    for failure in failures:
        err.print(f"[red]FAILED[/red] {escape(failure)}")
    console.print(
        f"{len(built)} bundle(s) ready, {len(failures)} failed in {time.monotonic() - started:.1f}s"
    )
    if push:
        failures += _push_bundles(built, push)
    if failures:
        raise typer.Exit(1)


def _push_bundles(built: list[Bundle], registry: str) -> list[str]:
    """Each bundle as an image, pushed; returns what failed."""
    failures: list[str] = []
    client = docker_client()
    for bundle in built:
        try:
            with console.status(f"making {bundle.harness}'s bundle an image and pushing it to {registry}"):
                remote, pushed = push_image(client, build_bundle_image(client, bundle.path), registry)
            console.print(f"{bundle.harness}: {'pushed' if pushed else 'already in the registry:'} {remote}")
        except EnvsError as exc:
            failures.append(f"{bundle.harness}: {exc}")
            err.print(f"[red]FAILED[/red] {escape(failures[-1])}")
    return failures
