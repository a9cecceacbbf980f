#!/usr/bin/env python3
"""forge-web: a screenshot-only browser agent (Molmo-Web style), speaking Chat Completions.

Each step it takes a screenshot of the viewport, sends it to the model with the goal, the current URL
and the actions so far, reads one action from the reply and does it in a headless Chromium (Playwright).
It sees pixels only: no DOM, no accessibility tree. Standard library plus Playwright, which the browser
image provides (PYTHONPATH=/opt/forge/browser/site-packages).

The reply ends with one JSON action on its last line (a short thought may come first):

    {"action": "click", "x": 0.322, "y": 0.287}        x, y: fractions of the viewport's width, height
    {"action": "type", "text": "...", "x": 0.5, "y": 0.1, "clear": true}
                                                        x, y (optional): click there first;
                                                        clear (optional): select all first
    {"action": "scroll", "dy": 600}                     pixels; negative scrolls up
    {"action": "key", "key": "Enter"}
    {"action": "goto", "url": "http://127.0.0.1:8080/"}
    {"action": "answer", "text": "..."}                 the final answer (written to WORKDIR/answer.txt); ends
    {"action": "done"}                                  ends

Exit 0 on answer/done, 3 at the step limit or after three unparseable replies in a row, 4 when the model
endpoint keeps failing. Each step is logged to LOGS/forge-web-steps.jsonl with its screenshot in
LOGS/screenshots/step-NNN.png.

    agent.py --base-url URL --api-key KEY --model NAME [--start-url URL] [--workdir DIR] [--logs DIR]
             [--max-steps N] GOAL
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import sys
import time
import urllib.error
import urllib.request
from typing import Any

GRAMMAR_MARKER = "forge-web action grammar v1"
"""In the system prompt, so the proxy's oracle can recognise a forge-web request."""
SYSTEM_PROMPT = f"""You are a web agent controlling a browser through screenshots ({GRAMMAR_MARKER}).
Each turn you see the task goal, the current URL, the actions you already took, and a screenshot of
the browser viewport. Decide on the single next action. You may write one short sentence of thought,
then give the action as one JSON object on the last line of your reply, exactly one of:
{{"action": "click", "x": 0.322, "y": 0.287}}  click at x, y: fractions (0 to 1) of the width, height
{{"action": "type", "text": "hello", "x": 0.5, "y": 0.1, "clear": true}}  type into the focused field;
  x, y (optional): click there first; clear (optional): replace the field's text
{{"action": "scroll", "dy": 600}}  scroll down by dy pixels (negative: up)
{{"action": "key", "key": "Enter"}}  press a key (Enter, Tab, Escape, Backspace, ArrowDown, ...)
{{"action": "goto", "url": "http://127.0.0.1:8080/"}}  open a URL
{{"action": "answer", "text": "..."}}  give the final answer to the task and stop
{{"action": "done"}}  stop: the task is complete
Only local sites at http://127.0.0.1 can be reached."""
VIEWPORT = {"width": 1280, "height": 800}
CHROMIUM_CONFIG = "/opt/forge/browser/chromium.json"
"""The browser image's Chromium settings (executable, switches): the domain's one list of the switches
that keep Chromium from looking up or fetching anything beyond loopback."""
RETRIES = 8
MAX_FORMAT_ERRORS = 3
SETTLE_MS = 400
"""After an action, wait this long for a navigation it started, then for the page's load."""
LOAD_TIMEOUT_MS = 15_000


class FormatError(ValueError):
    """The reply holds no valid action."""


# ---------------------------------------------------------------- the action grammar


def _fraction(action: dict[str, Any], key: str) -> float:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise FormatError(
            f"`{key}` must be a number from 0 to 1 (a fraction of the screenshot), got {value!r}"
        )
    return float(value)


def _text(action: dict[str, Any], key: str) -> str:
    value = action.get(key)
    if not isinstance(value, str):
        raise FormatError(f"`{action.get('action')}` needs `{key}` (a string)")
    return value


