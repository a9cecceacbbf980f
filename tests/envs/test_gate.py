"""The verification gate on good and deliberately broken tasks, in real containers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import docker
import pytest

from envs.gate import verify_task
from envs.parallel import run_parallel
from envs.task import load_task
from tests.conftest import write_task

pytestmark = pytest.mark.docker
FORGE_ENV = str(Path(sys.executable).with_name("forge-env"))

EXPECTED = "the expected answer, long enough to count as a leak\n"


@pytest.fixture
def broken_catalog(tmp_path: Path) -> Path:
    root = tmp_path / "catalog"
    write_task(root, "good")
    write_task(root, "solution-scores-0", solve_sh="echo wrong > /app/other\n")
    write_task(root, "nop-scores-1", test_sh="echo 1 > /logs/verifier/reward.txt\n")
    write_task(root, "reward-garbage", test_sh="echo PASSED > /logs/verifier/reward.txt\n")
    write_task(root, "reward-missing", test_sh="echo 'forgot to write the reward'\n")
    write_task(
        root,
        "reward-json",
        test_sh=(
            "if [ -f /app/done ]; then r=1; else r=0; fi\n"
            'echo "{\\"reward\\": $r, \\"checks\\": 3}" > /logs/verifier/reward.json\n'
            "echo 0 > /logs/verifier/reward.txt\n"
        ),
    )
    write_task(
        root,
        "leaky-image",
        dockerfile=(
            "ARG FORGE_BASE=openforge/base:latest\nFROM ${FORGE_BASE}\nCOPY answer.txt /var/lib/answer.txt\n"
        ),
        files={"environment/answer.txt": EXPECTED, "tests/expected.txt": EXPECTED},
    )
    write_task(
        root,
        "solution-needs-image-home",
        dockerfile=(
            "ARG FORGE_BASE=openforge/base:latest\nFROM ${FORGE_BASE}\nWORKDIR /app\n"
            "RUN echo 'export DONE_FILE=/app/done' > /root/.forge-task-rc\n"
        ),
        solve_sh='. "$HOME/.forge-task-rc" && echo ok > "$DONE_FILE"\n',
    )
    write_task(
        root,
        "tests-time-out",
        test_sh="sleep 600\n",
        toml='[verifier]\ntimeout_sec = 3\n[environment]\nworkdir = "/app"\n',
    )
    return root


def test_gate_on_good_and_broken_tasks(
    client: docker.DockerClient, base_image: str, broken_catalog: Path, forge_home: Path
) -> None:
    """`good` runs the oracle twice (every run must score the top); a broken task fails on its first, and
    its gate stops at the stage that failed (`nop-scores-1` has the forgery stage on: it is never run)."""
    tasks = [load_task(p) for p in sorted(broken_catalog.iterdir())]
    gated = run_parallel(
        lambda task: verify_task(
            client, task, runs=2 if task.name == "good" else 1, forgery=task.name == "nop-scores-1"
        ),
        tasks,
        2,
    )
    records = {r.task: r for r in gated}

    good = records["good"]
    assert good.verified and good.reasons == []
    assert good.oracle_rewards == [1.0, 1.0] and good.nop is not None and good.nop.reward == 0.0
    assert good.stopped_at is None
    written = json.loads((broken_catalog / "good" / "verified.json").read_text())
    assert written["verified"] is True and written["image_digest"].startswith("sha256:")
    assert written["image"].startswith("openforge/task-good:")
    assert [r["reward"] for r in written["oracle"]] == [1.0, 1.0]
    assert written["tool_version"] and written["runs"] == 2
    assert all(r["duration_sec"] > 0 for r in written["oracle"])

    assert records["reward-json"].verified

    bad = records["solution-scores-0"]
    assert (
        not bad.verified and "oracle run 1 scored 0, not the top of [verifier] reward_range 1" in bad.reasons
    )

    assert (bad.stopped_at, bad.nop, bad.forgeries) == ("oracle", None, [])

    nop = records["nop-scores-1"]
    assert not nop.verified and "doing nothing scored 1, not 0" in nop.reasons
    assert (nop.stopped_at, nop.forgeries) == ("nop", [])

    garbage = records["reward-garbage"]
    assert not garbage.verified
    assert garbage.oracle[0].error_class == "RewardFileInvalid" and "PASSED" in (
        garbage.oracle[0].error or ""
    )

    missing = records["reward-missing"]
    assert missing.oracle[0].error_class == "RewardFileMissing"
    assert (missing.stopped_at, missing.nop) == ("oracle", None)

    leaky = records["leaky-image"]
    assert not leaky.verified
    assert leaky.leaks == ["tests/expected.txt is in the image at /var/lib/answer.txt"]

    # an agent's commands run with a private HOME, so a solution relying on the image's /root is refused
    homebound = records["solution-needs-image-home"]
    assert (
        not homebound.verified
        and "oracle run 1 scored 0, not the top of [verifier] reward_range 1" in homebound.reasons
    )

    slow = records["tests-time-out"]
    assert not slow.verified and slow.oracle[0].error_class == "VerifierTimeout"
    assert slow.oracle[0].duration_sec < 60


def test_verify_cli_prints_a_table_and_fails_if_any_task_fails(
    base_image: str, broken_catalog: Path, forge_home: Path
) -> None:
    keep = {"good", "nop-scores-1"}
    for task in broken_catalog.iterdir():
        if task.name not in keep:
            subprocess.run(["rm", "-rf", str(task)], check=True)
    out = subprocess.run(
        [FORGE_ENV, "verify", "--catalog", str(broken_catalog), "--runs", "1", "--no-forgery"],
        capture_output=True,
        text=True,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "FORGE_HOME": str(forge_home)},
    )
    assert out.returncode == 1, out.stderr
    assert "1/2 task(s) verified" in out.stdout
    assert "nop-scores-1: doing nothing scored 1, not 0" in out.stderr
    good_only = subprocess.run(
        [FORGE_ENV, "verify", str(broken_catalog / "good"), "--runs", "1", "--no-forgery"],
        capture_output=True,
        text=True,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "FORGE_HOME": str(forge_home)},
    )
    assert good_only.returncode == 0, good_only.stdout + good_only.stderr
    assert "1/1 task(s) verified" in good_only.stdout


def test_a_task_whose_image_fails_to_build_is_reported_not_raised(
    client: docker.DockerClient, base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    task = load_task(
        write_task(
            tmp_path,
            "unbuildable",
            dockerfile="ARG FORGE_BASE=openforge/base:latest\nFROM ${FORGE_BASE}\nRUN false\n",
        )
    )
    record = verify_task(client, task, runs=1)
    assert not record.verified and "RUN false" in record.reasons[0]


def test_healthcheck_waits_for_a_slow_service_and_solution_env_reaches_the_solution(
    client: docker.DockerClient, base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    """A service that needs 3 s to come up: the healthcheck holds everything until it is there."""
    hook = "#!/bin/sh\nsleep 3\necho up > /run/service-ready\n"
    task = write_task(
        tmp_path,
        "slow-service",
        dockerfile=(
            "ARG FORGE_BASE=openforge/base:latest\nFROM ${FORGE_BASE}\nWORKDIR /app\n"
            "COPY 10-slow /etc/openforge/init.d/10-slow\nRUN chmod +x /etc/openforge/init.d/10-slow\n"
        ),
        files={"environment/10-slow": hook},
        solve_sh='test -f /run/service-ready && [ "$HINT" = "from-toml" ] && echo ok > /app/done\n',
        toml=(
            '[verifier]\ntimeout_sec = 30\n[solution]\nenv = { HINT = "from-toml" }\n'
            '[environment]\nworkdir = "/app"\n'
            '[environment.healthcheck]\ncommand = "test -f /run/service-ready"\n'
            "interval_sec = 0.5\nstart_interval_sec = 0.5\nstart_period_sec = 10\nretries = 3\n"
        ),
    )
    record = verify_task(client, load_task(task), runs=1, forgery=False)
    assert record.verified, record.reasons
    assert record.oracle[0].duration_sec >= 3

    broken = write_task(
        tmp_path,
        "never-healthy",
        toml='[environment]\nworkdir = "/app"\n[environment.healthcheck]\ncommand = "false"\n'
        "interval_sec = 0.2\nretries = 2\n",
    )
    record = verify_task(client, load_task(broken), runs=1, forgery=False)
    assert not record.verified
    assert record.oracle[0].error_class == "SandboxStartError"
    assert "healthcheck `false` failed 2 time(s)" in (record.oracle[0].error or "")
