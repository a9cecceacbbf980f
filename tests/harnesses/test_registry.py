"""Every registered adapter builds a headless launch that points at the given proxy and leaks nothing of
the caller's environment; the registry's errors are clear."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from envs.plugins import PluginError
from harnesses.errors import HarnessError
from harnesses.harness import HARNESS_MOUNT, Harness, LaunchContext
from harnesses.registry import HARNESSES, UnknownHarness, get_harness

CTX = LaunchContext(
    instruction="Create /app/done.",
    model="forge-policy",
    base_url="http://127.0.0.1:8000/rollouts/t--h-1",
    api_key="forge-t--h-1",
    workdir="/app",
    home="/tmp/forge-home/h",
    bundle=f"{HARNESS_MOUNT}/h",
    max_turns=7,
)


@pytest.mark.parametrize("name", list(HARNESSES))
def test_adapter_declares_itself(name: str) -> None:
    harness = get_harness(name)
    assert isinstance(harness, Harness)
    assert harness.name == name
    assert harness.version and harness.wire_api in ("chat.completions", "responses", "messages")
    assert harness.tools, "an adapter lists the tools it exposes"


@pytest.mark.parametrize("name", list(HARNESSES))
def test_launch_points_at_the_proxy_and_keeps_to_its_home(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-host-secret")
    monkeypatch.setenv("HTTPS_PROXY", "http://10.0.0.1:3128")
    launch = get_harness(name).launch(CTX)
    assert launch.argv
    everything = json.dumps([launch.argv, launch.env, launch.files])
    assert CTX.base_url in everything, "the proxy URL reaches the harness"
    assert CTX.api_key in everything, "the rollout's key reaches the harness"
    assert "sk-host-secret" not in everything and "10.0.0.1" not in everything
    assert launch.env.get("HOME") == CTX.home
    for path in launch.files:
        assert path.startswith(CTX.home + "/") or path.startswith(CTX.logs + "/"), path
    program = launch.argv[0]
    assert program.startswith(CTX.bundle) or program in ("python3", "node"), program


def test_unknown_harness_lists_the_known_ones() -> None:
    with pytest.raises(UnknownHarness, match="codex"):
        get_harness("no-such-harness")


def test_a_module_class_path_is_a_harness_too() -> None:
    assert type(get_harness("harnesses.codex:Codex")).__name__ == "Codex"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("harnesses.no_such_adapter:Thing", "no module 'harnesses.no_such_adapter'"),
        ("harnesses.codex:NoSuchClass", "has no 'NoSuchClass'"),
    ],
)
def test_a_path_that_does_not_resolve_is_an_unknown_harness(name: str, said: str) -> None:
    with pytest.raises(UnknownHarness, match=said) as raised:
        get_harness(name)
    assert isinstance(raised.value, HarnessError) and isinstance(raised.value, ValueError)
    assert isinstance(raised.value.__cause__, PluginError)


def test_a_path_to_something_else_is_refused() -> None:
    with pytest.raises(TypeError, match="is not a Harness"):
        get_harness("harnesses.harness:LaunchContext")


def test_zeroclaw_without_a_binary_says_how_to_supply_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORGE_ZEROCLAW_BIN", raising=False)
    reason = get_harness("zeroclaw").unavailable_reason()
    assert reason is not None and "FORGE_ZEROCLAW_BIN" in reason
    monkeypatch.setenv("FORGE_ZEROCLAW_BIN", "/nonexistent/zeroclaw")
    assert "not an executable file" in (get_harness("zeroclaw").unavailable_reason() or "")


def test_zeroclaw_config_names_the_proxy_as_a_custom_provider() -> None:
    launch = get_harness("zeroclaw").launch(CTX)
    (config,) = [text for path, text in launch.files.items() if path.endswith("config.toml")]
    assert f'default_provider = "custom:{CTX.base_url}/v1"' in config


def test_every_adapter_module_is_one_registry_line() -> None:
    root = Path(__file__).resolve().parents[2] / "harnesses"
    for target in HARNESSES.values():
        module = target.split(":")[0].split(".", 1)[1].replace(".", os.sep)
        assert (root / f"{module}.py").is_file() or (root / module / "__init__.py").is_file(), target
