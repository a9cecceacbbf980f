"""Codex CLI (OpenAI): a static musl binary that speaks only the Responses API, always streamed.

It ignores OPENAI_BASE_URL and would first try WebSocket upgrades on its built-in provider, so the proxy is
configured as a custom provider. Plugins, apps, analytics and the update check are off (without that it
looks up GitHub and ChatGPT hosts); its own bubblewrap sandbox is bypassed because the task container is
the sandbox. On browser tasks Playwright MCP is its `[mcp_servers.playwright]` (its bundle brings Node
for it).
"""

from __future__ import annotations

import json

from harnesses import playwright_mcp
from harnesses.harness import Harness, HarnessOutput, Launch, LaunchContext, base_env, json_lines
from harnesses.installers import NpmInstall

VENDOR = "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl"


class Codex(Harness):
    name = "codex"
    version = "0.171.0"
    wire_api = "responses"
    tools = ("exec_command", "write_stdin", "view_image")
    description = "OpenAI Codex CLI, `codex exec` headless"
    installer = NpmInstall(packages=["@openai/codex@0.171.0", playwright_mcp.PACKAGE])
    collect = (".codex/sessions",)
    domains = ("claw", "browser")

    def launch(self, ctx: LaunchContext) -> Launch:
        codex_home = f"{ctx.home}/.codex"
        env = base_env(ctx, [f"{ctx.bundle}/{VENDOR}/bin", f"{ctx.bundle}/{VENDOR}/codex-path"]) | {
            "CODEX_HOME": codex_home,
            "FORGE_API_KEY": ctx.api_key,
        }
        provider = (
            f'{{name="forge",base_url="{ctx.base_url}/v1",env_key="FORGE_API_KEY",wire_api="responses"}}'
        )
        argv = [
            f"{ctx.bundle}/{VENDOR}/bin/codex",
            "exec",
            "--skip-git-repo-check",
            "--disable",
            "plugins",
            "--disable",
            "apps",
            "-c",
            "analytics.enabled=false",
            "-c",
            "check_for_update_on_startup=false",
            "-c",
            "model_provider=forge",
            "-c",
            f"model_providers.forge={provider}",
            "-m",
            ctx.model,
            "--dangerously-bypass-approvals-and-sandbox",
            "--json",
            "-C",
            ctx.workdir,
            "-o",
            f"{ctx.logs}/final-message.txt",
            ctx.instruction,
        ]
        # TMPDIR must lie outside CODEX_HOME (it refuses to put helper binaries under a temp dir).
        files = {f"{codex_home}/config.toml": mcp_config(ctx) if ctx.browser else ""}
        if ctx.browser:
            files |= playwright_mcp.files(ctx.home)
        return Launch(argv=argv, env=env, files=files)

    def read_output(self, stdout: str, files: dict[str, str]) -> HarnessOutput:
        output = super().read_output("", files)
        for event in json_lines(stdout):
            if event.get("type") in ("error", "turn.failed"):
                error = event.get("message") or event.get("error")
                output.error = str(error)
        return output


def mcp_config(ctx: LaunchContext) -> str:
    """config.toml with Playwright MCP as `[mcp_servers.playwright]` (JSON strings are TOML strings)."""
    command, *args = playwright_mcp.argv(ctx.bundle, ctx.home)
    env = ", ".join(f"{key} = {json.dumps(value)}" for key, value in playwright_mcp.env(ctx.home).items())
    return (
        f"[mcp_servers.{playwright_mcp.SERVER}]\n"
        f"command = {json.dumps(command)}\n"
        f"args = {json.dumps(args)}\n"
        f"env = {{ {env} }}\n"
        "startup_timeout_sec = 60\n"
        "tool_timeout_sec = 120\n"
    )
