"""envs' own commands of `forge-env`: check, base, build, verify and clean up task environments.

The console script also has `harness` and `run`, which need the harness registry and the proxy; envs
imports neither, so `train.cli.env` composes the full command from this app and those.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, TypeVar

import docker
import typer
from rich.markup import escape
from rich.table import Table

from envs.base_image import BaseRecipe, build_base_image
from envs.browser_record import actions_path, record_actions
from envs.cli_support import (
    BackendOpt,
    KubeconfigOpt,
    NamespaceOpt,
    RegistryOpt,
    console,
    err,
    fail,
    interruptible,
    progress_bar,
    use_backend,
)
from envs.cluster_images import push_image
from envs.docker_client import docker_client, relay_root
from envs.engine_limits import EngineLimits, engine_limits
from envs.errors import EnvsError
from envs.gate import VERIFIED_FILE, VerificationRecord, forgery_reason, verify_tasks
from envs.image_builder import BuildResult, build_images
from envs.reaper import remove_containers, remove_relay_folders
from envs.task import Problem, Task, find_task_dirs, inspect_task, is_task_dir, resolve_task_dirs
from envs.verifier_image import prepare_verifier_image, prepared_verifier_image, separate_verifier_image

app = typer.Typer(
    help="Task environments: check, build, verify, clean up.",
    no_args_is_help=True,
    add_completion=False,
)
T = TypeVar("T")

TaskArgs = Annotated[
    list[Path] | None, typer.Argument(help="Task directories (or catalogs).", show_default=False)
]
CatalogOpt = Annotated[Path | None, typer.Option("--catalog", "-c", help="Every task below this directory.")]
DEFAULT_JOBS = os.cpu_count() or 2
JobsOpt = Annotated[
    int, typer.Option("--jobs", "-j", min=1, help="Tasks handled in parallel (default: CPU count).")
]


def _limits_note(limits: EngineLimits | None) -> str:
    if limits is None:
        return "Docker engine not reachable: CPUs and memory checked against the static bounds only"
    return f"engine limits: {limits.cpus:g} CPUs, {limits.memory_mb} MiB"


@dataclass
class _Loaded:
    """The tasks of a build/verify run: those that loaded, and each bad one with its errors."""

    tasks: list[Task] = field(default_factory=list)
    bad: list[tuple[str, list[Problem]]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.tasks) + len(self.bad)


def _load_tasks(paths: list[Path] | None, catalog: Path | None) -> _Loaded:
    """Every task that loads, plus the bad ones (their problems printed): one bad task must not stop
    a catalog, but the run still fails at the end."""
    try:
        dirs = resolve_task_dirs(paths or [], catalog)
    except EnvsError as exc:
        raise fail(str(exc), 2) from exc
    if not dirs:
        raise fail("no tasks given (pass task directories or --catalog DIR)", 2)
    limits = engine_limits()
    loaded = _Loaded()
    for d in dirs:
        task, found = inspect_task(d, limits)
        errors = [p for p in found if p.severity == "error"]
        if task is not None:
            loaded.tasks.append(task)
        else:
            loaded.bad.append((errors[0].task if errors else d.name, errors))
        for p in errors:
            err.print(f"[red]{escape(str(p))}[/red]")
    if loaded.bad:
        names = ", ".join(name for name, _ in loaded.bad)
        rest = f"running the other {len(loaded.tasks)}" if loaded.tasks else "no other task to run"
        err.print(f"[red]{len(loaded.bad)} task(s) not run, problems above: {escape(names)}[/red]; {rest}")
    return loaded


def _over_tasks(label: str, total: int, work: Callable[[docker.DockerClient, Callable[[str], None]], T]) -> T:
    """Run `work(client, advance)` under a progress bar, stopping every sandbox on Ctrl-C / SIGTERM."""
    with interruptible():
        try:
            client = docker_client()
        except EnvsError as exc:
            raise fail(str(exc)) from exc
        with progress_bar() as progress:
            bar = progress.add_task(label, total=total)

            def advance(name: str) -> None:
                progress.update(bar, advance=1, description=f"{label} (last: {name})")

            return work(client, advance)


@app.command()
def check(path: Annotated[Path, typer.Argument(help="A task directory or a catalog.")]) -> None:
    """Lint a task or a whole catalog and list every problem, not just the first."""
    try:
        dirs = resolve_task_dirs([path], None)
    except EnvsError as exc:
        raise fail(str(exc), 2) from exc
    limits = engine_limits()
    problems: list[Problem] = []
    for d in dirs:
        problems.extend(inspect_task(d, limits)[1])
    errors = [p for p in problems if p.severity == "error"]
    for p in problems:
        style = "red" if p.severity == "error" else "yellow"
        console.print(f"[{style}]{p.severity}[/{style}] {escape(str(p))}")
    console.print(
        f"{len(dirs)} task(s) checked: {len(errors)} error(s), {len(problems) - len(errors)} warning(s) "
        f"({_limits_note(limits)})"
    )
    if errors:
        raise typer.Exit(1)


@app.command()
def base(
    from_image: Annotated[
        str | None, typer.Option("--from", help="Build on this pulled image instead.")
    ] = None,
    force: Annotated[bool, typer.Option(help="Rebuild even if the tag exists.")] = False,
) -> None:
    """Build the base image from Debian packages (debootstrap + docker import), tagged by its recipe."""
    recipe = BaseRecipe(from_image=from_image)
    started = time.monotonic()
    try:
        client = docker_client()
        with console.status(f"building {recipe.tag} (debootstrap takes a minute or two)"):
            tag, built = build_base_image(client, recipe, force=force)
    except EnvsError as exc:
        raise fail(str(exc)) from exc
    took = time.monotonic() - started
    console.print(
        f"{tag} {'built' if built else 'already present'} ({took:.1f}s); also tagged openforge/base:latest"
    )


VerifierNetworkOpt = Annotated[
    bool,
    typer.Option(
        "--verifier-network",
        help="Let the tests have the network their task declares (Harbor's network_mode / allow_internet; "
        "public when unset): the host's network, in a fresh verifier sandbox with no agent process. "
        "Off by default: verification has no network.",
    ),
]


@app.command()
def build(
    tasks: TaskArgs = None,
    catalog: CatalogOpt = None,
    jobs: JobsOpt = DEFAULT_JOBS,
    force: Annotated[bool, typer.Option(help="Rebuild even when the content hash is unchanged.")] = False,
    prepare_verifier: Annotated[
        bool,
        typer.Option(
            "--prepare-verifier",
            help="Also run each task's tests once, with the host's network (for package registries) and no "
            "agent, and keep what they install as a verifier layer: a test.sh that installs its runner "
            "(apt, uv, pip) then verifies offline. Redone only when the image or the tests change.",
        ),
    ] = False,
    push: Annotated[
        str | None,
        typer.Option(
            "--push",
            metavar="REGISTRY",
            help="Also push each image as REGISTRY/<tag> for a cluster (--backend k8s --registry REGISTRY): "
            "an image the registry holds under its content-hash tag is not pushed again.",
        ),
    ] = None,
) -> None:
    """Build task images (content-hash tagged: unchanged tasks are never rebuilt). With no task and no
    --catalog: the task in the current directory, else every catalog under ./catalog."""
    if not tasks and catalog is None:
        tasks = [_default_build_target()]
    catalog_tasks = _load_tasks(tasks, catalog)
    loaded = catalog_tasks.tasks
    started = time.monotonic()
    results: list[BuildResult] = (
        _over_tasks(
            "building",
            len(loaded),
            lambda client, advance: build_images(
                client, loaded, jobs=jobs, force=force, on_done=lambda r: advance(r.task)
            ),
        )
        if loaded
        else []
    )
    table = Table("task", "image", "result", "seconds", title="forge-env build")
    for r in results:
        outcome = "[red]FAILED[/red]" if not r.ok else ("built" if r.built else "cached")
        table.add_row(r.task, r.tag or "-", outcome, f"{r.seconds:.1f}")
    for name, _ in catalog_tasks.bad:
        table.add_row(escape(name), "-", "[red]FAILED (invalid task)[/red]", "-")
    console.print(table)
    for r in results:
        if not r.ok:
            err.print(f"[red]{escape(r.error or '')}[/red]")
    if push:
        failed_pushes = _push(results, push)
        if failed_pushes:
            raise typer.Exit(1)
    if prepare_verifier:
        by_name = {task.name: task for task in loaded}
        for r in results:
            if r.ok and r.tag is not None:
                _prepare_verifier(by_name[r.task], r.tag)
    invalid = len(catalog_tasks.bad)
    failed = sum(not r.ok for r in results) + invalid
    built = sum(r.built for r in results)
    console.print(
        f"{catalog_tasks.total} task(s): {built} built, {catalog_tasks.total - built - failed} cached, "
        f"{failed} failed{f' ({invalid} invalid)' if invalid else ''} in {time.monotonic() - started:.1f}s"
    )
    if failed:
        raise typer.Exit(1)


def _default_build_target() -> Path:
    """What a bare `forge-env build` builds, said before it starts: the task here, or ./catalog whole."""
    here = Path(".")
    if is_task_dir(here):
        console.print(f"no task given: building the task in the current directory ({Path.cwd().name})")
        return here
    shelf = Path("catalog")
    found = find_task_dirs(shelf) if shelf.is_dir() else []
    if not found:
        raise fail(
            "no task given, no task.toml in the current directory and no catalog under ./catalog: "
            "pass task directories or --catalog DIR",
            2,
        )
    counts: dict[str, int] = {}
    for d in found:
        name = d.relative_to(shelf).parts[0]
        counts[name] = counts.get(name, 0) + 1
    listed = ", ".join(f"{name} ({n})" for name, n in sorted(counts.items()))
    console.print(f"no task given and none here: building every catalog under ./catalog: {listed}")
    return shelf


@app.command()
def record(tasks: TaskArgs = None, catalog: CatalogOpt = None) -> None:
    """Record browser tasks' action scripts: each click's and field's viewport point, from its selector,
    replayed in the task's image (solution/actions.json is rewritten)."""
    catalog_tasks = _load_tasks(tasks, catalog)
    browser = [t for t in catalog_tasks.tasks if actions_path(t).is_file()]
    if not browser:
        raise fail("no task with a solution/actions.json (a browser task's action script) was given")

    def work(client: docker.DockerClient, advance: Callable[[str], None]) -> list[str]:
        failed: list[str] = []
        for task in browser:
            result = build_images(client, [task])[0]
            try:
                if not result.ok or result.tag is None:
                    raise EnvsError(f"{task.name}: its image did not build: {result.error}")
                steps = record_actions(client, task, result.tag)
                console.print(f"{task.name}: recorded {sum('x' in s for s in steps)} point(s)")
            except EnvsError as exc:
                err.print(f"[red]{escape(str(exc))}[/red]")
                failed.append(task.name)
            advance(task.name)
        return failed

    failed = _over_tasks("recording", len(browser), work)
    if failed:
        raise typer.Exit(1)


