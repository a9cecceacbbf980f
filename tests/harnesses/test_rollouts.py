"""Every installable harness, in real task containers with network `model-only`, driven through the
proxy: the oracle makes it run the reference solution (reward 1, calls recorded as token-exact
trajectories, nothing reached but the model port), doing nothing scores 0, a hang is killed at the
timeout, a crash is recorded, and no container is left behind."""

from __future__ import annotations

from pathlib import Path

import docker
import pytest

from envs import labels
from envs.connect_trace import outside_connects
from envs.image_builder import build_image
from envs.task import Task, load_task
from harnesses.bundle import build_bundle
from harnesses.forge_react import ForgeReact
from harnesses.harness import Launch, LaunchContext
from harnesses.registry import HARNESSES, get_harness
from proxy.engines.oracle import NopEngine, OracleEngine
from proxy.engines.scripted import ScriptedEngine
from proxy.session import ProxySession
from tests.conftest import harness_bundle
from train.rollout import RESULT_FILE, RolloutResult, run_rollout

pytestmark = pytest.mark.docker

REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "catalog" / "claw"
TASKS = ("csv-sales-summary", "organize-downloads", "edit-service-config")
ORACLE_TASK = "csv-sales-summary"
"""The task every harness runs the oracle on: its reference solution is the longest (2 KB of Python in a
heredoc) and holds every character the other two's hold, and more (backslashes, both quotes, `*+>?`), so
it is the one most likely to be mangled on its way through a harness's shell tool. That every claw task's
solution scores 1 is tests/test_catalog.py::test_catalog_passes_the_gate[claw]'s."""
NOP_TASK = "organize-downloads"
"""The one task each harness does nothing on. That doing nothing scores 0 on every claw task is proven by
tests/test_catalog.py::test_catalog_passes_the_gate[claw] (its nop run on each); here, that every harness
completes a nop run and it scores 0."""
EVERY_TASK = "forge-react"
"""The oracle on every task, each traced, with this one, the cheapest: their reference solutions reach
nothing. The others are traced on ORACLE_TASK: what they reach (DNS, telemetry, update checks) is the
harness's, not the task's."""
MODEL_PORT = "127.0.0.1:8000"
INSTALLABLE = [
    name
    for name in HARNESSES
    if get_harness(name).unavailable_reason() is None and "claw" in get_harness(name).domains
]
"""Every installable harness that works on claw tasks (a browser harness has no shell tool)."""


@pytest.fixture(scope="module")
def tasks(client: docker.DockerClient, base_image: str) -> dict[str, tuple[Task, str]]:
    built = {}
    for name in TASKS:
        task = load_task(CATALOG / name)
        result = build_image(client, task)
        assert result.ok and result.tag, result.error
        built[name] = (task, result.tag)
    return built


def _explain(result: RolloutResult) -> str:
    run = result.harness_run
    if run is None:
        return f"{result.error_class}: {result.error}"
    verifier = result.verifier.stdout[-1500:] if result.verifier else ""
    return (
        f"{result.status} reward={result.reward} harness={run.status} exit={run.exit_code} "
        f"error={run.error or run.harness_error}\nstderr: {run.stderr_tail[-1500:]}\n"
        f"stdout: {run.stdout_tail[-1500:]}\nverifier: {verifier}\nlogs: {result.logs_dir}"
    )


@pytest.mark.parametrize("name", INSTALLABLE)
def test_oracle_scores_one_and_doing_nothing_scores_zero(
    name: str, tasks: dict[str, tuple[Task, str]], tiny_model_dir: Path, tmp_path: Path
) -> None:
    """The oracle on ORACLE_TASK (EVERY_TASK's on all), traced; the nop on NOP_TASK."""
    harness = get_harness(name)
    bundle = harness_bundle(harness)
    oracle = OracleEngine(CATALOG, tokenizer=tiny_model_dir)
    with ProxySession(oracle, tmp_path / "oracle") as proxy:
        for task, image in [tasks[ORACLE_TASK]] if name != EVERY_TASK else list(tasks.values()):
            result = run_rollout(
                task, image, harness, bundle, proxy, model="forge-policy", logs_root=tmp_path, trace=True
            )
            assert result.status == "scored" and result.reward == 1.0, _explain(result)
            run = result.harness_run
            assert run is not None and run.status == "completed", _explain(result)
            assert result.calls >= 2 and result.chains >= 1, "the proxy holds the calls as trajectories"
            assert result.trajectory is not None and len(result.trajectory.chains) == result.chains
            assert result.rollout_id.startswith(f"{task.slug}--{harness.name}-0-")  # RolloutKey's id
            assert proxy.store is not None
            assert proxy.store.rollout(result.rollout_id).rewards == {"reward": 1.0}  # type: ignore[union-attr]
            assert (result.logs_dir / RESULT_FILE).is_file()
            assert run.connects, "strace saw the harness connect to the model"
            assert any(c.address == MODEL_PORT for c in run.connects)
            outside = outside_connects(run.connects, {MODEL_PORT})
            assert not outside, f"{name} tried to reach {outside} (DNS, telemetry or update checks)"
    task, image = tasks[NOP_TASK]
    with ProxySession(NopEngine(), tmp_path / "nop") as proxy:
        result = run_rollout(task, image, harness, bundle, proxy, model="forge-policy", logs_root=tmp_path)
    assert result.status == "scored" and result.reward == 0.0, _explain(result)
    assert result.harness_run is not None and result.harness_run.status == "completed"
    assert result.calls >= 1


