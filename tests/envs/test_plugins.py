"""The one `module:Class` resolver: a registry name or a path given directly resolves; anything else is
an error that says what was asked for, and a missing optional package is named as such."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from envs.errors import EnvsError
from envs.plugins import PluginDependencyMissing, PluginError, load_plugin
from envs.sandbox import Sandbox

REGISTRY = {"docker": "envs.docker_sandbox:DockerSandbox", "plain": "envs.sandbox:Sandbox"}


@pytest.fixture
def plugin_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder on sys.path for throwaway plugin modules; they are forgotten again afterwards."""
    sys.path.insert(0, str(tmp_path))
    before = set(sys.modules)
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        for name in set(sys.modules) - before:
            if name.startswith("forge_test_plugin"):
                del sys.modules[name]


def test_a_registry_name_resolves_to_its_entry() -> None:
    assert load_plugin("plain", REGISTRY, "sandbox backend") is Sandbox


def test_a_module_class_path_given_directly_resolves() -> None:
    assert load_plugin("envs.sandbox:Sandbox", REGISTRY, "sandbox backend") is Sandbox
    assert load_plugin("envs.sandbox:Sandbox.start", {}, "hook") is Sandbox.start, "dotted attributes"


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(PluginError) as raised:
        load_plugin("kubernetes", REGISTRY, "sandbox backend")
    message = str(raised.value)
    assert "unknown sandbox backend 'kubernetes'" in message
    assert "docker, plain" in message and "module:Class" in message
    assert isinstance(raised.value, EnvsError) and not isinstance(raised.value, PluginDependencyMissing)


@pytest.mark.parametrize("target", ["envs.sandbox:", ":Sandbox", "envs.sandbox"])
def test_a_half_path_is_an_unknown_name(target: str) -> None:
    with pytest.raises(PluginError, match="unknown engine"):
        load_plugin(target, {}, "engine")


def test_a_missing_module_is_named() -> None:
    with pytest.raises(PluginError) as raised:
        load_plugin("gone", {"gone": "envs.no_such_module:Thing"}, "harness")
    assert "harness 'gone': no module 'envs.no_such_module'" in str(raised.value)
    assert not isinstance(raised.value, PluginDependencyMissing)


def test_a_missing_top_level_module_is_not_a_missing_dependency() -> None:
    """The entry's own package absent is a wrong path, not a package to install."""
    with pytest.raises(PluginError) as raised:
        load_plugin("forge_test_plugin_absent:Thing", {}, "trainer")
    assert "no module 'forge_test_plugin_absent'" in str(raised.value)
    assert not isinstance(raised.value, PluginDependencyMissing)


def test_a_missing_attribute_is_named() -> None:
    with pytest.raises(PluginError) as raised:
        load_plugin("envs.sandbox:NoSuchBackend", REGISTRY, "sandbox backend")
    message = str(raised.value)
    assert "envs.sandbox has no 'NoSuchBackend'" in message and "envs.sandbox:NoSuchBackend" in message


def test_a_missing_third_party_package_names_the_package(plugin_dir: Path) -> None:
    (plugin_dir / "forge_test_plugin_k8s.py").write_text(
        "import forge_missing_dependency.client\n\nclass Backend:\n    pass\n"
    )
    registry = {"kubernetes": "forge_test_plugin_k8s:Backend"}
    with pytest.raises(PluginDependencyMissing) as raised:
        load_plugin("kubernetes", registry, "sandbox backend")
    error = raised.value
    assert error.missing == "forge_missing_dependency"
    message = str(error)
    assert "sandbox backend 'kubernetes' (forge_test_plugin_k8s:Backend)" in message
    assert "pip install forge_missing_dependency" in message
    assert isinstance(error, PluginError) and isinstance(error.__cause__, ModuleNotFoundError)


def test_a_plugin_that_imports_fine_resolves(plugin_dir: Path) -> None:
    (plugin_dir / "forge_test_plugin_ok.py").write_text("class Backend:\n    pass\n")
    found = load_plugin("forge_test_plugin_ok:Backend", {}, "sandbox backend")
    assert isinstance(found, type) and found.__name__ == "Backend"
