"""`forge-synth`: propose tasks from web data and asset pools, prune, hand survivors to envs/.

Planned; every command says so, and exits non-zero, until it is built.
"""

from __future__ import annotations

import typer

from envs.not_built import not_built

app = typer.Typer(
    help="Propose and prune tasks (not built yet).",
    no_args_is_help=True,
    add_completion=False,
)
_ANY_ARGS = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command("propose", context_settings=_ANY_ARGS)
def propose(ctx: typer.Context) -> None:
    """Not built yet."""
    raise not_built("forge-synth propose")


@app.command("prune", context_settings=_ANY_ARGS)
def prune(ctx: typer.Context) -> None:
    """Not built yet."""
    raise not_built("forge-synth prune")
