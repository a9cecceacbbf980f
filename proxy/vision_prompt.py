"""A vision-language model's prompt: each image's placeholder expanded by the model's own processor.

The chat template renders one `<|image_pad|>` per image; the image processor decides from the image's size
how many patches it is (`image_grid_thw`), and the prompt holds one pad per merged patch. The token engine
expands the pads before the prompt is recorded (so records are the ids the model reads), and the engine
turns the same image bytes into the same pixel values with the same processor, and checks that the pad
count agrees. Both load it from the model directory (`preprocessor_config.json` beside `config.json`).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class VisionPromptError(ValueError):
    """The prompt's image placeholders do not agree with its images; says how."""


@dataclass
class ImageInputs:
    """What the model reads for a prompt's images."""

    pixel_values: Any
    """torch.Tensor [patches, channels x temporal x patch x patch]."""
    image_grid_thw: Any
    """torch.Tensor [images, 3]."""
    pads: list[int]
    """Pad tokens of each image."""


class VisionPrompt:
    """The image processor and image token of a vision-language model directory."""

    def __init__(self, model_dir: Path) -> None:
        from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

        config = json.loads((Path(model_dir) / "config.json").read_text())
        self.image_token_id = int(config["image_token_id"])
        self.processor = Qwen2VLImageProcessorPil.from_pretrained(model_dir)
        self.merge = int(config.get("vision_config", {}).get("spatial_merge_size", 2))

    @staticmethod
    def found_in(model_dir: Path | str) -> bool:
        """Whether `model_dir` is a vision-language model this module can serve."""
        directory = Path(model_dir)
        if (
            not (directory / "preprocessor_config.json").is_file()
            or not (directory / "config.json").is_file()
        ):
            return False
        config = json.loads((directory / "config.json").read_text())
        return "vision_config" in config and "image_token_id" in config

    def inputs(self, images: list[bytes]) -> ImageInputs:
        from PIL import Image

        pictures = [Image.open(io.BytesIO(data)).convert("RGB") for data in images]
        out = self.processor(images=pictures, return_tensors="pt")
        grid = out["image_grid_thw"]
        pads = [int(row.prod()) // (self.merge * self.merge) for row in grid]
        return ImageInputs(pixel_values=out["pixel_values"], image_grid_thw=grid, pads=pads)

    def pads_for(self, width: int, height: int) -> int:
        """Pad tokens of an image of this size, from the processor's own resize rule, without touching
        its pixels (the proxy needs the count; the engine makes the pixel values and checks it)."""
        return int(self.processor.get_number_of_image_patches(height, width, {})) // (self.merge * self.merge)

    def expand(self, ids: list[int], pads: list[int]) -> list[int]:
        """`ids` with the i-th single image token repeated `pads[i]` times."""
        found = ids.count(self.image_token_id)
        if found != len(pads):
            raise VisionPromptError(f"the prompt has {found} image placeholder(s) for {len(pads)} image(s)")
        out: list[int] = []
        images = iter(pads)
        for token in ids:
            out.extend([token] * next(images) if token == self.image_token_id else [token])
        return out

    def check(self, ids: list[int], pads: list[int]) -> None:
        """An expanded prompt must hold exactly the pads its images are (the engine's check)."""
        found = ids.count(self.image_token_id)
        if found != sum(pads):
            raise VisionPromptError(
                f"the prompt has {found} image token(s); its {len(pads)} image(s) are {sum(pads)}"
            )

    def positions(self, model: Any, ids: Any, images: ImageInputs | None) -> tuple[Any, Any, int]:
        """Qwen-VL's 3-D positions of `ids` (torch [1, n]), the image-token mask and the rope delta of the
        tokens after the prompt: the rope index over the image grids, plain text positions without images.
        The engine samples and the trainer recomputes log-probs at these same positions."""
        import torch

        types = (ids == self.image_token_id).int()
        if images is None:
            return torch.arange(ids.shape[1]).view(1, 1, -1).expand(3, 1, -1), types, 0
        positions, deltas = model.model.get_rope_index(
            ids, mm_token_type_ids=types, image_grid_thw=images.image_grid_thw, attention_mask=None
        )
        return positions, types, int(deltas.flatten()[0])
