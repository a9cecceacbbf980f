"""`forge-proxy init-model --vision`: a small random Qwen2.5-VL model built offline, whose tokenizer, chat
template, image processor and config agree, so the processor's expansion of an image is what the model
reads; deterministic for a seed."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
import torch
from PIL import Image
from transformers import AutoTokenizer, PreTrainedTokenizerBase, Qwen2_5_VLForConditionalGeneration
from typer.testing import CliRunner

from proxy.cli import app
from proxy.cpu_engine.vision_model_init import (
    IMAGE_PAD,
    IMAGE_PLACEHOLDER,
    VISION_TOKENS,
    init_vision_model,
    load_image_processor,
)
from proxy.vision_prompt import VisionPrompt


@pytest.fixture(scope="module")
def vision_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return init_vision_model(tmp_path_factory.mktemp("vision") / "model", corpus_dirs=[])


@pytest.fixture(scope="module")
def tok(vision_dir: Path) -> PreTrainedTokenizerBase:
    return AutoTokenizer.from_pretrained(vision_dir)


def _screenshot(width: int = 1280, height: int = 800) -> Image.Image:
    pixels = np.random.default_rng(0).integers(0, 256, (height, width, 3), dtype=np.uint8)
    return Image.fromarray(pixels)


def test_the_config_names_the_tokenizers_vision_tokens(
    vision_dir: Path, tok: PreTrainedTokenizerBase
) -> None:
    config = json.loads((vision_dir / "config.json").read_text())
    assert config["architectures"] == ["Qwen2_5_VLForConditionalGeneration"]
    ids = {t: tok.convert_tokens_to_ids(t) for t in VISION_TOKENS}
    assert config["image_token_id"] == ids[IMAGE_PAD]
    assert config["vision_start_token_id"] == ids["<|vision_start|>"]
    assert config["vision_end_token_id"] == ids["<|vision_end|>"]
    assert config["video_token_id"] == ids["<|video_pad|>"]
    assert all(tok.encode(t, add_special_tokens=False) == [ids[t]] for t in VISION_TOKENS)
    text = config["text_config"]
    assert text["vocab_size"] == len(tok)
    assert text["hidden_size"] // text["num_attention_heads"] == 64, "a head size vLLM's CPU attention takes"
    assert sum(text["rope_parameters"]["mrope_section"]) == 32


def test_an_image_part_renders_as_one_placeholder_where_it_was(tok: PreTrainedTokenizerBase) -> None:
    messages = [
        {"role": "system", "content": "You drive a browser."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Look: "},
                {"type": "image"},
                {"type": "text", "text": " ok?"},
            ],
        },
    ]
    text = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert text == (
        "<|im_start|>system\nYou drive a browser.<|im_end|>\n"
        f"<|im_start|>user\nLook: {IMAGE_PLACEHOLDER} ok?<|im_end|>\n<|im_start|>assistant\n"
    )
    plain = [messages[0], {"role": "user", "content": "Look: ok?"}]
    assert "<|vision_start|>" not in tok.apply_chat_template(plain, tokenize=False)


def test_the_processors_expansion_is_what_the_model_reads(
    vision_dir: Path, tok: PreTrainedTokenizerBase
) -> None:
    processor = load_image_processor(vision_dir)
    out = processor(images=[_screenshot()], return_tensors="pt")
    grid = out["image_grid_thw"]
    assert grid.tolist() == [[1, 18, 30]], "1280x800 is resized to 252x420 (within 448x252 pixels)"
    pads = int(grid[0].prod()) // 4
    assert pads == 135
    prompt = tok.apply_chat_template(
        [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "What is this?"}]}],
        tokenize=False,
        add_generation_prompt=True,
    )
    ids = tok(
        prompt.replace(IMAGE_PAD, IMAGE_PAD * pads), return_tensors="pt", add_special_tokens=False
    ).input_ids
    model = Qwen2_5_VLForConditionalGeneration.from_pretrained(vision_dir).eval()
    with torch.no_grad():
        logits = model(input_ids=ids, pixel_values=out["pixel_values"], image_grid_thw=grid).logits
        assert logits.shape == (1, ids.shape[1], len(tok))
        one_short = ids[:, ids[0] != tok.convert_tokens_to_ids(IMAGE_PAD)]
        one_short = torch.cat(
            [
                one_short[:, :3],
                torch.full((1, pads - 1), tok.convert_tokens_to_ids(IMAGE_PAD)),
                one_short[:, 3:],
            ],
            1,
        )
        with pytest.raises(ValueError):  # one pad too few: the model refuses, it does not guess
            model(input_ids=one_short, pixel_values=out["pixel_values"], image_grid_thw=grid)
    assert logits[0, -1].std() > 1.0, "the raised output init gives logits that are not flat"
    other = processor(images=[_screenshot(640, 400).rotate(90)], return_tensors="pt")
    assert not torch.equal(other["pixel_values"][:10], out["pixel_values"][:10])


def test_same_seed_same_weights(vision_dir: Path, tmp_path: Path) -> None:
    again = init_vision_model(tmp_path / "again", corpus_dirs=[])
    for name in ("model.safetensors", "tokenizer.json", "preprocessor_config.json"):
        assert (
            hashlib.sha256((again / name).read_bytes()).digest()
            == hashlib.sha256((vision_dir / name).read_bytes()).digest()
        ), name


def test_cli_builds_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["init-model", "--vision", str(tmp_path / "m"), "--vocab-size", "1024"])
    assert result.exit_code == 0, result.output
    assert "vision-language model written to" in result.output
    assert (tmp_path / "m" / "preprocessor_config.json").is_file()
    refused = CliRunner().invoke(app, ["init-model", "--vision", "--from", "smollm2", str(tmp_path / "n")])
    assert refused.exit_code == 2 and "does not take" in refused.output


@pytest.mark.parametrize("size", [(1280, 800), (30, 20), (3000, 2000), (200, 2000), (448, 252), (57, 999)])
def test_the_pad_count_from_an_images_size_is_the_processors(vision_dir: Path, size: tuple[int, int]) -> None:
    """The proxy counts pads from the size alone; the engine's pixel values must agree."""
    vision = VisionPrompt(vision_dir)
    assert vision.pads_for(*size) == vision.inputs([_png_bytes(*size)]).pads[0]


def _png_bytes(width: int, height: int) -> bytes:
    out = io.BytesIO()
    _screenshot(width, height).save(out, format="PNG")
    return out.getvalue()
