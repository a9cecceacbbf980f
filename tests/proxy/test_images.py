"""Images through the proxy with the official SDKs: every wire API, streamed and not, 1-5 screenshots of
about a megabyte (PNG and JPEG data URIs), tool results with images; stored once by hash beside the call
store, never in a row; bad images and bounds are 4xx in each API's own error shape, recorded as rejected;
pass-through keeps the images across wire APIs; URLs are never fetched."""

from __future__ import annotations

import base64
import hashlib
import http.server
import io
import json
import sqlite3
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import anthropic
import numpy as np
import openai
import pytest
from PIL import Image

from proxy import image_fetch
from proxy.app import create_app
from proxy.blob_store import BlobStore
from proxy.config import ProxyConfig
from proxy.engines.base import Engine
from proxy.engines.passthrough import AnthropicPassthrough, OpenAIPassthrough
from proxy.engines.scripted import ScriptedEngine, ScriptedTokenEngine
from proxy.errors import BadRequest
from proxy.export import export_jsonl, export_parquet, load_chains
from proxy.images import BLOB_URI_PREFIX, ImageBudget, ImageLimits, ImageRef, from_base64
from proxy.records import CallRecord, CallStatus, WireApi
from proxy.serving import BackgroundServer
from proxy.sft import conversations, export_sft_jsonl
from proxy.store import CallStore
from proxy.trajectory import build_chains

MODEL = "forge-policy"


def screenshot(seed: int, fmt: str = "PNG", size: tuple[int, int] = (1024, 640)) -> bytes:
    """A screenshot-like image of about 1 MB as PNG: flat panels, text-like noise in a band."""
    rng = np.random.default_rng(seed)
    w, h = size
    pixels = np.zeros((h, w, 3), dtype=np.uint8)
    pixels[:, :] = rng.integers(0, 255, 3)
    pixels[h // 8 : h // 8 + h // 3] = rng.integers(0, 255, (h // 3, w, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format=fmt)
    return out.getvalue()


def data_uri(data: bytes, media_type: str) -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode()}"


def images_of(n: int) -> list[tuple[bytes, str]]:
    """n screenshots, PNG and JPEG alternating."""
    return [
        (screenshot(i), "image/png") if i % 2 == 0 else (screenshot(i, "JPEG"), "image/jpeg")
        for i in range(n)
    ]


class Proxy:
    def __init__(self, server: BackgroundServer, store: CallStore) -> None:
        self.server, self.store = server, store
        self.blobs = BlobStore.beside(store.path)

    def openai(self, rollout: str) -> openai.OpenAI:
        return openai.OpenAI(base_url=f"{self.server.url}/rollouts/{rollout}/v1", api_key="x", max_retries=0)

    def anthropic(self, rollout: str) -> anthropic.Anthropic:
        return anthropic.Anthropic(
            base_url=f"{self.server.url}/rollouts/{rollout}", api_key="x", max_retries=0
        )

    def call(self, rollout: str) -> CallRecord:
        (call,) = self.store.calls(rollout)
        return call


def _serve(tmp_path: Path, engine: Engine, name: str = "run", **limits: Any) -> Iterator[Proxy]:
    store = CallStore.for_run(tmp_path / name)
    config = ProxyConfig(models=[MODEL], images=ImageLimits(**limits))
    with BackgroundServer(create_app(engine, store, config)) as server:
        yield Proxy(server, store)
    store.close()


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[Proxy]:
    yield from _serve(tmp_path, ScriptedEngine(commands=[], final="I see the page."))


