"""The oracle's converter for browser-use, against requests browser-use 0.13.14 really sent (recorded in
openforge/browser with harnesses/browser_use/run.py; trimmed: system prompt, screenshot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from proxy.conversation import GenerationRequest, Message
from proxy.engines.browser_use_actions import (
    browser_use_reply,
    element_index,
    elements,
    is_browser_use_request,
    next_browser_use_reply,
    steps_taken,
    to_browser_use,
)
from proxy.engines.web_actions import web_reply
from proxy.errors import BadRequest
from proxy.records import WireApi
from proxy.wire import WIRE_ADAPTERS

CHAT = WireApi("chat.completions")
FIXTURES = Path(__file__).parent / "fixtures" / "browser_use"
SCRIPT: list[dict[str, Any]] = [
    {"action": "type", "selector": "#q", "text": "widget", "x": 100, "y": 100},
    {"action": "key", "key": "Enter"},
    {"action": "goto", "url": "http://127.0.0.1:8080/"},
    {"action": "click", "selector": "#about-link", "x": 50, "y": 80},
    {"action": "scroll", "dy": 600},
    {"action": "answer", "text": "The answer is 17"},
]
"""The script the fixtures were recorded with."""


def _fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def _request(name: str) -> GenerationRequest:
    request, _ = WIRE_ADAPTERS[CHAT].parse(_fixture(name)["request"]["body"], None)
    return request


def _schema() -> dict[str, Any]:
    return _fixture("step1-type")["request"]["body"]["response_format"]["json_schema"]["schema"]


@pytest.mark.parametrize("name", ["step1-type", "step4-click", "step6-answer"])
def test_the_recorded_requests_are_browser_use_steps(name: str) -> None:
    assert is_browser_use_request(_request(name))


def test_other_requests_are_not() -> None:
    plain = GenerationRequest(model="m", messages=[Message(role="user", content="hello")])
    assert not is_browser_use_request(plain)


@pytest.mark.parametrize(("name", "taken"), [("step1-type", 0), ("step4-click", 3), ("step6-answer", 5)])
def test_steps_taken_come_from_its_step_info(name: str, taken: int) -> None:
    assert steps_taken(_request(name)) == taken


def test_the_element_list_is_read_with_ids() -> None:
    listed = elements(_request("step1-type"))
    assert [(i, tag, a.get("id")) for i, tag, a in listed] == [
        (16, "a", "about-link"),
        (4, "input", "q"),
        (24, "button", "go"),
    ]
    assert listed[1][2] == {"id": "q", "name": "q", "type": "text"}


def test_selectors_map_to_indices() -> None:
    request = _request("step1-type")
    assert element_index(request, "#q") == 4
    assert element_index(request, "#go") == 24
    assert element_index(request, '[name="q"]') == 4
    assert element_index(request, "input[name=q]") == 4


def test_a_new_element_marked_with_a_star_is_found() -> None:
    assert element_index(_request("step6-answer"), "#home") == 101  # listed as *[101]<a id=home />


def test_an_absent_element_is_a_clear_error() -> None:
    with pytest.raises(
        BadRequest, match=r"'#nope' is not among browser-use's 3 interactive elements.*#about-link"
    ):
        element_index(_request("step1-type"), "#nope")
    with pytest.raises(BadRequest, match="not `#id`"):
        element_index(_request("step1-type"), "text=Search")


@pytest.mark.parametrize("name", ["step1-type", "step4-click", "step6-answer"])
def test_the_replies_are_what_was_recorded_and_fit_its_schema(name: str) -> None:
    reply = browser_use_reply(_request(name), SCRIPT)
    assert reply == _fixture(name)["reply"]  # the reply browser-use accepted in the recording
    jsonschema.validate(json.loads(reply), _schema())


def test_the_first_reply_types_and_sets_the_plan() -> None:
    output = json.loads(browser_use_reply(_request("step1-type"), SCRIPT))
    assert output["action"] == [{"input": {"index": 4, "text": "widget", "clear": True}}]
    assert output["plan_update"][0] == 'Type "widget" into #q' and len(output["plan_update"]) == 6


def test_the_answer_is_done_with_its_text() -> None:
    output = json.loads(browser_use_reply(_request("step6-answer"), SCRIPT))
    assert output["action"] == [
        {"done": {"text": "The answer is 17", "success": True, "files_to_display": []}}
    ]


def test_after_the_script_it_is_done() -> None:
    output = json.loads(browser_use_reply(_request("step6-answer"), SCRIPT[:2]))
    (action,) = output["action"]
    assert action["done"]["success"] is True
    jsonschema.validate(output, _schema())


@pytest.mark.parametrize(
    ("step", "action"),
    [
        (
            {"action": "goto", "url": "http://127.0.0.1:8080/a"},
            {"navigate": {"url": "http://127.0.0.1:8080/a", "new_tab": False}},
        ),
        ({"action": "click", "selector": "#go", "x": 1, "y": 2}, {"click": {"index": 24}}),
        ({"action": "key", "key": "Enter"}, {"send_keys": {"keys": "Enter"}}),
        ({"action": "scroll", "dy": 400}, {"scroll": {"down": True, "pages": 0.5, "index": None}}),
        ({"action": "scroll", "dy": -800}, {"scroll": {"down": False, "pages": 1.0, "index": None}}),
        (
            {"action": "done"},
            {"done": {"text": "The task is complete.", "success": True, "files_to_display": []}},
        ),
    ],
)
def test_each_script_action_maps(step: dict[str, Any], action: dict[str, Any]) -> None:
    request = _request("step1-type")
    assert to_browser_use(request, step) == action
    jsonschema.validate(json.loads(browser_use_reply(request, [step, step])), _schema())


def test_bad_steps_say_why() -> None:
    request = _request("step1-type")
    with pytest.raises(BadRequest, match="no selector"):
        to_browser_use(request, {"action": "click", "x": 1, "y": 2})
    with pytest.raises(BadRequest, match="unknown action 'hover'"):
        to_browser_use(request, {"action": "hover"})


def test_a_request_without_step_info_is_refused() -> None:
    text = "<agent_history>\n</agent_history>\n<browser_state>\n</browser_state>"
    request = GenerationRequest(model="m", messages=[Message(role="user", content=text)])
    with pytest.raises(BadRequest, match="step_info"):
        steps_taken(request)


def test_the_task_script_is_read_from_its_file(tmp_path: Path) -> None:
    path = tmp_path / "actions.json"
    path.write_text(json.dumps(SCRIPT))
    assert next_browser_use_reply(path, _request("step4-click")) == _fixture("step4-click")["reply"]
    assert "forge-web" not in web_reply({"action": "done"})  # the forge-web grammar is another reply
