"""A scripted policy: run each scripted command through the client's own shell tool, then answer.

It needs no model, so tests and demos can drive any harness through the proxy deterministically. The
same policy also drives token-level tests (see `proxy.engines.tito.ScriptedTokens`), where its answer is
written in the model's native format and tokenized, so the whole token path runs.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Self

from proxy.conversation import Generation, GenerationRequest, ToolCall, Usage
from proxy.engines.base import Engine
from proxy.engines.shell_tool import find_shell_tool, shell_arguments
from proxy.engines.tokens import TokenBackend, TokenCompletion, TokenEngine, TokenSampling, load_tokenizer

if TYPE_CHECKING:
    from proxy.engine_options import EngineOptions

DEFAULT_COMMANDS = ("echo forge-scripted > forge_scripted.txt",)
DEFAULT_FINAL = "Done: the scripted commands ran."


class Policy(Protocol):
    """A model stand-in: the next assistant turn for a conversation."""

    def next_turn(self, request: GenerationRequest) -> Generation: ...


@dataclass
class ScriptedPolicy:
    """Decides the next turn from the conversation so far."""

    commands: list[str] = field(default_factory=lambda: list(DEFAULT_COMMANDS))
    final: str = DEFAULT_FINAL
    reasoning: str | None = None

    def next_turn(self, request: GenerationRequest) -> Generation:
        done = sum(len(m.tool_calls) for m in request.messages if m.role == "assistant")
        tool = find_shell_tool(request.tools)
        if tool is not None and done < len(self.commands):
            call = ToolCall(
                id=f"call_{uuid.uuid4().hex[:24]}",
                name=tool.name,
                arguments=shell_arguments(tool, self.commands[done]),
            )
            return Generation(
                text="", reasoning=self.reasoning, tool_calls=[call], finish_reason="tool_calls"
            )
        return Generation(text=self.final, reasoning=self.reasoning, finish_reason="stop")


class ScriptedEngine(Engine):
    """The scripted policy as an engine (no tokens; estimates usage). It takes images and ignores them."""

    name = "scripted"
    accepts_images = True

    def __init__(
        self, commands: list[str] | None = None, final: str = DEFAULT_FINAL, reasoning: str | None = None
    ) -> None:
        self.policy = ScriptedPolicy(list(commands or DEFAULT_COMMANDS), final, reasoning)

    @classmethod
    def from_options(cls, options: EngineOptions) -> Self:
        return cls(commands=options.commands or None)

    async def generate(self, request: GenerationRequest) -> Generation:
        gen = self.policy.next_turn(request)
        completion = len(gen.text) + sum(len(c.arguments) for c in gen.tool_calls)
        gen.usage = Usage(
            prompt_tokens=await self.count_tokens(request), completion_tokens=max(1, completion // 4)
        )
        gen.model = request.model
        gen.upstream = self.name
        return gen


class ScriptedTokens(TokenBackend):
    """A policy (scripted, oracle, nop) written in Qwen3's native format and tokenized: the full token
    path, no model. Log-probs are 0.0 (the policy is deterministic)."""

    name = "scripted-tokens"
    takes_images = True
    """The policy reads no pixels; the token engine expands the images' pads (a vision-language model's
    processor) so the recorded prompt is what that model would read."""

    def __init__(self, tokenizer: Any, policy: Policy) -> None:
        self.tokenizer = tokenizer
        self.policy = policy

    def native_text(self, generation: Generation) -> str:
        text = f"<think>\n{generation.reasoning}\n</think>\n\n" if generation.reasoning else ""
        text += generation.text
        for call in generation.tool_calls:
            text += (
                ("\n" if text else "")
                + "<tool_call>\n"
                + json.dumps({"name": call.name, "arguments": json.loads(call.arguments)}, ensure_ascii=False)
                + "\n</tool_call>"
            )
        return text + "<|im_end|>"

    async def generate(
        self, prompt_ids: list[int], sampling: TokenSampling, request: GenerationRequest
    ) -> TokenCompletion:
        ids = list(
            self.tokenizer.encode(self.native_text(self.policy.next_turn(request)), add_special_tokens=False)
        )
        finish = "stop"
        if len(ids) > sampling.max_new_tokens:
            ids, finish = ids[: sampling.max_new_tokens], "length"
        return TokenCompletion(ids=ids, logprobs=[0.0] * len(ids), finish_reason=finish, upstream=self.name)


class ScriptedTokenEngine(TokenEngine):
    """`--engine scripted-tokens --tokenizer DIR`: the scripted policy through the real token path."""

    needs_tokenizer = True

    def __init__(
        self,
        tokenizer: str | Path | Any,
        commands: list[str] | None = None,
        final: str = DEFAULT_FINAL,
        reasoning: str | None = None,
        context_window: int | None = None,
    ) -> None:
        tok = load_tokenizer(tokenizer) if isinstance(tokenizer, str | Path) else tokenizer
        policy = ScriptedPolicy(list(commands or DEFAULT_COMMANDS), final, reasoning)
        super().__init__(ScriptedTokens(tok, policy), tok, context_window=context_window)

    @classmethod
    def from_options(cls, options: EngineOptions) -> Self:
        return cls(tokenizer=options.tokenizer_dir(), commands=options.commands or None)
