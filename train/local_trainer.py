"""The local trainer (`train.trainer.Trainer`'s implementation): GRPO and SFT on a small causal LM with
plain torch, on CPU.

Each sample is run through the model on its own (no padding), its loss is weighted so the mini-batch
total equals GRPO's per-rollout-normalised loss, and its gradient is accumulated at once: memory stays at
one sequence whatever the batch. The sampling log-probs the engine recorded are the old policy's (the
engine serves the same weights in float32), so no extra forward pass is needed; samples without them get
theirs recomputed before the update. A vision-language model (Qwen2.5-VL, `proxy.vision_prompt`) reads a
sample's images as the CPU engine did when it sampled: the same bytes through the same processor, at the
same 3-D positions, so the recomputed log-probs are the engine's.
"""

from __future__ import annotations

import contextlib
import copy
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import torch
from pydantic import BaseModel, ConfigDict, Field
from transformers import AutoTokenizer, PreTrainedModel

from proxy.cpu_engine.weights import load_model
from proxy.vision_prompt import ImageInputs, VisionPrompt
from train.grpo import k3, token_losses, token_weights
from train.grpo_config import GRPOConfig
from train.trainer import StepMetrics, TrainingSample

TRAINER_STATE = "trainer.pt"
MODEL_SUBDIR = "model"


class LocalTrainerConfig(BaseModel):
    """The local trainer's optimiser settings (GRPO's own, the objective's, are a `GRPOConfig`)."""

    model_config = ConfigDict(extra="forbid")

    lr: float = Field(default=1e-4, gt=0)
    weight_decay: float = Field(default=0.0, ge=0)
    max_grad_norm: float = Field(default=1.0, gt=0)
    mini_batches: int = Field(default=1, ge=1)
    """Optimiser steps per GRPO step; the step's rollouts are split between them."""
    bf16: bool = False
    """Forward and backward passes under bfloat16 autocast (the weights and the optimiser stay float32):
    about 1.4x faster on a CPU with native bf16 (avx512_bf16 / AMX), slower on one without."""
    train_layers: int | None = Field(default=None, ge=1)
    """Train only the top N decoder layers and the final norm (None: every parameter). The backward pass
    then stops N layers down: on a 30-layer model, N=10 halves an update's time."""
    seed: int = 0


