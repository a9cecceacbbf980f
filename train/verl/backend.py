"""The veRL path's entry point: write the dataset and the trainer config, then run veRL's trainer.

    python -m train.verl.backend prepare --catalog catalog/claw --run-dir runs/verl-claw
    python -m train.verl.backend launch  --catalog catalog/claw --run-dir runs/verl-claw
    python -m train.verl.backend sft-prepare --data runs/sft-data/dataset --run-dir runs/verl-sft
    python -m train.verl.backend sft-launch  --data runs/sft-data/dataset --run-dir runs/verl-sft

`prepare` works anywhere veRL imports (no GPU): it writes `<run_dir>/tasks.parquet` and
`<run_dir>/openforge_grpo.yaml` (checked by veRL's own validators) and prints the command that trains
with it. `launch` does the same and then runs veRL's v1 PPO trainer in this process (Ray, FSDP, vLLM):
it needs the GPUs the recipe names. `--set KEY=VALUE` passes any veRL override through (it wins over
the recipe). `sft-prepare`/`sft-launch` do the same for SFT on `forge-train sft-data`'s teacher
trajectories with veRL's SFT trainer (`train.verl.sft`), run by torchrun. See docs/training-verl.md.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from envs.errors import EnvsError

if TYPE_CHECKING:
    from train.verl.sft import VerlSFTRecipe

DOC = "docs/training-verl.md"
VERL_MODULES = ("verl", "ray", "tensordict", "hydra", "omegaconf", "transfer_queue")
"""What the veRL path imports on top of OpenForge's own dependencies."""


