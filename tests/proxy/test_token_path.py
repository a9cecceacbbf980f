"""The token-in/token-out path with real SDK clients: the scripted policy written in the model's native
format and tokenized with the locally built tokenizer, rendered with its chat template. Every call's
prompt extends the previous prompt + completion exactly, so each rollout is one chain, and decoding the
recorded completion ids gives back what each client parsed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import anthropic
import openai
import pytest

from proxy.app import create_app
from proxy.config import ProxyConfig
from proxy.cpu_engine.model_init import init_model
from proxy.engines.scripted import ScriptedTokenEngine
from proxy.engines.tokens import load_tokenizer
from proxy.parsers import Qwen3Parser
from proxy.serving import BackgroundServer
from proxy.store import CallStore
from proxy.trajectory import build_chains

COMMANDS = ["ls -la", 'grep -n "TODO" notes.md']


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return init_model(tmp_path_factory.mktemp("model") / "tiny", vocab_size=2048, hidden_size=64, layers=2)


@pytest.fixture
def proxy(tmp_path: Path, model_dir: Path) -> Iterator[tuple[BackgroundServer, CallStore]]:
    store = CallStore.for_run(tmp_path / "run")
    engine = ScriptedTokenEngine(
        model_dir, commands=COMMANDS, final="Both commands ran.", reasoning="I will use the shell."
    )
    with BackgroundServer(create_app(engine, store, ProxyConfig(models=["policy"]))) as server:
        yield server, store
    store.close()


def _check_single_chain(store: CallStore, rollout: str, model_dir: Path, turns: int) -> None:
    calls = store.calls(rollout)
    assert len(calls) == turns
    trajectory = build_chains(calls)
    assert len(trajectory.chains) == 1, trajectory.diagnostics
    chain = trajectory.chains[0]
    sampled = sum(len(c.completion_ids or []) for c in calls)
    assert sum(chain.response_mask) == sampled
    assert chain.prompt_ids == calls[0].prompt_ids
    assert chain.prompt_ids + chain.response_ids == (calls[-1].prompt_ids or []) + (
        calls[-1].completion_ids or []
    )
    tokenizer = load_tokenizer(model_dir)
    for i, call in enumerate(calls):
        parsed = Qwen3Parser().parse(tokenizer.decode(call.completion_ids, skip_special_tokens=False))
        assert parsed.reasoning == "I will use the shell."
        if i < len(COMMANDS):
            assert call.finish_reason == "tool_calls" and parsed.content == ""
            assert list(json.loads(parsed.tool_calls[0].arguments).values()) == [COMMANDS[i]]
        else:
            assert call.finish_reason == "stop" and parsed.content == "Both commands ran."
            assert not parsed.tool_calls


def test_chat_completions_over_tokens_is_one_exact_chain(
    proxy: tuple[BackgroundServer, CallStore], model_dir: Path
) -> None:
    server, store = proxy
    client = openai.OpenAI(base_url=f"{server.url}/rollouts/c1/v1", api_key="x", max_retries=0)
    tools = [
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
    messages: list = [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": "Find TODOs."},
    ]
    for turn in range(3):
        with client.chat.completions.stream(model="policy", messages=messages, tools=tools) as s:
            for _ in s:
                pass
            answer = s.get_final_completion().choices[0].message
        messages.append(answer.model_dump(exclude_none=True))
        for call in answer.tool_calls or []:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": f"output of turn {turn}"})
    assert messages[-1]["content"] == "Both commands ran."
    _check_single_chain(store, "c1", model_dir, 3)


def test_responses_over_tokens_is_one_exact_chain(
    proxy: tuple[BackgroundServer, CallStore], model_dir: Path
) -> None:
    server, store = proxy
    client = openai.OpenAI(base_url=f"{server.url}/v1", api_key="forge-r1", max_retries=0)
    tools = [
        {
            "type": "function",
            "name": "exec_command",
            "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]},
        }
    ]
    history: list = [
        {"role": "developer", "content": "You are Codex."},
        {"role": "user", "content": "Find TODOs."},
    ]
    for turn in range(3):
        response = client.responses.create(model="policy", input=history, tools=tools, store=False)
        history += [item.model_dump(exclude_none=True) for item in response.output]
        for item in response.output:
            if item.type == "function_call":
                history.append(
                    {"type": "function_call_output", "call_id": item.call_id, "output": f"out {turn}"}
                )
    assert response.output_text == "Both commands ran."
    _check_single_chain(store, "r1", model_dir, 3)


def test_anthropic_over_tokens_is_one_exact_chain(
    proxy: tuple[BackgroundServer, CallStore], model_dir: Path
) -> None:
    server, store = proxy
    client = anthropic.Anthropic(base_url=server.url, api_key="forge-a1", max_retries=0)
    tools = [
        {
            "name": "Bash",
            "input_schema": {
                "type": "object",
                "properties": {"command": {"type": "string"}},
                "required": ["command"],
            },
        }
    ]
    messages: list = [{"role": "user", "content": "Find TODOs."}]
    for turn in range(3):
        with client.messages.stream(
            model="policy", max_tokens=512, messages=messages, tools=tools, system="You are Claude Code."
        ) as s:
            message = s.get_final_message()
        messages.append(
            {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in message.content]}
        )
        results = [
            {"type": "tool_result", "tool_use_id": b.id, "content": f"out {turn}"}
            for b in message.content
            if b.type == "tool_use"
        ]
        if results:
            messages.append({"role": "user", "content": results})
    assert message.content[-1].text == "Both commands ran."
    _check_single_chain(store, "a1", model_dir, 3)


def test_a_full_context_answers_length_not_an_error(tmp_path: Path, model_dir: Path) -> None:
    store = CallStore.for_run(tmp_path / "run")
    engine = ScriptedTokenEngine(model_dir, context_window=64)
    with BackgroundServer(create_app(engine, store, ProxyConfig(models=["policy"]))) as server:
        client = openai.OpenAI(base_url=f"{server.url}/v1", api_key="forge-long", max_retries=0)
        answer = client.chat.completions.create(
            model="policy", messages=[{"role": "user", "content": "word " * 200}]
        )
    assert answer.choices[0].finish_reason == "length" and not answer.choices[0].message.content
    assert store.calls("long")[0].completion_ids == []
    store.close()
