"""What every OpenForge console script shares: its consoles, error printing, Ctrl-C handling, progress bar.

It lives at the bottom of the import graph (envs imports nothing of ours) so that envs' own commands, the
harness commands and the composed console scripts in `train.cli` all print, fail and stop the same way.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

from envs import cleanup

console = Console()
err = Console(stderr=True)

INTERRUPTED_EXIT = 130
"""The exit code after Ctrl-C or SIGTERM (128 + SIGINT, as shells report it)."""


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print `error: message` on stderr; raise the returned Exit to leave with `code`."""
    err.print(f"[red]error:[/red] {escape(message)}")
    return typer.Exit(code)


@contextmanager
def interruptible() -> Iterator[None]:
    """Ctrl-C or SIGTERM: stop every sandbox we started, then exit 130 (the watchdog covers a crash).

    The handler marks the process as stopping before it raises, so while the interrupt unwinds (and the
    proxy closes) a worker's rollout that fails for that reason is known to be cut short, not a result."""

    def on_signal(signum: int, frame: object) -> None:
        cleanup.begin_shutdown()
        raise KeyboardInterrupt

    previous_term = signal.signal(signal.SIGTERM, on_signal)
    # Ctrl-C only where Python's own handler is in place: a `cmd &` job that ignores SIGINT keeps ignoring it.
    catch_int = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    previous_int = signal.signal(signal.SIGINT, on_signal) if catch_int else None
    try:
        yield
    except KeyboardInterrupt:
        n = cleanup.stop_all()
        err.print(f"[yellow]interrupted: stopped {n} sandbox(es)[/yellow]")
        sys.stdout.flush()
        os._exit(INTERRUPTED_EXIT)
    finally:
        signal.signal(signal.SIGTERM, previous_term)
        if previous_int is not None:
            signal.signal(signal.SIGINT, previous_int)


def progress_bar() -> Progress:
    """The progress bar every OpenForge command draws (spinner, description, bar, count, time)."""
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )


BackendOpt = Annotated[
    str,
    typer.Option(
        "--backend",
        help="Where sandboxes run: docker (this machine's engine) or k8s (one pod per sandbox on a cluster; "
        "see docs/kubernetes.md).",
    ),
]
NamespaceOpt = Annotated[
    str | None,
    typer.Option(
        "--namespace", help="k8s: the namespace pods run in (default: $FORGE_K8S_NAMESPACE, else default)."
    ),
]
KubeconfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--kubeconfig", help="k8s: the kubeconfig file (default: $KUBECONFIG, ~/.kube/config, in-cluster)."
    ),
]
RegistryOpt = Annotated[
    str | None,
    typer.Option(
        "--registry",
        help="k8s: pods pull <REGISTRY>/<task image tag> (pushed with `forge-env build --push REGISTRY`); "
        "default: the local tags, for a cluster that has them (kind load docker-image).",
    ),
]


def use_backend(
    backend: str, namespace: str | None = None, kubeconfig: Path | None = None, registry: str | None = None
) -> str:
    """Check the backend's name, make it the process's default (every sandbox the command starts, in
    whatever layer, uses it) and, for k8s, set the cluster settings; returns the name."""
    from envs.sandbox import BACKENDS, set_default_backend

    if backend not in BACKENDS:
        raise fail(f"unknown --backend {backend!r}; known: {', '.join(sorted(BACKENDS))}")
    set_default_backend(backend)
    if backend == "k8s":
        from envs.k8s_run import configure

        configure(namespace=namespace, kubeconfig=str(kubeconfig) if kubeconfig else None, registry=registry)
    elif namespace or kubeconfig or registry:
        raise fail("--namespace, --kubeconfig and --registry are for --backend k8s")
    return backend
