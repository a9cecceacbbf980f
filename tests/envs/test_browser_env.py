"""Browser task environments in real containers: the site's state is out of the agent's reach, the
reference action script is checked against its selectors, and catalog/browser tasks pass the gate."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import docker
import pytest

from envs.browser_image import build_browser_image
from envs.browser_record import record_actions
from envs.docker_sandbox import DockerSandbox
from envs.errors import BuildError
from envs.gate import verify_tasks
from envs.image_builder import build_image
from envs.task import load_task
from envs.task_config import NetworkMode
from envs.task_sandbox import task_sandbox_spec, wait_until_healthy

pytestmark = pytest.mark.docker
REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "catalog" / "browser"
TASK = CATALOG / "shop-express-skillets"
GATED = ("shop-express-skillets",)
"""The browser tasks the suite gates (each takes ~45 s on 2 cores); `forge-env verify --catalog
catalog/browser` gates them all."""


@pytest.fixture(scope="module")
def task_image(client: docker.DockerClient, base_image: str) -> str:
    build_browser_image(client)
    result = build_image(client, load_task(TASK))
    assert result.tag is not None
    return result.tag


@contextmanager
def _site_sandbox(image: str) -> Iterator[DockerSandbox]:
    """A sandbox of the task's image, network none, once the task's healthcheck says its site answers."""
    task = load_task(TASK)
    with DockerSandbox(task_sandbox_spec(task, image, role="test", network=NetworkMode.NONE)) as sandbox:
        wait_until_healthy(sandbox, task)
        yield sandbox


def test_the_agent_cannot_write_or_stop_the_site_it_is_scored_on(task_image: str) -> None:
    """An agent with a shell (a text harness on a browser task) attacks the state the tests read: it
    writes the database, replaces it, and kills the server to serve its own. Each is refused; the site
    still answers and its orders are the seeded ones."""
    with _site_sandbox(task_image) as sandbox:
        attacks = {
            "write": "python3 -c \"import sqlite3; c = sqlite3.connect('/var/lib/forge-web/site.db'); "
            "c.execute('DELETE FROM orders'); c.commit()\"",
            "read": "cat /var/lib/forge-web/site.db > /dev/null",
            "replace": "cp /etc/hostname /var/lib/forge-web/site.db",
            "kill": "pkill -KILL -f 'forge_sites serve' || kill -KILL $(pgrep -f 'forge_sites serve')",
            "squat": "python3 -m http.server 8080 --bind 127.0.0.1 & sleep 1; kill %1",
        }
        for name, attack in attacks.items():
            done = sandbox.exec(attack, user="agent", workdir="/app")
            assert not done.ok, f"the agent's {name} attack succeeded: {done.stdout} {done.stderr}"
        assert sandbox.exec("forge-site-ready").ok
        seeded = sandbox.exec(
            "python3 -c \"import sqlite3; print(sqlite3.connect('/var/lib/forge-web/site.db')"
            ".execute('SELECT COUNT(*) FROM orders').fetchone()[0])\"",
            user="root",
        )
        assert seeded.stdout.strip() == "6"


def test_a_script_whose_points_no_longer_hit_its_elements_fails(task_image: str, tmp_path: Path) -> None:
    """The oracle of a screenshot harness clicks the recorded points; the solution checks them against
    the selectors, so a site whose layout moved fails the gate instead of an oracle rollout later."""
    steps = json.loads((TASK / "solution" / "actions.json").read_text())
    clicked = next(s for s in steps if s["action"] == "click")
    clicked["y"] += 40
    moved = tmp_path / "actions.json"
    moved.write_text(json.dumps(steps))
    with _site_sandbox(task_image) as sandbox:
        sandbox.upload(moved, "/tmp/actions.json")
        done = sandbox.exec(["forge-browser-replay", "/tmp/actions.json"], user="agent", workdir="/app")
    assert done.exit_code == 1
    assert f"{clicked['selector']!r} is at" in done.stderr and "re-record" in done.stderr


def test_recording_fills_the_points_and_names_a_selector_that_matches_nothing(
    client: docker.DockerClient, task_image: str, tmp_path: Path
) -> None:
    copy = tmp_path / "shop-express-skillets"
    shutil.copytree(TASK, copy)
    steps = json.loads((copy / "solution" / "actions.json").read_text())
    for step in steps:
        step.pop("x", None), step.pop("y", None)
    (copy / "solution" / "actions.json").write_text(json.dumps(steps))
    recorded = record_actions(client, load_task(copy), task_image)
    original = json.loads((TASK / "solution" / "actions.json").read_text())
    assert [(s.get("x"), s.get("y")) for s in recorded] == [(s.get("x"), s.get("y")) for s in original]

    steps[3]["selector"] = "#no-such-link"
    (copy / "solution" / "actions.json").write_text(json.dumps(steps))
    with pytest.raises(BuildError, match="'#no-such-link' matches nothing"):
        record_actions(client, load_task(copy), task_image)


def test_browser_tasks_pass_the_gate(client: docker.DockerClient, task_image: str) -> None:
    tasks = [load_task(CATALOG / name) for name in GATED]
    records = verify_tasks(client, tasks, jobs=1, write=False)
    for record in records:
        assert record.verified, record
