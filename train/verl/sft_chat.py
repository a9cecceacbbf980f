"""veRL's own multi-turn SFT dataset over our chat rows (the `chat` form of `train.verl.sft_data`).

A module of its own because veRL's `MultiTurnSFTDataset` imports its Qwen2-VL helpers, which need the
`transformers` veRL pins (< 5.11, the GPU node's); the `tokens` form imports nothing of veRL.
"""

from __future__ import annotations

import json
from typing import Any

from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset


class ChatSFTDataset(MultiTurnSFTDataset):
    """`MultiTurnSFTDataset` (chat template turn by turn, loss on the assistant's turns) reading rows
    whose `messages` and `tools` are JSON text, decoded back to exactly what the rollout sent."""

    def _read_files_and_process(self) -> None:
        import pandas as pd

        super()._read_files_and_process()
        for key in (self.messages_key, self.tools_key):
            decoded = [_json_value(text) for text in self.dataframe[key]]
            self.dataframe[key] = pd.Series(decoded, index=self.dataframe.index, dtype=object)
        self.messages = self.dataframe[self.messages_key].tolist()
        self.tools = [tools or None for tools in self.dataframe[self.tools_key].tolist()]


def _json_value(text: Any) -> Any:
    return json.loads(text) if isinstance(text, str) else text
