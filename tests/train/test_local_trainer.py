"""The local CPU trainer: SFT lowers the loss, GRPO raises the reward of a small synthetic task,
checkpoints resume exactly, exported weights load."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
import torch
from pydantic import ValidationError
from transformers import AutoModelForCausalLM

from train.grpo import RolloutReward, group_advantages, policy_loss
from train.grpo_config import GRPOConfig
from train.local_trainer import LocalTrainer, LocalTrainerConfig
from train.trainer import TrainingSample

PROMPT = [5, 17, 42, 99]
ACTIONS = list(range(100, 108))
"""The synthetic environment accepts eight answers; one of them is right."""
RIGHT = 103


def _sample(trainer: LocalTrainer, n: int, rng: torch.Generator) -> list[tuple[int, float]]:
    """n one-token answers to PROMPT, drawn from the policy over the allowed actions, with the
    policy's log-prob of each."""
    with torch.no_grad():
        logits = trainer.model(input_ids=torch.tensor([PROMPT])).logits[0, -1]
        logp = torch.log_softmax(logits, -1)
        allowed = torch.softmax(logits[ACTIONS], -1)
        picks = torch.multinomial(allowed, n, replacement=True, generator=rng)
    return [(ACTIONS[int(i)], float(logp[ACTIONS[int(i)]])) for i in picks]


def _reward(token: int) -> float:
    return 1.0 if token == RIGHT else 0.0


def test_grpo_raises_the_reward_of_a_synthetic_task(tiny_model_dir: Path) -> None:
    trainer = LocalTrainer(tiny_model_dir, LocalTrainerConfig(lr=3e-3), GRPOConfig(kl_coef=0.0))
    rng = torch.Generator().manual_seed(0)
    means = []
    for step in range(12):
        answers = _sample(trainer, 32, rng)
        means.append(sum(_reward(t) for t, _ in answers) / len(answers))
        rewards = [
            RolloutReward(rollout_id=f"s{step}-{i}", group=f"g{step}-{i // 16}", reward=_reward(t))
            for i, (t, _) in enumerate(answers)
        ]
        advantages = group_advantages(rewards).values
        samples = [
            TrainingSample(
                rollout_id=r.rollout_id,
                prompt_ids=PROMPT,
                response_ids=[t],
                response_mask=[1],
                logprobs=[lp],
                advantage=advantages[r.rollout_id],
            )
            for r, (t, lp) in zip(rewards, answers, strict=True)
            if r.rollout_id in advantages
        ]
        metrics = trainer.grpo_step(samples)
        assert metrics.trained_tokens == len(samples)
    final = sum(_reward(t) for t, _ in _sample(trainer, 256, rng)) / 256
    assert means[0] < 0.3
    assert final > means[0] + 0.3, f"reward went from {means[0]:.2f} to {final:.2f}"


def _sft_samples(n: int) -> list[TrainingSample]:
    rng = random.Random(0)
    out = []
    for i in range(n):
        prompt = [rng.randrange(10, 500) for _ in range(6)]
        response = [p + 1 for p in prompt[:3]] + [7]
        out.append(
            TrainingSample(
                rollout_id=f"r{i}",
                prompt_ids=prompt,
                response_ids=[900, *response],
                response_mask=[0, 1, 1, 1, 1],  # the framing token is not trained
            )
        )
    return out


def test_sft_lowers_the_loss_on_masked_tokens_only(tiny_model_dir: Path) -> None:
    trainer = LocalTrainer(tiny_model_dir, LocalTrainerConfig(lr=1e-2))
    samples = _sft_samples(8)
    losses = [trainer.sft_step(samples).loss for _ in range(30)]
    assert losses[-1] < losses[0] * 0.5
    assert trainer.sft_step(samples).trained_tokens == 8 * 4


def test_a_checkpoint_resumes_exactly(tiny_model_dir: Path, tmp_path: Path) -> None:
    config = LocalTrainerConfig(lr=1e-2)
    samples = _sft_samples(4)
    first = LocalTrainer(tiny_model_dir, config)
    first.sft_step(samples)
    first.save_checkpoint(tmp_path / "ckpt")
    expected = first.sft_step(samples).loss
    resumed = LocalTrainer(tiny_model_dir, config)
    resumed.load_checkpoint(tmp_path / "ckpt")
    assert resumed.updates == 1
    assert resumed.sft_step(samples).loss == pytest.approx(expected, rel=1e-5)


