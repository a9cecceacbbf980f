"""browser-use (PyPI, 0.13.14): a DOM-and-screenshot browser agent over Chat Completions, browser tasks only.

It is installed like mini-swe-agent: wheels for the base image's Python 3.11 into the bundle's
site-packages, run on the task image's own python3 with PYTHONPATH pointing there (set for the runner
alone; the runner drops it from the environment Chromium inherits). The runner, run.py, is written
into the run's HOME at launch (so it is no part of the pinned bundle) and drives Debian's Chromium
(`/usr/bin/chromium` of `openforge/browser`) headless over CDP with the image's flags, the
host-resolver rule among them: only 127.0.0.1 resolves.

Every phone-home switch is off: anonymized telemetry, cloud sync, the version check, cloud hints, and
the three extensions it downloads by default; its `search` action (a web search engine) is removed and
the judge is off. Each step it asks for one structured `AgentOutput` (a strict JSON schema in
`response_format`); `proxy.engines.browser_use_actions` answers those for the oracle. The final result
goes to <workdir>/answer.txt and <logs>/final-message.txt, the steps to <logs>/browser-use-steps.jsonl
with screenshots under <logs>/screenshots/.
"""

from __future__ import annotations

import json
from pathlib import Path

from harnesses.harness import Harness, HarnessOutput, Launch, LaunchContext, base_env
from harnesses.installers import PipInstall

RUNNER = Path(__file__).with_name("run.py")
SUMMARY = "browser-use-summary.json"
"""What run.py writes to the logs dir at the end: done, success, steps, errors, final_result."""
DEFAULT_MAX_STEPS = 50
PHONE_HOME_OFF = {
    "ANONYMIZED_TELEMETRY": "false",
    "BROWSER_USE_CLOUD_SYNC": "false",
    "BROWSER_USE_VERSION_CHECK": "false",
    "BROWSER_USE_CLOUD_HINTS": "false",
    "BROWSER_USE_DISABLE_EXTENSIONS": "1",
}
"""browser-use's switches (see shared/reference/browsers.md); run.py also passes
enable_default_extensions=False and use_judge=False."""
ACTIONS = (
    "navigate",
    "click",
    "input",
    "send_keys",
    "scroll",
    "go_back",
    "wait",
    "find_text",
    "search_page",
    "find_elements",
    "extract",
    "dropdown_options",
    "select_dropdown",
    "switch",
    "close",
    "upload_file",
    "save_as_pdf",
    "write_file",
    "replace_file",
    "read_file",
    "evaluate",
    "done",
)
"""The actions of its AgentOutput schema as recorded from 0.13.14 (`search` is excluded by run.py)."""


class BrowserUse(Harness):
    name = "browser-use"
    version = "0.13.14"
    wire_api = "chat.completions"
    tools = ACTIONS
    domains = ("browser",)
    writes_answer = True
    description = (
        "browser-use, headless on Debian's Chromium (DOM element list + screenshot, browser tasks only)"
    )
    installer = PipInstall(packages=["browser-use==0.13.14"])
    collect = (".config/browseruse",)

    def launch(self, ctx: LaunchContext) -> Launch:
        runner = f"{ctx.home}/.forge/browser_use_run.py"
        env = (
            base_env(ctx, [])
            | PHONE_HOME_OFF
            | {
                "PYTHONPATH": f"{ctx.bundle}/site-packages",
                "PYTHONDONTWRITEBYTECODE": "1",
                "OPENAI_API_KEY": ctx.api_key,
                "BROWSER_USE_LOGGING_LEVEL": "info",
            }
        )
        argv = [
            "python3",
            runner,
            "--base-url",
            f"{ctx.base_url}/v1",
            "--model",
            ctx.model,
            "--workdir",
            ctx.workdir,
            "--logs",
            ctx.logs,
            "--max-steps",
            str(ctx.max_turns or DEFAULT_MAX_STEPS),
            ctx.instruction,
        ]
        return Launch(argv=argv, env=env, files={runner: RUNNER.read_text()})

    def read_output(self, stdout: str, files: dict[str, str]) -> HarnessOutput:
        output = super().read_output(stdout, files) if files.get("final-message.txt") else HarnessOutput()
        try:
            summary = json.loads(files.get(SUMMARY) or "null")
        except ValueError:
            summary = None
        if not isinstance(summary, dict):
            output.error = f"browser-use left no {SUMMARY} (it crashed or was stopped)"
        elif not summary.get("done"):
            errors = [str(e) for e in summary.get("errors") or []]
            detail = f": {errors[-1]}" if errors else ""
            output.error = f"browser-use stopped after {summary.get('steps')} steps without `done`{detail}"
        return output