def _ask(proxy: Proxy, api: WireApi, stream: bool, images: list[tuple[bytes, str]], rollout: str) -> str:
    """One call with `images` between two texts, through the SDK of `api`; the answer's text."""
    if api is WireApi.CHAT:
        parts: list[dict[str, Any]] = [{"type": "text", "text": "What is on these screens?"}]
        parts += [{"type": "image_url", "image_url": {"url": data_uri(d, t)}} for d, t in images]
        parts.append({"type": "text", "text": "Answer briefly."})
        messages = [{"role": "user", "content": parts}]
        client = proxy.openai(rollout)
        if stream:
            with client.chat.completions.stream(model=MODEL, messages=messages) as s:  # type: ignore[arg-type]
                for _ in s:
                    pass
                return s.get_final_completion().choices[0].message.content or ""
        answer = client.chat.completions.create(model=MODEL, messages=messages)  # type: ignore[arg-type]
        return answer.choices[0].message.content or ""
    if api is WireApi.RESPONSES:
        content: list[dict[str, Any]] = [{"type": "input_text", "text": "What is on these screens?"}]
        content += [{"type": "input_image", "image_url": data_uri(d, t), "detail": "auto"} for d, t in images]
        content.append({"type": "input_text", "text": "Answer briefly."})
        items = [{"role": "user", "content": content}]
        client = proxy.openai(rollout)
        if stream:
            with client.responses.stream(model=MODEL, input=items) as s:  # type: ignore[arg-type]
                for _ in s:
                    pass
                return s.get_final_response().output_text
        return client.responses.create(model=MODEL, input=items).output_text  # type: ignore[arg-type]
    blocks: list[dict[str, Any]] = [{"type": "text", "text": "What is on these screens?"}]
    blocks += [
        {"type": "image", "source": {"type": "base64", "media_type": t, "data": base64.b64encode(d).decode()}}
        for d, t in images
    ]
    blocks.append({"type": "text", "text": "Answer briefly."})
    turns = [{"role": "user", "content": blocks}]
    aclient = proxy.anthropic(rollout)
    if stream:
        with aclient.messages.stream(model=MODEL, max_tokens=64, messages=turns) as s:  # type: ignore[arg-type]
            for _ in s:
                pass
            final = s.get_final_message()
    else:
        final = aclient.messages.create(model=MODEL, max_tokens=64, messages=turns)  # type: ignore[arg-type]
    return "".join(b.text for b in final.content if b.type == "text")


def _raw_request_row(store: CallStore, call_id: str) -> str:
    with sqlite3.connect(store.path) as conn:
        return conn.execute("SELECT request FROM calls WHERE call_id = ?", (call_id,)).fetchone()[0]


@pytest.mark.parametrize("api", list(WireApi), ids=[a.value for a in WireApi])
@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("count", [1, 5])
def test_screenshots_are_served_stored_once_by_hash_and_never_kept_in_a_row(
    proxy: Proxy, api: WireApi, stream: bool, count: int
) -> None:
    images = images_of(count)
    rollout = f"{api.value}-{stream}-{count}"
    sent = sum(len(d) for d, _ in images)
    assert count == 1 or sent > 2_000_000, "megabytes of screenshots in one request"
    assert _ask(proxy, api, stream, images, rollout) == "I see the page."
    call = proxy.call(rollout)
    assert call.status is CallStatus.OK and call.stream is stream
    assert [(i.sha256, i.media_type, i.size) for i in call.images] == [
        (hashlib.sha256(d).hexdigest(), t, len(d)) for d, t in images
    ]
    assert [(i.width, i.height) for i in call.images] == [(1024, 640)] * count
    for ref, (data, _) in zip(call.images, images, strict=True):
        assert proxy.blobs.get(ref.sha256) == data, "the recorded hash resolves to the bytes sent"
    row = _raw_request_row(proxy.store, call.call_id)
    assert len(row) < 4_000, "no image bytes in the row"
    assert row.count(BLOB_URI_PREFIX) == count
    assert json.dumps(call.request).count(BLOB_URI_PREFIX) == count


def test_the_same_screenshot_is_stored_once(proxy: Proxy) -> None:
    images = images_of(1)
    for i in range(3):
        _ask(proxy, WireApi.CHAT, False, images, f"again-{i}")
    files = [p for p in proxy.blobs.root.rglob("*") if p.is_file()]
    assert [p.name for p in files] == [hashlib.sha256(images[0][0]).hexdigest()]


