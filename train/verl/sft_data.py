"""Teacher trajectories in veRL's SFT trainer: the parquet file it reads and the dataset classes it loads.

`forge-train sft-data` writes each successful chain twice: token-exact (`prompt_ids`, `response_ids`,
`response_mask`, tokenized by the student's tokenizer as the proxy served them) and as the rollout's
chat conversation (messages + tools). `write_sft_parquet` keeps one of the two forms:

- `tokens` (the default): one row per chain; `TokenSFTDataset` gives veRL the very tokens the rollout
  produced, with the loss on the teacher's own tokens only (mask 1; prompt and tool results 0). Nothing
  is re-templated, so SFT trains on what GRPO will sample from.
- `chat`: one row per rollout, `messages` and `tools` as JSON text; `ChatSFTDataset`
  (`train.verl.sft_chat`) is veRL's own `MultiTurnSFTDataset` (chat template turn by turn, loss on the
  assistant's turns) reading them. Use it when the dataset was tokenized for another model. JSON text,
  because parquet would store the messages and tool schemas as structs padded with nulls (`tool_calls:
  null` on a user turn, every tool given every other tool's parameters), which changes what the chat
  template renders.

veRL loads the class named in `data.custom_cls` in every trainer process.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import torch
from torch.utils.data import Dataset

from train.errors import TrainError

SFTForm = Literal["tokens", "chat"]
TOKEN_COLUMNS = ("rollout_id", "prompt_ids", "response_ids", "response_mask")
DATASET_CLASSES: dict[str, tuple[str, str]] = {
    "tokens": ("pkg://train.verl.sft_data", "TokenSFTDataset"),
    "chat": ("pkg://train.verl.sft_chat", "ChatSFTDataset"),
}
"""The class veRL loads for each form (`data.custom_cls.path`, `.name`)."""


class SFTDataError(TrainError, ValueError):
    """A dataset that cannot train as asked; the message names the file, the row and what is wrong."""


def sft_rows(dataset_dir: Path, form: SFTForm) -> list[dict[str, Any]]:
    """The rows of a `forge-train sft-data` dataset in `form`: one per chain (tokens) or per rollout
    (chat, the conversation each chain of a rollout carries)."""
    from datasets import load_from_disk

    try:
        data = load_from_disk(str(dataset_dir))
    except FileNotFoundError as exc:
        raise SFTDataError(f"{dataset_dir} is not a dataset written by `forge-train sft-data`") from exc
    needed = {"tokens": TOKEN_COLUMNS, "chat": ("rollout_id", "conversation")}[form]
    if missing := sorted(set(needed) - set(data.column_names)):
        raise SFTDataError(f"{dataset_dir}: the dataset lacks the columns {missing}")
    if form == "tokens":
        return [{key: row[key] for key in TOKEN_COLUMNS} for row in data]
    rows: dict[str, dict[str, Any]] = {}
    for index, row in enumerate(data):
        if row["rollout_id"] in rows:
            continue
        try:
            chat = json.loads(row["conversation"])
            messages, tools = chat["messages"], chat.get("tools") or []
        except (json.JSONDecodeError, TypeError, KeyError) as exc:
            raise SFTDataError(
                f"{dataset_dir}: row {index} (rollout {row['rollout_id']}) has no chat conversation "
                f"(`conversation` must be JSON with `messages`): {exc}"
            ) from exc
        rows[row["rollout_id"]] = {
            "rollout_id": row["rollout_id"],
            "messages": json.dumps(messages),
            "tools": json.dumps(tools),
        }
    return list(rows.values())


def write_sft_parquet(rows: list[dict[str, Any]], path: Path) -> Path:
    """Write the rows as the parquet file veRL's SFT trainer reads (`data.train_files`)."""
    import pandas as pd

    if not rows:
        raise SFTDataError(f"no rows to write to {path}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".parquet.tmp")
    pd.DataFrame(rows).to_parquet(tmp, index=False)
    tmp.replace(path)
    return path


def _read_parquet(files: Any, columns: tuple[str, ...], max_samples: int) -> Any:
    import pandas as pd

    paths = [files] if isinstance(files, str | Path) else list(files)
    frames = []
    for file in paths:
        frame = pd.read_parquet(file)
        if missing := sorted(set(columns) - set(frame.columns)):
            raise SFTDataError(f"{file}: no columns {missing} (write it with train.verl.sft_data)")
        frames.append(frame)
    data = pd.concat(frames, ignore_index=True)
    return data.iloc[:max_samples] if max_samples > 0 else data


class TokenSFTDataset(Dataset[dict[str, torch.Tensor]]):
    """Recorded chains as veRL's SFT samples, token for token: `input_ids` = prompt + response,
    `loss_mask` 1 only where the teacher sampled (veRL shifts it onto the predicting position).

    Takes veRL's dataset arguments (`data.custom_cls`) and honours its `pad_mode` (`no_padding`, or
    `right` to `max_length`), `max_length` and `truncation` (`error`, `left`, `right`).
    """

    def __init__(
        self,
        parquet_files: Any,
        tokenizer: Any,
        config: Any,
        processor: Any = None,
        max_samples: int = -1,
    ) -> None:
        config = config or {}
        self.pad_mode = str(config.get("pad_mode", "no_padding"))
        self.max_length = int(config.get("max_length", 1024))
        self.truncation = str(config.get("truncation", "error"))
        if self.pad_mode not in ("no_padding", "right"):
            raise SFTDataError(f"data.pad_mode is {self.pad_mode!r}; use 'no_padding' or 'right'")
        if self.truncation not in ("error", "left", "right"):
            raise SFTDataError(f"data.truncation is {self.truncation!r}; use 'error', 'left' or 'right'")
        pad = getattr(tokenizer, "pad_token_id", None)
        self.pad_token_id = int(pad) if pad is not None else 0
        frame = _read_parquet(parquet_files, TOKEN_COLUMNS, max_samples)
        vocab = len(tokenizer) if tokenizer is not None else None
        self.samples = [self._sample(row, vocab) for row in frame.itertuples(index=False)]

    def _sample(self, row: Any, vocab: int | None) -> tuple[torch.Tensor, torch.Tensor]:
        prompt, response, mask = list(row.prompt_ids), list(row.response_ids), list(row.response_mask)
        where = f"chain of rollout {row.rollout_id}"
        if len(response) != len(mask):
            raise SFTDataError(f"{where}: {len(response)} response ids but {len(mask)} mask values")
        if not any(mask):
            raise SFTDataError(f"{where}: no teacher token (response_mask is all 0)")
        ids = prompt + response
        if vocab is not None and max(ids) >= vocab:
            raise SFTDataError(
                f"{where}: token id {max(ids)} is outside the tokenizer's {vocab} ids; the dataset was "
                "tokenized for another model (run sft-data with this model's --tokenizer, or use form chat)"
            )
        if len(ids) > self.max_length and self.truncation == "error":
            raise SFTDataError(
                f"{where}: {len(ids)} tokens is longer than data.max_length={self.max_length} "
                "(raise it, or set data.truncation to left or right)"
            )
        loss = [0] * len(prompt) + [int(bool(m)) for m in mask]
        return torch.tensor(ids, dtype=torch.long), torch.tensor(loss, dtype=torch.long)

    def __len__(self) -> int:
        return len(self.samples)

    def __getitem__(self, index: int) -> dict[str, torch.Tensor]:
        input_ids, loss_mask = self.samples[index]
        if len(input_ids) > self.max_length:
            cut = slice(-self.max_length, None) if self.truncation == "left" else slice(self.max_length)
            input_ids, loss_mask = input_ids[cut], loss_mask[cut]
        length = len(input_ids)
        position_ids = torch.arange(length, dtype=torch.long)
        if self.pad_mode == "no_padding":
            return {"input_ids": input_ids, "position_ids": position_ids, "loss_mask": loss_mask}
        pad = self.max_length - length
        return {
            "input_ids": torch.nn.functional.pad(input_ids, (0, pad), value=self.pad_token_id),
            "attention_mask": torch.nn.functional.pad(torch.ones(length, dtype=torch.long), (0, pad)),
            "position_ids": torch.nn.functional.pad(position_ids, (0, pad)),
            "loss_mask": torch.nn.functional.pad(loss_mask, (0, pad)),
        }
