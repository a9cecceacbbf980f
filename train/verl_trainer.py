"""The `verl` trainer backend's name in the TRAINERS registry, and what it honestly is.

veRL does not train step by step under our loop: its own trainer owns the whole GRPO run (Ray workers,
FSDP actor, vLLM rollout servers, weight sync, checkpoints) and calls OpenForge for each rollout through
the `openforge_proxy` agent loop (`train.verl.agent_loop`). So `VerlTrainer` checks that veRL and GPUs
are there and otherwise says how to run the veRL path; its step methods point to that entry point
rather than pretend to train (SFT too: `sft-launch` runs veRL's SFT trainer). `to_batch` gives the
samples in the layout veRL's actor takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from train.trainer import StepMetrics, Trainer, TrainingSample
from train.verl.backend import DOC, LAUNCH_COMMAND, SFT_LAUNCH_COMMAND, gpu_count, verl_unavailable_reason


class VerlUnavailable(RuntimeError):
    """veRL or the GPUs it trains on are missing here."""


def _pointer(what: str) -> str:
    return (
        f"VerlTrainer.{what}: veRL runs the GRPO loop itself (rollouts through OpenForge's agent loop, "
        f"updates, weight sync, checkpoints); run `{LAUNCH_COMMAND}` on the GPU node (see {DOC})"
    )


class VerlTrainer(Trainer):
    """Stands for veRL in the registry; trains only through veRL's own entry point."""

    def __init__(self, min_gpus: int = 1, **options: Any) -> None:
        if (reason := verl_unavailable_reason()) is not None:
            raise VerlUnavailable(f"{reason}. The veRL path runs as `{LAUNCH_COMMAND}` (see {DOC}).")
        if (found := gpu_count()) < min_gpus:
            raise VerlUnavailable(
                f"veRL trains on CUDA GPUs and this machine has {found}. On a GPU node run "
                f"`{LAUNCH_COMMAND}` (see {DOC}); on CPU use the `local` trainer."
            )
        self.options = options

    @staticmethod
    def to_batch(samples: Sequence[TrainingSample], rewards: Sequence[Any], **options: Any) -> Any:
        """The samples as a `verl.DataProto` in the actor's layout (`train.verl.data`)."""
        from train.verl.data import samples_to_dataproto

        return samples_to_dataproto(samples, rewards, **options)

    def grpo_step(self, samples: Sequence[TrainingSample]) -> StepMetrics:
        raise NotImplementedError(_pointer("grpo_step"))

    def sft_step(self, samples: Sequence[TrainingSample]) -> StepMetrics:
        raise NotImplementedError(
            f"VerlTrainer.sft_step: veRL's SFT trainer runs the whole fine-tune itself; run "
            f"`{SFT_LAUNCH_COMMAND}` on the GPU node (see {DOC}), or use the `local` trainer on CPU"
        )

    def export_weights(self, out_dir: Path) -> Path:
        raise NotImplementedError(
            _pointer("export_weights") + "; its checkpoints are under trainer.default_local_dir"
        )

    def save_checkpoint(self, out_dir: Path) -> None:
        raise NotImplementedError(_pointer("save_checkpoint"))

    def load_checkpoint(self, checkpoint_dir: Path) -> None:
        raise NotImplementedError(
            _pointer("load_checkpoint") + "; veRL resumes with trainer.resume_mode=auto"
        )
