"""The oracle for browser-use (0.13.14): a browser task's action script as browser-use's own replies.

browser-use asks for one structured `AgentOutput` per step over Chat Completions (`response_format` a
strict JSON schema named `agent_output`, no tools): a system prompt, then one user message per request
that holds the whole state: `<user_request>`, `<agent_history>`, `<agent_state>`, `<browser_state>`
(the page's interactive elements, each as `[index]<tag attr=value ... />`, with `*[index]` for new
ones), `<step_info>StepN maximum:M` and a screenshot. The conversation never holds assistant turns,
so the steps already taken are read from `StepN` (N - 1 steps before this one; every step, failed or
not, advances it).

The script's steps (goto, click and type at a `#id` selector, key, scroll, answer, done) become
browser-use actions (navigate, click and input by the element's index, found by its id in the element
list, send_keys, scroll in pages, done), one per reply; after the script, `done`. The reply is the JSON
text browser-use parses: its brain fields (thinking, evaluation_previous_goal, memory, next_goal, the
optional plan fields as null) and an `action` list.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from proxy.conversation import GenerationRequest, Message
from proxy.engines.web_actions import load_actions
from proxy.errors import BadRequest

VIEWPORT_HEIGHT = 800
"""The viewport height the browser-use harness runs with: one scrolled page, in pixels."""
DONE_TEXT = "The task is complete."
"""browser-use's final message after a script that ends in `done` (not an answer)."""
STEP_INFO = re.compile(r"<step_info>\s*Step\s*(\d+)\b")
"""`<step_info>Step3 maximum:50`: the third step (two taken before it)."""
ELEMENT = re.compile(r"\[(\d+)\]<([A-Za-z][\w:-]*)([^\n]*?) />")
"""An interactive element of `<browser_state>`: `[14]<a id=about-link />` (after `*` or `|SHADOW(open)|`)."""
ATTRIBUTE_SPLIT = re.compile(r" (?=[A-Za-z][\w:-]*=)")
"""Attributes are `key=value` joined by spaces (values unquoted, may hold spaces)."""
ATTR_SELECTOR = re.compile(r"""^[\w-]*\[([\w:-]+)=(?:"([^"]*)"|'([^']*)'|([^\]]*))\]$""")


def _is_state_message(message: Message) -> bool:
    return (
        message.role == "user"
        and "<browser_state>" in message.content
        and "<agent_history>" in message.content
    )


def _state_text(request: GenerationRequest) -> str:
    """The last state message's text (nudges, such as its planning nudge, may follow it as user
    messages of their own)."""
    states = [m for m in request.messages if _is_state_message(m)]
    return states[-1].content if states else ""


def is_browser_use_request(request: GenerationRequest) -> bool:
    """A browser-use agent step: a user message carries its agent history and browser state."""
    return any(_is_state_message(m) for m in request.messages)


def steps_taken(request: GenerationRequest) -> int:
    """How many steps browser-use took before this request: N - 1 for `<step_info>StepN ...`."""
    found = STEP_INFO.findall(_state_text(request))
    if not found:
        raise BadRequest("oracle: this browser-use request has no <step_info>StepN (which step it is)")
    return max(0, int(found[-1]) - 1)


def elements(request: GenerationRequest) -> list[tuple[int, str, dict[str, str]]]:
    """The interactive elements browser-use listed in its last state message: (index, tag, attributes)."""
    text = _state_text(request)
    start, end = text.rfind("<browser_state>"), text.rfind("</browser_state>")
    state = text[start : end if end > start else len(text)] if start >= 0 else text
    found = []
    for index, tag, attrs in ELEMENT.findall(state):
        pairs = [a.split("=", 1) for a in ATTRIBUTE_SPLIT.split(attrs.strip()) if "=" in a]
        found.append((int(index), tag.lower(), {k: v for k, v in pairs}))
    return found


def _selector_attribute(selector: str) -> tuple[str, str]:
    """`#id` -> ("id", id); `[name=q]` / `input[name="q"]` -> ("name", "q")."""
    selector = selector.strip()
    if re.fullmatch(r"#[\w:.-]+", selector):
        return "id", selector[1:]
    if match := ATTR_SELECTOR.match(selector):
        value = next(v for v in match.groups()[1:] if v is not None)
        return match.group(1), value
    raise BadRequest(
        f"oracle: browser-use finds elements by index; the selector {selector!r} is not `#id` or "
        "`[attr=value]`"
    )


