"""OpenClaw: a Node program (bundled with its own Node >= 24 runtime) run as `openclaw agent exec`, its
one-shot embedded agent that needs no Gateway, speaking Chat Completions (SSE) to the proxy.

Why the switches: `--config` pins the run to our file (nothing ambient leaks in), with the proxy as the
only provider (`models.mode = "replace"`); the hosted model-catalog refresh, update checks and feature
statistics are off (DO_NOT_TRACK, OPENCLAW_NO_AUTO_UPDATE as well), so it makes no outside lookups.
`--state-dir` keeps its state (session transcripts, in SQLite) under HOME for collection where exec would
use a temporary dir and delete it; the config lives there too, because exec's logger reads `logging` from
the state dir's config, which moves its log from /tmp/openclaw to the logs dir. `--code-mode direct` keeps
the tools plain model-visible functions rather than a JavaScript bridge; `--timeout 0` leaves the deadline
to the rollout (its own default is 600 s). OPENCLAW_NO_RESPAWN and NODE_DISABLE_COMPILE_CACHE stop it
re-executing itself (a CA-bundle respawn, and a compile cache that a fresh HOME never reuses); NODE_FLAGS
keep it inside a 1 GB task container. It has no turn or tool-call limit a CLI or config can set, so
`max_turns` is not honoured.
"""

from __future__ import annotations

import json
from typing import Any

from harnesses.harness import Harness, HarnessOutput, Launch, LaunchContext, base_env
from harnesses.installers import NODE_BIN, NpmInstall

PACKAGE = "node_modules/openclaw"
STATE_DIR = ".openclaw"
"""Under HOME; exec keeps its state here (`--state-dir`) instead of a temporary dir it deletes."""
PROVIDER = "forge"
NODE_FLAGS = ("--liftoff-only", "--max-semi-space-size=1")
"""Memory: without them it peaks at ~1.4 GB RSS and task containers (1 GB) OOM-kill it. TurboFan compiling
the tree-sitter WebAssembly that `exec` parses commands with costs ~600 MB at once; the young generation
of each of its ~7 isolates (main thread plus SQLite/session workers) another ~250 MB. With both: ~600 MB."""
CONTEXT_WINDOW = 131_072
MAX_OUTPUT_TOKENS = 8_192
REQUEST_TIMEOUT = 600
"""Seconds per model request; its implicit stream-idle watchdog (~120 s) is short for a loaded policy."""


class OpenClaw(Harness):
    name = "openclaw"
    version = "2026.9.6"
    wire_api = "chat.completions"
    tools = (
        "exec",
        "process",
        "read",
        "write",
        "edit",
        "apply_patch",
        "ls",
        "tool_search",
        "tool_describe",
        "tool_call",
        "sessions_yield",
    )
    description = "OpenClaw, `openclaw agent exec --json` headless"
    installer = NpmInstall(packages=["openclaw@2026.9.6"])
    collect = (f"{STATE_DIR}/agents",)
    """Per-agent SQLite databases holding the session transcripts."""

    def config(self, ctx: LaunchContext) -> dict[str, Any]:
        model = {
            "id": ctx.model,
            "name": ctx.model,
            "input": ["text"],
            "reasoning": False,
            "contextWindow": CONTEXT_WINDOW,
            "maxTokens": MAX_OUTPUT_TOKENS,
        }
        return {
            "models": {
                "mode": "replace",
                "catalogRefresh": {"enabled": False},
                "providers": {
                    PROVIDER: {
                        "baseUrl": f"{ctx.base_url}/v1",
                        "api": "openai-completions",
                        "apiKey": ctx.api_key,
                        "timeoutSeconds": REQUEST_TIMEOUT,
                        "models": [model],
                    }
                },
            },
            "agents": {"defaults": {"model": {"primary": f"{PROVIDER}/{ctx.model}"}}},
            "update": {"checkOnStart": False},
            "telemetry": {"enabled": False},
            "logging": {"file": f"{ctx.logs}/openclaw.log"},
        }

    def launch(self, ctx: LaunchContext) -> Launch:
        state = f"{ctx.home}/{STATE_DIR}"
        # In the state dir, where exec's logger looks for `logging` (exec unsets OPENCLAW_CONFIG_PATH).
        config = f"{state}/openclaw.json"
        message = f"{state}/instruction.md"  # a file: no argv parsing of a task that starts with "-"
        env = base_env(ctx, [f"{ctx.bundle}/{NODE_BIN}"]) | {
            "OPENCLAW_STATE_DIR": state,
            "OPENCLAW_NO_AUTO_UPDATE": "1",
            "DO_NOT_TRACK": "1",
            "OPENCLAW_NO_RESPAWN": "1",
            "NODE_DISABLE_COMPILE_CACHE": "1",
        }
        argv = [
            f"{ctx.bundle}/{NODE_BIN}/node",
            *NODE_FLAGS,
            f"{ctx.bundle}/{PACKAGE}/openclaw.mjs",
            "agent",
            "exec",
            "--config",
            config,
            "--state-dir",
            state,
            "--cwd",
            ctx.workdir,
            "--code-mode",
            "direct",
            "--timeout",
            "0",
            "--json",
            "--message-file",
            message,
        ]
        files = {config: json.dumps(self.config(ctx), indent=2), message: ctx.instruction}
        return Launch(argv=argv, env=env, files=files)

    def read_output(self, stdout: str, files: dict[str, str]) -> HarnessOutput:
        output = HarnessOutput()
        start = stdout.find("{")
        try:
            envelope = json.loads(stdout[start:]) if start >= 0 else None
        except ValueError:
            envelope = None
        if not isinstance(envelope, dict):
            return super().read_output(stdout, files)
        final = envelope.get("final")
        output.final_message = (final.strip() or None) if isinstance(final, str) else None
        if envelope.get("ok") is False or envelope.get("status") not in (None, "ok"):
            error = envelope.get("error")
            message = error.get("message") if isinstance(error, dict) else error
            output.error = str(message or envelope.get("status") or "error")
        return output
