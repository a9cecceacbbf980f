"""SGLang's native `/generate` (token ids in, token ids and log-probs out); our local CPU engine speaks
the same shape, so one client serves both."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from proxy.conversation import GenerationRequest
from proxy.engines.tokens import TokenBackend, TokenCompletion, TokenEngine, TokenSampling
from proxy.engines.upstream_http import UpstreamClient
from proxy.errors import UpstreamError

if TYPE_CHECKING:
    from proxy.engine_options import EngineOptions


class SGLangBackend(TokenBackend):
    name = "sglang"

    def __init__(self, base_url: str | list[str], timeout: float = 600.0, max_attempts: int = 4) -> None:
        self.client = UpstreamClient(base_url, timeout=timeout, max_attempts=max_attempts)
        self._window: int | None = None

    async def generate(
        self, prompt_ids: list[int], sampling: TokenSampling, request: GenerationRequest
    ) -> TokenCompletion:
        params: dict[str, Any] = {
            "max_new_tokens": sampling.max_new_tokens,
            "stop_token_ids": sampling.stop_token_ids,
            "skip_special_tokens": False,
            "no_stop_trim": True,
        }
        if sampling.temperature is not None:
            params["temperature"] = sampling.temperature
        if sampling.top_p is not None:
            params["top_p"] = sampling.top_p
        if sampling.seed is not None:
            params["seed"] = sampling.seed
        body: dict[str, Any] = {"input_ids": prompt_ids, "sampling_params": params, "return_logprob": True}
        if request.images:
            body["image_data"] = [image.base64() for image in request.images]
        answer, replica = await self.client.post("/generate", body, request.rollout_id)
        meta = answer.get("meta_info") or {}
        pairs = meta.get("output_token_logprobs") or []
        ids = answer.get("output_ids") or [int(p[1]) for p in pairs]
        if len(pairs) != len(ids):
            raise UpstreamError(f"{replica} returned {len(ids)} ids but {len(pairs)} log-probs")
        finish = (meta.get("finish_reason") or {}).get("type", "stop")
        return TokenCompletion(
            ids=[int(i) for i in ids],
            logprobs=[float(p[0]) for p in pairs],
            finish_reason="length" if finish == "length" else "stop",
            upstream=replica,
        )

    async def context_window(self) -> int | None:
        if self._window is None:
            data = await self.client.get("/model_info") or {}
            self._window = int(data.get("max_context_length") or data.get("context_length") or 0) or None
        return self._window

    async def aclose(self) -> None:
        await self.client.aclose()


class SGLangEngine(TokenEngine):
    """`--engine sglang --upstream URL --tokenizer DIR`."""

    backend_name = "sglang"
    backend_takes_images = False
    """Whether its `/generate` is sent a vision-language prompt's images (`image_data`) beside the expanded
    ids: ours is; SGLang's own expansion of `image_data` is not checked against ours yet."""
    needs_upstream = True
    needs_tokenizer = True

    def __init__(
        self,
        base_url: str | list[str],
        tokenizer: str | Path,
        parser: str = "qwen3",
        context_window: int | None = None,
    ) -> None:
        backend = SGLangBackend(base_url)
        backend.name = self.backend_name
        backend.takes_images = self.backend_takes_images
        super().__init__(backend, tokenizer, parser=parser, context_window=context_window)

    @classmethod
    def from_options(cls, options: EngineOptions) -> Self:
        return cls(base_url=options.upstream, tokenizer=options.tokenizer_dir())


class LocalEngine(SGLangEngine):
    """Our CPU engine (`forge-proxy engine local --model DIR`), which speaks SGLang's `/generate`; with a
    vision-language model it takes the prompt's images (`image_data`) beside the expanded ids."""

    backend_name = "local"
    backend_takes_images = True
