"""forge-web, the screenshot-only browser harness: its action grammar, its prompt, its step loop (with a
fake page and a fake model) and its launch. The real browser run is in the browser image's tests."""

from __future__ import annotations

import argparse
import base64
import json
from pathlib import Path
from typing import Any

import pytest

from harnesses.forge_web import ForgeWeb, agent
from harnesses.forge_web.agent import FormatError, build_messages, parse_action, validate
from harnesses.harness import HARNESS_MOUNT, LaunchContext
from harnesses.registry import get_harness

PNG = b"\x89PNG\r\n\x1a\nnot-really"


@pytest.mark.parametrize(
    ("reply", "action"),
    [
        ('{"action": "click", "x": 0.322, "y": 0.287}', {"action": "click", "x": 0.322, "y": 0.287}),
        (
            'The search box is at the top.\n{"action":"type","text":"red mug","x":0.5,"y":0.1,"clear":true}',
            {"action": "type", "text": "red mug", "x": 0.5, "y": 0.1, "clear": True},
        ),
        ('{"action": "type", "text": "hi"}', {"action": "type", "text": "hi"}),
        ('{"action": "scroll", "dy": -600}', {"action": "scroll", "dy": -600}),
        ('{"action": "key", "key": "Enter"}', {"action": "key", "key": "Enter"}),
        (
            '{"action": "goto", "url": "http://127.0.0.1:8080/cart"}',
            {"action": "goto", "url": "http://127.0.0.1:8080/cart"},
        ),
        ('Found it.\n{"action": "answer", "text": "42"}', {"action": "answer", "text": "42"}),
        ('{"action": "done", "why": "ignored"}', {"action": "done"}),
        (
            'I click.\n```json\n{"action": "click", "x": 1, "y": 0}\n```',
            {"action": "click", "x": 1.0, "y": 0.0},
        ),
        (
            'I will click {"action": "click", "x": 0.5, "y": 0.5} now.',
            {"action": "click", "x": 0.5, "y": 0.5},
        ),
    ],
)
def test_the_grammar_reads_the_last_json_action(reply: str, action: dict[str, Any]) -> None:
    assert parse_action(reply) == action


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        ("", "empty"),
        ("I am not sure what to do.", "no JSON action"),
        ('{"action": "click", "x": 412, "y": 230}', "from 0 to 1"),
        ('{"action": "click", "x": 0.5}', "`y`"),
        ('{"action": "type"}', "needs `text`"),
        ('{"action": "scroll", "dy": "down"}', "`dy`"),
        ('{"action": "key", "key": " "}', "key name"),
        ('{"action": "hover", "x": 0.1, "y": 0.1}', "unknown action 'hover'"),
        ('{"action": "click", "x": true, "y": 0.1}', "from 0 to 1"),
    ],
)
def test_a_reply_without_a_valid_action_says_why(reply: str, said: str) -> None:
    with pytest.raises(FormatError, match=said):
        parse_action(reply)


def test_validate_refuses_what_is_not_an_object() -> None:
    with pytest.raises(FormatError, match="JSON object"):
        validate(["click"])


def test_the_prompt_has_the_goal_the_url_the_numbered_actions_and_the_screenshot() -> None:
    history = ['{"action": "goto", "url": "http://127.0.0.1:8080/"}', "(your reply had no valid action: x)"]
    system, user = build_messages("Buy a mug.", "http://127.0.0.1:8080/", history, PNG)
    assert system["role"] == "system" and agent.GRAMMAR_MARKER in system["content"]
    text, image = user["content"]
    assert text["type"] == "text" and image["type"] == "image_url"
    assert image["image_url"]["url"] == "data:image/png;base64," + base64.b64encode(PNG).decode()
    assert "Goal: Buy a mug." in text["text"] and "Current URL: http://127.0.0.1:8080/" in text["text"]
    assert f"Previous actions:\n1. {history[0]}\n2. {history[1]}\n" in text["text"]
    first = build_messages("Buy a mug.", "about:blank", [], PNG)[1]["content"][0]["text"]
    assert "Previous actions: none" in first


def test_the_marker_matches_the_oracle() -> None:
    from proxy.engines import web_actions

    assert agent.GRAMMAR_MARKER == web_actions.GRAMMAR_MARKER
    assert (agent.VIEWPORT["width"], agent.VIEWPORT["height"]) == web_actions.VIEWPORT


class FakeMouse:
    def __init__(self, page: FakePage) -> None:
        self.page = page

    def click(self, x: float, y: float) -> None:
        self.page.done.append(("click", round(x), round(y)))

    def move(self, x: float, y: float) -> None:
        pass

    def wheel(self, dx: float, dy: float) -> None:
        self.page.done.append(("wheel", dy))


class FakeKeyboard:
    def __init__(self, page: FakePage) -> None:
        self.page = page

    def press(self, key: str) -> None:
        self.page.done.append(("press", key))

    def type(self, text: str) -> None:
        self.page.done.append(("type", text))


class FakePage:
    """Playwright's sync Page, as much as the agent uses of it."""

    def __init__(self) -> None:
        self.url = "about:blank"
        self.done: list[tuple[Any, ...]] = []
        self.mouse, self.keyboard = FakeMouse(self), FakeKeyboard(self)

    def goto(self, url: str, **_: Any) -> None:
        if not url.startswith("http://127.0.0.1"):
            raise RuntimeError("net::ERR_NAME_NOT_RESOLVED at " + url)
        self.url = url
        self.done.append(("goto", url))

    def screenshot(self, **_: Any) -> bytes:
        return PNG

    def wait_for_timeout(self, ms: float) -> None:
        pass

    def wait_for_load_state(self, state: str, timeout: float) -> None:
        pass


