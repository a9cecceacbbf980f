"""`forge-synth` as a user runs it: the policy half of the test stage and its band, Ctrl-C in a stage
(nothing left running, nothing accepted lost, the rerun goes on)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import docker
import pytest

from synth.run_dir import RunDir
from synth.status import run_status
from tests.train.test_interrupt import _left_behind

REPO = Path(__file__).resolve().parents[2]
TINY = "tests.synth.tiny_family:SumNumbers"
LOOSE = ("--no-semantic", "--minhash-threshold", "0.99")
"""The tiny family's siblings differ only in names and numbers: real dedup would rightly drop them."""
NO_FORGERY = ("--no-forgery",)
"""For the runs whose subject is not the gate (export, Ctrl-C): the forgeries are two thirds of a tiny
task's gate. test_a_policy_that_always_passes_is_outside_the_default_band runs the stage (`run`'s
default)."""


def _synth(*argv: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from synth.cli import app; app()", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _pool(tmp_path: Path) -> Path:
    folder = tmp_path / "pool"
    folder.mkdir()
    (folder / "notes.md").write_text("# a note\n")
    return folder


def _tiny_run(tmp_path: Path, n: int, *more: str) -> subprocess.CompletedProcess[str]:
    return _synth(
        "run", "--out", str(tmp_path / "run"), "--offline", "--family", TINY, "--pool", str(_pool(tmp_path)),
        "--n", str(n), "--max-proposals", str(n), "--seed", "2", *LOOSE, *more,
    )  # fmt: skip


@pytest.mark.docker
def test_forge_train_rl_trains_on_an_export(tmp_path: Path, base_image: str) -> None:
    """The export is a catalog `forge-train rl --catalog` takes as it is: warm start on the oracle's
    trajectories of the synthesized tasks, then a GRPO step whose rollouts are scored by their checkers."""
    run = _tiny_run(tmp_path, 2, *NO_FORGERY)
    assert run.returncode == 0, run.stdout + run.stderr
    catalog = tmp_path / "catalog"
    out = _synth("export", str(tmp_path / "run"), "--catalog", str(catalog))
    assert out.returncode == 0, out.stdout + out.stderr
    names = sorted(d.name for d in catalog.iterdir() if d.is_dir())
    assert len(names) == 2
    readme = " ".join((catalog / "README.md").read_text().split())
    assert f"the forgery stage was skipped for 2 of them (`--no-forgery`: {', '.join(names)})" in readme
    rl = tmp_path / "rl"
    trained = subprocess.run(
        [
            sys.executable, "-c", "from train.cli.train import app; app()", "rl", "--catalog", str(catalog),
            "--model", "tiny", "--steps", "1", "--batch-tasks", "2", "--group-size", "2",
            "--max-tokens", "16", "--max-turns", "1", "--sft-epochs", "1", "--eval-samples", "0",
            "--concurrency", "2", "--run-dir", str(rl),
        ],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert trained.returncode == 0, trained.stdout + trained.stderr
    warm = [json.loads(line) for line in (rl / "sft-data" / "results.jsonl").read_text().splitlines()]
    assert sorted(r["task"] for r in warm) == names and all(r["reward"] == 1.0 for r in warm)
    [step] = [json.loads(line) for line in (rl / "metrics.jsonl").read_text().splitlines()]
    assert (step["rollouts"], step["infra_errors"]) == (4, 0)


@pytest.mark.docker
def test_a_policy_that_always_passes_is_outside_the_default_band(tmp_path: Path, base_image: str) -> None:
    """The oracle policy passes every rollout: a task GRPO cannot learn from, dropped as agent-side;
    an inclusive band given afterwards re-judges the measured pass rate without new rollouts."""
    first = _tiny_run(tmp_path, 1)
    assert first.returncode == 0, first.stdout + first.stderr
    run = RunDir.open(tmp_path / "run")
    [accepted] = run_status(run).accepted
    assert run.tests()[accepted].forgery_stage, "run's gate attacks every task by default"
    out = _synth("test", str(run.path), "--policy", "oracle", "-k", "2")
    assert out.returncode == 0, out.stdout + out.stderr
    record = run.tests()[accepted]
    assert (record.pass_rate, record.accepted, record.side) == (1.0, False, "agent")
    assert "outside (0,1)" in record.reasons[0]
    rollouts = (run.path / "rollouts" / "results.jsonl").read_text().splitlines()
    assert [json.loads(line)["reward"] for line in rollouts] == [1.0, 1.0]
    again = _synth("test", str(run.path), "--policy", "oracle", "-k", "2", "--band", "[0,1]")
    assert again.returncode == 0, again.stdout + again.stderr
    assert run.tests()[accepted].accepted
    assert len((run.path / "rollouts" / "results.jsonl").read_text().splitlines()) == 2


@pytest.mark.docker
def test_ctrl_c_in_the_test_stage_leaves_nothing_running_and_the_rerun_goes_on(
    tmp_path: Path, client: docker.DockerClient, base_image: str
) -> None:
    log = tmp_path / "first.log"
    argv = [
        "run", "--out", str(tmp_path / "run"), "--offline", "--family", TINY, "--pool", str(_pool(tmp_path)),
        "--n", "3", "--max-proposals", "3", "--seed", "2", "--jobs", "1", *LOOSE, *NO_FORGERY,
    ]  # fmt: skip
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from synth.cli import app; app()", *argv],
            cwd=REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    tests = tmp_path / "run" / "test.jsonl"
    deadline = time.monotonic() + 600
    while not (tests.is_file() and tests.read_text().count("\n") >= 1):
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.2)
    before = tests.read_text().splitlines()
    proc.send_signal(signal.SIGINT)
    assert proc.wait(60) == 130, log.read_text()
    assert _left_behind(client, proc.pid) == []
    run = RunDir.open(tmp_path / "run")
    kept = tests.read_text().splitlines()
    assert kept[: len(before)] == before and len(kept) < 3, "what was tested is kept; the rest was not run"
    again = _synth(*argv)
    assert again.returncode == 0, again.stdout + again.stderr
    assert len(run_status(run).accepted) == 3
    assert tests.read_text().splitlines()[: len(kept)] == kept, "nothing tested was tested again"
