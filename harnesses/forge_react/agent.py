#!/usr/bin/env python3
"""forge-react: a small ReAct agent with a shell tool and a file tool, speaking Chat Completions.

Standard library only, so it runs on any image with python3 and needs no install step. It loops: ask the
model, run the tool calls it made, send the results back, until the model answers without a tool call
(exit 0), the turn limit is hit (exit 3) or the model endpoint keeps failing (exit 4).

    agent.py --base-url URL --api-key KEY --model NAME --workdir DIR --logs DIR [--max-turns N] INSTRUCTION
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

SYSTEM_PROMPT = (
    "You are an autonomous agent working in a Linux container. Use the `shell` tool to run commands and "
    "the `file` tool to read or write files. Work step by step and check your results. When the task is "
    "done, answer with a short summary and no tool call."
)
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "shell",
            "description": "Run a bash command in the working directory; returns its exit code and output.",
            "parameters": {
                "type": "object",
                "properties": {
                    "command": {"type": "string", "description": "The bash command to run."},
                    "timeout": {
                        "type": "integer",
                        "description": "Seconds before it is killed (default 600).",
                    },
                },
                "required": ["command"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "file",
            "description": "Read a file, or write a file with the given content (creating parent folders).",
            "parameters": {
                "type": "object",
                "properties": {
                    "action": {"type": "string", "enum": ["read", "write"]},
                    "path": {"type": "string"},
                    "content": {"type": "string", "description": "For write: the whole new content."},
                },
                "required": ["action", "path"],
            },
        },
    },
]
MAX_OUTPUT_CHARS = 10_000
RETRIES = 8


def clip(text: str) -> str:
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    half = MAX_OUTPUT_CHARS // 2
    return f"{text[:half]}\n[... {len(text) - MAX_OUTPUT_CHARS} characters cut ...]\n{text[-half:]}"


def run_shell(arguments: dict, workdir: str) -> str:
    command = arguments.get("command")
    if not isinstance(command, str) or not command.strip():
        return "error: `command` must be a non-empty string"
    timeout = arguments.get("timeout") or 600
    try:
        proc = subprocess.run(
            ["bash", "-c", command],
            cwd=workdir,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=float(timeout),
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or "") if isinstance(exc.stdout, str) else ""
        return clip(f"exit code: timeout after {timeout}s\n{out}")
    return clip(f"exit code: {proc.returncode}\n{proc.stdout}{proc.stderr}")


def run_file(arguments: dict, workdir: str) -> str:
    action, path = arguments.get("action"), arguments.get("path")
    if not isinstance(path, str) or not path:
        return "error: `path` must be a non-empty string"
    path = os.path.join(workdir, path)
    try:
        if action == "read":
            with open(path, encoding="utf-8", errors="replace") as f:
                return clip(f.read())
        if action == "write":
            content = arguments.get("content")
            if not isinstance(content, str):
                return "error: write needs `content` (a string)"
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(content)
            return f"wrote {len(content)} characters to {path}"
    except OSError as exc:
        return f"error: {exc}"
    return "error: `action` must be read or write"


def call_tool(name: str, raw_arguments: str, workdir: str) -> str:
    try:
        arguments = json.loads(raw_arguments or "{}")
    except ValueError as exc:
        return f"error: the arguments are not valid JSON ({exc})"
    if not isinstance(arguments, dict):
        return "error: the arguments must be a JSON object"
    if name == "shell":
        return run_shell(arguments, workdir)
    if name == "file":
        return run_file(arguments, workdir)
    return f"error: no tool named {name!r}; the tools are shell and file"


def chat(base_url: str, api_key: str, body: dict) -> dict:
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


def log(path: str, event: dict) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(event) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(prog="forge-react")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--api-key", default="none")
    parser.add_argument("--model", required=True)
    parser.add_argument("--workdir", default=os.getcwd())
    parser.add_argument("--logs", default=".")
    parser.add_argument("--max-turns", type=int, default=30)
    parser.add_argument("--max-tokens", type=int, default=None)
    parser.add_argument("instruction")
    args = parser.parse_args()
    os.makedirs(args.logs, exist_ok=True)
    trajectory = os.path.join(args.logs, "forge-react.jsonl")
    messages: list[dict] = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": args.instruction},
    ]
    for turn in range(args.max_turns):
        body: dict = {"model": args.model, "messages": messages, "tools": TOOLS}
        if args.max_tokens:
            body["max_tokens"] = args.max_tokens
        try:
            response = chat(args.base_url, args.api_key, body)
            message = response["choices"][0]["message"]
        except (RuntimeError, KeyError, IndexError, TypeError) as exc:
            log(trajectory, {"turn": turn, "error": str(exc)})
            print(f"forge-react: {exc}", file=sys.stderr)
            return 4
        tool_calls = message.get("tool_calls") or []
        assistant = {"role": "assistant", "content": message.get("content") or ""}
        if tool_calls:
            assistant["tool_calls"] = tool_calls
        messages.append(assistant)
        log(trajectory, {"turn": turn, "assistant": assistant})
        if not tool_calls:
            final = assistant["content"]
            with open(os.path.join(args.logs, "final-message.txt"), "w", encoding="utf-8") as f:
                f.write(final)
            print(final)
            return 0
        for call in tool_calls:
            function = call.get("function") or {}
            output = call_tool(function.get("name", ""), function.get("arguments", "{}"), args.workdir)
            messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": output})
            log(trajectory, {"turn": turn, "tool": function.get("name"), "output": output[:2000]})
    print(f"forge-react: no final answer within {args.max_turns} turns", file=sys.stderr)
    return 3


if __name__ == "__main__":
    sys.exit(main())