def _run(tmp_path: Path, replies: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, FakePage, list]:
    bodies: list[dict[str, Any]] = []

    def fake_chat(base_url: str, api_key: str, body: dict[str, Any]) -> dict[str, Any]:
        bodies.append(body)
        if not replies:
            raise RuntimeError("the model endpoint failed: gone")
        return {"choices": [{"message": {"role": "assistant", "content": replies.pop(0)}}]}

    monkeypatch.setattr(agent, "chat", fake_chat)
    args = argparse.Namespace(
        base_url="http://127.0.0.1:8000/rollouts/r",
        api_key="k",
        model="m",
        start_url="http://127.0.0.1:8080/",
        workdir=str(tmp_path / "app"),
        logs=str(tmp_path / "logs"),
        max_steps=6,
        max_tokens=None,
        goal="Find the price of the red mug.",
    )
    (tmp_path / "app").mkdir()
    (tmp_path / "logs").mkdir()
    page = FakePage()
    return agent.run(args, page), page, bodies


def test_a_run_acts_logs_each_step_and_writes_the_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replies = [
        'I type the query.\n{"action": "type", "text": "red mug", "x": 0.5, "y": 0.125, "clear": true}',
        '{"action": "key", "key": "Enter"}',
        "hmm",
        '{"action": "goto", "url": "https://example.com/"}',
        '{"action": "scroll", "dy": 600}',
        'The price is shown.\n{"action": "answer", "text": "$12.50"}',
    ]
    code, page, bodies = _run(tmp_path, replies, monkeypatch)
    assert code == 0
    assert page.done == [
        ("goto", "http://127.0.0.1:8080/"),
        ("click", 640, 100),
        ("press", "ControlOrMeta+A"),
        ("press", "Backspace"),
        ("type", "red mug"),
        ("press", "Enter"),
        ("wheel", 600),
    ]
    assert (tmp_path / "app" / "answer.txt").read_text() == "$12.50"
    assert (tmp_path / "logs" / "final-message.txt").read_text() == "$12.50"
    last = bodies[-1]["messages"][1]["content"][0]["text"]
    assert '1. {"action": "type", "text": "red mug", "x": 0.5, "y": 0.125, "clear": true}\n' in last
    assert "3. (your reply had no valid action: no JSON action found" in last
    assert '4. {"action": "goto", "url": "https://example.com/"} (failed: net::ERR_NAME_NOT_RESOLVED' in last
    assert '5. {"action": "scroll", "dy": 600}' in last
    steps = [
        json.loads(line) for line in (tmp_path / "logs" / "forge-web-steps.jsonl").read_text().splitlines()
    ]
    assert [s["step"] for s in steps] == [1, 2, 3, 4, 5, 6]
    assert (
        steps[0]["screenshot"] == "screenshots/step-001.png" and steps[0]["url"] == "http://127.0.0.1:8080/"
    )
    assert steps[2]["action"] is None and steps[2]["error"].startswith("format:")
    assert steps[5]["action"] == {"action": "answer", "text": "$12.50"}
    assert sorted(p.name for p in (tmp_path / "logs" / "screenshots").iterdir()) == [
        f"step-00{i}.png" for i in range(1, 7)
    ]


def test_three_unparseable_replies_in_a_row_end_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, bodies = _run(tmp_path, ["a", '{"action": "key", "key": "Tab"}', "b", "c", "d"], monkeypatch)
    assert code == 3 and len(bodies) == 5


def test_the_step_limit_ends_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, bodies = _run(tmp_path, ['{"action": "scroll", "dy": 100}'] * 10, monkeypatch)
    assert code == 3 and len(bodies) == 6


def test_a_failing_model_endpoint_ends_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, _ = _run(tmp_path, [], monkeypatch)
    assert code == 4


def test_done_ends_the_run_with_its_thought(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, _ = _run(tmp_path, ['The form is sent.\n{"action": "done"}'], monkeypatch)
    assert code == 0 and (tmp_path / "logs" / "final-message.txt").read_text() == "The form is sent."
    assert not (tmp_path / "app" / "answer.txt").exists()


def test_the_launch_runs_the_agent_with_the_browser_images_playwright() -> None:
    ctx = LaunchContext(
        instruction="Find the price.",
        model="forge-policy",
        base_url="http://127.0.0.1:8000/rollouts/t--forge-web-1",
        api_key="forge-t--forge-web-1",
        workdir="/app",
        home="/tmp/forge-home/forge-web",
        bundle=f"{HARNESS_MOUNT}/forge-web",
        max_turns=12,
    )
    harness = get_harness("forge-web")
    assert isinstance(harness, ForgeWeb) and harness.domains == ("browser",) and harness.tools == ("browser",)
    launch = harness.launch(ctx)
    assert launch.argv[:2] == ["python3", f"{ctx.bundle}/agent.py"]
    assert launch.argv[-1] == ctx.instruction and "--max-steps" in launch.argv
    assert launch.env["PYTHONPATH"] == "/opt/forge/browser/site-packages"
    assert launch.env["HOME"] == ctx.home
    assert harness.read_output("", {"final-message.txt": "$12.50\n"}).final_message == "$12.50"