def validate(action: Any) -> dict[str, Any]:
    """The action in its canonical form (only its own keys), or FormatError saying what is wrong."""
    if not isinstance(action, dict):
        raise FormatError("the action must be a JSON object")
    kind = action.get("action")
    if kind == "click":
        return {"action": "click", "x": _fraction(action, "x"), "y": _fraction(action, "y")}
    if kind == "type":
        out: dict[str, Any] = {"action": "type", "text": _text(action, "text")}
        if "x" in action or "y" in action:
            out["x"], out["y"] = _fraction(action, "x"), _fraction(action, "y")
        if action.get("clear"):
            out["clear"] = True
        return out
    if kind == "scroll":
        dy = action.get("dy")
        if isinstance(dy, bool) or not isinstance(dy, int | float):
            raise FormatError(f"`scroll` needs `dy` (pixels, a number), got {dy!r}")
        return {"action": "scroll", "dy": int(dy)}
    if kind == "key":
        key = _text(action, "key")
        if not key.strip():
            raise FormatError("`key` needs a key name, such as Enter")
        return {"action": "key", "key": key}
    if kind == "goto":
        return {"action": "goto", "url": _text(action, "url")}
    if kind == "answer":
        return {"action": "answer", "text": _text(action, "text")}
    if kind == "done":
        return {"action": "done"}
    raise FormatError(f"unknown action {kind!r}; use click, type, scroll, key, goto, answer or done")


def parse_action(reply: str) -> dict[str, Any]:
    """The action of a reply: the JSON object on its last line, else the last JSON object with an
    `action` anywhere in it (a model that wrapped it in a code fence or trailing words)."""
    lines = [line.strip() for line in reply.strip().splitlines()]
    lines = [line for line in lines if line and not line.startswith("```")]
    if not lines:
        raise FormatError("the reply is empty; end it with one JSON action")
    try:
        return validate(json.loads(lines[-1]))
    except ValueError as exc:
        last_line_error = exc
    decoder = json.JSONDecoder()
    found = None
    for at in (i for i, ch in enumerate(reply) if ch == "{"):
        try:
            candidate, _ = decoder.raw_decode(reply, at)
        except ValueError:
            continue
        if isinstance(candidate, dict) and "action" in candidate:
            found = candidate
    if found is None:
        if isinstance(last_line_error, FormatError):
            raise last_line_error
        raise FormatError("no JSON action found; end the reply with one JSON object on its own line")
    return validate(found)


def thought_of(reply: str) -> str:
    """The reply without its action line: the model's short thought."""
    lines = [
        line for line in reply.strip().splitlines() if line.strip() and not line.strip().startswith("```")
    ]
    return "\n".join(lines[:-1]).strip()


# ---------------------------------------------------------------- the prompt


def build_messages(goal: str, url: str, history: list[str], screenshot: bytes) -> list[dict[str, Any]]:
    """The whole request: the system prompt, then one user turn with the goal, the URL, the numbered
    previous actions (each a JSON action, or an error note) and the screenshot."""
    if history:
        previous = "Previous actions:\n" + "\n".join(f"{i}. {entry}" for i, entry in enumerate(history, 1))
    else:
        previous = "Previous actions: none"
    text = f"Goal: {goal}\n\nCurrent URL: {url}\n\n{previous}\n\nThe screenshot of the current page:"
    image = "data:image/png;base64," + base64.b64encode(screenshot).decode()
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {
            "role": "user",
            "content": [{"type": "text", "text": text}, {"type": "image_url", "image_url": {"url": image}}],
        },
    ]


# ---------------------------------------------------------------- the model


def chat(base_url: str, api_key: str, body: dict[str, Any]) -> dict[str, Any]:
    """One Chat Completions call, retried on connection errors, 429 and 5xx (honouring Retry-After)."""
    data = json.dumps(body).encode()
    last = ""
    for attempt in range(RETRIES):
        request = urllib.request.Request(
            f"{base_url}/v1/chat/completions",
            data=data,
            headers={"content-type": "application/json", "authorization": f"Bearer {api_key}"},
        )
        wait = min(2.0**attempt * 0.5, 30.0)
        try:
            with urllib.request.urlopen(request, timeout=3600) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            last = f"HTTP {exc.code}: {exc.read().decode(errors='replace')[:500]}"
            if exc.code != 429 and exc.code < 500:
                break
            retry_after = exc.headers.get("retry-after")
            if retry_after and retry_after.replace(".", "", 1).isdigit():
                wait = float(retry_after)
        except (urllib.error.URLError, OSError, ValueError) as exc:
            last = str(exc)
        time.sleep(wait)
    raise RuntimeError(f"the model endpoint failed: {last}")


# ---------------------------------------------------------------- the browser


def settle(page: Any) -> None:
    """Let a navigation the action started begin, then wait for the page to load."""
    page.wait_for_timeout(SETTLE_MS)
    with contextlib.suppress(Exception):  # a page that never finishes loading is still a page to see
        page.wait_for_load_state("load", timeout=LOAD_TIMEOUT_MS)
        # a loaded machine once screenshotted the old page: wait until no request is in flight
        page.wait_for_load_state("networkidle", timeout=LOAD_TIMEOUT_MS)