class LocalTrainer:
    """Trains the model in `model_dir` (a Hugging Face causal LM directory with its tokenizer).

    `grpo` is the objective `grpo_step` optimises (the GRPO run's settings); given here because a KL
    penalty needs the starting policy kept as the reference."""

    def __init__(
        self, model_dir: Path, config: LocalTrainerConfig | None = None, grpo: GRPOConfig | None = None
    ) -> None:
        self.config = config or LocalTrainerConfig()
        self.grpo = grpo or GRPOConfig()
        self.model_dir = Path(model_dir)
        torch.manual_seed(self.config.seed)
        self.tokenizer = AutoTokenizer.from_pretrained(self.model_dir)
        self.vision = VisionPrompt(self.model_dir) if VisionPrompt.found_in(self.model_dir) else None
        """A vision-language model's processor: samples with images are read with their pixel values."""
        self.model: PreTrainedModel = load_model(self.model_dir)
        self.model.train()
        self._pixels: dict[tuple[Path, ...], ImageInputs] = {}
        self.reference: PreTrainedModel | None = None
        if self.grpo.kl_coef > 0:
            self.reference = copy.deepcopy(self.model).eval().requires_grad_(False)
        self.optimizer = self._optimizer()
        self.updates = 0

    def _optimizer(self) -> torch.optim.Optimizer:
        freeze_below_top(self.model, self.config.train_layers)
        self.trained = [p for p in self.model.parameters() if p.requires_grad]
        return torch.optim.AdamW(self.trained, lr=self.config.lr, weight_decay=self.config.weight_decay)

    def _autocast(self) -> contextlib.AbstractContextManager[object]:
        if self.config.bf16:
            return torch.autocast("cpu", dtype=torch.bfloat16)
        return contextlib.nullcontext()

    # --- log-probs ------------------------------------------------------------------------------------

    @staticmethod
    def response_logprobs(
        model: PreTrainedModel,
        sample: TrainingSample,
        temperature: float = 1.0,
        vision: VisionPrompt | None = None,
        images: ImageInputs | None = None,
    ) -> torch.Tensor:
        """Log-prob of each response token given everything before it, under the distribution sampled
        at `temperature` (logits / temperature, as the engines record it). A vision-language model
        (`vision`, its processor) reads `images` (the sample's, through that processor) with Qwen-VL's
        3-D positions, as the CPU engine does."""
        ids = torch.tensor([sample.prompt_ids + sample.response_ids])
        if vision is None:
            logits = model(input_ids=ids).logits[0, :-1].float()
        else:
            logits = _vision_logits(model, vision, ids, images)[0, :-1].float()
        if temperature != 1.0:
            logits = logits / temperature
        logp = torch.log_softmax(logits, dim=-1).gather(-1, ids[0, 1:, None])[:, 0]
        return logp[len(sample.prompt_ids) - 1 :]

    def _logprobs(
        self, model: PreTrainedModel, sample: TrainingSample, temperature: float = 1.0
    ) -> torch.Tensor:
        return self.response_logprobs(model, sample, temperature, self.vision, self._image_inputs(sample))

    def _image_inputs(self, sample: TrainingSample) -> ImageInputs | None:
        """The sample's pixel values (made once per step: a sample is read two or three times)."""
        if not sample.images:
            return None
        if self.vision is None:
            raise ValueError(
                f"rollout {sample.rollout_id!r}: the sample has images, but {self.model_dir} is a text model"
            )
        key = tuple(sample.images)
        if key not in self._pixels:
            self._pixels[key] = self.vision.inputs([path.read_bytes() for path in sample.images])
        return self._pixels[key]

    @staticmethod
    def _mask(sample: TrainingSample) -> torch.Tensor:
        return torch.tensor(sample.response_mask, dtype=torch.bool)

    # --- updates --------------------------------------------------------------------------------------

    def grpo_step(self, samples: Sequence[TrainingSample]) -> StepMetrics:
        started = time.monotonic()
        self._pixels.clear()
        usable = [s for s in samples if any(s.response_mask) and len(s.prompt_ids) > 0]
        old: dict[int, torch.Tensor] = {}
        temperature = self.grpo.temperature
        with torch.no_grad(), self._autocast():
            for i, s in enumerate(usable):
                if s.logprobs is None:
                    old[i] = self._logprobs(self.model, s, temperature)
                else:
                    old[i] = torch.tensor(s.logprobs)
        rollouts = sorted({s.rollout_id for s in usable})
        random.Random(self.config.seed + self.updates).shuffle(rollouts)
        batches = [rollouts[b :: self.config.mini_batches] for b in range(self.config.mini_batches)]
        totals: dict[str, float] = defaultdict(float)
        grad_norms: list[float] = []
        mismatch: list[torch.Tensor] = []
        for batch in (b for b in batches if b):
            members = set(batch)
            chosen = [(i, s) for i, s in enumerate(usable) if s.rollout_id in members]
            index = {rollout: n for n, rollout in enumerate(batch)}
            rollout_index = torch.tensor(
                [index[s.rollout_id] for _, s in chosen for _ in range(int(self._mask(s).sum()))],
                dtype=torch.long,
            )
            weights = token_weights(rollout_index, len(batch), torch.float32).split(
                [int(self._mask(s).sum()) for _, s in chosen]
            )
            self.optimizer.zero_grad(set_to_none=True)
            for (i, s), weight in zip(chosen, weights, strict=True):
                # policy_loss over the mini-batch, one sample's share at a time (its graph freed after it)
                mask = self._mask(s)
                with self._autocast():
                    new = self._logprobs(self.model, s, temperature)[mask]
                    ref = None
                    if self.reference is not None:
                        with torch.no_grad():
                            ref = self._logprobs(self.reference, s, temperature)[mask]
                advantages = torch.full_like(new, s.advantage)
                terms = token_losses(new, old[i][mask], advantages, self.grpo, ref)
                contribution = (terms.loss * weight.to(terms.loss.dtype)).sum()
                contribution.backward()
                totals["loss"] += float(contribution.detach())
                totals["policy_loss"] += float(terms.surrogate.detach().sum())
                totals["kl"] += float(terms.kl.detach().sum())
                totals["clipped"] += float(terms.clipped.sum())
                lr = terms.log_ratio
                totals["approx_kl_old"] += float(k3(lr).sum())
                if not grad_norms and s.logprobs is not None:  # no update yet: the engine's policy
                    mismatch.append(lr)
                totals["tokens"] += int(mask.sum())
            grad_norms.append(self._apply())
        tokens = max(totals["tokens"], 1.0)
        mismatch_kl, mismatch_max = _mismatch(mismatch)
        return StepMetrics(
            loss=totals["loss"] / max(len([b for b in batches if b]), 1),
            policy_loss=totals["policy_loss"] / tokens,
            kl=totals["kl"] / tokens,
            clip_fraction=totals["clipped"] / tokens,
            approx_kl_old=totals["approx_kl_old"] / tokens,
            mismatch_kl=mismatch_kl,
            mismatch_max=mismatch_max,
            grad_norm=max(grad_norms, default=0.0),
            samples=len(usable),
            rollouts=len(rollouts),
            trained_tokens=int(totals["tokens"]),
            seconds=time.monotonic() - started,
        )

    def sft_step(self, samples: Sequence[TrainingSample]) -> StepMetrics:
        started = time.monotonic()
        self._pixels.clear()
        usable = [s for s in samples if any(s.response_mask) and len(s.prompt_ids) > 0]
        tokens = sum(sum(s.response_mask) for s in usable)
        self.optimizer.zero_grad(set_to_none=True)
        total = 0.0
        for s in usable:
            with self._autocast():
                nll = -self._logprobs(self.model, s)[self._mask(s)].sum() / tokens
            nll.backward()
            total += float(nll.detach())
        grad_norm = self._apply() if usable else 0.0
        return StepMetrics(
            loss=total,
            grad_norm=grad_norm,
            samples=len(usable),
            rollouts=len({s.rollout_id for s in usable}),
            trained_tokens=tokens,
            seconds=time.monotonic() - started,
        )

    def _apply(self) -> float:
        norm = torch.nn.utils.clip_grad_norm_(self.trained, self.config.max_grad_norm)
        self.optimizer.step()
        self.updates += 1
        return float(norm)

    # --- weights and checkpoints ------------------------------------------------------------------------

    def export_weights(self, out_dir: Path) -> Path:
        out_dir.mkdir(parents=True, exist_ok=True)
        self.model.save_pretrained(out_dir, safe_serialization=True)
        self.tokenizer.save_pretrained(out_dir)
        if self.vision is not None:  # the engine and the proxy read images with it
            self.vision.processor.save_pretrained(out_dir)
        return out_dir

    def save_checkpoint(self, out_dir: Path) -> None:
        self.export_weights(out_dir / MODEL_SUBDIR)
        state = {
            "optimizer": self.optimizer.state_dict(),
            "updates": self.updates,
            "torch_rng": torch.get_rng_state(),
            "config": self.config.model_dump(),
            "grpo": self.grpo.model_dump(),
        }
        torch.save(state, out_dir / TRAINER_STATE)

    def load_checkpoint(self, checkpoint_dir: Path) -> None:
        state_file = checkpoint_dir / TRAINER_STATE
        if not state_file.is_file():
            raise FileNotFoundError(f"{checkpoint_dir} is not a checkpoint: {TRAINER_STATE} is missing")
        model_dir = checkpoint_dir / MODEL_SUBDIR
        self.model = load_model(model_dir)
        self.model.train()
        self.optimizer = self._optimizer()
        state = torch.load(state_file, weights_only=False)
        self.optimizer.load_state_dict(state["optimizer"])
        self.updates = int(state["updates"])
        torch.set_rng_state(state["torch_rng"])


