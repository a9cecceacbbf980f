"""The veRL SFT config: fine-tune on `forge-train sft-data`'s teacher trajectories with veRL's SFT trainer.

`VerlSFTRecipe` holds the knobs (defaults: the GRPO recipe's model, Qwen3-30B-A3B, on 8 GPUs with FSDP);
`build_sft_config` composes veRL's own `sft_trainer_engine` Hydra config with the recipe as overrides
(raw veRL overrides win) and points `data.custom_cls` at `train.verl.sft_data`, so veRL trains on the
recorded tokens (or re-templates the chat form). `prepare_sft` then runs what would otherwise fail only
on the GPU node: veRL's config dataclasses and our checks of the config (`check_sft_config`: the dataset
fills a batch, the batch splits over the GPUs) and of every row (`check_sft_rows`: it fits
`data.max_length`, its token ids fit the model's tokenizer, its chat template is consistent).

The trainer itself is veRL's SPMD one: `torchrun --nproc-per-node G -m verl.trainer.sft_trainer
--config-path RUN_DIR --config-name openforge_sft`.
"""

from __future__ import annotations

import contextlib
import io
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from train.verl.config import (
    DEFAULT_MODEL,
    VerlConfigError,
    compose_verl_config,
    hydra_value,
    save_verl_config,
)
from train.verl.sft_data import DATASET_CLASSES, SFTForm

SFT_CONFIG_NAME = "openforge_sft"
"""File stem of the written SFT config (`<run_dir>/openforge_sft.yaml`)."""
SFT_DATASET_FILE = "sft.parquet"
SFT_TRAINER_MODULE = "verl.trainer.sft_trainer"


class VerlSFTRecipe(BaseModel):
    """OpenForge's SFT recipe for veRL: teacher chains into the model GRPO then starts from."""

    dataset: Path
    """A dataset written by `forge-train sft-data` (its `OUT/dataset`)."""
    run_dir: Path
    model_path: str = DEFAULT_MODEL
    form: SFTForm = "tokens"
    """tokens: train on the recorded token ids (the dataset must be tokenized for this model);
    chat: veRL re-templates the conversations with the model's chat template."""
    epochs: int = Field(default=3, ge=1)
    lr: float = Field(default=1e-5, gt=0)
    warmup_ratio: float = Field(default=0.05, ge=0, lt=1)
    batch_size: int = Field(default=16, ge=1)
    """Sequences per optimiser step over all GPUs (`data.train_batch_size`)."""
    max_length: int = Field(default=32768, ge=1)
    """The longest sequence (prompt + response) in tokens; longer rows are refused unless `truncation`."""
    truncation: Literal["error", "left", "right"] = "error"
    n_gpus_per_node: int = Field(default=8, ge=1)
    nnodes: int = Field(default=1, ge=1)
    offload: bool = True
    """FSDP parameter and optimizer offload to CPU (a 30B model's optimizer state does not fit 8 GPUs)."""
    project_name: str = "openforge"
    experiment_name: str = "sft-qwen3-30b-a3b"
    save_freq: int = Field(default=-1, ge=-1)
    """Checkpoint every N steps (-1: only at the end)."""
    num_workers: int = Field(default=4, ge=0)

    @property
    def parquet_path(self) -> Path:
        return Path(self.run_dir).resolve() / SFT_DATASET_FILE

    def overrides(self) -> list[str]:
        """The recipe as Hydra overrides of veRL's `sft_trainer_engine` config."""
        values: dict[str, Any] = {
            "data.train_files": str(self.parquet_path),
            "data.val_files": None,
            "data.train_batch_size": self.batch_size,
            "data.max_length": self.max_length,
            "data.truncation": self.truncation,
            "data.pad_mode": "no_padding",
            "data.use_dynamic_bsz": True,
            "data.max_token_len_per_gpu": self.max_length,
            "data.messages_key": "messages",
            "data.tools_key": "tools",
            "data.num_workers": self.num_workers,
            "data.custom_cls.path": DATASET_CLASSES[self.form][0],
            "data.custom_cls.name": DATASET_CLASSES[self.form][1],
            "model.path": self.model_path,
            "model.use_remove_padding": True,
            "model.enable_gradient_checkpointing": True,
            "engine.param_offload": self.offload,
            "engine.optimizer_offload": self.offload,
            "optim.lr": self.lr,
            "optim.lr_warmup_steps_ratio": self.warmup_ratio,
            "optim.lr_scheduler_type": "cosine",
            # the last checkpoint also as a Hugging Face model (`global_step_N/huggingface`): GRPO's --model
            "checkpoint.save_contents": ["model", "optimizer", "extra", "hf_model"],
            "checkpoint.load_contents": ["model", "optimizer", "extra"],
            "trainer.total_epochs": self.epochs,
            "trainer.n_gpus_per_node": self.n_gpus_per_node,
            "trainer.nnodes": self.nnodes,
            "trainer.project_name": self.project_name,
            "trainer.experiment_name": self.experiment_name,
            "trainer.logger": ["console"],
            "trainer.save_freq": self.save_freq,
            "trainer.test_freq": -1,
            "trainer.default_local_dir": str(Path(self.run_dir).resolve() / "checkpoints"),
        }
        return [f"{key}={hydra_value(value)}" for key, value in values.items()]

    def torchrun_args(self, config_path: Path) -> list[str]:
        """torchrun's arguments that train with the written config (one process a GPU)."""
        nodes = (
            ["--standalone"]
            if self.nnodes == 1
            else [f"--nnodes={self.nnodes}", "--rdzv-backend=c10d", "--rdzv-endpoint=HOST:PORT"]
        )
        # Hydra's own output (the resolved config, the log) goes to the run directory, not ./outputs
        hydra_dir = f"hydra.run.dir={Path(self.run_dir).resolve() / 'hydra'}"
        return [
            *nodes, "--nproc-per-node", str(self.n_gpus_per_node), "-m", SFT_TRAINER_MODULE,
            "--config-path", str(config_path.parent), "--config-name", config_path.stem, hydra_dir,
        ]  # fmt: skip

    def command(self, config_path: Path) -> str:
        """The training command, to run on the GPU node (on every node, for several)."""
        return shlex.join(["torchrun", *self.torchrun_args(config_path)])