def _push(results: list[BuildResult], registry: str) -> int:
    """Push every built image to `registry`; returns how many failed (each said)."""
    failed = 0
    client = docker_client()
    for r in results:
        if not r.ok or r.tag is None:
            continue
        try:
            with console.status(f"pushing {r.tag} to {registry}"):
                remote, pushed = push_image(client, r.tag, registry)
            console.print(f"{r.task}: {'pushed' if pushed else 'already in the registry:'} {remote}")
        except EnvsError as exc:
            err.print(f"[red]{escape(f'{r.task}: {exc}')}[/red]")
            failed += 1
    return failed


def _prepare_verifier(task: Task, tag: str) -> None:
    """One task's prepared verifier layer, reused while it is current; its tests' exit code is only
    reported (no solution was applied, so they are expected to fail)."""
    try:
        base = separate_verifier_image(task) if task.separate_verifier else tag
        current = prepared_verifier_image(task, base)
        if current is not None:
            console.print(f"{task.name}: verifier layer {current} is current")
            return
        with console.status(f"preparing the verifier layer of {task.name} (its tests, with the network)"):
            prepared = prepare_verifier_image(task, base)
    except EnvsError as exc:
        err.print(f"[red]{escape(f'{task.name}: the verifier layer could not be prepared: {exc}')}[/red]")
        raise typer.Exit(1) from exc
    console.print(
        f"{task.name}: verifier layer {prepared.image} prepared in {prepared.duration_sec:.1f}s "
        f"(the tests exited {prepared.exit_code}{', timed out' if prepared.timed_out else ''}; expected: "
        "no solution was applied)"
    )


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def _forgeries(record: VerificationRecord) -> str:
    """`6/6 held`, or the attacks that got something."""
    if record.stopped_at is not None:
        return f"not run (the {record.stopped_at} failed)"
    if not record.forgeries:
        return "skipped"
    low = record.reward_range[0]
    failed = [f.attack or "?" for f in record.forgeries if forgery_reason(f, low) is not None]
    if not failed:
        return f"{len(record.forgeries)}/{len(record.forgeries)} held"
    return "[red]" + escape(", ".join(failed)) + "[/red]"


