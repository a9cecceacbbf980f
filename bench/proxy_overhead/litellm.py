"""LiteLLM's proxy server as the other proxy under test: its own virtual environment at a pinned version
(never a dependency of the project), a config with one model pointing at the fake upstream, and an
environment that keeps it offline and quiet."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from .calls import API_KEY, MODEL

LITELLM_VERSION = "1.108.7"
"""Pinned on purpose: the newest release whose `[proxy]` extra resolves from PyPI when this was written
(1.108.8+ and 1.109.x pin litellm-enterprise / litellm-proxy-extras builds that are not published, 1.110+
a `litellm-proxy` package that is not)."""


def forge_home() -> Path:
    """Where OpenForge keeps caches outside the repository (`FORGE_HOME`)."""
    return Path(os.environ.get("FORGE_HOME") or Path.home() / ".cache" / "openforge")


def ensure_litellm(version: str) -> Path:
    """The `litellm` command of a virtual environment with `litellm[proxy]==version`, made on first use."""
    venv = forge_home() / "bench-venvs" / "litellm"
    python, command = venv / "bin" / "python", venv / "bin" / "litellm"
    if python.exists() and command.exists():
        probe = subprocess.run(
            [str(python), "-c", "import importlib.metadata as m; print(m.version('litellm'))"],
            capture_output=True,
            text=True,
        )
        if probe.returncode == 0 and probe.stdout.strip() == version:
            return command
        print(f"[bench] {venv} has LiteLLM {probe.stdout.strip() or '?'}; installing {version}", flush=True)
    else:
        print(f"[bench] creating {venv} with litellm[proxy]=={version} (once; a minute or two)", flush=True)
        shutil.rmtree(venv, ignore_errors=True)
        venv.parent.mkdir(parents=True, exist_ok=True)
        base = getattr(sys, "_base_executable", None) or sys.executable
        subprocess.run([base, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", f"litellm[proxy]=={version}"],
        check=True,
    )
    return command


def litellm_config(path: Path, upstream: str) -> Path:
    """One model routed to the upstream, no telemetry, the run's master key."""
    path.write_text(
        "model_list:\n"
        f"  - model_name: {MODEL}\n"
        "    litellm_params:\n"
        f"      model: openai/{MODEL}\n"
        f"      api_base: {upstream}/v1\n"
        "      api_key: sk-bench\n"
        "litellm_settings:\n"
        "  telemetry: false\n"
        "  drop_params: true\n"
        "  set_verbose: false\n"
        "general_settings:\n"
        f"  master_key: {API_KEY}\n"
    )
    return path


def litellm_env() -> dict[str, str]:
    """This environment without what LiteLLM would pick up (databases, keys), and offline, quiet settings."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.upper().startswith(("DATABASE_", "REDIS_", "LITELLM_", "OPENAI_", "LANGFUSE_"))
    }
    env.update(
        LITELLM_LOCAL_MODEL_COST_MAP="True",  # no fetch of the model cost map from the internet
        LITELLM_TELEMETRY="False",
        LITELLM_LOG="ERROR",
        LITELLM_MODE="PRODUCTION",  # no .env loading
        DISABLE_ADMIN_UI="True",
        NO_DOCS="True",
    )
    return env