def execute(page: Any, action: dict[str, Any]) -> None:
    """Do one (validated) action in the page; Playwright's errors propagate to the caller."""
    kind = action["action"]
    if kind in ("click", "type") and "x" in action:
        page.mouse.click(action["x"] * VIEWPORT["width"], action["y"] * VIEWPORT["height"])
    if kind == "type":
        if action.get("clear"):
            page.keyboard.press("ControlOrMeta+A")
            page.keyboard.press("Backspace")
        page.keyboard.type(action["text"])
    elif kind == "scroll":
        page.mouse.move(VIEWPORT["width"] / 2, VIEWPORT["height"] / 2)
        page.mouse.wheel(0, action["dy"])
    elif kind == "key":
        page.keyboard.press(action["key"])
    elif kind == "goto":
        page.goto(action["url"], wait_until="load", timeout=LOAD_TIMEOUT_MS * 2)
    settle(page)


# ---------------------------------------------------------------- the loop


def log(path: str, event: dict[str, Any]) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(event) + "\n")


def write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run(args: argparse.Namespace, page: Any) -> int:
    steps_log = os.path.join(args.logs, "forge-web-steps.jsonl")
    shots = os.path.join(args.logs, "screenshots")
    os.makedirs(shots, exist_ok=True)
    try:
        page.goto(args.start_url, wait_until="load", timeout=LOAD_TIMEOUT_MS * 2)
    except Exception as exc:
        print(f"forge-web: could not open {args.start_url}: {exc}", file=sys.stderr)
    history: list[str] = []
    format_errors = 0
    for step in range(1, args.max_steps + 1):
        name = f"step-{step:03d}.png"
        screenshot = page.screenshot(type="png")
        with open(os.path.join(shots, name), "wb") as f:
            f.write(screenshot)
        event: dict[str, Any] = {"step": step, "url": page.url, "screenshot": f"screenshots/{name}"}
        body: dict[str, Any] = {
            "model": args.model,
            "messages": build_messages(args.goal, page.url, history, screenshot),
        }
        if args.max_tokens:
            body["max_tokens"] = args.max_tokens
        try:
            response = chat(args.base_url, args.api_key, body)
            reply = response["choices"][0]["message"].get("content") or ""
        except (RuntimeError, KeyError, IndexError, TypeError, AttributeError) as exc:
            log(steps_log, event | {"error": f"model: {exc}"})
            print(f"forge-web: {exc}", file=sys.stderr)
            return 4
        event["reply"] = reply
        try:
            action = parse_action(reply)
        except FormatError as exc:
            format_errors += 1
            history.append(f"(your reply had no valid action: {exc})")
            log(steps_log, event | {"action": None, "error": f"format: {exc}"})
            if format_errors >= MAX_FORMAT_ERRORS:
                print(f"forge-web: {MAX_FORMAT_ERRORS} replies in a row had no valid action", file=sys.stderr)
                return 3
            continue
        format_errors = 0
        event["action"] = action
        if action["action"] in ("answer", "done"):
            log(steps_log, event)
            final = action["text"] if action["action"] == "answer" else (thought_of(reply) or "Done.")
            if action["action"] == "answer":
                try:
                    write(os.path.join(args.workdir, "answer.txt"), final)
                except OSError as exc:  # the answer still reaches the final message
                    print(f"forge-web: could not write answer.txt: {exc}", file=sys.stderr)
            write(os.path.join(args.logs, "final-message.txt"), final)
            print(final)
            return 0
        entry = json.dumps(action)
        try:
            execute(page, action)
        except Exception as exc:  # the model sees that it failed, and why
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            entry += f" (failed: {message})"
            event["error"] = f"action: {message}"
        history.append(entry)
        log(steps_log, event)
    print(f"forge-web: no answer within {args.max_steps} steps", file=sys.stderr)
    return 3


def chromium() -> tuple[str, list[str]]:
    """The executable and switches from the image's CHROMIUM_CONFIG."""
    with open(CHROMIUM_CONFIG) as f:
        config = json.load(f)
    return config["executable"], config["args"]


def main() -> int:
    parser = argparse.ArgumentParser(prog="forge-web")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--api-key", default="none")
    parser.add_argument("--model", required=True)
    parser.add_argument("--start-url", default="http://127.0.0.1:8080/")
    parser.add_argument("--workdir", default=os.getcwd())
    parser.add_argument("--logs", default=".")
    parser.add_argument("--max-steps", type=int, default=30)
    parser.add_argument("--max-tokens", type=int, default=None)
    parser.add_argument("goal")
    args = parser.parse_args()
    os.makedirs(args.logs, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        executable, switches = chromium()
        browser = p.chromium.launch(executable_path=executable, headless=True, args=switches)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            return run(args, page)
        finally:
            browser.close()


if __name__ == "__main__":
    sys.exit(main())