def test_exported_weights_load_as_a_model(tiny_model_dir: Path, tmp_path: Path) -> None:
    trainer = LocalTrainer(tiny_model_dir, LocalTrainerConfig(lr=1e-2))
    trainer.sft_step(_sft_samples(2))
    out = trainer.export_weights(tmp_path / "w")
    loaded = AutoModelForCausalLM.from_pretrained(out)
    ids = torch.tensor([PROMPT])
    assert torch.allclose(loaded(input_ids=ids).logits, trainer.model(input_ids=ids).logits, atol=1e-5)
    assert (out / "tokenizer.json").is_file()


def test_loading_a_folder_that_is_not_a_checkpoint_says_so(tiny_model_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="is not a checkpoint"):
        LocalTrainer(tiny_model_dir).load_checkpoint(tmp_path)


def test_the_local_grpo_step_minimises_grpo_policy_loss(tiny_model_dir: Path) -> None:
    """The loss the local trainer reports (and differentiates) is train.grpo.policy_loss, the function the
    veRL equality test checks: rollouts of different lengths, several chains of one rollout, sampling
    log-probs away from the model's so ratios differ per token and clipping bites."""
    config = GRPOConfig(clip_low=0.2, clip_high=0.28, kl_coef=0.0)
    trainer = LocalTrainer(tiny_model_dir, LocalTrainerConfig(lr=1e-3, mini_batches=1), config)
    rng = random.Random(1)
    samples = []
    for rollout, (chains, length, advantage) in enumerate([(1, 2, 1.0), (2, 5, -0.5), (1, 9, 0.25)]):
        for _ in range(chains):
            response = [rng.randrange(100, 900) for _ in range(length)]
            mask = [1] * length
            mask[-1] = 0 if length > 2 else 1  # a framing token: not trained
            samples.append(
                TrainingSample(
                    rollout_id=f"r{rollout}",
                    prompt_ids=[rng.randrange(10, 99) for _ in range(4)],
                    response_ids=response,
                    response_mask=mask,
                    logprobs=[0.0] * length,
                    advantage=advantage,
                )
            )
    with torch.no_grad():
        new, old, adv, index = [], [], [], []
        for s in samples:
            keep = torch.tensor(s.response_mask, dtype=torch.bool)
            current = trainer.response_logprobs(trainer.model, s)[keep]
            new.append(current)
            old.append((current + torch.linspace(-0.4, 0.4, current.shape[0]))[: current.shape[0]])
            adv.append(torch.full_like(current, s.advantage))
            index.append(torch.full((current.shape[0],), int(s.rollout_id[1:]), dtype=torch.long))
        expected, _ = policy_loss(torch.cat(new), torch.cat(old), torch.cat(adv), torch.cat(index), 3, config)
    shifted = []
    for s, o in zip(samples, old, strict=True):
        logprobs = iter(o.tolist())
        shifted.append(
            s.model_copy(update={"logprobs": [next(logprobs) if m else 0.0 for m in s.response_mask]})
        )
    metrics = trainer.grpo_step(shifted)
    assert metrics.rollouts == 3 and metrics.trained_tokens == sum(int(t.shape[0]) for t in new)
    assert metrics.loss == pytest.approx(float(expected), rel=1e-5, abs=1e-7)


def test_the_trainer_optimises_the_grpo_settings_it_is_given(tiny_model_dir: Path) -> None:
    """GRPO's settings are the run's, handed to the trainer: a KL penalty keeps the starting policy as
    the reference and enters the loss; the optimiser config has no objective settings of its own."""
    sample = TrainingSample(
        rollout_id="r0", prompt_ids=PROMPT, response_ids=[103, 104], response_mask=[1, 1], advantage=1.0
    )
    plain = LocalTrainer(tiny_model_dir, LocalTrainerConfig(lr=1e-2))
    assert plain.grpo == GRPOConfig() and plain.reference is None
    penalised = LocalTrainer(tiny_model_dir, LocalTrainerConfig(lr=1e-2), GRPOConfig(kl_coef=0.5))
    assert penalised.grpo.kl_coef == 0.5 and penalised.reference is not None
    penalised.grpo_step([sample])
    assert penalised.grpo_step([sample]).kl > 0  # the policy moved away from its reference
    with pytest.raises(ValidationError, match="grpo"):
        LocalTrainerConfig(grpo={"kl_coef": 0.5})  # type: ignore[call-arg]


