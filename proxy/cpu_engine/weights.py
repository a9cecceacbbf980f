"""Loading a model directory, and swapping new weights into a loaded model (weight sync after a step)."""

from __future__ import annotations

import json
from pathlib import Path

import torch
from safetensors.torch import load_file
from transformers import AutoModelForCausalLM, AutoModelForImageTextToText, PreTrainedModel


class WeightsError(ValueError):
    """New weights that cannot replace the loaded ones; the message says why."""


def load_model(model_dir: Path) -> PreTrainedModel:
    """The causal LM (or image-text-to-text model) in `model_dir`, in float32 on CPU, for inference."""
    config = (
        json.loads((Path(model_dir) / "config.json").read_text())
        if (Path(model_dir) / "config.json").is_file()
        else {}
    )
    loader = AutoModelForImageTextToText if "vision_config" in config else AutoModelForCausalLM
    model = loader.from_pretrained(model_dir, dtype=torch.float32)
    return model.eval()


def reload_weights(model: PreTrainedModel, model_dir: Path) -> None:
    """Copy the safetensors weights of `model_dir` into `model`, in place.

    Everything is checked before anything is copied, so a bad directory leaves the served weights intact.
    Tied weights (an LM head sharing the embedding) may be absent from the files. A vision-language
    model's files name its weights as its original checkpoints do (`model.layers.0…`, not the loaded
    `model.language_model.layers.0…`): its directory is loaded as transformers loads it, which renames them.
    """
    current = model.state_dict()
    if getattr(model.config, "vision_config", None) is not None:
        _read_safetensors(model_dir)  # the same refusal of a directory without weights
        state = load_model(model_dir).state_dict()
    else:
        state = _read_safetensors(model_dir)
    in_files = {current[k].data_ptr() for k in state if k in current}
    tied = {k for k in current if k not in state and current[k].data_ptr() in in_files}
    missing = sorted(set(current) - set(state) - tied)
    unexpected = sorted(set(state) - set(current))
    wrong = sorted(k for k in set(state) & set(current) if state[k].shape != current[k].shape)
    problems = [
        f"{what}: {', '.join(keys[:5])}{' …' if len(keys) > 5 else ''}"
        for what, keys in (("missing", missing), ("unexpected", unexpected), ("shape differs", wrong))
        if keys
    ]
    if problems:
        raise WeightsError(f"weights in {model_dir} do not fit the served model ({'; '.join(problems)})")
    with torch.no_grad():
        for name, tensor in state.items():
            current[name].copy_(tensor)


def _read_safetensors(model_dir: Path) -> dict[str, torch.Tensor]:
    single = model_dir / "model.safetensors"
    if single.is_file():
        return load_file(single)
    index = model_dir / "model.safetensors.index.json"
    if not index.is_file():
        raise WeightsError(f"no model.safetensors or model.safetensors.index.json in {model_dir}")
    shards = sorted(set(json.loads(index.read_text())["weight_map"].values()))
    state: dict[str, torch.Tensor] = {}
    for shard in shards:
        state.update(load_file(model_dir / shard))
    return state
