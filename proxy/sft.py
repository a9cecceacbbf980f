"""Recorded calls as chat-messages examples for SFT (teacher trajectories).

Each call is turned back into a whole conversation: the request's messages plus the answer it got. A
call whose conversation is a prefix of a later call's is covered by that one, so each rollout yields its
maximal conversations only (one per chain, or one per sub-agent). Works without token ids, so
pass-through teachers that return none still give data.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from proxy.conversation import Generation, Message, Tool
from proxy.engines.passthrough import AnthropicPassthrough, OpenAIPassthrough
from proxy.errors import ProxyError
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


def _answer(call: CallRecord) -> Message | None:
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
    return (message.role, message.content.strip(), calls, message.tool_call_id)


def _chat_message(message: Message) -> dict[str, Any]:
    # chat templates render a null content as text, so SFT data keeps the empty string
    return {**chat_message(message), "content": message.content}


def conversations(calls: Sequence[CallRecord], reward: float | None = None) -> list[SFTExample]:
    """The maximal conversations of one rollout's successful calls."""
    whole: list[tuple[CallRecord, list[Message], list[Tool]]] = []
    for call in calls:
        if call.status is not CallStatus.OK:
            continue
        try:
            request, _ = WIRE_ADAPTERS[call.wire_api].parse(call.request)
        except (ProxyError, ValueError, KeyError, TypeError):
            continue
        answer = _answer(call)
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
            )
        )
    return examples


def export_sft_jsonl(examples: Iterable[SFTExample], path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for example in examples:
            out.write(example.model_dump_json() + "\n")
            count += 1
    return count


def rollout_examples(
    calls_by_rollout: Mapping[str, Sequence[CallRecord]], rewards: Mapping[str, float | None]
) -> list[SFTExample]:
    examples: list[SFTExample] = []
    for rollout_id, calls in calls_by_rollout.items():
        examples.extend(conversations(calls, rewards.get(rollout_id)))
    return examples