def element_index(request: GenerationRequest, selector: str) -> int:
    """The index browser-use gave the element the selector names, from its element list."""
    attr, value = _selector_attribute(selector)
    listed = elements(request)
    matches = [index for index, _tag, attrs in listed if attrs.get(attr) == value]
    if not matches:
        shown = ", ".join(f"[{i}]<{t}{' #' + a['id'] if 'id' in a else ''}>" for i, t, a in listed[:30])
        raise BadRequest(
            f"oracle: the element {selector!r} is not among browser-use's {len(listed)} interactive "
            f"elements on this page (not rendered, or outside its view): {shown or 'none'}"
        )
    return matches[0]


def to_browser_use(request: GenerationRequest, step: dict[str, Any], index: int = 0) -> dict[str, Any]:
    """One step of the harness-neutral script as one browser-use action."""
    kind = step.get("action")
    if kind == "goto":
        return {"navigate": {"url": step["url"], "new_tab": False}}
    if kind in ("click", "type"):
        selector = step.get("selector")
        if not isinstance(selector, str) or not selector:
            raise BadRequest(f"oracle: step {index + 1} ({kind}) has no selector (browser-use needs one)")
        target = element_index(request, selector)
        if kind == "click":
            return {"click": {"index": target}}
        return {"input": {"index": target, "text": str(step.get("text", "")), "clear": True}}
    if kind == "key":
        return {"send_keys": {"keys": str(step["key"])}}
    if kind == "scroll":
        dy = float(step.get("dy", VIEWPORT_HEIGHT))
        return {"scroll": {"down": dy >= 0, "pages": round(abs(dy) / VIEWPORT_HEIGHT, 3), "index": None}}
    if kind == "answer":
        return {"done": {"text": str(step.get("text", "")), "success": True, "files_to_display": []}}
    if kind == "done":
        return {"done": {"text": DONE_TEXT, "success": True, "files_to_display": []}}
    raise BadRequest(f"oracle: step {index + 1} of the action script has an unknown action {kind!r}")


def _goal(action: dict[str, Any]) -> str:
    name, params = next(iter(action.items()))
    if name == "navigate":
        return f"Open {params['url']}."
    if name == "click":
        return f"Click element {params['index']}."
    if name == "input":
        return f"Enter {json.dumps(params['text'])} in element {params['index']}."
    if name == "send_keys":
        return f"Press {params['keys']}."
    if name == "scroll":
        return "Scroll down to see more." if params["down"] else "Scroll up."
    return "Report the result: the task is complete."


def plan_item(step: dict[str, Any]) -> str:
    """A script step as an item of browser-use's plan (its todo list)."""
    kind = step.get("action")
    if kind == "goto":
        return f"Open {step.get('url')}"
    if kind == "click":
        return f"Click {step.get('selector')}"
    if kind == "type":
        return f"Type {json.dumps(str(step.get('text', '')))} into {step.get('selector')}"
    if kind == "key":
        return f"Press {step.get('key')}"
    if kind == "scroll":
        return "Scroll down" if float(step.get("dy", 0)) >= 0 else "Scroll up"
    if kind == "answer":
        return "Give the answer"
    return "Finish"


def agent_output(action: dict[str, Any], taken: int, plan: list[str] | None = None) -> str:
    """browser-use's AgentOutput JSON for one action (every key its strict schema requires). `plan`
    (given on the first step) sets its plan; later steps move its current item along."""
    goal = _goal(action)
    output = {
        "thinking": f"Step {taken + 1}: {goal}",
        "evaluation_previous_goal": "Success: the previous action worked." if taken else "Starting the task.",
        "memory": f"{taken} actions done so far.",
        "next_goal": goal,
        "current_plan_item": None if plan else taken,
        "plan_update": plan,
        "action": [action],
    }
    return json.dumps(output)


def browser_use_reply(request: GenerationRequest, steps: list[dict[str, Any]]) -> str:
    """The reply to a browser-use request: the script's next step, or `done` after its last. The first
    reply also gives the script as browser-use's plan (else it nudges for one after five steps)."""
    taken = steps_taken(request)
    step = steps[taken] if taken < len(steps) else {"action": "done"}
    plan = [plan_item(s) for s in steps] if taken == 0 and len(steps) > 1 else None
    return agent_output(to_browser_use(request, step, taken), taken, plan)


def next_browser_use_reply(actions_json: Path, request: GenerationRequest) -> str:
    """browser_use_reply with the task's solution/actions.json."""
    return browser_use_reply(request, load_actions(actions_json))