def test_tool_results_carry_screenshots_in_every_api(proxy: Proxy) -> None:
    """Computer-use agents return the screen as the result of their tool call."""
    shot, shot2 = screenshot(7), screenshot(8, "JPEG")
    uri = data_uri(shot, "image/png")
    call_msg = {"id": "call_1", "type": "function", "function": {"name": "screenshot", "arguments": "{}"}}
    proxy.openai("chat-tool").chat.completions.create(
        model=MODEL,
        messages=[
            {"role": "user", "content": "look"},
            {"role": "assistant", "content": None, "tool_calls": [call_msg]},  # type: ignore[list-item]
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "content": [{"type": "image_url", "image_url": {"url": uri}}],
            },  # type: ignore[list-item]
        ],
    )
    proxy.openai("responses-tool").responses.create(
        model=MODEL,
        input=[
            {"role": "user", "content": "look"},
            {"type": "function_call", "call_id": "c1", "name": "screenshot", "arguments": "{}"},
            {
                "type": "function_call_output",
                "call_id": "c1",
                "output": [
                    {"type": "input_text", "text": "the screen:"},
                    {"type": "input_image", "image_url": uri},
                ],
            },
        ],  # type: ignore[arg-type]
    )
    b64 = base64.b64encode(shot2).decode()
    proxy.anthropic("messages-tool").messages.create(
        model=MODEL,
        max_tokens=32,
        messages=[
            {"role": "user", "content": "look"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "computer", "input": {}}],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": [
                            {"type": "text", "text": "the screen:"},
                            {
                                "type": "image",
                                "source": {"type": "base64", "media_type": "image/jpeg", "data": b64},
                            },
                        ],
                    }
                ],
            },
        ],  # type: ignore[list-item]
    )
    expected = {"chat-tool": shot, "responses-tool": shot, "messages-tool": shot2}
    for rollout, data in expected.items():
        call = proxy.call(rollout)
        assert call.status is CallStatus.OK, (rollout, call.error)
        assert [i.sha256 for i in call.images] == [hashlib.sha256(data).hexdigest()], rollout


def _bad(kind: str) -> tuple[bytes, str]:
    png = screenshot(1, size=(64, 40))
    return {
        "corrupt": (png[: len(png) // 2], "image/png"),
        "not-an-image": (b"%PDF-1.7 not an image at all" * 10, "image/png"),
        "wrong-type": (png, "image/jpeg"),
        "unsupported": (_bmp(), "image/bmp"),
        "tiff-as-png": (_tiff(), "image/png"),
    }[kind]


def _tiff() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, format="TIFF")
    return out.getvalue()


def _bmp() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, format="BMP")
    return out.getvalue()


@pytest.mark.parametrize("api", list(WireApi), ids=[a.value for a in WireApi])
@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("corrupt", "cannot be decoded"),
        ("not-an-image", "cannot be decoded"),
        ("wrong-type", "says it is image/jpeg but its bytes are image/png"),
        ("unsupported", "not supported"),
        ("tiff-as-png", "cannot be decoded"),  # only our formats' decoders are ever reached
    ],
)
def test_a_bad_image_is_a_400_in_the_apis_own_shape_and_recorded_as_rejected(
    proxy: Proxy, api: WireApi, kind: str, words: str
) -> None:
    rollout = f"bad-{api.value}-{kind}"
    error = anthropic.BadRequestError if api is WireApi.MESSAGES else openai.BadRequestError
    with pytest.raises(error) as raised:
        _ask(proxy, api, False, [(screenshot(3, size=(64, 40)), "image/png"), _bad(kind)], rollout)
    assert raised.value.status_code == 400
    assert words in str(raised.value.body), raised.value.body
    call = proxy.call(rollout)
    assert call.status is CallStatus.REJECTED and call.http_status == 400
    assert words in (call.error or "")
    assert len(_raw_request_row(proxy.store, call.call_id)) < 4_000, "a rejected image is not kept either"


@pytest.fixture
def small_limits(tmp_path: Path) -> Iterator[Proxy]:
    yield from _serve(
        tmp_path,
        ScriptedEngine(commands=[]),
        max_image_bytes=300_000,
        max_images=3,
        max_request_image_bytes=800_000,
    )


