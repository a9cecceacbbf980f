"""Recorded sessions as SFT conversations, for each wire API (scripted engine, real SDK clients)."""

from __future__ import annotations

import json
from pathlib import Path

import anthropic
import openai

from proxy.app import create_app
from proxy.config import ProxyConfig
from proxy.engines.scripted import ScriptedEngine
from proxy.serving import BackgroundServer
from proxy.sft import conversations, export_sft_jsonl
from proxy.store import CallStore

CHAT_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string"}},
                "required": ["command"],
            },
        },
    }
]


def test_each_api_session_becomes_one_conversation_plus_side_calls(tmp_path: Path) -> None:
    store = CallStore.for_run(tmp_path / "run")
    app = create_app(
        ScriptedEngine(commands=["make test"], final="Tests pass."), store, ProxyConfig(models=["m"])
    )
    with BackgroundServer(app) as server:
        oa = openai.OpenAI(base_url=f"{server.url}/rollouts/chat/v1", api_key="x", max_retries=0)
        # a side call (like opencode's title generation), then the agent's own two turns
        oa.chat.completions.create(model="m", messages=[{"role": "user", "content": "Title for: run tests"}])
        messages: list = [{"role": "user", "content": "run tests"}]
        first = oa.chat.completions.create(model="m", messages=messages, tools=CHAT_TOOLS).choices[0].message
        messages += [
            first.model_dump(exclude_none=True),
            {"role": "tool", "tool_call_id": first.tool_calls[0].id, "content": "ok"},
        ]
        oa.chat.completions.create(model="m", messages=messages, tools=CHAT_TOOLS)

        ant = anthropic.Anthropic(base_url=server.url, api_key="forge-msg", max_retries=0)
        tools = [
            {
                "name": "Bash",
                "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}},
            }
        ]
        msgs: list = [{"role": "user", "content": "run tests"}]
        reply = ant.messages.create(model="m", max_tokens=100, messages=msgs, tools=tools, system="Be brief.")
        msgs += [
            {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in reply.content]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": reply.content[-1].id, "content": "ok"}],
            },
        ]
        ant.messages.create(model="m", max_tokens=100, messages=msgs, tools=tools, system="Be brief.")

    chat = conversations(store.calls("chat"), reward=1.0)
    assert len(chat) == 2
    agent = chat[1]
    assert [m["role"] for m in agent.messages] == ["user", "assistant", "tool", "assistant"]
    assert json.loads(agent.messages[1]["tool_calls"][0]["function"]["arguments"]) == {"command": "make test"}
    assert agent.messages[-1]["content"] == "Tests pass." and agent.reward == 1.0
    assert agent.call_seqs == [1, 2] and agent.tools[0]["function"]["name"] == "bash"
    assert chat[0].messages[-1]["content"] == "Tests pass."

    claude = conversations(store.calls("msg"))
    assert len(claude) == 1
    assert [m["role"] for m in claude[0].messages] == ["system", "user", "assistant", "tool", "assistant"]

    out = tmp_path / "sft.jsonl"
    assert export_sft_jsonl(chat + claude, out) == 3
    assert json.loads(out.read_text().splitlines()[2])["rollout_id"] == "msg"
    store.close()
