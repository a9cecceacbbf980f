"""Harbor-format tasks (tests/envs/harbor_tasks) run unchanged through real harnesses and the proxy: the
oracle scores 1 through the harnesses (the agent runs in the image's WORKDIR, an `org/name` task reaches its
model, the ENTRYPOINT's service is up, every step of a multi-step task runs and is verified, a separate
verifier environment scores the artifacts), doing nothing scores 0, the tests' output is kept with the
rollout's logs, a harness that never reaches its model (in any step) is an infrastructure error, not a 0,
and tests that install their runner score on a prepared verifier layer, or with the network opt-in."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

import train.rollout
from envs.image_builder import build_image
from envs.task import Task, load_task
from envs.task_config import NetworkMode
from envs.verifier_image import prepare_verifier_image
from harnesses.registry import HARNESSES, get_harness
from proxy.conversation import Generation, GenerationRequest
from proxy.engines.oracle import NopEngine, OracleEngine
from proxy.errors import UpstreamError
from proxy.session import ProxySession
from tests.conftest import HARBOR_RUNNABLE, HARBOR_TASKS, harness_bundle
from train.rollout import RolloutResult, run_rollout

pytestmark = pytest.mark.docker

TWO_HARNESSES = ("forge-react", "mini-swe-agent")
HARNESS_FREE = ("entrypoint-service", "multi-score", "separate-verifier")
"""Harbor tasks whose feature is the sandbox's or the verifier's (the ENTRYPOINT's service, the scores'
file, the verifier's environment), the same whichever harness acts: run with forge-react only. The
others (the image's WORKDIR, an `org/name` route, a harness started again in the same sandbox for each
step) depend on the harness: run with both."""
ORACLE_RUNS = [(name, "forge-react") for name in HARBOR_RUNNABLE] + [
    (name, "mini-swe-agent") for name in HARBOR_RUNNABLE if name not in HARNESS_FREE
]
"""(task, harness) the oracle runs: every task with forge-react, and with mini-swe-agent but HARNESS_FREE."""
INSTALLABLE = [
    name
    for name in HARNESSES
    if get_harness(name).unavailable_reason() is None and "claw" in get_harness(name).domains
]
"""Every installable harness that works on claw tasks (a browser harness has no shell tool)."""


@pytest.fixture(scope="module")
def harbor(client: docker.DockerClient, base_image: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the Harbor tasks with their images built."""
    root = shutil.copytree(HARBOR_TASKS, tmp_path_factory.mktemp("harbor") / "harbor")
    for name in HARBOR_RUNNABLE:
        built = build_image(client, load_task(root / name))
        assert built.ok, built.error
    return root


def _built(client: docker.DockerClient, root: Path, name: str) -> tuple[Task, str]:
    task = load_task(root / name)
    built = build_image(client, task)
    assert built.ok and built.tag
    return task, built.tag


def _explain(result: RolloutResult) -> str:
    run, verdict = result.harness_run, result.verifier
    return (
        f"{result.status} reward={result.reward} {result.error_class}: {result.error}\n"
        f"harness: {run.status if run else '-'} exit={run.exit_code if run else '-'} "
        f"stderr: {run.stderr_tail[-800:] if run else ''}\n"
        f"tests: {verdict.stdout[-800:] if verdict else ''} {verdict.stderr[-800:] if verdict else ''}\n"
        f"logs: {result.logs_dir}"
    )


def _rollout(
    client: docker.DockerClient,
    harbor: Path,
    name: str,
    harness_name: str,
    engine: object,
    tmp_path: Path,
    verifier_network: bool = False,
    timeout: float | None = None,
) -> RolloutResult:
    task, image = _built(client, harbor, name)
    harness = get_harness(harness_name)
    with ProxySession(engine, tmp_path / f"{name}-{harness_name}") as proxy:  # type: ignore[arg-type]
        return run_rollout(
            task,
            image,
            harness,
            harness_bundle(harness),
            proxy,
            model="forge-policy",
            logs_root=tmp_path,
            verifier_network=verifier_network,
            timeout=timeout,
        )


@pytest.mark.parametrize(("name", "harness_name"), ORACLE_RUNS, ids=[f"{n}-{h}" for n, h in ORACLE_RUNS])
def test_the_oracle_scores_one_on_a_harbor_task_through_a_harness(
    client: docker.DockerClient,
    harbor: Path,
    tiny_model_dir: Path,
    tmp_path: Path,
    name: str,
    harness_name: str,
) -> None:
    """Every task with forge-react; with mini-swe-agent too where the harness matters (see HARNESS_FREE)."""
    oracle = OracleEngine(harbor, tokenizer=tiny_model_dir)
    result = _rollout(client, harbor, name, harness_name, oracle, tmp_path)
    assert result.status == "scored" and result.reward == 1.0, _explain(result)
    verifier_logs = result.logs_dir / ("steps/extend" if name == "multi-step" else "") / "verifier"
    assert (verifier_logs / "test-stdout.txt").is_file() and (verifier_logs / "reward.txt").exists() != (
        verifier_logs / "reward.json"
    ).exists(), "the tests' output and the files they left are kept with the rollout"
    if name == "org-name":
        assert result.rollout_id.startswith("harbor__hello-org--") and result.calls >= 2
    if name == "multi-step":
        assert [(s.name, s.verifier.reward) for s in result.steps] == [("create", 1.0), ("extend", 1.0)]
        assert (result.logs_dir / "steps" / "create" / "verifier" / "test-stdout.txt").is_file()
    if name == "multi-score":
        assert result.verifier is not None and result.verifier.details == {"correctness": 1.0, "style": 1.0}


@pytest.mark.parametrize("harness_name", [h for h in INSTALLABLE if h not in TWO_HARNESSES])
def test_every_harness_works_in_the_images_workdir(
    client: docker.DockerClient, harbor: Path, tiny_model_dir: Path, tmp_path: Path, harness_name: str
) -> None:
    """WORKDIR only in the Dockerfile and a solution with relative paths: 0 if the agent ran in `/`. The
    TWO_HARNESSES run this very rollout in test_the_oracle_scores_one_on_a_harbor_task_through_a_harness
    (workdir-from-dockerfile), so not again here."""
    oracle = OracleEngine(harbor, tokenizer=tiny_model_dir)
    result = _rollout(client, harbor, "workdir-from-dockerfile", harness_name, oracle, tmp_path)
    assert result.status == "scored" and result.reward == 1.0, _explain(result)


@pytest.mark.parametrize("name", ["multi-step", "separate-verifier", "entrypoint-service"])
def test_doing_nothing_scores_zero_on_a_harbor_task(
    client: docker.DockerClient, harbor: Path, tmp_path: Path, name: str
) -> None:
    result = _rollout(client, harbor, name, "forge-react", NopEngine(), tmp_path)
    assert result.status == "scored" and result.reward == 0.0, _explain(result)
    if name == "multi-step":  # the first step scored 0 and has no bar; the second ran and scored 0 too
        assert [(s.name, s.verifier.reward) for s in result.steps] == [("create", 0.0), ("extend", 0.0)]


def test_a_harness_that_never_reaches_its_model_is_an_infrastructure_error(
    client: docker.DockerClient, harbor: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As when an `org/name` slash broke the route: the relay lets through a route the harness does not
    use, every call of the harness is refused, and the rollout says infra-error, never scored 0."""
    monkeypatch.setattr(train.rollout, "rollout_routes", lambda rollout_id: ["/rollouts/someone-else/v1/"])
    result = _rollout(client, harbor, "org-name", "forge-react", NopEngine(), tmp_path)
    assert result.status == "infra-error" and result.reward is None, _explain(result)
    assert result.error_class == "HarnessNoModel" and result.verifier is None
    assert "no call" in (result.error or "")


STEP_CUT_OFF = 20.0
"""Seconds each step's harness may run in the later-step test: step one's oracle needs a few."""


class _EngineDownAfterTheFirstStep(OracleEngine):
    """The oracle, until the engine goes down: every call of the multi-step task's second step fails."""

    async def generate(self, request: GenerationRequest) -> Generation:
        if any("Append the content of extra.txt" in m.content for m in request.messages if m.role == "user"):
            raise UpstreamError("the engine is down (the test)")
        return await super().generate(request)


def test_a_later_step_that_never_reaches_its_model_is_an_infrastructure_error(
    client: docker.DockerClient, harbor: Path, tiny_model_dir: Path, tmp_path: Path
) -> None:
    """Step one's calls were answered; none of step two's was. The harness of step two never reached its
    model, so the rollout is an infrastructure error, not step two's 0 (counting the whole rollout's calls
    once took step one's answers for step two's). A short timeout: step two's harness retries its refused
    calls for ~90 s (forge-react's backoff) before it gives up; cut off sooner, it never got an answer just
    the same."""
    engine = _EngineDownAfterTheFirstStep(harbor, tokenizer=tiny_model_dir)
    result = _rollout(client, harbor, "multi-step", "forge-react", engine, tmp_path, timeout=STEP_CUT_OFF)
    assert result.status == "infra-error" and result.reward is None, _explain(result)
    assert result.error_class == "HarnessNoModel", _explain(result)
    assert "step 'extend'" in (result.error or "") and "was answered" in (result.error or "")
    assert [(s.name, s.verifier.reward) for s in result.steps] == [("create", 1.0)]


@pytest.fixture(scope="module")
def installs_runner(client: docker.DockerClient, harbor: Path) -> Iterator[Path]:
    """installs-runner (its test.sh installs `bc` when it runs, as Terminal-Bench 2's do) with its
    verifier layer prepared, as `forge-env build --prepare-verifier` makes it; removed afterwards."""
    task, image = _built(client, harbor, "installs-runner")
    prepared = prepare_verifier_image(task, image, client)
    assert prepared.image == f"{image}-verifier", prepared.output_tail
    try:
        yield harbor
    finally:
        with contextlib.suppress(docker.errors.ImageNotFound):
            client.images.remove(prepared.image, force=True)


def test_tests_that_install_their_runner_score_on_a_prepared_layer_with_no_network(
    client: docker.DockerClient, installs_runner: Path, tiny_model_dir: Path, tmp_path: Path
) -> None:
    """A rollout's verification finds the prepared layer by itself (the task image's id and the tests'
    hash) and runs the installing tests offline on it. The verifier's doing, whichever harness acted: run
    with forge-react only."""
    oracle = OracleEngine(installs_runner, tokenizer=tiny_model_dir)
    result = _rollout(client, installs_runner, "installs-runner", "forge-react", oracle, tmp_path)
    assert result.status == "scored" and result.reward == 1.0, _explain(result)
    assert result.verifier is not None and result.verifier.network is NetworkMode.NONE
    assert (result.verifier.image or "").endswith("-verifier"), result.verifier.image


def test_tests_that_install_their_runner_need_the_opt_in_without_a_prepared_layer(
    client: docker.DockerClient, harbor: Path, tiny_model_dir: Path, tmp_path: Path
) -> None:
    """Changed tests make the layer stale: offline they cannot install their runner and score 0; with
    `--verifier-network` (run_rollout's verifier_network) they get the network the task declares."""
    root = tmp_path / "tasks"
    shutil.copytree(HARBOR_TASKS / "installs-runner", root / "installs-runner")
    with (root / "installs-runner" / "tests" / "test.sh").open("a") as script:
        script.write("# changed: no layer was prepared for these tests\n")
    oracle = OracleEngine(root, tokenizer=tiny_model_dir)
    offline = _rollout(client, root, "installs-runner", "forge-react", oracle, tmp_path / "offline")
    assert offline.status == "scored" and offline.reward == 0.0, _explain(offline)
    assert offline.verifier is not None and offline.verifier.image is None
    online = _rollout(
        client, root, "installs-runner", "forge-react", oracle, tmp_path / "online", verifier_network=True
    )
    assert online.status == "scored" and online.reward == 1.0, _explain(online)
    assert online.verifier is not None and online.verifier.network is NetworkMode.HOST
