"""The oracle for forge-web: a request built as the agent builds it, sent through the Chat Completions
wire adapter, is answered with the next step of the task's solution/actions.json in forge-web's grammar;
after the last step, `done`; nop answers `done` at once."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from harnesses.forge_web.agent import build_messages, parse_action
from proxy.conversation import Generation, GenerationRequest
from proxy.engines.oracle import NopEngine, OracleEngine
from proxy.engines.web_actions import actions_taken, is_web_request, to_forge_web
from proxy.errors import BadRequest
from proxy.wire.chat import parse_request
from tests.conftest import write_task

INSTRUCTION = (
    "Open http://127.0.0.1:8080/ and find the price of the red mug. Give the answer as your final answer.\n"
)
SCRIPT = [
    {"action": "goto", "url": "http://127.0.0.1:8080/"},
    {"action": "type", "selector": "#q", "text": "red mug", "x": 640, "y": 100},
    {"action": "key", "key": "Enter"},
    {"action": "click", "selector": "#product-3", "x": 412, "y": 230},
    {"action": "scroll", "dy": 600},
    {"action": "answer", "text": "$12.50"},
]
EXPECTED = [
    {"action": "goto", "url": "http://127.0.0.1:8080/"},
    {"action": "type", "text": "red mug", "x": 0.5, "y": 0.125, "clear": True},
    {"action": "key", "key": "Enter"},
    {"action": "click", "x": 0.322, "y": 0.287},
    {"action": "scroll", "dy": 600},
    {"action": "answer", "text": "$12.50"},
]


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 20), (200, 200, 200)).save(out, format="PNG")
    return out.getvalue()


def _request(history: list[str], task: str | None = "shop-mug-price") -> GenerationRequest:
    """The agent's request after `history`, as the proxy reads it off the wire."""
    body = {
        "model": "m",
        "messages": build_messages(INSTRUCTION.strip(), "http://127.0.0.1:8080/", history, _png()),
    }
    request, _ = parse_request(json.loads(json.dumps(body)))
    return request.model_copy(update={"task": task, "rollout_id": "r-1"})


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    write_task(
        tmp_path,
        "shop-mug-price",
        instruction=INSTRUCTION,
        files={"solution/actions.json": json.dumps(SCRIPT)},
    )
    write_task(tmp_path, "no-script", instruction="Do something else.\n")
    return tmp_path


def _text(engine: OracleEngine | NopEngine, request: GenerationRequest) -> str:
    generation: Generation = asyncio.run(engine.generate(request))
    assert not generation.tool_calls and generation.finish_reason == "stop"
    return generation.text


def test_the_request_is_recognised_and_its_actions_counted() -> None:
    request = _request(
        ['{"action": "goto", "url": "x"}', "(your reply had no valid action: y)", '{"action": "done"}']
    )
    assert is_web_request(request) and request.images, "the screenshot reached the request"
    assert actions_taken(request) == 2, "an error note is no action"
    assert actions_taken(_request([])) == 0


def test_the_oracle_walks_the_script_in_forge_webs_grammar(catalog: Path) -> None:
    engine = OracleEngine(catalog)
    history: list[str] = []
    for expected in EXPECTED:
        reply = _text(engine, _request(history))
        sentence, line = reply.split("\n")
        assert sentence.endswith(".") and len(sentence) < 80, "one short sentence, then the action"
        assert json.loads(line) == expected
        assert parse_action(reply) == expected, "the agent reads what the oracle writes"
        history.append(json.dumps(parse_action(reply)))
    assert json.loads(_text(engine, _request(history)).splitlines()[-1]) == {"action": "done"}


def test_a_failed_action_still_counts_and_the_task_comes_from_the_instruction(catalog: Path) -> None:
    history = ['{"action": "goto", "url": "http://127.0.0.1:8080/"} (failed: timeout)']
    reply = _text(OracleEngine(catalog), _request(history, task=None))
    assert json.loads(reply.splitlines()[-1]) == EXPECTED[1]


def test_a_task_without_an_action_script_is_a_clear_error(catalog: Path) -> None:
    with pytest.raises(BadRequest, match=r"no solution/actions\.json"):
        _text(OracleEngine(catalog), _request([], task="no-script"))


def test_nop_answers_done() -> None:
    reply = _text(NopEngine(), _request([]))
    assert parse_action(reply) == {"action": "done"}


@pytest.mark.parametrize(
    ("step", "said"),
    [
        ({"action": "click", "selector": "#a"}, "no recorded x, y"),
        ({"action": "hover", "x": 1, "y": 1}, "unknown action 'hover'"),
    ],
)
def test_a_script_step_it_cannot_convert_is_a_clear_error(step: dict[str, Any], said: str) -> None:
    with pytest.raises(BadRequest, match=said):
        to_forge_web(step)
