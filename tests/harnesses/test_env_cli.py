"""`forge-env harness list|build` and `forge-env run`, as a user types them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[2]


def _forge_env(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "forge-env"), *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
        timeout=600,
    )


def test_harness_list_shows_every_harness() -> None:
    out = _forge_env("harness", "list", env={"FORGE_ZEROCLAW_BIN": ""})
    assert out.returncode == 0, out.stderr
    for name in (
        "forge-react",
        "codex",
        "claude-code",
        "qwen-code",
        "openclaw",
        "opencode",
        "mini-swe-agent",
    ):
        assert re.search(rf"│ {re.escape(name)}\s+│", out.stdout), name
    assert "responses" in out.stdout and "messages" in out.stdout
    assert "zeroclaw: not installable from any registry here; set FORGE_ZEROCLAW_BIN" in out.stdout


def test_harness_build_twice_finds_the_bundle(tmp_path: Path) -> None:
    env = {"FORGE_BUNDLES": str(tmp_path)}
    first = _forge_env("harness", "build", "forge-react", env=env)
    assert first.returncode == 0, first.stderr
    assert re.search(r"forge-react\s+│.*│ built", first.stdout)
    second = _forge_env("harness", "build", "forge-react", env=env)
    assert re.search(r"forge-react\s+│.*│ cached", second.stdout)


def test_harness_build_of_an_unknown_or_unavailable_harness_fails_clearly(tmp_path: Path) -> None:
    out = _forge_env("harness", "build", "nope")
    assert out.returncode == 2 and "unknown harness 'nope'" in out.stderr
    out = _forge_env(
        "harness", "build", "zeroclaw", env={"FORGE_ZEROCLAW_BIN": "", "FORGE_BUNDLES": str(tmp_path)}
    )
    assert out.returncode == 1 and "FORGE_ZEROCLAW_BIN" in out.stderr


@pytest.mark.docker
def test_run_prints_reward_calls_and_logs(tmp_path: Path, base_image: str) -> None:
    out = _forge_env(
        "run",
        "organize-downloads",
        "--harness",
        "forge-react",
        "--model",
        "oracle",
        "--run-dir",
        str(tmp_path),
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r"reward\s+│ 1 \(scored\)", out.stdout), out.stdout
    assert re.search(r"model calls\s+│ 2 recorded", out.stdout), out.stdout
    assert str(tmp_path / "calls.sqlite") in out.stdout
    (logs,) = (tmp_path / "rollouts").iterdir()
    assert (logs / "result.json").is_file() and (logs / "agent" / "forge-react.jsonl").is_file()


def test_run_rejects_bad_input_clearly(tmp_path: Path) -> None:
    out = _forge_env("run", "no-such-task")
    assert out.returncode == 2 and "neither a task directory nor a task of catalog/claw" in out.stderr
    out = _forge_env("run", "organize-downloads", "--model", "gpt-9")
    assert out.returncode == 2 and "neither an engine" in out.stderr
    out = _forge_env("run", "organize-downloads", "--harness", "nope")
    assert out.returncode == 2 and "unknown harness" in out.stderr
