"""browser-use, the pip-installed browser harness: its launch (phone-home switches off, Chromium's
flags, the runner written into HOME, PYTHONPATH for the runner only) and how its output is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envs.browser_image import RUNTIME_DIR
from harnesses.browser_use import ACTIONS, PHONE_HOME_OFF, RUNNER, BrowserUse
from harnesses.browser_use import run as runner
from harnesses.harness import HARNESS_MOUNT, LaunchContext
from harnesses.installers import PipInstall
from harnesses.registry import get_harness

CTX = LaunchContext(
    instruction="Find the price of the red skillet on http://127.0.0.1:8080/ and give it as your answer.",
    model="oracle",
    base_url="http://127.0.0.1:8000/rollouts/r-1",
    api_key="forge-r-1",
    workdir="/app",
    home="/tmp/forge-home/browser-use",
    bundle=f"{HARNESS_MOUNT}/browser-use",
)


def test_it_is_a_pinned_pip_browser_harness() -> None:
    harness = get_harness("harnesses.browser_use:BrowserUse")
    assert isinstance(harness, BrowserUse)
    assert (harness.name, harness.version, harness.wire_api) == ("browser-use", "0.13.14", "chat.completions")
    assert harness.domains == ("browser",) and "bash" not in harness.tools
    assert {"navigate", "click", "input", "send_keys", "scroll", "done"} <= set(harness.tools)
    assert "search" not in ACTIONS  # removed by the runner: it opens a web search engine
    assert isinstance(harness.installer, PipInstall)
    assert harness.installer.packages == ["browser-use==0.13.14"] and harness.installer.python == "3.11"


def test_the_launch_turns_every_phone_home_switch_off() -> None:
    launch = BrowserUse().launch(CTX)
    env = launch.env
    assert {k: env[k] for k in PHONE_HOME_OFF} == {
        "ANONYMIZED_TELEMETRY": "false",
        "BROWSER_USE_CLOUD_SYNC": "false",
        "BROWSER_USE_VERSION_CHECK": "false",
        "BROWSER_USE_CLOUD_HINTS": "false",
        "BROWSER_USE_DISABLE_EXTENSIONS": "1",
    }
    assert env["PYTHONPATH"] == f"{HARNESS_MOUNT}/browser-use/site-packages"
    assert env["HOME"] == CTX.home and env["XDG_CONFIG_HOME"].startswith(CTX.home)
    assert env["OPENAI_API_KEY"] == "forge-r-1"


def test_the_launch_runs_the_runner_from_home_against_the_proxy() -> None:
    launch = BrowserUse().launch(CTX)
    script = f"{CTX.home}/.forge/browser_use_run.py"
    assert launch.argv[:2] == ["python3", script]
    assert launch.files == {script: RUNNER.read_text()}
    args = runner.parse_args(launch.argv[2:])
    assert args.base_url == "http://127.0.0.1:8000/rollouts/r-1/v1"
    assert (args.model, args.workdir, args.logs, args.max_steps) == ("oracle", "/app", "/logs/agent", 50)
    assert args.instruction == CTX.instruction
    assert "forge-r-1" not in launch.argv  # the key travels in the environment
    assert (
        runner.parse_args(BrowserUse().launch(CTX.model_copy(update={"max_turns": 7})).argv[2:]).max_steps
        == 7
    )


def test_chromium_gets_the_images_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner reads the image's one list of Chromium switches (envs/browser/runtime/chromium.json,
    at CHROMIUM_CONFIG in the image) instead of keeping a copy that could miss a phone-home switch."""
    config = json.loads((RUNTIME_DIR / "chromium.json").read_text())
    assert runner.CHROMIUM_CONFIG == "/opt/forge/browser/chromium.json"
    installed = tmp_path / "chromium.json"
    installed.write_text(json.dumps(config))
    monkeypatch.setattr(runner, "CHROMIUM_CONFIG", str(installed))
    executable, switches = runner.chromium()
    assert executable == "/usr/bin/chromium"
    assert "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1" in switches
    assert switches == config["args"]
    assert config["viewport"] == runner.VIEWPORT
    assert runner.EXCLUDED_ACTIONS == ["search"]


def test_the_task_names_the_start_url_once() -> None:
    assert runner.task_text("Buy a pan.", runner.START_URL).endswith(
        "The website is at http://127.0.0.1:8080/"
    )
    assert runner.task_text(CTX.instruction, runner.START_URL) == CTX.instruction


@pytest.mark.parametrize(
    ("files", "final", "error"),
    [
        (
            {
                "final-message.txt": "$42\n",
                "browser-use-summary.json": json.dumps({"done": True, "steps": 4}),
            },
            "$42",
            None,
        ),
        (
            {"browser-use-summary.json": json.dumps({"done": False, "steps": 50, "errors": ["timeout"]})},
            None,
            "browser-use stopped after 50 steps without `done`: timeout",
        ),
        ({}, None, "browser-use left no browser-use-summary.json (it crashed or was stopped)"),
    ],
)
def test_read_output(files: dict[str, str], final: str | None, error: str | None) -> None:
    output = BrowserUse().read_output("", files)
    assert (output.final_message, output.error) == (final, error)