def _containers_of(client: docker.DockerClient, run: str) -> list[str]:
    found = client.containers.list(all=True, ignore_removed=True, filters={"label": f"{labels.RUN}={run}"})
    return [str(c.name) for c in found]


def test_a_hanging_harness_is_killed_at_the_timeout_and_still_scored(
    client: docker.DockerClient, tasks: dict[str, tuple[Task, str]], tmp_path: Path
) -> None:
    task, image = tasks["organize-downloads"]
    harness = ForgeReact()
    hang = ScriptedEngine(commands=["sleep 600"])
    with ProxySession(hang, tmp_path / "proxy") as proxy:
        result = run_rollout(
            task,
            image,
            harness,
            build_bundle(harness),
            proxy,
            model="m",
            logs_root=tmp_path,
            run="hang-test",
            timeout=4,
        )
    run = result.harness_run
    assert run is not None and run.status == "timeout", _explain(result)
    assert 4 <= run.duration_sec < 20
    assert result.status == "scored" and result.reward == 0.0, "the verifier still ran"
    assert result.calls == 1
    assert _containers_of(client, "hang-test") == []


class CrashingHarness(ForgeReact):
    """Asks its model once, then crashes."""

    name = "crash-test"

    def launch(self, ctx: LaunchContext) -> Launch:
        ask = (
            "import json, urllib.request; urllib.request.urlopen(urllib.request.Request("
            f"'{ctx.base_url}/v1/chat/completions', json.dumps({{'model': 'm', 'messages': "
            "[{'role': 'user', 'content': 'hi'}]}).encode(), {'Content-Type': 'application/json', "
            f"'Authorization': 'Bearer {ctx.api_key}'}})).read()"
        )
        script = f"python3 -c \"{ask}\" && echo 'harness blew up' >&2; exit 7"
        return Launch(argv=["sh", "-c", script], env={"HOME": ctx.home})


class CrashingAtStartHarness(ForgeReact):
    """Crashes before it ever asks its model (a broken install, a wrong config)."""

    name = "crash-at-start"

    def launch(self, ctx: LaunchContext) -> Launch:
        return Launch(argv=["sh", "-c", "echo 'harness blew up' >&2; exit 7"], env={"HOME": ctx.home})


def test_a_crashing_harness_is_recorded_and_still_scored(
    client: docker.DockerClient, tasks: dict[str, tuple[Task, str]], tmp_path: Path
) -> None:
    """Once the model has answered, what the harness does next is the agent's: a crash scores 0."""
    task, image = tasks["organize-downloads"]
    bundle = build_bundle(ForgeReact())
    with ProxySession(NopEngine(), tmp_path / "proxy") as proxy:
        result = run_rollout(
            task, image, CrashingHarness(), bundle, proxy, model="m", logs_root=tmp_path, run="crash-test"
        )
    run = result.harness_run
    assert run is not None and (run.status, run.exit_code) == ("failed", 7), run
    assert "harness blew up" in run.stderr_tail
    assert (result.logs_dir / "stderr.txt").read_text().strip() == "harness blew up"
    assert result.status == "scored" and result.reward == 0.0 and result.calls == 1
    assert _containers_of(client, "crash-test") == []


def test_a_harness_crashing_before_its_first_model_call_is_an_infrastructure_error(
    client: docker.DockerClient, tasks: dict[str, tuple[Task, str]], tmp_path: Path
) -> None:
    """Nothing the model said can have caused it, so a 0 would train on the infrastructure."""
    task, image = tasks["organize-downloads"]
    with ProxySession(NopEngine(), tmp_path / "proxy") as proxy:
        result = run_rollout(
            task, image, CrashingAtStartHarness(), build_bundle(ForgeReact()), proxy, model="m",
            logs_root=tmp_path, run="crash-at-start",
        )  # fmt: skip
    assert result.status == "infra-error" and result.reward is None and result.verifier is None
    assert result.error_class == "HarnessNoModel" and "harness blew up" in (result.error or "")
    assert _containers_of(client, "crash-at-start") == []


def test_a_missing_image_is_an_infrastructure_error(
    tasks: dict[str, tuple[Task, str]], tmp_path: Path
) -> None:
    task, _ = tasks["organize-downloads"]
    with ProxySession(NopEngine(), tmp_path / "proxy") as proxy:
        result = run_rollout(
            task,
            "openforge/task-none:missing",
            ForgeReact(),
            build_bundle(ForgeReact()),
            proxy,
            model="m",
            logs_root=tmp_path,
        )
    assert result.status == "infra-error" and result.error_class == "SandboxStartError"
    assert result.reward is None and result.harness_run is None
    assert RolloutResult.model_validate_json((result.logs_dir / RESULT_FILE).read_text()) == result
