"""How a command that is planned but not built yet answers: clearly, and with a non-zero exit."""

from __future__ import annotations

import typer
from rich.console import Console

NOT_BUILT_EXIT = 2
_ANY_ARGS = {"allow_extra_args": True, "ignore_unknown_options": True}


def not_built(command: str, issue: int | None = None) -> typer.Exit:
    """Say that `command` is not built yet and which issue tracks it; raise the returned Exit."""
    tracked = f"tracked in issue #{issue}" if issue else "no issue filed yet"
    Console(stderr=True).print(f"[yellow]`{command}` is not built yet ({tracked}).[/yellow]")
    return typer.Exit(NOT_BUILT_EXIT)


def add_planned(app: typer.Typer, program: str, name: str, issue: int | None = None) -> None:
    """Register `program name` as a planned command that takes any arguments and says it is not built."""
    where = f"issue #{issue}" if issue else "planned"

    def command(ctx: typer.Context) -> None:
        raise not_built(f"{program} {name}", issue)

    command.__doc__ = f"Not built yet ({where})."
    app.command(name, context_settings=_ANY_ARGS)(command)


def planned_app(program: str, help: str, commands: list[str], issue: int | None = None) -> typer.Typer:
    """A Typer app whose every command is planned but not built yet."""
    app = typer.Typer(help=f"{help.rstrip('.')} (not built yet).", no_args_is_help=True, add_completion=False)
    for name in commands:
        add_planned(app, program, name, issue)
    return app
