"""The embedded default policy, for a machine with no GPU, no model hub and no API key: a small
Qwen3-architecture model with a tokenizer trained here (random weights), warm-started by SFT on the
oracle's trajectories of the training tasks, run through the same harness, proxy and token path as
training, so the policy starts from the format it will be sampled in.

Both stages are cached in the run directory (`init-model/`, `sft-model/`), so a resumed run reuses them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from envs.task import Task
from harnesses.bundle import Bundle
from harnesses.harness import Harness
from proxy.cpu_engine.model_init import init_model
from proxy.engines.oracle import OracleEngine
from proxy.session import ProxySession
from train.local_trainer import LocalTrainer, LocalTrainerConfig
from train.rollout import RolloutResult
from train.rollout_set import Assignment, run_assigned_rollouts
from train.sft import collect, save_dataset, train
from train.trainer import StepMetrics

INIT_DIR = "init-model"
SFT_DIR = "sft-model"
TEACHER_DIR = "sft-data"


class EmbeddedConfig(BaseModel):
    """Size of the small model and of its warm start."""

    hidden_size: int = Field(default=128, ge=16)
    layers: int = Field(default=2, ge=1)
    vocab_size: int = Field(default=4096, ge=512)
    sft_epochs: int = Field(default=28, ge=0)
    """0 skips the warm start (GRPO from random weights)."""
    sft_lr: float = Field(default=3e-3, gt=0)
    sft_batch_size: int = Field(default=4, ge=1)
    teacher_samples: int = Field(default=1, ge=1)
    concurrency: int = Field(default=2, ge=1)
    seed: int = 0


def embedded_policy(
    run_dir: Path,
    tasks: list[tuple[Task, str]],
    harnesses: Sequence[tuple[Harness, Bundle]],
    config: EmbeddedConfig,
    on_rollout: Callable[[RolloutResult], None] = lambda result: None,
    on_sft_step: Callable[[int, StepMetrics], None] = lambda epoch, metrics: None,
) -> Path:
    """The model directory to start GRPO from (built once per run directory)."""
    init_dir = run_dir / INIT_DIR
    if not (init_dir / "config.json").is_file():
        init_model(
            init_dir,
            seed=config.seed,
            vocab_size=config.vocab_size,
            hidden_size=config.hidden_size,
            layers=config.layers,
        )
    if config.sft_epochs == 0:
        return init_dir
    sft_dir = run_dir / SFT_DIR
    if (sft_dir / "config.json").is_file():
        return sft_dir
    teacher = OracleEngine([task.path for task, _ in tasks], tokenizer=init_dir)
    with ProxySession(teacher, run_dir / TEACHER_DIR) as proxy:
        results = run_assigned_rollouts(
            [Assignment(task, image, h, b) for h, b in harnesses for task, image in tasks],
            proxy,
            samples=config.teacher_samples,
            run_dir=run_dir / TEACHER_DIR,
            model="forge-policy",
            concurrency=config.concurrency,
            on_done=on_rollout,
        )
        samples, chats = collect(proxy.store, results)
    save_dataset(samples, chats, run_dir / TEACHER_DIR / "dataset")
    trainer = LocalTrainer(init_dir, LocalTrainerConfig(lr=config.sft_lr, seed=config.seed))
    train(trainer, samples, config.sft_epochs, config.sft_batch_size, config.seed, on_sft_step)
    return trainer.export_weights(sft_dir)
