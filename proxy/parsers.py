"""Turning sampled completion text into reasoning, content and tool calls, per model family.

Parsers are named in one registry. `qwen3`: optional `<think>…</think>` first, then text, then any
number of `<tool_call>{"name": …, "arguments": {…}}</tool_call>` blocks; a block that is not valid JSON
stays text (the model's mistake is shown, not hidden).
"""

from __future__ import annotations

import json
import re
import uuid
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from proxy.conversation import ToolCall


@dataclass
class ParsedCompletion:
    content: str = ""
    reasoning: str | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)


class CompletionParser(ABC):
    end_tokens: tuple[str, ...] = ()
    """Text of the special tokens that end a turn (removed before parsing)."""

    @abstractmethod
    def parse(self, text: str) -> ParsedCompletion: ...


class Qwen3Parser(CompletionParser):
    end_tokens = ("<|im_end|>", "<|endoftext|>")
    _call = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)

    def parse(self, text: str) -> ParsedCompletion:
        for end in self.end_tokens:
            if text.endswith(end):
                text = text[: -len(end)]
                break
        reasoning = None
        stripped = text.lstrip()
        if stripped.startswith("<think>") and "</think>" in stripped:
            head, _, text = stripped[len("<think>") :].partition("</think>")
            reasoning = head.strip("\n")
            text = text.lstrip("\n")
        calls: list[ToolCall] = []
        kept: list[str] = []
        cursor = 0
        for match in self._call.finditer(text):
            try:
                payload = json.loads(match.group(1))
                name = payload["name"]
                arguments = payload.get("arguments", {})
                if not isinstance(name, str):
                    raise TypeError("name is not a string")
            except (ValueError, KeyError, TypeError):
                continue
            kept.append(text[cursor : match.start()])
            cursor = match.end()
            calls.append(
                ToolCall(
                    id=f"call_{uuid.uuid4().hex[:24]}",
                    name=name,
                    arguments=arguments
                    if isinstance(arguments, str)
                    else json.dumps(arguments, ensure_ascii=False),
                )
            )
        kept.append(text[cursor:])
        content = "".join(kept)
        if calls:
            content = content.strip()
        return ParsedCompletion(content=content, reasoning=reasoning, tool_calls=calls)


PARSERS: dict[str, type[CompletionParser]] = {"qwen3": Qwen3Parser}


def get_parser(name: str) -> CompletionParser:
    if name not in PARSERS:
        raise ValueError(f"unknown completion parser {name!r}; known: {', '.join(sorted(PARSERS))}")
    return PARSERS[name]()