@app.command()
def verify(
    tasks: TaskArgs = None,
    catalog: CatalogOpt = None,
    runs: Annotated[
        int, typer.Option("--runs", "-n", min=1, help="Oracle runs per task; each must score the top.")
    ] = 2,
    jobs: JobsOpt = DEFAULT_JOBS,
    no_forgery: Annotated[
        bool, typer.Option("--no-forgery", help="Skip the forgery stage (the built-in attacks).")
    ] = False,
    verifier_network: VerifierNetworkOpt = False,
    backend: BackendOpt = "docker",
    namespace: NamespaceOpt = None,
    kubeconfig: KubeconfigOpt = None,
    registry: RegistryOpt = None,
) -> None:
    """The gate: the solution scores the top of the reward range every run, doing nothing and every
    built-in forgery score the bottom, no hidden file is in the image."""
    backend = use_backend(backend, namespace, kubeconfig, registry)
    catalog_tasks = _load_tasks(tasks, catalog)
    loaded = catalog_tasks.tasks
    started = time.monotonic()
    records: list[VerificationRecord] = (
        _over_tasks(
            "verifying",
            len(loaded),
            lambda client, advance: verify_tasks(
                client,
                loaded,
                runs=runs,
                jobs=jobs,
                on_done=lambda r: advance(r.task),
                forgery=not no_forgery,
                verifier_network=verifier_network,
                backend=backend,
            ),
        )
        if loaded
        else []
    )
    table = Table(
        "task", "oracle rewards", "nop", "forgeries", "leaks", "seconds", "verified", title="forge-env verify"
    )
    for r in records:
        table.add_row(
            r.task,
            " ".join(_fmt(x) for x in r.oracle_rewards) or "-",
            _fmt(r.nop.reward if r.nop else None),
            _forgeries(r),
            str(len(r.leaks)),
            f"{r.duration_sec:.1f}",
            "[green]yes[/green]" if r.verified else "[red]NO[/red]",
        )
    for name, _ in catalog_tasks.bad:
        table.add_row(escape(name), "-", "-", "-", "-", "-", "[red]NO (invalid task)[/red]")
    console.print(table)
    for r in records:
        for reason in r.reasons:
            err.print(f"[red]{escape(f'{r.task}: {reason}')}[/red]")
    for name, problems in catalog_tasks.bad:
        why = f"{name}: invalid task, not run ({len(problems)} problem(s) listed above)"
        err.print(f"[red]{escape(why)}[/red]")
    good = sum(r.verified for r in records)
    console.print(
        f"{good}/{catalog_tasks.total} task(s) verified in {time.monotonic() - started:.1f}s; "
        f"records in <task>/{VERIFIED_FILE}"
    )
    if good < catalog_tasks.total:
        raise typer.Exit(1)