def build_sft_config(recipe: VerlSFTRecipe, overrides: Sequence[str] = ()) -> Any:
    """veRL's `sft_trainer_engine` config with the recipe and then `overrides` applied."""
    return compose_verl_config("sft_trainer_engine", [*recipe.overrides(), *overrides])


def check_sft_config(config: Any, rows: int) -> None:
    """veRL's config dataclasses, and what would otherwise stop the run on the GPU node: a batch the
    dataset cannot fill (veRL drops incomplete batches, so it would train nothing), a batch that does
    not split over the GPUs, our dataset class not named. The model's config is checked when the
    model is a local directory (a hub name is resolved on the GPU node)."""
    from verl.utils.config import omega_conf_to_dataclass

    data, trainer = config.data, config.trainer
    gpus = int(trainer.n_gpus_per_node) * int(trainer.nnodes)
    batch = int(data.train_batch_size)
    if batch % gpus:
        raise VerlConfigError(f"data.train_batch_size={batch} does not split evenly over {gpus} GPUs")
    if rows < batch:
        raise VerlConfigError(
            f"the dataset has {rows} rows and data.train_batch_size is {batch}: veRL drops an incomplete "
            "batch, so it would train nothing (lower --batch-size, or collect more with sft-data -n)"
        )
    if (data.custom_cls.path, data.custom_cls.name) not in DATASET_CLASSES.values():
        known = " or ".join(f"{path} {name}" for path, name in DATASET_CLASSES.values())
        raise VerlConfigError(
            f"data.custom_cls is {data.custom_cls.path} {data.custom_cls.name}; our parquet file is read "
            f"by {known}"
        )
    if int(data.max_token_len_per_gpu) < int(data.max_length):
        raise VerlConfigError(
            f"data.max_token_len_per_gpu={data.max_token_len_per_gpu} is below data.max_length="
            f"{data.max_length}: the longest row would not fit a micro-batch"
        )
    sections = ["engine", "optim", "checkpoint"]
    if Path(str(config.model.path)).is_dir():
        sections.append("model")
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for section in sections:
                omega_conf_to_dataclass(config[section])
    except (AssertionError, ValueError, TypeError, OSError) as exc:
        raise VerlConfigError(f"veRL's own check of `{section}` failed: {exc}") from exc


def prepare_sft(recipe: VerlSFTRecipe, overrides: Sequence[str] = ()) -> tuple[Path, Any]:
    """Write `<run_dir>/sft.parquet` and the checked config; returns (config file, config). When a check
    fails, neither is left behind."""
    from train.verl.sft_data import sft_rows, write_sft_parquet

    rows = sft_rows(recipe.dataset, recipe.form)
    config = build_sft_config(recipe, overrides)
    check_sft_config(config, len(rows))
    path = write_sft_parquet(rows, recipe.parquet_path)
    try:
        check_sft_rows(config)
    except VerlConfigError:
        path.unlink()
        raise
    return save_verl_config(config, recipe.run_dir.resolve(), SFT_CONFIG_NAME), config


def check_sft_rows(config: Any) -> None:
    """Every row through the dataset class veRL will load, when the model is a local directory: a row
    longer than `data.max_length`, token ids outside the model's tokenizer, or (chat form) a conversation
    whose turn-by-turn template differs from the whole one fail here, named, and not on the GPU node."""
    import pandas as pd
    from omegaconf import OmegaConf
    from verl.utils.import_utils import load_extern_object

    model = str(config.model.path)
    if not Path(model).is_dir():
        return
    from transformers import AutoTokenizer

    data_config = OmegaConf.create(OmegaConf.to_container(config.data, resolve=True))
    try:
        dataset_cls: Any = load_extern_object(config.data.custom_cls.path, config.data.custom_cls.name)
    except (ImportError, RuntimeError):
        return  # veRL's multi-turn dataset needs veRL's transformers; the GPU node's trainer checks then
    tokenizer = AutoTokenizer.from_pretrained(model)
    train_file = str(config.data.train_files)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            dataset = dataset_cls(parquet_files=train_file, tokenizer=tokenizer, config=data_config)
    except ValueError as exc:
        raise VerlConfigError(f"{train_file}: {exc}") from exc
    for index in range(len(dataset)):
        try:
            dataset[index]
        except (ValueError, AssertionError) as exc:
            rollout = pd.read_parquet(train_file, columns=["rollout_id"]).rollout_id[index]
            raise VerlConfigError(f"{train_file}: row {index} (rollout {rollout}): {exc}") from exc
