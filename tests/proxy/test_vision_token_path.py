"""The vision token path: SDK clients with screenshots -> proxy -> our CPU engine serving the tiny random
Qwen2.5-VL model (`init-model --vision`). The proxy expands each image's pad with the model's own
processor and records those ids; the engine gets the image bytes beside them, makes the same pixel values
and checks the pad count; log-probs are the model's own (a teacher-forced forward with the same 3-D
positions agrees); decoding the recorded ids gives what the client parsed; a multi-turn session with a
screenshot in a tool result is one chain that names both images."""

from __future__ import annotations

import base64
import hashlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import numpy as np
import openai
import pytest
import torch
from PIL import Image

from proxy.app import create_app
from proxy.blob_store import BlobStore
from proxy.config import ProxyConfig, SamplingOverrides
from proxy.cpu_engine import CpuEngine
from proxy.cpu_engine import create_app as create_engine_app
from proxy.cpu_engine.engine import EngineError
from proxy.cpu_engine.schema import GenerateRequest
from proxy.cpu_engine.vision_model_init import IMAGE_PAD, init_vision_model
from proxy.engines.base import Engine
from proxy.engines.sglang import LocalEngine
from proxy.engines.tokens import load_tokenizer
from proxy.parsers import Qwen3Parser
from proxy.records import CallRecord, CallStatus, WireApi
from proxy.serving import BackgroundServer
from proxy.store import CallStore
from proxy.trajectory import build_chains
from proxy.vision_prompt import VisionPrompt
from tests.proxy.test_images import MODEL, Proxy, _ask, images_of


def _png(seed: int, size: tuple[int, int] = (640, 400), fmt: str = "PNG") -> bytes:
    pixels = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format=fmt)
    return out.getvalue()


def _uri(data: bytes, media_type: str = "image/png") -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode()}"


@pytest.fixture(scope="module")
def vision_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return init_vision_model(tmp_path_factory.mktemp("vlm") / "model", corpus_dirs=[])


@pytest.fixture(scope="module")
def engine(vision_dir: Path) -> Iterator[CpuEngine]:
    cpu = CpuEngine(vision_dir, threads=1)
    cpu.start()
    yield cpu
    cpu.close()


@pytest.fixture(scope="module")
def engine_server(engine: CpuEngine) -> Iterator[BackgroundServer]:
    app = create_engine_app(engine)
    with BackgroundServer(app) as server:
        yield server


@pytest.fixture
def proxy(
    tmp_path: Path, vision_dir: Path, engine_server: BackgroundServer
) -> Iterator[tuple[BackgroundServer, CallStore]]:
    store = CallStore.for_run(tmp_path / "run")
    config = ProxyConfig(models=["policy"], overrides=SamplingOverrides(temperature=1.0, max_tokens=16))
    with BackgroundServer(create_app(LocalEngine(engine_server.url, vision_dir), store, config)) as server:
        yield server, store
    store.close()


def _prompt(vision_dir: Path, images: list[bytes]) -> tuple[list[int], Any]:
    tok = load_tokenizer(vision_dir)
    vision = VisionPrompt(vision_dir)
    content: list[dict[str, Any]] = [{"type": "image"} for _ in images] + [
        {"type": "text", "text": "What now?"}
    ]
    text = tok.apply_chat_template(
        [{"role": "user", "content": content}], tokenize=False, add_generation_prompt=True
    )
    inputs = vision.inputs(images)
    return vision.expand(tok.encode(text, add_special_tokens=False), inputs.pads), inputs


def teacher_forced_logprobs(
    model: Any,
    vision_dir: Path,
    prompt: list[int],
    completion: list[int],
    inputs: Any,
    temperature: float = 1.0,
) -> list[float]:
    """The log-probs of `completion` after `prompt` under `model` (a Qwen-VL one) with the images' pixel
    values, by one forward with Qwen-VL's 3-D positions, of the distribution sampled at `temperature`."""
    seq = torch.tensor([prompt + completion])
    types = (seq == VisionPrompt(vision_dir).image_token_id).int()
    grid = inputs.image_grid_thw
    positions, _ = model.model.get_rope_index(seq, mm_token_type_ids=types, image_grid_thw=grid)
    with torch.no_grad():
        logits = model(
            input_ids=seq, position_ids=positions, pixel_values=inputs.pixel_values, image_grid_thw=grid
        ).logits[0]
    forced = torch.log_softmax(logits.float() / temperature, -1)
    return [float(forced[len(prompt) - 1 + i, t]) for i, t in enumerate(completion)]


