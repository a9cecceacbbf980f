"""Playwright MCP (`@playwright/mcp`, MCP over stdio): the browser tools the text harnesses get on browser
tasks (`LaunchContext.browser`), attached to each one as an MCP server in its own config format.

The server is installed into the harness's bundle with the bundle's Node (it needs Node >= 20) and drives
the task image's Debian Chromium headless, with an in-memory profile, no sandbox (the task container is
the sandbox) and the same switches as the rest of the browser domain: no DNS lookup but 127.0.0.1, no
background, component-update or sync traffic. Playwright MCP itself has no telemetry.
"""

from __future__ import annotations

import json
from typing import Any

from envs.browser_image import chromium_config
from harnesses.installers import NODE_BIN

PACKAGE = "@playwright/mcp@0.0.83"
SERVER = "playwright"
"""The MCP server's name in every harness's config (its tools show up as `mcp__playwright__…` there)."""
VIEWPORT = "1280x800"
CHROMIUM_ARGS = tuple(a for a in chromium_config()["args"] if a != "--no-sandbox")
"""The domain's Chromium switches (envs/browser/runtime/chromium.json) but the one @playwright/mcp has a
flag for (`--no-sandbox`), for its config file's `launchOptions.args`."""
CHROMIUM: str = chromium_config()["executable"]


def config_path(home: str) -> str:
    return f"{home}/.playwright-mcp/config.json"


def config() -> dict[str, Any]:
    """The server's config file: plain Chromium (no channel: `--browser chromium` would pick Chrome for
    Testing) and the switches it has no command-line flag for."""
    return {"browser": {"browserName": "chromium", "launchOptions": {"args": list(CHROMIUM_ARGS)}}}


def argv(bundle: str, home: str) -> list[str]:
    """The server's command line: the bundle's Node running the bundle's @playwright/mcp."""
    return [
        f"{bundle}/{NODE_BIN}/node",
        f"{bundle}/node_modules/@playwright/mcp/cli.js",
        "--config",
        config_path(home),
        "--executable-path",
        CHROMIUM,
        "--headless",
        "--isolated",
        "--no-sandbox",
        "--viewport-size",
        VIEWPORT,
        "--output-dir",
        f"{home}/.playwright-mcp/output",
        "--file-paths",
        "absolute",
    ]


def env(home: str) -> dict[str, str]:
    """The server's environment (harnesses pass MCP servers little or nothing of their own)."""
    return {"HOME": home, "TMPDIR": f"{home}/tmp", "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}


def files(home: str) -> dict[str, str]:
    """The files the server needs written before the launch."""
    return {config_path(home): json.dumps(config(), indent=2)}


def stdio_server(bundle: str, home: str) -> dict[str, Any]:
    """The server as the common `mcpServers` JSON entry (Claude Code, Qwen Code): command, args, env."""
    command, *args = argv(bundle, home)
    return {"command": command, "args": args, "env": env(home)}
