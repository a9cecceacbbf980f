"""The harness registry: name -> adapter class, imported lazily (veRL's registries, by name).

Adding a harness is one module with a `Harness` subclass plus one line here; see harnesses/README.md.
"""

from __future__ import annotations

import importlib

from harnesses.harness import Harness

HARNESSES: dict[str, str] = {
    "forge-react": "harnesses.forge_react:ForgeReact",
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


class UnknownHarness(ValueError):
    pass


def get_harness(name: str) -> Harness:
    target = HARNESSES.get(name, name)
    if ":" not in target:
        raise UnknownHarness(f"unknown harness {name!r}; known: {', '.join(HARNESSES)}")
    module_name, class_name = target.split(":", 1)
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, Harness)):
        raise TypeError(f"{target} is not a Harness")
    return cls()


def all_harnesses() -> list[Harness]:
    return [get_harness(name) for name in HARNESSES]
