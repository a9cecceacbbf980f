"""Record a browser task's action script: the viewport coordinates of each click and field.

A browser task's reference solution is a harness-neutral action script (`solution/actions.json`) whose
steps name their element by selector. Screenshot agents act by coordinates, so the oracle replays a
click at the point the element had when the script was recorded; `forge-browser-replay` (the solution)
checks each point against its selector, so a script whose site changed fails the gate until recorded
again. Recording replays the selectors in a sandbox of the task's image (no network, the site served by
its init hook, as the agent would run) and writes the points back.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import docker

from envs.docker_sandbox import DockerSandbox
from envs.errors import BuildError
from envs.task import Task
from envs.task_config import NetworkMode
from envs.task_sandbox import task_sandbox_spec, wait_until_healthy

ACTIONS_FILE = "actions.json"
RECORD_TIMEOUT_SEC = 300


def actions_path(task: Task) -> Path:
    return task.solution_dir / ACTIONS_FILE


def load_actions(task: Task) -> list[dict[str, Any]]:
    """The task's action script; BuildError naming the file when it is missing or not a list of steps."""
    path = actions_path(task)
    try:
        steps = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise BuildError(task.name, f"{path}: {exc}") from exc
    if not isinstance(steps, list) or not all(isinstance(s, dict) and "action" in s for s in steps):
        raise BuildError(task.name, f"{path}: must be a JSON list of steps, each with an 'action'")
    return steps


def record_actions(client: docker.DockerClient, task: Task, image: str) -> list[dict[str, Any]]:
    """Replay the task's script with `--record` in a sandbox of `image` and save the recorded points.
    Raises BuildError with the replayer's output when a step fails."""
    load_actions(task)  # a clear error before any container starts
    spec = task_sandbox_spec(task, image, role="record-actions", network=NetworkMode.NONE)
    with DockerSandbox(spec, client=client) as sandbox:
        wait_until_healthy(sandbox, task)  # the task's healthcheck: its site answers
        sandbox.make_dir("/tmp/record", uid=1000, gid=1000)
        sandbox.upload(actions_path(task), f"/tmp/record/{ACTIONS_FILE}")
        sandbox.exec(["chown", "-R", "agent:agent", "/tmp/record"], user="root")
        done = sandbox.exec(
            ["forge-browser-replay", "--record", f"/tmp/record/{ACTIONS_FILE}"],
            user="agent",
            timeout=RECORD_TIMEOUT_SEC,
            env={"FORGE_ANSWER_FILE": "/tmp/record/answer.txt"},
        )
        if not done.ok:
            raise BuildError(
                task.name, f"recording {actions_path(task)} failed:\n{(done.stdout + done.stderr)[-2000:]}"
            )
        with tempfile.TemporaryDirectory() as tmp:
            sandbox.download(f"/tmp/record/{ACTIONS_FILE}", Path(tmp) / ACTIONS_FILE)
            text = (Path(tmp) / ACTIONS_FILE).read_text()
    actions_path(task).write_text(text)
    return json.loads(text)
