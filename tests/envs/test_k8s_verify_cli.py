"""`forge-env verify --backend k8s --catalog DIR`, end to end, as a user types it: the command drives an
API server that runs each pod as real Docker containers (tests/envs/k8s_docker_api.py), and a catalog of
claw tasks chosen for what their pods must carry (SAMPLE) passes the gate there (the solution scores 1,
doing nothing scores 0, no hidden file in the image), and one task (a service task) the whole gate with
every built-in forgery on pods. The claw tasks share one configuration and differ in what the agent leaves
in /app, which is what a pod's artifacts must bring back whole: that every claw task passes the gate is
tests/test_catalog.py::test_catalog_passes_the_gate[claw]'s (on Docker); the forgeries attack the
verifier's sandbox, not the task (the forgery stage on every task is proved on Docker by
tests/test_catalog.py's sample and tests/redteam/test_forgery_stage.py, and every red-team attack goes
through `verify --backend k8s` in tests/redteam/test_verify_attacks.py). Then `forge-env gc --backend k8s
--all` finds nothing left of the run."""

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
SAMPLE = (
    "fix-deploy-script",  # an executable script, paths with spaces, a dotfile
    "git-merge-conflict",  # a git repository: many small files in .git
    "inventory-http-service",  # a service beside the tests; also ATTACKED
    "notes-tag-index",  # the most files (23) in the environment
    "sqlite-orders-export",  # a binary database
    "verify-archive-checksums",  # binary archives and their checksums
)
"""The claw tasks gated on pods: different things left in /app, each brought back from a pod."""
ATTACKED = "inventory-http-service"
"""The task the forgeries attack on pods: a service task, so the control-plane canary goes through the
tunnel beside a running service."""


def test_claw_tasks_pass_the_gate_on_k8s(tmp_path: Path, base_image: str) -> None:
    catalog = tmp_path / "claw"
    for name in SAMPLE:
        shutil.copytree(CATALOG / name, catalog / name, ignore=shutil.ignore_patterns("verified.json"))
    tasks = sorted(p.name for p in catalog.iterdir() if (p / "task.toml").is_file())
    assert tasks == list(SAMPLE)
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
