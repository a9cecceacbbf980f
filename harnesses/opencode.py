"""opencode: a native (Bun-compiled) binary speaking Chat Completions (SSE) to the proxy, configured as
an `@ai-sdk/openai-compatible` provider (built into the binary, nothing is installed at runtime) through
`OPENCODE_CONFIG` in the run's HOME.

The update check, the models.dev catalogue fetch, LSP and formatter downloads, sharing and the default
plugins are off, and `--pure` skips external plugins; a pre-made lockfile stops it from npm-installing its
plugin SDK into the config dir (all of these reach for the network). Every permission is "allow" and
`--auto` approves any that would still ask: headless `run` otherwise rejects them, and the task container
is the sandbox. Its one title-generation side call (no tools) goes to the same model (`small_model`).
"""

from __future__ import annotations

import json
from typing import Any

from harnesses.harness import Harness, HarnessOutput, Launch, LaunchContext, base_env, json_lines
from harnesses.installers import NpmInstall

BINARY = "node_modules/opencode-ai/bin/opencode.exe"
"""The native binary the package's postinstall picked for this CPU (AVX2 or baseline)."""
PROVIDER = "forge"
PLUGIN_LOCK = {"lockfileVersion": 3, "packages": {"": {"dependencies": {"@opencode-ai/plugin": "1.18.33"}}}}
"""What makes it skip installing its plugin SDK into the config dir (unused with --pure)."""

DISABLE = (
    "OPENCODE_DISABLE_AUTOUPDATE",
    "OPENCODE_DISABLE_MODELS_FETCH",
    "OPENCODE_DISABLE_LSP_DOWNLOAD",
    "OPENCODE_DISABLE_SHARE",
    "OPENCODE_DISABLE_DEFAULT_PLUGINS",
    "OPENCODE_DISABLE_CLAUDE_CODE",
    "OPENCODE_DISABLE_EXTERNAL_SKILLS",
)


class OpenCode(Harness):
    name = "opencode"
    version = "1.18.33"
    wire_api = "chat.completions"
    tools = ("bash", "read", "edit", "write", "glob", "grep", "task", "todowrite", "webfetch", "skill")
    description = "opencode, `opencode run --format json` headless"
    installer = NpmInstall(packages=["opencode-ai@1.18.33"], node=False)
    collect = (".local/share/opencode",)

    def config(self, ctx: LaunchContext) -> dict[str, Any]:
        model = f"{PROVIDER}/{ctx.model}"
        config: dict[str, Any] = {
            "autoupdate": False,
            "share": "disabled",
            "lsp": False,
            "formatter": False,
            "snapshot": False,
            "permission": {"*": "allow", "bash": "allow", "edit": "allow", "external_directory": "allow"},
            "provider": {
                PROVIDER: {
                    "npm": "@ai-sdk/openai-compatible",
                    "name": "OpenForge proxy",
                    "options": {"baseURL": f"{ctx.base_url}/v1", "apiKey": ctx.api_key},
                    "models": {ctx.model: {"name": ctx.model, "tool_call": True}},
                }
            },
            "enabled_providers": [PROVIDER],
            "model": model,
            "small_model": model,
        }
        if ctx.max_turns:
            config["agent"] = {"build": {"steps": ctx.max_turns}}
        return config

    def launch(self, ctx: LaunchContext) -> Launch:
        config_file = f"{ctx.home}/.config/opencode/opencode.json"
        env = base_env(ctx, [f"{ctx.bundle}/node_modules/.bin"]) | {
            "OPENCODE_CONFIG": config_file,
            **{flag: "1" for flag in DISABLE},
        }
        prompt = f"{ctx.home}/instruction.md"
        argv = [
            f"{ctx.bundle}/{BINARY}",
            "run",
            "--pure",
            "--auto",
            "--format",
            "json",
            "-m",
            f"{PROVIDER}/{ctx.model}",
            "--dir",
            ctx.workdir,
        ]
        # The task goes in on stdin: message arguments are re-quoted when they hold a space (and
        # numeric-looking words crash it), while stdin is taken verbatim.
        config_dir = f"{ctx.home}/.config/opencode"
        files = {
            prompt: ctx.instruction,
            config_file: json.dumps(self.config(ctx), indent=2),
            # It npm-installs @opencode-ai/plugin into every config dir (in the background, from the
            # registry) unless node_modules exists and the lockfile already lists it: say it does.
            f"{config_dir}/package-lock.json": json.dumps(PLUGIN_LOCK),
            f"{config_dir}/node_modules/.keep": "",
        }
        return Launch(argv=argv, env=env, files=files, stdin=prompt)

    def read_output(self, stdout: str, files: dict[str, str]) -> HarnessOutput:
        output = HarnessOutput()
        for event in json_lines(stdout):
            part = event.get("part")
            if event.get("type") == "text" and isinstance(part, dict) and isinstance(part.get("text"), str):
                output.final_message = part["text"].strip() or output.final_message
            elif event.get("type") == "error":
                output.error = _error_text(event.get("error"))
        return output


def _error_text(error: object) -> str:
    if isinstance(error, dict):
        data = error.get("data")
        if isinstance(data, dict) and data.get("message"):
            return f"{error.get('name', 'error')}: {data['message']}"
        return str(error.get("name") or error)
    return str(error or "error")
