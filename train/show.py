"""One rollout of a run directory as a self-contained HTML page (`forge-train show RUN_DIR ROLLOUT`).

The page shows the rollout's result (results.jsonl, else its `rollouts/<id>/result.json`), then each
model call the proxy recorded (calls.sqlite) in order: the request's messages with their images (read
from the blob store by hash and inlined as data URIs), the reply (text and tool calls), and, where the
harness logged its steps (forge-web's `agent/forge-web-steps.jsonl`, with `agent/screenshots/`), the
step's screenshot with its action drawn on it (a click is a red circle at its x, y) and its action.
Everything is escaped (jinja2 autoescape); nothing on the page points outside it.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
from pathlib import Path
from typing import Any

from jinja2 import Environment

from proxy.blob_store import BlobError, BlobStore
from proxy.images import BLOB_URI_PREFIX, ImageRef
from proxy.records import CallRecord
from proxy.store import STORE_FILENAME, CallStore
from train.errors import TrainError
from train.rollout import RESULT_FILE, RolloutResult
from train.rollout_set import load_results

STEPS_LOGS = ("forge-web-steps.jsonl", "browser-use-steps.jsonl")
"""The browser harnesses' step logs (one JSON object a step: step, action, url, screenshot)."""
MEDIA = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp"}


class RolloutNotFound(TrainError, ValueError):
    """ROLLOUT names no rollout of the run directory, or more than one."""


def find_rollout(run_dir: Path, wanted: str) -> tuple[str, RolloutResult | None]:
    """The rollout `wanted` names (its id, a unique prefix of it, or a task with one rollout) and its
    result (None when only the proxy recorded it)."""
    results = {r.rollout_id: r for r in load_results(run_dir)}
    for path in sorted((run_dir / "rollouts").glob(f"*/{RESULT_FILE}")):
        if path.parent.name not in results:
            results[path.parent.name] = RolloutResult.model_validate_json(path.read_text())
    ids = list(results)
    if (run_dir / STORE_FILENAME).is_file():
        with CallStore.for_run(run_dir) as store:
            ids += [i for i in store.rollout_ids() if i not in results]
    matches = [i for i in ids if i == wanted] or [i for i in ids if i.startswith(wanted)]
    matches = matches or [i for i, r in results.items() if r.task == wanted]
    if len(matches) == 1:
        return matches[0], results.get(matches[0])
    listing = "\n".join(
        f"  {i}" + (f"  (task {results[i].task}, reward {results[i].reward})" if i in results else "")
        for i in (matches or ids)
    )
    what = f"{len(matches)} rollouts match" if matches else "no rollout matches"
    raise RolloutNotFound(
        f"{run_dir}: {what} {wanted!r} (give a rollout id, a unique prefix of one, or a task with one "
        f"rollout); {'they are' if matches else 'the rollouts there are'}:\n{listing or '  (none)'}"
    )


def _data_uri(data: bytes, media_type: str) -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode('ascii')}"


class _Page:
    """Turns a rollout's records into plain dicts for the template."""

    def __init__(self, blobs: BlobStore, refs: list[ImageRef], skip: str | None) -> None:
        self.blobs, self.media, self.skip = blobs, {r.uri: r.media_type for r in refs}, skip

    def image(self, uri: Any) -> dict[str, Any]:
        if not isinstance(uri, str) or uri not in self.media:
            return {"kind": "text", "text": f"[image: {str(uri)[:120]}]"}
        sha = uri[len(BLOB_URI_PREFIX) :]
        if sha == self.skip:
            return {"kind": "text", "text": "[image: the step's screenshot, shown beside]"}
        try:
            return {"kind": "image", "src": _data_uri(self.blobs.get(sha), self.media[uri])}
        except BlobError as exc:
            return {"kind": "text", "text": f"[image missing: {exc}]"}

    def parts(self, node: Any) -> list[dict[str, Any]]:
        if node is None or node == "":
            return []
        if isinstance(node, str):
            return [{"kind": "text", "text": node}]
        if isinstance(node, list):
            return [p for n in node for p in self.parts(n)]
        if not isinstance(node, dict):
            return [{"kind": "text", "text": json.dumps(node)}]
        kind = node.get("type")
        if kind in ("text", "input_text", "output_text"):
            return self.parts(node.get("text"))
        if kind in ("image_url", "input_image"):
            url = node.get("image_url")
            return [self.image(url.get("url") if isinstance(url, dict) else url)]
        if kind == "image":
            return [self.image((node.get("source") or {}).get("data"))]
        if kind in ("tool_use", "function_call"):
            args = node.get("input", node.get("arguments"))
            args = args if isinstance(args, str) else json.dumps(args)
            return [{"kind": "tool", "text": f"{node.get('name')}({args})"}]
        if kind in ("tool_result", "function_call_output", "message"):
            return self.parts(node.get("content", node.get("output")))
        if "function" in node:  # a Chat Completions tool call
            fn = node["function"]
            return [{"kind": "tool", "text": f"{fn.get('name')}({fn.get('arguments')})"}]
        return [{"kind": "text", "text": json.dumps(node, indent=1)}]

    def messages(self, request: Any) -> list[dict[str, Any]]:
        if not isinstance(request, dict):
            return [{"role": "request", "parts": self.parts(json.dumps(request))}]
        out = [{"role": "system", "parts": self.parts(request.get(k))} for k in ("instructions", "system")]
        items = request.get("messages", request.get("input")) or []
        for m in [{"role": "user", "content": items}] if isinstance(items, str) else items:
            m = m if isinstance(m, dict) else {"content": m}
            parts = self.parts(m["content"]) if "content" in m else self.parts(m)
            role = m.get("role") or m.get("type", "?")
            out.append({"role": role, "parts": parts + self.parts(m.get("tool_calls") or [])})
        return [m for m in out if m["parts"]]

    def reply(self, response: Any) -> list[dict[str, Any]]:
        if not isinstance(response, dict):
            return self.parts(response)
        if response.get("choices"):
            message = response["choices"][0].get("message") or {}
            return self.parts(message.get("content")) + self.parts(message.get("tool_calls") or [])
        return self.parts(response.get("output", response.get("content")))


