"""The oracle for forge-web, the screenshot-only browser harness: the task's action script, step by step.

A browser task's reference solution is `solution/actions.json`, a harness-neutral list of steps (goto,
click and type at a recorded selector with its pixel centre x, y in the 1280x800 viewport, key, scroll,
answer, done). forge-web's request names its grammar in its system prompt and lists the actions it
already took, one numbered JSON line each, in its one user message; the oracle answers with the next
step of the script in that grammar (pixels as fractions of the viewport), as a model would write it:
one short sentence, then the JSON line. After the script, `done`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from proxy.conversation import GenerationRequest
from proxy.errors import BadRequest

GRAMMAR_MARKER = "forge-web action grammar v1"
"""The line of forge-web's system prompt that says a request is one of its steps (harnesses/forge_web)."""
VIEWPORT = (1280, 800)
"""The viewport the script's x, y were recorded in, and forge-web's."""
ACTION_LINE = re.compile(r"^\d+\. \{", re.MULTILINE)
"""A previous action in forge-web's prompt: `3. {"action": ...}` (an unparseable reply is noted as
`3. (...)` and is no step of the script)."""


def is_web_request(request: GenerationRequest) -> bool:
    return any(m.role == "system" and GRAMMAR_MARKER in m.content for m in request.messages)


def actions_taken(request: GenerationRequest) -> int:
    """How many actions forge-web took so far: the numbered JSON lines of its last user message."""
    users = [m for m in request.messages if m.role == "user"]
    if not users:
        return 0
    text = users[-1].content
    listed = text.split("Previous actions:", 1)[1] if "Previous actions:" in text else ""
    return len(ACTION_LINE.findall(listed))


def load_actions(path: Path) -> list[dict[str, Any]]:
    """The task's action script, or BadRequest saying why there is none."""
    if not path.is_file():
        raise BadRequest(
            f"oracle: the task has no {path.parent.name}/{path.name} (a browser task's solution)"
        )
    try:
        steps = json.loads(path.read_text())
    except ValueError as exc:
        raise BadRequest(f"oracle: {path} is not valid JSON: {exc}") from exc
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        raise BadRequest(f"oracle: {path} must be a JSON list of action objects")
    return steps


def _at(step: dict[str, Any], index: int) -> dict[str, float]:
    """The step's recorded pixel centre as fractions of the viewport."""
    x, y = step.get("x"), step.get("y")
    if not isinstance(x, int | float) or not isinstance(y, int | float):
        raise BadRequest(f"oracle: step {index + 1} ({step.get('action')}) has no recorded x, y")
    return {"x": round(x / VIEWPORT[0], 3), "y": round(y / VIEWPORT[1], 3)}


def to_forge_web(step: dict[str, Any], index: int = 0) -> dict[str, Any]:
    """One step of the harness-neutral script in forge-web's grammar (selectors dropped: it sees pixels)."""
    kind = step.get("action")
    if kind == "click":
        return {"action": "click", **_at(step, index)}
    if kind == "type":
        at = _at(step, index) if "x" in step or "y" in step else {}
        return {"action": "type", "text": str(step.get("text", "")), **at, "clear": True}
    if kind == "goto":
        return {"action": "goto", "url": step["url"]}
    if kind == "key":
        return {"action": "key", "key": step["key"]}
    if kind == "scroll":
        return {"action": "scroll", "dy": step["dy"]}
    if kind == "answer":
        return {"action": "answer", "text": str(step.get("text", ""))}
    if kind == "done":
        return {"action": "done"}
    raise BadRequest(f"oracle: step {index + 1} of the action script has an unknown action {kind!r}")


def _sentence(action: dict[str, Any]) -> str:
    kind = action["action"]
    if kind == "click":
        return "I will click the element I need."
    if kind == "type":
        return f"I will enter {json.dumps(action['text'])} in the field."
    if kind == "scroll":
        return "I will scroll down to see more." if action["dy"] >= 0 else "I will scroll up."
    if kind == "key":
        return f"I will press {action['key']}."
    if kind == "goto":
        return f"I will open {action['url']}."
    if kind == "answer":
        return "I have found the answer."
    return "The task is complete."


def web_reply(action: dict[str, Any]) -> str:
    """What a model would write: one short sentence, then the action's JSON line."""
    return f"{_sentence(action)}\n{json.dumps(action)}"


def next_web_reply(actions_json: Path, request: GenerationRequest) -> str:
    """The reply to a forge-web request: the script's next step, or `done` after its last."""
    steps = load_actions(actions_json)
    taken = actions_taken(request)
    if taken >= len(steps):
        return web_reply({"action": "done"})
    return web_reply(to_forge_web(steps[taken], taken))
