"""`init-model`: a deterministic, offline-loadable Qwen3-style model whose chat template chains turns."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from transformers import AutoModelForCausalLM, AutoTokenizer, PreTrainedTokenizerBase
from typer.testing import CliRunner

from proxy.cli import app
from proxy.cpu_engine.model_init import SPECIAL_TOKENS, init_model
from tests.conftest import REPO

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "description": "Run a shell command.",
            "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]},
        },
    },
    {
        "type": "function",
        "function": {"name": "read_file", "description": "Read a file.", "parameters": {"type": "object"}},
    },
]


def _call(name: str, arguments: dict[str, Any], call_id: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


CONVERSATION: list[dict[str, Any]] = [
    {"role": "system", "content": "You are a careful agent. Work in /app."},
    {"role": "user", "content": "Which files are in /app, and what does notes.md say?"},
    {
        "role": "assistant",
        "reasoning_content": "I should list the directory first.",
        "content": "",
        "tool_calls": [_call("bash", {"cmd": "ls -la /app"}, "c1")],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "notes.md\ndata.csv\n"},
    {
        "role": "assistant",
        "reasoning_content": "Two files. Read notes and peek at the CSV.",
        "content": "Reading both.",
        "tool_calls": [
            _call("read_file", {"path": "/app/notes.md"}, "c2"),
            _call("bash", {"cmd": "head -n 2 /app/data.csv", "note": "naïve ✓"}, "c3"),
        ],
    },
    {"role": "tool", "tool_call_id": "c2", "content": "# Notes\n- TODO: fix the parser\n"},
    {"role": "tool", "tool_call_id": "c3", "content": "id,total\n1,42\n"},
    {
        "role": "assistant",
        "reasoning_content": "\nEnough to answer.\n",
        "content": "There are two files; notes.md has one TODO: fix the parser.",
    },
    {"role": "user", "content": "Thanks! Anything else?\n\n  (indented)"},
    {"role": "assistant", "content": "\n\nNo, that is all."},
    {"role": "user", "content": "Bye."},
    {"role": "assistant", "reasoning_content": "", "content": "Goodbye!"},
    {"role": "user", "content": "<think>not really</think> ok"},
]


def _assistant_text(message: dict[str, Any]) -> str:
    """What an assistant turn renders to, written out by hand: the tokens a model would have sampled."""
    text = ""
    if "reasoning_content" in message:
        text += f"<think>\n{message['reasoning_content'].strip(chr(10))}\n</think>\n\n"
    content = message.get("content") or ""
    text += content
    for i, call in enumerate(message.get("tool_calls", [])):
        if content or i:
            text += "\n"
        body = {"name": call["function"]["name"], "arguments": call["function"]["arguments"]}
        text += f"<tool_call>\n{json.dumps(body, ensure_ascii=False)}\n</tool_call>"
    return text + "<|im_end|>"


def _ids(tok: PreTrainedTokenizerBase, messages: list[dict[str, Any]], **kw: Any) -> list[int]:
    out = tok.apply_chat_template(messages, tools=TOOLS, add_generation_prompt=True, tokenize=True, **kw)
    ids = out["input_ids"] if not isinstance(out, list) else out
    return [int(i) for i in ids]


@pytest.fixture(scope="module")
def tok(tiny_model_dir: Path) -> PreTrainedTokenizerBase:
    return AutoTokenizer.from_pretrained(tiny_model_dir)


def _digests(d: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(d.iterdir())}


def test_same_seed_same_files_other_seed_other_weights(tiny_model_dir: Path, tmp_path: Path) -> None:
    kw: dict[str, Any] = {"vocab_size": 2048, "hidden_size": 64, "layers": 2, "max_position_embeddings": 512}
    again = _digests(init_model(tmp_path / "again", **kw))
    assert again == _digests(tiny_model_dir)
    assert {"config.json", "generation_config.json", "model.safetensors", "tokenizer.json"} <= set(again)
    other = _digests(init_model(tmp_path / "other", seed=1, **kw))
    assert other["model.safetensors"] != again["model.safetensors"]


def test_loads_offline_as_a_qwen3_model(tiny_model_dir: Path, tok: PreTrainedTokenizerBase) -> None:
    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
    assert model.config.model_type == "qwen3"
    assert model.config.vocab_size == len(tok) == 2048
    vocab = tok.get_vocab()
    assert sorted(model.generation_config.eos_token_id) == sorted(
        [vocab["<|im_end|>"], vocab["<|endoftext|>"]]
    )
    assert tok.eos_token == "<|im_end|>" and tok.pad_token == "<|endoftext|>"
    assert tok.chat_template and "<tool_call>" in tok.chat_template


def test_special_tokens_are_single_ids_and_text_round_trips(tok: PreTrainedTokenizerBase) -> None:
    for special in SPECIAL_TOKENS:
        assert len(tok.encode(special, add_special_tokens=False)) == 1, special
    texts = [
        "<|im_start|>user\nHello, wörld! ünïcödé 世界 🙂<|im_end|>\n",
        '<tool_call>\n{"name": "bash", "arguments": {"cmd": "ls -la /app | wc -l"}}\n</tool_call>',
        "def f(x):\n\treturn {'a': [1, 2.5, None]}  # trailing   \n\n\r\n",
        "<think>\n</think><tool_response>x</tool_response><|endoftext|>",
        "",
    ]
    for text in texts:
        ids = tok.encode(text, add_special_tokens=False)
        assert tok.decode(ids, skip_special_tokens=False) == text
    ids = tok.encode("<|im_start|>hi<|im_end|>", add_special_tokens=False)
    assert tok.decode(ids, skip_special_tokens=True) == "hi"


@pytest.mark.parametrize(
    ("head", "tail"),
    [
        ("assistant\n", "\n\nNo"),
        ("assistant\n", " leading space"),
        ("x = 1\n", "    y = 2\n"),
        ("<think>", "\nhmm\n"),
        ("done<|im_end|>", "\n<|im_start|>user"),
        ("text\n", "\n\n\n"),
    ],
)
def test_newlines_and_special_tokens_are_hard_token_boundaries(
    tok: PreTrainedTokenizerBase, head: str, tail: str
) -> None:
    def enc(s: str) -> list[int]:
        return list(tok.encode(s, add_special_tokens=False))

    assert enc(head + tail) == enc(head) + enc(tail)


@pytest.mark.parametrize("thinking", [True, False])
def test_each_prompt_extends_the_previous_prompt_and_completion(
    tok: PreTrainedTokenizerBase, thinking: bool
) -> None:
    """Prompt k + the completion sampled for it is a token prefix of prompt k+1 (after tool results)."""
    conversation = CONVERSATION
    kw: dict[str, Any] = {}
    prefilled = ""
    if not thinking:  # the proxy sends `reasoning_content: ""` back for turns made with thinking off
        conversation = [
            {**m, "reasoning_content": ""} if m["role"] == "assistant" else m for m in conversation
        ]
        kw, prefilled = {"enable_thinking": False}, "<think>\n\n</think>\n\n"
    turns = [i for i, m in enumerate(conversation) if m["role"] == "assistant"]
    for k, following in zip(turns, [*turns[1:], len(conversation)], strict=True):
        prompt = _ids(tok, conversation[:k], **kw)
        text = _assistant_text(conversation[k])
        assert text.startswith(prefilled)
        completion = list(tok.encode(text[len(prefilled) :], add_special_tokens=False))
        later = _ids(tok, conversation[:following], **kw)
        assert len(later) > len(prompt) + len(completion)
        assert later[: len(prompt) + len(completion)] == prompt + completion, f"turn {k}"


def test_a_think_block_inside_content_renders_like_reasoning_content(tok: PreTrainedTokenizerBase) -> None:
    split = [CONVERSATION[1], {"role": "assistant", "reasoning_content": "plan", "content": "Done."}]
    inline = [CONVERSATION[1], {"role": "assistant", "content": "<think>\nplan\n</think>\n\nDone."}]
    render = [tok.apply_chat_template(m, tokenize=False) for m in (split, inline)]
    assert render[0] == render[1]


def test_rendering_follows_qwen3(tok: PreTrainedTokenizerBase) -> None:
    text = tok.apply_chat_template(
        CONVERSATION[:7], tools=TOOLS[:1], tokenize=False, add_generation_prompt=True
    )
    tool = json.dumps(TOOLS[0])
    assert text == (
        "<|im_start|>system\nYou are a careful agent. Work in /app.\n\n# Tools\n\n"
        "You may call one or more functions to assist with the user query.\n\n"
        "You are provided with function signatures within <tools></tools> XML tags:\n"
        f"<tools>\n{tool}\n</tools>\n\n"
        "For each function call, return a json object with function name and arguments within "
        "<tool_call></tool_call> XML tags:\n<tool_call>\n"
        '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n'
        "<|im_start|>user\nWhich files are in /app, and what does notes.md say?<|im_end|>\n"
        "<|im_start|>assistant\n<think>\nI should list the directory first.\n</think>\n\n"
        '<tool_call>\n{"name": "bash", "arguments": {"cmd": "ls -la /app"}}\n</tool_call><|im_end|>\n'
        "<|im_start|>user\n<tool_response>\nnotes.md\ndata.csv\n\n</tool_response><|im_end|>\n"
        "<|im_start|>assistant\n<think>\nTwo files. Read notes and peek at the CSV.\n</think>\n\n"
        "Reading both.\n"
        '<tool_call>\n{"name": "read_file", "arguments": {"path": "/app/notes.md"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "bash", "arguments": {"cmd": "head -n 2 /app/data.csv", "note": "naïve ✓"}}'
        "\n</tool_call><|im_end|>\n"
        "<|im_start|>user\n<tool_response>\n# Notes\n- TODO: fix the parser\n\n</tool_response>\n"
        "<tool_response>\nid,total\n1,42\n\n</tool_response><|im_end|>\n"
        "<|im_start|>assistant\n"
    )
    plain = tok.apply_chat_template(CONVERSATION[:2], tokenize=False, add_generation_prompt=False)
    assert plain.startswith("<|im_start|>system\nYou are a careful agent. Work in /app.<|im_end|>\n")


def test_cli_builds_a_model_and_refuses_a_non_empty_directory(tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "400"})  # rich boxes the usage error; keep it on one line
    target = tmp_path / "m"
    argv = ["init-model", str(target), "--vocab-size", "1024", "--hidden-size", "32", "--layers", "1"]
    result = runner.invoke(app, argv)
    assert result.exit_code == 0, result.output
    assert json.loads((target / "config.json").read_text())["vocab_size"] == 1024
    again = runner.invoke(app, argv)
    assert again.exit_code == 2 and "not empty" in again.output
    assert runner.invoke(app, [*argv, "--force"]).exit_code == 0


def test_the_tokenizers_default_corpus_is_this_repositorys_catalogs() -> None:
    """The embedded tokenizer is trained on catalog/ by default; a module move must not lose it (moving
    model_init into proxy/cpu_engine/ once pointed the default at proxy/catalog, which does not exist)."""
    from proxy.cpu_engine import model_init

    assert model_init._REPO == REPO
    assert (model_init._REPO / "catalog" / "claw").is_dir()
