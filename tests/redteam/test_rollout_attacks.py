"""Every attack through a rollout of a real harness: the oracle engine makes the harness run the attack
through its own shell tool, in a model-only sandbox behind the recording proxy (on local Docker, and the
attacks on processes also on k8s, its pods real containers), then the hidden tests run. Each must be
scored 0 (never an infrastructure error, which training would drop and redo), and the proxy's record of
the rollout must hold the verifier's 0."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from envs.cluster_images import build_bundle_image
from envs.image_builder import build_image
from envs.k8s_run import configure, current_run
from envs.task import Task, load_task
from harnesses.registry import get_harness
from proxy.engines.oracle import OracleEngine
from proxy.session import ProxySession
from tests.conftest import harness_bundle
from tests.envs.k8s_docker_api import DockerKubeApi
from tests.redteam.attacks import ATTACKS, VERIFIER_SANDBOXES, attack_task_name, write_attack_catalog
from train.rollout import RolloutResult, run_rollout

pytestmark = pytest.mark.docker

CODEX_ATTACKS = ("daemon", "pth-hook", "prewritten-reward", "kill-init")
"""A second, third-party harness on the attacks that most depend on how the harness runs commands."""
K8S_ATTACKS = ("daemon", "block-tests-dir", "kill-init", "kill-everything", "fork-bomb")
"""The attacks on processes, whose path differs on k8s (the pod's one PID namespace holds the warden, which
stops and kills from beside the agent): they also go through a forge-react rollout on k8s. The attacks on
files take the same path after the harness's command on both backends; on k8s they go through
`forge-env verify --backend k8s` (test_verify_attacks) and on Docker through a rollout (below)."""


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_attack_catalog(tmp_path_factory.mktemp("redteam-rollouts") / "catalog")


@pytest.fixture(scope="module")
def images(client: docker.DockerClient, base_image: str, catalog: Path) -> dict[str, tuple[Task, str]]:
    built = {}
    for path in sorted(catalog.iterdir()):
        task = load_task(path)
        result = build_image(client, task)
        assert result.ok and result.tag, result.error
        built[task.name] = (task, result.tag)
    return built


def _explain(result: RolloutResult) -> str:
    run = result.harness_run
    verifier = result.verifier
    return (
        f"{result.status} reward={result.reward} {result.error_class}: {result.error}\n"
        f"harness: {run.status if run else None} exit={run.exit_code if run else None}\n"
        f"verifier: {verifier.error_class if verifier else None} {verifier.stdout[-800:] if verifier else ''}"
    )


def _attack(
    harness_name: str,
    attack: str,
    sandbox: str,
    catalog: Path,
    images: dict[str, tuple[Task, str]],
    tokenizer: Path,
    tmp_path: Path,
    backend: str = "docker",
) -> None:
    harness = get_harness(harness_name)
    bundle = harness_bundle(harness)
    task, image = images[attack_task_name(attack, sandbox)]
    with ProxySession(OracleEngine(catalog, tokenizer=tokenizer), tmp_path / "proxy") as proxy:
        result = run_rollout(
            task, image, harness, bundle, proxy, model="forge-policy", logs_root=tmp_path, backend=backend
        )
        assert proxy.store is not None
        recorded = proxy.store.rollout(result.rollout_id)
    assert result.harness_run is not None and result.harness_run.status != "not-started", _explain(result)
    assert result.calls >= 1, "the harness ran the attack through the proxy"
    assert result.status == "scored" and result.reward == 0.0, _explain(result)
    assert recorded is not None and recorded.rewards == {"reward": 0.0}


@pytest.fixture(scope="module")
def on_k8s(tmp_path_factory: pytest.TempPathFactory, client: docker.DockerClient) -> Iterator[None]:
    """The k8s backend against an API server whose pods are real containers; the bundle as an image."""
    build_bundle_image(client, harness_bundle(get_harness("forge-react")).path)
    with DockerKubeApi() as api:
        kubeconfig = api.write_kubeconfig(tmp_path_factory.mktemp("kube") / "config", "forge-redteam")
        configure(namespace="forge-redteam", kubeconfig=str(kubeconfig))
        try:
            yield
        finally:
            current_run().close()
            configure()


ROLLOUTS = [
    *(("docker", attack, sandbox) for attack in sorted(ATTACKS) for sandbox in VERIFIER_SANDBOXES),
    *(("k8s", attack, "agent") for attack in K8S_ATTACKS),
]
"""On k8s with the verifier in the agent's own pod (the harder case); the fresh verifier's pods face every
attack through `forge-env verify --backend k8s` (test_verify_attacks[k8s-*-fresh])."""


@pytest.mark.parametrize(("backend", "attack", "sandbox"), ROLLOUTS)
def test_the_attack_scores_zero_in_a_forge_react_rollout(
    backend: str,
    attack: str,
    sandbox: str,
    catalog: Path,
    images: dict[str, tuple[Task, str]],
    tiny_model_dir: Path,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    if backend == "k8s":
        request.getfixturevalue("on_k8s")
    _attack("forge-react", attack, sandbox, catalog, images, tiny_model_dir, tmp_path, backend=backend)


@pytest.mark.parametrize("attack", CODEX_ATTACKS)
def test_the_attack_scores_zero_in_a_codex_rollout(
    attack: str, catalog: Path, images: dict[str, tuple[Task, str]], tiny_model_dir: Path, tmp_path: Path
) -> None:
    _attack("codex", attack, "agent", catalog, images, tiny_model_dir, tmp_path)
