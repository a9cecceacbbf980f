"""`forge-proxy`: the recording model proxy and its engines.

Planned; every command says so, and exits non-zero, until it is built.
"""

from __future__ import annotations

import typer

from envs.not_built import not_built

app = typer.Typer(
    help="The recording model proxy and its engines. (not built yet: issue #3)",
    no_args_is_help=True,
    add_completion=False,
)
_ANY_ARGS = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command("serve", context_settings=_ANY_ARGS)
def serve(ctx: typer.Context) -> None:
    """Not built yet (issue #3)."""
    raise not_built("forge-proxy serve", 3)


@app.command("engine", context_settings=_ANY_ARGS)
def engine(ctx: typer.Context) -> None:
    """Not built yet (issue #3)."""
    raise not_built("forge-proxy engine", 3)


@app.command("init-model", context_settings=_ANY_ARGS)
def init_model(ctx: typer.Context) -> None:
    """Not built yet (issue #3)."""
    raise not_built("forge-proxy init-model", 3)


@app.command("export", context_settings=_ANY_ARGS)
def export(ctx: typer.Context) -> None:
    """Not built yet (issue #3)."""
    raise not_built("forge-proxy export", 3)
