"""Pass-through mode with real SDK clients: proxy A forwards to an upstream (proxy B with the scripted
policy, or a flaky server), translating between wire APIs; retries and failures are recorded."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import anthropic
import openai
import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse

from proxy.app import create_app
from proxy.config import ProxyConfig
from proxy.engines.passthrough import AnthropicPassthrough, OpenAIPassthrough
from proxy.engines.scripted import ScriptedEngine
from proxy.records import CallStatus, WireApi
from proxy.serving import BackgroundServer
from proxy.store import CallStore

BASH = {
    "name": "Bash",
    "description": "run",
    "input_schema": {
        "type": "object",
        "properties": {"command": {"type": "string"}},
        "required": ["command"],
    },
}


@pytest.fixture
def teacher(tmp_path: Path) -> Iterator[tuple[BackgroundServer, CallStore]]:
    store = CallStore.for_run(tmp_path / "teacher")
    app = create_app(
        ScriptedEngine(commands=["cat notes.txt"], final="Finished."),
        store,
        ProxyConfig(models=["teacher-model"]),
    )
    with BackgroundServer(app) as server:
        yield server, store
    store.close()


def _front(tmp_path: Path, engine: object) -> tuple[BackgroundServer, CallStore]:
    store = CallStore.for_run(tmp_path / "front")
    app = create_app(engine, store, ProxyConfig(models=["policy"]))  # type: ignore[arg-type]
    return BackgroundServer(app), store


def test_anthropic_client_through_an_openai_compatible_teacher(
    tmp_path: Path, teacher: tuple[BackgroundServer, CallStore]
) -> None:
    upstream, upstream_store = teacher
    front, store = _front(tmp_path, OpenAIPassthrough(f"{upstream.url}/v1", model="teacher-model"))
    with front:
        client = anthropic.Anthropic(base_url=front.url, api_key="forge-t1", max_retries=0)
        first = client.messages.create(
            model="policy",
            max_tokens=100,
            tools=[BASH],
            messages=[{"role": "user", "content": "read my notes"}],
        )
        use = first.content[-1]
        assert use.type == "tool_use" and use.input == {"command": "cat notes.txt"}
        second = client.messages.create(
            model="policy",
            max_tokens=100,
            tools=[BASH],
            messages=[
                {"role": "user", "content": "read my notes"},
                {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]},
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "milk"}],
                },
            ],
        )
        assert second.content[-1].text == "Finished."
    recorded = store.calls("t1")
    assert [c.wire_api for c in recorded] == [WireApi.MESSAGES, WireApi.MESSAGES]
    assert recorded[0].upstream == upstream.url + "/v1"
    forwarded = upstream_store.calls("untagged")
    assert [c.wire_api for c in forwarded] == [WireApi.CHAT, WireApi.CHAT]
    assert forwarded[1].request["messages"][-1] == {"role": "tool", "content": "milk", "tool_call_id": use.id}
    store.close()


@pytest.mark.parametrize("stream", [False, True])
def test_openai_clients_through_an_anthropic_teacher(
    tmp_path: Path, teacher: tuple[BackgroundServer, CallStore], stream: bool
) -> None:
    upstream, upstream_store = teacher
    front, store = _front(tmp_path, AnthropicPassthrough(upstream.url, model="teacher-model"))
    tools = [
        {
            "type": "function",
            "name": "exec_command",
            "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}},
        }
    ]
    with front:
        client = openai.OpenAI(base_url=f"{front.url}/rollouts/t2/v1", api_key="x", max_retries=0)
        if stream:
            with client.responses.stream(model="policy", input="read my notes", tools=tools) as s:
                response = s.get_final_response()
        else:
            response = client.responses.create(model="policy", input="read my notes", tools=tools)
    call = response.output[-1]
    assert call.type == "function_call" and json.loads(call.arguments) == {"cmd": "cat notes.txt"}
    assert [c.wire_api for c in upstream_store.calls("untagged")] == [WireApi.MESSAGES]
    assert store.calls("t2")[0].stream is stream
    store.close()


def test_upstream_errors_are_retried_then_recorded_as_failed(tmp_path: Path) -> None:
    hits = {"n": 0}
    flaky = FastAPI()

    @flaky.post("/v1/chat/completions")
    async def answer() -> JSONResponse:
        hits["n"] += 1
        if hits["n"] <= 2:
            return JSONResponse({"error": "busy"}, status_code=503, headers={"retry-after": "0"})
        if hits["n"] == 3:
            return JSONResponse(
                {
                    "id": "x",
                    "model": "m",
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": "third time lucky"},
                        }
                    ],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 3},
                }
            )
        return JSONResponse({"error": "down"}, status_code=500)

    with BackgroundServer(flaky) as upstream:
        front, store = _front(tmp_path, OpenAIPassthrough(f"{upstream.url}/v1", max_attempts=3))
        with front:
            client = openai.OpenAI(base_url=f"{front.url}/v1", api_key="forge-t3", max_retries=0)
            ok = client.chat.completions.create(model="policy", messages=[{"role": "user", "content": "hi"}])
            assert ok.choices[0].message.content == "third time lucky"
            with pytest.raises(openai.APIStatusError) as failure:
                client.chat.completions.create(model="policy", messages=[{"role": "user", "content": "hi"}])
            assert failure.value.status_code == 502
    assert hits["n"] == 6
    recorded = store.calls("t3")
    assert [c.status for c in recorded] == [CallStatus.OK, CallStatus.FAILED]
    assert "failed after 3 attempts" in (recorded[1].error or "")
    store.close()


def test_each_rollout_sticks_to_one_replica(tmp_path: Path) -> None:
    stores = [CallStore.for_run(tmp_path / f"replica{i}") for i in range(2)]
    apps = [create_app(ScriptedEngine(), s, ProxyConfig(models=["teacher-model"])) for s in stores]
    with BackgroundServer(apps[0]) as one, BackgroundServer(apps[1]) as two:
        front, store = _front(
            tmp_path, OpenAIPassthrough([f"{one.url}/v1", f"{two.url}/v1"], model="teacher-model")
        )
        with front:
            for rollout in ("a", "b", "c", "d"):
                client = openai.OpenAI(
                    base_url=f"{front.url}/rollouts/{rollout}/v1", api_key="x", max_retries=0
                )
                for _ in range(3):
                    client.chat.completions.create(
                        model="policy", messages=[{"role": "user", "content": "hi"}]
                    )
    for rollout in ("a", "b", "c", "d"):
        assert len({c.upstream for c in store.calls(rollout)}) == 1
    assert [len(s.calls("untagged")) for s in stores] == [6, 6]
    store.close()
    for s in stores:
        s.close()


def test_an_upstream_context_overflow_is_a_length_finish(tmp_path: Path) -> None:
    too_long = FastAPI()

    @too_long.post("/v1/chat/completions")
    async def refuse() -> JSONResponse:
        return JSONResponse(
            {"error": {"message": "This model's maximum context length is 8192 tokens."}}, status_code=400
        )

    with BackgroundServer(too_long) as upstream:
        front, store = _front(tmp_path, OpenAIPassthrough(f"{upstream.url}/v1"))
        with front:
            client = openai.OpenAI(base_url=f"{front.url}/v1", api_key="forge-t4", max_retries=0)
            answer = client.chat.completions.create(
                model="policy", messages=[{"role": "user", "content": "hi"}]
            )
    assert answer.choices[0].finish_reason == "length"
    assert store.calls("t4")[0].finish_reason == "length"
    store.close()


def test_token_ids_from_the_upstream_are_recorded(tmp_path: Path, tiny_model_dir: Path) -> None:
    """A vLLM-style upstream that returns prompt_token_ids / token_ids (here: proxy B on the token path)."""
    from proxy.engines.scripted import ScriptedTokenEngine

    upstream_store = CallStore.for_run(tmp_path / "b")
    b = create_app(
        ScriptedTokenEngine(tiny_model_dir, final="From the teacher."),
        upstream_store,
        ProxyConfig(models=["teacher-model"]),
    )
    with BackgroundServer(b) as upstream:
        front, store = _front(
            tmp_path, OpenAIPassthrough(f"{upstream.url}/v1", model="teacher-model", request_token_ids=True)
        )
        with front:
            client = openai.OpenAI(base_url=f"{front.url}/v1", api_key="forge-ids", max_retries=0)
            answer = client.chat.completions.create(
                model="policy", messages=[{"role": "user", "content": "hi"}]
            )
    assert answer.choices[0].message.content == "From the teacher."
    (call,) = store.calls("ids")
    (teacher_call,) = upstream_store.calls("untagged")
    assert call.prompt_ids == teacher_call.prompt_ids and call.completion_ids == teacher_call.completion_ids
    assert call.completion_ids
    store.close()
    upstream_store.close()
