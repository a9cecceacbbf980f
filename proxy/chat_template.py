"""Rendering a conversation into prompt token ids with the model's own chat template, token-exactly.

Re-tokenising what a model said does not give back what it sampled (JSON spacing, parsed tool calls,
dropped thinking). So the renderer remembers, per rollout, the exact completion ids of every assistant
turn it produced, and when that turn comes back in a later request it splices those ids in verbatim
instead of re-rendering the turn. The template only renders the text around them. Each call's prompt
then extends the previous prompt + completion exactly, which is what trajectory merging needs.

This relies on a prefix-stable template (rendering turns 1..k is a prefix of rendering turns 1..k+1),
which `forge-proxy init-model`'s template is; for other templates a miss simply re-renders.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from proxy.conversation import GenerationRequest, Message, Tool, ToolCall
from proxy.wire.chat import chat_tool
from proxy.wire.common import parse_arguments

MAX_REMEMBERED_TURNS = 100_000


def turn_key(content: str, tool_calls: list[ToolCall]) -> str:
    """What identifies an assistant turn when a client sends it back (ids and JSON spacing ignored)."""
    calls = [[c.name, parse_arguments(c.arguments)] for c in tool_calls]
    return json.dumps([content.strip(), calls], sort_keys=True, ensure_ascii=False)


def hf_messages(messages: list[Message]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        item: dict[str, Any] = {"role": m.role, "content": m.content}
        if m.images:  # a vision template renders each image part as its placeholder
            item["content"] = m.template_parts()
        if m.role == "assistant":
            if m.reasoning:
                item["reasoning_content"] = m.reasoning
            if m.tool_calls:
                item["tool_calls"] = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": parse_arguments(c.arguments)},
                    }
                    for c in m.tool_calls
                ]
        if m.role == "tool":
            item["tool_call_id"] = m.tool_call_id
        out.append(item)
    return out


def hf_tools(tools: list[Tool]) -> list[dict[str, Any]] | None:
    if not tools:
        return None
    return [chat_tool(t) for t in tools]


class PromptRenderer:
    """Renders prompts with a HF tokenizer's chat template, splicing in remembered sampled turns."""

    def __init__(self, tokenizer: Any, end_of_turn: str = "<|im_end|>") -> None:
        self.tokenizer = tokenizer
        self.end_of_turn = end_of_turn
        self.end_of_turn_id = int(tokenizer.convert_tokens_to_ids(end_of_turn))
        self._turns: OrderedDict[tuple[str, str], list[int]] = OrderedDict()

    def remember(
        self, rollout_id: str | None, content: str, tool_calls: list[ToolCall], ids: list[int]
    ) -> None:
        """Keep the sampled ids of an assistant turn for its rollout's later prompts."""
        key = (rollout_id or "", turn_key(content, tool_calls))
        self._turns[key] = list(ids)
        self._turns.move_to_end(key)
        while len(self._turns) > MAX_REMEMBERED_TURNS:
            self._turns.popitem(last=False)

    def _text(self, messages: list[Message], tools: list[Tool], generation_prompt: bool) -> str:
        return str(
            self.tokenizer.apply_chat_template(
                hf_messages(messages),
                tools=hf_tools(tools),
                tokenize=False,
                add_generation_prompt=generation_prompt,
            )
        )

    def _encode(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False))

    def render(self, request: GenerationRequest) -> list[int]:
        messages, tools = request.messages, request.tools
        ids: list[int] = []
        done_text = ""
        for i, message in enumerate(messages):
            if message.role != "assistant":
                continue
            sampled = self._turns.get(
                (request.rollout_id or "", turn_key(message.content, message.tool_calls))
            )
            if sampled is None:
                continue
            before = self._text(messages[:i], tools, generation_prompt=True)
            through = self._text(messages[: i + 1], tools, generation_prompt=False)
            end = through.find(self.end_of_turn, len(before))
            if not before.startswith(done_text) or not through.startswith(before) or end < 0:
                continue  # the template is not prefix-stable here: render this turn as text
            if not sampled or sampled[-1] != self.end_of_turn_id:
                sampled = [*sampled, self.end_of_turn_id]  # cut by length: the template closes the turn
            ids += self._encode(before[len(done_text) :]) + sampled
            done_text = through[: end + len(self.end_of_turn)]
        full = self._text(messages, tools, generation_prompt=True)
        if not full.startswith(done_text):
            return self._encode(full)
        return ids + self._encode(full[len(done_text) :])
