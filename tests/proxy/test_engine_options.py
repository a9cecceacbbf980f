"""Engines declare what they need from the command line and build themselves from it: `build_engine` has
no per-engine branch, its refusals name the flag, and an engine outside the registry works the same."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from proxy.engine_options import EngineOptions, engine_options
from proxy.engines.base import ENGINES, Engine, engine_class
from proxy.engines.oracle import NopEngine, OracleEngine
from proxy.engines.passthrough import AnthropicPassthrough, OpenAIPassthrough
from proxy.engines.scripted import ScriptedEngine, ScriptedTokenEngine
from proxy.launch import build_engine

NEEDS = {
    "scripted": (False, False),
    "scripted-tokens": (False, True),
    "oracle": (False, False),
    "nop": (False, False),
    "local": (True, True),
    "sglang": (True, True),
    "vllm": (True, True),
    "openai": (True, False),
    "anthropic": (True, False),
}
"""(needs --upstream, needs --tokenizer) of every registered engine: what `forge-proxy serve` demanded
before engines declared it themselves."""


@pytest.fixture
def plugin_dir(tmp_path: Path) -> Iterator[Path]:
    sys.path.insert(0, str(tmp_path))
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("forge_test_engine")]:
            del sys.modules[name]


def test_every_registered_engine_declares_what_it_needs() -> None:
    assert set(ENGINES) == set(NEEDS)
    for name, (upstream, tokenizer) in NEEDS.items():
        cls = engine_class(name)
        assert (cls.needs_upstream, cls.needs_tokenizer) == (upstream, tokenizer), name
        assert cls.from_options.__func__ is not Engine.from_options.__func__, name  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "upstream"), [(n, u) for n, (u, _) in NEEDS.items() if u])
def test_an_engine_that_forwards_needs_an_upstream(name: str, upstream: bool) -> None:
    with pytest.raises(ValueError, match=f"engine '{name}' needs --upstream URL"):
        build_engine(EngineOptions(engine=name))


@pytest.mark.parametrize("name", [n for n, (_, t) in NEEDS.items() if t])
def test_an_engine_on_token_ids_needs_a_tokenizer(name: str) -> None:
    options = EngineOptions(engine=name, upstream=["http://127.0.0.1:9/v1"])
    with pytest.raises(ValueError, match=rf"engine '{name}' needs --tokenizer DIR \(the model's tokenizer"):
        build_engine(options)


def test_engine_specific_refusals_keep_their_words(tmp_path: Path) -> None:
    vllm = EngineOptions(engine="vllm", upstream=["http://127.0.0.1:9/v1"], tokenizer=tmp_path)
    with pytest.raises(ValueError, match=r"engine 'vllm' needs --upstream-model NAME \(the model name vLLM"):
        build_engine(vllm)
    with pytest.raises(ValueError, match=r"engine 'oracle' needs --catalog DIR \(the tasks whose solutions"):
        build_engine(EngineOptions(engine="oracle"))


def test_a_named_api_key_must_be_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORGE_TEST_KEY", raising=False)
    options = EngineOptions(engine="openai", upstream=["http://127.0.0.1:9/v1"], api_key_env="FORGE_TEST_KEY")
    with pytest.raises(
        ValueError, match="--api-key-env FORGE_TEST_KEY: that environment variable is not set"
    ):
        build_engine(options)
    with pytest.raises(ValueError, match="FORGE_TEST_KEY"):  # whatever the engine
        build_engine(EngineOptions(engine="scripted", api_key_env="FORGE_TEST_KEY"))
    monkeypatch.setenv("FORGE_TEST_KEY", "sk-test")
    engine = build_engine(options)
    assert isinstance(engine, OpenAIPassthrough)
    assert engine.client.headers["authorization"] == "Bearer sk-test"


def test_each_engine_is_built_from_its_options(tiny_model_dir: Path) -> None:
    scripted = build_engine(EngineOptions(engine="scripted", commands=["ls", "pwd"]))
    assert isinstance(scripted, ScriptedEngine) and scripted.policy.commands == ["ls", "pwd"]
    assert build_engine(EngineOptions(engine="scripted")).policy.commands  # type: ignore[attr-defined]
    tokens = build_engine(EngineOptions(engine="scripted-tokens", tokenizer=tiny_model_dir, commands=["ls"]))
    assert isinstance(tokens, ScriptedTokenEngine)
    nop = build_engine(EngineOptions(engine="nop"))
    assert isinstance(nop, NopEngine) and nop._tokens is None
    catalog = Path(__file__).resolve().parents[2] / "catalog" / "basics"
    oracle = build_engine(EngineOptions(engine="oracle", catalog=[catalog], tokenizer=tiny_model_dir))
    assert isinstance(oracle, OracleEngine) and oracle._tokens is not None
    anthropic = build_engine(
        EngineOptions(engine="anthropic", upstream=["http://127.0.0.1:9"], upstream_model="claude-x")
    )
    assert isinstance(anthropic, AnthropicPassthrough) and anthropic.model == "claude-x"


def test_an_unknown_engine_is_a_value_error_listing_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown engine 'gpt-9'; known: anthropic, local"):
        build_engine(EngineOptions(engine="gpt-9"))
    with pytest.raises(ValueError, match="neither an engine"):
        engine_options("gpt-9", None, [])


def test_an_engine_outside_the_registry_declares_itself(plugin_dir: Path) -> None:
    (plugin_dir / "forge_test_engine_echo.py").write_text(
        "from proxy.engines.scripted import ScriptedEngine\n\n"
        "class Echo(ScriptedEngine):\n"
        "    needs_upstream = True\n\n"
        "class Bare(ScriptedEngine):\n"
        "    pass\n"
    )
    with pytest.raises(ValueError, match="engine 'forge_test_engine_echo:Echo' needs --upstream URL"):
        build_engine(EngineOptions(engine="forge_test_engine_echo:Echo"))
    built = build_engine(EngineOptions(engine="forge_test_engine_echo:Echo", upstream=["http://x"]))
    assert type(built).__name__ == "Echo"
    with pytest.raises(TypeError, match="is not an Engine"):
        build_engine(EngineOptions(engine="proxy.engine_options:EngineOptions"))


def test_an_engine_whose_package_is_missing_says_which(plugin_dir: Path) -> None:
    (plugin_dir / "forge_test_engine_gpu.py").write_text("import forge_no_such_gpu_runtime\n")
    with pytest.raises(ValueError, match="needs the Python package 'forge_no_such_gpu_runtime'"):
        build_engine(EngineOptions(engine="forge_test_engine_gpu:Engine"))
