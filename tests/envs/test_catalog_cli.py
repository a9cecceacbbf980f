"""`forge-env check/build/verify` on a catalog with bad tasks: every good task still runs, every bad one
is named with its problems, and the command fails. Runs the real console script, as users do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from envs.engine_limits import engine_limits
from tests.conftest import write_task

FORGE_ENV = str(Path(sys.executable).with_name("forge-env"))


def _forge_env(
    *args: str, forge_home: Path | None = None, docker_host: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {"COLUMNS": "250", "PATH": "/usr/bin:/bin"}
    if forge_home is not None:
        env["FORGE_HOME"] = str(forge_home)
    host = docker_host if docker_host is not None else os.environ.get("DOCKER_HOST")
    if host:
        env["DOCKER_HOST"] = host
    return subprocess.run([FORGE_ENV, *args], capture_output=True, text=True, env=env, timeout=900)


def _catalog_with_bad_tasks(root: Path) -> Path:
    """Sorted so that bad tasks come before and after the good one."""
    catalog = root / "catalog"
    write_task(catalog, "a-binary-instruction")
    (catalog / "a-binary-instruction" / "instruction.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff")
    write_task(catalog, "b-good")
    write_task(catalog, "c bad name")
    write_task(catalog, "d-endless", toml='[task]\nname = "d-endless"\n[agent]\ntimeout_sec = inf\n')
    return catalog


def test_check_lists_every_bad_task_and_still_checks_the_others(tmp_path: Path) -> None:
    catalog = _catalog_with_bad_tasks(tmp_path)
    write_task(catalog, "e-verifier", toml='[verifier]\nreward_range = [1, 0]\nartifacts = ["/app/../etc"]\n')
    out = _forge_env("check", str(catalog), docker_host="unix:///nonexistent/docker.sock")
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    text = " ".join(out.stdout.split())
    for expected in (
        "task 'a-binary-instruction': instruction.md: is not UTF-8 text",
        "task 'c bad name': task.toml: [task].name: must be a name like",
        "task 'd-endless': task.toml: [agent].timeout_sec: must be a finite number",
        "task 'e-verifier': task.toml: [verifier].reward_range: must be [low, high] with low < high",
        "task 'e-verifier': task.toml: [verifier].artifacts.0: must be a normalized path",
    ):
        assert expected in text, out.stdout
    assert "b-good" not in text
    assert "5 task(s) checked: 5 error(s), 0 warning(s)" in text
    assert "Docker engine not reachable" in text


@pytest.mark.docker
def test_check_refuses_more_cpus_or_memory_than_the_engine_has(tmp_path: Path) -> None:
    limits = engine_limits()
    assert limits is not None, "this test needs the Docker engine"
    cpus, memory = int(limits.cpus) + 1, limits.memory_mb + 1
    write_task(
        tmp_path,
        "greedy",
        toml=f'[task]\nname = "greedy"\n[environment]\ncpus = {cpus}\nmemory_mb = {memory}\n',
    )
    write_task(tmp_path, "modest")
    out = _forge_env("check", str(tmp_path))
    assert out.returncode == 1, out.stdout + out.stderr
    text = " ".join(out.stdout.split())
    assert (
        f"task 'greedy': task.toml: [environment].cpus: asks for {cpus} CPUs "
        f"but the engine has {limits.cpus:g}"
    ) in text
    assert "(engine limits: " in text
    assert (
        f"task 'greedy': task.toml: [environment].memory_mb: asks for {memory} MiB "
        f"but the engine has {limits.memory_mb} MiB"
    ) in text
    assert "2 task(s) checked: 2 error(s)" in text
    # without an engine, only the static bounds apply, and both are within them
    offline = _forge_env("check", str(tmp_path), docker_host="unix:///nonexistent/docker.sock")
    assert offline.returncode == 0, offline.stdout + offline.stderr


@pytest.mark.docker
def test_build_builds_the_good_tasks_and_fails_naming_the_bad(
    base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    limits = engine_limits()
    assert limits is not None
    catalog = _catalog_with_bad_tasks(tmp_path)
    write_task(
        catalog, "f-greedy", toml=f'[task]\nname = "f-greedy"\n[environment]\ncpus = {int(limits.cpus) + 1}\n'
    )
    out = _forge_env("build", "--catalog", str(catalog), forge_home=forge_home)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    errors = " ".join(out.stderr.split())
    assert "task 'c bad name': task.toml: [task].name" in errors
    assert "task 'd-endless': task.toml: [agent].timeout_sec" in errors
    assert "task 'f-greedy': task.toml: [environment].cpus" in errors
    rows = {line.split("│")[1].strip(): line for line in out.stdout.splitlines() if line.count("│") >= 4}
    assert "openforge/task-b-good:" in rows["b-good"] and "FAILED" not in rows["b-good"], out.stdout
    for bad in ("a-binary-instruction", "c bad name", "d-endless", "f-greedy"):
        assert "FAILED (invalid task)" in rows[bad], out.stdout
    assert "5 task(s): " in out.stdout and "4 failed (4 invalid)" in out.stdout


@pytest.mark.docker
def test_verify_verifies_the_good_task_and_fails_naming_the_bad(
    base_image: str, tmp_path: Path, forge_home: Path
) -> None:
    catalog = _catalog_with_bad_tasks(tmp_path)
    extra = ["--no-forgery"] if "--no-forgery" in _forge_env("verify", "--help").stdout else []
    out = _forge_env("verify", "--catalog", str(catalog), "--runs", "1", *extra, forge_home=forge_home)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    record = json.loads((catalog / "b-good" / "verified.json").read_text())
    assert record["verified"] is True and record["task"] == "b-good"
    for bad in ("a-binary-instruction", "c bad name", "d-endless"):
        assert not (catalog / bad / "verified.json").exists()
    errors = " ".join(out.stderr.split())
    assert "task 'a-binary-instruction': instruction.md: is not UTF-8 text" in errors
    assert "task 'c bad name': task.toml: [task].name" in errors
    assert "task 'd-endless': task.toml: [agent].timeout_sec: must be a finite number" in errors
    assert "d-endless: invalid task, not run" in errors
    rows = {line.split("│")[1].strip(): line for line in out.stdout.splitlines() if line.count("│") >= 6}
    assert "yes" in rows["b-good"], out.stdout
    for bad in ("a-binary-instruction", "c bad name", "d-endless"):
        assert "NO (invalid task)" in rows[bad], out.stdout
    assert "1/4 task(s) verified" in out.stdout