@pytest.mark.parametrize("api", list(WireApi), ids=[a.value for a in WireApi])
def test_bounds_on_size_and_count_are_413s_naming_the_limit(small_limits: Proxy, api: WireApi) -> None:
    small = [(screenshot(i, size=(320, 200)), "image/png") for i in range(4)]
    assert all(len(d) < 300_000 for d, _ in small)
    big = [(screenshot(9), "image/png")]
    together = [(screenshot(i, size=(660, 420)), "image/png") for i in range(3)]
    assert all(len(d) < 300_000 for d, _ in together) and sum(len(d) for d, _ in together) > 800_000
    error = anthropic.APIStatusError if api is WireApi.MESSAGES else openai.APIStatusError
    for rollout, images, words in (
        (f"{api.value}-big", big, "the limit is 300000"),
        (f"{api.value}-many", small, "the request has more than 3 images; the limit is 3"),
        (f"{api.value}-together", together, "more than 800000 bytes together; the limit is 800000"),
    ):
        with pytest.raises(error) as raised:
            _ask(small_limits, api, False, images, rollout)
        assert raised.value.status_code == 413, raised.value.body
        assert words in str(raised.value.body)
        assert small_limits.call(rollout).status is CallStatus.REJECTED
    assert not small_limits.blobs.root.exists(), "nothing kept of requests over a bound"
    _ask(small_limits, api, False, small[:3], f"{api.value}-ok")
    assert small_limits.call(f"{api.value}-ok").status is CallStatus.OK


@pytest.mark.parametrize("api", list(WireApi), ids=[a.value for a in WireApi])
def test_an_image_to_a_text_only_model_is_a_400_recorded_as_rejected(
    tmp_path: Path, tiny_model_dir: Path, api: WireApi
) -> None:
    for proxy in _serve(tmp_path, ScriptedTokenEngine(tiny_model_dir)):
        error = anthropic.BadRequestError if api is WireApi.MESSAGES else openai.BadRequestError
        with pytest.raises(error) as raised:
            _ask(proxy, api, False, images_of(2), "text-only")
        assert "takes text only" in str(raised.value.body) and "2 image(s)" in str(raised.value.body)
        call = proxy.call("text-only")
        assert call.status is CallStatus.REJECTED and call.images == []
        assert not proxy.blobs.root.exists(), "images no engine here can use are not kept"
        assert len(_raw_request_row(proxy.store, call.call_id)) < 4_000, "nor written into the row"
        shout = data_uri(images_of(1)[0][0], "image/png").replace(";base64,", ";BASE64,")
        with pytest.raises(openai.BadRequestError):
            proxy.openai("shout").chat.completions.create(
                model=MODEL,
                messages=[{"role": "user", "content": [{"type": "image_url", "image_url": {"url": shout}}]}],
            )
        assert len(_raw_request_row(proxy.store, proxy.call("shout").call_id)) < 4_000, (
            "BASE64 in capitals too"
        )
        assert (
            proxy.openai("text")
            .chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "hi"}])
            .choices[0]
            .message.content
        )


class _Hits(http.server.BaseHTTPRequestHandler):
    """Serves /shot.png (a screenshot), /big.png (over a 300 kB bound), anything else a 404; counts hits."""

    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Hits.hits.append(self.path)
        if self.path == "/slow.png":  # a byte every 0.3 s: each read is quick, the whole never ends
            self.send_response(200)
            self.send_header("content-length", "1000")
            self.end_headers()
            for _ in range(1000):
                try:
                    self.wfile.write(b"x")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.3)
            return
        if self.path not in ("/shot.png", "/big.png"):
            self.send_error(404)
            return
        png = screenshot(5, size=(320, 200)) if self.path == "/shot.png" else screenshot(9)
        self.send_response(200)
        self.send_header("content-type", "application/octet-stream")  # not trusted: the bytes decide
        self.send_header("content-length", str(len(png)))
        self.end_headers()
        self.wfile.write(png)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def image_site() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hits)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Hits.hits.clear()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_image_urls_from_a_sandbox_are_refused_and_never_fetched(proxy: Proxy, image_site: str) -> None:
    url = f"{image_site}/shot.png"
    with pytest.raises(openai.BadRequestError) as raised:
        proxy.openai("url").chat.completions.create(
            model=MODEL,
            messages=[{"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]}],
        )
    assert "image URLs are not fetched" in str(raised.value.body)
    with pytest.raises(anthropic.BadRequestError):
        proxy.anthropic("url-messages").messages.create(
            model=MODEL,
            max_tokens=8,
            messages=[
                {"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": url}}]}
            ],
        )
    assert _Hits.hits == [], "the proxy reached an address a sandbox named"


@pytest.fixture
def fetching(tmp_path: Path) -> Iterator[Proxy]:
    yield from _serve(
        tmp_path, ScriptedEngine(commands=[], final="ok"), max_image_bytes=300_000, fetch_urls=True
    )


