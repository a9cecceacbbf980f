"""`forge-proxy init-model --vision`: a small random Qwen2.5-VL-architecture model built on this machine.

The GUI policy of the paper is a vision-language model. Tests and the CPU default need one that is real
in every part a trainer and an engine touch, without a hub: a locally trained tokenizer (as
`init-model`'s) with Qwen's vision special tokens, a Qwen2-VL-style chat template (an image part renders
as `<|vision_start|><|image_pad|><|vision_end|>`), Qwen2-VL's image processor (the Pillow one: the
torchvision one cannot be installed beside the CPU torch here), and a randomly initialised
`Qwen2_5_VLForConditionalGeneration` whose ids for those tokens match the tokenizer's.

Sizes follow what vLLM's CPU build accepts: head dim 64 (2 heads of a 128 hidden), `mrope_section`
[8, 12, 12] (sums to head_dim / 2). A 448x252 screenshot is 144 image tokens. The output layer's init is
raised so the random model's logits are not flat (greedy answers differ from prompt to prompt).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import torch
from transformers import GenerationConfig, Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration
from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

from proxy.cpu_engine.model_init import (
    _REPO,
    CHAT_TEMPLATE,
    ENDOFTEXT,
    IM_END,
    SPECIAL_TOKENS,
    build_tokenizer,
    corpus,
)

VISION_START = "<|vision_start|>"
VISION_END = "<|vision_end|>"
IMAGE_PAD = "<|image_pad|>"
VIDEO_PAD = "<|video_pad|>"
VISION_PAD = "<|vision_pad|>"
VISION_TOKENS = (VISION_START, VISION_END, VISION_PAD, IMAGE_PAD, VIDEO_PAD)
IMAGE_PLACEHOLDER = VISION_START + IMAGE_PAD + VISION_END
"""What an image part renders as; the processor's grid decides how many `<|image_pad|>` it becomes."""

_TEXT_CONTENT = """    {%- if message.content is string %}
        {%- set content = message.content %}
    {%- else %}
        {%- set content = '' %}
    {%- endif %}"""
_PARTS_CONTENT = """    {%- if message.content is string %}
        {%- set content = message.content %}
    {%- else %}
        {%- set ns = namespace(text='') %}
        {%- for part in message.content or [] %}
            {%- if part.type in ('image', 'image_url', 'input_image') %}
                {%- set ns.text = ns.text + '<|vision_start|><|image_pad|><|vision_end|>' %}
            {%- elif part.type == 'text' %}
                {%- set ns.text = ns.text + part.text %}
            {%- endif %}
        {%- endfor %}
        {%- set content = ns.text %}
    {%- endif %}"""
if _TEXT_CONTENT not in CHAT_TEMPLATE:  # pragma: no cover - guards an edit of the text template
    raise RuntimeError("model_init.CHAT_TEMPLATE changed: update the vision template's content block")
VISION_CHAT_TEMPLATE = CHAT_TEMPLATE.replace(_TEXT_CONTENT, _PARTS_CONTENT)
"""`init-model`'s template, with content parts: text as it is, each image as `IMAGE_PLACEHOLDER`."""

MIN_PIXELS = 56 * 56
MAX_PIXELS = 448 * 252
"""The image processor resizes every image into this range of pixels (a screenshot to 448x252)."""


def init_vision_model(
    out_dir: Path,
    *,
    seed: int = 0,
    vocab_size: int = 4096,
    layers: int = 2,
    vision_depth: int = 2,
    max_position_embeddings: int = 32768,
    lm_head_std: float = 0.5,
    min_pixels: int = MIN_PIXELS,
    max_pixels: int = MAX_PIXELS,
    corpus_dirs: Sequence[Path] | None = None,
) -> Path:
    """Build the tokenizer, image processor and random model into `out_dir`; return `out_dir`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    dirs = list(corpus_dirs) if corpus_dirs is not None else [d for d in [_REPO / "catalog"] if d.is_dir()]
    tokenizer = build_tokenizer(
        corpus(seed, dirs), vocab_size, (*SPECIAL_TOKENS, *VISION_TOKENS), VISION_CHAT_TEMPLATE
    )
    vocab = tokenizer.get_vocab()
    ids = {t: vocab[t] for t in (ENDOFTEXT, IM_END, *VISION_TOKENS)}
    hidden, heads = 128, 2
    config = Qwen2_5_VLConfig(
        text_config={
            "vocab_size": len(tokenizer),
            "hidden_size": hidden,
            "intermediate_size": 3 * hidden,
            "num_hidden_layers": layers,
            "num_attention_heads": heads,
            "num_key_value_heads": 1,
            "max_position_embeddings": max_position_embeddings,
            "rope_scaling": {"type": "mrope", "mrope_section": [8, 12, 12]},
            "rope_theta": 1_000_000.0,
            "tie_word_embeddings": False,
            "bos_token_id": ids[ENDOFTEXT],
            "eos_token_id": ids[IM_END],
            "pad_token_id": ids[ENDOFTEXT],
        },
        vision_config={
            "depth": vision_depth,
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_heads": 2,
            "patch_size": 14,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
            "out_hidden_size": hidden,
            "window_size": 112,
            "fullatt_block_indexes": [vision_depth - 1],
        },
        image_token_id=ids[IMAGE_PAD],
        video_token_id=ids[VIDEO_PAD],
        vision_start_token_id=ids[VISION_START],
        vision_end_token_id=ids[VISION_END],
        tie_word_embeddings=False,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Qwen2_5_VLForConditionalGeneration(config)
        with torch.no_grad():
            model.lm_head.weight.normal_(0.0, lm_head_std)
    model.generation_config = GenerationConfig(
        bos_token_id=ids[ENDOFTEXT], eos_token_id=[ids[IM_END], ids[ENDOFTEXT]], pad_token_id=ids[ENDOFTEXT]
    )
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    Qwen2VLImageProcessorPil(min_pixels=min_pixels, max_pixels=max_pixels).save_pretrained(out_dir)
    return out_dir


def load_image_processor(model_dir: Path) -> Qwen2VLImageProcessorPil:
    """The image processor `init_vision_model` saved (Pillow-based; no torchvision needed)."""
    return Qwen2VLImageProcessorPil.from_pretrained(model_dir)
