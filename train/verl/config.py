"""The veRL trainer config for OpenForge's GRPO recipe, built from veRL's own `ppo_trainer.yaml`.

`VerlRecipe` holds the recipe's knobs (the paper's: Qwen3-30B-A3B, 8 tasks per step, 8 rollouts per task,
8 GPUs, vLLM rollouts, GRPO). `build_verl_config` composes veRL's Hydra config with the recipe written
as Hydra overrides (plus any raw veRL overrides the caller adds, which win), including an `openforge`
section that the agent loop reads in every veRL worker: catalog, harness, turn and token limits, what an
infrastructure failure counts as. `validate_verl_config` runs veRL's own checks (`validate_config`, its
config dataclasses) and ours, and raises `VerlConfigError` with the offending key.

Recipe values map onto veRL's keys as our local trainer's objective does: clip_low/clip_high ->
`actor.clip_ratio_low/high`, kl_coef -> `actor.use_kl_loss/kl_loss_coef` (k3, `low_var_kl`), and the
per-rollout loss normalisation -> `loss_agg_mode=seq-mean-token-mean` (veRL normalises per chain, which
is the same for rollouts of one chain).
"""

from __future__ import annotations

import contextlib
import io
import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from harnesses.registry import HARNESSES
from proxy.parsers import PARSERS
from train.errors import TrainError
from train.grpo_config import CLIP_HIGH, CLIP_LOW
from train.settings_errors import describe_problems

AGENT_LOOP_NAME = "openforge_proxy"
"""The name the agent loop is registered under (veRL's `agent_name`)."""
AGENT_LOOP_MODULE = "train.verl.agent_loop"
"""Imported in every veRL worker (`actor_rollout_ref.model.external_lib`), which registers the loop."""
DEFAULT_ROLLOUT_FN = "train.verl.agent_loop:proxy_rollout"
DEFAULT_MODEL = "Qwen/Qwen3-30B-A3B"
CONFIG_NAME = "openforge_grpo"
"""File stem of the written trainer config (`<run_dir>/openforge_grpo.yaml`)."""
DATASET_FILE = "tasks.parquet"
"""The task dataset veRL's dataloader reads, one row per catalog task."""


class VerlConfigError(TrainError, ValueError):
    """A veRL config that cannot run our recipe; the message names the key and the fix."""


def verl_config_dir() -> Path:
    """veRL's own Hydra config directory (`verl/trainer/config`)."""
    import verl

    return Path(verl.__file__).resolve().parent / "trainer" / "config"


class OpenForgeSection(BaseModel):
    """The `openforge` section of the veRL config: what the agent loop needs to run a rollout."""

    catalog: str
    """Absolute path of the task catalog (the dataset rows name tasks by their directory too)."""
    harness: str = "forge-react"
    run_dir: str
    """Where rollouts write their logs and the proxy its call records (`<run_dir>/rollouts/...`)."""
    max_turns: int | None = Field(default=8, ge=1)
    agent_timeout: float | None = Field(default=None, gt=0)
    """Per-rollout agent timeout in seconds (default: each task's own)."""
    max_tokens: int = Field(default=4096, ge=1)
    """Cap on each model call's completion."""
    infra: Literal["drop", "zero"] = "drop"
    """An infrastructure failure: dropped whole (no sample) or scored 0."""
    parser: str = "qwen3"
    """Completion parser for the model's native format (reasoning, tool calls)."""
    model_name: str = "forge-policy"
    """The model name harnesses are configured with (the proxy serves any)."""
    sandbox_backend: str = "docker"
    rollout_fn: str = DEFAULT_ROLLOUT_FN
    """`module:function` that runs one rollout (see `train.verl.agent_loop.RolloutFn`)."""

    @field_validator("harness")
    @classmethod
    def _known_harness(cls, value: str) -> str:
        if value not in HARNESSES and ":" not in value:
            raise ValueError(f"unknown harness {value!r}; known: {', '.join(HARNESSES)} (or module:Class)")
        return value

    @field_validator("parser")
    @classmethod
    def _known_parser(cls, value: str) -> str:
        if value not in PARSERS:
            raise ValueError(f"unknown completion parser {value!r}; known: {', '.join(sorted(PARSERS))}")
        return value

    @field_validator("rollout_fn")
    @classmethod
    def _target(cls, value: str) -> str:
        if value.count(":") != 1 or not all(value.split(":")):
            raise ValueError(f"rollout_fn {value!r} is not 'module:function'")
        return value