def test_configured_to_fetch_urls_the_proxy_fetches_and_keeps_them_as_it_keeps_inline_images(
    fetching: Proxy, image_site: str
) -> None:
    shot = screenshot(5, size=(320, 200))
    url = f"{image_site}/shot.png"
    fetching.openai("chat").chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]}],
    )
    fetching.openai("responses").responses.create(
        model=MODEL,
        input=[{"role": "user", "content": [{"type": "input_image", "image_url": url}]}],  # type: ignore[list-item]
    )
    fetching.anthropic("messages").messages.create(
        model=MODEL,
        max_tokens=8,
        messages=[{"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": url}}]}],
    )
    for rollout in ("chat", "responses", "messages"):
        call = fetching.call(rollout)
        assert call.status is CallStatus.OK, (rollout, call.error)
        assert [(i.sha256, i.media_type) for i in call.images] == [
            (hashlib.sha256(shot).hexdigest(), "image/png")
        ]
    assert _Hits.hits == ["/shot.png"] * 3
    for path, status, words in (
        ("/missing.png", 400, "answered 404"),
        ("/big.png", 413, "the limit is 300000"),
    ):
        with pytest.raises(openai.APIStatusError) as raised:
            fetching.openai(f"bad-{status}").chat.completions.create(
                model=MODEL,
                messages=[
                    {
                        "role": "user",
                        "content": [{"type": "image_url", "image_url": {"url": image_site + path}}],
                    }
                ],
            )
        assert raised.value.status_code == status and words in str(raised.value.body), raised.value.body
        assert isinstance(raised.value.body, dict)
        assert raised.value.body["param"] == "messages[0].content[0].image_url.url"


@pytest.mark.parametrize("front_api", [WireApi.MESSAGES, WireApi.RESPONSES, WireApi.CHAT])
@pytest.mark.parametrize("upstream", ["openai", "anthropic"])
@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_pass_through_keeps_the_images_across_wire_apis(
    tmp_path: Path, front_api: WireApi, upstream: str, stream: bool
) -> None:
    teacher_gen = _serve(tmp_path, ScriptedEngine(commands=[], final="Teacher saw it."), "teacher")
    teacher = next(teacher_gen)
    engine: Engine = (
        OpenAIPassthrough(f"{teacher.server.url}/v1", model=MODEL)
        if upstream == "openai"
        else AnthropicPassthrough(teacher.server.url, model=MODEL)
    )
    front_gen = _serve(tmp_path, engine, "front")
    front = next(front_gen)
    try:
        images = images_of(3)
        assert _ask(front, front_api, stream, images, "through") == "Teacher saw it."
        ours = front.call("through")
        assert ours.stream is stream
        (theirs,) = teacher.store.calls("untagged")
        assert theirs.wire_api is (WireApi.CHAT if upstream == "openai" else WireApi.MESSAGES)
        assert [i.sha256 for i in theirs.images] == [i.sha256 for i in ours.images]
        assert [i.sha256 for i in ours.images] == [hashlib.sha256(d).hexdigest() for d, _ in images]
    finally:
        for gen in (front_gen, teacher_gen):
            next(gen, None)


@pytest.mark.parametrize("api", list(WireApi), ids=[a.value for a in WireApi])
def test_sft_data_of_a_vision_teacher_keeps_its_images(proxy: Proxy, tmp_path: Path, api: WireApi) -> None:
    images = images_of(2)
    _ask(proxy, api, False, images, "teacher")
    calls = proxy.store.calls("teacher")
    with pytest.raises(ValueError, match="has 2 image"):
        conversations(calls)
    (example,) = conversations(calls, blobs=proxy.blobs)
    assert [i.sha256 for i in example.images] == [hashlib.sha256(d).hexdigest() for d, _ in images]
    user = example.messages[0]["content"]
    assert [p["type"] for p in user] == ["text", "image", "image", "text"]
    assert example.messages[-1] == {"role": "assistant", "content": "I see the page."}
    out = tmp_path / "sft" / "teacher.sft.jsonl"
    assert export_sft_jsonl([example], out, proxy.blobs) == 1
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["image_paths"] == [
        f"images/{i.sha256}{'.png' if i.media_type == 'image/png' else '.jpg'}" for i in example.images
    ]
    assert [(out.parent / p).read_bytes() for p in row["image_paths"]] == [d for d, _ in images]


