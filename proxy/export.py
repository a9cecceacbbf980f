"""Writing chains as training data: one row per chain, JSONL or parquet, and reading them back exactly.

Rows carry what veRL's agent loop output needs (`prompt_ids, response_ids, response_mask,
response_logprobs, reward, rollout_id, chain_index, num_turns`) plus `call_seqs` so a row can be traced
back to its calls. A rollout's reward is copied to each of its chains. A rollout without a reward gets
`reward: null` by default, so nothing is lost silently; with `require_reward=True` its chains are left
out and named in the result (a trainer usually cannot use an unrewarded chain).

Images: a JSONL row names its chain's images by hash (`images`, their bytes in the run's blob store). A
parquet file carries them: `images` is a list of Hugging Face `datasets` `Image` values (the bytes, and
`<sha256>.<ext>` as the path), which `datasets` gives back as PIL images (veRL's `multi_modal_data`
layout), and `image_refs` keeps what each one is.

Files are written to a temporary name and renamed, so a half-written export never looks finished.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from proxy.blob_store import BlobStore
from proxy.trajectory import Chain, Trajectory


class ChainRow(Chain):
    """One exported row: a chain and its rollout's reward."""

    reward: float | None = None
    """The rollout's reward, copied to each of its chains; None when the rollout has none."""


class ExportResult(BaseModel):
    """What an export wrote."""

    path: Path
    """The file written."""
    rows: int
    """Rows (chains) written."""
    skipped_rollouts: list[str] = Field(default_factory=list)
    """Rollouts left out for want of a reward (only with `require_reward=True`)."""


def _rows(
    trajectories: Iterable[Trajectory], rewards: Mapping[str, float | None], require_reward: bool
) -> tuple[list[ChainRow], list[str]]:
    rows: list[ChainRow] = []
    skipped: list[str] = []
    for trajectory in trajectories:
        reward = rewards.get(trajectory.rollout_id)
        if reward is not None and (isinstance(reward, bool) or not math.isfinite(reward)):
            raise ValueError(f"rollout {trajectory.rollout_id!r}: reward {reward!r} is not a finite number")
        if reward is None and require_reward:
            skipped.append(trajectory.rollout_id)
            continue
        for chain in trajectory.chains:
            value = None if reward is None else float(reward)
            rows.append(ChainRow.model_construct(**dict(chain), reward=value))
    return rows, skipped


def export_jsonl(
    trajectories: Iterable[Trajectory],
    rewards: Mapping[str, float | None],
    path: Path,
    *,
    require_reward: bool = False,
) -> ExportResult:
    """One JSON object per line and chain. Non-finite log-probs are written as Python's json does
    (`-Infinity`), which `load_chains` reads back."""
    rows, skipped = _rows(trajectories, rewards, require_reward)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row.model_dump(), separators=(",", ":")))
            out.write("\n")
    os.replace(tmp, path)
    return ExportResult(path=path, rows=len(rows), skipped_rollouts=skipped)


def _features() -> Any:
    from datasets import Features, Image, List, Value

    return Features(
        {
            "rollout_id": Value("string"),
            "chain_index": Value("int32"),
            "prompt_ids": List(Value("int32")),
            "response_ids": List(Value("int32")),
            "response_mask": List(Value("int8")),
            "response_logprobs": List(Value("float64")),
            "call_seqs": List(Value("int32")),
            "num_turns": Value("int32"),
            "reward": Value("float64"),
            "images": List(Image()),
            "image_refs": List(
                {
                    "sha256": Value("string"),
                    "media_type": Value("string"),
                    "width": Value("int32"),
                    "height": Value("int32"),
                    "size": Value("int64"),
                }
            ),
        }
    )


def export_parquet(
    trajectories: Iterable[Trajectory],
    rewards: Mapping[str, float | None],
    path: Path,
    *,
    require_reward: bool = False,
    blobs: BlobStore | None = None,
) -> ExportResult:
    """The same rows as `export_jsonl`, as parquet via HF `datasets` (ids int32, mask int8, log-probs
    float64), with the chains' images in it: chains with images need the run's blob store."""
    from datasets import Dataset

    rows, skipped = _rows(trajectories, rewards, require_reward)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    features = _features()
    if blobs is None and any(row.images for row in rows):
        raise ValueError("the chains have images: pass the run's blob store to export them")
    columns = {
        name: [getattr(row, name) for row in rows] for name in features if not name.startswith("image")
    }
    columns["images"] = [
        [{"bytes": blobs.get(i.sha256), "path": i.filename} for i in row.images] if blobs is not None else []
        for row in rows
    ]
    columns["image_refs"] = [[image.model_dump() for image in row.images] for row in rows]
    dataset = Dataset.from_dict(columns, features=features)
    dataset.to_parquet(str(tmp))
    os.replace(tmp, path)
    return ExportResult(path=path, rows=len(rows), skipped_rollouts=skipped)


def load_chains(path: Path) -> list[ChainRow]:
    """Read an export back (`.jsonl` or `.parquet`), in the order written."""
    path = Path(path)
    records: Sequence[dict[str, Any]]
    if path.suffix == ".jsonl":
        with path.open(encoding="utf-8") as lines:
            records = [json.loads(line) for line in lines if line.strip()]
    elif path.suffix == ".parquet":
        import pyarrow.parquet as pq

        records = pq.read_table(path).to_pylist()
        for record in records:  # the bytes stay in the file; a row names its images
            record["images"] = record.pop("image_refs", [])
    else:
        raise ValueError(f"{path}: unknown export format (expected .jsonl or .parquet)")
    return [ChainRow.model_validate(record) for record in records]
