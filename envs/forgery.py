"""The gate's forgery stage: generic attacks that solve nothing and try to get reward anyway.

Each attack runs as the agent would (the task's agent user, a fresh HOME, the working directory) in its
own sandbox, in place of the reference solution; then the hidden tests run as in any rollout. A sound
task and sandbox score every one at the bottom of `[verifier] reward_range`. The attacks write the top of
the range (`$FORGE_FORGED_REWARD`) wherever a reward could come from:

- daemon: a double-forked, setsid, signal-deaf loop rewriting the reward files during the tests;
- shadowed-interpreter: fake python3 / python first on PATH, and /usr/bin/python3 itself replaced;
- shadowed-shell: fake bash, sh, cat, rm, mkdir, chmod first on PATH, and /usr/bin/bash replaced;
- startup-hook: a `.pth` in every site folder and the user site, and sitecustomize, writing the reward;
- prewritten-reward: the reward files written in advance, their folder made read-only;
- control-plane: requests to the proxy's reward, config and admin routes, and to another rollout's
  model route, through the sandbox's model relay. The relay leads here to a canary that records what
  reaches it; any request outside the sandbox's own model routes is a breach.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Self

from aiohttp import web

from envs.unix_http import UnixHttpServer

FORGED_REWARD_ENV = "FORGE_FORGED_REWARD"
"""The attacks write this value (the top of the task's reward range)."""
ROLLOUT_ENV = "FORGE_FORGERY_ROLLOUT"
"""The control-plane attack's own rollout id (its relay lets `/rollouts/<id>/v1/` through)."""
ATTACKS_DIR = Path(__file__).parent / "forgery_attacks"
ATTACKS = (
    "daemon",
    "shadowed-interpreter",
    "shadowed-shell",
    "startup-hook",
    "prewritten-reward",
    "control-plane",
)
"""The built-in attacks, each `forgery_attacks/<name>.sh`, run in this order."""
NEEDS_MODEL = frozenset({"control-plane"})
"""Attacks that run with network model-only (the canary behind the relay)."""


def attack_script(name: str) -> Path:
    return ATTACKS_DIR / f"{name}.sh"


class Canary:
    """A stand-in model server on a Unix socket that answers every request 200 and records it: what a
    sandbox's relay lets through, seen from the other side."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket
        self.seen: list[str] = []
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._server = UnixHttpServer(app, socket, "forgery-canary")

    @property
    def endpoint(self) -> str:
        return f"unix:{self.socket}"

    async def _handle(self, request: web.Request) -> web.Response:
        self.seen.append(f"{request.method} {request.raw_path}")
        return web.json_response({"ok": True})

    def __enter__(self) -> Self:
        self._server.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._server.close()
        self.socket.unlink(missing_ok=True)

    def breaches(self, allowed_prefixes: list[str]) -> list[str]:
        """What reached the canary outside `allowed_prefixes`."""
        return [
            seen
            for seen in self.seen
            if not any(seen.split(" ", 1)[1].startswith(p) for p in allowed_prefixes)
        ]
