"""forge-react, our own small ReAct harness: a shell tool and a file tool over Chat Completions.

It is one standard-library Python file, so its bundle is that file and it runs on the base image's
python3; no npm, no download. It is the fast default for tests, demos and CPU training.
"""

from __future__ import annotations

from pathlib import Path

from harnesses.harness import Harness, Launch, LaunchContext, base_env
from harnesses.installers import CopyFiles

AGENT = Path(__file__).with_name("agent.py")


class ForgeReact(Harness):
    name = "forge-react"
    version = "0.1.0"
    wire_api = "chat.completions"
    tools = ("shell", "file")
    description = "OpenForge's own ReAct agent (stdlib Python, no install)"
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
            *(["--max-turns", str(ctx.max_turns)] if ctx.max_turns else []),
            ctx.instruction,
        ]
        return Launch(argv=argv, env=base_env(ctx, []))
