"""Recorded calls as chat-messages examples for SFT (teacher trajectories).

Each call is turned back into a whole conversation: the request's messages plus the answer it got. A
call whose conversation is a prefix of a later call's is covered by that one, so each rollout yields its
maximal conversations only (one per chain, or one per sub-agent). Works without token ids, so
pass-through teachers that return none still give data.

Images stay: a turn with images has content parts (`{"type": "text"}` and `{"type": "image"}` where each
image was, the Hugging Face / TRL vision format), the example lists its images in that order, and
`export_sft_jsonl` copies their files beside the JSONL.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from proxy.blob_store import BlobStore
from proxy.conversation import Generation, Message, Tool
from proxy.engines.passthrough import AnthropicPassthrough, OpenAIPassthrough
from proxy.errors import ProxyError
from proxy.images import ImageBudget, ImageLimits, ImageRef, restore_images
from proxy.records import CallRecord, CallStatus, WireApi
from proxy.wire import WIRE_ADAPTERS
from proxy.wire.chat import chat_message, chat_tool
from proxy.wire.responses import items_to_messages


class SFTExample(BaseModel):
    """One conversation in the OpenAI / TRL chat format (`messages` + `tools`)."""

    rollout_id: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] = Field(default_factory=list)
    reward: float | None = None
    call_seqs: list[int] = Field(default_factory=list)
    images: list[ImageRef] = Field(default_factory=list)
    """The conversation's images, in the order of its `{"type": "image"}` parts."""
    image_paths: list[str] = Field(default_factory=list)
    """Where `export_sft_jsonl` put their files, relative to the JSONL."""


UNBOUNDED = ImageLimits(
    max_image_bytes=1 << 40, max_request_image_bytes=1 << 50, max_images=1 << 30, max_image_pixels=1 << 40
)


def call_answer(call: CallRecord) -> Message | None:
    """The assistant turn a recorded call answered with (None when its response is not a body)."""
    body = call.response
    if not isinstance(body, dict):
        return None
    if call.wire_api is WireApi.CHAT:
        gen: Generation = OpenAIPassthrough.parse(body)
    elif call.wire_api is WireApi.MESSAGES:
        gen = AnthropicPassthrough.parse(body)
    else:
        turns = items_to_messages([i for i in body.get("output", []) if isinstance(i, dict)])
        return turns[-1] if turns else None
    return Message(role="assistant", content=gen.text, reasoning=gen.reasoning, tool_calls=gen.tool_calls)


def _key(message: Message) -> tuple[Any, ...]:
    calls = tuple(
        (c.name, json.dumps(json.loads(c.arguments or "{}"), sort_keys=True)) for c in message.tool_calls
    )
    images = tuple((image.ref.sha256, image.offset) for image in message.images)
    return (message.role, message.content.strip(), calls, message.tool_call_id, images)


def _chat_message(message: Message) -> dict[str, Any]:
    # chat templates render a null content as text, so SFT data keeps the empty string
    return {
        **chat_message(message),
        "content": message.template_parts() if message.images else message.content,
    }


def conversations(
    calls: Sequence[CallRecord], reward: float | None = None, blobs: BlobStore | None = None
) -> list[SFTExample]:
    """The maximal conversations of one rollout's successful calls. Calls with images need the run's
    blob store (`BlobStore.beside(store.path)`): without it they are an error, never dropped."""
    whole: list[tuple[CallRecord, list[Message], list[Tool]]] = []
    for call in calls:
        if call.status is not CallStatus.OK:
            continue
        body = call.request
        if call.images:
            if blobs is None:
                raise ValueError(
                    f"call {call.call_id} of rollout {call.rollout_id} has {len(call.images)} image(s): "
                    "pass the run's blob store to keep them"
                )
            body = restore_images(body, call.images, blobs.get)
        try:
            # the call was served: whatever bounds it was served under, its images are read back whole
            request, _ = WIRE_ADAPTERS[call.wire_api].parse(body, ImageBudget(UNBOUNDED))
        except (ProxyError, ValueError, KeyError, TypeError):
            if call.images:
                raise
            continue
        answer = call_answer(call)
        if answer is not None:
            whole.append((call, [*request.messages, answer], request.tools))
    keys = [[_key(m) for m in messages] for _, messages, _ in whole]
    examples = []
    for i, (call, messages, tools) in enumerate(whole):
        covered = any(
            j != i and len(other) > len(keys[i]) and other[: len(keys[i])] == keys[i]
            for j, other in enumerate(keys)
        )
        duplicate = any(j > i and keys[j] == keys[i] for j in range(len(keys)))
        if covered or duplicate:
            continue
        seqs = [whole[j][0].seq for j, other in enumerate(keys) if keys[i][: len(other)] == other]
        examples.append(
            SFTExample(
                rollout_id=call.rollout_id,
                messages=[_chat_message(m) for m in messages],
                tools=[chat_tool(t) for t in tools],
                reward=reward,
                call_seqs=sorted(set(seqs)),
                images=[image.ref for m in messages for image in sorted(m.images, key=lambda p: p.offset)],
            )
        )
    return examples


def export_sft_jsonl(examples: Iterable[SFTExample], path: Path, blobs: BlobStore | None = None) -> int:
    """One example a line; the examples' images are copied (once each) to `images/<sha256>.<ext>` beside
    the file, and each example's `image_paths` name them."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for example in examples:
            if example.images:
                if blobs is None:
                    raise ValueError(
                        f"an example of rollout {example.rollout_id} has images: pass the blob store"
                    )
                example = example.model_copy(
                    update={"image_paths": [_copy_image(i, path.parent, blobs) for i in example.images]}
                )
            out.write(example.model_dump_json() + "\n")
            count += 1
    return count


def _copy_image(ref: ImageRef, root: Path, blobs: BlobStore) -> str:
    relative = f"images/{ref.filename}"
    target = root / relative
    if not target.is_file():  # written whole, then renamed: a copy cut short is never taken as done
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.partial")
        partial.write_bytes(blobs.get(ref.sha256))
        os.replace(partial, target)
    return relative


def rollout_examples(
    calls_by_rollout: Mapping[str, Sequence[CallRecord]],
    rewards: Mapping[str, float | None],
    blobs: BlobStore | None = None,
) -> list[SFTExample]:
    examples: list[SFTExample] = []
    for rollout_id, calls in calls_by_rollout.items():
        examples.extend(conversations(calls, rewards.get(rollout_id), blobs))
    return examples