def test_chains_name_their_images_and_exports_keep_them(tmp_path: Path) -> None:
    blobs = BlobStore(tmp_path / "blobs")
    shots = [screenshot(30, size=(64, 40)), screenshot(31, "JPEG", size=(48, 30))]
    refs = [
        ImageRef(sha256=blobs.put(data), media_type=kind, width=w, height=h, size=len(data))
        for data, kind, (w, h) in zip(shots, ("image/png", "image/jpeg"), ((64, 40), (48, 30)), strict=True)
    ]
    first = CallRecord(
        rollout_id="r",
        seq=0,
        call_id="a",
        wire_api=WireApi.CHAT,
        prompt_ids=[1, 2],
        completion_ids=[3],
        logprobs=[-0.5],
        images=refs[:1],
    )
    second = CallRecord(
        rollout_id="r",
        seq=1,
        call_id="b",
        wire_api=WireApi.CHAT,
        prompt_ids=[1, 2, 3, 4],
        completion_ids=[5],
        logprobs=[-0.25],
        images=refs,
    )
    trajectory = build_chains([first, second], "r")
    (chain,) = trajectory.chains
    assert chain.images == refs, "the last call's prompt holds every image of the chain"
    export_jsonl([trajectory], {"r": 1.0}, tmp_path / "chains.jsonl")
    assert load_chains(tmp_path / "chains.jsonl")[0].images == refs
    with pytest.raises(ValueError, match="blob store"):
        export_parquet([trajectory], {"r": 1.0}, tmp_path / "chains.parquet")
    export_parquet([trajectory], {"r": 1.0}, tmp_path / "chains.parquet", blobs=blobs)
    assert load_chains(tmp_path / "chains.parquet")[0].images == refs
    from datasets import Dataset
    from datasets import Image as ImageFeature

    dataset = Dataset.from_parquet(str(tmp_path / "chains.parquet"))
    assert dataset.features["images"].feature == ImageFeature()
    (row,) = dataset
    assert [(im.format, im.size) for im in row["images"]] == [("PNG", (64, 40)), ("JPEG", (48, 30))]
    raw = dataset.cast_column("images", dataset.features["images"].__class__(ImageFeature(decode=False)))
    assert [im["bytes"] for im in raw[0]["images"]] == shots, "the bytes that were sent"


def test_a_flood_of_tiny_images_stops_at_the_count_before_decoding_the_rest(proxy: Proxy) -> None:
    """5,000 one-pixel PNGs (well under the body limit): the 33rd part is the 413, and it names it."""
    out = io.BytesIO()
    Image.new("RGB", (1, 1)).save(out, format="PNG")
    part = {"type": "image_url", "image_url": {"url": data_uri(out.getvalue(), "image/png")}}
    with pytest.raises(openai.APIStatusError) as raised:
        proxy.openai("flood").chat.completions.create(
            model=MODEL,
            messages=[{"role": "user", "content": [part] * 5000}],  # type: ignore[list-item]
        )
    assert raised.value.status_code == 413
    body = raised.value.body
    assert isinstance(body, dict) and body["param"] == "messages[0].content[32].image_url.url", body
    assert "more than 32 images" in body["message"]


def test_base64_wrapped_in_lines_is_read_and_stray_characters_are_refused() -> None:
    png = screenshot(2, size=(64, 40))
    text = base64.b64encode(png).decode()
    wrapped = "\n".join(text[i : i + 76] for i in range(0, len(text), 76))
    assert from_base64(wrapped, "image/png", "source", ImageBudget()).data == png
    with pytest.raises(BadRequest, match="not valid base64"):
        from_base64(text[:100] + "!" + text[100:], "image/png", "source", ImageBudget())


def _bomb(side: int) -> bytes:
    """A tiny PNG whose header says side x side pixels (its CRC fixed): 20,000 would decode to 1.2 GB."""
    png = bytearray(screenshot(0, size=(8, 8)))
    at = png.index(b"IHDR")
    png[at + 4 : at + 12] = side.to_bytes(4, "big") * 2
    png[at + 17 : at + 21] = zlib.crc32(bytes(png[at : at + 17])).to_bytes(4, "big")
    return bytes(png)