def _vision_logits(
    model: PreTrainedModel, vision: VisionPrompt, ids: torch.Tensor, images: ImageInputs | None
) -> torch.Tensor:
    """A Qwen-VL model's logits over `ids` [1, n] with the images' pixel values, at the 3-D positions the
    CPU engine gives them (`proxy.cpu_engine.engine`: the rope index over the image grids, plain text
    positions when there is no image)."""
    if images is not None:
        vision.check(ids[0].tolist(), images.pads)
    positions, types, _ = vision.positions(model, ids, images)
    if images is None:
        if bool(types.any()):
            raise ValueError("the sample's ids hold image pads, but it has no images")
        return model(input_ids=ids, position_ids=positions).logits
    return model(
        input_ids=ids,
        position_ids=positions,
        mm_token_type_ids=types,
        pixel_values=images.pixel_values,
        image_grid_thw=images.image_grid_thw,
    ).logits


def _mismatch(log_ratios: list[torch.Tensor]) -> tuple[float | None, float | None]:
    """StepMetrics' mismatch_kl and mismatch_max from the first mini-batch's log-ratios (None, None when
    nothing was recorded)."""
    if not log_ratios:
        return None, None
    lr = torch.cat(log_ratios)
    return float(k3(lr).mean()), float(lr.abs().max())


def freeze_below_top(model: PreTrainedModel, layers: int | None) -> None:
    """Leave only the top `layers` decoder layers and the final norm trainable (None: all of it). Tied
    input and output embeddings stay frozen with the rest."""
    if layers is None:
        model.requires_grad_(True)
        return
    decoder = getattr(model, "model", None)
    decoder = getattr(decoder, "language_model", decoder)  # a vision-language model's text decoder
    blocks = getattr(decoder, "layers", None)
    norm = getattr(decoder, "norm", None)
    if blocks is None or norm is None:
        raise ValueError(
            f"train_layers needs a decoder with model.layers and model.norm; {type(model).__name__} has not"
        )
    if layers > len(blocks):
        raise ValueError(f"train_layers = {layers}, but the model has only {len(blocks)} layers")
    model.requires_grad_(False)
    for block in list(blocks)[len(blocks) - layers :]:
        block.requires_grad_(True)
    norm.requires_grad_(True)


def cpu_has_bf16() -> bool:
    """Whether this CPU computes in bfloat16 natively (avx512_bf16 or AMX): elsewhere autocast emulates
    it, slower than float32."""
    try:
        flags = Path("/proc/cpuinfo").read_text().split()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags
