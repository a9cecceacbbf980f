"""`train.verl.config` on CPU: veRL's ppo_trainer.yaml with the recipe, validated by veRL, saved and loaded
back as veRL's main_ppo does, the errors bad values give, and veRL's PPO-clip loss under the recipe's
actor settings equal to ours."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch
from omegaconf import OmegaConf
from pydantic import ValidationError
from verl.trainer.ppo.core_algos import compute_policy_loss_vanilla
from verl.utils.config import omega_conf_to_dataclass

from tests.train.verl.batches import hand_batch
from train.grpo import policy_loss
from train.grpo_config import CLIP_HIGH, CLIP_LOW, GRPOConfig
from train.verl.config import (
    AGENT_LOOP_NAME,
    VerlConfigError,
    VerlRecipe,
    build_verl_config,
    hydra_value,
    save_verl_config,
    validate_verl_config,
    verl_config_dir,
)
from train.verl.data import samples_to_dataproto


def test_the_recipes_objective_defaults_are_grpos(catalog: Path, tmp_path: Path) -> None:
    """One default for each GRPO setting: the recipe's clips, KL and std scaling are `train.grpo_config`'s,
    the ones the local trainer, the CLI and the docs use."""
    recipe = VerlRecipe(catalog=catalog, run_dir=tmp_path / "run")
    ours = GRPOConfig()
    assert (recipe.clip_low, recipe.clip_high) == (ours.clip_low, ours.clip_high) == (CLIP_LOW, CLIP_HIGH)
    assert (recipe.kl_coef, recipe.scale_by_std) == (ours.kl_coef, ours.scale_by_std)
    actor = build_verl_config(recipe).actor_rollout_ref.actor
    assert (actor.clip_ratio_low, actor.clip_ratio_high) == (CLIP_LOW, CLIP_HIGH)


def test_recipe_config_builds_from_verls_yaml_and_validates(recipe: VerlRecipe, catalog: Path) -> None:
    config = build_verl_config(recipe)
    section = validate_verl_config(config)
    a, rollout = config.actor_rollout_ref, config.actor_rollout_ref.rollout
    assert config.algorithm.adv_estimator == "grpo"
    assert rollout.n == 8 and config.data.train_batch_size == 8
    assert a.model.path == "Qwen/Qwen3-30B-A3B"
    assert (config.trainer.n_gpus_per_node, config.trainer.nnodes) == (8, 1)
    assert rollout.name == "vllm" and rollout.mode == "async" and rollout.multi_turn.enable
    assert rollout.agent.default_agent_loop == AGENT_LOOP_NAME
    assert a.model.external_lib == "train.verl.agent_loop"
    assert (a.actor.clip_ratio_low, a.actor.clip_ratio_high, a.actor.use_kl_loss) == (0.2, 0.28, False)
    assert a.actor.loss_agg_mode == "seq-mean-token-mean"
    assert config.data.train_files == str(recipe.dataset_path)
    assert config.trainer.use_v1 is True
    assert section.catalog == str(catalog.resolve()) and section.harness == "forge-react"
    assert config.openforge.run_dir == str(recipe.run_dir.resolve())
    # Everything else comes from veRL's own defaults, e.g. its GRPO std normalisation and the ref model.
    assert config.algorithm.norm_adv_by_std_in_grpo is True and "ref" in a
    # veRL's config dataclasses take it.
    actor = omega_conf_to_dataclass(a.actor)
    assert type(actor).__name__ == "FSDPActorConfig" and actor.ppo_mini_batch_size == 8
    rollout_dc = omega_conf_to_dataclass(rollout)
    assert type(rollout_dc).__name__ == "RolloutConfig" and rollout_dc.n == 8
    assert rollout_dc.agent.default_agent_loop == AGENT_LOOP_NAME
    # Raw veRL overrides win over the recipe.
    tuned = build_verl_config(
        recipe, ["actor_rollout_ref.rollout.gpu_memory_utilization=0.8", "openforge.max_turns=30"]
    )
    assert tuned.actor_rollout_ref.rollout.gpu_memory_utilization == 0.8
    assert validate_verl_config(tuned).max_turns == 30


def test_saved_config_loads_as_verls_main_would(recipe: VerlRecipe) -> None:
    """`python -m verl.trainer.main_ppo --config-path DIR --config-name openforge_grpo` composes the file."""
    from hydra import compose, initialize_config_dir

    note = hydra_value("it's here")
    config = build_verl_config(recipe, [f"+openforge.note={note}"])
    assert config.openforge.note == "it's here"
    path = save_verl_config(config, recipe.run_dir)
    with initialize_config_dir(config_dir=str(path.parent), version_base=None):
        loaded = compose(config_name=path.stem)
    assert OmegaConf.to_container(loaded) == OmegaConf.to_container(config)
    validate_verl_config(loaded)
    assert verl_config_dir().joinpath("ppo_trainer.yaml").is_file()


def test_awkward_paths_survive_hydra_quoting(catalog: Path, tmp_path: Path) -> None:
    odd = tmp_path / "it's a run, [1]"
    config = build_verl_config(VerlRecipe(catalog=catalog, run_dir=odd))
    assert config.openforge.run_dir == str(odd.resolve())
    assert config.data.train_files == str(odd.resolve() / "tasks.parquet")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"group_size": 1}, "GRPO compares the rollouts of one task, so it needs at least 2"),
        ({"harness": "no-such-harness"}, "unknown harness 'no-such-harness'"),
        ({"parser": "llama"}, "unknown completion parser"),
        ({"rollout_tensor_parallel": 3}, "does not divide the 8 GPUs"),
        ({"tasks_per_step": 3, "group_size": 3}, "9 rollouts per step do not split evenly over 8 GPUs"),
        ({"rollout_engine": "hf"}, "Input should be 'vllm' or 'sglang'"),
        ({"rollout_fn": "no_colon"}, "is not 'module:function'"),
    ],
)
def test_bad_recipe_values_are_refused(recipe: VerlRecipe, fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        VerlRecipe(**{**recipe.model_dump(), **fields})


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("actor_rollout_ref.rollout.n=1", "group of at least 2"),
        ("algorithm.adv_estimator=gae", "the recipe is GRPO"),
        ("openforge.harness=no-such-harness", "openforge.harness: Value error, unknown harness"),
        (
            "actor_rollout_ref.rollout.agent.default_agent_loop=tool_agent",
            "rollouts would not go through OpenForge",
        ),
        ("actor_rollout_ref.model.external_lib=null", "must import train.verl.agent_loop"),
        ("trainer.use_v1=false", "only veRL's v1 trainer"),
        ("actor_rollout_ref.actor.use_dynamic_bsz=false", "veRL's own config check failed"),
        ("actor_rollout_ref.rollout.no_such_key=1", "veRL rejected the ppo_trainer config overrides"),
    ],
)
def test_bad_verl_overrides_are_refused(recipe: VerlRecipe, override: str, message: str) -> None:
    with pytest.raises(VerlConfigError, match=message):
        validate_verl_config(build_verl_config(recipe, [override]))


def test_recipe_loss_settings_give_our_policy_loss(recipe: VerlRecipe) -> None:
    """veRL's PPO-clip loss under the recipe's actor config (clip ratios, seq-mean-token-mean) equals
    train.grpo.policy_loss on rollouts of one chain each."""
    actor = omega_conf_to_dataclass(build_verl_config(recipe).actor_rollout_ref.actor)
    ours_config = GRPOConfig(clip_low=recipe.clip_low, clip_high=recipe.clip_high)
    assert (actor.clip_ratio_low, actor.clip_ratio_high) == (ours_config.clip_low, ours_config.clip_high)
    samples, rewards, _ = hand_batch(ours_config)
    samples = [s for s in samples if s.rollout_id not in ("a1", "b2")]
    data = samples_to_dataproto(samples, [r for r in rewards if r.rollout_id not in ("a1", "b2")])
    gen = torch.Generator().manual_seed(0)
    old = data.batch["rollout_log_probs"]
    new = old + (torch.rand(old.shape, generator=gen) - 0.5) * 0.8  # ratios in [0.67, 1.5]: some clipped
    mask = data.batch["response_mask"]
    theirs, _ = compute_policy_loss_vanilla(
        old_log_prob=old,
        log_prob=new,
        advantages=data.batch["advantages"],
        response_mask=mask,
        loss_agg_mode=actor.loss_agg_mode,
        config=actor,
    )
    flat = mask.bool()
    rollout_index = torch.arange(len(samples)).unsqueeze(1).expand_as(mask)[flat]
    ours, parts = policy_loss(
        new[flat].double(),
        old[flat].double(),
        data.batch["advantages"][flat].double(),
        rollout_index,
        len(samples),
        ours_config,
    )
    assert parts.clip_fraction > 0
    assert float(theirs) == pytest.approx(float(ours), rel=1e-5)