def test_at_a_temperature_the_loss_uses_the_log_probs_the_engine_sampled_with(tiny_model_dir: Path) -> None:
    """A run sampling at temperature 0.6 records log-probs of logits / 0.6; the trainer must compute its
    own at the same temperature, or the first update's importance ratios are already far from 1."""
    trainer = LocalTrainer(tiny_model_dir, LocalTrainerConfig(lr=1e-3), GRPOConfig(temperature=0.6))
    sample = TrainingSample(
        rollout_id="r0", prompt_ids=PROMPT, response_ids=[103, 104, 105], response_mask=[1, 1, 1]
    )
    ids = [*PROMPT, 103, 104, 105]
    with torch.no_grad():
        logits = trainer.model(input_ids=torch.tensor([ids])).logits[0, :-1]
        expected = torch.log_softmax(logits / 0.6, -1)[torch.arange(len(ids) - 1), torch.tensor(ids[1:])]
        tempered = trainer.response_logprobs(trainer.model, sample, 0.6)
        plain = trainer.response_logprobs(trainer.model, sample)
    assert torch.allclose(tempered, expected[len(PROMPT) - 1 :], atol=1e-6)
    assert float((tempered - plain).abs().max()) > 1e-3
    recorded = sample.model_copy(update={"logprobs": tempered.tolist(), "advantage": 1.0})
    metrics = trainer.grpo_step([recorded])
    assert metrics.approx_kl_old < 1e-8 and metrics.clip_fraction == 0.0  # on-policy: ratio 1 everywhere
    assert metrics.mismatch_kl is not None and metrics.mismatch_kl < 1e-8
    assert metrics.mismatch_max is not None and metrics.mismatch_max < 1e-5


def test_a_token_the_engine_recorded_far_from_the_trainer_shows_in_the_mismatch(tiny_model_dir: Path) -> None:
    """The engine's log-prob of one token is 3 nats above the trainer's (weights not synced, a wrong
    temperature): the first mini-batch, before any update, measures that and nothing else."""
    trainer = LocalTrainer(tiny_model_dir, LocalTrainerConfig(lr=1e-3, mini_batches=2))
    response = [103, 104, 105]
    samples = [
        TrainingSample(rollout_id=f"r{i}", prompt_ids=PROMPT, response_ids=response, response_mask=[1] * 3)
        for i in range(2)
    ]
    with torch.no_grad():
        own = trainer.response_logprobs(trainer.model, samples[0]).tolist()
    recorded = [  # the engine is off on one token of r0 only
        samples[0].model_copy(update={"logprobs": [own[0], own[1] + 3.0, own[2]], "advantage": 1.0}),
        samples[1].model_copy(update={"logprobs": own, "advantage": -1.0}),
    ]
    metrics = trainer.grpo_step(recorded)
    first_is_r0 = metrics.mismatch_max is not None and metrics.mismatch_max > 1  # the batches are shuffled
    assert metrics.mismatch_max == pytest.approx(3.0 if first_is_r0 else 0.0, abs=1e-4)
    k3 = (math.exp(3.0) - 3.0 - 1) / 3 if first_is_r0 else 0.0  # that mini-batch's 3 tokens, not all 6
    assert metrics.mismatch_kl == pytest.approx(k3, rel=1e-3, abs=1e-6)
    assert trainer.grpo_step(samples).mismatch_kl is None  # nothing recorded: nothing to compare


def test_training_only_the_top_layers_leaves_the_rest_as_it_was(tiny_model_dir: Path) -> None:
    trainer = LocalTrainer(tiny_model_dir, LocalTrainerConfig(lr=1e-2, train_layers=1, bf16=True))
    before = {name: p.detach().clone() for name, p in trainer.model.named_parameters()}
    losses = [trainer.sft_step(_sft_samples(4)).loss for _ in range(5)]
    assert losses[-1] < losses[0]
    top = f"model.layers.{len(trainer.model.model.layers) - 1}."
    for name, p in trainer.model.named_parameters():
        moved = not torch.equal(p.detach(), before[name])
        assert moved == (name.startswith(top) or name.startswith("model.norm.")), name
        assert p.dtype == torch.float32, name  # bf16 autocast: the weights stay float32
    with pytest.raises(ValueError, match="has only 2 layers"):
        LocalTrainer(tiny_model_dir, LocalTrainerConfig(train_layers=3))
