"""`forge-env verify --backend k8s --catalog catalog/claw`, end to end, as a user types it: the command
drives an API server that runs each pod as real Docker containers (tests/envs/k8s_docker_api.py), and
every task must pass the whole gate there (the solution scores 1 every run, doing nothing and every
built-in forgery score 0, no hidden file in the image). Then `forge-env gc --backend k8s --all` finds
nothing left of the run."""

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


def test_the_claw_catalog_passes_the_gate_on_k8s(tmp_path: Path, base_image: str) -> None:
    catalog = tmp_path / "claw"
    shutil.copytree(CATALOG, catalog, ignore=shutil.ignore_patterns("verified.json"))
    tasks = sorted(p.name for p in catalog.iterdir() if (p / "task.toml").is_file())
    with DockerKubeApi() as api:
        kubeconfig = api.write_kubeconfig(tmp_path / "kubeconfig", NAMESPACE)
        k8s = ["--backend", "k8s", "--kubeconfig", str(kubeconfig), "--namespace", NAMESPACE]
        run = subprocess.run(
            [FORGE_ENV, "verify", "--catalog", str(catalog), *k8s],
            capture_output=True,
            text=True,
            timeout=2400,
        )
        assert run.returncode == 0, f"{run.stdout[-4000:]}\n{run.stderr[-4000:]}"
        assert f"{len(tasks)}/{len(tasks)} task(s) verified" in run.stdout
        for name in tasks:
            record = json.loads((catalog / name / "verified.json").read_text())
            assert record["verified"], (name, record["reasons"])
            assert [run["reward"] for run in record["oracle"]] == [1.0, 1.0], name
            assert record["nop"]["reward"] == 0.0, name
            assert len(record["forgeries"]) >= 6, name  # every built-in attack ran, on pods
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
