"""How a command that is planned but not built yet answers: clearly, and with a non-zero exit."""

from __future__ import annotations

import typer
from rich.console import Console

NOT_BUILT_EXIT = 2


def not_built(command: str, issue: int | None = None) -> typer.Exit:
    """Say that `command` is not built yet and which issue tracks it; raise the returned Exit."""
    tracked = f"tracked in issue #{issue}" if issue else "no issue filed yet"
    Console(stderr=True).print(f"[yellow]`{command}` is not built yet ({tracked}).[/yellow]")
    return typer.Exit(NOT_BUILT_EXIT)
