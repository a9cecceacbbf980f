"""forge-web, our own screenshot-only browser agent (Molmo-Web style) over Chat Completions.

Each step the model sees the goal, the URL, its previous actions and a screenshot of the viewport, and
answers with one JSON action (click at a fraction of the viewport, type, scroll, key, goto, answer,
done); see agent.py for the grammar. It has no shell tool: it works on browser tasks, whose image
(`openforge/browser`) brings Playwright and Chromium, which is why its launch sets PYTHONPATH.
"""

from __future__ import annotations

from pathlib import Path

from harnesses.harness import Harness, Launch, LaunchContext, base_env
from harnesses.installers import CopyFiles

AGENT = Path(__file__).with_name("agent.py")
BROWSER_SITE_PACKAGES = "/opt/forge/browser/site-packages"
"""Where the browser image keeps Playwright (for its python3)."""


class ForgeWeb(Harness):
    name = "forge-web"
    version = "0.1.0"
    wire_api = "chat.completions"
    tools = ("browser",)
    domains = ("browser",)
    writes_answer = True
    description = "OpenForge's own screenshot-only browser agent (Playwright, browser tasks only)"
    installer = CopyFiles(files={"agent.py": AGENT})

    def launch(self, ctx: LaunchContext) -> Launch:
        argv = [
            "python3",
            f"{ctx.bundle}/agent.py",
            "--base-url",
            ctx.base_url,
            "--api-key",
            ctx.api_key,
            "--model",
            ctx.model,
            "--workdir",
            ctx.workdir,
            "--logs",
            ctx.logs,
            *(["--max-steps", str(ctx.max_turns)] if ctx.max_turns else []),
            ctx.instruction,
        ]
        return Launch(argv=argv, env=base_env(ctx, []) | {"PYTHONPATH": BROWSER_SITE_PACKAGES})
