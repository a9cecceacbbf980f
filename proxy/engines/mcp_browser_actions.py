"""The oracle for the text harnesses on browser tasks: the task's action script as Playwright MCP tool calls.

Codex, Claude Code and Qwen Code browse through Playwright MCP (`harnesses.playwright_mcp`); its tools
reach the model under the harness's own prefix (`mcp__playwright__browser_click`, or the bare name). The
oracle replays `solution/actions.json` through them, one tool call a turn, as a model would: goto is
`browser_navigate`, click `browser_click` and type `browser_type` at the step's recorded selector (the
tools take a selector as their `target` as well as a snapshot ref), key `browser_press_key`, scroll a
`browser_evaluate` of `window.scrollBy`. After the script the final message is the script's answer (a
lookup task's answer is the harness's final message, which the rollout writes to `<workdir>/answer.txt`)
or a plain "done".
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from proxy.conversation import Generation, GenerationRequest, Tool, ToolCall
from proxy.engines.web_actions import load_actions
from proxy.errors import BadRequest

NAVIGATE = "browser_navigate"
TOOLS = {
    "goto": NAVIGATE,
    "click": "browser_click",
    "type": "browser_type",
    "key": "browser_press_key",
    "scroll": "browser_evaluate",
}
"""The Playwright MCP tool of each scripted action (answer and done end the run with a message)."""
FINISHED = "The task is complete."


def _bare(name: str) -> str:
    """`mcp__playwright__browser_click` (Codex, Claude Code) or a bare `browser_click` -> `browser_click`."""
    return name.rsplit("__", 1)[-1]


def playwright_tools(tools: list[Tool]) -> dict[str, Tool]:
    """The request's Playwright MCP tools by bare name (empty when it has none, e.g. a claw task)."""
    found = {_bare(t.name): t for t in tools if _bare(t.name).startswith("browser_")}
    return found if NAVIGATE in found else {}


def has_playwright_tools(request: GenerationRequest) -> bool:
    return bool(playwright_tools(request.tools))


def _arguments(step: dict[str, Any], index: int) -> dict[str, Any]:
    kind = step.get("action")
    selector = step.get("selector")
    if kind in ("click", "type") and not isinstance(selector, str):
        raise BadRequest(f"oracle: step {index + 1} ({kind}) of the action script has no selector")
    if kind == "goto":
        return {"url": step["url"]}
    if kind == "click":
        return {"element": f"the element {selector}", "target": selector}
    if kind == "type":
        return {"element": f"the field {selector}", "target": selector, "text": str(step.get("text", ""))}
    if kind == "key":
        return {"key": step["key"]}
    if kind == "scroll":
        return {"function": f"() => window.scrollBy(0, {int(step['dy'])})"}
    raise BadRequest(f"oracle: step {index + 1} of the action script has an unknown action {kind!r}")


def _steps_taken(request: GenerationRequest, names: set[str]) -> int:
    """How many of the script's steps were sent: the Playwright calls already in the conversation."""
    return sum(1 for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name in names)


def next_mcp_turn(actions_json: Path, request: GenerationRequest) -> Generation:
    """The next step of the script as one Playwright MCP tool call, or the final message after the last."""
    tools = playwright_tools(request.tools)
    steps = load_actions(actions_json)
    taken = _steps_taken(request, {t.name for t in tools.values()})
    if taken < len(steps) and steps[taken].get("action") not in ("answer", "done"):
        step = steps[taken]
        bare = TOOLS.get(str(step.get("action")), "")
        arguments = json.dumps(_arguments(step, taken))  # an unknown action raises here
        tool = tools.get(bare)
        if tool is None:
            raise BadRequest(f"oracle: the request has no Playwright MCP tool {bare!r} for step {taken + 1}")
        call = ToolCall(id=f"call_{uuid.uuid4().hex[:20]}", name=tool.name, arguments=arguments)
        return Generation(tool_calls=[call], finish_reason="tool_calls")
    answers = [str(s.get("text", "")) for s in steps if s.get("action") == "answer"]
    return Generation(text=answers[-1] if answers else FINISHED)
