"""Turning a rollout's recorded calls into training sequences ("chains") for veRL-style trainers.

A call extends a chain only when its prompt ids start with the chain's whole sequence (prompt + response)
token for token; the tokens in between (tool results, injected messages) get mask 0 and the sampled
completion mask 1. Anything else starts a new chain, so a chain never pairs a token with a context the
model did not see. Diagnostics say why calls were left out and why chains broke.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field, model_validator

from proxy.images import ImageRef
from proxy.records import CallRecord, CallStatus

if TYPE_CHECKING:
    from proxy.store import CallStore


class Chain(BaseModel):
    """One token sequence of a rollout, shaped like veRL's `AgentLoopOutput`."""

    rollout_id: str
    """The rollout the chain's calls belong to."""
    chain_index: int
    """Position of the chain within its rollout (0, 1, …), in order of each chain's first call."""
    prompt_ids: list[int]
    """The prompt of the chain's first call: context the model was given, never trained on."""
    response_ids: list[int]
    """Everything after the prompt: sampled completions and the tokens that came between calls."""
    response_mask: list[int]
    """Per response token: 1 = sampled by the model, 0 = not (tool results, injected messages, the next
    turn's chat-template framing)."""
    response_logprobs: list[float] | None
    """Per response token: the sampling log-prob where the mask is 1, 0.0 where it is 0. None when any
    call of the chain was recorded without log-probs."""
    call_seqs: list[int]
    """The `seq` of every call merged into the chain, in order."""
    num_turns: int
    """Chat turns as veRL counts them: the initial prompt, each model call, and each non-empty stretch of
    tokens between calls."""
    images: list[ImageRef] = Field(default_factory=list)
    """The images of the chain's prompt and the tokens between its calls, in order (those of its last
    call's prompt, which holds every earlier one); their bytes are in the run's blob store."""

    @model_validator(mode="after")
    def _aligned(self) -> Chain:
        n = len(self.response_ids)
        if len(self.response_mask) != n:
            raise ValueError(f"response_mask has {len(self.response_mask)} entries for {n} response ids")
        if self.response_logprobs is not None and len(self.response_logprobs) != n:
            raise ValueError(f"response_logprobs has {len(self.response_logprobs)} entries for {n} ids")
        if any(m not in (0, 1) for m in self.response_mask):
            raise ValueError("response_mask holds values other than 0 and 1")
        return self


class Trajectory(BaseModel):
    """A rollout's chains, and what chain building had to say about its calls."""

    rollout_id: str
    """The rollout."""
    chains: list[Chain] = Field(default_factory=list)
    """Its chains, by `chain_index`."""
    diagnostics: list[str] = Field(default_factory=list)
    """Calls left out and why, retries dropped, and why each chain after the first could not continue
    an earlier one."""


@dataclass
class _Open:
    """A chain under construction."""

    index: int
    prompt: list[int]
    full: list[int]
    """prompt + response, kept whole for prefix tests."""
    mask: list[int] = field(default_factory=list)
    logprobs: list[float] | None = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    turns: int = 1
    versions: set[int] = field(default_factory=set)
    images: list[ImageRef] = field(default_factory=list)

    def add(self, call: CallRecord) -> None:
        prompt, completion = call.prompt_ids or [], call.completion_ids or []
        gap = len(prompt) - len(self.full)
        if self.seqs and gap > 0:
            self.turns += 1
        self.full.extend(prompt[len(self.full) :])
        self.full.extend(completion)
        self.mask.extend([0] * gap)
        self.mask.extend([1] * len(completion))
        if self.logprobs is not None and call.logprobs is not None:
            self.logprobs.extend([0.0] * gap)
            self.logprobs.extend(call.logprobs)
        else:
            self.logprobs = None
        self.seqs.append(call.seq)
        self.turns += 1
        self.versions.add(call.policy_version)
        self.images = list(call.images)  # its prompt extends the chain: it holds every earlier image

    def chain(self, rollout_id: str) -> Chain:
        return Chain(
            rollout_id=rollout_id,
            chain_index=self.index,
            prompt_ids=self.prompt,
            response_ids=self.full[len(self.prompt) :],
            response_mask=self.mask,
            response_logprobs=self.logprobs,
            call_seqs=self.seqs,
            num_turns=self.turns,
            images=self.images,
        )


def _extends(prompt: list[int], full: list[int]) -> bool:
    return len(prompt) >= len(full) and prompt[: len(full)] == full


def _hashes(images: Sequence[ImageRef]) -> tuple[str, ...]:
    return tuple(image.sha256 for image in images)


def _same_images_so_far(call: CallRecord, chain_images: Sequence[ImageRef]) -> bool:
    """Two screenshots of one size are the same pad tokens: a call continues a chain only if its first
    images are the chain's images."""
    return _hashes(call.images[: len(chain_images)]) == _hashes(chain_images)


def _common_prefix(a: list[int], b: list[int]) -> int:
    n, block, i = min(len(a), len(b)), 256, 0
    while i + block <= n and a[i : i + block] == b[i : i + block]:
        i += block
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _eligible(calls: Sequence[CallRecord], notes: list[str]) -> list[CallRecord]:
    """Calls that can take part: served, with token ids and consistent log-probs."""
    kept = []
    for call in calls:
        if call.status != CallStatus.OK:
            why = f": {call.error[:200]}" if call.error else ""
            notes.append(
                f"call {call.seq} left out: status {call.status.value} (HTTP {call.http_status}){why}"
            )
        elif call.prompt_ids is None or call.completion_ids is None:
            notes.append(f"call {call.seq} left out: no token ids recorded (pass-through upstream?)")
        elif call.logprobs is not None and len(call.logprobs) != len(call.completion_ids):
            notes.append(
                f"call {call.seq} left out: {len(call.logprobs)} log-probs for "
                f"{len(call.completion_ids)} completion ids"
            )
        else:
            kept.append(call)
    return kept


