"""vLLM, token-in/token-out: `/v1/completions` with a token-id prompt, `return_token_ids` and log-probs.

A vision-language prompt goes to `/inference/v1/generate` instead (vLLM's token-in route, served with
`--enable-scale-out`): `/v1/completions` ignores images, and vLLM expands a prompt's image pads itself
from the images it is sent, so it is sent one pad per image with the images as data URIs
(`content_parts`), and the prompt it expanded (`return_token_ids`) must be the one the proxy records, or
the call fails: vLLM's processor (torchvision) and ours (Pillow) agree on the count, and a disagreement
would make the record differ from what the model read.
"""

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
    takes_images = True
    image_token_id: int | None = None
    """The model's image pad (set by the engine for a vision-language model)."""

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
        if request.images:
            return await self._generate_with_images(prompt_ids, sampling, request)
        body: dict[str, Any] = {
            "model": self.model,
            "prompt": prompt_ids,
            "return_token_ids": True,
            "add_special_tokens": False,
            **_sampling_params(sampling),
        }
        answer, replica = await self.client.post("/completions", body, request.rollout_id)
        try:
            choice = answer["choices"][0]
            ids = [int(i) for i in choice["token_ids"]]
            logprobs = [float(x) for x in choice["logprobs"]["token_logprobs"]]
        except (KeyError, IndexError, TypeError) as exc:
            raise UpstreamError(
                f"{replica} gave no token_ids / logprobs (is it vLLM ≥ 0.10?): {exc}"
            ) from exc
        return _completion(ids, logprobs, choice.get("finish_reason"), replica)

    async def _generate_with_images(
        self, prompt_ids: list[int], sampling: TokenSampling, request: GenerationRequest
    ) -> TokenCompletion:
        pad = self.image_token_id
        if pad is None:
            raise UpstreamError("vllm: images for a model whose image token is not known (not a VL model?)")
        body: dict[str, Any] = {
            "model": self.model,
            "token_ids": one_pad_per_image(prompt_ids, pad),
            "content_parts": [{"type": "image_url", "url": image.data_uri()} for image in request.images],
            "sampling_params": _sampling_params(sampling),
            "return_token_ids": True,
        }
        answer, replica = await self.client.post(
            "/inference/v1/generate", body, request.rollout_id, from_root=True
        )
        try:
            expanded = [int(i) for i in answer["prompt_token_ids"]]
            choice = answer["choices"][0]
            ids = [int(i) for i in choice["token_ids"]]
            logprobs = [float(entry["logprob"]) for entry in choice["logprobs"]["content"]]
        except (KeyError, IndexError, TypeError) as exc:
            raise UpstreamError(
                f"{replica} gave no prompt_token_ids / token_ids / logprobs for a prompt with images "
                f"(is /inference/v1/generate served, with --enable-scale-out?): {exc}"
            ) from exc
        if expanded != prompt_ids:
            raise UpstreamError(
                f"{replica} expanded the prompt's {len(request.images)} image(s) to {len(expanded)} tokens "
                f"({expanded.count(pad)} image pads); the model's processor here makes {len(prompt_ids)} "
                f"({prompt_ids.count(pad)} pads): the record would not be what the model read"
            )
        return _completion(ids, logprobs, choice.get("finish_reason"), replica)

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
        backend = VLLMBackend(base_url, model, api_key)
        super().__init__(backend, tokenizer, parser=parser, context_window=context_window)
        if self.vision is not None:
            backend.image_token_id = self.vision.image_token_id

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


def _completion(ids: list[int], logprobs: list[float], finish: str | None, replica: str) -> TokenCompletion:
    if len(ids) != len(logprobs):
        raise UpstreamError(f"{replica} returned {len(ids)} ids but {len(logprobs)} log-probs")
    return TokenCompletion(
        ids=ids, logprobs=logprobs, finish_reason="length" if finish == "length" else "stop", upstream=replica
    )


def _sampling_params(sampling: TokenSampling) -> dict[str, Any]:
    """vLLM's sampling fields for both routes: the sampled token's log-prob, special tokens and the stop
    token kept in the output (the ids must be the whole completion)."""
    params: dict[str, Any] = {
        "max_tokens": sampling.max_new_tokens,
        "logprobs": 0,
        "stop_token_ids": sampling.stop_token_ids,
        "skip_special_tokens": False,
        "include_stop_str_in_output": True,
    }
    for key, value in (
        ("temperature", sampling.temperature),
        ("top_p", sampling.top_p),
        ("seed", sampling.seed),
    ):
        if value is not None:
            params[key] = value
    return params


def one_pad_per_image(ids: list[int], pad: int) -> list[int]:
    """`ids` with each run of image pads (one image's expansion) back to a single pad, as vLLM takes it."""
    return [token for at, token in enumerate(ids) if token != pad or at == 0 or ids[at - 1] != pad]
