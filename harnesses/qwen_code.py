"""Qwen Code: a Node program (bundled with its own Node runtime) speaking Chat Completions, SSE.

Usage statistics and telemetry are off in its settings file (without that it looks up telemetry hosts),
and so is the auto-update check. On browser tasks Playwright MCP is in the settings' `mcpServers`.
"""

from __future__ import annotations

import json
from typing import Any

from harnesses import playwright_mcp
from harnesses.harness import Harness, HarnessOutput, Launch, LaunchContext, base_env
from harnesses.installers import NODE_BIN, NpmInstall

SETTINGS: dict[str, Any] = {
    "general": {"enableAutoUpdate": False},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}


class QwenCode(Harness):
    name = "qwen-code"
    version = "0.24.4"
    wire_api = "chat.completions"
    tools = ("run_shell_command", "read_file", "write_file", "edit", "glob", "grep_search", "list_directory")
    description = "Qwen Code, `qwen -o json` headless"
    installer = NpmInstall(packages=["@qwen-code/qwen-code@0.24.4", playwright_mcp.PACKAGE])
    collect = (".qwen/tmp", ".qwen/projects")
    domains = ("claw", "browser")

    def launch(self, ctx: LaunchContext) -> Launch:
        settings: dict[str, Any] = dict(SETTINGS)
        if ctx.max_turns:
            settings["model"] = {"maxSessionTurns": ctx.max_turns}
        files: dict[str, str] = {}
        if ctx.browser:
            # alwaysLoadTools: its tools go in the request's tool list, not behind tool_search.
            extra = {"timeout": 120_000, "trust": True, "alwaysLoadTools": True}
            server = playwright_mcp.stdio_server(ctx.bundle, ctx.home) | extra
            settings["mcpServers"] = {playwright_mcp.SERVER: server}
            files = playwright_mcp.files(ctx.home)
        env = base_env(ctx, [f"{ctx.bundle}/{NODE_BIN}", f"{ctx.bundle}/node_modules/.bin"]) | {
            "OPENAI_API_KEY": ctx.api_key,
            "OPENAI_BASE_URL": f"{ctx.base_url}/v1",
            "OPENAI_MODEL": ctx.model,
        }
        argv = [
            f"{ctx.bundle}/{NODE_BIN}/node",
            f"{ctx.bundle}/node_modules/@qwen-code/qwen-code/cli-entry.js",
            "--auth-type",
            "openai",
            "--approval-mode",
            "yolo",
            "-o",
            "json",
            ctx.instruction,
        ]
        files[f"{ctx.home}/.qwen/settings.json"] = json.dumps(settings)
        return Launch(argv=argv, env=env, files=files)

    def read_output(self, stdout: str, files: dict[str, str]) -> HarnessOutput:
        output = HarnessOutput()
        try:
            events = json.loads(stdout[stdout.find("[") :]) if "[" in stdout else []
        except ValueError:
            events = []
        for event in events if isinstance(events, list) else []:
            if isinstance(event, dict) and event.get("type") == "result":
                output.final_message = event.get("result") if isinstance(event.get("result"), str) else None
                if event.get("is_error"):
                    output.error = str(event.get("error") or event.get("subtype") or "error")
        return output
