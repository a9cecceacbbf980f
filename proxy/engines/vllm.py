"""vLLM, token-in/token-out: `/v1/completions` with a token-id prompt, `return_token_ids` and log-probs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from proxy.conversation import GenerationRequest
from proxy.engines.tokens import TokenBackend, TokenCompletion, TokenEngine, TokenSampling
from proxy.engines.upstream_http import UpstreamClient
from proxy.errors import EngineConfigError, UpstreamError

if TYPE_CHECKING:
    from proxy.engine_options import EngineOptions


class VLLMBackend(TokenBackend):
    name = "vllm"

    def __init__(
        self,
        base_url: str | list[str],
        model: str,
        api_key: str = "",
        timeout: float = 600.0,
        max_attempts: int = 4,
    ) -> None:
        headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = UpstreamClient(base_url, headers=headers, timeout=timeout, max_attempts=max_attempts)
        self.model = model
        self._window: int | None = None

    async def generate(
        self, prompt_ids: list[int], sampling: TokenSampling, request: GenerationRequest
    ) -> TokenCompletion:
        body: dict[str, Any] = {
            "model": self.model,
            "prompt": prompt_ids,
            "max_tokens": sampling.max_new_tokens,
            "logprobs": 0,
            "return_token_ids": True,
            "add_special_tokens": False,
            "skip_special_tokens": False,
            "stop_token_ids": sampling.stop_token_ids,
            "include_stop_str_in_output": True,
        }
        for key, value in (
            ("temperature", sampling.temperature),
            ("top_p", sampling.top_p),
            ("seed", sampling.seed),
        ):
            if value is not None:
                body[key] = value
        answer, replica = await self.client.post("/completions", body, request.rollout_id)
        try:
            choice = answer["choices"][0]
            ids = [int(i) for i in choice["token_ids"]]
            logprobs = [float(x) for x in choice["logprobs"]["token_logprobs"]]
        except (KeyError, IndexError, TypeError) as exc:
            raise UpstreamError(
                f"{replica} gave no token_ids / logprobs (is it vLLM ≥ 0.10?): {exc}"
            ) from exc
        if len(ids) != len(logprobs):
            raise UpstreamError(f"{replica} returned {len(ids)} ids but {len(logprobs)} log-probs")
        finish = choice.get("finish_reason") or "stop"
        return TokenCompletion(
            ids=ids,
            logprobs=logprobs,
            finish_reason="length" if finish == "length" else "stop",
            upstream=replica,
        )

    async def context_window(self) -> int | None:
        """vLLM's `max_model_len` for the model, from `/v1/models`: without it, a request whose prompt plus
        max_tokens exceeds the context is refused by vLLM and answered empty (finish "length") instead of
        being capped to the room left."""
        if self._window is None:
            data = await self.client.get("/models") or {}
            for entry in data.get("data") or []:
                if isinstance(entry, dict) and entry.get("id") == self.model:
                    self._window = int(entry.get("max_model_len") or 0) or None
        return self._window

    async def aclose(self) -> None:
        await self.client.aclose()


class VLLMEngine(TokenEngine):
    """`--engine vllm --upstream URL/v1 --tokenizer DIR --upstream-model NAME`."""

    needs_upstream = True
    needs_tokenizer = True

    def __init__(
        self,
        base_url: str | list[str],
        tokenizer: str | Path,
        model: str,
        api_key: str = "",
        parser: str = "qwen3",
        context_window: int | None = None,
    ) -> None:
        super().__init__(
            VLLMBackend(base_url, model, api_key), tokenizer, parser=parser, context_window=context_window
        )

    @classmethod
    def from_options(cls, options: EngineOptions) -> Self:
        if not options.upstream_model:
            raise EngineConfigError("engine 'vllm' needs --upstream-model NAME (the model name vLLM serves)")
        return cls(
            base_url=options.upstream,
            tokenizer=options.tokenizer_dir(),
            model=options.upstream_model,
            api_key=options.api_key(),
        )
