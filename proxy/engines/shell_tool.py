"""Finding a harness's own shell tool in a request and filling in a call of it from its schema.

Every harness names and shapes its shell tool differently (Codex `exec_command{cmd}`, Claude Code
`Bash{command}`, Qwen Code `run_shell_command{command}`, OpenClaw `exec{command}`, mini-swe-agent
`bash{command}`); scripted and oracle policies use this to run a command through whichever one is there.
"""

from __future__ import annotations

import json
from typing import Any

from proxy.conversation import Tool

SHELL_TOOL_NAMES = (
    "exec_command",
    "Bash",
    "bash",
    "run_shell_command",
    "shell",
    "exec",
    "terminal",
    "run_command",
)
COMMAND_KEYS = ("cmd", "command", "commands", "script")
FOREGROUND_MS = 600_000
"""For tools that move a command to the background after a while (Codex `yield_time_ms`, OpenClaw
`yieldMs`): wait this long, so a scripted or oracle command finishes before the tool answers."""
YIELD_KEYS = ("yield_time_ms", "yieldMs")


def find_shell_tool(tools: list[Tool]) -> Tool | None:
    """The request's shell tool: a known name first, else any tool with a command-like argument."""
    by_name = {t.name: t for t in tools}
    for name in SHELL_TOOL_NAMES:
        if name in by_name:
            return by_name[name]
    for tool in tools:
        if any(key in tool.parameters.get("properties", {}) for key in COMMAND_KEYS):
            return tool
    return None


def shell_arguments(tool: Tool, command: str, workdir: str | None = None) -> str:
    """JSON arguments that run `command` with `tool`, shaped by the tool's own schema."""
    properties: dict[str, Any] = tool.parameters.get("properties", {})
    required = set(tool.parameters.get("required", []))
    key = next((k for k in COMMAND_KEYS if k in properties), "command")
    arguments: dict[str, Any] = {}
    if properties.get(key, {}).get("type") == "array":
        arguments[key] = ["bash", "-lc", command]
    else:
        arguments[key] = command
    for name, schema in properties.items():
        if name == key or name in arguments:
            continue
        if name == "workdir" and workdir:
            arguments[name] = workdir
        elif name in YIELD_KEYS:
            arguments[name] = FOREGROUND_MS
        elif name in required:
            arguments[name] = _placeholder(name, schema)
    return json.dumps(arguments)


def _placeholder(name: str, schema: dict[str, Any]) -> Any:
    if "default" in schema:
        return schema["default"]
    kind = schema.get("type")
    if kind == "boolean":
        return False
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    if kind == "array":
        return []
    if kind == "object":
        return {}
    return "run a shell command" if name == "description" else ""
