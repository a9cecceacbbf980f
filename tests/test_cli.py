"""The console scripts: a domain not built yet says so and exits non-zero; `check` lists problems; the
README's design-card commands work exactly as a user types them (`forge-synth propose --domain browser`,
`forge-env build`, `forge-train rl --catalog catalog/claw`)."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import docker
import pytest

from synth.run_dir import RunDir
from tests.conftest import REPO, sigint_default, write_task
from tests.synth.scripted_llm import Script, scripted_llm
from tests.train.test_interrupt import _interrupt_after_first_result, _left_behind

BIN = Path(sys.executable).parent
MAIN_JOB = "forge-train rl --catalog catalog/claw"
"""The README's first command, after `.ci/setup`."""
MODEL_ENV = ("FORGE_SYNTH_MODEL_URL", "FORGE_SYNTH_MODEL_NAME", "OPENAI_BASE_URL")


def _user_env(**env: str) -> dict[str, str]:
    """A user's shell: the venv's scripts first on PATH, no model endpoint set unless `env` sets one."""
    clean = {k: v for k, v in os.environ.items() if k not in MODEL_ENV}
    return clean | {"PATH": f"{BIN}:{clean.get('PATH', '/usr/bin:/bin')}", "COLUMNS": "200", **env}


def _typed(line: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`line` as a user types it in `cwd`."""
    return subprocess.run(
        shlex.split(line), cwd=cwd, capture_output=True, text=True, env=_user_env(**env), timeout=600
    )


def _run_dirs(cwd: Path, prefix: str) -> list[Path]:
    return sorted((cwd / "runs").glob(f"{prefix}-*"))


def test_forge_synth_propose_domain_browser_as_typed(tmp_path: Path) -> None:
    """No model configured: the offline browser families, into a new run directory it names."""
    out = _typed("forge-synth propose --domain browser", tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    text = " ".join(out.stdout.split())
    assert "proposing with the offline browser families" in text
    (run,) = _run_dirs(tmp_path, "synth-browser")
    assert f"run directory: {run.relative_to(tmp_path)}" in text
    assert f"next: forge-synth prune {run.relative_to(tmp_path)}" in text
    opened = RunDir.open(run)
    assert opened.manifest().settings.proposer == "offline"
    assert len(opened.proposals()) == 20  # the default --n
    assert {p.provenance.domain for p in opened.proposals()} == {"browser"}


def test_forge_synth_propose_takes_the_endpoint_set_in_the_environment(tmp_path: Path) -> None:
    script = Script()
    with scripted_llm(script) as url:
        out = _typed(
            "forge-synth propose --domain browser --n 2",
            tmp_path,
            FORGE_SYNTH_MODEL_URL=url,
            FORGE_SYNTH_MODEL_NAME="scripted",
        )
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"proposing with the LLM at {url}" in " ".join(out.stdout.split())
    assert script.count("propose") >= 2
    (run,) = _run_dirs(tmp_path, "synth-browser")
    settings = RunDir.open(run).manifest().settings
    assert (settings.proposer, settings.model_url, settings.model_name) == ("llm", url, "scripted")
    nameless = _typed("forge-synth propose --domain browser", tmp_path, OPENAI_BASE_URL=url)
    assert nameless.returncode == 2
    assert "OPENAI_BASE_URL sets an endpoint" in " ".join(nameless.stderr.split())


@pytest.mark.docker
def test_forge_env_build_as_typed(tmp_path: Path, client: docker.DockerClient, base_image: str) -> None:
    """In a task's folder: that task; elsewhere: every catalog under ./catalog; neither: a clear error."""
    task = write_task(tmp_path / "alone", "here-task")
    here = _typed("forge-env build", task)
    assert here.returncode == 0, here.stdout + here.stderr
    assert "building the task in the current directory (here-task)" in " ".join(here.stdout.split())
    assert "1 task(s): " in here.stdout
    project = tmp_path / "project"
    for catalog, name in (("one", "first-task"), ("two", "second-task")):
        write_task(project / "catalog" / catalog, name, files={"environment/data.txt": name})
    shelf = _typed("forge-env build", project)
    assert shelf.returncode == 0, shelf.stdout + shelf.stderr
    text = " ".join(shelf.stdout.split())
    assert "building every catalog under ./catalog: one (1), two (1)" in text
    assert "2 task(s): " in text and "first-task" in text and "second-task" in text
    nothing = _typed("forge-env build", tmp_path / "alone")
    assert nothing.returncode == 2 and "no catalog under ./catalog" in " ".join(nothing.stderr.split())


@pytest.mark.docker
def test_forge_train_rl_catalog_claw_as_typed(
    tmp_path: Path, client: docker.DockerClient, base_image: str
) -> None:
    """The main job, typed as the README gives it, starts on its embedded default: the claw images, the
    SmolLM2 policy and the warm start's first oracle rollout; Ctrl-C then stops it at once, leaving
    nothing (the whole job takes about 40 minutes: docs/training.md)."""
    (tmp_path / "catalog").symlink_to(REPO / "catalog")
    log = tmp_path / "rl.log"
    with open(log, "wb") as sink:
        proc = subprocess.Popen(
            shlex.split(MAIN_JOB),
            cwd=tmp_path,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=_user_env(),
            preexec_fn=sigint_default,
        )
    try:
        deadline = time.monotonic() + 600
        while not (started := list(tmp_path.glob("runs/rl-*/sft-data/results.jsonl"))):
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.5)
        _, code = _interrupt_after_first_result(proc, started[0], signal.SIGINT, log)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 130, log.read_text()
    text = " ".join(log.read_text().split())
    assert "policy smollm2 on " in text, text
    assert _left_behind(client, proc.pid) == []


def test_a_domain_without_generators_says_so_and_exits_non_zero() -> None:
    argv = ["propose", "--domain", "computer", "--offline", "--out", "unused"]
    out = subprocess.run([str(BIN / "forge-synth"), *argv], capture_output=True, text=True)
    assert out.returncode == 2
    assert "no generator for domain 'computer' (planned" in " ".join(out.stderr.split())


def test_check_lists_every_problem_of_a_catalog(tmp_path: Path) -> None:
    write_task(tmp_path, "fine")
    write_task(tmp_path, "bad", toml="[agent]\ntimeout_sec = -1\n")
    (tmp_path / "bad" / "tests" / "test.sh").unlink()
    out = subprocess.run(
        [str(BIN / "forge-env"), "check", str(tmp_path)],
        capture_output=True,
        text=True,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 1
    assert "task 'bad': task.toml: [agent].timeout_sec" in out.stdout
    assert "task 'bad': tests/test.sh: missing" in out.stdout
    assert "2 task(s) checked: 2 error(s)" in out.stdout


def test_a_path_without_tasks_is_an_error(tmp_path: Path) -> None:
    out = subprocess.run([str(BIN / "forge-env"), "build", str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 2 and "no task.toml" in " ".join(out.stderr.split())