def _screenshot(logs: Path, event: dict[str, Any]) -> dict[str, Any] | None:
    """The step's screenshot inlined, with the marks of its action (x, y as fractions, or pixels)."""
    name = event.get("screenshot")
    if not isinstance(name, str):
        return None
    root = logs.resolve()
    found = [p.resolve() for p in (logs / name, logs / "screenshots" / name)]
    path = next(
        (p for p in found if p.is_file() and p.is_relative_to(root) and p.suffix.lower() in MEDIA), None
    )
    if path is None:  # missing, or outside the logs (a harness's log names what the page inlines)
        return None
    from PIL import Image

    data = path.read_bytes()
    with Image.open(io.BytesIO(data)) as img:
        width, height = img.size
    action: dict[str, Any] = event["action"] if isinstance(event.get("action"), dict) else {}
    x, y = action.get("x"), action.get("y")
    mark = None
    if isinstance(x, int | float) and isinstance(y, int | float):
        fx, fy = (x, y) if x <= 1 and y <= 1 else (x / width, y / height)
        mark = {"left": f"{100 * fx:.2f}%", "top": f"{100 * fy:.2f}%", "kind": action.get("action")}
    src = _data_uri(data, MEDIA[path.suffix.lower()])
    return {"src": src, "sha": hashlib.sha256(data).hexdigest(), "mark": mark, "name": name}


def _steps(logs_dir: Path, result: RolloutResult | None) -> list[dict[str, Any]]:
    """The harness's logged steps (forge-web, browser-use), each run of it in order (a multi-step
    task's too)."""
    runs = [logs_dir] + [logs_dir / "steps" / s.name for s in (result.steps if result else [])]
    steps = []
    for logs in (run / "agent" for run in runs):
        for log in (logs / name for name in STEPS_LOGS if (logs / name).is_file()):
            for line in log.read_text().splitlines():
                try:
                    event = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(event, dict):
                    event["shot"] = _screenshot(logs, event)
                    event["action_text"] = json.dumps(event.get("action"))
                    steps.append(event)
    return steps


def _call_view(call: CallRecord, blobs: BlobStore, step: dict[str, Any] | None) -> dict[str, Any]:
    shot = (step or {}).get("shot")
    page = _Page(blobs, call.images, shot["sha"] if shot else None)
    return {"call": call, "messages": page.messages(call.request), "reply": page.reply(call.response),
            "step": step}  # fmt: skip


def render_rollout(run_dir: Path, wanted: str) -> tuple[str, str]:
    """The id and page of the rollout `wanted` names in `run_dir` (RolloutNotFound: which there are)."""
    run_dir = Path(run_dir)
    rollout_id, result = find_rollout(run_dir, wanted)
    calls: list[CallRecord] = []
    if (run_dir / STORE_FILENAME).is_file():
        with CallStore.for_run(run_dir) as store:
            calls = store.calls(rollout_id)
    logs_dir = run_dir / "rollouts" / rollout_id
    if not logs_dir.is_dir() and result is not None:
        logs_dir = result.logs_dir
    steps = _steps(logs_dir, result)
    blobs = BlobStore.beside(run_dir / STORE_FILENAME)
    views = [_call_view(c, blobs, steps[i] if i < len(steps) else None) for i, c in enumerate(calls)]
    summary = result.model_dump(mode="json", exclude={"steps", "trajectory"}) if result else {}
    run = summary.pop("harness_run", None) or {}
    summary["passed"] = result.passed if result else None
    summary["harness status"] = run.get("status")
    summary["final message"] = run.get("final_message")
    summary["harness error"] = run.get("harness_error")
    if result is not None and result.judge is not None:  # an open-ended task's verdict, in words
        verdict = "success" if result.judge.success else "failure"
        summary["judge"] = f"{verdict} ({result.judge.model}): {result.judge.reasoning[-600:]}"
    summary = {k: v for k, v in summary.items() if v not in (None, "", {}, [])}
    env = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return rollout_id, env.from_string(TEMPLATE).render(
        rollout_id=rollout_id, result=result, summary=summary, views=views, extra=steps[len(calls) :]
    )