@pytest.mark.parametrize("temperature", [1.0, 0.6])
def test_the_engines_log_probs_are_the_models_with_its_3d_positions(
    engine: CpuEngine, vision_dir: Path, temperature: float
) -> None:
    images = [_png(1), _png(2, (300, 500))]
    ids, inputs = _prompt(vision_dir, images)
    request = GenerateRequest(
        input_ids=ids,
        sampling_params={"temperature": temperature, "max_new_tokens": 12, "ignore_eos": True, "seed": 5},  # type: ignore[arg-type]
        return_logprob=True,
        image_data=[base64.b64encode(i).decode() for i in images],
    )
    answer = engine.submit(request).result()
    out = answer.output_ids
    recorded = [lp for lp, _, _ in answer.meta_info.output_token_logprobs or []]
    expected = teacher_forced_logprobs(engine.model, vision_dir, ids, out, inputs, temperature)
    assert max(abs(a - b) for a, b in zip(expected, recorded, strict=True)) < 1e-4
    again = engine.submit(request).result()
    assert again.output_ids == out, "same seed, same tokens"


def test_greedy_decoding_is_what_transformers_generates(engine: CpuEngine, vision_dir: Path) -> None:
    images = [_png(3)]
    ids, inputs = _prompt(vision_dir, images)
    answer = engine.submit(
        GenerateRequest(
            input_ids=ids,
            sampling_params={"temperature": 0, "max_new_tokens": 10, "ignore_eos": True},  # type: ignore[arg-type]
            image_data=[base64.b64encode(images[0]).decode()],
        )
    ).result()
    seq = torch.tensor([ids])
    types = (seq == VisionPrompt(vision_dir).image_token_id).int()
    reference = engine.model.generate(
        input_ids=seq,
        mm_token_type_ids=types,
        pixel_values=inputs.pixel_values,
        image_grid_thw=inputs.image_grid_thw,
        max_new_tokens=10,
        do_sample=False,
        eos_token_id=None,
    )
    assert answer.output_ids == reference[0, len(ids) :].tolist()


def test_the_engine_refuses_pads_that_do_not_fit_the_images(engine: CpuEngine, vision_dir: Path) -> None:
    images = [_png(4)]
    ids, _ = _prompt(vision_dir, images)
    pad = VisionPrompt(vision_dir).image_token_id
    one_short = ids[: ids.index(pad)] + ids[ids.index(pad) + 1 :]
    data = [base64.b64encode(images[0]).decode()]
    for prompt, image_data, words in (
        (one_short, data, "image token(s); its 1 image(s) are"),
        (ids, [], "no image_data"),
        (ids, ["not base64!"], "image_data"),
    ):
        with pytest.raises(EngineError, match=re.escape(words)):
            engine.submit(
                GenerateRequest(
                    input_ids=prompt, sampling_params={"max_new_tokens": 2}, image_data=image_data
                )  # type: ignore[arg-type]
            ).result()


def test_a_text_model_refuses_image_data(tiny_model_dir: Path) -> None:
    text_engine = CpuEngine(tiny_model_dir, threads=1)
    with pytest.raises(EngineError, match="takes text only"):
        text_engine._check(GenerateRequest(input_ids=[1, 2], image_data=["aGk="]))


def _decoded(call: CallRecord, vision_dir: Path) -> Any:
    return Qwen3Parser().parse(
        load_tokenizer(vision_dir).decode(call.completion_ids, skip_special_tokens=False)
    )