@pytest.mark.parametrize(
    ("side", "words"),
    [(7_000, "7000x7000 pixels; the limit is 40000000"), (20_000, "400000000 pixels")],
    ids=["over-our-bound", "over-pillows-bound"],
)
def test_a_decompression_bomb_is_refused_before_its_pixels_are_decoded(
    proxy: Proxy, side: int, words: str
) -> None:
    with pytest.raises(openai.APIStatusError) as raised:
        _ask(proxy, WireApi.CHAT, False, [(_bomb(side), "image/png")], f"bomb-{side}")
    assert raised.value.status_code == 413
    assert words in str(raised.value.body) and "the limit is 40000000" in str(raised.value.body), (
        raised.value.body
    )


def test_a_blob_uri_from_a_client_is_not_a_way_to_read_the_store(proxy: Proxy) -> None:
    """Records say blob:sha256:<hex> where an image was; a client sending one names nothing."""
    _ask(proxy, WireApi.CHAT, False, images_of(1), "owner")
    stored = proxy.call("owner").images[0].uri
    with pytest.raises(openai.BadRequestError) as raised:
        proxy.openai("thief").chat.completions.create(
            model=MODEL,
            messages=[{"role": "user", "content": [{"type": "image_url", "image_url": {"url": stored}}]}],
        )
    assert "not fetched" in str(raised.value.body)
    assert proxy.call("thief").images == []


def _ref(seed: int) -> ImageRef:
    return ImageRef(
        sha256=hashlib.sha256(bytes([seed])).hexdigest(), media_type="image/png", width=8, height=8, size=1
    )


def _call(seq: int, prompt: list[int], images: list[ImageRef]) -> CallRecord:
    return CallRecord(
        rollout_id="r",
        seq=seq,
        call_id=f"c{seq}",
        wire_api=WireApi.CHAT,
        prompt_ids=prompt,
        completion_ids=[9],
        logprobs=[-0.1],
        images=images,
    )


def test_same_ids_with_other_screenshots_are_neither_retries_nor_one_chain() -> None:
    """Two screenshots of one size are the same pad tokens; only their hashes tell them apart."""
    same_prompt = build_chains([_call(0, [1, 2], [_ref(1)]), _call(1, [1, 2], [_ref(2)])], "r")
    assert len(same_prompt.chains) == 2, same_prompt.diagnostics
    assert not any("retry" in note for note in same_prompt.diagnostics)
    replaced = build_chains([_call(0, [1, 2], [_ref(1)]), _call(1, [1, 2, 9, 3], [_ref(2), _ref(3)])], "r")
    assert [c.images for c in replaced.chains] == [[_ref(1)], [_ref(2), _ref(3)]]
    assert any("images differ" in note for note in replaced.diagnostics), replaced.diagnostics
    kept = build_chains([_call(0, [1, 2], [_ref(1)]), _call(1, [1, 2, 9, 3], [_ref(1), _ref(3)])], "r")
    assert len(kept.chains) == 1 and kept.chains[0].images == [_ref(1), _ref(3)]
    retried = build_chains([_call(0, [1, 2], [_ref(1)]), _call(1, [1, 2], [_ref(1)])], "r")
    assert len(retried.chains) == 1 and any("retry" in note for note in retried.diagnostics)


def test_sft_keeps_two_calls_with_one_text_and_other_screenshots(proxy: Proxy) -> None:
    first, second = images_of(2)
    _ask(proxy, WireApi.CHAT, False, [first], "two")
    _ask(proxy, WireApi.CHAT, False, [second], "two")
    examples = conversations(proxy.store.calls("two"), blobs=proxy.blobs)
    assert [[i.sha256 for i in e.images] for e in examples] == [
        [hashlib.sha256(first[0]).hexdigest()],
        [hashlib.sha256(second[0]).hexdigest()],
    ]


def test_a_url_that_trickles_is_cut_at_the_fetch_deadline(
    fetching: Proxy, image_site: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(image_fetch, "FETCH_TIMEOUT_SEC", 1.5)
    started = time.monotonic()
    with pytest.raises(openai.BadRequestError) as raised:
        fetching.openai("slow").chat.completions.create(
            model=MODEL,
            messages=[
                {
                    "role": "user",
                    "content": [{"type": "image_url", "image_url": {"url": f"{image_site}/slow.png"}}],
                }
            ],
        )
    assert "took over 2 s" in str(raised.value.body) or "took over 1 s" in str(raised.value.body), (
        raised.value.body
    )
    assert time.monotonic() - started < 10
