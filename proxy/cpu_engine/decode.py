"""One batched generation: left-padded prefill, then a KV-cached decode loop where rows finish on their own.

Padding is masked and every row gets its own position ids, so a row's tokens and log-probs are the ones it
would get alone (up to float rounding). Finished rows are dropped from the batch and the cache at once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import torch
from transformers import DynamicCache, PreTrainedModel

from proxy.cpu_engine.sampling import sample
from proxy.cpu_engine.schema import FinishReason, SamplingParams

PREFILL_CHUNK = 1024
"""Prompt tokens per prefill forward: bounds attention memory on long prompts."""


@dataclass
class Row:
    """One request inside a batch: its input, its settings and, once run, its output."""

    prompt: list[int]
    params: SamplingParams
    stop_ids: frozenset[int]
    output: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    finish: FinishReason | None = None
    generator: torch.Generator = field(default_factory=torch.Generator)

    def __post_init__(self) -> None:
        seed = self.params.seed if self.params.seed is not None else random.getrandbits(63)
        self.generator.manual_seed(seed)

    def budget(self, max_context: int) -> int:
        """How many tokens this row may still generate."""
        left = min(self.params.max_new_tokens, max_context - len(self.prompt))
        return left - len(self.output)


def generate(model: PreTrainedModel, rows: list[Row], max_context: int) -> None:
    """Run `rows` to completion in one batch, filling each row's output, log-probs and finish reason."""
    live = [r for r in rows if not _finished(r, max_context)]
    if not live:
        return
    width = max(len(r.prompt) for r in live)
    ids = torch.zeros(len(live), width, dtype=torch.long)
    mask = torch.zeros(len(live), width, dtype=torch.long)
    for i, r in enumerate(live):
        ids[i, width - len(r.prompt) :] = torch.tensor(r.prompt)
        mask[i, width - len(r.prompt) :] = 1
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    cache = DynamicCache(config=model.config)
    with torch.inference_mode():
        logits = _prefill(model, ids, mask, positions, cache)
        temperature, top_p, top_k = _settings(live)
        while True:
            tokens, keep = _step(live, logits, (temperature, top_p, top_k), max_context)
            if not keep:
                return
            if len(keep) < len(live):
                index = torch.tensor(keep)
                cache.batch_select_indices(index)
                live = [live[i] for i in keep]
                tokens, mask, positions = tokens[index], mask[index], positions[index]
                temperature, top_p, top_k = temperature[index], top_p[index], top_k[index]
            mask = torch.cat([mask, torch.ones(len(live), 1, dtype=torch.long)], dim=1)
            positions = positions[:, -1:] + 1
            out = model(input_ids=tokens[:, None], attention_mask=mask, position_ids=positions, cache=cache)
            logits = out.logits[:, -1, :]


def _step(
    rows: list[Row],
    logits: torch.Tensor,
    settings: tuple[torch.Tensor, torch.Tensor, torch.Tensor],
    max_context: int,
) -> tuple[torch.Tensor, list[int]]:
    """Sample each row's next token from its own generator, append it and its log-prob; the tokens, and
    the indices of the rows that go on."""
    uniforms = torch.stack([torch.rand((), generator=r.generator) for r in rows])
    tokens, logprobs = sample(logits, *settings, uniforms)
    keep = []
    for i, (r, t, lp) in enumerate(zip(rows, tokens.tolist(), logprobs.tolist(), strict=True)):
        r.output.append(t)
        r.logprobs.append(lp)
        if not _finished(r, max_context):
            keep.append(i)
    return tokens, keep


def _prefill(
    model: PreTrainedModel,
    ids: torch.Tensor,
    mask: torch.Tensor,
    positions: torch.Tensor,
    cache: DynamicCache,
) -> torch.Tensor:
    """Feed the prompts in chunks; return the logits after the last prompt token of every row."""
    width = ids.shape[1]
    logits = torch.empty(0)
    for start in range(0, width, PREFILL_CHUNK):
        end = min(start + PREFILL_CHUNK, width)
        out = model(
            input_ids=ids[:, start:end],
            attention_mask=mask[:, :end],
            position_ids=positions[:, start:end],
            cache=cache,
            use_cache=True,
            logits_to_keep=1,
        )
        logits = out.logits[:, -1, :]
    return logits


def _settings(rows: list[Row]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    temperature = torch.tensor([r.params.temperature for r in rows], dtype=torch.float32)
    top_p = torch.tensor([r.params.top_p for r in rows], dtype=torch.float32)
    top_k = torch.tensor([r.params.top_k for r in rows], dtype=torch.long)
    return temperature, top_p, top_k


def _finished(row: Row, max_context: int) -> bool:
    """Set `row.finish` when the row is done: a stop id was sampled, or its budget is spent."""
    if row.output and row.output[-1] in row.stop_ids:
        row.finish = FinishReason(type="stop", matched=row.output[-1])
    elif row.budget(max_context) <= 0:
        row.finish = FinishReason(type="length", length=len(row.output))
    return row.finish is not None


def generate_one(
    model: PreTrainedModel,
    row: Row,
    max_context: int,
    positions: torch.Tensor,
    delta: int,
    **inputs: Any,
) -> None:
    """Run one row alone with 3-D positions (a Qwen-VL model: time, height and width over the image
    patches, text positions on one line): `positions` [3, 1, prompt] for the prompt, and the k-th sampled
    token at prompt length + k + `delta`. `inputs` go to the prefill (pixel values and image grid)."""
    if _finished(row, max_context):
        return
    ids = torch.tensor([row.prompt], dtype=torch.long)
    mask = torch.ones_like(ids)
    cache = DynamicCache(config=model.config)
    with torch.inference_mode():
        out = model(
            input_ids=ids,
            attention_mask=mask,
            position_ids=positions,
            cache=cache,
            use_cache=True,
            logits_to_keep=1,
            **inputs,
        )
        logits = out.logits[:, -1, :]
        settings = _settings([row])
        while True:
            tokens, keep = _step([row], logits, settings, max_context)
            if not keep:
                return
            mask = torch.cat([mask, torch.ones(1, 1, dtype=torch.long)], dim=1)
            at = torch.full((3, 1, 1), len(row.prompt) + len(row.output) - 1 + delta, dtype=torch.long)
            out = model(
                input_ids=tokens[:, None], attention_mask=mask, position_ids=at, cache=cache, use_cache=True
            )
            logits = out.logits[:, -1, :]