def _check_call(call: CallRecord, vision_dir: Path, images: list[bytes], store: CallStore) -> None:
    assert call.status is CallStatus.OK, call.error
    assert [i.sha256 for i in call.images] == [hashlib.sha256(d).hexdigest() for d in images]
    blobs = BlobStore.beside(store.path)
    assert [blobs.get(i.sha256) for i in call.images] == images
    vision = VisionPrompt(vision_dir)
    pads = vision.inputs(images).pads
    assert call.prompt_ids is not None and call.prompt_ids.count(vision.image_token_id) == sum(pads)
    tok = load_tokenizer(vision_dir)
    text = tok.decode(call.prompt_ids, skip_special_tokens=False)
    assert text.count("<|vision_start|>") == len(images) and IMAGE_PAD * pads[0] in text
    assert call.logprobs is not None and len(call.logprobs) == len(call.completion_ids or [])


def test_every_sdk_with_screenshots_gets_what_the_recorded_tokens_say(
    proxy: tuple[BackgroundServer, CallStore], vision_dir: Path
) -> None:
    server, store = proxy
    shots = [_png(10), _png(11, fmt="JPEG")]
    oa = openai.OpenAI(base_url=f"{server.url}/v1", api_key="forge-oa", max_retries=0)
    parts: list[dict[str, Any]] = [{"type": "text", "text": "The page:"}]
    parts += [{"type": "image_url", "image_url": {"url": _uri(shots[0])}}]
    parts += [{"type": "image_url", "image_url": {"url": _uri(shots[1], "image/jpeg")}}]
    chat = oa.chat.completions.create(model="policy", messages=[{"role": "user", "content": parts}])  # type: ignore[list-item]
    chunks = oa.chat.completions.create(
        model="policy",
        messages=[{"role": "user", "content": parts}],
        stream=True,  # type: ignore[list-item]
    )
    streamed = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    responses = oa.responses.create(
        model="policy",
        input=[
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "The page:"},
                    {"type": "input_image", "image_url": _uri(shots[0])},
                ],
            }
        ],  # type: ignore[list-item]
    )
    ant = anthropic.Anthropic(base_url=server.url, api_key="forge-an", max_retries=0)
    b64 = base64.b64encode(shots[1]).decode()
    message = ant.messages.create(
        model="policy",
        max_tokens=16,
        messages=[
            {
                "role": "user",
                "content": [
                    {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": b64}},
                    {"type": "text", "text": "What is this?"},
                ],
            }
        ],
    )
    chat_call, stream_call, responses_call = store.calls("oa")
    (messages_call,) = store.calls("an")
    _check_call(chat_call, vision_dir, shots, store)
    _check_call(stream_call, vision_dir, shots, store)
    _check_call(responses_call, vision_dir, shots[:1], store)
    _check_call(messages_call, vision_dir, shots[1:], store)
    assert _decoded(chat_call, vision_dir).content == (chat.choices[0].message.content or "")
    assert _decoded(stream_call, vision_dir).content == streamed
    assert _decoded(responses_call, vision_dir).content == responses.output_text
    assert _decoded(messages_call, vision_dir).content == "".join(
        b.text for b in message.content if b.type == "text"
    )


def test_a_screenshot_in_a_tool_result_extends_the_chain(
    proxy: tuple[BackgroundServer, CallStore], vision_dir: Path
) -> None:
    server, store = proxy
    first, second = _png(20), _png(21, (500, 300))
    oa = openai.OpenAI(base_url=f"{server.url}/rollouts/gui/v1", api_key="x", max_retries=0)
    messages: list[dict[str, Any]] = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Open the shop."},
                {"type": "image_url", "image_url": {"url": _uri(first)}},
            ],
        }
    ]
    # seeded: a random model may sample a vision token, which no prompt can hold twice over
    answer = oa.chat.completions.create(model="policy", messages=messages, seed=1)  # type: ignore[arg-type]
    messages.append({"role": "assistant", "content": answer.choices[0].message.content or ""})
    messages.append(
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": _uri(second)}},
                {"type": "text", "text": "Now?"},
            ],
        }
    )
    oa.chat.completions.create(model="policy", messages=messages, seed=2)  # type: ignore[arg-type]
    one, two = store.calls("gui")
    assert one.prompt_ids and two.prompt_ids and one.completion_ids is not None
    assert (
        two.prompt_ids[: len(one.prompt_ids) + len(one.completion_ids)] == one.prompt_ids + one.completion_ids
    )
    (chain,) = build_chains([one, two], "gui").chains
    assert [i.sha256 for i in chain.images] == [
        hashlib.sha256(first).hexdigest(),
        hashlib.sha256(second).hexdigest(),
    ]


