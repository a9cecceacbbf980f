"""Runs browser-use headless on one browser task: the runner the browser-use harness launches.

It runs in the task container on the image's python3 with the bundle's site-packages on PYTHONPATH
(set by the adapter for this process only: Chromium and the site never see it). browser-use drives
Debian's Chromium over CDP with the image's flags, asks the model at BASE_URL (the proxy) for one
structured AgentOutput per step, and stops at `done` or the step limit. The final result goes to
<workdir>/answer.txt and <logs>/final-message.txt; each step is one line of
<logs>/browser-use-steps.jsonl (step, action, url, screenshot) with its screenshot under
<logs>/screenshots/ (url: the page the step's action was taken on). This file uses only the standard
library and browser-use.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

START_URL = "http://127.0.0.1:8080/"
"""Where every browser task's site is served."""
VIEWPORT = {"width": 1280, "height": 800}
CHROMIUM_CONFIG = "/opt/forge/browser/chromium.json"
"""The browser image's Chromium settings (executable, switches): the domain's one list of the switches
that keep Chromium from looking up or fetching anything beyond loopback."""
EXCLUDED_ACTIONS = ["search"]
"""browser-use actions that only reach the internet (`search` opens a web search engine)."""
STEPS_FILE = "browser-use-steps.jsonl"


def chromium() -> tuple[str, list[str]]:
    """The executable and switches from the image's CHROMIUM_CONFIG."""
    with open(CHROMIUM_CONFIG) as f:
        config = json.load(f)
    return config["executable"], config["args"]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--base-url", required=True, help="the OpenAI-compatible API, ending in /v1")
    parser.add_argument(
        "--api-key", default=os.environ.get("OPENAI_API_KEY"), help="default: $OPENAI_API_KEY"
    )
    parser.add_argument("--model", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--logs", required=True)
    parser.add_argument("--max-steps", type=int, default=50)
    parser.add_argument("--start-url", default=START_URL)
    parser.add_argument("instruction")
    return parser.parse_args(argv)


def task_text(instruction: str, start_url: str) -> str:
    """The task browser-use is given: the instruction, plus the site's URL (it opens a URL named in the
    task by itself before the first step)."""
    text = instruction.strip()
    if start_url not in text:
        text += f"\n\nThe website is at {start_url}"
    return text


def _action_of(model_output: Any) -> list[dict[str, Any]]:
    actions = getattr(model_output, "action", None) or []
    return [a.model_dump(exclude_none=True, mode="json") for a in actions]


class StepLog:
    """Writes one JSON line per step (and its screenshot), as the step happens: a run cut off by the
    timeout still leaves its steps."""

    def __init__(self, logs: Path) -> None:
        self.path = logs / STEPS_FILE
        self.shots = logs / "screenshots"
        self.shots.mkdir(parents=True, exist_ok=True)

    def __call__(self, state: Any, model_output: Any, step: int) -> None:
        shot = None
        data = getattr(state, "screenshot", None)
        if data:
            try:
                name = f"step-{step:03d}.png"
                (self.shots / name).write_bytes(base64.b64decode(data))
                shot = f"screenshots/{name}"
            except (ValueError, OSError):
                shot = None
        record = {"step": step, "action": _action_of(model_output), "url": getattr(state, "url", None)}
        record["screenshot"] = shot
        with self.path.open("a") as handle:
            handle.write(json.dumps(record) + "\n")


def _log_to(logs: Path) -> None:
    handler = logging.FileHandler(logs / "browser-use.log")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    # browser-use's own loggers do not propagate to the root logger: each gets the handler too
    for name in ("", "browser_use", "bubus", "cdp_use"):
        logging.getLogger(name).addHandler(handler)


async def run(args: argparse.Namespace) -> int:
    from browser_use import Agent, BrowserProfile, ChatOpenAI, Tools
    from browser_use.dom.views import DEFAULT_INCLUDE_ATTRIBUTES

    logs, workdir = Path(args.logs), Path(args.workdir)
    logs.mkdir(parents=True, exist_ok=True)
    _log_to(logs)
    home = Path(os.environ.get("HOME") or "/tmp")
    llm = ChatOpenAI(
        model=args.model, base_url=args.base_url, api_key=args.api_key, max_retries=2, timeout=600.0
    )
    executable, switches = chromium()
    profile = BrowserProfile(
        executable_path=executable,
        headless=True,
        chromium_sandbox=False,
        enable_default_extensions=False,
        user_data_dir=str(home / "browser-use-profile"),
        args=switches,
        viewport=VIEWPORT,
        window_size=VIEWPORT,
    )
    agent = Agent(
        task=task_text(args.instruction, args.start_url),
        llm=llm,
        browser_profile=profile,
        tools=Tools(exclude_actions=EXCLUDED_ACTIONS),
        use_judge=False,
        # `id` first: browser-use drops an attribute whose value repeats an earlier one's (type=search
        # id=search), and the element's id is what names it best
        include_attributes=["id", *(a for a in DEFAULT_INCLUDE_ATTRIBUTES if a != "id")],
        calculate_cost=False,
        file_system_path=str(home / "browser-use-files"),
        register_new_step_callback=StepLog(logs),
        enable_signal_handler=False,
    )
    history = await agent.run(max_steps=args.max_steps)
    final = history.final_result()
    if final is not None:
        (workdir / "answer.txt").write_text(final + "\n")
        (logs / "final-message.txt").write_text(final + "\n")
    summary = {
        "done": history.is_done(),
        "success": history.is_successful(),
        "steps": len(history.history),
        "errors": [e for e in history.errors() if e],
        "final_result": final,
    }
    (logs / "browser-use-summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary), flush=True)
    return 0 if history.is_done() else 1


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.api_key:
        print("run.py: no --api-key and no $OPENAI_API_KEY", file=sys.stderr)
        return 2
    # The bundle is on sys.path now; Chromium and anything else started from here must not inherit it.
    os.environ.pop("PYTHONPATH", None)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
