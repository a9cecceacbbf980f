"""mini-swe-agent: a Python agent (litellm, Chat Completions, not streamed) with one `bash` tool.

It runs on the image's python3 from the bundle's site-packages. The switches: `MSWEA_CONFIGURED` skips
its first-run setup prompt, `-y --exit-immediately` stop it asking for confirmation, `-l 0` and
`MSWEA_COST_TRACKING=ignore_errors` because our model has no price, and `LITELLM_LOCAL_MODEL_COST_MAP` /
`LITELLM_OFFLINE_MODE` stop litellm fetching its model cost map (it looks up raw.githubusercontent.com at
import otherwise). The bundle is byte-compiled at install (mounted read-only, so it could not cache
bytecode; importing litellm from source takes ~8 s a launch instead of ~3.5 s). Its commands inherit
its environment, so our config clears PYTHONPATH for them: the bundle's packages must not leak into the
task. It stops only when the model runs `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT` alone (that line
first in the output), at the step limit, or after three answers in a row without a tool call.
"""

from __future__ import annotations

import json
from typing import Any

from harnesses.harness import Harness, HarnessOutput, Launch, LaunchContext, base_env
from harnesses.installers import PipInstall

TRAJECTORY = "mini-swe-agent.traj.json"
"""Its trajectory file, in the logs dir: every message, the exit status and the submission."""
COMMAND_TIMEOUT = 300
"""Seconds one bash command may run (its default, 30 s, is short for test suites and installs)."""
STOP_STATUSES = ("LimitsExceeded", "TimeExceeded", "RepeatedFormatError")
"""Exit statuses that end a run without a submission (then the exit message is just the status)."""


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(content: object) -> str:
    """A message's text: a string, or the text parts of a content list."""
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, dict)]
        return "".join(p for p in parts if isinstance(p, str)).strip()
    return ""


def _said(message: dict[str, Any]) -> str:
    """What the model said in a trajectory message. An answer without a tool call is not kept as an
    assistant message: it is only in the raw response of the format-error message that follows it."""
    if message.get("role") == "assistant":
        return _text(message.get("content"))
    extra = _dict(message.get("extra"))
    if message.get("role") == "user" and extra.get("interrupt_type") == "FormatError":
        choices = _dict(extra.get("response")).get("choices")
        if isinstance(choices, list) and choices:
            return _text(_dict(_dict(choices[0]).get("message")).get("content"))
    return ""


def _from_stdout(stdout: str) -> HarnessOutput:
    """Its printed exit message, for when the trajectory did not come back (too big, or never written)."""
    _, found, tail = stdout.rpartition("\nExit:\n")
    text = tail.split("\nSaved trajectory to", 1)[0].strip() if found else ""
    if not found:
        return HarnessOutput(error=f"it left no trajectory ({TRAJECTORY}) and printed no exit message")
    if text in STOP_STATUSES:
        return HarnessOutput(error=text)
    return HarnessOutput(final_message=text or None)


class MiniSweAgent(Harness):
    name = "mini-swe-agent"
    version = "2.4.6"
    wire_api = "chat.completions"
    tools = ("bash",)
    description = "mini-swe-agent, `mini -y --exit-immediately` headless (litellm, one bash tool)"
    installer = PipInstall(packages=["mini-swe-agent==2.4.6"])

    def launch(self, ctx: LaunchContext) -> Launch:
        site = f"{ctx.bundle}/site-packages"
        config_file = f"{ctx.home}/.config/mini-swe-agent/forge.yaml"
        config: dict[str, Any] = {  # JSON is YAML; merged over its own mini.yaml
            "agent": {"step_limit": ctx.max_turns or 0},
            "environment": {"timeout": COMMAND_TIMEOUT, "env": {"PYTHONPATH": ""}},
            "model": {"cost_tracking": "ignore_errors"},
        }
        env = base_env(ctx, []) | {
            "PYTHONPATH": site,
            "MSWEA_CONFIGURED": "true",
            "MSWEA_SILENT_STARTUP": "1",
            "MSWEA_COST_TRACKING": "ignore_errors",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
            "LITELLM_OFFLINE_MODE": "true",
            "OPENAI_API_KEY": ctx.api_key,
            "OPENAI_API_BASE": f"{ctx.base_url}/v1",
        }
        argv = [
            "python3",
            "-m",
            "minisweagent",
            "-m",
            f"openai/{ctx.model}",
            "-c",
            f"{site}/minisweagent/config/mini.yaml",
            "-c",
            config_file,
            "-y",
            "--exit-immediately",
            "-l",
            "0",
            "-o",
            f"{ctx.logs}/{TRAJECTORY}",
            f"--task={ctx.instruction}",
        ]
        return Launch(argv=argv, env=env, files={config_file: json.dumps(config, indent=2)})

    def read_output(self, stdout: str, files: dict[str, str]) -> HarnessOutput:
        try:
            trajectory = json.loads(files.get(TRAJECTORY) or "null")
        except ValueError:
            trajectory = None
        if not isinstance(trajectory, dict):
            return _from_stdout(stdout)
        info = _dict(trajectory.get("info"))
        messages = [m for m in trajectory.get("messages") or [] if isinstance(m, dict)]
        output = HarnessOutput()
        submission = info.get("submission")
        if isinstance(submission, str) and submission.strip():
            output.final_message = submission.strip()
        else:
            output.final_message = next((said for m in reversed(messages) if (said := _said(m))), None)
        status = info.get("exit_status")
        if status and status != "Submitted":
            detail = _dict(messages[-1].get("extra")).get("exception_str") if messages else None
            output.error = f"{status}: {detail}" if detail else str(status)
        return output
