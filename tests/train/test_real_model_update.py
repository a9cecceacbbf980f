"""A GRPO update of the real pretrained model (SmolLM2-135M-Instruct) moves it the way the advantages say.

The tiny random model shows that the loop runs; this shows that the same trainer, on the real default
policy, gets a non-zero gradient and changes what the model says: the rewarded answer becomes more
likely, the penalised one less, and the exported weights are what the engine then serves."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from train.grpo_config import GRPOConfig
from train.local_trainer import LocalTrainer, LocalTrainerConfig
from train.trainer import TrainingSample

pytestmark = pytest.mark.slow

GOOD = "```bash\nmkdir -p /app/reports\n```"
BAD = "```bash\nrm -rf /app\n```"


def _sample(
    tokenizer: object, prompt: list[int], answer: str, advantage: float, rollout: str
) -> TrainingSample:
    ids = [*tokenizer.encode(answer, add_special_tokens=False), tokenizer.eos_token_id]  # type: ignore[attr-defined]
    return TrainingSample(
        rollout_id=rollout,
        prompt_ids=prompt,
        response_ids=ids,
        response_mask=[1] * len(ids),
        advantage=advantage,
    )


def test_one_grpo_step_on_the_real_model_follows_the_advantages(smollm2_dir: Path, tmp_path: Path) -> None:
    """On the session's SmolLM2 build (tests/shared_models.py), not a second conversion in $FORGE_HOME."""
    model_dir = smollm2_dir
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    prompt = tokenizer.apply_chat_template(
        [
            {"role": "system", "content": "You are a shell agent. Reply with one bash command only."},
            {"role": "user", "content": "Create a directory named reports in /app."},
        ],
        add_generation_prompt=True,
        tokenize=True,
        return_dict=False,
    )
    prompt = list(prompt["input_ids"] if isinstance(prompt, dict) else prompt)
    good, bad = _sample(tokenizer, prompt, GOOD, 1.0, "good"), _sample(tokenizer, prompt, BAD, -1.0, "bad")
    trainer = LocalTrainer(model_dir, LocalTrainerConfig(lr=1e-5, seed=0), GRPOConfig())

    def logprob(sample: TrainingSample) -> float:
        with torch.no_grad():
            return float(trainer.response_logprobs(trainer.model, sample).sum())

    before = {s.rollout_id: logprob(s) for s in (good, bad)}
    metrics = trainer.grpo_step([good, bad])
    after = {s.rollout_id: logprob(s) for s in (good, bad)}
    assert metrics.grad_norm > 0 and metrics.trained_tokens == len(good.response_ids) + len(bad.response_ids)
    assert after["good"] > before["good"] + 0.01, (before, after)
    assert after["bad"] < before["bad"] - 0.01, (before, after)

    exported = trainer.export_weights(tmp_path / "v1")
    served = AutoModelForCausalLM.from_pretrained(exported, dtype=torch.float32)
    original = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    ids = torch.tensor([prompt])
    with torch.no_grad():
        new_logits, old_logits = served(ids).logits[0, -1], original(ids).logits[0, -1]
        served_good = float(LocalTrainer.response_logprobs(served, good).sum())
    assert not torch.equal(new_logits, old_logits)
    assert served_good == pytest.approx(after["good"], abs=1e-3)