class VerlRecipe(BaseModel):
    """OpenForge's GRPO recipe for veRL (defaults: the paper's Claw run)."""

    catalog: Path
    run_dir: Path
    harness: str = "forge-react"
    model_path: str = DEFAULT_MODEL
    tasks_per_step: int = Field(default=8, ge=1)
    """Tasks per step: veRL's `data.train_batch_size`."""
    group_size: int = 8
    """Rollouts per task: veRL's `actor_rollout_ref.rollout.n`."""
    steps: int = Field(default=100, ge=1)
    n_gpus_per_node: int = Field(default=8, ge=1)
    nnodes: int = Field(default=1, ge=1)
    rollout_engine: Literal["vllm", "sglang"] = "vllm"
    rollout_tensor_parallel: int = Field(default=4, ge=1)
    gpu_memory_utilization: float = Field(default=0.6, gt=0, le=1)
    max_prompt_length: int = Field(default=8192, ge=1)
    """The instruction's prompt (system prompt, tools, task) in tokens."""
    max_response_length: int = Field(default=24576, ge=1)
    """Everything after the prompt in one chain: sampled turns plus tool results."""
    max_tokens: int = Field(default=4096, ge=1)
    max_turns: int | None = Field(default=8, ge=1)
    agent_timeout: float | None = Field(default=None, gt=0)
    infra: Literal["drop", "zero"] = "drop"
    lr: float = Field(default=1e-6, gt=0)
    clip_low: float = Field(default=CLIP_LOW, gt=0, lt=1)
    clip_high: float = Field(default=CLIP_HIGH, gt=0)
    kl_coef: float = Field(default=0.0, ge=0)
    scale_by_std: bool = True
    """GRPO divides by the group's reward std (False: Dr. GRPO)."""
    old_logprobs: Literal["recompute", "rollout"] = "recompute"
    """recompute: the actor recomputes the old policy's log-probs (veRL's default, robust to engine/trainer
    numerics); rollout: use the engine's sampling log-probs as they are (our local trainer's choice)."""
    loss_agg_mode: Literal["seq-mean-token-mean", "token-mean", "seq-mean-token-sum"] = "seq-mean-token-mean"
    parser: str = "qwen3"
    sandbox_backend: str = "docker"
    rollout_fn: str = DEFAULT_ROLLOUT_FN
    agent_workers: int = Field(default=8, ge=1)
    project_name: str = "openforge"
    experiment_name: str = "grpo-qwen3-30b-a3b"
    save_freq: int = Field(default=10, ge=-1)

    @field_validator("group_size")
    @classmethod
    def _group(cls, value: int) -> int:
        if value < 2:
            raise ValueError(
                f"group_size is {value}: GRPO compares the rollouts of one task, so it needs at least 2"
            )
        return value

    @model_validator(mode="after")
    def _fits(self) -> VerlRecipe:
        gpus = self.n_gpus_per_node * self.nnodes
        if gpus % self.rollout_tensor_parallel:
            raise ValueError(
                f"rollout_tensor_parallel {self.rollout_tensor_parallel} does not divide the {gpus} GPUs"
            )
        if (self.tasks_per_step * self.group_size) % gpus:
            raise ValueError(
                f"tasks_per_step x group_size = {self.tasks_per_step * self.group_size} rollouts per step "
                f"do not split evenly over {gpus} GPUs"
            )
        self.openforge_section()  # harness, parser, rollout_fn: checked once, here
        return self

    def openforge_section(self) -> OpenForgeSection:
        return OpenForgeSection(
            catalog=str(Path(self.catalog).resolve()),
            harness=self.harness,
            run_dir=str(Path(self.run_dir).resolve()),
            max_turns=self.max_turns,
            agent_timeout=self.agent_timeout,
            max_tokens=self.max_tokens,
            infra=self.infra,
            parser=self.parser,
            sandbox_backend=self.sandbox_backend,
            rollout_fn=self.rollout_fn,
        )

    @property
    def dataset_path(self) -> Path:
        return Path(self.run_dir).resolve() / DATASET_FILE

    def overrides(self) -> list[str]:
        """The recipe as Hydra overrides of veRL's `ppo_trainer` config."""
        dataset = str(self.dataset_path)
        seq_len = self.max_prompt_length + self.max_response_length
        values: dict[str, Any] = {
            "algorithm.adv_estimator": "grpo",
            "algorithm.norm_adv_by_std_in_grpo": self.scale_by_std,
            "algorithm.use_kl_in_reward": False,
            "algorithm.rollout_correction.bypass_mode": self.old_logprobs == "rollout",
            "data.train_files": dataset,
            "data.val_files": dataset,
            "data.train_batch_size": self.tasks_per_step,
            "data.max_prompt_length": self.max_prompt_length,
            "data.max_response_length": self.max_response_length,
            "data.return_raw_chat": True,
            "data.filter_overlong_prompts": False,
            "data.dataloader_num_workers": 0,
            "actor_rollout_ref.model.path": self.model_path,
            "actor_rollout_ref.model.external_lib": AGENT_LOOP_MODULE,
            "actor_rollout_ref.model.use_remove_padding": True,
            "actor_rollout_ref.model.enable_gradient_checkpointing": True,
            "actor_rollout_ref.actor.optim.lr": self.lr,
            "actor_rollout_ref.actor.ppo_mini_batch_size": self.tasks_per_step,
            "actor_rollout_ref.actor.use_dynamic_bsz": True,
            "actor_rollout_ref.actor.ppo_max_token_len_per_gpu": seq_len,
            "actor_rollout_ref.actor.clip_ratio_low": self.clip_low,
            "actor_rollout_ref.actor.clip_ratio_high": self.clip_high,
            "actor_rollout_ref.actor.use_kl_loss": self.kl_coef > 0,
            "actor_rollout_ref.actor.kl_loss_coef": self.kl_coef,
            "actor_rollout_ref.actor.kl_loss_type": "low_var_kl",
            "actor_rollout_ref.actor.loss_agg_mode": self.loss_agg_mode,
            "actor_rollout_ref.actor.entropy_coeff": 0,
            "actor_rollout_ref.actor.fsdp_config.param_offload": True,
            "actor_rollout_ref.actor.fsdp_config.optimizer_offload": True,
            "actor_rollout_ref.ref.fsdp_config.param_offload": True,
            "actor_rollout_ref.rollout.name": self.rollout_engine,
            "actor_rollout_ref.rollout.mode": "async",
            "actor_rollout_ref.rollout.n": self.group_size,
            "actor_rollout_ref.rollout.temperature": 1.0,
            "actor_rollout_ref.rollout.top_p": 1.0,
            "actor_rollout_ref.rollout.calculate_log_probs": True,
            "actor_rollout_ref.rollout.tensor_model_parallel_size": self.rollout_tensor_parallel,
            "actor_rollout_ref.rollout.gpu_memory_utilization": self.gpu_memory_utilization,
            "actor_rollout_ref.rollout.max_model_len": seq_len,
            "actor_rollout_ref.rollout.max_num_batched_tokens": seq_len,
            "actor_rollout_ref.rollout.multi_turn.enable": True,
            "actor_rollout_ref.rollout.multi_turn.max_assistant_turns": self.max_turns,
            "actor_rollout_ref.rollout.agent.default_agent_loop": AGENT_LOOP_NAME,
            "actor_rollout_ref.rollout.agent.num_workers": self.agent_workers,
            "actor_rollout_ref.rollout.log_prob_use_dynamic_bsz": True,
            "actor_rollout_ref.ref.log_prob_use_dynamic_bsz": True,
            "trainer.n_gpus_per_node": self.n_gpus_per_node,
            "trainer.nnodes": self.nnodes,
            "trainer.total_training_steps": self.steps,
            # Every epoch has at least one step (the catalog holds at least tasks_per_step tasks), so
            # total_training_steps is what ends the run.
            "trainer.total_epochs": self.steps,
            "trainer.project_name": self.project_name,
            "trainer.experiment_name": self.experiment_name,
            "trainer.logger": ["console"],
            "trainer.val_before_train": False,
            "trainer.test_freq": -1,
            "trainer.save_freq": self.save_freq,
            "trainer.default_local_dir": str(Path(self.run_dir).resolve() / "checkpoints"),
            "trainer.use_v1": True,
        }
        lines = [f"{key}={hydra_value(value)}" for key, value in values.items()]
        section = self.openforge_section().model_dump(mode="json")
        lines += [f"+openforge.{key}={hydra_value(value)}" for key, value in section.items()]
        return lines


