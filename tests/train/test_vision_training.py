"""Training a vision-language policy on screenshots (the browser domain, `--model tiny-vl`), without Docker:
forge-web's request (goal + one 1280x800 screenshot) goes through the proxy to our CPU engine serving the
tiny random Qwen2.5-VL model; the recorded chain becomes a sample that names its screenshot in the blob
store, and LocalTrainer, reading the same bytes through the same processor at the same 3-D positions,
recomputes exactly the engine's log-probs (GRPO's mismatch_kl is ~0 before its update). The oracle, given
that model as its tokenizer, takes the screenshots and records them token-exactly, and SFT learns from
such a sample with its image (the vision tower gets a gradient); the engine reloads the weights it
exports."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import openai
import pytest
import torch
from PIL import Image

from harnesses.forge_web.agent import build_messages
from proxy.app import create_app
from proxy.blob_store import BlobStore
from proxy.config import ProxyConfig, SamplingOverrides
from proxy.cpu_engine import CpuEngine
from proxy.cpu_engine import create_app as create_engine_app
from proxy.cpu_engine.vision_model_init import init_vision_model
from proxy.cpu_engine.weights import load_model, reload_weights
from proxy.engines.base import Engine
from proxy.engines.oracle import NopEngine, OracleEngine
from proxy.engines.sglang import LocalEngine
from proxy.serving import BackgroundServer
from proxy.store import CallStore
from proxy.vision_prompt import VisionPrompt
from tests.conftest import write_task
from train.embedded import TINY_VL_MAX_PIXELS, TINY_VL_MIN_PIXELS
from train.grpo_config import GRPOConfig
from train.local_trainer import LocalTrainer, LocalTrainerConfig
from train.samples import samples_from_store
from train.sft import load_dataset_samples, save_dataset

TEMPERATURE = 0.6
GOAL = "Open http://127.0.0.1:8080/ and buy the red mug."
SCRIPT = [{"action": "goto", "url": "http://127.0.0.1:8080/"}, {"action": "done"}]


def screenshot(seed: int) -> bytes:
    """A 1280x800 page-like PNG: a flat page with a noisy band (text) and a header."""
    rng = np.random.default_rng(seed)
    pixels = np.full((800, 1280, 3), 245, dtype=np.uint8)
    pixels[:60] = (30, 60, 120)
    pixels[120:400, 80:1200] = rng.integers(0, 255, (280, 1120, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture(scope="module")
def vision_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return init_vision_model(
        tmp_path_factory.mktemp("tiny-vl") / "model",
        corpus_dirs=[],
        min_pixels=TINY_VL_MIN_PIXELS,
        max_pixels=TINY_VL_MAX_PIXELS,
    )


def _record(engine: Engine, run: Path, overrides: SamplingOverrides | None = None) -> CallStore:
    """Two forge-web calls through the proxy in front of `engine` (rollouts r-0, r-1, one screenshot each);
    the run's call store, open."""
    store = CallStore.for_run(run)
    config = ProxyConfig(accept_any_model=True, overrides=overrides or SamplingOverrides())
    with BackgroundServer(create_app(engine, store, config)) as server:
        for rollout, url, history, seed in (
            ("r-0", "about:blank", [], 0),
            ("r-1", "http://127.0.0.1:8080/", ['{"action": "goto"}'], 1),
        ):
            client = openai.OpenAI(base_url=f"{server.url}/rollouts/{rollout}/v1", api_key="x", max_retries=0)
            client.chat.completions.create(
                model="forge-policy",
                messages=build_messages(GOAL, url, history, screenshot(seed)),  # type: ignore[arg-type]
                seed=3 + seed,
            )
    return store


