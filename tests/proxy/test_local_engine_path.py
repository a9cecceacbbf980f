"""Real SDK clients -> proxy -> the local CPU engine (a real model, sampling at temperature 1) and the
same through a vLLM-shaped upstream: what each SDK parsed is what decoding the recorded completion ids
gives, and a multi-turn session is one exact chain."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import openai
import pytest
from fastapi import FastAPI

from proxy.app import create_app
from proxy.config import ProxyConfig, SamplingOverrides
from proxy.cpu_engine import CpuEngine
from proxy.cpu_engine import create_app as create_engine_app
from proxy.engines.sglang import LocalEngine
from proxy.engines.tokens import TokenEngine, load_tokenizer
from proxy.engines.vllm import VLLMEngine
from proxy.parsers import Qwen3Parser
from proxy.records import CallRecord
from proxy.serving import BackgroundServer
from proxy.store import CallStore
from proxy.trajectory import build_chains


@pytest.fixture(scope="module")
def cpu_engine(tiny_model_dir: Path) -> Iterator[BackgroundServer]:
    with BackgroundServer(create_engine_app(CpuEngine(tiny_model_dir, threads=1))) as server:
        yield server


def fake_vllm(engine_url: str) -> FastAPI:
    """vLLM's `/v1/completions` (token-id prompt, return_token_ids, logprobs) in front of the CPU engine."""
    app = FastAPI()

    @app.post("/v1/completions")
    async def completions(body: dict[str, Any]) -> dict[str, Any]:
        assert (
            isinstance(body["prompt"], list)
            and body["return_token_ids"]
            and body["add_special_tokens"] is False
        )
        params = {
            "max_new_tokens": body["max_tokens"],
            "stop_token_ids": body.get("stop_token_ids", []),
            "temperature": body.get("temperature", 1.0),
            "seed": body.get("seed"),
        }
        async with httpx.AsyncClient() as http:
            out = (
                await http.post(
                    f"{engine_url}/generate",
                    json={"input_ids": body["prompt"], "sampling_params": params, "return_logprob": True},
                )
            ).json()
        meta = out["meta_info"]
        return {
            "id": "cmpl-1",
            "object": "text_completion",
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "text": out["text"],
                    "token_ids": out["output_ids"],
                    "logprobs": {"token_logprobs": [p[0] for p in meta["output_token_logprobs"]]},
                    "finish_reason": meta["finish_reason"]["type"],
                }
            ],
            "usage": {"prompt_tokens": meta["prompt_tokens"], "completion_tokens": meta["completion_tokens"]},
        }

    return app


@pytest.fixture(params=["local", "vllm"])
def proxy(
    request: pytest.FixtureRequest, tmp_path: Path, tiny_model_dir: Path, cpu_engine: BackgroundServer
) -> Iterator[tuple[BackgroundServer, CallStore]]:
    store = CallStore.for_run(tmp_path / "run")
    config = ProxyConfig(models=["policy"], overrides=SamplingOverrides(temperature=1.0, max_tokens=24))
    if request.param == "local":
        engine: TokenEngine = LocalEngine(cpu_engine.url, tiny_model_dir)
        with BackgroundServer(create_app(engine, store, config)) as server:
            yield server, store
    else:
        with BackgroundServer(fake_vllm(cpu_engine.url)) as vllm:
            engine = VLLMEngine(f"{vllm.url}/v1", tiny_model_dir, model="tiny")
            with BackgroundServer(create_app(engine, store, config)) as server:
                yield server, store
    store.close()


def _decoded(call: CallRecord, model_dir: Path) -> Any:
    return Qwen3Parser().parse(
        load_tokenizer(model_dir).decode(call.completion_ids, skip_special_tokens=False)
    )


@pytest.mark.parametrize("stream", [False, True])
def test_sdks_get_what_the_recorded_tokens_say(
    proxy: tuple[BackgroundServer, CallStore], tiny_model_dir: Path, stream: bool
) -> None:
    server, store = proxy
    oa = openai.OpenAI(base_url=f"{server.url}/v1", api_key="forge-oa", max_retries=0)
    ant = anthropic.Anthropic(base_url=server.url, api_key="forge-an", max_retries=0)
    if stream:
        # the SDK's stream helper refuses finish "length"; read the raw chunks like a harness does
        chunks = oa.chat.completions.create(
            model="policy", messages=[{"role": "user", "content": "Say hi."}], stream=True
        )
        chat_text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        events = list(oa.responses.create(model="policy", input="Say hi.", stream=True))
        responses_text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
        final = events[-1]  # like the real API: response.incomplete when max_output_tokens cut it
        assert final.type in ("response.completed", "response.incomplete")
        assert final.response.output_text == responses_text
        with ant.messages.stream(
            model="policy", max_tokens=24, messages=[{"role": "user", "content": "Hi"}]
        ) as m:
            message = m.get_final_message()
    else:
        chat_text = (
            oa.chat.completions.create(model="policy", messages=[{"role": "user", "content": "Say hi."}])
            .choices[0]
            .message.content
            or ""
        )
        responses_text = oa.responses.create(model="policy", input="Say hi.").output_text
        message = ant.messages.create(
            model="policy", max_tokens=24, messages=[{"role": "user", "content": "Hi"}]
        )
    chat_call, responses_call = store.calls("oa")
    (messages_call,) = store.calls("an")
    for call in (chat_call, responses_call, messages_call):
        assert call.completion_ids and call.logprobs and len(call.logprobs) == len(call.completion_ids)
        assert len(call.completion_ids) <= 24 and all(lp <= 0 for lp in call.logprobs)
    assert chat_text == _decoded(chat_call, tiny_model_dir).content
    assert responses_text == _decoded(responses_call, tiny_model_dir).content
    text_blocks = "".join(b.text for b in message.content if b.type == "text")
    assert text_blocks == _decoded(messages_call, tiny_model_dir).content


def test_a_sampled_multi_turn_session_is_one_chain(proxy: tuple[BackgroundServer, CallStore]) -> None:
    server, store = proxy
    client = openai.OpenAI(base_url=f"{server.url}/rollouts/multi/v1", api_key="x", max_retries=0)
    messages: list = [
        {"role": "system", "content": "Be terse."},
        {"role": "user", "content": "Count to three."},
    ]
    for turn in range(3):
        answer = client.chat.completions.create(model="policy", messages=messages).choices[0].message
        messages += [answer.model_dump(exclude_none=True), {"role": "user", "content": f"And then {turn}?"}]
    trajectory = build_chains(store.calls("multi"))
    assert len(trajectory.chains) == 1, trajectory.diagnostics
    chain = trajectory.chains[0]
    calls = store.calls("multi")
    assert sum(chain.response_mask) == sum(len(c.completion_ids or []) for c in calls)
    assert chain.response_logprobs is not None
    sampled = [lp for lp, m in zip(chain.response_logprobs, chain.response_mask, strict=True) if m]
    assert sampled == [lp for c in calls for lp in (c.logprobs or [])]
