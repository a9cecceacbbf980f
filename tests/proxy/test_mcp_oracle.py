"""Playwright MCP through the proxy: Codex's namespaced tools reach the model flattened
(`mcp__playwright__browser_click`) and its call goes back namespaced; the oracle replays a browser task's
action script as Playwright tool calls (never the shell), ends with the script's answer, and nop browses
nothing. (In real containers: tests/harnesses/test_browser_rollouts.py.)"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from proxy.conversation import Generation, GenerationRequest, Message, Tool, ToolCall
from proxy.engines.mcp_browser_actions import playwright_tools
from proxy.engines.oracle import NOP_MESSAGE, NopEngine, OracleEngine
from proxy.errors import BadRequest
from proxy.wire.responses import parse_request, render_response
from tests.conftest import write_task
from tests.proxy.test_web_oracle import SCRIPT

EXPECTED = [
    ("browser_navigate", {"url": "http://127.0.0.1:8080/"}),
    ("browser_type", {"element": "the field #q", "target": "#q", "text": "red mug"}),
    ("browser_press_key", {"key": "Enter"}),
    ("browser_click", {"element": "the element #product-3", "target": "#product-3"}),
    ("browser_evaluate", {"function": "() => window.scrollBy(0, 600)"}),
]
PLAYWRIGHT = ("browser_navigate", "browser_click", "browser_type", "browser_press_key", "browser_evaluate")
OBJECT = {"type": "object", "properties": {}}


def _function(name: str) -> dict[str, Any]:
    return {"type": "function", "name": name, "description": name, "parameters": OBJECT}


CODEX_TOOLS = [
    {
        "type": "function",
        "name": "exec_command",
        "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}},
    },
    {"type": "namespace", "name": "mcp__playwright", "tools": [_function(n) for n in PLAYWRIGHT]},
    {"type": "web_search"},
]


def test_codex_namespaced_tools_are_flattened_for_the_model_and_namespaced_on_the_way_back() -> None:
    body = {
        "model": "m",
        "input": [
            {"role": "user", "content": "Buy a mug."},
            {
                "type": "function_call",
                "call_id": "c1",
                "namespace": "mcp__playwright",
                "name": "browser_navigate",
                "arguments": '{"url": "http://127.0.0.1:8080/"}',
            },
            {"type": "function_call_output", "call_id": "c1", "output": "ok"},
        ],
        "tools": CODEX_TOOLS,
    }
    request, wire = parse_request(body)
    names = [t.name for t in request.tools]
    assert names == ["exec_command", *(f"mcp__playwright__{n}" for n in PLAYWRIGHT)], "web_search dropped"
    assert request.messages[1].tool_calls[0].name == "mcp__playwright__browser_navigate"
    call = ToolCall(id="c2", name="mcp__playwright__browser_click", arguments="{}")
    shell = ToolCall(id="c3", name="exec_command", arguments="{}")
    out = render_response(Generation(tool_calls=[call, shell], finish_reason="tool_calls"), wire, "resp_x")
    items = [i for i in out["output"] if i["type"] == "function_call"]
    assert (items[0]["namespace"], items[0]["name"]) == ("mcp__playwright", "browser_click")
    assert "namespace" not in items[1] and items[1]["name"] == "exec_command"


@pytest.mark.parametrize(
    ("tool", "said"),
    [
        ({"type": "namespace", "name": "mcp__x"}, r"tools\[0\]: a namespace needs a name and tools"),
        (
            {"type": "namespace", "name": "n", "tools": [{"type": "function"}]},
            r"tools\[0\]\.tools\[0\]\.name",
        ),
    ],
)
def test_a_malformed_namespace_is_a_clear_error(tool: dict[str, Any], said: str) -> None:
    with pytest.raises(BadRequest, match=said):
        parse_request({"model": "m", "input": "hi", "tools": [tool]})


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    write_task(
        tmp_path,
        "shop-mug-price",
        instruction="Find the price of the red mug at http://127.0.0.1:8080/.\n",
        files={"solution/actions.json": json.dumps(SCRIPT)},
    )
    write_task(tmp_path, "claw-task", instruction="Create the file /app/done.\n")
    return tmp_path


def _tools(prefix: str) -> list[Tool]:
    """Claude Code's tools on a browser task: its shell and Playwright's, under the server's prefix."""
    shell = Tool(name="Bash", parameters={"type": "object", "properties": {"command": {"type": "string"}}})
    return [shell, *(Tool(name=f"{prefix}{n}", parameters=OBJECT) for n in PLAYWRIGHT)]


def _turn(
    engine: OracleEngine | NopEngine, task: str, messages: list[Message], tools: list[Tool]
) -> Generation:
    request = GenerationRequest(model="m", messages=messages, tools=tools, task=task, rollout_id="r-1")
    return asyncio.run(engine.generate(request))


@pytest.mark.parametrize("prefix", ["mcp__playwright__", ""])
def test_the_oracle_replays_the_script_through_playwrights_tools(catalog: Path, prefix: str) -> None:
    engine, tools = OracleEngine(catalog), _tools(prefix)
    messages = [Message(role="user", content="Find the price of the red mug.")]
    for name, arguments in EXPECTED:
        turn = _turn(engine, "shop-mug-price", messages, tools)
        assert len(turn.tool_calls) == 1 and turn.finish_reason == "tool_calls"
        call = turn.tool_calls[0]
        assert call.name == prefix + name and json.loads(call.arguments) == arguments
        messages += [
            Message(role="assistant", tool_calls=[call]),
            Message(role="tool", content="### Page state ...", tool_call_id=call.id),
        ]
    final = _turn(engine, "shop-mug-price", messages, tools)
    assert not final.tool_calls and final.text == "$12.50", "the answer is the final message"


def test_a_claw_task_keeps_the_shell_and_nop_browses_nothing(catalog: Path) -> None:
    tools = _tools("mcp__playwright__")
    messages = [Message(role="user", content="Create the file /app/done.")]
    shell = _turn(OracleEngine(catalog), "claw-task", messages, tools)
    assert [c.name for c in shell.tool_calls] == ["Bash"], "no action script: the solution through the shell"
    nop = _turn(NopEngine(), "shop-mug-price", messages, tools)
    assert not nop.tool_calls and nop.text == NOP_MESSAGE


def test_tools_without_navigate_are_not_playwrights() -> None:
    assert playwright_tools([Tool(name="browser_click", parameters=OBJECT)]) == {}
    assert set(playwright_tools(_tools("mcp__playwright__"))) == set(PLAYWRIGHT)


def test_a_step_the_tools_cannot_take_is_a_clear_error(tmp_path: Path) -> None:
    write_task(
        tmp_path,
        "t",
        instruction="Click.\n",
        files={"solution/actions.json": json.dumps([{"action": "click", "x": 1, "y": 2}])},
    )
    with pytest.raises(BadRequest, match=r"step 1 \(click\) of the action script has no selector"):
        _turn(OracleEngine(tmp_path), "t", [Message(role="user", content="Click.")], _tools(""))