@pytest.fixture(scope="module")
def policy_store(vision_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[CallStore]:
    """Two forge-web calls (rollouts r-0, r-1) sampled by the CPU engine at T=0.6, 24 tokens each."""
    engine = CpuEngine(vision_dir, threads=1)
    engine.start()
    try:
        with BackgroundServer(create_engine_app(engine)) as engine_server:
            overrides = SamplingOverrides(temperature=TEMPERATURE, max_tokens=24)
            store = _record(
                LocalEngine(engine_server.url, vision_dir), tmp_path_factory.mktemp("policy"), overrides
            )
    finally:
        engine.close()
    yield store
    store.close()


def test_the_trainer_recomputes_the_engines_log_probs_with_the_screenshot(
    vision_dir: Path, policy_store: CallStore
) -> None:
    samples = samples_from_store(policy_store, {"r-0": 1.0, "r-1": -1.0})
    assert len(samples) == 2
    blobs = BlobStore.beside(policy_store.path)
    vision = VisionPrompt(vision_dir)
    for sample, seed in zip(samples, (0, 1), strict=True):
        (image,) = sample.images
        assert image.read_bytes() == screenshot(seed) and image.parent.parent == blobs.root / "sha256"
        assert sample.prompt_ids.count(vision.image_token_id) == 135  # 1280x800 -> 420x252 -> 15x9 tokens
        assert sample.logprobs is not None and sum(sample.response_mask) == 24
    trainer = LocalTrainer(vision_dir, LocalTrainerConfig(lr=1e-3), GRPOConfig(temperature=TEMPERATURE))
    for sample in samples:
        with torch.no_grad():
            recomputed = trainer._logprobs(trainer.model, sample, TEMPERATURE)
        assert sample.logprobs is not None
        assert torch.allclose(recomputed, torch.tensor(sample.logprobs), atol=1e-4, rtol=0)
        blind = sample.model_copy(update={"images": [blobs.path(s.images[0].name) for s in samples]})
        with pytest.raises(ValueError, match="image"):  # two images for one image's pads
            trainer._logprobs(trainer.model, blind, TEMPERATURE)
    metrics = trainer.grpo_step(samples)
    assert metrics.mismatch_kl is not None and metrics.mismatch_kl < 1e-8
    assert metrics.mismatch_max is not None and metrics.mismatch_max < 1e-4
    assert metrics.trained_tokens == 48 and metrics.grad_norm > 0


def test_a_text_model_refuses_a_sample_with_images(tiny_model_dir: Path, policy_store: CallStore) -> None:
    (sample,) = samples_from_store(policy_store, {"r-0": 1.0})
    trainer = LocalTrainer(tiny_model_dir)
    with pytest.raises(ValueError, match="text model"):
        trainer.sft_step([sample])


def test_the_oracle_records_screenshots_through_the_vl_token_path_and_sft_learns_from_them(
    vision_dir: Path, tiny_model_dir: Path, tmp_path: Path
) -> None:
    write_task(tmp_path / "catalog", "shop-mug", instruction=GOAL + "\n", files={
        "solution/actions.json": json.dumps(SCRIPT)
    })  # fmt: skip
    assert OracleEngine(tmp_path / "catalog").accepts_images  # no token path: it ignores the images
    assert not OracleEngine(tmp_path / "catalog", tokenizer=tiny_model_dir).accepts_images
    assert NopEngine(tokenizer=vision_dir).accepts_images
    oracle = OracleEngine(tmp_path / "catalog", tokenizer=vision_dir)
    assert oracle.accepts_images
    store = _record(oracle, tmp_path / "teacher")
    (call,) = store.calls("r-0")
    vision = VisionPrompt(vision_dir)
    assert call.prompt_ids is not None and call.prompt_ids.count(vision.image_token_id) == 135
    assert '"action": "goto"' in oracle._tokens.tokenizer.decode(call.completion_ids)  # type: ignore[union-attr]
    samples = samples_from_store(store, {"r-0": 0.0, "r-1": 0.0})
    assert [len(s.images) for s in samples] == [1, 1]
    save_dataset(samples, {}, tmp_path / "teacher" / "dataset")
    loaded = load_dataset_samples(tmp_path / "teacher" / "dataset")
    assert [s.images for s in loaded] == [s.images for s in samples]
    trainer = LocalTrainer(vision_dir, LocalTrainerConfig(lr=3e-3))
    visual = trainer.model.model.visual.patch_embed.proj.weight
    before = visual.detach().clone()
    first = trainer.sft_step(samples)
    assert visual.grad is not None and float(visual.grad.abs().sum()) > 0, "the image reached the loss"
    assert not torch.equal(before, visual.detach())
    for _ in range(4):
        last = trainer.sft_step(samples)
    assert last.loss < first.loss
    exported = trainer.export_weights(tmp_path / "sft-model")
    assert VisionPrompt.found_in(exported)
    served = load_model(vision_dir)  # the engine's weight sync: the files' names are the checkpoint's
    reload_weights(served, exported)
    trained = trainer.model.state_dict()
    assert all(torch.equal(tensor, trained[name]) for name, tensor in served.state_dict().items())


def test_training_the_top_layers_of_a_vl_model_leaves_the_vision_tower(vision_dir: Path) -> None:
    trainer = LocalTrainer(vision_dir, LocalTrainerConfig(train_layers=1))
    model = trainer.model.model
    assert not any(p.requires_grad for p in model.visual.parameters())
    assert not any(p.requires_grad for p in model.language_model.layers[0].parameters())
    assert all(p.requires_grad for p in model.language_model.layers[1].parameters())
