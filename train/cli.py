"""`forge-train`: rollouts, SFT, GRPO and pass@k / pass^k evaluation.

Planned; every command says so, and exits non-zero, until it is built.
"""

from __future__ import annotations

import typer

from envs.not_built import not_built

app = typer.Typer(
    help="Rollouts, SFT, GRPO and pass@k / pass^k evaluation. (not built yet: issue #5)",
    no_args_is_help=True,
    add_completion=False,
)
_ANY_ARGS = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command("rollout", context_settings=_ANY_ARGS)
def rollout(ctx: typer.Context) -> None:
    """Not built yet (issue #5)."""
    raise not_built("forge-train rollout", 5)


@app.command("eval", context_settings=_ANY_ARGS)
def eval(ctx: typer.Context) -> None:
    """Not built yet (issue #5)."""
    raise not_built("forge-train eval", 5)


@app.command("sft-data", context_settings=_ANY_ARGS)
def sft_data(ctx: typer.Context) -> None:
    """Not built yet (issue #5)."""
    raise not_built("forge-train sft-data", 5)


@app.command("sft", context_settings=_ANY_ARGS)
def sft(ctx: typer.Context) -> None:
    """Not built yet (issue #5)."""
    raise not_built("forge-train sft", 5)


@app.command("rl", context_settings=_ANY_ARGS)
def rl(ctx: typer.Context) -> None:
    """Not built yet (issue #5)."""
    raise not_built("forge-train rl", 5)