@app.command()
def gc(
    all_owners: Annotated[
        bool, typer.Option("--all", help="Also remove containers of processes still running.")
    ] = False,
    images: Annotated[
        bool, typer.Option("--images", help="Also remove task images (openforge/task-*).")
    ] = False,
    task: Annotated[str | None, typer.Option("--task", help="Only containers of this task.")] = None,
    backend: BackendOpt = "docker",
    namespace: NamespaceOpt = None,
    kubeconfig: KubeconfigOpt = None,
    run: Annotated[
        str | None, typer.Option("--run", help="k8s: only the pods of this run (openforge.run label).")
    ] = None,
    driver: Annotated[
        str | None,
        typer.Option("--driver", help="k8s: every object of one driver process (openforge.driver label)."),
    ] = None,
) -> None:
    """Remove leftover OpenForge containers (those whose owner process is gone, or all with --all); with
    --backend k8s, the pods, network policies and run parents labelled ours (--run, --driver or --all)."""
    if use_backend(backend, namespace, kubeconfig) == "k8s":
        _gc_k8s(run, driver, all_owners)
        return
    if run or driver:
        raise fail("--run and --driver are for --backend k8s")
    try:
        client = docker_client()
    except EnvsError as exc:
        raise fail(str(exc)) from exc
    removed = remove_containers(client, include_live_owners=all_owners, task=task)
    remove_relay_folders(relay_root())
    console.print(f"removed {len(removed)} container(s)" + (f": {', '.join(removed)}" if removed else ""))
    if images:
        count = 0
        for image in client.images.list(filters={"label": "openforge.managed=true"}):
            for tag in image.tags:
                client.images.remove(tag, noprune=False)
                count += 1
        console.print(f"removed {count} task image tag(s)")


def _gc_k8s(run: str | None, driver: str | None, include_all: bool) -> None:
    from envs.k8s_reaper import remove_objects
    from envs.k8s_run import settings

    if not (run or driver or include_all):
        raise fail("say what to remove on the cluster: --run ID, --driver ID or --all")
    try:
        removed = remove_objects(settings(), run=run, driver=driver, include_all=include_all)
    except EnvsError as exc:
        raise fail(str(exc)) from exc
    for kind, names in removed.items():
        console.print(f"removed {len(names)} {kind}" + (f": {', '.join(names)}" if names else ""))
