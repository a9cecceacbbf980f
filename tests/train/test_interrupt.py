"""Ctrl-C and SIGTERM on `forge-train rollout` and `forge-train rl`, as a user (or a scheduler) sends them
mid-run: the process ends promptly with 130, nothing it started is left running (containers, watchdog),
the results finished so far stay in results.jsonl, and the same command again resumes: it redoes only
what was missing, never a finished rollout."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import docker
import pytest

from envs import labels
from tests.conftest import sigint_default

pytestmark = pytest.mark.docker

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[2]
PROMPT_SEC = 60
"""How soon after the signal the process must be gone."""
CLEAN_SEC = 30
"""How soon after that nothing of it may be left (the watchdog removes what a dying process could not)."""


def _start(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        return subprocess.Popen(
            [str(BIN / "forge-train"), *argv],
            cwd=REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "COLUMNS": "200"},
            preexec_fn=sigint_default,
        )


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.is_file() else []


def _interrupt_after_first_result(
    proc: subprocess.Popen[bytes], results: Path, signum: int, log: Path
) -> tuple[list[str], int]:
    """Wait for a first finished rollout, send `signum`; the results when sent, and the exit code."""
    deadline = time.monotonic() + 600
    while not _lines(results):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"no rollout finished before the process ended or 600 s passed:\n{log.read_text()}")
        time.sleep(0.2)
    before = _lines(results)
    proc.send_signal(signum)
    sent = time.monotonic()
    try:
        code = proc.wait(PROMPT_SEC)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"still running {PROMPT_SEC} s after {signal.Signals(signum).name}:\n{log.read_text()}")
    assert time.monotonic() - sent < PROMPT_SEC
    return before, code


def _left_behind(client: docker.DockerClient, pid: int) -> list[str]:
    """Containers labelled with the process as owner, and processes naming it (its watchdog)."""
    deadline = time.monotonic() + CLEAN_SEC
    while True:
        managed = client.containers.list(
            all=True, ignore_removed=True, filters={"label": f"{labels.MANAGED}=true"}
        )
        mine = [c.name for c in managed if c.labels.get(labels.OWNER, "").split(":")[1:2] == [str(pid)]]
        watchdogs = [p for p in _processes() if "envs.reaper" in p and f":{pid}:" in p]
        if (not mine and not watchdogs) or time.monotonic() > deadline:
            return mine + watchdogs
        time.sleep(0.5)


def _processes() -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
            except OSError:
                continue
    return found


def _ids(lines: list[str]) -> list[str]:
    return [json.loads(line)["rollout_id"] for line in lines]


def test_an_interrupted_rollout_set_stops_at_once_and_resumes(
    client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    """Ctrl-C here, SIGTERM on the GRPO step below: both signals reach one handler
    (envs.cli_support.interruptible), so each command is cut by one of them."""
    signum = signal.SIGINT
    run = tmp_path / "run"
    argv = ["rollout", "--task", "organize-downloads", "-n", "3", "--concurrency", "1", "--run-dir", str(run)]
    proc = _start(argv, tmp_path / "first.log")
    before, code = _interrupt_after_first_result(proc, run / "results.jsonl", signum, tmp_path / "first.log")
    assert code == 130, (tmp_path / "first.log").read_text()
    assert _left_behind(client, proc.pid) == []
    kept = _lines(run / "results.jsonl")
    assert kept[: len(before)] == before, "what had finished is kept as it was"
    assert len(kept) < 3, "the queued rollouts never started"
    again = subprocess.run(
        [str(BIN / "forge-train"), *argv], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert again.returncode == 0, again.stdout + again.stderr
    done = _lines(run / "results.jsonl")
    assert done[: len(kept)] == kept and len(done) == 3, "only the missing rollouts ran again"
    assert sorted(json.loads(line)["sample"] for line in done) == [0, 1, 2]
    assert all(json.loads(line)["status"] == "scored" for line in done)


def test_an_interrupted_grpo_step_stops_at_once_and_resumes(
    client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    """Cut mid-step by SIGTERM (as a scheduler sends it): the step's finished rollout is kept and the
    resumed run redoes only the other."""
    signum = signal.SIGTERM
    run = tmp_path / "run"
    argv = [
        "rl", "--model", "tiny", "--task", "organize-downloads", "--steps", "1", "--group-size", "2",
        "--concurrency", "1", "--eval-samples", "0",
        "--max-tokens", "16", "--max-turns", "1", "--sft-epochs", "1", "--run-dir", str(run),
    ]  # fmt: skip
    step = run / "steps" / "0000" / "results.jsonl"
    proc = _start(argv, tmp_path / "first.log")
    before, code = _interrupt_after_first_result(proc, step, signum, tmp_path / "first.log")
    assert code == 130, (tmp_path / "first.log").read_text()
    assert _left_behind(client, proc.pid) == []
    kept = _lines(step)
    assert kept[: len(before)] == before and len(kept) < 2
    assert not (run / "metrics.jsonl").exists(), "the step did not finish"
    again = subprocess.run(
        [str(BIN / "forge-train"), *argv], cwd=REPO, capture_output=True, text=True, timeout=900
    )
    assert again.returncode == 0, again.stdout + again.stderr
    done = _lines(step)
    assert done[: len(kept)] == kept and len(done) == 2, "only the missing rollout ran again"
    assert _ids(done)[0] == _ids(kept)[0]
    (record,) = [json.loads(line) for line in _lines(run / "metrics.jsonl")]
    assert record["step"] == 0 and record["rollouts"] == 2 and record["infra_errors"] == 0