def hydra_value(value: Any) -> str:
    """A Python value written in Hydra's override grammar (strings always quoted)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ",".join(hydra_value(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace("'", "\\'")
    return f"'{text}'"


def build_verl_config(recipe: VerlRecipe, overrides: Sequence[str] = ()) -> Any:
    """veRL's `ppo_trainer` config (an OmegaConf DictConfig) with the recipe and then `overrides`
    (raw Hydra overrides, e.g. `actor_rollout_ref.rollout.gpu_memory_utilization=0.7`) applied."""
    return compose_verl_config("ppo_trainer", [*recipe.overrides(), *overrides])


def compose_verl_config(name: str, overrides: Sequence[str]) -> Any:
    """One of veRL's own Hydra configs (`verl/trainer/config/<name>.yaml`) with `overrides` applied."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    if GlobalHydra.instance().is_initialized():
        GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(verl_config_dir()), version_base=None):
            return compose(config_name=name, overrides=list(overrides))
    except (HydraException, OmegaConfBaseException) as exc:
        raise VerlConfigError(f"veRL rejected the {name} config overrides: {exc}") from exc


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise VerlConfigError(message)


def validate_verl_config(config: Any) -> OpenForgeSection:
    """veRL's own checks (validate_config, its actor/rollout/algorithm dataclasses) and the recipe's;
    returns the parsed `openforge` section."""
    from hydra.errors import HydraException
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import omega_conf_to_dataclass, validate_config

    _check("openforge" in config, "the config has no `openforge` section (build it with build_verl_config)")
    try:
        section = OpenForgeSection.model_validate(dict(config.openforge))
    except ValidationError as exc:
        raise VerlConfigError(describe_problems(exc, prefix="openforge.")) from exc
    algorithm, rollout = config.algorithm, config.actor_rollout_ref.rollout
    _check(
        algorithm.adv_estimator == "grpo",
        f"algorithm.adv_estimator is {algorithm.adv_estimator!r}; the recipe is GRPO ('grpo')",
    )
    _check(
        int(rollout.n) >= 2,
        f"actor_rollout_ref.rollout.n is {rollout.n}: GRPO needs a group of at least 2 rollouts per task",
    )
    _check(
        rollout.agent.default_agent_loop == AGENT_LOOP_NAME,
        f"actor_rollout_ref.rollout.agent.default_agent_loop is {rollout.agent.default_agent_loop!r}, "
        f"not {AGENT_LOOP_NAME!r}: rollouts would not go through OpenForge",
    )
    libs = config.actor_rollout_ref.model.external_lib
    libs = [libs] if isinstance(libs, str) else list(libs or [])
    _check(
        AGENT_LOOP_MODULE in libs,
        f"actor_rollout_ref.model.external_lib must import {AGENT_LOOP_MODULE} in every worker (it "
        f"registers {AGENT_LOOP_NAME!r}); got {libs}",
    )
    _check(
        bool(config.trainer.use_v1),
        "trainer.use_v1 is false: only veRL's v1 trainer takes several chains per rollout",
    )
    _check(bool(rollout.multi_turn.enable), "actor_rollout_ref.rollout.multi_turn.enable must be true")
    _check(
        rollout.name in ("vllm", "sglang"),
        f"actor_rollout_ref.rollout.name is {rollout.name!r}; use vllm or sglang",
    )
    quiet = io.StringIO()
    try:
        with contextlib.redirect_stdout(quiet), warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Disabled critic")
            validate_config(
                config=config,
                use_reference_policy=need_reference_policy(config),
                use_critic=need_critic(config),
            )
            omega_conf_to_dataclass(config.algorithm)
            omega_conf_to_dataclass(rollout)
    except (AssertionError, ValueError, TypeError, HydraException) as exc:
        raise VerlConfigError(f"veRL's own config check failed: {exc}") from exc
    return section


def save_verl_config(config: Any, out_dir: Path, name: str = CONFIG_NAME) -> Path:
    """Write the config as `<out_dir>/<name>.yaml` (default `openforge_grpo`), for veRL's entry point
    with `--config-path <out_dir> --config-name <name>`."""
    from omegaconf import OmegaConf

    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.yaml"
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    OmegaConf.save(config, tmp)
    tmp.replace(path)
    return path
