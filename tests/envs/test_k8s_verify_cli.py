"""`forge-env verify --backend k8s --catalog catalog/claw`, end to end, as a user types it: the command
drives an API server that runs each pod as real Docker containers (tests/envs/k8s_docker_api.py), and
every task must pass the gate there (the solution scores 1, doing nothing scores 0, no hidden file in the
image), and one task (a service task) the whole gate with every built-in forgery on pods: the forgeries
attack the verifier's sandbox, not the task, and every claw task is verified alike (the forgery stage on
every task is proved on Docker by tests/test_catalog.py's sample and tests/redteam/test_forgery_stage.py,
and every red-team attack goes through `verify --backend k8s` in tests/redteam/test_verify_attacks.py).
Then `forge-env gc --backend k8s --all` finds nothing left of the run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.envs.k8s_docker_api import DockerKubeApi

pytestmark = pytest.mark.docker
FORGE_ENV = str(Path(sys.executable).with_name("forge-env"))
CATALOG = Path(__file__).resolve().parents[2] / "catalog" / "claw"
NAMESPACE = "forge-verify"
ATTACKED = "inventory-http-service"
"""The task the forgeries attack on pods: a service task, so the control-plane canary goes through the
tunnel beside a running service."""


def test_the_claw_catalog_passes_the_gate_on_k8s(tmp_path: Path, base_image: str) -> None:
    catalog = tmp_path / "claw"
    shutil.copytree(CATALOG, catalog, ignore=shutil.ignore_patterns("verified.json"))
    tasks = sorted(p.name for p in catalog.iterdir() if (p / "task.toml").is_file())
    with DockerKubeApi() as api:
        kubeconfig = api.write_kubeconfig(tmp_path / "kubeconfig", NAMESPACE)
        k8s = ["--backend", "k8s", "--kubeconfig", str(kubeconfig), "--namespace", NAMESPACE]
        for argv, count in (
            (["--catalog", str(catalog), "--runs", "1", "--no-forgery"], len(tasks)),
            ([str(catalog / ATTACKED), "--runs", "1"], 1),
        ):
            run = subprocess.run(
                [FORGE_ENV, "verify", *argv, *k8s], capture_output=True, text=True, timeout=1800
            )
            assert run.returncode == 0, f"{run.stdout[-4000:]}\n{run.stderr[-4000:]}"
            assert f"{count}/{count} task(s) verified" in run.stdout
        for name in tasks:
            record = json.loads((catalog / name / "verified.json").read_text())
            assert record["verified"], (name, record["reasons"])
            assert [run["reward"] for run in record["oracle"]] == [1.0], name
            assert record["nop"]["reward"] == 0.0, name
            if name == ATTACKED:
                assert len(record["forgeries"]) >= 6  # every built-in attack ran, on pods
        exec_count = api.stats()["exec"].count
        assert exec_count > 10 * len(tasks)  # the gate ran in the pods, through the exec subresource
        gc = subprocess.run(
            [FORGE_ENV, "gc", "--all", *k8s],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert gc.returncode == 0, gc.stderr
        assert "removed 0 pods" in gc.stdout, gc.stdout  # every sandbox pod was deleted by its run
