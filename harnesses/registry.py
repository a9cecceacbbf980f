"""The harness registry: name -> adapter class, imported lazily (veRL's registries, by name).

Adding a harness is one module with a `Harness` subclass plus one line here; see harnesses/README.md.
"""

from __future__ import annotations

from envs.plugins import PluginError, load_plugin
from harnesses.errors import UnknownHarness
from harnesses.harness import Harness

HARNESSES: dict[str, str] = {
    "forge-react": "harnesses.forge_react:ForgeReact",
    "forge-web": "harnesses.forge_web:ForgeWeb",
    "browser-use": "harnesses.browser_use:BrowserUse",
    "codex": "harnesses.codex:Codex",
    "claude-code": "harnesses.claude_code:ClaudeCode",
    "qwen-code": "harnesses.qwen_code:QwenCode",
    "openclaw": "harnesses.openclaw:OpenClaw",
    "opencode": "harnesses.opencode:OpenCode",
    "mini-swe-agent": "harnesses.mini_swe_agent:MiniSweAgent",
    "zeroclaw": "harnesses.zeroclaw:ZeroClaw",
}
"""Harness name -> `module:Class`; a `module:Class` path not listed here works too."""

DEFAULT_HARNESS = "forge-react"


def get_harness(name: str) -> Harness:
    """A fresh adapter of the named harness. Raises UnknownHarness when the name does not resolve (its
    cause says why: not listed, no such module, a package its module needs is missing)."""
    try:
        cls = load_plugin(name, HARNESSES, "harness")
    except PluginError as exc:
        raise UnknownHarness(str(exc)) from exc
    if not (isinstance(cls, type) and issubclass(cls, Harness)):
        raise TypeError(f"{HARNESSES.get(name, name)} is not a Harness")
    return cls()


def all_harnesses() -> list[Harness]:
    return [get_harness(name) for name in HARNESSES]
