"""`forge-train rollout --backend k8s` as a user types it: the harness's bundle reaches each pod as an image
(an init container copies it), the harness reaches its model only through the tunnel to its own relay,
and the rollouts are scored in pods. The pods are real Docker containers behind an API server that speaks
the exec protocol (tests/envs/k8s_docker_api.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.envs.k8s_docker_api import DockerKubeApi

pytestmark = pytest.mark.docker
REPO = Path(__file__).resolve().parents[2]
NAMESPACE = "forge-rollout"


def test_oracle_rollouts_on_k8s_score_and_are_recorded(tmp_path: Path, base_image: str) -> None:
    run = tmp_path / "run"
    with DockerKubeApi() as api:
        kubeconfig = api.write_kubeconfig(tmp_path / "kubeconfig", NAMESPACE)
        done = subprocess.run(
            [
                str(Path(sys.executable).with_name("forge-train")), "rollout",
                "--task", "organize-downloads", "-n", "2", "--run-dir", str(run),
                "--backend", "k8s", "--kubeconfig", str(kubeconfig), "--namespace", NAMESPACE,
            ],
            capture_output=True,
            text=True,
            cwd=REPO,
            env={**os.environ, "COLUMNS": "200"},
            timeout=900,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        results = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
        assert [r["reward"] for r in results] == [1.0, 1.0], results
        assert all(r["status"] == "scored" for r in results), results
        stats = api.stats()
        assert stats["POST pods"].count >= 4  # each rollout's agent pod and its fresh verifier pod
        assert stats["exec"].count > 0
    for result in results:  # the harness's model calls came through the tunnel and were recorded
        assert result["calls"] >= 2, result