def _drop_retries(calls: list[CallRecord], notes: list[str]) -> list[CallRecord]:
    """Of calls with identical prompts keep the one the conversation continued from, else the last."""
    groups: dict[tuple[tuple[int, ...], tuple[str, ...]], list[CallRecord]] = defaultdict(list)
    for call in calls:  # the same ids with other images (a new screenshot of one size) is no retry
        groups[(tuple(call.prompt_ids or []), _hashes(call.images))].append(call)
    dropped: set[int] = set()
    for same in groups.values():
        if len(same) < 2:
            continue
        others = [c for c in calls if len(c.prompt_ids or []) > len(same[0].prompt_ids or [])]
        used = [
            m
            for m in same
            if any(
                o.seq > m.seq
                and _extends(o.prompt_ids or [], (m.prompt_ids or []) + (m.completion_ids or []))
                and _same_images_so_far(o, m.images)
                for o in others
            )
        ]
        # Identical completions are one answer: keep the last of each.
        by_answer = {tuple(m.completion_ids or []): m for m in used}
        keep = sorted(by_answer.values(), key=lambda m: m.seq) or [same[-1]]
        keep_seqs = {k.seq for k in keep}
        why = "the one a later call continued from" if used else "the last"
        kept_text = " and ".join(str(s) for s in sorted(keep_seqs))
        for member in same:
            if member.seq not in keep_seqs:
                dropped.add(member.seq)
                notes.append(
                    f"call {member.seq} dropped as a retry: same prompt ({len(member.prompt_ids or [])} "
                    f"tokens) as call {kept_text}, which was kept ({why})"
                )
    return [c for c in calls if c.seq not in dropped]


def _why_new(call: CallRecord, chains: list[_Open]) -> str:
    prompt = call.prompt_ids or []
    head = f"call {call.seq} starts chain {len(chains)}"
    if not chains:
        return head
    best = max(chains, key=lambda c: (_common_prefix(prompt, c.full), -c.index))
    common, size = _common_prefix(prompt, best.full), len(best.full)
    if _extends(prompt, best.full) and not _same_images_so_far(call, best.images):
        return (
            f"{head}: its tokens extend chain {best.index}, but its images differ from the chain's "
            "(a screenshot replaced or re-encoded)"
        )
    if len(prompt) < size:
        if common == len(prompt):
            return (
                f"{head}: its prompt ({len(prompt)} tokens) is a prefix of chain {best.index} ({size} "
                "tokens): the conversation was rewound or re-sampled"
            )
        return (
            f"{head}: its prompt ({len(prompt)} tokens) is shorter than chain {best.index} ({size} tokens) "
            f"and diverges from it at token {common}: compacted or rewritten context, or a separate "
            "conversation"
        )
    return (
        f"{head}: its prompt diverges from chain {best.index} at token {common} of {size}: rewritten "
        "context, or a separate conversation"
    )


def build_chains(calls: Sequence[CallRecord], rollout_id: str | None = None) -> Trajectory:
    """Merge one rollout's calls into chains (see the module docstring); `rollout_id` names the rollout
    when `calls` is empty."""
    ids = {c.rollout_id for c in calls}
    if rollout_id is not None:
        ids.add(rollout_id)
    if len(ids) != 1:
        raise ValueError(f"build_chains needs the calls of exactly one rollout, got {sorted(ids)}")
    rid = ids.pop()
    ordered = sorted(calls, key=lambda c: c.seq)
    if len({c.seq for c in ordered}) != len(ordered):
        raise ValueError(f"rollout {rid!r}: several calls share a seq")
    notes: list[str] = []
    usable = _drop_retries(_eligible(ordered, notes), notes)
    chains: list[_Open] = []
    for call in usable:
        prompt = call.prompt_ids or []
        fits = [c for c in chains if _extends(prompt, c.full) and _same_images_so_far(call, c.images)]
        if fits:
            target = max(fits, key=lambda c: (len(c.full), c.seqs[-1]))
        else:
            if chains:
                notes.append(_why_new(call, chains))
            target = _Open(index=len(chains), prompt=list(prompt), full=list(prompt))
            chains.append(target)
        target.add(call)
        if call.logprobs is None:
            notes.append(f"call {call.seq} has no log-probs: chain {target.index} has no response_logprobs")
    for c in chains:
        if len(c.versions) > 1:
            notes.append(f"chain {c.index} spans policy versions {min(c.versions)}..{max(c.versions)}")
    return Trajectory(rollout_id=rid, chains=[c.chain(rid) for c in chains], diagnostics=notes)


def build_trajectories(store: CallStore, rollout_ids: Sequence[str] | None = None) -> list[Trajectory]:
    """Chains of the given rollouts (default: every rollout in the store, in order of appearance)."""
    wanted = store.rollout_ids() if rollout_ids is None else list(rollout_ids)
    return [build_chains(store.calls(rid), rollout_id=rid) for rid in wanted]
