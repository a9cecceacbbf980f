"""The console scripts: a domain not built yet says so and exits non-zero; `check` lists problems."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import write_task

BIN = Path(sys.executable).parent


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
    assert out.returncode == 2 and "no task.toml" in out.stderr
