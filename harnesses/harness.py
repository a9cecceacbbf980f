"""What a harness adapter declares: how to install the agent program, how to point it at a model and run
it headless, what to collect afterwards, and how to read its final answer.

An adapter is a small class (Harbor's agent classes, without the per-rollout install): the program is
installed once into a bundle (see `harnesses.bundle`), mounted read-only into every task container at
`/opt/forge/harness/<name>`, and launched from there with its telemetry and update checks off.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from harnesses.installers import Installer

WireApi = Literal["chat.completions", "responses", "messages"]

HARNESS_MOUNT = "/opt/forge/harness"
"""Bundles are mounted at HARNESS_MOUNT/<name>."""


class LaunchContext(BaseModel):
    """Everything an adapter needs to build one headless launch, in the sandbox's own paths."""

    instruction: str
    model: str
    base_url: str
    """The proxy as the sandbox sees it, without the API prefix: http://127.0.0.1:8000/rollouts/<id>."""
    api_key: str
    workdir: str
    home: str
    """A private, writable HOME for this run; the harness's config and state go under it."""
    bundle: str
    """Where the harness's bundle is mounted (read-only)."""
    logs: str = "/logs/agent"
    """Where the harness should put logs and its final message; collected after the run."""
    max_turns: int | None = None
    browser: bool = False
    """A browser task (`[metadata] domain = "browser"`): harnesses that speak MCP attach Playwright MCP
    (harnesses.playwright_mcp) and list "browser" in their `domains`."""


class Launch(BaseModel):
    """One headless launch: files to write first, then argv with env, run in the task's workdir."""

    argv: list[str]
    env: dict[str, str] = Field(default_factory=dict)
    files: dict[str, str] = Field(default_factory=dict)
    """Sandbox path -> text (config files), written before the launch."""
    stdin: str | None = None
    """A sandbox file fed to the program's stdin (else stdin is empty)."""


class HarnessOutput(BaseModel):
    """What the harness said it did, read from its output and logs."""

    final_message: str | None = None
    error: str | None = None
    """The harness's own error report (e.g. an error event in its JSON stream), if any."""


class Harness(ABC):
    """One agent program. Subclasses set the class attributes and build the launch."""

    name: ClassVar[str]
    version: ClassVar[str]
    wire_api: ClassVar[WireApi]
    tools: ClassVar[tuple[str, ...]]
    """The model-facing tools it exposes (the shell tool first)."""
    description: ClassVar[str] = ""
    installer: ClassVar[Installer]
    collect: ClassVar[tuple[str, ...]] = ()
    """Paths relative to the run's HOME to collect after the run (session logs, state)."""
    domains: ClassVar[tuple[str, ...]] = ("claw",)
    """The task domains it can work on (`[metadata] domain`; Harbor tasks, which name none, are claw's):
    a shell harness does claw tasks, a browser harness (no shell tool) does browser tasks."""
    writes_answer: ClassVar[bool] = False
    """It writes a browser task's answer to `<workdir>/answer.txt` itself (the browser harnesses' answer
    action). For any other harness on a browser task the rollout writes its final message there."""

    def unavailable_reason(self) -> str | None:
        """Why this harness cannot be installed here (None when it can)."""
        return self.installer.unavailable_reason()

    @abstractmethod
    def launch(self, ctx: LaunchContext) -> Launch:
        """The files, argv and environment of one headless run."""

    def read_output(self, stdout: str, files: dict[str, str]) -> HarnessOutput:
        """The final message, from stdout and the collected text files (path relative to the logs dir).

        The default reads `final-message.txt` in the logs dir, else the last non-empty stdout line."""
        if text := files.get("final-message.txt"):
            return HarnessOutput(final_message=text.strip())
        lines = [line for line in stdout.splitlines() if line.strip()]
        return HarnessOutput(final_message=lines[-1].strip() if lines else None)


def base_env(ctx: LaunchContext, path: list[str]) -> dict[str, str]:
    """A clean environment: private HOME and XDG dirs, no colours; nothing of the caller's leaks in."""
    return {
        "PATH": ":".join(
            [*path, "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]
        ),
        "HOME": ctx.home,
        "TMPDIR": f"{ctx.home}/tmp",
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "XDG_CONFIG_HOME": f"{ctx.home}/.config",
        "XDG_CACHE_HOME": f"{ctx.home}/.cache",
        "XDG_DATA_HOME": f"{ctx.home}/.local/share",
        "XDG_STATE_HOME": f"{ctx.home}/.local/state",
    }


def json_lines(text: str) -> list[dict[str, object]]:
    """The JSON objects among the lines of a JSON-lines stream (other lines are skipped)."""
    events: list[dict[str, object]] = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict):
                events.append(event)
    return events
