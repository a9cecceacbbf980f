"""Claude Code (Anthropic): a native binary that speaks the Messages API (`/v1/messages?beta=true`), SSE.

Non-essential traffic, telemetry, the auto-updater and error reporting are off. As root it refuses
`--dangerously-skip-permissions` unless IS_SANDBOX=1, which the task container is. Every side model
(titles, summaries, "haiku" calls) is pointed at the same model name, so no call asks for a model the
proxy does not serve. On browser tasks Playwright MCP comes in with `--mcp-config` (and
`--strict-mcp-config`: no other MCP server is looked for); its bundle brings Node for it.
"""

from __future__ import annotations

import json

from harnesses import playwright_mcp
from harnesses.harness import Harness, HarnessOutput, Launch, LaunchContext, base_env, json_lines
from harnesses.installers import NpmInstall


class ClaudeCode(Harness):
    name = "claude-code"
    version = "2.1.332"
    wire_api = "messages"
    tools = ("Bash", "Read", "Write", "Edit", "Glob", "Grep", "Task", "TodoWrite", "WebFetch")
    description = "Anthropic Claude Code, `claude -p` headless"
    installer = NpmInstall(packages=["@anthropic-ai/claude-code@2.1.332", playwright_mcp.PACKAGE])
    collect = (".claude/projects",)
    domains = ("claw", "browser")

    def launch(self, ctx: LaunchContext) -> Launch:
        env = base_env(ctx, [f"{ctx.bundle}/node_modules/.bin"]) | {
            "ANTHROPIC_BASE_URL": ctx.base_url,
            "ANTHROPIC_API_KEY": ctx.api_key,
            "CLAUDE_CONFIG_DIR": f"{ctx.home}/.claude",
            "ANTHROPIC_SMALL_FAST_MODEL": ctx.model,
            "ANTHROPIC_DEFAULT_HAIKU_MODEL": ctx.model,
            "ANTHROPIC_DEFAULT_SONNET_MODEL": ctx.model,
            "ANTHROPIC_DEFAULT_OPUS_MODEL": ctx.model,
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "DISABLE_BUG_COMMAND": "1",
            "IS_SANDBOX": "1",
        }
        argv = [
            f"{ctx.bundle}/node_modules/@anthropic-ai/claude-code/bin/claude.exe",
            "-p",
            ctx.instruction,
            "--output-format",
            "stream-json",
            "--verbose",
            "--dangerously-skip-permissions",
            "--model",
            ctx.model,
        ]
        if ctx.max_turns:
            argv += ["--max-turns", str(ctx.max_turns)]
        files: dict[str, str] = {}
        if ctx.browser:
            mcp_file = f"{ctx.home}/.claude/mcp.json"
            # alwaysLoad: its tools go in the request's tool list, not behind ToolSearch.
            server = playwright_mcp.stdio_server(ctx.bundle, ctx.home) | {"alwaysLoad": True}
            servers = {playwright_mcp.SERVER: server}
            files = playwright_mcp.files(ctx.home) | {mcp_file: json.dumps({"mcpServers": servers}, indent=2)}
            argv += ["--mcp-config", mcp_file, "--strict-mcp-config"]
        return Launch(argv=argv, env=env, files=files)

    def read_output(self, stdout: str, files: dict[str, str]) -> HarnessOutput:
        output = HarnessOutput()
        for event in json_lines(stdout):
            if event.get("type") == "result":
                result = event.get("result")
                output.final_message = result if isinstance(result, str) else None
                if event.get("is_error"):
                    output.error = str(event.get("subtype") or "error")
        return output
