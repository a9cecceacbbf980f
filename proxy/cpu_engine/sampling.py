"""Choosing the next token for every row of a batch, each row with its own settings and seed.

The log-prob reported for a token is its log-prob under the temperature-scaled distribution *before* the
top-p / top-k cut (SGLang's default), i.e. what a trainer recomputes with a forward pass at the same
temperature. Greedy rows (temperature 0) report the untempered log-prob.
"""

from __future__ import annotations

import torch


def sample(
    logits: torch.Tensor,
    temperature: torch.Tensor,
    top_p: torch.Tensor,
    top_k: torch.Tensor,
    uniforms: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Tokens and their log-probs for `logits` [B, V]; the other tensors are per row [B].

    `uniforms` are one U[0, 1) draw per row, taken from the row's own generator, so a row's choice depends
    only on its own logits and seed, never on what else is in the batch.
    """
    logits = logits.float()
    greedy = temperature <= 0
    scale = torch.where(greedy, torch.ones_like(temperature), temperature)
    logp = torch.log_softmax(logits / scale[:, None], dim=-1)
    tokens = torch.argmax(logits, dim=-1)
    if not bool(greedy.all()):
        drawn = _draw(logp, top_p, top_k, uniforms)
        tokens = torch.where(greedy, tokens, drawn)
    return tokens, logp.gather(1, tokens[:, None]).squeeze(1)


def _draw(
    logp: torch.Tensor, top_p: torch.Tensor, top_k: torch.Tensor, uniforms: torch.Tensor
) -> torch.Tensor:
    """Inverse-CDF sampling from `exp(logp)` restricted to each row's top-p / top-k nucleus.

    The CDF runs in vocabulary order, not in probability order: float noise between a batched and a solo
    forward can swap two near-equal probabilities, which must not move every later token's interval.
    """
    probs = logp.exp()
    vocab = probs.shape[-1]
    if not (bool((top_p >= 1).all()) and bool(((top_k <= 0) | (top_k >= vocab)).all())):
        ranked = probs.sort(dim=-1, descending=True).values
        in_nucleus = (ranked.cumsum(-1) - ranked) < top_p[:, None]
        count = in_nucleus.sum(-1)
        count = torch.where(top_k > 0, torch.minimum(count, top_k), count)
        cutoff = ranked.gather(1, (count - 1)[:, None])
        probs = torch.where(probs >= cutoff, probs, torch.zeros_like(probs))
    cdf = probs.cumsum(-1)
    target = uniforms * cdf[:, -1]
    index = torch.searchsorted(cdf, target[:, None], right=True).squeeze(1)
    return index.clamp(max=vocab - 1)
