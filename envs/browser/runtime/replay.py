#!/usr/bin/env python3
"""Replay a browser task's harness-neutral action script (solution/actions.json) in Debian's Chromium.

It is the browser tasks' reference solution (their solve.sh runs it), so the gate proves the script
reaches the state the hidden tests want. Clicks and typing go to the recorded viewport coordinates, as a
screenshot agent's would, and each is checked against its selector first: a script whose coordinates
no longer hit its element fails here, not later in a harness's oracle rollout. `--record` fills the
coordinates in from the selectors (authoring, or after a site's layout changed).

    forge-browser-replay [--record] ACTIONS_JSON
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

CHROMIUM_CONFIG = json.loads(Path(__file__).with_name("chromium.json").read_text())
"""How every browser of the domain runs Chromium (the image's /opt/forge/browser/chromium.json): headless
in a container with a small /dev/shm, and nothing looked up or fetched beyond loopback."""
VIEWPORT: dict[str, int] = CHROMIUM_CONFIG["viewport"]
CHROMIUM: str = CHROMIUM_CONFIG["executable"]
CHROMIUM_ARGS: list[str] = CHROMIUM_CONFIG["args"]
TOLERANCE_PX = 3
SETTLE_MS = 100
IDLE_TIMEOUT_MS = 15_000
ELEMENT_TIMEOUT_MS = 15_000
ANSWER_FILE = os.environ.get("FORGE_ANSWER_FILE", "/app/answer.txt")
ACTIONS = ("goto", "click", "type", "key", "scroll", "answer", "done")


class ReplayError(Exception):
    """The script is malformed or a step did not do what it says."""


def _settle(page: Page) -> None:
    """Wait until what the last action started is done: a click's navigation begins only after the
    click returns, and on a loaded machine a fixed pause once let the next step run on the old page."""
    page.wait_for_timeout(SETTLE_MS)
    page.wait_for_load_state("load")
    page.wait_for_load_state("networkidle", timeout=IDLE_TIMEOUT_MS)


def _centre(page: Page, step: dict[str, Any], index: int) -> tuple[int, int]:
    selector = step.get("selector")
    if not isinstance(selector, str) or not selector:
        raise ReplayError(f"step {index}: {step['action']} needs a 'selector'")
    locator = page.locator(selector)
    try:
        locator.first.wait_for(state="attached", timeout=ELEMENT_TIMEOUT_MS)
    except PlaywrightTimeout:
        raise ReplayError(f"step {index}: selector {selector!r} matches nothing on {page.url}") from None
    box = locator.first.bounding_box()
    if box is None:
        raise ReplayError(f"step {index}: {selector!r} is not visible on {page.url}")
    x, y = round(box["x"] + box["width"] / 2), round(box["y"] + box["height"] / 2)
    if not (0 <= x < VIEWPORT["width"] and 0 <= y < VIEWPORT["height"]):
        raise ReplayError(f"step {index}: {selector!r} is outside the viewport at ({x}, {y}); scroll first")
    return x, y


def _target(page: Page, step: dict[str, Any], index: int, record: bool) -> tuple[int, int]:
    """Where to click: the recorded point, once checked against the selector's element."""
    x, y = _centre(page, step, index)
    if record:
        step["x"], step["y"] = x, y
        return x, y
    if not isinstance(step.get("x"), int) or not isinstance(step.get("y"), int):
        raise ReplayError(f"step {index}: no recorded x, y (run forge-browser-replay --record)")
    if abs(step["x"] - x) > TOLERANCE_PX or abs(step["y"] - y) > TOLERANCE_PX:
        raise ReplayError(
            f"step {index}: {step['selector']!r} is at ({x}, {y}), the script says ({step['x']}, "
            f"{step['y']}); re-record it"
        )
    return step["x"], step["y"]


def replay(steps: list[dict[str, Any]], record: bool = False) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=VIEWPORT)
        for index, step in enumerate(steps, 1):
            action = step.get("action")
            if action not in ACTIONS:
                raise ReplayError(f"step {index}: unknown action {action!r} (one of {', '.join(ACTIONS)})")
            if action == "goto":
                page.goto(str(step["url"]))
            elif action == "click":
                page.mouse.click(*_target(page, step, index, record))
            elif action == "type":
                page.mouse.click(*_target(page, step, index, record))
                page.keyboard.press("Control+A")
                page.keyboard.type(str(step["text"]))
            elif action == "key":
                page.keyboard.press(str(step["key"]))
            elif action == "scroll":
                page.mouse.wheel(0, int(step.get("dy", 600)))
            elif action == "answer":
                Path(ANSWER_FILE).write_text(str(step["text"]) + "\n")
            _settle(page)
            print(f"step {index}: {action} -> {page.url}", flush=True)
        browser.close()


def script_text(steps: list[dict[str, Any]]) -> str:
    """The script as JSON with one step per line (readable, and diffs show the step that changed)."""
    return "[\n" + ",\n".join("  " + json.dumps(step) for step in steps) + "\n]\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="fill in x, y from the selectors and save")
    parser.add_argument("actions", type=Path)
    args = parser.parse_args()
    try:
        steps = json.loads(args.actions.read_text())
        if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
            raise ReplayError(f"{args.actions}: must be a JSON list of steps (objects)")
        replay(steps, record=args.record)
    except (ReplayError, OSError, ValueError) as exc:
        print(f"forge-browser-replay: {exc}", file=sys.stderr)
        return 1
    if args.record:
        args.actions.write_text(script_text(steps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
