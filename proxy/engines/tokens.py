"""Token-in/token-out: the training path. The proxy renders the prompt, the backend samples token ids.

`TokenEngine` renders a request with the model's chat template (`PromptRenderer`), caps max_tokens to
the context left (a full context answers with finish "length", not an error), asks a `TokenBackend` for
completion ids and log-probs, and parses them into text, reasoning and tool calls. Backends: SGLang's
native `/generate` (also our local CPU engine, which speaks the same shape), vLLM's `/v1/completions`
with token-id prompts, and the scripted policy written in the model's native format.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proxy.chat_template import PromptRenderer
from proxy.conversation import Generation, GenerationRequest, Usage
from proxy.engines.base import Engine
from proxy.errors import BadRequest
from proxy.parsers import get_parser
from proxy.vision_prompt import VisionPrompt, VisionPromptError


@dataclass
class TokenSampling:
    max_new_tokens: int
    temperature: float | None = None
    top_p: float | None = None
    stop_token_ids: list[int] = field(default_factory=list)
    seed: int | None = None


@dataclass
class TokenCompletion:
    ids: list[int]
    logprobs: list[float]
    finish_reason: str
    """"stop" or "length"."""
    upstream: str | None = None


class TokenBackend(ABC):
    """Samples completion ids for prompt ids."""

    name = "backend"
    takes_images = False
    """It sends a prompt's images (`request.images`) to its engine with the expanded prompt ids."""

    @abstractmethod
    async def generate(
        self, prompt_ids: list[int], sampling: TokenSampling, request: GenerationRequest
    ) -> TokenCompletion: ...

    async def context_window(self) -> int | None:
        return None

    async def aclose(self) -> None:  # noqa: B027 - most backends hold nothing to release
        """Release connections."""


def load_tokenizer(path: str | Path) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(path))


class TokenEngine(Engine):
    """A token backend behind a chat template and a completion parser."""

    def __init__(
        self,
        backend: TokenBackend,
        tokenizer: Any,
        parser: str = "qwen3",
        context_window: int | None = None,
        default_max_tokens: int = 4096,
        vision: VisionPrompt | None = None,
    ) -> None:
        self.backend = backend
        self.name = backend.name
        self.vision = vision or (
            VisionPrompt(Path(tokenizer))
            if isinstance(tokenizer, str | Path) and VisionPrompt.found_in(tokenizer)
            else None
        )
        """A vision-language model's processor, from the model directory (or given with a loaded
        tokenizer); the engine takes images when the backend does too."""
        self.accepts_images = self.vision is not None and backend.takes_images
        self.tokenizer = tokenizer if not isinstance(tokenizer, str | Path) else load_tokenizer(tokenizer)
        self.renderer = PromptRenderer(self.tokenizer)
        self.parser = get_parser(parser)
        self.context_window = context_window or getattr(self.tokenizer, "model_max_length", None)
        self.default_max_tokens = default_max_tokens
        self.stop_ids = sorted(
            {
                int(self.tokenizer.convert_tokens_to_ids(t))
                for t in self.parser.end_tokens
                if self.tokenizer.convert_tokens_to_ids(t) is not None
            }
        )

    async def _window(self) -> int | None:
        found = await self.backend.context_window()
        if found:
            self.context_window = found
        return self.context_window if self.context_window and self.context_window < 10**8 else None

    async def count_tokens(self, request: GenerationRequest) -> int:
        return len(await asyncio.to_thread(self._prompt, request))

    def _prompt(self, request: GenerationRequest) -> list[int]:
        """The rendered prompt, with each image's pad expanded by the model's processor."""
        ids = self.renderer.render(request)
        if not request.images or self.vision is None:
            return ids
        try:
            pads = [self.vision.pads_for(image.ref.width, image.ref.height) for image in request.images]
        except ValueError as exc:  # e.g. an aspect ratio over 200:1, which the processor refuses
            raise BadRequest(f"an image the model's processor refuses: {exc}") from None
        try:
            return self.vision.expand(ids, pads)
        except VisionPromptError as exc:
            raise BadRequest(f"the rendered prompt does not fit its images: {exc}") from None

    async def generate(self, request: GenerationRequest) -> Generation:
        prompt_ids = await asyncio.to_thread(self._prompt, request)
        window = await self._window()
        room = (window - len(prompt_ids)) if window else None
        wanted = request.sampling.max_tokens or self.default_max_tokens
        if room is not None and room <= 0:
            return Generation(
                finish_reason="length",
                prompt_ids=prompt_ids,
                completion_ids=[],
                logprobs=[],
                usage=Usage(prompt_tokens=len(prompt_ids)),
                model=request.model,
                upstream=self.name,
            )
        sampling = TokenSampling(
            max_new_tokens=min(wanted, room) if room is not None else wanted,
            temperature=request.sampling.temperature,
            top_p=request.sampling.top_p,
            stop_token_ids=self.stop_ids,
            seed=request.sampling.seed,
        )
        completion = await self.backend.generate(prompt_ids, sampling, request)
        text = self.tokenizer.decode(completion.ids, skip_special_tokens=False)
        parsed = self.parser.parse(text)
        self.renderer.remember(request.rollout_id, parsed.content, parsed.tool_calls, completion.ids)
        finish = (
            "tool_calls"
            if parsed.tool_calls
            else ("length" if completion.finish_reason == "length" else "stop")
        )
        return Generation(
            text=parsed.content,
            reasoning=parsed.reasoning,
            tool_calls=parsed.tool_calls,
            finish_reason=finish,  # type: ignore[arg-type]
            usage=Usage(prompt_tokens=len(prompt_ids), completion_tokens=len(completion.ids)),
            prompt_ids=prompt_ids,
            completion_ids=completion.ids,
            logprobs=completion.logprobs,
            model=request.model,
            upstream=completion.upstream or self.name,
        )

    async def aclose(self) -> None:
        await self.backend.aclose()
