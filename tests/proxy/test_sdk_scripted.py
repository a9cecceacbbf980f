"""The official OpenAI and Anthropic SDKs against the proxy (scripted engine): stream and not, tool calls."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import anthropic
import httpx
import openai
import pytest

from proxy.app import create_apps
from proxy.config import ProxyConfig
from proxy.engines.scripted import ScriptedEngine
from proxy.records import CallStatus, WireApi
from proxy.serving import BackgroundServer
from proxy.store import CallStore

SHELL_TOOL = {
    "type": "function",
    "function": {
        "name": "bash",
        "description": "Run a shell command",
        "parameters": {
            "type": "object",
            "properties": {"command": {"type": "string"}},
            "required": ["command"],
        },
    },
}


@pytest.fixture
def proxies(tmp_path: Path) -> Iterator[tuple[BackgroundServer, BackgroundServer, CallStore]]:
    """The model app and the control app of one proxy, each on its own server."""
    store = CallStore.for_run(tmp_path / "run")
    engine = ScriptedEngine(commands=["ls -la"], final="All done.", reasoning="Let me think.")
    apps = create_apps(engine, store, ProxyConfig(models=["forge-policy"]))
    with BackgroundServer(apps.model) as server, BackgroundServer(apps.control) as control:
        yield server, control, store
    store.close()


@pytest.fixture
def proxy(
    proxies: tuple[BackgroundServer, BackgroundServer, CallStore],
) -> tuple[BackgroundServer, CallStore]:
    server, _, store = proxies
    return server, store


def _openai(server: BackgroundServer, rollout: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{server.url}/rollouts/{rollout}/v1", api_key="unused", max_retries=0)


@pytest.mark.parametrize("stream", [False, True])
def test_chat_completions_tool_call_then_answer(
    proxy: tuple[BackgroundServer, CallStore], stream: bool
) -> None:
    server, store = proxy
    client = _openai(server, f"chat-{stream}")
    messages: list[dict] = [{"role": "user", "content": "list files"}]
    if stream:
        with client.chat.completions.stream(model="forge-policy", messages=messages, tools=[SHELL_TOOL]) as s:
            for _ in s:
                pass
            first = s.get_final_completion()
    else:
        first = client.chat.completions.create(model="forge-policy", messages=messages, tools=[SHELL_TOOL])
    call = first.choices[0].message.tool_calls[0]
    assert first.choices[0].finish_reason == "tool_calls"
    assert call.function.name == "bash" and json.loads(call.function.arguments) == {"command": "ls -la"}
    messages += [
        first.choices[0].message.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": call.id, "content": "a.txt\nb.txt"},
    ]
    second = client.chat.completions.create(model="forge-policy", messages=messages, tools=[SHELL_TOOL])
    assert second.choices[0].message.content == "All done."
    recorded = store.calls(f"chat-{stream}")
    assert [c.seq for c in recorded] == [0, 1]
    assert all(c.wire_api is WireApi.CHAT and c.status is CallStatus.OK for c in recorded)
    assert recorded[0].stream is stream
    assert recorded[0].response["choices"][0]["message"]["tool_calls"][0]["id"] == call.id
    assert recorded[1].request["messages"][2]["content"] == "a.txt\nb.txt"


@pytest.mark.parametrize("stream", [False, True])
def test_responses_api_like_codex(proxy: tuple[BackgroundServer, CallStore], stream: bool) -> None:
    server, store = proxy
    client = _openai(server, f"resp-{stream}")
    tools = [
        {
            "type": "function",
            "name": "exec_command",
            "description": "run",
            "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]},
        },
        {"type": "web_search"},
    ]
    history: list = [
        {"type": "message", "role": "developer", "content": "You are a coding agent."},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list files"}]},
    ]
    if stream:
        with client.responses.stream(model="forge-policy", input=history, tools=tools) as s:
            events = [e.type for e in s]
            first = s.get_final_response()
        assert events[0] == "response.created" and events[-1] == "response.completed"
        assert "response.function_call_arguments.delta" in events
    else:
        first = client.responses.create(model="forge-policy", input=history, tools=tools, store=False)
    kinds = [item.type for item in first.output]
    assert kinds == ["reasoning", "function_call"]
    call = first.output[1]
    assert call.name == "exec_command" and json.loads(call.arguments) == {"cmd": "ls -la"}
    history += [item.model_dump(exclude_none=True) for item in first.output]
    history.append({"type": "function_call_output", "call_id": call.call_id, "output": "a.txt"})
    second = client.responses.create(model="forge-policy", input=history, tools=tools)
    assert second.output_text == "All done."
    recorded = store.calls(f"resp-{stream}")
    assert [c.wire_api for c in recorded] == [WireApi.RESPONSES, WireApi.RESPONSES]


@pytest.mark.parametrize("stream", [False, True])
def test_anthropic_messages_like_claude_code(proxy: tuple[BackgroundServer, CallStore], stream: bool) -> None:
    server, store = proxy
    client = anthropic.Anthropic(base_url=server.url, api_key=f"forge-msg-{stream}", max_retries=0)
    tools = [
        {
            "name": "Bash",
            "description": "run",
            "input_schema": {
                "type": "object",
                "properties": {"command": {"type": "string"}, "timeout": {"type": "number"}},
                "required": ["command"],
            },
        }
    ]
    messages: list = [{"role": "user", "content": "list files"}]
    if stream:
        with client.messages.stream(
            model="forge-policy", max_tokens=256, messages=messages, tools=tools
        ) as s:
            for _ in s:
                pass
            first = s.get_final_message()
    else:
        first = client.messages.create(model="forge-policy", max_tokens=256, messages=messages, tools=tools)
    assert first.stop_reason == "tool_use"
    assert [b.type for b in first.content] == ["thinking", "tool_use"]
    use = first.content[1]
    assert use.name == "Bash" and use.input == {"command": "ls -la"}
    messages += [
        {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]},
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": use.id, "content": "a.txt"},
                {"type": "text", "text": "<system-reminder>x</system-reminder>"},
            ],
        },
    ]
    second = client.messages.create(model="forge-policy", max_tokens=256, messages=messages, tools=tools)
    assert second.content[-1].text == "All done." and second.stop_reason == "end_turn"
    recorded = store.calls(f"msg-{stream}")
    assert len(recorded) == 2 and recorded[0].wire_api is WireApi.MESSAGES
    count = client.messages.count_tokens(model="forge-policy", messages=messages)
    assert count.input_tokens > 0


def test_bad_requests_get_each_apis_error_shape_and_are_recorded(
    proxy: tuple[BackgroundServer, CallStore],
) -> None:
    server, store = proxy
    base = f"{server.url}/rollouts/bad/v1"
    with httpx.Client() as http:
        bad_json = http.post(f"{base}/chat/completions", content=b"{not json")
        assert bad_json.status_code == 400 and "not valid JSON" in bad_json.json()["error"]["message"]
        unknown = http.post(
            f"{base}/chat/completions",
            json={"model": "gpt-9", "messages": [{"role": "user", "content": "hi"}]},
        )
        assert unknown.status_code == 404 and unknown.json()["error"]["type"] == "not_found_error"
        missing = http.post(
            f"{base}/messages",
            json={"model": "forge-policy", "messages": [{"role": "user", "content": "hi"}]},
        )
        assert missing.status_code == 400
        assert (
            missing.json()["type"] == "error" and missing.json()["error"]["type"] == "invalid_request_error"
        )
        assert "max_tokens" in missing.json()["error"]["message"]
        no_input = http.post(f"{base}/responses", json={"model": "forge-policy"})
        assert no_input.status_code == 400 and "input" in no_input.json()["error"]["message"]
        huge = http.post(f"{base}/chat/completions", content=b"x" * (33 * 1024 * 1024))
        assert huge.status_code == 413
    recorded = store.calls("bad")
    assert [c.http_status for c in recorded] == [400, 404, 400, 400, 413]
    assert all(c.status is CallStatus.REJECTED for c in recorded)
    assert recorded[0].request == "{not json"


def test_rollout_identity_rewards_pause_and_policy_version(
    proxies: tuple[BackgroundServer, BackgroundServer, CallStore],
) -> None:
    server, control_server, store = proxies
    body = {"model": "forge-policy", "messages": [{"role": "user", "content": "hi"}]}
    with httpx.Client(base_url=server.url) as http, httpx.Client(base_url=control_server.url) as control:
        assert http.post(
            "/v1/chat/completions", json=body, headers={"authorization": "Bearer forge-r1"}
        ).is_success
        assert http.post("/v1/chat/completions", json=body).is_success
        assert control.post("/admin/pause").json()["paused"] is True
        paused = http.post("/v1/chat/completions", json=body, headers={"authorization": "Bearer forge-r1"})
        assert paused.status_code == 429 and paused.headers["retry-after"] == "2"
        assert control.post("/admin/drain").json()["in_flight"] == 0
        assert control.post("/admin/resume", json={"policy_version": 3}).json() == {
            "paused": False,
            "in_flight": 0,
            "policy_version": 3,
        }
        assert http.post("/v1/chat/completions", json=body, headers={"x-api-key": "forge-r1"}).is_success
        assert control.post("/rollouts/r1/reward", json={"reward": 1.0}).json()["reward"] == 1.0
        rollout = control.get("/rollouts/r1").json()
    assert [c["policy_version"] for c in rollout["calls"]] == [0, 0, 3]
    assert [c["http_status"] for c in rollout["calls"]] == [200, 429, 200]
    assert store.calls("untagged")[0].status is CallStatus.OK


def test_concurrent_calls_are_all_recorded_in_order(proxy: tuple[BackgroundServer, CallStore]) -> None:
    """64 calls at once share group commits; each is committed before its answer, seqs 0..63, none lost."""
    import asyncio

    server, store = proxy

    async def burst() -> list[int]:
        async with httpx.AsyncClient(base_url=server.url) as http:
            body = {"model": "forge-policy", "messages": [{"role": "user", "content": "hi"}]}
            answers = await asyncio.gather(
                *(http.post("/rollouts/burst/v1/chat/completions", json=body) for _ in range(64))
            )
            return [a.status_code for a in answers]

    assert asyncio.run(burst()) == [200] * 64
    calls = store.calls("burst")
    assert [c.seq for c in calls] == list(range(64))
    assert len({c.call_id for c in calls}) == 64