def write_page(run_dir: Path, wanted: str, out: Path | None = None) -> Path:
    """Write the rollout's page to `out` (default: `<rollout id>.html` here); its path."""
    rollout_id, html = render_rollout(run_dir, wanted)
    out = out or Path(f"{rollout_id}.html")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    return out


TEMPLATE = """<!doctype html>
<html><head><meta charset="utf-8"><title>{{ rollout_id }}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}
h1{font-size:1.3em}table.s td{padding:2px 10px;vertical-align:top}table.s td:first-child{color:#666}
.call{display:flex;gap:1em;border:1px solid #ccc;background:#fff;margin:1em 0;padding:.8em}
.shot{flex:0 0 560px}.body{flex:1;min-width:0}.msg{margin:.4em 0;padding:.4em;background:#f3f3f3}
.role{font-weight:bold;color:#555}.reply{background:#eef6ee}.tool{color:#064;font-family:monospace}
pre{white-space:pre-wrap;word-break:break-word;margin:.2em 0}.body img{max-width:100%;border:1px solid #999}
.frame{position:relative;display:inline-block;width:100%}.frame img{width:100%;display:block}
.mark{position:absolute;width:26px;height:26px;margin:-16px 0 0 -16px;border:3px solid red;border-radius:50%}
.act{font-family:monospace;background:#fff3cd;padding:.3em}.err{color:#b00}
</style></head><body>
<h1>Rollout {{ rollout_id }}</h1>
{% if result %}
<table class="s">
{% for k, v in summary.items() %}<tr><td>{{ k }}</td><td><pre>{{ v }}</pre></td></tr>
{% endfor %}
</table>
{% else %}
<p class="err">No result recorded for this rollout (still running, or cut short).</p>
{% endif %}
<h2>{{ views|length }} model call(s)</h2>
{% macro parts(ps) %}{% for p in ps %}
{% if p.kind == "image" %}<img src="{{ p.src }}" alt="image">
{% elif p.kind == "tool" %}<pre class="tool">&rarr; {{ p.text }}</pre>
{% else %}<pre>{{ p.text }}</pre>
{% endif %}{% endfor %}{% endmacro %}
{% macro message(m, cls="msg") %}
<div class="{{ cls }}"><span class="role">{{ m.role }}</span>{{ parts(m.parts) }}</div>
{% endmacro %}
{% macro step_view(s) %}<div class="shot">
{% if s.shot %}<div class="frame"><img src="{{ s.shot.src }}" alt="{{ s.shot.name }}">
{% if s.shot.mark %}
<div class="mark" style="left:{{ s.shot.mark.left }};top:{{ s.shot.mark.top }}"></div>
{% endif %}</div>{% endif %}
<div>step {{ s.step }} &middot; {{ s.url }}</div><div class="act">{{ s.action_text }}</div>
{% if s.error %}<div class="err">{{ s.error }}</div>{% endif %}</div>{% endmacro %}
{% for v in views %}<div class="call">
{% if v.step %}{{ step_view(v.step) }}{% endif %}
<div class="body"><b>call {{ v.call.seq }}</b> &middot; {{ v.call.wire_api.value }}
&middot; {{ v.call.status.value }} &middot; {{ "%.0f"|format(v.call.latency_ms) }} ms
{% if v.call.error %} <span class="err">{{ v.call.error }}</span>{% endif %}
{% if v.messages|length > 1 %}
<details><summary>{{ v.messages|length - 1 }} earlier message(s)</summary>
{% for m in v.messages[:-1] %}{{ message(m) }}{% endfor %}</details>
{% endif %}
{% for m in v.messages[-1:] %}{{ message(m) }}{% endfor %}
{{ message({"role": "reply", "parts": v.reply}, "msg reply") }}</div></div>
{% endfor %}
{% for s in extra %}
<div class="call">{{ step_view(s) }}<div class="body">(no matching call)</div></div>
{% endfor %}
</body></html>
"""