def verl_unavailable_reason() -> str | None:
    """Why veRL cannot be used here (a missing package), or None."""
    missing = [name for name in VERL_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        return (
            f"veRL's packages are not installed ({', '.join(missing)} missing): install them with "
            "`pip install -e '.[verl]'` then `pip install --no-deps verl==0.9.1 TransferQueue==0.1.11`"
        )
    return None


def _require_verl() -> None:
    """Every command composes veRL's own configs: without veRL's packages, say how to get them (exit 2)."""
    if (reason := verl_unavailable_reason()) is not None:
        typer.echo(f"error: {reason} (see {DOC})", err=True)
        raise typer.Exit(2)


def gpu_count() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def prepare(
    catalog: Path,
    run_dir: Path,
    *,
    tasks: list[str] | None = None,
    overrides: list[str] | None = None,
    **recipe_fields: Any,
) -> tuple[Path, Any]:
    """Write the dataset and the validated config; returns (config file, config)."""
    from envs.task import load_catalog
    from train.verl.config import VerlRecipe, build_verl_config, save_verl_config, validate_verl_config
    from train.verl.data import write_task_dataset

    recipe = VerlRecipe(catalog=catalog, run_dir=run_dir, **recipe_fields)
    found = load_catalog(catalog, tasks or ())
    config = build_verl_config(recipe, overrides or [])
    validate_verl_config(config)
    write_task_dataset(found, recipe.dataset_path, min_tasks=int(config.data.train_batch_size))
    return save_verl_config(config, recipe.run_dir.resolve()), config


def launch(config: Any) -> None:
    """Run veRL's v1 PPO trainer on this config (what `python -m verl.trainer.main_ppo` does)."""
    from verl.trainer.main_ppo import TaskRunnerV1, run_ppo

    wanted = int(config.trainer.n_gpus_per_node)
    if (found := gpu_count()) < wanted:
        raise RuntimeError(
            f"the recipe trains on {wanted} GPUs per node and this machine has {found}; run `launch` on "
            f"the GPU node (see {DOC}), or on CPU `forge-train rl` (the local trainer)"
        )
    run_ppo(config, task_runner_class=TaskRunnerV1)


app = typer.Typer(help="OpenForge GRPO on veRL.", no_args_is_help=True, add_completion=False)


def _common(
    catalog: Path,
    run_dir: Path,
    task: list[str],
    harness: str,
    model: str,
    tasks_per_step: int,
    group_size: int,
    steps: int,
    gpus: int,
    nnodes: int,
    engine: str,
    max_turns: int,
    set_: list[str],
) -> tuple[Path, Any]:
    from pydantic import ValidationError

    from train.settings_errors import describe_problems
    from train.verl.config import VerlConfigError

    _require_verl()
    try:
        return prepare(
            catalog,
            run_dir,
            tasks=task,
            overrides=set_,
            harness=harness,
            model_path=model,
            tasks_per_step=tasks_per_step,
            group_size=group_size,
            steps=steps,
            n_gpus_per_node=gpus,
            nnodes=nnodes,
            rollout_engine=engine,
            max_turns=max_turns,
        )
    except ValidationError as exc:
        typer.echo(f"error: bad recipe: {describe_problems(exc)}", err=True)
        raise typer.Exit(2) from exc
    except (VerlConfigError, ValueError, EnvsError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


CatalogOpt = Annotated[Path, typer.Option("--catalog", "-c", help="Task catalog (or one task).")]
RunDirOpt = Annotated[Path, typer.Option("--run-dir", help="Where the dataset, config and logs go.")]
TaskOpt = Annotated[list[str], typer.Option("--task", "-t", help="Only these tasks; repeatable.")]
SetOpt = Annotated[list[str], typer.Option("--set", help="Raw veRL override KEY=VALUE; repeatable.")]


def _recipe_command(then_launch: bool) -> Callable[..., None]:
    """`prepare` and `launch` take the same recipe options; one signature serves both."""

    def command(
        catalog: CatalogOpt,
        run_dir: RunDirOpt,
        task: TaskOpt = [],  # noqa: B006
        harness: str = "forge-react",
        model: str = "Qwen/Qwen3-30B-A3B",
        tasks_per_step: int = 8,
        group_size: int = 8,
        steps: int = 100,
        gpus: int = 8,
        nnodes: int = 1,
        engine: str = "vllm",
        max_turns: int = 8,
        set_: SetOpt = [],  # noqa: B006
    ) -> None:
        path, config = _common(
            catalog, run_dir, task, harness, model, tasks_per_step, group_size, steps, gpus, nnodes, engine,
            max_turns, set_,
        )  # fmt: skip
        typer.echo(f"wrote {path}")
        main_ppo = f"python -m verl.trainer.main_ppo --config-path {path.parent} --config-name {path.stem}"
        _print_or_start(main_ppo, (lambda: launch(config)) if then_launch else None)

    return command


def _print_or_start(train_command: str, start: Callable[[], None] | None) -> None:
    """`prepare` prints the training command; `launch` starts training (exit 1 if it cannot)."""
    if start is None:
        typer.echo(f"train: {train_command}")
        return
    try:
        start()
    except RuntimeError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc


app.command("prepare", help="Write the dataset and the veRL config; print the training command.")(
    _recipe_command(then_launch=False)
)
app.command("launch", help="Prepare, then train with veRL on this node's GPUs.")(
    _recipe_command(then_launch=True)
)


def launch_sft(recipe: VerlSFTRecipe, config_path: Path) -> None:
    """Replace this process with torchrun running veRL's SFT trainer (one process a GPU)."""
    if recipe.nnodes > 1:
        command = recipe.command(config_path)
        raise RuntimeError(f"a {recipe.nnodes}-node run starts torchrun on every node: run there `{command}`")
    if (found := gpu_count()) < recipe.n_gpus_per_node:
        raise RuntimeError(
            f"the recipe trains on {recipe.n_gpus_per_node} GPUs and this machine has {found}; run "
            f"`sft-launch` on the GPU node (see {DOC}), or on CPU `forge-train sft` (the local trainer)"
        )
    args = recipe.torchrun_args(config_path)
    os.execv(sys.executable, [sys.executable, "-m", "torch.distributed.run", *args])


def _sft_command(then_launch: bool) -> Callable[..., None]:
    """`sft-prepare` and `sft-launch` take the same recipe options; one signature serves both."""

    def command(
        data: Annotated[Path, typer.Option("--data", help="A dataset written by `forge-train sft-data`.")],
        run_dir: RunDirOpt,
        model: str = "Qwen/Qwen3-30B-A3B",
        form: Annotated[
            str, typer.Option(help="tokens: the recorded token ids; chat: re-templated conversations.")
        ] = "tokens",
        epochs: int = 3,
        lr: float = 1e-5,
        batch_size: Annotated[int, typer.Option(help="Sequences per optimiser step, all GPUs.")] = 16,
        max_length: int = 32768,
        gpus: int = 8,
        nnodes: int = 1,
        set_: SetOpt = [],  # noqa: B006
    ) -> None:
        from pydantic import ValidationError

        from train.settings_errors import describe_problems
        from train.verl.config import VerlConfigError
        from train.verl.sft import VerlSFTRecipe, prepare_sft
        from train.verl.sft_data import SFTDataError

        _require_verl()
        try:
            recipe = VerlSFTRecipe.model_validate(
                {
                    "dataset": data, "run_dir": run_dir, "model_path": model, "form": form, "epochs": epochs,
                    "lr": lr, "batch_size": batch_size, "max_length": max_length, "n_gpus_per_node": gpus,
                    "nnodes": nnodes,
                }
            )  # fmt: skip
            path, _ = prepare_sft(recipe, set_)
        except ValidationError as exc:
            typer.echo(f"error: bad SFT recipe: {describe_problems(exc)}", err=True)
            raise typer.Exit(2) from exc
        except (VerlConfigError, SFTDataError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from exc
        typer.echo(f"wrote {path} and {recipe.parquet_path}")
        _print_or_start(recipe.command(path), (lambda: launch_sft(recipe, path)) if then_launch else None)

    return command


app.command("sft-prepare", help="Write the SFT parquet and veRL SFT config; print the torchrun command.")(
    _sft_command(then_launch=False)
)
app.command("sft-launch", help="Prepare SFT, then run veRL's SFT trainer on this node's GPUs.")(
    _sft_command(then_launch=True)
)


if __name__ == "__main__":
    app()
