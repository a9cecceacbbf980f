"""`forge-train show`: one rollout of a real run directory (written with the project's own writers) as a
self-contained page, checked as text and as Chromium renders it."""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from proxy.blob_store import BlobStore
from proxy.images import ImageBudget, from_data_uri, redact_images
from proxy.records import CallRecord, WireApi
from proxy.store import CallStore
from train.judge import JudgeVerdict
from train.rollout import RESULT_FILE, RolloutResult
from train.rollout_key import RolloutKey
from train.rollout_set import ResultWriter
from train.show import RolloutNotFound, render_rollout, write_page

BIN = Path(sys.executable).parent
BROWSER_IMAGE = "openforge/browser:latest"
TASK = "shop-find-price"
EVIL = "<script>alert('x')</script> & <b>bold</b>"


def _png(colour: tuple[int, int, int], size: tuple[int, int] = (320, 200)) -> bytes:
    img = Image.new("RGB", size, colour)
    for x in range(40, 120):  # a dark block, so the image is not one colour
        for y in range(40, 80):
            img.putpixel((x, y), (20, 20, 20))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def _call(store: CallStore, rollout_id: str, body: dict[str, Any], reply: str) -> CallRecord:
    """A Chat Completions call recorded as the proxy records one: images to the blob store by hash, the
    request redacted to their blob URIs."""
    budget, parts = ImageBudget(), []
    for message in body["messages"]:
        for part in message["content"] if isinstance(message["content"], list) else []:
            if part["type"] == "image_url":
                parts.append(from_data_uri(part["image_url"]["url"], "messages", budget))
    blobs = BlobStore.beside(store.path)
    for part in parts:
        blobs.put(part.data)
    response = {"choices": [{"message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}]}
    record = CallRecord(
        rollout_id=rollout_id,
        call_id=f"chatcmpl-{uuid.uuid4().hex[:8]}",
        wire_api=WireApi.CHAT,
        model="forge-policy",
        request=redact_images(body, parts),
        response=response,
        images=[p.ref for p in parts],
    )
    return store.record(record)


@pytest.fixture
def run(tmp_path: Path) -> tuple[Path, str, bytes, bytes]:
    """A run with one forge-web rollout (two calls, the first with a screenshot) and one other rollout."""
    run_dir = tmp_path / "run"
    key = RolloutKey(task=TASK, harness="forge-web")
    rollout_id = key.new_rollout_id()
    logs = run_dir / "rollouts" / rollout_id
    (logs / "agent" / "screenshots").mkdir(parents=True)
    shot = _png((255, 250, 230), (640, 400))
    sent = shot  # forge-web sends the step's screenshot
    uri = "data:image/png;base64," + base64.b64encode(sent).decode()
    with CallStore.for_run(run_dir) as store:
        first = {"model": "forge-policy", "messages": [
            {"role": "system", "content": "You are a web agent."},
            {"role": "user", "content": [{"type": "text", "text": f"Goal: {EVIL}"},
                                         {"type": "image_url", "image_url": {"url": uri}}]}]}  # fmt: skip
        _call(store, rollout_id, first, 'Click it.\n{"action": "click", "x": 0.25, "y": 0.5}')
        second = {"model": "forge-policy", "messages": [{"role": "user", "content": "Now?"}]}
        _call(store, rollout_id, second, '{"action": "answer", "text": "$12.50"}')
    (logs / "agent" / "screenshots" / "step-001.png").write_bytes(shot)
    steps = [
        {"step": 1, "url": "http://127.0.0.1:8080/", "screenshot": "screenshots/step-001.png",
         "action": {"action": "click", "x": 0.25, "y": 0.5}},
        {"step": 2, "url": "http://127.0.0.1:8080/p/1", "screenshot": "step-002.png",
         "action": {"action": "answer", "text": "$12.50"}},
        {"step": 3, "url": "http://127.0.0.1:8080/x", "screenshot": "../../../../etc/passwd", "action": None},
    ]  # fmt: skip
    (logs / "agent" / "forge-web-steps.jsonl").write_text("".join(json.dumps(s) + "\n" for s in steps))
    writer = ResultWriter(run_dir)
    common = {"harness_version": "1", "model": "forge-policy", "status": "scored"}
    verdict = JudgeVerdict(
        success=False,
        key_points="1. the mug",
        model="judge-vlm",
        reasoning=f"The answer {EVIL} is wrong.\nStatus: failure",
    )
    result = RolloutResult(rollout_id=rollout_id, task=TASK, harness="forge-web", reward=0.75, calls=2,
                           logs_dir=logs, error=EVIL, judge=verdict, **common)  # type: ignore[arg-type]  # fmt: skip
    writer.write(result)
    (logs / RESULT_FILE).write_text(result.model_dump_json())
    other = RolloutKey(task="wiki-edit", harness="forge-web").new_rollout_id()
    writer.write(RolloutResult(rollout_id=other, task="wiki-edit", harness="forge-web", reward=0.0,
                               logs_dir=run_dir / "rollouts" / other, **common))  # type: ignore[arg-type]  # fmt: skip
    return run_dir, rollout_id, sent, shot


def test_the_page_inlines_images_escapes_text_and_shows_the_outcome(
    run: tuple[Path, str, bytes, bytes],
) -> None:
    run_dir, rollout_id, sent, shot = run
    found, html = render_rollout(run_dir, rollout_id[:12])
    assert found == rollout_id
    assert f"data:image/png;base64,{base64.b64encode(shot).decode()}" in html  # the step's screenshot
    assert html.count(base64.b64encode(sent).decode()) == 1  # the request's image is that one: once
    assert "the step&#39;s screenshot, shown beside" in html
    assert "0.75" in html and TASK in html
    assert "failure (judge-vlm): The answer &lt;script&gt;" in html, "the judge's verdict, escaped"
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in html
    assert "<script" not in html and "<b>bold" not in html
    assert 'class="mark" style="left:25.00%;top:50.00%"' in html
    assert "$12.50" in html and "Now?" in html and "You are a web agent." in html
    assert "root:" not in html  # a screenshot name outside the logs is never read
    assert "http" not in html.replace("http://127.0.0.1:8080", "")  # nothing outside the page
    assert html.count("(no matching call)") == 1  # the third step: more steps than calls


def test_a_request_image_without_a_step_screenshot_is_inlined(run: tuple[Path, str, bytes, bytes]) -> None:
    run_dir, rollout_id, sent, _ = run
    shutil.rmtree(run_dir / "rollouts" / rollout_id / "agent")
    _, html = render_rollout(run_dir, rollout_id)
    assert f"data:image/png;base64,{base64.b64encode(sent).decode()}" in html
    assert 'class="mark"' not in html


def test_a_task_with_one_rollout_names_it_and_a_wrong_name_lists_what_exists(
    run: tuple[Path, str, bytes, bytes],
) -> None:
    run_dir, rollout_id, _, _ = run
    assert render_rollout(run_dir, TASK)[0] == rollout_id
    with pytest.raises(RolloutNotFound, match="no rollout matches 'nope'") as caught:
        render_rollout(run_dir, "nope")
    assert rollout_id in str(caught.value) and "wiki-edit" in str(caught.value)
    with pytest.raises(RolloutNotFound, match="2 rollouts match ''"):
        render_rollout(run_dir, "")


def test_the_command_writes_the_page_and_refuses_a_wrong_rollout(
    run: tuple[Path, str, bytes, bytes], tmp_path: Path
) -> None:
    run_dir, rollout_id, _, _ = run
    env = {**os.environ, "COLUMNS": "200"}
    out = tmp_path / "page" / "x.html"
    done = subprocess.run([str(BIN / "forge-train"), "show", str(run_dir), TASK, "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert out.is_file() and rollout_id in out.read_text()
    bad = subprocess.run([str(BIN / "forge-train"), "show", str(run_dir), "nope"],
                         capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert bad.returncode == 2
    assert "no rollout matches 'nope'" in bad.stderr and rollout_id in bad.stderr


def _has_image(name: str) -> bool:
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "image", "inspect", name], capture_output=True).returncode == 0


@pytest.mark.docker
@pytest.mark.skipif(
    shutil.which("chromium") is None and not _has_image(BROWSER_IMAGE),
    reason=f"no chromium on this host and no {BROWSER_IMAGE} image to run one in",
)
def test_chromium_renders_the_page(run: tuple[Path, str, bytes, bytes], tmp_path: Path) -> None:
    run_dir, rollout_id, _, _ = run
    page, shots = tmp_path / "page", tmp_path / "shots"
    shots.mkdir(mode=0o777)
    shots.chmod(0o777)  # the container's user writes here
    write_page(run_dir, rollout_id, page / "x.html")
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,2000",
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    ]
    if shutil.which("chromium"):
        argv = ["chromium", *flags, f"--screenshot={shots / 's.png'}", (page / "x.html").as_uri()]
    else:
        name = f"forge-show-test-{uuid.uuid4().hex[:8]}"
        argv = [
            "docker",
            "run",
            "--rm",
            "--name",
            name,
            "--network",
            "none",
            "--label",
            "openforge.managed=true",
            "-v",
            f"{page}:/page:ro",
            "-v",
            f"{shots}:/shots",
            BROWSER_IMAGE,
            "chromium",
            *flags,
            "--screenshot=/shots/s.png",
            "file:///page/x.html",
        ]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=180)
    finally:
        if argv[0] == "docker":
            subprocess.run(["docker", "rm", "-f", argv[4]], capture_output=True)
    assert (shots / "s.png").is_file(), done.stdout + done.stderr
    with Image.open(shots / "s.png") as img:
        assert img.size == (1280, 2000)
        colours = img.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is not None and len(colours) > 50  # text, the screenshot, the red circle
    rgbs: list[tuple[int, int, int]] = [c for _, c in colours]  # type: ignore[misc]
    assert any(r > 200 and g < 60 and b < 60 for r, g, b in rgbs)  # the click's red circle


def test_every_wire_api_shows_its_messages_images_and_tool_calls(tmp_path: Path) -> None:
    from train.show import _Page

    blobs = BlobStore(tmp_path / "blobs")
    png = _png((1, 2, 3))
    part = from_data_uri("data:image/png;base64," + base64.b64encode(png).decode(), "m", ImageBudget())
    blobs.put(part.data)
    page = _Page(blobs, [part.ref], None)
    src = f"data:image/png;base64,{base64.b64encode(png).decode()}"
    messages = page.messages({"system": "sys", "messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": part.ref.uri}},
        {"type": "tool_result", "tool_use_id": "t", "content": "ok"}]}]})  # fmt: skip
    assert messages == [
        {"role": "system", "parts": [{"kind": "text", "text": "sys"}]},
        {"role": "user", "parts": [{"kind": "image", "src": src}, {"kind": "text", "text": "ok"}]},
    ]
    assert page.reply({"content": [{"type": "tool_use", "name": "click", "input": {"x": 1}}]}) == [
        {"kind": "tool", "text": 'click({"x": 1})'}
    ]
    assert page.reply({"output": [{"type": "function_call", "name": "go", "arguments": "{}"}]}) == [
        {"kind": "tool", "text": "go({})"}
    ]
    call = {"id": "c", "type": "function", "function": {"name": "type", "arguments": '{"t": 1}'}}
    chat = {"choices": [{"message": {"content": None, "tool_calls": [call]}}]}
    assert page.reply(chat) == [{"kind": "tool", "text": 'type({"t": 1})'}]
    responses = page.messages({"instructions": "be brief", "input": "hi"})
    assert [m["role"] for m in responses] == ["system", "user"]