def test_an_image_the_processor_refuses_is_a_400_not_a_500(
    proxy: tuple[BackgroundServer, CallStore], vision_dir: Path
) -> None:
    """Qwen's resize refuses an aspect ratio over 200:1 (a 3 x 900 crop)."""
    server, store = proxy
    oa = openai.OpenAI(base_url=f"{server.url}/rollouts/thin/v1", api_key="x", max_retries=0)
    content = [{"type": "image_url", "image_url": {"url": _uri(_png(9, (3, 900)))}}]
    with pytest.raises(openai.BadRequestError) as raised:
        oa.chat.completions.create(model="policy", messages=[{"role": "user", "content": content}])  # type: ignore[list-item]
    assert "processor refuses" in str(raised.value.body)
    assert store.calls("thin")[0].status is CallStatus.REJECTED


def token_path_proxy(tmp_path: Path, engine: Engine) -> Iterator[Proxy]:
    """test_images' Proxy (its SDK helper `_ask`) in front of a token-path engine serving a VL model."""
    store = CallStore.for_run(tmp_path / "matrix")
    config = ProxyConfig(models=[MODEL], overrides=SamplingOverrides(temperature=1.0, max_tokens=12))
    with BackgroundServer(create_app(engine, store, config)) as server:
        yield Proxy(server, store)
    store.close()


def _stream_openai(proxy: Proxy, api: WireApi, images: list[tuple[bytes, str]], rollout: str) -> str:
    """The openai SDK's raw stream (its `.stream()` helpers raise on a `length` finish, which a random
    model's 12 tokens always are): the text deltas, joined."""
    client = proxy.openai(rollout)
    if api is WireApi.CHAT:
        parts: list[dict[str, Any]] = [{"type": "text", "text": "What is on these screens?"}]
        parts += [{"type": "image_url", "image_url": {"url": _uri(d, t)}} for d, t in images]
        chunks = client.chat.completions.create(
            model=MODEL,
            messages=[{"role": "user", "content": parts}],  # type: ignore[list-item]
            stream=True,
        )
        return "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    content: list[dict[str, Any]] = [{"type": "input_text", "text": "What is on these screens?"}]
    content += [{"type": "input_image", "image_url": _uri(d, t), "detail": "auto"} for d, t in images]
    events = client.responses.create(model=MODEL, input=[{"role": "user", "content": content}], stream=True)  # type: ignore[list-item]
    return "".join(e.delta for e in events if e.type == "response.output_text.delta")


def check_sdk_case(proxy: Proxy, vision_dir: Path, api: WireApi, stream: bool, count: int) -> None:
    """One SDK call with `count` screenshots of about 1 MB (PNG and JPEG): what the client parsed is what
    the recorded ids decode to, and the recorded prompt and images are the ones sent."""
    images = images_of(count)
    rollout = f"{api.value}-{stream}-{count}"
    if stream and api is not WireApi.MESSAGES:
        answer = _stream_openai(proxy, api, images, rollout)
    else:
        answer = _ask(proxy, api, stream, images, rollout)
    call = proxy.call(rollout)
    assert call.stream is stream
    _check_call(call, vision_dir, [data for data, _ in images], proxy.store)
    assert _decoded(call, vision_dir).content == answer


@pytest.fixture
def matrix_proxy(tmp_path: Path, vision_dir: Path, engine_server: BackgroundServer) -> Iterator[Proxy]:
    yield from token_path_proxy(tmp_path, LocalEngine(engine_server.url, vision_dir))


@pytest.mark.parametrize("api", list(WireApi), ids=[a.value for a in WireApi])
@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("count", [1, 5])
def test_every_sdk_streamed_or_not_with_1_to_5_screenshots_is_token_exact(
    matrix_proxy: Proxy, vision_dir: Path, api: WireApi, stream: bool, count: int
) -> None:
    check_sdk_case(matrix_proxy, vision_dir, api, stream, count)
